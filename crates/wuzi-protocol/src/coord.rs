//! Coordinates on the wire.
//!
//! [`Coord`] is a pair as the protocol writes it, `X,Y`: `x` is the column counted from 0 at the
//! left, `y` the row counted from 0 at the top. A `Coord` is not checked against any board:
//! the session does that when it turns one into a board point.
//!
//! Search information names points the other way that GUIs show them ([`Coord::name`]): the
//! column as letters (`a` for x = 0, ..., `z` for x = 25, then `aa`, `ab`, ... as in a
//! spreadsheet), then the row as `y + 1` in decimal: `(7,7)` is `h8`.

use std::fmt;

use crate::error::{quote, ParseError};

/// A board point as the protocol writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    pub x: u32,
    pub y: u32,
}

impl Coord {
    pub const fn new(x: u32, y: u32) -> Coord {
        Coord { x, y }
    }

    /// The board point of this coordinate on a `width` x `height` board, if it is on it.
    pub fn to_point(self, width: usize, height: usize) -> Option<wuzi_core::Point> {
        let x = u8::try_from(self.x).ok()?;
        let y = u8::try_from(self.y).ok()?;
        ((x as usize) < width && (y as usize) < height).then_some(wuzi_core::Point::new(x, y))
    }

    /// Reads `X,Y` (white space allowed around either number). `what` names the field in the
    /// error.
    pub fn parse(text: &str, what: &'static str) -> Result<Coord, ParseError> {
        let bad = || ParseError::Coord {
            what,
            text: quote(text),
        };
        let (x, y) = text.split_once(',').ok_or_else(bad)?;
        let x = parse_index(x.trim(), what)?;
        let y = parse_index(y.trim(), what)?;
        Ok(Coord { x, y })
    }

    /// The letter-number name of the point: `h8` for `(7,7)`.
    pub fn name(self) -> String {
        let mut letters = Vec::new();
        let mut n = self.x as u64 + 1;
        while n > 0 {
            let rem = ((n - 1) % 26) as u8;
            letters.push(char::from(b'a' + rem));
            n = (n - 1) / 26;
        }
        let mut out: String = letters.iter().rev().collect();
        out.push_str(&(u64::from(self.y) + 1).to_string());
        out
    }

    /// Reads a letter-number name such as `h8` (letters in either case).
    pub fn parse_name(text: &str) -> Result<Coord, ParseError> {
        let bad = |why| ParseError::Info {
            text: quote(text),
            why,
        };
        let split = text
            .find(|c: char| !c.is_ascii_alphabetic())
            .ok_or_else(|| bad("a point needs a row number"))?;
        let (letters, digits) = text.split_at(split);
        if letters.is_empty() {
            return Err(bad("a point starts with a column letter"));
        }
        let mut x: u64 = 0;
        for c in letters.bytes() {
            x = x * 26 + u64::from(c.to_ascii_lowercase() - b'a') + 1;
            if x > u64::from(u32::MAX) {
                return Err(bad("column out of range"));
            }
        }
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad("a point ends with a row number"));
        }
        let row: u32 = digits.parse().map_err(|_| bad("row out of range"))?;
        if row == 0 {
            return Err(bad("rows count from 1"));
        }
        Ok(Coord {
            x: (x - 1) as u32,
            y: row - 1,
        })
    }
}

impl fmt::Display for Coord {
    /// The wire form `X,Y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Reads a non-negative decimal number (digits only, no sign).
pub(crate) fn parse_index(text: &str, what: &'static str) -> Result<u32, ParseError> {
    let err = |expected| ParseError::Number {
        what,
        text: quote(text),
        expected,
    };
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(if text.starts_with('-') {
            "a non-negative number"
        } else {
            "a number"
        }));
    }
    text.parse().map_err(|_| err("a number in range"))
}

impl From<wuzi_core::Point> for Coord {
    fn from(p: wuzi_core::Point) -> Coord {
        Coord::new(u32::from(p.x), u32::from(p.y))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn points_are_bounded_by_the_board() {
        use wuzi_core::Point;
        assert_eq!(Coord::new(14, 0).to_point(15, 15), Some(Point::new(14, 0)));
        assert_eq!(Coord::new(15, 0).to_point(15, 15), None);
        assert_eq!(Coord::new(0, 15).to_point(20, 15), None);
        assert_eq!(Coord::new(300, 0).to_point(32, 32), None);
        assert_eq!(Coord::from(Point::new(3, 4)), Coord::new(3, 4));
    }

    use super::*;

    #[test]
    fn parses_pairs_with_and_without_spaces() {
        assert_eq!(Coord::parse("7,8", "TURN"), Ok(Coord::new(7, 8)));
        assert_eq!(Coord::parse(" 7 , 8 ", "TURN"), Ok(Coord::new(7, 8)));
        assert_eq!(Coord::parse("0,19", "TURN"), Ok(Coord::new(0, 19)));
    }

    #[test]
    fn rejects_malformed_pairs() {
        for bad in [
            "",
            "7",
            "7,",
            ",7",
            "a,b",
            "7,8,",
            "-1,3",
            "3,-1",
            "7;8",
            "1.5,2",
            "99999999999,1",
            "7 8",
            "+7,8",
        ] {
            assert!(Coord::parse(bad, "TURN").is_err(), "{bad:?} accepted");
        }
        let e = Coord::parse("-1,3", "TURN").unwrap_err().to_string();
        assert!(e.contains("non-negative"), "{e}");
    }

    #[test]
    fn display_is_the_wire_form() {
        assert_eq!(Coord::new(10, 3).to_string(), "10,3");
    }

    #[test]
    fn names_round_trip() {
        assert_eq!(Coord::new(7, 7).name(), "h8");
        assert_eq!(Coord::new(0, 0).name(), "a1");
        assert_eq!(Coord::new(25, 14).name(), "z15");
        assert_eq!(Coord::new(26, 0).name(), "aa1");
        assert_eq!(Coord::new(31, 31).name(), "af32");
        for x in 0..60 {
            for y in [0, 5, 31] {
                let c = Coord::new(x, y);
                assert_eq!(Coord::parse_name(&c.name()), Ok(c));
            }
        }
        assert_eq!(Coord::parse_name("H8"), Ok(Coord::new(7, 7)));
    }

    #[test]
    fn rejects_bad_names() {
        for bad in ["", "h", "8", "h0", "h8x", "h-1", "#8"] {
            assert!(Coord::parse_name(bad).is_err(), "{bad:?} accepted");
        }
    }
}
