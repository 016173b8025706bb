//! The proof-number VCT search: [`VctSolver::solve_pn`], depth-first proof-number search
//! (df-pn) at the full depth over the same threat space as the depth-first search, with
//! bounded tables that live for one call. The threat logic it shares with the depth-first
//! search lives in the parent module.

use super::{Defences, VctLimits, VctSolver, DEFEND_KEY};
use crate::threat::{
    first_two, five_points, four_reply, is_legal, losing_line, position_key, FourReply, Outcome,
    SolveResult,
};
use crate::vcf::UNLIMITED;
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::rc::Rc;
use wuzi_core::zobrist::STONE_KEYS;
use wuzi_core::{flag, Bitboard, Board, Cell, Color};

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

impl VctSolver<'_> {
    /// Like [`VctSolver::solve`], by depth-first proof-number search (df-pn with the 1 + ε
    /// trick) at `limits.max_depth` directly instead of iterative deepening: the same threat
    /// space and the same verdicts, usually far fewer nodes on long forcing lines, but the win
    /// found need not be the shortest. Its tables live for the call only and are bounded by
    /// `bits` as given to [`VctSolver::with_table_bits`]: at most 2^(bits + 3) proof numbers
    /// (about 20 bytes each) and 2^bits cached move lists (about 50 bytes each), i.e. about
    /// 55 MB for the default 18 bits and 14 MB for 16; past that, unsolved nodes are forgotten
    /// (slower, still correct).
    pub fn solve_pn(&mut self, board: &mut Board, attacker: Color, limits: &VctLimits) -> Outcome {
        let outcome = |result, nodes| Outcome { result, nodes };
        if !self.begin(board, attacker, limits) {
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
        let (set, line) = match four_reply(board, a) {
            FourReply::Lost => return Ok(Expansion::Proven),
            FourReply::Block(f) => {
                let mut set = Bitboard::EMPTY;
                set.insert(f);
                (set, None)
            }
            FourReply::EachOf(fives) => (fives, None),
            FourReply::NotForced => {
                if depth == 0 {
                    return Ok(Expansion::Disproven);
                }
                match self.threat_defences(board, depth)? {
                    Defences::Refuted => return Ok(Expansion::Disproven),
                    Defences::NoLegalMove => return Ok(Expansion::Proven),
                    Defences::Moves(set, line) => (*set, Some(line)),
                }
            }
        };
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
            if let FourReply::Lost = four_reply(board, a) {
                line.extend(losing_line(board, a));
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
