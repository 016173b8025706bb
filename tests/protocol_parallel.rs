//! The parallel search over the real `pbrain-wuzi`: many short 4-thread searches mixed with
//! `YXSTOP`, `END` and a new engine, `INFO thread_num` changes (also right after `START`) and
//! `RESTART`; every search gets exactly one legal move, nothing deadlocks, nothing panics. And
//! with several threads the process stays under `max_memory` (peak resident size).
//!
//! The stress runs 150 steps; `WUZI_STRESS_STEPS=5000` runs as many as the issue asks for.

mod protocol_support;

use protocol_support::{free_point, play_checked, Engine};
use std::time::Duration;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point, Rule};

/// Generous bound on a reply after `YXSTOP` or a short turn: a lost reply fails, a slow one
/// does not.
const LIVENESS: Duration = Duration::from_secs(10);

fn steps() -> usize {
    wuzi_testkit::env_or("WUZI_STRESS_STEPS", 150)
}

/// A fresh engine on 4 threads with short turns, a game started.
fn fresh(board: &mut Board) -> Engine {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 30");
    e.send("INFO thread_num 4");
    assert_eq!(e.ask("START 15"), "OK");
    *board = Board::new(15, 15, Rule::Freestyle).unwrap();
    e
}

/// A random empty point near the stones (or the centre).
fn near_point(board: &Board, rng: &mut Rng) -> Point {
    let near: Vec<Point> = board
        .empty_points()
        .into_iter()
        .filter(|p| p.x.abs_diff(7) <= 4 && p.y.abs_diff(7) <= 4)
        .collect();
    if near.is_empty() {
        free_point(board)
    } else {
        near[rng.below(near.len())]
    }
}

#[test]
fn many_short_parallel_searches_with_stops_restarts_and_thread_changes() {
    let mut rng = Rng::new(0x5eed_0011);
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    let mut e = fresh(&mut board);
    let mut searches = 0;
    for _ in 0..steps() {
        if board.winner().is_some() || board.empty_points().len() < 20 {
            assert_eq!(e.ask("RESTART"), "OK");
            board = Board::new(15, 15, Rule::Freestyle).unwrap();
        }
        match rng.below(10) {
            // A normal short search: the opponent's move or BEGIN.
            0..=3 => {
                if board.move_count() == 0 {
                    e.send("BEGIN");
                } else {
                    let p = near_point(&board, &mut rng);
                    play_checked(&e, &mut board, p);
                    if board.winner().is_some() {
                        continue;
                    }
                    e.send(&format!("TURN {},{}", p.x, p.y));
                }
                e.play_reply(&mut board);
                searches += 1;
            }
            // A long search stopped at once or after a moment.
            4 | 5 => {
                e.send("INFO timeout_turn 20000");
                e.send(
                    if board.move_count() == 0 {
                        "BEGIN".to_string()
                    } else {
                        let p = near_point(&board, &mut rng);
                        play_checked(&e, &mut board, p);
                        if board.winner().is_some() {
                            e.send("INFO timeout_turn 30");
                            continue;
                        }
                        format!("TURN {},{}", p.x, p.y)
                    }
                    .as_str(),
                );
                if rng.below(2) == 0 {
                    std::thread::sleep(Duration::from_millis(rng.below(20) as u64));
                }
                e.send("YXSTOP");
                e.play_reply(&mut board);
                e.send("INFO timeout_turn 30");
                searches += 1;
            }
            // The thread count changes between moves (0: one per core).
            6 | 7 => {
                let threads = [0, 1, 2, 3, 4, 8][rng.below(6)];
                e.send(&format!("INFO thread_num {threads}"));
            }
            // A new game with a new thread count right after START.
            8 => {
                assert_eq!(e.ask("START 15"), "OK");
                board = Board::new(15, 15, Rule::Freestyle).unwrap();
                e.send(&format!("INFO thread_num {}", 1 + rng.below(4)));
            }
            // END during a search, then a new engine.
            _ => {
                e.send("INFO timeout_turn 20000");
                e.send("BEGIN");
                std::thread::sleep(Duration::from_millis(rng.below(10) as u64));
                e.send("END");
                if e.exit_within(LIVENESS).is_none() {
                    e.fail("END during a 4-thread search did not end the engine");
                }
                let rest = e.remaining_lines();
                if let Some(bad) = rest.iter().find(|l| l.starts_with("ERROR")) {
                    e.fail(&format!("error before exit: {bad}"));
                }
                e = fresh(&mut board);
            }
        }
    }
    assert!(searches > 0, "the stress searched nothing");
    e.send("END");
    if e.exit_within(LIVENESS).is_none() {
        e.fail("END did not end the engine");
    }
}

#[test]
fn yxshowinfo_reports_the_real_thread_maximum() {
    let mut e = Engine::spawn();
    e.send("YXSHOWINFO");
    let mut messages = Vec::new();
    while !messages
        .iter()
        .any(|m: &String| m.contains("MAX_HASH_SIZE"))
    {
        if e.line_within(LIVENESS).map(|l| messages.push(l)).is_none() {
            e.fail("no YXSHOWINFO answer");
        }
    }
    assert!(
        messages.contains(&"MESSAGE INFO MAX_THREAD_NUM 256".to_string()),
        "{messages:?}"
    );
}

#[test]
fn threads_flag_sets_the_default_and_rejects_nonsense() {
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    let mut e = Engine::spawn_with_args(&["--threads", "3"]);
    e.send("INFO timeout_turn 200");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("BEGIN");
    e.play_reply(&mut board);
    let mut bad = Engine::spawn_with_args(&["--threads", "many"]);
    match bad.exit_within(LIVENESS) {
        Some(status) => assert_eq!(status.code(), Some(2)),
        None => bad.fail("a bad --threads value should end the engine"),
    }
}

/// Plays `moves` searched moves on 20x20 and returns the peak resident size.
fn peak_after_searches(e: &mut Engine, moves: usize) -> u64 {
    let mut rng = Rng::new(77);
    let mut board = Board::new(20, 20, Rule::Freestyle).unwrap();
    assert_eq!(e.ask("START 20"), "OK");
    e.send("BEGIN");
    e.play_reply(&mut board);
    for _ in 0..moves {
        let p = free_point(&board);
        let p = if rng.below(2) == 0 {
            p
        } else {
            near_point(&board, &mut rng)
        };
        play_checked(e, &mut board, p);
        if board.winner().is_some() {
            break;
        }
        e.send(&format!("TURN {},{}", p.x, p.y));
        e.play_reply(&mut board);
        if board.winner().is_some() {
            break;
        }
    }
    e.peak_rss()
}

#[test]
fn several_threads_stay_under_max_memory() {
    for (limit, threads) in [(64u64 << 20, 4), (96 << 20, 8)] {
        let mut e = Engine::spawn();
        e.send(&format!("INFO max_memory {limit}"));
        e.send(&format!("INFO thread_num {threads}"));
        e.send("INFO hash_size 1048576"); // 1 GiB asked for, capped by max_memory
        e.send("INFO timeout_turn 700");
        let rss = peak_after_searches(&mut e, 4);
        assert!(rss > 0, "cannot read the engine's memory");
        assert!(
            rss < limit,
            "{threads} threads: peak resident memory {rss} over max_memory {limit}"
        );
    }
}
