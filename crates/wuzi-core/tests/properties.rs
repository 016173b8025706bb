//! Property tests: after any sequence of moves and undos, on boards of any size and under any
//! rule, every incremental structure (line keys, patterns, threat classes, flag bitboards,
//! stone bitboards, Zobrist key) equals a recomputation from scratch; renju forbidden points
//! from the tables equal the slow RIF classifier's; undo restores the exact key. The walks
//! also swap the combined table and copy the board midway, since `unmake` restores from a
//! log that both must keep right.

use proptest::prelude::*;
use std::sync::OnceLock;
use wuzi_core::pattern::{decode_window, CombinedTable, RuleTables, KEY_COUNT, REACH};
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Color, Pattern, Point, Rule};
use wuzi_testkit::reference;

/// A random empty point, usually next to the last stones so that real shapes form.
fn random_point(board: &Board, rng: &mut Rng) -> Option<Point> {
    let empties = board.empty_points();
    if empties.is_empty() {
        return None;
    }
    if let Some(last) = board.last_move() {
        if rng.below_by_remainder(4) != 0 {
            let near: Vec<Point> = empties
                .iter()
                .copied()
                .filter(|p| {
                    (p.x as i32 - last.x as i32).abs() <= 2
                        && (p.y as i32 - last.y as i32).abs() <= 2
                })
                .collect();
            if !near.is_empty() {
                return Some(near[rng.below_by_remainder(near.len() as u64) as usize]);
            }
        }
    }
    Some(empties[rng.below_by_remainder(empties.len() as u64) as usize])
}

/// A second combined table for `rule`, of other cell values than the rule's own, so that an
/// entry restored from before a swap shows in the value sums.
fn other_table(rule: Rule) -> &'static CombinedTable {
    static TABLES: OnceLock<Vec<CombinedTable>> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        Rule::ALL
            .iter()
            .map(|&r| {
                CombinedTable::build(r, |color, patterns, threat| {
                    let shape: i32 = patterns.iter().map(|&p| p as i32 * p as i32).sum();
                    shape * 3 + threat as i32 * 11 + color.index() as i32
                })
            })
            .collect()
    });
    let at = Rule::ALL.iter().position(|&r| r == rule).unwrap_or(0);
    &tables[at]
}

/// Between steps, now and then: swap the combined table, or replace the board by a copy
/// (`clone`, or `clone_from` into a board that held another game).
fn shake(board: &mut Board, rng: &mut Rng) {
    match rng.below_by_remainder(24) {
        0 => {
            let own = &RuleTables::get(board.rule()).combined;
            let table = if std::ptr::eq(board.combined_table(), own) {
                other_table(board.rule())
            } else {
                own
            };
            board.set_combined_table(table);
        }
        1 => *board = board.clone(),
        2 => {
            let mut other = Board::new(board.width(), board.height(), board.rule()).expect("size");
            if let Some(p) = random_point(&other, rng) {
                other.play(p).expect("play");
            }
            other.clone_from(board);
            *board = other;
        }
        _ => {}
    }
}

fn random_walk(
    width: usize,
    height: usize,
    rule: Rule,
    seed: u64,
    steps: usize,
    check_forbidden: bool,
) {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(width, height, rule).expect("size");
    let mut keys = vec![board.hash()];
    for step in 0..steps {
        shake(&mut board, &mut rng);
        let roll = rng.below_by_remainder(10) as usize;
        if roll < 2 && board.move_count() > 0 {
            board.undo().expect("undo");
            keys.pop();
            assert_eq!(
                Some(&board.hash()),
                keys.last(),
                "undo restores the key (step {step})"
            );
        } else if roll == 3 && board.move_count() > 0 {
            // The search's null move: the side and the key change, nothing else; two cancel.
            let before = board.hash();
            board.pass();
            assert_ne!(board.hash(), before, "a pass changes the key (step {step})");
            board.pass();
            assert_eq!(board.hash(), before, "two passes cancel (step {step})");
            board.pass();
            if let Some(key) = keys.last_mut() {
                *key = board.hash();
            }
        } else if let Some(p) = random_point(&board, &mut rng) {
            if roll == 2 {
                // A composed position: the same side moves twice.
                let color = if rng.below_by_remainder(2) == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                board.place(color, p).expect("place");
            } else {
                board.play(p).expect("play");
            }
            keys.push(board.hash());
        }
        if let Err(e) = reference::check_consistency(&board) {
            panic!("{width}x{height} {rule} seed {seed} step {step}: {e}\n{board:?}");
        }
        if check_forbidden {
            for p in board.empty_points() {
                let fast = board.forbidden_kind(p);
                assert_eq!(
                    fast,
                    reference::forbidden_kind(&board, p),
                    "{p} at step {step}\n{board:?}"
                );
            }
        }
    }
    while board.move_count() > 0 {
        board.undo().expect("undo");
    }
    assert_eq!(
        board.hash(),
        Board::new(width, height, rule).expect("size").hash()
    );
    reference::check_consistency(&board).expect("consistent after undoing everything");
}

fn any_rule() -> impl Strategy<Value = Rule> {
    prop::sample::select(Rule::ALL.to_vec())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn incremental_state_equals_recomputation(
        width in 5usize..=32, height in 5usize..=32, rule in any_rule(), seed in any::<u64>()
    ) {
        random_walk(width, height, rule, seed, 120, false);
    }

    #[test]
    fn renju_forbidden_fast_equals_slow(size in 7usize..=13, seed in any::<u64>()) {
        random_walk(size, size, Rule::Renju, seed, 70, true);
    }

    #[test]
    fn errors_change_nothing(width in 5usize..=32, height in 5usize..=32, x in 0u8..40, y in 0u8..40) {
        let mut board = Board::new(width, height, Rule::Freestyle).expect("size");
        board.play(Point::new(0, 0)).expect("corner");
        let before = (board.hash(), board.history(), board.side_to_move());
        let p = Point::new(x, y);
        if (x as usize) >= width || (y as usize) >= height || (x, y) == (0, 0) {
            prop_assert!(board.play(p).is_err());
            prop_assert_eq!((board.hash(), board.history(), board.side_to_move()), before);
        }
    }
}

/// The tables, key by key, against the slow classifier, for every rule and colour, fine
/// classes included (and each fine class occurs under every rule and colour).
#[test]
fn pattern_tables_equal_slow_classifier() {
    for rule in Rule::ALL {
        let tables = wuzi_core::pattern::RuleTables::get(rule);
        let mut seen = [[0usize; Pattern::ALL.len()]; 2];
        for key in 0..KEY_COUNT as u32 {
            let window = decode_window(key);
            assert!(window[REACH] == wuzi_core::pattern::LineCell::Empty);
            for color in Color::BOTH {
                let slow = reference::classify(rule, color, &window);
                assert_eq!(
                    tables.pattern(key, color),
                    slow,
                    "{rule} {color:?} key {key} {window:?}"
                );
                seen[color.index()][slow as usize] += 1;
            }
        }
        for color in Color::BOTH {
            for p in [
                Pattern::F2,
                Pattern::F2A,
                Pattern::F2B,
                Pattern::F3,
                Pattern::F3S,
            ] {
                assert!(
                    seen[color.index()][p as usize] > 0,
                    "{rule} {color:?} {p:?}"
                );
            }
        }
    }
}

#[test]
fn bad_sizes_and_empty_undo_are_errors() {
    for (w, h) in [(4, 15), (15, 4), (33, 15), (15, 33), (0, 0)] {
        assert!(Board::new(w, h, Rule::Freestyle).is_err());
    }
    let mut board = Board::new(5, 5, Rule::Standard).expect("5x5");
    assert!(board.undo().is_err());
    assert_eq!(board.move_count(), 0);
    board.play(Point::new(2, 2)).expect("centre");
    assert!(board.play(Point::new(2, 2)).is_err());
    assert_eq!(board.side_to_move(), Color::White);
}

/// `on_one_line` against walking the line: on boards of several sizes, two cells share a
/// line in a direction exactly when stepping from one by that direction's offset reaches
/// the other (the walk stays on the board, so no wrap across the wall can count).
#[test]
fn on_one_line_matches_walking_the_line() {
    for size in [5, 15, 20] {
        let board = Board::new(size, size, Rule::Freestyle).expect("board");
        let cells: Vec<_> = (0..size as u8)
            .flat_map(|y| (0..size as u8).map(move |x| Point::new(x, y)))
            .filter_map(|p| board.cell(p))
            .collect();
        let mut shared = 0usize;
        for &a in &cells {
            for &b in &cells {
                for (dir, &step) in board.dir_offsets().iter().enumerate() {
                    let walked = [true, false].iter().any(|&forward| {
                        let mut c = a;
                        loop {
                            if c == b {
                                return true;
                            }
                            c = if forward {
                                c + step
                            } else {
                                c.wrapping_sub(step)
                            };
                            if !board.is_on_board(c) {
                                return false;
                            }
                        }
                    });
                    assert_eq!(board.on_one_line(a, b, dir), walked, "{a} {b} {dir}");
                    shared += usize::from(walked);
                }
            }
        }
        assert!(shared > cells.len() * 4, "{shared}");
    }
}
