//! Letter-number notation of points, as analysis GUIs show them: the column as letters (`a`
//! for x = 0 ... `z`, then `aa`, `ab`, ...), the row as `y + 1` (rows counted from the top,
//! as in Gomocup coordinates): `(7,7)` is `h8`. A move list is such names run together or
//! separated by spaces or commas: `h8i9j10`, `h8 i9 j10`. A board size is `N` (square) or
//! `WxH` (also `W,H`): `15`, `20x15`.

use crate::geometry::{MAX_SIZE, MIN_SIZE};
use crate::types::Point;
use thiserror::Error;

#[derive(Clone, PartialEq, Eq, Debug, Error)]
pub enum NotationError {
    #[error("'{0}' is not a point name like h8")]
    BadPoint(String),
    #[error("'{0}' is not a move list like h8i9j10")]
    BadList(String),
    #[error("'{0}' is not a board size (N or WxH, each 5 to 32)")]
    BadSize(String),
}

impl Point {
    /// The letter-number name: `h8` for `(7,7)`.
    pub fn name(self) -> String {
        let mut letters = Vec::new();
        let mut n = self.x as u32 + 1;
        while n > 0 {
            letters.push(char::from(b'a' + ((n - 1) % 26) as u8));
            n = (n - 1) / 26;
        }
        let mut out: String = letters.iter().rev().collect();
        out.push_str(&(self.y as u32 + 1).to_string());
        out
    }

    /// Reads a letter-number name (letters in either case).
    pub fn parse_name(text: &str) -> Result<Point, NotationError> {
        let list = parse_moves(text)?;
        match list.as_slice() {
            [p] => Ok(*p),
            _ => Err(NotationError::BadPoint(text.to_string())),
        }
    }
}

/// Reads a move list such as `h8i9j10` or `h8 i9, j10`.
pub fn parse_moves(text: &str) -> Result<Vec<Point>, NotationError> {
    let bad = || NotationError::BadList(text.chars().take(80).collect());
    let mut out = Vec::new();
    let bytes: Vec<u8> = text.bytes().collect();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() || bytes[i] == b',' {
            i += 1;
            continue;
        }
        let mut column: u32 = 0;
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
            column = column * 26 + (bytes[i].to_ascii_lowercase() - b'a') as u32 + 1;
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
        out.push(Point::new((column - 1) as u8, (row - 1) as u8));
    }
    Ok(out)
}

/// A move list written as names run together: `h8i9j10`.
pub fn format_moves(points: &[Point]) -> String {
    points.iter().map(|p| p.name()).collect()
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
        for bad in ["h", "8", "h0", "hh", "h8x", "abc1", "h1234"] {
            assert!(parse_moves(bad).is_err(), "{bad}");
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
