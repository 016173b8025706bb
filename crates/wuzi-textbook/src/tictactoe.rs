//! Tic-tac-toe: the smallest real game, solved outright by the searches.
//!
//! This module owns [`TicTacToe`]. X moves first and is the maximiser. Cells
//! are numbered 0 to 8 row by row from the top left, and moves are generated
//! in that order. The game stops at a win or a full board.
//!
//! Invariants: X and O never share a cell; X has as many stones as O or one
//! more; once a line is complete nobody moves again.

use std::fmt;
use std::str::FromStr;

use crate::game::Game;

/// Value of a won game for the winner; far above any heuristic score.
pub const WIN: i32 = 100;

/// The eight lines, as bit masks over the nine cells.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

const FULL: u16 = 0b111_111_111;

/// A tic-tac-toe position: one bit per cell for each player.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct TicTacToe {
    x: u16,
    o: u16,
}

fn has_line(stones: u16) -> bool {
    LINES.iter().any(|&line| line & !stones == 0)
}

impl TicTacToe {
    /// The empty board, X to move.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether X is to move (it is whenever both have as many stones).
    pub fn x_to_move(&self) -> bool {
        self.x.count_ones() == self.o.count_ones()
    }

    /// The winner's mark, if a line is complete.
    pub fn winner(&self) -> Option<char> {
        if has_line(self.x) {
            Some('X')
        } else if has_line(self.o) {
            Some('O')
        } else {
            None
        }
    }
}

impl Game for TicTacToe {
    type Move = u8;

    fn maximizer_to_move(&self) -> bool {
        self.x_to_move()
    }

    fn moves(&mut self) -> Vec<u8> {
        if self.is_terminal() {
            return Vec::new();
        }
        let taken = self.x | self.o;
        (0..9).filter(|&cell| taken & (1 << cell) == 0).collect()
    }

    fn play(&mut self, mv: u8) {
        assert!(mv < 9, "there is no cell {mv}");
        let bit = 1u16 << mv;
        assert!((self.x | self.o) & bit == 0, "cell {mv} is not free");
        if self.x_to_move() {
            self.x |= bit;
        } else {
            self.o |= bit;
        }
    }

    fn undo(&mut self, mv: u8) {
        let bit = 1u16 << mv;
        // The last stone belongs to whoever is *not* to move now.
        if self.x_to_move() {
            self.o &= !bit;
        } else {
            self.x &= !bit;
        }
    }

    fn is_terminal(&mut self) -> bool {
        self.winner().is_some() || (self.x | self.o) == FULL
    }

    /// A win is worth [`WIN`]; otherwise the lines X could still complete
    /// minus those O could, a classic textbook heuristic (between -8 and 8).
    fn evaluate(&mut self) -> i32 {
        match self.winner() {
            Some('X') => WIN,
            Some(_) => -WIN,
            None if (self.x | self.o) == FULL => 0,
            None => {
                let open = |rival: u16| LINES.iter().filter(|&&l| l & rival == 0).count() as i32;
                open(self.o) - open(self.x)
            }
        }
    }
}

/// Why a string is not a tic-tac-toe position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseBoardError(String);

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseBoardError {}

impl FromStr for TicTacToe {
    type Err = ParseBoardError;

    /// Nine cells row by row, each `X`, `O` or `.`; whitespace is ignored, so
    /// a board can be written as three lines. Whose move it is follows from
    /// the stone counts.
    fn from_str(s: &str) -> Result<Self, ParseBoardError> {
        let mut board = TicTacToe::new();
        let mut cell = 0u32;
        for ch in s.chars().filter(|c| !c.is_whitespace()) {
            if cell >= 9 {
                return Err(ParseBoardError("more than nine cells".into()));
            }
            match ch {
                'X' | 'x' => board.x |= 1 << cell,
                'O' | 'o' => board.o |= 1 << cell,
                '.' => {}
                _ => return Err(ParseBoardError(format!("'{ch}' is not X, O or '.'"))),
            }
            cell += 1;
        }
        if cell != 9 {
            return Err(ParseBoardError(format!("{cell} cells instead of nine")));
        }
        let (xs, os) = (board.x.count_ones(), board.o.count_ones());
        if xs != os && xs != os + 1 {
            return Err(ParseBoardError(format!(
                "{xs} X against {os} O cannot happen"
            )));
        }
        if has_line(board.x) && has_line(board.o) {
            return Err(ParseBoardError("both players cannot have a line".into()));
        }
        Ok(board)
    }
}

impl fmt::Display for TicTacToe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in 0..3 {
            for col in 0..3 {
                let bit = 1u16 << (row * 3 + col);
                let mark = if self.x & bit != 0 {
                    'X'
                } else if self.o & bit != 0 {
                    'O'
                } else {
                    '.'
                };
                write!(f, "{mark}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
