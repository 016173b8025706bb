//! `make` and `unmake`: the incremental update of the line keys, patterns, combined entries,
//! flag sets and value sums around one stone, and the undo log that lets `unmake` restore
//! them without looking anything up again.
//!
//! A stone changes the line keys of the cells within reach along its four lines; for each
//! empty one whose pattern codes change, `make` re-derives the codes and combined entries
//! and writes what they were to the undo log (one [`Overwritten`] per cell, the placed
//! cell's own entry first). `unmake` undoes the key changes by arithmetic and copies the
//! logged entries back, fixing the flag sets and value sums from the difference; it never
//! consults the pattern or combined tables.
//!
//! Invariants:
//! - every move at history index `i >= logged_from` has its entries at
//!   `undo[undo_start[i]..undo_start[i + 1]]` (the last one's run to the log's end);
//! - moves below `logged_from` (made before the combined table was swapped, whose entries
//!   would be stale) are undone by re-deriving the touched cells, as a move was before the
//!   log existed.

use super::{key_reach, Board, Cell, DELTA_NEGATIVE_SIDE, DELTA_POSITIVE_SIDE, EMPTY};
use crate::geometry::{MAX_CELLS, MAX_MOVES};
use crate::pattern::{CombinedTable, REACH};
use crate::types::Color;
use crate::zobrist::{STONE_KEYS, WHITE_TO_MOVE};

/// The most entries one `make` logs: the placed cell and two neighbours per line and
/// distance.
const LOG_PER_MOVE: usize = 1 + 8 * REACH;
const _: () = assert!(MAX_MOVES * LOG_PER_MOVE <= u16::MAX as usize && MAX_CELLS <= 1 << 16);

/// What `make` overwrote at one empty cell: its pattern codes and combined entries before
/// the stone.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Overwritten {
    cell: u16,
    codes: [u16; 2],
    info: [u32; 2],
}

impl Board {
    /// Place a stone without checks: `cell` must be an empty on-board cell and the history
    /// not full. The hot path of search.
    #[inline]
    pub fn make(&mut self, color: Color, cell: Cell) {
        debug_assert!(self.is_on_board(cell) && self.stones[cell] == EMPTY);
        let c = color.index();
        let before = if self.side == Color::White {
            1u16 << 14
        } else {
            0
        };
        self.stones[cell] = c as u8 + 1;
        self.stones_of[c].insert(cell);
        self.hash ^= STONE_KEYS[c][cell];
        if self.side == Color::White {
            self.hash ^= WHITE_TO_MOVE;
        }
        self.side = color.opponent();
        if self.side == Color::White {
            self.hash ^= WHITE_TO_MOVE;
        }
        self.undo_start[self.moves] = self.undo.len() as u16;
        // The placed cell and at most two neighbours per line and distance: the capacity
        // `update_neighbour`'s unchecked writes rely on.
        self.undo.reserve(LOG_PER_MOVE);
        self.undo.push(Overwritten {
            cell: cell as u16,
            codes: self.codes[cell],
            info: self.info[cell],
        });
        for colour in 0..2 {
            self.set_info(cell, colour, 0);
        }
        self.history[self.moves] = cell as u16 | (c as u16) << 15 | before;
        self.moves += 1;
        self.update_lines(cell, c, true);
    }

    /// Hands the move to the opponent without placing a stone (the search's null move). Only
    /// the side to move and the hash change. The history does not record it: an `unmake` of a
    /// stone placed before the pass restores the side that stone was placed by.
    #[inline]
    pub fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= WHITE_TO_MOVE;
    }

    /// Takes back a `pass`.
    #[inline]
    pub fn unpass(&mut self) {
        self.pass();
    }

    /// Take back the last stone without checks: the history must not be empty.
    #[inline]
    pub fn unmake(&mut self) {
        debug_assert!(self.moves > 0);
        self.moves -= 1;
        let (color, cell) = self.history_entry(self.moves);
        let side_before = self.side_before(self.moves);
        let c = color.index();
        self.stones[cell] = EMPTY;
        self.stones_of[c].remove(cell);
        self.hash ^= STONE_KEYS[c][cell];
        if self.side == Color::White {
            self.hash ^= WHITE_TO_MOVE;
        }
        self.side = side_before;
        if self.side == Color::White {
            self.hash ^= WHITE_TO_MOVE;
        }
        if self.moves >= self.logged_from {
            self.take_back_keys(cell, c);
            self.restore_logged(self.undo_start[self.moves] as usize);
        } else {
            self.update_lines(cell, c, false);
            self.rederive(cell);
            // The moves from here on are made, and so logged, with the present table.
            self.logged_from = self.moves;
        }
    }

    /// Drops the undo log: the moves made so far will be undone by re-deriving (after the
    /// combined table changes, when the logged entries no longer hold).
    pub(super) fn forget_undo_log(&mut self) {
        self.undo.clear();
        self.logged_from = self.moves;
    }

    /// Copies back the entries logged from `start` on, keeping the flag sets and value sums.
    #[inline(always)]
    fn restore_logged(&mut self, start: usize) {
        for i in start..self.undo.len() {
            let e = self.undo[i];
            let n = e.cell as Cell;
            self.codes[n] = e.codes;
            self.set_info(n, 0, e.info[0]);
            self.set_info(n, 1, e.info[1]);
        }
        self.undo.truncate(start);
    }

    /// Takes the stone of colour index `color` at `cell` out of its neighbours' line keys,
    /// and nothing else (the logged entries restore the rest).
    #[inline(always)]
    fn take_back_keys(&mut self, cell: Cell, color: usize) {
        if key_reach(self.rule) == REACH - 1 {
            self.take_back_keys_within::<{ REACH - 1 }>(cell, color);
        } else {
            self.take_back_keys_within::<REACH>(cell, color);
        }
    }

    #[inline(always)]
    fn take_back_keys_within<const K: usize>(&mut self, cell: Cell, color: usize) {
        for d in 0..4 {
            let off = self.dir_offsets[d];
            for k in 1..=K {
                let (behind, ahead) = (cell - k * off, cell + k * off);
                debug_assert!(ahead < MAX_CELLS);
                // SAFETY: as in `update_neighbour`: both cells lie within REACH (= PAD) of an
                // on-board cell along a line, hence inside the padded array.
                unsafe {
                    let key = self.keys.get_unchecked_mut(behind).get_unchecked_mut(d);
                    *key = key.wrapping_sub(DELTA_POSITIVE_SIDE[color][k]);
                    let key = self.keys.get_unchecked_mut(ahead).get_unchecked_mut(d);
                    *key = key.wrapping_sub(DELTA_NEGATIVE_SIDE[color][k]);
                }
            }
        }
    }

    /// The hot loop of `make` (and of `unmake` below `logged_from`): adjusts the line keys
    /// of the cells within reach along the four lines through `cell` and re-derives the
    /// patterns of the empty ones, logging what a stone's `make` overwrites.
    #[inline(always)]
    fn update_lines(&mut self, cell: Cell, color: usize, add: bool) {
        match (key_reach(self.rule) == REACH - 1, add) {
            (true, true) => self.update_lines_within::<{ REACH - 1 }, true>(cell, color),
            (true, false) => self.update_lines_within::<{ REACH - 1 }, false>(cell, color),
            (false, true) => self.update_lines_within::<REACH, true>(cell, color),
            (false, false) => self.update_lines_within::<REACH, false>(cell, color),
        }
    }

    #[inline(always)]
    fn update_lines_within<const K: usize, const ADD: bool>(&mut self, cell: Cell, color: usize) {
        let mut sums = (0, 0);
        let mut logged = self.undo.len();
        for d in 0..4 {
            let off = self.dir_offsets[d];
            for k in 1..=K {
                let (behind, ahead) =
                    (DELTA_POSITIVE_SIDE[color][k], DELTA_NEGATIVE_SIDE[color][k]);
                let (behind, ahead) = if ADD {
                    (behind, ahead)
                } else {
                    (behind.wrapping_neg(), ahead.wrapping_neg())
                };
                self.update_neighbour::<ADD>(cell - k * off, d, behind, &mut sums, &mut logged);
                self.update_neighbour::<ADD>(cell + k * off, d, ahead, &mut sums, &mut logged);
            }
        }
        if ADD {
            // SAFETY: `update_neighbour` initialised every entry up to `logged`, which stays
            // within the capacity `make` reserved (see there).
            unsafe { self.undo.set_len(logged) };
        }
        self.value_sums[0] += sums.0;
        self.value_sums[1] += sums.1;
    }

    /// One cell of the hot loop: add `delta` (wrapping) to its key in direction `d` and, if it
    /// is empty, re-derive that direction's patterns and the cell's combined entries; `LOG`:
    /// write what they were to the undo log.
    #[inline(always)]
    fn update_neighbour<const LOG: bool>(
        &mut self,
        n: Cell,
        d: usize,
        delta: u32,
        sums: &mut (i32, i32),
        logged: &mut usize,
    ) {
        debug_assert!(n < MAX_CELLS);
        // SAFETY: `n` is within REACH (= PAD) of an on-board cell along a line, so it lies
        // inside the padded array, which has PAD wall cells on every side:
        // `n < (height + 2 PAD) * stride <= MAX_CELLS`. Line keys of on-board cells are valid
        // keys (< KEY_COUNT) by the module invariant, and only empty (hence on-board) cells
        // are looked up; pattern codes are u16 and the combined tables have 2^16 entries.
        // Measured: checked indexing here costs about a fifth of make+undo throughput. The log
        // is written past its length within the capacity `make` reserved; the caller sets
        // the length once the line is done.
        unsafe {
            let key = self.keys.get_unchecked_mut(n).get_unchecked_mut(d);
            *key = key.wrapping_add(delta);
            if *self.stones.get_unchecked(n) != EMPTY {
                return;
            }
            let p = *self.tables.patterns.get_unchecked(*key as usize) as u16;
            let shift = 4 * d;
            let slot = *self.codes.get_unchecked(n);
            // Work on register copies: re-reading halves just written as one wider word
            // stalls store forwarding.
            let code_black = (slot[0] & !(15 << shift)) | (p & 15) << shift;
            let code_white = (slot[1] & !(15 << shift)) | (p >> 4) << shift;
            // A far stone often leaves the line's patterns as they were; the combined
            // entries then cannot change either.
            if code_black == slot[0] && code_white == slot[1] {
                return;
            }
            let (old_black, old_white) = {
                let info = self.info.get_unchecked(n);
                (info[0], info[1])
            };
            if LOG {
                // `make` reserved LOG_PER_MOVE entries past the log's length before logging
                // the placed cell, and each of the at most 8 K neighbours writes one.
                debug_assert!(*logged < self.undo.capacity());
                self.undo.as_mut_ptr().add(*logged).write(Overwritten {
                    cell: n as u16,
                    codes: slot,
                    info: [old_black, old_white],
                });
                *logged += 1;
            }
            *self.codes.get_unchecked_mut(n) = [code_black, code_white];
            let new_black = *self.combined.entries[0].get_unchecked(code_black as usize);
            let new_white = *self.combined.entries[1].get_unchecked(code_white as usize);
            if new_black != old_black {
                self.info.get_unchecked_mut(n)[0] = new_black;
                sums.0 += CombinedTable::value_of(new_black) - CombinedTable::value_of(old_black);
                self.toggle_flags(0, n, ((old_black ^ new_black) >> 8) as u8);
            }
            if new_white != old_white {
                self.info.get_unchecked_mut(n)[1] = new_white;
                sums.1 += CombinedTable::value_of(new_white) - CombinedTable::value_of(old_white);
                self.toggle_flags(1, n, ((old_white ^ new_white) >> 8) as u8);
            }
        }
    }
}
