//! The move-ordering fit: its starting table is exactly the hand-set class ordering, it
//! learns a known preference from data made with it, and the samples are the search's
//! candidates.

use wuzi_core::{Board, Color, Rule};
use wuzi_search::movepick::{candidates, class_score, Facing};
use wuzi_search::order_table::{OrderTable, ORDER_TEMPERATURE};
use wuzi_testkit::position::random_positions;
use wuzi_tune::order::{self, OrderFitConfig};
use wuzi_tune::record::Record;

/// Positions of random play (6 to 40 stones) on 15x15, no five on the board.
fn random_boards(count: usize, rule: Rule, seed: u64) -> Vec<Board> {
    random_positions(count, rule, 6, 35, seed)
}

#[test]
fn the_starting_table_orders_like_the_class_scores() {
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
        let table = order::table_of(&order::class_params(rule), rule);
        for mut board in random_boards(60, rule, 11) {
            let us = board.side_to_move();
            for cell in board.on_board().and_not(&board.occupied()).iter() {
                if !board.may_play(us, cell) {
                    continue;
                }
                let class = class_score(&board, us, cell);
                // Parts above the i16 range (a five made or taken) are clamped in a table.
                if class < i16::MAX as i32 {
                    assert_eq!(
                        table.score(&board, us, cell),
                        class,
                        "{rule}, {us:?} at {:?}\n{board:?}",
                        board.point(cell)
                    );
                }
            }
        }
    }
}

#[test]
fn a_sample_holds_the_search_s_candidates_and_its_best_move() {
    let mut seen = 0;
    for mut board in random_boards(40, Rule::Freestyle, 5) {
        let us = board.side_to_move();
        let facing = Facing::of(&mut board, us);
        let set = candidates(&mut board, us, facing);
        let legal: Vec<_> = set.iter().filter(|&c| board.may_play(us, c)).collect();
        let Some(&best) = legal.last() else { continue };
        let record = Record::of(&board, 1, Some(0))
            .expect("record")
            .with_best(board.point(best));
        let sample = order::order_sample(&record).expect("sample");
        if legal.len() < 2 {
            assert!(sample.is_none());
            continue;
        }
        let sample = sample.expect("a choice");
        assert_eq!(sample.moves.len(), legal.len());
        assert_eq!(sample.best, legal.len() - 1);
        seen += 1;
    }
    assert!(seen > 20);
    // A record without a move gives no sample.
    let board = random_boards(1, Rule::Freestyle, 9).remove(0);
    let record = Record::of(&board, 1, Some(0)).expect("record");
    assert!(order::order_sample(&record).expect("no error").is_none());
}

#[test]
fn the_fit_learns_a_preference_the_class_scores_lack() {
    // The best move is always the one that takes the most from the opponent, whatever it
    // makes for the side to move: the class scores weigh attack above defence and rank it
    // first less often than a fitted table should.
    let rule = Rule::Freestyle;
    let start = order::class_params(rule);
    let theirs_truth = |b: &Board, us: Color, c| {
        let t = order::table_of(&start, rule);
        t.theirs[us.index()][wuzi_eval::learned::combo(b.pattern_code(us.opponent(), c))]
    };
    let mut samples = Vec::new();
    for mut board in random_boards(400, rule, 21) {
        let us = board.side_to_move();
        let facing = Facing::of(&mut board, us);
        let set = candidates(&mut board, us, facing);
        let legal: Vec<_> = set.iter().filter(|&c| board.may_play(us, c)).collect();
        let Some(&best) = legal
            .iter()
            .max_by_key(|&&c| (theirs_truth(&board, us, c), c))
        else {
            continue;
        };
        let record = Record::of(&board, 1, Some(0))
            .expect("record")
            .with_best(board.point(best));
        if let Some(s) = order::order_sample(&record).expect("sample") {
            samples.push(s);
        }
    }
    let config = OrderFitConfig {
        epochs: 300,
        learning_rate: 0.1,
        l2: 0.0,
    };
    let fitted = order::fit(&samples, &start, &config, &mut |_, _| {});
    let before = order::quality(&samples, |t, m| order::logit(&start, t, m));
    let after = order::quality(&samples, |t, m| order::logit(&fitted, t, m));
    assert!(after.loss < before.loss, "{before:?} -> {after:?}");
    assert!(after.top1 > before.top1 + 0.1, "{before:?} -> {after:?}");
    // The table written from the fit reads back the same.
    let table = order::table_of(&fitted, rule);
    assert_eq!(OrderTable::parse(&table.to_text("test"), rule), Ok(table));
}

#[test]
fn a_committed_table_read_back_as_parameters_is_the_same_table() {
    let mut seen = 0;
    for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju, Rule::Caro] {
        let Some(table) = OrderTable::committed(rule) else {
            continue;
        };
        seen += 1;
        let params = order::params_of(table, rule);
        assert_eq!(&order::table_of(&params, rule), table, "{rule}");
        // The logit of a move is its table score in logit units.
        for board in random_boards(10, rule, 3) {
            let us = board.side_to_move();
            let t = order::table_index(rule, us.index());
            for cell in board.on_board().and_not(&board.occupied()).iter() {
                let m = [
                    wuzi_eval::learned::combo(board.pattern_code(us, cell)) as u16,
                    wuzi_eval::learned::combo(board.pattern_code(us.opponent(), cell)) as u16,
                ];
                let logit = order::logit(&params, t, m);
                let score = table.score(&board, us, cell) as f64 / ORDER_TEMPERATURE;
                assert!((logit - score).abs() < 1e-9, "{rule}: {logit} vs {score}");
            }
        }
    }
    assert!(seen >= 1, "no rule has a committed table");
}
