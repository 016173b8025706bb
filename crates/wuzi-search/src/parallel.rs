//! The parallel search: a root split on a rayon pool over the one shared transposition table.
//!
//! Owns the searcher's thread pool ([`Pool`]) and, for one search, the helper threads' state
//! ([`Split`]). At every iteration (and every aspiration re-search) the other root moves are
//! searched in parallel on the pool, one task per move, each task on the state of the pool
//! thread that runs it (its own board, killers, history and counter moves, kept across the
//! iterations of one search). The principal root move, with the full window, is searched
//! first and alone by the main thread when the window has no lower bound yet; inside an
//! aspiration window it runs on a pool thread beside the others, whose null windows then
//! start at the window's alpha. Every task starts with a null window at the shared alpha (an
//! atomic raised with `fetch_max` as soon as any move beats it) and re-searches with the full
//! window, by PVS rules, a move that beats it. The moves are then ordered best first, as the
//! single-thread root search orders them. Threat-space search at the root runs the VCF on the
//! calling thread and the VCT beside it on a pool thread. Measurements: `docs/parallel.md`.
//!
//! Invariants:
//! - with one thread there is no pool and no split: the single-thread search runs unchanged
//!   and stays deterministic (the bench signature);
//! - all pool work of a search is joined before [`Split::search_root`] and
//!   [`Split::root_threats`] return, so no worker outlives its search;
//! - every worker checks the one stop flag and the search's hard time every 1,024 nodes, so a
//!   stop reaches all of them within a millisecond or so;
//! - the node count of the main thread is the sum over every thread of the search, helpers
//!   included (it is what `Info`, the bench and the result report);
//! - the value is the single-thread search's minimax value: only the order of work changes
//!   (checked at fixed depth with pruning and the table off in `tests/parallel_search.rs`).

use crate::search::{RootMove, Thread};
use crate::tt::{Bound, TranspositionTable};
use crate::{Limits, Options, WIN};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard};
use wuzi_core::{flag, Bitboard, Board, Cell};

/// The most threads a searcher uses.
pub const MAX_THREADS: usize = 256;
/// Stack of each pool thread: the search recurses up to `MAX_PLY` deep, as on the search
/// thread (the pages are only touched as deep as the search goes).
const STACK_BYTES: usize = 16 << 20;
const INF: i32 = WIN + 1;

/// The pool could not be started.
#[derive(Debug)]
pub struct PoolError {
    threads: usize,
    why: String,
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot start {} search threads: {}",
            self.threads, self.why
        )
    }
}

impl std::error::Error for PoolError {}

/// A rayon pool of a fixed number of search threads.
pub struct Pool {
    pool: ThreadPool,
    threads: usize,
}

impl Pool {
    /// A pool of `threads` threads (at least 2; fewer need no pool).
    pub fn new(threads: usize) -> Result<Pool, PoolError> {
        let threads = threads.clamp(2, MAX_THREADS);
        let pool = ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(STACK_BYTES)
            .thread_name(|i| format!("search-{i}"))
            .build()
            .map_err(|e| PoolError {
                threads,
                why: e.to_string(),
            })?;
        Ok(Pool { pool, threads })
    }

    pub fn threads(&self) -> usize {
        self.threads
    }
}

/// One worker's answer for one root move.
struct Searched {
    score: i32,
    pv: Vec<Cell>,
    /// The score beat the alpha it was searched with: an exact score (or a lower bound at
    /// beta), not just a bound from a null window.
    improved: bool,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
}

/// The helpers of one parallel search: the pool and one thread state per pool thread.
pub struct Split<'a> {
    pool: &'a ThreadPool,
    workers: Vec<Mutex<Thread<'a>>>,
}

impl<'a> Split<'a> {
    /// Helpers for a search of `board`, one per thread of `pool`.
    pub fn new(
        pool: &'a Pool,
        board: &Board,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        limits: &Limits,
        options: Options,
    ) -> Split<'a> {
        let workers = (0..pool.threads)
            .map(|_| Mutex::new(Thread::new(board, tt, stop, limits, options)))
            .collect();
        Split {
            pool: &pool.pool,
            workers,
        }
    }

    /// Makes `main` search its root with these helpers (as `Searcher::search` does; public
    /// for tests that drive a `Thread` themselves).
    pub fn attach(self, main: &mut Thread<'a>) {
        main.split = Some(Box::new(self));
    }

    /// The state of the pool thread running this task. A task never waits on another task,
    /// so the lock is never contended; a poisoned lock (a panicking helper) is still usable,
    /// since the panic reaches the caller anyway.
    fn worker(&self) -> MutexGuard<'_, Thread<'a>> {
        let index = rayon::current_thread_index().unwrap_or(0) % self.workers.len();
        self.workers[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The parallel form of `Thread::search_root`: the same contract (moves reordered best
    /// first, the best score returned, meaningless if stopped), with `main`'s node count
    /// raised by every helper's.
    pub fn search_root(
        &self,
        main: &mut Thread<'a>,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if moves.len() < 2 {
            return main.search_root(moves, depth, alpha, beta);
        }
        let us = main.board.side_to_move();
        let fives = *main.board.cells_making(us, flag::FIVE);
        let cells: Vec<Cell> = moves[1..].iter().map(|m| m.cell).collect();
        let (principal, others) = moves.split_at_mut(1);
        let shared;
        let (first, results) = if alpha > -INF {
            // A real lower bound (an aspiration window): the other moves need not wait for
            // the principal's score, their null windows start at alpha and tighten when it
            // comes. The principal runs on a pool thread beside them.
            shared = AtomicI32::new(alpha);
            self.sync_workers(main);
            self.pool.install(|| {
                rayon::join(
                    || {
                        let first = main.search_root(principal, depth, alpha, beta);
                        if !main.stopped {
                            shared.fetch_max(first, Ordering::AcqRel);
                        }
                        first
                    },
                    || self.search_others(&cells, &fives, depth, &shared, beta),
                )
            })
        } else {
            // No bound yet: the principal alone, on the calling thread, sets it.
            let first = main.search_root(principal, depth, alpha, beta);
            if main.stopped || first >= beta {
                return first;
            }
            shared = AtomicI32::new(alpha.max(first));
            self.sync_workers(main);
            let results = self
                .pool
                .install(|| self.search_others(&cells, &fives, depth, &shared, beta));
            (first, results)
        };
        let mut best = first;
        let mut best_index = 0;
        for (i, result) in results.into_iter().enumerate() {
            let slot = &mut others[i];
            let Some(r) = result else {
                slot.score = -INF;
                continue;
            };
            main.nodes += r.nodes;
            main.seldepth = main.seldepth.max(r.seldepth);
            main.stopped |= r.stopped;
            if r.improved {
                slot.score = r.score;
                slot.pv = r.pv;
                if r.score > best {
                    best = r.score;
                    best_index = i + 1;
                }
            } else {
                slot.score = -INF;
            }
        }
        // Best first, the rest in the order searched; when stopped, the best of the moves that
        // finished (as the single-thread root leaves the best so far first).
        moves[..=best_index].rotate_right(1);
        if best_index > 0 {
            // A finished search that beat the alpha it ran with, hence the call's alpha (the
            // principal's own is left by `search_root`).
            main.root_verified = Some(moves[0].clone());
        }
        if main.stopped {
            return best;
        }
        if main.options.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let hash = main.board.hash();
            main.tt
                .store(hash, 0, Some(moves[0].cell), best, 0, depth, bound);
        }
        best
    }

    /// The non-principal root moves, one task each on the pool (call inside the pool).
    fn search_others(
        &self,
        cells: &[Cell],
        fives: &Bitboard,
        depth: i32,
        shared: &AtomicI32,
        beta: i32,
    ) -> Vec<Option<Searched>> {
        cells
            .par_iter()
            .with_max_len(1)
            .map(|&cell| {
                let mut worker = self.worker();
                search_move(&mut worker, cell, fives.contains(cell), depth, shared, beta)
            })
            .collect()
    }

    /// Root threat-space search with two threads: the VCF on the calling thread, the VCT on
    /// a pool thread at the same time. The VCF's win is preferred, as on one thread.
    pub fn root_threats(&self, main: &mut Thread<'a>) -> Option<RootMove> {
        let mut board = main.board.clone();
        let threat_time = main.threat_time();
        let start = main.start;
        let max_nodes = main.limits.max_nodes;
        let (vcf, (vct, vct_nodes)) = self.pool.join(
            || main.root_vcf(),
            || crate::vct::root_vct(&mut board, threat_time, start, max_nodes),
        );
        main.nodes += vct_nodes;
        vcf.or_else(|| vct.map(|line| main.proven_root_move(line)))
    }

    /// Gives every helper the main thread's clock and what is left of its node budget (each
    /// helper may spend all of it: a node limit can be overrun up to the thread count).
    fn sync_workers(&self, main: &Thread<'a>) {
        for worker in &self.workers {
            let mut w = worker
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            w.start = main.start;
            w.limits.max_nodes = main
                .limits
                .max_nodes
                .map(|n| w.nodes + n.saturating_sub(main.nodes));
        }
    }
}

/// Searches one non-principal root move on a helper: a null window at the shared alpha, and
/// the full window if it beats it. `None` if the bound already reached beta (a cut: the move
/// need not be searched).
fn search_move(
    worker: &mut Thread,
    cell: Cell,
    is_five: bool,
    depth: i32,
    shared: &AtomicI32,
    beta: i32,
) -> Option<Searched> {
    let alpha = shared.load(Ordering::Acquire);
    if alpha >= beta || worker.stopped {
        return None;
    }
    let nodes = worker.nodes;
    worker.seldepth = 0;
    let us = worker.board.side_to_move();
    worker.board.make(us, cell);
    worker.pv[1].clear();
    let mut improved = false;
    let score = if is_five {
        improved = WIN - 1 > alpha;
        WIN - 1
    } else {
        let mut score = -worker.node(-alpha - 1, -alpha, depth - 1, 1, false);
        if score > alpha && !worker.stopped {
            // Re-search at the alpha of now: other moves may have raised it meanwhile.
            let now = shared.load(Ordering::Acquire).max(alpha);
            if now < beta {
                score = -worker.node(-beta, -now, depth - 1, 1, true);
                improved = score > now;
            }
        }
        score
    };
    worker.board.unmake();
    let stopped = worker.stopped;
    if improved && !stopped {
        shared.fetch_max(score, Ordering::AcqRel);
    }
    let mut pv = vec![cell];
    pv.extend_from_slice(&worker.pv[1]);
    Some(Searched {
        score,
        pv,
        improved: improved && !stopped,
        nodes: worker.nodes - nodes,
        seldepth: worker.seldepth,
        stopped,
    })
}
