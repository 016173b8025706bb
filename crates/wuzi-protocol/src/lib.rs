//! The Gomocup (piskvork) protocol with the Yixin-Board extensions, from both ends.
//!
//! The wire format is plain data: [`Command`] (manager to engine, with [`Setting`] for `INFO`
//! and [`StoneLine`] for the lines of a position block), [`Reply`] (engine to manager),
//! [`Coord`], [`SearchInfo`] (the `MESSAGE depth ...` progress line), and what analysis GUIs
//! read besides: [`Realtime`] events and the [`PvDetail`] block. Each parses from a
//! line and formats back to the exact wire text, so both an engine and a match runner can use
//! them.
//!
//! This crate knows only the core (points, boards): the engine session that answers these
//! commands is `wuzi-engine`, and the manager side that sends them is `wuzi-match`.

mod command;
mod coord;
mod detail;
mod error;
mod info;
mod reply;
mod setting;
mod stone;

pub use command::{Command, Follows, UNSUPPORTED};
pub use coord::Coord;
pub use detail::{Eval, PvDetail, Realtime};
pub use error::{quote, ParseError, QUOTE_MAX};
pub use info::{nodes_text, parse_nodes, SearchInfo};
pub use reply::Reply;
pub use setting::{Setting, UNLIMITED_TIME_LEFT};
pub use stone::{Field, StoneLine};
