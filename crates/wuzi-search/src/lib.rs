//! wuzi-search: the searcher behind a small, stable API.
//!
//! [`Searcher::search`] takes a position, [`Limits`] and a stop flag, reports progress through
//! a callback ([`Info`], once per completed iteration and line) and returns a
//! [`SearchResult`]. It knows nothing of any protocol. The search is `search.rs` with
//! `search/` (iterative deepening, principal variation search, the threat solvers at the root
//! and the leaves); [`quick_move`] (`quick.rs`) answers a legal move without searching.
//!
//! Guarantees of the search: the move returned is on the board, empty, and not a
//! renju Black forbidden point; a five for the side to move is taken at once; an opponent's
//! five is blocked when it can be; `None` only when no legal move exists. The transposition
//! table never exceeds the bytes given to [`Searcher::new`] / [`Searcher::set_hash`] and is
//! allocated only when a search first needs it.
//!
//! [`Searcher::set_threads`] chooses the threads (one by default: no pool, and the search is
//! deterministic); more threads split the root and the nodes below it, young brothers wait
//! (`search/parallel.rs`), and every count reported
//! (`Info::nodes`, `SearchResult::nodes`) is summed over them.
//!
//! Scores are from the point of view of the side to move. [`WIN`] minus `n` means a win in
//! `n` plies (the five made on ply `n`); scores of magnitude [`WIN_MIN`] or more are proven
//! wins or losses.

pub mod bench;
mod iteration_clock;
pub mod movepick;
pub mod order_table;

pub mod params;
mod quick;
pub mod search;
pub mod solve;
pub mod strength;
pub mod tactics;
pub mod threat;
pub mod tt;
pub mod vcf;
pub mod vct;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use quick::quick_move;
pub use search::parallel;
pub use wuzi_core::{Board, Color, Point, Rule};
use wuzi_eval::eval;

/// The score of a five made on the current move.
pub const WIN: i32 = 30_000;
/// Scores at least this large (in magnitude) are proven results.
pub const WIN_MIN: i32 = WIN - 1_000;

/// What bounds one search. `None` means no bound; times count from the call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Do not start a new iteration after this.
    pub soft_time: Option<Duration>,
    /// Stop at once after this.
    pub hard_time: Option<Duration>,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// Number of best moves to find (at least 1).
    pub multipv: usize,
    /// Points the search must not play at the root (an analysis GUI's blocks); the rest of
    /// the tree is not restricted. Empty: none. A search whose every legal move is blocked
    /// returns `None`.
    pub blocked: Vec<Point>,
    /// The game ends once the board holds this many stones without a five (a tournament's
    /// move limit); `None`: only when the board is full.
    pub draw: Option<DrawRule>,
    /// The search is analysis, not a move about to be played: a root with one legal move is
    /// read to the limits like any other position (in play it stops once its score is known,
    /// since only the move matters).
    pub analysis: bool,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            soft_time: None,
            hard_time: None,
            max_depth: None,
            max_nodes: None,
            multipv: 1,
            blocked: Vec::new(),
            draw: None,
            analysis: false,
        }
    }
}

/// A game that ends at a number of stones (see [`Limits::draw`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrawRule {
    /// The game ends when the board holds this many stones and no five.
    pub stones: usize,
    /// Who is then declared the winner; `None`: a draw (scored 0).
    pub winner: Option<Color>,
}

/// What happens at the root of a search, for a display that follows it move by move
/// ([`Searcher::search_observed`]). Events come from the search's own thread; with helper
/// threads, the root moves handed to them are reported entered together and finished when
/// they come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEvent {
    /// Iteration `depth` begins.
    Iteration { depth: u32 },
    /// The search of a root move begins.
    Entered { point: Point, depth: u32 },
    /// The search of a root move is finished (or was cut off by the window).
    Finished { point: Point, depth: u32 },
    /// A root move became the best so far of a pass over the root moves: of the iteration
    /// when `line` is 1; with several lines (multi-PV), pass `line` looks for the `line`-th best.
    Best {
        point: Point,
        depth: u32,
        score: i32,
        line: usize,
    },
    /// A root move is proven lost (the opponent makes five whatever is played).
    Lost { point: Point, depth: u32 },
}

/// Progress of one line after a completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1 for the best line, 2 for the second, ...
    pub multipv: usize,
    pub score: i32,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    pub best: Point,
    pub score: i32,
    /// The last completed depth (0 when the move needed no search).
    pub depth: u32,
    pub nodes: u64,
    /// The best moves with their scores, best first (at least the best move).
    pub lines: Vec<(Point, i32)>,
    /// The same lines, each with the score, depth and principal variation of its own last
    /// completed search (after a multi-PV iteration cut short, the lines it finished carry its
    /// depth and the others the depth before).
    pub pv: Vec<PvLine>,
    /// Beta cut-offs of the main thread's search (move ordering quality).
    pub cutoffs: CutoffStats,
    /// Where the main thread's nodes went, when `Options::stats` asked for it.
    pub stats: Option<Box<search::NodeStats>>,
}

/// One line of a multi-PV result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    pub score: i32,
    pub depth: u32,
    /// The line, from the root move.
    pub pv: Vec<Point>,
}

/// How often the first move searched at a node was the one that cut it off: the measure of
/// move ordering (issue 13). Counted in interior nodes of the main search, not the root.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CutoffStats {
    pub cutoffs: u64,
    pub first_move: u64,
}

impl CutoffStats {
    pub fn add(&mut self, other: CutoffStats) {
        self.cutoffs += other.cutoffs;
        self.first_move += other.first_move;
    }

    /// The share of cut-offs made by the first move (0 with no cut-off).
    pub fn first_move_rate(&self) -> f64 {
        if self.cutoffs == 0 {
            0.0
        } else {
            self.first_move as f64 / self.cutoffs as f64
        }
    }
}

/// Switches for tests and experiments; the defaults are what the engine plays with.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Options {
    /// Use the transposition table (probe and store).
    pub use_tt: bool,
    /// Reductions and pruning that can change the result (LMR, futility, move-count
    /// pruning, aspiration windows) and the two-ply static value (the mean of a node's
    /// evaluation and its parent's, which depends on the path to the node). Without them the
    /// search is plain alpha-beta over the threat-restricted move sets with the raw
    /// evaluation at its leaves, so its score at a fixed depth is exact for that tree, and
    /// the transposition table cannot change it.
    pub pruning: bool,
    /// Threat-space search: VCF and VCT at the root, the side's fours in the quiescence.
    pub threat_search: bool,
    /// The textbook oracle's semantics (`wuzi-textbook`'s Gomoku): every legal point is a
    /// move, the game ends only when a five is made or the board is full, nothing is
    /// resolved early (no forced-move extension, no open-four shortcut, no threat search),
    /// and a leaf's value is the sum over empty points of these weights (indexed by
    /// `Threat as usize`) for the side to move minus the opponent's. With `pruning` off the
    /// score at a fixed depth must then equal plain minimax's.
    pub textbook: Option<[i32; 14]>,
    /// The evaluation (ignored under `textbook`).
    pub eval: eval::EvalChoice,
    /// With helpers (more than one thread): the least depth at which a principal variation
    /// node, and any other node, searches its moves after the first in parallel
    /// (`search/parallel.rs`). Shallower subtrees cost less than handing them out.
    pub split_depth: SplitDepth,
    /// Count where the main thread's nodes go (`search/stats.rs`; off in play).
    pub stats: bool,
    /// Order moves by the learned ordering table where the rule has one
    /// (`order_table.rs`); off: by the hand-set class scores (`movepick::class_score`).
    pub learned_order: bool,
}

/// The least depths at which nodes split (see [`Options::split_depth`]). All are at least
/// 3: a split node prunes the moves it hands out by move count, never by futility.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitDepth {
    pub pv: i32,
    pub other: i32,
    /// While a pool thread has nothing to search, any node from this depth splits, so the
    /// idle thread steals its moves at once instead of waiting for a node deep enough.
    /// (The defaults, 3, 9 and 4, were chosen on the bench and in play:
    /// `docs/journal/parallel.md`.)
    pub idle: i32,
}

impl Default for SplitDepth {
    fn default() -> SplitDepth {
        SplitDepth {
            pv: 3,
            other: 9,
            idle: 4,
        }
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            use_tt: true,
            pruning: true,
            threat_search: true,
            textbook: None,
            eval: eval::EvalChoice::Auto,
            split_depth: SplitDepth::default(),
            stats: false,
            learned_order: true,
        }
    }
}

/// The one thread-count rule of every front end (`pbrain-wuzi --threads`, `INFO thread_num`,
/// every `wuzi` subcommand's `--threads`): 0 asks for one thread per available core, any other
/// count is taken as it is, and the result lies in `1..=`[`parallel::MAX_THREADS`].
/// [`Searcher::set_threads`] bounds it further by the search's own maximum.
pub fn resolve_threads(requested: u64) -> usize {
    let wanted = match requested {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => usize::try_from(n).unwrap_or(parallel::MAX_THREADS),
    };
    wanted.clamp(1, parallel::MAX_THREADS)
}

/// Owns everything a search keeps between moves: the transposition table and, with more
/// than one thread, the thread pool (`search/parallel.rs`).
pub struct Searcher {
    options: Options,
    hash_bytes: usize,
    table: Option<tt::TranspositionTable>,
    /// `None` with one thread.
    pool: Option<parallel::Pool>,
}

impl Searcher {
    /// A searcher whose table may use up to `hash_bytes` bytes. Allocates nothing yet.
    pub fn new(hash_bytes: usize) -> Searcher {
        Searcher {
            options: Options::default(),
            hash_bytes,
            table: None,
            pool: None,
        }
    }

    pub fn set_options(&mut self, options: Options) {
        self.options = options;
    }

    /// Forgets everything learnt (a new game, or `YXHASHCLEAR`). The table is emptied in
    /// place, not released: the next search (a game's first move, whose time the managers
    /// count) then neither allocates it nor faults its pages in on one thread.
    pub fn clear(&mut self) {
        if let Some(table) = &mut self.table {
            table.clear();
        }
    }

    /// Changes the table size bound; the table is rebuilt (empty) when next needed.
    pub fn set_hash(&mut self, hash_bytes: usize) {
        if hash_bytes != self.hash_bytes {
            self.hash_bytes = hash_bytes;
            self.table = None;
        }
    }

    /// Saves the transposition table to `path` (`tt/persist.rs`); returns the entries
    /// written. A searcher that has not searched yet writes an empty table.
    pub fn save_table(
        &self,
        path: &std::path::Path,
        meta: &tt::TableMeta,
    ) -> Result<usize, tt::TableFileError> {
        match &self.table {
            Some(table) => table.save(path, meta),
            None => tt::TranspositionTable::new(0).save(path, meta),
        }
    }

    /// Replaces the transposition table's contents with a saved table; returns the entries
    /// read. On an error the table is as it was.
    pub fn load_table(
        &mut self,
        path: &std::path::Path,
        meta: &tt::TableMeta,
    ) -> Result<usize, tt::TableFileError> {
        if self.table.is_none() {
            // A file that will be refused allocates no table.
            tt::TranspositionTable::check_file(path, meta)?;
        }
        let bytes = self.hash_bytes;
        self.table
            .get_or_insert_with(|| tt::TranspositionTable::new(bytes))
            .load(path, meta)
    }

    /// How full the transposition table is (an unallocated one is empty at its bound).
    pub fn table_usage(&self) -> tt::TableUsage {
        match &self.table {
            Some(table) => table.usage(),
            None => tt::TableUsage {
                used: 0,
                slots: self.hash_bytes / tt::ENTRY_BYTES,
                bytes: self.hash_bytes,
            },
        }
    }

    /// The table size bound in bytes.
    pub fn hash_bytes(&self) -> usize {
        self.hash_bytes
    }

    /// The most threads this searcher can use.
    pub fn max_threads(&self) -> usize {
        parallel::MAX_THREADS
    }

    /// The threads the next search uses.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, parallel::Pool::threads)
    }

    /// Sets the number of search threads (clamped to `1..=max_threads()`); the pool is
    /// started (or rebuilt) now, not during a search. If it cannot be started the searcher
    /// keeps one thread and says why.
    pub fn set_threads(&mut self, threads: usize) -> Result<(), parallel::PoolError> {
        let threads = threads.clamp(1, self.max_threads());
        if threads == self.threads() {
            return Ok(());
        }
        self.pool = None;
        if threads > 1 {
            self.pool = Some(parallel::Pool::new(threads)?);
        }
        Ok(())
    }

    /// Does now the one-time work that the first search on a board of `board`'s rule would
    /// otherwise do on its clock, on one thread while the others wait: the table's allocation
    /// and first write (about 10 ms for 16 MiB, 100 ms for 256 MiB) and the rule's evaluation
    /// tables (4 to 6 ms the first time a rule is seen in a process). Searches are the same
    /// with or without it.
    pub fn prepare(&mut self, board: &Board) {
        let bytes = self.hash_bytes;
        self.table
            .get_or_insert_with(|| tt::TranspositionTable::new(bytes));
        search::install_evaluation(&self.options, &mut board.clone());
    }

    /// Searches `board` for the side to move. Returns `None` only if there is no legal move
    /// (none that is not blocked).
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut (dyn FnMut(&Info) + Send),
    ) -> Option<SearchResult> {
        self.search_observed(board, limits, stop, on_info, &|_| {})
    }

    /// [`Searcher::search`], reporting the root's progress to `on_root` as it goes.
    pub fn search_observed(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut (dyn FnMut(&Info) + Send),
        on_root: &(dyn Fn(&RootEvent) + Sync),
    ) -> Option<SearchResult> {
        let bytes = self.hash_bytes;
        let table = self
            .table
            .get_or_insert_with(|| tt::TranspositionTable::new(bytes));
        table.new_search();
        let table: &tt::TranspositionTable = table;
        let mut thread = search::Thread::new(board, table, stop, limits, self.options);
        thread.observe(on_root);
        if self.options.stats {
            thread.stats = Some(Box::default());
        }
        if let Some(pool) = &self.pool {
            parallel::Split::new(pool, board, table, stop, limits, self.options)
                .attach(&mut thread);
        }
        let (moves, depth) = match &self.pool {
            // The search's own thread is one of the pool's: it takes part in its splits.
            Some(pool) => pool.run(|| search::iterate(&mut thread, on_info)),
            None => search::iterate(&mut thread, on_info),
        };
        let best = moves.first()?;
        let score = if best.score.abs() > WIN {
            0
        } else {
            best.score
        };
        let shown = |score: i32| if score.abs() > WIN { 0 } else { score };
        let lines = moves
            .iter()
            .take(limits.multipv.max(1))
            .map(|m| (thread.board.point(m.cell), shown(m.score)))
            .collect();
        let pv = moves
            .iter()
            .take(limits.multipv.max(1))
            .map(|m| PvLine {
                score: shown(m.score),
                depth: m.depth,
                pv: thread.points(&m.pv),
            })
            .collect();
        if depth == 0 && moves.len() == 1 {
            // A forced or only move: report it as a line.
            on_info(&Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                nodes: thread.nodes,
                elapsed: thread.elapsed(),
                pv: vec![thread.board.point(best.cell)],
            });
        }
        Some(SearchResult {
            best: thread.board.point(best.cell),
            score,
            depth,
            nodes: thread.nodes,
            lines,
            pv,
            cutoffs: thread.cutoffs,
            stats: thread.stats.take(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_follow_one_rule() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(resolve_threads(0), cores.min(parallel::MAX_THREADS));
        assert_eq!(resolve_threads(1), 1);
        assert_eq!(resolve_threads(3), 3);
        assert_eq!(resolve_threads(100_000), parallel::MAX_THREADS);
        assert_eq!(resolve_threads(u64::MAX), parallel::MAX_THREADS);
    }
}
