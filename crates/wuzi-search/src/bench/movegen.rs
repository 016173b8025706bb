//! The core's speed behind `wuzi bench --movegen`: make+undo (with the full incremental pattern update) per second
//! on mid-game positions of 15x15 and 20x20.

use super::positions::midgame;
use std::time::{Duration, Instant};
use wuzi_core::{Board, Rule};

pub struct MovegenResult {
    pub name: String,
    pub make_undo: u64,
    pub elapsed: Duration,
}

impl MovegenResult {
    pub fn per_second(&self) -> f64 {
        self.make_undo as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// The positions measured: two board sizes, several rules, 30 to 60 stones.
pub fn positions() -> Vec<(String, Board)> {
    let mut out = Vec::new();
    for (size, rule, stones, seed) in [
        (15, Rule::Freestyle, 40, 1u64),
        (15, Rule::Standard, 50, 2),
        (15, Rule::Renju, 36, 3),
        (15, Rule::Caro, 44, 4),
        (20, Rule::Freestyle, 60, 5),
        (20, Rule::Freestyle, 30, 6),
    ] {
        out.push((
            format!("{size}x{size} {rule} {stones} stones"),
            midgame(size, rule, stones, seed),
        ));
    }
    out
}

/// Make and take back every empty cell within two of the stones, over and over, for about
/// `budget` per position.
pub fn run(budget: Duration) -> Vec<MovegenResult> {
    positions()
        .into_iter()
        .map(|(name, mut board)| {
            let cells: Vec<usize> = board.empty_near_stones(2).iter().collect();
            let side = board.side_to_move();
            let start = Instant::now();
            let mut count = 0u64;
            while start.elapsed() < budget {
                for _ in 0..64 {
                    for &c in &cells {
                        board.make(side, c);
                        board.unmake();
                    }
                }
                count += 64 * cells.len() as u64;
            }
            MovegenResult {
                name,
                make_undo: count,
                elapsed: start.elapsed(),
            }
        })
        .collect()
}
