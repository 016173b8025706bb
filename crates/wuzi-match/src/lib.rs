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
//! - `tournament`: two or more engines, round robin or gauntlet, resumable from its results
//!   file (`results`); `standings`: points and the crosstable; `rating`: joint maximum
//!   likelihood ratings with error bars; `tournament_cli`: the `wuzi tournament` command line;
//! - `html`: the self-contained HTML report (`--report DIR`), with pictures from `wuzi-show`;
//! - `progress`: the live display; `cli`: the `wuzi match` command line, with `args` (reading
//!   argument values) and `report` (the printed header, report and JSON);
//!
//! The wire format itself (commands, replies, coordinates) comes from `wuzi-protocol`; rules
//! and adjudication of fives and forbidden moves from `wuzi-core`.

pub mod args;
pub mod cli;
pub mod clock;
pub mod config;
pub mod engine;
pub mod error;
pub mod game;
pub mod html;
pub mod log;
pub mod opening;
pub mod progress;
pub mod rating;
pub mod record;
pub mod referee;
pub mod report;
pub mod results;
pub mod runner;
pub mod sprt;
pub mod standings;
pub mod stats;
pub mod tournament;
pub mod tournament_cli;

pub use cli::{run, MatchArgs};
pub use config::{GameSetup, MatchConfig};
pub use engine::EngineSpec;
pub use error::MatchError;
pub use game::{EndReason, GameResult};
pub use runner::{run_match, MatchSummary, Observer, Quiet};
pub use tournament::{run_tournament, TournamentConfig, TournamentSummary};
pub use tournament_cli::{run_tournament_cli, TournamentArgs};
