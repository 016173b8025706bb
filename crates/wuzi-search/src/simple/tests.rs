use super::*;
use wuzi_core::Rule;

fn board_with(rule: Rule, size: usize, stones: &[(Color, u8, u8)]) -> Board {
    let mut b = Board::new(size, size, rule).unwrap();
    for &(c, x, y) in stones {
        b.place(c, Point::new(x, y)).unwrap();
    }
    b
}

fn run(board: &Board, limits: &Limits) -> Option<SearchResult> {
    let stop = AtomicBool::new(false);
    Simple::new(1 << 20).search(board, limits, &stop, &mut |_| {})
}

fn depth(d: u32) -> Limits {
    Limits {
        max_depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn empty_board_gets_the_centre() {
    for (w, h) in [(15, 15), (20, 20), (20, 15), (5, 5)] {
        let b = Board::new(w, h, Rule::Freestyle).unwrap();
        let r = run(&b, &depth(3)).unwrap();
        assert_eq!(r.best, Point::new((w / 2) as u8, (h / 2) as u8));
        assert_eq!(quick_move(&b), Some(r.best));
    }
}

#[test]
fn takes_a_five_and_blocks_one() {
    use Color::{Black as B, White as W};
    // Black has four in a row open at one end; Black to move.
    let stones = [
        (B, 3, 7),
        (W, 3, 8),
        (B, 4, 7),
        (W, 4, 8),
        (B, 5, 7),
        (W, 5, 8),
        (B, 6, 7),
        (W, 2, 7),
    ];
    for rule in Rule::ALL {
        let b = board_with(rule, 15, &stones);
        assert_eq!(b.side_to_move(), B);
        let r = run(&b, &depth(4)).unwrap();
        assert_eq!(r.best, Point::new(7, 7), "{rule:?}");
        assert!(r.score >= WIN_MIN);
        assert_eq!(quick_move(&b), Some(Point::new(7, 7)));
    }
    // White has four; White blocked at both ends? No: White's 2..5,8 with 1,8 empty and 6,8
    // empty would be open; block one end so exactly one five point remains, Black to move.
    let stones = [
        (B, 7, 7),
        (W, 2, 8),
        (B, 1, 8),
        (W, 3, 8),
        (B, 7, 9),
        (W, 4, 8),
        (B, 9, 9),
        (W, 5, 8),
    ];
    let b = board_with(Rule::Freestyle, 15, &stones);
    assert_eq!(b.side_to_move(), B);
    assert_eq!(b.five_points(W), vec![Point::new(6, 8)]);
    let r = run(&b, &depth(4)).unwrap();
    assert_eq!(r.best, Point::new(6, 8));
    assert_eq!(quick_move(&b), Some(Point::new(6, 8)));
}

#[test]
fn full_board_has_no_move() {
    let mut b = Board::new(5, 5, Rule::Freestyle).unwrap();
    // Fill column pairs so that no five appears: colours by (x / 2 + y) parity.
    for y in 0..5u8 {
        for x in 0..5u8 {
            let c = if (x / 2 + y) % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.place(c, Point::new(x, y)).unwrap();
        }
    }
    assert!(b.is_full());
    assert_eq!(run(&b, &depth(3)), None);
    assert_eq!(quick_move(&b), None);
}

#[test]
fn renju_black_never_gets_a_forbidden_point() {
    use Color::{Black as B, White as W};
    // Two Black open twos crossing at (7,7): playing there is a double three.
    let stones = [
        (B, 5, 7),
        (W, 0, 0),
        (B, 6, 7),
        (W, 14, 0),
        (B, 7, 5),
        (W, 0, 14),
        (B, 7, 6),
        (W, 14, 14),
    ];
    let mut b = board_with(Rule::Renju, 15, &stones);
    assert_eq!(b.side_to_move(), B);
    assert!(
        b.is_forbidden(Point::new(7, 7)),
        "test position must have the forbidden point"
    );
    for d in 1..=4 {
        let r = run(&b, &depth(d)).unwrap();
        assert!(b.is_legal(r.best), "depth {d}: {:?}", r.best);
        assert_ne!(r.best, Point::new(7, 7));
    }
    let q = quick_move(&b).unwrap();
    assert!(b.is_legal(q));
    // The same shape under freestyle makes (7,7) the natural move: a double three.
    let free = board_with(Rule::Freestyle, 15, &stones);
    assert_eq!(run(&free, &depth(2)).unwrap().best, Point::new(7, 7));
}

#[test]
fn stop_flag_and_node_limit_end_the_search_with_a_legal_move() {
    use Color::{Black as B, White as W};
    let stones = [(B, 7, 7), (W, 8, 8), (B, 8, 7), (W, 6, 7), (B, 7, 8)];
    let mut b = board_with(Rule::Standard, 15, &stones);
    let stop = AtomicBool::new(true);
    let mut s = Simple::new(1 << 20);
    let r = s
        .search(&b, &Limits::default(), &stop, &mut |_| {})
        .unwrap();
    assert!(b.is_legal(r.best));
    let limits = Limits {
        max_nodes: Some(2_000),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let r = s.search(&b, &limits, &stop, &mut |_| {}).unwrap();
    assert!(b.is_legal(r.best));
    assert!(r.nodes < 2_000 + CHECK_EVERY);
}

#[test]
fn hard_time_is_kept() {
    use Color::{Black as B, White as W};
    let stones = [
        (B, 7, 7),
        (W, 8, 8),
        (B, 8, 7),
        (W, 6, 7),
        (B, 7, 8),
        (W, 9, 9),
    ];
    let b = board_with(Rule::Freestyle, 20, &stones);
    let limits = Limits {
        hard_time: Some(Duration::from_millis(150)),
        ..Limits::default()
    };
    let t = Instant::now();
    let r = run(&b, &limits).unwrap();
    assert!(
        t.elapsed() < Duration::from_millis(600),
        "{:?}",
        t.elapsed()
    );
    assert!(r.depth >= 1);
}

#[test]
fn multipv_reports_distinct_lines_best_first() {
    use Color::{Black as B, White as W};
    let stones = [(B, 7, 7), (W, 8, 8), (B, 8, 7)];
    let b = board_with(Rule::Freestyle, 15, &stones);
    let limits = Limits {
        max_depth: Some(3),
        multipv: 4,
        ..Limits::default()
    };
    let mut infos = Vec::new();
    let stop = AtomicBool::new(false);
    let r = Simple::new(1 << 20)
        .search(&b, &limits, &stop, &mut |i| infos.push(i.clone()))
        .unwrap();
    assert_eq!(r.lines.len(), 4);
    let mut points: Vec<Point> = r.lines.iter().map(|l| l.0).collect();
    points.sort();
    points.dedup();
    assert_eq!(points.len(), 4);
    assert!(r.lines.windows(2).all(|w| w[0].1 >= w[1].1));
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 3).collect();
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![1, 2, 3, 4]
    );
    assert!(last.iter().all(|i| !i.pv.is_empty()));
}

#[test]
fn table_respects_its_byte_bound_and_is_lazy() {
    let mut t = Table {
        bytes: 1_000_000,
        slots: Vec::new(),
    };
    assert!(t.slots.is_empty());
    t.ensure();
    assert!(t.slots.len() * ENTRY_BYTES <= 1_000_000);
    assert!(t.slots.len() * ENTRY_BYTES > 500_000);
    let e = Entry {
        cell: Some(300),
        score: -WIN + 5,
        depth: 7,
        bound: Bound::Lower,
    };
    t.store(42, e);
    let back = t.probe(42).unwrap();
    assert_eq!(
        (back.cell, back.score, back.depth, back.bound),
        (Some(300), -WIN + 5, 7, Bound::Lower)
    );
    assert!(t.probe(43).is_none());
}

#[test]
fn finds_a_double_four_win() {
    use Color::{Black as B, White as W};
    // Black has a closed three in row 4 (blocked at 3,4) and one in column 7 (blocked at
    // 7,8); (7,4) makes two fours at once.
    let stones = [
        (B, 4, 4),
        (W, 3, 4),
        (B, 5, 4),
        (W, 7, 8),
        (B, 6, 4),
        (W, 0, 0),
        (B, 7, 5),
        (W, 14, 0),
        (B, 7, 6),
        (W, 0, 14),
        (B, 7, 7),
        (W, 14, 14),
    ];
    let b = board_with(Rule::Freestyle, 15, &stones);
    assert_eq!(b.side_to_move(), B);
    assert!(b.five_points(W).is_empty() && b.five_points(B).is_empty());
    let r = run(&b, &depth(3)).unwrap();
    assert!(r.score >= WIN_MIN, "score {} move {:?}", r.score, r.best);
    assert_eq!(r.best, Point::new(7, 4));
}
