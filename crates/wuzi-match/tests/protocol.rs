//! What the referee sends, as the test engine logged it: START/RECTSTART, the INFO settings
//! and per-engine options, the first move as BOARD (or BEGIN) and later ones as TURN; and the
//! records and message log a match writes.

mod common;

use std::time::Duration;

use common::{config, engine, openings_dir, play, scratch};
use wuzi_match::opening::{load_suite, Opening};

fn lines(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn settings_then_board_first_then_turn() {
    let dir = scratch("protocol");
    let (log_a, log_b) = (dir.join("a.log"), dir.join("b.log"));
    let mut a = engine("a", &["random", "--log", log_a.to_str().unwrap()]);
    a.options.push(("thread_num".into(), "2".into()));
    let b = engine("b", &["random", "--log", log_b.to_str().unwrap()]);
    let mut cfg = config(a, b);
    cfg.games = 1;
    cfg.max_moves = Some(9);
    cfg.time.game = Some(Duration::from_secs(20));
    // (7,7) Black, (8,7) White, (8,10) Black: White (engine b) moves first.
    cfg.openings = vec![Opening::parse("0,0, 1,0, 1,3", "test").unwrap()];
    let summary = play(cfg);
    assert_eq!(summary.games[0].reason.key(), "move-limit");

    let a = lines(&log_a);
    assert_eq!(a[0], "START 15");
    let settings = [
        "INFO timeout_turn 300",
        "INFO timeout_match 20000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO time_left 20000",
        "INFO thread_num 2",
    ];
    assert_eq!(&a[1..8], settings);
    // Engine a is Black: its first move comes as BOARD with four stones, its own first.
    assert_eq!(a[8], "INFO time_left 20000");
    assert_eq!(&a[9..13], ["BOARD", "7,7,1", "8,7,2", "8,10,1"]);
    assert!(
        a[13].ends_with(",2"),
        "White's reply as a stone line: {}",
        a[13]
    );
    assert_eq!(a[14], "DONE");
    let turns: Vec<&String> = a.iter().filter(|l| l.starts_with("TURN ")).collect();
    assert_eq!(turns.len(), 2, "{a:?}");
    assert!(!a.iter().any(|l| l == "BEGIN"));
    assert_eq!(a.iter().filter(|l| *l == "BOARD").count(), 1);

    let b = lines(&log_b);
    assert_eq!(b[0], "START 15");
    assert!(
        !b.iter().any(|l| l.starts_with("INFO thread_num")),
        "options are per engine"
    );
    let board = b.iter().position(|l| l == "BOARD").expect("BOARD");
    assert_eq!(
        &b[board + 1..board + 5],
        ["7,7,2", "8,7,1", "8,10,2", "DONE"]
    );
    // The game clock counts down in the time_left sent before each move.
    let left: Vec<i64> = b
        .iter()
        .filter_map(|l| l.strip_prefix("INFO time_left "))
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(
        left.len() >= 4 && left.windows(2).all(|w| w[1] <= w[0]),
        "{left:?}"
    );
}

#[test]
fn empty_board_starts_with_begin_and_rectangles_with_rectstart() {
    let dir = scratch("rect");
    let log_a = dir.join("a.log");
    let a = engine("a", &["random", "--log", log_a.to_str().unwrap()]);
    let mut cfg = config(a, engine("b", &["random"]));
    (cfg.width, cfg.height) = (20, 15);
    cfg.games = 1;
    cfg.max_moves = Some(4);
    play(cfg);
    let a = lines(&log_a);
    assert_eq!(a[0], "RECTSTART 20,15");
    assert!(a.contains(&"BEGIN".to_string()), "{a:?}");
    assert!(!a.contains(&"BOARD".to_string()));
}

#[test]
fn engines_are_reused_between_games_and_get_restart_or_start_each_game() {
    let dir = scratch("reuse");
    let log_a = dir.join("a.log");
    let log_b = dir.join("b.log");
    let a = engine("a", &["random", "--log", log_a.to_str().unwrap()]);
    // b refuses RESTART: it gets START after that, and RESTART never again.
    let b = engine(
        "b",
        &["random", "--no-restart", "--log", log_b.to_str().unwrap()],
    );
    for restart in [true, false] {
        for log in [&log_a, &log_b] {
            let _ = std::fs::remove_file(log);
        }
        let mut cfg = config(a.clone(), b.clone());
        cfg.games = 3;
        cfg.max_moves = Some(4);
        cfg.restart = restart;
        let summary = play(cfg);
        assert_eq!(summary.stats.reasons.get("move-limit"), Some(&3));
        let count = |lines: &[String], word: &str| lines.iter().filter(|l| *l == word).count();
        let (la, lb) = (lines(&log_a), lines(&log_b));
        if restart {
            assert_eq!((count(&la, "START 15"), count(&la, "RESTART")), (1, 2));
            assert_eq!((count(&lb, "START 15"), count(&lb, "RESTART")), (3, 1));
        } else {
            assert_eq!((count(&la, "START 15"), count(&la, "RESTART")), (3, 0));
        }
        assert_eq!(
            la.last().map(String::as_str),
            Some("END"),
            "asked to quit at the end"
        );
    }
}

#[test]
fn frozen_engines_play_on_and_quit() {
    let dir = scratch("freeze");
    let log_a = dir.join("a.log");
    let a = engine("a", &["random", "--log", log_a.to_str().unwrap()]);
    let mut cfg = config(a, engine("b", &["random", "--messages"]));
    cfg.games = 4;
    cfg.max_moves = Some(12);
    cfg.freeze = true;
    let summary = play(cfg);
    assert_eq!(summary.stats.reasons.get("move-limit"), Some(&4));
    let la = lines(&log_a);
    assert_eq!(la.last().map(String::as_str), Some("END"), "thawed to quit");
}

#[test]
fn stderr_is_kept_per_engine() {
    let dir = scratch("stderr");
    // The test engine prints its usage on stderr when the mode is unknown, and exits.
    let mut a = engine("a/x", &["no-such-mode"]);
    let mut b = engine("b", &["random"]);
    wuzi_match::engine::stderr_logs(std::slice::from_mut(&mut a), &dir).expect("dir");
    wuzi_match::engine::stderr_logs(std::slice::from_mut(&mut b), &dir).expect("dir");
    let mut cfg = config(a, b);
    cfg.games = 1;
    play(cfg);
    let text = std::fs::read_to_string(dir.join("a_x.stderr.log")).expect("a's log");
    assert!(text.contains("usage: pbrain-testengine"), "{text}");
    assert_eq!(
        std::fs::read_to_string(dir.join("b.stderr.log")).ok(),
        Some(String::new())
    );
}

#[test]
fn engines_run_in_their_working_directory_with_their_arguments() {
    let dir = scratch("workdir");
    // A relative --log path lands in the engine's working directory.
    let mut a = engine("a", &["random", "--log", "relative.log"]);
    a.dir = Some(dir.clone());
    let mut cfg = config(a, engine("b", &["random"]));
    cfg.games = 1;
    cfg.max_moves = Some(2);
    play(cfg);
    let log = lines(&dir.join("relative.log"));
    assert_eq!(log[0], "START 15");
}

#[test]
fn fresh_processes_for_every_game_when_asked() {
    let dir = scratch("fresh");
    let log_a = dir.join("a.log");
    let a = engine("a", &["random", "--log", log_a.to_str().unwrap()]);
    let mut cfg = config(a, engine("b", &["random"]));
    cfg.games = 3;
    cfg.max_moves = Some(4);
    cfg.fresh_process = true;
    play(cfg);
    let a = lines(&log_a);
    // Three processes, each started once and asked to quit once.
    assert_eq!(a.iter().filter(|l| *l == "START 15").count(), 3);
    assert_eq!(a.iter().filter(|l| *l == "END").count(), 3);
}

#[test]
fn records_and_message_log() {
    let dir = scratch("records");
    let suite = load_suite(&openings_dir().join("freestyle15-gomocup2026.txt")).unwrap();
    let mut cfg = config(
        engine("alpha", &["random", "--messages", "--seed", "3"]),
        engine("beta", &["random", "--seed", "4"]),
    );
    cfg.openings = suite[..2].to_vec();
    cfg.games = 4;
    cfg.max_moves = Some(30);
    cfg.sgf = Some(dir.join("match.sgf"));
    cfg.psq_dir = Some(dir.join("psq"));
    cfg.message_log = Some(dir.join("messages.log"));
    let summary = play(cfg);
    assert_eq!(summary.games.len(), 4);

    let sgf = std::fs::read_to_string(dir.join("match.sgf")).unwrap();
    assert_eq!(sgf.matches("(;GM[4]FF[4]").count(), 4, "{sgf}");
    for want in [
        "PB[alpha]",
        "PW[alpha]",
        "PB[beta]",
        "RU[freestyle]",
        "freestyle15-gomocup2026.txt:1",
        "OT[300 ms per move",
    ] {
        assert!(sgf.contains(want), "{want} missing:\n{sgf}");
    }
    // Each game's moves: the opening first, in order, as SGF points.
    let g0 = &summary.games[0];
    let first = g0.moves[0].point;
    let name = format!(
        ";B[{}{}]",
        (b'a' + first.x) as char,
        (b'a' + first.y) as char
    );
    assert!(sgf.contains(&name), "{name}");

    let psq: Vec<_> = std::fs::read_dir(dir.join("psq")).unwrap().collect();
    assert_eq!(psq.len(), 4);
    let p = lines(&dir.join("psq").join("game-0001.psq"));
    assert_eq!(p[0], "Piskvorky 15x15, 11:11, 0");
    let moves = p
        .iter()
        .skip(1)
        .take_while(|l| l.split(',').count() == 3)
        .count();
    assert_eq!(moves, g0.moves.len());

    let log = lines(&dir.join("messages.log"));
    assert!(!log.is_empty());
    assert!(
        log.iter()
            .all(|l| l.contains("alpha") && l.contains("MESSAGE testengine move")),
        "{log:?}"
    );
    assert!(
        log.iter().any(|l| l.starts_with("game 4 ")),
        "all games logged"
    );
}

#[test]
fn random_opening_order_is_seeded_and_pairs_swap_colours() {
    let suite = load_suite(&openings_dir().join("freestyle15-gomocup2024.txt")).unwrap();
    let make = |seed| {
        let mut cfg = config(engine("a", &["random"]), engine("b", &["random"]));
        cfg.openings = suite.clone();
        cfg.order = wuzi_match::opening::Order::Random;
        cfg.seed = seed;
        cfg.games = 8;
        cfg.schedule().unwrap()
    };
    let (x, y, z) = (make(1), make(1), make(2));
    assert_eq!(x, y);
    assert_ne!(x, z);
    for pair in x.chunks(2) {
        assert_eq!(pair[0].opening, pair[1].opening);
        assert_eq!((pair[0].black, pair[1].black), (0, 1));
    }
    let distinct: std::collections::BTreeSet<_> = x.iter().map(|s| s.opening).collect();
    assert_eq!(distinct.len(), 4);
}
