//! The thread's side of a split point (`parallel.rs` runs the tasks): what a helper takes
//! from the splitting thread before it starts (the position and the frames of the line above
//! it, the move-ordering memory, the cut-off flags around it), and how the splitting thread
//! folds the helpers' answers into its node as its serial move loop would have.

use super::HISTORY_MAX;
use super::{NodeContext, Thread, INF};
use crate::parallel::{HistoryDelta, Searched, SplitPoint};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wuzi_core::geometry::MAX_CELLS;
use wuzi_core::Cell;

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
