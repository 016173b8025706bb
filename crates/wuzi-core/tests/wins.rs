//! Win detection under every rule: fives and overlines, caro's blocked fives, renju's
//! forbidden moves, at edges and corners, on square and rectangular boards.

mod common;

use common::board_from_rows;
use wuzi_core::{Board, Color, Point, Rule};

/// Set up `rows` (x Black, o White), then let `color` play `(x, y)` and report the winner.
fn winner_after(rows: &[&str], rule: Rule, color: Color, x: u8, y: u8) -> Option<Color> {
    let mut board = board_from_rows(rows, rule, 'x', 'o');
    board.place(color, Point::new(x, y)).expect("empty point");
    let hash = board.hash();
    let w = board.winner();
    assert_eq!(board.hash(), hash, "winner() leaves the position as it was");
    w
}

const EDGE_FIVE: [&str; 7] = [
    "x x x x . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
    ". . . . . . . . . . . . . . . . . . . .",
];

#[test]
fn five_along_the_top_edge_of_a_rectangle() {
    for rule in Rule::ALL {
        assert_eq!(
            winner_after(&EDGE_FIVE, rule, Color::Black, 4, 0),
            Some(Color::Black),
            "{rule}"
        );
        assert_eq!(
            winner_after(&EDGE_FIVE, rule, Color::Black, 5, 0),
            None,
            "{rule}"
        );
    }
}

#[test]
fn diagonal_five_into_the_bottom_left_corner() {
    let rows = [
        ". . . . . . . . .",
        ". . . . x . . . .",
        ". . . x . . . . .",
        ". . x . . . . . .",
        ". x . . . . . . .",
        ". . . . . . . . .",
    ];
    for rule in Rule::ALL {
        assert_eq!(
            winner_after(&rows, rule, Color::Black, 0, 5),
            Some(Color::Black),
            "{rule}"
        );
    }
}

#[test]
fn overlines() {
    let rows = [
        ". . . . . . . . . . .",
        "x x x . x x . . . . .",
        "o o o . o o . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
    ];
    // Black fills (3,1) making six; White fills (3,2) making six.
    let cases = [
        (Rule::Freestyle, Some(Color::Black), Some(Color::White)),
        (Rule::Standard, None, None),
        (Rule::Renju, Some(Color::White), Some(Color::White)),
        (Rule::Caro, Some(Color::Black), Some(Color::White)),
        (Rule::CaroExact, None, None),
    ];
    for (rule, black, white) in cases {
        assert_eq!(
            winner_after(&rows, rule, Color::Black, 3, 1),
            black,
            "{rule} black six"
        );
        assert_eq!(
            winner_after(&rows, rule, Color::White, 3, 2),
            white,
            "{rule} white six"
        );
    }
}

#[test]
fn caro_five_blocked_at_both_ends() {
    let rows = [
        ". . . . . . . . . .",
        "o x x x x . o . . .",
        ". . . . . . . . . .",
        "x x x x . o . . . .",
        ". . . . . . . . . .",
    ];
    for rule in [Rule::Caro, Rule::CaroExact] {
        // o x x x x [x] o: blocked at both ends by White.
        assert_eq!(
            winner_after(&rows, rule, Color::Black, 5, 1),
            None,
            "{rule}"
        );
        // edge x x x x [x] o: the edge is no block.
        assert_eq!(
            winner_after(&rows, rule, Color::Black, 4, 3),
            Some(Color::Black),
            "{rule}"
        );
    }
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        assert_eq!(
            winner_after(&rows, rule, Color::Black, 5, 1),
            Some(Color::Black),
            "{rule}"
        );
    }
}

#[test]
fn renju_exact_five_wins_even_when_it_also_makes_forbidden_shapes() {
    // Black at (4,4) makes five in the row and a double four elsewhere.
    let rows = [
        ". . . . x . . . .",
        ". . . . x . . . .",
        ". . . . x . . . .",
        ". . . . . . . . .",
        "x x x x . . . . .",
        ". . . . . . . . .",
        ". . . . . . x . .",
        ". . . . . . . x .",
        ". . . . . . . . x",
    ];
    let mut board = board_from_rows(&rows, Rule::Renju, 'x', 'o');
    assert_eq!(board.forbidden_kind(Point::new(4, 4)), None);
    assert_eq!(
        winner_after(&rows, Rule::Renju, Color::Black, 4, 4),
        Some(Color::Black)
    );
    // Without the row five, the same point is a double four: Black loses by playing it.
    let rows2 = [
        ". . . . x . . . .",
        ". . . . x . . . .",
        ". . . . x . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . . . .",
        ". . . . . . x . .",
        ". . . . . . . x .",
        ". . . . . . . . x",
    ];
    let mut board2 = board_from_rows(&rows2, Rule::Renju, 'x', 'o');
    assert_eq!(
        board2.forbidden_kind(Point::new(4, 4)),
        Some(wuzi_core::ForbiddenKind::DoubleFour)
    );
    assert_eq!(
        winner_after(&rows2, Rule::Renju, Color::Black, 4, 4),
        Some(Color::White)
    );
    // White is never restricted.
    let mut white = board_from_rows(&rows2, Rule::Renju, 'o', 'x');
    assert_eq!(white.forbidden_kind(Point::new(4, 4)), None);
    let _ = board.forbidden_points();
}

#[test]
fn five_points_and_threat_classes() {
    let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
    for x in 3..7 {
        board.place(Color::Black, Point::new(x, 7)).expect("place");
    }
    let mut fives = board.five_points(Color::Black);
    fives.sort();
    assert_eq!(fives, vec![Point::new(2, 7), Point::new(7, 7)]);
    assert!(board.five_points(Color::White).is_empty());
    assert_eq!(
        board.threat(Color::Black, Point::new(2, 7)),
        wuzi_core::Threat::Five
    );
    board.place(Color::White, Point::new(2, 7)).expect("block");
    assert_eq!(board.five_points(Color::Black), vec![Point::new(7, 7)]);
}
