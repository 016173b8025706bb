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
//! a line (see `vcf::line_zone` for the one renju exception). `NoWin` means no win within the
//! depth *among the threat moves tried*: the attacker's threats are taken from the cells where
//! it makes at least a closed three (when a threat may only be a VCF of depth 1) or a two
//! (deeper), which covers every threat of depth 1 but not every deeper one.
//!
//! Invariants: the board is returned as it was given; no state survives between calls except
//! the tables (emptied when the rule, board size or threat depth changes); the proof-number
//! tables live for one call and are bounded (see [`VctSolver::solve_pn`]).

use crate::threat::{
    distance, every_block_leaves_five, first_two, five_points, game_over, is_legal,
    line_still_wins, losing_answer, position_key, threat_score, Node, Outcome, PvStack,
    SolveResult, Table, TableTag, NONE,
};
use crate::vcf::{line_zone, Probe, VcfSolver, UNLIMITED};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use std::time::Instant;
use wuzi_core::zobrist::STONE_KEYS;
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

/// A VCT solver: its table and the two VCF solvers it drives. Reuse it across calls.
pub struct VctSolver {
    table: Table,
    threats: VcfSolver,
    counters: VcfSolver,
    pv: PvStack,
    moves: Vec<(i32, Cell)>,
    attacker: Color,
    threat_depth: u16,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    depth_cut: bool,
}

impl Default for VctSolver {
    fn default() -> Self {
        VctSolver::new()
    }
}

impl VctSolver {
    /// A solver whose tables hold 2^18 entries each (three tables of 4 MiB, allocated on first
    /// use).
    pub fn new() -> VctSolver {
        VctSolver::with_table_bits(18)
    }

    /// A solver whose three tables hold `2^bits` entries of 16 bytes each.
    pub fn with_table_bits(bits: u32) -> VctSolver {
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

    /// Nodes visited by the last call (VCF nodes included).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Searches for a VCT of `attacker`, who moves next whatever the board's side to move.
    /// Iterative deepening from depth 0, so a win found is among the shortest in the threat
    /// space searched. The board is left as it was.
    pub fn solve(&mut self, board: &mut Board, attacker: Color, limits: &VctLimits) -> Outcome {
        self.attacker = attacker;
        self.threat_depth = limits.threat_depth.clamp(1, UNLIMITED) as u16;
        self.nodes = 0;
        self.limit = limits.node_limit;
        self.deadline = limits.deadline;
        self.threats.set_deadline(limits.deadline);
        self.counters.set_deadline(limits.deadline);
        self.table
            .prepare(TableTag::of(board, self.threat_depth as u32));
        let outcome = |result, nodes| Outcome { result, nodes };
        if game_over(board) {
            return outcome(SolveResult::NoWin, 0);
        }
        let max_depth = limits.max_depth.min(UNLIMITED) as u16;
        for depth in 0..=max_depth {
            self.depth_cut = false;
            match self.attack(board, depth, 0) {
                Node::Win => {
                    let line = self.pv.get(0).to_vec();
                    return match self.complete_line(board, line, depth) {
                        Some(line) => outcome(SolveResult::Win(line), self.nodes),
                        None => outcome(SolveResult::Unknown, self.nodes),
                    };
                }
                Node::Abort => return outcome(SolveResult::Unknown, self.nodes),
                Node::Fail => {
                    if !self.depth_cut {
                        break;
                    }
                }
            }
        }
        outcome(SolveResult::NoWin, self.nodes)
    }

    /// Replaces the table-hit marks of a winning line by searched continuations (a mark
    /// stands for the rest of a line the table proved). `None` if the budget ran out.
    fn complete_line(
        &mut self,
        board: &mut Board,
        mut line: Vec<Cell>,
        depth: u16,
    ) -> Option<Vec<Cell>> {
        while let Some(at) = line.iter().position(|&c| c == MARK) {
            line.truncate(at);
            let attacker = self.attacker;
            for (i, &c) in line.iter().enumerate() {
                let color = if i % 2 == 0 {
                    attacker
                } else {
                    attacker.opponent()
                };
                board.make(color, c);
            }
            let mut rest = None;
            for d in 0..=depth {
                self.depth_cut = false;
                let r = if at % 2 == 0 {
                    self.attack(board, d, 0)
                } else {
                    self.defend(board, d, 0)
                };
                match r {
                    Node::Win => {
                        rest = Some(self.pv.get(0).to_vec());
                        break;
                    }
                    Node::Abort => break,
                    Node::Fail => {}
                }
            }
            for _ in 0..at {
                board.unmake();
            }
            line.extend(rest?);
        }
        Some(line)
    }

    /// Counts a node; true when the budget or the time is spent.
    #[inline]
    fn spent(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes > self.limit {
            return true;
        }
        if self.nodes % 256 == 0 {
            if let Some(deadline) = self.deadline {
                if Instant::now() >= deadline {
                    self.limit = 0;
                    return true;
                }
            }
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

    /// Attacker to move with `depth` attacker moves left. On a win `pv[ply]` holds the line.
    fn attack(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        if self.spent() {
            return Node::Abort;
        }
        let a = self.attacker;
        let d = a.opponent();
        if let Some(f) = five_points(board, a).first() {
            self.pv.set(ply, &[f]);
            return Node::Win;
        }
        let (df, df2) = first_two(five_points(board, d));
        if df2.is_some() {
            return Node::Fail;
        }
        if depth == 0 {
            self.depth_cut = true;
            return Node::Fail;
        }
        let key = position_key(board, a);
        let mut hint = None;
        if let Some(e) = self.table.probe(key) {
            if e.fail != NONE && e.fail >= depth {
                if e.fail != ABSOLUTE {
                    self.depth_cut = true;
                }
                return Node::Fail;
            }
            if e.win != NONE {
                hint = Some(e.best as Cell);
                if e.win <= depth && ply > 0 {
                    self.pv.set(ply, &[MARK]);
                    return Node::Win;
                }
            }
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);
        let result = self.attack_inner(board, depth, ply, df, hint);
        let cut_here = self.depth_cut;
        self.depth_cut |= outer_cut;
        match result {
            Node::Fail => self
                .table
                .store_fail(key, if cut_here { depth } else { ABSOLUTE }),
            Node::Win => {
                if let Some(&m) = self.pv.get(ply).first() {
                    self.table.store_win(key, depth, m);
                }
            }
            Node::Abort => {}
        }
        result
    }

    fn attack_inner(
        &mut self,
        board: &mut Board,
        depth: u16,
        ply: usize,
        defender_five: Option<Cell>,
        hint: Option<Cell>,
    ) -> Node {
        let a = self.attacker;
        match self.vcf_line(board, a, depth) {
            Ok(Some(line)) => {
                self.pv.set(ply, &line);
                return Node::Win;
            }
            Ok(None) => {}
            Err(()) => return Node::Abort,
        }
        if depth < 2 {
            // A threat needs a further attacker move to be worth anything.
            self.depth_cut = true;
            return Node::Fail;
        }
        let base = self.moves.len();
        let threat_limit = match defender_five {
            Some(f) => {
                if is_legal(board, a, f) {
                    self.moves.push((0, f));
                }
                0
            }
            None => match self.gen_attacks(board, depth, hint) {
                Ok(limit) => limit,
                Err(()) => {
                    self.moves.truncate(base);
                    return Node::Abort;
                }
            },
        };
        let end = self.moves.len();
        self.moves[base..end].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let mut result = Node::Fail;
        for i in base..end {
            let m = self.moves[i].1;
            board.make(a, m);
            // Moves that are not fours are only tried if they threaten a VCF (checked here,
            // lazily, so that a win found early spares the other checks).
            let threat = defender_five.is_some()
                || !five_points(board, a).is_empty()
                || match self.vcf_exists(board, a, threat_limit) {
                    Ok(t) => t,
                    Err(()) => {
                        board.unmake();
                        result = Node::Abort;
                        break;
                    }
                };
            let r = if threat {
                self.defend(board, depth - 1, ply + 1)
            } else {
                Node::Fail
            };
            board.unmake();
            match r {
                Node::Win => {
                    self.pv.set_prefix(ply, &[m]);
                    result = Node::Win;
                    break;
                }
                Node::Abort => {
                    result = Node::Abort;
                    break;
                }
                Node::Fail => {}
            }
        }
        self.moves.truncate(base);
        result
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

    /// Defender to move after the attacker's move, `depth` attacker moves left. On a win
    /// `pv[ply]` holds the line from the defender's move on.
    fn defend(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        if self.spent() {
            return Node::Abort;
        }
        let a = self.attacker;
        let d = a.opponent();
        if !five_points(board, d).is_empty() {
            return Node::Fail;
        }
        let (f1, f2) = first_two(five_points(board, a));
        if let Some(f1) = f1 {
            if f2.is_none() {
                if !is_legal(board, d, f1) {
                    self.pv.set(ply, &[]);
                    return Node::Win;
                }
                board.make(d, f1);
                let r = self.attack(board, depth, ply + 1);
                board.unmake();
                if r == Node::Win {
                    self.pv.set_prefix(ply, &[f1]);
                }
                return r;
            }
            if every_block_leaves_five(board, a) {
                // Every answer loses at once; show one (or none if none is legal).
                match losing_answer(board, a) {
                    (Some(f), Some(g)) => self.pv.set(ply, &[f, g]),
                    (Some(f), None) => self.pv.set(ply, &[f]),
                    _ => self.pv.set(ply, &[]),
                }
                return Node::Win;
            }
            let fives = *five_points(board, a);
            return self.all_answers_lose(board, depth, ply, &fives, None);
        }
        if depth == 0 {
            self.depth_cut = true;
            return Node::Fail;
        }
        let key = position_key(board, a) ^ DEFEND_KEY;
        if let Some(e) = self.table.probe(key) {
            if e.fail != NONE && e.fail >= depth {
                if e.fail != ABSOLUTE {
                    self.depth_cut = true;
                }
                return Node::Fail;
            }
            if e.win != NONE && e.win <= depth && ply > 0 {
                self.pv.set(ply, &[MARK]);
                return Node::Win;
            }
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);
        let result = self.defend_threat(board, depth, ply);
        let cut_here = self.depth_cut;
        self.depth_cut |= outer_cut;
        match result {
            Node::Fail => self
                .table
                .store_fail(key, if cut_here { depth } else { ABSOLUTE }),
            Node::Win => {
                if let Some(&m) = self.pv.get(ply).first() {
                    self.table.store_win(key, depth, m);
                }
            }
            Node::Abort => {}
        }
        result
    }

    /// The attacker's last move was not a four: it must be a threat, and every defence must
    /// lose.
    fn defend_threat(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        match self.threat_defences(board, depth) {
            Ok(Defences::Refuted) => Node::Fail,
            Ok(Defences::NoLegalMove) => {
                self.pv.set(ply, &[]);
                Node::Win
            }
            Ok(Defences::Moves(set, line)) => {
                self.all_answers_lose(board, depth, ply, &set, Some(&line))
            }
            Err(()) => Node::Abort,
        }
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

    /// Every defender move of `answers` must lose (AND node). Ordered so that the likeliest
    /// refutations come first; the line kept is the longest.
    fn all_answers_lose(
        &mut self,
        board: &mut Board,
        depth: u16,
        ply: usize,
        answers: &Bitboard,
        threat_line: Option<&[Cell]>,
    ) -> Node {
        let a = self.attacker;
        let d = a.opponent();
        let base = self.moves.len();
        for c in answers.iter() {
            if !is_legal(board, d, c) {
                continue;
            }
            let score = Self::answer_score(board, a, c, threat_line);
            self.moves.push((score, c));
        }
        let end = self.moves.len();
        if end == base {
            self.pv.set(ply, &[]);
            return Node::Win;
        }
        self.moves[base..end].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let mut best_len = 0;
        let mut result = Node::Win;
        for i in base..end {
            let c = self.moves[i].1;
            board.make(d, c);
            let r = self.attack(board, depth, ply + 1);
            board.unmake();
            match r {
                Node::Win => {
                    let len = self.pv.len_at(ply + 1) + 1;
                    if len > best_len {
                        best_len = len;
                        self.pv.set_prefix(ply, &[c]);
                    }
                }
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.moves.truncate(base);
        result
    }
}

/// Proof and disproof numbers: `pn == 0` proven (the attacker wins), `dn == 0` disproven.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pn {
    pn: u32,
    dn: u32,
}

/// Infinity of the proof-number search.
const INF: u32 = 1 << 30;
const PROVEN: Pn = Pn { pn: 0, dn: INF };
const DISPROVEN: Pn = Pn { pn: INF, dn: 0 };
const UNKNOWN: Pn = Pn { pn: 1, dn: 1 };
/// First proof number of a defender node after an attacker move that is not a four.
const THREAT_PN: u32 = 2;

/// Keys of the proof-number tables are already uniformly random: hash them as they are.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// What expanding a proof-number node gave.
enum Expansion {
    Proven,
    Disproven,
    Moves(Rc<[u16]>),
}

/// What `VctSolver::pn_proven_child` found.
enum ProvenChild {
    Move(Cell),
    /// The node is proven without children (the defender has no legal move).
    Terminal,
    /// The proof could not be found again (budget spent).
    Lost,
}

/// The proof-number search's own state: its tables live only for one call.
#[derive(Default)]
pub(crate) struct PnState {
    table: KeyMap<Pn>,
    children: KeyMap<Rc<[u16]>>,
    /// Most entries of `table`; past it, unsolved entries are dropped.
    cap: usize,
    /// Most entries of `children`; past it, the cache is emptied.
    children_cap: usize,
    /// Whether the depth left is part of a node's identity: not when the search's depth
    /// exceeds any line the board has room for by the threat depth (then the depth can
    /// neither run out nor cap a threat, and nodes reached with different depths left are
    /// the same node).
    depth_matters: bool,
}

impl PnState {
    #[inline]
    fn keyed(&self, depth: u16) -> Option<u16> {
        self.depth_matters.then_some(depth)
    }

    /// Makes room when the table is full: unsolved nodes are forgotten first (their numbers
    /// restart from one), then disproven ones, then everything. The search stays correct,
    /// only slower.
    fn make_room(&mut self) {
        if self.table.len() < self.cap {
            return;
        }
        self.table.retain(|_, e| e.pn == 0 || e.dn == 0);
        if self.table.len() >= self.cap / 2 {
            self.table.retain(|_, e| e.pn == 0);
        }
        if self.table.len() >= self.cap / 2 {
            self.table.clear();
        }
    }
}

/// Key of a proof-number node: the position (see `position_key`), the attacker moves left and
/// who is to move.
#[inline]
fn pn_key(position: u64, depth: Option<u16>, defender_to_move: bool) -> u64 {
    let salt = depth.map_or(0, |d| (d as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    position ^ salt ^ if defender_to_move { DEFEND_KEY } else { 0 }
}

/// Saturating sum of proof (or disproof) numbers: infinite if one is.
#[inline]
fn pn_sum(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a + b).min(INF - 1)
    }
}

impl VctSolver {
    /// Like [`VctSolver::solve`], by depth-first proof-number search (df-pn with the 1 + ε
    /// trick) at `limits.max_depth` directly instead of iterative deepening: the same threat
    /// space and the same verdicts, usually far fewer nodes on long forcing lines, but the win
    /// found need not be the shortest. Its tables live for the call only and are bounded by
    /// `bits` as given to [`VctSolver::with_table_bits`]: at most 2^(bits + 3) proof numbers
    /// (about 20 bytes each) and 2^bits cached move lists (about 50 bytes each), i.e. about
    /// 55 MB for the default 18 bits and 14 MB for 16; past that, unsolved nodes are forgotten
    /// (slower, still correct).
    pub fn solve_pn(&mut self, board: &mut Board, attacker: Color, limits: &VctLimits) -> Outcome {
        self.attacker = attacker;
        self.threat_depth = limits.threat_depth.clamp(1, UNLIMITED) as u16;
        self.nodes = 0;
        self.limit = limits.node_limit;
        self.deadline = limits.deadline;
        self.threats.set_deadline(limits.deadline);
        self.counters.set_deadline(limits.deadline);
        self.table
            .prepare(TableTag::of(board, self.threat_depth as u32));
        let outcome = |result, nodes| Outcome { result, nodes };
        if game_over(board) {
            return outcome(SolveResult::NoWin, 0);
        }
        let depth = limits.max_depth.min(UNLIMITED) as u16;
        let bits = self.table_bits();
        let room = (board.width() * board.height() - board.move_count()) as u16 / 2 + 1;
        let mut state = PnState {
            cap: 1 << (bits + 3),
            children_cap: 1 << bits,
            depth_matters: depth < room + self.threat_depth,
            ..PnState::default()
        };
        let root = loop {
            match self.pn_or(board, &mut state, depth, INF, INF) {
                Ok(r) if r.pn == 0 || r.dn == 0 => break Ok(r),
                Ok(_) => {}
                Err(()) => break Err(()),
            }
        };
        let result = match root {
            Ok(r) if r.pn == 0 => match self.pn_line(board, &mut state, depth) {
                Some(line) => SolveResult::Win(line),
                None => SolveResult::Unknown,
            },
            Ok(_) => SolveResult::NoWin,
            Err(()) => SolveResult::Unknown,
        };
        outcome(result, self.nodes)
    }

    fn table_bits(&self) -> u32 {
        (self.table.bytes() / 16).trailing_zeros()
    }

    /// Expands an attacker-to-move node: terminal verdicts, else the candidate moves (fours
    /// and would-be threats, best first; whether a move threatens is decided by its child).
    fn pn_or_moves(&mut self, board: &mut Board, depth: u16) -> Result<Expansion, ()> {
        let a = self.attacker;
        let d = a.opponent();
        if !five_points(board, a).is_empty() {
            return Ok(Expansion::Proven);
        }
        let (df, df2) = first_two(five_points(board, d));
        if df2.is_some() || depth == 0 {
            return Ok(Expansion::Disproven);
        }
        if self.vcf_line(board, a, depth)?.is_some() {
            return Ok(Expansion::Proven);
        }
        if depth < 2 {
            return Ok(Expansion::Disproven);
        }
        let base = self.moves.len();
        match df {
            Some(f) => {
                if is_legal(board, a, f) {
                    self.moves.push((0, f));
                }
            }
            None => {
                if let Err(()) = self.gen_attacks(board, depth, None) {
                    self.moves.truncate(base);
                    return Err(());
                }
            }
        }
        self.moves[base..].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let moves: Rc<[u16]> = self.moves[base..].iter().map(|x| x.1 as u16).collect();
        self.moves.truncate(base);
        Ok(if moves.is_empty() {
            Expansion::Disproven
        } else {
            Expansion::Moves(moves)
        })
    }

    /// Expands a defender-to-move node (after the attacker's move, `depth` attacker moves
    /// left): the answers to a four, or the defences of a threat.
    fn pn_and_moves(&mut self, board: &mut Board, depth: u16) -> Result<Expansion, ()> {
        let a = self.attacker;
        let d = a.opponent();
        if !five_points(board, d).is_empty() {
            return Ok(Expansion::Disproven);
        }
        let (f1, f2) = first_two(five_points(board, a));
        let answers = if let Some(f1) = f1 {
            if f2.is_some() && every_block_leaves_five(board, a) {
                return Ok(Expansion::Proven);
            }
            let mut set = Bitboard::EMPTY;
            set.insert(f1);
            if f2.is_some() {
                set = *five_points(board, a);
            }
            (set, None)
        } else {
            if depth == 0 {
                return Ok(Expansion::Disproven);
            }
            match self.threat_defences(board, depth)? {
                Defences::Refuted => return Ok(Expansion::Disproven),
                Defences::NoLegalMove => return Ok(Expansion::Proven),
                Defences::Moves(set, line) => (*set, Some(line)),
            }
        };
        let (set, line) = answers;
        let mut scored: Vec<(i32, Cell)> = Vec::new();
        for c in set.iter() {
            if is_legal(board, d, c) {
                scored.push((Self::answer_score(board, a, c, line.as_deref()), c));
            }
        }
        if scored.is_empty() {
            return Ok(Expansion::Proven);
        }
        scored.sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        Ok(Expansion::Moves(
            scored.iter().map(|x| x.1 as u16).collect(),
        ))
    }

    /// The children of a node, from the cache or by expansion; terminal verdicts are stored.
    fn pn_expand(
        &mut self,
        board: &mut Board,
        state: &mut PnState,
        key: u64,
        depth: u16,
        defender: bool,
    ) -> Result<Option<Rc<[u16]>>, ()> {
        if let Some(kids) = state.children.get(&key) {
            return Ok(Some(kids.clone()));
        }
        let expansion = if defender {
            self.pn_and_moves(board, depth)?
        } else {
            self.pn_or_moves(board, depth)?
        };
        match expansion {
            Expansion::Proven => {
                state.table.insert(key, PROVEN);
                Ok(None)
            }
            Expansion::Disproven => {
                state.table.insert(key, DISPROVEN);
                Ok(None)
            }
            Expansion::Moves(kids) => {
                if state.children.len() >= state.children_cap {
                    state.children.clear();
                }
                state.children.insert(key, kids.clone());
                Ok(Some(kids))
            }
        }
    }

    /// Attacker to move: searches until the node's numbers reach a threshold.
    fn pn_or(
        &mut self,
        board: &mut Board,
        state: &mut PnState,
        depth: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<Pn, ()> {
        if self.spent() {
            return Err(());
        }
        state.make_room();
        let a = self.attacker;
        let position = position_key(board, a);
        let key = pn_key(position, state.keyed(depth), false);
        if let Some(&known) = state.table.get(&key) {
            if known.pn == 0 || known.dn == 0 {
                return Ok(known);
            }
        }
        let Some(kids) = self.pn_expand(board, state, key, depth, false)? else {
            return Ok(state.table.get(&key).copied().unwrap_or(DISPROVEN));
        };
        let child_depth = depth - 1;
        loop {
            let mut pn = INF;
            let mut dn = 0;
            let mut second = INF;
            let mut best = 0;
            let mut best_dn = 0;
            for (i, &c) in kids.iter().enumerate() {
                let ck = pn_key(
                    position ^ STONE_KEYS[a.index()][c as Cell],
                    state.keyed(child_depth),
                    true,
                );
                let e = state.table.get(&ck).copied().unwrap_or_else(|| {
                    // A four leaves one answer; a threat several.
                    if board.flags_at(a, c as Cell) & flag::FOUR != 0 {
                        UNKNOWN
                    } else {
                        Pn {
                            pn: THREAT_PN,
                            dn: 1,
                        }
                    }
                });
                dn = pn_sum(dn, e.dn);
                if e.pn < pn {
                    second = pn;
                    pn = e.pn;
                    best = i;
                    best_dn = e.dn;
                } else if e.pn < second {
                    second = e.pn;
                }
            }
            let here = Pn { pn, dn };
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                state.table.insert(key, here);
                return Ok(here);
            }
            let child_th_pn = th_pn.min(second.saturating_add(1 + second / 4));
            let child_th_dn = pn_sum(th_dn.saturating_sub(dn), best_dn).min(INF);
            board.make(a, kids[best] as Cell);
            let r = self.pn_and(board, state, child_depth, child_th_pn, child_th_dn);
            board.unmake();
            r?;
        }
    }

    /// Defender to move: searches until the node's numbers reach a threshold.
    fn pn_and(
        &mut self,
        board: &mut Board,
        state: &mut PnState,
        depth: u16,
        th_pn: u32,
        th_dn: u32,
    ) -> Result<Pn, ()> {
        if self.spent() {
            return Err(());
        }
        state.make_room();
        let a = self.attacker;
        let d = a.opponent();
        let position = position_key(board, a);
        let key = pn_key(position, state.keyed(depth), true);
        if let Some(&known) = state.table.get(&key) {
            if known.pn == 0 || known.dn == 0 {
                return Ok(known);
            }
        }
        let Some(kids) = self.pn_expand(board, state, key, depth, true)? else {
            return Ok(state.table.get(&key).copied().unwrap_or(DISPROVEN));
        };
        loop {
            let mut pn = 0;
            let mut dn = INF;
            let mut second = INF;
            let mut best = 0;
            let mut best_pn = 0;
            for (i, &c) in kids.iter().enumerate() {
                let ck = pn_key(
                    position ^ STONE_KEYS[d.index()][c as Cell],
                    state.keyed(depth),
                    false,
                );
                let e = state.table.get(&ck).copied().unwrap_or(UNKNOWN);
                pn = pn_sum(pn, e.pn);
                if e.dn < dn {
                    second = dn;
                    dn = e.dn;
                    best = i;
                    best_pn = e.pn;
                } else if e.dn < second {
                    second = e.dn;
                }
            }
            let here = Pn { pn, dn };
            if pn >= th_pn || dn >= th_dn || pn == 0 || dn == 0 {
                state.table.insert(key, here);
                return Ok(here);
            }
            let child_th_dn = th_dn.min(second.saturating_add(1 + second / 4));
            let child_th_pn = pn_sum(th_pn.saturating_sub(pn), best_pn).min(INF);
            board.make(d, kids[best] as Cell);
            let r = self.pn_or(board, state, depth, child_th_pn, child_th_dn);
            board.unmake();
            r?;
        }
    }

    /// The winning line of a proven root, read from the proof-number tables (a node whose
    /// proof the tables no longer hold is proven again). `None` if the budget ran out.
    fn pn_line(&mut self, board: &mut Board, state: &mut PnState, depth: u16) -> Option<Vec<Cell>> {
        let a = self.attacker;
        let d = a.opponent();
        let mut line = Vec::new();
        let mut depth = depth;
        let mut made = 0;
        let done = loop {
            // Attacker to move.
            if let Some(f) = five_points(board, a).first() {
                line.push(f);
                break true;
            }
            match self.vcf_line(board, a, depth) {
                Ok(Some(vcf)) => {
                    line.extend(vcf);
                    break true;
                }
                Ok(None) => {}
                Err(()) => break false,
            }
            let m = match self.pn_proven_child(board, state, depth, false) {
                ProvenChild::Move(m) => m,
                _ => break false,
            };
            board.make(a, m);
            made += 1;
            line.push(m);
            depth -= 1;
            // Defender to move.
            let (f1, f2) = first_two(five_points(board, a));
            if f1.is_some() && f2.is_some() && every_block_leaves_five(board, a) {
                match losing_answer(board, a) {
                    (Some(f), Some(g)) => line.extend([f, g]),
                    (Some(f), None) => line.push(f),
                    _ => {}
                }
                break true;
            }
            match self.pn_proven_child(board, state, depth, true) {
                ProvenChild::Move(c) => {
                    board.make(d, c);
                    made += 1;
                    line.push(c);
                }
                // No legal answer at all (renju): the line ends with the attacker's move.
                ProvenChild::Terminal => break true,
                ProvenChild::Lost => break false,
            }
        };
        for _ in 0..made {
            board.unmake();
        }
        done.then_some(line)
    }

    /// A child that the tables prove winning for the attacker (for the defender: one of its
    /// answers, all of which lose). Proves the node again if the tables lost the proof.
    fn pn_proven_child(
        &mut self,
        board: &mut Board,
        state: &mut PnState,
        depth: u16,
        defender: bool,
    ) -> ProvenChild {
        let a = self.attacker;
        let (mover, child_depth) = if defender {
            (a.opponent(), depth)
        } else {
            (a, depth.saturating_sub(1))
        };
        for _ in 0..3 {
            let position = position_key(board, a);
            let key = pn_key(position, state.keyed(depth), defender);
            let kids = match self.pn_expand(board, state, key, depth, defender) {
                Ok(Some(kids)) => kids,
                Ok(None) => {
                    let proven = state.table.get(&key).is_some_and(|e| e.pn == 0);
                    return if proven {
                        ProvenChild::Terminal
                    } else {
                        ProvenChild::Lost
                    };
                }
                Err(()) => return ProvenChild::Lost,
            };
            for &c in kids.iter() {
                let ck = pn_key(
                    position ^ STONE_KEYS[mover.index()][c as Cell],
                    state.keyed(child_depth),
                    !defender,
                );
                if state.table.get(&ck).is_some_and(|e| e.pn == 0) {
                    return ProvenChild::Move(c as Cell);
                }
            }
            // The proof was dropped to make room: prove this node again.
            loop {
                let r = if defender {
                    self.pn_and(board, state, depth, INF, INF)
                } else {
                    self.pn_or(board, state, depth, INF, INF)
                };
                match r {
                    Ok(r) if r.pn == 0 => break,
                    Ok(r) if r.dn == 0 => return ProvenChild::Lost,
                    Ok(_) => {}
                    Err(()) => return ProvenChild::Lost,
                }
            }
        }
        ProvenChild::Lost
    }
}
