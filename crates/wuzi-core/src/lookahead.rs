//! What one more stone would make of a cell, read without playing it
//! (`Board::cell_after`).
//!
//! A stone changes the line keys of the cells within `key_reach` along its four lines and
//! nothing else; `Board::make` re-derives exactly those cells' patterns. `cell_after` does
//! the same arithmetic for one asked-for cell, so a caller that asks "would this stone stop
//! that threat?" of many stones reads a few table entries per stone instead of paying a make
//! and an unmake (about 2,000 instructions each) per stone.
//!
//! Invariants:
//! - `cell_after(color, stone, at)` answers what the board would answer for `at` after
//!   `make(color, stone)` (checked against `make` on random positions of every rule, below);
//!   no cell lies on two of the stone's lines within reach (the stride is at least 15, the
//!   reach at most 5), so at most one key of `at` changes.
//! - A stone never raises the other colour's threat at any cell (renju Black's forbidden
//!   points aside): the line patterns only fall when a cell of the window is taken, and the threat
//!   class only falls when one line's pattern does (checked exhaustively over every line key
//!   and every pattern combination, below). So the other colour's cells of a threat class
//!   after the stone are among those of that class or above before it.

use crate::board::{key_reach, Board, Cell, DELTA_NEGATIVE_SIDE, DELTA_POSITIVE_SIDE};
use crate::pattern::{Pattern, Threat};
use crate::types::Color;

/// An empty cell as it would be after a stone (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct CellAfter {
    cell: Cell,
    keys: [u32; 4],
    codes: [u16; 2],
    info: [u32; 2],
}

impl Board {
    /// The empty cell `at` as it would be once `color` placed a stone on `stone` (another
    /// empty on-board cell); the board is not changed. Legality is the caller's to check.
    #[inline]
    pub fn cell_after(&self, color: Color, stone: Cell, at: Cell) -> CellAfter {
        debug_assert!(self.is_empty_cell(stone) && self.is_empty_cell(at) && stone != at);
        let mut keys = [0u32; 4];
        let mut codes = [
            self.pattern_code(Color::Black, at),
            self.pattern_code(Color::White, at),
        ];
        let reach = key_reach(self.rule());
        let (distance, ahead) = if at > stone {
            (at - stone, true)
        } else {
            (stone - at, false)
        };
        let mut changed = false;
        for (d, &off) in self.dir_offsets().iter().enumerate() {
            keys[d] = self.line_key(at, d);
            if changed || distance % off != 0 || distance / off > reach {
                continue;
            }
            let k = distance / off;
            let c = color.index();
            // `at` ahead of the stone sees it on its negative side, and the other way round,
            // as in `Board::make`.
            let delta = if ahead {
                DELTA_NEGATIVE_SIDE[c][k]
            } else {
                DELTA_POSITIVE_SIDE[c][k]
            };
            keys[d] = keys[d].wrapping_add(delta);
            let p = self.tables().patterns[keys[d] as usize] as u16;
            let shift = 4 * d;
            codes[0] = (codes[0] & !(15 << shift)) | (p & 15) << shift;
            codes[1] = (codes[1] & !(15 << shift)) | (p >> 4) << shift;
            changed = true;
        }
        let info = if changed {
            let combined = self.combined_table();
            [
                combined.entries[0][codes[0] as usize],
                combined.entries[1][codes[1] as usize],
            ]
        } else {
            [
                self.threat_at(Color::Black, at) as u32
                    | (self.flags_at(Color::Black, at) as u32) << 8,
                self.threat_at(Color::White, at) as u32
                    | (self.flags_at(Color::White, at) as u32) << 8,
            ]
        };
        CellAfter {
            cell: at,
            keys,
            codes,
            info,
        }
    }
}

impl CellAfter {
    /// The threat class of the cell for `color`.
    pub fn threat(&self, color: Color) -> Threat {
        Threat::from_u8(self.info[color.index()] as u8)
    }

    /// The flags (`pattern::flag`) of the cell for `color`.
    pub fn flags(&self, color: Color) -> u8 {
        (self.info[color.index()] >> 8) as u8
    }

    /// The cell's pattern for `color` in direction `dir`.
    pub fn pattern(&self, color: Color, dir: usize) -> Pattern {
        Pattern::from_u8((self.codes[color.index()] >> (4 * dir) & 15) as u8)
    }

    /// `Board::completion_cells` of the cell after the stone (`board` is the board before).
    pub fn completion_cells<'a>(
        &self,
        board: &'a Board,
        color: Color,
        dir: usize,
    ) -> impl Iterator<Item = Cell> + 'a {
        board.completion_cells_of_key(self.keys[dir], color, self.cell, dir)
    }
}

#[cfg(test)]
mod tests {
    use crate::board::key_reach;
    use crate::pattern::{
        combine, decode_window, encode_window, flag, LineCell, RuleTables, REACH,
    };
    use crate::rng::Rng;
    use crate::{Board, Color, Pattern, Point, Rule, Threat};

    /// Every answer of `cell_after` equals the board's own after `make`, for random stones
    /// and every other empty cell of random positions in every rule and size class.
    #[test]
    fn cell_after_answers_what_make_would() {
        let mut rng = Rng::new(29);
        let mut compared = 0usize;
        for round in 0..240 {
            let rule = Rule::ALL[round % Rule::ALL.len()];
            let size = [9, 15, 20][round / Rule::ALL.len() % 3];
            let mut board = Board::new(size, size, rule).expect("board");
            let stones = 4 + rng.below(30);
            let mut tries = 0;
            while board.move_count() < stones && tries < 400 {
                tries += 1;
                let p = Point::new(rng.below(size) as u8, rng.below(size) as u8);
                if board.is_legal(p) {
                    board.play(p).expect("legal");
                    if board.winner().is_some() {
                        board.undo().expect("undo");
                        break;
                    }
                }
            }
            let empties: Vec<usize> = (0..size * size)
                .filter_map(|i| board.cell(Point::new((i % size) as u8, (i / size) as u8)))
                .filter(|&c| board.is_empty_cell(c))
                .collect();
            for _ in 0..6 {
                let stone = empties[rng.below(empties.len())];
                let color = [Color::Black, Color::White][rng.below(2)];
                let mut after = board.clone();
                after.make(color, stone);
                for &cell in empties.iter().filter(|&&c| c != stone) {
                    let view = board.cell_after(color, stone, cell);
                    for side in Color::BOTH {
                        assert_eq!(view.threat(side), after.threat_at(side, cell));
                        assert_eq!(view.flags(side), after.flags_at(side, cell));
                        for dir in 0..4 {
                            assert_eq!(view.pattern(side, dir), after.pattern_at(side, cell, dir));
                            let ours: Vec<_> = view.completion_cells(&board, side, dir).collect();
                            let theirs: Vec<_> = after.completion_cells(side, cell, dir).collect();
                            assert_eq!(ours, theirs, "{rule} {size} stone {stone} cell {cell}");
                        }
                    }
                    compared += 1;
                }
            }
        }
        assert!(compared >= 50_000, "{compared}");
    }

    /// The rules and colours whose threats never rise under the other colour's stone (renju
    /// Black's can: a White stone that spoils one of two threes unforbids a point).
    fn monotone_cases() -> Vec<(Rule, Color)> {
        vec![
            (Rule::Freestyle, Color::Black),
            (Rule::Freestyle, Color::White),
            (Rule::Standard, Color::Black),
            (Rule::Standard, Color::White),
            (Rule::Renju, Color::White),
            (Rule::Caro, Color::Black),
            (Rule::Caro, Color::White),
            (Rule::CaroExact, Color::Black),
            (Rule::CaroExact, Color::White),
        ]
    }

    /// A stone of the other colour on any empty cell within reach of a window never raises
    /// the window's pattern, for every line key.
    #[test]
    fn a_stone_never_raises_the_other_colours_line_pattern() {
        for (rule, color) in monotone_cases() {
            let tables = RuleTables::get(rule);
            let stone = match color {
                Color::Black => LineCell::White,
                Color::White => LineCell::Black,
            };
            let pattern = |key: u32| {
                let both = tables.patterns[key as usize];
                Pattern::from_u8(if color == Color::Black {
                    both & 15
                } else {
                    both >> 4
                })
            };
            let mut checked = 0usize;
            for key in 0..crate::pattern::KEY_COUNT as u32 {
                let window = decode_window(key);
                let before = pattern(key);
                for distance in 1..=key_reach(rule) {
                    for i in [REACH - distance, REACH + distance] {
                        if window[i] != LineCell::Empty {
                            continue;
                        }
                        let mut placed = window;
                        placed[i] = stone;
                        let after = pattern(encode_window(&placed));
                        assert!(after <= before, "{rule} {color:?} {window:?} at {i}");
                        checked += 1;
                    }
                }
            }
            assert!(checked > 100_000, "{checked}");
        }
    }

    /// Lowering one line's pattern never raises the combined threat class, and a cell of a
    /// four-three or more is in the four and open-three sets, or the open-four or five set.
    #[test]
    fn a_lower_line_pattern_never_raises_the_threat() {
        let plain = &Pattern::ALL[..=Pattern::Five as usize];
        for code in 0u32..1 << 16 {
            let dirs = [0, 1, 2, 3].map(|d| Pattern::from_u8((code >> (4 * d) & 15) as u8));
            if dirs.iter().any(|p| !plain.contains(p)) {
                continue;
            }
            let (threat, flags) = combine(dirs, false);
            // The sets the callers read the candidates from.
            let four_three = flag::FOUR | flag::OPEN_THREE;
            if threat >= Threat::FourThree {
                assert!(
                    flags & four_three == four_three || flags & (flag::OPEN_FOUR | flag::FIVE) != 0,
                    "{dirs:?}"
                );
            }
            for d in 0..4 {
                for &lower in plain.iter().filter(|&&p| p < dirs[d]) {
                    let mut lowered = dirs;
                    lowered[d] = lower;
                    let (after, _) = combine(lowered, false);
                    assert!(after <= threat, "{dirs:?} -> {lowered:?}");
                    assert!(threat != Threat::Forbidden);
                }
            }
        }
    }
}
