//! The learned move-ordering table: the static score of a move from the multisets of line
//! patterns at its point, fitted by `wuzi tune-order` (crate `wuzi-tune`) to which moves the
//! search found best.
//!
//! ```text
//! score(move) = own[us colour][combo(our code at the point)]
//!             + theirs[us colour][combo(their code at the point)]
//! ```
//!
//! `combo` is the evaluation's fold of a point's four line patterns into their multiset
//! (`wuzi_eval::learned::combo`): the first term is what the move makes for the side to move,
//! the second what it takes from the opponent. The scores are logits of the fit (in units of
//! `1 / ORDER_TEMPERATURE`), so that they sit on the scale of the killer and history bonuses.
//!
//! File format (text): lines starting with `#` are comments; one line `rule NAME`; then one
//! line per combo, `COMBO OWN_BLACK THEIRS_BLACK OWN_WHITE THEIRS_WHITE`, every combo exactly
//! once. Invariants: a table holds every combo for both colours, and its values fit an `i16`.
//!
//! Tables of format 1 were keyed by the combos of the twelve coarse line patterns
//! (`COARSE_COMBO_COUNT` lines). [`OrderTable::parse_coarse`] reads one, each combo taking the
//! value of the coarse combo it coarsens to, which orders every move as the coarse table did;
//! `wuzi expand-tables` rewrites such files in the current format.

use std::sync::OnceLock;
use wuzi_core::{Board, Cell, Color, Rule};
use wuzi_eval::learned::{combo, expand_coarse, COARSE_COMBO_COUNT, COMBO_COUNT};

/// Ordering points per unit of the fitted logit.
pub const ORDER_TEMPERATURE: f64 = 100.0;

/// A fitted ordering table for one rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderTable {
    pub rule: Rule,
    /// Per colour (`Color::index`), per combo: the score of making it.
    pub own: [Vec<i16>; 2],
    /// Per colour of the side to move, per combo of the opponent: the score of taking it.
    pub theirs: [Vec<i16>; 2],
}

/// Why an ordering table file was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum OrderTableError {
    #[error("line {line}: {what}")]
    Line { line: usize, what: String },
    #[error("no `rule` line")]
    NoRule,
    #[error("the table is for {found}, not {wanted}")]
    WrongRule { found: Rule, wanted: Rule },
    #[error("combo {0} is missing")]
    Missing(usize),
}

impl OrderTable {
    /// A table of zeros for `rule`.
    pub fn zero(rule: Rule) -> OrderTable {
        OrderTable {
            rule,
            own: [vec![0; COMBO_COUNT], vec![0; COMBO_COUNT]],
            theirs: [vec![0; COMBO_COUNT], vec![0; COMBO_COUNT]],
        }
    }

    /// The static ordering score of `us` playing `cell` (an empty point).
    #[inline]
    pub fn score(&self, board: &Board, us: Color, cell: Cell) -> i32 {
        let i = us.index();
        let mine = combo(board.pattern_code(us, cell));
        let theirs = combo(board.pattern_code(us.opponent(), cell));
        i32::from(self.own[i][mine]) + i32::from(self.theirs[i][theirs])
    }

    /// The table as text (the file format above), with `comment` as its first lines.
    pub fn to_text(&self, comment: &str) -> String {
        let mut out = String::new();
        for line in comment.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(&format!("rule {}\n", self.rule));
        for c in 0..COMBO_COUNT {
            out.push_str(&format!(
                "{c} {} {} {} {}\n",
                self.own[0][c], self.theirs[0][c], self.own[1][c], self.theirs[1][c]
            ));
        }
        out
    }

    /// Reads a table for `rule` from its text.
    pub fn parse(text: &str, rule: Rule) -> Result<OrderTable, OrderTableError> {
        OrderTable::parse_lines(text, Some(rule), COMBO_COUNT)
    }

    /// Reads a table for the rule its `rule` line names.
    pub fn parse_any(text: &str) -> Result<OrderTable, OrderTableError> {
        OrderTable::parse_lines(text, None, COMBO_COUNT)
    }

    /// Reads a table of format 1 (one line per coarse combo) for the rule its `rule` line
    /// names, its values expanded to the combos (`wuzi_eval::learned::expand_coarse`).
    pub fn parse_coarse(text: &str) -> Result<OrderTable, OrderTableError> {
        let mut table = OrderTable::parse_lines(text, None, COARSE_COMBO_COUNT)?;
        for side in [&mut table.own, &mut table.theirs] {
            for values in side.iter_mut() {
                *values = expand_coarse(values);
            }
        }
        Ok(table)
    }

    /// Reads a table of `count` combos, for `wanted` if given (else for its own rule).
    fn parse_lines(
        text: &str,
        wanted: Option<Rule>,
        count: usize,
    ) -> Result<OrderTable, OrderTableError> {
        let mut table = OrderTable {
            rule: wanted.unwrap_or(Rule::Freestyle),
            own: [vec![0; count], vec![0; count]],
            theirs: [vec![0; count], vec![0; count]],
        };
        let mut seen = vec![false; count];
        let mut found_rule = None;
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let bad = |what: &str| OrderTableError::Line {
                line: n + 1,
                what: what.to_string(),
            };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(name) = line.strip_prefix("rule ") {
                let r: Rule = name
                    .trim()
                    .parse()
                    .map_err(|_| bad(&format!("unknown rule {name:?}")))?;
                if let Some(rule) = wanted.filter(|&rule| rule != r) {
                    return Err(OrderTableError::WrongRule {
                        found: r,
                        wanted: rule,
                    });
                }
                table.rule = r;
                found_rule = Some(r);
                continue;
            }
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields.len() != 5 {
                return Err(bad("expected a combo and four values"));
            }
            let c: usize = fields[0]
                .parse()
                .ok()
                .filter(|&c| c < count)
                .ok_or_else(|| bad("bad combo number"))?;
            if seen[c] {
                return Err(bad("the combo is given twice"));
            }
            seen[c] = true;
            let mut values = [0i16; 4];
            for (v, f) in values.iter_mut().zip(&fields[1..]) {
                *v = f.parse().map_err(|_| bad("a value is not an i16"))?;
            }
            table.own[0][c] = values[0];
            table.theirs[0][c] = values[1];
            table.own[1][c] = values[2];
            table.theirs[1][c] = values[3];
        }
        if found_rule.is_none() {
            return Err(OrderTableError::NoRule);
        }
        if let Some(c) = seen.iter().position(|&s| !s) {
            return Err(OrderTableError::Missing(c));
        }
        Ok(table)
    }

    /// The committed table of `rule`, if it has one (built into the binary).
    pub fn committed(rule: Rule) -> Option<&'static OrderTable> {
        static TABLES: [OnceLock<Option<OrderTable>>; 5] = [const { OnceLock::new() }; 5];
        let (slot, text) = match rule {
            Rule::Freestyle => (0, include_str!("../order/freestyle.txt")),
            Rule::Standard => (1, include_str!("../order/standard.txt")),
            Rule::Renju => (2, include_str!("../order/renju.txt")),
            Rule::Caro => (3, include_str!("../order/caro.txt")),
            _ => return None,
        };
        TABLES[slot]
            .get_or_init(|| OrderTable::parse(text, rule).ok())
            .as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_round_trips_and_bad_files_are_refused() {
        let mut t = OrderTable::zero(Rule::Renju);
        for c in 0..COMBO_COUNT {
            t.own[0][c] = c as i16;
            t.theirs[0][c] = -(c as i16);
            t.own[1][c] = (c % 7) as i16;
            t.theirs[1][c] = i16::MAX - c as i16;
        }
        let text = t.to_text("a test\ntwo lines");
        assert_eq!(OrderTable::parse(&text, Rule::Renju), Ok(t));
        assert!(matches!(
            OrderTable::parse(&text, Rule::Freestyle),
            Err(OrderTableError::WrongRule { .. })
        ));
        let short: String = text.lines().take(10).map(|l| format!("{l}\n")).collect();
        assert!(matches!(
            OrderTable::parse(&short, Rule::Renju),
            Err(OrderTableError::Missing(_))
        ));
        let doubled = format!("{text}0 1 2 3 4\n");
        assert!(matches!(
            OrderTable::parse(&doubled, Rule::Renju),
            Err(OrderTableError::Line { .. })
        ));
        let big = text.replacen("\n0 0 0 0 ", "\n0 99999 0 0 ", 1);
        assert!(matches!(
            OrderTable::parse(&big, Rule::Renju),
            Err(OrderTableError::Line { .. })
        ));
    }

    #[test]
    fn a_table_of_coarse_combos_is_expanded_to_every_combo() {
        use wuzi_eval::learned::coarse_combo;
        let mut coarse = String::from("# old\nrule standard\n");
        for c in 0..COARSE_COMBO_COUNT {
            coarse.push_str(&format!("{c} {c} {} -{c} 3\n", c % 5));
        }
        // The current format wants every combo; format 1 has fewer.
        assert!(matches!(
            OrderTable::parse(&coarse, Rule::Standard),
            Err(OrderTableError::Missing(_))
        ));
        let t = OrderTable::parse_coarse(&coarse).expect("format 1");
        assert_eq!(t.rule, Rule::Standard);
        for c in 0..COMBO_COUNT {
            let k = coarse_combo(c) as i16;
            assert_eq!(
                [t.own[0][c], t.theirs[0][c], t.own[1][c], t.theirs[1][c]],
                [k, k % 5, -k, 3]
            );
        }
        assert_eq!(OrderTable::parse_any(&t.to_text("")), Ok(t));
    }

    #[test]
    fn the_committed_tables_parse() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
            assert!(OrderTable::committed(rule).is_some(), "{rule}");
        }
    }
}
