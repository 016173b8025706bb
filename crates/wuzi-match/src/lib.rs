//! wuzi-match: engine-versus-engine matches between any two Gomocup-protocol engines, refereed
//! the way the official Gomocup referee does, with statistics to decide on.
//!
//! - `engine`: engine processes (spawn, non-blocking I/O with timestamps, kill);
//! - `referee`: one game: the protocol dialogue, clocks and adjudication;
//! - `clock`: time control, tolerance and carried overrun;
//! - `opening`: opening suites (centre offsets or move strings) and their order;
//! - `config`: a match's settings and schedule; `runner`: game threads and the result stream;
//! - `game`: a finished game and its end reason; `stats`: W/L/D, Elo, LOS; `sprt`: the SPRT;
//! - `record`: SGF and `.psq` records; `log`: the engines' `MESSAGE` log;
//! - `mates`: the forced-line suite from match records, and the engine side of `wuzi bench
//!   --mates` (the wuzi side and the suite's format are `wuzi-search`'s);
//! - `tournament`: two or more engines, round robin or gauntlet, resumable from its results
//!   file (`results`); `standings`: points and the crosstable; `rating`: joint maximum
//!   likelihood ratings with error bars;
//! - `schedule`: a schedule as results files see it (its games, the units shards split, its
//!   fingerprint); `merge`: the results files of a schedule's shards merged into the summary
//!   of one run;
//! - `html`: the self-contained HTML report, with pictures from `wuzi-show`; `report`: the
//!   texts of a match and a tournament (header, final report, JSON summary) and what their
//!   HTML reports show.
//!
//! The library knows no command line: `wuzi match` and `wuzi tournament` (their arguments,
//! the live progress display and what they print) are `wuzi-cli`'s. The wire format itself
//! (commands, replies, coordinates) comes from `wuzi-protocol`; rules and adjudication of
//! fives and forbidden moves from `wuzi-core`.

pub mod clock;
pub mod config;
pub mod engine;
pub mod error;
pub mod game;
pub mod html;
pub mod log;
pub mod mates;
pub mod merge;
pub mod opening;
pub mod rating;
pub mod record;
pub mod referee;
pub mod report;
pub mod results;
pub mod runner;
pub mod schedule;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod tournament;

pub use config::{GameSetup, MatchConfig};
pub use engine::EngineSpec;
pub use error::MatchError;
pub use game::{EndReason, GameResult};
pub use runner::{run_match, MatchSummary, Observer, Quiet};
pub use tournament::{run_tournament, TournamentConfig, TournamentSummary};
