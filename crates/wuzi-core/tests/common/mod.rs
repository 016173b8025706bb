//! Helpers shared by the core's integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use wuzi_core::{Board, Color, Point, Rule};

/// `data/<rel>`: the test data the repository carries (see `data/README.md`).
pub fn testdata(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data")
        .join(rel)
}

/// A board from rows top to bottom; `black`/`white` name the characters of each colour and
/// anything else is empty; spaces between cells are ignored.
pub fn board_from_rows(rows: &[&str], rule: Rule, black: char, white: char) -> Board {
    let grid: Vec<Vec<char>> = rows
        .iter()
        .map(|r| r.chars().filter(|c| !c.is_whitespace()).collect())
        .collect();
    let height = grid.len();
    let width = grid[0].len();
    let mut board = Board::new(width, height, rule).expect("size");
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
                .expect("place");
        }
    }
    board
}
