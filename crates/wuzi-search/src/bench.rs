//! The search bench behind `wuzi bench` (and callable without it): a fixed set of positions,
//! each searched to a fixed depth with a fixed table size, from a fresh table. On one thread
//! the node count is deterministic, so its total is the bench's signature: a change to search
//! behaviour changes it, and the commit that makes the change records the new one
//! (`benches/signature.txt`, checked by CI). With more threads (`search/parallel.rs`) the nodes are
//! summed over the threads and vary from run to run: they measure, they sign nothing.

use crate::{Limits, Searcher, SplitDepth};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wuzi_core::{notation, Board, Point, Rule};
use wuzi_eval::eval::EvalChoice;

pub mod mates;
pub mod model;
pub mod movegen;
pub mod positions;
pub mod scaling;

/// Table size of every bench search.
pub const HASH_BYTES: usize = 16 << 20;

pub struct BenchPosition {
    pub name: &'static str,
    pub size: usize,
    pub rule: Rule,
    pub moves: &'static str,
    pub depth: u32,
}

/// The bench set: openings, middlegames and tactical positions of every rule, from games the
/// engine played against itself (frozen here; they need not be good games).
pub const POSITIONS: &[BenchPosition] = &[
    BenchPosition {
        name: "free15-opening",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8g9j6i10i5k7",
        depth: 14,
    },
    BenchPosition {
        name: "free15-middle",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8i9j8i7i8k8j11j9h9g8h11h12j12l7h7h10",
        depth: 14,
    },
    BenchPosition {
        name: "free15-tactical",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8g9j6i10i5k7h6h7i6g6i7i8k5",
        depth: 14,
    },
    BenchPosition {
        name: "free15-defence",
        size: 15,
        rule: Rule::Freestyle,
        moves: "h8i9j8i7i8k8j11j9h9g8h11h12j12",
        depth: 14,
    },
    BenchPosition {
        name: "free20-opening",
        size: 20,
        rule: Rule::Freestyle,
        moves: "j10k11k9i11j11j12",
        depth: 14,
    },
    BenchPosition {
        name: "free20-middle",
        size: 20,
        rule: Rule::Freestyle,
        moves: "j10j11i13h11k11j12l12m13k13m11m12g11i11k12k9h12m7l8h13i12g12j13k14h9",
        depth: 14,
    },
    BenchPosition {
        name: "free20-tactical",
        size: 20,
        rule: Rule::Freestyle,
        moves: "j10k11k9i11j11j12k13i12i13k12h12m9l10m11",
        depth: 14,
    },
    BenchPosition {
        name: "std15-opening",
        size: 15,
        rule: Rule::Standard,
        moves: "h8g7i7g9g8f8",
        depth: 14,
    },
    BenchPosition {
        name: "std15-middle",
        size: 15,
        rule: Rule::Standard,
        moves: "h8i8h9h10i10j11g7i9g11j8k7j9j10h6g9i7k9i6i5f4",
        depth: 14,
    },
    BenchPosition {
        name: "renju15-opening",
        size: 15,
        rule: Rule::Renju,
        moves: "h8i9g9i7h10i8",
        depth: 14,
    },
    BenchPosition {
        name: "renju15-middle",
        size: 15,
        rule: Rule::Renju,
        moves: "h8h9i10g11i8i9h10f10k10j10j9l11g8j8g9i11",
        depth: 14,
    },
    BenchPosition {
        name: "renju15-tactical",
        size: 15,
        rule: Rule::Renju,
        moves: "h8i9g9i7h10i8i10j11i5f10h11h12g12j9",
        depth: 14,
    },
    BenchPosition {
        name: "caro15-opening",
        size: 15,
        rule: Rule::Caro,
        moves: "h8i9j8k8h9j7",
        depth: 14,
    },
    BenchPosition {
        name: "caro15-middle",
        size: 15,
        rule: Rule::Caro,
        moves: "h8g8i9j10j11i11k9k10l10i7h9j9h10h7i8j7g7k8j8k7",
        depth: 14,
    },
];

impl BenchPosition {
    /// The position, or why it cannot be set up.
    pub fn board(&self) -> Result<Board, String> {
        let mut board = Board::new(self.size, self.size, self.rule).map_err(|e| e.to_string())?;
        for p in notation::parse_moves(self.moves).map_err(|e| e.to_string())? {
            board.play(p).map_err(|e| format!("{}: {e}", self.name))?;
            if board.winner().is_some() {
                return Err(format!("{}: the game is already over", self.name));
            }
        }
        Ok(board)
    }
}

pub struct BenchResult {
    pub name: &'static str,
    pub nodes: u64,
    pub elapsed: Duration,
    pub best: Point,
    pub score: i32,
    pub depth: u32,
    pub cutoffs: crate::CutoffStats,
}

impl BenchResult {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }
}

/// A whole bench's nodes and searching time (the sum over its positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Totals {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl Totals {
    pub fn of(results: &[BenchResult]) -> Totals {
        Totals {
            nodes: results.iter().map(|r| r.nodes).sum(),
            elapsed: results.iter().map(|r| r.elapsed).sum(),
        }
    }

    pub fn nps(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Searches every position on `threads` threads; `depth` overrides the positions' own
/// depths, and `movetime` replaces the depth by a time limit (then the node counts are not
/// reproducible). `split_depth` matters only on several threads.
/// Where the one-thread bench's nodes go, summed over its positions (each to its depth, or
/// to `depth`).
pub fn node_stats(
    depth: Option<u32>,
    eval: EvalChoice,
) -> Result<crate::search::NodeStats, String> {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(HASH_BYTES);
    searcher.set_options(crate::Options {
        eval,
        stats: true,
        ..crate::Options::default()
    });
    let mut total = crate::search::NodeStats::default();
    for pos in POSITIONS {
        let board = pos.board()?;
        searcher.clear();
        let limits = Limits {
            max_depth: Some(depth.unwrap_or(pos.depth)),
            ..Limits::default()
        };
        let mut depths = crate::search::NodeStats::default();
        let result = searcher
            .search(&board, &limits, &stop, &mut |info| {
                if info.multipv == 1 {
                    depths.completed(info.depth, info.nodes);
                }
            })
            .ok_or_else(|| format!("{}: no legal move", pos.name))?;
        depths.searches = 1;
        total.add(&depths);
        if let Some(stats) = result.stats {
            total.add(&stats);
        }
    }
    Ok(total)
}

pub fn run(
    depth: Option<u32>,
    movetime: Option<Duration>,
    threads: usize,
    eval: EvalChoice,
    split_depth: SplitDepth,
    mut progress: impl FnMut(&BenchResult),
) -> Result<Vec<BenchResult>, String> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    let mut searcher = Searcher::new(HASH_BYTES);
    searcher.set_options(crate::Options {
        eval,
        split_depth,
        ..crate::Options::default()
    });
    searcher.set_threads(threads).map_err(|e| e.to_string())?;
    for pos in POSITIONS {
        let board = pos.board()?;
        // A fresh table for every position; the pool is kept. The clock times the search
        // alone, not the process's one-time set-up (`Searcher::prepare`).
        searcher.clear();
        searcher.prepare(&board);
        let limits = match movetime {
            Some(t) => Limits {
                soft_time: Some(t * 3 / 5),
                hard_time: Some(t),
                ..Limits::default()
            },
            None => Limits {
                max_depth: Some(depth.unwrap_or(pos.depth)),
                ..Limits::default()
            },
        };
        let start = Instant::now();
        let result = searcher
            .search(&board, &limits, &stop, &mut |_| {})
            .ok_or_else(|| format!("{}: no legal move", pos.name))?;
        let r = BenchResult {
            name: pos.name,
            nodes: result.nodes,
            elapsed: start.elapsed(),
            best: result.best,
            score: result.score,
            depth: result.depth,
            cutoffs: result.cutoffs,
        };
        progress(&r);
        out.push(r);
    }
    Ok(out)
}

/// The score after each completed depth (1 to `max_depth`) on every bench position, one
/// thread: how much the score swings between odd and even depths.
pub fn depth_scores(
    max_depth: u32,
    eval: EvalChoice,
) -> Result<Vec<(&'static str, Vec<i32>)>, String> {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(HASH_BYTES);
    searcher.set_options(crate::Options {
        eval,
        ..crate::Options::default()
    });
    let mut out = Vec::new();
    for pos in POSITIONS {
        let board = pos.board()?;
        searcher.clear();
        let limits = Limits {
            max_depth: Some(max_depth),
            ..Limits::default()
        };
        let mut scores = Vec::new();
        searcher.search(&board, &limits, &stop, &mut |info| {
            if info.multipv == 1 && info.depth > 0 {
                scores.push(info.score);
            }
        });
        out.push((pos.name, scores));
    }
    Ok(out)
}
