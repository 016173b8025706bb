//! Typed errors of the wire format.
//!
//! Every error's `Display` is one short line that an engine can send after `ERROR ` (or, for
//! [`ParseError::Unknown`], after `UNKNOWN `): any text quoted from the input has passed through
//! [`quote`], so it holds no control character and is never longer than [`QUOTE_MAX`] characters.

use thiserror::Error;

/// The longest piece of input text quoted back in an error message, in characters.
pub const QUOTE_MAX: usize = 40;

/// Why a line could not be read as a command, a stone line or an engine reply.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The line holds nothing but white space.
    #[error("empty line")]
    Empty,
    /// The first word is not a command of the protocol (the engine answers `UNKNOWN <word>`).
    #[error("{0}")]
    Unknown(String),
    /// A command is missing its argument.
    #[error("{command} needs {expected}")]
    Missing {
        command: &'static str,
        expected: &'static str,
    },
    /// A command has text after its last argument.
    #[error("{command} takes {expected}, but \"{extra}\" follows")]
    Extra {
        command: &'static str,
        expected: &'static str,
        extra: String,
    },
    /// A number could not be read.
    #[error("{what}: \"{text}\" is not {expected}")]
    Number {
        what: &'static str,
        text: String,
        expected: &'static str,
    },
    /// A coordinate pair is not of the form `X,Y`.
    #[error("{what}: \"{text}\" is not of the form X,Y")]
    Coord { what: &'static str, text: String },
    /// A stone line (inside BOARD, YXBOARD or SWAP2BOARD) is malformed.
    #[error("stone line \"{text}\": {why}")]
    StoneLine { text: String, why: &'static str },
    /// An engine reply line is malformed.
    #[error("reply \"{text}\": {why}")]
    Reply { text: String, why: &'static str },
    /// A search information line is malformed.
    #[error("search info \"{text}\": {why}")]
    Info { text: String, why: &'static str },
}

/// `text` made fit to quote in a one-line message: control characters become `?`, and text
/// longer than [`QUOTE_MAX`] characters is cut and ends in `...`.
pub fn quote(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == QUOTE_MAX {
            out.push_str("...");
            break;
        }
        out.push(if c.is_control() { '?' } else { c });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_removes_control_characters_and_cuts_long_text() {
        assert_eq!(quote("a\rb\u{0}c\td"), "a?b?c?d");
        let long = "x".repeat(100);
        let q = quote(&long);
        assert_eq!(q.len(), QUOTE_MAX + 3);
        assert!(q.ends_with("..."));
        assert_eq!(quote("short"), "short");
    }

    #[test]
    fn messages_are_one_line() {
        let e = ParseError::Extra {
            command: "BEGIN",
            expected: "no argument",
            extra: quote("x\ny"),
        };
        assert_eq!(
            e.to_string(),
            "BEGIN takes no argument, but \"x?y\" follows"
        );
    }
}
