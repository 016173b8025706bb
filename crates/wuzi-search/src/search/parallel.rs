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
//! then folds the answers into its node as its serial loop would have (the thread's side of
//! that, `impl Thread` at the end of this file).
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

use super::{Frame, MovePlan, NodeContext, RootMove, Thread, HISTORY_MAX, INF};
use crate::params::PLY;
use crate::tt::{Bound, TranspositionTable};
use crate::{Limits, Options};
use rayon::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::{Board, Cell};

/// The most threads a searcher uses.
pub const MAX_THREADS: usize = 256;
/// Stack of each pool thread: the search recurses up to `MAX_PLY` deep, as on the search
/// thread (the pages are only touched as deep as the search goes).
pub(crate) const STACK_BYTES: usize = 16 << 20;

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

/// What one task of a split point answers: its moves' results (by their index in the
/// split point's list) and what its history learned.
struct TaskAnswers {
    results: Vec<(usize, Option<Searched>)>,
    history: HistoryDelta,
}

/// How far the helpers' searches of a split point moved the history table, to be added to
/// the splitting thread's: the history steers late-move reductions, so a thread that kept
/// only what it searched itself would reduce by a poorer table than one thread alone.
#[derive(Default)]
pub(crate) struct HistoryDelta {
    /// Per colour; empty when nothing was learned.
    pub(crate) by_color: Vec<[i32; MAX_CELLS]>,
}

impl HistoryDelta {
    fn between(start: &[[i32; MAX_CELLS]], end: &[[i32; MAX_CELLS]]) -> HistoryDelta {
        let by_color = start
            .iter()
            .zip(end)
            .map(|(a, b)| {
                let mut d = [0; MAX_CELLS];
                for ((d, &a), &b) in d.iter_mut().zip(a.iter()).zip(b.iter()) {
                    *d = b - a;
                }
                d
            })
            .collect();
        HistoryDelta { by_color }
    }

    fn add(&mut self, other: &HistoryDelta) {
        if self.by_color.is_empty() {
            self.by_color.clone_from(&other.by_color);
            return;
        }
        for (mine, theirs) in self.by_color.iter_mut().zip(&other.by_color) {
            for (m, &t) in mine.iter_mut().zip(theirs.iter()) {
                *m += t;
            }
        }
    }
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
    /// What the node's move loop knew when it split: its helpers plan each move with it.
    pub(crate) ctx: NodeContext,
    /// The best score among the moves the node searched before it split.
    pub(crate) best: i32,
    /// The frames of the line from four plies above the node to the node.
    pub(crate) frames: &'p [Frame],
    /// The root's window (its width and its alpha when the split opened).
    pub(crate) root_delta: i32,
    pub(crate) root_alpha: i32,
    /// The splitting thread's move-ordering memory (history and counter moves per colour): a
    /// helper starts each split point with a copy, so it orders moves as that thread would.
    pub(crate) history: &'p [[i32; MAX_CELLS]],
    pub(crate) counter_moves: &'p [[Option<Cell>; MAX_CELLS]],
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
        let cells: Vec<(Cell, usize)> = moves[1..]
            .iter()
            .enumerate()
            .map(|(k, m)| (m.cell, k + 1))
            .collect();
        let alpha = alpha.max(first);
        main.root_alpha = alpha;
        let ctx = main.root_context(depth, alpha, beta);
        let frames = main.frames_around(0).to_vec();
        let point = SplitPoint {
            board: &main.board,
            ctx,
            best: first,
            frames: &frames,
            root_delta: main.root_delta,
            root_alpha: main.root_alpha,
            history: main.history(),
            counter_moves: main.counter_moves(),
            null_min_ply: 0,
            cuts: main.split_cuts(),
        };
        for &(cell, _) in &cells {
            main.report_entered(cell, depth);
        }
        let (results, history) = self.search_siblings(&point, &cells);
        main.absorb(&results, &history);
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
                .store(hash, 0, Some(moves[0].cell), best, 0, depth / PLY, bound);
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
    ) -> (Vec<Option<Searched>>, HistoryDelta) {
        let id = self.points.fetch_add(1, Ordering::Relaxed) + 1;
        let alpha = AtomicI32::new(point.ctx.alpha);
        let next = AtomicUsize::new(0);
        let tasks = self.threads.min(cells.len());
        self.busy.fetch_sub(1, Ordering::Relaxed);
        let found: Vec<TaskAnswers> = self.pool.install(|| {
            (0..tasks)
                .into_par_iter()
                .with_max_len(1)
                .map(|_| self.take_moves(point, cells, &alpha, &next, id))
                .collect()
        });
        self.busy.fetch_add(1, Ordering::Relaxed);
        let mut results: Vec<Option<Searched>> = cells.iter().map(|_| None).collect();
        let mut history = HistoryDelta::default();
        for task in found {
            for (k, result) in task.results {
                results[k] = result;
            }
            history.add(&task.history);
        }
        (results, history)
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
    ) -> TaskAnswers {
        self.busy.fetch_add(1, Ordering::Relaxed);
        let mut found = Vec::new();
        let mut state: Option<Box<Worker<'a>>> = None;
        // The history the task's state started from: what it learns beyond it goes back to
        // the splitting thread (`HistoryDelta`).
        let mut start: Option<Vec<[i32; MAX_CELLS]>> = None;
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(cell, index)) = cells.get(k) else {
                break;
            };
            if alpha.load(Ordering::Acquire) >= point.ctx.beta {
                break;
            }
            let worker = state.get_or_insert_with(|| {
                let mut worker = self.acquire();
                if worker.point != id {
                    worker.thread.adopt_split_point(point);
                    worker.point = id;
                }
                worker
            });
            if start.is_none() {
                start = Some(worker.thread.history().to_vec());
            }
            found.push((
                k,
                self.run_task(&mut worker.thread, point, alpha, cell, index),
            ));
        }
        let mut history = HistoryDelta::default();
        if let Some(worker) = state {
            if let Some(start) = &start {
                history = HistoryDelta::between(start, worker.thread.history());
            }
            self.release(worker);
        }
        self.busy.fetch_sub(1, Ordering::Relaxed);
        TaskAnswers {
            results: found,
            history,
        }
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
/// point's position, as the node's own loop would (its plan: a reduced null window for a late
/// move, searched again as planned if it beats alpha), at the shared alpha; then, at a PV
/// node, the full window at the alpha of then if it still beats it. A move that reaches beta
/// cuts the split point off: the moves not started are skipped, the running ones abandoned.
fn search_sibling(
    worker: &mut Thread,
    point: &SplitPoint,
    shared: &AtomicI32,
    cell: Cell,
    index: usize,
) -> Option<Searched> {
    let alpha = shared.load(Ordering::Acquire);
    let beta = point.ctx.beta;
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
    let mut ctx = point.ctx;
    ctx.alpha = alpha;
    let ply = ctx.ply;
    let nodes = worker.nodes;
    worker.seldepth = 0;
    worker.root_delta = point.root_delta;
    worker.root_alpha = point.root_alpha;
    let plan = worker
        .plan(&ctx, cell, index + 1, point.best)
        .unwrap_or(MovePlan {
            depth: ctx.depth - PLY,
            reduced: None,
        });
    worker.enter_move(ply, cell, plan.depth, ctx.depth);
    worker.pv[ply + 1].clear();
    let mut improved = false;
    let null_window = NodeContext {
        is_pv: false,
        ..ctx
    };
    let mut score = worker.search_move(&null_window, plan, index + 1, alpha, beta, point.best);
    if score >= beta {
        improved = true;
    } else if score > alpha && ctx.is_pv && !worker.stopped {
        // Re-search at the alpha of now: other moves may have raised it meanwhile.
        let now = shared.load(Ordering::Acquire).max(alpha);
        if now < beta {
            score = -worker.node(-beta, -now, plan.depth, ply + 1, true, false);
            improved = score > now;
        }
    }
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

// ---------------------------------------------------------------------------------------
// The thread's side of a split point: what a helper takes from the splitting thread before
// it starts (the position and the frames of the line above it, the move-ordering memory,
// the cut-off flags around it), and how the splitting thread folds the helpers' answers into
// its node as its serial move loop would have.

impl Thread<'_> {
    /// Folds the helpers' answers for the moves of a split node into the node, as the serial
    /// loop would have: the best score, move and its index in the node's list, and the principal
    /// variation. `results[k]` answers `cells[k]`, a move and its index in `list`. Moves whose
    /// search beat its alpha come first (in list order), since a null-window bound from a
    /// move searched after the bound rose never beats the move that raised it; bounds then
    /// count only where nothing beat the node's alpha (a fail-low node, soft, as in the
    /// loop). The caller rewards the best move and stores the node.
    pub(super) fn merge_siblings(
        &mut self,
        cells: &[(Cell, usize)],
        results: &[Option<Searched>],
        ctx: &NodeContext,
        mut alpha: i32,
    ) -> (i32, Option<Cell>, usize) {
        let ply = ctx.ply;
        let mut best = (-INF, None, 0);
        for (&(cell, index), r) in cells.iter().zip(results) {
            let Some(r) = r.as_ref().filter(|r| r.improved) else {
                continue;
            };
            if r.score > best.0 {
                best = (r.score, Some(cell), index);
                if r.score > alpha {
                    alpha = r.score;
                    self.pv[ply + 1].clone_from(&r.line);
                    self.set_pv(ply, cell);
                    if r.score >= ctx.beta {
                        self.cutoffs.cutoffs += 1;
                        return best;
                    }
                }
            }
        }
        if best.1.is_some() {
            return best;
        }
        for (&(_, index), r) in cells.iter().zip(results) {
            let bound = r.as_ref().filter(|r| !r.improved && !r.aborted);
            if let Some(r) = bound.filter(|r| r.score > best.0) {
                best = (r.score, None, index);
            }
        }
        best
    }

    /// The cut-off flags a split point at this node carries: those around this thread's
    /// move, then a new one of its own.
    pub(crate) fn split_cuts(&self) -> Vec<Arc<AtomicBool>> {
        let mut cuts = self.cut_chain.clone();
        cuts.push(Arc::new(AtomicBool::new(false)));
        cuts
    }

    /// Adds the helpers' nodes, selective depth and stop to this thread's, and what their
    /// history learned to its history (within the history's bound).
    pub(crate) fn absorb(&mut self, results: &[Option<Searched>], history: &HistoryDelta) {
        for r in results.iter().flatten() {
            self.nodes += r.nodes;
            self.seldepth = self.seldepth.max(r.seldepth);
            self.stopped |= r.stopped;
        }
        for (mine, learned) in self.history.iter_mut().zip(&history.by_color) {
            for (h, &d) in mine.iter_mut().zip(learned.iter()) {
                *h = (*h + d).clamp(-HISTORY_MAX, HISTORY_MAX);
            }
        }
    }

    pub(crate) fn history(&self) -> &[[i32; MAX_CELLS]] {
        &self.history
    }

    pub(crate) fn counter_moves(&self) -> &[[Option<Cell>; MAX_CELLS]] {
        &self.counter_moves
    }

    /// Takes the splitting thread's position around the split point and its move-ordering
    /// memory (a helper starting on a split point).
    pub(crate) fn adopt_split_point(&mut self, point: &SplitPoint) {
        self.board.clone_from(point.board);
        self.history.copy_from_slice(point.history);
        self.counter_moves.copy_from_slice(point.counter_moves);
        self.adopt_frames(point.ctx.ply, point.frames);
    }

    /// Gives a new helper state a VCF table of `2^bits` entries instead of the main thread's
    /// (allocated on first use, so the first one costs nothing).
    pub(crate) fn use_vcf_table_bits(&mut self, bits: u32) {
        self.vcf.set_table_bits(bits);
    }
}
