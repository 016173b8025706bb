//! Helpers of the solver tests (the workspace-wide ones, the tactics cases among them, come
//! from `wuzi-testkit`): an independent checker of winning lines that uses only the core's
//! public board API.
#![allow(dead_code)]

use wuzi_core::notation::Names;
use wuzi_core::{Board, Color, Point};

/// What kind of forcing line the checker accepts.
#[derive(Clone, Copy, Debug)]
pub enum LineKind {
    /// Every attacker move but the five is a four.
    Vcf,
    /// Every attacker move but the five is a four or a threat: a move after which, if the
    /// defender passed, the attacker would have a VCF of at most this many fours.
    Vct { threat_depth: u32 },
}

fn is_forbidden_for(board: &mut Board, color: Color, p: Point) -> bool {
    color == Color::Black && board.forbidden_kind(p).is_some()
}

/// Plays `line` out on a copy of `board` and checks that it is a forced win of `attacker`
/// under the board's rule, move by move:
/// - every move is on an empty point and not forbidden for the side playing it;
/// - an attacker move either makes the winning five (then the line must end), or is a four
///   (the attacker then has a winning five point), or, for VCT, a threat; if the defender has
///   a five point the attacker must take it (or win at once);
/// - a defender move answers a four on one of the attacker's five points; the defender never
///   has a five point of its own when it is to move (it would win);
/// - the line ends with the attacker's five, or (renju, White) with a four whose every five
///   point is forbidden for Black.
///
/// Returns the number of attacker moves before the five (the line's depth).
pub fn check_line(
    board: &Board,
    attacker: Color,
    line: &[Point],
    kind: LineKind,
) -> Result<u32, String> {
    let mut b = board.clone();
    let defender = attacker.opponent();
    let names = Names::Bottom {
        height: board.height(),
    };
    let name = |p: Point| p.name_in(names);
    let mut depth = 0;
    for (i, &p) in line.iter().enumerate() {
        let last = i + 1 == line.len();
        if !b.is_empty_at(p) {
            return Err(format!("move {} ({}) is on an occupied point", i, name(p)));
        }
        if i % 2 == 0 {
            let own_fives = b.five_points(attacker);
            let their_fives = b.five_points(defender);
            if !own_fives.contains(&p) && !their_fives.is_empty() && !their_fives.contains(&p) {
                return Err(format!(
                    "attacker move {} ignores the defender's five",
                    name(p)
                ));
            }
            if is_forbidden_for(&mut b, attacker, p) {
                return Err(format!("attacker move {} is forbidden", name(p)));
            }
            b.place(attacker, p).map_err(|e| e.to_string())?;
            let cell = b.cell(p).expect("on board");
            if b.is_winning_stone(cell) {
                return if last {
                    Ok(depth)
                } else {
                    Err(format!("line goes on after the five {}", name(p)))
                };
            }
            depth += 1;
            let fives = b.five_points(attacker);
            if fives.is_empty() {
                match kind {
                    LineKind::Vcf => {
                        return Err(format!("attacker move {} is not a four", name(p)))
                    }
                    LineKind::Vct { threat_depth } => {
                        if !naive_vcf(&mut b, attacker, threat_depth) {
                            return Err(format!(
                                "attacker move {} is neither a four nor a threat",
                                name(p)
                            ));
                        }
                    }
                }
            }
            if last {
                let all_forbidden = !fives.is_empty()
                    && fives.iter().all(|&f| is_forbidden_for(&mut b, defender, f));
                return if all_forbidden {
                    Ok(depth)
                } else {
                    Err(format!("line ends with {} without a five", name(p)))
                };
            }
        } else {
            if !b.five_points(defender).is_empty() {
                return Err(format!(
                    "the defender could make five instead of {}",
                    name(p)
                ));
            }
            let fives = b.five_points(attacker);
            if !fives.is_empty() && !fives.contains(&p) {
                return Err(format!("defender move {} does not stop the four", name(p)));
            }
            if is_forbidden_for(&mut b, defender, p) {
                return Err(format!("defender move {} is forbidden", name(p)));
            }
            b.place(defender, p).map_err(|e| e.to_string())?;
        }
    }
    Err("the line ends without a five".to_string())
}

/// A plain VCF check by brute force (every empty point is tried), for small depths: whether
/// `attacker`, moving next, wins with at most `depth` fours.
pub fn naive_vcf(board: &mut Board, attacker: Color, depth: u32) -> bool {
    let defender = attacker.opponent();
    if !board.five_points(attacker).is_empty() {
        return true;
    }
    let theirs = board.five_points(defender);
    if theirs.len() > 1 || depth == 0 {
        return false;
    }
    let candidates = if theirs.is_empty() {
        board.empty_points()
    } else {
        theirs
    };
    for p in candidates {
        if is_forbidden_for(board, attacker, p) {
            continue;
        }
        board.place(attacker, p).expect("empty point");
        let fives = board.five_points(attacker);
        let mut wins = false;
        if !fives.is_empty() {
            let answers: Vec<Point> = fives
                .iter()
                .copied()
                .filter(|&f| !is_forbidden_for(board, defender, f))
                .collect();
            wins = answers.iter().all(|&f| {
                board.place(defender, f).expect("empty point");
                let w = naive_vcf(board, attacker, depth - 1);
                board.undo().expect("undo");
                w
            });
        }
        board.undo().expect("undo");
        if wins {
            return true;
        }
    }
    false
}
