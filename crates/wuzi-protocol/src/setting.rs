//! `INFO key value`: the settings a manager sends.
//!
//! [`Setting`] is one parsed `INFO` line. Keys are matched without regard to case; a key this
//! crate does not know is kept as [`Setting::Other`] (the protocol says such keys are
//! ignored), whatever its value. A known key with a value that is not a number of the right
//! kind is an error. `Display` gives the wire form, so a manager can send a `Setting` as is.

use std::fmt;

use crate::error::{quote, ParseError};

/// The value of `time_left` that means "unlimited".
pub const UNLIMITED_TIME_LEFT: i64 = 2_147_483_647;

/// One `INFO` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setting {
    /// Time for one move in ms; 0 asks for a move as fast as possible.
    TimeoutTurn(u64),
    /// Time for the whole game in ms; 0 means unlimited.
    TimeoutMatch(u64),
    /// Time left in the game in ms; may be negative; [`UNLIMITED_TIME_LEFT`] means unlimited.
    TimeLeft(i64),
    /// Memory limit of the whole process in bytes; 0 means unlimited.
    MaxMemory(u64),
    /// 0 human opponent, 1 brain opponent, 2 tournament, 3 network tournament.
    GameType(u64),
    /// The Gomocup rule code, kept as sent: the session decides which codes it supports.
    Rule(u64),
    /// A folder the engine may write to (the rest of the line, spaces included).
    Folder(String),
    /// Number of search threads.
    ThreadNum(u64),
    /// Transposition table size in KB (Yixin-Board); 0 means the engine's default.
    HashSize(u64),
    /// Depth limit (Yixin-Board); `None` when 0 or negative (no limit).
    MaxDepth(Option<u64>),
    /// Node limit (Yixin-Board); `None` when 0 or negative (no limit).
    MaxNode(Option<u64>),
    /// Search detail level (Yixin-Board); 0 asks for no search information; bit 1 (1 or 3)
    /// asks for the realtime display, bit 2 (2 or 3) for the detail block.
    ShowDetail(u64),
    /// Think on the opponent's time (Yixin-Board): 0 off, 1 on.
    Pondering(bool),
    /// Playing strength (Yixin-Board) from 0 (weakest) to 100 (full strength).
    Strength(u64),
    /// The game is drawn when the board holds this many stones; 0: no such limit.
    MaxMoves(u64),
    /// The result of a game drawn by `MaxMoves`: 0 a draw, 1 Black wins, 2 White wins.
    DrawResult(u64),
    /// A key this crate does not know, with the rest of the line.
    Other { key: String, value: String },
}

impl Setting {
    /// Parses the text after `INFO `.
    pub fn parse(args: &str) -> Result<Setting, ParseError> {
        let args = args.trim();
        let (key, value) = match args.split_once(char::is_whitespace) {
            Some((k, v)) => (k, v.trim()),
            None => (args, ""),
        };
        if key.is_empty() {
            return Err(ParseError::Missing {
                command: "INFO",
                expected: "a key and a value",
            });
        }
        let lower = key.to_ascii_lowercase();
        let setting = match lower.as_str() {
            "timeout_turn" => Setting::TimeoutTurn(unsigned(value, "INFO timeout_turn")?),
            "timeout_match" => Setting::TimeoutMatch(unsigned(value, "INFO timeout_match")?),
            "time_left" => Setting::TimeLeft(signed(value, "INFO time_left")?),
            "max_memory" => Setting::MaxMemory(unsigned(value, "INFO max_memory")?),
            "game_type" => Setting::GameType(unsigned(value, "INFO game_type")?),
            "rule" => Setting::Rule(unsigned(value, "INFO rule")?),
            "folder" => Setting::Folder(value.to_string()),
            "thread_num" => Setting::ThreadNum(unsigned(value, "INFO thread_num")?),
            "hash_size" => Setting::HashSize(unsigned(value, "INFO hash_size")?),
            "max_depth" => Setting::MaxDepth(limit(value, "INFO max_depth")?),
            "max_node" => Setting::MaxNode(limit(value, "INFO max_node")?),
            "show_detail" => Setting::ShowDetail(unsigned(value, "INFO show_detail")?),
            "pondering" => {
                Setting::Pondering(in_range(value, "INFO pondering", 1, "0 (off) or 1 (on)")? == 1)
            }
            "strength" => Setting::Strength(in_range(
                value,
                "INFO strength",
                100,
                "a number from 0 to 100",
            )?),
            "max_moves" => Setting::MaxMoves(unsigned(value, "INFO max_moves")?),
            "draw_result" => Setting::DrawResult(in_range(
                value,
                "INFO draw_result",
                2,
                "0 (draw), 1 (Black wins) or 2 (White wins)",
            )?),
            _ => Setting::Other {
                key: key.to_string(),
                value: value.to_string(),
            },
        };
        Ok(setting)
    }
}

impl fmt::Display for Setting {
    /// The text after `INFO `.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Setting::TimeoutTurn(v) => write!(f, "timeout_turn {v}"),
            Setting::TimeoutMatch(v) => write!(f, "timeout_match {v}"),
            Setting::TimeLeft(v) => write!(f, "time_left {v}"),
            Setting::MaxMemory(v) => write!(f, "max_memory {v}"),
            Setting::GameType(v) => write!(f, "game_type {v}"),
            Setting::Rule(v) => write!(f, "rule {v}"),
            Setting::Folder(v) => write!(f, "folder {v}"),
            Setting::ThreadNum(v) => write!(f, "thread_num {v}"),
            Setting::HashSize(v) => write!(f, "hash_size {v}"),
            Setting::MaxDepth(v) => write!(f, "max_depth {}", v.unwrap_or(0)),
            Setting::MaxNode(v) => write!(f, "max_node {}", v.unwrap_or(0)),
            Setting::ShowDetail(v) => write!(f, "show_detail {v}"),
            Setting::Pondering(v) => write!(f, "pondering {}", u8::from(*v)),
            Setting::Strength(v) => write!(f, "strength {v}"),
            Setting::MaxMoves(v) => write!(f, "max_moves {v}"),
            Setting::DrawResult(v) => write!(f, "draw_result {v}"),
            Setting::Other { key, value } => write!(f, "{key} {value}"),
        }
    }
}

fn number_error(value: &str, what: &'static str, expected: &'static str) -> ParseError {
    if value.is_empty() {
        ParseError::Missing {
            command: what,
            expected: "a value",
        }
    } else {
        ParseError::Number {
            what,
            text: quote(value),
            expected,
        }
    }
}

fn unsigned(value: &str, what: &'static str) -> Result<u64, ParseError> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(number_error(value, what, "a non-negative whole number"));
    }
    value
        .parse()
        .map_err(|_| number_error(value, what, "a number in range"))
}

fn signed(value: &str, what: &'static str) -> Result<i64, ParseError> {
    let digits = value.strip_prefix('-').unwrap_or(value);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(number_error(value, what, "a whole number"));
    }
    value
        .parse()
        .map_err(|_| number_error(value, what, "a number in range"))
}

/// A whole number from 0 to `max`.
fn in_range(
    value: &str,
    what: &'static str,
    max: u64,
    expected: &'static str,
) -> Result<u64, ParseError> {
    match unsigned(value, what) {
        Ok(v) if v <= max => Ok(v),
        Ok(_) => Err(number_error(value, what, expected)),
        Err(ParseError::Number { .. }) => Err(number_error(value, what, expected)),
        Err(e) => Err(e),
    }
}

/// A limit where 0 and negative numbers mean "none".
fn limit(value: &str, what: &'static str) -> Result<Option<u64>, ParseError> {
    if value.starts_with('-') {
        signed(value, what)?;
        return Ok(None);
    }
    let v = unsigned(value, what)?;
    Ok((v > 0).then_some(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_known_key() {
        let cases = [
            ("timeout_turn 1000", Setting::TimeoutTurn(1000)),
            ("TIMEOUT_MATCH 0", Setting::TimeoutMatch(0)),
            ("time_left -25", Setting::TimeLeft(-25)),
            ("max_memory 367001600", Setting::MaxMemory(367_001_600)),
            ("game_type 1", Setting::GameType(1)),
            ("rule 4", Setting::Rule(4)),
            (
                "folder C:\\my data\\x",
                Setting::Folder("C:\\my data\\x".into()),
            ),
            ("thread_num 2", Setting::ThreadNum(2)),
            ("hash_size 65536", Setting::HashSize(65536)),
            ("max_depth 0", Setting::MaxDepth(None)),
            ("max_depth 12", Setting::MaxDepth(Some(12))),
            ("max_node -1", Setting::MaxNode(None)),
            ("max_node 500000", Setting::MaxNode(Some(500_000))),
            ("show_detail 3", Setting::ShowDetail(3)),
            ("pondering 1", Setting::Pondering(true)),
            ("PONDERING 0", Setting::Pondering(false)),
            ("strength 35", Setting::Strength(35)),
            ("max_moves 200", Setting::MaxMoves(200)),
            ("draw_result 2", Setting::DrawResult(2)),
            (
                "caution_factor 2",
                Setting::Other {
                    key: "caution_factor".into(),
                    value: "2".into(),
                },
            ),
        ];
        for (text, want) in cases {
            assert_eq!(Setting::parse(text), Ok(want.clone()), "{text}");
            // Display gives back a line that parses to the same setting.
            assert_eq!(Setting::parse(&want.to_string()), Ok(want), "{text}");
        }
    }

    #[test]
    fn rejects_bad_values_of_known_keys() {
        for bad in [
            "",
            "timeout_turn",
            "timeout_turn abc",
            "timeout_turn -5",
            "timeout_turn 10 20",
            "time_left 1.5",
            "time_left -",
            "max_memory 99999999999999999999999",
            "rule x",
            "max_node 1e6",
            "pondering 2",
            "pondering yes",
            "strength 101",
            "strength -1",
            "draw_result 3",
            "max_moves -5",
        ] {
            assert!(Setting::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn unknown_keys_are_kept_even_without_value() {
        assert_eq!(
            Setting::parse("whatever"),
            Ok(Setting::Other {
                key: "whatever".into(),
                value: String::new()
            })
        );
    }
}
