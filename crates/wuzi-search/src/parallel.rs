//! The parallel search: young brothers wait, on a rayon pool over the one shared
//! transposition table, with the root split as its backbone.
//!
//! Owns the searcher's thread pool ([`Pool`]) and, for one search, the helpers ([`Split`]).
//! The whole search runs on a pool thread. A node splits (a [`SplitPoint`]) once its first
//! move has been searched alone and set the bound: the root at every iteration and
//! aspiration re-search (the principal root move first, then the rest), a principal
//! variation node from `Options::split_depth.pv`, any other node from `.other`, and, while a
//! pool thread has nothing to search (a count of busy threads says so), any node from
//! `.idle`, so that the idle thread steals work within microseconds. It starts
//! one rayon task per pool thread, and each task takes its other moves, best-ordered first,
//! from a shared counter; a thread waiting for its split point's tasks runs tasks meanwhile
//! (its own or other split points'), so idle threads find work wherever the tree has some.
//! A task runs on a helper state of its own (board, killers, history, counter moves, VCF
//! table), taken from a free list and made when the list is empty, so states nest as tasks
//! do; a state copies the split point's position and the splitting thread's move-ordering
//! memory (history, counter moves, killers) once per split point. Each move is searched with
//! a null window at the split point's shared alpha (an atomic raised with `fetch_max` as
//! soon as any move beats it; late quiet moves reduced as the serial loop reduces them) and
//! re-searched with the full window, by PVS rules, if it beats it; a move's search may split
//! in turn. A move that reaches beta cuts its split point off: moves not started are
//! skipped, running ones (and every split point nested in them) see the cut-off flag at
//! their next check and are abandoned. The splitting thread
//! then folds the answers into its node as its serial loop would have. At the root the VCF
//! runs first and the VCT beside the iterative deepening (`Split::deepen_beside_vct`).
//! Measurements: `docs/parallel.md`.
//!
//! Invariants:
//! - with one thread there is no pool and no split: the single-thread search runs unchanged
//!   and stays deterministic (the bench signature);
//! - all tasks of a split point are joined before its node goes on, so no helper outlives
//!   its search, and a state back in the free list holds no cut-off flag and no reference to
//!   the split (no cycle keeps a search's states alive after it);
//! - every thread checks the one stop flag, the search's hard time and its cut-off flags
//!   every 1,024 nodes, so a stop reaches all of them within a millisecond or so; an
//!   abandoned task's score is never used, and nothing is stored for a node it cut short;
//! - the node count of the main thread is the sum over every thread of the search, helpers
//!   and abandoned tasks included (it is what `Info`, the bench and the result report);
//! - the value is the single-thread search's minimax value: only the order of work changes
//!   (checked at fixed depth with pruning and the table off, with split points at every
//!   depth from 3, in `tests/parallel_search.rs`).

use crate::search::{self, RootMove, Thread};
use crate::tt::{Bound, TranspositionTable};
use crate::{Info, Limits, Options, WIN};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::{flag, Bitboard, Board, Cell};

/// The most threads a searcher uses.
pub const MAX_THREADS: usize = 256;
/// Stack of each pool thread: the search recurses up to `MAX_PLY` deep, as on the search
/// thread (the pages are only touched as deep as the search goes).
pub(crate) const STACK_BYTES: usize = 16 << 20;
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

    /// Runs `f` on one of the pool's threads, the caller waiting.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        self.pool.install(f)
    }
}

/// One worker's answer for one sibling move of a split point.
pub(crate) struct Searched {
    pub(crate) score: i32,
    /// The child's principal variation: the line after the move.
    pub(crate) line: Vec<Cell>,
    /// The score beat the alpha it was searched with: an exact score (or a lower bound at
    /// beta), not just a bound from a null window.
    pub(crate) improved: bool,
    /// The search was abandoned because a split point around it was cut off: its score
    /// means nothing (its nodes still count).
    pub(crate) aborted: bool,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    /// The search's stop (time, nodes, the stop flag) reached it.
    pub(crate) stopped: bool,
}

/// A helper's search state, and which split point's position its board holds.
struct Worker<'a> {
    thread: Thread<'a>,
    /// The split point whose position `thread.board` holds (0: the root). Every task
    /// leaves the board as it found it.
    point: u64,
}

/// A node whose moves after the first are searched in parallel (young brothers wait: the
/// first move, searched alone, set the bound the others start at).
pub(crate) struct SplitPoint<'p> {
    /// The position at the node; a helper copies it once per split point.
    pub(crate) board: &'p Board,
    pub(crate) ply: usize,
    /// The node's raw static evaluation (its children average theirs with it).
    pub(crate) raw_eval: Option<i32>,
    pub(crate) depth: i32,
    pub(crate) alpha: i32,
    pub(crate) beta: i32,
    pub(crate) is_pv: bool,
    /// The opponent threatens an open four here (no move is quiet then).
    pub(crate) threatened: bool,
    /// Late quiet moves are reduced, as the serial move loop reduces them (not at the root).
    pub(crate) reduce: bool,
    /// The side to move's fives (only the root has any: a node with one is settled first).
    pub(crate) fives: Bitboard,
    /// The splitting thread's move-ordering memory (history and counter moves per colour): a
    /// helper starts each split point with a copy, so it orders moves as that thread would.
    pub(crate) history: &'p [[i32; MAX_CELLS]],
    pub(crate) counter_moves: &'p [[Option<Cell>; MAX_CELLS]],
    /// The splitting thread's killer moves per ply (those below the split point are its
    /// children's and grandchildren's).
    pub(crate) killers: &'p [[Option<Cell>; 2]],
    /// The first ply at which null moves may be tried (raised inside a verification search).
    pub(crate) null_min_ply: usize,
    /// The cut-off flags of the split points around this one, outermost first, then this
    /// one's own: a helper abandons its move as soon as any of them is set.
    pub(crate) cuts: Vec<Arc<AtomicBool>>,
}

impl SplitPoint<'_> {
    /// This split point's own cut-off flag (set when a move reaches beta).
    fn cut(&self) -> &AtomicBool {
        self.cuts.last().map_or(&NEVER, |c| c)
    }
}

static NEVER: AtomicBool = AtomicBool::new(false);

/// The helpers of one parallel search: the pool, and the helpers' search states, made as
/// needed (a thread waiting on its own split point runs other tasks meanwhile, each on a
/// state of its own) and kept for the rest of the search.
pub struct Split<'a> {
    pool: &'a ThreadPool,
    threads: usize,
    /// States not in use by a task, boxed: a state is about 60 KB (its board is inline), and
    /// moving one in and out of the list by value for each task cost 6% of the CPU.
    free: Mutex<Vec<Box<Worker<'a>>>>,
    /// States made so far.
    made: AtomicUsize,
    /// What a new state is made from.
    root: Board,
    tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    limits: Mutex<Limits>,
    options: Options,
    start: Mutex<Instant>,
    /// The last split point's number; each split point takes the next.
    points: AtomicU64,
    /// Threads doing search work now: the main thread, the root VCT, and every running task
    /// (a splitting thread waiting on its tasks does not count, unless it runs one).
    busy: AtomicUsize,
}

/// States kept per pool thread at most, beyond which no new split point opens. Each holds a
/// board, move lists, ordering tables and a VCF table of `HELPER_VCF_BITS` (about 1.3 MiB
/// once used). The protocol reserves 8 MiB a thread, and the root VCT (up to about 17 MiB)
/// runs at the same time as the search: 4 states a thread with 1 MiB VCF tables broke
/// `max_memory` with 8 threads in 96 MiB. 3 split points a thread in flight rather than 2
/// gave the bench about 5% more nodes a second on 2 threads (`docs/parallel-history.md`).
const STATES_PER_THREAD: usize = 3;

/// A helper state's VCF table: 2^15 entries (512 KiB), half the main thread's, so that three
/// states a thread take about the memory two did with full tables.
const HELPER_VCF_BITS: u32 = 15;

impl<'a> Split<'a> {
    /// Helpers for a search of `board` on the threads of `pool`.
    pub fn new(
        pool: &'a Pool,
        board: &Board,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        limits: &Limits,
        options: Options,
    ) -> Split<'a> {
        Split {
            pool: &pool.pool,
            threads: pool.threads,
            free: Mutex::new(Vec::new()),
            made: AtomicUsize::new(0),
            root: board.clone(),
            tt,
            stop,
            limits: Mutex::new(limits.clone()),
            options,
            start: Mutex::new(Instant::now()),
            points: AtomicU64::new(0),
            busy: AtomicUsize::new(1),
        }
    }

    /// Whether a thread of the pool has nothing to search: a node too shallow to split by
    /// its depth then splits anyway, so the idle thread steals its moves.
    pub(crate) fn wants_work(&self) -> bool {
        self.busy.load(Ordering::Relaxed) < self.threads
    }

    /// Makes `main` search with these helpers (as `Searcher::search` does; public for tests
    /// that drive a `Thread` themselves).
    pub fn attach(self, main: &mut Thread<'a>) {
        main.split = Some(Arc::new(self));
    }

    /// Whether a new split point may open: a free state, or room to make one.
    pub(crate) fn has_room(&self) -> bool {
        self.made.load(Ordering::Relaxed) < self.threads * STATES_PER_THREAD
            || !lock(&self.free).is_empty()
    }

    /// A state for a task: a free one, else a new one.
    fn acquire(&self) -> Box<Worker<'a>> {
        if let Some(worker) = lock(&self.free).pop() {
            return worker;
        }
        self.made.fetch_add(1, Ordering::Relaxed);
        let limits = lock(&self.limits).clone();
        let mut thread = Thread::new(&self.root, self.tt, self.stop, &limits, self.options);
        thread.use_vcf_table_bits(HELPER_VCF_BITS);
        thread.start = *lock(&self.start);
        Box::new(Worker { thread, point: 0 })
    }

    fn release(&self, worker: Box<Worker<'a>>) {
        lock(&self.free).push(worker);
    }

    /// The parallel form of `Thread::search_root`: the same contract (moves reordered best
    /// first, the best score returned, meaningless if stopped), with `main`'s node count
    /// raised by every helper's. The principal move is searched first by `main` (its own
    /// nodes split in turn); its score is the bound the others start at.
    pub fn search_root(
        self: &Arc<Self>,
        main: &mut Thread<'a>,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.sync_workers(main);
        if moves.len() < 2 {
            return main.search_root_serial(moves, depth, alpha, beta);
        }
        let first = main.search_root_serial(&mut moves[..1], depth, alpha, beta);
        if main.stopped || first >= beta {
            return first;
        }
        let us = main.board.side_to_move();
        let cells: Vec<(Cell, usize)> = moves[1..]
            .iter()
            .enumerate()
            .map(|(k, m)| (m.cell, k + 1))
            .collect();
        let point = SplitPoint {
            board: &main.board,
            ply: 0,
            raw_eval: main.raw_eval(0),
            depth,
            alpha: alpha.max(first),
            beta,
            is_pv: true,
            threatened: false,
            reduce: false,
            fives: *main.board.cells_making(us, flag::FIVE),
            history: main.history(),
            counter_moves: main.counter_moves(),
            killers: main.killers(),
            null_min_ply: 0,
            cuts: main.split_cuts(),
        };
        for &(cell, _) in &cells {
            main.report_entered(cell, depth);
        }
        let results = self.search_siblings(&point, &cells);
        main.absorb(&results);
        let mut best = first;
        let mut best_index = 0;
        for (i, result) in results.into_iter().enumerate() {
            if let Some(r) = result.as_ref().filter(|r| !r.aborted && !main.stopped) {
                main.report_finished(
                    moves[i + 1].cell,
                    depth,
                    r.score,
                    r.improved && r.score > best,
                );
            }
            let slot = &mut moves[i + 1];
            match result {
                Some(r) if r.improved => {
                    slot.score = r.score;
                    slot.pv = vec![slot.cell];
                    slot.pv.extend_from_slice(&r.line);
                    if r.score > best {
                        best = r.score;
                        best_index = i + 1;
                    }
                }
                _ => slot.score = -INF,
            }
        }
        // Best first, the rest in the order searched; when stopped, the best of the moves that
        // finished (as the single-thread root leaves the best so far first).
        moves[..=best_index].rotate_right(1);
        if best_index > 0 {
            // A finished search that beat the alpha it ran with, hence the call's alpha (the
            // principal's own is left by `search_root_serial`).
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

    /// Searches the given moves of a split point (each with its index in the node's ordered
    /// list) on the pool. Up to one task per thread takes the moves in order, best-ordered
    /// first, from a shared counter, each on one helper state until none is left, so a move
    /// costs a counter increment, not a task (most moves of a split point are searched in a
    /// few dozen nodes). A task no thread stole is run by the splitting thread once its own
    /// is done, and finds nothing left. A result is `None` where the bound reached beta
    /// before the move was started (a cut: it need not be searched).
    pub(crate) fn search_siblings(
        self: &Arc<Self>,
        point: &SplitPoint,
        cells: &[(Cell, usize)],
    ) -> Vec<Option<Searched>> {
        let id = self.points.fetch_add(1, Ordering::Relaxed) + 1;
        let alpha = AtomicI32::new(point.alpha);
        let next = AtomicUsize::new(0);
        let tasks = self.threads.min(cells.len());
        self.busy.fetch_sub(1, Ordering::Relaxed);
        let found: Vec<Vec<(usize, Option<Searched>)>> = self.pool.install(|| {
            (0..tasks)
                .into_par_iter()
                .with_max_len(1)
                .map(|_| self.take_moves(point, cells, &alpha, &next, id))
                .collect()
        });
        self.busy.fetch_add(1, Ordering::Relaxed);
        let mut results: Vec<Option<Searched>> = cells.iter().map(|_| None).collect();
        for (k, result) in found.into_iter().flatten() {
            results[k] = result;
        }
        results
    }

    /// One task of a split point: takes the next move from `next` until none is left or the
    /// bound has reached beta, searching each on one helper state (which copies the split
    /// point's position and ordering memory unless it holds them already).
    fn take_moves(
        self: &Arc<Self>,
        point: &SplitPoint,
        cells: &[(Cell, usize)],
        alpha: &AtomicI32,
        next: &AtomicUsize,
        id: u64,
    ) -> Vec<(usize, Option<Searched>)> {
        self.busy.fetch_add(1, Ordering::Relaxed);
        let mut found = Vec::new();
        let mut state: Option<Box<Worker<'a>>> = None;
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(cell, index)) = cells.get(k) else {
                break;
            };
            if alpha.load(Ordering::Acquire) >= point.beta {
                break;
            }
            let worker = state.get_or_insert_with(|| {
                let mut worker = self.acquire();
                if worker.point != id {
                    worker.thread.board.clone_from(point.board);
                    worker.thread.adopt_ordering(point);
                    worker.point = id;
                }
                worker
            });
            found.push((
                k,
                self.run_task(&mut worker.thread, point, alpha, cell, index),
            ));
        }
        if let Some(worker) = state {
            self.release(worker);
        }
        self.busy.fetch_sub(1, Ordering::Relaxed);
        found
    }

    /// Runs one sibling search on a helper's state: the state may split in turn while it
    /// runs, and is left clean for the next task (no cut pending, the helpers detached, so
    /// no state kept by the split holds the split).
    fn run_task(
        self: &Arc<Self>,
        worker: &mut Thread<'a>,
        point: &SplitPoint,
        shared: &AtomicI32,
        cell: Cell,
        index: usize,
    ) -> Option<Searched> {
        worker.split = Some(Arc::clone(self));
        worker.cut_chain.clone_from(&point.cuts);
        worker.null_min_ply = point.null_min_ply;
        let result = search_sibling(worker, point, shared, cell, index);
        worker.split = None;
        worker.cut_chain.clear();
        worker.null_min_ply = 0;
        worker.recover_from_cut();
        result
    }

    /// Iterative deepening over `cells` with the side's root VCT beside it on another pool
    /// thread (the VCF has run already). A VCT win stops the deepening (through a cut-off
    /// flag every thread of the search carries) and is the answer, as it is on one thread,
    /// where the VCT runs first; until then, or without one, the deepening has the other
    /// threads, and the VCT's thread joins it when the VCT ends.
    pub(crate) fn deepen_beside_vct(
        &self,
        main: &mut Thread<'a>,
        cells: Vec<Cell>,
        on_info: &mut (dyn FnMut(&Info) + Send),
    ) -> (Vec<RootMove>, u32) {
        let mut board = main.board.clone();
        let threat_time = main.threat_time();
        let start = main.start;
        let max_nodes = main.limits.max_nodes;
        let stop = main.stop_flag();
        let won = Arc::new(AtomicBool::new(false));
        main.cut_chain.push(Arc::clone(&won));
        let ((vct, vct_nodes), deepened) = self.pool.join(
            || {
                self.busy.fetch_add(1, Ordering::Relaxed);
                let outcome = crate::vct::root_vct(&mut board, threat_time, start, max_nodes, stop);
                self.busy.fetch_sub(1, Ordering::Relaxed);
                if outcome.0.is_some() {
                    won.store(true, Ordering::Release);
                }
                outcome
            },
            || search::deepen(main, cells, on_info),
        );
        main.cut_chain.pop();
        main.nodes += vct_nodes;
        match vct {
            Some(line) => {
                main.recover_from_cut();
                let win = main.proven_root_move(line);
                search::report_win(main, win, on_info)
            }
            None => deepened,
        }
    }

    /// Gives every helper state (all free between root passes) the main thread's clock and
    /// what is left of its node budget (each may spend all of it: a node limit can be
    /// overrun up to the number of states).
    fn sync_workers(&self, main: &Thread<'a>) {
        let left = |nodes: u64| {
            main.limits
                .max_nodes
                .map(|n| nodes + n.saturating_sub(main.nodes))
        };
        *lock(&self.start) = main.start;
        lock(&self.limits).max_nodes = left(0);
        for worker in lock(&self.free).iter_mut() {
            let w = &mut worker.thread;
            w.start = main.start;
            w.limits.max_nodes = left(w.nodes);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A poisoned lock (a panicking helper) is still usable: the panic reaches the caller.
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Searches one sibling move of a split point on a helper whose board holds the split
/// point's position: a null window at the shared alpha (reduced as the serial loop reduces a
/// late quiet move, and searched again unreduced if it beats alpha), then, by PVS rules, the
/// full window at the alpha of then if it still beats it. A move that reaches beta cuts the
/// split point off: the moves not started are skipped, the running ones abandoned.
fn search_sibling(
    worker: &mut Thread,
    point: &SplitPoint,
    shared: &AtomicI32,
    cell: Cell,
    index: usize,
) -> Option<Searched> {
    let alpha = shared.load(Ordering::Acquire);
    let beta = point.beta;
    if alpha >= beta {
        return None;
    }
    if worker.stopped {
        // This state saw the search stop in an earlier task: so does this move.
        return Some(Searched {
            score: 0,
            line: Vec::new(),
            improved: false,
            aborted: false,
            nodes: 0,
            seldepth: 0,
            stopped: true,
        });
    }
    let (ply, depth) = (point.ply, point.depth);
    worker.enter_split_point(ply, point.raw_eval);
    let nodes = worker.nodes;
    worker.seldepth = 0;
    let us = worker.board.side_to_move();
    let r = if point.reduce {
        let quiet = worker.is_quiet(us, cell, point.threatened);
        worker.late_move_reduction(quiet, index, depth, point.is_pv)
    } else {
        0
    };
    worker.board.make(us, cell);
    worker.pv[ply + 1].clear();
    let mut improved = false;
    let score = if point.fives.contains(cell) {
        let win = WIN - (ply as i32 + 1);
        improved = win > alpha;
        win
    } else {
        let mut score = -worker.node(-alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
        if score > alpha && r > 0 && !worker.stopped {
            score = -worker.node(-alpha - 1, -alpha, depth - 1, ply + 1, false);
        }
        if score >= beta {
            improved = true;
        } else if score > alpha && !worker.stopped {
            // Re-search at the alpha of now: other moves may have raised it meanwhile.
            let now = shared.load(Ordering::Acquire).max(alpha);
            if now < beta {
                score = -worker.node(-beta, -now, depth - 1, ply + 1, true);
                improved = score > now;
            }
        }
        score
    };
    worker.board.unmake();
    let aborted = worker.cut;
    let stopped = worker.stopped && !aborted;
    let improved = improved && !worker.stopped;
    if improved {
        shared.fetch_max(score, Ordering::AcqRel);
        if score >= beta {
            point.cut().store(true, Ordering::Release);
        }
    }
    Some(Searched {
        score,
        line: worker.pv[ply + 1].clone(),
        improved,
        aborted,
        nodes: worker.nodes - nodes,
        seldepth: worker.seldepth,
        stopped,
    })
}
