//! A game that ends at a number of stones (`Limits::draw`): the nodes at that count are
//! leaves with the rule's result, and a win found by a shortcut (an open four, a VCF) counts
//! only if its five comes before the limit.
//!
//! Without a draw rule `draw_at` is `usize::MAX`: no node is ever at it and every shortcut
//! stands, so the search is unchanged.

use super::Thread;
use crate::WIN_MIN;

impl Thread<'_> {
    /// The value of a node at the stone limit, for its side to move: 0 for a draw; for a
    /// declared winner, a decisive score just short of the proven range (the limit is no
    /// five, so the mate-distance bounds of the tree, which count plies to a five, do not
    /// apply), sooner being better.
    pub(crate) fn draw_score(&self, ply: usize) -> i32 {
        let winner = self.limits.draw.and_then(|d| d.winner);
        let decisive = WIN_MIN - 1 - ply as i32;
        match winner {
            None => 0,
            Some(c) if c == self.board.side_to_move() => decisive,
            Some(_) => -decisive,
        }
    }

    /// Whether a five made `plies` plies from now comes before the stone limit.
    #[inline]
    pub(crate) fn within_draw(&self, plies: usize) -> bool {
        self.board.move_count() + plies <= self.draw_at
    }
}
