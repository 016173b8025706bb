//! The slow, obviously correct classifier that `wuzi-core`'s tables and incremental state are
//! tested against (its property and rule tests). Nothing here is used by the engine: it reads
//! the board point by point through the public API, walks lines with plain coordinates, and
//! classifies each line by direct recursion over explicit cell arrays (memoised by content
//! only to keep tests fast).

use std::cell::RefCell;
use wuzi_core::pattern::{
    combine, encode_window, flag, LineCell, Pattern, Threat, Window, REACH, WINDOW,
};
use wuzi_core::rule::{Rule, RunEnd};
use wuzi_core::zobrist::{STONE_KEYS, WHITE_TO_MOVE};
use wuzi_core::{Board, Color, ForbiddenKind, Point};

/// The four directions as (dx, dy), in the board's order.
pub const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// The window of `REACH` cells either side of `p` along direction `dir`, centre included.
pub fn window_at(board: &Board, p: Point, dir: usize) -> Window {
    let (dx, dy) = DIRECTIONS[dir];
    let mut w = [LineCell::Wall; WINDOW];
    for (i, slot) in w.iter_mut().enumerate() {
        let k = i as isize - REACH as isize;
        let (x, y) = (p.x as isize + k * dx, p.y as isize + k * dy);
        if x < 0 || y < 0 || x >= board.width() as isize || y >= board.height() as isize {
            continue;
        }
        *slot = match board.stone(Point::new(x as u8, y as u8)) {
            Some(c) => LineCell::of(c),
            None => LineCell::Empty,
        };
    }
    w
}

/// Whether the run of `own` through the centre wins under `rule`, scanning the window.
fn wins(rule: Rule, color: Color, w: &Window) -> bool {
    let own = LineCell::of(color);
    let mut lo = REACH;
    while lo > 0 && w[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = REACH;
    while hi < WINDOW - 1 && w[hi + 1] == own {
        hi += 1;
    }
    let end = |i: Option<usize>| match i.map(|i| w[i]) {
        None | Some(LineCell::Empty) => RunEnd::Empty,
        Some(LineCell::Wall) => RunEnd::Wall,
        Some(_) => RunEnd::Opponent,
    };
    let left = end(lo.checked_sub(1));
    let right = end((hi + 1 < WINDOW).then_some(hi + 1));
    rule.run_wins(color, hi - lo + 1, left, right)
}

fn run_length(color: Color, w: &Window) -> usize {
    let own = LineCell::of(color);
    let left = (0..REACH).rev().take_while(|&i| w[i] == own).count();
    let right = (REACH + 1..WINDOW).take_while(|&i| w[i] == own).count();
    left + right + 1
}

// The memo holds every window reached while classifying (hundreds of thousands when a test
// checks whole tables); ahash's hasher makes that check measurably faster than std's SipHash
// (docs/architecture.md), and nothing here needs a hasher resistant to chosen keys.
type Memo = ahash::AHashMap<(Rule, Color, Window), Pattern>;

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo::default());
}

/// What `color` makes along this line by placing on the (empty) centre of `w`, in the fine
/// classes: an open three by its number of straight-four points (`F3` one, `F3S` more), an
/// open two by its number of open-three points (`F2` up to two, `F2A` three, `F2B` more).
pub fn classify(rule: Rule, color: Color, w: &Window) -> Pattern {
    let mut placed = *w;
    placed[REACH] = LineCell::of(color);
    MEMO.with(|m| classify_placed(rule, color, &placed, &mut m.borrow_mut()))
}

fn classify_placed(rule: Rule, color: Color, w: &Window, memo: &mut Memo) -> Pattern {
    if let Some(&p) = memo.get(&(rule, color, *w)) {
        return p;
    }
    let renju_black = rule == Rule::Renju && color == Color::Black;
    let result = if wins(rule, color, w) {
        Pattern::Five
    } else if renju_black && run_length(color, w) > 5 {
        Pattern::Overline
    } else {
        let mut after = Vec::new();
        for i in 0..WINDOW {
            if w[i] == LineCell::Empty {
                let mut next = *w;
                next[i] = LineCell::of(color);
                after.push((i, classify_placed(rule, color, &next, memo)));
            }
        }
        let fives: Vec<usize> = after
            .iter()
            .filter(|(_, p)| *p == Pattern::Five)
            .map(|(i, _)| *i)
            .collect();
        // The points whose stone makes a pattern of coarse class `p` through the centre.
        let points = |p: Pattern| after.iter().filter(|(_, q)| q.coarse() == p).count();
        match fives.len() {
            0 => match points(Pattern::F4) {
                1 => Pattern::F3,
                2.. => Pattern::F3S,
                0 if points(Pattern::B4) > 0 => Pattern::B3,
                0 => match points(Pattern::F3) {
                    1..=2 => Pattern::F2,
                    3 => Pattern::F2A,
                    4.. => Pattern::F2B,
                    0 if points(Pattern::B3) > 0 => Pattern::B2,
                    0 if points(Pattern::F2) > 0 => Pattern::F1,
                    0 if points(Pattern::B2) > 0 => Pattern::B1,
                    0 => Pattern::Dead,
                },
            },
            1 => Pattern::B4,
            2 if fives[1] - fives[0] == 5 => Pattern::F4,
            _ if renju_black => Pattern::FourFour,
            _ => Pattern::F4,
        }
    };
    memo.insert((rule, color, *w), result);
    result
}

/// Black's forbidden kind at `p` by the RIF definitions as the Gomocup referee applies them
/// (a completion point where Black would make five does not make a three real; see
/// `wuzi-core`'s `renju.rs`), scanning whole lines (no tables).
pub fn forbidden_kind(board: &Board, p: Point) -> Option<ForbiddenKind> {
    if board.rule() != Rule::Renju || !board.is_empty_at(p) {
        return None;
    }
    let mut scratch = board.clone();
    slow_forbidden(&mut scratch, p)
}

fn line_points(board: &Board, p: Point, dir: usize, max: isize) -> Vec<(isize, Point)> {
    let (dx, dy) = DIRECTIONS[dir];
    (-max..=max)
        .filter_map(|k| {
            let (x, y) = (p.x as isize + k * dx, p.y as isize + k * dy);
            (x >= 0 && y >= 0 && x < board.width() as isize && y < board.height() as isize)
                .then(|| (k, Point::new(x as u8, y as u8)))
        })
        .collect()
}

/// The maximal run of Black through `p` along `dir` (p must hold Black), as points.
fn black_run(board: &Board, p: Point, dir: usize) -> Vec<Point> {
    let pts = line_points(board, p, dir, 6);
    let at = |k: isize| pts.iter().find(|(kk, _)| *kk == k).map(|(_, q)| *q);
    let black = |k: isize| at(k).is_some_and(|q| board.stone(q) == Some(Color::Black));
    let left = (1..).take_while(|&k| black(-k)).count() as isize;
    let right = (1..).take_while(|&k| black(k)).count() as isize;
    (-left..=right).filter_map(at).collect()
}

/// The fours through `p` (holding Black) along `dir`: every empty point `q` that would make an
/// exact five through `p`, and the number of distinct fours, a four being the set of the four
/// stones that such a five adds `q` to (both ends of a straight four give the same set).
fn fours_in_line(board: &mut Board, p: Point, dir: usize) -> (usize, Vec<Point>) {
    let mut four_sets: Vec<Vec<Point>> = Vec::new();
    let mut five_points = Vec::new();
    for (_, q) in line_points(board, p, dir, 4) {
        if board.place(Color::Black, q).is_err() {
            continue;
        }
        let run = black_run(board, p, dir);
        if run.len() == 5 {
            let four: Vec<Point> = run.into_iter().filter(|&s| s != q).collect();
            five_points.push(q);
            if !four_sets.contains(&four) {
                four_sets.push(four);
            }
        }
        let _ = board.undo();
    }
    (four_sets.len(), five_points)
}

fn distance(a: Point, b: Point) -> isize {
    (a.x as isize - b.x as isize)
        .abs()
        .max((a.y as isize - b.y as isize).abs())
}

/// Whether Black placing on the empty point `q` makes a run of exactly five on any line.
fn makes_five(board: &mut Board, q: Point) -> bool {
    if board.place(Color::Black, q).is_err() {
        return false;
    }
    let five = (0..4).any(|d| black_run(board, q, d).len() == 5);
    let _ = board.undo();
    five
}

fn slow_forbidden(board: &mut Board, p: Point) -> Option<ForbiddenKind> {
    if board.place(Color::Black, p).is_err() {
        return None;
    }
    let result = forbidden_with_p_placed(board, p);
    let _ = board.undo();
    result
}

fn forbidden_with_p_placed(board: &mut Board, p: Point) -> Option<ForbiddenKind> {
    if (0..4).any(|d| black_run(board, p, d).len() == 5) {
        return None;
    }
    if (0..4).any(|d| black_run(board, p, d).len() > 5) {
        return Some(ForbiddenKind::Overline);
    }
    let fours: usize = (0..4).map(|d| fours_in_line(board, p, d).0).sum();
    if fours >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }
    let mut threes = 0;
    for d in 0..4 {
        if fours_in_line(board, p, d).0 > 0 {
            continue;
        }
        let mut is_three = false;
        for (_, q) in line_points(board, p, d, 4) {
            if !board.is_empty_at(q) {
                continue;
            }
            // q must turn the line into a straight four through p ...
            if board.place(Color::Black, q).is_err() {
                continue;
            }
            let (count, fp) = fours_in_line(board, p, d);
            let straight_four = count == 1 && fp.len() == 2 && distance(fp[0], fp[1]) == 5;
            let _ = board.undo();
            // ... q must not make a five for Black on any line (the referee's convention: a
            // five point is a win, not a straight four) ... and q must itself be allowed,
            // with p on the board.
            if straight_four && !makes_five(board, q) && slow_forbidden(board, q).is_none() {
                is_three = true;
                break;
            }
        }
        if is_three {
            threes += 1;
        }
    }
    (threes >= 2).then_some(ForbiddenKind::DoubleThree)
}

/// Compare every incremental structure of `board` with a recomputation from scratch.
pub fn check_consistency(board: &Board) -> Result<(), String> {
    let mut hash = 0u64;
    if board.side_to_move() == Color::White {
        hash ^= WHITE_TO_MOVE;
    }
    let renju = board.rule() == Rule::Renju;
    for y in 0..board.height() {
        for x in 0..board.width() {
            let p = Point::new(x as u8, y as u8);
            let cell = board.cell(p).ok_or("on-board point without a cell")?;
            let stone = board.stone(p);
            for c in Color::BOTH {
                if board.stones_of(c).contains(cell) != (stone == Some(c)) {
                    return Err(format!("stone bitboard of {c:?} wrong at {p}"));
                }
            }
            if let Some(c) = stone {
                hash ^= STONE_KEYS[c.index()][cell];
                for c in Color::BOTH {
                    if board.flags_at(c, cell) != 0 || board.threat_at(c, cell) != Threat::None {
                        return Err(format!("occupied {p} has threat info"));
                    }
                }
            }
            for d in 0..4 {
                let mut w = window_at(board, p, d);
                if board.rule() == Rule::Freestyle {
                    // Freestyle keys leave out stones five cells away (they never matter).
                    for i in [0, WINDOW - 1] {
                        if matches!(w[i], LineCell::Black | LineCell::White) {
                            w[i] = LineCell::Empty;
                        }
                    }
                }
                if board.line_key(cell, d) != encode_window(&w) {
                    return Err(format!("line key wrong at {p} dir {d}"));
                }
            }
            if stone.is_some() {
                continue;
            }
            for c in Color::BOTH {
                let patterns =
                    [0, 1, 2, 3].map(|d| classify(board.rule(), c, &window_at(board, p, d)));
                for (d, &pat) in patterns.iter().enumerate() {
                    if board.pattern_at(c, cell, d) != pat {
                        return Err(format!(
                            "pattern of {c:?} at {p} dir {d}: incremental {:?}, scratch {pat:?}",
                            board.pattern_at(c, cell, d)
                        ));
                    }
                }
                let (threat, flags) = combine(patterns, renju && c == Color::Black);
                if board.threat_at(c, cell) != threat || board.flags_at(c, cell) != flags {
                    return Err(format!("threat/flags of {c:?} at {p}"));
                }
                for f in 0..flag::COUNT {
                    let bit = 1u8 << f;
                    if board.cells_making(c, bit).contains(cell) != (flags & bit != 0) {
                        return Err(format!("flag set {f} of {c:?} wrong at {p}"));
                    }
                }
            }
        }
    }
    for c in Color::BOTH {
        for f in 0..flag::COUNT {
            if !board
                .cells_making(c, 1 << f)
                .and_not(board.on_board())
                .is_empty()
            {
                return Err(format!("flag set {f} of {c:?} holds off-board cells"));
            }
        }
    }
    if board.value_sums_from_scratch()
        != [board.value_sum(Color::Black), board.value_sum(Color::White)]
    {
        return Err("pattern value sums differ from recomputation".into());
    }
    if hash != board.hash() {
        return Err("hash differs from recomputation".into());
    }
    Ok(())
}
