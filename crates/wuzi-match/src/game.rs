//! What one game was and how it ended: plain data shared by the referee, the statistics and the
//! records.
//!
//! Invariants of a [`GameResult`]: `moves` holds the opening then the engines' moves in the
//! order played, alternately Black and White from Black, each on an empty point of the board
//! (an occupied or off-board move is only in `reason`; Black's forbidden move under renju is
//! played, so it is the last of `moves`); `winner` is `None` exactly when the reason is a draw
//! reason.

use std::time::Duration;

use wuzi_core::{Color, ForbiddenKind, Point};

/// Which of the two engines of a match: 0 is the first `--engine`, 1 the second.
pub type EngineId = usize;

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// The winner made five (per the rule).
    Five,
    /// Black played a forbidden move under renju.
    Forbidden(ForbiddenKind),
    /// The move was on an occupied point.
    Occupied(Point),
    /// The move was off the board.
    OffBoard { x: u32, y: u32 },
    /// The engine's process ended or its pipes broke (`detail`: how it ended).
    Crash(String),
    /// A line that is no reply of the protocol (quoted, shortened).
    Garbage(String),
    /// A well-formed reply that is not a move where a move was due, or an `ERROR` answer to
    /// `START`.
    Protocol(String),
    /// The move (start-up time included for an engine's first move) or the game clock ran
    /// out; the engine was killed if it had not answered.
    Time(String),
    /// The engine's resident memory exceeded `max_memory`.
    Memory { bytes: u64, limit: u64 },
    /// The board is full: a draw.
    FullBoard,
    /// Renju Black is to move and every empty point is forbidden: a draw, as a full board is.
    NoLegalMove,
    /// The move limit was reached: a draw.
    MoveLimit(usize),
}

impl EndReason {
    /// A one-word key for tallies: `five`, `forbidden`, `occupied`, `off-board`, `crash`,
    /// `garbage`, `protocol`, `time`, `memory`, `full-board`, `no-legal-move`, `move-limit`.
    pub fn key(&self) -> &'static str {
        match self {
            EndReason::Five => "five",
            EndReason::Forbidden(_) => "forbidden",
            EndReason::Occupied(_) => "occupied",
            EndReason::OffBoard { .. } => "off-board",
            EndReason::Crash(_) => "crash",
            EndReason::Garbage(_) => "garbage",
            EndReason::Protocol(_) => "protocol",
            EndReason::Time(_) => "time",
            EndReason::Memory { .. } => "memory",
            EndReason::FullBoard => "full-board",
            EndReason::NoLegalMove => "no-legal-move",
            EndReason::MoveLimit(_) => "move-limit",
        }
    }

    /// The key of that text, if it is one of [`REASON_KEYS`] (a results file's reason, as the
    /// statistics count it).
    pub fn known_key(text: &str) -> Option<&'static str> {
        REASON_KEYS.iter().copied().find(|k| *k == text)
    }

    /// Whether the reason of this key is a draw reason.
    pub fn key_is_draw(key: &str) -> bool {
        matches!(key, "full-board" | "no-legal-move" | "move-limit")
    }

    pub fn is_draw(&self) -> bool {
        matches!(
            self,
            EndReason::FullBoard | EndReason::NoLegalMove | EndReason::MoveLimit(_)
        )
    }

    /// True for the faults after which the engine is killed and restarted.
    pub fn needs_restart(&self) -> bool {
        matches!(
            self,
            EndReason::Crash(_)
                | EndReason::Garbage(_)
                | EndReason::Protocol(_)
                | EndReason::Time(_)
                | EndReason::Memory { .. }
        )
    }
}

/// Every end reason's key, as [`EndReason::key`] gives them.
pub const REASON_KEYS: [&str; 12] = [
    "five",
    "forbidden",
    "occupied",
    "off-board",
    "crash",
    "garbage",
    "protocol",
    "time",
    "memory",
    "full-board",
    "no-legal-move",
    "move-limit",
];

impl std::fmt::Display for EndReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EndReason::Five => f.write_str("five in a row"),
            EndReason::Forbidden(k) => write!(f, "forbidden move ({})", k.name()),
            EndReason::Occupied(p) => write!(f, "move on the occupied point {p}"),
            EndReason::OffBoard { x, y } => write!(f, "move {x},{y} off the board"),
            EndReason::Crash(d) => write!(f, "engine crashed ({d})"),
            EndReason::Garbage(l) => write!(f, "garbage output \"{l}\""),
            EndReason::Protocol(d) => write!(f, "protocol violation: {d}"),
            EndReason::Time(d) => write!(f, "lost on time: {d}"),
            EndReason::Memory { bytes, limit } => {
                write!(f, "memory {bytes} bytes over max_memory {limit}")
            }
            EndReason::FullBoard => f.write_str("board full"),
            EndReason::NoLegalMove => f.write_str("no legal move: every empty point is forbidden"),
            EndReason::MoveLimit(n) => write!(f, "move limit {n} reached"),
        }
    }
}

/// One move as played, with the time it took (zero for opening moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayedMove {
    pub point: Point,
    pub time: Duration,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// 0-based number of the game in the match schedule.
    pub index: usize,
    /// The engine that played Black.
    pub black: EngineId,
    /// Label and text of the opening, if any.
    pub opening: Option<(String, String)>,
    /// How many of `moves` are the opening.
    pub opening_len: usize,
    pub moves: Vec<PlayedMove>,
    /// The winning colour; `None` for a draw.
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Total thinking time of each engine (by engine id).
    pub time_used: [Duration; 2],
}

impl GameResult {
    /// The engine that played `color`.
    pub fn engine_of(&self, color: Color) -> EngineId {
        match color {
            Color::Black => self.black,
            Color::White => 1 - self.black,
        }
    }

    /// The winning engine, if any.
    pub fn winning_engine(&self) -> Option<EngineId> {
        self.winner.map(|c| self.engine_of(c))
    }

    /// The score of engine `id`: 1, 0.5 or 0.
    pub fn score_of(&self, id: EngineId) -> f64 {
        match self.winning_engine() {
            Some(w) if w == id => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// The result in the usual notation from engine 0's side: `1-0`, `0-1` or `1/2`.
    pub fn score_text(&self) -> &'static str {
        match self.winning_engine() {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_has_a_listed_key_and_its_draw_kind() {
        let all = [
            EndReason::Five,
            EndReason::Forbidden(ForbiddenKind::Overline),
            EndReason::Occupied(Point::new(1, 1)),
            EndReason::OffBoard { x: 20, y: 0 },
            EndReason::Crash(String::new()),
            EndReason::Garbage(String::new()),
            EndReason::Protocol(String::new()),
            EndReason::Time(String::new()),
            EndReason::Memory { bytes: 2, limit: 1 },
            EndReason::FullBoard,
            EndReason::NoLegalMove,
            EndReason::MoveLimit(9),
        ];
        let keys: Vec<&str> = all.iter().map(EndReason::key).collect();
        assert_eq!(keys, REASON_KEYS);
        for r in &all {
            assert_eq!(EndReason::known_key(r.key()), Some(r.key()));
            assert_eq!(EndReason::key_is_draw(r.key()), r.is_draw(), "{r}");
        }
        assert_eq!(EndReason::known_key("resign"), None);
    }
}
