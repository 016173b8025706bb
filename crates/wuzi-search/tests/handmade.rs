//! Positions built by hand for freestyle, standard, caro and renju: each shows one rule of the
//! solvers, with the expected answer worked out in its comment. Diagrams: `x` Black, `o`
//! White, `.` empty; coordinates below are `(x, y)` with `(0, 0)` at the top left.

mod common;

use common::{check_line, LineKind};
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_search::threat::SolveResult;
use wuzi_search::vcf::{VcfSolver, UNLIMITED};
use wuzi_search::vct::{VctLimits, VctSolver};
use wuzi_testkit::position::board_from_rows;

const EMPTY: &str = "...............";

/// A 15x15 board with `rows` drawn from the top row.
fn board(rule: Rule, rows: &[&str]) -> Board {
    let mut all: Vec<&str> = rows.to_vec();
    while all.len() < 15 {
        all.push(EMPTY);
    }
    board_from_rows(&all, rule, 'x', 'o')
}

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

fn vcf(board: &Board, attacker: Color, depth: u32) -> SolveResult {
    let mut b = board.clone();
    let out = VcfSolver::new().solve(&mut b, attacker, depth, 10_000_000);
    assert_eq!(b.hash(), board.hash(), "the board was not restored");
    out.result
}

/// The VCT verdict, by both methods (iterative-deepening depth-first and proof numbers),
/// which must agree on win or no win; the depth-first result is returned, the proof-number
/// line is checked too.
fn vct(board: &Board, attacker: Color, depth: u32, threat_depth: u32) -> SolveResult {
    let limits = VctLimits {
        max_depth: depth,
        threat_depth,
        node_limit: 10_000_000,
        deadline: None,
    };
    let mut b = board.clone();
    let dfs = VctSolver::new().solve(&mut b, attacker, &limits).result;
    assert_eq!(b.hash(), board.hash(), "the board was not restored");
    let pn = VctSolver::new().solve_pn(&mut b, attacker, &limits).result;
    assert_eq!(b.hash(), board.hash(), "the board was not restored");
    assert_eq!(dfs.is_win(), pn.is_win(), "the two VCT methods disagree");
    assert!(!matches!(dfs, SolveResult::Unknown) && !matches!(pn, SolveResult::Unknown));
    if pn.is_win() {
        checked_win(board, attacker, &pn, LineKind::Vct { threat_depth });
    }
    dfs
}

/// The line of a win, checked move by move; returns its points and depth.
fn checked_win(
    board: &Board,
    attacker: Color,
    result: &SolveResult,
    kind: LineKind,
) -> (Vec<Point>, u32) {
    let SolveResult::Win(line) = result else {
        panic!("expected a win, got {result:?}");
    };
    let points: Vec<Point> = line.iter().map(|&c| board.point(c)).collect();
    let depth = check_line(board, attacker, &points, kind)
        .unwrap_or_else(|e| panic!("bad line {points:?}: {e}"));
    (points, depth)
}

/// Four-three, freestyle and standard alike. Black's row 7 `o x x x . .` is closed on the
/// left; the column of (7,5), (7,6) is an open two. Black (7,7) makes a four on row 7 (five
/// point (8,7)) and an open three on column 7; White must block (8,7); Black then makes a
/// straight four on column 7 and wins: a VCF of depth 2 and none of depth 1.
#[test]
fn four_three_is_a_vcf_of_depth_two() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".......x.......",
        ".......x.......",
        "...oxxx........",
        EMPTY,
        EMPTY,
        "o.............o",
    ];
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Caro] {
        let b = board(rule, &rows);
        assert_eq!(vcf(&b, Color::Black, 1), SolveResult::NoWin, "{rule}");
        let result = vcf(&b, Color::Black, 2);
        let (line, depth) = checked_win(&b, Color::Black, &result, LineKind::Vcf);
        assert_eq!(depth, 2, "{rule}");
        assert_eq!(line[0], p(7, 7), "{rule}: the four-three point");
        assert_eq!(line[1], p(8, 7), "{rule}: the forced block");
        // Unlimited depth finds it too.
        assert!(vcf(&b, Color::Black, UNLIMITED).is_win(), "{rule}");
    }
}

/// Standard: row 7 is `o x x x . x x o`; Black (5,7) would make six, which wins in freestyle
/// (a five point now, depth 0) but nothing in standard, where Black has no other four either.
#[test]
fn standard_overline_is_no_five() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".oxxx.xxo......",
    ];
    let free = board(Rule::Freestyle, &rows);
    let result = vcf(&free, Color::Black, 3);
    let (line, depth) = checked_win(&free, Color::Black, &result, LineKind::Vcf);
    assert_eq!((line.as_slice(), depth), (&[p(5, 7)][..], 0));

    let standard = board(Rule::Standard, &rows);
    assert_eq!(vcf(&standard, Color::Black, UNLIMITED), SolveResult::NoWin);
    assert_eq!(vct(&standard, Color::Black, 4, 2), SolveResult::NoWin);
    // Renju: the same overline is no win for Black either, but White's six would win.
    let renju = board(Rule::Renju, &rows);
    assert_eq!(vcf(&renju, Color::Black, UNLIMITED), SolveResult::NoWin);
    let swapped = board_from_rows(
        &[
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            ".xooo.oox......",
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
            EMPTY,
        ],
        Rule::Renju,
        'x',
        'o',
    );
    let result = vcf(&swapped, Color::White, 3);
    let (line, _) = checked_win(&swapped, Color::White, &result, LineKind::Vcf);
    assert_eq!(line, vec![p(5, 7)]);
}

/// Caro: row 7 is `. o x x x x . o`; Black (6,7) would make a five blocked by White at both
/// ends, which does not win in caro (it does in freestyle).
#[test]
fn caro_five_blocked_at_both_ends_is_no_win() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".oxxxx.o.......",
    ];
    let free = board(Rule::Freestyle, &rows);
    let result = vcf(&free, Color::Black, 0);
    let (line, _) = checked_win(&free, Color::Black, &result, LineKind::Vcf);
    assert_eq!(line, vec![p(6, 7)]);

    let caro = board(Rule::Caro, &rows);
    assert_eq!(vcf(&caro, Color::Black, UNLIMITED), SolveResult::NoWin);
    assert_eq!(vct(&caro, Color::Black, 4, 2), SolveResult::NoWin);
}

/// Caro: row 7 is `o . x x x . . o`. Black (5,7) makes `o . x x x x . o`, which has two five
/// points, but whichever White blocks leaves the other five blocked at both ends: no win in
/// caro (a win of depth 1 in freestyle).
#[test]
fn caro_straight_four_between_blocks_is_no_win() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "o.xxx..o.......",
    ];
    let free = board(Rule::Freestyle, &rows);
    let result = vcf(&free, Color::Black, 1);
    let (_, depth) = checked_win(&free, Color::Black, &result, LineKind::Vcf);
    assert_eq!(depth, 1);

    let caro = board(Rule::Caro, &rows);
    assert_eq!(vcf(&caro, Color::Black, UNLIMITED), SolveResult::NoWin);
}

/// Double open three, freestyle: Black's open twos on row 7 and column 7 meet at (7,7).
/// Black (7,7) makes two open threes; White can stop only one; Black makes a straight four
/// with the other: a VCT of depth 2 (threat depth 1), and no VCF at all.
#[test]
fn double_three_is_a_vct_of_depth_two() {
    let rows = [
        "o..............",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".......x.......",
        ".......x.......",
        ".....xx........",
    ];
    let b = board(Rule::Freestyle, &rows);
    assert_eq!(vcf(&b, Color::Black, UNLIMITED), SolveResult::NoWin);
    assert_eq!(vct(&b, Color::Black, 1, 1), SolveResult::NoWin);
    let result = vct(&b, Color::Black, 2, 1);
    let (line, depth) = checked_win(&b, Color::Black, &result, LineKind::Vct { threat_depth: 1 });
    assert_eq!(depth, 2);
    assert_eq!(line[0], p(7, 7));
    // Every White answer to (7,7) still loses: whatever White plays, Black wins with a VCT
    // of depth 1 (a straight four, or a five).
    let mut after = b.clone();
    after.place(Color::Black, p(7, 7)).expect("empty");
    for q in after.empty_points() {
        let mut t = after.clone();
        t.place(Color::White, q).expect("empty");
        assert!(
            vct(&t, Color::Black, 1, 1).is_win(),
            "White {q:?} would refute (7,7)"
        );
    }
}

/// The same double three, but White has an open three of its own far away (row 13): after
/// any Black move that is not a four, White makes a straight four and wins first. Black has
/// no four, so no VCT exists.
#[test]
fn defender_counter_vcf_refutes_threes() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".......x.......",
        ".......x.......",
        ".....xx........",
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        "........ooo....",
    ];
    let b = board(Rule::Freestyle, &rows);
    assert_eq!(vct(&b, Color::Black, 4, 2), SolveResult::NoWin);
    // White, to move, wins by VCF of depth 1.
    let result = vcf(&b, Color::White, 1);
    let (_, depth) = checked_win(&b, Color::White, &result, LineKind::Vcf);
    assert_eq!(depth, 1);
}

/// Renju, White attacking: Black's open twos on row 7 and column 7 make (7,7) a double-three
/// point, forbidden for Black. White's diagonal (4,4), (5,5), (6,6) lies between Black (2,2)
/// and Black (8,8). White (3,3) makes a four whose only five point is (7,7): Black cannot
/// legally block it, so White wins with one four; the line ends with that four. In freestyle
/// Black simply blocks (and White (7,7) is only a four, blocked at (3,3)): no VCF of depth 1.
#[test]
fn renju_white_wins_through_a_forbidden_block() {
    let rows = [
        EMPTY,
        EMPTY,
        "..x............",
        EMPTY,
        "....o..........",
        ".....o.x.......",
        "......ox.......",
        ".....xx........",
        "........x......",
    ];
    let renju = board(Rule::Renju, &rows);
    let mut probe = renju.clone();
    assert!(
        probe.is_forbidden(p(7, 7)),
        "the trap point must be forbidden"
    );
    let result = vcf(&renju, Color::White, 1);
    let (line, depth) = checked_win(&renju, Color::White, &result, LineKind::Vcf);
    assert_eq!(depth, 1);
    assert_eq!(line, vec![p(3, 3)], "the line ends with White's four");

    let free = board(Rule::Freestyle, &rows);
    assert_eq!(vcf(&free, Color::White, 1), SolveResult::NoWin);
}

/// Renju, Black attacking: row 7 `o x x x .` and column 7 `o x x x .` (going down) meet at
/// (7,7). In freestyle Black (7,7) is a double four and wins at once (depth 1); in renju it is
/// forbidden, and the other fours are simply blocked: no VCF.
#[test]
fn renju_black_double_four_is_not_a_four() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        ".......o.......",
        ".......x.......",
        ".......x.......",
        ".......x.......",
        "...oxxx........",
    ];
    let free = board(Rule::Freestyle, &rows);
    let result = vcf(&free, Color::Black, 1);
    let (line, depth) = checked_win(&free, Color::Black, &result, LineKind::Vcf);
    assert_eq!((line[0], depth), (p(7, 7), 1));

    let mut renju = board(Rule::Renju, &rows);
    assert!(renju.is_forbidden(p(7, 7)));
    assert_eq!(vcf(&renju, Color::Black, UNLIMITED), SolveResult::NoWin);
}

/// A budget too small gives `Unknown`, never a wrong verdict.
#[test]
fn budget_exhaustion_is_unknown() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".......x.......",
        ".......x.......",
        "...oxxx........",
    ];
    let mut b = board(Rule::Freestyle, &rows);
    let out = VcfSolver::new().solve(&mut b, Color::Black, 5, 1);
    assert_eq!(out.result, SolveResult::Unknown);
    let limits = VctLimits {
        max_depth: 4,
        threat_depth: 2,
        node_limit: 3,
        deadline: None,
    };
    let out = VctSolver::new().solve(&mut b, Color::Black, &limits);
    assert_eq!(out.result, SolveResult::Unknown);
    let out = VctSolver::new().solve_pn(&mut b, Color::Black, &limits);
    assert_eq!(out.result, SolveResult::Unknown);
}

/// The checker itself rejects lines that are not forced wins.
#[test]
fn checker_rejects_bad_lines() {
    let rows = [
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        EMPTY,
        ".......x.......",
        ".......x.......",
        "...oxxx........",
    ];
    let b = board(Rule::Freestyle, &rows);
    let good = [p(7, 7), p(8, 7), p(7, 8), p(7, 4), p(7, 9)];
    assert_eq!(check_line(&b, Color::Black, &good, LineKind::Vcf), Ok(2));
    // The defender does not block the four.
    let ignored = [p(7, 7), p(0, 0), p(8, 7)];
    assert!(check_line(&b, Color::Black, &ignored, LineKind::Vcf).is_err());
    // A first move that is not a four.
    let quiet = [p(7, 4), p(8, 7), p(7, 7)];
    assert!(check_line(&b, Color::Black, &quiet, LineKind::Vcf).is_err());
    // A line that stops before the five.
    assert!(check_line(&b, Color::Black, &good[..4], LineKind::Vcf).is_err());
}
