//! The balance search of opening makers (`YXBALANCEONE B`, `YXBALANCETWO B`): the move, or
//! the pair of moves (one of each side), after which the position is worth as nearly as
//! possible `B` for the side that played the last of them (B = 0: even).
//!
//! The method, on the searcher's public API. Deep values first: for one move, a multi-PV
//! search of the position gives the best six moves with their values; for a pair, a multi-PV
//! search gives the best four first moves, and a multi-PV search after each the best six
//! answers, each pair valued by its answer's line. If one of these is within [`TOLERANCE`] of
//! `B`, the closest is the answer: a plausible move (or pair) that a deep search judged. Only
//! otherwise (the best moves are all far from `B`: the side to move is well ahead) are the
//! other candidates (empty, legal, unblocked points within two of a stone; around the centre
//! on an empty board) screened by a small fixed-node search of the position each leads to;
//! for a pair, that search of the position after a first move gives the other side's answer
//! (its best move) and the pair's value (its score). The four screened closest to `B` are
//! searched again, deeper, each with an equal share of the time left, and the closest of all
//! is the answer. No answer may leave the side to move a win by a VCF or VCT (the threat
//! solvers check each deep line and finalist): a short search misses such wins. Scores are the
//! searcher's, from the side to move's point of view: a line's score at the root is the value
//! for the side that plays its first move.
//!
//! Invariants: the answer's moves are legal in turn (renju included) and not blocked; the
//! limits given (time, nodes, depth, the stop flag) bound the whole search, and a stopped
//! search answers the best found so far; `None` only when there is no candidate.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use wuzi_core::{Board, Point};
use wuzi_search::{Limits, Searcher, WIN_MIN};

use crate::defend::Solvers;

/// A deep value this close to the target is the answer, without screening the rest.
pub const TOLERANCE: i32 = 50;
/// Candidates searched again after the screening.
const FINALISTS: usize = 4;
/// The share of the time the deep multi-PV searches may use, in tenths.
const MULTIPV_TENTHS: u32 = 4;
/// Lines of those searches (answers for a pair), and first moves of a pair.
const MULTIPV_LINES: usize = 6;
const PAIR_FIRST_LINES: usize = 4;
/// The share of the time the deep searches and the screening may use, in tenths.
const SCREENING_TENTHS: u32 = 6;
/// Nodes of one screening search.
const SCREEN_NODES: u64 = 20_000;
/// VCT nodes of the threat check of a position that may be the answer (half as many VCF).
const THREAT_NODES: u64 = 200_000;

/// The balance answer: one move or a pair, and how far its value is from the target.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Balanced {
    pub moves: Vec<Point>,
    /// The value for the side that played the last move.
    pub value: i32,
}

/// Screened candidates, each with its distance from the target.
type Screened = Vec<(i32, Balanced)>;

/// Candidates for the side to move of `board`: legal, unblocked, near the stones, nearest
/// the middle of the stones first.
pub fn candidates(board: &Board, blocked: &[Point]) -> Vec<Point> {
    let mut b = board.clone();
    let points: Vec<Point> = if board.move_count() == 0 {
        let (cx, cy) = (board.width() as i32 / 2, board.height() as i32 / 2);
        board
            .empty_points()
            .into_iter()
            .filter(|p| (i32::from(p.x) - cx).abs() <= 2 && (i32::from(p.y) - cy).abs() <= 2)
            .collect()
    } else {
        let near = board.empty_near_stones(2);
        near.iter().map(|c| board.point(c)).collect()
    };
    let (sx, sy, n) = board
        .history()
        .iter()
        .fold((0i64, 0i64, 0i64), |(x, y, n), (_, p)| {
            (x + i64::from(p.x), y + i64::from(p.y), n + 1)
        });
    let centre = if n == 0 {
        (board.width() as i64 / 2, board.height() as i64 / 2)
    } else {
        (sx / n, sy / n)
    };
    let mut out: Vec<Point> = points
        .into_iter()
        .filter(|p| !blocked.contains(p) && b.is_legal(*p))
        .collect();
    out.sort_by_key(|p| {
        let (dx, dy) = (i64::from(p.x) - centre.0, i64::from(p.y) - centre.1);
        (dx * dx + dy * dy, p.y, p.x)
    });
    out
}

/// Time left from `start` within `limit` (`None`: unlimited).
fn left(start: Instant, limit: Option<Duration>) -> Option<Duration> {
    limit.map(|l| l.saturating_sub(start.elapsed()))
}

/// A search of `board` within the given share of what is left; its score for the side that
/// just played, if it completed at least one iteration.
fn value_after(
    searcher: &mut Searcher,
    board: &Board,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<i32> {
    let r = searcher.search(board, limits, stop, &mut |_| {})?;
    (r.depth > 0 || r.score.abs() >= WIN_MIN).then_some(-r.score)
}

/// Whether the side to move of the position `moves` lead to from `board` wins by a threat
/// sequence (its VCF, else its VCT): a short search can miss a VCT, and a position it judged
/// even is then lost for the side that just played.
fn lost_to_threats(board: &Board, moves: &[Point], stop: &AtomicBool) -> bool {
    let mut b = board.clone();
    for &p in moves {
        if b.play(p).is_err() {
            return true;
        }
    }
    let to_move = b.side_to_move();
    Solvers::new(None, stop, THREAT_NODES / 2, THREAT_NODES)
        .threat(&mut b, to_move)
        .is_some()
}

/// Limits for one search: `share` of the time left (soft and hard), at most `nodes`, at most
/// `depth`.
fn slice(
    base: &Limits,
    start: Instant,
    share: u32,
    nodes: Option<u64>,
    depth: Option<u32>,
) -> Limits {
    let part = |d: Option<Duration>| left(start, d).map(|d| d / share.max(1));
    let max_nodes = match (base.max_nodes, nodes) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let max_depth = match (base.max_depth, depth) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    Limits {
        soft_time: part(base.soft_time),
        hard_time: part(base.hard_time),
        max_nodes,
        max_depth,
        multipv: 1,
        blocked: Vec::new(),
        draw: base.draw,
        analysis: base.analysis,
    }
}

fn out_of_time(start: Instant, base: &Limits, tenths: u32, stop: &AtomicBool) -> bool {
    stop.load(std::sync::atomic::Ordering::Relaxed)
        || base
            .hard_time
            .is_some_and(|t| start.elapsed() * 10 >= t * tenths)
}

/// Screens `sequences` (each a list of moves from `board`) and then searches the closest
/// again; the closest to `target` after that, or of `known` (values from a deep search).
#[allow(clippy::too_many_arguments)]
fn pick(
    searcher: &mut Searcher,
    board: &Board,
    sequences: Vec<Vec<Point>>,
    known: Vec<Balanced>,
    target: i32,
    base: &Limits,
    start: Instant,
    stop: &AtomicBool,
) -> Option<Balanced> {
    let play = |moves: &[Point]| -> Option<Board> {
        let mut b = board.clone();
        for &p in moves {
            if !b.is_legal(p) || b.play(p).is_err() {
                return None;
            }
        }
        Some(b)
    };
    let mut screened: Screened = Vec::new();
    for moves in sequences {
        if known.iter().any(|k| k.moves == moves) {
            continue;
        }
        if (!screened.is_empty() || !known.is_empty())
            && out_of_time(start, base, SCREENING_TENTHS, stop)
        {
            break;
        }
        let Some(b) = play(&moves) else { continue };
        let limits = slice(base, start, 20, Some(SCREEN_NODES), None);
        if let Some(value) = value_after(searcher, &b, &limits, stop) {
            screened.push(((value - target).abs(), Balanced { moves, value }));
        }
    }
    let (screened, mut best, mut best_distance) = finalists(board, &known, screened, target, stop)?;
    let count = screened.len() as u32;
    for (i, (screen_distance, candidate)) in screened.iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let Some(b) = play(&candidate.moves) else {
            continue;
        };
        let limits = slice(base, start, count - i as u32, None, None);
        let (distance, value) = match value_after(searcher, &b, &limits, stop) {
            Some(value) => ((value - target).abs(), value),
            None => (*screen_distance, candidate.value),
        };
        if distance < best_distance {
            best_distance = distance;
            best = Balanced {
                moves: candidate.moves.clone(),
                value,
            };
        }
    }
    Some(best)
}

/// The finalists of a screening (`screened`: distance to `target`, candidate): the
/// [`FINALISTS`] closest that leave the side to move no win by threats; and the answer to
/// start from, with its distance: the closest of the deep lines `known`, else the closest
/// finalist with distance `i32::MAX` (a screening value is shallow: any deeper value of a
/// finalist replaces it). `None` when there is neither.
fn finalists(
    board: &Board,
    known: &[Balanced],
    mut screened: Screened,
    target: i32,
    stop: &AtomicBool,
) -> Option<(Screened, Balanced, i32)> {
    screened.sort_by_key(|(distance, _)| *distance);
    screened.truncate(2 * FINALISTS);
    screened.retain(|(_, c)| !lost_to_threats(board, &c.moves, stop));
    screened.truncate(FINALISTS);
    let best = known
        .iter()
        .min_by_key(|k| (k.value - target).abs())
        .or(screened.first().map(|(_, b)| b))
        .cloned()?;
    let distance = if known.is_empty() {
        i32::MAX
    } else {
        (best.value - target).abs()
    };
    Some((screened, best, distance))
}

/// A multi-PV search of `board` (reached from the root by `prefix`) within `share` of the
/// deep searches' time: its lines, each as the moves from the root and its value for the side
/// that played the last of them.
#[allow(clippy::too_many_arguments)]
fn deep_lines(
    searcher: &mut Searcher,
    board: &Board,
    prefix: &[Point],
    lines: usize,
    blocked: &[Point],
    share: u32,
    base: &Limits,
    start: Instant,
    stop: &AtomicBool,
) -> Vec<Balanced> {
    let budget = |d: Option<Duration>| {
        d.map(|d| {
            let deep = d * MULTIPV_TENTHS / 10;
            deep.saturating_sub(start.elapsed()) / share.max(1)
        })
    };
    let limits = Limits {
        soft_time: budget(base.soft_time),
        hard_time: budget(base.hard_time),
        multipv: lines.max(1),
        blocked: blocked.to_vec(),
        ..slice(base, start, 1, None, None)
    };
    match searcher.search(board, &limits, stop, &mut |_| {}) {
        Some(r) if r.depth > 0 => {
            r.pv.iter()
                .filter(|l| l.depth > 0)
                .filter_map(|l| {
                    let mut moves = prefix.to_vec();
                    moves.push(*l.pv.first()?);
                    Some(Balanced {
                        moves,
                        value: l.score,
                    })
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The closest of `known` to `target`, if within [`TOLERANCE`].
fn close_enough(known: &[Balanced], target: i32) -> Option<Balanced> {
    known
        .iter()
        .min_by_key(|k| (k.value - target).abs())
        .filter(|k| (k.value - target).abs() <= TOLERANCE)
        .cloned()
}

/// `YXBALANCEONE target`: the move of the side to move after which the position is worth
/// about `target` for it.
pub fn balance_one(
    searcher: &mut Searcher,
    board: &Board,
    target: i32,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Balanced> {
    let start = Instant::now();
    let candidates = candidates(board, &limits.blocked);
    let lines = MULTIPV_LINES.min(candidates.len());
    let mut known = deep_lines(
        searcher,
        board,
        &[],
        lines,
        &limits.blocked,
        1,
        limits,
        start,
        stop,
    );
    known.retain(|k| !lost_to_threats(board, &k.moves, stop));
    if let Some(answer) = close_enough(&known, target) {
        return Some(answer);
    }
    let sequences = candidates.into_iter().map(|p| vec![p]).collect();
    pick(
        searcher, board, sequences, known, target, limits, start, stop,
    )
}

/// `YXBALANCETWO target`: a move of the side to move and an answer of the other side after
/// which the position is worth about `target` for the side that played the answer.
pub fn balance_two(
    searcher: &mut Searcher,
    board: &Board,
    target: i32,
    limits: &Limits,
    stop: &AtomicBool,
) -> Option<Balanced> {
    let start = Instant::now();
    let blocked = &limits.blocked;
    // Deep values: the best first moves, and the best answers to each.
    let firsts = deep_lines(
        searcher,
        board,
        &[],
        PAIR_FIRST_LINES.min(candidates(board, blocked).len()),
        blocked,
        PAIR_FIRST_LINES as u32 + 1,
        limits,
        start,
        stop,
    );
    let mut known = Vec::new();
    for (i, first) in firsts.iter().enumerate() {
        let mut after = board.clone();
        if after.play(first.moves[0]).is_err() {
            continue;
        }
        let answers = MULTIPV_LINES.min(candidates(&after, blocked).len());
        if answers == 0 {
            continue;
        }
        known.extend(deep_lines(
            searcher,
            &after,
            &first.moves,
            answers,
            blocked,
            (firsts.len() - i) as u32,
            limits,
            start,
            stop,
        ));
    }
    known.retain(|k| !lost_to_threats(board, &k.moves, stop));
    if let Some(answer) = close_enough(&known, target) {
        return Some(answer);
    }
    pick_pair(searcher, board, known, target, limits, start, stop)
}

/// The pair search when no deep pair is close enough: every first move is screened by a
/// small search of the position it leads to, whose best move is the other side's answer and
/// whose score that answer's value; the first moves whose pairs come closest to `target` are
/// searched again, deeper (answer and value again), and the closest pair of all is the
/// answer. So the second move is always the answer the search prefers, and the first move is
/// the one that leaves the other side, answering well, nearest the target.
fn pick_pair(
    searcher: &mut Searcher,
    board: &Board,
    known: Vec<Balanced>,
    target: i32,
    base: &Limits,
    start: Instant,
    stop: &AtomicBool,
) -> Option<Balanced> {
    let blocked = &base.blocked;
    // The answer to `first` and its value, from a search within `limits`.
    let answer = |searcher: &mut Searcher, first: Point, limits: &Limits| -> Option<Balanced> {
        let mut after = board.clone();
        after.play(first).ok()?;
        let limits = Limits {
            blocked: blocked.clone(),
            ..limits.clone()
        };
        let r = searcher.search(&after, &limits, stop, &mut |_| {})?;
        (r.depth > 0 || r.score.abs() >= WIN_MIN).then(|| Balanced {
            moves: vec![first, r.best],
            value: r.score,
        })
    };
    let mut screened: Screened = Vec::new();
    for first in candidates(board, blocked) {
        if (!screened.is_empty() || !known.is_empty())
            && out_of_time(start, base, SCREENING_TENTHS, stop)
        {
            break;
        }
        let limits = slice(base, start, 20, Some(SCREEN_NODES), None);
        if let Some(pair) = answer(searcher, first, &limits) {
            screened.push(((pair.value - target).abs(), pair));
        }
    }
    let (screened, mut best, mut best_distance) = finalists(board, &known, screened, target, stop)?;
    let count = screened.len() as u32;
    for (i, (_, candidate)) in screened.iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            break;
        }
        let limits = slice(base, start, count - i as u32, None, None);
        let pair = match answer(searcher, candidate.moves[0], &limits) {
            Some(pair) if !lost_to_threats(board, &pair.moves, stop) => pair,
            _ => candidate.clone(),
        };
        let distance = (pair.value - target).abs();
        if distance < best_distance {
            best_distance = distance;
            best = pair;
        }
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Rule;

    fn limits(ms: u64) -> Limits {
        Limits {
            soft_time: Some(Duration::from_millis(ms)),
            hard_time: Some(Duration::from_millis(ms)),
            ..Limits::default()
        }
    }

    fn board(moves: &[(u8, u8)]) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in moves {
            b.play(Point::new(x, y)).unwrap();
        }
        b
    }

    #[test]
    fn one_move_is_legal_and_unblocked() {
        let b = board(&[(7, 7), (8, 8), (8, 6)]);
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1 << 22);
        let blocked = vec![Point::new(9, 5), Point::new(6, 8), Point::new(9, 7)];
        let lim = Limits {
            blocked: blocked.clone(),
            ..limits(1000)
        };
        let r = balance_one(&mut s, &b, 0, &lim, &stop).expect("an answer");
        assert_eq!(r.moves.len(), 1);
        assert!(!blocked.contains(&r.moves[0]), "{r:?}");
        assert!(b.clone().is_legal(r.moves[0]));
    }

    #[test]
    fn a_target_below_the_best_move_gets_a_worse_move() {
        // White to move, already behind; asked for a position worth much less to it than its
        // best move gives, the balance answers a clearly worse move (each judged by a search
        // of its own).
        let b = board(&[(7, 7), (8, 8), (8, 6)]);
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1 << 22);
        let best = s
            .search(&b, &limits(600), &stop, &mut |_| {})
            .expect("best");
        let r = balance_one(&mut s, &b, best.score - 1500, &limits(1500), &stop).expect("answer");
        let value_after = |s: &mut Searcher, p: Point| {
            let mut after = b.clone();
            after.play(p).unwrap();
            -s.search(&after, &limits(600), &stop, &mut |_| {})
                .expect("reply")
                .score
        };
        let (balanced, best_value) = (
            value_after(&mut s, r.moves[0]),
            value_after(&mut s, best.best),
        );
        assert!(
            balanced + 100 < best_value,
            "{r:?}: {balanced} vs the best move's {best_value}"
        );
    }

    #[test]
    fn two_moves_are_one_of_each_side_and_legal_in_turn() {
        for rule in [Rule::Freestyle, Rule::Renju] {
            let mut b = Board::new(15, 15, rule).unwrap();
            b.play(Point::new(7, 7)).unwrap();
            let stop = AtomicBool::new(false);
            let mut s = Searcher::new(1 << 22);
            let r = balance_two(&mut s, &b, 0, &limits(1500), &stop).expect("an answer");
            assert_eq!(r.moves.len(), 2);
            let mut check = b.clone();
            for p in &r.moves {
                assert!(check.is_legal(*p), "{r:?}");
                check.play(*p).unwrap();
            }
        }
    }

    #[test]
    fn a_stopped_search_still_answers_and_no_candidate_is_none() {
        let b = board(&[(7, 7)]);
        let stop = AtomicBool::new(true);
        let mut s = Searcher::new(1 << 20);
        // Stopped before anything: every screening search comes back without an iteration.
        let r = balance_one(&mut s, &b, 0, &limits(1000), &stop);
        assert!(r.is_none() || r.is_some_and(|r| r.moves.len() == 1));
        let all: Vec<Point> = b.empty_points();
        let blocked = Limits {
            blocked: all,
            ..limits(200)
        };
        let go = AtomicBool::new(false);
        assert_eq!(balance_one(&mut s, &b, 0, &blocked, &go), None);
    }
}
