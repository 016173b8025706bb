//! `YXSEARCHDEFEND`: the defences that hold against the opponent's threat sequence, for the
//! analysis of a position that looks lost.
//!
//! The threat is the opponent's VCF, else its VCT, were the side to move to pass (the
//! threat solvers of the search, with the root's limits: VCT depth 8, threats up to a VCF of
//! two fours). Without one there is nothing to defend. With one, each candidate defence (the
//! threat line's own points first, then every legal point within two of a stone) is played
//! and the opponent's VCF and VCT are searched again: the defence holds when neither wins.
//!
//! What "holds" means: no threat sequence found within the solvers' limits, not a proof that
//! the position is saved (the main search judges the rest). Invariants: the answer names only
//! legal moves of the side to move; the limits given (time, the stop flag) bound the whole
//! search; a search cut short says so and lists the defences found among those it checked.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wuzi_core::{Board, Color, Point};
use wuzi_search::threat::SolveResult;
use wuzi_search::vcf::{VcfSolver, UNLIMITED};
use wuzi_search::vct::{VctLimits, VctSolver};
use wuzi_search::Limits;

/// Nodes of one VCF and of one VCT search.
const VCF_NODES: u64 = 200_000;
const VCT_NODES: u64 = 400_000;

/// What `YXSEARCHDEFEND` found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Defence {
    /// The opponent has no threat sequence (within the limits).
    NoThreat,
    /// Every candidate was checked: these hold (none, if the list is empty).
    Holds(Vec<Point>),
    /// Time ran out (or a stop came) before every candidate was checked: these of the
    /// checked ones hold.
    Partial(Vec<Point>),
}

impl Defence {
    /// The text after `MESSAGE `.
    pub fn message(&self) -> String {
        let list = |points: &[Point]| {
            points
                .iter()
                .map(|p| format!("{},{}", p.x, p.y))
                .collect::<Vec<_>>()
                .join(" ")
        };
        match self {
            Defence::NoThreat => "DEFEND NOTHREAT".to_string(),
            Defence::Holds(points) if points.is_empty() => "DEFEND NONE".to_string(),
            Defence::Holds(points) => format!("DEFEND {}", list(points)),
            Defence::Partial(points) => format!("DEFEND PARTIAL {}", list(points))
                .trim_end()
                .to_string(),
        }
    }
}

/// The threat solvers with their budgets.
pub struct Solvers<'s> {
    vcf: VcfSolver<'s>,
    vct: VctSolver<'s>,
    deadline: Option<Instant>,
    vcf_nodes: u64,
    vct_nodes: u64,
}

impl<'s> Solvers<'s> {
    /// Solvers that give up at `deadline`, or when `stop` is set, or after the given nodes.
    pub fn new(
        deadline: Option<Instant>,
        stop: &'s AtomicBool,
        vcf_nodes: u64,
        vct_nodes: u64,
    ) -> Solvers<'s> {
        let mut solvers = Solvers {
            vcf: VcfSolver::new(),
            vct: VctSolver::new(),
            deadline,
            vcf_nodes,
            vct_nodes,
        };
        solvers.vcf.set_stop(Some(stop));
        solvers.vct.set_stop(Some(stop));
        solvers
    }

    /// The attacker's winning threat line on `board` (the attacker moves next), if any: its
    /// VCF, else its VCT (depth 8, threats up to a VCF of two fours, as at the search's root).
    pub fn threat(&mut self, board: &mut Board, attacker: Color) -> Option<Vec<Point>> {
        self.vcf.set_deadline(self.deadline);
        let vcf = self.vcf.solve(board, attacker, UNLIMITED, self.vcf_nodes);
        if let SolveResult::Win(line) = vcf.result {
            return Some(line.iter().map(|&c| board.point(c)).collect());
        }
        let limits = VctLimits {
            max_depth: 8,
            threat_depth: 2,
            node_limit: self.vct_nodes,
            deadline: self.deadline,
        };
        match self.vct.solve_pn(board, attacker, &limits).result {
            SolveResult::Win(line) => Some(
                line.iter()
                    .filter(|&&c| c < wuzi_core::geometry::MAX_CELLS)
                    .map(|&c| board.point(c))
                    .collect(),
            ),
            _ => None,
        }
    }
}

/// The defences of the side to move of `board` against the opponent's threat sequence.
pub fn search_defend(board: &Board, limits: &Limits, stop: &AtomicBool) -> Defence {
    let start = Instant::now();
    let deadline = limits.hard_time.map(|t| start + t);
    let us = board.side_to_move();
    let them = us.opponent();
    let mut solvers = Solvers::new(deadline, stop, VCF_NODES, VCT_NODES);
    let mut passed = board.clone();
    passed.pass();
    let Some(threat) = solvers.threat(&mut passed, them) else {
        return Defence::NoThreat;
    };
    let mut candidates: Vec<Point> = Vec::new();
    let near = board.empty_near_stones(2);
    for p in threat
        .iter()
        .copied()
        .chain(near.iter().map(|c| board.point(c)))
    {
        if !candidates.contains(&p) && board.is_empty_at(p) && board.clone().is_legal(p) {
            candidates.push(p);
        }
    }
    let mut holds = Vec::new();
    for (i, &p) in candidates.iter().enumerate() {
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if stop.load(Ordering::Relaxed) || out_of_time {
            let _ = i;
            return Defence::Partial(holds);
        }
        // Each defence gets an equal share of the time left.
        let left = candidates.len() - i;
        solvers.deadline = deadline.map(|d| {
            let rest = d.saturating_duration_since(Instant::now());
            Instant::now() + rest / left as u32 + Duration::from_millis(1)
        });
        let mut after = board.clone();
        if after.play(p).is_err() {
            continue;
        }
        if after.winner().is_some() || solvers.threat(&mut after, them).is_none() {
            holds.push(p);
        }
    }
    if stop.load(Ordering::Relaxed) {
        return Defence::Partial(holds);
    }
    holds.sort_by_key(|p| (p.y, p.x));
    Defence::Holds(holds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Rule;

    fn board(black: &[(u8, u8)], white: &[(u8, u8)], to_move: Color) -> Board {
        let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
        for &(x, y) in black {
            b.place(Color::Black, Point::new(x, y)).unwrap();
        }
        for &(x, y) in white {
            b.place(Color::White, Point::new(x, y)).unwrap();
        }
        if b.side_to_move() != to_move {
            b.pass();
        }
        b
    }

    fn limits() -> Limits {
        Limits {
            hard_time: Some(Duration::from_secs(20)),
            ..Limits::default()
        }
    }

    #[test]
    fn an_open_three_is_defended_at_its_ends_and_its_middle_points() {
        // Black's open three on row 7 (6..8); White to move.
        let b = board(&[(6, 7), (7, 7), (8, 7)], &[(7, 9), (2, 2)], Color::White);
        let stop = AtomicBool::new(false);
        let Defence::Holds(holds) = search_defend(&b, &limits(), &stop) else {
            panic!("a complete answer expected");
        };
        for p in [Point::new(5, 7), Point::new(9, 7)] {
            assert!(holds.contains(&p), "{p:?} should hold: {holds:?}");
        }
        // Far from the three nothing holds.
        assert!(!holds.contains(&Point::new(2, 4)), "{holds:?}");
        assert!(!holds.contains(&Point::new(7, 5)), "{holds:?}");
        // Every defence named is a real one: after it Black has no VCF.
        for p in &holds {
            let mut after = b.clone();
            after.play(*p).unwrap();
            let r = VcfSolver::new().solve(&mut after, Color::Black, UNLIMITED, 100_000);
            assert!(!r.result.is_win(), "{p:?}");
        }
    }

    #[test]
    fn no_threat_and_no_defence() {
        let quiet = board(&[(7, 7)], &[(8, 8)], Color::Black);
        let stop = AtomicBool::new(false);
        assert_eq!(search_defend(&quiet, &limits(), &stop), Defence::NoThreat);
        // Two open fours' worth: an open four cannot be stopped.
        let lost = board(
            &[(5, 7), (6, 7), (7, 7), (8, 7)],
            &[(0, 0), (14, 14), (0, 14)],
            Color::White,
        );
        assert_eq!(
            search_defend(&lost, &limits(), &stop),
            Defence::Holds(vec![])
        );
        assert_eq!(Defence::Holds(vec![]).message(), "DEFEND NONE");
        assert_eq!(
            Defence::Holds(vec![Point::new(5, 7), Point::new(9, 7)]).message(),
            "DEFEND 5,7 9,7"
        );
        assert_eq!(Defence::Partial(vec![]).message(), "DEFEND PARTIAL");
        // A stop before the first defence: a partial answer.
        let three = board(&[(6, 7), (7, 7), (8, 7)], &[(7, 9), (2, 2)], Color::White);
        let stopped = AtomicBool::new(true);
        assert!(matches!(
            search_defend(&three, &limits(), &stopped),
            Defence::Partial(_) | Defence::NoThreat
        ));
    }
}
