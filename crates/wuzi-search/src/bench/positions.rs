//! Deterministic mid-game positions for speed measurements, made by a fixed-seed playout
//! that keeps stones together and never lets a five appear, so that the positions are full
//! of the shapes real games have.

use wuzi_core::rng::Rng;
use wuzi_core::{flag, Board, Color, Rule};

/// A position of `stones` stones on a `size x size` board, reproducible from `seed`.
pub fn midgame(size: usize, rule: Rule, stones: usize, seed: u64) -> Board {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(size, size, rule).unwrap_or_else(|_| {
        Board::new(15, 15, rule).unwrap_or_else(|e| unreachable!("15x15 is valid: {e}"))
    });
    let centre = board.cell(wuzi_core::Point::new(
        (board.width() / 2) as u8,
        (board.height() / 2) as u8,
    ));
    if let Some(c) = centre {
        board.make(Color::Black, c);
    }
    while board.move_count() < stones {
        let no_five = board
            .cells_making(Color::Black, flag::FIVE)
            .or(board.cells_making(Color::White, flag::FIVE));
        let mut candidates: Vec<usize> = board
            .empty_near_stones(2)
            .and_not(&no_five)
            .iter()
            .collect();
        if board.rule() == Rule::Renju && board.side_to_move() == Color::Black {
            candidates.retain(|&c| board.forbidden_kind_at(c).is_none());
        }
        if candidates.is_empty() {
            break;
        }
        let pick = candidates[rng.below_by_remainder(candidates.len() as u64) as usize];
        board.make(board.side_to_move(), pick);
    }
    board
}
