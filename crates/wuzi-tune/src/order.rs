//! The fit of the move-ordering table (`wuzi_search::order_table`): a softmax over the moves
//! the search would try in a position, fitted by gradient descent on the cross-entropy of the
//! move the search found best (the records' move field, `record.rs`).
//!
//! A position's moves are the search's candidates for the threat it faces
//! (`movepick::candidates`), each reduced to its two combos (ours and theirs). The logit of a
//! move is `(own[us][ours] + theirs[us][their]) / ORDER_TEMPERATURE`. The fit starts from the
//! hand-set class scores of each combo and is pulled back to them by an L2 term, so a combo the
//! data rarely shows keeps a sensible score. Rules whose colours play alike (all but renju)
//! share one table between the colours.
//!
//! Deterministic: the full-batch gradient is summed in the samples' order.

use crate::record::Record;
use crate::TuneError;
use wuzi_core::pattern::combine;
use wuzi_core::{Color, Rule};
use wuzi_eval::learned::{combo, combo_patterns, COMBO_COUNT};
use wuzi_search::movepick::{candidates, class_parts, Facing};
use wuzi_search::order_table::{OrderTable, ORDER_TEMPERATURE};

/// One position of the fit: its moves as (our combo, their combo) and which one was best.
#[derive(Clone, Debug)]
pub struct OrderSample {
    /// The side to move's colour index, or 0 for a rule whose colours share a table.
    pub table: usize,
    pub moves: Vec<[u16; 2]>,
    pub best: usize,
}

/// Whether the two colours of `rule` share one ordering table.
pub fn shared_colours(rule: Rule) -> bool {
    rule != Rule::Renju
}

/// Which table of the fit the colour with index `colour` reads under `rule`: its own, or 0
/// when the colours share one.
pub fn table_index(rule: Rule, colour: usize) -> usize {
    if shared_colours(rule) {
        0
    } else {
        colour
    }
}

/// The ordering sample of a record, or `None` when it has no move, its move is not among the
/// candidates, or it leaves no choice.
pub fn order_sample(record: &Record) -> Result<Option<OrderSample>, TuneError> {
    let Some(best) = record.best else {
        return Ok(None);
    };
    let mut board = record.board()?;
    let us = board.side_to_move();
    let Some(best_cell) = board.cell(best) else {
        return Ok(None);
    };
    let facing = Facing::of(&mut board, us);
    let set = candidates(&mut board, us, facing);
    let table = table_index(record.rule, us.index());
    let mut moves = Vec::new();
    let mut best_index = None;
    for cell in set.iter() {
        if !board.may_play(us, cell) {
            continue;
        }
        if cell == best_cell {
            best_index = Some(moves.len());
        }
        let ours = combo(board.pattern_code(us, cell));
        let theirs = combo(board.pattern_code(us.opponent(), cell));
        moves.push([ours as u16, theirs as u16]);
    }
    match best_index {
        Some(best) if moves.len() >= 2 => Ok(Some(OrderSample { table, moves, best })),
        _ => Ok(None),
    }
}

/// The hand-set class scores as parameters (logit units): per table, own then theirs, per
/// combo, from the combo's patterns and their threat class (`movepick::class_parts`). For a
/// renju table the colour decides which shapes are forbidden.
pub fn class_params(rule: Rule) -> Params {
    let mut p = vec![0.0; 4 * COMBO_COUNT];
    for table in 0..2 {
        let colour = if table == 0 {
            Color::Black
        } else {
            Color::White
        };
        let renju_black = rule == Rule::Renju && colour == Color::Black;
        for c in 0..COMBO_COUNT {
            let dirs = combo_patterns(c);
            let (threat, _) = combine(dirs, renju_black);
            let (own, _) = class_parts(dirs, threat);
            p[at(table, 0, c as u16)] = own as f64 / ORDER_TEMPERATURE;
            // What is taken from the opponent is read with the opponent's colour.
            let renju_them = rule == Rule::Renju && colour == Color::White;
            let (threat_them, _) = combine(dirs, renju_them);
            p[at(table, 1, c as u16)] = class_parts(dirs, threat_them).1 as f64 / ORDER_TEMPERATURE;
        }
    }
    p
}

/// Settings of the fit.
#[derive(Clone, Debug)]
pub struct OrderFitConfig {
    pub epochs: usize,
    pub learning_rate: f64,
    /// Weight of the pull back to the start (per parameter, in logit units squared).
    pub l2: f64,
}

/// How well a table orders a set of samples.
#[derive(Clone, Copy, Debug, Default)]
pub struct OrderQuality {
    /// Share of positions whose best move is ordered first (ties count against).
    pub top1: f64,
    /// Share whose best move is among the first three.
    pub top3: f64,
    /// Mean rank of the best move (0 = first).
    pub mean_rank: f64,
    /// Mean cross-entropy of the best move under the softmax of the scores.
    pub loss: f64,
}

/// The parameters: per table (colour), own then theirs, per combo, in logit units.
type Params = Vec<f64>;

fn at(table: usize, side: usize, c: u16) -> usize {
    (table * 2 + side) * COMBO_COUNT + c as usize
}

/// The quality of `score` (a move's score under some ordering) over `samples`.
pub fn quality(samples: &[OrderSample], score: impl Fn(usize, [u16; 2]) -> f64) -> OrderQuality {
    let mut q = OrderQuality::default();
    if samples.is_empty() {
        return q;
    }
    for s in samples {
        let scores: Vec<f64> = s.moves.iter().map(|&m| score(s.table, m)).collect();
        let b = scores[s.best];
        let rank = scores
            .iter()
            .enumerate()
            .filter(|&(i, &v)| i != s.best && v >= b)
            .count();
        q.top1 += (rank == 0) as u8 as f64;
        q.top3 += (rank < 3) as u8 as f64;
        q.mean_rank += rank as f64;
        let max = scores.iter().cloned().fold(f64::MIN, f64::max);
        let sum: f64 = scores.iter().map(|v| (v - max).exp()).sum();
        q.loss += -(b - max - sum.ln());
    }
    let n = samples.len() as f64;
    q.top1 /= n;
    q.top3 /= n;
    q.mean_rank /= n;
    q.loss /= n;
    q
}

/// A move's logit under `params`.
pub fn logit(params: &[f64], table: usize, m: [u16; 2]) -> f64 {
    params[at(table, 0, m[0])] + params[at(table, 1, m[1])]
}

/// Fits the parameters to `samples` from `start` (Adam, full batch), reporting each epoch's
/// training loss to `progress`.
pub fn fit(
    samples: &[OrderSample],
    start: &[f64],
    config: &OrderFitConfig,
    progress: &mut dyn FnMut(usize, f64),
) -> Params {
    let mut p = start.to_vec();
    let (mut m, mut v) = (vec![0.0; p.len()], vec![0.0; p.len()]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let n = samples.len().max(1) as f64;
    for epoch in 1..=config.epochs {
        let mut grad = vec![0.0; p.len()];
        let mut loss = 0.0;
        let mut logits = Vec::new();
        for s in samples {
            logits.clear();
            logits.extend(s.moves.iter().map(|&mv| logit(&p, s.table, mv)));
            let max = logits.iter().cloned().fold(f64::MIN, f64::max);
            let sum: f64 = logits.iter().map(|l| (l - max).exp()).sum();
            loss += -(logits[s.best] - max - sum.ln());
            for (i, (&mv, &l)) in s.moves.iter().zip(&logits).enumerate() {
                let g = ((l - max).exp() / sum - (i == s.best) as u8 as f64) / n;
                grad[at(s.table, 0, mv[0])] += g;
                grad[at(s.table, 1, mv[1])] += g;
            }
        }
        for (g, (&x, &x0)) in grad.iter_mut().zip(p.iter().zip(start)) {
            *g += config.l2 * (x - x0);
        }
        let (c1, c2) = (1.0 - b1.powi(epoch as i32), 1.0 - b2.powi(epoch as i32));
        for i in 0..p.len() {
            m[i] = b1 * m[i] + (1.0 - b1) * grad[i];
            v[i] = b2 * v[i] + (1.0 - b2) * grad[i] * grad[i];
            p[i] -= config.learning_rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
        }
        progress(epoch, loss / n);
    }
    p
}

/// The ordering table of fitted parameters (scaled to ordering points, clamped to `i16`).
pub fn table_of(params: &[f64], rule: Rule) -> OrderTable {
    let mut t = OrderTable::zero(rule);
    let to_i16 = |x: f64| (x * ORDER_TEMPERATURE).round().clamp(-32768.0, 32767.0) as i16;
    for colour in 0..2 {
        let table = table_index(rule, colour);
        for c in 0..COMBO_COUNT as u16 {
            t.own[colour][c as usize] = to_i16(params[at(table, 0, c)]);
            t.theirs[colour][c as usize] = to_i16(params[at(table, 1, c)]);
        }
    }
    t
}

/// The parameters of a table: the inverse of `table_of` (ordering points back to logit
/// units), so a committed table can be scored, or fitted from, like the class scores. For a
/// rule whose colours share a table, black's half is read.
pub fn params_of(table: &OrderTable, rule: Rule) -> Params {
    let mut p = vec![0.0; 4 * COMBO_COUNT];
    let tables = if shared_colours(rule) { 1 } else { 2 };
    for colour in 0..tables {
        for c in 0..COMBO_COUNT as u16 {
            p[at(colour, 0, c)] = table.own[colour][c as usize] as f64 / ORDER_TEMPERATURE;
            p[at(colour, 1, c)] = table.theirs[colour][c as usize] as f64 / ORDER_TEMPERATURE;
        }
    }
    p
}
