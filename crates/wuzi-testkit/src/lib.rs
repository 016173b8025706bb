//! wuzi-testkit: the helpers that the workspace's tests share, so that each is written once.
//! A dev-dependency only; nothing here is part of the engine.
//!
//! - [`data`]: paths into the repository's `data/` folder (positions, answers, openings);
//! - [`position`]: boards from diagrams and move lists;
//! - [`referee`]: the renju referee cases (positions with their forbidden points);
//! - [`reference`]: the slow classifier the core's fast structures are tested against;
//! - [`tactics`]: the threat-solver cases (positions, solver limits, expected lines);
//! - [`engine`]: a Gomocup engine driven over pipes as a manager drives it, with a timeout on
//!   every read, so a broken engine fails a test instead of hanging it;
//! - [`scratch`]: a fresh folder for a test's files; [`within`]: work that must end in time;
//!   [`env_or`]: a setting from the environment (more cases, more depth);
//! - `search` (feature `search`): a search to a fixed depth;
//! - `matches` (feature `match`): engine specs of the built engines, and matches that must end
//!   in time.
//!
//! Helpers panic with a clear message on a broken fixture: they serve tests, where a panic is
//! the failure report.

pub mod data;
pub mod engine;
pub mod position;
pub mod referee;
pub mod reference;
pub mod tactics;

#[cfg(feature = "match")]
pub mod matches;
#[cfg(feature = "search")]
pub mod search;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A fresh, empty folder `base/wuzi-NAME-PID` for one test's files. Integration tests pass
/// their `env!("CARGO_TARGET_TMPDIR")`, so the files stay in the build folder.
pub fn scratch(base: impl AsRef<Path>, name: &str) -> PathBuf {
    let dir = base
        .as_ref()
        .join(format!("wuzi-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// A setting a test reads from the environment variable `name` (to run longer, deeper or
/// differently by hand), else `default` (also when the value does not parse).
pub fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Runs `work` on another thread and returns its result and how long it took; fails the test,
/// naming `what`, when it takes longer than `limit` (the work is then left running).
pub fn within<T: Send + 'static>(
    limit: Duration,
    what: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> (T, Duration) {
    let (tx, rx) = mpsc::channel();
    let started = Instant::now();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    match rx.recv_timeout(limit) {
        Ok(r) => (r, started.elapsed()),
        Err(_) => panic!("{what} did not finish within {limit:?}"),
    }
}
