//! Line patterns: what a stone placed on an empty cell makes along one line, per rule and
//! colour, and how the four lines through a cell combine into one threat class.
//!
//! A cell's view of one direction is a window of `REACH` cells on either side. The window is
//! encoded as a *line key*: each side is an index into the 364 possible side contents
//! (empty/black/white for the cells before the nearest wall, walls beyond it), nearest cell
//! first, and the key is `negative_side * 364 + positive_side`. A stone of colour value `v`
//! (1 black, 2 white) at distance `d` changes the key by `v * 3^(d-1)` (times 364 on the
//! negative side), so `board.rs` keeps keys incrementally with one addition per cell.
//!
//! Everything here is defined by fives *through the centre cell*: a five the centre takes no
//! part in is not the centre's business. The open twos and threes come in finer classes by how
//! many points of the line take them one step further (`F2`/`F2A`/`F2B`, `F3`/`F3S`): the
//! learned tables value them apart, everything that reads threats sees only their coarse
//! class (`Pattern::coarse`). The tables are generated at first use by dynamic
//! programming over keys; `wuzi-testkit`'s `reference` holds the slow classifier they are
//! tested against.

use crate::rule::{Rule, RunEnd};
use crate::types::Color;
use std::sync::OnceLock;

/// Cells on each side of the centre that a line key covers. Five, because exact-five rules
/// must see the cell beyond a five that ends four cells away.
pub const REACH: usize = 5;
/// Cells in a window, the centre at index `REACH`.
pub const WINDOW: usize = 2 * REACH + 1;
/// Number of distinct contents of one side of a window.
pub const SIDE_CONFIGS: u32 = 364;
/// Number of line keys.
pub const KEY_COUNT: usize = (SIDE_CONFIGS * SIDE_CONFIGS) as usize;

/// `SIDE_BASE[k - 1]`: first side index whose nearest wall is at distance `k` (6 = no wall).
const SIDE_BASE: [u32; 6] = [0, 1, 4, 13, 40, 121];
const POW3: [u32; 5] = [1, 3, 9, 27, 81];

/// One cell of a window.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum LineCell {
    Empty,
    Black,
    White,
    Wall,
}

impl LineCell {
    pub fn of(color: Color) -> LineCell {
        match color {
            Color::Black => LineCell::Black,
            Color::White => LineCell::White,
        }
    }
}

pub type Window = [LineCell; WINDOW];

/// What placing a stone on the centre makes along one line, for one colour. Ordered from
/// weakest to strongest except for the two renju-Black-only classes at the end.
///
/// Twelve *coarse* classes, and three refinements placed right above the class they refine
/// (so `>=` on patterns means the same for the coarse and the fine classes): `F2A` and `F2B`
/// are open twos that leave more open-three points than `F2`, `F3S` an open three that leaves
/// more straight-four points than `F3`. Threat classes, tactics and the hand-set
/// evaluation read only the coarse class ([`Pattern::coarse`]); the learned evaluation and
/// ordering tables may value the fine ones apart.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Pattern {
    /// No five through the centre can ever be made here.
    Dead = 0,
    /// One more move makes a `B2`.
    B1,
    /// One more move makes an open two (`F2`, `F2A` or `F2B`).
    F1,
    /// One more move makes a `B3`.
    B2,
    /// An open two: one more move makes an open three (`F3` or `F3S`), and at most two points
    /// of the line do.
    F2,
    /// An open two of which exactly three points make an open three.
    F2A,
    /// An open two of which four or more points make an open three.
    F2B,
    /// One more move makes a four (a closed three).
    B3,
    /// An open three: one more move makes a straight four (`F4`), and exactly one point of
    /// the line does.
    F3,
    /// An open three of which two or more points make a straight four.
    F3S,
    /// A four: exactly one point completes a five.
    B4,
    /// A straight four, or (outside renju Black) any two points that each complete a five.
    F4,
    /// A five that wins under the rule.
    Five,
    /// Renju Black only: two fours in this one line (forbidden as a double four).
    FourFour,
    /// Renju Black only: more than five in a row (forbidden).
    Overline,
}

impl Pattern {
    pub const ALL: [Pattern; 15] = [
        Pattern::Dead,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::F2A,
        Pattern::F2B,
        Pattern::B3,
        Pattern::F3,
        Pattern::F3S,
        Pattern::B4,
        Pattern::F4,
        Pattern::Five,
        Pattern::FourFour,
        Pattern::Overline,
    ];

    /// The twelve coarse classes, weakest first: the patterns before the split of the open
    /// twos and threes, which the weights and ordering tables of format 1 are indexed by.
    pub const COARSE: [Pattern; 12] = [
        Pattern::Dead,
        Pattern::B1,
        Pattern::F1,
        Pattern::B2,
        Pattern::F2,
        Pattern::B3,
        Pattern::F3,
        Pattern::B4,
        Pattern::F4,
        Pattern::Five,
        Pattern::FourFour,
        Pattern::Overline,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Pattern {
        Pattern::ALL[(v as usize).min(Pattern::ALL.len() - 1)]
    }

    /// The coarse class of a pattern: `F3S` is an `F3`, `F2A` and `F2B` are `F2`s, every
    /// other pattern is its own.
    #[inline]
    pub const fn coarse(self) -> Pattern {
        match self {
            Pattern::F2A | Pattern::F2B => Pattern::F2,
            Pattern::F3S => Pattern::F3,
            p => p,
        }
    }

    /// The position of the coarse class in [`Pattern::COARSE`] (0..12).
    #[inline]
    pub const fn coarse_index(self) -> usize {
        const INDEX: [u8; 15] = [0, 1, 2, 3, 4, 4, 4, 5, 6, 6, 7, 8, 9, 10, 11];
        INDEX[self as usize] as usize
    }

    /// Whether the pattern is an open three (`F3` or `F3S`).
    #[inline]
    pub const fn is_open_three(self) -> bool {
        matches!(self, Pattern::F3 | Pattern::F3S)
    }

    /// Number of fours this line holds (a straight four is one four).
    #[inline]
    pub fn four_count(self) -> usize {
        match self {
            Pattern::B4 | Pattern::F4 => 1,
            Pattern::FourFour => 2,
            _ => 0,
        }
    }

    /// The fine class of the coarse class `coarse` whose completion mask holds `points`
    /// points: the number of straight-four points of an open three, of open-three points of
    /// an open two, splits them; every other class is returned as it is.
    fn refined(coarse: Pattern, points: u32) -> Pattern {
        match (coarse, points) {
            (Pattern::F3, 2..) => Pattern::F3S,
            (Pattern::F2, 3) => Pattern::F2A,
            (Pattern::F2, 4..) => Pattern::F2B,
            (p, _) => p,
        }
    }
}

/// Combined class of an empty cell for one colour: what placing there makes over all four
/// lines. Weakest first. `Forbidden` is renju Black's overline or double four (a double three
/// needs a recursive check, see `renju.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Threat {
    None = 0,
    One,
    Two,
    OpenTwo,
    DoubleTwo,
    Three,
    ThreeTwo,
    OpenThree,
    DoubleThree,
    Four,
    FourThree,
    OpenFour,
    Five,
    Forbidden,
}

impl Threat {
    pub const ALL: [Threat; 14] = [
        Threat::None,
        Threat::One,
        Threat::Two,
        Threat::OpenTwo,
        Threat::DoubleTwo,
        Threat::Three,
        Threat::ThreeTwo,
        Threat::OpenThree,
        Threat::DoubleThree,
        Threat::Four,
        Threat::FourThree,
        Threat::OpenFour,
        Threat::Five,
        Threat::Forbidden,
    ];

    #[inline]
    pub fn from_u8(v: u8) -> Threat {
        Threat::ALL[(v as usize).min(Threat::ALL.len() - 1)]
    }
}

/// Per-cell membership flags, one bitboard each per colour (see `Board::cells_making`).
pub mod flag {
    /// Placing here makes a five that wins.
    pub const FIVE: u8 = 1;
    /// Placing here makes at least one four (not counting fives).
    pub const FOUR: u8 = 2;
    /// Placing here makes an open four or a double four, i.e. wins next move (not for
    /// renju Black's forbidden double four).
    pub const OPEN_FOUR: u8 = 4;
    /// Placing here makes an open three in at least one line.
    pub const OPEN_THREE: u8 = 8;
    /// Renju Black: the point is forbidden or may be (two or more open threes); ask
    /// `Board::forbidden_kind`.
    pub const FORBID_CANDIDATE: u8 = 16;
    pub const COUNT: usize = 5;
}

/// The threat class and flags of a cell from its four line patterns (their coarse classes:
/// `F3S` counts as `F3`, `F2A` and `F2B` as `F2`). `renju_black` selects
/// Black's renju semantics (double four and overline forbidden, a straight four only counts
/// as open).
pub fn combine(patterns: [Pattern; 4], renju_black: bool) -> (Threat, u8) {
    // Only the coarse classes count here: the fine ones make the same threats.
    let count = |p: Pattern| patterns.iter().filter(|&&q| q.coarse() == p).count();
    let fives = count(Pattern::Five);
    let fours: usize = patterns.iter().map(|p| p.four_count()).sum();
    let straight = count(Pattern::F4);
    let f3 = count(Pattern::F3);
    let b3 = count(Pattern::B3);
    let f2 = count(Pattern::F2);
    let b2 = count(Pattern::B2);
    let ones = count(Pattern::F1) + count(Pattern::B1);
    let overline = count(Pattern::Overline);

    let mut flags = 0;
    if fives > 0 {
        flags |= flag::FIVE;
    }
    if fours > 0 {
        flags |= flag::FOUR;
    }
    if f3 > 0 {
        flags |= flag::OPEN_THREE;
    }
    let threat = if fives > 0 {
        Threat::Five
    } else if renju_black && (overline > 0 || fours >= 2) {
        Threat::Forbidden
    } else if straight > 0 || fours >= 2 {
        Threat::OpenFour
    } else if fours == 1 && f3 > 0 {
        Threat::FourThree
    } else if fours == 1 {
        Threat::Four
    } else if f3 >= 2 {
        Threat::DoubleThree
    } else if f3 == 1 {
        Threat::OpenThree
    } else if b3 >= 1 && b3 + f2 >= 2 {
        Threat::ThreeTwo
    } else if b3 >= 1 {
        Threat::Three
    } else if f2 >= 2 {
        Threat::DoubleTwo
    } else if f2 == 1 {
        Threat::OpenTwo
    } else if b2 > 0 {
        Threat::Two
    } else if ones > 0 {
        Threat::One
    } else {
        Threat::None
    };
    if threat == Threat::OpenFour {
        flags |= flag::OPEN_FOUR;
    }
    if renju_black && fives == 0 && (threat == Threat::Forbidden || f3 >= 2) {
        flags |= flag::FORBID_CANDIDATE;
    }
    (threat, flags)
}

/// Side index of the side contents `cells` (nearest first; walls only beyond the last
/// non-wall cell).
fn encode_side(cells: &[LineCell]) -> u32 {
    let wall_at = cells
        .iter()
        .position(|&c| c == LineCell::Wall)
        .unwrap_or(REACH);
    let mut index = SIDE_BASE[wall_at];
    for (d, &c) in cells[..wall_at].iter().enumerate() {
        index += POW3[d]
            * match c {
                LineCell::Black => 1,
                LineCell::White => 2,
                _ => 0,
            };
    }
    index
}

fn decode_side(index: u32) -> [LineCell; REACH] {
    let wall_at = SIDE_BASE.iter().rposition(|&b| b <= index).unwrap_or(0);
    let mut rest = index - SIDE_BASE[wall_at];
    let mut cells = [LineCell::Wall; REACH];
    for cell in cells.iter_mut().take(wall_at) {
        *cell = match rest % 3 {
            0 => LineCell::Empty,
            1 => LineCell::Black,
            _ => LineCell::White,
        };
        rest /= 3;
    }
    cells
}

/// The key of a window (its centre is ignored). Walls must only lie beyond a side's last
/// non-wall cell, as they do on a board.
pub fn encode_window(window: &Window) -> u32 {
    let mut negative = [LineCell::Wall; REACH];
    let mut positive = [LineCell::Wall; REACH];
    for d in 0..REACH {
        negative[d] = window[REACH - 1 - d];
        positive[d] = window[REACH + 1 + d];
    }
    encode_side(&negative) * SIDE_CONFIGS + encode_side(&positive)
}

/// The window of a key, with an empty centre.
pub fn decode_window(key: u32) -> Window {
    let negative = decode_side(key / SIDE_CONFIGS);
    let positive = decode_side(key % SIDE_CONFIGS);
    let mut window = [LineCell::Empty; WINDOW];
    for d in 0..REACH {
        window[REACH - 1 - d] = negative[d];
        window[REACH + 1 + d] = positive[d];
    }
    window
}

/// Change of a key when a stone of `color` appears at signed distance `offset` (-5..=5, not 0)
/// from the centre.
#[inline]
pub fn key_delta(color: Color, offset: isize) -> u32 {
    let v = color.index() as u32 + 1;
    let d = offset.unsigned_abs() - 1;
    if offset < 0 {
        v * POW3[d] * SIDE_CONFIGS
    } else {
        v * POW3[d]
    }
}

/// Length of the run of `own` through the centre and what lies beyond both its ends.
pub fn run_through_centre(window: &Window, own: LineCell) -> (usize, RunEnd, RunEnd) {
    let end = |c: LineCell| match c {
        LineCell::Empty => RunEnd::Empty,
        LineCell::Wall => RunEnd::Wall,
        _ => RunEnd::Opponent,
    };
    let mut lo = REACH;
    while lo > 0 && window[lo - 1] == own {
        lo -= 1;
    }
    let mut hi = REACH;
    while hi + 1 < WINDOW && window[hi + 1] == own {
        hi += 1;
    }
    // A run reaching the window's edge is treated as open beyond it; this only happens for
    // runs of six or more, whose length alone decides.
    let left = if lo == 0 {
        RunEnd::Empty
    } else {
        end(window[lo - 1])
    };
    let right = if hi + 1 == WINDOW {
        RunEnd::Empty
    } else {
        end(window[hi + 1])
    };
    (hi - lo + 1, left, right)
}

/// Pattern and completion mask of every key for one colour under one rule.
struct ViewBuilder {
    rule: Rule,
    color: Color,
    memo: Vec<u8>,
    masks: Vec<u16>,
}

const UNSET: u8 = 0xFF;

/// Bit of the completion mask for window index `i` (bits 0..5: distances 1..5 on the
/// negative side; bits 5..10: distances 1..5 on the positive side).
#[inline]
pub fn mask_bit(i: usize) -> u16 {
    if i < REACH {
        1 << (REACH - 1 - i)
    } else {
        1 << (REACH + i - REACH - 1)
    }
}

/// Signed offset from the centre of completion-mask bit `bit`.
#[inline]
pub fn mask_offset(bit: u32) -> isize {
    if bit < REACH as u32 {
        -(bit as isize + 1)
    } else {
        bit as isize - REACH as isize + 1
    }
}

impl ViewBuilder {
    fn renju_black(&self) -> bool {
        self.rule == Rule::Renju && self.color == Color::Black
    }

    fn classify(&mut self, key: u32) -> Pattern {
        let k = key as usize;
        if self.memo[k] == UNSET {
            let (pattern, mask) = self.compute(key);
            self.memo[k] = pattern as u8;
            self.masks[k] = mask;
        }
        Pattern::from_u8(self.memo[k])
    }

    fn compute(&mut self, key: u32) -> (Pattern, u16) {
        let own = LineCell::of(self.color);
        let mut window = decode_window(key);
        window[REACH] = own;
        let (len, left, right) = run_through_centre(&window, own);
        if self.rule.run_wins(self.color, len, left, right) {
            return (Pattern::Five, 0);
        }
        if self.renju_black() && len > 5 {
            return (Pattern::Overline, 0);
        }
        // What each single further stone makes.
        let mut next = [(0usize, Pattern::Dead); WINDOW];
        let mut n = 0;
        for (i, &cell) in window.iter().enumerate() {
            if cell == LineCell::Empty {
                let offset = i as isize - REACH as isize;
                let sub = self.classify(key + key_delta(self.color, offset));
                next[n] = (i, sub);
                n += 1;
            }
        }
        let next = &next[..n];
        // The points whose stone makes `p` (read as a coarse class) along this line.
        let mask_of = |p: Pattern| {
            next.iter()
                .filter(|(_, q)| q.coarse() == p)
                .fold(0u16, |m, (i, _)| m | mask_bit(*i))
        };
        let five_points: Vec<usize> = next
            .iter()
            .filter(|(_, p)| *p == Pattern::Five)
            .map(|(i, _)| *i)
            .collect();
        let fives_mask = mask_of(Pattern::Five);
        if five_points.len() >= 2 {
            let straight = five_points.len() == 2 && five_points[1] - five_points[0] == 5;
            if self.renju_black() && !straight {
                return (Pattern::FourFour, fives_mask);
            }
            return (Pattern::F4, fives_mask);
        }
        if five_points.len() == 1 {
            return (Pattern::B4, fives_mask);
        }
        for (from, to) in [
            (Pattern::F4, Pattern::F3),
            (Pattern::B4, Pattern::B3),
            (Pattern::F3, Pattern::F2),
            (Pattern::B3, Pattern::B2),
            (Pattern::F2, Pattern::F1),
            (Pattern::B2, Pattern::B1),
        ] {
            let mask = mask_of(from);
            if mask != 0 {
                return (Pattern::refined(to, mask.count_ones()), mask);
            }
        }
        (Pattern::Dead, 0)
    }
}

/// All lookup tables of one rule.
pub struct RuleTables {
    pub rule: Rule,
    /// Per key: Black's pattern in the low nibble, White's in the high nibble.
    pub patterns: Vec<u8>,
    /// Per key and colour: the completion points of the pattern (five points of a four,
    /// straight-four points of an open three, four points of a closed three, open-three points
    /// of an open two, ...).
    pub masks: Vec<[u16; 2]>,
    /// The combined table with the default cell values (`DEFAULT_PATTERN_VALUES`).
    pub combined: CombinedTable,
}

/// Default value of each coarse pattern (`Pattern::COARSE`, indexed by
/// `Pattern::coarse_index`) for the cell values of the default combined table.
pub const DEFAULT_PATTERN_VALUES: [i32; 12] = [0, 1, 2, 4, 8, 10, 24, 20, 60, 200, 0, 0];

/// What a cell's four line patterns combine into, per colour, indexed by the 16-bit code of
/// the four pattern nibbles (direction `d` at bits `4d..4d+4`). An entry holds the threat
/// class (bits 0..8), the flags (bits 8..16) and a signed cell value (bits 16..32) that the
/// board sums over all empty cells (`Board::value_sum`): the evaluation's material. Core
/// fixes threat and flags; whoever builds the table chooses the values.
pub struct CombinedTable {
    pub rule: Rule,
    pub entries: [Vec<u32>; 2],
}

impl CombinedTable {
    /// A table for `rule` whose cell values come from `value(color, patterns, threat)`
    /// (clamped to the i16 range).
    pub fn build(rule: Rule, value: impl Fn(Color, [Pattern; 4], Threat) -> i32) -> CombinedTable {
        let mut entries = [vec![0u32; 1 << 16], vec![0u32; 1 << 16]];
        for color in Color::BOTH {
            let renju_black = rule == Rule::Renju && color == Color::Black;
            for (code, slot) in entries[color.index()].iter_mut().enumerate() {
                let dirs = [0, 1, 2, 3].map(|d| Pattern::from_u8((code >> (4 * d) & 15) as u8));
                let (threat, flags) = combine(dirs, renju_black);
                let v = value(color, dirs, threat).clamp(i16::MIN as i32, i16::MAX as i32);
                *slot = threat as u32 | (flags as u32) << 8 | ((v as i16 as u16) as u32) << 16;
            }
        }
        CombinedTable { rule, entries }
    }

    /// The cell value of an entry.
    #[inline]
    pub fn value_of(entry: u32) -> i32 {
        (entry >> 16) as u16 as i16 as i32
    }
}

impl RuleTables {
    fn build(rule: Rule) -> RuleTables {
        let mut patterns = vec![0u8; KEY_COUNT];
        let mut masks = vec![[0u16; 2]; KEY_COUNT];
        for color in Color::BOTH {
            let mut view = ViewBuilder {
                rule,
                color,
                memo: vec![UNSET; KEY_COUNT],
                masks: vec![0; KEY_COUNT],
            };
            for key in 0..KEY_COUNT as u32 {
                let p = view.classify(key) as u8;
                patterns[key as usize] |= p << (4 * color.index());
                masks[key as usize][color.index()] = view.masks[key as usize];
            }
        }
        let combined = CombinedTable::build(rule, |_, dirs, _| {
            dirs.iter()
                .map(|&p| DEFAULT_PATTERN_VALUES[p.coarse_index()])
                .sum()
        });
        RuleTables {
            rule,
            patterns,
            masks,
            combined,
        }
    }

    /// The tables of `rule`, generated on first use (tens of milliseconds).
    pub fn get(rule: Rule) -> &'static RuleTables {
        static TABLES: [OnceLock<RuleTables>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        TABLES[rule.index()].get_or_init(|| RuleTables::build(rule))
    }

    #[inline]
    pub fn pattern(&self, key: u32, color: Color) -> Pattern {
        Pattern::from_u8(self.patterns[key as usize] >> (4 * color.index()) & 15)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LineCell::*;

    fn window(s: &str) -> Window {
        // 11 characters: . empty, x black, o white, # wall; centre must be '.'
        let mut w = [Empty; WINDOW];
        for (i, ch) in s.chars().enumerate() {
            w[i] = match ch {
                'x' => Black,
                'o' => White,
                '#' => Wall,
                _ => Empty,
            };
        }
        w
    }

    #[test]
    fn the_coarse_classes_keep_the_order() {
        for p in Pattern::ALL {
            assert_eq!(Pattern::COARSE[p.coarse_index()], p.coarse());
            assert_eq!(p.coarse().coarse(), p.coarse());
            assert_eq!(p.is_open_three(), p.coarse() == Pattern::F3);
            for q in Pattern::ALL.into_iter().filter(|&q| q > p) {
                assert!(q.coarse() >= p.coarse(), "{p:?} {q:?}");
            }
        }
        for (i, p) in Pattern::COARSE.into_iter().enumerate() {
            assert_eq!((p.coarse(), p.coarse_index()), (p, i));
        }
    }

    #[test]
    fn keys_round_trip() {
        for key in 0..KEY_COUNT as u32 {
            assert_eq!(encode_window(&decode_window(key)), key);
        }
    }

    #[test]
    fn key_delta_matches_encoding() {
        let w = window("#..x.....o.");
        let key = encode_window(&w);
        let mut w2 = w;
        w2[7] = Black;
        assert_eq!(encode_window(&w2), key + key_delta(Color::Black, 2));
        let mut w3 = w;
        w3[2] = White;
        assert_eq!(encode_window(&w3), key + key_delta(Color::White, -3));
    }

    #[test]
    fn basic_shapes() {
        // Window strings: 11 cells, the centre (index 5) empty.
        let t = RuleTables::get(Rule::Freestyle);
        let p = |s: &str| t.pattern(encode_window(&window(s)), Color::Black);
        assert_eq!(p(".xxxx......"), Pattern::Five);
        assert_eq!(p("..xxx......"), Pattern::F4);
        assert_eq!(p("o.xxx......"), Pattern::F4);
        assert_eq!(p(".oxxx......"), Pattern::B4);
        assert_eq!(p("...xx......"), Pattern::F3S);
        assert_eq!(p("..x.x......"), Pattern::F3);
        assert_eq!(p(".o.xx......"), Pattern::F3);
        assert_eq!(p("..oxx......"), Pattern::B3);
        assert_eq!(p("....x......"), Pattern::F2B);
        assert_eq!(p("...x......."), Pattern::F2A);
        assert_eq!(p("..x........"), Pattern::F2);
        assert_eq!(p("..........."), Pattern::F1);
        assert_eq!(p(".o....o...."), Pattern::Dead);
        assert_eq!(p("..x.x.x.x.."), Pattern::F4);
        let r = RuleTables::get(Rule::Renju);
        let pr = |s: &str, c| r.pattern(encode_window(&window(s)), c);
        assert_eq!(pr("..x.x.x.x..", Color::Black), Pattern::FourFour);
        assert_eq!(pr(".xxxx.x....", Color::Black), Pattern::Overline);
        assert_eq!(pr(".oooo.o....", Color::White), Pattern::Five);
        assert_eq!(pr("..xxx..x...", Color::Black), Pattern::B4);
        // A straight four that would be an overline is none: one straight-four point left.
        assert_eq!(pr("x..xx......", Color::Black), Pattern::F3);
        assert_eq!(pr("o..oo......", Color::White), Pattern::F3S);
        let c = RuleTables::get(Rule::Caro);
        let pc = |s: &str| c.pattern(encode_window(&window(s)), Color::Black);
        assert_eq!(pc("oxxxx......"), Pattern::Five);
        assert_eq!(pc("oxxxx.o...."), Pattern::Dead);
        assert_eq!(pc("#####.xxxxo"), Pattern::Five);
    }
}
