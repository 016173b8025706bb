//! The search lifecycle of a session: starting a search (or a ponder, or a table job), the
//! watchdog, and answering.
//!
//! Invariants: a search gets a time budget counted from the moment its command was read; the
//! answer is played on the session's position before it is written; an answer that is
//! missing, late, not legal or blocked is replaced by the quick move (the best unblocked
//! one); a ponder answers nothing and spends none of the match time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use wuzi_core::{Board, Point};
use wuzi_search::{quick_move, Limits};

use super::{Session, ThinkKind, Thinking};
use crate::balance;
use crate::defend::Defence;
use crate::game::{self, coord};
use crate::report::Reporting;
use crate::swap2::Swap2Answer;
use crate::timer;
use crate::worker::{Job, Outcome, Think};
use wuzi_protocol::{Coord, Reply};

/// Longest a ponder or a table job may run: far beyond any game, and no clock overflows.
const UNBOUNDED: Duration = Duration::from_secs(86_400);

impl Session {
    /// The search's limits from the settings, with the given times.
    fn limits(&self, board: &Board, soft: Option<Duration>, hard: Option<Duration>) -> Limits {
        Limits {
            soft_time: soft,
            hard_time: hard,
            max_depth: self
                .settings
                .max_depth
                .map(|d| d.min(u64::from(u32::MAX)) as u32),
            max_nodes: self.settings.max_node,
            multipv: 1,
            blocked: self.blocks_on(board),
            draw: self.settings.draw_rule(board.rule()),
            analysis: false,
        }
    }

    /// Starts the search for the position (or answers at once when there is no time).
    pub(super) fn think(&mut self, kind: ThinkKind, at: Instant) {
        let Some(board) = self.game.clone() else {
            return;
        };
        if quick_move(&board).is_none() {
            self.error(game::no_move_reason(&board));
            return;
        }
        let blocked = self.blocks_on(&board);
        let moves_blocked = !matches!(kind, ThinkKind::Defend | ThinkKind::Swap2);
        if moves_blocked && quick_unblocked(&board, &blocked).is_none() {
            self.error(
                "no legal move: every legal move is blocked (YXBLOCKRESET or YXBLOCKUNDO \
                 unblocks)",
            );
            return;
        }
        let spent = self.startup.take().unwrap_or_default();
        let budget = timer::budget(&self.settings.clock(), spent);
        let id = self.next_id;
        self.next_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        let thinking = Thinking {
            id,
            kind,
            stop: Arc::clone(&stop),
            started: at,
            hard_at: later(at, budget.hard),
            give_up_at: later(at, budget.hard + budget.grace),
            stopped: false,
        };
        if budget.is_instant() {
            self.answer(thinking, None);
            return;
        }
        let now = Instant::now();
        let mut limits = self.limits(
            &board,
            Some(later(at, budget.soft).saturating_duration_since(now)),
            Some(thinking.hard_at.saturating_duration_since(now)),
        );
        if let ThinkKind::Nbest(n) = kind {
            limits.multipv = n;
            limits.analysis = true;
        }
        if kind == ThinkKind::Swap2 {
            limits.blocked.clear();
        }
        let board = Box::new(board);
        let job = match kind {
            ThinkKind::Swap2 => Job::Swap2 {
                id,
                board,
                limits,
                stop,
            },
            ThinkKind::Balance { two, target } => Job::Balance {
                id,
                board,
                limits,
                stop,
                two,
                target,
            },
            ThinkKind::Defend => Job::Defend {
                id,
                board,
                limits,
                stop,
            },
            _ => {
                let nbest = matches!(kind, ThinkKind::Nbest(_));
                Job::Think {
                    id,
                    think: Think {
                        board,
                        limits,
                        stop,
                        reporting: Reporting {
                            progress: self.settings.show_detail || nbest,
                            realtime: self.settings.realtime,
                            detail: self.settings.detail,
                            final_lines: nbest,
                        },
                        // Levels weaken play, not analysis.
                        strength: if kind == ThinkKind::Move {
                            self.settings.strength
                        } else {
                            crate::settings::FULL_STRENGTH
                        },
                    },
                }
            }
        };
        if self.jobs.send(job).is_err() {
            self.answer(thinking, None);
            return;
        }
        self.thinking = Some(thinking);
    }

    /// Starts a job of `kind` that the session waits for without a deadline (a table job);
    /// returns its id.
    pub(super) fn start_job(&mut self, kind: ThinkKind) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        let now = Instant::now();
        self.thinking = Some(Thinking {
            id,
            kind,
            stop: Arc::new(AtomicBool::new(false)),
            started: now,
            hard_at: later(now, UNBOUNDED),
            give_up_at: later(now, UNBOUNDED),
            stopped: false,
        });
        id
    }

    /// Sends a job started by `start_job`; if the search thread is gone, answers at once.
    pub(super) fn send_job(&mut self, job: Job) {
        if self.jobs.send(job).is_err() {
            if let Some(t) = self.thinking.take() {
                self.answer(t, None);
            }
        }
    }

    /// Thinks on the opponent's time: a search of the position after the engine's move,
    /// without a limit, until any line arrives. It fills the table for the next move.
    pub(super) fn ponder(&mut self) {
        if !self.settings.pondering || self.settings.rule().is_err() {
            return;
        }
        let Some(board) = self.game.clone() else {
            return;
        };
        if quick_move(&board).is_none() || board.clone().winner().is_some() {
            return;
        }
        let mut limits = self.limits(&board, None, None);
        // The blocks are the engine's own moves'; here the opponent is to move.
        limits.blocked.clear();
        let id = self.start_job(ThinkKind::Ponder);
        let stop = self
            .thinking
            .as_ref()
            .map(|t| Arc::clone(&t.stop))
            .unwrap_or_default();
        self.send_job(Job::Think {
            id,
            think: Think {
                board: Box::new(board),
                limits,
                stop,
                reporting: Reporting::silent(),
                strength: crate::settings::FULL_STRENGTH,
            },
        });
    }

    pub(super) fn on_deadline(&mut self) {
        let Some(t) = self.thinking.as_mut() else {
            return;
        };
        if !t.stopped {
            t.stop.store(true, Ordering::SeqCst);
            t.stopped = true;
            return;
        }
        if let Some(t) = self.thinking.take() {
            self.answer(t, None);
            self.drain();
        }
    }

    pub(super) fn on_done(&mut self, id: u64, outcome: Outcome) -> super::Flow {
        if self.thinking.as_ref().map(|t| t.id) != Some(id) {
            return super::Flow::Continue; // a search that was given up on
        }
        if let Some(t) = self.thinking.take() {
            self.answer(t, Some(outcome));
        }
        self.drain()
    }

    /// Plays and writes the answer of a search (or the quick answer when there is none).
    pub(super) fn answer(&mut self, t: Thinking, outcome: Option<Outcome>) {
        if t.kind.answers() && !matches!(t.kind, ThinkKind::Table(_)) {
            self.settings
                .spend(t.started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64);
        }
        let swap2_wanted = self.game.as_ref().map_or(1, swap2_wanted);
        let (proposed, wanted) = match (t.kind, outcome) {
            (ThinkKind::Ponder, _) => return,
            (ThinkKind::Table(word), outcome) => {
                match outcome {
                    Some(Outcome::Table(Ok(text))) => self.send(Reply::Message(text)),
                    Some(Outcome::Table(Err(why))) => self.error(format!("{word}: {why}")),
                    _ => self.error(format!("{word}: the search thread did not answer")),
                }
                return;
            }
            (ThinkKind::Defend, outcome) => {
                let defence = match outcome {
                    Some(Outcome::Defend(d)) => d,
                    _ => Defence::Partial(Vec::new()),
                };
                self.send(Reply::Message(defence.message()));
                return;
            }
            (ThinkKind::Swap2, Some(Outcome::Swap2(Swap2Answer::Swap))) => {
                self.send(Reply::Swap);
                return;
            }
            (ThinkKind::Swap2, Some(Outcome::Swap2(Swap2Answer::Moves(moves)))) => {
                (moves, swap2_wanted)
            }
            (ThinkKind::Swap2, _) => (Vec::new(), swap2_wanted),
            (ThinkKind::Balance { two, .. }, Some(Outcome::Balance(Some(b)))) => {
                (b.moves, 1 + usize::from(two))
            }
            (ThinkKind::Balance { two, .. }, _) => (Vec::new(), 1 + usize::from(two)),
            (_, Some(Outcome::Move(Some(r)))) => (vec![r.best], 1),
            _ => (Vec::new(), 1),
        };
        let Some(mut board) = self.game.clone() else {
            return;
        };
        let blocked = match t.kind {
            ThinkKind::Swap2 => Vec::new(),
            _ => self.blocks_on(&board),
        };
        let moves = legal_sequence(&board, &proposed, wanted, &blocked);
        if moves.is_empty() {
            self.error(game::no_move_reason(&board));
            return;
        }
        for &p in &moves {
            let _ = board.play(p);
        }
        self.game = Some(board);
        let coords: Vec<Coord> = moves.into_iter().map(coord).collect();
        match coords.as_slice() {
            [one] => self.send(Reply::Move(*one)),
            _ => self.send(Reply::Moves(coords)),
        }
        if t.kind == ThinkKind::Move {
            self.ponder_next = true;
        }
    }
}

fn swap2_wanted(board: &Board) -> usize {
    if board.move_count() == 0 {
        3
    } else {
        1
    }
}

/// The quick move of `board` if it is not blocked, else the nearest-placed legal unblocked
/// point; `None` when every legal move is blocked.
pub(super) fn quick_unblocked(board: &Board, blocked: &[Point]) -> Option<Point> {
    let q = quick_move(board)?;
    if !blocked.contains(&q) {
        return Some(q);
    }
    if let Some(&p) = balance::candidates(board, blocked).first() {
        return Some(p);
    }
    let mut b = board.clone();
    board
        .empty_points()
        .into_iter()
        .find(|&p| !blocked.contains(&p) && b.is_legal(p))
}

/// `proposed` if every move is legal in turn on `board` and none is blocked; otherwise
/// `wanted` quick moves (unblocked).
pub(super) fn legal_sequence(
    board: &Board,
    proposed: &[Point],
    wanted: usize,
    blocked: &[Point],
) -> Vec<Point> {
    let mut check = board.clone();
    if !proposed.is_empty()
        && proposed
            .iter()
            .all(|&p| !blocked.contains(&p) && check.is_legal(p) && check.play(p).is_ok())
    {
        return proposed.to_vec();
    }
    let mut check = board.clone();
    let mut moves = Vec::new();
    while moves.len() < wanted {
        match quick_unblocked(&check, blocked) {
            Some(p) if check.play(p).is_ok() => moves.push(p),
            _ => break,
        }
    }
    moves
}

/// `at + d`, or a day after `at` if that cannot be represented.
pub(super) fn later(at: Instant, d: Duration) -> Instant {
    at.checked_add(d)
        .or_else(|| at.checked_add(Duration::from_secs(86_400)))
        .unwrap_or(at)
}
