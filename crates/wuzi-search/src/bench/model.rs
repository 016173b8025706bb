//! `wuzi bench --model`: the work and span (`search/span.rs`) of the one-thread bench search
//! on every position, and what they allow on machines with more cores than the one at hand.
//! The work of a position is exactly the node count the one-thread bench reports for it.

use super::{BenchPosition, HASH_BYTES, POSITIONS};
use crate::search::{self, SpanModel, Thread};
use crate::tt::TranspositionTable;
use crate::{Limits, Options, SplitDepth};
use std::sync::atomic::AtomicBool;
use wuzi_eval::eval::EvalChoice;

/// One position's work and span, in nodes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkSpan {
    pub name: &'static str,
    pub work: u64,
    pub span: u64,
}

impl WorkSpan {
    /// The most any number of threads can speed this search up: work over span.
    pub fn parallelism(&self) -> f64 {
        self.work as f64 / self.span.max(1) as f64
    }

    /// Bounds on the speedup of `threads` threads whose trees hold `overhead` times the
    /// one-thread work: at least what greedy scheduling guarantees (`W/p + S` node-times),
    /// at most `max(W/p, S)`.
    pub fn speedup(&self, threads: usize, overhead: f64) -> (f64, f64) {
        let work = self.work as f64;
        let span = self.span as f64;
        let per_thread = work * overhead / threads.max(1) as f64;
        (work / (per_thread + span), work / per_thread.max(span))
    }
}

/// Work and span of every bench position searched on one thread (to `depth`, or each
/// position's own), with `split_depth` deciding which moves a split would hand out.
pub fn run(
    depth: Option<u32>,
    eval: EvalChoice,
    split_depth: SplitDepth,
) -> Result<Vec<WorkSpan>, String> {
    POSITIONS
        .iter()
        .map(|pos| position(pos, depth, eval, split_depth))
        .collect()
}

fn position(
    pos: &BenchPosition,
    depth: Option<u32>,
    eval: EvalChoice,
    split_depth: SplitDepth,
) -> Result<WorkSpan, String> {
    let board = pos.board()?;
    let mut table = TranspositionTable::new(HASH_BYTES);
    table.new_search();
    let stop = AtomicBool::new(false);
    let limits = Limits {
        max_depth: Some(depth.unwrap_or(pos.depth)),
        ..Limits::default()
    };
    let options = Options {
        eval,
        split_depth,
        ..Options::default()
    };
    let mut thread = Thread::new(&board, &table, &stop, &limits, options);
    thread.span = Some(Box::new(SpanModel::new()));
    search::iterate(&mut thread, &mut |_| {});
    let work = thread.nodes;
    let span = thread.span.as_ref().map_or(work, |s| s.span(work));
    Ok(WorkSpan {
        name: pos.name,
        work,
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The model measures the bench's own tree: its work is the one-thread bench's node count
    /// on every position; the span is no more than the work; and handing out more moves (the
    /// default split depths against splitting only at the root) never lengthens it, while
    /// the tree stays the same.
    #[test]
    fn the_model_counts_the_bench_tree_and_splitting_shortens_its_critical_path() {
        let depth = Some(9);
        let eval = EvalChoice::Auto;
        let bench = crate::bench::run(depth, None, 1, eval, SplitDepth::default(), |_| {})
            .expect("the bench runs");
        let split = run(depth, eval, SplitDepth::default()).expect("the model runs");
        let root_only = SplitDepth {
            pv: 100,
            other: 100,
            idle: 100,
        };
        let serial = run(depth, eval, root_only).expect("the model runs");
        let mut shorter = 0;
        for ((b, s), r) in bench.iter().zip(&split).zip(&serial) {
            assert_eq!(
                (b.name, b.nodes),
                (s.name, s.work),
                "work is the bench's nodes"
            );
            assert_eq!(
                s.work, r.work,
                "{}: split depths do not change the tree",
                s.name
            );
            assert!(s.span >= 1 && s.span <= s.work, "{}: {s:?}", s.name);
            assert!(s.span <= r.span, "{}: {s:?} against {r:?}", s.name);
            shorter += (s.span < r.span) as usize;
        }
        assert!(
            shorter >= POSITIONS.len() / 2,
            "interior split points shorten most spans"
        );
    }

    #[test]
    fn speedup_bounds() {
        let row = WorkSpan {
            name: "x",
            work: 1000,
            span: 100,
        };
        assert_eq!(row.parallelism(), 10.0);
        // Two threads: at most 2, at least 1000 / (500 + 100).
        let (low, high) = row.speedup(2, 1.0);
        assert!((high - 2.0).abs() < 1e-9 && (low - 1000.0 / 600.0).abs() < 1e-9);
        // Many threads: never past the parallelism.
        assert!((row.speedup(64, 1.0).1 - 10.0).abs() < 1e-9);
        // Search overhead: twice the nodes on 4 threads halve the bound.
        assert!((row.speedup(4, 2.0).1 - 2.0).abs() < 1e-9);
    }
}
