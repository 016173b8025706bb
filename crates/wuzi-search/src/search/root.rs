//! The root of the tree: which moves it has (forced ones first), the threat solvers that run
//! before any alpha-beta (the side's own VCF, and the filter that drops root moves leaving the
//! opponent a VCF), and the search of the root moves at one depth.
//!
//! Invariant: `search_root` keeps the root moves ordered best first, so an iteration cut off
//! by the clock has already tried the previous best; `root_verified` holds the best move whose
//! search finished above the window's alpha.

use super::{MovePlan, NodeContext};
use super::{RootMove, Thread, INF};
use crate::movepick::Facing;
use crate::movepick::{self, MoveList};
use crate::params::PLY;
use crate::tactics;
use crate::threat::SolveResult;
use crate::tt::Bound;
use crate::vcf::UNLIMITED;
use crate::WIN;
use std::time::Duration;
use wuzi_core::{flag, Cell};

impl Thread<'_> {
    /// The root moves: forced ones if the position forces, else every candidate.
    pub fn root_moves(&mut self) -> Vec<Cell> {
        let board = &mut self.board;
        let us = board.side_to_move();
        if self.options.textbook.is_some() {
            let mut list = MoveList::default();
            list.fill_all(board, us, None);
            list.sort();
            return list.moves.iter().map(|m| m.0).collect();
        }
        let them = us.opponent();
        let fives = *board.cells_making(us, flag::FIVE);
        if let Some(c) = fives.first() {
            return vec![c];
        }
        if !board.cells_making(them, flag::FIVE).is_empty() {
            let stoppers: Vec<Cell> = tactics::five_stoppers(board, us).iter().collect();
            if !stoppers.is_empty() {
                return stoppers;
            }
        }
        if let Some(c) = tactics::winning_open_four(board, us) {
            return vec![c];
        }
        // The side's own static wins come before any defence (as in the tree).
        let facing = if tactics::has_winning_four_three(board, us)
            || tactics::has_winning_double_three(board, us)
        {
            Facing::Nothing
        } else {
            Facing::of(board, us)
        };
        let mut list = MoveList::default();
        let history = self.history[us.index()];
        let order = self.order;
        list.fill(board, us, facing, None, [None; 3], &history, order);
        if list.moves.is_empty() && facing.is_threat() {
            list.fill(board, us, Facing::Nothing, None, [None; 3], &history, order);
        }
        list.sort();
        let mut moves: Vec<Cell> = list.moves.iter().map(|m| m.0).collect();
        if facing == Facing::FourThree && !moves.is_empty() {
            // The root searches all its moves once: the four-three's defences off its lines
            // (which a node searches only when the others lose) go last.
            let mut extra = movepick::four_three_block_defences(board, us);
            for &cell in &moves {
                extra.remove(cell);
            }
            moves.extend(extra.iter());
        }
        if moves.is_empty() {
            // Nothing near the stones is legal: any legal empty point.
            let empty = board.on_board().and_not(&board.occupied());
            moves = movepick::legal_cells(board, us, &empty);
        }
        moves
    }

    /// A root move's ordering score as a node's move picker would give it now (the learned
    /// table or the class score, and the history learned so far).
    pub(crate) fn root_order_score(&self, cell: Cell) -> i32 {
        let us = self.board.side_to_move();
        movepick::ordering_score(
            self.order,
            &self.board,
            us,
            cell,
            self.history[us.index()][cell],
        )
    }

    /// Searches the root moves at `depth` within `(alpha, beta)`, reordering `moves` by
    /// score; returns the best score (meaningless if stopped).
    pub fn search_root(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self.split.clone() {
            Some(split) => split.search_root(self, moves, depth, alpha, beta),
            None => self.search_root_serial(moves, depth, alpha, beta),
        }
    }

    /// `search_root` on this thread alone (below the root, principal variation nodes still
    /// split where the thread has helpers).
    pub(crate) fn search_root_serial(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.span_open();
        let best = self.search_root_moves(moves, depth, alpha, beta);
        self.span_close();
        best
    }

    fn search_root_moves(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        let us = self.board.side_to_move();
        self.nodes += 1;
        self.root_verified = None;
        self.root_delta = (beta - alpha).max(1);
        self.root_alpha = alpha;
        let mut ctx = self.root_context(depth, alpha, beta);
        let fives = *self.board.cells_making(us, flag::FIVE);
        for i in 0..moves.len() {
            let cell = moves[i].cell;
            self.report_entered(cell, depth);
            let plan = self.plan(&ctx, cell, i + 1, best).unwrap_or(MovePlan {
                depth: depth - PLY,
                reduced: None,
            });
            self.set_move(0, us, cell);
            self.board.make(us, cell);
            let score = if fives.contains(cell) {
                self.pv[1].clear();
                WIN - 1
            } else {
                self.search_move(&ctx, plan, i + 1, alpha, beta, best)
            };
            self.board.unmake();
            // The root split hands out every move after the first.
            self.span_end_move(i > 0);
            if self.stopped {
                return best;
            }
            if self.observed() {
                self.report_finished(cell, depth, score, score > best);
            }
            if score > best {
                best = score;
                let mut pv = vec![cell];
                pv.extend_from_slice(&self.pv[1]);
                moves[i].pv = pv;
                moves[i].score = score;
                // Keep the best first, the rest in order.
                moves[..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                    self.root_alpha = alpha;
                    ctx.alpha = alpha;
                    self.root_verified = Some(moves[0].clone());
                    if score >= beta {
                        break;
                    }
                }
            } else {
                moves[i].score = -INF;
            }
        }
        if let (Some(first), true) = (moves.first(), self.options.use_tt) {
            self.tt.store(
                self.board.hash(),
                0,
                Some(first.cell),
                best,
                0,
                depth / PLY,
                if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                },
            );
        }
        best
    }

    /// The move loop's context at the root for a pass at `depth` in `(alpha, beta)`.
    pub(crate) fn root_context(&mut self, depth: i32, alpha: i32, beta: i32) -> NodeContext {
        let us = self.board.side_to_move();
        let facing = Facing::of(&mut self.board, us);
        NodeContext {
            ply: 0,
            depth,
            is_pv: true,
            cut_node: false,
            facing,
            improvement: 0,
            tt_move: None,
            likely_fail_high: false,
            tt_pv: true,
            alpha,
            beta,
        }
    }

    /// The side to move's VCF at the root (a quarter of the soft time and of a node budget at
    /// most).
    pub(crate) fn root_vcf(&mut self) -> Option<RootMove> {
        let us = self.board.side_to_move();
        let soft = self.threat_time();
        let deadline = soft.map(|t| self.start + t / 4);
        self.vcf.set_deadline(deadline);
        let budget = self.threat_nodes().clamp(1, 2_000_000);
        let outcome = self.vcf.solve(&mut self.board, us, UNLIMITED, budget);
        self.vcf.set_deadline(None);
        self.nodes += outcome.nodes;
        match outcome.result {
            SolveResult::Win(line) => Some(self.proven_root_move(line)),
            _ => None,
        }
    }

    /// The nodes each of the root's threat solvers may spend: a quarter of a node-bounded
    /// search's budget, unbounded otherwise (their own caps and deadlines then bound them).
    fn threat_nodes(&self) -> u64 {
        self.limits.max_nodes.map_or(u64::MAX, |n| n / 4)
    }

    /// The time the root's threat solvers take their shares of: the soft limit, but never
    /// more than three fifths of the hard one (what the soft limit was when a move used only
    /// that much), so that a search allowed its whole turn does not spend it on threats.
    pub(crate) fn threat_time(&self) -> Option<Duration> {
        match (self.limits.soft_time, self.limits.hard_time) {
            (Some(soft), Some(hard)) => Some(soft.min(hard * 3 / 5)),
            (soft, hard) => soft.or(hard),
        }
    }

    /// The root move of a proven winning line. A line ends with the five, except a renju
    /// White win whose last move leaves Black only forbidden blocks: Black's move and White's
    /// five then come after it, two plies more.
    pub(crate) fn proven_root_move(&self, line: Vec<Cell>) -> RootMove {
        let mut board = self.board.clone();
        let us = board.side_to_move();
        for (i, &cell) in line.iter().enumerate() {
            board.make(if i % 2 == 0 { us } else { us.opponent() }, cell);
        }
        let ends_in_five = board.move_count() > 0 && board.winner() == Some(us);
        let plies = line.len() + if ends_in_five { 0 } else { 2 };
        RootMove {
            cell: line[0],
            score: WIN - plies as i32,
            depth: plies as u32,
            pv: line,
        }
    }

    /// The root moves that leave the opponent no VCF (checked only if the opponent has one
    /// now); all of them if none does (the search then finds the best loss). The checks
    /// share `threat_nodes` between them: a move whose check runs out of nodes is kept.
    pub fn filter_against_opponent_vcf(&mut self, cells: Vec<Cell>) -> Vec<Cell> {
        let us = self.board.side_to_move();
        let them = us.opponent();
        if cells.len() <= 1 || self.board.cells_making(them, flag::FOUR).is_empty() {
            return cells;
        }
        let soft = self.threat_time();
        self.vcf.set_deadline(soft.map(|t| self.start + t / 3));
        let mut left = self.threat_nodes();
        let outcome = self
            .vcf
            .solve(&mut self.board, them, UNLIMITED, left.clamp(1, 200_000));
        self.nodes += outcome.nodes;
        left = left.saturating_sub(outcome.nodes);
        if !outcome.result.is_win() {
            self.vcf.set_deadline(None);
            return cells;
        }
        let our_fours = *self.board.cells_making(us, flag::FOUR);
        let mut safe = Vec::new();
        for &cell in &cells {
            if our_fours.contains(cell) || left == 0 {
                safe.push(cell);
                continue;
            }
            self.board.make(us, cell);
            let outcome = self
                .vcf
                .solve(&mut self.board, them, UNLIMITED, left.min(20_000));
            self.board.unmake();
            self.nodes += outcome.nodes;
            left = left.saturating_sub(outcome.nodes);
            if !outcome.result.is_win() {
                safe.push(cell);
            }
        }
        self.vcf.set_deadline(None);
        if safe.is_empty() {
            cells
        } else {
            safe
        }
    }
}
