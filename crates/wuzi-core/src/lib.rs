//! wuzi-core: the board, the five rules, Zobrist hashing and incrementally kept line
//! patterns. Knows nothing of search or protocol.
//!
//! - `geometry`: supported sizes and the padded cell array's bounds (used by everything below);
//! - `board`: padded cell array, bitboards, history, make/unmake with incremental patterns;
//! - `lookahead`: what one more stone would change, read without playing it;
//! - `pattern`: line keys, per-rule pattern tables and the threat combination;
//! - `rule`: what wins under each rule; `renju`: Black's forbidden moves;
//! - `zobrist`: fixed-seed hash keys; `symmetry`: board symmetries; `rng`: the seeded
//!   generator every reproducible random choice uses; `shard`: splitting numbered work into
//!   shards that run apart, and the stable fingerprint that recognises their pieces;
//! - `notation`: the one reader (and writer) of positions as text: point names, move lists,
//!   coordinate lists, board sizes, diagrams.
//!
//! The slow classifier that the fast structures are tested against is `wuzi-testkit`'s
//! `reference`.

pub mod bitboard;
pub mod board;
pub mod geometry;
pub mod lookahead;
pub mod notation;
pub mod pattern;
mod renju;
pub mod rng;
pub mod rule;
pub mod shard;
pub mod symmetry;
mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::{Board, Cell};
pub use geometry::{MAX_SIZE, MIN_SIZE};
pub use pattern::{flag, Pattern, Threat};
pub use rule::Rule;
pub use symmetry::Symmetry;
pub use types::{BoardError, Color, ForbiddenKind, Point};
