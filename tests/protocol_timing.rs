//! Time discipline over pipes: END and YXSTOP during a search, INFO read while thinking, the
//! turn budget with two engines thinking at once, `timeout_turn 0`, start-up, and replies
//! that must not be lost when the manager answers at once.

mod protocol_support;

use std::thread;
use std::time::{Duration, Instant};

use protocol_support::{free_point, play_checked, Engine};
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point, Rule};

/// A middle-game position of `n` stones near the centre with no five, as BOARD lines for the
/// side to move next (field 1 = the engine).
fn midgame(seed: u64, size: usize, n: usize) -> (Board, Vec<String>) {
    let mut rng = Rng::new(seed);
    let mut board = Board::new(size, size, Rule::Freestyle).unwrap();
    let c = size / 2;
    while board.move_count() < n {
        let p = Point::new((c + rng.below(9) - 4) as u8, (c + rng.below(9) - 4) as u8);
        if board.is_empty_at(p) {
            board.play(p).unwrap();
            if board.winner().is_some() || !board.five_points(board.side_to_move()).is_empty() {
                board.undo().unwrap();
            }
        }
    }
    let me = board.side_to_move();
    let lines = board
        .history()
        .iter()
        .map(|(color, p)| format!("{},{},{}", p.x, p.y, if *color == me { 1 } else { 2 }))
        .collect();
    (board, lines)
}

/// An early position (no forced win for either side, so a long search cannot end early):
/// three stones in the middle, White (the engine) to move.
fn early(size: usize) -> (Board, Vec<String>) {
    let c = (size / 2) as u8;
    let mut board = Board::new(size, size, Rule::Freestyle).unwrap();
    let mut lines = Vec::new();
    for (i, (x, y)) in [(c, c), (c + 1, c), (c, c + 1)].into_iter().enumerate() {
        board.play(Point::new(x, y)).unwrap();
        lines.push(format!("{x},{y},{}", if i % 2 == 0 { 2 } else { 1 }));
    }
    (board, lines)
}

fn send_board(e: &mut Engine, lines: &[String]) {
    e.send("BOARD");
    for l in lines {
        e.send(l);
    }
    e.send("DONE");
}

/// Waits until the engine shows it is searching (a progress line) or `wait` passes.
fn wait_for_search(e: &mut Engine, wait: Duration) {
    if let Some(line) = e.line_within(wait) {
        if !line.starts_with("MESSAGE depth") {
            e.fail(&format!("unexpected {line:?} while searching"));
        }
    }
}

#[test]
fn end_during_a_search_exits_promptly_and_silently() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 60000");
    assert_eq!(e.ask("START 20"), "OK");
    let (_, lines) = early(20);
    send_board(&mut e, &lines);
    wait_for_search(&mut e, Duration::from_millis(500));
    let sent = Instant::now();
    e.send("END");
    let status = e.exit_within(Duration::from_secs(5));
    let took = sent.elapsed();
    assert!(status.is_some(), "engine did not exit after END");
    // The contract is 100 ms; the bound here leaves room for a loaded test machine.
    assert!(took < Duration::from_millis(500), "END took {took:?}");
    for line in e.remaining_lines() {
        assert!(line.starts_with("MESSAGE "), "output after END: {line:?}");
    }
}

#[test]
fn end_of_input_exits_too() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 60000");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("TURN 7,7");
    e.close_stdin();
    assert!(e.exit_within(Duration::from_secs(5)).is_some());
}

#[test]
fn yxstop_answers_the_best_move_so_far() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 60000");
    assert_eq!(e.ask("START 20"), "OK");
    let (mut board, lines) = early(20);
    send_board(&mut e, &lines);
    wait_for_search(&mut e, Duration::from_millis(500));
    let sent = Instant::now();
    e.send("YXSTOP");
    let m = e.expect_move();
    assert!(
        sent.elapsed() < Duration::from_secs(2),
        "YXSTOP took {:?}",
        sent.elapsed()
    );
    play_checked(&e, &mut board, m);
}

#[test]
fn info_is_read_while_thinking() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 60000");
    assert_eq!(e.ask("START 20"), "OK");
    let (mut board, lines) = early(20);
    send_board(&mut e, &lines);
    wait_for_search(&mut e, Duration::from_millis(500));
    // New settings arrive mid-search; they must take effect for the next move.
    e.send("INFO timeout_turn 400");
    e.send("INFO time_left 100000");
    e.send("INFO thread_num 2");
    e.send("INFO hash_size 4096");
    e.send("ABOUT");
    let about = e.reply();
    assert!(
        about.starts_with("name=\"wuzi\""),
        "ABOUT during a search: {about:?}"
    );
    e.send("YXSTOP");
    e.play_reply(&mut board);
    let p = board
        .empty_points()
        .into_iter()
        .find(|p| board.clone().is_legal(*p))
        .unwrap();
    let sent = Instant::now();
    e.turn(&mut board, p);
    let m = e.expect_move();
    let took = sent.elapsed();
    assert!(
        took < Duration::from_millis(400 + 600),
        "the 400 ms turn took {took:?}"
    );
    play_checked(&e, &mut board, m);
}

#[test]
fn info_thread_num_right_after_start_does_not_block() {
    for order in [
        &["START 15", "INFO thread_num 2", "BEGIN"][..],
        &[
            "INFO thread_num 4",
            "START 15",
            "INFO thread_num 1",
            "INFO hash_size 1024",
            "BEGIN",
        ],
        &[
            "START 15",
            "INFO thread_num 8",
            "INFO max_memory 83886080",
            "BEGIN",
        ],
    ] {
        let mut e = Engine::spawn();
        e.send("INFO timeout_turn 500");
        // All lines in one write, as fast as a manager can send them.
        let text: String = order.iter().map(|l| format!("{l}\r\n")).collect();
        e.send_raw(text.as_bytes());
        assert_eq!(e.reply(), "OK");
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        e.play_reply(&mut board);
        let p = free_point(&board);
        e.turn(&mut board, p);
        e.play_reply(&mut board);
    }
}

#[test]
fn no_reply_is_lost_when_the_manager_answers_at_once() {
    for turn_ms in [0, 60, 150] {
        let mut e = Engine::spawn();
        e.send(&format!("INFO timeout_turn {turn_ms}"));
        e.send("INFO rule 1");
        assert_eq!(e.ask("START 15"), "OK");
        let mut board = Board::new(15, 15, Rule::Standard).unwrap();
        let mut rng = Rng::new(turn_ms + 1);
        // The test answers each move the moment it arrives, with a random legal move.
        e.send("BEGIN");
        loop {
            e.play_reply(&mut board);
            if board.winner().is_some() || board.is_full() {
                break;
            }
            let free = board.empty_points();
            let p = free[rng.below(free.len())];
            e.turn(&mut board, p);
            if board.winner().is_some() || board.is_full() {
                // The engine still answers; then the game is over.
                let _ = e.reply();
                break;
            }
        }
        assert!(board.move_count() >= 9);
    }
}

#[test]
fn timeout_turn_zero_answers_at_once() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 0");
    assert_eq!(e.ask("START 20"), "OK");
    for seed in [1, 2, 3] {
        let (mut board, lines) = midgame(seed, 20, 20);
        let sent = Instant::now();
        send_board(&mut e, &lines);
        let m = e.expect_move();
        let took = sent.elapsed();
        assert!(
            took < Duration::from_millis(250),
            "timeout_turn 0 took {took:?}"
        );
        play_checked(&e, &mut board, m);
    }
    // Even with no time, a five is taken.
    e.send("BOARD");
    for l in [
        "3,3,1", "10,10,2", "4,3,1", "10,11,2", "5,3,1", "10,12,2", "6,3,1", "0,19,2",
    ] {
        e.send(l);
    }
    e.send("DONE");
    let m = e.expect_move();
    assert!(
        m == Point::new(2, 3) || m == Point::new(7, 3),
        "{m:?} misses the five"
    );
}

#[test]
fn negative_or_small_time_left_answers_quickly() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 30000");
    e.send("INFO timeout_match 180000");
    assert_eq!(e.ask("START 20"), "OK");
    for left in ["-50", "0", "1500"] {
        e.send(&format!("INFO time_left {left}"));
        let (mut board, lines) = midgame(21, 20, 14);
        let sent = Instant::now();
        send_board(&mut e, &lines);
        let m = e.expect_move();
        let took = sent.elapsed();
        assert!(
            took < Duration::from_millis(500),
            "time_left {left}: {took:?}"
        );
        play_checked(&e, &mut board, m);
    }
}

#[test]
fn start_up_and_first_move_fit_the_turn_time() {
    // The referee starts the clock when it starts the engine.
    let mut e = Engine::spawn();
    let (mut board, lines) = midgame(5, 20, 10);
    let mut text = String::from("INFO timeout_turn 1000\r\nSTART 20\r\nBOARD\r\n");
    for l in &lines {
        text.push_str(l);
        text.push_str("\r\n");
    }
    text.push_str("DONE\r\n");
    e.send_raw(text.as_bytes());
    assert_eq!(e.reply(), "OK");
    let m = e.expect_move();
    let took = e.spawned.elapsed();
    assert!(
        took < Duration::from_millis(1000 + 300),
        "first move after {took:?}"
    );
    play_checked(&e, &mut board, m);
}

#[test]
fn two_engines_thinking_at_once_keep_the_turn_time() {
    const TURN_MS: u64 = 1000;
    // A manager accepts a reply up to the turn time plus its own tolerance; pipes and
    // process scheduling on a loaded machine get a few hundred milliseconds here.
    const LIMIT: Duration = Duration::from_millis(TURN_MS + 350);
    let run = |seed: u64| {
        thread::spawn(move || {
            let mut e = Engine::spawn();
            e.send(&format!("INFO timeout_turn {TURN_MS}"));
            e.send("INFO timeout_match 0");
            assert_eq!(e.ask("START 20"), "OK");
            let mut worst = Duration::ZERO;
            for round in 0..4 {
                let (mut board, lines) = midgame(seed * 10 + round, 20, 12 + 2 * round as usize);
                let sent = Instant::now();
                send_board(&mut e, &lines);
                let m = e.expect_move();
                worst = worst.max(sent.elapsed());
                play_checked(&e, &mut board, m);
            }
            worst
        })
    };
    let (a, b) = (run(1), run(2));
    for (name, handle) in [("first", a), ("second", b)] {
        let worst = handle.join().expect("engine thread");
        assert!(
            worst < LIMIT,
            "{name} engine took {worst:?} for a {TURN_MS} ms turn"
        );
    }
}
