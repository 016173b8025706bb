//! Static evaluation, from the side to move's point of view, out of the core's incremental
//! pattern sums and threat bitboards: no board scan.
//!
//! The board keeps, per colour, the sum over every empty cell of a cell value looked up from
//! the cell's four line patterns (`Board::value_sum`); `cell_value` below chooses the values
//! and `prepare` installs the table built from it (once per rule, cached).
//! Renju: the tables already give Black's overline and double-four lines no value, so those
//! points are dead for Black; caro's blocked fives are no fives in the tables.
//!
//! Immediate tactics (a five, a forced block, an open four) are not scored here: the search
//! resolves them before it ever asks for an evaluation.
//!
//! Two evaluations share this shape: the hand-set one below (`EvalChoice::Classic`) and the
//! learned one of `learned.rs`, whose weights are fitted from games. [`Evaluator`] is the one a
//! search resolved from its [`EvalChoice`] and the board's rule.

use crate::learned::{self, Weights};
use std::sync::OnceLock;
use wuzi_core::pattern::CombinedTable;
use wuzi_core::{flag, Board, Color, Pattern, Rule, Threat};

/// Value of each coarse pattern (`Pattern::COARSE`: Dead, B1, F1, B2, F2, B3, F3, B4, F4, Five,
/// FourFour, Overline), indexed by `Pattern::coarse_index`: the hand-set evaluation values
/// the fine classes as their coarse ones.
pub const PATTERN_VALUES: [i32; 12] = [0, 1, 3, 5, 14, 16, 50, 40, 200, 500, 0, 0];

/// Extra value of a cell by what it makes over all four lines (shapes that combine).
fn threat_bonus(threat: Threat) -> i32 {
    match threat {
        Threat::DoubleTwo => 10,
        Threat::ThreeTwo => 25,
        Threat::DoubleThree => 120,
        Threat::FourThree => 200,
        _ => 0,
    }
}

/// The value of an empty cell for one colour: its line patterns plus how they combine. A
/// renju forbidden point is worth nothing to Black.
pub fn cell_value(_color: Color, patterns: [Pattern; 4], threat: Threat) -> i32 {
    if threat == Threat::Forbidden {
        return 0;
    }
    patterns
        .iter()
        .map(|&p| PATTERN_VALUES[p.coarse_index()])
        .sum::<i32>()
        + threat_bonus(threat)
}

fn table(rule: Rule) -> &'static CombinedTable {
    static TABLES: [OnceLock<CombinedTable>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    TABLES[rule.index()].get_or_init(|| CombinedTable::build(rule, cell_value))
}

/// Bonus for having the move.
const TEMPO: i32 = 12;
/// Per empty cell where a side makes a four (its threes, closed or open).
const FOUR_CELL: i32 = 8;
/// When the opponent threatens an open four (has an open three) that we must answer.
const OPPONENT_OPEN_THREE: i32 = 60;

/// Evaluation clamp, far from proven-result scores.
pub const EVAL_LIMIT: i32 = 20_000;

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EvalChoice {
    /// The learned weights in the rules where they beat the hand-set ones in a match
    /// (`LEARNED_BY_DEFAULT`), the hand-set evaluation elsewhere.
    #[default]
    Auto,
    /// The hand-set evaluation, the yardstick.
    Classic,
    /// The committed learned weights of the board's rule (hand-set where it has none).
    Learned,
    /// These weights where the board's rule is theirs; `Auto` in other rules.
    Weights(&'static Weights),
}

/// The rules whose committed learned weights won their match against the hand-set
/// evaluation (`docs/evaluation.md`).
pub const LEARNED_BY_DEFAULT: &[Rule] = &[Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro];

impl EvalChoice {
    /// Reads a command-line value: `auto`, `classic`, `learned`, or the path of a weights
    /// file (loaded now, and kept for the process).
    pub fn from_arg(arg: &str) -> Result<EvalChoice, learned::WeightsError> {
        match arg {
            "auto" => Ok(EvalChoice::Auto),
            "classic" => Ok(EvalChoice::Classic),
            "learned" => Ok(EvalChoice::Learned),
            path => {
                let weights = Weights::load(std::path::Path::new(path))?;
                Ok(EvalChoice::Weights(Box::leak(Box::new(weights))))
            }
        }
    }

    /// The evaluator for `rule`.
    pub fn resolve(self, rule: Rule) -> Evaluator {
        let committed = || Weights::committed(rule).map_or(Evaluator::Classic, Evaluator::Learned);
        match self {
            EvalChoice::Classic => Evaluator::Classic,
            EvalChoice::Learned => committed(),
            EvalChoice::Weights(w) if w.rule == rule => Evaluator::Learned(w),
            EvalChoice::Auto | EvalChoice::Weights(_) => {
                if LEARNED_BY_DEFAULT.contains(&rule) {
                    committed()
                } else {
                    Evaluator::Classic
                }
            }
        }
    }
}

/// A resolved evaluation: what `evaluate` computes at a leaf.
#[derive(Clone, Copy, Debug)]
pub enum Evaluator {
    Classic,
    Learned(&'static Weights),
}

impl Evaluator {
    /// Installs this evaluation's cell values into a board (once per search).
    pub fn prepare(self, board: &mut Board) {
        match self {
            Evaluator::Classic => prepare(board),
            Evaluator::Learned(w) => board.set_combined_table(w.combined_table()),
        }
    }

    /// The static evaluation for the side to move; the board must have been prepared.
    #[inline]
    pub fn evaluate(self, board: &Board) -> i32 {
        match self {
            Evaluator::Classic => evaluate(board),
            Evaluator::Learned(w) => learned::evaluate(board, w).clamp(-EVAL_LIMIT, EVAL_LIMIT),
        }
    }
}

/// The hand-set evaluation as learned weights, as near as the learned model can say it: the
/// same cell values, and the global terms mapped onto the threat buckets (the count of four
/// points saturates at two). The trainer starts from here.
pub fn classic_as_weights(rule: Rule) -> Weights {
    let mut w = Weights::zero(rule);
    for color in Color::BOTH {
        for (combo, slot) in w.cell[color.index()].iter_mut().enumerate() {
            let patterns = learned::combo_patterns(combo);
            let renju_black = rule == Rule::Renju && color == Color::Black;
            let threat = wuzi_core::pattern::combine(patterns, renju_black).0;
            *slot = cell_value(color, patterns, threat).clamp(-32_768, 32_767) as i16;
        }
        for (mask, slot) in w.threat[color.index()].iter_mut().enumerate() {
            let f = learned::mask_fields(mask);
            let (our_fours, their_fours, their_open_fours) = (f[0], f[2], f[4]);
            let mut v = TEMPO + FOUR_CELL * (our_fours as i32 - their_fours as i32);
            if their_open_fours > 0 {
                v -= OPPONENT_OPEN_THREE;
            }
            *slot = v as i16;
        }
    }
    w
}

/// Installs the hand-set evaluation's cell values into a board (once per search).
pub fn prepare(board: &mut Board) {
    board.set_combined_table(table(board.rule()));
}

/// Installs cell values that are a weight per threat class (the textbook oracle's
/// evaluation). Tables are built once per rule and weights and kept for the process.
pub fn prepare_threat_weights(board: &mut Board, weights: [i32; 14]) {
    type Cache = Vec<(Rule, [i32; 14], &'static CombinedTable)>;
    static CACHE: std::sync::Mutex<Cache> = std::sync::Mutex::new(Vec::new());
    let rule = board.rule();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let table = match cache.iter().find(|(r, w, _)| *r == rule && *w == weights) {
        Some(&(_, _, t)) => t,
        None => {
            let t: &'static CombinedTable =
                Box::leak(Box::new(CombinedTable::build(rule, |_, _, threat| {
                    weights[threat as usize]
                })));
            cache.push((rule, weights, t));
            t
        }
    };
    board.set_combined_table(table);
}

/// The cell values of the side to move minus the opponent's, nothing else.
#[inline]
pub fn material(board: &Board) -> i32 {
    let us = board.side_to_move();
    board.value_sum(us) - board.value_sum(us.opponent())
}

/// The hand-set static evaluation for the side to move.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    let us = board.side_to_move();
    let them = us.opponent();
    let mut score = board.value_sum(us) - board.value_sum(them) + TEMPO;
    score += FOUR_CELL * (count(board, us, flag::FOUR) - count(board, them, flag::FOUR));
    if !board.cells_making(them, flag::OPEN_FOUR).is_empty() {
        score -= OPPONENT_OPEN_THREE;
    }
    score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
}

#[inline]
fn count(board: &Board, color: Color, f: u8) -> i32 {
    board.cells_making(color, f).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::{Point, Rule};

    #[test]
    fn more_shape_scores_higher_and_is_antisymmetric_in_the_stones() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
        prepare(&mut board);
        board.play(Point::new(7, 7)).expect("move");
        board.play(Point::new(0, 0)).expect("move");
        board.play(Point::new(8, 7)).expect("move");
        // White to move, Black has a two in the centre and White a stone in the corner.
        let white_view = evaluate(&board);
        assert!(white_view < 0, "{white_view}");
    }
}
