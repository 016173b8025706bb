//! Resident memory stays under `max_memory`, whatever `hash_size` asks for, and start-up
//! touches no big allocation.

mod protocol_support;

use protocol_support::Engine;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point, Rule};

/// Plays `moves` searched moves from a middle-game position on 20x20.
fn play_searched_moves(e: &mut Engine, moves: usize, seed: u64) {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(20, 20, Rule::Freestyle).unwrap();
    assert_eq!(e.ask("START 20"), "OK");
    e.send("BEGIN");
    e.play_reply(&mut board);
    for _ in 0..moves {
        let near: Vec<Point> = board
            .empty_points()
            .into_iter()
            .filter(|p| p.x.abs_diff(10) <= 4 && p.y.abs_diff(10) <= 4)
            .collect();
        let p = near[rng.below(near.len())];
        e.turn(&mut board, p);
        if board.winner().is_some() {
            break;
        }
        e.play_reply(&mut board);
        if board.winner().is_some() {
            break;
        }
    }
}

#[test]
fn start_up_touches_no_big_allocation() {
    let mut e = Engine::spawn();
    e.send("INFO max_memory 367001600");
    assert_eq!(e.ask("START 20"), "OK");
    assert_eq!(e.ask("START 15"), "OK");
    let rss = e.peak_rss();
    assert!(rss > 0, "cannot read the engine's memory");
    assert!(rss < 24 << 20, "idle engine already holds {rss} bytes");
}

#[test]
fn a_huge_hash_size_is_capped_by_max_memory() {
    const LIMIT: u64 = 64 << 20;
    let mut e = Engine::spawn();
    e.send(&format!("INFO max_memory {LIMIT}"));
    e.send("INFO hash_size 1048576"); // 1 GiB
    e.send("INFO timeout_turn 1200");
    play_searched_moves(&mut e, 4, 9);
    let rss = e.peak_rss();
    assert!(rss > 0, "cannot read the engine's memory");
    assert!(
        rss < LIMIT,
        "peak resident memory {rss} over max_memory {LIMIT}"
    );
}

#[test]
fn gomocup_memory_limit_holds_with_the_default_table() {
    const LIMIT: u64 = 367_001_600;
    let mut e = Engine::spawn();
    e.send(&format!("INFO max_memory {LIMIT}"));
    e.send("INFO timeout_turn 2000");
    play_searched_moves(&mut e, 3, 4);
    let rss = e.peak_rss();
    assert!(rss > 0, "cannot read the engine's memory");
    assert!(
        rss < LIMIT,
        "peak resident memory {rss} over max_memory {LIMIT}"
    );
}
