//! The swap2 opening choices, made by search.
//!
//! - 0 stones: the engine proposes three stones (Black, White, Black). Candidate openings
//!   around the centre are generated (Black in the centre, White adjacent straight or
//!   diagonal, the second Black stone anywhere within two of the centre), screened by a
//!   shallow search, and the most balanced of the best few after a deeper search is proposed.
//! - 3 stones (White to move): the engine searches White's best move. Clearly better for
//!   Black ([`BALANCE`] or more): `SWAP` (take Black). Clearly better for White: play that
//!   move as White. Close to even: play it and Black's best answer, and let the opponent
//!   choose.
//! - 5 stones (White to move): `SWAP` if Black is better, else play White's best move.
//!
//! Invariants: every move returned is an empty point of the board (and, for Black under
//! renju, not forbidden: the searcher guarantees it); the time limits of the [`Limits`] given
//! bound the whole decision.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_core::{Board, Color, Point};
use wuzi_search::{quick_move, Limits, Searcher};

/// Scores within this of 0 count as balanced.
pub const BALANCE: i32 = 60;
/// Openings searched deeper after the screening.
const FINALISTS: usize = 4;

/// The engine's swap2 answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    Swap,
    Moves(Vec<Point>),
}

/// Chooses the answer for the position of a swap2 stage (0, 3 or 5 stones).
pub fn decide(
    searcher: &mut Searcher,
    board: &Board,
    limits: &Limits,
    stop: &AtomicBool,
) -> Swap2Answer {
    let start = Instant::now();
    let remaining = |share: u32| Slice {
        start,
        limits: limits.clone(),
        share,
    };
    match board.move_count() {
        0 => propose_three(searcher, board, &remaining(1), stop),
        3 => {
            let Some((white, score)) = best(searcher, board, &remaining(2), stop) else {
                return Swap2Answer::Swap;
            };
            if score <= -BALANCE {
                return Swap2Answer::Swap;
            }
            if score >= BALANCE {
                return Swap2Answer::Moves(vec![white]);
            }
            let mut next = board.clone();
            if next.play(white).is_err() {
                return Swap2Answer::Moves(vec![white]);
            }
            match best(searcher, &next, &remaining(1), stop) {
                Some((black, _)) => Swap2Answer::Moves(vec![white, black]),
                None => Swap2Answer::Moves(vec![white]),
            }
        }
        _ => match best(searcher, board, &remaining(1), stop) {
            Some((white, score)) if score >= 0 => Swap2Answer::Moves(vec![white]),
            Some(_) => Swap2Answer::Swap,
            None => Swap2Answer::Swap,
        },
    }
}

/// Limits for a part of the decision: `1 / share` of the time still left (a share of 1 is
/// all of it). Depth and node limits are kept as given.
struct Slice {
    start: Instant,
    limits: Limits,
    share: u32,
}

impl Slice {
    fn limits(&self) -> Limits {
        let used = self.start.elapsed();
        let part = |d: Option<Duration>| d.map(|d| d.saturating_sub(used) / self.share.max(1));
        Limits {
            soft_time: part(self.limits.soft_time),
            hard_time: part(self.limits.hard_time),
            multipv: 1,
            ..self.limits.clone()
        }
    }
}

fn best(
    searcher: &mut Searcher,
    board: &Board,
    slice: &Slice,
    stop: &AtomicBool,
) -> Option<(Point, i32)> {
    searcher
        .search(board, &slice.limits(), stop, &mut |_| {})
        .map(|r| (r.best, r.score))
}

/// Three-stone openings around the centre, Black-White-Black.
fn openings(board: &Board) -> Vec<[Point; 3]> {
    let (cx, cy) = ((board.width() / 2) as i32, (board.height() / 2) as i32);
    let at = |dx: i32, dy: i32| Point::new((cx + dx) as u8, (cy + dy) as u8);
    let mut out = Vec::new();
    for white in [(1, 0), (1, 1)] {
        for dy in -2..=2 {
            for dx in -2..=2 {
                if (dx, dy) != (0, 0) && (dx, dy) != white {
                    out.push([at(0, 0), at(white.0, white.1), at(dx, dy)]);
                }
            }
        }
    }
    out
}

fn propose_three(
    searcher: &mut Searcher,
    board: &Board,
    slice: &Slice,
    stop: &AtomicBool,
) -> Swap2Answer {
    let candidates = openings(board);
    let fallback = || {
        let mut b = board.clone();
        let mut moves = Vec::new();
        for _ in 0..3 {
            match quick_move(&b) {
                Some(p) if b.play(p).is_ok() => moves.push(p),
                _ => break,
            }
        }
        Swap2Answer::Moves(moves)
    };
    let position = |stones: &[Point; 3]| {
        let mut b = board.clone();
        for (i, &p) in stones.iter().enumerate() {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.place(c, p).ok()?;
        }
        Some(b)
    };
    // Screening: a shallow search of each, from White's side.
    let shallow = Limits {
        max_depth: Some(2),
        ..slice.limits()
    };
    let mut screened: Vec<(i32, [Point; 3])> = Vec::new();
    for stones in &candidates {
        let Some(b) = position(stones) else { continue };
        match searcher.search(&b, &shallow, stop, &mut |_| {}) {
            Some(r) if r.depth > 0 => screened.push((r.score.abs(), *stones)),
            _ => break,
        }
    }
    if screened.is_empty() {
        return fallback();
    }
    screened.sort_by_key(|&(balance, _)| balance);
    screened.truncate(FINALISTS);
    // Finals: a deeper search of the most balanced few, each with an equal share of the time.
    let mut chosen = screened[0];
    let mut best_balance = i32::MAX;
    let count = screened.len() as u32;
    for (i, &(_, stones)) in screened.iter().enumerate() {
        let Some(b) = position(&stones) else { continue };
        let share = Slice {
            start: Instant::now(),
            limits: slice.limits(),
            share: count - i as u32,
        };
        match searcher.search(&b, &share.limits(), stop, &mut |_| {}) {
            Some(r) if r.depth > 0 && r.score.abs() < best_balance => {
                best_balance = r.score.abs();
                chosen = (best_balance, stones);
            }
            _ => {}
        }
    }
    Swap2Answer::Moves(chosen.1.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Rule;

    fn limits(ms: u64) -> Limits {
        Limits {
            soft_time: Some(Duration::from_millis(ms / 2)),
            hard_time: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    #[test]
    fn proposes_three_distinct_empty_points_near_the_centre() {
        for (w, h) in [(15, 15), (20, 20), (7, 5)] {
            let b = Board::new(w, h, Rule::Freestyle).unwrap();
            let stop = AtomicBool::new(false);
            let answer = decide(&mut Searcher::new(1 << 20), &b, &limits(300), &stop);
            let Swap2Answer::Moves(moves) = answer else {
                panic!("three stones expected")
            };
            assert_eq!(moves.len(), 3);
            let mut check = b.clone();
            for p in &moves {
                assert!(check.play(*p).is_ok(), "{moves:?}");
            }
        }
    }

    #[test]
    fn stages_three_and_five_answer_swap_or_legal_moves() {
        for rule in Rule::ALL {
            let stop = AtomicBool::new(false);
            let mut b = Board::new(15, 15, rule).unwrap();
            for (x, y) in [(7, 7), (8, 7), (7, 8)] {
                b.play(Point::new(x, y)).unwrap();
            }
            match decide(&mut Searcher::new(1 << 20), &b, &limits(300), &stop) {
                Swap2Answer::Swap => {}
                Swap2Answer::Moves(m) => {
                    assert!(m.len() == 1 || m.len() == 2, "{m:?}");
                    let mut check = b.clone();
                    for p in m {
                        assert!(check.is_legal(p));
                        check.play(p).unwrap();
                    }
                }
            }
            for (x, y) in [(8, 8), (6, 6)] {
                b.play(Point::new(x, y)).unwrap();
            }
            match decide(&mut Searcher::new(1 << 20), &b, &limits(300), &stop) {
                Swap2Answer::Swap => {}
                Swap2Answer::Moves(m) => {
                    assert_eq!(m.len(), 1);
                    assert!(b.clone().is_legal(m[0]));
                }
            }
        }
    }

    #[test]
    fn a_stage_clearly_won_for_black_is_swapped() {
        // Black has an open three and White's stones are far away: taking Black is right.
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        b.place(Color::Black, Point::new(6, 7)).unwrap();
        b.place(Color::White, Point::new(0, 0)).unwrap();
        b.place(Color::Black, Point::new(7, 7)).unwrap();
        b.place(Color::White, Point::new(14, 14)).unwrap();
        b.place(Color::Black, Point::new(8, 7)).unwrap();
        let stop = AtomicBool::new(false);
        assert_eq!(
            decide(&mut Searcher::new(1 << 20), &b, &limits(400), &stop),
            Swap2Answer::Swap
        );
    }
}
