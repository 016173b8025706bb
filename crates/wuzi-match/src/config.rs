//! A match's settings ([`MatchConfig`]) and its schedule of games ([`GameSetup`]).
//!
//! Invariants once [`MatchConfig::validate`] passed: the board size is supported, every
//! opening fits the board and rule, `games >= 1`, `concurrency >= 1`, a move limit is above
//! the longest opening, the turn time is at least 1 ms, and the engines have distinct names
//! (results are kept by name).
//!
//! The schedule pairs games: games `2k` and `2k + 1` play the same opening with colours
//! swapped (the first engine is Black in the even game). Openings are taken in the arranged
//! order and start again from the first when the match has more games than twice the suite.

use std::path::PathBuf;
use std::time::Duration;

use wuzi_core::shard::Shard;
use wuzi_core::{Board, Point, Rule};

use crate::clock::TimeControl;
use crate::engine::EngineSpec;
use crate::error::MatchError;
use crate::game::EngineId;
use crate::opening::{arrange, check_suite, Opening, Order};
use crate::sprt::Sprt;

/// Gomocup's memory limit: 350 MiB.
pub const GOMOCUP_MAX_MEMORY: u64 = 367_001_600;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub time: TimeControl,
    /// Sent as `INFO max_memory` (0 = unlimited).
    pub max_memory: u64,
    /// Whether an engine whose resident memory exceeds `max_memory` loses (Linux only).
    pub enforce_memory: bool,
    pub openings: Vec<Opening>,
    pub order: Order,
    pub seed: u64,
    /// Number of games (the most, under SPRT).
    pub games: usize,
    /// Games played at once.
    pub concurrency: usize,
    /// Stones on the board (opening included) at which the game is drawn.
    pub max_moves: Option<usize>,
    pub sprt: Option<Sprt>,
    /// One SGF collection for the match.
    pub sgf: Option<PathBuf>,
    /// A folder for one piskvork `.psq` file per game.
    pub psq_dir: Option<PathBuf>,
    /// Where to keep the engines' `MESSAGE` lines.
    pub message_log: Option<PathBuf>,
    /// Start a new process for every game instead of reusing it.
    pub fresh_process: bool,
    /// Send `RESTART` (not `START`) to a reused engine, as long as it answers `OK`.
    pub restart: bool,
    /// Stop the engine not to move (SIGSTOP) while the other thinks.
    pub freeze: bool,
    /// The results file of a match, to append to and resume from (a tournament keeps its own,
    /// `TournamentConfig::results`; this one is not used there).
    pub results: Option<PathBuf>,
    /// The share of the schedule to play (`crate::schedule`); a match or tournament split
    /// into shards plays each apart and merges their results files.
    pub shard: Shard,
}

impl MatchConfig {
    /// A 15x15 freestyle match of two games at 1 s a move (1 s tolerance), no openings, one
    /// game at a time, processes reused with `RESTART`, no freezing, no results file, the
    /// whole schedule.
    pub fn new(first: EngineSpec, second: EngineSpec) -> MatchConfig {
        MatchConfig {
            engines: [first, second],
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            time: TimeControl {
                turn: Duration::from_secs(1),
                game: None,
                tolerance: Duration::from_secs(1),
            },
            max_memory: GOMOCUP_MAX_MEMORY,
            enforce_memory: false,
            openings: Vec::new(),
            order: Order::Sequential,
            seed: 0,
            games: 2,
            concurrency: 1,
            max_moves: None,
            sprt: None,
            sgf: None,
            psq_dir: None,
            message_log: None,
            fresh_process: false,
            restart: true,
            freeze: false,
            results: None,
            shard: Shard::WHOLE,
        }
    }

    pub fn validate(&self) -> Result<(), MatchError> {
        let bad = |m: String| Err(MatchError::Config(m));
        if let Err(e) = Board::new(self.width, self.height, self.rule) {
            return bad(e.to_string());
        }
        check_suite(&self.openings, self.width, self.height, self.rule)?;
        if self.games == 0 {
            return bad("the match needs at least one game".into());
        }
        if self.concurrency == 0 {
            return bad("concurrency must be at least 1".into());
        }
        if let Some(limit) = self.max_moves {
            let longest = self.openings.iter().map(Opening::len).max().unwrap_or(0);
            if limit <= longest {
                return bad(format!(
                    "the move limit {limit} must be above the longest opening ({longest} moves)"
                ));
            }
        }
        if self.time.turn < Duration::from_millis(1) {
            return bad("the turn time must be at least 1 ms".into());
        }
        if self.engines[0].name == self.engines[1].name {
            return bad(format!(
                "both engines are named \"{}\"; give them distinct names",
                self.engines[0].name
            ));
        }
        for e in &self.engines {
            if e.cmd.trim().is_empty() {
                return bad(format!("engine {} has no command", e.name));
            }
        }
        Ok(())
    }

    /// The whole schedule (`games` entries).
    pub fn schedule(&self) -> Result<Vec<GameSetup>, MatchError> {
        let order = arrange(self.openings.len(), self.order, self.seed);
        (0..self.games)
            .map(|index| {
                let black = index % 2;
                let opening = (!order.is_empty()).then(|| order[(index / 2) % order.len()]);
                let points = match opening {
                    Some(i) => self.openings[i]
                        .points(self.width, self.height, self.rule)
                        .map_err(MatchError::Config)?,
                    None => Vec::new(),
                };
                Ok(GameSetup {
                    index,
                    black,
                    opening,
                    points,
                })
            })
            .collect()
    }
}

/// One scheduled game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub index: usize,
    pub black: EngineId,
    /// Index into the match's openings.
    pub opening: Option<usize>,
    /// The opening's points, checked against the board.
    pub points: Vec<Point>,
}
