//! The main search: iterative deepening, aspiration windows, principal variation search over
//! the shared transposition table, with threat-driven move generation.
//!
//! Every node first settles immediate tactics, before the table or the depth is consulted:
//! a five for the side to move wins; two opponent fives lose; one opponent five leaves a
//! single move (the block), searched without spending depth, so forced lines are read to
//! their end; an open four for the side to move (with no opponent five) wins in three plies.
//! Below that, the opponent's open three restricts the moves to defences and counter-fours
//! (`movepick.rs`). Late quiet moves are reduced (LMR) and, near the leaves, pruned by move
//! count and futility; a node whose static value reaches beta may pass (null move, verified
//! when deep); a table move far better than every alternative is searched a ply deeper
//! (singular extension). At depth 0 the static value stands if it reaches beta; below it, the
//! side to move's VCF is the quiescence. Scores are from
//! the side to move's view; `WIN - n` is a five made `n` plies from the root.
//!
//! A node is one call of `node` or `leaf` (one position visited), the root included.
//!
//! This file holds a search thread and the interior of the tree; the root (its moves, its
//! threat solvers, one pass over its moves) is `root.rs`, iterative deepening `iterate.rs`.

use crate::movepick::{self, MoveList, TACTICAL};
use crate::parallel::{Split, SplitPoint};
use crate::threat::SolveResult;
use crate::tt::{Bound, TranspositionTable};
use crate::vcf::{VcfSolver, UNLIMITED};
use crate::{Limits, Options, WIN, WIN_MIN};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::{flag, Bitboard, Board, Cell, Color, Point};
use wuzi_eval::eval::{self, EVAL_LIMIT};

mod blocked;
mod draw;
mod iterate;
mod progress;
mod root;
mod span;
mod split;

use split::SplitNode;

pub use iterate::iterate;
pub(crate) use iterate::{deepen, report_win};
pub use span::SpanModel;

pub const MAX_PLY: usize = 128;
pub const MAX_DEPTH: i32 = 100;
const INF: i32 = WIN + 1;
const CHECK_EVERY: u64 = 1024;
/// VCF nodes a leaf may spend looking for the side to move's continuous fours.
const LEAF_VCF_NODES: u64 = 80;

/// Late-move reduction in plies for a depth and a move number.
fn reduction(depth: i32, index: usize) -> i32 {
    REDUCTIONS[(depth.clamp(0, 63)) as usize][index.min(63)] as i32
}

/// `0.8 + ln(depth) ln(index) / 1.7`, tabulated.
static REDUCTIONS: std::sync::LazyLock<[[u8; 64]; 64]> = std::sync::LazyLock::new(|| {
    let mut table = [[0u8; 64]; 64];
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.8 + (d as f64).ln() * (i as f64).ln() / 1.7) as u8;
        }
    }
    table
});

/// Quiet moves searched at depth 1..=4 before the rest are pruned.
const MOVE_COUNT_LIMIT: [usize; 6] = [0, 6, 9, 13, 18, 24];
/// Futility margin per ply of depth.
const FUTILITY_MARGIN: i32 = 120;
/// Singular extensions from this depth; the margin below the table score, per ply of depth.
const SINGULAR_MIN_DEPTH: i32 = 6;
const SINGULAR_MARGIN: i32 = 10;
/// Null moves are tried from this depth; from the second, a cut-off is verified.
const NULL_MIN_DEPTH: i32 = 3;
const NULL_VERIFY_DEPTH: i32 = 8;

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
    killers: Vec<[Option<Cell>; 2]>,
    /// Per colour and opponent's last cell: the quiet move that last refuted it.
    counter_moves: Vec<[Option<Cell>; MAX_CELLS]>,
    history: Vec<[i32; MAX_CELLS]>,
    pub(crate) pv: Vec<Vec<Cell>>,
    lists: Vec<MoveList>,
    vcf: VcfSolver<'a>,
    /// The best root move of the last `search_root` call whose score beat that call's alpha
    /// in a finished search: the information a stopped iteration still holds.
    pub(crate) root_verified: Option<RootMove>,
    /// The helpers of a parallel search (`parallel.rs`); `None` on one thread.
    pub(crate) split: Option<Arc<Split<'a>>>,
    evaluator: eval::Evaluator,
    pub cutoffs: crate::CutoffStats,
    /// Per ply: the raw static evaluation of the node there (side to move's view), `None`
    /// until computed. A leaf averages its own with its parent's (`smoothed`).
    raw_evals: Vec<Option<i32>>,
    /// Per ply: the node there answers a null move (set by the parent, read once on entry),
    /// so it may not pass in turn.
    after_null: Vec<bool>,
    /// Null moves are tried only from this ply on: a verification search raises it so that
    /// the line it verifies is searched without passing.
    pub(crate) null_min_ply: usize,
    /// On a helper: the cut-off flags of the split points around the move it searches (see
    /// `parallel::SplitPoint`); empty on the main thread.
    pub(crate) cut_chain: Vec<Arc<AtomicBool>>,
    /// The search stopped because a split point around it was cut off, not because the
    /// search as a whole must stop.
    pub(crate) cut: bool,
    /// Per ply: the move a singular-extension search leaves out there (the table move whose
    /// alternatives it measures); such a search neither cuts off on nor stores to the table.
    excluded: Vec<Option<Cell>>,
    /// The work-and-span model of `span.rs`, when a caller wants it (`None`: off).
    pub span: Option<Box<SpanModel>>,
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
    /// The depth of the search that gave `score` and `pv` (0 before any).
    pub depth: u32,
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
        let mut raw_evals = vec![None; MAX_PLY + 1];
        // The stop reaches the root's VCF (which can run millions of nodes) within 1,024 nodes.
        let mut vcf = VcfSolver::with_table_bits(16);
        vcf.set_stop(Some(stop));
        if options.textbook.is_none() {
            raw_evals[0] = Some(evaluator.evaluate(&board));
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
            killers: vec![[None; 2]; MAX_PLY + 1],
            counter_moves: vec![[None; MAX_CELLS]; 2],
            history: vec![[0; MAX_CELLS]; 2],
            pv: vec![Vec::new(); MAX_PLY + 1],
            lists: (0..=MAX_PLY).map(|_| MoveList::default()).collect(),
            vcf,
            root_verified: None,
            split: None,
            evaluator,
            cutoffs: crate::CutoffStats::default(),
            raw_evals,
            after_null: vec![false; MAX_PLY + 2],
            null_min_ply: 0,
            cut_chain: Vec::new(),
            cut: false,
            excluded: vec![None; MAX_PLY + 2],
            span: None,
            root_events: None,
            draw_at: limits.draw.map_or(usize::MAX, |d| d.stones),
            root_line: 0,
        }
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

    /// The search's stop flag (set by the caller: `YXSTOP`, `END`).
    pub(crate) fn stop_flag(&self) -> &'a AtomicBool {
        self.stop
    }

    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Depth is spent: the side to move's continuous fours are the quiescence (a VCF proves
    /// a win with its distance), else the static evaluation. A static value already at beta
    /// fails high as a win would: the VCF is skipped.
    fn leaf(&mut self, beta: i32, ply: usize) -> i32 {
        if self.options.textbook.is_some() {
            return eval::material(&self.board);
        }
        let raw = self.evaluator.evaluate(&self.board);
        let stand_pat = self.smoothed(raw, ply);
        if stand_pat >= beta {
            return stand_pat;
        }
        let us = self.board.side_to_move();
        if self.options.threat_search && !self.board.cells_making(us, flag::FOUR).is_empty() {
            let outcome = self
                .vcf
                .solve(&mut self.board, us, UNLIMITED, LEAF_VCF_NODES);
            self.nodes += outcome.nodes;
            if let SolveResult::Win(line) = outcome.result {
                if self.within_draw(line.len()) {
                    return WIN - (ply + line.len()) as i32;
                }
            }
        }
        stand_pat
    }

    /// The static value of the node at `ply` from its raw evaluation: the mean of it and the
    /// parent's (negated), when the parent was evaluated. A pattern evaluation overrates the
    /// side to move's threats and underrates the opponent's, so raw values swing between odd
    /// and even depths; the mean of two consecutive plies cancels most of the swing, which
    /// keeps reduced searches (whose depth parity differs) comparable with full ones.
    fn smoothed(&self, raw: i32, ply: usize) -> i32 {
        match ply.checked_sub(1).and_then(|p| self.raw_evals[p]) {
            Some(parent) if self.options.textbook.is_none() => (raw - parent) / 2,
            _ => raw,
        }
    }

    /// Settles what needs no search (see the module documentation): `Some(score)` if the node
    /// is decided (or a forced block was searched), narrowing the window by mate distance.
    fn resolve_tactics(
        &mut self,
        alpha: &mut i32,
        beta: &mut i32,
        depth: i32,
        ply: usize,
        is_pv: bool,
    ) -> Option<i32> {
        let us = self.board.side_to_move();
        let them = us.opponent();
        if !self.board.cells_making(us, flag::FIVE).is_empty() {
            return Some(WIN - (ply as i32 + 1));
        }
        if self.board.is_full() {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(self.evaluator.evaluate(&self.board));
        }
        // No five now: our earliest win is a five three plies on, their earliest two.
        *alpha = (*alpha).max(-(WIN - ply as i32 - 2));
        *beta = (*beta).min(WIN - ply as i32 - 3);
        if *alpha >= *beta {
            return Some(*alpha);
        }
        let their_fives = self.board.cells_making(them, flag::FIVE);
        match their_fives.count() {
            0 => {}
            1 => {
                let block = their_fives.first()?;
                if !movepick::legal_for(&mut self.board, us, block) {
                    return Some(if self.within_draw(2) {
                        -(WIN - ply as i32 - 2)
                    } else {
                        self.draw_score(ply)
                    });
                }
                self.board.make(us, block);
                let score = -self.node(-*beta, -*alpha, depth, ply + 1, is_pv);
                self.board.unmake();
                self.set_pv(ply, block);
                return Some(score);
            }
            // Two fives: lost, unless the stone limit ends the game first.
            _ if self.within_draw(2) => return Some(-(WIN - ply as i32 - 2)),
            _ => return Some(self.draw_score(ply)),
        }
        // Copied only when there is one: most nodes have none (a copy is a call to `memmove`).
        let open_fours = self.board.cells_making(us, flag::OPEN_FOUR);
        if !open_fours.is_empty() {
            let open_fours = *open_fours;
            if movepick::any_legal(&mut self.board, us, &open_fours) && self.within_draw(3) {
                return Some(WIN - (ply as i32 + 3));
            }
        }
        None
    }

    /// One node of the tree (not the root).
    #[inline]
    pub(crate) fn node(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        is_pv: bool,
    ) -> i32 {
        if self.span.is_none() {
            return self.search_node(alpha, beta, depth, ply, is_pv);
        }
        self.span_open();
        let score = self.search_node(alpha, beta, depth, ply, is_pv);
        self.span_close();
        score
    }

    fn span_open(&mut self) {
        if let Some(span) = self.span.as_mut() {
            span.open(self.nodes);
        }
    }

    fn span_close(&mut self) {
        if let Some(span) = self.span.as_mut() {
            span.close(self.nodes);
        }
    }

    /// The span model: the move just searched was sequential or would be handed out.
    fn span_end_move(&mut self, handed_out: bool) {
        if let Some(span) = self.span.as_mut() {
            span.end_move(handed_out);
        }
    }

    fn search_node(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        is_pv: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        self.raw_evals[ply] = None;
        let after_null = std::mem::take(&mut self.after_null[ply]);
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.board.move_count() >= self.draw_at {
            return self.draw_score(ply);
        }
        let us = self.board.side_to_move();
        let them = us.opponent();
        let textbook = self.options.textbook.is_some();
        if textbook {
            // Plain minimax semantics: the game ends when a five is made, nothing is
            // resolved early.
            if self.board.move_count() > 0 && self.board.winner().is_some() {
                return -(WIN - ply as i32);
            }
            if self.board.is_full() {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return eval::material(&self.board);
            }
        } else if let Some(score) = self.resolve_tactics(&mut alpha, &mut beta, depth, ply, is_pv) {
            return score;
        }
        if depth <= 0 {
            return self.leaf(beta, ply);
        }
        let hash = self.board.hash();
        let entry = if self.options.use_tt {
            self.tt.probe(hash, ply)
        } else {
            None
        };
        let excluded = self.excluded[ply];
        if let Some(e) = entry.filter(|_| excluded.is_none()) {
            if !is_pv && e.depth >= depth {
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                };
                if usable {
                    return e.score;
                }
            }
        }
        let raw_eval = match entry {
            Some(e) if e.eval.abs() < EVAL_LIMIT => e.eval,
            _ if textbook => eval::material(&self.board),
            _ => self.evaluator.evaluate(&self.board),
        };
        self.raw_evals[ply] = Some(raw_eval);
        let static_eval = self.smoothed(raw_eval, ply);
        let threatened = !textbook && movepick::opponent_threatens_open_four(&mut self.board, them);
        // Reverse futility: far above beta with nothing to answer.
        let pruning = self.options.pruning;
        if pruning
            && !is_pv
            && !threatened
            && excluded.is_none()
            && depth <= 3
            && beta.abs() < WIN_MIN
            && static_eval - FUTILITY_MARGIN * depth >= beta
        {
            return static_eval;
        }
        // Null move: if passing still holds beta against a shallower search, a real move
        // would too (a tempo is worth something in every position of this game). Not while
        // the opponent threatens an open four, nor after a pass; deep cut-offs are verified
        // by a shallower search without passing.
        if pruning
            && !is_pv
            && !threatened
            && !after_null
            && excluded.is_none()
            && ply >= self.null_min_ply
            && depth >= NULL_MIN_DEPTH
            && beta.abs() < WIN_MIN
            && static_eval >= beta
        {
            let r = 2 + depth / 3 + ((static_eval - beta) / 200).min(2);
            self.board.pass();
            self.after_null[ply + 1] = true;
            let null_score = -self.node(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
            self.board.unpass();
            if self.stopped {
                return 0;
            }
            if null_score >= beta && null_score < WIN_MIN {
                if depth < NULL_VERIFY_DEPTH {
                    return null_score;
                }
                let saved = self.null_min_ply;
                self.null_min_ply = ply + (3 * (depth - r) / 4) as usize;
                let verified = self.node(beta - 1, beta, depth - r, ply, false);
                self.null_min_ply = saved;
                if self.stopped {
                    return 0;
                }
                if verified >= beta {
                    return null_score;
                }
            }
        }

        let tt_move = entry
            .and_then(|e| e.cell)
            .filter(|&c| self.board.is_empty_cell(c));
        // Singular extension: the table move is searched a ply deeper when every other move,
        // searched half as deep, falls clearly short of the table's score for it.
        let mut singular = false;
        if let (Some(e), Some(_), true) = (entry, tt_move, pruning && excluded.is_none()) {
            if depth >= SINGULAR_MIN_DEPTH
                && e.depth >= depth - 3
                && e.bound != Bound::Upper
                && e.score.abs() < WIN_MIN
            {
                let singular_beta = e.score - SINGULAR_MARGIN * depth;
                self.excluded[ply] = tt_move;
                let score = self.node(
                    singular_beta - 1,
                    singular_beta,
                    (depth - 1) / 2,
                    ply,
                    false,
                );
                self.excluded[ply] = None;
                if self.stopped {
                    return 0;
                }
                singular = score < singular_beta;
                // Multi-cut: another move also reaches beta, so this node will fail high.
                if !singular && !is_pv && singular_beta >= beta {
                    return singular_beta;
                }
            }
        }
        let last = self.board.last_cell();
        let counter = last.and_then(|c| self.counter_moves[us.index()][c]);
        let [k0, k1] = self.killers[ply];
        let refutations = [k0, k1, counter];
        let mut list = std::mem::take(&mut self.lists[ply]);
        if textbook {
            list.fill_all(&mut self.board, us, tt_move);
        } else {
            list.fill(
                &mut self.board,
                us,
                threatened,
                tt_move,
                refutations,
                &self.history[us.index()],
            );
        }
        if list.moves.is_empty() {
            self.lists[ply] = list;
            // Threatened with no defence (or only forbidden ones): the open four comes.
            return if threatened && self.within_draw(4) {
                -(WIN - ply as i32 - 4)
            } else if threatened {
                self.draw_score(ply)
            } else {
                0
            };
        }

        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_cell = None;
        let mut quiets_searched = 0usize;
        let mut searched = 0usize;
        let split_depth = if is_pv {
            self.options.split_depth.pv
        } else {
            self.options.split_depth.other
        };
        // The moves from here on would go to helpers (for the span model; `parallel.rs`).
        let mut handed_out = false;
        for i in 0..list.moves.len() {
            // A node splits by its depth, or, shallower, because a thread has run out of
            // work (the span model counts only the first: the second depends on timing).
            let by_depth = depth >= split_depth.max(3);
            if searched > 0
                && list.moves.len() - i >= 2
                && (by_depth
                    || (depth >= self.options.split_depth.idle.max(3)
                        && self.split.as_ref().is_some_and(|s| s.wants_work())))
            {
                handed_out |= by_depth;
                if let Some(split) = self.split.clone().filter(|s| s.has_room()) {
                    // Young brothers wait: the moves searched set the bound, the rest run
                    // on the helpers, pruned by move count as this loop would prune them.
                    let mut quiets = quiets_searched;
                    let mut cells = Vec::with_capacity(list.moves.len() - i);
                    list.sort_from(i);
                    for j in i..list.moves.len() {
                        let cell = list.moves[j].0;
                        if Some(cell) == excluded {
                            continue;
                        }
                        let quiet = self.is_quiet(us, cell, threatened);
                        if pruning
                            && quiet
                            && !is_pv
                            && best > -WIN_MIN
                            && depth <= 5
                            && quiets >= MOVE_COUNT_LIMIT[depth as usize]
                        {
                            continue;
                        }
                        quiets += quiet as usize;
                        cells.push((cell, j));
                    }
                    let point = SplitPoint {
                        board: &self.board,
                        ply,
                        raw_eval: Some(raw_eval),
                        depth,
                        alpha,
                        beta,
                        is_pv,
                        threatened,
                        reduce: true,
                        fives: Bitboard::default(),
                        history: &self.history,
                        counter_moves: &self.counter_moves,
                        killers: &self.killers,
                        null_min_ply: self.null_min_ply,
                        cuts: self.split_cuts(),
                    };
                    let results = split.search_siblings(&point, &cells);
                    self.absorb(&results);
                    self.stop_if_cut();
                    if self.stopped {
                        self.lists[ply] = list;
                        return 0;
                    }
                    let node = SplitNode {
                        ply,
                        depth,
                        alpha,
                        beta,
                        threatened,
                    };
                    let merged = self.merge_siblings(&list, &cells, &results, node);
                    if merged.0 > best {
                        (best, best_cell) = (merged.0, merged.1);
                    }
                    break;
                }
            }
            list.pick(i);
            let (cell, _) = list.moves[i];
            if Some(cell) == excluded {
                continue;
            }
            let quiet = self.is_quiet(us, cell, threatened);
            if pruning && quiet && !is_pv && best > -WIN_MIN {
                if depth <= 5 && quiets_searched >= MOVE_COUNT_LIMIT[depth as usize] {
                    continue;
                }
                if depth <= 2 && static_eval + FUTILITY_MARGIN * depth + 60 <= alpha {
                    continue;
                }
            }
            self.board.make(us, cell);
            self.tt.prefetch(self.board.hash());
            let mut score;
            if i == 0 {
                let extension = (singular && Some(cell) == tt_move) as i32;
                score = -self.node(-beta, -alpha, depth - 1 + extension, ply + 1, is_pv);
            } else {
                let r = self.late_move_reduction(quiet, i, depth, is_pv);
                score = -self.node(-alpha - 1, -alpha, depth - 1 - r, ply + 1, false);
                if score > alpha && r > 0 && !self.stopped {
                    score = -self.node(-alpha - 1, -alpha, depth - 1, ply + 1, false);
                }
                if score > alpha && score < beta && is_pv && !self.stopped {
                    score = -self.node(-beta, -alpha, depth - 1, ply + 1, true);
                }
            }
            self.board.unmake();
            self.span_end_move(handed_out);
            if self.stopped {
                self.lists[ply] = list;
                return 0;
            }
            searched += 1;
            if quiet {
                quiets_searched += 1;
            }
            if score > best {
                best = score;
                best_cell = Some(cell);
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, cell);
                    if score >= beta {
                        self.cutoffs.cutoffs += 1;
                        self.cutoffs.first_move += (i == 0) as u64;
                        if quiet {
                            self.reward_quiet_cutoff(&list, i, ply, depth);
                        }
                        break;
                    }
                }
            }
        }
        self.lists[ply] = list;
        if best == -INF {
            // Every move was pruned: fall back on the static view.
            return static_eval.min(beta).max(original_alpha);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.options.use_tt && excluded.is_none() {
            self.tt
                .store(hash, ply, best_cell, best, raw_eval, depth, bound);
        }
        best
    }

    /// Tactical by what the move does on the board, not by its ordering bonuses: a killer or
    /// a move with a good history is still reduced and pruned.
    pub(crate) fn is_quiet(&self, us: Color, cell: Cell, threatened: bool) -> bool {
        !threatened && movepick::move_score(&self.board, us, cell) < TACTICAL
    }

    /// The plies by which the move at `index` of a node's ordered list is reduced.
    pub(crate) fn late_move_reduction(
        &self,
        quiet: bool,
        index: usize,
        depth: i32,
        is_pv: bool,
    ) -> i32 {
        if self.options.pruning && quiet && depth >= 3 && index >= 3 {
            (reduction(depth, index) - is_pv as i32).clamp(0, depth - 2)
        } else {
            0
        }
    }

    /// A quiet move at `index` of the node's list cut off: it becomes a killer and the
    /// counter to the last move, and its history rises while the moves tried before it fall.
    fn reward_quiet_cutoff(&mut self, list: &MoveList, index: usize, ply: usize, depth: i32) {
        let us = self.board.side_to_move();
        let cell = list.moves[index].0;
        let k = &mut self.killers[ply];
        if k[0] != Some(cell) {
            k[1] = k[0];
            k[0] = Some(cell);
        }
        if let Some(last) = self.board.last_cell() {
            self.counter_moves[us.index()][last] = Some(cell);
        }
        let bonus = depth * depth;
        let h = &mut self.history[us.index()];
        h[cell] = (h[cell] + bonus).min(10_000);
        for &(other, _) in &list.moves[..index] {
            h[other] = (h[other] - bonus).max(-10_000);
        }
    }

    fn set_pv(&mut self, ply: usize, cell: Cell) {
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
}

/// Installs the evaluation `options` ask for into `board` (the textbook oracle's threat
/// weights, or the evaluator's cell values, whose tables are built the first time a process
/// needs them) and returns the evaluator the leaves use.
pub(crate) fn install_evaluation(options: &Options, board: &mut Board) -> eval::Evaluator {
    let evaluator = options.eval.resolve(board.rule());
    match options.textbook {
        Some(weights) => eval::prepare_threat_weights(board, weights),
        None => evaluator.prepare(board),
    }
    evaluator
}
