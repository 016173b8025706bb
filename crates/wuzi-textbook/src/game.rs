//! The [`Game`] trait: what a two-player, zero-sum game of perfect information
//! must expose for the searches in [`crate::search`] to play it.
//!
//! One player is the *maximiser*, the other the *minimiser*; every value is
//! seen from the maximiser's side, whoever is to move. Implementations keep
//! these invariants, and the searches rely on them:
//!
//! - `undo(m)` right after `play(m)` restores the position exactly, including
//!   whatever `evaluate` and `is_terminal` depend on;
//! - a position that is not terminal has at least one move;
//! - `moves` returns the same list, in the same order, every time it is asked
//!   in the same position: node counts and the choice among equal moves depend
//!   on that order;
//! - `evaluate` returns a value strictly between `-i32::MAX` and `i32::MAX`
//!   (the searches use those two as infinities);
//! - the game is finite: every line of play reaches a terminal position, so a
//!   search "to the end" terminates.

use std::fmt::Debug;

/// A position of a game, changed in place by playing and undoing moves.
///
/// The query methods take `&mut self` so that games whose rules are checked
/// by probing the position (put a stone down, look, take it back, as renju's
/// forbidden points are) need no interior mutability. They must leave the
/// position as they found it.
pub trait Game {
    /// A move, small enough to copy and to keep on the search's stack.
    type Move: Copy + PartialEq + Debug;

    /// Whether the side to move is the maximiser.
    fn maximizer_to_move(&self) -> bool;

    /// The legal moves of the side to move, in this game's fixed order.
    /// Empty exactly when there is nothing left to play.
    fn moves(&mut self) -> Vec<Self::Move>;

    /// Plays `mv`, which must come from [`Game::moves`] in this position;
    /// implementations may panic otherwise.
    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// Whether the game is over here: a search never looks past this position.
    fn is_terminal(&mut self) -> bool;

    /// The value of the position for the maximiser: the result if the game is
    /// over, a heuristic guess otherwise (what a depth-limited search sees at
    /// its horizon).
    fn evaluate(&mut self) -> i32;
}
