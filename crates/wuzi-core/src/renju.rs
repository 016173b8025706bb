//! Renju: Black's forbidden moves under the RIF rules, judged as the Gomocup referee judges
//! them.
//!
//! For Black, a move that makes exactly five wins whatever else it makes. Otherwise it is
//! forbidden if it makes an overline, two or more fours (two fours in one line count), or
//! two or more threes. A three is a line that one more move turns into a straight four,
//! and that move must itself be allowed: it is checked recursively, with the stone in
//! question on the board (a three whose every completion is forbidden is a "fake three").
//!
//! The referee's convention (the forbidden-point finder of the piskvork judge, which Gomocup
//! tournaments use): a completion point of a three counts only if Black may play it *and* it
//! does not make a five there on any line. A point where Black would make five is a win, not
//! a straight four, so a three whose only straight-four point is such a point is not a three.
//! The same holds at every level of the recursion (`protocol.md`, `YXSHOWFORBID`).
//!
//! The line-local part comes from the pattern tables (`Pattern::Overline`, `FourFour`,
//! `F3`/`F3S` with their straight-four completion points); only the recursive check of threes
//! plays stones, and only for cells flagged `FORBID_CANDIDATE`.

use crate::bitboard::Bitboard;
use crate::board::{Board, Cell};
use crate::pattern::{flag, Pattern, REACH};
use crate::types::{Color, ForbiddenKind};

impl Board {
    /// Black's forbidden kind at an empty cell, or `None` (always `None` outside renju).
    /// Plays and takes back stones to check threes; the position is left as it was.
    pub fn forbidden_kind_at(&mut self, cell: Cell) -> Option<ForbiddenKind> {
        self.forbidden_kind_recording(cell, &mut None)
    }

    /// Every on-board cell whose content can change the verdict of `forbidden_kind_at(cell)`
    /// in the current position: the cells within `REACH` along the four lines of `cell` and of
    /// every completion point the recursive check examines. A stone of either colour placed
    /// outside this set leaves the verdict as it is; inside it, the verdict may change, also
    /// from much further than five cells away (a stone that spoils the five at a completion
    /// point of a completion point). Empty unless the rule has forbidden moves.
    pub fn forbidden_reach(&mut self, cell: Cell) -> Bitboard {
        let mut reach = Bitboard::EMPTY;
        if self.rule().has_forbidden_moves() && self.is_on_board(cell) {
            self.forbidden_kind_recording(cell, &mut Some(&mut reach));
        }
        reach
    }

    /// Adds the four lines of `cell`, `REACH` cells either way, to `reach`.
    fn record_lines(&self, cell: Cell, reach: &mut Option<&mut Bitboard>) {
        let Some(reach) = reach.as_deref_mut() else {
            return;
        };
        for off in self.dir_offsets() {
            for k in 0..=REACH {
                for c in [cell + k * off, cell - k * off] {
                    if self.is_on_board(c) {
                        reach.insert(c);
                    }
                }
            }
        }
    }

    fn forbidden_kind_recording(
        &mut self,
        cell: Cell,
        reach: &mut Option<&mut Bitboard>,
    ) -> Option<ForbiddenKind> {
        if self.is_on_board(cell) {
            self.record_lines(cell, reach);
        }
        if !self.rule().has_forbidden_moves()
            || !self.is_on_board(cell)
            || !self.is_empty_cell(cell)
            || !self.is_forbid_candidate(cell)
        {
            return None;
        }
        let patterns = [0, 1, 2, 3].map(|d| self.pattern_at(Color::Black, cell, d));
        if patterns.contains(&Pattern::Five) {
            return None;
        }
        if patterns.contains(&Pattern::Overline) {
            return Some(ForbiddenKind::Overline);
        }
        if patterns.iter().map(|p| p.four_count()).sum::<usize>() >= 2 {
            return Some(ForbiddenKind::DoubleFour);
        }
        let mut completions: [Option<[Cell; 10]>; 4] = [None; 4];
        let mut counts = [0usize; 4];
        for d in 0..4 {
            if patterns[d].is_open_three() {
                let mut cells = [0; 10];
                for (i, c) in self
                    .completion_cells(Color::Black, cell, d)
                    .enumerate()
                    .take(10)
                {
                    cells[i] = c;
                    counts[d] = i + 1;
                }
                completions[d] = Some(cells);
            }
        }
        self.make(Color::Black, cell);
        let mut real_threes = 0;
        for d in 0..4 {
            if let Some(cells) = completions[d] {
                for &q in &cells[..counts[d]] {
                    if self.is_straight_four_point(q, reach) {
                        real_threes += 1;
                        break;
                    }
                }
            }
        }
        self.unmake();
        (real_threes >= 2).then_some(ForbiddenKind::DoubleThree)
    }

    /// Whether the completion point `q` of a three (with the three's stone on the board) makes
    /// that three real: empty, no five for Black there on any line (the referee's
    /// convention), and not forbidden.
    fn is_straight_four_point(&mut self, q: Cell, reach: &mut Option<&mut Bitboard>) -> bool {
        if !self.is_empty_cell(q) {
            return false;
        }
        // The five flag reads q's own lines.
        self.record_lines(q, reach);
        self.flags_at(Color::Black, q) & flag::FIVE == 0
            && self.forbidden_kind_recording(q, reach).is_none()
    }
}
