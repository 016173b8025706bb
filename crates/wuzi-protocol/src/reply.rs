//! Engine-to-manager replies.
//!
//! [`Reply`] is one line an engine writes. `Display` gives the exact wire text (without the
//! line terminator) and never contains a line break: free text in `MESSAGE`, `ERROR`,
//! `UNKNOWN` and `DEBUG` has its control characters replaced by spaces. [`Reply::parse`] reads
//! an engine's line back, for the manager side of a match.

use std::fmt;

use crate::coord::Coord;
use crate::error::{quote, ParseError};

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `OK`.
    Ok,
    /// `X,Y`: a move.
    Move(Coord),
    /// `X1,Y1 X2,Y2 ...`: several moves on one line (swap2 answers).
    Moves(Vec<Coord>),
    /// `SWAP`: the swap2 choice to change colours.
    Swap,
    /// `SUGGEST X,Y`.
    Suggest(Coord),
    /// `FORBID XXYY....`: Black's forbidden points, two digits for x then two for y, then `.`.
    Forbid(Vec<Coord>),
    /// `MESSAGE text`.
    Message(String),
    /// `ERROR text`.
    Error(String),
    /// `UNKNOWN text`.
    Unknown(String),
    /// `DEBUG text`.
    Debug(String),
    /// `INFO text`: a line of the detail block an analysis GUI reads (`INFO show_detail` 2
    /// or 3; `crate::PvDetail`).
    Info(String),
    /// The answer to `ABOUT`: `key="value"` pairs separated by `, `.
    About(Vec<(String, String)>),
}

impl Reply {
    /// Reads one engine line.
    pub fn parse(line: &str) -> Result<Reply, ParseError> {
        let line = line.trim();
        let err = |why| ParseError::Reply {
            text: quote(line),
            why,
        };
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let (word, rest) = match line.split_once(' ') {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_uppercase().as_str() {
            "OK" if rest.is_empty() => return Ok(Reply::Ok),
            "SWAP" if rest.is_empty() => return Ok(Reply::Swap),
            "MESSAGE" => return Ok(Reply::Message(rest.to_string())),
            "ERROR" => return Ok(Reply::Error(rest.to_string())),
            "UNKNOWN" => return Ok(Reply::Unknown(rest.to_string())),
            "DEBUG" => return Ok(Reply::Debug(rest.to_string())),
            "INFO" => return Ok(Reply::Info(rest.to_string())),
            "SUGGEST" => return Ok(Reply::Suggest(Coord::parse(rest, "SUGGEST")?)),
            "FORBID" => return parse_forbid(rest).ok_or_else(|| err("bad FORBID list")),
            _ => {}
        }
        if line.contains("=\"") {
            return parse_about(line).ok_or_else(|| err("bad ABOUT answer"));
        }
        // The one wire format of points (`Coord::parse_list`), as the engine reads them.
        let moves =
            Coord::parse_list(line, "move").map_err(|_| err("not a reply of the protocol"))?;
        match moves.as_slice() {
            [one] => Ok(Reply::Move(*one)),
            _ => Ok(Reply::Moves(moves)),
        }
    }

    /// The text of an `ABOUT` answer for these fields.
    pub fn about(fields: &[(&str, &str)]) -> Reply {
        Reply::About(
            fields
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }
}

fn parse_forbid(rest: &str) -> Option<Reply> {
    let digits = rest.strip_suffix('.')?;
    let bytes = digits.as_bytes();
    if bytes.len() % 4 != 0 || !bytes.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let num = |b: &[u8]| u32::from(b[0] - b'0') * 10 + u32::from(b[1] - b'0');
    let points = bytes
        .chunks(4)
        .map(|c| Coord::new(num(&c[..2]), num(&c[2..])))
        .collect();
    Some(Reply::Forbid(points))
}

fn parse_about(line: &str) -> Option<Reply> {
    let mut fields = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let (key, after) = rest.split_once("=\"")?;
        let (value, after) = after.split_once('"')?;
        fields.push((key.trim().to_string(), value.to_string()));
        rest = after.trim_start();
        rest = rest.strip_prefix(',').unwrap_or(rest).trim_start();
    }
    Some(Reply::About(fields))
}

/// Free text made fit for one line.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::Ok => f.write_str("OK"),
            Reply::Move(c) => write!(f, "{c}"),
            Reply::Moves(moves) => {
                let text: Vec<String> = moves.iter().map(Coord::to_string).collect();
                f.write_str(&text.join(" "))
            }
            Reply::Swap => f.write_str("SWAP"),
            Reply::Suggest(c) => write!(f, "SUGGEST {c}"),
            Reply::Forbid(points) => {
                f.write_str("FORBID ")?;
                for p in points {
                    write!(f, "{:02}{:02}", p.x, p.y)?;
                }
                f.write_str(".")
            }
            Reply::Message(t) => write!(f, "MESSAGE {}", one_line(t)),
            Reply::Error(t) => write!(f, "ERROR {}", one_line(t)),
            Reply::Unknown(t) => write!(f, "UNKNOWN {}", one_line(t)),
            Reply::Debug(t) => write!(f, "DEBUG {}", one_line(t)),
            Reply::Info(t) => write!(f, "INFO {}", one_line(t)),
            Reply::About(fields) => {
                let parts: Vec<String> = fields
                    .iter()
                    .map(|(k, v)| format!("{}=\"{}\"", one_line(k), one_line(v).replace('"', "'")))
                    .collect();
                f.write_str(&parts.join(", "))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_exact_wire_text() {
        assert_eq!(Reply::Ok.to_string(), "OK");
        assert_eq!(Reply::Move(Coord::new(7, 8)).to_string(), "7,8");
        assert_eq!(
            Reply::Moves(vec![Coord::new(7, 7), Coord::new(8, 8), Coord::new(6, 9)]).to_string(),
            "7,7 8,8 6,9"
        );
        assert_eq!(Reply::Swap.to_string(), "SWAP");
        assert_eq!(
            Reply::Forbid(vec![Coord::new(7, 8), Coord::new(10, 1)]).to_string(),
            "FORBID 07081001."
        );
        assert_eq!(Reply::Forbid(vec![]).to_string(), "FORBID .");
        assert_eq!(Reply::Error("a\nb\rc".into()).to_string(), "ERROR a b c");
        assert_eq!(
            Reply::about(&[("name", "wuzi"), ("version", "0.1")]).to_string(),
            "name=\"wuzi\", version=\"0.1\""
        );
    }

    #[test]
    fn parses_what_it_formats() {
        let replies = [
            Reply::Ok,
            Reply::Move(Coord::new(0, 14)),
            Reply::Moves(vec![Coord::new(7, 7), Coord::new(8, 8)]),
            Reply::Swap,
            Reply::Suggest(Coord::new(3, 3)),
            Reply::Forbid(vec![Coord::new(7, 8), Coord::new(10, 1)]),
            Reply::Forbid(vec![]),
            Reply::Message("depth 1-1 ev 0 n 1 n/ms 1 tm 0 pv h8".into()),
            Reply::Error("TURN: occupied".into()),
            Reply::Unknown("FOO".into()),
            Reply::Debug("x".into()),
            Reply::Info("PV DONE".into()),
            Reply::about(&[("name", "wuzi"), ("author", "a, b")]),
        ];
        for r in replies {
            assert_eq!(Reply::parse(&r.to_string()), Ok(r.clone()), "{r}");
        }
    }

    #[test]
    fn reads_points_as_the_engine_does() {
        assert_eq!(Reply::parse("7, 7"), Ok(Reply::Move(Coord::new(7, 7))));
        assert_eq!(Reply::parse(" 7 ,7 "), Ok(Reply::Move(Coord::new(7, 7))));
        assert_eq!(
            Reply::parse("7, 7 8 ,8"),
            Ok(Reply::Moves(vec![Coord::new(7, 7), Coord::new(8, 8)]))
        );
        assert_eq!(Coord::parse("7, 7", "TURN"), Ok(Coord::new(7, 7)));
    }

    #[test]
    fn rejects_garbage() {
        for bad in [
            "",
            "7",
            "OK now",
            "FORBID 070.",
            "FORBID 0708",
            "hello world",
            "7,7 x",
            "7 7",
            "7,7,",
        ] {
            assert!(Reply::parse(bad).is_err(), "{bad:?} accepted");
        }
    }
}
