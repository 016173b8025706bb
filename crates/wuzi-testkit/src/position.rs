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

/// A dense position for rule tests: `black` and `white` stones dropped (Black's first) on
/// random empty points of the central `span` x `span` square of a `size` board, with
/// `Board::place` so that either colour may have more stones. Deterministic for a seed.
pub fn dense_board(
    rule: Rule,
    size: usize,
    span: usize,
    black: usize,
    white: usize,
    seed: u64,
) -> Board {
    let mut rng = crate::Lcg(seed);
    let mut board = Board::new(size, size, rule).expect("size");
    let lo = (size - span) / 2;
    for (color, n) in [(Color::Black, black), (Color::White, white)] {
        let mut placed = 0;
        let mut tries = 0;
        while placed < n && tries < 10_000 {
            tries += 1;
            let x = lo + rng.next(span as u64) as usize;
            let y = lo + rng.next(span as u64) as usize;
            let p = Point::new(x as u8, y as u8);
            if board.is_empty_at(p) && board.place(color, p).is_ok() {
                placed += 1;
            }
        }
    }
    board
}

/// A 7x7 renju position (`x` Black, `o` White, 24 stones each, so Black is to move) whose one
/// empty point, 3,0, would give Black an overline of seven and nothing else: Black has no
/// legal move though the board is not full, and no line holds five of a colour.
pub const ONLY_FORBIDDEN_LEFT_7X7: [&str; 7] = [
    "xxx.xxx", "xxxoxox", "xxxooox", "oooxxxo", "ooxoooo", "oxooxoo", "ooxxoox",
];
