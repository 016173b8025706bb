//! Reading and writing positions as text: the one home of every reader of points, move lists,
//! coordinate lists, board sizes and diagrams.
//!
//! - A point name is a column in letters and a row number: `h8`. The project's names
//!   ([`Names::Top`]) count columns from `a` at the left (`a` for x = 0 ... `z`, then `aa`,
//!   `ab`, ...) and rows from 1 at the **top**, as Gomocup coordinates do (row = y + 1): `(7,7)`
//!   is `h8`. Books and other programs count rows from the bottom ([`Names::Bottom`]), GTP
//!   also leaves the letter `i` out of the columns ([`Names::Gtp`]). Letters are read in
//!   either case and written in lower case.
//! - A move list is such names run together or separated by spaces or commas: `h8i9j10`,
//!   `h8 i9, j10`.
//! - A coordinate list is Gomocup points `x,y` (0-based, as [`Point`]'s `Display` writes
//!   them) separated by white space: `7,7 8,8`.
//! - A board size is `N` (square) or `WxH` (also `W,H`): `15`, `20x15`.
//! - A diagram is one board row a line, top row first (`diagram`).
//! - A position is a diagram or a move list played from Black on an empty board (`position`).
//!
//! Records of whole games (SGF, piskvork `.psq`) are read by `wuzi-show`, over these readers.
//! Nothing here panics on its input: every bad text is a [`NotationError`].

mod diagram;
mod position;

pub use diagram::{Diagram, Marks};
pub use position::{position_from_moves, read_position, Position};

use crate::geometry::{MAX_SIZE, MIN_SIZE};
use crate::types::{BoardError, Point};
use thiserror::Error;

#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum NotationError {
    #[error("'{0}' is not a point name like h8")]
    BadPoint(String),
    #[error("'{0}' is not a move list like h8i9j10")]
    BadList(String),
    #[error("'{0}' is not a board size (N or WxH, each 5 to 32)")]
    BadSize(String),
    #[error("'{0}' is not a list of points x,y like 7,7 8,8")]
    BadCoords(String),
    #[error("bad diagram: {0}")]
    Diagram(String),
    /// The board the text asks for cannot be made (its size).
    #[error("{0}")]
    Board(BoardError),
    /// A move of a list that the board refuses (an occupied point, a point off the board).
    #[error("move {name}: {error}")]
    Move { name: String, error: BoardError },
}

/// How a point name counts its rows and letters its columns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Names {
    /// The project's names: row 1 is the top row, columns `a`, `b`, ... `z`, `aa`, ...
    Top,
    /// Row 1 is the bottom row of a board `height` rows high; columns as [`Names::Top`].
    Bottom { height: usize },
    /// GTP: row 1 at the bottom of a board `height` rows high, and columns that skip the
    /// letter `i` (`a`..`h`, `j`..`z`, then `aa`, ...).
    Gtp { height: usize },
}

impl Names {
    /// The column letters, in order.
    fn alphabet(self) -> &'static [u8] {
        match self {
            Names::Gtp { .. } => b"abcdefghjklmnopqrstuvwxyz",
            _ => b"abcdefghijklmnopqrstuvwxyz",
        }
    }

    /// The `y` of row number `row` (from 1), if it is on the board.
    fn y_of_row(self, row: u32) -> Option<u8> {
        match self {
            Names::Top => u8::try_from(row - 1).ok(),
            Names::Bottom { height } | Names::Gtp { height } => {
                let height = u32::try_from(height).ok()?;
                let from_top = height.checked_sub(row)?;
                u8::try_from(from_top).ok()
            }
        }
    }

    /// The row number of `y`, as a (possibly negative, for a point off the board) number.
    fn row_of_y(self, y: u8) -> i64 {
        match self {
            Names::Top => i64::from(y) + 1,
            Names::Bottom { height } | Names::Gtp { height } => height as i64 - i64::from(y),
        }
    }
}

impl Point {
    /// The project's letter-number name: `h8` for `(7,7)`.
    pub fn name(self) -> String {
        self.name_in(Names::Top)
    }

    /// The name in another style of names (for a point on the board it names).
    pub fn name_in(self, names: Names) -> String {
        let alphabet = names.alphabet();
        let base = alphabet.len() as u32;
        let mut letters = Vec::new();
        let mut n = self.x as u32 + 1;
        while n > 0 {
            letters.push(char::from(alphabet[((n - 1) % base) as usize]));
            n = (n - 1) / base;
        }
        let mut out: String = letters.iter().rev().collect();
        out.push_str(&names.row_of_y(self.y).to_string());
        out
    }

    /// Reads one letter-number name (letters in either case).
    pub fn parse_name(text: &str) -> Result<Point, NotationError> {
        Point::parse_name_in(text, Names::Top)
    }

    /// Reads one name in another style of names.
    pub fn parse_name_in(text: &str, names: Names) -> Result<Point, NotationError> {
        let list = parse_moves_in(text, names)?;
        match list.as_slice() {
            [p] => Ok(*p),
            _ => Err(NotationError::BadPoint(text.to_string())),
        }
    }
}

/// Reads a move list such as `h8i9j10` or `h8 i9, j10`.
pub fn parse_moves(text: &str) -> Result<Vec<Point>, NotationError> {
    parse_moves_in(text, Names::Top)
}

/// Reads a move list whose names are in the style `names`.
pub fn parse_moves_in(text: &str, names: Names) -> Result<Vec<Point>, NotationError> {
    let bad = || NotationError::BadList(text.chars().take(80).collect());
    let alphabet = names.alphabet();
    let base = alphabet.len() as u32;
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let mut column: u32 = 0;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            let letter = bytes[i].to_ascii_lowercase();
            let digit = alphabet.iter().position(|&a| a == letter).ok_or_else(bad)?;
            column = column * base + digit as u32 + 1;
            i += 1;
            if i - start > 2 {
                return Err(bad());
            }
        }
        let digits = i;
        let mut row: u32 = 0;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            row = row * 10 + (bytes[i] - b'0') as u32;
            i += 1;
            if i - digits > 3 {
                return Err(bad());
            }
        }
        if i == start || digits == start || i == digits || row == 0 || column > 256 || row > 256 {
            return Err(bad());
        }
        let y = names.y_of_row(row).ok_or_else(bad)?;
        out.push(Point::new((column - 1) as u8, y));
    }
    Ok(out)
}

/// A move list written as names run together: `h8i9j10`.
pub fn format_moves(points: &[Point]) -> String {
    points.iter().map(|p| p.name()).collect()
}

/// Reads a coordinate list: Gomocup points `x,y` separated by white space (`7,7 8,8`), each
/// coordinate from 0 to 255; white space around a point's comma is allowed (`7, 7`).
pub fn parse_coords(text: &str) -> Result<Vec<Point>, NotationError> {
    let bad = || NotationError::BadCoords(text.chars().take(80).collect());
    /// One number, then the text after it with leading white space removed.
    fn number(s: &str) -> Option<(u8, &str)> {
        let end = s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len());
        let n = s[..end].parse().ok()?;
        Some((n, s[end..].trim_start()))
    }
    let mut rest = text.trim_start();
    let mut out = Vec::new();
    while !rest.is_empty() {
        let (x, after_x) = number(rest).ok_or_else(bad)?;
        let after_comma = after_x.strip_prefix(',').ok_or_else(bad)?.trim_start();
        let (y, after_y) = number(after_comma).ok_or_else(bad)?;
        // Points are apart by white space only: a comma after a point's second number is
        // an error, as is anything else that is not the next point.
        if after_y.starts_with(',') {
            return Err(bad());
        }
        out.push(Point::new(x, y));
        rest = after_y;
    }
    Ok(out)
}

/// Reads a board size: `15`, `20x15`, `20X15` or `20,15`, each side in
/// `MIN_SIZE..=MAX_SIZE`.
pub fn parse_size(text: &str) -> Result<(usize, usize), NotationError> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || NotationError::BadSize(text.chars().take(80).collect());
    let side = |s: &str| s.trim().parse::<usize>().map_err(|_| bad());
    let (w, h) = match t.split_once(['x', ',']) {
        Some((w, h)) => (side(w)?, side(h)?),
        None => {
            let n = side(&t)?;
            (n, n)
        }
    };
    let ok = |v: usize| (MIN_SIZE..=MAX_SIZE).contains(&v);
    if ok(w) && ok(h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for x in 0..32u8 {
            for y in 0..32u8 {
                let p = Point::new(x, y);
                assert_eq!(Point::parse_name(&p.name()), Ok(p));
            }
        }
        assert_eq!(Point::new(7, 7).name(), "h8");
        assert_eq!(Point::new(26, 0).name(), "aa1");
        assert_eq!(
            parse_moves("h8i9 J10,a1").expect("list"),
            vec![
                Point::new(7, 7),
                Point::new(8, 8),
                Point::new(9, 9),
                Point::new(0, 0)
            ]
        );
        assert_eq!(
            format_moves(&parse_moves("h8i9j10").expect("list")),
            "h8i9j10"
        );
        for bad in ["h", "8", "h0", "hh", "h8x", "abc1", "h1234", "h8é"] {
            assert!(parse_moves(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_from_the_bottom_and_gtp() {
        let bottom = Names::Bottom { height: 15 };
        assert_eq!(Point::parse_name_in("H8", bottom), Ok(Point::new(7, 7)));
        assert_eq!(Point::parse_name_in("a1", bottom), Ok(Point::new(0, 14)));
        assert_eq!(Point::parse_name_in("C13", bottom), Ok(Point::new(2, 2)));
        assert!(
            Point::parse_name_in("a16", bottom).is_err(),
            "above the board"
        );
        assert_eq!(Point::new(2, 2).name_in(bottom), "c13");
        let gtp = Names::Gtp { height: 15 };
        assert_eq!(Point::parse_name_in("H8", gtp), Ok(Point::new(7, 7)));
        assert_eq!(Point::parse_name_in("J8", gtp), Ok(Point::new(8, 7)));
        assert_eq!(Point::parse_name_in("P1", gtp), Ok(Point::new(14, 14)));
        assert!(
            Point::parse_name_in("I8", gtp).is_err(),
            "GTP has no column i"
        );
        for names in [
            Names::Top,
            bottom,
            gtp,
            Names::Bottom { height: 32 },
            Names::Gtp { height: 32 },
        ] {
            for x in 0..32u8 {
                for y in 0..15u8 {
                    let p = Point::new(x, y);
                    assert_eq!(Point::parse_name_in(&p.name_in(names), names), Ok(p));
                }
            }
        }
    }

    #[test]
    fn coordinate_lists() {
        assert_eq!(
            parse_coords("7,7 8,8\n0,14"),
            Ok(vec![Point::new(7, 7), Point::new(8, 8), Point::new(0, 14)])
        );
        assert_eq!(
            parse_coords(" 7, 7  8 ,8 "),
            Ok(vec![Point::new(7, 7), Point::new(8, 8)])
        );
        assert_eq!(parse_coords(""), Ok(vec![]));
        let p = Point::new(3, 12);
        assert_eq!(parse_coords(&p.to_string()), Ok(vec![p]));
        for bad in [
            "7", "7,", ",7", "7,7,7", "7,7, 8,8", "7 7", "7,-1", "7,256", "a,b", "7,,7",
        ] {
            assert_eq!(
                parse_coords(bad),
                Err(NotationError::BadCoords(bad.to_string())),
                "{bad}"
            );
        }
    }

    #[test]
    fn board_sizes() {
        assert_eq!(parse_size("15"), Ok((15, 15)));
        assert_eq!(parse_size("20x15"), Ok((20, 15)));
        assert_eq!(parse_size(" 20X15 "), Ok((20, 15)));
        assert_eq!(parse_size("20,15"), Ok((20, 15)));
        assert_eq!(parse_size("5x32"), Ok((5, 32)));
        for bad in ["4", "33", "x", "15x", "-15", "", "15x15x15", "1e1"] {
            assert_eq!(
                parse_size(bad),
                Err(NotationError::BadSize(bad.to_string())),
                "{bad}"
            );
        }
    }
}
