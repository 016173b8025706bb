//! VCT: victory by continuous threats. The attacker plays fours and *threats* (moves after
//! which, if the defender passed, the attacker would have a VCF of at most `threat_depth`
//! fours: an open three has a VCF of depth 1, a move preparing a four-three one of depth 2);
//! the defender answers a four on its five point and a threat with any move that stops it,
//! counter-fours included. Two searches over the same tree, with two VCF solvers (the
//! attacker's threats and the defender's counter-VCFs):
//! - [`VctSolver::solve`]: depth-first, iteratively deepened on the number of attacker moves,
//!   with a transposition table of its own; finds a shortest win of the threat space;
//! - [`VctSolver::solve_pn`]: depth-first proof-number search (df-pn) at the full depth; far
//!   fewer nodes on long forcing lines, a win found need not be the shortest.
//!
//! How a node is decided (depth = attacker moves left before the final five, see `threat.rs`):
//! - attacker to move: a five point wins; two defender five points lose; one must be taken
//!   (that move counts as an attacker move). Otherwise a VCF within the depth wins; else the
//!   attacker tries its fours and threats. If the defender has a VCF of its own (were the
//!   attacker to pass), threats outside that VCF's zone are skipped: they cannot stop it.
//! - defender to move after a four: it must take the five point (if forbidden for renju
//!   Black, the attacker wins; if there are several, every legal answer must lose).
//! - defender to move after a threat: the threat must be real (a VCF within
//!   `min(threat_depth, depth)`), the defender must have no VCF of its own (it would win
//!   first), and every *defence* must lose. Defences: the cells of the threat line's zone
//!   (`vcf::line_zone`: the line's own cells, the cells that would turn one of the defender's
//!   forced answers into a four, and in caro and renju-White the lines of the final five
//!   points) and the defender's fours, keeping those after which the threat line no longer
//!   wins when replayed. Any other defender move leaves the threat line intact, so the
//!   attacker wins through it.
//!
//! Soundness: a `Win` is a real forced win given that the zone holds every move that can stop
//! a line (`vcf::line_zone`, which in renju includes every cell that can change whether a
//! point the line needs is forbidden, however far away). `NoWin` means no win within the
//! depth *among the threat moves tried*: the attacker's threats are taken from the cells where
//! it makes at least a closed three (when a threat may only be a VCF of depth 1) or a two
//! (deeper), which covers every threat of depth 1 but not every deeper one.
//!
//! Invariants: the board is returned as it was given; no state survives between calls except
//! the tables (emptied when the rule, board size or threat depth changes); the proof-number
//! tables live for one call and are bounded (see [`VctSolver::solve_pn`]).

mod dfs;
mod pn;

use crate::threat::{
    distance, game_over, is_legal, line_still_wins, threat_score, PvStack, SolveResult, Table,
    TableTag, NONE,
};
use crate::vcf::{line_zone, Probe, VcfSolver, UNLIMITED};
use std::sync::atomic::AtomicBool;
use std::time::Instant;
use wuzi_core::{flag, Bitboard, Board, Cell, Color, Pattern};

/// The result of a VCT search.
pub type VctResult = SolveResult;

/// What bounds a VCT search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VctLimits {
    /// Attacker moves (fours and threats) before the final five.
    pub max_depth: u32,
    /// The longest VCF (in fours) that makes a move a threat: 1 = open threes and moves that
    /// prepare a double four or a straight four; 2 adds moves that prepare a four-three; ...
    pub threat_depth: u32,
    /// Nodes of the VCT search and of the VCF searches it runs, together.
    pub node_limit: u64,
    /// Give up (`Unknown`) after this instant.
    pub deadline: Option<Instant>,
}

impl Default for VctLimits {
    fn default() -> Self {
        VctLimits {
            max_depth: 10,
            threat_depth: 2,
            node_limit: u64::MAX,
            deadline: None,
        }
    }
}

/// Stand-in for the rest of a line that a table hit proved but did not store.
const MARK: Cell = usize::MAX;

/// Table depth of a failure that no depth limit caused.
const ABSOLUTE: u16 = NONE - 1;

/// Distinguishes defender-to-move entries from attacker-to-move ones in the table.
const DEFEND_KEY: u64 = 0x3c6e_f372_fe94_f82b;

/// The defender's answers to a threat (see `VctSolver::threat_defences`).
enum Defences {
    /// No threat after all, or the defender wins first with a VCF: the attacker's move fails.
    Refuted,
    /// The defender has no legal move at all.
    NoLegalMove,
    /// Every one of these must lose; the threat line orders them.
    Moves(Box<Bitboard>, Vec<Cell>),
}

/// A VCT solver: its table and the two VCF solvers it drives. Reuse it across calls. `'s`
/// is the life of the stop flag it may be given ([`VctSolver::set_stop`]).
pub struct VctSolver<'s> {
    table: Table,
    threats: VcfSolver<'s>,
    counters: VcfSolver<'s>,
    pv: PvStack,
    moves: Vec<(i32, Cell)>,
    attacker: Color,
    threat_depth: u16,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'s AtomicBool>,
    depth_cut: bool,
}

impl Default for VctSolver<'_> {
    fn default() -> Self {
        VctSolver::new()
    }
}

impl<'s> VctSolver<'s> {
    /// A solver whose tables hold 2^18 entries each (three tables of 4 MiB, allocated on first
    /// use).
    pub fn new() -> VctSolver<'s> {
        VctSolver::with_table_bits(18)
    }

    /// A solver whose three tables hold `2^bits` entries of 16 bytes each.
    pub fn with_table_bits(bits: u32) -> VctSolver<'s> {
        VctSolver {
            table: Table::new(bits),
            threats: VcfSolver::with_table_bits(bits),
            counters: VcfSolver::with_table_bits(bits),
            pv: PvStack::new(),
            moves: Vec::with_capacity(1024),
            attacker: Color::Black,
            threat_depth: 1,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            stop: None,
            depth_cut: false,
        }
    }

    /// Bytes of the three tables once allocated.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes() + self.threats.table_bytes() + self.counters.table_bytes()
    }

    /// Forgets everything proven.
    pub fn clear(&mut self) {
        self.table.clear();
        self.threats.clear();
        self.counters.clear();
    }

    /// Makes later calls give up (`Unknown`) once `stop` is set, as the deadline does; the
    /// VCF solvers it drives see the flag too.
    pub fn set_stop(&mut self, stop: Option<&'s AtomicBool>) {
        self.stop = stop;
        self.threats.set_stop(stop);
        self.counters.set_stop(stop);
    }

    /// Nodes visited by the last call (VCF nodes included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Sets up a solve of either kind (iterative deepening or proof numbers) for `attacker`
    /// within `limits`: counters, budget, deadline, and the table for this position. False
    /// when the game is already over (there is nothing to solve).
    fn begin(&mut self, board: &Board, attacker: Color, limits: &VctLimits) -> bool {
        self.attacker = attacker;
        self.threat_depth = limits.threat_depth.clamp(1, UNLIMITED) as u16;
        self.nodes = 0;
        self.limit = limits.node_limit;
        self.deadline = limits.deadline;
        self.threats.set_deadline(limits.deadline);
        self.counters.set_deadline(limits.deadline);
        self.table
            .prepare(TableTag::of(board, self.threat_depth as u32));
        !game_over(board)
    }

    /// Counts a node; true when the budget or the time is spent.
    #[inline]
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return true;
        }
        if self.nodes % 256 == 0 && VcfSolver::interrupted(self.deadline, self.stop) {
            self.limit = 0;
            return true;
        }
        false
    }

    #[inline]
    fn budget(&self) -> u64 {
        self.limit.saturating_sub(self.nodes)
    }

    /// A VCF of `color` (moving next) within `depth`, with its line.
    fn vcf_line(
        &mut self,
        board: &mut Board,
        color: Color,
        depth: u16,
    ) -> Result<Option<Vec<Cell>>, ()> {
        let budget = self.budget();
        let solver = if color == self.attacker {
            &mut self.threats
        } else {
            &mut self.counters
        };
        let out = solver.solve(board, color, depth as u32, budget);
        let cut = solver.depth_was_limiting();
        self.nodes += out.nodes;
        match out.result {
            SolveResult::Win(line) => Ok(Some(line)),
            SolveResult::NoWin => {
                if cut && color == self.attacker {
                    self.depth_cut = true;
                }
                Ok(None)
            }
            SolveResult::Unknown => Err(()),
        }
    }

    /// Whether `color` (moving next) has a VCF within `depth`, without its line.
    fn vcf_exists(&mut self, board: &mut Board, color: Color, depth: u16) -> Result<bool, ()> {
        let budget = self.budget();
        let solver = if color == self.attacker {
            &mut self.threats
        } else {
            &mut self.counters
        };
        let out = solver.probe(board, color, depth as u32, budget);
        let cut = solver.depth_was_limiting();
        self.nodes += solver.nodes();
        match out {
            Probe::Win(_) => Ok(true),
            Probe::NoWin => {
                if cut && color == self.attacker {
                    self.depth_cut = true;
                }
                Ok(false)
            }
            Probe::Unknown => Err(()),
        }
    }

    /// Pushes the attacker's candidate fours and threats onto `moves` with ordering scores
    /// (whether a non-four really threatens is checked when it is tried). Returns the VCF
    /// depth that makes a move a threat here.
    fn gen_attacks(
        &mut self,
        board: &mut Board,
        depth: u16,
        hint: Option<Cell>,
    ) -> Result<u16, ()> {
        let a = self.attacker;
        let d = a.opponent();
        // A VCF of the defender, were the attacker to pass, beats any threat that does not
        // touch it.
        let counter_zone = self
            .vcf_line(board, d, UNLIMITED as u16)?
            .map(|line| line_zone(board, d, &line));
        let threat_limit = self.threat_depth.min(depth - 1);
        if threat_limit < self.threat_depth {
            self.depth_cut = true;
        }
        let min_pattern = if threat_limit >= 2 {
            Pattern::B2
        } else {
            Pattern::B3
        } as u16;
        let occupied = board.occupied();
        let pool = board
            .stones_of(a)
            .dilated(4, board.stride())
            .and(board.on_board())
            .and_not(&occupied);
        let last = board.last_cell();
        for m in pool.iter() {
            let code = board.pattern_code(a, m);
            let strongest = (0..4).map(|k| code >> (4 * k) & 15).max().unwrap_or(0);
            if strongest < min_pattern {
                continue;
            }
            let four = board.flags_at(a, m) & flag::FOUR != 0;
            if !four && counter_zone.as_ref().is_some_and(|z| !z.contains(m)) {
                continue;
            }
            if !is_legal(board, a, m) {
                continue;
            }
            let mut score = threat_score(board, a, m) * 8 + threat_score(board, d, m);
            if let Some(l) = last {
                score += 6 - distance(board, m, l).min(6) as i32;
            }
            if four {
                score += 200;
            }
            if Some(m) == hint {
                score += 1 << 20;
            }
            self.moves.push((score, m));
        }
        Ok(threat_limit)
    }

    /// The defender's answers to a move that was not a four, `depth` attacker moves left: the
    /// move must threaten a VCF within `min(threat_depth, depth)` and the defender must have no
    /// VCF of its own; then the answers are the legal cells of the threat line's zone and the
    /// defender's fours after which the line no longer wins. If none stops it, one legal move
    /// stands for all (each loses to the line).
    fn threat_defences(&mut self, board: &mut Board, depth: u16) -> Result<Defences, ()> {
        let a = self.attacker;
        let d = a.opponent();
        let limit = self.threat_depth.min(depth);
        if limit < self.threat_depth {
            self.depth_cut = true;
        }
        let Some(line) = self.vcf_line(board, a, limit)? else {
            return Ok(Defences::Refuted);
        };
        if self.vcf_exists(board, d, UNLIMITED as u16)? {
            return Ok(Defences::Refuted);
        }
        let zone = line_zone(board, a, &line).or(board.cells_making(d, flag::FOUR));
        let mut defences = Bitboard::EMPTY;
        let mut fallback = None;
        for c in zone.iter() {
            if !is_legal(board, d, c) {
                continue;
            }
            fallback.get_or_insert(c);
            board.make(d, c);
            let still = line_still_wins(board, a, &line);
            board.unmake();
            if !still {
                defences.insert(c);
            }
        }
        if defences.is_empty() {
            match fallback {
                Some(c) => defences.insert(c),
                None => return Ok(Defences::NoLegalMove),
            }
        }
        Ok(Defences::Moves(Box::new(defences), line))
    }

    /// Ordering score of a defender answer: cells that matter to both sides, and the threat
    /// line's own cells (its first move above all), first.
    fn answer_score(board: &Board, attacker: Color, c: Cell, threat_line: Option<&[Cell]>) -> i32 {
        let mut score =
            threat_score(board, attacker, c) * 4 + threat_score(board, attacker.opponent(), c) * 3;
        if let Some(line) = threat_line {
            if line.first() == Some(&c) {
                score += 40;
            } else if line.contains(&c) {
                score += 20;
            }
        }
        score
    }
}
