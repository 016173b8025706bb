//! The learned evaluation: the committed weights load for every rule, the incremental
//! evaluation equals the from-scratch one after random move sequences, under every rule, and
//! weights expanded from the coarse combos evaluate exactly as the coarse values do.

use proptest::prelude::*;
use std::collections::HashMap;
use wuzi_core::pattern::combine;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Color, Point, Rule, Threat};
use wuzi_eval::eval::{EvalChoice, Evaluator};
use wuzi_eval::learned::{
    evaluate_from_scratch, expand_coarse, threat_mask, Weights, COARSE_COMBO_COUNT, COMBO_COUNT,
    MASK_COUNT,
};

#[test]
fn committed_weights_load_for_every_trained_rule() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        let w = Weights::committed(rule).expect("committed weights");
        assert_eq!(w.rule, rule);
        assert!(matches!(
            EvalChoice::Learned.resolve(rule),
            Evaluator::Learned(_)
        ));
    }
    assert!(Weights::committed(Rule::CaroExact).is_none());
    // Standard has no table of its own: it plays freestyle's values under its own patterns.
    let (free, standard) = (
        Weights::committed(Rule::Freestyle).expect("freestyle"),
        Weights::committed(Rule::Standard).expect("standard"),
    );
    assert_eq!(
        (&free.cell, &free.threat),
        (&standard.cell, &standard.threat)
    );
    assert!(matches!(
        EvalChoice::Learned.resolve(Rule::CaroExact),
        Evaluator::Classic
    ));
}

#[test]
fn a_missing_or_damaged_weights_file_is_an_error() {
    let dir = std::env::temp_dir().join(format!("wuzi-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let missing = dir.join("none.txt");
    let err = EvalChoice::from_arg(missing.to_str().expect("utf-8")).expect_err("missing file");
    assert!(err.to_string().contains("cannot read"), "{err}");
    let text = Weights::committed(Rule::Freestyle)
        .expect("weights")
        .to_text("");
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, &text[..text.len() * 2 / 3]).expect("write");
    let err = EvalChoice::from_arg(cut.to_str().expect("utf-8")).expect_err("cut file");
    assert!(
        err.to_string().contains("incomplete") || err.to_string().contains("line"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Weights with every entry different, so that a wrong lookup shows.
fn scrambled(rule: Rule, seed: u64) -> &'static Weights {
    let mut w = Weights::zero(rule);
    let mut rng = Rng::new(seed);
    let mut next = || (rng.below(2001) as i32 - 1000) as i16;
    for c in 0..2 {
        for i in 0..COMBO_COUNT {
            w.cell[c][i] = next();
        }
        for m in 0..MASK_COUNT {
            w.threat[c][m] = next();
        }
    }
    Box::leak(Box::new(w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    #[test]
    fn incremental_equals_from_scratch(
        rule_index in 0usize..5,
        moves in proptest::collection::vec((0u8..15, 0u8..15, any::<bool>()), 1..90),
        seed in any::<u64>(),
    ) {
        let rule = Rule::ALL[rule_index];
        let weights = scrambled(rule, seed);
        let evaluator = Evaluator::Learned(weights);
        let mut board = Board::new(15, 15, rule).expect("board");
        evaluator.prepare(&mut board);
        for (x, y, undo) in moves {
            if undo && board.move_count() > 0 {
                board.undo().expect("undo");
            } else if board.is_empty_at(Point::new(x, y)) {
                board.play(Point::new(x, y)).expect("move");
            }
            prop_assert_eq!(
                wuzi_eval::learned::evaluate(&board, weights),
                evaluate_from_scratch(&board, weights)
            );
        }
    }
}

/// The coarse combos of format 1: multisets of four coarse pattern indices, in lexicographic
/// order.
fn coarse_combo_index() -> HashMap<[usize; 4], usize> {
    let mut index = HashMap::new();
    for a in 0..12 {
        for b in a..12 {
            for c in b..12 {
                for d in c..12 {
                    let next = index.len();
                    index.insert([a, b, c, d], next);
                }
            }
        }
    }
    assert_eq!(index.len(), COARSE_COMBO_COUNT);
    index
}

/// The evaluation with coarse cell values, read off the board's patterns cell by cell.
fn coarse_evaluation(
    board: &Board,
    coarse: &[Vec<i16>; 2],
    threat: &[Vec<i16>; 2],
    index: &HashMap<[usize; 4], usize>,
) -> i32 {
    let us = board.side_to_move();
    let mut score = i32::from(threat[us.index()][threat_mask(board)]);
    for y in 0..board.height() {
        for x in 0..board.width() {
            let p = Point::new(x as u8, y as u8);
            let Some(cell) = board.cell(p) else { continue };
            if !board.is_empty_cell(cell) {
                continue;
            }
            for color in Color::BOTH {
                let patterns = [0, 1, 2, 3].map(|d| board.pattern_at(color, cell, d));
                let renju_black = board.rule() == Rule::Renju && color == Color::Black;
                if combine(patterns, renju_black).0 == Threat::Forbidden {
                    continue;
                }
                let mut key = patterns.map(|p| p.coarse_index());
                key.sort_unstable();
                let v = i32::from(coarse[color.index()][index[&key]]);
                score += if color == us { v } else { -v };
            }
        }
    }
    score
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Weights whose cell values are expanded from coarse ones evaluate every position as the
    /// coarse values do (what keeps the converted committed tables playing as before).
    #[test]
    fn expanded_coarse_weights_evaluate_as_the_coarse_values(
        rule_index in 0usize..5,
        moves in proptest::collection::vec((0u8..15, 0u8..15), 1..90),
        seed in any::<u64>(),
    ) {
        let rule = Rule::ALL[rule_index];
        let mut rng = Rng::new(seed);
        let mut next = || (rng.below(2001) as i32 - 1000) as i16;
        let coarse = [0, 1].map(|_| (0..COARSE_COMBO_COUNT).map(|_| next()).collect::<Vec<_>>());
        let threat = [0, 1].map(|_| (0..MASK_COUNT).map(|_| next()).collect::<Vec<_>>());
        let weights: &'static Weights = Box::leak(Box::new(Weights {
            rule,
            cell: [expand_coarse(&coarse[0]), expand_coarse(&coarse[1])],
            threat: threat.clone(),
        }));
        let index = coarse_combo_index();
        let mut board = Board::new(15, 15, rule).expect("board");
        Evaluator::Learned(weights).prepare(&mut board);
        for (x, y) in moves {
            if !board.is_empty_at(Point::new(x, y)) || board.winner().is_some() {
                continue;
            }
            board.play(Point::new(x, y)).expect("move");
            let want = coarse_evaluation(&board, &coarse, &threat, &index);
            prop_assert_eq!(wuzi_eval::learned::evaluate(&board, weights), want);
            prop_assert_eq!(evaluate_from_scratch(&board, weights), want);
        }
    }
}
