//! Positions for tests, built from what a person writes: a diagram of rows, or a move list.

use wuzi_core::{notation, Board, Color, Point, Rule};

/// A board from rows top to bottom; `black` and `white` name the characters of each colour and
/// anything else is empty; spaces between cells are ignored. The side to move follows from
/// the stones placed (`Board::place`).
pub fn board_from_rows(rows: &[&str], rule: Rule, black: char, white: char) -> Board {
    let grid: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let width = grid.first().map_or(0, Vec::len);
    let mut board = Board::new(width, grid.len(), rule).expect("diagram size");
    for (y, row) in grid.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            let color = if ch == black {
                Color::Black
            } else if ch == white {
                Color::White
            } else {
                continue;
            };
            board
                .place(color, Point::new(x as u8, y as u8))
                .expect("diagram stone");
        }
    }
    board
}

/// A `size` x `size` board after `moves` (letter-number names, alternating from Black).
pub fn board_from_moves(moves: &str, size: usize, rule: Rule) -> Board {
    let mut board = Board::new(size, size, rule).expect("board size");
    for p in notation::parse_moves(moves).expect("move list") {
        board.play(p).expect("legal move");
    }
    board
}
