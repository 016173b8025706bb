//! Positions for tests, built from what a person writes: a diagram of rows, or a move list.
//! The text is read by `wuzi_core::notation`; these helpers panic with the reason on a broken
//! fixture.

use wuzi_core::notation::{position_from_moves, Diagram, Marks};
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Color, Point, Rule};

fn diagram(rows: &[&str], marks: Marks) -> Diagram {
    Diagram::from_rows(rows.iter().copied(), marks)
        .unwrap_or_else(|e| panic!("{e}\n{}", rows.join("\n")))
}

/// A board from rows top to bottom (a diagram, `wuzi_core::notation::Diagram`); `black` and
/// `white` name the characters of each colour. The stones are placed row by row, so the side
/// to move is the opponent of the last stone's colour in that order (`Board::place`).
pub fn board_from_rows(rows: &[&str], rule: Rule, black: char, white: char) -> Board {
    diagram(rows, Marks { black, white })
        .board(rule)
        .unwrap_or_else(|e| panic!("{e}\n{}", rows.join("\n")))
}

/// A board from rows top to bottom (`x` Black, `o` White) with `to_move` to move: each side's
/// stones are placed from the last row's end back to the first row's start, those of
/// `to_move` first and the other side's last. The diagram must hold a stone of the side not
/// to move.
pub fn board_to_move(rows: &[&str], rule: Rule, to_move: Color) -> Board {
    let d = diagram(rows, Marks::XO);
    let of = |color: Color| d.stones.iter().rev().filter(move |(c, _)| *c == color);
    let order: Vec<(Color, Point)> = of(to_move).chain(of(to_move.opponent())).copied().collect();
    let board = d
        .board_placing(rule, &order)
        .unwrap_or_else(|e| panic!("{e}\n{}", rows.join("\n")));
    assert_eq!(
        board.side_to_move(),
        to_move,
        "the diagram needs a stone of the side not to move"
    );
    board
}

/// A `size` x `size` board after `moves` (letter-number names, alternating from Black).
pub fn board_from_moves(moves: &str, size: usize, rule: Rule) -> Board {
    position_from_moves(moves, size, size, rule)
        .unwrap_or_else(|e| panic!("{moves}: {e}"))
        .board
}

/// `count` positions of random play on 15x15, none with a five: each plays `fewest` to
/// `fewest + spread - 1` stones (fewer if a five comes first, which is then dropped)
/// alternately on random legal points of the central 9x9 square. Deterministic for a seed.
pub fn random_positions(
    count: usize,
    rule: Rule,
    fewest: usize,
    spread: usize,
    seed: u64,
) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut board = Board::new(15, 15, rule).expect("board");
        let stones = fewest + rng.below(spread);
        while board.move_count() < stones && board.winner().is_none() {
            let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
            if board.is_empty_at(p) && board.is_legal(p) {
                board.play(p).expect("move");
            }
        }
        if board.winner().is_none() {
            out.push(board);
        }
    }
    out
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
    let mut rng = Rng::new(seed);
    let mut board = Board::new(size, size, rule).expect("size");
    let lo = (size - span) / 2;
    for (color, n) in [(Color::Black, black), (Color::White, white)] {
        let mut placed = 0;
        let mut tries = 0;
        while placed < n && tries < 10_000 {
            tries += 1;
            let x = lo + rng.below(span);
            let y = lo + rng.below(span);
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
