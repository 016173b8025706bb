//! The geometry of the padded board: the sizes it supports, the wall around the playing area
//! and the largest cell array any board needs. Every module that sizes an array by the board
//! takes its constants from here, so that `board` uses `bitboard` and `zobrist` and neither of
//! them needs `board`.
//!
//! Invariant: a board of any supported size fits in `MAX_CELLS` padded cells, with `PAD` wall
//! cells on every side, so a line key of `REACH` cells on each side of an on-board cell never
//! leaves the array.

use crate::pattern::REACH;

/// The smallest board side supported.
pub const MIN_SIZE: usize = 5;
/// The largest board side supported.
pub const MAX_SIZE: usize = 32;
/// Wall cells around the playing area on each side: as many as a line key reaches.
pub const PAD: usize = REACH;
/// The row stride of the largest board.
pub const MAX_STRIDE: usize = MAX_SIZE + 2 * PAD;
/// Padded cells of the largest board.
pub const MAX_CELLS: usize = MAX_STRIDE * MAX_STRIDE;
/// Moves of the largest board.
pub const MAX_MOVES: usize = MAX_SIZE * MAX_SIZE;
