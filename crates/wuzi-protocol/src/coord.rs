//! Coordinates on the wire.
//!
//! [`Coord`] is a pair as the protocol writes it, `X,Y`: `x` is the column counted from 0 at the
//! left, `y` the row counted from 0 at the top. A `Coord` is not checked against any board:
//! the session does that when it turns one into a board point.
//!
//! The wire format of points has one definition, [`Coord::parse_list`], which both ends use:
//! the engine for `TURN`, `TAKEBACK`, `PLAY`, `RECTSTART` (through [`Coord::parse`]) and the
//! manager for an engine's move or move list (`Reply::parse`). A point is two non-negative
//! decimal numbers (digits only, no sign) joined by a comma, with any white space allowed
//! around the comma; a list is points separated by white space. So `7,7`, `7, 7` and
//! ` 7 ,7 ` are the same point on both ends; `7 7`, `7,7,` and `+7,7` are errors on both.
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

    /// Reads exactly one point `X,Y` of the wire format (see [`Coord::parse_list`]). `what`
    /// names the field in the error.
    pub fn parse(text: &str, what: &'static str) -> Result<Coord, ParseError> {
        match Coord::parse_list(text, what)?.as_slice() {
            [one] => Ok(*one),
            _ => Err(ParseError::Coord {
                what,
                text: quote(text),
            }),
        }
    }

    /// Reads a list of points, the one definition of the wire format: `X,Y` pairs of
    /// non-negative decimal numbers, white space allowed around each comma, pairs separated by
    /// white space. An empty (or blank) text is the empty list. `what` names the field in the
    /// error.
    pub fn parse_list(text: &str, what: &'static str) -> Result<Vec<Coord>, ParseError> {
        let bad = || ParseError::Coord {
            what,
            text: quote(text),
        };
        let mut out = Vec::new();
        let mut rest = text.trim_start();
        while !rest.is_empty() {
            let (x, after) = take_index(rest, what)?;
            let after = after.trim_start().strip_prefix(',').ok_or_else(bad)?;
            let (y, after) = take_index(after.trim_start(), what)?;
            if after.chars().next().is_some_and(|c| !c.is_whitespace()) {
                return Err(bad());
            }
            out.push(Coord { x, y });
            rest = after.trim_start();
        }
        Ok(out)
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

/// Reads the number at the start of `text` (its run of digits) and returns the rest.
fn take_index<'a>(text: &'a str, what: &'static str) -> Result<(u32, &'a str), ParseError> {
    let end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, rest) = text.split_at(end);
    if digits.is_empty() {
        // Report the word that stands where a number should be.
        let word = text
            .split(|c: char| c == ',' || c.is_whitespace())
            .next()
            .unwrap_or(text);
        return Err(parse_index(word, what).err().unwrap_or(ParseError::Coord {
            what,
            text: quote(text),
        }));
    }
    Ok((parse_index(digits, what)?, rest))
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
    fn lists_of_points() {
        assert_eq!(Coord::parse_list("", "m"), Ok(vec![]));
        assert_eq!(
            Coord::parse_list("7,7 8, 8\t 9 ,9", "m"),
            Ok(vec![Coord::new(7, 7), Coord::new(8, 8), Coord::new(9, 9)])
        );
        for bad in ["7,7,", "7,7x", "7,7 8", "7 7", "7,,7", ",", "7,7;8,8"] {
            assert!(Coord::parse_list(bad, "m").is_err(), "{bad:?} accepted");
        }
        assert!(Coord::parse("7,7 8,8", "TURN").is_err());
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
