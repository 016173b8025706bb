//! Helpers of the solver tests (the workspace-wide ones come from `wuzi-testkit`): the quintet
//! cases, point names, and an independent
//! checker of winning lines that uses only the core's public board API.
#![allow(dead_code)]

use wuzi_core::{Board, Color, Point, Rule};

pub use wuzi_testkit::data::data as testdata;
pub use wuzi_testkit::position::board_from_rows;

/// A point like `J12` (column letter from A, row number from 1 at the bottom).
pub fn parse_point(s: &str, height: usize) -> Point {
    let col = s.as_bytes()[0].to_ascii_uppercase() - b'A';
    let row: usize = s[1..].parse().expect("row number");
    Point::new(col, (height - row) as u8)
}

pub fn point_name(p: Point, height: usize) -> String {
    format!("{}{}", (b'A' + p.x) as char, height - p.y as usize)
}

/// One case of `tactics/vcf-vct-quintet.jsonl`.
pub struct Case {
    pub index: usize,
    pub test: String,
    pub bench_only: bool,
    pub solver: String,
    pub max_depth: u32,
    pub threshold: u32,
    pub attacker: Color,
    pub board: Board,
    /// `None` for `NONE`.
    pub expected: Option<Vec<Point>>,
}

impl Case {
    pub fn is_vcf(&self) -> bool {
        self.solver.starts_with("VCF")
    }

    pub fn name(&self) -> String {
        format!(
            "#{} {} {} depth {} threshold {}",
            self.index, self.test, self.solver, self.max_depth, self.threshold
        )
    }
}

pub fn load_cases() -> Vec<Case> {
    let path = testdata("tactics/vcf-vct-quintet.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(index, line)| {
            let v: serde_json::Value = serde_json::from_str(line).expect("json line");
            let rows: Vec<&str> = v["board_rows_top_down"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| r.as_str().expect("row"))
                .collect();
            // The quintet diagrams: `o` is Black, `x` is White.
            let board = board_from_rows(&rows, Rule::Renju, 'o', 'x');
            let height = board.height();
            let expected = match &v["expected"] {
                serde_json::Value::String(s) if s == "NONE" => None,
                serde_json::Value::Array(a) => Some(
                    a.iter()
                        .map(|p| parse_point(p.as_str().expect("point"), height))
                        .collect(),
                ),
                other => panic!("unexpected `expected`: {other}"),
            };
            Case {
                index,
                test: v["test"].as_str().expect("test").to_string(),
                bench_only: v["bench_only"].as_bool().unwrap_or(false),
                solver: v["solver"].as_str().expect("solver").to_string(),
                max_depth: v["max_depth"].as_u64().expect("max_depth") as u32,
                threshold: v["threshold"].as_u64().unwrap_or(0) as u32,
                attacker: match v["attacker"].as_str() {
                    Some("Black") => Color::Black,
                    Some("White") => Color::White,
                    other => panic!("unexpected attacker {other:?}"),
                },
                board,
                expected,
            }
        })
        .collect()
}

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
    let name = |p: Point| point_name(p, board.height());
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
