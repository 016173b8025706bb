//! A position as the learned evaluation's sparse linear features (`wuzi_eval::learned`):
//! for every empty cell, +1 on the side to move's combo and -1 on the opponent's; and for
//! the threat mask, factorised so that rare masks borrow from common ones: a bias, one value
//! per bucket of each mask field, and one per pair of the two three-maker fields (the tempo
//! term), per colour to move. The evaluation is the dot product of the features with the
//! parameter vector laid out by [`Layout`]; [`Layout::weights`] sums the factors back into the
//! evaluation's mask table.

use crate::record::Record;
use crate::TuneError;
use wuzi_core::{Board, Color, Rule};
use wuzi_eval::learned::{self, Weights, COMBO_COUNT, MASK_COUNT, MASK_FIELDS};

/// The two fields whose buckets get a value per pair (`our_three_makers`,
/// `their_three_makers`).
const CROSS: (usize, usize) = (5, 6);

/// Threat parameters per colour to move: bias, field buckets, the cross pairs.
const fn threat_params() -> usize {
    let mut n = 1;
    let mut i = 0;
    while i < MASK_FIELDS.len() {
        n += MASK_FIELDS[i].1;
        i += 1;
    }
    n + MASK_FIELDS[CROSS.0].1 * MASK_FIELDS[CROSS.1].1
}
const THREAT_PARAMS: usize = threat_params();

/// Parameter offsets (within one colour's threat block) of a mask's factors.
fn threat_factors(mask: usize) -> [usize; 9] {
    let fields = learned::mask_fields(mask);
    let mut out = [0usize; 9];
    let mut base = 1;
    for (f, (&b, (_, buckets))) in fields.iter().zip(MASK_FIELDS).enumerate() {
        out[1 + f] = base + b;
        base += buckets;
    }
    out[8] = base + fields[CROSS.0] * MASK_FIELDS[CROSS.1].1 + fields[CROSS.1];
    out
}

/// Where each weight lives in the flat parameter vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rule: Rule,
    /// One cell table for both colours (every rule but renju, where the colours' shapes
    /// differ).
    pub tie_colours: bool,
}

impl Layout {
    pub fn for_rule(rule: Rule) -> Layout {
        Layout {
            rule,
            tie_colours: rule != Rule::Renju,
        }
    }

    pub fn len(&self) -> usize {
        2 * COMBO_COUNT + 2 * THREAT_PARAMS
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn cell(&self, color: Color, combo: usize) -> usize {
        let block = if self.tie_colours { 0 } else { color.index() };
        block * COMBO_COUNT + combo
    }

    /// The parameters whose sum is the value of `mask` for `to_move`.
    pub fn threat(&self, to_move: Color, mask: usize) -> [usize; 9] {
        threat_factors(mask).map(|f| 2 * COMBO_COUNT + to_move.index() * THREAT_PARAMS + f)
    }

    /// Whether a parameter is fixed at zero (a renju forbidden combo for Black, or the unused
    /// second cell block when the colours are tied).
    pub fn fixed(&self, index: usize) -> bool {
        if index >= 2 * COMBO_COUNT {
            return false;
        }
        let (block, combo) = (index / COMBO_COUNT, index % COMBO_COUNT);
        (self.tie_colours && block == 1)
            || learned::combo_forbidden(self.rule, Color::BOTH[block], combo)
    }

    /// The parameters of a weight set (the first colour's cells where tied).
    pub fn flatten(&self, weights: &Weights) -> Vec<f64> {
        let mut out = vec![0.0; self.len()];
        for color in Color::BOTH {
            for combo in 0..COMBO_COUNT {
                out[self.cell(color, combo)] = weights.cell[color.index()][combo] as f64;
            }
            // The factors of a table: its value with no threat as the bias, and each field's
            // effect alone (exact for a table that adds its fields' values, as the
            // hand-set one does).
            let table = &weights.threat[color.index()];
            let base = table[0] as f64;
            let zero = self.threat(color, 0);
            out[zero[0]] = base;
            let mut radix = 1;
            for (f, (_, buckets)) in MASK_FIELDS.iter().enumerate() {
                for b in 1..*buckets {
                    out[self.threat(color, b * radix)[1 + f]] = table[b * radix] as f64 - base;
                }
                radix *= buckets;
            }
        }
        for (i, v) in out.iter_mut().enumerate() {
            if self.fixed(i) {
                *v = 0.0;
            }
        }
        out
    }

    /// The weight set of parameters, rounded to integers.
    pub fn weights(&self, params: &[f64]) -> Weights {
        let round = |v: f64| v.round().clamp(i16::MIN as f64, i16::MAX as f64) as i16;
        let mut w = Weights::zero(self.rule);
        for color in Color::BOTH {
            for combo in 0..COMBO_COUNT {
                let i = self.cell(color, combo);
                w.cell[color.index()][combo] = if self.fixed(i) { 0 } else { round(params[i]) };
            }
            for mask in 0..MASK_COUNT {
                let total: f64 = self.threat(color, mask).iter().map(|&i| params[i]).sum();
                w.threat[color.index()][mask] = round(total);
            }
        }
        w
    }
}

/// One position's features and labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// (parameter index, coefficient), merged per index.
    pub features: Vec<(u32, i16)>,
    /// Game result for the side to move: 0, 0.5 or 1.
    pub result: f32,
    /// Search score for the side to move, if any.
    pub score: Option<i16>,
}

impl Sample {
    pub fn dot(&self, params: &[f64]) -> f64 {
        self.features
            .iter()
            .map(|&(i, c)| params[i as usize] * c as f64)
            .sum()
    }
}

/// The features of a board under `layout`.
pub fn features_of(board: &Board, layout: &Layout) -> Vec<(u32, i16)> {
    let us = board.side_to_move();
    let mut dense: Vec<(u32, i16)> = Vec::with_capacity(128);
    for cell in board.on_board().iter() {
        if !board.is_empty_cell(cell) {
            continue;
        }
        for color in Color::BOTH {
            let index = layout.cell(color, learned::combo(board.pattern_code(color, cell)));
            if layout.fixed(index) {
                continue;
            }
            dense.push((index as u32, if color == us { 1 } else { -1 }));
        }
    }
    for index in layout.threat(us, learned::threat_mask(board)) {
        dense.push((index as u32, 1));
    }
    dense.sort_unstable_by_key(|&(i, _)| i);
    let mut merged: Vec<(u32, i16)> = Vec::with_capacity(dense.len() / 2);
    for (i, c) in dense {
        match merged.last_mut() {
            Some((j, total)) if *j == i => *total += c,
            _ => merged.push((i, c)),
        }
    }
    merged.retain(|&(_, c)| c != 0);
    merged
}

/// The sample of a record.
pub fn sample_of(record: &Record, layout: &Layout) -> Result<Sample, TuneError> {
    let board = record.board()?;
    Ok(Sample {
        features: features_of(&board, layout),
        result: record.result as f32 / 2.0,
        score: record.score,
    })
}
