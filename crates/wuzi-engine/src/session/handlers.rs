//! The session's command handlers that change or report the position.
//!
//! Each handler checks everything first and changes the session only when nothing can fail
//! any more, so an `Err` (which the dispatcher turns into one `ERROR` line) leaves the
//! position as it was.

use std::time::Instant;

use super::{Flow, Session, ThinkKind};
use crate::block::{Block, BlockKind};
use crate::game::{self, coord};
use crate::settings::Changed;
use crate::worker::Job;
use wuzi_core::Color;
use wuzi_protocol::{Coord, Reply};

impl Session {
    pub(super) fn apply_setting(&mut self, setting: wuzi_protocol::Setting) {
        match self.settings.apply(setting) {
            Changed::Nothing => {}
            Changed::Table => {
                let _ = self.jobs.send(Job::SetHash(self.settings.table_bytes()));
            }
            Changed::Threads => {
                // Jobs run in order on the search thread: a change during a search waits for
                // its end, and the next search starts with the new pool.
                let _ = self.jobs.send(Job::SetThreads(self.settings.threads()));
                let _ = self.jobs.send(Job::SetHash(self.settings.table_bytes()));
            }
            Changed::Rule => {
                if let (Ok(rule), Some(board)) = (self.settings.rule(), self.game.as_ref()) {
                    if board.rule() != rule {
                        if let Ok(next) = game::with_rule(board, rule) {
                            self.game = Some(next);
                            let _ = self.jobs.send(Job::Clear);
                        }
                    }
                }
            }
        }
    }

    pub(super) fn open_block(&mut self, kind: BlockKind) -> Result<(), String> {
        self.block = Some(Block::new(kind));
        Ok(())
    }

    pub(super) fn finish_block(&mut self, block: Block, at: Instant) -> Flow {
        let word = block.kind.word();
        let built = match (&block.error, self.playing()) {
            (Some(e), _) => Err(e.clone()),
            (None, Err(e)) => Err(e),
            (None, Ok(template)) => match block.kind {
                BlockKind::Swap2Board => game::from_swap2_block(template, &block.lines),
                _ => game::from_board_block(template, &block.lines),
            },
        };
        match built {
            Err(why) => self.error(format!("{word}: {why}; position unchanged")),
            Ok(board) => {
                self.game = Some(board);
                match block.kind {
                    BlockKind::Board => self.think(ThinkKind::Move, at),
                    BlockKind::Swap2Board => self.think(ThinkKind::Swap2, at),
                    BlockKind::YxBoard => {}
                }
            }
        }
        Flow::Continue
    }

    pub(super) fn start(&mut self, width: u32, height: u32) -> Result<(), String> {
        let rule = self.settings.rule()?;
        let board = game::new_board(width, height, rule)?;
        self.game = Some(board);
        let _ = self.jobs.send(Job::Clear);
        self.send(Reply::Ok);
        Ok(())
    }

    pub(super) fn restart(&mut self) -> Result<(), String> {
        let board = self.playing()?;
        let next = game::new_board(board.width() as u32, board.height() as u32, board.rule())?;
        self.game = Some(next);
        let _ = self.jobs.send(Job::Clear);
        self.send(Reply::Ok);
        Ok(())
    }

    pub(super) fn turn(&mut self, c: Coord, at: Instant) -> Result<(), String> {
        let next = game::with_move(self.playing()?, c)?;
        self.game = Some(next);
        self.think(ThinkKind::Move, at);
        Ok(())
    }

    pub(super) fn takeback(&mut self, c: Coord) -> Result<(), String> {
        let next = game::without_stone(self.playing()?, c)?;
        self.game = Some(next);
        self.send(Reply::Ok);
        Ok(())
    }

    pub(super) fn play(&mut self, c: Coord) -> Result<(), String> {
        let board = self.playing()?;
        let p = game::point(board, c)?;
        if board.side_to_move() == Color::Black && board.clone().is_forbidden(p) {
            return Err(format!("{c} is forbidden for Black"));
        }
        let next = game::with_move(board, c)?;
        self.game = Some(next);
        self.send(Reply::Move(c));
        Ok(())
    }

    pub(super) fn show_forbid(&mut self) -> Result<(), String> {
        let mut board = self.playing()?.clone();
        let points = board
            .forbidden_points()
            .into_iter()
            .map(|(p, _)| coord(p))
            .collect();
        self.send(Reply::Forbid(points));
        Ok(())
    }

    pub(super) fn nbest(&mut self, n: u32, at: Instant) -> Result<(), String> {
        self.playing()?;
        if n == 0 {
            return Err("N must be at least 1".to_string());
        }
        self.think(ThinkKind::Nbest(n as usize), at);
        Ok(())
    }
}

/// The answer to `ABOUT`.
pub fn about() -> Reply {
    Reply::about(&[
        ("name", "wuzi"),
        ("version", env!("CARGO_PKG_VERSION")),
        ("author", "the wuzi developers"),
        ("country", ""),
        ("www", ""),
        ("email", ""),
    ])
}
