//! Minimax and alpha-beta the way the textbook teaches them.
//!
//! wuzi grew out of a series of articles that introduce game-tree search on
//! small examples. This crate keeps those examples runnable and serves as the
//! slow, obviously correct oracle against which the engine's fast Gomoku
//! search is checked:
//!
//! - [`game`]: the [`Game`] trait every example implements;
//! - [`search`]: plain [`minimax`] and [`alphabeta`], both counting the nodes
//!   they visit, to the end of the game or to a fixed depth;
//! - [`tree`]: explicit game trees written in bracket notation;
//! - [`tictactoe`]: tic-tac-toe, small enough to solve outright;
//! - [`hare_wolves`]: the hare-and-wolves chase on a draughts board, with the
//!   breadth-first "distance to the top row" evaluation;
//! - [`gomoku`]: Gomoku on a small `wuzi_core` board, with a threat-count
//!   evaluation simple enough for the fast search to reproduce exactly.
//!
//! Nothing here is tuned for speed: no transposition table, no move ordering
//! beyond each game's fixed generation order, no iterative deepening. What a
//! search returns is therefore a plain function of the game and the depth,
//! which is what an oracle needs.

pub mod game;
pub mod gomoku;
pub mod hare_wolves;
pub mod search;
pub mod tictactoe;
pub mod tree;

pub use game::Game;
pub use search::{alphabeta, minimax, Cutoff, Depth, SearchResult};
