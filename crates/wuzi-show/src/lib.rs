//! wuzi-show: pictures of positions and games.
//!
//! - `game`: a game to draw ([`Game`]): board size, rule, moves, and how many of them are the
//!   opening, read from a move list, an SGF record or a piskvork `.psq` file (`read`);
//! - `svg`: the picture ([`Picture`], [`svg`]): the board with its coordinates, stones with
//!   move numbers, the last move marked, renju forbidden points, and a principal variation as
//!   numbered ghost stones;
//! - `write`: the game as an SGF or `.psq` record that `read` reads back ([`sgf`], [`psq`]);
//! - `error`: what can be wrong with a game or a picture.
//!
//! Knows only `wuzi-core` (the board replays the moves, so a picture never shows an
//! impossible position, and finds the forbidden points).

pub mod error;
pub mod game;
pub mod read;
pub mod svg;
pub mod write;

pub use error::ShowError;
pub use game::Game;
pub use read::{
    game_count, read_game, read_games, read_psq, read_sgf, sgf_game_count, sgf_property,
};
pub use svg::{svg, Picture};
pub use write::{psq, sgf, RecordInfo};
