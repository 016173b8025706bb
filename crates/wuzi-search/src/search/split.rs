//! The thread's side of a split point (`parallel.rs` runs the tasks): what a helper takes
//! from the splitting thread before it starts (the position's evaluation, the move-ordering
//! memory, the cut-off flags around it), and how the splitting thread folds the helpers'
//! answers into its node as its serial move loop would have.

use super::{Thread, INF};
use crate::movepick::MoveList;
use crate::parallel::{Searched, SplitPoint};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::Cell;

/// What folding a split node's answers needs to know of the node.
#[derive(Clone, Copy)]
pub(super) struct SplitNode {
    pub(super) ply: usize,
    pub(super) depth: i32,
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) threatened: bool,
}

impl Thread<'_> {
    /// Folds the helpers' answers for the moves of a split node into the node, as the serial
    /// loop would have: the best score and move, the principal variation, and a cut-off's
    /// rewards. `results[k]` answers `cells[k]`, a move and its index in `list`. Moves whose
    /// search beat its alpha come first (in list order), since a null-window bound from a
    /// move searched after the bound rose never beats the move that raised it; bounds then
    /// count only where nothing beat the node's alpha (a fail-low node, soft, as in the
    /// loop).
    pub(super) fn merge_siblings(
        &mut self,
        list: &MoveList,
        cells: &[(Cell, usize)],
        results: &[Option<Searched>],
        node: SplitNode,
    ) -> (i32, Option<Cell>) {
        let SplitNode {
            ply,
            depth,
            mut alpha,
            beta,
            threatened,
        } = node;
        let us = self.board.side_to_move();
        let mut best = (-INF, None);
        for (&(cell, index), r) in cells.iter().zip(results) {
            let Some(r) = r.as_ref().filter(|r| r.improved) else {
                continue;
            };
            if r.score > best.0 {
                best = (r.score, Some(cell));
                if r.score > alpha {
                    alpha = r.score;
                    self.pv[ply + 1].clone_from(&r.line);
                    self.set_pv(ply, cell);
                    if r.score >= beta {
                        self.cutoffs.cutoffs += 1;
                        if self.is_quiet(us, cell, threatened) {
                            self.reward_quiet_cutoff(list, index, ply, depth);
                        }
                        return best;
                    }
                }
            }
        }
        for (&(cell, _), r) in cells.iter().zip(results) {
            let bound = r.as_ref().filter(|r| !r.improved && !r.aborted);
            if let Some(r) = bound.filter(|r| r.score > best.0) {
                best = (r.score, Some(cell));
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

    /// Adds the helpers' nodes, selective depth and stop to this thread's.
    pub(crate) fn absorb(&mut self, results: &[Option<Searched>]) {
        for r in results.iter().flatten() {
            self.nodes += r.nodes;
            self.seldepth = self.seldepth.max(r.seldepth);
            self.stopped |= r.stopped;
        }
    }

    /// Prepares a helper whose board holds a split point's position at `ply` to search its
    /// children: they average their evaluation with the node's.
    pub(crate) fn enter_split_point(&mut self, ply: usize, raw_eval: Option<i32>) {
        self.raw_evals[ply] = raw_eval;
    }

    pub(crate) fn history(&self) -> &[[i32; MAX_CELLS]] {
        &self.history
    }

    pub(crate) fn counter_moves(&self) -> &[[Option<Cell>; MAX_CELLS]] {
        &self.counter_moves
    }

    pub(crate) fn killers(&self) -> &[[Option<Cell>; 2]] {
        &self.killers
    }

    /// Takes the splitting thread's move-ordering memory (a helper starting on a split point).
    pub(crate) fn adopt_ordering(&mut self, point: &SplitPoint) {
        self.history.copy_from_slice(point.history);
        self.counter_moves.copy_from_slice(point.counter_moves);
        self.killers.copy_from_slice(point.killers);
    }

    /// Gives a new helper state a VCF table of `2^bits` entries instead of the main thread's
    /// (allocated on first use, so the first one costs nothing).
    pub(crate) fn use_vcf_table_bits(&mut self, bits: u32) {
        self.vcf.set_table_bits(bits);
    }

    /// The raw static evaluation of the node at `ply` on the current line, if computed.
    pub(crate) fn raw_eval(&self, ply: usize) -> Option<i32> {
        self.raw_evals[ply]
    }
}
