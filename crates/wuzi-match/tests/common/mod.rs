//! Helpers of the wuzi-match integration tests: the test engine, a quick configuration, and a
//! match run under an overall time limit (the runner must never hang; `wuzi_testkit::matches`
//! runs it).

#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use wuzi_match::clock::TimeControl;
use wuzi_match::{EngineSpec, MatchConfig, MatchSummary};
use wuzi_testkit::matches::{play_within, spec};

pub fn testengine() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-testengine")
}

/// The test engine in `mode` with more arguments, named `name`.
pub fn engine(name: &str, args: &[&str]) -> EngineSpec {
    spec(testengine(), name, args)
}

/// 15x15 freestyle, 300 ms a move with 200 ms tolerance, no game clock, 2 games, 1 at a time.
pub fn config(first: EngineSpec, second: EngineSpec) -> MatchConfig {
    let mut cfg = MatchConfig::new(first, second);
    cfg.time = TimeControl {
        turn: Duration::from_millis(300),
        game: None,
        tolerance: Duration::from_millis(200),
    };
    cfg.games = 2;
    cfg
}

/// Runs the match (60 s limit) and unwraps it.
pub fn play(cfg: MatchConfig) -> MatchSummary {
    play_within(Duration::from_secs(60), cfg)
}

/// A fresh scratch directory under the target folder.
pub fn scratch(name: &str) -> PathBuf {
    wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("match-{name}"))
}

#[allow(unused_imports)]
pub use wuzi_testkit::data::openings_dir;
