//! Zobrist keys: one 64-bit key per colour and padded cell, and one for the side to move,
//! generated at compile time by the project's generator (`rng::step`, SplitMix64) from a
//! fixed seed so that hashes are the same in every run and every build.

use crate::geometry::MAX_CELLS;
use crate::rng::step;

const SEED: u64 = 0x5755_5a49_2d47_4f4d; // "WUZI-GOM"

const fn generate() -> ([[u64; MAX_CELLS]; 2], u64) {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut state = SEED;
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let (next, value) = step(state);
            state = next;
            keys[color][cell] = value;
            cell += 1;
        }
        color += 1;
    }
    let (_, side) = step(state);
    (keys, side)
}

const GENERATED: ([[u64; MAX_CELLS]; 2], u64) = generate();

/// Key of a stone of colour index `color` on padded cell `cell`.
pub static STONE_KEYS: [[u64; MAX_CELLS]; 2] = GENERATED.0;

/// XORed into the hash when White is to move.
pub const WHITE_TO_MOVE: u64 = GENERATED.1;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut all: Vec<u64> = STONE_KEYS.iter().flatten().copied().collect();
        all.push(WHITE_TO_MOVE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
