//! Tactics and invariants of the main search (`Engine::Main`), on positions built by hand
//! for every rule. Rows are drawn top to bottom: `x` Black, `o` White, `.` empty; the side to
//! move is given explicitly.

use std::sync::atomic::AtomicBool;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_search::{Limits, Options, SearchResult, Searcher, WIN, WIN_MIN};
use wuzi_testkit::position::board_to_move;
use wuzi_testkit::search::search_to_depth;

fn best(b: &Board, depth: u32) -> SearchResult {
    search_to_depth(b, depth, Options::default())
}

const P: fn(u8, u8) -> Point = Point::new;

#[test]
fn takes_a_five_under_every_rule() {
    let rows = [
        ". . . . . . . . .",
        ". x x x x . . . .",
        ". o o o . . . . .",
        ". . . . . . . o .",
        ". . . . . . . . .",
        ". . . . . . . . .",
    ];
    for rule in Rule::ALL {
        let b = board_to_move(&rows, rule, Color::Black);
        let r = best(&b, 4);
        assert!(
            r.best == P(0, 1) || r.best == P(5, 1),
            "{rule}: {:?}",
            r.best
        );
        assert_eq!(r.score, WIN - 1, "{rule}: a five on the first ply");
    }
}

/// Black's four on row 1, blocked on the left: White's one answer is (6, 1), except in caro,
/// where (7, 1) also stops it (a five closed at both ends does not win there).
const FOUR_TO_BLOCK: [&str; 6] = [
    ". . . . . . . . . .",
    ". o x x x x . . . .",
    ". . . . . . . . . .",
    ". . . o . . . . . .",
    ". . . . . o . . . .",
    ". . . . . . . . . .",
];

/// The moves of the side to move after which the opponent has no winning move, by trying
/// every pair of moves.
fn moves_that_stop_every_five(board: &Board) -> Vec<Point> {
    let mut b = board.clone();
    let opponent = b.side_to_move().opponent();
    let mut stops = Vec::new();
    for ours in b.empty_points() {
        b.play(ours).expect("an empty point");
        let mut five = false;
        for theirs in b.empty_points() {
            b.play(theirs).expect("an empty point");
            five |= b.winner() == Some(opponent);
            b.undo().expect("a move to undo");
        }
        b.undo().expect("a move to undo");
        if !five {
            stops.push(ours);
        }
    }
    stops
}

#[test]
fn blocks_the_only_five_point() {
    for rule in Rule::ALL {
        let b = board_to_move(&FOUR_TO_BLOCK, rule, Color::White);
        let mut stops = moves_that_stop_every_five(&b);
        stops.sort_by_key(|p| (p.y, p.x));
        let expected = if matches!(rule, Rule::Caro | Rule::CaroExact) {
            vec![P(6, 1), P(7, 1)]
        } else {
            vec![P(6, 1)]
        };
        assert_eq!(
            stops, expected,
            "{rule}: the defences found by trying every pair"
        );
        let played = best(&b, 4).best;
        assert!(
            stops.contains(&played),
            "{rule}: {played:?} does not stop the five"
        );
    }
}

#[test]
fn open_four_is_a_win_in_three_plies() {
    let rows = [
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . x x x . . . . .",
        ". . . . . . . . . . .",
        ". o . . . . . o . . .",
        ". . . . . . . . . o .",
    ];
    let b = board_to_move(&rows, Rule::Freestyle, Color::Black);
    let r = best(&b, 3);
    assert!(r.best == P(2, 2) || r.best == P(6, 2), "{:?}", r.best);
    assert_eq!(r.score, WIN - 3);
}

#[test]
fn four_three_is_found_with_its_true_distance() {
    // Black plays (4,4): a four on row 4 (blocked on the left by White) and an open three on
    // column 4. White must block the four at (5,4); Black makes the open four; five on ply 5.
    let rows = [
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . x . . . . . .",
        ". . . . x . . . . . .",
        "o x x x . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . . . .",
        ". . . . . . . . o . .",
        ". . . . . . . . . . o",
    ];
    let b = board_to_move(&rows, Rule::Freestyle, Color::Black);
    let r = best(&b, 4);
    assert_eq!(r.best, P(4, 4));
    assert_eq!(r.score, WIN - 5, "five on the fifth ply");
}

#[test]
fn defends_an_open_three() {
    let rows = [
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . . . .",
        ". . . x x x . . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . o . . . . .",
        ". . . . . . . . . . . .",
        ". . . . . . . . . o . .",
        ". . . . . . . . . . . .",
    ];
    let b = board_to_move(&rows, Rule::Freestyle, Color::White);
    let r = best(&b, 5);
    // Any block of the three: the ends next to it or one further.
    assert!(
        [P(2, 3), P(6, 3), P(1, 3), P(7, 3)].contains(&r.best),
        "{:?}",
        r.best
    );
    assert!(r.score > -WIN_MIN, "the three can be stopped");
}

#[test]
fn caro_does_not_count_a_five_blocked_at_both_ends() {
    // Black to move: o x x x x . o — filling the gap makes a five blocked at both ends by
    // White, which does not win in caro; the open row below does.
    let rows = [
        ". . . . . . . . . .",
        "o x x x x . o . . .",
        ". . . . . . . . . .",
        ". . x x x . . . . .",
        ". . . . . . . . . .",
        ". . o . . . . . . o",
    ];
    let b = board_to_move(&rows, Rule::Caro, Color::Black);
    let r = best(&b, 3);
    assert_ne!(r.best, P(5, 1), "a blocked five is no win");
    assert_eq!(r.score, WIN - 3, "the open three becomes an open four");
    let b = board_to_move(&rows, Rule::Freestyle, Color::Black);
    assert_eq!(best(&b, 3).best, P(5, 1));
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    // (4,4) would make a double three for Black (row and column); Black must not play it
    // even though it looks strongest.
    let rows = [
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . x . . . . .",
        ". . . . x . . . . .",
        ". . x x . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . o . .",
        ". . . . . . . . . o",
        ". . . . . . o . . .",
    ];
    let mut b = board_to_move(&rows, Rule::Renju, Color::Black);
    assert!(b.is_forbidden(P(4, 4)));
    let r = best(&b, 4);
    assert_ne!(r.best, P(4, 4));
    assert!(!b.is_forbidden(r.best));
    let b = board_to_move(&rows, Rule::Freestyle, Color::Black);
    assert_eq!(best(&b, 4).best, P(4, 4), "without the renju rule it wins");
}

#[test]
fn renju_white_wins_when_blacks_only_block_is_forbidden() {
    // White has a four whose only block (4,4) is a double three for Black (column 4 and the
    // diagonal through (2,2) and (3,3)).
    let rows = [
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . x . x . . . . .",
        ". . . x x . . . . .",
        ". . . . . o o o o x",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
        ". . . . . . . . . .",
    ];
    let mut b = board_to_move(&rows, Rule::Renju, Color::Black);
    assert!(b.is_forbidden(P(4, 4)));
    let r = best(&b, 2);
    assert!(r.score <= -WIN_MIN, "Black is lost: {}", r.score);
}

/// Random small positions: with the result-changing pruning off, the score at a fixed depth
/// is the same with and without the transposition table.
#[test]
fn same_score_with_and_without_the_table() {
    let mut rng = Rng::new(0x1234_5678);
    let mut checked = 0;
    for round in 0..30 {
        let rule = Rule::ALL[round % 5];
        let mut b = Board::new(9, 9, rule).expect("9x9");
        let stones = 4 + rng.below(8);
        while b.move_count() < stones {
            let p = P((2 + rng.below(5)) as u8, (2 + rng.below(5)) as u8);
            if b.is_legal(p) {
                b.play(p).expect("legal");
                if b.winner().is_some() {
                    b.undo().expect("undo");
                    break;
                }
            }
        }
        let plain = Options {
            use_tt: false,
            pruning: false,
            ..Options::default()
        };
        let with_tt = Options {
            use_tt: true,
            pruning: false,
            ..Options::default()
        };
        for depth in [2, 3] {
            let a = search_to_depth(&b, depth, plain);
            let t = search_to_depth(&b, depth, with_tt);
            assert_eq!(a.score, t.score, "round {round} depth {depth}\n{b:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 60);
}

/// An early position: three black stones on a diagonal, two white ones beside them, White
/// to move.
const EARLY_POSITION: [&str; 6] = [
    ". . . . . . . . .",
    ". . . . . . . . .",
    ". . . x o . . . .",
    ". . . o x . . . .",
    ". . . . . x . . .",
    ". . . . . . . . .",
];

/// `Searcher::prepare` does ahead of time what the first search would do on its clock; the
/// search after it is the same search (one thread: nodes, move and score), under every rule.
#[test]
fn a_prepared_searcher_searches_as_an_unprepared_one() {
    for rule in Rule::ALL {
        let b = board_to_move(&EARLY_POSITION, rule, Color::White);
        let limits = Limits {
            max_depth: Some(5),
            ..Limits::default()
        };
        let run = |prepare: bool| {
            let mut s = Searcher::new(1 << 20);
            if prepare {
                s.prepare(&b);
            }
            s.search(&b, &limits, &AtomicBool::new(false), &mut |_| {})
                .expect("a legal move")
        };
        let (plain, prepared) = (run(false), run(true));
        assert_eq!(
            (plain.best, plain.score, plain.nodes),
            (prepared.best, prepared.score, prepared.nodes),
            "{rule:?}"
        );
    }
}

#[test]
fn search_leaves_the_position_and_reports_legal_moves() {
    let b = board_to_move(&EARLY_POSITION, Rule::Standard, Color::White);
    let hash = b.hash();
    let mut s = Searcher::new(1 << 20);
    let limits = Limits {
        max_depth: Some(5),
        multipv: 3,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let r = s
        .search(&b, &limits, &AtomicBool::new(false), &mut |i| {
            infos.push(i.clone())
        })
        .expect("move");
    assert_eq!(b.hash(), hash);
    assert!(b.is_empty_at(r.best));
    assert_eq!(r.lines.len(), 3, "three lines for multipv 3");
    let mut firsts: Vec<Point> = r.lines.iter().map(|l| l.0).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "distinct moves");
    assert!(
        r.lines.windows(2).all(|w| w[0].1 >= w[1].1),
        "best first: {:?}",
        r.lines
    );
    assert!(infos.iter().any(|i| i.multipv == 3 && i.depth == 5));
}

/// Black threatens a win by continuous fours and nothing else: (8,7) is a four on row 7 that
/// White must block at (9,7), and then (8,8) is a double four (column 8, and the diagonal
/// from (5,5) that White closed at (4,4)); (8,8) first and then (8,7) wins too. The static
/// evaluation of the position after White's move sees only Black's closed threes (and White's
/// two on row 2). A one-ply search must defend, and only the VCF at its leaves (Black to move
/// there) can tell the five defences from the rest: with threat search off the same search
/// plays a move that loses to the VCF (today (4,5), next to the diagonal three).
#[test]
fn the_horizon_vcf_finds_the_defence_the_static_evaluation_misses() {
    use wuzi_search::threat::SolveResult;
    use wuzi_search::vcf::{VcfSolver, UNLIMITED};
    let b = board_to_move(
        &[
            ". . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . .",
            ". . . . . . . . . . o o . . .",
            ". . . . . . . . . . . . . . .",
            ". . . . o . . . . . . . . . .",
            ". . . . . x . . . . . . . . .",
            ". . . . . . x . . . . . . . .",
            ". . . . o x x x . . . . . . .",
            ". . . . . . . . . . . . . . .",
            ". . . . . . . . x . . . . . .",
            ". . . . . . . . x . . . . . .",
            ". . . . . . . . o . . . . . .",
            ". . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . .",
            ". . . . . . . . . . . . . . o",
        ],
        Rule::Freestyle,
        Color::White,
    );
    // The defences, by an exhaustive VCF of Black after each White move: the five points
    // that break both orders of the two fours.
    let mut defences = Vec::new();
    for y in 0..15 {
        for x in 0..15 {
            let p = P(x, y);
            let Some(cell) = b.cell(p) else { continue };
            if b.stone_at(cell).is_some() {
                continue;
            }
            let mut after = b.clone();
            after.play(p).expect("free point");
            let outcome = VcfSolver::new().solve(&mut after, Color::Black, UNLIMITED, 10_000_000);
            match outcome.result {
                SolveResult::Win(_) => {}
                SolveResult::NoWin => defences.push(p),
                SolveResult::Unknown => panic!("the VCF budget ran out after {p:?}"),
            }
        }
    }
    assert_eq!(
        defences,
        vec![P(8, 6), P(8, 7), P(9, 7), P(8, 8), P(9, 9)],
        "the position is not the one described"
    );

    let with_vcf = search_to_depth(&b, 1, Options::default());
    assert!(
        defences.contains(&with_vcf.best),
        "with the leaf VCF, {:?} must defend",
        with_vcf.best
    );
    // The VCF's defences still leave Black a double three (at (5,6): column 5 and the
    // diagonal through (8,9); at (6,8): column 6 and the diagonal through (8,10)) against a
    // White without fours: the static wins read it as a loss in six plies.
    assert_eq!(
        with_vcf.score,
        -(WIN - 6),
        "the double three after the defence: {}",
        with_vcf.score
    );
    let without = search_to_depth(
        &b,
        1,
        Options {
            threat_search: false,
            ..Options::default()
        },
    );
    assert!(
        !defences.contains(&without.best),
        "without it the static evaluation alone should miss the VCF, yet {:?} defends",
        without.best
    );
}

/// A forced move (one legal answer) stops after a few iterations in play (a soft limit);
/// to a depth asked for, with only a hard limit (a measurement), or in analysis, it is
/// searched like any position.
#[test]
fn a_forced_move_stops_early_only_in_play() {
    let b = board_to_move(&FOUR_TO_BLOCK, Rule::Freestyle, Color::White);
    let search = |limits: Limits| {
        let mut searcher = Searcher::new(1 << 20);
        searcher
            .search(&b, &limits, &AtomicBool::new(false), &mut |_| {})
            .expect("a legal move")
    };
    let deep = 12;
    let minute = std::time::Duration::from_secs(60);
    let to_depth = search(Limits {
        max_depth: Some(deep),
        ..Limits::default()
    });
    assert_eq!((to_depth.best, to_depth.depth), (P(6, 1), deep));
    let hard_only = search(Limits {
        max_depth: Some(deep),
        hard_time: Some(minute),
        ..Limits::default()
    });
    assert_eq!((hard_only.best, hard_only.depth), (P(6, 1), deep));
    let in_play = search(Limits {
        max_depth: Some(deep),
        soft_time: Some(minute),
        hard_time: Some(minute),
        ..Limits::default()
    });
    assert_eq!((in_play.best, in_play.depth), (P(6, 1), 8));
    let analysis = search(Limits {
        max_depth: Some(deep),
        soft_time: Some(minute),
        hard_time: Some(minute),
        analysis: true,
        ..Limits::default()
    });
    assert_eq!((analysis.best, analysis.depth), (P(6, 1), deep));
}

/// Games played at a small node budget with several lines (as a weak playing level asks):
/// no move's search overruns the budget twofold, not even where the opponent has a VCF and
/// the root checks each move against it.
#[test]
fn a_node_budget_bounds_every_search_of_a_game() {
    const BUDGET: u64 = 1000;
    let mut rng = Rng::new(0x5eed_0b0d);
    let mut searcher = Searcher::new(1 << 20);
    let limits = Limits {
        max_nodes: Some(BUDGET),
        multipv: 6,
        ..Limits::default()
    };
    let mut most = 0;
    for game in 0..12 {
        let mut b = Board::new(15, 15, Rule::Freestyle).expect("15x15");
        while b.move_count() < 3 {
            let p = P((5 + rng.below(5)) as u8, (5 + rng.below(5)) as u8);
            if b.is_legal(p) {
                b.play(p).expect("legal");
            }
        }
        while b.winner().is_none() && b.move_count() < 120 {
            let r = searcher
                .search(&b, &limits, &AtomicBool::new(false), &mut |_| {})
                .expect("a legal move");
            assert!(
                r.nodes <= 2 * BUDGET,
                "game {game}: {} nodes (budget {BUDGET})\n{b:?}",
                r.nodes
            );
            most = most.max(r.nodes);
            // Now and then a line other than the best, as a weak level plays.
            let pick = if r.lines.len() > 1 && rng.below(3) == 0 {
                r.lines[1 + rng.below(r.lines.len() - 1)].0
            } else {
                r.best
            };
            b.play(pick).expect("a legal move");
        }
    }
    assert!(most >= BUDGET, "the budget was never reached: {most}");
}
