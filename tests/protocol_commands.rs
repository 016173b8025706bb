//! Every command's exact reply, over pipes.

mod protocol_support;

use std::time::Duration;

use protocol_support::{free_point, play_checked, Engine, PROMPT};
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::{Reply, SearchInfo};

fn quick(engine: &mut Engine) {
    engine.send("INFO timeout_turn 300");
}

#[test]
fn about_is_answered_first_and_any_time() {
    let mut e = Engine::spawn();
    let about = e.ask("ABOUT");
    let Ok(Reply::About(fields)) = Reply::parse(&about) else {
        e.fail(&format!("bad ABOUT answer {about:?}"));
    };
    let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        ["name", "version", "author", "country", "www", "email"]
    );
    assert_eq!(fields[0].1, "wuzi");
    assert_eq!(e.ask("START 15"), "OK");
    assert_eq!(e.ask("about"), about);
}

#[test]
fn start_rectstart_restart_answer_ok_exactly() {
    for eol in ["\r\n", "\n"] {
        let mut e = Engine::spawn_with_eol(eol);
        quick(&mut e);
        assert_eq!(e.ask("START 15"), "OK");
        assert_eq!(e.ask("start 20"), "OK");
        assert_eq!(e.ask("RECTSTART 20,15"), "OK");
        assert_eq!(e.ask("RESTART"), "OK");
        assert_eq!(e.ask("START 5"), "OK");
        assert_eq!(e.ask("START 32"), "OK");
        e.expect_error("START 4");
        e.expect_error("START 33");
        e.expect_error("START 0");
        e.expect_error("RECTSTART 40,10");
    }
}

#[test]
fn begin_turn_and_board_answer_moves_in_lf_and_crlf() {
    for eol in ["\r\n", "\n"] {
        let mut e = Engine::spawn_with_eol(eol);
        quick(&mut e);
        assert_eq!(e.ask("START 15"), "OK");
        let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
        e.send("BEGIN");
        e.play_reply(&mut board);
        let p = free_point(&board);
        e.turn(&mut board, p);
        e.play_reply(&mut board);
        e.send("BOARD");
        for line in ["7,7,1", "8,8,2", "9,9,1", "10,10,2"] {
            e.send(line);
        }
        e.expect_silence(Duration::from_millis(100));
        e.send("DONE");
        let m = e.expect_move();
        let taken = [(7, 7), (8, 8), (9, 9), (10, 10)].map(|(x, y)| Point::new(x, y));
        assert!(!taken.contains(&m));
    }
}

#[test]
fn commands_are_case_insensitive_and_blank_lines_ignored() {
    let mut e = Engine::spawn();
    quick(&mut e);
    e.send("");
    e.send("   ");
    assert_eq!(e.ask("sTaRt 15"), "OK");
    e.send("");
    e.send("Turn 7,7");
    let m = e.expect_move();
    assert_ne!(m, Point::new(7, 7));
    assert_eq!(e.ask("takeBACK 7,7"), "OK");
    assert!(e.ask("yxSHOWforbid").starts_with("FORBID "));
}

#[test]
fn unknown_commands_get_unknown() {
    let mut e = Engine::spawn();
    assert_eq!(e.ask("FOO"), "UNKNOWN FOO");
    assert_eq!(e.ask("SUGGEST 1,1"), "UNKNOWN SUGGEST");
    assert_eq!(e.ask("7,7,1"), "UNKNOWN 7,7,1");
    assert_eq!(e.ask("START 15"), "OK");
}

#[test]
fn takeback_and_play() {
    let mut e = Engine::spawn();
    quick(&mut e);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("TURN 7,7");
    let reply = e.expect_move();
    assert_eq!(e.ask(&format!("TAKEBACK {},{}", reply.x, reply.y)), "OK");
    // The engine's stone is gone: the point is free again.
    assert_eq!(
        e.ask(&format!("PLAY {},{}", reply.x, reply.y)),
        format!("{},{}", reply.x, reply.y)
    );
    assert_eq!(e.ask(&format!("TAKEBACK {},{}", reply.x, reply.y)), "OK");
    assert_eq!(e.ask("TAKEBACK 7,7"), "OK");
    e.expect_error("TAKEBACK 7,7");
    // Now the board is empty: the engine moves as Black.
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    e.send("BEGIN");
    let first = e.play_reply(&mut board);
    let p = free_point(&board);
    e.turn(&mut board, p);
    let m = e.expect_move();
    assert_eq!(e.ask(&format!("TAKEBACK {},{}", m.x, m.y)), "OK");
    // PLAY places the engine's move and echoes it.
    let q = free_point(&board);
    assert_eq!(
        e.ask(&format!("PLAY {},{}", q.x, q.y)),
        format!("{},{}", q.x, q.y)
    );
    e.expect_error(&format!("PLAY {},{}", q.x, q.y));
    e.expect_error(&format!("TURN {},{}", first.x, first.y));
}

#[test]
fn info_is_silent_unknown_keys_ignored_bad_values_rejected() {
    let mut e = Engine::spawn();
    for line in [
        "INFO timeout_turn 1000",
        "INFO timeout_match 180000",
        "INFO time_left 180000",
        "INFO max_memory 367001600",
        "INFO game_type 1",
        "INFO rule 0",
        "INFO folder /tmp/some folder",
        "INFO thread_num 2",
        "INFO hash_size 1024",
        "INFO max_depth 0",
        "INFO max_node 0",
        "INFO show_detail 1",
        "INFO evaluate 7,7",
        "INFO some_future_key whatever value",
        "INFO caution_factor",
    ] {
        e.send(line);
    }
    e.expect_silence(Duration::from_millis(200));
    for bad in [
        "INFO timeout_turn soon",
        "INFO timeout_turn -1",
        "INFO max_memory 12MB",
        "INFO rule",
        "INFO",
    ] {
        e.expect_error(bad);
    }
    assert_eq!(e.ask("START 15"), "OK");
}

#[test]
fn unsupported_rule_is_an_error_at_the_next_game_command() {
    let mut e = Engine::spawn();
    quick(&mut e);
    e.send("INFO rule 3");
    e.expect_silence(Duration::from_millis(100));
    let err = e.expect_error("START 15");
    assert!(err.contains("rule 3"), "{err}");
    e.send("INFO rule 12");
    assert!(e.expect_error("START 15").contains("rule 12"));
    // ABOUT still works; a good rule makes the engine playable again.
    assert!(e.ask("ABOUT").starts_with("name=\"wuzi\""));
    e.send("INFO rule 1");
    assert_eq!(e.ask("START 15"), "OK");
    let mut board = Board::new(15, 15, Rule::Standard).unwrap();
    e.send("BEGIN");
    e.play_reply(&mut board);
    // A bad rule in mid-game refuses the next move and keeps the position.
    let p = free_point(&board);
    e.send("INFO rule 7");
    e.expect_error(&format!("TURN {},{}", p.x, p.y));
    e.send("INFO rule 1");
    e.turn(&mut board, p);
    e.play_reply(&mut board);
}

#[test]
fn done_outside_a_block_is_an_error() {
    let mut e = Engine::spawn();
    e.expect_error("DONE");
    assert_eq!(e.ask("START 15"), "OK");
    e.expect_error("DONE");
}

#[test]
fn yxboard_sets_the_position_without_reply() {
    let mut e = Engine::spawn();
    quick(&mut e);
    assert_eq!(e.ask("START 15"), "OK");
    e.send("YXBOARD");
    for l in ["7,7,1", "8,7,2", "7,8,1"] {
        e.send(l);
    }
    e.send("DONE");
    e.expect_silence(Duration::from_millis(200));
    // The stones are there: moving onto them is refused, taking them back works.
    e.expect_error("TURN 8,7");
    assert_eq!(e.ask("TAKEBACK 7,8"), "OK");
    e.send("TURN 7,8");
    let m = e.expect_move();
    assert!(![(7, 7), (8, 7), (7, 8)].contains(&(m.x, m.y)));
}

#[test]
fn yxshowforbid_lists_blacks_forbidden_points() {
    let mut e = Engine::spawn();
    e.send("INFO rule 4");
    assert_eq!(e.ask("START 15"), "OK");
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID .");
    // Two Black open twos crossing at (7,7), plus an overline point at (4,12).
    let stones = [
        (5, 7),
        (0, 0),
        (6, 7),
        (14, 0),
        (7, 5),
        (0, 14),
        (7, 6),
        (14, 14),
        (1, 12),
        (2, 2),
        (2, 12),
        (12, 2),
        (3, 12),
        (2, 10),
        (5, 12),
        (12, 12),
        (6, 12),
    ];
    let mut board = Board::new(15, 15, Rule::Renju).unwrap();
    e.send("YXBOARD");
    for (i, (x, y)) in stones.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        board.place(color, Point::new(*x, *y)).unwrap();
        e.send(&format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    e.send("DONE");
    let want: Vec<(u32, u32)> = board
        .forbidden_points()
        .iter()
        .map(|(p, _)| (u32::from(p.x), u32::from(p.y)))
        .collect();
    assert!(
        want.contains(&(7, 7)) && want.contains(&(4, 12)),
        "{want:?}"
    );
    let reply = e.ask("YXSHOWFORBID");
    let Ok(Reply::Forbid(points)) = Reply::parse(&reply) else {
        e.fail(&format!("bad FORBID reply {reply:?}"));
    };
    let got: Vec<(u32, u32)> = points.iter().map(|c| (c.x, c.y)).collect();
    assert_eq!(got, want);
    assert!(reply.contains("0707") && reply.contains("0412") && reply.ends_with('.'));
    // Freestyle has none.
    e.send("INFO rule 0");
    assert_eq!(e.ask("YXSHOWFORBID"), "FORBID .");
}

#[test]
fn yxshowinfo_reports_limits() {
    let mut e = Engine::spawn();
    e.send("YXSHOWINFO");
    let a = e.line_within(PROMPT).unwrap_or_default();
    // What the engine supports comes between the two limits (protocol_analysis.rs).
    let _commands = e.line_within(PROMPT).unwrap_or_default();
    let _settings = e.line_within(PROMPT).unwrap_or_default();
    let b = e.line_within(PROMPT).unwrap_or_default();
    assert!(a.starts_with("MESSAGE INFO MAX_THREAD_NUM "), "{a}");
    assert!(b.starts_with("MESSAGE INFO MAX_HASH_SIZE "), "{b}");
    let threads: u64 = a.rsplit(' ').next().unwrap_or("").parse().unwrap_or(0);
    assert!(threads >= 1);
    let hash: u64 = b.rsplit(' ').next().unwrap_or("").parse().unwrap_or(0);
    assert!(hash > 0);
    // The bound follows max_memory.
    e.send("INFO max_memory 104857600");
    e.send("YXSHOWINFO");
    for _ in 0..3 {
        let _ = e.line_within(PROMPT);
    }
    let b = e.line_within(PROMPT).unwrap_or_default();
    let small: u64 = b
        .rsplit(' ')
        .next()
        .unwrap_or("")
        .parse()
        .unwrap_or(u64::MAX);
    assert!(small * 1024 < 104_857_600, "{b}");
}

#[test]
fn yxnbest_reports_n_lines_then_the_best_move() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 1000");
    e.send("INFO max_depth 3");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("YXBOARD");
    for l in ["7,7,2", "8,8,1", "8,7,2"] {
        e.send(l);
    }
    e.send("DONE");
    e.send("YXNBEST 3");
    let mut messages = Vec::new();
    let reply = e
        .reply_within(PROMPT, &mut messages)
        .unwrap_or_else(|| e.fail("no YXNBEST answer"));
    let Ok(Reply::Move(best)) = Reply::parse(&reply) else {
        e.fail(&format!("expected a move, got {reply:?}"));
    };
    let infos: Vec<SearchInfo> = messages
        .iter()
        .filter_map(|m| m.strip_prefix("MESSAGE "))
        .filter_map(|m| m.parse().ok())
        .collect();
    let deepest = infos.iter().map(|i| i.depth).max().unwrap_or(0);
    // The deepest iteration's lines; when its passes found them in another order than the
    // final one (a later line scoring above an earlier), the final lines follow them again,
    // best first: the last three are what the search answers.
    let deepest_lines: Vec<&SearchInfo> = infos.iter().filter(|i| i.depth == deepest).collect();
    let last = &deepest_lines[deepest_lines.len().saturating_sub(3)..];
    assert_eq!(
        last.iter().map(|i| i.multipv).collect::<Vec<_>>(),
        vec![Some(1), Some(2), Some(3)],
        "{messages:?}"
    );
    assert_eq!(last[0].pv.first(), Some(&best));
    assert!(
        last.windows(2).all(|w| w[0].score >= w[1].score),
        "the final lines come best first: {messages:?}"
    );
    let firsts: Vec<_> = last.iter().filter_map(|i| i.pv.first()).collect();
    assert_eq!(firsts.len(), 3);
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    e.expect_error("YXNBEST 0");
}

#[test]
fn yxhashclear_and_yxstop_when_idle_are_silent() {
    let mut e = Engine::spawn();
    assert_eq!(e.ask("START 15"), "OK");
    e.send("YXHASHCLEAR");
    e.send("YXSTOP");
    e.expect_silence(Duration::from_millis(200));
    assert_eq!(e.ask("RESTART"), "OK");
}

#[test]
fn search_progress_uses_the_uci_like_message_form() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 1500");
    assert_eq!(e.ask("START 15"), "OK");
    e.send("TURN 7,7");
    let mut messages = Vec::new();
    let reply = e.reply_within(PROMPT, &mut messages).unwrap_or_default();
    assert!(Reply::parse(&reply).is_ok_and(|r| matches!(r, Reply::Move(_))));
    assert!(!messages.is_empty(), "no progress lines");
    let mut last_depth = 0;
    for m in &messages {
        let text = m.strip_prefix("MESSAGE ").unwrap_or("");
        let info: SearchInfo = text
            .parse()
            .unwrap_or_else(|err| e.fail(&format!("{m:?} is not in the info form: {err}")));
        assert!(
            info.depth > last_depth,
            "depths must increase: {messages:?}"
        );
        last_depth = info.depth;
        assert!(info.seldepth >= info.depth);
        assert!(!info.pv.is_empty());
        assert!(text.contains(" n/ms ") && text.contains(" tm ") && text.contains(" pv "));
    }
    // show_detail 0 silences them.
    e.send("INFO show_detail 0");
    e.send("RESTART");
    assert_eq!(e.reply(), "OK");
    e.send("TURN 7,7");
    let mut messages = Vec::new();
    let _ = e.reply_within(PROMPT, &mut messages);
    assert!(messages.is_empty(), "{messages:?}");
}

#[test]
fn swap2board_answers_by_stage_with_or_without_fields() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 600");
    assert_eq!(e.ask("START 15"), "OK");
    let parse = |e: &Engine, reply: &str| match Reply::parse(reply) {
        Ok(Reply::Swap) => None,
        Ok(Reply::Move(c)) => Some(vec![c]),
        Ok(Reply::Moves(cs)) => Some(cs),
        _ => e.fail(&format!("bad swap2 answer {reply:?}")),
    };
    // 0 stones: three distinct legal points, Black-White-Black.
    e.send("SWAP2BOARD");
    e.send("DONE");
    let reply = e.reply();
    let three = parse(&e, &reply).unwrap_or_default();
    assert_eq!(three.len(), 3, "{reply}");
    let mut board = Board::new(15, 15, Rule::Freestyle).unwrap();
    for c in &three {
        play_checked(&e, &mut board, Point::new(c.x as u8, c.y as u8));
    }
    // 3 stones, with the colour field (Gomocup) and without it (other managers).
    for with_field in [true, false] {
        e.send("SWAP2BOARD");
        for (i, c) in three.iter().enumerate() {
            let field = if i % 2 == 0 { 2 } else { 1 };
            if with_field {
                e.send(&format!("{},{},{field}", c.x, c.y));
            } else {
                e.send(&format!("{},{}", c.x, c.y));
            }
        }
        e.send("DONE");
        let reply = e.reply();
        if let Some(moves) = parse(&e, &reply) {
            assert!(moves.len() == 1 || moves.len() == 2, "{reply}");
            let mut check = board.clone();
            for c in moves {
                play_checked(&e, &mut check, Point::new(c.x as u8, c.y as u8));
            }
        }
    }
    // 5 stones: SWAP or one move for White.
    let mut five = board.clone();
    let extra: Vec<Point> = (0..2)
        .map(|_| {
            let p = free_point(&five);
            five.play(p).unwrap();
            p
        })
        .collect();
    e.send("SWAP2BOARD");
    for (_, p) in five.history() {
        e.send(&format!("{},{}", p.x, p.y));
    }
    e.send("DONE");
    let reply = e.reply();
    if let Some(moves) = parse(&e, &reply) {
        assert_eq!(moves.len(), 1, "{reply}");
        play_checked(
            &e,
            &mut five,
            Point::new(moves[0].x as u8, moves[0].y as u8),
        );
    }
    assert_eq!(extra.len(), 2);
}
