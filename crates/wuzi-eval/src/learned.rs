//! The learned evaluation: weights fitted from games by `wuzi tune` (crate `wuzi-tune`), per
//! rule, and the two feature maps that the trainer and the evaluation share.
//!
//! The model, from the side to move's point of view (`us`):
//!
//! ```text
//! eval = sum over empty cells of cell[us colour][combo(us code)]
//!      - sum over empty cells of cell[them colour][combo(them code)]
//!      + threat[us colour][threat_mask(board)]
//! ```
//!
//! - `combo` folds a cell's four line patterns (a 16-bit pattern code, one nibble per
//!   direction) into their multiset: the value of a cell does not depend on which direction
//!   holds which pattern. There are `COMBO_COUNT` multisets. The board keeps both sums
//!   incrementally (`Board::value_sum`), so the first two terms cost nothing at a leaf.
//! - `threat_mask` buckets the threats both sides hold (fours, four-threes, open threes, the
//!   number of points that make an open three) into `MASK_COUNT` classes. Its table holds the
//!   value of having the move in each: tempo, and which threat combinations win.
//!
//! The combos are over the fine line patterns (`Pattern::ALL`, open twos and threes split by
//! how many points take them further). Weights files of format 1 named only the twelve coarse
//! patterns (`Pattern::COARSE`); they still load, each fine combo taking the value of the
//! coarse combo it coarsens to ([`coarse_combo`], [`expand_coarse`]), which evaluates every
//! position exactly as the coarse table did. `wuzi expand-tables` rewrites such files in the
//! current format.
//!
//! Invariants: a weight set holds every combo for both colours and every mask for both
//! colours (a file that misses one is refused); the combos that contain a renju forbidden
//! shape are worth nothing to Black, as in the hand-set evaluation.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::sync::OnceLock;
use wuzi_core::pattern::{combine, CombinedTable};
use wuzi_core::{flag, Board, Color, Pattern, Rule, Threat};

/// Number of line patterns (`Pattern::ALL`).
const PATTERNS: usize = Pattern::ALL.len();
/// Number of multisets of four patterns: C(15 + 3, 4).
pub const COMBO_COUNT: usize = 3060;
/// Number of coarse line patterns (`Pattern::COARSE`).
const COARSE_PATTERNS: usize = Pattern::COARSE.len();
/// Number of multisets of four coarse patterns, the combos of format 1: C(12 + 3, 4).
pub const COARSE_COMBO_COUNT: usize = 1365;

/// The fields of a threat mask, each with its number of buckets. The mask is the mixed-radix
/// number of the buckets, first field least significant.
pub const MASK_FIELDS: [(&str, usize); 7] = [
    // Our points that make a four: 0, 1, 2 or more.
    ("our_fours", 3),
    // Some point makes us a four and an open three at once.
    ("our_four_three", 2),
    // The opponent's points that make a four: 0, 1, 2 or more.
    ("their_fours", 3),
    ("their_four_three", 2),
    // The opponent's points that make a straight or double four: 0, 1, 2 or more.
    ("their_open_fours", 3),
    // Our points that make an open three: 0, 1-2, 3-5, 6 or more.
    ("our_three_makers", 4),
    ("their_three_makers", 4),
];
/// Number of threat masks.
pub const MASK_COUNT: usize = 3 * 2 * 3 * 2 * 3 * 4 * 4;

/// The multisets of four numbers below `n` in lexicographic order, each sorted ascending.
fn multisets(n: u8) -> Vec<[u8; 4]> {
    let mut out = Vec::new();
    for a in 0..n {
        for b in a..n {
            for c in b..n {
                for d in c..n {
                    out.push([a, b, c, d]);
                }
            }
        }
    }
    out
}

/// The multisets of four patterns (as `Pattern` values) in order: the combos.
fn combos() -> &'static Vec<[u8; 4]> {
    static COMBOS: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    COMBOS.get_or_init(|| multisets(PATTERNS as u8))
}

/// The multisets of four coarse patterns (as `Pattern::coarse_index` values) in order: the
/// combos of format 1.
fn coarse_combos() -> &'static Vec<[u8; 4]> {
    static COMBOS: OnceLock<Vec<[u8; 4]>> = OnceLock::new();
    COMBOS.get_or_init(|| multisets(COARSE_PATTERNS as u8))
}

/// Each multiset of `list` by its position there.
fn positions(list: &[[u8; 4]]) -> std::collections::HashMap<[u8; 4], usize> {
    list.iter().enumerate().map(|(i, c)| (*c, i)).collect()
}

/// Per combo, the coarse combo it coarsens to.
fn coarse_of_combo() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let index = positions(coarse_combos());
        combos()
            .iter()
            .map(|c| {
                let mut coarse = c.map(|p| Pattern::from_u8(p).coarse_index() as u8);
                coarse.sort_unstable();
                index.get(&coarse).map_or(0, |&i| i as u16)
            })
            .collect()
    })
}

/// The coarse combo (an index below [`COARSE_COMBO_COUNT`]) that combo `index` coarsens to:
/// its four patterns read as their coarse classes.
#[inline]
pub fn coarse_combo(index: usize) -> usize {
    coarse_of_combo()[index] as usize
}

/// Values per coarse combo (`coarse`, [`COARSE_COMBO_COUNT`] of them) as values per combo:
/// each combo takes the value of the coarse combo it coarsens to, so that a table of the
/// expanded values scores every cell as the coarse table did.
pub fn expand_coarse(coarse: &[i16]) -> Vec<i16> {
    debug_assert_eq!(coarse.len(), COARSE_COMBO_COUNT);
    (0..COMBO_COUNT)
        .map(|c| coarse.get(coarse_combo(c)).copied().unwrap_or(0))
        .collect()
}

/// The four patterns of combo `index`, weakest first.
pub fn combo_patterns(index: usize) -> [Pattern; 4] {
    combos()[index].map(Pattern::from_u8)
}

/// Combo index of every 16-bit pattern code.
fn combo_of_code() -> &'static [u16] {
    static TABLE: OnceLock<Vec<u16>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let index = positions(combos());
        (0..1u32 << 16)
            .map(|code| {
                let mut nibbles = [0, 1, 2, 3].map(|d| ((code >> (4 * d)) & 15) as u8);
                for n in &mut nibbles {
                    *n = (*n).min(PATTERNS as u8 - 1);
                }
                nibbles.sort_unstable();
                index.get(&nibbles).map_or(0, |&i| i as u16)
            })
            .collect()
    })
}

/// The combo of a cell's pattern code (`Board::pattern_code`).
#[inline]
pub fn combo(code: u16) -> usize {
    combo_of_code()[code as usize] as usize
}

/// Whether combo `index` is a renju forbidden shape for Black (its cell value is fixed at 0).
pub fn combo_forbidden(rule: Rule, color: Color, index: usize) -> bool {
    let renju_black = rule == Rule::Renju && color == Color::Black;
    renju_black && combine(combo_patterns(index), true).0 == Threat::Forbidden
}

fn bucket_count(n: usize, top: usize) -> usize {
    n.min(top)
}

fn bucket_makers(n: usize) -> usize {
    match n {
        0 => 0,
        1..=2 => 1,
        3..=5 => 2,
        _ => 3,
    }
}

/// The threat class of the position for the side to move (see `MASK_FIELDS`). One pass over
/// the words of the five flag sets it reads: it runs at every leaf.
#[inline]
pub fn threat_mask(board: &Board) -> usize {
    let us = board.side_to_move();
    let them = us.opponent();
    let our_fours = board.cells_making(us, flag::FOUR).words();
    let our_threes = board.cells_making(us, flag::OPEN_THREE).words();
    let their_fours = board.cells_making(them, flag::FOUR).words();
    let their_threes = board.cells_making(them, flag::OPEN_THREE).words();
    let their_open_fours = board.cells_making(them, flag::OPEN_FOUR).words();
    let (mut n_our_fours, mut n_their_fours, mut n_their_open_fours) = (0u32, 0u32, 0u32);
    let (mut n_our_threes, mut n_their_threes) = (0u32, 0u32);
    let (mut our_four_three, mut their_four_three) = (0u64, 0u64);
    for i in 0..our_fours.len() {
        n_our_fours += our_fours[i].count_ones();
        n_their_fours += their_fours[i].count_ones();
        n_their_open_fours += their_open_fours[i].count_ones();
        n_our_threes += our_threes[i].count_ones();
        n_their_threes += their_threes[i].count_ones();
        our_four_three |= our_fours[i] & our_threes[i];
        their_four_three |= their_fours[i] & their_threes[i];
    }
    let fields = [
        bucket_count(n_our_fours as usize, 2),
        usize::from(our_four_three != 0),
        bucket_count(n_their_fours as usize, 2),
        usize::from(their_four_three != 0),
        bucket_count(n_their_open_fours as usize, 2),
        bucket_makers(n_our_threes as usize),
        bucket_makers(n_their_threes as usize),
    ];
    let mut mask = 0;
    let mut radix = 1;
    for (value, (_, buckets)) in fields.iter().zip(MASK_FIELDS) {
        mask += value * radix;
        radix *= buckets;
    }
    mask
}

/// The buckets of a mask, field by field.
pub fn mask_fields(mut mask: usize) -> [usize; 7] {
    let mut out = [0; 7];
    for (slot, (_, buckets)) in out.iter_mut().zip(MASK_FIELDS) {
        *slot = mask % buckets;
        mask /= buckets;
    }
    out
}

/// One rule's learned weights, in evaluation units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    pub rule: Rule,
    /// Per colour (`Color::index`), per combo.
    pub cell: [Vec<i16>; 2],
    /// Per colour of the side to move, per threat mask.
    pub threat: [Vec<i16>; 2],
}

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum WeightsError {
    #[error("cannot read weights file {path}: {reason}")]
    Read { path: String, reason: String },
    #[error("weights line {line}: {reason}")]
    Syntax { line: usize, reason: String },
    #[error("weights file is for rule {found}, not {wanted}")]
    WrongRule { found: String, wanted: Rule },
    #[error("weights file is incomplete: {0}")]
    Incomplete(String),
}

/// The first line of a weights file: format 2 names the fine patterns.
const HEADER: &str = "wuzi-eval-weights 2";
/// The first line of a weights file of format 1, which names only the coarse patterns.
const HEADER_COARSE: &str = "wuzi-eval-weights 1";

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn pattern_name(p: Pattern) -> &'static str {
    match p {
        Pattern::Dead => "dead",
        Pattern::B1 => "b1",
        Pattern::F1 => "f1",
        Pattern::B2 => "b2",
        Pattern::F2 => "f2",
        Pattern::F2A => "f2a",
        Pattern::F2B => "f2b",
        Pattern::B3 => "b3",
        Pattern::F3 => "f3",
        Pattern::F3S => "f3s",
        Pattern::B4 => "b4",
        Pattern::F4 => "f4",
        Pattern::Five => "five",
        Pattern::FourFour => "fourfour",
        Pattern::Overline => "overline",
    }
}

impl Weights {
    /// Multiplies every cell value by `factor`, rounded to the nearest integer (an exact half
    /// to the even one) and kept in range; forbidden combinations stay 0. The threat table is
    /// not touched.
    pub fn scale_cells(&mut self, factor: f64) {
        for table in &mut self.cell {
            for v in table.iter_mut() {
                *v = (f64::from(*v) * factor)
                    .round_ties_even()
                    .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
            }
        }
    }

    /// All zero.
    pub fn zero(rule: Rule) -> Weights {
        Weights {
            rule,
            cell: [vec![0; COMBO_COUNT], vec![0; COMBO_COUNT]],
            threat: [vec![0; MASK_COUNT], vec![0; MASK_COUNT]],
        }
    }

    /// The text form: a header, the rule, then one line per combo and colour
    /// (`cell black f1 f1 f2 b3 37`) and per mask and colour (`threat white 1 0 0 0 2 1 3 -40`,
    /// the buckets in `MASK_FIELDS` order). `#` starts a comment.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = format!("{HEADER}\n");
        for line in comment.lines() {
            let _ = writeln!(out, "# {line}");
        }
        let _ = writeln!(out, "rule {}", self.rule.name());
        let fields: Vec<&str> = MASK_FIELDS.iter().map(|(n, _)| *n).collect();
        let _ = writeln!(out, "# threat fields: {}", fields.join(" "));
        for color in Color::BOTH {
            for (i, value) in self.cell[color.index()].iter().enumerate() {
                let names: Vec<&str> = combo_patterns(i).iter().map(|&p| pattern_name(p)).collect();
                let _ = writeln!(
                    out,
                    "cell {} {} {value}",
                    color_name(color),
                    names.join(" ")
                );
            }
        }
        for color in Color::BOTH {
            for (mask, value) in self.threat[color.index()].iter().enumerate() {
                let buckets: Vec<String> =
                    mask_fields(mask).iter().map(|b| b.to_string()).collect();
                let _ = writeln!(
                    out,
                    "threat {} {} {value}",
                    color_name(color),
                    buckets.join(" ")
                );
            }
        }
        out
    }

    /// Parses the text form for `rule`; every entry must be present exactly once.
    pub fn parse(text: &str, rule: Rule) -> Result<Weights, WeightsError> {
        let found = Weights::parse_any(text)?;
        if found.rule != rule {
            return Err(WeightsError::WrongRule {
                found: found.rule.name().to_string(),
                wanted: rule,
            });
        }
        Ok(found)
    }

    /// Parses the text form for the rule its `rule` line names. A file of format 1 (coarse
    /// patterns) is read too, its values expanded to the fine combos ([`expand_coarse`]).
    pub fn parse_any(text: &str) -> Result<Weights, WeightsError> {
        let syntax = |line: usize, reason: String| WeightsError::Syntax { line, reason };
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
        let coarse = match lines.find(|(_, l)| !l.is_empty()) {
            Some((_, l)) if l == HEADER => false,
            Some((_, l)) if l == HEADER_COARSE => true,
            Some((n, l)) => return Err(syntax(n, format!("expected '{HEADER}', found '{l}'"))),
            None => return Err(WeightsError::Incomplete("the file is empty".into())),
        };
        // Format 1 names the coarse patterns and keys its combos by their coarse indices.
        let (names, combo_list, combo_count): (&[Pattern], _, _) = if coarse {
            (&Pattern::COARSE, coarse_combos(), COARSE_COMBO_COUNT)
        } else {
            (&Pattern::ALL, combos(), COMBO_COUNT)
        };
        let pattern_of = |s: &str| {
            names.iter().find(|&&p| pattern_name(p) == s).map(|&p| {
                if coarse {
                    p.coarse_index() as u8
                } else {
                    p as u8
                }
            })
        };
        let combo_index = positions(combo_list);
        let mut weights = Weights::zero(Rule::Freestyle);
        weights.cell = [vec![0; combo_count], vec![0; combo_count]];
        let mut seen = HashSet::new();
        let mut found_rule = None;
        for (n, line) in lines {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let color = |w: Option<&&str>| match w {
                Some(&"black") => Ok(Color::Black),
                Some(&"white") => Ok(Color::White),
                other => Err(syntax(
                    n,
                    format!("expected black or white, found {other:?}"),
                )),
            };
            let value = |w: Option<&&str>| -> Result<i16, WeightsError> {
                w.and_then(|s| s.parse::<i16>().ok())
                    .ok_or_else(|| syntax(n, "the last word must be a value in i16 range".into()))
            };
            match words[0] {
                "rule" => {
                    let name = words.get(1).copied().unwrap_or("");
                    if found_rule.is_some() {
                        return Err(syntax(n, "a second 'rule' line".into()));
                    }
                    let parsed: Rule = name.parse().map_err(|e: String| syntax(n, e))?;
                    weights.rule = parsed;
                    found_rule = Some(parsed);
                }
                "cell" if words.len() == 7 => {
                    let c = color(words.get(1))?;
                    let mut key = [0u8; 4];
                    for (slot, w) in key.iter_mut().zip(&words[2..6]) {
                        *slot = pattern_of(w)
                            .ok_or_else(|| syntax(n, format!("unknown pattern '{w}'")))?;
                    }
                    key.sort_unstable();
                    let index = combo_index[&key];
                    if !seen.insert((0, c.index(), index)) {
                        return Err(syntax(n, "a cell entry given twice".into()));
                    }
                    weights.cell[c.index()][index] = value(words.get(6))?;
                }
                "threat" if words.len() == 3 + MASK_FIELDS.len() => {
                    let c = color(words.get(1))?;
                    let mut mask = 0;
                    let mut radix = 1;
                    for (w, (name, buckets)) in
                        words[2..2 + MASK_FIELDS.len()].iter().zip(MASK_FIELDS)
                    {
                        let b: usize = w
                            .parse()
                            .ok()
                            .filter(|&b| b < buckets)
                            .ok_or_else(|| syntax(n, format!("bad bucket '{w}' for {name}")))?;
                        mask += b * radix;
                        radix *= buckets;
                    }
                    if !seen.insert((1, c.index(), mask)) {
                        return Err(syntax(n, "a threat entry given twice".into()));
                    }
                    weights.threat[c.index()][mask] = value(words.last())?;
                }
                _ => return Err(syntax(n, format!("cannot read '{line}'"))),
            }
        }
        if found_rule.is_none() {
            return Err(WeightsError::Incomplete("no 'rule' line".into()));
        }
        let expected = 2 * (combo_count + MASK_COUNT);
        if seen.len() != expected {
            return Err(WeightsError::Incomplete(format!(
                "{} of {expected} entries (a file cut short?)",
                seen.len()
            )));
        }
        if coarse {
            weights.cell = weights.cell.map(|values| expand_coarse(&values));
        }
        Ok(weights)
    }

    /// Reads and parses a weights file (for the rule it names).
    pub fn load(path: &std::path::Path) -> Result<Weights, WeightsError> {
        let text = std::fs::read_to_string(path).map_err(|e| WeightsError::Read {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Weights::parse_any(&text)
    }

    /// The committed weights of `rule`, if it has any (`weights/<rule>.txt`, generated by
    /// `wuzi tune`; standard reads `freestyle.txt`; see `docs/evaluation.md`).
    pub fn committed(rule: Rule) -> Option<&'static Weights> {
        static LOADED: [OnceLock<Option<Weights>>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        LOADED[rule.index()]
            .get_or_init(|| {
                let (text, file_rule) = committed_text(rule)?;
                // The committed files are checked by a test; a broken one is a build defect.
                let weights = Weights::parse(text, file_rule)
                    .unwrap_or_else(|e| panic!("committed weights for {rule} are damaged: {e}"));
                Some(Weights { rule, ..weights })
            })
            .as_ref()
    }

    /// The combined table whose cell values are these weights (leaked: built once per set).
    pub fn combined_table(&'static self) -> &'static CombinedTable {
        type Cache = Vec<(usize, &'static CombinedTable)>;
        static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
        let id = self as *const Weights as usize;
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, t)) = cache.iter().find(|(k, _)| *k == id) {
            return t;
        }
        let table: &'static CombinedTable = Box::leak(Box::new(CombinedTable::build(
            self.rule,
            |color, dirs, threat| {
                if threat == Threat::Forbidden {
                    return 0;
                }
                // `combo` sorts the directions itself.
                let code = dirs
                    .iter()
                    .enumerate()
                    .fold(0u16, |acc, (d, &p)| acc | (p as u16) << (4 * d));
                self.cell[color.index()][combo(code)] as i32
            },
        )));
        cache.push((id, table));
        table
    }
}

/// The committed weights files, embedded at build time, each with the rule it was fitted in.
/// Standard plays with freestyle's table: the two rules read the same line patterns (an
/// overline is no five in standard, and its cells are valued as standard's pattern code
/// reads them), and freestyle's table, fitted on more and deeper games, beat standard's own
/// fifth fit in standard self-play (`docs/evaluation.md`).
fn committed_text(rule: Rule) -> Option<(&'static str, Rule)> {
    let freestyle = include_str!("../weights/freestyle.txt");
    match rule {
        Rule::Freestyle | Rule::Standard => Some((freestyle, Rule::Freestyle)),
        Rule::Renju => Some((include_str!("../weights/renju.txt"), Rule::Renju)),
        Rule::Caro => Some((include_str!("../weights/caro.txt"), Rule::Caro)),
        Rule::CaroExact => None,
    }
}

/// The learned evaluation for the side to move, with the cell values of `weights` installed
/// in the board.
#[inline]
pub fn evaluate(board: &Board, weights: &Weights) -> i32 {
    let us = board.side_to_move();
    board.value_sum(us) - board.value_sum(us.opponent())
        + weights.threat[us.index()][threat_mask(board)] as i32
}

/// The same evaluation from scratch, feature by feature: the trainer's view, and the check of
/// the incremental one.
pub fn evaluate_from_scratch(board: &Board, weights: &Weights) -> i32 {
    let us = board.side_to_move();
    let mut score = weights.threat[us.index()][threat_mask(board)] as i32;
    for cell in board.on_board().iter() {
        if !board.is_empty_cell(cell) {
            continue;
        }
        for color in Color::BOTH {
            let index = combo(board.pattern_code(color, cell));
            if combo_forbidden(board.rule(), color, index) {
                continue;
            }
            let v = weights.cell[color.index()][index] as i32;
            score += if color == us { v } else { -v };
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combos_are_every_multiset_once() {
        assert_eq!(combos().len(), COMBO_COUNT);
        let distinct: HashSet<_> = combos().iter().collect();
        assert_eq!(distinct.len(), COMBO_COUNT);
        // Every code maps to the combo of its sorted nibbles.
        let code = 0x2_5_1_8u16;
        assert_eq!(combos()[combo(code)], [1, 2, 5, 8]);
    }

    #[test]
    fn every_combo_coarsens_to_the_combo_of_its_coarse_patterns() {
        assert_eq!(coarse_combos().len(), COARSE_COMBO_COUNT);
        let mut hit = vec![0usize; COARSE_COMBO_COUNT];
        for c in 0..COMBO_COUNT {
            let k = coarse_combo(c);
            hit[k] += 1;
            let mut want = combo_patterns(c).map(|p| p.coarse_index() as u8);
            want.sort_unstable();
            assert_eq!(coarse_combos()[k], want);
            // A combo of coarse patterns only is the coarse combo of the same patterns.
            if combo_patterns(c).iter().all(|&p| p.coarse() == p) {
                assert_eq!(hit[k], 1, "{:?}", combo_patterns(c));
            }
        }
        assert!(hit.iter().all(|&n| n >= 1));
        let expanded = expand_coarse(&(0..COARSE_COMBO_COUNT as i16).collect::<Vec<_>>());
        assert!((0..COMBO_COUNT).all(|c| expanded[c] as usize == coarse_combo(c)));
    }

    /// A weights file of format 1: the coarse pattern names, one value per coarse combo.
    fn coarse_text(rule: Rule, cell: impl Fn(usize, usize) -> i16, threat: i16) -> String {
        let mut out = format!("{HEADER_COARSE}\n# an old file\nrule {}\n", rule.name());
        for color in Color::BOTH {
            for (k, combo) in coarse_combos().iter().enumerate() {
                let names: Vec<&str> = combo
                    .iter()
                    .map(|&i| pattern_name(Pattern::COARSE[i as usize]))
                    .collect();
                let value = cell(color.index(), k);
                let _ = writeln!(
                    out,
                    "cell {} {} {value}",
                    color_name(color),
                    names.join(" ")
                );
            }
            for mask in 0..MASK_COUNT {
                let buckets: Vec<String> =
                    mask_fields(mask).iter().map(|b| b.to_string()).collect();
                let _ = writeln!(
                    out,
                    "threat {} {} {threat}",
                    color_name(color),
                    buckets.join(" ")
                );
            }
        }
        out
    }

    #[test]
    fn format_1_files_load_with_every_combo_valued_as_its_coarse_combo() {
        let value = |c: usize, k: usize| (k as i16 % 211) * if c == 0 { 1 } else { -1 };
        let text = coarse_text(Rule::Caro, value, 5);
        let w = Weights::parse(&text, Rule::Caro).expect("format 1");
        for c in 0..2 {
            for i in 0..COMBO_COUNT {
                assert_eq!(w.cell[c][i], value(c, coarse_combo(i)));
            }
        }
        assert!(w.threat.iter().all(|t| t.iter().all(|&v| v == 5)));
        // Written again, it is a file of the current format with the same values.
        let again = w.to_text("converted");
        assert!(again.starts_with(HEADER));
        assert_eq!(Weights::parse(&again, Rule::Caro), Ok(w));
        // Format 1 knows no fine pattern names.
        let fine = text.replacen(
            "cell black dead dead dead f2",
            "cell black dead dead dead f2a",
            1,
        );
        assert!(matches!(
            Weights::parse(&fine, Rule::Caro),
            Err(WeightsError::Syntax { .. })
        ));
    }

    #[test]
    fn scaling_the_cells_leaves_the_threat_table() {
        let mut w = Weights::zero(Rule::Freestyle);
        w.cell[0][3] = 30;
        w.cell[1][5] = -11;
        w.cell[0][7] = 30_000;
        w.threat[0][2] = 40;
        let before = w.clone();
        w.scale_cells(1.35);
        assert_eq!(w.cell[0][3], 40); // 30 x 1.35 is 40.5 in binary too: the even neighbour
        assert_eq!(w.cell[1][5], -15); // -14.85
        assert_eq!(w.cell[0][7], i16::MAX); // 40,500 is kept in range
        assert_eq!(w.threat, before.threat);
        w.scale_cells(1.0);
        assert_eq!(w.cell[1][5], -15);
        let mut halves = Weights::zero(Rule::Freestyle);
        halves.cell[0][0] = 3;
        halves.cell[0][1] = 5;
        halves.scale_cells(1.5); // 4.5 and 7.5, exact: to the even neighbour
        assert_eq!((halves.cell[0][0], halves.cell[0][1]), (4, 8));
    }

    #[test]
    fn mask_round_trips() {
        for mask in 0..MASK_COUNT {
            let fields = mask_fields(mask);
            let mut back = 0;
            let mut radix = 1;
            for (b, (_, n)) in fields.iter().zip(MASK_FIELDS) {
                back += b * radix;
                radix *= n;
            }
            assert_eq!(back, mask);
        }
    }

    #[test]
    fn text_round_trips_and_damage_is_refused() {
        let mut w = Weights::zero(Rule::Renju);
        for (i, v) in w.cell[0].iter_mut().enumerate() {
            *v = (i as i16 % 97) - 40;
        }
        w.threat[1][17] = -321;
        let text = w.to_text("test");
        assert_eq!(Weights::parse(&text, Rule::Renju), Ok(w.clone()));
        // Cut short.
        let cut = &text[..text.len() / 2];
        let cut = &cut[..cut.rfind('\n').unwrap_or(0)];
        assert!(matches!(
            Weights::parse(cut, Rule::Renju),
            Err(WeightsError::Incomplete(_))
        ));
        // Wrong rule, bad value, unknown pattern, empty.
        assert!(matches!(
            Weights::parse(&text, Rule::Freestyle),
            Err(WeightsError::WrongRule { .. })
        ));
        let bad = text.replacen(" -321", " 99999", 1);
        assert!(matches!(
            Weights::parse(&bad, Rule::Renju),
            Err(WeightsError::Syntax { .. })
        ));
        let bad = text.replacen("cell black dead", "cell black deaf", 1);
        assert!(matches!(
            Weights::parse(&bad, Rule::Renju),
            Err(WeightsError::Syntax { .. })
        ));
        assert!(matches!(
            Weights::parse("", Rule::Renju),
            Err(WeightsError::Incomplete(_))
        ));
        let missing = Weights::load(std::path::Path::new("/no/such/weights.txt"));
        assert!(matches!(missing, Err(WeightsError::Read { .. })));
    }
}
