//! The learned evaluation: the committed weights load for every rule, and the incremental
//! evaluation equals the from-scratch one after random move sequences, under every rule.

use proptest::prelude::*;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point, Rule};
use wuzi_eval::eval::{EvalChoice, Evaluator};
use wuzi_eval::learned::{evaluate_from_scratch, Weights, COMBO_COUNT, MASK_COUNT};

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
