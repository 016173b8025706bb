//! Search progress as the text of a `MESSAGE` line.
//!
//! The form is the "UCI-like" one that analysis GUIs and client libraries already parse:
//!
//! ```text
//! depth D-SD [multipv K] ev SCORE n NODES n/ms SPEED tm TIME pv MOVE MOVE ...
//! ```
//!
//! `D` is the completed nominal depth and `SD` the selective depth; `multipv K` (K from 1)
//! appears only when more than one line is searched; `SCORE` is a whole number from the point
//! of view of the side to move; `NODES` is written by [`nodes_text`] (plain below 10 000, then
//! `K`, `M` or `G` with a whole number in front); `SPEED` is nodes per millisecond; `TIME` is
//! milliseconds since the search started; the moves are letter-number points
//! ([`crate::Coord::name`]). The field order never changes.

use std::fmt;
use std::str::FromStr;

use crate::coord::Coord;
use crate::error::{quote, ParseError};

/// One progress report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// `Some(k)` (k from 1) when several lines are searched.
    pub multipv: Option<usize>,
    pub score: i32,
    pub nodes: u64,
    pub nodes_per_ms: u64,
    pub time_ms: u64,
    pub pv: Vec<Coord>,
}

/// A node count in at most five digits and a suffix: `9999`, `12K`, `3456K`, `12M`, `7G`.
pub fn nodes_text(nodes: u64) -> String {
    const STEPS: [(u64, &str); 3] = [(1_000_000_000, "G"), (1_000_000, "M"), (1_000, "K")];
    for (unit, suffix) in STEPS {
        if nodes >= unit * 10 {
            return format!("{}{}", nodes / unit, suffix);
        }
    }
    nodes.to_string()
}

/// Reads [`nodes_text`] back (to the precision it was written with).
pub fn parse_nodes(text: &str) -> Option<u64> {
    let (digits, unit) = match text.as_bytes().last()? {
        b'K' | b'k' => (&text[..text.len() - 1], 1_000),
        b'M' | b'm' => (&text[..text.len() - 1], 1_000_000),
        b'G' | b'g' => (&text[..text.len() - 1], 1_000_000_000),
        _ => (text, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(unit)
}

impl fmt::Display for SearchInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "depth {}-{}", self.depth, self.seldepth)?;
        if let Some(k) = self.multipv {
            write!(f, " multipv {k}")?;
        }
        write!(
            f,
            " ev {} n {} n/ms {} tm {} pv",
            self.score,
            nodes_text(self.nodes),
            self.nodes_per_ms,
            self.time_ms
        )?;
        for p in &self.pv {
            write!(f, " {}", p.name())?;
        }
        Ok(())
    }
}

impl FromStr for SearchInfo {
    type Err = ParseError;

    /// Reads the text of a `MESSAGE` line (without `MESSAGE `).
    fn from_str(text: &str) -> Result<SearchInfo, ParseError> {
        let err = |why| ParseError::Info {
            text: quote(text),
            why,
        };
        let mut words = text.split_whitespace();
        let mut expect = |key: &'static str, why| match words.next() {
            Some(w) if w == key => words.next().ok_or_else(|| err(why)),
            _ => Err(err(why)),
        };
        let depths = expect("depth", "expected depth D-SD")?;
        let (d, sd) = depths.split_once('-').ok_or_else(|| err("expected D-SD"))?;
        let depth = d.parse().map_err(|_| err("bad depth"))?;
        let seldepth = sd.parse().map_err(|_| err("bad selective depth"))?;
        let mut rest: Vec<&str> = words.collect();
        let mut multipv = None;
        if rest.first() == Some(&"multipv") {
            let k = rest.get(1).ok_or_else(|| err("multipv needs K"))?;
            multipv = Some(k.parse().map_err(|_| err("bad multipv"))?);
            rest.drain(..2);
        }
        let field = |i: usize, key: &str, why| match (rest.get(i), rest.get(i + 1)) {
            (Some(k), Some(v)) if *k == key => Ok(*v),
            _ => Err(err(why)),
        };
        let score = field(0, "ev", "expected ev SCORE")?
            .parse()
            .map_err(|_| err("bad score"))?;
        let nodes = parse_nodes(field(2, "n", "expected n NODES")?).ok_or_else(|| err("bad n"))?;
        let nodes_per_ms = field(4, "n/ms", "expected n/ms SPEED")?
            .parse()
            .map_err(|_| err("bad n/ms"))?;
        let time_ms = field(6, "tm", "expected tm TIME")?
            .parse()
            .map_err(|_| err("bad tm"))?;
        if rest.get(8) != Some(&"pv") {
            return Err(err("expected pv"));
        }
        let pv = rest[9..]
            .iter()
            .map(|w| Coord::parse_name(w))
            .collect::<Result<_, _>>()?;
        Ok(SearchInfo {
            depth,
            seldepth,
            multipv,
            score,
            nodes,
            nodes_per_ms,
            time_ms,
            pv,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> SearchInfo {
        SearchInfo {
            depth: 7,
            seldepth: 12,
            multipv: None,
            score: -35,
            nodes: 123_456,
            nodes_per_ms: 410,
            time_ms: 301,
            pv: vec![Coord::new(7, 7), Coord::new(8, 8)],
        }
    }

    #[test]
    fn formats_the_uci_like_line() {
        assert_eq!(
            sample().to_string(),
            "depth 7-12 ev -35 n 123K n/ms 410 tm 301 pv h8 i9"
        );
        let multi = SearchInfo {
            multipv: Some(2),
            ..sample()
        };
        assert_eq!(
            multi.to_string(),
            "depth 7-12 multipv 2 ev -35 n 123K n/ms 410 tm 301 pv h8 i9"
        );
    }

    #[test]
    fn node_counts_take_a_suffix() {
        assert_eq!(nodes_text(0), "0");
        assert_eq!(nodes_text(9_999), "9999");
        assert_eq!(nodes_text(10_000), "10K");
        assert_eq!(nodes_text(9_999_999), "9999K");
        assert_eq!(nodes_text(10_000_000), "10M");
        assert_eq!(nodes_text(25_000_000_000), "25G");
        assert_eq!(parse_nodes("123K"), Some(123_000));
        assert_eq!(parse_nodes("12"), Some(12));
        assert_eq!(parse_nodes("K"), None);
        assert_eq!(parse_nodes("1x"), None);
    }

    #[test]
    fn parses_what_it_formats() {
        let mut s = sample();
        s.nodes = 123_000;
        assert_eq!(s.to_string().parse::<SearchInfo>(), Ok(s.clone()));
        let multi = SearchInfo {
            multipv: Some(3),
            pv: vec![],
            ..s
        };
        assert_eq!(multi.to_string().parse::<SearchInfo>(), Ok(multi));
    }

    #[test]
    fn rejects_other_messages() {
        for bad in [
            "hello",
            "depth 7 ev 3 n 1 n/ms 1 tm 1 pv",
            "depth 7-9 ev x n 1 n/ms 1 tm 1 pv",
            "depth 7-9 ev 1 n 1 tm 1 pv",
            "depth 7-9 ev 1 n 1 n/ms 1 tm 1 pv 7,7",
        ] {
            assert!(bad.parse::<SearchInfo>().is_err(), "{bad:?} accepted");
        }
    }
}
