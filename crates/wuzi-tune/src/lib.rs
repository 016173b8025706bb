//! wuzi-tune: the learned evaluation's training pipeline.
//!
//! - `datagen`: the engine plays itself at a small node budget from suite and random openings,
//!   under any rule, on every core, and writes the positions the evaluation is asked about
//!   (`record.rs` documents the file format);
//! - `import`: positions from SGF, PSQ and move-list games, labelled with their result;
//! - `features`: a position as the sparse features of `wuzi_eval::learned`;
//! - `order`: the fit of the move-ordering table to the moves the search found best;
//! - `trainer`: the Texel fit of the weights by gradient descent on the logistic loss.
//!
//! Everything here is deterministic for a seed, whatever the number of threads.

pub mod datagen;
pub mod features;
pub mod import;
pub mod order;
pub mod record;
pub mod trainer;

/// Why a tuning command failed.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    #[error("{0}")]
    Data(String),
    #[error("i/o: {0}")]
    Io(String),
    #[error(transparent)]
    Weights(#[from] wuzi_eval::learned::WeightsError),
}

impl TuneError {
    pub fn io(e: std::io::Error) -> TuneError {
        TuneError::Io(e.to_string())
    }
}
