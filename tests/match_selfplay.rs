//! `pbrain-wuzi` against itself through the match runner, at a short time control with two
//! games at once on this 2-core machine: every game must end regularly (five, full board or the
//! move limit), none by time or any fault. Also checks that the runner adjudicated the fives
//! itself correctly (replayed with wuzi-core).

use std::time::Duration;

use wuzi_core::{Board, Color};
use wuzi_match::clock::TimeControl;
use wuzi_match::opening::load_suite;
use wuzi_match::{EndReason, MatchConfig};
use wuzi_testkit::data::openings_dir;
use wuzi_testkit::matches::{assert_regular_ends, play_within, wuzi};

#[test]
fn selfplay_at_short_time_control_two_at_once_has_no_time_losses() {
    let suite = openings_dir().join("freestyle15-gomocup2026.txt");
    let mut cfg = MatchConfig::new(wuzi("wuzi-a"), wuzi("wuzi-b"));
    cfg.openings = load_suite(&suite).expect("opening suite")[..2].to_vec();
    cfg.games = 4;
    cfg.concurrency = 2;
    // 200 ms a move and 6 s a game per engine, with a 500 ms tolerance (half of Gomocup's;
    // the start-up time counts in each engine's first move): a move that overruns by more, or
    // a game clock run down, is a time loss.
    cfg.time = TimeControl {
        turn: Duration::from_millis(200),
        game: Some(Duration::from_secs(6)),
        tolerance: Duration::from_millis(500),
    };
    cfg.max_memory = 128 << 20;
    cfg.max_moves = Some(60);
    let summary = play_within(Duration::from_secs(100), cfg);
    println!("{}", summary.stats.report(["wuzi-a", "wuzi-b"]));
    for g in &summary.games {
        let slowest = g.moves.iter().map(|m| m.time).max().unwrap_or_default();
        println!(
            "game {}: {} moves, {}, time used {:?}, slowest move {slowest:?}",
            g.index + 1,
            g.moves.len(),
            g.reason,
            g.time_used
        );
    }
    assert_eq!(summary.games.len(), 4);
    assert_regular_ends(&summary);
    for g in &summary.games {
        if g.reason == EndReason::Five {
            let mut board = Board::new(15, 15, wuzi_core::Rule::Freestyle).unwrap();
            for m in &g.moves {
                board.play(m.point).unwrap();
            }
            let last = if g.moves.len() % 2 == 1 {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(board.winner(), Some(last));
            assert_eq!(g.winner, Some(last));
        }
        for (id, used) in g.time_used.iter().enumerate() {
            assert!(
                *used <= Duration::from_millis(6500),
                "engine {id} used {used:?}"
            );
        }
    }
    assert_eq!(summary.stats.reasons.get("time"), None);
}
