//! Stone lines: the `X,Y,F` (or `X,Y`) lines between `BOARD`, `YXBOARD` or `SWAP2BOARD` and
//! `DONE`.
//!
//! The field `F` is optional here: `SWAP2BOARD` lines come without it from some managers, and
//! the session decides which blocks need it. When present it must be 1, 2 or 3.

use std::fmt;

use crate::coord::{parse_index, Coord};
use crate::error::{quote, ParseError};

/// Whose stone a stone line places.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Field {
    /// `1`: the engine's own stone.
    Own,
    /// `2`: the opponent's stone.
    Opponent,
    /// `3`: a winning-line square of the obsolete continuous game.
    Winning,
}

impl Field {
    pub fn code(self) -> u32 {
        match self {
            Field::Own => 1,
            Field::Opponent => 2,
            Field::Winning => 3,
        }
    }
}

/// One line inside a position block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StoneLine {
    pub at: Coord,
    pub field: Option<Field>,
}

impl StoneLine {
    /// Reads `X,Y` or `X,Y,F`.
    pub fn parse(line: &str) -> Result<StoneLine, ParseError> {
        let err = |why| ParseError::StoneLine {
            text: quote(line),
            why,
        };
        let parts: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let (x, y, f) = match parts.as_slice() {
            [x, y] => (*x, *y, None),
            [x, y, f] => (*x, *y, Some(*f)),
            _ => return Err(err("expected X,Y,F or X,Y")),
        };
        let x = parse_index(x, "stone line").map_err(|_| err("X is not a non-negative number"))?;
        let y = parse_index(y, "stone line").map_err(|_| err("Y is not a non-negative number"))?;
        let field = match f {
            None => None,
            Some("1") => Some(Field::Own),
            Some("2") => Some(Field::Opponent),
            Some("3") => Some(Field::Winning),
            Some(_) => return Err(err("F must be 1 (own), 2 (opponent) or 3")),
        };
        Ok(StoneLine {
            at: Coord::new(x, y),
            field,
        })
    }
}

impl fmt::Display for StoneLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            Some(field) => write!(f, "{},{}", self.at, field.code()),
            None => write!(f, "{}", self.at),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_and_without_field() {
        assert_eq!(
            StoneLine::parse("7,8,1"),
            Ok(StoneLine {
                at: Coord::new(7, 8),
                field: Some(Field::Own)
            })
        );
        assert_eq!(
            StoneLine::parse("7, 8 ,2"),
            Ok(StoneLine {
                at: Coord::new(7, 8),
                field: Some(Field::Opponent)
            })
        );
        assert_eq!(
            StoneLine::parse("0,0"),
            Ok(StoneLine {
                at: Coord::new(0, 0),
                field: None
            })
        );
    }

    #[test]
    fn rejects_bad_lines() {
        for bad in [
            "7,8,0", "7,8,4", "7,8,x", "7", "7,8,1,1", "a,8,1", "7,-8,1", "",
        ] {
            assert!(StoneLine::parse(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn display_round_trips() {
        for text in ["7,8,1", "0,14,2", "3,3,3", "5,6"] {
            let line = StoneLine::parse(text).unwrap();
            assert_eq!(line.to_string(), text);
        }
    }
}
