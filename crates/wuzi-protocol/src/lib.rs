//! The Gomocup (piskvork) protocol with the Yixin-Board extensions, from both ends.
//!
//! The wire format is plain data: [`Command`] (manager to engine, with [`Setting`] for `INFO`
//! and [`StoneLine`] for the lines of a position block), [`Reply`] (engine to manager),
//! [`Coord`] and [`SearchInfo`] (the `MESSAGE depth ...` progress line). Each parses from a
//! line and formats back to the exact wire text, so both an engine and a match runner can use
//! them.
//!
//! The engine side of a session lives in [`brain`]: the `pbrain-wuzi` binary calls
//! [`brain::run`].

mod command;
mod coord;
mod error;
mod info;
mod reply;
mod setting;
mod stone;

pub use command::Command;
pub use coord::Coord;
pub use error::{quote, ParseError, QUOTE_MAX};
pub use info::{nodes_text, parse_nodes, SearchInfo};
pub use reply::Reply;
pub use setting::{Setting, UNLIMITED_TIME_LEFT};
pub use stone::{Field, StoneLine};

pub mod brain;
