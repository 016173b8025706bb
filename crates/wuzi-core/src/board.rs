//! The board: stones as a padded cell array and per-colour bitboards, the move history, the
//! Zobrist key, and the incremental line patterns of every cell.
//!
//! Layout: a board of `width x height` lives in a padded array of
//! `(width + 10) x (height + 10)` cells, row-major with `stride = width + 10`; the five cells
//! around the playing area on every side are walls. Cell `(x, y)` is
//! `(y + 5) * stride + (x + 5)`. The four line directions are the offsets
//! `1, stride, stride + 1, stride - 1` (right, down, down-right, down-left).
//!
//! Invariants, after every `make`/`unmake` (checked by `wuzi-testkit`'s
//! `reference::check_consistency`):
//! - `keys[c][d]` is the line key (see `pattern.rs`) of cell `c` in direction `d`, for every
//!   on-board cell, empty or not; under freestyle, whose patterns never depend on the fifth
//!   cell out, stones at distance five are left out of the keys (a fifth fewer updates);
//! - for every empty on-board cell, `codes` holds its four patterns per colour and `info`
//!   its combined threat and flags per colour; occupied cells have `info == 0`;
//! - `sets[color][f]` is exactly the set of empty cells whose flags for `color` have bit `f`;
//! - `hash` is the XOR of the stone keys of all stones, and `WHITE_TO_MOVE` if White moves.
//!
//! A move touches the keys of the 40 cells within five along its four lines and re-derives
//! patterns only for the empty ones among them; nothing ever rescans the board. `make`
//! logs what it overwrites, and `unmake` copies it back (`update.rs`).

use crate::bitboard::Bitboard;
use crate::pattern::{flag, mask_offset, CombinedTable, Pattern, RuleTables, Threat, REACH};
use crate::rule::{Rule, RunEnd};
use crate::types::{BoardError, Color, Point};

pub use crate::geometry::{MAX_CELLS, MAX_MOVES, MAX_SIZE, MAX_STRIDE, MIN_SIZE, PAD};

mod update;

pub(crate) const EMPTY: u8 = 0;
pub(crate) const WALL: u8 = 3;

/// A padded cell index (see the module documentation). Only meaningful with its board.
pub type Cell = usize;

/// Key change on a neighbour that sees a new stone on its positive side at distance `k`
/// (`[color][k]`), and on its negative side.
const fn deltas(negative: bool) -> [[u32; REACH + 1]; 2] {
    let mut out = [[0u32; REACH + 1]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 1;
        let mut pow = 1u32;
        while k <= REACH {
            let v = (c as u32 + 1) * pow;
            out[c][k] = if negative {
                v * crate::pattern::SIDE_CONFIGS
            } else {
                v
            };
            pow *= 3;
            k += 1;
        }
        c += 1;
    }
    out
}
pub(crate) const DELTA_POSITIVE_SIDE: [[u32; REACH + 1]; 2] = deltas(false);
pub(crate) const DELTA_NEGATIVE_SIDE: [[u32; REACH + 1]; 2] = deltas(true);

/// How far along a line a stone changes other cells' keys under `rule`: freestyle's
/// patterns never depend on the fifth cell out, so its keys leave it out.
#[inline(always)]
pub(crate) const fn key_reach(rule: Rule) -> usize {
    if matches!(rule, Rule::Freestyle) {
        REACH - 1
    } else {
        REACH
    }
}

pub struct Board {
    width: usize,
    height: usize,
    stride: usize,
    rule: Rule,
    tables: &'static RuleTables,
    dir_offsets: [usize; 4],
    stones: [u8; MAX_CELLS],
    keys: [[u32; 4]; MAX_CELLS],
    codes: [[u16; 2]; MAX_CELLS],
    info: [[u32; 2]; MAX_CELLS],
    stones_of: [Bitboard; 2],
    on_board: Bitboard,
    sets: [[Bitboard; flag::COUNT]; 2],
    history: [u16; MAX_MOVES],
    moves: usize,
    hash: u64,
    side: Color,
    /// Threat, flags and value of a cell from its pattern code (see `CombinedTable`).
    combined: &'static CombinedTable,
    /// Per colour, the sum of the combined-table values of every empty on-board cell.
    value_sums: [i32; 2],
    /// What each logged move overwrote, in move order (`update.rs`).
    undo: Vec<update::Overwritten>,
    /// Where each move's entries begin in `undo` (a full board's log fits in u16).
    undo_start: [u16; MAX_MOVES],
    /// The first history index whose move is logged.
    logged_from: usize,
}

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            undo: self.undo.clone(),
            ..*self
        }
    }

    /// Reuses the log's allocation: a helper thread takes a split point's board this way.
    fn clone_from(&mut self, source: &Board) {
        let mut undo = std::mem::take(&mut self.undo);
        undo.clone_from(&source.undo);
        *self = Board {
            undo: Vec::new(),
            ..*source
        };
        self.undo = undo;
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "Board {}x{} {} ({} to move)",
            self.width,
            self.height,
            self.rule,
            {
                match self.side {
                    Color::Black => "black",
                    Color::White => "white",
                }
            }
        )?;
        f.write_str(&self.to_text())
    }
}

impl Board {
    /// An empty board; each side 5..=32.
    pub fn new(width: usize, height: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || !(MIN_SIZE..=MAX_SIZE).contains(&height) {
            return Err(BoardError::BadSize { width, height });
        }
        let stride = width + 2 * PAD;
        let mut board = Board {
            width,
            height,
            stride,
            rule,
            tables: RuleTables::get(rule),
            dir_offsets: [1, stride, stride + 1, stride - 1],
            stones: [WALL; MAX_CELLS],
            keys: [[0; 4]; MAX_CELLS],
            codes: [[0; 2]; MAX_CELLS],
            info: [[0; 2]; MAX_CELLS],
            stones_of: [Bitboard::EMPTY; 2],
            on_board: Bitboard::EMPTY,
            sets: [[Bitboard::EMPTY; flag::COUNT]; 2],
            history: [0; MAX_MOVES],
            moves: 0,
            hash: 0,
            side: Color::Black,
            combined: &RuleTables::get(rule).combined,
            value_sums: [0; 2],
            undo: Vec::new(),
            undo_start: [0; MAX_MOVES],
            logged_from: 0,
        };
        for y in 0..height {
            for x in 0..width {
                let cell = board.cell_unchecked(x, y);
                board.stones[cell] = EMPTY;
                board.on_board.insert(cell);
            }
        }
        for cell in board.on_board.iter() {
            for d in 0..4 {
                board.keys[cell][d] = board.key_from_scratch(cell, d);
            }
            board.rederive(cell);
        }
        Ok(board)
    }

    /// Uses another combined table (same rule): a different choice of cell values for the
    /// evaluation. Re-derives every empty cell.
    pub fn set_combined_table(&mut self, table: &'static CombinedTable) {
        if std::ptr::eq(self.combined, table) || table.rule != self.rule {
            return;
        }
        self.combined = table;
        self.forget_undo_log();
        let empty = self.on_board.and_not(&self.occupied());
        for cell in empty.iter() {
            self.refresh_info(cell);
        }
    }

    pub fn combined_table(&self) -> &'static CombinedTable {
        self.combined
    }

    /// Sum over every empty on-board cell of its combined-table value for `color`; kept
    /// incrementally.
    #[inline]
    pub fn value_sum(&self, color: Color) -> i32 {
        self.value_sums[color.index()]
    }

    /// The value sums recomputed from the patterns of every empty cell (for checks).
    pub fn value_sums_from_scratch(&self) -> [i32; 2] {
        let mut sums = [0; 2];
        for cell in self.on_board.and_not(&self.occupied()).iter() {
            for (c, sum) in sums.iter_mut().enumerate() {
                *sum +=
                    CombinedTable::value_of(self.combined.entries[c][self.codes[cell][c] as usize]);
            }
        }
        sums
    }

    /// The same board, emptied (keeping its combined table).
    pub fn cleared(&self) -> Board {
        // Cannot fail: the size was validated when `self` was made.
        let mut out =
            Board::new(self.width, self.height, self.rule).unwrap_or_else(|_| self.clone());
        out.set_combined_table(self.combined);
        out
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Offsets of the four line directions.
    pub fn dir_offsets(&self) -> [usize; 4] {
        self.dir_offsets
    }

    /// Whether the cells `a` and `b` lie on one line in direction `dir` (the order of
    /// `dir_offsets`: across, down, down-right, down-left), at any distance.
    #[inline]
    pub fn on_one_line(&self, a: Cell, b: Cell, dir: usize) -> bool {
        let s = self.stride;
        let dx = (a % s) as isize - (b % s) as isize;
        let dy = (a / s) as isize - (b / s) as isize;
        match dir {
            0 => dy == 0,
            1 => dx == 0,
            2 => dx == dy,
            _ => dx == -dy,
        }
    }

    pub fn tables(&self) -> &'static RuleTables {
        self.tables
    }

    #[inline]
    fn cell_unchecked(&self, x: usize, y: usize) -> Cell {
        (y + PAD) * self.stride + x + PAD
    }

    pub fn contains(&self, p: Point) -> bool {
        (p.x as usize) < self.width && (p.y as usize) < self.height
    }

    /// The cell of an on-board point.
    pub fn cell(&self, p: Point) -> Option<Cell> {
        self.contains(p)
            .then(|| self.cell_unchecked(p.x as usize, p.y as usize))
    }

    /// The point of an on-board cell.
    pub fn point(&self, cell: Cell) -> Point {
        let y = cell / self.stride - PAD;
        let x = cell % self.stride - PAD;
        Point::new(x as u8, y as u8)
    }

    #[inline]
    pub fn is_on_board(&self, cell: Cell) -> bool {
        self.on_board.contains(cell)
    }

    #[inline]
    pub fn is_empty_cell(&self, cell: Cell) -> bool {
        cell < MAX_CELLS && self.stones[cell] == EMPTY
    }

    #[inline]
    pub fn stone_at(&self, cell: Cell) -> Option<Color> {
        match self.stones.get(cell) {
            Some(1) => Some(Color::Black),
            Some(2) => Some(Color::White),
            _ => None,
        }
    }

    pub fn stone(&self, p: Point) -> Option<Color> {
        self.cell(p).and_then(|c| self.stone_at(c))
    }

    pub fn is_empty_at(&self, p: Point) -> bool {
        self.cell(p).is_some_and(|c| self.stones[c] == EMPTY)
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn move_count(&self) -> usize {
        self.moves
    }

    pub fn is_full(&self) -> bool {
        self.moves == self.width * self.height
    }

    #[inline]
    fn history_entry(&self, i: usize) -> (Color, Cell) {
        let e = self.history[i];
        let color = if e >> 15 == 0 {
            Color::Black
        } else {
            Color::White
        };
        (color, (e & 0x3fff) as Cell)
    }

    /// The side that was to move before history entry `i` was made.
    #[inline]
    fn side_before(&self, i: usize) -> Color {
        if self.history[i] >> 14 & 1 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Moves in the order they were made.
    pub fn history(&self) -> Vec<(Color, Point)> {
        (0..self.moves)
            .map(|i| {
                let (c, cell) = self.history_entry(i);
                (c, self.point(cell))
            })
            .collect()
    }

    pub fn last_move(&self) -> Option<Point> {
        self.last_cell().map(|c| self.point(c))
    }

    #[inline]
    pub fn last_cell(&self) -> Option<Cell> {
        self.moves.checked_sub(1).map(|i| self.history_entry(i).1)
    }

    /// The stone placed `back` stones before the last one (0: the last), with its colour.
    #[inline]
    pub fn recent_move(&self, back: usize) -> Option<(Color, Cell)> {
        self.moves
            .checked_sub(back + 1)
            .map(|i| self.history_entry(i))
    }

    /// Stones of one colour.
    #[inline]
    pub fn stones_of(&self, color: Color) -> &Bitboard {
        &self.stones_of[color.index()]
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.stones_of[0].or(&self.stones_of[1])
    }

    /// All on-board cells.
    #[inline]
    pub fn on_board(&self) -> &Bitboard {
        &self.on_board
    }

    /// Empty cells within Chebyshev distance `radius` (at most 5) of any stone.
    pub fn empty_near_stones(&self, radius: usize) -> Bitboard {
        let occupied = self.occupied();
        occupied
            .dilated(radius.min(PAD), self.stride)
            .and(&self.on_board)
            .and_not(&occupied)
    }

    pub fn empty_points(&self) -> Vec<Point> {
        self.on_board
            .and_not(&self.occupied())
            .iter()
            .map(|c| self.point(c))
            .collect()
    }

    /// Empty cells whose flags for `color` contain `flag_bit` (one of `pattern::flag`).
    #[inline]
    pub fn cells_making(&self, color: Color, flag_bit: u8) -> &Bitboard {
        &self.sets[color.index()][flag_bit.trailing_zeros() as usize % flag::COUNT]
    }

    /// Empty points where `color` makes a winning five now.
    pub fn five_points(&self, color: Color) -> Vec<Point> {
        self.cells_making(color, flag::FIVE)
            .iter()
            .map(|c| self.point(c))
            .collect()
    }

    /// Line key of a cell in direction `dir` (0..4).
    #[inline]
    pub fn line_key(&self, cell: Cell, dir: usize) -> u32 {
        self.keys[cell][dir]
    }

    /// Pattern of an empty cell for `color` in direction `dir`.
    #[inline]
    pub fn pattern_at(&self, color: Color, cell: Cell, dir: usize) -> Pattern {
        Pattern::from_u8((self.codes[cell][color.index()] >> (4 * dir) & 15) as u8)
    }

    /// The four pattern nibbles of an empty cell for `color` (direction `d` at bits `4d..`).
    #[inline]
    pub fn pattern_code(&self, color: Color, cell: Cell) -> u16 {
        self.codes[cell][color.index()]
    }

    #[inline]
    pub fn threat_at(&self, color: Color, cell: Cell) -> Threat {
        Threat::from_u8(self.info[cell][color.index()] as u8)
    }

    #[inline]
    pub fn flags_at(&self, color: Color, cell: Cell) -> u8 {
        (self.info[cell][color.index()] >> 8) as u8
    }

    /// Whether `cell` is one of renju Black's forbidden-point candidates
    /// (`flag::FORBID_CANDIDATE`): a point that is forbidden or may be, for
    /// `forbidden_kind_at` to decide. Never true outside renju.
    #[inline]
    pub fn is_forbid_candidate(&self, cell: Cell) -> bool {
        self.flags_at(Color::Black, cell) & flag::FORBID_CANDIDATE != 0
    }

    /// Threat class of an empty point for `color` (`Threat::None` if occupied or off-board).
    pub fn threat(&self, color: Color, p: Point) -> Threat {
        self.cell(p)
            .map_or(Threat::None, |c| self.threat_at(color, c))
    }

    /// The completion cells of the pattern of `cell` for `color` along `dir`: the five points
    /// of a four, the straight-four points of an open three, and so on.
    pub fn completion_cells(
        &self,
        color: Color,
        cell: Cell,
        dir: usize,
    ) -> impl Iterator<Item = Cell> {
        self.completion_cells_of_key(self.keys[cell][dir], color, cell, dir)
    }

    /// [`Board::completion_cells`] of `cell` as if its key in direction `dir` were `key`.
    pub(crate) fn completion_cells_of_key(
        &self,
        key: u32,
        color: Color,
        cell: Cell,
        dir: usize,
    ) -> impl Iterator<Item = Cell> {
        let mut mask = self.tables.masks[key as usize][color.index()];
        let step = self.dir_offsets[dir] as isize;
        std::iter::from_fn(move || {
            if mask == 0 {
                return None;
            }
            let bit = mask.trailing_zeros();
            mask &= mask - 1;
            Some((cell as isize + mask_offset(bit) * step) as Cell)
        })
    }

    /// Line key computed from the stones, for initialisation and checks.
    pub(crate) fn key_from_scratch(&self, cell: Cell, dir: usize) -> u32 {
        let mut window = [crate::pattern::LineCell::Empty; crate::pattern::WINDOW];
        let off = self.dir_offsets[dir] as isize;
        for (i, slot) in window.iter_mut().enumerate() {
            let k = i as isize - REACH as isize;
            if k == 0 {
                continue;
            }
            let at = cell as isize + k * off;
            *slot = match self.stones.get(at as usize) {
                Some(&EMPTY) => crate::pattern::LineCell::Empty,
                Some(1) => crate::pattern::LineCell::Black,
                Some(2) => crate::pattern::LineCell::White,
                _ => crate::pattern::LineCell::Wall,
            };
        }
        crate::pattern::encode_window(&window)
    }

    /// Re-derive the patterns, threat and flags of an empty cell from its keys.
    fn rederive(&mut self, cell: Cell) {
        for d in 0..4 {
            self.set_pattern(cell, d);
        }
        self.refresh_info(cell);
    }

    #[inline(always)]
    fn set_pattern(&mut self, cell: Cell, dir: usize) {
        let p = self.tables.patterns[self.keys[cell][dir] as usize] as u16;
        let shift = 4 * dir;
        let codes = &mut self.codes[cell];
        codes[0] = (codes[0] & !(15 << shift)) | (p & 15) << shift;
        codes[1] = (codes[1] & !(15 << shift)) | (p >> 4) << shift;
    }

    #[inline(always)]
    fn refresh_info(&mut self, cell: Cell) {
        for c in 0..2 {
            let new = self.combined.entries[c][self.codes[cell][c] as usize];
            self.set_info(cell, c, new);
        }
    }

    /// Replace a cell's entry for colour index `c`, keeping the flag sets and value sums.
    #[inline(always)]
    fn set_info(&mut self, cell: Cell, c: usize, new: u32) {
        let old = self.info[cell][c];
        if new != old {
            self.info[cell][c] = new;
            self.toggle_flags(c, cell, ((old ^ new) >> 8) as u8);
            self.value_sums[c] += CombinedTable::value_of(new) - CombinedTable::value_of(old);
        }
    }

    #[inline(always)]
    fn toggle_flags(&mut self, color: usize, cell: Cell, mut diff: u8) {
        while diff != 0 {
            self.sets[color][diff.trailing_zeros() as usize].toggle(cell);
            diff &= diff - 1;
        }
    }

    /// Place a stone of the side to move.
    pub fn play(&mut self, p: Point) -> Result<(), BoardError> {
        self.place(self.side, p)
    }

    /// Place a stone of any colour (for composed positions: the other side is taken to have
    /// passed). The side to move becomes `color.opponent()`.
    pub fn place(&mut self, color: Color, p: Point) -> Result<(), BoardError> {
        let cell = self.cell(p).ok_or(BoardError::OffBoard {
            x: p.x as usize,
            y: p.y as usize,
        })?;
        if self.stones[cell] != EMPTY {
            return Err(BoardError::Occupied {
                x: p.x as usize,
                y: p.y as usize,
            });
        }
        self.make(color, cell);
        Ok(())
    }

    /// Take back the last stone and return its point.
    pub fn undo(&mut self) -> Result<Point, BoardError> {
        let cell = self.last_cell().ok_or(BoardError::EmptyHistory)?;
        self.unmake();
        Ok(self.point(cell))
    }

    /// Whether the stone on `cell` is part of a winning run under the rule.
    pub fn is_winning_stone(&self, cell: Cell) -> bool {
        let Some(color) = self.stone_at(cell) else {
            return false;
        };
        let own = self.stones[cell];
        let end = |v: u8| match v {
            EMPTY => RunEnd::Empty,
            WALL => RunEnd::Wall,
            _ => RunEnd::Opponent,
        };
        (0..4).any(|d| {
            let off = self.dir_offsets[d];
            let mut lo = cell;
            while self.stones[lo - off] == own {
                lo -= off;
            }
            let mut hi = cell;
            while self.stones[hi + off] == own {
                hi += off;
            }
            let len = (hi - lo) / off + 1;
            self.rule.run_wins(
                color,
                len,
                end(self.stones[lo - off]),
                end(self.stones[hi + off]),
            )
        })
    }

    /// The result of the last move: its colour if it made a winning five; White if it was
    /// renju Black's forbidden move; otherwise `None`. The position is left as it was.
    pub fn winner(&mut self) -> Option<Color> {
        let cell = self.last_cell()?;
        let color = self.stone_at(cell)?;
        if self.is_winning_stone(cell) {
            return Some(color);
        }
        if self.rule.has_forbidden_moves() && color == Color::Black {
            self.unmake();
            let forbidden = self.forbidden_kind_at(cell).is_some();
            self.make(color, cell);
            if forbidden {
                return Some(Color::White);
            }
        }
        None
    }

    /// Black's forbidden kind at `p` under renju (None for other rules, occupied or off-board
    /// points). The position is left as it was.
    pub fn forbidden_kind(&mut self, p: Point) -> Option<crate::ForbiddenKind> {
        let cell = self.cell(p)?;
        self.forbidden_kind_at(cell)
    }

    pub fn is_forbidden(&mut self, p: Point) -> bool {
        self.forbidden_kind(p).is_some()
    }

    /// All of Black's forbidden points, row-major.
    pub fn forbidden_points(&mut self) -> Vec<(Point, crate::ForbiddenKind)> {
        let candidates = *self.cells_making(Color::Black, flag::FORBID_CANDIDATE);
        let mut out: Vec<(Point, crate::ForbiddenKind)> = candidates
            .iter()
            .filter_map(|c| self.forbidden_kind_at(c).map(|k| (self.point(c), k)))
            .collect();
        out.sort_by_key(|(p, _)| (p.y, p.x));
        out
    }

    /// A text diagram: rows top to bottom, `x` Black, `o` White, `.` empty.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity((self.width * 2 + 1) * self.height);
        for y in 0..self.height {
            for x in 0..self.width {
                if x > 0 {
                    s.push(' ');
                }
                s.push(match self.stone(Point::new(x as u8, y as u8)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl Board {
    /// Whether the side to move may play `p`: on the board, empty, and not one of renju
    /// Black's forbidden points.
    pub fn is_legal(&mut self, p: Point) -> bool {
        self.cell(p)
            .is_some_and(|c| self.is_empty_cell(c) && self.may_play(self.side, c))
    }

    /// Whether the side to move has any legal point. Only renju Black can be without one on a
    /// board that is not full: every empty point forbidden. Referees call that a draw, as a
    /// full board is; an engine asked to move there has nothing to answer.
    pub fn has_legal_move(&mut self) -> bool {
        if self.is_full() {
            return false;
        }
        if self.rule != Rule::Renju || self.side == Color::White {
            return true;
        }
        let empty = self.on_board.and_not(&self.occupied());
        empty.iter().any(|c| self.may_play(Color::Black, c))
    }

    /// Whether `color` may play the empty cell `cell` as far as forbidden points go: always
    /// for White and outside renju; for Black unless it is a forbidden point. Cheap except on
    /// the few cells flagged `FORBID_CANDIDATE` (see `forbidden_kind_at`).
    #[inline]
    pub fn may_play(&mut self, color: Color, cell: Cell) -> bool {
        color == Color::White || self.forbidden_kind_at(cell).is_none()
    }
}
