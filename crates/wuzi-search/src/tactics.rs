//! What a node settles without searching, from the pattern sets the board keeps: its
//! static wins and losses, and the one move a five forces.
//!
//! In order (the first that applies decides):
//! 1. the side to move has a five point: a win on this ply;
//! 2. the opponent has two or more five points: a loss in two plies; one: the block is the
//!    only move (a loss in two plies if the side may not play it: renju Black's forbidden
//!    block);
//! 3. the side has a legal open-four point (or double four): a win in three plies;
//! 4. the side has a legal four-three point whose four the opponent cannot answer with a
//!    four of its own: the opponent must block the four, and the three then makes an open
//!    four: a win in five plies;
//! 5. the side has a legal double-three point and the opponent has no point that makes any
//!    four (renju Black never does: a double three is forbidden to it): the opponent can
//!    block one three only, and has nothing that comes first: a win in five plies.
//!
//! Every rule's exceptions live in the board's pattern sets (caro's blocked fives, exact
//! five, renju Black's forbidden points and false threes), and where a set cannot tell (a
//! renju Black four-three, or an opponent that has fours elsewhere) the four-three is
//! played out: the opponent's forced block, then an open four for the side and no five
//! for the opponent.
//!
//! Invariant: a win or loss returned here is a forced result of the game from this position
//! within the distance returned (tested against exhaustive search on generated positions in
//! `tests/tactics_static.rs`).

use crate::movepick;
use crate::WIN;
use wuzi_core::{flag, Board, Cell, Color, Rule, Threat};

/// What [`settle`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The node's value without search.
    Value(i32),
    /// The opponent has one five point, and the side may block it: the only move.
    Block(Cell),
    /// Nothing is settled: the node must be searched.
    Open,
}

/// The win in `plies` plies from a node at `ply`, and the loss.
#[inline]
pub fn win_in(ply: usize, plies: usize) -> i32 {
    WIN - (ply + plies) as i32
}

#[inline]
pub fn loss_in(ply: usize, plies: usize) -> i32 {
    -win_in(ply, plies)
}

/// Settles the position for the side to move at `ply` (see the module documentation).
/// `static_wins`: look for the four-three and double-three wins too (rules 4 and 5).
pub fn settle(board: &mut Board, ply: usize, static_wins: bool) -> Settled {
    let us = board.side_to_move();
    let them = us.opponent();
    if !board.cells_making(us, flag::FIVE).is_empty() {
        return Settled::Value(win_in(ply, 1));
    }
    let mut their_fives = board.cells_making(them, flag::FIVE).iter();
    if let Some(block) = their_fives.next() {
        if their_fives.next().is_some() || !movepick::legal_for(board, us, block) {
            return Settled::Value(loss_in(ply, 2));
        }
        return Settled::Block(block);
    }
    let open_fours = board.cells_making(us, flag::OPEN_FOUR);
    if !open_fours.is_empty() {
        let open_fours = *open_fours;
        if movepick::any_legal(board, us, &open_fours) {
            return Settled::Value(win_in(ply, 3));
        }
    }
    if static_wins && (has_winning_four_three(board, us) || has_winning_double_three(board, us)) {
        return Settled::Value(win_in(ply, 5));
    }
    Settled::Open
}

/// The side `us` (to move, no five point on either side, no open four of its own) has a
/// four-three point that wins: see the module documentation.
pub fn has_winning_four_three(board: &mut Board, us: Color) -> bool {
    let them = us.opponent();
    let candidates = board
        .cells_making(us, flag::FOUR)
        .and(board.cells_making(us, flag::OPEN_THREE));
    if candidates.is_empty() {
        return false;
    }
    // The opponent can only block the four, and a block that makes it no four leaves it
    // without a five point while the three becomes an open four. Where the four's one five
    // point is no four point of the opponent's now, it will not be one after the side's stone
    // either (a stone of the side only takes from the opponent's lines): that settles it
    // without playing. Renju Black's three may be false (its open four forbidden) and caro's
    // five points depend on both ends: those are played out, as is a block that makes a four
    // today.
    let opponent_has_fours = !board.cells_making(them, flag::FOUR).is_empty();
    let exact_lines = match board.rule() {
        Rule::Freestyle | Rule::Standard => true,
        Rule::Renju => us == Color::White,
        Rule::Caro | Rule::CaroExact => false,
    };
    for cell in candidates.iter() {
        if board.threat_at(us, cell) != Threat::FourThree || !movepick::legal_for(board, us, cell) {
            continue;
        }
        if exact_lines && (!opponent_has_fours || !block_makes_a_four(board, us, cell)) {
            return true;
        }
        if four_three_wins_played_out(board, us, cell) {
            return true;
        }
    }
    false
}

/// Whether the five point of the four that `us` makes at `cell` (with its one four line) is
/// a point where the opponent would make a four today. `true` where it cannot tell.
fn block_makes_a_four(board: &Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    let Some(dir) = (0..4).find(|&d| board.pattern_at(us, cell, d).four_count() > 0) else {
        return true;
    };
    let mut fives = board.completion_cells(us, cell, dir);
    match (fives.next(), fives.next()) {
        (Some(block), None) => board.threat_at(them, block) >= Threat::Four,
        _ => true,
    }
}

/// Plays the four-three at `cell`, the opponent's forced block, and checks that the side
/// then has a legal open four and the opponent no five point. The board is left as it was.
fn four_three_wins_played_out(board: &mut Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    board.make(us, cell);
    let mut fives = board.cells_making(us, flag::FIVE).iter();
    let won = match (fives.next(), fives.next()) {
        // Two five points: the opponent cannot block both (it has no five of its own).
        (Some(_), Some(_)) => true,
        (Some(block), None) => {
            if !movepick::legal_for(board, them, block) {
                true
            } else if board.threat_at(them, block) >= Threat::Four {
                false
            } else {
                board.make(them, block);
                let open_fours = *board.cells_making(us, flag::OPEN_FOUR);
                let won = board.cells_making(them, flag::FIVE).is_empty()
                    && movepick::any_legal(board, us, &open_fours);
                board.unmake();
                won
            }
        }
        _ => false,
    };
    board.unmake();
    won
}

/// The side `us` has a legal double-three point and the opponent no point that makes a four.
pub fn has_winning_double_three(board: &mut Board, us: Color) -> bool {
    let them = us.opponent();
    if (board.rule() == Rule::Renju && us == Color::Black)
        || !board.cells_making(them, flag::FOUR).is_empty()
    {
        return false;
    }
    let threes = *board.cells_making(us, flag::OPEN_THREE);
    threes
        .iter()
        .any(|c| board.threat_at(us, c) == Threat::DoubleThree && movepick::legal_for(board, us, c))
}
