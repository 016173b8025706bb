//! The forced-line suite's engine side: `wuzi bench --mates` and the suite builder.
//!
//! - `alternatives`: the defence measure: whether an engine's move one ply before each
//!   position would also have let the win in;
//! - `announce`: reading engines' progress lines for a proven win or loss, time and nodes;
//! - `engine`: one suite position given to any Gomocup engine over the protocol (for its
//!   first announced win, or for its move);
//! - `extract`: the suite's positions from the records of matches against the sparring
//!   engine;
//! - `summary`: the results, one row a position, and their totals as text or JSON.
//!
//! [`run_suite`] runs wuzi's own searcher (`wuzi_search::bench::mates`) and, when given, one
//! other engine on every position, one after the other (never side by side, so neither takes
//! the other's time). The suite's format is `wuzi_search::bench::mates`'s.

pub mod alternatives;
pub mod announce;
pub mod engine;
pub mod extract;
pub mod summary;

use wuzi_search::bench::mates::{MatePosition, MateSettings, WuziMates};

use crate::engine::EngineSpec;
pub use summary::{MatesReport, Row};

/// What `wuzi bench --mates` runs.
#[derive(Clone, Debug)]
pub struct MatesSetup {
    /// wuzi's searcher, and the cap for every engine.
    pub wuzi: MateSettings,
    /// The engine to run beside wuzi, if any.
    pub engine: Option<EngineSpec>,
    /// Sent to the engine as `INFO max_memory`.
    pub max_memory: u64,
}

/// Runs every position; `each` sees every row as it is finished. Fails only when wuzi's
/// thread pool cannot be started (an engine that fails is a row's error, not the run's).
pub fn run_suite(
    positions: &[MatePosition],
    setup: &MatesSetup,
    mut each: impl FnMut(&MatesReport, &Row),
) -> Result<MatesReport, String> {
    let mut wuzi = WuziMates::new(setup.wuzi)?;
    let mut report = MatesReport {
        engines: std::iter::once("wuzi".to_string())
            .chain(setup.engine.as_ref().map(|e| e.name.clone()))
            .collect(),
        cap: setup.wuzi.cap,
        rows: Vec::new(),
    };
    for position in positions {
        let mut runs = vec![wuzi.run(position)];
        if let Some(spec) = &setup.engine {
            runs.push(engine::run_engine(
                spec,
                position,
                setup.wuzi.cap,
                setup.max_memory,
            ));
        }
        let row = Row {
            position: position.clone(),
            runs,
        };
        each(&report, &row);
        report.rows.push(row);
    }
    Ok(report)
}
