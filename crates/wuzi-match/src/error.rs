//! Errors that stop a match (as opposed to a game's end reason, which an engine's fault gives).

use thiserror::Error;

use crate::engine::SpawnError;
use crate::opening::OpeningError;
use crate::results::ResultsError;

#[derive(Debug, Error)]
pub enum MatchError {
    /// The settings make no match.
    #[error("{0}")]
    Config(String),
    #[error(transparent)]
    Opening(#[from] OpeningError),
    /// A results file cannot be read, resumed or merged.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// An engine process could not be created (at the start or for a restart).
    #[error(transparent)]
    Spawn(#[from] SpawnError),
    /// A record or log file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// A game thread failed unexpectedly (a bug in the runner).
    #[error("internal error in a game thread: {0}")]
    Internal(String),
}
