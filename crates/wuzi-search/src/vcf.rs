//! VCF: victory by continuous fours. The attacker plays only fours; the defender's answer to
//! each is forced (a five point), so the search is a single-player depth-first search over the
//! attacker's fours, with its own transposition table keyed by the position's stones.
//!
//! Rules of the search (see `threat.rs` for the terms):
//! - the attacker wins at once with a five point;
//! - if the defender has a five point the attacker must take it, and that move must itself be
//!   a four (two or more defender five points: no VCF);
//! - renju Black's fours must not be forbidden; a Black defender may not answer on a
//!   forbidden point, so a White four with only forbidden answers wins;
//! - a four with several five points wins if every legal answer leaves a five point (caro's
//!   blocked fives and renju's exact five are in the core's tables); otherwise every legal
//!   answer is searched.
//!
//! Invariants: the board is returned exactly as it was given; a `Win` line has been played
//! out by the search itself; table entries are only reused for the same rule and board size;
//! `NoWin` means no VCF within the depth exists at all (the search is exhaustive), `Unknown`
//! that the node budget ran out. No allocation per node once the buffers have grown.

use crate::threat::{
    distance, first_two, five_points, four_reply, game_over, is_caro, is_legal, losing_line,
    position_key, threat_score, FourReply, Node, Outcome, PvStack, SolveResult, Table, TableTag,
    NONE,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;
use wuzi_core::{flag, Bitboard, Board, Cell, Color, Pattern, Rule, Threat};

/// The result of a VCF search.
pub type VcfResult = SolveResult;

/// Answer of [`VcfSolver::probe`], which builds no line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// A win starting with this move.
    Win(Cell),
    NoWin,
    Unknown,
}

/// Depth used for "no depth limit" (more fours than any board holds).
pub const UNLIMITED: u32 = 1000;

/// Table depth of a failure that no depth limit caused (it holds at every depth).
const ABSOLUTE: u16 = NONE - 1;

/// A VCF solver with its transposition table. Reuse one solver for many calls: the table
/// keeps what was proven (it is emptied when the rule or the board size changes). `'s` is
/// the life of the stop flag it may be given ([`VcfSolver::set_stop`]).
pub struct VcfSolver<'s> {
    table: Table,
    pv: PvStack,
    moves: Vec<(i32, Cell)>,
    attacker: Color,
    nodes: u64,
    limit: u64,
    deadline: Option<Instant>,
    stop: Option<&'s AtomicBool>,
    /// `solve` wants the line, so table wins only order moves (the search then replays the
    /// stored winning moves first, which is cheap); `probe` takes them as they are.
    want_line: bool,
    /// Set when some node failed only because its depth ran out.
    depth_cut: bool,
}

impl Default for VcfSolver<'_> {
    fn default() -> Self {
        VcfSolver::new()
    }
}

impl<'s> VcfSolver<'s> {
    /// A solver with a table of 2^18 entries (4 MiB, allocated on first use).
    pub fn new() -> VcfSolver<'s> {
        VcfSolver::with_table_bits(18)
    }

    /// A solver with a table of `2^bits` entries of 16 bytes (`bits` clamped to 4..=28).
    pub fn with_table_bits(bits: u32) -> VcfSolver<'s> {
        VcfSolver {
            table: Table::new(bits),
            pv: PvStack::new(),
            moves: Vec::with_capacity(1024),
            attacker: Color::Black,
            nodes: 0,
            limit: u64::MAX,
            deadline: None,
            stop: None,
            want_line: true,
            depth_cut: false,
        }
    }

    /// Bytes of the table once allocated.
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets everything proven.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Replaces the table with an empty one of `2^bits` entries (allocated on first use).
    pub fn set_table_bits(&mut self, bits: u32) {
        self.table = Table::new(bits);
    }

    /// Searches for a VCF of `attacker`, who moves next whatever the board's side to move, of
    /// at most `max_depth` fours before the five ([`UNLIMITED`] for no limit), visiting at
    /// most `node_limit` nodes. A position whose last move made a five is over (`NoWin`).
    /// The board is left as it was.
    pub fn solve(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_depth: u32,
        node_limit: u64,
    ) -> Outcome {
        self.want_line = true;
        let node = self.run(board, attacker, max_depth, node_limit);
        let result = match node {
            Node::Win => SolveResult::Win(self.pv.get(0).to_vec()),
            Node::Fail => SolveResult::NoWin,
            Node::Abort => SolveResult::Unknown,
        };
        Outcome {
            result,
            nodes: self.nodes,
        }
    }

    /// Like [`VcfSolver::solve`] but only says whether a VCF exists and its first move; builds
    /// no line and allocates nothing (for the leaves of the main search).
    pub fn probe(
        &mut self,
        board: &mut Board,
        attacker: Color,
        max_depth: u32,
        node_limit: u64,
    ) -> Probe {
        self.want_line = false;
        match self.run(board, attacker, max_depth, node_limit) {
            Node::Win => self
                .pv
                .get(0)
                .first()
                .map_or(Probe::NoWin, |&c| Probe::Win(c)),
            Node::Fail => Probe::NoWin,
            Node::Abort => Probe::Unknown,
        }
    }

    /// Makes later calls give up (`Unknown`) once `deadline` has passed (checked every 1024
    /// nodes); `None` (the default) for no time limit.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Makes later calls give up (`Unknown`) once `stop` is set (checked with the deadline),
    /// so that a search's stop reaches the threat solvers it runs; `None` (the default) for
    /// no flag.
    pub fn set_stop(&mut self, stop: Option<&'s AtomicBool>) {
        self.stop = stop;
    }

    /// Whether the deadline has passed or the stop flag is set.
    pub(crate) fn interrupted(deadline: Option<Instant>, stop: Option<&AtomicBool>) -> bool {
        stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || deadline.is_some_and(|t| Instant::now() >= t)
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last call that failed could have succeeded with a larger depth (some line
    /// was cut by the depth limit).
    pub fn depth_was_limiting(&self) -> bool {
        self.depth_cut
    }

    fn run(&mut self, board: &mut Board, attacker: Color, max_depth: u32, limit: u64) -> Node {
        self.nodes = 0;
        self.limit = limit;
        self.attacker = attacker;
        self.depth_cut = false;
        self.table.prepare(TableTag::of(board, 0));
        if game_over(board) {
            return Node::Fail;
        }
        let depth = max_depth.min(UNLIMITED) as u16;
        self.attack(board, depth, 0)
    }

    /// Attacker to move with `depth` fours left. On a win, `pv[ply]` holds the line.
    fn attack(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        self.nodes += 1;
        if self.nodes > self.limit {
            return Node::Abort;
        }
        if self.nodes % 1024 == 0 && Self::interrupted(self.deadline, self.stop) {
            self.limit = 0;
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
        if depth == 1 && !is_caro(board.rule()) {
            return self.last_four(board, df, ply);
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
                if e.win <= depth && !self.want_line {
                    self.pv.set(ply, &[e.best as Cell]);
                    return Node::Win;
                }
            }
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);

        let base = self.moves.len();
        match df {
            Some(f) => {
                if board.flags_at(a, f) & flag::FOUR != 0 {
                    self.moves.push((0, f));
                }
            }
            None => self.gen_fours(board, hint),
        }
        let end = self.moves.len();
        self.moves[base..end].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));

        let mut result = Node::Fail;
        for i in base..end {
            let m = self.moves[i].1;
            if !is_legal(board, a, m) {
                continue;
            }
            board.make(a, m);
            let r = self.answer(board, depth - 1, ply + 1);
            board.unmake();
            match r {
                Node::Win => {
                    self.pv.set_prefix(ply, &[m]);
                    self.table.store_win(key, depth, m);
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
        let cut_here = self.depth_cut;
        self.depth_cut |= outer_cut;
        if result == Node::Fail {
            self.table
                .store_fail(key, if cut_here { depth } else { ABSOLUTE });
        }
        result
    }

    /// One four left (outside caro): it must win at once, so only moves that make two five
    /// points (`flag::OPEN_FOUR`) or, for White in renju, a four whose five point may be
    /// forbidden for Black, are played. Saves making every four at the leaves.
    fn last_four(&mut self, board: &mut Board, defender_five: Option<Cell>, ply: usize) -> Node {
        let a = self.attacker;
        let renju_white = board.rule() == Rule::Renju && a == Color::White;
        let fours = *board.cells_making(a, flag::FOUR);
        if fours.is_empty() {
            return Node::Fail;
        }
        let mut candidates = *board.cells_making(a, flag::OPEN_FOUR);
        if renju_white {
            for m in fours.iter() {
                let trap = (0..4).any(|dir| {
                    board.pattern_at(a, m, dir).four_count() > 0
                        && board
                            .completion_cells(a, m, dir)
                            .any(|p| board.is_forbid_candidate(p))
                });
                if trap {
                    candidates.insert(m);
                }
            }
        }
        if let Some(f) = defender_five {
            let only_f = candidates.contains(f);
            candidates = Bitboard::EMPTY;
            if only_f {
                candidates.insert(f);
            }
        }
        for m in candidates.iter() {
            if !is_legal(board, a, m) {
                continue;
            }
            board.make(a, m);
            let r = self.answer(board, 0, ply + 1);
            board.unmake();
            if r == Node::Win {
                self.pv.set_prefix(ply, &[m]);
                return Node::Win;
            }
        }
        // A longer line might have gone on from some four.
        self.depth_cut = true;
        Node::Fail
    }

    /// The attacker's fours, best first: fours that also make an open four or a three, then
    /// those near the attacker's last stone; the table's move first of all.
    fn gen_fours(&mut self, board: &Board, hint: Option<Cell>) {
        let a = self.attacker;
        let last = board.last_cell();
        let fours = *board.cells_making(a, flag::FOUR);
        for m in fours.iter() {
            let mut score = threat_score(board, a, m) * 16;
            if board.threat_at(a, m) == Threat::Forbidden {
                score -= 1000;
            }
            if let Some(l) = last {
                score += 8 - distance(board, m, l).min(8) as i32;
            }
            if Some(m) == hint {
                score += 1 << 20;
            }
            self.moves.push((score, m));
        }
    }

    /// Defender to move after the attacker's four; `depth` fours are left. On a win,
    /// `pv[ply]` holds the line from the defender's answer on (empty when the defender has no
    /// legal answer).
    fn answer(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        let a = self.attacker;
        let d = a.opponent();
        let fives = match four_reply(board, a) {
            FourReply::NotForced => return Node::Fail,
            FourReply::Lost => {
                let line = losing_line(board, a);
                self.pv.set(ply, &line);
                return Node::Win;
            }
            FourReply::Block(f) => {
                board.make(d, f);
                let r = self.attack(board, depth, ply + 1);
                board.unmake();
                if r == Node::Win {
                    self.pv.set_prefix(ply, &[f]);
                }
                return r;
            }
            // Caro: some answer may leave the other five blocked; every legal answer must
            // lose.
            FourReply::EachOf(fives) => fives,
        };
        let mut any_legal = false;
        let mut best_len = 0;
        for f in fives.iter() {
            if !is_legal(board, d, f) {
                continue;
            }
            any_legal = true;
            board.make(d, f);
            let r = self.attack(board, depth, ply + 1);
            board.unmake();
            match r {
                Node::Win => {
                    let len = self.pv.len_at(ply + 1) + 1;
                    if len > best_len {
                        best_len = len;
                        self.pv.set_prefix(ply, &[f]);
                    }
                }
                other => return other,
            }
        }
        if !any_legal {
            self.pv.set(ply, &[]);
        }
        Node::Win
    }
}

/// The zone of a forcing line of `attacker`, played from the current position: every empty
/// cell where a defender stone could stop the line. Such a stone must either
/// - take one of the line's cells (an attacker move, a defender answer, a five point left at
///   the end), or
/// - turn one of the defender's answers into a four or a five (so that the attacker must
///   answer it): the answer's line in that direction must then already hold a three of the
///   defender (`Pattern::B3` or better), and the stone lies within five along it, or
/// - in caro, block a five at its far end; in renju with White attacking, make one of the
///   final five points legal for Black: for these, the five points' full lines are added.
///
/// - in renju, change whether a point that the line needs forbidden or allowed is so: Black's
///   own moves when Black attacks (a White stone can turn a fake three real, and so make a
///   Black move of the line forbidden), the final five points when White attacks (a Black
///   stone can make one of them legal). The recursive fake-three rule reaches further than
///   five cells (a stone that spoils a five at a completion point of a completion point), so
///   for these points the whole `Board::forbidden_reach` is added: the lines of every point
///   the recursive check examines.
///
/// The defender's own fours (which force the attacker at once) are not included; callers add
/// them. The board is left as it was.
pub(crate) fn line_zone(board: &mut Board, attacker: Color, line: &[Cell]) -> Bitboard {
    let defender = attacker.opponent();
    let caro = is_caro(board.rule());
    let renju_white = board.rule() == Rule::Renju && attacker == Color::White;
    let renju_black = board.rule() == Rule::Renju && attacker == Color::Black;
    // Cells that can change whether a point of the line is forbidden (renju only).
    let mut reach = Bitboard::EMPTY;
    // (cell, direction mask) whose lines must be added once the board is restored.
    let mut windows: [(Cell, u8); 128] = [(0, 0); 128];
    let mut n = 0;
    let mut zone = Bitboard::EMPTY;
    let mut played = 0;
    for (i, &c) in line.iter().enumerate() {
        if !board.is_empty_cell(c) {
            break;
        }
        zone.insert(c);
        let color = if i % 2 == 0 { attacker } else { defender };
        if color == defender {
            let mut dirs = 0u8;
            for dir in 0..4 {
                let p = board.pattern_at(defender, c, dir);
                if p >= Pattern::B3 {
                    dirs |= 1 << dir;
                }
            }
            if caro {
                dirs = 15;
            }
            if dirs != 0 && n < windows.len() {
                windows[n] = (c, dirs);
                n += 1;
            }
        }
        if renju_black && color == Color::Black && board.is_forbid_candidate(c) {
            reach = reach.or(&board.forbidden_reach(c));
        }
        board.make(color, c);
        played += 1;
    }
    let ends = *five_points(board, attacker);
    if renju_white {
        for e in ends.iter() {
            if board.is_forbid_candidate(e) {
                reach = reach.or(&board.forbidden_reach(e));
            }
        }
    }
    for _ in 0..played {
        board.unmake();
    }
    for e in ends.iter() {
        zone.insert(e);
        if (caro || renju_white) && n < windows.len() {
            windows[n] = (e, 15);
            n += 1;
        }
    }
    for c in reach.iter() {
        if board.is_empty_cell(c) {
            zone.insert(c);
        }
    }
    let offsets = board.dir_offsets();
    for &(c, dirs) in &windows[..n] {
        for (dir, &off) in offsets.iter().enumerate() {
            if dirs >> dir & 1 == 0 {
                continue;
            }
            for k in 1..=5 {
                for x in [c + k * off, c.wrapping_sub(k * off)] {
                    if board.is_on_board(x) && board.is_empty_cell(x) {
                        zone.insert(x);
                    }
                }
            }
        }
    }
    zone
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Point;

    /// A dense renju position (stones of both colours dropped on the central square).
    fn dense(seed: u64) -> Board {
        let mut rng = wuzi_core::rng::Rng::new(seed);
        let mut board = Board::new(15, 15, Rule::Renju).expect("size");
        let black = 14 + (seed % 15) as usize;
        for (color, n) in [(Color::Black, black), (Color::White, black * 3 / 4)] {
            let mut placed = 0;
            for _ in 0..10_000 {
                if placed == n {
                    break;
                }
                let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
                if board.is_empty_at(p) && board.place(color, p).is_ok() {
                    placed += 1;
                }
            }
        }
        board
    }

    /// The gap the zone had: a White stone more than five cells from a Black move of the line
    /// can make that move forbidden (by turning a fake three real), and so stop the line. The
    /// zone must hold every such stone.
    #[test]
    fn the_zone_holds_far_stones_that_make_a_black_move_forbidden() {
        let mut found = 0;
        for seed in 0..400u64 {
            let mut board = dense(seed);
            let candidates: Vec<Cell> = board
                .cells_making(Color::Black, flag::FORBID_CANDIDATE)
                .iter()
                .collect();
            for c in candidates {
                if board.forbidden_kind_at(c).is_some() {
                    continue;
                }
                let p = board.point(c);
                let zone = line_zone(&mut board, Color::Black, &[c]);
                for s in board.empty_points() {
                    if s.x.abs_diff(p.x).max(s.y.abs_diff(p.y)) <= 5 {
                        continue;
                    }
                    board.place(Color::White, s).expect("empty");
                    let now_forbidden = board.forbidden_kind_at(c).is_some();
                    board.undo().expect("undo");
                    if now_forbidden {
                        found += 1;
                        let sc = board.cell(s).expect("on board");
                        assert!(
                            zone.contains(sc),
                            "seed {seed}: White at {s} makes {p} forbidden, not in the zone"
                        );
                    }
                }
            }
        }
        assert!(
            found > 0,
            "no far White stone that makes a Black move forbidden"
        );
    }
}
