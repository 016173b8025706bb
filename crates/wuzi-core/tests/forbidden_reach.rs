//! `Board::forbidden_reach`: the cells whose content can change whether a point is forbidden
//! for renju Black. The threat solvers add it to a line's defence zone (`vcf::line_zone`), so
//! it must be sound: a stone of either colour placed outside it never changes the verdict.
//! And it must reach further than five cells, because the recursive fake-three rule does: a
//! test finds positions where a stone more than five cells away changes a forbidden point, and
//! checks that the reach holds it.

use proptest::prelude::*;
use wuzi_core::{Board, Cell, Color, Point, Rule};

/// A dense renju position (stones of both colours dropped at random on the central square).
fn dense_board(size: usize, span: usize, black: usize, white: usize, seed: u64) -> Board {
    wuzi_testkit::position::dense_board(Rule::Renju, size, span, black, white, seed)
}

fn cell(board: &Board, p: Point) -> Cell {
    board.cell(p).expect("on the board")
}

/// The empty points where a stone of some colour changes the verdict at `p`.
fn changers(board: &mut Board, p: Point) -> Vec<(Point, Color)> {
    let c = cell(board, p);
    let before = board.forbidden_kind_at(c);
    let mut out = Vec::new();
    for s in board.empty_points() {
        if s == p {
            continue;
        }
        for color in Color::BOTH {
            board.place(color, s).expect("empty");
            let after = board.forbidden_kind_at(c);
            board.undo().expect("undo");
            if after != before {
                out.push((s, color));
            }
        }
    }
    out
}

fn distance(a: Point, b: Point) -> u8 {
    a.x.abs_diff(b.x).max(a.y.abs_diff(b.y))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Every stone that changes the verdict at any empty point lies in that point's reach.
    #[test]
    fn the_reach_holds_every_stone_that_changes_a_verdict(
        black in 14usize..=28,
        white_share in 40usize..=90,
        seed in any::<u64>(),
    ) {
        let mut board = dense_board(15, 9, black, black * white_share / 100, seed);
        // Every empty point: a stone can also make a point a candidate in the first place.
        for p in board.empty_points() {
            let reach = board.forbidden_reach(cell(&board, p));
            for (s, color) in changers(&mut board, p) {
                prop_assert!(
                    reach.contains(cell(&board, s)),
                    "{color:?} at {s} changes {p} but is outside its reach\n{}",
                    board.to_text()
                );
            }
        }
    }
}

/// The gap the core's notes admitted: a stone more than five cells away can change a
/// forbidden point. Dense random positions (fixed seeds) hold such cases; each must be in the
/// reach, and each is more than five cells from the point, so no fixed window would do.
#[test]
fn stones_beyond_five_cells_can_change_a_forbidden_point_and_are_in_the_reach() {
    let mut found = 0;
    for seed in 0..400u64 {
        let black = 14 + (seed % 15) as usize;
        let mut board = dense_board(15, 9, black, black * 3 / 4, seed);
        let candidates: Vec<Point> = board
            .cells_making(Color::Black, wuzi_core::flag::FORBID_CANDIDATE)
            .iter()
            .map(|c| board.point(c))
            .collect();
        for p in candidates {
            let far: Vec<(Point, Color)> = changers(&mut board, p)
                .into_iter()
                .filter(|(s, _)| distance(*s, p) > 5)
                .collect();
            if far.is_empty() {
                continue;
            }
            let reach = board.forbidden_reach(cell(&board, p));
            for (s, color) in &far {
                assert!(
                    reach.contains(cell(&board, *s)),
                    "seed {seed}: {color:?} at {s} changes {p} from {:?}",
                    board.forbidden_kind(p)
                );
            }
            if found == 0 {
                println!(
                    "seed {seed}: {far:?} change {p} ({:?})\n{}",
                    board.forbidden_kind(p),
                    board.to_text()
                );
            }
            found += 1;
        }
    }
    println!("{found} points with a far stone that changes them");
    assert!(found > 0, "no far-reaching case among the seeds");
}
