//! The position a command works on, as its arguments give it: a move list or a position
//! file, the rule and the board size. `wuzi solve` and `wuzi analyze` share it; the text is
//! read by `wuzi_core::notation`.

use std::fmt;
use std::path::PathBuf;

use clap::Args;
use wuzi_core::notation::{position_from_moves, read_position, NotationError, Position};
use wuzi_core::Rule;

use crate::args::parse_size;

/// Why the arguments give no position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Neither a move list nor a file.
    NoPosition,
    /// The file (its path, and why) cannot be read.
    File(String, String),
    /// The text is no position.
    Notation(NotationError),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::NoPosition => write!(f, "give a move list or --file"),
            PositionError::File(path, e) => write!(f, "cannot read {path}: {e}"),
            PositionError::Notation(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for PositionError {}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The position as moves alternating from Black, e.g. h8i9j10 or "h8 i9 j10".
    #[arg(value_name = "MOVES", conflicts_with = "file")]
    pub moves: Option<String>,
    /// Read the position from FILE (a move list or a diagram) instead.
    #[arg(long, short = 'f', value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The rule: freestyle, standard, renju, caro or caro-exact (or a Gomocup rule code).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board size: N (square) or WxH; a diagram gives its own size.
    #[arg(long, value_name = "N|WxH", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Board width (overrides --size).
    #[arg(long)]
    pub width: Option<usize>,
    /// Board height (overrides --size).
    #[arg(long)]
    pub height: Option<usize>,
}

impl PositionArgs {
    /// Builds the position the arguments describe.
    pub fn read(&self) -> Result<Position, PositionError> {
        let width = self.width.unwrap_or(self.size.0);
        let height = self.height.unwrap_or(self.size.1);
        if let Some(path) = &self.file {
            let text = std::fs::read_to_string(path)
                .map_err(|e| PositionError::File(path.display().to_string(), e.to_string()))?;
            return read_position(&text, width, height, self.rule).map_err(PositionError::Notation);
        }
        match &self.moves {
            Some(moves) => position_from_moves(moves, width, height, self.rule)
                .map_err(PositionError::Notation),
            None => Err(PositionError::NoPosition),
        }
    }
}
