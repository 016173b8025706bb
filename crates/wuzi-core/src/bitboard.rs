//! A set of padded cells as a bit vector, sized for the largest board.
//!
//! Bit `i` stands for padded cell `i` (see `board.rs`: row-major with a stride of
//! `width + 10`, five wall cells on every side). Because every row is followed by ten
//! padding columns, shifting by up to five cells in any of the eight directions never
//! carries an on-board cell into another on-board row: dilation is plain shifts and ORs,
//! masked by the set of on-board cells afterwards.

use crate::geometry::MAX_CELLS;

pub const WORDS: usize = MAX_CELLS.div_ceil(64);

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Bitboard {
    words: [u64; WORDS],
}

impl Default for Bitboard {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard { words: [0; WORDS] };

    #[inline]
    pub fn contains(&self, cell: usize) -> bool {
        cell < MAX_CELLS && self.words[cell / 64] >> (cell % 64) & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, cell: usize) {
        self.words[cell / 64] |= 1 << (cell % 64);
    }

    #[inline]
    pub fn remove(&mut self, cell: usize) {
        self.words[cell / 64] &= !(1 << (cell % 64));
    }

    #[inline]
    pub fn toggle(&mut self, cell: usize) {
        self.words[cell / 64] ^= 1 << (cell % 64);
    }

    #[inline]
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// The raw words, for loops that read several sets at once.
    #[inline]
    pub fn words(&self) -> &[u64; WORDS] {
        &self.words
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// The lowest cell in the set.
    #[inline]
    pub fn first(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, &w)| w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// Cells in increasing order.
    #[inline]
    pub fn iter(&self) -> Iter {
        Iter {
            words: self.words,
            index: 0,
        }
    }

    #[inline]
    pub fn and(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (o, b) in out.words.iter_mut().zip(other.words.iter()) {
            *o &= b;
        }
        out
    }

    #[inline]
    pub fn or(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (o, b) in out.words.iter_mut().zip(other.words.iter()) {
            *o |= b;
        }
        out
    }

    #[inline]
    pub fn and_not(&self, other: &Bitboard) -> Bitboard {
        let mut out = *self;
        for (o, b) in out.words.iter_mut().zip(other.words.iter()) {
            *o &= !b;
        }
        out
    }

    /// The set moved by `by` cells (towards higher indices when positive); bits moved past
    /// either end are lost.
    pub fn shifted(&self, by: isize) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        let words = by.unsigned_abs() / 64;
        let bits = (by.unsigned_abs() % 64) as u32;
        if words >= WORDS {
            return out;
        }
        if by >= 0 {
            for i in (words..WORDS).rev() {
                let src = i - words;
                let mut w = self.words[src] << bits;
                if bits != 0 && src > 0 {
                    w |= self.words[src - 1] >> (64 - bits);
                }
                out.words[i] = w;
            }
        } else {
            for i in 0..WORDS - words {
                let src = i + words;
                let mut w = self.words[src] >> bits;
                if bits != 0 && src + 1 < WORDS {
                    w |= self.words[src + 1] << (64 - bits);
                }
                out.words[i] = w;
            }
        }
        out
    }

    /// Every cell within Chebyshev distance `radius` (at most 5) of a cell of the set, the set
    /// included, for a padded layout of row stride `stride`; the caller masks off-board cells.
    pub fn dilated(&self, radius: usize, stride: usize) -> Bitboard {
        let mut rows = *self;
        for _ in 0..radius {
            rows = rows.or(&rows.shifted(1)).or(&rows.shifted(-1));
        }
        let mut out = rows;
        let stride = stride as isize;
        for k in 1..=radius as isize {
            out = out
                .or(&rows.shifted(k * stride))
                .or(&rows.shifted(-k * stride));
        }
        out
    }
}

pub struct Iter {
    words: [u64; WORDS],
    index: usize,
}

impl Iterator for Iter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.index < WORDS {
            let w = &mut self.words[self.index];
            if *w != 0 {
                let bit = w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(self.index * 64 + bit);
            }
            self.index += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn insert_remove_iterate() {
        let mut b = Bitboard::EMPTY;
        for c in [0, 63, 64, 700, MAX_CELLS - 1] {
            b.insert(c);
        }
        assert_eq!(b.count(), 5);
        assert_eq!(
            b.iter().collect::<Vec<_>>(),
            vec![0, 63, 64, 700, MAX_CELLS - 1]
        );
        b.remove(64);
        b.toggle(63);
        assert_eq!(b.iter().collect::<Vec<_>>(), vec![0, 700, MAX_CELLS - 1]);
        assert_eq!(b.first(), Some(0));
        assert!(!b.contains(MAX_CELLS + 5));
    }

    #[test]
    fn shifts_match_cellwise_moves() {
        let mut b = Bitboard::EMPTY;
        for c in [3, 64, 65, 130, 1000] {
            b.insert(c);
        }
        for by in [-130isize, -64, -65, -1, 0, 1, 63, 64, 129] {
            let expect: Vec<usize> = b
                .iter()
                .filter_map(|c| {
                    let t = c as isize + by;
                    (t >= 0 && (t as usize) < WORDS * 64).then_some(t as usize)
                })
                .collect();
            assert_eq!(b.shifted(by).iter().collect::<Vec<_>>(), expect, "by {by}");
        }
    }

    #[test]
    fn dilation_is_a_square() {
        let stride = 25;
        let mut b = Bitboard::EMPTY;
        b.insert(10 * stride + 10);
        let d = b.dilated(2, stride);
        assert_eq!(d.count(), 25);
        assert!(d.contains(8 * stride + 8) && d.contains(12 * stride + 12));
        assert!(!d.contains(13 * stride + 10));
    }
}
