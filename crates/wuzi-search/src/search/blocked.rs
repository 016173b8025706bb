//! Root moves the caller forbids (`Limits::blocked`, an analysis GUI's blocks). Only the
//! root is restricted: below it every move stays available to both sides.
//!
//! Invariant: with no blocked point the root moves are exactly `root_moves`' and the search is
//! unchanged; with some, no blocked point is ever a root move, and when every candidate (or
//! the one forced move) is blocked the root falls back on the other legal points, best
//! ordered first, so that the search still finds the best allowed move.

use super::Thread;
use crate::movepick::{self, Facing, MoveList};
use wuzi_core::Cell;

impl Thread<'_> {
    /// Whether the caller forbids any root move.
    pub(crate) fn has_blocks(&self) -> bool {
        !self.limits.blocked.is_empty()
    }

    /// Whether `cell` may be played at the root.
    pub(crate) fn root_allowed(&self, cell: Cell) -> bool {
        let point = self.board.point(cell);
        !self.limits.blocked.contains(&point)
    }

    /// `cells` without the blocked points; when none is left, every other legal point.
    pub(crate) fn unblocked(&mut self, cells: Vec<Cell>) -> Vec<Cell> {
        if !self.has_blocks() {
            return cells;
        }
        let kept: Vec<Cell> = cells
            .into_iter()
            .filter(|&c| self.root_allowed(c))
            .collect();
        if !kept.is_empty() {
            return kept;
        }
        let us = self.board.side_to_move();
        let history = self.history[us.index()];
        let mut list = MoveList::default();
        list.fill(
            &mut self.board,
            us,
            Facing::Nothing,
            None,
            [None; 3],
            &history,
            self.order,
        );
        list.sort();
        let mut moves: Vec<Cell> = list.moves.iter().map(|m| m.0).collect();
        let empty = self.board.on_board().and_not(&self.board.occupied());
        for c in movepick::legal_cells(&mut self.board, us, &empty) {
            if !moves.contains(&c) {
                moves.push(c);
            }
        }
        moves.retain(|&c| self.root_allowed(c));
        moves
    }
}
