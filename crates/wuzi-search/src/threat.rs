//! Shared ground of the threat-space solvers (`vcf.rs`, `vct/`): the result types, the
//! rule-aware answer of a defender to a four, the *zone* of a forcing line and the replay of
//! a line.
//!
//! Terms used by both solvers:
//! - a **four** is an attacker move after which the attacker has at least one *five point*
//!   (an empty cell where the attacker's stone wins under the rule: `flag::FIVE`, which is
//!   already exact for renju Black and excludes caro's blocked fives);
//! - the defender answers a four on one of its five points; in renju a Black defender may not
//!   answer on a forbidden point, so a White four whose every five point is forbidden for
//!   Black wins at once;
//! - **depth** counts the attacker's moves in a line *before* the final five (the five is
//!   free once it is unstoppable): a position with a five point has a win of depth 0, a
//!   straight four wins in depth 1.
//!
//! A winning line lists attacker and defender moves alternately, starting with the attacker.
//! It ends with the attacker's five, except for a White win in renju where Black's only
//! defences are forbidden: that line ends with the White move that leaves Black no legal
//! defence (any Black move then lets White make five).

use wuzi_core::{flag, Bitboard, Board, Cell, Color, Rule};

/// What a solver proved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveResult {
    /// The attacker wins by force; the line (see the module documentation).
    Win(Vec<Cell>),
    /// No win exists within the depth (for VCT: within the threat space searched).
    NoWin,
    /// The node or time budget ran out first; nothing is known.
    Unknown,
}

impl SolveResult {
    pub fn is_win(&self) -> bool {
        matches!(self, SolveResult::Win(_))
    }

    /// The first move of a win.
    pub fn first_move(&self) -> Option<Cell> {
        match self {
            SolveResult::Win(line) => line.first().copied(),
            _ => None,
        }
    }
}

/// A result and the nodes it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub result: SolveResult,
    pub nodes: u64,
}

/// Result of one search node.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Node {
    Win,
    Fail,
    Abort,
}

/// Whether `color` may play on the empty cell `cell` (only renju Black has forbidden points).
#[inline]
pub(crate) fn is_legal(board: &mut Board, color: Color, cell: Cell) -> bool {
    board.may_play(color, cell)
}

/// The attacker's five points (empty cells where it makes a winning five).
#[inline]
pub(crate) fn five_points(board: &Board, color: Color) -> &Bitboard {
    board.cells_making(color, flag::FIVE)
}

/// Up to two cells of a set (enough to tell none, one and several apart). Reads the words in
/// place: `Bitboard::iter` copies the whole set first, a call to `memmove` that cost about 1%
/// of the search for the one or two cells wanted here.
#[inline]
pub(crate) fn first_two(set: &Bitboard) -> (Option<Cell>, Option<Cell>) {
    let mut found = (None, None);
    for (i, &word) in set.words().iter().enumerate() {
        if word == 0 {
            continue;
        }
        let cell = i * 64 + word.trailing_zeros() as usize;
        if found.0.is_some() {
            found.1 = Some(cell);
            return found;
        }
        found.0 = Some(cell);
        let rest = word & (word - 1);
        if rest != 0 {
            found.1 = Some(i * 64 + rest.trailing_zeros() as usize);
            return found;
        }
    }
    found
}

/// A key for positions of a solver: the stones only (the side to move removed) and the
/// attacker's colour.
#[inline]
pub(crate) fn position_key(board: &Board, attacker: Color) -> u64 {
    let side = if board.side_to_move() == Color::White {
        wuzi_core::zobrist::WHITE_TO_MOVE
    } else {
        0
    };
    let att = match attacker {
        Color::Black => 0,
        Color::White => 0x9d1c_5b8e_2f3a_6471,
    };
    board.hash() ^ side ^ att
}

/// Whether the forcing line `line` (a win found for `attacker`, starting with the attacker's
/// move) still wins on `board` as it is now: every attacker move must still be an empty,
/// legal four, the defender's answers are re-derived (the single legal five point), and the
/// line must end in a five or in a four Black cannot legally stop. Conservative: anything
/// unusual (a defender five, several answers) counts as "no longer wins". The board is left
/// as it was.
pub(crate) fn line_still_wins(board: &mut Board, attacker: Color, line: &[Cell]) -> bool {
    let defender = attacker.opponent();
    let mut made = 0;
    let mut ok = false;
    let mut i = 0;
    loop {
        if !five_points(board, attacker).is_empty() {
            ok = true;
            break;
        }
        if i >= line.len() || !five_points(board, defender).is_empty() {
            break;
        }
        let m = line[i];
        if !board.is_empty_cell(m) || !is_legal(board, attacker, m) {
            break;
        }
        board.make(attacker, m);
        made += 1;
        let (a, b) = first_two(five_points(board, attacker));
        let Some(a) = a else { break };
        if b.is_some() {
            // Several five points: only the plain case of a single legal block that leaves
            // another five point is accepted here.
            let mut legal = 0;
            let mut answer = a;
            for f in five_points(board, attacker).iter() {
                if is_legal(board, defender, f) {
                    legal += 1;
                    answer = f;
                }
            }
            if legal == 0 {
                ok = true;
                break;
            }
            if legal > 1 {
                ok = every_block_leaves_five(board, attacker);
                break;
            }
            board.make(defender, answer);
            made += 1;
        } else {
            if !is_legal(board, defender, a) {
                ok = true;
                break;
            }
            board.make(defender, a);
            made += 1;
        }
        i += 2;
    }
    for _ in 0..made {
        board.unmake();
    }
    ok
}

/// After an attacker's four with several five points: whether every legal block of the
/// defender still leaves the attacker a five point. Outside caro a defender stone cannot spoil
/// a five point (a five's cells are the attacker's), so two five points always win; in caro a
/// block can leave the other five blocked at both ends, so each block is tried.
pub(crate) fn every_block_leaves_five(board: &mut Board, attacker: Color) -> bool {
    if !is_caro(board.rule()) {
        return true;
    }
    let defender = attacker.opponent();
    let fives = *five_points(board, attacker);
    for f in fives.iter() {
        if !is_legal(board, defender, f) {
            continue;
        }
        board.make(defender, f);
        let still = !five_points(board, attacker).is_empty();
        board.unmake();
        if !still {
            return false;
        }
    }
    true
}

/// For a line: after an attacker four that every answer loses to, one legal answer and the
/// five that follows it (`(None, None)` when the defender has no legal answer).
pub(crate) fn losing_answer(board: &mut Board, attacker: Color) -> (Option<Cell>, Option<Cell>) {
    let defender = attacker.opponent();
    let fives = *five_points(board, attacker);
    let Some(f) = fives.iter().find(|&f| is_legal(board, defender, f)) else {
        return (None, None);
    };
    board.make(defender, f);
    let five = five_points(board, attacker).first();
    board.unmake();
    (Some(f), five)
}

/// How the defender must answer when the attacker has a five point (a four on the board): the
/// forced reply that the VCF and both VCT searches decide the same way.
// Made and consumed once per node, like the copy of the five points it replaces; boxing the
// set would allocate on the solvers' hot path.
#[allow(clippy::large_enum_variant)]
pub(crate) enum FourReply {
    /// The attacker has no five point: nothing is forced.
    NotForced,
    /// One five point, legal for the defender: the only move.
    Block(Cell),
    /// No answer stops every five (one five point the defender may not take, or several
    /// outside caro): the attacker wins. [`losing_line`] shows how.
    Lost,
    /// Several five points under caro: a block may leave the other five blocked at both
    /// ends, so every legal answer among these must be tried.
    EachOf(Bitboard),
}

/// The defender's forced reply to `attacker`'s five points.
pub(crate) fn four_reply(board: &mut Board, attacker: Color) -> FourReply {
    let (first, second) = first_two(five_points(board, attacker));
    let Some(first) = first else {
        return FourReply::NotForced;
    };
    if second.is_none() {
        return if is_legal(board, attacker.opponent(), first) {
            FourReply::Block(first)
        } else {
            FourReply::Lost
        };
    }
    if every_block_leaves_five(board, attacker) {
        FourReply::Lost
    } else {
        FourReply::EachOf(*five_points(board, attacker))
    }
}

/// The line of a [`FourReply::Lost`]: one legal answer and the five that follows it, or
/// nothing when the defender has no legal answer.
pub(crate) fn losing_line(board: &mut Board, attacker: Color) -> Vec<Cell> {
    match losing_answer(board, attacker) {
        (Some(answer), Some(five)) => vec![answer, five],
        (Some(answer), None) => vec![answer],
        _ => Vec::new(),
    }
}

/// Whether the rule is one of the caro rules (a five blocked at both ends does not win).
#[inline]
pub(crate) fn is_caro(rule: Rule) -> bool {
    matches!(rule, Rule::Caro | Rule::CaroExact)
}

/// Whether the last stone played completed a winning five (the game is over).
pub(crate) fn game_over(board: &Board) -> bool {
    board.last_cell().is_some_and(|c| board.is_winning_stone(c))
}

/// Cheap ordering score of an empty cell for `color`: its threat class.
#[inline]
pub(crate) fn threat_score(board: &Board, color: Color, cell: Cell) -> i32 {
    board.threat_at(color, cell) as i32
}

/// Chebyshev distance between two cells of `board`.
#[inline]
pub(crate) fn distance(board: &Board, a: Cell, b: Cell) -> usize {
    let s = board.stride();
    let (ax, ay) = (a % s, a / s);
    let (bx, by) = (b % s, b / s);
    ax.abs_diff(bx).max(ay.abs_diff(by))
}

/// Parameters that make a table's entries meaningless when they change.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct TableTag {
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    pub extra: u32,
}

impl TableTag {
    pub fn of(board: &Board, extra: u32) -> TableTag {
        TableTag {
            rule: board.rule(),
            width: board.width(),
            height: board.height(),
            extra,
        }
    }
}

/// One slot of a solver's transposition table: for one position (attacker to move), the
/// largest depth proven to fail and the smallest depth proven to win, with the winning move.
#[derive(Clone, Copy)]
pub(crate) struct Entry {
    pub key: u64,
    /// No win within this depth (`NONE` when nothing is known).
    pub fail: u16,
    /// A win within this depth (`NONE` when nothing is known).
    pub win: u16,
    pub best: u16,
}

pub(crate) const NONE: u16 = u16::MAX;

/// A fixed-size, always-replace table of [`Entry`], cleared when its tag changes. Slots are
/// two words (the key, then `fail | win << 16 | best << 32`), written with zeros when first
/// used.
pub(crate) struct Table {
    slots: Vec<[u64; 2]>,
    mask: usize,
    tag: Option<TableTag>,
}

impl Table {
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits.clamp(4, 28);
        Table {
            slots: Vec::new(),
            mask: size - 1,
            tag: None,
        }
    }

    /// Makes the table ready for positions described by `tag` (allocating it on first use,
    /// emptying it when the tag changed).
    pub fn prepare(&mut self, tag: TableTag) {
        if self.slots.is_empty() {
            // Written, not allocated zeroed: a zeroed allocation is untouched pages that map
            // the kernel's zero page, and the first store to each after a probe copies it,
            // which with several threads flushes every other core's TLB (as for the
            // transposition table, `tt.rs`).
            let mut slots = Vec::with_capacity(self.mask + 1);
            slots.resize(self.mask + 1, [0u64; 2]);
            self.slots = slots;
        } else if self.tag != Some(tag) {
            self.clear();
        }
        self.tag = Some(tag);
    }

    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = [0; 2]);
    }

    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let s = self.slots.get(key as usize & self.mask)?;
        (s[0] == key && key != 0).then(|| Entry {
            key,
            fail: s[1] as u16,
            win: (s[1] >> 16) as u16,
            best: (s[1] >> 32) as u16,
        })
    }

    #[inline]
    fn write(&mut self, e: Entry) {
        let mask = self.mask;
        if let Some(s) = self.slots.get_mut(e.key as usize & mask) {
            *s = [
                e.key,
                e.fail as u64 | (e.win as u64) << 16 | (e.best as u64) << 32,
            ];
        }
    }

    /// Records that the position fails within `depth`.
    #[inline]
    pub fn store_fail(&mut self, key: u64, depth: u16) {
        let e = match self.probe(key) {
            Some(mut e) => {
                if e.fail == NONE || e.fail < depth {
                    e.fail = depth;
                }
                e
            }
            None => Entry {
                key,
                fail: depth,
                win: NONE,
                best: 0,
            },
        };
        self.write(e);
    }

    /// Records that the position wins within `depth` by `best`.
    #[inline]
    pub fn store_win(&mut self, key: u64, depth: u16, best: Cell) {
        let e = match self.probe(key) {
            Some(mut e) => {
                if e.win == NONE || depth < e.win {
                    e.win = depth;
                    e.best = best as u16;
                }
                e
            }
            None => Entry {
                key,
                fail: NONE,
                win: depth,
                best: best as u16,
            },
        };
        self.write(e);
    }

    /// Bytes the table uses once allocated.
    pub fn bytes(&self) -> usize {
        (self.mask + 1) * std::mem::size_of::<[u64; 2]>()
    }
}

/// A per-ply principal-variation store that allocates only while it grows.
pub(crate) struct PvStack {
    lines: Vec<Vec<Cell>>,
}

impl PvStack {
    pub fn new() -> PvStack {
        PvStack { lines: Vec::new() }
    }

    #[inline]
    fn ensure(&mut self, ply: usize) {
        while self.lines.len() <= ply + 1 {
            self.lines.push(Vec::with_capacity(64));
        }
    }

    /// `line[ply] = moves ++ line[ply + 1]`.
    #[inline]
    pub fn set_prefix(&mut self, ply: usize, moves: &[Cell]) {
        self.ensure(ply);
        let (lo, hi) = self.lines.split_at_mut(ply + 1);
        let dst = &mut lo[ply];
        dst.clear();
        dst.extend_from_slice(moves);
        dst.extend_from_slice(&hi[0]);
    }

    /// `line[ply] = moves`.
    #[inline]
    pub fn set(&mut self, ply: usize, moves: &[Cell]) {
        self.ensure(ply);
        let dst = &mut self.lines[ply];
        dst.clear();
        dst.extend_from_slice(moves);
    }

    pub fn get(&self, ply: usize) -> &[Cell] {
        self.lines.get(ply).map_or(&[], |v| v.as_slice())
    }

    /// Length of `line[ply]`.
    pub fn len_at(&self, ply: usize) -> usize {
        self.lines.get(ply).map_or(0, |v| v.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use wuzi_core::geometry::MAX_CELLS;

    proptest! {
        /// `first_two` reads the words in place; the set's own iterator is the reference.
        #[test]
        fn first_two_are_the_first_two_of_the_set(
            cells in prop::collection::vec(0..MAX_CELLS, 0..4),
        ) {
            let mut set = Bitboard::EMPTY;
            for &c in &cells {
                set.insert(c);
            }
            let mut it = set.iter();
            prop_assert_eq!(first_two(&set), (it.next(), it.next()));
        }
    }
}
