//! Matches as the tests run them: engine specs of the built engines, and a match that must end
//! within a time limit (the runner must never hang), and the check that its games ended
//! regularly.

use std::path::PathBuf;
use std::time::Duration;

use wuzi_match::{run_match, EndReason, EngineSpec, MatchConfig, MatchError, MatchSummary, Quiet};

use crate::engine::workspace_binary;
use crate::within;

/// A built binary of the workspace (`pbrain-wuzi`, `pbrain-testengine`), found beside the
/// test executables; panics with how to build it when it is not there.
pub fn built(name: &str) -> PathBuf {
    let path = workspace_binary(name);
    assert!(
        path.is_file(),
        "{} is missing: build it (`cargo build --workspace --bins`), or run the workspace's tests \
         together (`cargo test --workspace`)",
        path.display()
    );
    path
}

/// The spec of `program` named `name`, started with `args`.
pub fn spec(program: &str, name: &str, args: &[&str]) -> EngineSpec {
    let mut spec = EngineSpec::new(program);
    spec.name = name.to_string();
    spec.args = args.iter().map(|s| s.to_string()).collect();
    spec
}

/// The built `pbrain-wuzi` named `name`.
pub fn wuzi(name: &str) -> EngineSpec {
    spec(&built("pbrain-wuzi").display().to_string(), name, &[])
}

/// Runs the match on another thread; fails the test if it takes longer than `limit`.
/// Returns the runner's result and how long it took.
pub fn run_within(
    limit: Duration,
    cfg: MatchConfig,
) -> (Result<MatchSummary, MatchError>, Duration) {
    within(limit, "the match runner", move || {
        run_match(&cfg, &mut Quiet)
    })
}

/// Runs the match within `limit` and returns its summary; fails the test if it does not end
/// in time or the runner refuses it.
pub fn play_within(limit: Duration, cfg: MatchConfig) -> MatchSummary {
    match run_within(limit, cfg).0 {
        Ok(s) => s,
        Err(e) => panic!("match failed: {e}"),
    }
}

/// Fails the test unless every game of `summary` ended regularly: by a five or a draw (full
/// board or the move limit), none by time or a fault.
pub fn assert_regular_ends(summary: &MatchSummary) {
    for g in &summary.games {
        assert!(
            g.reason == EndReason::Five || g.reason.is_draw(),
            "game {}: {}",
            g.index + 1,
            g.reason
        );
    }
}
