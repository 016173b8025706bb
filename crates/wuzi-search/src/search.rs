//! The main search: iterative deepening, aspiration windows and principal variation search
//! over the shared transposition table, selective at every kind of node.
//!
//! Its parts, each in a file of its own:
//! - `tactics.rs` (beside this module) settles what needs no search, at every node of the tree and of the
//!   quiescence: a five for the side to move wins; two opponent fives lose, one leaves the
//!   block as the only move; an open four, a four-three that the opponent cannot answer and
//!   a double three against an opponent without fours win by force (rule-aware, with their
//!   true distances);
//! - `node.rs` is the node function, in numbered steps: the table, the static value,
//!   razoring, reverse futility, the null move, internal iterative reduction, then the move
//!   loop, where the block of a five, a singular table move and continuing attacks are
//!   extended, and a principal-variation node facing a four-three whose defences all lose
//!   searches the ones off the four-three's lines before it claims the loss;
//! - `plan.rs` plans each move of the loop: every kind of move (threats and defences
//!   included) can be pruned by move count and reduced late;
//! - `qsearch.rs` is the quiescence below the horizon: the side to move's fours near its
//!   own last stones, the block free, a value with stand pat (not only proven wins);
//! - `movepick.rs` (beside this module) generates moves by the threat the node faces: the
//!   one block of a five, the defences of an open three or a four-three (and the side's
//!   own fours), or every candidate near the stones, ordered by what they make and stop;
//! - `root.rs` is the root (its moves, the threat solvers that run before any alpha-beta,
//!   one pass over its moves), `iterate.rs` iterative deepening, `parallel.rs` the parallel
//!   search (the pool, split points and their tasks, and the thread's side of a split),
//!   `span.rs` the work-and-span model;
//! - the analysis hooks, inert when not asked for: `blocked.rs` the root moves a caller
//!   forbids, `draw.rs` a game that ends at a number of stones (the nodes at the limit, and
//!   no static win or loss whose five comes after it), `progress.rs` the root's progress
//!   events for an observer.
//!
//! Every tuning constant is in `params.rs`. Depths are fractional ([`PLY`] units a ply).
//! Scores are from the side to move's view; `WIN - n` is a five made `n` plies from the root.
//! A node is one call of the node function or of the quiescence (one position visited).
//!
//! Invariant: with `Options::pruning` off the tree holds no reduction, pruning, extension
//! or aspiration window that depends on the window or the path, and the quiescence only
//! settles tactics and stands pat: the score at a fixed depth is then the minimax value of
//! that tree (what `tests/main_search.rs` and `tests/parallel_search.rs` compare).

use crate::movepick::{Facing, MoveList};
use crate::order_table::OrderTable;
use crate::params::PLY;
use crate::tactics::{loss_in, settle, win_in, Settled};
use crate::tt::TranspositionTable;
use crate::vcf::VcfSolver;
use crate::{Limits, Options, WIN};
use parallel::Split;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::{flag, Board, Cell, Point, Threat};
use wuzi_eval::eval;

mod blocked;
mod draw;
mod iterate;
mod node;
pub mod parallel;
mod plan;
mod progress;
mod qsearch;
mod root;
mod span;
mod stats;

pub use iterate::iterate;
pub use span::SpanModel;
pub use stats::NodeStats;

pub const MAX_PLY: usize = 128;
/// The deepest iteration (plies).
pub const MAX_DEPTH: i32 = 100;
pub(crate) const INF: i32 = WIN + 1;

/// What the move loop of a node knows when it plans a move: enough for a helper of a split
/// point to plan the node's moves as the node itself would.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NodeContext {
    pub(crate) ply: usize,
    /// The depth the node's moves are planned with (lowered once a move raised alpha).
    pub(crate) depth: i32,
    pub(crate) is_pv: bool,
    pub(crate) cut_node: bool,
    pub(crate) facing: Facing,
    /// The static value improved on the side's last node (two plies up); by how much.
    pub(crate) improvement: i32,
    pub(crate) tt_move: Option<Cell>,
    /// The node's static value is far enough above beta that it will probably fail high.
    pub(crate) likely_fail_high: bool,
    pub(crate) tt_pv: bool,
    /// The window when the plan is made (the reduction of a PV node shrinks with its width).
    pub(crate) alpha: i32,
    pub(crate) beta: i32,
}

/// Why a move is not searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pruned {
    /// Past the node's move count: so are all the moves after it.
    ByCount,
    /// This move alone.
    Alone,
}

/// How a move is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MovePlan {
    /// The depth of the move's full search.
    pub(crate) depth: i32,
    /// A first, reduced null-window search at this depth (late moves).
    pub(crate) reduced: Option<i32>,
}
const CHECK_EVERY: u64 = 1024;
/// Frames kept before the root, so that any node can look four plies back.
pub(crate) const FRAMES_BEFORE_ROOT: usize = 4;

/// What the search keeps per ply of the current line, besides the move lists and lines.
#[derive(Clone, Copy, Debug)]
pub struct Frame {
    /// The position's raw static evaluation (side to move's view), when it was computed.
    pub(crate) raw_eval: Option<i32>,
    /// The static value pruning reads (the mean of the raw evaluation and the parent's, or
    /// the parent's negated where the node skipped its evaluation); `None` before the node
    /// set it.
    pub(crate) static_eval: Option<i32>,
    /// The move being searched from this position, and what it makes for the side that
    /// plays it and takes from the other (their threat classes at the cell).
    pub(crate) current: Option<Cell>,
    pub(crate) made: Threat,
    pub(crate) blocked: Threat,
    pub(crate) killers: [Option<Cell>; 2],
    /// A singular-extension search leaves this move out here.
    pub(crate) excluded: Option<Cell>,
    /// The node here answers a null move (set by the parent, read once on entry).
    pub(crate) after_null: bool,
    /// The node is or was on a principal variation.
    pub(crate) tt_pv: bool,
    /// Extensions beyond one ply summed along the line to here.
    pub(crate) extra_extension: i32,
    /// This node or one above it on the line faces a threat (for `stats.rs`).
    pub(crate) under_threat: bool,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            raw_eval: None,
            static_eval: None,
            current: None,
            made: Threat::None,
            blocked: Threat::None,
            killers: [None; 2],
            excluded: None,
            after_null: false,
            tt_pv: false,
            extra_extension: 0,
            under_threat: false,
        }
    }
}

pub struct Thread<'a> {
    pub board: Board,
    pub(crate) tt: &'a TranspositionTable,
    stop: &'a AtomicBool,
    pub(crate) start: Instant,
    pub(crate) limits: Limits,
    pub(crate) options: Options,
    pub nodes: u64,
    next_check: u64,
    pub seldepth: usize,
    pub(crate) stopped: bool,
    /// `FRAMES_BEFORE_ROOT` frames, then one per ply from the root.
    frames: Vec<Frame>,
    /// Per colour and opponent's last cell: the move that last refuted it.
    counter_moves: Vec<[Option<Cell>; MAX_CELLS]>,
    /// Per colour and cell: how often the move was the best one, weighted by depth.
    history: Vec<[i32; MAX_CELLS]>,
    /// The learned ordering table (`order_table.rs`), or none for the class scores.
    pub(crate) order: Option<&'static OrderTable>,
    pub(crate) pv: Vec<Vec<Cell>>,
    lists: Vec<MoveList>,
    /// The root's threat solvers (the tree's own threats are read by the quiescence).
    vcf: VcfSolver<'a>,
    /// The best root move of the last `search_root` call whose score beat that call's alpha
    /// in a finished search: the information a stopped iteration still holds.
    pub(crate) root_verified: Option<RootMove>,
    /// The helpers of a parallel search (`parallel.rs`); `None` on one thread.
    pub(crate) split: Option<Arc<Split<'a>>>,
    evaluator: eval::Evaluator,
    pub cutoffs: crate::CutoffStats,
    /// The window of the current root pass: its width and its alpha (late-move reductions
    /// read both).
    pub(crate) root_delta: i32,
    pub(crate) root_alpha: i32,
    /// Null moves are tried only from this ply on: a verification search raises it so that
    /// the line it verifies is searched without passing.
    pub(crate) null_min_ply: usize,
    /// On a helper: the cut-off flags of the split points around the move it searches (see
    /// `parallel::SplitPoint`); empty on the main thread.
    pub(crate) cut_chain: Vec<Arc<AtomicBool>>,
    /// The search stopped because a split point around it was cut off, not because the
    /// search as a whole must stop.
    pub(crate) cut: bool,
    /// The work-and-span model of `span.rs`, when a caller wants it (`None`: off).
    pub span: Option<Box<SpanModel>>,
    /// Where the nodes go (`stats.rs`), when a caller wants it (`None`: off).
    pub stats: Option<Box<NodeStats>>,
    /// Who follows the root's progress (`progress.rs`); `None`: nobody.
    pub(crate) root_events: Option<&'a (dyn Fn(&crate::RootEvent) + Sync)>,
    /// The stone count at which the game ends (`draw.rs`); `usize::MAX` without a draw rule.
    pub(crate) draw_at: usize,
    /// Which multi-PV pass over the root moves runs (0: the one for the best line), for the
    /// root's progress events.
    pub(crate) root_line: usize,
}

/// A root move with the score and line of its last completed search.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub cell: Cell,
    pub score: i32,
    pub pv: Vec<Cell>,
    /// The depth in plies of the search that gave `score` and `pv` (0 before any).
    pub depth: u32,
}

/// Writes the game's last moves into the frames before the root (`frames[i]` is the frame
/// `frames.len() - i` plies before it): each move's cell and what it made and took when it
/// was played, so that the root and its first plies know the side's own last stone and
/// whether a line of threats goes on, as the nodes below them do. The frames are empty on
/// entry; a move that does not alternate with the side to move (a position set up stone by
/// stone) and those before it are left out.
fn game_moves_into_frames(board: &Board, frames: &mut [Frame]) {
    // Taken back one by one from the newest: each move's threats are read on the board
    // before it.
    let mut before = board.clone();
    let mut mover = board.side_to_move();
    for frame in frames.iter_mut().rev() {
        mover = mover.opponent();
        match before.recent_move(0) {
            Some((color, cell)) if color == mover => {
                before.unmake();
                frame.current = Some(cell);
                frame.made = before.threat_at(color, cell);
                frame.blocked = before.threat_at(color.opponent(), cell);
            }
            _ => return,
        }
    }
}

impl<'a> Thread<'a> {
    pub fn new(
        board: &Board,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        limits: &Limits,
        options: Options,
    ) -> Thread<'a> {
        let mut board = board.clone();
        let evaluator = install_evaluation(&options, &mut board);
        let order = ordering_table(&options, board.rule());
        // The stop reaches the root's VCF (which can run millions of nodes) within 1,024 nodes.
        let mut vcf = VcfSolver::with_table_bits(16);
        vcf.set_stop(Some(stop));
        let mut frames = vec![Frame::default(); FRAMES_BEFORE_ROOT + MAX_PLY + 2];
        if options.textbook.is_none() {
            // The plies before the root alternate the root's value, so that the first plies
            // can tell whether their static value improves.
            let root = evaluator.evaluate(&board);
            for (back, frame) in frames[..=FRAMES_BEFORE_ROOT].iter_mut().rev().enumerate() {
                let value = if back % 2 == 0 { root } else { -root };
                frame.static_eval = Some(value);
                frame.raw_eval = Some(value);
            }
            game_moves_into_frames(&board, &mut frames[..FRAMES_BEFORE_ROOT]);
        }
        Thread {
            board,
            tt,
            stop,
            start: Instant::now(),
            limits: limits.clone(),
            options,
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            stopped: false,
            frames,
            counter_moves: vec![[None; MAX_CELLS]; 2],
            history: vec![[0; MAX_CELLS]; 2],
            order,
            pv: vec![Vec::new(); MAX_PLY + 2],
            lists: (0..=MAX_PLY).map(|_| MoveList::default()).collect(),
            vcf,
            root_verified: None,
            split: None,
            evaluator,
            cutoffs: crate::CutoffStats::default(),
            root_delta: 2 * INF,
            root_alpha: -INF,
            null_min_ply: 0,
            cut_chain: Vec::new(),
            cut: false,
            span: None,
            stats: None,
            root_events: None,
            draw_at: limits.draw.map_or(usize::MAX, |d| d.stones),
            root_line: 0,
        }
    }

    /// The frame of the node at `ply` (the root is ply 0).
    #[inline]
    pub(crate) fn frame(&self, ply: usize) -> &Frame {
        &self.frames[ply + FRAMES_BEFORE_ROOT]
    }

    #[inline]
    pub(crate) fn frame_mut(&mut self, ply: usize) -> &mut Frame {
        &mut self.frames[ply + FRAMES_BEFORE_ROOT]
    }

    /// The frame `back` plies before `ply` (up to `FRAMES_BEFORE_ROOT` before the root).
    #[inline]
    pub(crate) fn frame_before(&self, ply: usize, back: usize) -> &Frame {
        &self.frames[ply + FRAMES_BEFORE_ROOT - back]
    }

    /// The frames from `back` plies before `ply` to `ply` (a split point's helpers copy
    /// them: the line above the split point is theirs too).
    pub(crate) fn frames_around(&self, ply: usize) -> &[Frame] {
        &self.frames[ply..=ply + FRAMES_BEFORE_ROOT]
    }

    pub(crate) fn adopt_frames(&mut self, ply: usize, frames: &[Frame]) {
        self.frames[ply..=ply + FRAMES_BEFORE_ROOT].copy_from_slice(frames);
    }

    #[inline]
    fn check_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        // Nodes also arrive in bulk from the threat solvers: compare, never test a multiple.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let over_time = self
                .limits
                .hard_time
                .is_some_and(|t| self.start.elapsed() >= t);
            let over_nodes = self.limits.max_nodes.is_some_and(|n| self.nodes >= n);
            if over_time || over_nodes || self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else {
                self.stop_if_cut();
            }
        }
        self.stopped
    }

    /// Stops this thread's search if a split point around its move was cut off.
    fn stop_if_cut(&mut self) {
        if !self.stopped && self.cut_chain.iter().any(|c| c.load(Ordering::Acquire)) {
            self.stopped = true;
            self.cut = true;
        }
    }

    /// After a task abandoned for a cut-off: the state may search again (the next check
    /// looks at the clock and the stop flag at once).
    pub(crate) fn recover_from_cut(&mut self) {
        if self.cut {
            self.cut = false;
            self.stopped = false;
            self.next_check = 0;
        }
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The raw evaluation of the position, for the textbook oracle its material count.
    #[inline]
    fn evaluate(&self) -> i32 {
        if self.options.textbook.is_some() {
            eval::material(&self.board)
        } else {
            self.evaluator.evaluate(&self.board)
        }
    }

    /// The static value of the node at `ply` from its raw evaluation: the mean of it and the
    /// parent's (negated), when the parent was evaluated. A pattern evaluation overrates the
    /// side to move's threats and underrates the opponent's, so raw values swing between odd
    /// and even depths; the mean of two consecutive plies cancels most of the swing, which
    /// keeps reduced searches (whose depth parity differs) comparable with full ones.
    /// The mean depends on the path to the node (a transposition reached from another
    /// parent gets another value), so it belongs to the selective search: with `pruning` off
    /// the raw evaluation stands, and a fixed-depth score does not depend on the table.
    fn smoothed(&self, raw: i32, ply: usize) -> i32 {
        match self.frame_before(ply, 1).raw_eval {
            Some(parent) if self.options.textbook.is_none() && self.options.pruning => {
                (raw - parent) / 2
            }
            _ => raw,
        }
    }

    /// Makes the move `cell` of the node at `ply`, searched at `move_depth` from a node of
    /// `node_depth`: records it in the node's frame and the extensions along the line in the
    /// child's.
    pub(crate) fn enter_move(&mut self, ply: usize, cell: Cell, move_depth: i32, node_depth: i32) {
        let us = self.board.side_to_move();
        let extension = move_depth - (node_depth - PLY);
        let extra = self.frame(ply).extra_extension + (extension - PLY).max(0);
        self.frame_mut(ply + 1).extra_extension = extra;
        self.set_move(ply, us, cell);
        self.board.make(us, cell);
        self.tt.prefetch(self.board.hash());
    }

    /// Sets the line at `ply` to `cell` followed by the line at `ply + 1`.
    pub(crate) fn set_pv(&mut self, ply: usize, cell: Cell) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(cell);
        line.extend_from_slice(&tail[0]);
    }

    pub fn points(&self, cells: &[Cell]) -> Vec<Point> {
        cells.iter().map(|&c| self.board.point(c)).collect()
    }

    pub fn elapsed(&self) -> std::time::Duration {
        self.start.elapsed()
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// [`settle`] for the node at `ply`, narrowing its window by mate distance first: with
    /// no five now, the side's earliest win is three plies on, the opponent's two. Returns
    /// the node's value when the window closes.
    pub(crate) fn settle_node(&mut self, alpha: &mut i32, beta: &mut i32, ply: usize) -> Settled {
        if self.at_draw() {
            return Settled::Value(self.draw_score(ply));
        }
        let us = self.board.side_to_move();
        if !self.board.cells_making(us, flag::FIVE).is_empty() {
            return Settled::Value(win_in(ply, 1));
        }
        if self.board.is_full() {
            return Settled::Value(0);
        }
        if ply >= MAX_PLY - 1 {
            return Settled::Value(self.evaluate());
        }
        *alpha = (*alpha).max(loss_in(ply, 2));
        *beta = (*beta).min(win_in(ply, 3));
        if *alpha >= *beta {
            return Settled::Value(*alpha);
        }
        let settled = settle(&mut self.board, ply, true);
        let settled = self.within_draw_rule(settled, ply);
        if let Some(stats) = self.stats.as_mut() {
            stats.settled(&settled, ply);
        }
        settled
    }

    /// The best move of a node was `cell` (searched `index`-th of `list`): it becomes a killer
    /// and the counter to the last move unless it is a threat or a defence (those are found
    /// by generation anyway), and its history rises while the moves tried before it fall
    /// (at a node facing a four or an open three, only where the move is an attack).
    fn reward_best_move(
        &mut self,
        list: &MoveList,
        index: usize,
        ply: usize,
        depth: i32,
        facing: Facing,
    ) {
        let us = self.board.side_to_move();
        let cell = list.moves[index].0;
        let f = self.frame(ply);
        if f.made < Threat::OpenThree && f.blocked < Threat::OpenThree {
            let k = &mut self.frame_mut(ply).killers;
            if k[0] != Some(cell) {
                k[1] = k[0];
                k[0] = Some(cell);
            }
            if let Some(last) = self.board.last_cell() {
                self.counter_moves[us.index()][last] = Some(cell);
            }
        }
        let plies = depth / PLY;
        let bonus = (plies * plies).min(400);
        // Facing a four or an open three, the defences are forced: which of them was best
        // says little about the move elsewhere, so only the side's own attacks learn there.
        let forced = matches!(facing, Facing::Five | Facing::OpenThree);
        let board = &self.board;
        let learns = |c: Cell| !forced || board.threat_at(us, c) >= Threat::OpenThree;
        let h = &mut self.history[us.index()];
        if learns(cell) {
            h[cell] = (h[cell] + bonus).min(HISTORY_MAX);
        }
        for &(other, _) in &list.moves[..index] {
            if learns(other) {
                h[other] = (h[other] - bonus).max(-HISTORY_MAX);
            }
        }
    }
}

/// The history score's bound (in either direction).
pub(crate) const HISTORY_MAX: i32 = 10_000;

/// The ordering table `options` ask for under `rule`: the committed learned table where the
/// rule has one, the class scores otherwise and under the textbook oracle.
pub fn ordering_table(options: &Options, rule: wuzi_core::Rule) -> Option<&'static OrderTable> {
    if options.learned_order && options.textbook.is_none() {
        OrderTable::committed(rule)
    } else {
        None
    }
}

/// Installs the evaluation `options` ask for into `board` (the textbook oracle's threat
/// weights, or the evaluator's cell values, whose tables are built the first time a process
/// needs them) and returns the evaluator the nodes use.
pub(crate) fn install_evaluation(options: &Options, board: &mut Board) -> eval::Evaluator {
    let evaluator = options.eval.resolve(board.rule());
    match options.textbook {
        Some(weights) => eval::prepare_threat_weights(board, weights),
        None => evaluator.prepare(board),
    }
    evaluator
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::{Color, Rule};

    fn board_after(moves: &[(u8, u8)]) -> Board {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
        for &(x, y) in moves {
            board.play(Point::new(x, y)).expect("legal");
        }
        board
    }

    #[test]
    fn the_game_moves_before_the_root_fill_its_frames() {
        // Black builds (5..7, 7) into an open three with its last stone; White answers far.
        let board = board_after(&[(5, 7), (0, 0), (6, 7), (0, 14), (7, 7), (14, 0)]);
        let mut frames = vec![Frame::default(); FRAMES_BEFORE_ROOT];
        game_moves_into_frames(&board, &mut frames);
        let cell = |x, y| board.cell(Point::new(x, y));
        // Black is to move: one ply before the root White's (14, 0), two before Black's
        // (7, 7), which made the open three.
        let last = &frames[FRAMES_BEFORE_ROOT - 1];
        assert_eq!(last.current, cell(14, 0));
        let own = &frames[FRAMES_BEFORE_ROOT - 2];
        assert_eq!(own.current, cell(7, 7));
        assert_eq!(own.made, Threat::OpenThree);
        assert_eq!(frames[FRAMES_BEFORE_ROOT - 3].current, cell(0, 14));
        assert_eq!(frames[FRAMES_BEFORE_ROOT - 4].current, cell(6, 7));
        assert!(frames[FRAMES_BEFORE_ROOT - 4].made < Threat::OpenThree);
    }

    /// The frame just before the root holds `last`; the older ones are empty.
    fn assert_only_the_last_move_at(board: &Board, last: Point) {
        let mut frames = vec![Frame::default(); FRAMES_BEFORE_ROOT];
        game_moves_into_frames(board, &mut frames);
        assert_eq!(frames[FRAMES_BEFORE_ROOT - 1].current, board.cell(last));
        assert!(frames[..FRAMES_BEFORE_ROOT - 1]
            .iter()
            .all(|f| f.current.is_none() && f.made == Threat::None));
    }

    #[test]
    fn fewer_game_moves_than_frames_leave_the_oldest_empty() {
        let board = board_after(&[(7, 7)]);
        assert_only_the_last_move_at(&board, Point::new(7, 7));
    }

    #[test]
    fn moves_that_do_not_alternate_with_the_root_are_left_out() {
        // Black twice in a row at the end (a position set up stone by stone): only the
        // last stone alternates with White to move.
        let mut board = board_after(&[(5, 7), (0, 0), (6, 7)]);
        board.pass();
        board.play(Point::new(7, 7)).expect("legal");
        assert_eq!(board.side_to_move(), Color::White);
        assert_only_the_last_move_at(&board, Point::new(7, 7));
    }
}
