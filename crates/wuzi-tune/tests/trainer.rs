//! The trainer recovers known weights from data labelled with them, the records file format
//! round-trips and refuses damage, and data generation is the same on any thread count.

use wuzi_core::rng::Rng;
use wuzi_core::{Board, Rule};
use wuzi_eval::learned::COMBO_COUNT;
use wuzi_testkit::position::random_positions;
use wuzi_tune::features::{features_of, Layout, Sample};
use wuzi_tune::record::{read_records, Record, RECORD_BYTES};
use wuzi_tune::trainer::{self, sigmoid, TrainConfig};

/// Positions of random play (10 to 40 stones) on 15x15, no five on the board.
fn random_boards(count: usize, rule: Rule, seed: u64) -> Vec<Board> {
    random_positions(count, rule, 10, 31, seed)
}

#[test]
fn the_trainer_recovers_known_weights() {
    let rule = Rule::Freestyle;
    let layout = Layout::for_rule(rule);
    let k = 400.0;
    let mut rng = Rng::new(7);
    let truth: Vec<f64> = (0..layout.len())
        .map(|i| {
            if layout.fixed(i) {
                0.0
            } else if i < 2 * COMBO_COUNT {
                (rng.unit() - 0.5) * 100.0
            } else {
                (rng.unit() - 0.5) * 400.0
            }
        })
        .collect();
    let samples: Vec<Sample> = random_boards(6000, rule, 11)
        .iter()
        .map(|b| {
            let features = features_of(b, &layout);
            let mut s = Sample {
                features,
                result: 0.0,
                score: None,
            };
            s.result = sigmoid(s.dot(&truth) / k) as f32;
            s
        })
        .collect();
    let (train, validation) = samples.split_at(5400);
    let config = TrainConfig {
        epochs: 150,
        batch: 512,
        learning_rate: 4.0,
        result_weight: 1.0,
        l2: 0.0,
        seed: 3,
    };
    let start = vec![0.0; layout.len()];
    let mut last = None;
    let fitted = trainer::train(&layout, train, validation, &start, k, &config, &mut |r| {
        last = Some(r.validation_loss)
    });
    // Support of each parameter in the training data, and of each threat mask.
    let mut support = vec![0usize; layout.len()];
    for s in train {
        for &(i, _) in &s.features {
            support[i as usize] += 1;
        }
    }
    // Cell weights are known up to one shared shift (every position has as many empty cells
    // for each side).
    let mut shifts: Vec<f64> = (0..2 * COMBO_COUNT)
        .filter(|&i| support[i] >= 300)
        .map(|i| fitted[i] - truth[i])
        .collect();
    shifts.sort_by(f64::total_cmp);
    let shift = shifts[shifts.len() / 2];
    let mut checked = 0;
    for i in 0..2 * COMBO_COUNT {
        if support[i] < 300 {
            continue;
        }
        assert!(
            (fitted[i] - truth[i] - shift).abs() < 12.0,
            "cell parameter {i} (support {}): fitted {:.1}, true {:.1}",
            support[i],
            fitted[i] - shift,
            truth[i]
        );
        checked += 1;
    }
    assert!(
        checked >= 40,
        "only {checked} well-supported cell parameters"
    );
    // Threat factors are known through their sums: the mask table.
    let (true_table, fitted_table) = (layout.weights(&truth), layout.weights(&fitted));
    let mut mask_support = std::collections::HashMap::new();
    for b in random_boards(6000, rule, 11).iter().take(5400) {
        let key = (b.side_to_move(), wuzi_eval::learned::threat_mask(b));
        *mask_support.entry(key).or_insert(0usize) += 1;
    }
    let mut masks_checked = 0;
    for (&(color, mask), &n) in &mask_support {
        if n < 300 {
            continue;
        }
        let (t, f) = (
            true_table.threat[color.index()][mask],
            fitted_table.threat[color.index()][mask],
        );
        assert!(
            (t - f).abs() < 15,
            "mask {mask} of {color:?} (support {n}): fitted {f}, true {t}"
        );
        masks_checked += 1;
    }
    assert!(masks_checked >= 2, "{masks_checked} threat masks checked");
    // The fit predicts held-out positions as the truth does, far better than the start.
    let error = |params: &[f64]| {
        validation
            .iter()
            .map(|s| (sigmoid(s.dot(params) / k) - s.result as f64).abs())
            .sum::<f64>()
            / validation.len() as f64
    };
    let (before, after) = (error(&start), error(&fitted));
    assert!(
        after < 0.02 && after < before / 4.0,
        "mean held-out error {before:.4} -> {after:.4}"
    );
    assert!(last.is_some());
}

#[test]
fn records_round_trip_and_damage_is_refused() {
    let dir = std::env::temp_dir().join(format!("wuzi-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let boards = random_boards(20, Rule::Renju, 5);
    let records: Vec<Record> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            Record::of(b, (i % 3) as u8, (i % 2 == 0).then_some(i as i16 - 7)).expect("record")
        })
        .collect();
    let path = dir.join("r.bin");
    let mut out = Vec::new();
    wuzi_tune::record::write_records(&mut out, &records).expect("write");
    std::fs::write(&path, &out).expect("write");
    let back = read_records(&path).expect("read");
    assert_eq!(back, records);
    for (r, b) in back.iter().zip(&boards) {
        let rebuilt = r.board().expect("board");
        assert_eq!(rebuilt.side_to_move(), b.side_to_move());
        assert_eq!(rebuilt.to_text(), b.to_text());
    }
    // A cut file and a bad byte are refused with a reason.
    std::fs::write(&path, &out[..out.len() - 5]).expect("write");
    let err = read_records(&path).expect_err("cut");
    assert!(err.to_string().contains("whole number"), "{err}");
    let mut bad = out.clone();
    bad[RECORD_BYTES + 2] = 77;
    std::fs::write(&path, &bad).expect("write");
    let err = read_records(&path).expect_err("bad rule");
    assert!(err.to_string().contains("record 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_move_field_round_trips_and_old_records_still_read() {
    let dir = wuzi_testkit::scratch(std::env::temp_dir(), "records-move");
    let boards = random_boards(12, Rule::Freestyle, 8);
    let records: Vec<Record> = boards
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let empty = b.empty_points();
            let mut r = Record::of(b, 2, Some(i as i16 * 10)).expect("record");
            if i % 3 != 0 {
                r = r.with_best(empty[(i * 37) % empty.len()]);
            }
            r.proven = i % 4 == 1;
            r
        })
        .collect();
    let mut bytes = Vec::new();
    wuzi_tune::record::write_records(&mut bytes, &records).expect("write");
    let path = dir.join("m.bin");
    std::fs::write(&path, &bytes).expect("write");
    assert_eq!(read_records(&path).expect("read"), records);
    // A record of the format before the move field (its bytes 112.. all zero) reads with no
    // move; these bytes are exactly what that format wrote.
    let mut old = records[1].clone();
    old.best = None;
    old.proven = false;
    let old_bytes = old.encode();
    assert!(old_bytes[112..].iter().all(|&b| b == 0));
    assert_eq!(old_bytes[5], 0);
    assert_eq!(Record::decode(&old_bytes, 0).expect("old record"), old);
    // Damage: an unknown field version, a move off the board or on a stone, an unknown flag,
    // a proven win without a score.
    let good = records[1].encode();
    let stone = (0..225)
        .find(|&i| records[1].cells[i].is_some())
        .expect("a stone");
    let damaged = [
        (112, 2, "version"),
        (113, 15, "off the board"),
        (114, 200, "off the board"),
        (5, 4, "flags"),
        (5, 3, "without a score"),
    ];
    for (at, value, why) in damaged {
        let mut bad = good;
        bad[at] = value;
        let err = Record::decode(&bad, 5).expect_err(why);
        assert!(
            err.to_string().contains(why) && err.to_string().contains("record 5"),
            "{why}: {err}"
        );
    }
    let mut bad = good;
    bad[113] = (stone % 15) as u8;
    bad[114] = (stone / 15) as u8;
    let err = Record::decode(&bad, 0).expect_err("on a stone");
    assert!(err.to_string().contains("on a stone"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn datagen_is_the_same_on_any_thread_count() {
    let config = wuzi_tune::datagen::DatagenConfig {
        rule: Rule::Standard,
        size: 15,
        games: 4,
        nodes: 300,
        seed: 9,
        openings: Vec::new(),
        random_share: 1.0,
        suite_random_plies: 2,
        balance_limit: 400,
        max_plies: 60,
        eval: wuzi_eval::eval::EvalChoice::Classic,
        proven_wins: false,
    };
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let mut out = Vec::new();
        let summary = pool
            .install(|| wuzi_tune::datagen::run(&config, &mut out, &|_| {}))
            .expect("datagen");
        (summary, out)
    };
    let (one, bytes_one) = run(1);
    let (two, bytes_two) = run(2);
    assert_eq!(one, two);
    assert_eq!(bytes_one, bytes_two);
    assert_eq!(one.games, 4);
    assert!(one.positions > 0);
    assert_eq!(bytes_one.len(), one.positions * RECORD_BYTES);
    // Every position carries the move that was played from it, a legal one.
    let dir = wuzi_testkit::scratch(std::env::temp_dir(), "datagen-moves");
    let path = dir.join("d.bin");
    std::fs::write(&path, &bytes_one).expect("write");
    for r in read_records(&path).expect("read") {
        let best = r.best.expect("a move");
        let mut board = r.board().expect("board");
        assert!(board.is_empty_at(best) && board.is_legal(best));
        assert!(!r.proven);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
