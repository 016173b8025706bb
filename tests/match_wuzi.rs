//! `pbrain-wuzi` through the match runner under renju (balanced openings, forbidden-move
//! adjudication on) and on a rectangular board, two games at once: every game ends regularly,
//! and the engine's `MESSAGE` search lines land in the message log.

use std::path::PathBuf;
use std::time::Duration;

use wuzi_core::Rule;
use wuzi_match::clock::TimeControl;
use wuzi_match::opening::load_suite;
use wuzi_match::{MatchConfig, MatchSummary};
use wuzi_protocol::SearchInfo;
use wuzi_testkit::data::openings_dir;
use wuzi_testkit::matches::{assert_regular_ends, play_within, wuzi};

fn scratch(name: &str) -> PathBuf {
    wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("match-wuzi-{name}"))
}

fn quick(cfg: &mut MatchConfig) {
    cfg.time = TimeControl {
        turn: Duration::from_millis(150),
        game: Some(Duration::from_secs(10)),
        // The engines here are debug builds, four starting at once on two cores: START
        // alone can take most of a second. This test is about the games, not the clock
        // (tests/protocol_timing.rs is), so the tolerance is generous.
        tolerance: Duration::from_secs(3),
    };
    cfg.max_memory = 128 << 20;
    cfg.concurrency = 2;
    cfg.max_moves = Some(40);
}

fn play(cfg: MatchConfig) -> MatchSummary {
    let summary = play_within(Duration::from_secs(100), cfg);
    assert_regular_ends(&summary);
    summary
}

#[test]
fn renju_with_balanced_openings_and_a_message_log() {
    let dir = scratch("renju");
    let suite = openings_dir().join("renju15-katagomo-balanced200.txt");
    let mut cfg = MatchConfig::new(wuzi("wuzi-a"), wuzi("wuzi-b"));
    quick(&mut cfg);
    cfg.rule = Rule::Renju;
    cfg.openings = load_suite(&suite).expect("suite")[..2].to_vec();
    cfg.games = 4;
    cfg.message_log = Some(dir.join("messages.log"));
    cfg.sgf = Some(dir.join("renju.sgf"));
    let summary = play(cfg);
    assert_eq!(summary.games.len(), 4);

    let log = std::fs::read_to_string(dir.join("messages.log")).expect("message log");
    let infos: Vec<SearchInfo> = log
        .lines()
        .filter_map(|l| l.split_once(": MESSAGE ").map(|(_, t)| t))
        .filter_map(|t| t.parse().ok())
        .collect();
    assert!(infos.len() >= 10, "search lines logged:\n{log}");
    assert!(infos.iter().any(|i| i.depth >= 2));
    for game in 1..=4 {
        assert!(
            log.contains(&format!("game {game} move")),
            "game {game} in the log"
        );
    }
    let sgf = std::fs::read_to_string(dir.join("renju.sgf")).expect("sgf");
    assert_eq!(sgf.matches("RU[renju]").count(), 4);
}

#[test]
fn rectangular_board() {
    let mut cfg = MatchConfig::new(wuzi("wuzi-a"), wuzi("wuzi-b"));
    quick(&mut cfg);
    (cfg.width, cfg.height) = (20, 15);
    cfg.games = 2;
    cfg.max_moves = Some(24);
    let summary = play(cfg);
    assert_eq!(summary.games.len(), 2);
    for g in &summary.games {
        assert!(g.moves.iter().all(|m| m.point.x < 20 && m.point.y < 15));
    }
}
