//! Renju forbidden points as the Gomocup referee judges them.
//!
//! - Every case of `data/rules/renju-referee.jsonl` (the issue's example with the referee's
//!   answer, and cases derived by hand from the referee's rule: fives, overlines and double
//!   fours at a three's completion point, and a five deeper in the recursion), checked by the
//!   fast path (`Board::forbidden_points`) and by the slow classifier (`reference`).
//! - A property test on random *dense* positions (many stones of both colours packed into the
//!   middle of the board, no game order), where fake threes and interacting completion points
//!   are common: the fast path equals the slow classifier at every empty point.
//!   `WUZI_RULE_CASES=N` runs N cases instead of the CI default.

use proptest::prelude::*;
use wuzi_core::{Board, Color, ForbiddenKind, Point, Rule};
use wuzi_testkit::position::{board_from_rows, ONLY_FORBIDDEN_LEFT_7X7};
use wuzi_testkit::referee::{referee_cases, Source};
use wuzi_testkit::reference;

fn slow_forbidden_points(board: &Board) -> Vec<(Point, ForbiddenKind)> {
    let mut slow: Vec<(Point, ForbiddenKind)> = board
        .empty_points()
        .into_iter()
        .filter_map(|p| reference::forbidden_kind(board, p).map(|k| (p, k)))
        .collect();
    slow.sort_by_key(|(p, _)| (p.y, p.x));
    slow
}

#[test]
fn referee_cases_fast_and_slow() {
    let cases = referee_cases();
    assert!(cases.iter().any(|c| c.source == Source::Referee));
    assert!(cases.len() >= 6, "the data file holds its cases");
    for mut case in cases {
        let fast = case.board.forbidden_points();
        assert_eq!(
            fast,
            case.forbidden,
            "fast path, case {}\n{}",
            case.name,
            case.board.to_text()
        );
        assert_eq!(
            slow_forbidden_points(&case.board),
            case.forbidden,
            "slow classifier, case {}",
            case.name
        );
    }
}

/// The issue's example, spelled out: 9,7 has two line threes, but one of them becomes a
/// straight four only at 7,7, where Black makes five on another line.
#[test]
fn issue_example_point_is_legal() {
    let mut case = referee_cases()
        .into_iter()
        .find(|c| c.name == "issue14-example")
        .expect("the issue's example is in the data");
    let p = Point::new(9, 7);
    let seven = Point::new(7, 7);
    assert!(case.board.is_empty_at(seven) && case.board.is_empty_at(p));
    assert_eq!(case.board.forbidden_kind(p), None);
    assert_eq!(reference::forbidden_kind(&case.board, p), None);
    // With 9,7 played, 7,7 is a five point for Black (the reason the three does not count).
    case.board.place(Color::Black, p).expect("empty");
    assert!(case.board.five_points(Color::Black).contains(&seven));
}

/// A dense renju position (stones of both colours dropped at random on the central square).
fn dense_board(size: usize, span: usize, black: usize, white: usize, seed: u64) -> Board {
    wuzi_testkit::position::dense_board(Rule::Renju, size, span, black, white, seed)
}

fn cases() -> u32 {
    wuzi_testkit::env_or("WUZI_RULE_CASES", 160)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn dense_positions_fast_equals_slow(
        size in 9usize..=15,
        span in 7usize..=9,
        black in 12usize..=30,
        white_share in 40usize..=90,
        seed in any::<u64>(),
    ) {
        let span = span.min(size);
        let white = black * white_share / 100;
        let mut board = dense_board(size, span, black, white, seed);
        let slow = slow_forbidden_points(&board);
        prop_assert_eq!(board.forbidden_points(), slow, "\n{}", board.to_text());
    }
}

/// `ONLY_FORBIDDEN_LEFT_7X7`: Black has no legal move though the board is not full.
#[test]
fn renju_black_with_only_forbidden_points_has_no_legal_move() {
    // The diagram's stones go down row by row, Black's last; the side to move is then set
    // to Black, as the stone counts (24 each) say it is.
    let build = |rule: Rule, rows: &[&str]| {
        let mut board = board_from_rows(rows, rule, 'x', 'o');
        if board.side_to_move() != Color::Black {
            board.pass();
        }
        board
    };
    let mut renju = build(Rule::Renju, &ONLY_FORBIDDEN_LEFT_7X7);
    assert_eq!(renju.move_count(), 48);
    assert!(!renju.is_full());
    assert!(renju.is_forbidden(Point::new(3, 0)));
    assert!(!renju.has_legal_move());
    assert!(build(Rule::Freestyle, &ONLY_FORBIDDEN_LEFT_7X7).has_legal_move());
    // One stone of each colour fewer (5,6 and 6,6 empty): Black may play 6,6.
    let mut rows = ONLY_FORBIDDEN_LEFT_7X7;
    rows[6] = "ooxxo..";
    let mut two_empty = build(Rule::Renju, &rows);
    assert_eq!(two_empty.move_count(), 46);
    assert!(two_empty.has_legal_move());
}
