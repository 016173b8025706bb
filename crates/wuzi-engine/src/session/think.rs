//! The search lifecycle of a session: starting a search, the watchdog, and answering.
//!
//! Invariants: a search gets a time budget counted from the moment its command was read; the
//! answer is played on the session's position before it is written; an answer that is
//! missing, late or not legal is replaced by the quick move.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use wuzi_core::{Board, Point};
use wuzi_search::{quick_move, Limits};

use super::{Flow, Session, ThinkKind, Thinking};
use crate::game::{self, coord};
use crate::swap2::Swap2Answer;
use crate::timer;
use crate::worker::{Job, Outcome};
use wuzi_protocol::{Coord, Reply};

impl Session {
    /// Starts the search for the position (or answers at once when there is no time).
    pub(super) fn think(&mut self, kind: ThinkKind, at: Instant) {
        let Some(board) = self.game.clone() else {
            return;
        };
        if quick_move(&board).is_none() {
            self.error(game::no_move_reason(&board));
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
        let limits = Limits {
            soft_time: Some(later(at, budget.soft).saturating_duration_since(now)),
            hard_time: Some(thinking.hard_at.saturating_duration_since(now)),
            max_depth: self
                .settings
                .max_depth
                .map(|d| d.min(u64::from(u32::MAX)) as u32),
            max_nodes: self.settings.max_node,
            multipv: match kind {
                ThinkKind::Nbest(n) => n,
                _ => 1,
            },
        };
        let job = match kind {
            ThinkKind::Swap2 => Job::Swap2 {
                id,
                board: Box::new(board),
                limits,
                stop,
            },
            _ => Job::Think {
                id,
                board: Box::new(board),
                limits,
                stop,
                report: self.settings.show_detail || matches!(kind, ThinkKind::Nbest(_)),
            },
        };
        if self.jobs.send(job).is_err() {
            self.answer(thinking, None);
            return;
        }
        self.thinking = Some(thinking);
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

    pub(super) fn on_done(&mut self, id: u64, outcome: Outcome) -> Flow {
        if self.thinking.as_ref().map(|t| t.id) != Some(id) {
            return Flow::Continue; // a search that was given up on
        }
        if let Some(t) = self.thinking.take() {
            self.answer(t, Some(outcome));
        }
        self.drain()
    }

    /// Plays and writes the answer of a search (or the quick answer when there is none).
    pub(super) fn answer(&mut self, t: Thinking, outcome: Option<Outcome>) {
        self.settings
            .spend(t.started.elapsed().as_millis().min(u128::from(u64::MAX)) as u64);
        let Some(mut board) = self.game.clone() else {
            return;
        };
        let proposed = match (t.kind, outcome) {
            (ThinkKind::Swap2, Some(Outcome::Swap2(Swap2Answer::Swap))) => {
                self.send(Reply::Swap);
                return;
            }
            (ThinkKind::Swap2, Some(Outcome::Swap2(Swap2Answer::Moves(moves)))) => moves,
            (_, Some(Outcome::Move(Some(r)))) => vec![r.best],
            _ => Vec::new(),
        };
        let wanted = match t.kind {
            ThinkKind::Swap2 if board.move_count() == 0 => 3,
            _ => 1,
        };
        let moves = legal_sequence(&board, &proposed, wanted);
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
    }
}

/// `proposed` if every move is legal in turn on `board`; otherwise `wanted` quick moves.
pub(super) fn legal_sequence(board: &Board, proposed: &[Point], wanted: usize) -> Vec<Point> {
    let mut check = board.clone();
    if !proposed.is_empty()
        && proposed
            .iter()
            .all(|&p| check.is_legal(p) && check.play(p).is_ok())
    {
        return proposed.to_vec();
    }
    let mut check = board.clone();
    let mut moves = Vec::new();
    while moves.len() < wanted {
        match quick_move(&check) {
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
