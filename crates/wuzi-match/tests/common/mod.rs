//! Helpers of the wuzi-match integration tests: the test engine, a quick configuration, and a
//! match run under an overall time limit (the runner must never hang).

#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use wuzi_match::clock::TimeControl;
use wuzi_match::{run_match, EngineSpec, MatchConfig, MatchError, MatchSummary, Quiet};

pub fn testengine() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-testengine")
}

/// The test engine in `mode` with more arguments, named `name`.
pub fn engine(name: &str, args: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(testengine());
    spec.name = name.to_string();
    spec.args = args.iter().map(|s| s.to_string()).collect();
    spec
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

/// Runs the match on another thread; fails the test if it takes longer than `limit`.
pub fn run_within(
    limit: Duration,
    cfg: MatchConfig,
) -> (Result<MatchSummary, MatchError>, Duration) {
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let r = run_match(&cfg, &mut Quiet);
        let _ = tx.send(r);
    });
    match rx.recv_timeout(limit) {
        Ok(r) => (r, started.elapsed()),
        Err(_) => panic!("the match runner did not finish within {limit:?}"),
    }
}

/// Runs the match (60 s limit) and unwraps it.
pub fn play(cfg: MatchConfig) -> MatchSummary {
    let (r, _) = run_within(Duration::from_secs(60), cfg);
    match r {
        Ok(s) => s,
        Err(e) => panic!("match failed: {e}"),
    }
}

/// A fresh scratch directory under the target folder.
pub fn scratch(name: &str) -> PathBuf {
    wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("match-{name}"))
}

#[allow(unused_imports)]
pub use wuzi_testkit::data::openings_dir;
