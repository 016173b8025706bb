//! Threat-space solving of one position: the logic of `wuzi solve`, callable without the
//! command line. [`read_position`] turns a move list or a diagram into a position; [`solve`]
//! runs the VCF solver, or the VCT solver (proof numbers, or iterative deepening for a shortest
//! line), under a [`SolveRequest`]'s limits and reports the verdict; [`line_holds`] replays a
//! winning line independently of the solvers.
//!
//! Notation (the project's, see `wuzi_core::notation`): a point is a column letter from `a` at
//! the left and a row number from 1 at the **top** (Gomocup coordinates plus one), so `h8` is
//! the centre of 15x15; a move list runs names together or separates them with spaces or
//! commas (`h8i9j10`, `"h8 i9 j10"`). Moves alternate from Black. A diagram is one board row a
//! line, top row first, `x` Black, `o` White, `.` empty (spaces ignored); the side to move is
//! then Black if both have as many stones, else White.
//!
//! Nothing here panics on user input: every bad input is a [`SolveError`].

use std::fmt;
use std::time::{Duration, Instant};
use wuzi_core::notation::parse_moves;
use wuzi_core::{Board, Color, Point, Rule};

use crate::threat::SolveResult;
use crate::vcf::{VcfSolver, UNLIMITED};
use crate::vct::{VctLimits, VctSolver};

/// Which threat-space search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveKind {
    /// Continuous fours.
    Vcf,
    /// Fours and threats. `threat_depth`: the longest VCF (in fours) that makes a move a
    /// threat; `shortest`: iterative deepening (a shortest line) instead of proof numbers.
    Vct { threat_depth: u32, shortest: bool },
}

/// What to solve for and within which limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveRequest {
    pub kind: SolveKind,
    /// Who attacks (`None`: the side to move).
    pub attacker: Option<Color>,
    /// The most attacker moves before the final five (`None`: unlimited for VCF, 10 for VCT).
    pub depth: Option<u32>,
    /// Give up after this long.
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    pub nodes: Option<u64>,
}

impl SolveRequest {
    /// A request of `kind` with no limits but the default depth.
    pub fn new(kind: SolveKind) -> SolveRequest {
        SolveRequest {
            kind,
            attacker: None,
            depth: None,
            time: None,
            nodes: None,
        }
    }
}

/// Why the input could not be turned into a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    NoPosition,
    File(String, String),
    Notation(String),
    Board(String),
    Diagram(String),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NoPosition => write!(f, "give a move list or --file"),
            SolveError::File(path, e) => write!(f, "cannot read {path}: {e}"),
            SolveError::Notation(e) => write!(f, "{e}"),
            SolveError::Board(e) => write!(f, "{e}"),
            SolveError::Diagram(e) => write!(f, "bad diagram: {e}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// A position read from the arguments, with the side to move.
#[derive(Debug, Clone)]
pub struct Position {
    pub board: Board,
    pub to_move: Color,
}

/// Reads a position from `text`: a diagram when it looks like one (then it gives its own
/// size), else a move list on a `width` x `height` board.
pub fn read_position(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Position, SolveError> {
    if looks_like_diagram(text) {
        diagram(text, rule)
    } else {
        from_moves(text, width, height, rule)
    }
}

pub fn from_moves(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Position, SolveError> {
    let mut board =
        Board::new(width, height, rule).map_err(|e| SolveError::Board(e.to_string()))?;
    let moves = parse_moves(text).map_err(|e| SolveError::Notation(e.to_string()))?;
    let mut color = Color::Black;
    for p in moves {
        board
            .place(color, p)
            .map_err(|e| SolveError::Board(format!("move {}: {e}", p.name())))?;
        color = color.opponent();
    }
    Ok(Position {
        board,
        to_move: color,
    })
}

/// Rows of a diagram: its non-empty lines with spaces removed.
fn diagram_rows(text: &str) -> Vec<Vec<char>> {
    text.lines()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<Vec<char>>()
        })
        .filter(|r| !r.is_empty())
        .collect()
}

fn looks_like_diagram(text: &str) -> bool {
    let rows = diagram_rows(text);
    rows.len() >= 2
        && rows.iter().all(|r| {
            r.iter()
                .all(|c| matches!(c, 'x' | 'X' | 'o' | 'O' | '.' | '-' | '_'))
        })
}

fn diagram(text: &str, rule: Rule) -> Result<Position, SolveError> {
    let rows = diagram_rows(text);
    let height = rows.len();
    let width = rows.first().map_or(0, |r| r.len());
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.len() != width) {
        return Err(SolveError::Diagram(format!(
            "row {} has {} cells, the first has {width}",
            i + 1,
            r.len()
        )));
    }
    let mut board =
        Board::new(width, height, rule).map_err(|e| SolveError::Board(e.to_string()))?;
    let mut counts = [0usize; 2];
    for (y, row) in rows.iter().enumerate() {
        for (x, &ch) in row.iter().enumerate() {
            let color = match ch {
                'x' | 'X' => Color::Black,
                'o' | 'O' => Color::White,
                _ => continue,
            };
            counts[color.index()] += 1;
            board
                .place(color, Point::new(x as u8, y as u8))
                .map_err(|e| SolveError::Board(e.to_string()))?;
        }
    }
    let to_move = if counts[0] > counts[1] {
        Color::White
    } else {
        Color::Black
    };
    Ok(Position { board, to_move })
}

/// What one solve found.
#[derive(Debug, Clone)]
pub struct Report {
    pub attacker: Color,
    pub vct: bool,
    pub depth: u32,
    pub result: SolveResult,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Runs the solver `request` asks for on `pos`.
pub fn solve(request: &SolveRequest, pos: &Position) -> Report {
    let attacker = request.attacker.unwrap_or(pos.to_move);
    let mut board = pos.board.clone();
    let deadline = request.time.map(|t| Instant::now() + t);
    let node_limit = request.nodes.unwrap_or(u64::MAX);
    let start = Instant::now();
    let (depth, outcome) = match request.kind {
        SolveKind::Vct {
            threat_depth,
            shortest,
        } => {
            let depth = request.depth.unwrap_or(10);
            let limits = VctLimits {
                max_depth: depth,
                threat_depth,
                node_limit,
                deadline,
            };
            let mut solver = VctSolver::new();
            let outcome = if shortest {
                solver.solve(&mut board, attacker, &limits)
            } else {
                solver.solve_pn(&mut board, attacker, &limits)
            };
            (depth, outcome)
        }
        SolveKind::Vcf => {
            let depth = request.depth.unwrap_or(UNLIMITED);
            let mut solver = VcfSolver::new();
            solver.set_deadline(deadline);
            (depth, solver.solve(&mut board, attacker, depth, node_limit))
        }
    };
    Report {
        attacker,
        vct: matches!(request.kind, SolveKind::Vct { .. }),
        depth,
        result: outcome.result,
        nodes: outcome.nodes,
        elapsed: start.elapsed(),
    }
}

/// Whether `line` (attacker first, alternating) played on `board` ends in a win for
/// `attacker`: a five, or (renju) a four whose every five point is forbidden to Black.
/// Independent of the solvers: it uses only the board's public rules.
pub fn line_holds(board: &Board, attacker: Color, line: &[Point]) -> bool {
    let mut b = board.clone();
    let mut color = attacker;
    for &p in line {
        if b.place(color, p).is_err() {
            return false;
        }
        color = color.opponent();
    }
    let Some(last) = b.last_cell() else {
        return false;
    };
    if b.is_winning_stone(last) {
        return true;
    }
    let fives = b.five_points(attacker);
    b.rule() == Rule::Renju
        && attacker == Color::White
        && !fives.is_empty()
        && fives.iter().all(|&f| b.is_forbidden(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_are_read() {
        let text = "x x x x .\n. . . . .\no o o . .\n. . . . .\n. . . . .\n";
        assert!(looks_like_diagram(text));
        let pos = read_position(text, 15, 15, Rule::Freestyle).expect("diagram");
        assert_eq!((pos.board.width(), pos.board.height()), (5, 5));
        assert_eq!(pos.to_move, Color::White);
        assert!(diagram("x x\nx x x\n", Rule::Freestyle).is_err());
        assert!(!looks_like_diagram("h8i9j10"));
    }

    #[test]
    fn a_four_three_is_solved_and_its_line_holds() {
        // Black h8 i8 j8 with White g8 closing the left end, Black k6 and k7 above k8: k8 is
        // a four-three. White's other stones are far away.
        let pos = read_position("h8a1i8a15j8o1k6o15k7g8", 15, 15, Rule::Standard).unwrap();
        let report = solve(&SolveRequest::new(SolveKind::Vcf), &pos);
        let SolveResult::Win(line) = &report.result else {
            panic!("expected a win, got {:?}", report.result);
        };
        let points: Vec<Point> = line.iter().map(|&c| pos.board.point(c)).collect();
        assert!(line_holds(&pos.board, Color::Black, &points));
        // A line cut short of its five does not hold.
        assert!(!line_holds(
            &pos.board,
            Color::Black,
            &points[..points.len() - 1]
        ));
    }
}
