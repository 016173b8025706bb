//! Every broken engine is adjudicated correctly, and the runner never hangs: the test engine
//! in each of its broken modes against a legal random mover.

mod common;

use std::time::Duration;

use common::{config, engine, play};
use wuzi_core::notation::{Diagram, Marks};
use wuzi_core::{Color, ForbiddenKind, Point, Rule};
use wuzi_match::{EndReason, GameResult, MatchError};
use wuzi_testkit::matches::run_within;
use wuzi_testkit::position::ONLY_FORBIDDEN_LEFT_7X7;

/// Plays `bad` against a random mover (two games, each colour once) and returns the games;
/// checks that the bad engine lost both.
fn bad_engine_loses(bad_args: &[&str]) -> Vec<GameResult> {
    let cfg = config(
        engine("bad", bad_args),
        engine("good", &["random", "--seed", "5"]),
    );
    let summary = play(cfg);
    assert_eq!(summary.games.len(), 2, "both games played");
    for g in &summary.games {
        assert_eq!(g.winning_engine(), Some(1), "{:?}: {}", bad_args, g.reason);
    }
    assert_eq!(summary.stats.total[1].wins, 2);
    assert_eq!(summary.stats.by_color[0][0].losses, 1, "lost once as Black");
    assert_eq!(summary.stats.by_color[0][1].losses, 1, "lost once as White");
    summary.games
}

#[test]
fn a_crash_loses_and_the_engine_is_restarted() {
    // It answers two moves, then exits: the second game needs a new process.
    let games = bad_engine_loses(&["random", "--crash-after", "2"]);
    for g in &games {
        match &g.reason {
            EndReason::Crash(how) => assert!(how.contains("exit code 3"), "{how}"),
            other => panic!("expected a crash, got {other}"),
        }
        let own_moves = g.moves.len() / 2;
        assert!(
            own_moves >= 2,
            "it did play two moves first: {}",
            g.moves.len()
        );
    }
}

#[test]
fn a_crash_on_the_first_move_loses() {
    let games = bad_engine_loses(&["crash"]);
    assert!(games.iter().all(|g| g.reason.key() == "crash"));
}

#[test]
fn a_hung_engine_loses_on_time_and_is_killed() {
    let cfg = config(engine("bad", &["hang"]), engine("good", &["random"]));
    let (r, took) = run_within(Duration::from_secs(30), cfg);
    let summary = r.expect("match");
    for g in &summary.games {
        assert_eq!(g.winning_engine(), Some(1));
        match &g.reason {
            EndReason::Time(why) => {
                assert!(
                    why.contains("killed") && why.contains("turn limit"),
                    "{why}"
                )
            }
            other => panic!("expected a time loss, got {other}"),
        }
    }
    // Two waits of 300 + 200 ms; far less than any hang.
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn an_engine_that_never_answers_start_loses_on_time() {
    let games = bad_engine_loses(&["hangstart"]);
    for g in &games {
        assert_eq!(g.reason.key(), "time");
        assert_eq!(g.moves.len(), 0, "no move was played");
        assert!(g.reason.to_string().contains("OK to START"), "{}", g.reason);
    }
}

#[test]
fn an_occupied_point_loses() {
    let games = bad_engine_loses(&["occupied"]);
    for g in &games {
        let EndReason::Occupied(p) = g.reason else {
            panic!("expected occupied, got {}", g.reason);
        };
        assert!(g.moves.iter().any(|m| m.point == p), "{p} was taken");
    }
}

#[test]
fn a_point_off_the_board_loses() {
    let games = bad_engine_loses(&["offboard"]);
    for g in &games {
        assert_eq!(g.reason, EndReason::OffBoard { x: 15, y: 15 });
    }
}

#[test]
fn garbage_output_loses() {
    let games = bad_engine_loses(&["garbage"]);
    for g in &games {
        assert_eq!(g.reason, EndReason::Garbage("hello there".into()));
    }
}

#[test]
fn a_reply_that_is_no_move_loses() {
    let games = bad_engine_loses(&["notmove"]);
    for g in &games {
        assert_eq!(g.reason.key(), "protocol", "{}", g.reason);
    }
}

#[test]
fn an_error_to_start_loses() {
    let games = bad_engine_loses(&["errorstart"]);
    for g in &games {
        assert!(
            g.reason.to_string().contains("START refused"),
            "{}",
            g.reason
        );
    }
}

#[test]
fn a_slow_engine_loses_on_time_without_being_waited_for() {
    // 2 s a move against 300 ms + 200 ms: the runner stops waiting at 500 ms.
    let cfg = config(
        engine("bad", &["random", "--delay", "2000"]),
        engine("good", &["random"]),
    );
    let (r, took) = run_within(Duration::from_secs(30), cfg);
    let summary = r.expect("match");
    for g in &summary.games {
        assert_eq!(g.winning_engine(), Some(1));
        assert_eq!(g.reason.key(), "time", "{}", g.reason);
    }
    assert!(
        took < Duration::from_secs(4),
        "the runner waited for the slow engine: {took:?}"
    );
}

#[test]
fn slow_moves_inside_the_tolerance_are_charged_to_the_game_clock() {
    // 350 ms a move: over the 300 ms turn limit but inside its 200 ms tolerance, so no move
    // loses by the turn limit; but all of it is charged to a 1000 ms game clock, and the
    // engine runs out of game time after three or four moves.
    let mut cfg = config(
        engine("slow", &["random", "--delay", "350"]),
        engine("good", &["random"]),
    );
    cfg.time.game = Some(Duration::from_millis(1000));
    cfg.games = 1;
    let summary = play(cfg);
    let g = &summary.games[0];
    assert_eq!(g.winning_engine(), Some(1), "{}", g.reason);
    let why = g.reason.to_string();
    assert!(why.contains("game clock"), "{why}");
    let slow_moves = g.moves.iter().step_by(2).count();
    assert!((2..=4).contains(&slow_moves), "{slow_moves} moves: {why}");
}

/// Scripted fives: each engine makes five on its own row, Black first.
#[test]
fn five_in_a_row_wins_for_the_side_that_made_it() {
    let row = |y: usize| -> Vec<String> { (0..5).map(|x| format!("{x},{y}")).collect() };
    let a: Vec<String> = ["script".to_string()].into_iter().chain(row(0)).collect();
    let b: Vec<String> = ["script".to_string()].into_iter().chain(row(5)).collect();
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let b: Vec<&str> = b.iter().map(String::as_str).collect();
    let summary = play(config(engine("a", &a), engine("b", &b)));
    assert_eq!(summary.games.len(), 2);
    for g in &summary.games {
        assert_eq!(g.reason, EndReason::Five);
        assert_eq!(
            g.winner,
            Some(Color::Black),
            "Black completes its five first"
        );
        assert_eq!(g.moves.len(), 9);
        assert_eq!(g.winning_engine(), Some(g.black));
    }
    assert_eq!(summary.stats.total[0].wins, 1);
    assert_eq!(summary.stats.total[0].losses, 1);
    assert_eq!(summary.stats.black_wins, 2);
}

#[test]
fn black_loses_by_a_forbidden_double_three_under_renju() {
    let black = ["script", "5,7", "6,7", "7,5", "7,6", "7,7"];
    let white = ["script", "0,0", "2,0", "4,0", "14,14", "12,14"];
    let mut cfg = config(engine("black", &black), engine("white", &white));
    cfg.rule = Rule::Renju;
    cfg.games = 1;
    let summary = play(cfg);
    let g = &summary.games[0];
    assert_eq!(g.reason, EndReason::Forbidden(ForbiddenKind::DoubleThree));
    assert_eq!(g.winner, Some(Color::White));
    assert_eq!(g.winning_engine(), Some(1));
    // The forbidden stone was played: it is the last move of the record.
    assert_eq!(g.moves.len(), 9);
    assert_eq!(g.moves[8].point, Point::new(7, 7));
}

#[test]
fn the_same_double_three_is_legal_in_freestyle() {
    let black = ["script", "5,7", "6,7", "7,5", "7,6", "7,7"];
    let white = ["script", "0,0", "2,0", "4,0", "14,14", "12,14"];
    let mut cfg = config(engine("black", &black), engine("white", &white));
    cfg.games = 1;
    cfg.max_moves = Some(10);
    let g = &play(cfg).games[0];
    assert_eq!(g.reason, EndReason::MoveLimit(10));
    assert_eq!(g.moves[8].point, Point::new(7, 7));
}

#[test]
fn a_full_board_is_a_draw() {
    // A 5x5 colouring without five of a colour in any line: 13 Black, 12 White.
    let black = [
        "1,0", "2,0", "3,0", "4,0", "0,1", "3,1", "4,1", "0,2", "1,2", "4,2", "1,3", "3,3", "1,4",
    ];
    let white = [
        "0,0", "1,1", "2,1", "2,2", "3,2", "0,3", "2,3", "4,3", "0,4", "2,4", "3,4", "4,4",
    ];
    let b: Vec<&str> = ["script"].into_iter().chain(black).collect();
    let w: Vec<&str> = ["script"].into_iter().chain(white).collect();
    let mut cfg = config(engine("b", &b), engine("w", &w));
    (cfg.width, cfg.height) = (5, 5);
    cfg.games = 1;
    let summary = play(cfg);
    let g = &summary.games[0];
    assert_eq!(g.reason, EndReason::FullBoard);
    assert_eq!(g.winner, None);
    assert_eq!(g.moves.len(), 25);
    assert_eq!(summary.stats.total[0].draws, 1);
}

#[test]
fn the_move_limit_is_a_draw() {
    let mut cfg = config(engine("a", &["random"]), engine("b", &["random"]));
    cfg.max_moves = Some(6);
    let summary = play(cfg);
    for g in &summary.games {
        assert_eq!(g.reason, EndReason::MoveLimit(6));
        assert_eq!(g.moves.len(), 6);
    }
    assert_eq!(summary.stats.draws, 2);
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_with_a_clear_error() {
    let mut bad = engine("missing", &[]);
    bad.cmd = "/nonexistent/pbrain-nothing".into();
    let cfg = config(bad, engine("good", &["random"]));
    let (r, took) = run_within(Duration::from_secs(20), cfg);
    match r {
        Err(MatchError::Spawn(e)) => {
            let text = e.to_string();
            assert!(
                text.contains("missing") && text.contains("/nonexistent/pbrain-nothing"),
                "{text}"
            );
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
    assert!(took < Duration::from_secs(5));
}

#[test]
fn crashes_at_two_games_at_once_are_all_adjudicated() {
    let mut cfg = config(
        engine("bad", &["random", "--crash-after", "1"]),
        engine("good", &["random"]),
    );
    cfg.games = 6;
    cfg.concurrency = 2;
    let summary = play(cfg);
    assert_eq!(summary.games.len(), 6);
    let indices: Vec<usize> = summary.games.iter().map(|g| g.index).collect();
    assert_eq!(indices, (0..6).collect::<Vec<_>>());
    assert!(summary.games.iter().all(|g| g.reason.key() == "crash"));
    assert_eq!(summary.stats.faults[0].get("crash"), Some(&6));
}

#[test]
fn a_move_written_without_being_asked_loses() {
    // The copy is caught as output nobody asked for; should the runner's reader thread be
    // held up long enough that the copy shows up only after the next request, it is taken as
    // the answer, and it is the engine's own stone: occupied. When the next request is the
    // RESTART between games, the copy is taken as the answer to it: a protocol violation.
    // A loss for a reason, whichever way the race goes.
    let games = bad_engine_loses(&["twice"]);
    for g in &games {
        let why = g.reason.to_string();
        let own_stone = matches!(g.reason, EndReason::Occupied(p) if {
            let i = g.moves.iter().position(|m| m.point == p).unwrap_or(0);
            g.moves.len() % 2 == i % 2
        });
        let copy_answered_restart = why.contains("to RESTART");
        assert!(
            why.contains("without being asked") || own_stone || copy_answered_restart,
            "{why}"
        );
    }
}

#[cfg(target_os = "linux")]
#[test]
fn memory_over_max_memory_loses_when_enforced() {
    let mut cfg = config(
        engine("big", &["random", "--alloc", "64"]),
        engine("small", &["random"]),
    );
    cfg.max_memory = 32 << 20;
    cfg.enforce_memory = true;
    cfg.max_moves = Some(20);
    let summary = play(cfg);
    for g in &summary.games {
        match g.reason {
            EndReason::Memory { bytes, limit } => {
                assert_eq!(limit, 32 << 20);
                assert!(bytes > limit);
            }
            ref other => panic!("expected a memory loss, got {other}"),
        }
        assert_eq!(g.winning_engine(), Some(1));
    }
    // Not enforced: the same engines play on to the move limit.
    let mut cfg = config(
        engine("big", &["random", "--alloc", "64"]),
        engine("small", &["random"]),
    );
    cfg.max_memory = 32 << 20;
    cfg.max_moves = Some(20);
    let summary = play(cfg);
    assert!(summary
        .games
        .iter()
        .all(|g| g.reason == EndReason::MoveLimit(20)));
}

#[test]
fn an_engine_flooding_messages_loses_on_time() {
    let cfg = config(engine("bad", &["flood"]), engine("good", &["random"]));
    let (r, took) = run_within(Duration::from_secs(30), cfg);
    for g in &r.expect("match").games {
        assert_eq!(g.winning_engine(), Some(1));
        assert_eq!(g.reason.key(), "time", "{}", g.reason);
    }
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn an_endless_line_is_garbage() {
    let games = bad_engine_loses(&["longline"]);
    for g in &games {
        let EndReason::Garbage(text) = &g.reason else {
            panic!("expected garbage, got {}", g.reason);
        };
        assert!(text.starts_with("xxxx") && text.ends_with("..."), "{text}");
    }
}

#[test]
fn renju_black_left_with_only_forbidden_points_draws() {
    // The two sides play out `ONLY_FORBIDDEN_LEFT_7X7`; after its 48 stones the one empty
    // point would give Black an overline. The referee must call the draw instead of asking
    // Black for a move it cannot make.
    let diagram = Diagram::from_rows(ONLY_FORBIDDEN_LEFT_7X7, Marks::XO).expect("diagram");
    let points = |color: Color| -> Vec<String> {
        let stones = diagram.stones.iter().filter(|(c, _)| *c == color);
        std::iter::once("script".to_string())
            .chain(stones.map(|(_, p)| p.to_string()))
            .collect()
    };
    let (black, white) = (points(Color::Black), points(Color::White));
    let black: Vec<&str> = black.iter().map(String::as_str).collect();
    let white: Vec<&str> = white.iter().map(String::as_str).collect();
    let mut cfg = config(engine("b", &black), engine("w", &white));
    (cfg.width, cfg.height) = (7, 7);
    cfg.rule = Rule::Renju;
    cfg.games = 1;
    let summary = play(cfg);
    let g = &summary.games[0];
    assert_eq!(g.reason, EndReason::NoLegalMove, "{}", g.reason);
    assert_eq!(g.winner, None);
    assert_eq!(g.moves.len(), 48);
    assert_eq!(summary.stats.total[0].draws, 1);
}
