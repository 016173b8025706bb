//! Threat-space solving of one position: the logic of `wuzi solve`, callable without the
//! command line. [`solve`] runs the VCF solver, or the VCT solver (proof numbers, or
//! iterative deepening for a shortest line), under a [`SolveRequest`]'s limits and reports the
//! verdict; [`line_holds`] replays a winning line independently of the solvers. The position
//! is read from text by `wuzi_core::notation` ([`Position`]).

use std::time::{Duration, Instant};
use wuzi_core::notation::Position;
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
    use wuzi_core::notation::read_position;

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
