//! `wuzi solve`: proves or disproves a forced win (VCF or VCT) in a position given as a move
//! list or a file, and prints the verdict, the winning line, the nodes and the time.
//!
//! Notation (the project's, see `wuzi_core::notation`): a point is a column letter from `a` at
//! the left and a row number from 1 at the **top** (Gomocup coordinates plus one), so `h8` is
//! the centre of 15x15; a move list runs names together or separates them with spaces or
//! commas (`h8i9j10`, `"h8 i9 j10"`). Moves alternate from Black.
//!
//! Exit status of [`run`]: 0 when a win was found, 1 when none was (proved absent or budget
//! spent), 2 for bad input. Nothing here panics on user input.

use clap::{Args, ValueEnum};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use wuzi_core::notation::{format_moves, parse_moves};
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_search::threat::SolveResult;
use wuzi_search::vcf::{VcfSolver, UNLIMITED};
use wuzi_search::vct::{VctLimits, VctSolver};

/// The arguments of `wuzi solve`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Points are a column letter from `a` at the left and a row number \
from 1 at the top (h8 is the centre of 15x15). A position file holds either a move list or \
a diagram: one board row a line, top row first, `x` Black, `o` White, `.` empty (spaces \
ignored); the side to move is then Black if both have as many stones, else White."
)]
pub struct SolveArgs {
    /// The position as moves alternating from Black, e.g. h8i9j10 or "h8 i9 j10".
    #[arg(value_name = "MOVES", conflicts_with = "file")]
    pub moves: Option<String>,
    /// Read the position from FILE (a move list or a diagram) instead.
    #[arg(long, short = 'f', value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The rule: freestyle, standard, renju, caro or caro-exact (or a Gomocup rule code).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board size (square boards); a diagram gives its own size.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Board width (overrides --size).
    #[arg(long)]
    pub width: Option<usize>,
    /// Board height (overrides --size).
    #[arg(long)]
    pub height: Option<usize>,
    /// Search a VCF: continuous fours (the default).
    #[arg(long, conflicts_with = "vct")]
    pub vcf: bool,
    /// Search a VCT: fours and threats (open threes and the like).
    #[arg(long)]
    pub vct: bool,
    /// The most attacker moves before the final five (default: unlimited for VCF, 10 for VCT).
    #[arg(long)]
    pub depth: Option<u32>,
    /// VCT: the longest VCF (in fours) that makes a move a threat (1: open threes and the
    /// like; 2 adds moves preparing a four-three; ...).
    #[arg(long, default_value_t = 2)]
    pub threat_depth: u32,
    /// VCT: find a shortest win (iterative-deepening depth-first search) instead of using
    /// proof numbers (usually much faster on long lines, but the line may be longer).
    #[arg(long)]
    pub shortest: bool,
    /// Give up after this many milliseconds.
    #[arg(long, value_name = "MS")]
    pub time_ms: Option<u64>,
    /// Give up after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Who attacks (default: the side to move).
    #[arg(long, value_enum)]
    pub attacker: Option<Side>,
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Black,
    White,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
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

/// Builds the position the arguments describe.
pub fn position(args: &SolveArgs) -> Result<Position, SolveError> {
    let width = args.width.unwrap_or(args.size);
    let height = args.height.unwrap_or(args.size);
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .map_err(|e| SolveError::File(path.display().to_string(), e.to_string()))?;
        if looks_like_diagram(&text) {
            return diagram(&text, args.rule);
        }
        return from_moves(&text, width, height, args.rule);
    }
    match &args.moves {
        Some(moves) => from_moves(moves, width, height, args.rule),
        None => Err(SolveError::NoPosition),
    }
}

fn from_moves(text: &str, width: usize, height: usize, rule: Rule) -> Result<Position, SolveError> {
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

/// Runs the solver the arguments ask for on `pos`.
pub fn solve(args: &SolveArgs, pos: &Position) -> Report {
    let attacker = args.attacker.map_or(pos.to_move, Color::from);
    let mut board = pos.board.clone();
    let deadline = args
        .time_ms
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let node_limit = args.nodes.unwrap_or(u64::MAX);
    let start = Instant::now();
    let (depth, outcome) = if args.vct {
        let depth = args.depth.unwrap_or(10);
        let limits = VctLimits {
            max_depth: depth,
            threat_depth: args.threat_depth,
            node_limit,
            deadline,
        };
        let mut solver = VctSolver::new();
        let outcome = if args.shortest {
            solver.solve(&mut board, attacker, &limits)
        } else {
            solver.solve_pn(&mut board, attacker, &limits)
        };
        (depth, outcome)
    } else {
        let depth = args.depth.unwrap_or(UNLIMITED);
        let mut solver = VcfSolver::new();
        solver.set_deadline(deadline);
        (depth, solver.solve(&mut board, attacker, depth, node_limit))
    };
    Report {
        attacker,
        vct: args.vct,
        depth,
        result: outcome.result,
        nodes: outcome.nodes,
        elapsed: start.elapsed(),
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Plays a winning line out: every move on an empty point, and the last one a five (or, in
/// renju, a White four that Black cannot legally stop). A guard against printing nonsense.
fn line_holds(board: &Board, attacker: Color, line: &[Point]) -> bool {
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

/// `wuzi solve`: prints the verdict, the line, nodes and time; returns the exit status.
pub fn run(args: &SolveArgs) -> i32 {
    let pos = match position(args) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("wuzi solve: {e}");
            return 2;
        }
    };
    let report = solve(args, &pos);
    let kind = if report.vct { "VCT" } else { "VCF" };
    let depth = if report.depth >= UNLIMITED {
        "unlimited".to_string()
    } else {
        report.depth.to_string()
    };
    println!(
        "{kind} for {} ({} {}x{}, {} to move, depth {depth}{})",
        color_name(report.attacker),
        pos.board.rule(),
        pos.board.width(),
        pos.board.height(),
        color_name(pos.to_move),
        if report.vct {
            format!(", threat depth {}", args.threat_depth)
        } else {
            String::new()
        }
    );
    let status = match &report.result {
        SolveResult::Win(line) => {
            let points: Vec<Point> = line.iter().map(|&c| pos.board.point(c)).collect();
            let attacker_moves = points.len().div_ceil(2);
            println!("verdict: {} wins", color_name(report.attacker));
            println!("line: {}", format_moves(&points));
            println!(
                "      ({} plies, {attacker_moves} attacker moves; attacker first)",
                points.len()
            );
            if !line_holds(&pos.board, report.attacker, &points) {
                eprintln!("wuzi solve: internal error: the line does not play out to a win");
                return 2;
            }
            0
        }
        SolveResult::NoWin => {
            println!("verdict: no {kind} within depth {depth}");
            1
        }
        SolveResult::Unknown => {
            println!("verdict: unknown (the node or time budget ran out)");
            1
        }
    };
    println!("nodes: {}", report.nodes);
    println!("time: {:.1} ms", report.elapsed.as_secs_f64() * 1e3);
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SolveArgs,
    }

    fn args(list: &[&str]) -> SolveArgs {
        let mut all = vec!["solve"];
        all.extend_from_slice(list);
        Cli::try_parse_from(all).expect("arguments").args
    }

    #[test]
    fn four_three_is_found_from_a_move_list() {
        // Black h8 i8 j8 (row 8 from the top) with White g8 closing the left end, Black k6
        // and k7 above k8: k8 is a four-three. White's other stones are far away.
        let a = args(&["h8a1i8a15j8o1k6o15k7g8", "--rule", "standard"]);
        let pos = position(&a).expect("position");
        assert_eq!(pos.to_move, Color::Black);
        let report = solve(&a, &pos);
        let SolveResult::Win(line) = &report.result else {
            panic!("expected a win, got {:?}", report.result);
        };
        let points: Vec<Point> = line.iter().map(|&c| pos.board.point(c)).collect();
        assert!(line_holds(&pos.board, Color::Black, &points));
        assert_eq!(run(&a), 0);
    }

    #[test]
    fn double_three_is_a_vct_not_a_vcf() {
        // Black f8 g8 (row) and h6 h7 (column) meet at h8: two open threes at once.
        let moves = "f8a1g8a15h6o1h7o15";
        for extra in [&[][..], &["--shortest"][..]] {
            let mut list = vec![moves, "--vct", "--threat-depth", "1"];
            list.extend_from_slice(extra);
            let a = args(&list);
            let pos = position(&a).expect("position");
            let report = solve(&a, &pos);
            if a.shortest {
                // The only win with two attacker moves.
                assert_eq!(report.result.first_move(), pos.board.cell(Point::new(7, 7)));
            }
            assert!(report.result.is_win());
            assert_eq!(run(&a), 0);
        }
        assert_eq!(run(&args(&[moves, "--vcf"])), 1);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            vec!["h8h8"],
            vec!["zz99"],
            vec!["h8", "--size", "3"],
            vec!["q1", "--size", "9"],
        ] {
            let a = args(&bad);
            assert!(position(&a).is_err(), "{bad:?}");
            assert_eq!(run(&a), 2, "{bad:?}");
        }
        assert_eq!(position(&args(&[])).err(), Some(SolveError::NoPosition));
    }

    #[test]
    fn diagrams_are_read() {
        let text = "x x x x .\n. . . . .\no o o . .\n. . . . .\n. . . . .\n";
        assert!(looks_like_diagram(text));
        let pos = diagram(text, Rule::Freestyle).expect("diagram");
        assert_eq!((pos.board.width(), pos.board.height()), (5, 5));
        assert_eq!(pos.to_move, Color::White);
        assert!(diagram("x x\nx x x\n", Rule::Freestyle).is_err());
        assert!(!looks_like_diagram("h8i9j10"));
    }
}
