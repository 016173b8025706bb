//! What can be wrong with a game to draw or with a picture's request.

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShowError {
    /// The record could not be read (what and where).
    #[error("cannot read the game: {0}")]
    Read(String),
    /// A move of the game cannot be played (off the board, on a taken point).
    #[error("move {number} ({point}) cannot be played: {why}")]
    BadMove {
        number: usize,
        point: String,
        why: String,
    },
    /// A collection holds fewer games than the one asked for.
    #[error("there is no game {wanted} (the record holds {found})")]
    NoSuchGame { wanted: usize, found: usize },
    /// The board size is not supported.
    #[error("{0}")]
    Board(String),
    /// The game cannot be written in the format asked for.
    #[error("cannot write the game: {0}")]
    Write(String),
}
