//! A game that ends at a number of stones (`Limits::draw`): the nodes at that count are
//! leaves with the rule's result, and a win or loss that a node settles without search
//! (`tactics.rs` through `Thread::settle_node`: one or two opponent fives, an open four, a
//! four-three, a double three; a threat with no defence in `node.rs`; the root's VCF in
//! `iterate.rs`) counts only if its five comes before the limit.
//!
//! Without a draw rule `draw_at` is `usize::MAX`: no node is ever at it and every shortcut
//! stands, so the search is unchanged.

use super::Thread;
use crate::tactics::Settled;
use crate::{WIN, WIN_MIN};

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

    /// Whether the node at `ply` is at the stone limit: the game is over, with the rule's
    /// result ([`Thread::draw_score`]).
    #[inline]
    pub(crate) fn at_draw(&self) -> bool {
        self.board.move_count() >= self.draw_at
    }

    /// What `tactics::settle` found at `ply`, under the stone limit: a static win whose five
    /// comes after the last stone is none (the node is searched as if nothing were settled),
    /// and a static loss whose five comes after it is the limit's result.
    #[inline]
    pub(crate) fn within_draw_rule(&self, settled: Settled, ply: usize) -> Settled {
        match settled {
            Settled::Value(v) if v.abs() >= WIN_MIN && self.draw_at != usize::MAX => {
                let plies = (WIN - v.abs()) as usize - ply;
                if self.within_draw(plies) {
                    settled
                } else if v > 0 {
                    Settled::Open
                } else {
                    Settled::Value(self.draw_score(ply))
                }
            }
            _ => settled,
        }
    }
}
