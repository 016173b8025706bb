//! The search thread.
//!
//! It owns the [`Searcher`] and runs jobs one at a time, in the order sent. Invariants: the
//! session never waits on it (jobs go through a channel, outcomes come back as events tagged
//! with the job's id); progress lines are written by this thread through [`Output`] as whole
//! lines; a panic inside a search is caught, reported as [`Outcome::Failed`], and the searcher
//! is rebuilt (with the same thread count), so the session can still answer; table size and
//! thread count changes and clears are jobs too, so they never race a running search (the
//! thread pool is rebuilt between searches, never during one); the table is saved, loaded and
//! measured only between searches, by jobs of their own.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point};
use wuzi_search::tt::TableMeta;
use wuzi_search::{Info, Limits, SearchResult, Searcher};

use crate::balance::{self, Balanced};
use crate::defend::{self, Defence};
use crate::output::Output;
use crate::report::{Realtimer, Reporter, Reporting};
use crate::swap2::{self, Swap2Answer};
use wuzi_protocol::{Coord, Reply, SearchInfo};
use wuzi_search::strength;

/// A search for a move (or for `multipv` moves).
pub struct Think {
    pub board: Box<Board>,
    pub limits: Limits,
    pub stop: Arc<AtomicBool>,
    /// What to write while it runs.
    pub reporting: Reporting,
    /// Playing strength, 0 to 100 (100: the full search).
    pub strength: u64,
}

/// Work for the search thread. Boards are boxed: a queued job then costs a few words, not a
/// board's tens of kilobytes (a manager may send thousands of `RESTART`s faster than the
/// thread clears the table).
pub enum Job {
    /// Find a move (or `multipv` moves) for the side to move.
    Think {
        id: u64,
        think: Think,
    },
    /// Choose the answer of a swap2 stage.
    Swap2 {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    /// The balance search: one move (`two` false) or a pair worth about `target`.
    Balance {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        stop: Arc<AtomicBool>,
        two: bool,
        target: i32,
    },
    /// The defences against the opponent's threat sequence.
    Defend {
        id: u64,
        board: Box<Board>,
        limits: Limits,
        stop: Arc<AtomicBool>,
    },
    /// Save (`save` true) or load the table.
    Table {
        id: u64,
        path: PathBuf,
        meta: TableMeta,
        save: bool,
    },
    /// Report how full the table is.
    TableUsage {
        id: u64,
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
    Balance(Option<Balanced>),
    Defend(Defence),
    /// The text of the reply of a table job: `Ok` a `MESSAGE`, `Err` an `ERROR`.
    Table(Result<String, String>),
    /// The search panicked.
    Failed,
}

/// Starts the search thread. `done` receives `(id, outcome)` for every job with an id; it
/// returns false when nobody listens any more.
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
            let mut rng = Rng::from_clock();
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
                    Job::Think { id, think } => {
                        let run = catch_unwind(AssertUnwindSafe(|| {
                            run_think(&mut searcher, &think, &out, &mut rng)
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
                    Job::Balance {
                        id,
                        board,
                        limits,
                        stop,
                        two,
                        target,
                    } => {
                        let run = catch_unwind(AssertUnwindSafe(|| {
                            if two {
                                balance::balance_two(&mut searcher, &board, target, &limits, &stop)
                            } else {
                                balance::balance_one(&mut searcher, &board, target, &limits, &stop)
                            }
                        }));
                        (id, run.map_or(Outcome::Failed, Outcome::Balance))
                    }
                    Job::Defend {
                        id,
                        board,
                        limits,
                        stop,
                    } => {
                        let run = catch_unwind(AssertUnwindSafe(|| {
                            defend::search_defend(&board, &limits, &stop)
                        }));
                        (id, run.map_or(Outcome::Failed, Outcome::Defend))
                    }
                    Job::Table {
                        id,
                        path,
                        meta,
                        save,
                    } => (
                        id,
                        Outcome::Table(table_job(&mut searcher, &path, &meta, save)),
                    ),
                    Job::TableUsage { id } => {
                        let u = searcher.table_usage();
                        let text = format!(
                            "hash usage {:.1}% ({} of {} entries, {} MiB)",
                            u.percent(),
                            u.used,
                            u.slots,
                            u.bytes >> 20
                        );
                        (id, Outcome::Table(Ok(text)))
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

/// One search for a move: its reports, and at a playing level below full strength, the
/// level's choice among its lines.
fn run_think(
    searcher: &mut Searcher,
    think: &Think,
    out: &Output,
    rng: &mut Rng,
) -> Option<SearchResult> {
    let started = Instant::now();
    let level =
        (think.strength < crate::settings::FULL_STRENGTH).then(|| strength::level(think.strength));
    let limits = match &level {
        Some(level) => strength::limits(level, &think.limits),
        None => think.limits.clone(),
    };
    // A weakened search shows its best line only: its other lines are the level's choices.
    let shown = if level.is_some() { 1 } else { limits.multipv };
    let mut reporter = Reporter::new(out.clone(), think.reporting, shown);
    let realtime = think
        .reporting
        .realtime
        .then(|| Realtimer::new(out.clone(), started));
    let mut on_info = |info: &Info| {
        if info.multipv <= shown {
            reporter.on_info(info);
        }
    };
    let on_root = |event: &wuzi_search::RootEvent| {
        if let Some(r) = &realtime {
            r.on_event(event);
        }
    };
    let mut result =
        searcher.search_observed(&think.board, &limits, &think.stop, &mut on_info, &on_root)?;
    if level.is_none() {
        reporter.finish(&result, started.elapsed());
    }
    if let Some(level) = level {
        let chosen = strength::choose(&result, &level, rng);
        if chosen != result.best {
            result.score = result
                .lines
                .iter()
                .find(|(p, _)| *p == chosen)
                .map_or(result.score, |&(_, s)| s);
            result.best = chosen;
        }
    }
    Some(result)
}

fn table_job(
    searcher: &mut Searcher,
    path: &std::path::Path,
    meta: &TableMeta,
    save: bool,
) -> Result<String, String> {
    let shown = path.display();
    if save {
        searcher
            .save_table(path, meta)
            .map(|n| format!("hash table saved to {shown} ({n} entries)"))
            .map_err(|e| e.to_string())
    } else {
        searcher
            .load_table(path, meta)
            .map(|n| format!("hash table loaded from {shown} ({n} entries)"))
            .map_err(|e| e.to_string())
    }
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

/// The points of a move list as wire coordinates.
pub fn coords(points: &[Point]) -> Vec<Coord> {
    points.iter().map(|&p| Coord::from(p)).collect()
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
