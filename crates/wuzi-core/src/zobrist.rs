//! Zobrist keys: one 64-bit key per colour and padded cell, and one for the side to move,
//! generated at compile time by splitmix64 from a fixed seed so that hashes are the same
//! in every run and every build.

use crate::geometry::MAX_CELLS;

const SEED: u64 = 0x5755_5a49_2d47_4f4d; // "WUZI-GOM"

const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = next;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (next, z ^ (z >> 31))
}

const fn generate() -> ([[u64; MAX_CELLS]; 2], u64) {
    let mut keys = [[0u64; MAX_CELLS]; 2];
    let mut state = SEED;
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < MAX_CELLS {
            let (next, value) = splitmix64(state);
            state = next;
            keys[color][cell] = value;
            cell += 1;
        }
        color += 1;
    }
    let (_, side) = splitmix64(state);
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
