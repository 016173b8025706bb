//! Every kind of bad input gets `ERROR <why>` (or `UNKNOWN`) and leaves the position exactly
//! as it was. The position is checked from outside: every stone of the known position must
//! still be there (moving onto it is refused), the bad input's point must still be empty
//! (taking it back is refused), and the game then goes on with legal moves on the test's own
//! copy of the position.

mod protocol_support;

use std::time::Duration;

use protocol_support::{play_checked, Engine};
use wuzi_core::{Board, Point, Rule};

/// An engine in a game after `TURN 10,10` and its answer; returns the test's copy. The
/// opening stone is off centre so that the engine's answer (next to it) never lands on the
/// points the tests probe as empty (1,1 to 5,5).
fn engine_in_game(rule: u32) -> (Engine, Board) {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    e.send(&format!("INFO rule {rule}"));
    assert_eq!(e.ask("START 15"), "OK");
    let r = Rule::from_gomocup(rule).unwrap_or(Rule::Freestyle);
    let mut board = Board::new(15, 15, r).unwrap();
    e.send("TURN 10,10");
    play_checked(&e, &mut board, Point::new(10, 10));
    e.play_reply(&mut board);
    (e, board)
}

/// Checks that the engine's position is `board`, then plays one more exchange.
fn assert_intact(e: &mut Engine, board: &mut Board, probe_empty: &[(u32, u32)]) {
    for (_, p) in board.history() {
        let reply = e.ask(&format!("TURN {},{}", p.x, p.y));
        if !reply.starts_with("ERROR ") {
            e.fail(&format!("stone {p} missing: TURN onto it gave {reply:?}"));
        }
    }
    for &(x, y) in probe_empty {
        let reply = e.ask(&format!("TAKEBACK {x},{y}"));
        if !reply.starts_with("ERROR ") {
            e.fail(&format!("{x},{y} should be empty, TAKEBACK gave {reply:?}"));
        }
    }
    let next = board
        .empty_points()
        .into_iter()
        .find(|&p| board.clone().is_legal(p))
        .unwrap_or_else(|| e.fail("no free point"));
    e.turn(board, next);
    e.play_reply(board);
}

#[test]
fn malformed_commands_get_errors_and_change_nothing() {
    let (mut e, mut board) = engine_in_game(0);
    let bad = [
        "TURN",
        "TURN 5",
        "TURN 5,",
        "TURN ,5",
        "TURN a,b",
        "TURN 5,x",
        "TURN 5,5,1",
        "TURN 5,5 6,6",
        "TURN -1,5",
        "TURN 5,-1",
        "TURN 15,5",
        "TURN 5,15",
        "TURN 4294967296,1",
        "TURN 99999999999999999999,1",
        "TURN 1.5,2",
        "TAKEBACK",
        "TAKEBACK x,y",
        "TAKEBACK 5,5",
        "TAKEBACK 20,20",
        "PLAY 5",
        "PLAY 15,15",
        "START",
        "START x",
        "START 15 15 15",
        "START -15",
        "START 1",
        "START 4",
        "START 33",
        "START 99999999999",
        "RECTSTART 20",
        "RECTSTART 20,4",
        "RECTSTART 4,20",
        "RECTSTART 33,10",
        "RECTSTART x,y",
        "BEGIN now",
        "RESTART please",
        "YXNBEST",
        "YXNBEST x",
        "YXNBEST -2",
        "END now",
        "ABOUT you",
        "INFO timeout_turn",
        "INFO timeout_turn 1 2",
        "INFO max_memory -5",
        "DONE",
    ];
    for line in bad {
        let reply = e.ask(line);
        if !reply.starts_with("ERROR ") || reply.trim() == "ERROR" {
            e.fail(&format!("{line:?} gave {reply:?}, want ERROR <why>"));
        }
    }
    assert_intact(&mut e, &mut board, &[(5, 5)]);
}

#[test]
fn occupied_points_are_refused() {
    let (mut e, mut board) = engine_in_game(0);
    let stones: Vec<Point> = board.history().into_iter().map(|(_, p)| p).collect();
    for p in &stones {
        e.expect_error(&format!("TURN {},{}", p.x, p.y));
        e.expect_error(&format!("PLAY {},{}", p.x, p.y));
    }
    assert_intact(&mut e, &mut board, &[]);
}

#[test]
fn commands_before_start_are_refused() {
    let mut e = Engine::spawn();
    for line in [
        "TURN 7,7",
        "BEGIN",
        "RESTART",
        "TAKEBACK 7,7",
        "PLAY 7,7",
        "YXSHOWFORBID",
        "YXNBEST 2",
    ] {
        let reply = e.expect_error(line);
        assert!(reply.contains("START"), "{reply}");
    }
    e.send("BOARD");
    e.send("7,7,1");
    assert!(e.expect_error("DONE").contains("START"));
    e.send("INFO timeout_turn 300");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("BEGIN");
    let m = e.expect_move();
    play_checked(&e, &mut Board::new(15, 15, Rule::Freestyle).unwrap(), m);
}

#[test]
fn bad_board_blocks_get_one_error_and_change_nothing() {
    let (mut e, mut board) = engine_in_game(0);
    let blocks: [&[&str]; 9] = [
        &["3,3,1", "4,4,0"],
        &["3,3,1", "4,4,4"],
        &["3,3,1", "4,4,x"],
        &["3,3,1", "4,4"],
        &["3,3,1", "3,3,2"],
        &["3,3,1", "15,3,2"],
        &["3,3,1", "-1,3,2"],
        &["3,3,1", "a,3,2"],
        &["3,3,1", "4,4,1,1"],
    ];
    for kind in ["BOARD", "YXBOARD"] {
        for lines in blocks {
            e.send(kind);
            for l in lines {
                e.send(l);
            }
            e.expect_silence(Duration::from_millis(20));
            let reply = e.expect_error("DONE");
            assert!(reply.contains("position unchanged"), "{reply}");
        }
    }
    // A SWAP2BOARD with a stone count other than 0, 3 or 5, or a repeated point.
    for lines in [
        &["3,3"][..],
        &["3,3", "4,4"],
        &["3,3", "4,4", "3,3"],
        &["1,1", "2,2", "3,3", "4,4"],
    ] {
        e.send("SWAP2BOARD");
        for l in lines {
            e.send(l);
        }
        e.expect_error("DONE");
    }
    assert_intact(&mut e, &mut board, &[(3, 3), (4, 4)]);
}

#[test]
fn a_block_cut_short_by_a_command_is_refused_and_the_command_runs() {
    let (mut e, mut board) = engine_in_game(0);
    e.send("BOARD");
    e.send("3,3,1");
    e.send("ABOUT");
    let err = e.reply();
    assert!(err.starts_with("ERROR BOARD ended by"), "{err}");
    assert!(e.reply().starts_with("name=\"wuzi\""));
    assert_intact(&mut e, &mut board, &[(3, 3)]);
}

#[test]
fn long_lines_and_invalid_utf8_are_refused() {
    let (mut e, mut board) = engine_in_game(0);
    // Two megabytes in one line, in one command and as a block line.
    let mut huge = b"TURN ".to_vec();
    huge.extend(vec![b'1'; 2 << 20]);
    huge.extend_from_slice(b",1\r\n");
    e.send_raw(&huge);
    assert!(e.reply().starts_with("ERROR line too long"));
    e.send_raw(b"TURN \xff\xfe,\xc3\x28\r\n");
    assert!(e.reply().starts_with("ERROR line is not valid UTF-8"));
    e.send_raw(b"\xff\r\n");
    assert!(e.reply().starts_with("ERROR "));
    e.send("BOARD");
    e.send_raw(&huge);
    e.send_raw(b"3,3,\xff\r\n");
    let reply = e.expect_error("DONE");
    assert!(reply.contains("too long"), "{reply}");
    // Control characters and NULs are not commands.
    assert!(e.ask("TU\u{0}RN 1,1").starts_with("UNKNOWN "));
    let reply = e.ask("TURN 1,\u{7}1");
    assert!(reply.starts_with("ERROR ") && !reply.contains('\u{7}'));
    assert_intact(&mut e, &mut board, &[(1, 1)]);
}

#[test]
fn renju_forbidden_points_are_refused_for_play() {
    let (mut e, _) = engine_in_game(4);
    // Set up a position with a Black double-three point at (7,7)... built from the current
    // game: Black stones around (3,3) instead, far from the game's first stones.
    e.send("YXBOARD");
    let stones = [
        ((1, 3), 1),
        ((13, 13), 2),
        ((2, 3), 1),
        ((13, 11), 2),
        ((3, 1), 1),
        ((11, 13), 2),
        ((3, 2), 1),
        ((11, 11), 2),
    ];
    let mut fresh = Board::new(15, 15, Rule::Renju).unwrap();
    for ((x, y), f) in stones {
        e.send(&format!("{x},{y},{f}"));
        play_checked(&e, &mut fresh, Point::new(x, y));
    }
    e.send("DONE");
    assert!(fresh.is_forbidden(Point::new(3, 3)));
    let reply = e.expect_error("PLAY 3,3");
    assert!(reply.contains("forbidden"), "{reply}");
    // Black (the engine, to move) answers a legal move, never (3,3).
    e.send("YXNBEST 1");
    e.play_reply(&mut fresh);
    assert_intact(&mut e, &mut fresh, &[]);
}
