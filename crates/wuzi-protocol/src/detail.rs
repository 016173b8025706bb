//! What an analysis GUI reads while the engine searches, beyond the `MESSAGE depth ...` line:
//! the realtime display and the detail block (Yixin-Board's `INFO show_detail` levels).
//!
//! - [`Realtime`]: one `MESSAGE REALTIME ...` line about the root of the search: a root move
//!   entered (`POS x,y`), finished (`DONE x,y`), become the best (`BEST x,y`) or proven lost
//!   (`LOSE x,y`), or a new iteration begun (`REFRESH`).
//! - [`PvDetail`]: the block of `INFO` lines for one principal variation after an iteration,
//!   from `INFO PV k` (k from 0) to `INFO PV DONE`; every field on its own line, in a fixed
//!   order.
//!
//! Both are plain data that format to and parse from the exact wire text, so a test (or a
//! client) can read back what an engine wrote.

use std::fmt;
use std::str::FromStr;

use crate::coord::Coord;
use crate::error::{quote, ParseError};
use crate::reply::Reply;

/// One realtime event of the root search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Realtime {
    /// The search entered this root move.
    Pos(Coord),
    /// The search of this root move is finished.
    Done(Coord),
    /// This root move is the best so far.
    Best(Coord),
    /// This root move is proven lost.
    Lose(Coord),
    /// A new iteration begins: the GUI clears its marks.
    Refresh,
}

impl Realtime {
    /// The `MESSAGE` reply that carries the event.
    pub fn reply(self) -> Reply {
        Reply::Message(self.to_string())
    }
}

impl fmt::Display for Realtime {
    /// The text after `MESSAGE `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Realtime::Pos(c) => write!(f, "REALTIME POS {c}"),
            Realtime::Done(c) => write!(f, "REALTIME DONE {c}"),
            Realtime::Best(c) => write!(f, "REALTIME BEST {c}"),
            Realtime::Lose(c) => write!(f, "REALTIME LOSE {c}"),
            Realtime::Refresh => f.write_str("REALTIME REFRESH"),
        }
    }
}

impl FromStr for Realtime {
    type Err = ParseError;

    /// Reads the text of a `MESSAGE` line (without `MESSAGE `).
    fn from_str(text: &str) -> Result<Realtime, ParseError> {
        let err = |why| ParseError::Info {
            text: quote(text),
            why,
        };
        let rest = text
            .trim()
            .strip_prefix("REALTIME ")
            .ok_or_else(|| err("not a REALTIME line"))?;
        let (word, arg) = rest.split_once(' ').unwrap_or((rest, ""));
        let point = || Coord::parse(arg, "REALTIME");
        match word {
            "POS" => Ok(Realtime::Pos(point()?)),
            "DONE" => Ok(Realtime::Done(point()?)),
            "BEST" => Ok(Realtime::Best(point()?)),
            "LOSE" => Ok(Realtime::Lose(point()?)),
            "REFRESH" if arg.is_empty() => Ok(Realtime::Refresh),
            _ => Err(err("unknown REALTIME event")),
        }
    }
}

/// A score as the detail block writes it: a whole number, or a proven result as `+M n`
/// (the side to move makes five on ply `n`) or `-M n` (the opponent does).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    Score(i32),
    Win(u32),
    Loss(u32),
}

impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Eval::Score(s) => write!(f, "{s}"),
            Eval::Win(n) => write!(f, "+M{n}"),
            Eval::Loss(n) => write!(f, "-M{n}"),
        }
    }
}

impl FromStr for Eval {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Eval, ParseError> {
        let err = || ParseError::Info {
            text: quote(text),
            why: "not a score (a whole number, +Mn or -Mn)",
        };
        if let Some(n) = text.strip_prefix("+M") {
            return n.parse().map(Eval::Win).map_err(|_| err());
        }
        if let Some(n) = text.strip_prefix("-M") {
            return n.parse().map(Eval::Loss).map_err(|_| err());
        }
        text.parse().map(Eval::Score).map_err(|_| err())
    }
}

/// One principal variation after an iteration, as the block of `INFO` lines of Yixin-Board's
/// detail display.
#[derive(Clone, Debug, PartialEq)]
pub struct PvDetail {
    /// Which line, from 0 (the best).
    pub index: usize,
    /// How many lines are searched.
    pub count: usize,
    pub depth: u32,
    pub seldepth: u32,
    /// Nodes searched for this block: since the block before it of the same search.
    pub nodes: u64,
    /// Nodes of the whole search so far (summed over the search threads).
    pub total_nodes: u64,
    /// Milliseconds since the search began.
    pub time_ms: u64,
    /// Nodes per second.
    pub speed: u64,
    pub eval: Eval,
    /// The side to move's expected score, from 0 to 1.
    pub winrate: f64,
    pub line: Vec<Coord>,
}

impl PvDetail {
    /// The block's lines, from `INFO PV k` to `INFO PV DONE`.
    pub fn lines(&self) -> Vec<Reply> {
        let line: Vec<String> = self.line.iter().map(Coord::to_string).collect();
        [
            format!("PV {}", self.index),
            format!("NUMPV {}", self.count),
            format!("DEPTH {}", self.depth),
            format!("SELDEPTH {}", self.seldepth),
            format!("NODES {}", self.nodes),
            format!("TOTALNODES {}", self.total_nodes),
            format!("TOTALTIME {}", self.time_ms),
            format!("SPEED {}", self.speed),
            format!("EVAL {}", self.eval),
            format!("WINRATE {:.4}", self.winrate.clamp(0.0, 1.0)),
            format!("BESTLINE {}", line.join(" ")),
            "PV DONE".to_string(),
        ]
        .into_iter()
        .map(Reply::Info)
        .collect()
    }

    /// Reads a block back from its lines' texts (each without `INFO `), as [`PvDetail::lines`]
    /// writes them.
    pub fn parse_block(texts: &[&str]) -> Result<PvDetail, ParseError> {
        let all = texts.join(" | ");
        let err = |why| ParseError::Info {
            text: quote(&all),
            why,
        };
        let keys = [
            "PV",
            "NUMPV",
            "DEPTH",
            "SELDEPTH",
            "NODES",
            "TOTALNODES",
            "TOTALTIME",
            "SPEED",
            "EVAL",
            "WINRATE",
            "BESTLINE",
            "PV",
        ];
        if texts.len() != keys.len() {
            return Err(err("a detail block has twelve lines"));
        }
        let mut values = Vec::with_capacity(keys.len());
        for (text, key) in texts.iter().zip(keys) {
            let value = text
                .strip_prefix(key)
                .and_then(|v| v.strip_prefix(' ').or((v.is_empty()).then_some("")))
                .ok_or_else(|| err("a field is missing or out of order"))?;
            values.push(value);
        }
        if values[11] != "DONE" {
            return Err(err("the block ends with INFO PV DONE"));
        }
        let number = |i: usize| -> Result<u64, ParseError> {
            values[i]
                .parse()
                .map_err(|_| err("a field is not a number"))
        };
        let winrate: f64 = values[9].parse().map_err(|_| err("bad WINRATE"))?;
        if !(0.0..=1.0).contains(&winrate) {
            return Err(err("WINRATE is outside 0..1"));
        }
        Ok(PvDetail {
            index: number(0)? as usize,
            count: number(1)? as usize,
            depth: number(2)? as u32,
            seldepth: number(3)? as u32,
            nodes: number(4)?,
            total_nodes: number(5)?,
            time_ms: number(6)?,
            speed: number(7)?,
            eval: values[8].parse()?,
            winrate,
            line: Coord::parse_list(values[10], "BESTLINE")?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn realtime_lines_round_trip() {
        for event in [
            Realtime::Pos(Coord::new(7, 7)),
            Realtime::Done(Coord::new(0, 14)),
            Realtime::Best(Coord::new(3, 4)),
            Realtime::Lose(Coord::new(1, 1)),
            Realtime::Refresh,
        ] {
            assert_eq!(event.to_string().parse::<Realtime>(), Ok(event));
        }
        assert_eq!(
            Realtime::Lose(Coord::new(1, 2)).reply().to_string(),
            "MESSAGE REALTIME LOSE 1,2"
        );
        for bad in [
            "REALTIME",
            "REALTIME POS",
            "REALTIME POS 7",
            "REALTIME NOW 1,1",
            "depth 1",
        ] {
            assert!(bad.parse::<Realtime>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn detail_block_writes_every_field_in_order_and_reads_back() {
        let d = PvDetail {
            index: 1,
            count: 3,
            depth: 9,
            seldepth: 14,
            nodes: 123_456,
            total_nodes: 200_000,
            time_ms: 250,
            speed: 493_824,
            eval: Eval::Score(-35),
            winrate: 0.4713,
            line: vec![Coord::new(7, 7), Coord::new(8, 6)],
        };
        let lines: Vec<String> = d.lines().iter().map(Reply::to_string).collect();
        assert_eq!(
            lines,
            [
                "INFO PV 1",
                "INFO NUMPV 3",
                "INFO DEPTH 9",
                "INFO SELDEPTH 14",
                "INFO NODES 123456",
                "INFO TOTALNODES 200000",
                "INFO TOTALTIME 250",
                "INFO SPEED 493824",
                "INFO EVAL -35",
                "INFO WINRATE 0.4713",
                "INFO BESTLINE 7,7 8,6",
                "INFO PV DONE"
            ]
        );
        let texts: Vec<&str> = lines.iter().map(|l| &l[5..]).collect();
        assert_eq!(PvDetail::parse_block(&texts), Ok(d));
        assert_eq!(Eval::Win(5).to_string(), "+M5");
        assert_eq!("-M4".parse::<Eval>(), Ok(Eval::Loss(4)));
        assert!(PvDetail::parse_block(&texts[1..]).is_err());
    }
}
