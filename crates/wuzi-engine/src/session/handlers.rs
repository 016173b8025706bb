//! The session's command handlers that change or report the position, the blocks and the
//! table.
//!
//! Each handler checks everything first and changes the session only when nothing can fail
//! any more, so an `Err` (which the dispatcher turns into one `ERROR` line) leaves the
//! position as it was.

use std::path::PathBuf;
use std::time::Instant;

use super::{not_supported, Flow, Session, ThinkKind};
use crate::block::{Block, BlockKind};
use crate::game::{self, coord};
use crate::settings::Changed;
use crate::worker::Job;
use wuzi_core::{Color, Point};
use wuzi_protocol::{Coord, Reply};
use wuzi_search::tt::TableMeta;

/// The commands `YXSHOWINFO` reports, beyond the Gomocup protocol's.
pub const COMMANDS: &str = "YXBOARD YXNBEST YXSTOP YXSHOWFORBID YXHASHCLEAR YXSHOWINFO \
                            SWAP2BOARD YXBLOCK YXBLOCKUNDO YXBLOCKRESET YXBALANCEONE \
                            YXBALANCETWO YXSEARCHDEFEND YXHASHDUMP YXHASHLOAD YXSHOWHASHUSAGE";
/// The `INFO` keys `YXSHOWINFO` reports as acted on.
pub const SETTINGS: &str = "timeout_turn timeout_match time_left max_memory hash_size rule \
                            thread_num max_depth max_node show_detail pondering strength \
                            max_moves draw_result";

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
            Changed::Draw => {
                // The table's scores were searched under the old stone limit.
                let _ = self.jobs.send(Job::Clear);
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

    pub(super) fn show_info(&self) {
        self.send(Reply::Message(format!(
            "INFO MAX_THREAD_NUM {}",
            self.max_threads
        )));
        self.send(Reply::Message(format!("INFO COMMANDS {COMMANDS}")));
        self.send(Reply::Message(format!("INFO SETTINGS {SETTINGS}")));
        self.send(Reply::Message(format!(
            "INFO MAX_HASH_SIZE {}",
            self.settings.table_cap() / 1024
        )));
    }

    pub(super) fn open_block(&mut self, kind: BlockKind) -> Result<(), String> {
        if matches!(kind, BlockKind::YxBlock | BlockKind::YxBlockUndo) {
            // Refused at once, before its lines: they then meet no open block and each gets
            // its own reply, as any line without a block does.
            self.playing()?;
        }
        self.block = Some(Block::new(kind));
        Ok(())
    }

    pub(super) fn finish_block(&mut self, block: Block, at: Instant) -> Flow {
        let word = block.kind.word();
        match block.kind {
            BlockKind::Ignored(word) => {
                self.send(not_supported(word));
                return Flow::Continue;
            }
            BlockKind::YxBlock | BlockKind::YxBlockUndo => {
                if let Err(why) = self.change_blocks(&block) {
                    self.error(format!("{word}: {why}; blocks unchanged"));
                }
                return Flow::Continue;
            }
            _ => {}
        }
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
                    _ => {}
                }
            }
        }
        Flow::Continue
    }

    /// Adds (`YXBLOCK`) or removes (`YXBLOCKUNDO`) the block's points: all of them, or none
    /// if any line is bad or off the board.
    fn change_blocks(&mut self, block: &Block) -> Result<(), String> {
        if let Some(e) = &block.error {
            return Err(e.clone());
        }
        let board = self.playing()?;
        let mut points = Vec::with_capacity(block.lines.len());
        for (i, line) in block.lines.iter().enumerate() {
            let p = game::point(board, line.at)
                .map_err(|e| format!("line {} \"{line}\": {e}", i + 1))?;
            points.push(p);
        }
        if block.kind == BlockKind::YxBlock {
            for p in points {
                if !self.blocked.contains(&p) {
                    self.blocked.push(p);
                }
            }
        } else {
            self.blocked.retain(|p| !points.contains(p));
        }
        Ok(())
    }

    /// The blocked points that lie on `board`.
    pub(super) fn blocks_on(&self, board: &wuzi_core::Board) -> Vec<Point> {
        self.blocked
            .iter()
            .copied()
            .filter(|&p| board.contains(p))
            .collect()
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

    pub(super) fn balance(&mut self, two: bool, target: i32, at: Instant) -> Result<(), String> {
        let board = self.playing()?;
        if board.move_count() + if two { 2 } else { 1 } > board.width() * board.height() {
            return Err("the board has no room for the moves".to_string());
        }
        self.think(ThinkKind::Balance { two, target }, at);
        Ok(())
    }

    fn table_meta(&self) -> Result<TableMeta, String> {
        let board = self.playing()?;
        Ok(TableMeta {
            width: board.width(),
            height: board.height(),
            rule: board.rule(),
        })
    }

    pub(super) fn table_file(&mut self, path: String, save: bool) -> Result<(), String> {
        let meta = self.table_meta()?;
        let word = if save { "YXHASHDUMP" } else { "YXHASHLOAD" };
        let id = self.start_job(ThinkKind::Table(word));
        let job = Job::Table {
            id,
            path: PathBuf::from(path),
            meta,
            save,
        };
        self.send_job(job);
        Ok(())
    }

    pub(super) fn table_usage(&mut self) -> Result<(), String> {
        let id = self.start_job(ThinkKind::Table("YXSHOWHASHUSAGE"));
        self.send_job(Job::TableUsage { id });
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
