//! What an analysis GUI asks of the engine, over the real `pbrain-wuzi`: the `show_detail`
//! levels (realtime display, detail block), the final lines of `YXNBEST`, blocked moves,
//! the balance search, `YXSEARCHDEFEND`, pondering and playing levels (draw rules, saved
//! tables, the settings file and the commands without effect: `protocol_analysis_state.rs`).
//! Every command is also tried with bad arguments (a clear `ERROR`, the position intact) and
//! while the engine thinks.

mod protocol_support;

use std::time::{Duration, Instant};

use protocol_support::analysis::{
    answer, ask_line, assert_position, board_of, cpu_ticks, engine_with, is_free, lines_for,
    midgame, moves_of, open_three, send_yxboard,
};
use protocol_support::{play_checked, Engine, PROMPT};
use wuzi_core::{Point, Rule};
use wuzi_protocol::{Eval, Realtime};

const LONG: Duration = Duration::from_secs(30);

#[test]
fn realtime_display_follows_the_root_moves() {
    let b = midgame();
    let mut e = engine_with(&b, &["INFO timeout_turn 1200", "INFO show_detail 1"]);
    e.send("BOARD");
    for (c, p) in b.history() {
        let f = if c == wuzi_core::Color::Black { 1 } else { 2 };
        e.send(&format!("{},{},{f}", p.x, p.y));
    }
    e.send("DONE");
    let a = answer(&mut e, PROMPT);
    let events = a.realtime();
    assert!(!events.is_empty(), "no realtime lines: {:?}", a.messages);
    assert!(a.infos.is_empty(), "show_detail 1 has no detail block");
    assert!(!a.progress().is_empty(), "MESSAGE depth lines stay");
    assert!(events.contains(&Realtime::Refresh), "{events:?}");
    assert!(
        events.iter().any(|e| matches!(e, Realtime::Best(_))),
        "{events:?}"
    );
    // Each move entered is finished before the next is entered (one search thread).
    let mut open = None;
    for ev in &events {
        match *ev {
            Realtime::Pos(c) => {
                assert!(open.is_none(), "{ev:?} inside another move");
                assert!(is_free(&b, c), "{ev:?}");
                open = Some(c);
            }
            Realtime::Done(c) => {
                assert_eq!(open, Some(c));
                open = None;
            }
            Realtime::Best(c) | Realtime::Lose(c) => assert!(is_free(&b, c), "{ev:?}"),
            Realtime::Refresh => assert!(open.is_none()),
        }
    }
    // The realtime display waits for the search to be deep and old enough: the first event
    // comes after the first progress lines.
    let first_realtime = a.messages.iter().position(|m| m.starts_with("REALTIME"));
    let first_depth = a.messages.iter().position(|m| m.starts_with("depth "));
    assert!(first_depth < first_realtime, "{:?}", a.messages);
    let mv = moves_of(&e, &a.reply);
    assert!(b.is_empty_at(mv[0]));
}

#[test]
fn detail_level_writes_an_info_block_after_each_iteration() {
    for (level, realtime) in [(2, false), (3, true)] {
        let b = midgame();
        let mut e = engine_with(
            &b,
            &[
                "INFO timeout_turn 800",
                &format!("INFO show_detail {level}"),
            ],
        );
        e.send("YXNBEST 1");
        let a = answer(&mut e, PROMPT);
        let blocks = a.blocks();
        assert!(!blocks.is_empty(), "no detail block: {:?}", a.infos);
        assert_eq!(!a.realtime().is_empty(), realtime, "level {level}");
        let mut last_depth = 0;
        for block in &blocks {
            assert_eq!((block.index, block.count), (0, 1));
            assert!(block.depth > last_depth, "depths rise: {blocks:?}");
            last_depth = block.depth;
            assert!(block.seldepth >= block.depth);
            assert!(block.total_nodes >= block.nodes);
            assert!((0.0..=1.0).contains(&block.winrate));
            match block.eval {
                Eval::Score(s) => assert_eq!(block.winrate > 0.5, s > 0, "{block:?}"),
                Eval::Win(_) => assert_eq!(block.winrate, 1.0),
                Eval::Loss(_) => assert_eq!(block.winrate, 0.0),
            }
            let first = block
                .line
                .first()
                .copied()
                .unwrap_or_else(|| e.fail("empty line"));
            assert!(is_free(&b, first), "{block:?}");
        }
        // The answer is the last block's first move, and the MESSAGE lines agree with it.
        let mv = moves_of(&e, &a.reply)[0];
        let last = &blocks[blocks.len() - 1];
        assert_eq!(Point::new(last.line[0].x as u8, last.line[0].y as u8), mv);
        let progress = a.progress();
        assert_eq!(progress.len(), blocks.len());
        assert_eq!(progress[progress.len() - 1].pv, last.line);
    }
}

#[test]
fn no_realtime_or_detail_unless_asked_and_nothing_at_level_zero() {
    for (settings, messages) in [(&[][..], true), (&["INFO show_detail 0"][..], false)] {
        let b = midgame();
        let mut all = vec!["INFO timeout_turn 600"];
        all.extend_from_slice(settings);
        let mut e = engine_with(&b, &all);
        e.send("TURN 10,10");
        let a = answer(&mut e, PROMPT);
        assert!(a.infos.is_empty() && a.realtime().is_empty(), "{a:?}");
        assert_eq!(!a.messages.is_empty(), messages, "{a:?}");
    }
}

#[test]
fn nbest_ends_with_each_lines_final_score_depth_and_line() {
    let b = midgame();
    // A time that ends inside a multi-PV iteration more often than not.
    for ms in [500, 900] {
        let mut e = engine_with(
            &b,
            &[&format!("INFO timeout_turn {ms}"), "INFO show_detail 2"],
        );
        e.send("YXNBEST 3");
        let a = answer(&mut e, PROMPT);
        let best = moves_of(&e, &a.reply)[0];
        // The last line written for each multipv index: three lines, distinct moves.
        let mut last = [None, None, None];
        for info in a.progress() {
            let k = info.multipv.unwrap_or(1);
            assert!((1..=3).contains(&k));
            last[k - 1] = Some(info);
        }
        let last: Vec<_> = last
            .into_iter()
            .map(|l| l.expect("every line reported"))
            .collect();
        let firsts: Vec<_> = last.iter().map(|l| l.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        assert_eq!(Point::new(firsts[0].x as u8, firsts[0].y as u8), best);
        // Scores follow the lines' order where the lines come from one depth.
        for k in 1..3 {
            if last[k].depth == last[k - 1].depth {
                assert!(last[k].score <= last[k - 1].score, "{last:?}");
            }
            assert!(last[k].depth <= last[0].depth);
        }
        // The detail blocks end the same way.
        let blocks = a.blocks();
        let mut final_blocks = [None, None, None];
        for block in blocks {
            let k = block.index;
            final_blocks[k] = Some(block);
        }
        for k in 0..3 {
            let block = final_blocks[k].as_ref().expect("a block for each line");
            assert_eq!(block.line, last[k].pv);
            assert_eq!(block.depth, last[k].depth);
        }
    }
}

#[test]
fn blocked_points_are_never_played_and_stay_until_reset() {
    let b = open_three();
    let mut e = engine_with(&b, &["INFO timeout_turn 500"]);
    // The two open-four points blocked: the engine plays neither.
    e.send("YXBLOCK");
    e.send("6,7");
    e.send("10,7");
    e.send("DONE");
    for _ in 0..2 {
        e.send("YXNBEST 1");
        let mv = e.expect_move();
        assert!(mv != Point::new(6, 7) && mv != Point::new(10, 7), "{mv:?}");
        // The blocks stay through a new position.
        send_yxboard(&mut e, &b);
    }
    // Through BOARD and START too.
    assert_eq!(e.ask("START 15"), "OK");
    e.send("BOARD");
    for (c, p) in b.history() {
        let f = if c == wuzi_core::Color::Black { 1 } else { 2 };
        e.send(&format!("{},{},{f}", p.x, p.y));
    }
    e.send("DONE");
    let mv = e.expect_move();
    assert!(mv != Point::new(6, 7) && mv != Point::new(10, 7), "{mv:?}");
    // Unblock one: the engine takes it (the open four wins).
    send_yxboard(&mut e, &b);
    e.send("YXBLOCKUNDO");
    e.send("10,7");
    e.send("DONE");
    e.send("YXNBEST 1");
    let mv = e.expect_move();
    assert_eq!(mv, Point::new(10, 7));
    send_yxboard(&mut e, &b);
    e.send("YXBLOCKRESET");
    e.send("YXNBEST 1");
    let mv = e.expect_move();
    assert!(mv == Point::new(6, 7) || mv == Point::new(10, 7), "{mv:?}");
}

#[test]
fn bad_blocks_are_refused_whole_and_every_move_blocked_is_an_error() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    // No game yet.
    let r = e.ask("YXBLOCK");
    assert!(r.starts_with("ERROR YXBLOCK: no game"), "{r}");
    assert_eq!(e.ask("START 5"), "OK");
    for (lines, want) in [
        (&["1,1", "5,0"][..], "5,0 is off the 5x5 board"),
        (&["1,1", "a,b"][..], "line 2"),
        (&["1,1", "1"][..], "line 2"),
    ] {
        e.send("YXBLOCK");
        for l in lines {
            e.send(l);
        }
        let r = e.ask("DONE");
        assert!(r.starts_with("ERROR YXBLOCK: ") && r.contains(want), "{r}");
        assert!(r.ends_with("blocks unchanged"), "{r}");
    }
    // Nothing was blocked: 1,1 is still the engine's to play. Block every point but one.
    let mut lines = Vec::new();
    for y in 0..5 {
        for x in 0..5 {
            if (x, y) != (3, 1) {
                lines.push(format!("{x},{y}"));
            }
        }
    }
    e.send("YXBLOCK");
    for l in &lines {
        e.send(l);
    }
    e.send("DONE");
    assert_eq!(e.ask("BEGIN"), "3,1");
    // Now every empty point is blocked: a clear error, and the position stays.
    let r = e.ask("TURN 0,0");
    assert!(
        r.starts_with("ERROR no legal move: every legal move is blocked"),
        "{r}"
    );
    let r = e.ask("TAKEBACK 0,0");
    assert_eq!(r, "OK", "the opponent's stone was kept");
    let r = e.ask("YXBLOCKUNDO 1");
    assert!(r.starts_with("ERROR YXBLOCKUNDO"), "{r}");
    e.send("YXBLOCKUNDO");
    e.send("4,4");
    e.send("DONE");
    assert_eq!(e.ask("TURN 0,0"), "4,4");
}

#[test]
fn commands_sent_while_the_engine_thinks_wait_for_the_move() {
    let b = open_three();
    let mut e = engine_with(&b, &["INFO timeout_turn 700", "INFO show_detail 0"]);
    let path = std::env::temp_dir().join(format!("wuzi-midsearch-{}.hash", std::process::id()));
    e.send("YXNBEST 1");
    // All of these arrive during the search and are handled after its move, in order.
    e.send("YXBLOCK");
    e.send("6,7");
    e.send("10,7");
    e.send("DONE");
    e.send("YXSHOWHASHUSAGE");
    e.send(&format!("YXHASHDUMP {}", path.display()));
    e.send("INFO strength 100");
    e.send("YXBALANCEONE x");
    e.send("YXSEARCHDEFEND");
    let first = e.expect_move();
    assert!(
        first == Point::new(6, 7) || first == Point::new(10, 7),
        "not yet blocked"
    );
    let usage = lines_for(&mut e, Duration::from_millis(50));
    let mut rest = usage;
    let deadline = Instant::now() + LONG;
    while rest.len() < 4 && Instant::now() < deadline {
        rest.extend(lines_for(&mut e, Duration::from_millis(200)));
    }
    assert!(rest[0].starts_with("MESSAGE hash usage "), "{rest:?}");
    assert!(
        rest[1].starts_with("MESSAGE hash table saved to "),
        "{rest:?}"
    );
    assert!(rest[2].starts_with("ERROR YXBALANCEONE: "), "{rest:?}");
    assert!(rest[3].starts_with("MESSAGE DEFEND "), "{rest:?}");
    // The blocks took effect for the next search.
    send_yxboard(&mut e, &b);
    e.send("YXNBEST 1");
    let mv = e.expect_move();
    assert!(mv != Point::new(6, 7) && mv != Point::new(10, 7), "{mv:?}");
    // A balance and a defence search stop on YXSTOP with an answer.
    send_yxboard(&mut e, &b);
    e.send("INFO timeout_turn 100000");
    e.send("YXBALANCETWO 0");
    std::thread::sleep(Duration::from_millis(300));
    let sent = Instant::now();
    e.send("YXSTOP");
    let two = e.reply();
    assert!(sent.elapsed() < Duration::from_secs(2));
    assert_eq!(moves_of(&e, &two).len(), 2, "{two}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn balance_one_and_two_answer_legal_moves_near_the_target() {
    let b = open_three();
    let mut e = engine_with(&b, &["INFO timeout_turn 1500", "INFO show_detail 0"]);
    // Black's best move wins; the balanced one leaves White a game.
    e.send("YXBALANCEONE 0");
    let reply = e.reply();
    let mv = moves_of(&e, &reply)[0];
    let mut after = b.clone();
    play_checked(&e, &mut after, mv);
    assert!(
        mv != Point::new(6, 7) && mv != Point::new(10, 7),
        "{mv:?} wins at once"
    );
    // The move was played: the engine's position is the one after it.
    assert_position(&mut e, &after);
    // A pair: one move of each side, legal in turn, not blocked.
    let start = board_of(&[(7, 7)], 15, Rule::Renju);
    let mut e = engine_with(&start, &["INFO rule 4", "INFO timeout_turn 1500"]);
    e.send("YXBLOCK");
    e.send("7,6");
    e.send("DONE");
    e.send("YXBALANCETWO 0");
    let reply = e.reply();
    let pair = moves_of(&e, &reply);
    assert_eq!(pair.len(), 2, "{reply}");
    assert!(!pair.contains(&Point::new(7, 6)), "{pair:?}");
    let mut after = start.clone();
    for p in &pair {
        play_checked(&e, &mut after, *p);
    }
    // Bad targets are refused and change nothing.
    for bad in [
        "YXBALANCEONE x",
        "YXBALANCEONE 1 2",
        "YXBALANCETWO 99999999999",
        "YXBALANCETWO -",
    ] {
        let r = e.expect_error(bad);
        assert!(r.contains("YXBALANCE"), "{r}");
    }
    assert_position(&mut e, &after);
}

#[test]
fn searchdefend_lists_the_defences_or_says_there_is_no_threat() {
    // Black's open three on row 8, White to move: the ends hold, far points do not.
    let b = board_of(
        &[(6, 7), (7, 9), (7, 7), (2, 2), (8, 7)],
        15,
        Rule::Freestyle,
    );
    let mut e = engine_with(&b, &["INFO timeout_turn 5000"]);
    let r = ask_line(&mut e, "YXSEARCHDEFEND");
    let list = r
        .strip_prefix("MESSAGE DEFEND ")
        .unwrap_or_else(|| e.fail(&format!("bad answer {r:?}")));
    let points = wuzi_protocol::Coord::parse_list(list, "DEFEND")
        .unwrap_or_else(|err| e.fail(&err.to_string()));
    let points: Vec<Point> = points
        .into_iter()
        .map(protocol_support::analysis::point)
        .collect();
    assert!(
        points.contains(&Point::new(5, 7)) && points.contains(&Point::new(9, 7)),
        "{r}"
    );
    assert!(
        !points.contains(&Point::new(4, 7)) && !points.contains(&Point::new(12, 12)),
        "{r}"
    );
    // The position is unchanged by the analysis.
    assert_position(&mut e, &b);
    // No threat at all.
    let quiet = board_of(&[(7, 7), (8, 8)], 15, Rule::Freestyle);
    let mut e = engine_with(&quiet, &["INFO timeout_turn 3000"]);
    assert_eq!(
        ask_line(&mut e, "YXSEARCHDEFEND"),
        "MESSAGE DEFEND NOTHREAT"
    );
    let r = e.expect_error("YXSEARCHDEFEND now");
    assert!(r.contains("YXSEARCHDEFEND takes no argument"), "{r}");
    let mut none = Engine::spawn();
    let r = none.expect_error("YXSEARCHDEFEND");
    assert!(r.contains("no game yet"), "{r}");
}

#[test]
fn pondering_thinks_while_idle_and_stops_on_any_line() {
    let b = midgame();
    let mut e = engine_with(
        &b,
        &[
            "INFO timeout_turn 400",
            "INFO pondering 1",
            "INFO show_detail 0",
        ],
    );
    let mut board = b.clone();
    e.send("TURN 10,10");
    play_checked(&e, &mut board, Point::new(10, 10));
    let m = e.expect_move();
    play_checked(&e, &mut board, m);
    // Idle, yet thinking: the process uses CPU while nothing is asked.
    let before = cpu_ticks(e.pid());
    std::thread::sleep(Duration::from_millis(1000));
    let pondered = cpu_ticks(e.pid()) - before;
    assert!(pondered >= 10, "{pondered} ticks in a second of pondering");
    // A move during the ponder is answered within its own time.
    let next = protocol_support::free_point(&board);
    let sent = Instant::now();
    e.send(&format!("TURN {},{}", next.x, next.y));
    play_checked(&e, &mut board, next);
    let m = e.expect_move();
    assert!(
        sent.elapsed() < Duration::from_millis(400),
        "{:?}",
        sent.elapsed()
    );
    play_checked(&e, &mut board, m);
    // YXSTOP ends the ponder silently; then the engine is idle.
    std::thread::sleep(Duration::from_millis(200));
    e.send("YXSTOP");
    e.expect_silence(Duration::from_millis(300));
    let before = cpu_ticks(e.pid());
    std::thread::sleep(Duration::from_millis(600));
    let idle = cpu_ticks(e.pid()) - before;
    assert!(idle <= 3, "{idle} ticks after YXSTOP");
    // Pondering off: idle after a move.
    e.send("INFO pondering 0");
    let next = protocol_support::free_point(&board);
    e.send(&format!("TURN {},{}", next.x, next.y));
    play_checked(&e, &mut board, next);
    let m = e.expect_move();
    play_checked(&e, &mut board, m);
    let before = cpu_ticks(e.pid());
    std::thread::sleep(Duration::from_millis(600));
    assert!(cpu_ticks(e.pid()) - before <= 3);
    // END during a ponder exits at once.
    e.send("INFO pondering 1");
    let next = protocol_support::free_point(&board);
    e.send(&format!("TURN {},{}", next.x, next.y));
    let _ = e.expect_move();
    std::thread::sleep(Duration::from_millis(100));
    e.send("END");
    assert!(e
        .exit_within(Duration::from_millis(500))
        .is_some_and(|s| s.success()));
    let mut bad = Engine::spawn();
    for v in ["INFO pondering 2", "INFO pondering on"] {
        let r = bad.expect_error(v);
        assert!(r.contains("INFO pondering"), "{r}");
    }
}

#[test]
fn playing_levels_make_plausible_mistakes_and_bad_levels_are_refused() {
    let b = board_of(&[(7, 7), (8, 8)], 15, Rule::Freestyle);
    let mut e = engine_with(
        &b,
        &[
            "INFO timeout_turn 500",
            "INFO strength 0",
            "INFO show_detail 0",
        ],
    );
    let mut seen = std::collections::BTreeSet::new();
    for _ in 0..12 {
        send_yxboard(&mut e, &b);
        e.send("BEGIN");
        let m = e.expect_move();
        let mut check = b.clone();
        play_checked(&e, &mut check, m);
        // Plausible: near the stones.
        assert!(
            (i32::from(m.x) - 7).abs() <= 3 && (i32::from(m.y) - 7).abs() <= 3,
            "{m:?}"
        );
        seen.insert((m.x, m.y));
    }
    assert!(seen.len() >= 2, "level 0 always played {seen:?}");
    // A level never gives up a win: a five is taken, an open four made.
    let four = board_of(
        &[
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 14),
            (9, 7),
            (14, 0),
            (10, 7),
            (14, 14),
        ],
        15,
        Rule::Freestyle,
    );
    send_yxboard(&mut e, &four);
    e.send("BEGIN");
    let m = e.expect_move();
    assert!(m == Point::new(6, 7) || m == Point::new(11, 7), "{m:?}");
    for bad in [
        "INFO strength 101",
        "INFO strength -5",
        "INFO strength high",
    ] {
        let r = e.expect_error(bad);
        assert!(r.contains("INFO strength"), "{r}");
    }
}
