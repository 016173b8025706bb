//! The search thread.
//!
//! It owns the [`Searcher`] and runs jobs one at a time, in the order sent. Invariants: the
//! session never waits on it (jobs go through a channel, outcomes come back as events tagged
//! with the job's id); progress lines are written by this thread through [`Output`] as whole
//! lines; a panic inside a search is caught, reported as [`Outcome::Failed`], and the searcher
//! is rebuilt (with the same thread count), so the session can still answer; table size and
//! thread count changes and clears are jobs too, so they never race a running search (the
//! thread pool is rebuilt between searches, never during one).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use wuzi_core::Board;
use wuzi_search::{Info, Limits, SearchResult, Searcher};

use crate::output::Output;
use crate::swap2::{self, Swap2Answer};
use wuzi_protocol::{Coord, Reply, SearchInfo};

/// Work for the search thread. Boards are boxed: a queued job then costs a few words, not a
/// board's tens of kilobytes (a manager may send thousands of `RESTART`s faster than the
/// thread clears the table).
pub enum Job {
    /// Find a move (or `multipv` moves) for the side to move.
    Think {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        stop: Arc<AtomicBool>,
        /// Write progress lines.
        report: bool,
    },
    /// Choose the answer of a swap2 stage.
    Swap2 {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    Clear,
    SetHash(usize),
    /// Search on this many threads from the next search on.
    SetThreads(usize),
}

/// What a job produced.
#[derive(Debug)]
pub enum Outcome {
    Move(Option<SearchResult>),
    Swap2(Swap2Answer),
    /// The search panicked.
    Failed,
}

/// Starts the search thread. `done` receives `(id, outcome)` for every `Think` and `Swap2`
/// job; it returns false when nobody listens any more.
pub fn spawn<F>(
    mut searcher: Searcher,
    jobs: Receiver<Job>,
    out: Output,
    mut done: F,
) -> std::io::Result<thread::JoinHandle<()>>
where
    F: FnMut(u64, Outcome) -> bool + Send + 'static,
{
    thread::Builder::new()
        .name("search".into())
        .stack_size(16 << 20)
        .spawn(move || {
            for job in jobs {
                let (id, outcome) = match job {
                    Job::Clear => {
                        searcher.clear();
                        continue;
                    }
                    Job::SetHash(bytes) => {
                        searcher.set_hash(bytes);
                        continue;
                    }
                    Job::SetThreads(threads) => {
                        if let Err(e) = searcher.set_threads(threads) {
                            out.send(&Reply::Error(format!("{e}; searching on one thread")));
                        }
                        continue;
                    }
                    Job::Think {
                        id,
                        board,
                        limits,
                        stop,
                        report,
                    } => {
                        let lines = limits.multipv;
                        let run = catch_unwind(AssertUnwindSafe(|| {
                            let mut on_info = |info: &Info| {
                                if report {
                                    out.send(&Reply::Message(info_line(info, lines).to_string()));
                                }
                            };
                            searcher.search(&board, &limits, &stop, &mut on_info)
                        }));
                        (id, run.map_or(Outcome::Failed, Outcome::Move))
                    }
                    Job::Swap2 {
                        id,
                        board,
                        limits,
                        stop,
                    } => {
                        let run = catch_unwind(AssertUnwindSafe(|| {
                            swap2::decide(&mut searcher, &board, &limits, &stop)
                        }));
                        (id, run.map_or(Outcome::Failed, Outcome::Swap2))
                    }
                };
                if matches!(outcome, Outcome::Failed) {
                    let threads = searcher.threads();
                    searcher = Searcher::new(searcher.hash_bytes());
                    // The old pool worked a moment ago; if a new one cannot start, one thread.
                    let _ = searcher.set_threads(threads);
                }
                if !done(id, outcome) {
                    return;
                }
            }
        })
}

/// The wire form of a search's progress.
pub fn info_line(info: &Info, lines: usize) -> SearchInfo {
    let ms = info.elapsed.as_millis() as u64;
    SearchInfo {
        depth: info.depth,
        seldepth: info.seldepth.max(info.depth),
        multipv: (lines > 1).then_some(info.multipv),
        score: info.score,
        nodes: info.nodes,
        nodes_per_ms: info.nodes / ms.max(1),
        time_ms: ms,
        pv: info
            .pv
            .iter()
            .map(|p| Coord::new(u32::from(p.x), u32::from(p.y)))
            .collect(),
    }
}

/// Limits that end at `hard` with no new iteration after `soft` (both from now).
pub fn timed(soft: Duration, hard: Duration) -> Limits {
    Limits {
        soft_time: Some(soft),
        hard_time: Some(hard),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Point;

    #[test]
    fn info_line_converts_points_and_speed() {
        let info = Info {
            depth: 3,
            seldepth: 5,
            multipv: 2,
            score: 12,
            nodes: 5_000,
            elapsed: Duration::from_millis(100),
            pv: vec![Point::new(7, 7), Point::new(0, 14)],
        };
        assert_eq!(
            info_line(&info, 3).to_string(),
            "depth 3-5 multipv 2 ev 12 n 5000 n/ms 50 tm 100 pv h8 a15"
        );
        assert_eq!(
            info_line(&info, 1).to_string(),
            "depth 3-5 ev 12 n 5000 n/ms 50 tm 100 pv h8 a15"
        );
    }
}
