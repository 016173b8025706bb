//! Plain value types shared by every module: colours, points and errors.

use thiserror::Error;

/// The colour of a stone. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the index of per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A point in Gomocup coordinates: `x` is the column from 0 (left), `y` the row from 0 (top).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// Why a board operation was refused. A refused operation changes nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Error)]
pub enum BoardError {
    #[error("board size {width}x{height} is not supported (each side must be 5..=32)")]
    BadSize { width: usize, height: usize },
    #[error("point {x},{y} is off the board")]
    OffBoard { x: usize, y: usize },
    #[error("point {x},{y} is already occupied")]
    Occupied { x: usize, y: usize },
    #[error("the board is full")]
    Full,
    #[error("there is no move to take back")]
    EmptyHistory,
}

/// Why a move is forbidden for Black under renju.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum ForbiddenKind {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl ForbiddenKind {
    pub fn name(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "DoubleThree",
            ForbiddenKind::DoubleFour => "DoubleFour",
            ForbiddenKind::Overline => "Overline",
        }
    }
}
