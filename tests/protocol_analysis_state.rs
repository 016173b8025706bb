//! What an analysis GUI asks of the engine beyond a search, over the real `pbrain-wuzi`: draw
//! rules (`INFO max_moves`, renju's 200 stones), saved tables (`YXHASHDUMP`/`YXHASHLOAD`), the
//! settings file beside the binary and the Yixin-Board commands accepted without effect. Bad
//! arguments get a clear `ERROR` and leave the position intact. The searches' side of the
//! analysis protocol is `protocol_analysis.rs`.

mod protocol_support;

use std::time::Duration;

use protocol_support::analysis::{
    answer, ask_line, assert_position, board_of, cpu_ticks, engine_with, open_three, send_yxboard,
};
use protocol_support::{Engine, PROMPT};
use wuzi_core::{Board, Point, Rule};

#[test]
fn draw_rules_reach_the_search() {
    let b = open_three();
    let n = b.move_count();
    let score = |e: &mut Engine| -> i32 {
        e.send("YXNBEST 1");
        let a = answer(e, PROMPT);
        let last = a
            .progress()
            .pop()
            .unwrap_or_else(|| e.fail("no progress line"));
        last.score
    };
    let mut e = engine_with(&b, &["INFO timeout_turn 600"]);
    assert!(score(&mut e) >= 29_000, "the open three wins");
    // Drawn when the board holds n + 2 stones: Black's five needs three more.
    e.send(&format!("INFO max_moves {}", n + 2));
    send_yxboard(&mut e, &b);
    assert_eq!(score(&mut e), 0);
    // The draw declared a win for Black: decisive, not a five.
    e.send("INFO draw_result 1");
    send_yxboard(&mut e, &b);
    let s = score(&mut e);
    assert!(s > 20_000 && s < 29_000, "{s}");
    // No limit again.
    e.send("INFO max_moves 0");
    e.send("INFO draw_result 0");
    send_yxboard(&mut e, &b);
    assert!(score(&mut e) >= 29_000);
    for bad in [
        "INFO max_moves -1",
        "INFO draw_result 3",
        "INFO max_moves x",
    ] {
        e.expect_error(bad);
    }
    assert_position(&mut e, &b);
}

/// The longest run of one colour through any stone of `board`.
fn longest_run(board: &Board) -> usize {
    let mut longest = 0;
    for (color, p) in board.history() {
        for (dx, dy) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (i32::from(p.x), i32::from(p.y));
                loop {
                    x += sign * dx;
                    y += sign * dy;
                    let q = Point::new(x as u8, y as u8);
                    if x < 0 || y < 0 || !board.contains(q) || board.stone(q) != Some(color) {
                        break;
                    }
                    run += 1;
                }
            }
            longest = longest.max(run);
        }
    }
    longest
}

#[test]
fn renju_games_are_drawn_at_200_stones() {
    // 198 stones, Black to move with an open three in the one empty corner (row 14, columns
    // 10 to 12; rows 13 to 15 of columns 6 to 15 are empty otherwise): its five would be the
    // 201st stone, after Gomocup's renju draw at 200. The rest is filled with pairs of
    // columns alternating colours, shifted every row, which make no line longer than two.
    let mut blacks = vec![Point::new(9, 13), Point::new(10, 13), Point::new(11, 13)];
    let mut whites = Vec::new();
    for y in 0..15u8 {
        for x in 0..15u8 {
            if y >= 12 && x >= 5 {
                continue;
            }
            if ((x / 2) + y) % 2 == 0 {
                blacks.push(Point::new(x, y));
            } else {
                whites.push(Point::new(x, y));
            }
        }
    }
    // Black's stones first, White's last: Black is to move (the lines of one side in a row
    // are as if the other had passed).
    let mut board = Board::new(15, 15, Rule::Renju).expect("board");
    for p in &blacks {
        board.place(wuzi_core::Color::Black, *p).expect("black");
    }
    for p in &whites {
        board.place(wuzi_core::Color::White, *p).expect("white");
    }
    assert_eq!(board.move_count(), 198);
    assert_eq!(board.side_to_move(), wuzi_core::Color::Black);
    assert!(
        longest_run(&board) <= 3,
        "no four anywhere but Black's three"
    );
    let mut e = Engine::spawn();
    e.send("INFO rule 4");
    e.send("INFO timeout_turn 600");
    assert_eq!(e.ask("START 15"), "OK");
    let score = |e: &mut Engine| {
        e.send("YXBOARD");
        for p in &blacks {
            e.send(&format!("{},{},1", p.x, p.y));
        }
        for p in &whites {
            e.send(&format!("{},{},2", p.x, p.y));
        }
        e.send("DONE");
        e.send("YXNBEST 1");
        let a = answer(e, PROMPT);
        a.progress()
            .pop()
            .unwrap_or_else(|| e.fail("no progress line"))
            .score
    };
    assert_eq!(
        score(&mut e),
        0,
        "drawn at 200 stones by default under renju"
    );
    e.send("INFO max_moves 0");
    assert!(score(&mut e) >= 29_000, "no limit: the open three wins");
    e.send("INFO max_moves 210");
    assert!(
        score(&mut e) >= 29_000,
        "a later limit: the open three wins"
    );
}

#[test]
fn hash_tables_are_saved_and_loaded_with_a_checked_header() {
    let dir = std::env::temp_dir().join(format!("wuzi-hash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let file = dir.join("analysis one.hash");
    // A quiet position (no threat sequence ends the search before it fills the table) and a
    // search to a fixed depth: the table holds thousands of entries however loaded the
    // machine is.
    let b = board_of(&[(7, 7), (8, 8), (8, 6)], 15, Rule::Freestyle);
    let mut e = engine_with(
        &b,
        &[
            "INFO timeout_turn 30000",
            "INFO max_depth 6",
            "INFO show_detail 0",
        ],
    );
    e.send("YXNBEST 2");
    let _ = e.expect_move();
    let usage = ask_line(&mut e, "YXSHOWHASHUSAGE");
    assert!(
        usage.starts_with("MESSAGE hash usage ") && usage.contains("64 MiB"),
        "{usage}"
    );
    let saved = ask_line(&mut e, &format!("YXHASHDUMP {}", file.display()));
    assert!(saved.starts_with("MESSAGE hash table saved to "), "{saved}");
    let n: u64 = saved
        .rsplit('(')
        .next()
        .and_then(|t| t.split_whitespace().next())
        .and_then(|t| t.parse().ok())
        .unwrap_or(0);
    assert!(n > 100, "{saved}");
    // Loaded into a fresh engine (Yixin-Board's form: the file name on the next line).
    let mut f = engine_with(&b, &["INFO timeout_turn 400"]);
    f.send("YXHASHLOAD");
    let loaded = ask_line(&mut f, &file.display().to_string());
    assert_eq!(
        loaded,
        format!(
            "MESSAGE hash table loaded from {} ({n} entries)",
            file.display()
        )
    );
    let usage = ask_line(&mut f, "YXSHOWHASHUSAGE");
    assert!(usage.contains(&format!("({n} of ")), "{usage}");
    // Refused: another board size, another rule, a damaged file, no file, no game.
    let mut g = Engine::spawn();
    let r = g.expect_error(&format!("YXHASHLOAD {}", file.display()));
    assert!(r.contains("no game yet"), "{r}");
    assert_eq!(g.ask("START 20"), "OK");
    let r = g.expect_error(&format!("YXHASHLOAD {}", file.display()));
    assert!(
        r.contains("15x15 freestyle") && r.contains("20x20 freestyle"),
        "{r}"
    );
    g.send("INFO rule 4");
    assert_eq!(g.ask("START 15"), "OK");
    let r = g.expect_error(&format!("YXHASHLOAD {}", file.display()));
    assert!(r.contains("15x15 renju"), "{r}");
    g.send("INFO rule 0");
    assert_eq!(g.ask("START 15"), "OK");
    let mut bytes = std::fs::read(&file).expect("read");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x44;
    let broken = dir.join("broken.hash");
    std::fs::write(&broken, &bytes).expect("write");
    let r = g.expect_error(&format!("YXHASHLOAD {}", broken.display()));
    assert!(r.contains("is damaged"), "{r}");
    let r = g.expect_error(&format!("YXHASHLOAD {}", dir.join("none.hash").display()));
    assert!(r.starts_with("ERROR YXHASHLOAD: cannot read"), "{r}");
    let r = g.expect_error(&format!(
        "YXHASHDUMP {}",
        dir.join("no/such/folder.hash").display()
    ));
    assert!(r.starts_with("ERROR YXHASHDUMP: cannot write"), "{r}");
    // The refused loads left the engine's table empty and its game intact.
    let usage = ask_line(&mut g, "YXSHOWHASHUSAGE");
    assert!(usage.contains("(0 of "), "{usage}");
    // A command where the file name should be: refused, then handled.
    g.send("YXHASHDUMP");
    let r = g.ask("ABOUT");
    assert!(
        r.starts_with("ERROR YXHASHDUMP: a file name was expected"),
        "{r}"
    );
    assert!(g.reply().starts_with("name=\"wuzi\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A copy of `pbrain-wuzi` in a folder of its own, with `settings` beside it.
fn engine_with_settings(name: &str, settings: Option<&str>) -> (Engine, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("wuzi-settings-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    let exe = dir.join(format!("pbrain-wuzi{}", std::env::consts::EXE_SUFFIX));
    std::fs::copy(protocol_support::workspace_binary("pbrain-wuzi"), &exe).expect("copy");
    if let Some(text) = settings {
        std::fs::write(dir.join("pbrain-wuzi.toml"), text).expect("settings");
    }
    (Engine::spawn_program(&exe, "\r\n"), dir)
}

#[test]
fn the_settings_file_beside_the_binary_sets_the_defaults() {
    let (mut e, dir) = engine_with_settings(
        "good",
        Some("# for managers\nhash_mb = 16\nshow_detail = 0\npondering = true\nthreads = 2\n"),
    );
    e.send("INFO timeout_turn 300");
    assert_eq!(e.ask("START 15"), "OK");
    let usage = ask_line(&mut e, "YXSHOWHASHUSAGE");
    assert!(usage.contains(" 16 MiB)"), "{usage}");
    // show_detail 0: no progress lines; pondering: busy after the move; two search threads.
    e.send("TURN 7,7");
    let a = answer(&mut e, PROMPT);
    assert!(a.messages.is_empty(), "{a:?}");
    let before = cpu_ticks(e.pid());
    std::thread::sleep(Duration::from_millis(800));
    assert!(cpu_ticks(e.pid()) - before >= 5, "not pondering");
    let threads = std::fs::read_dir(format!("/proc/{}/task", e.pid())).map_or(0, |d| d.count());
    assert!(
        threads >= 5,
        "{threads} threads: main, reader, search and a pool of two"
    );
    // Protocol commands still override it.
    e.send("INFO hash_size 8192");
    let usage = ask_line(&mut e, "YXSHOWHASHUSAGE");
    assert!(usage.contains(" 8 MiB)"), "{usage}");
    let _ = std::fs::remove_dir_all(&dir);
    // A damaged file: reported at start, and the built-in defaults are used.
    let (mut e, dir) = engine_with_settings("bad", Some("hash_mb = 16\nstrength = 500\n"));
    let first = e.line_within(PROMPT).unwrap_or_default();
    assert!(
        first.starts_with("MESSAGE settings file ")
            && first.contains("strength must be a whole number from 0 to 100")
            && first.ends_with("the built-in defaults are used"),
        "{first}"
    );
    assert_eq!(e.ask("START 15"), "OK");
    let usage = ask_line(&mut e, "YXSHOWHASHUSAGE");
    assert!(usage.contains(" 64 MiB)"), "{usage}");
    let _ = std::fs::remove_dir_all(&dir);
    // No file: the built-in defaults, silently.
    let (mut e, dir) = engine_with_settings("none", None);
    assert_eq!(e.ask("START 15"), "OK");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn yixin_board_commands_without_effect_are_accepted_with_their_lines() {
    let mut e = Engine::spawn();
    e.send("INFO timeout_turn 300");
    // Yixin-Board's start: width and height.
    assert_eq!(e.ask("start 15 15"), "OK");
    assert_eq!(e.ask("START 20 15"), "OK");
    e.expect_error("START 15 15 15");
    assert_eq!(e.ask("START 15"), "OK");
    for (lines, word) in [
        (&["yxquerydatabaseall"][..], "YXQUERYDATABASEALL"),
        (&["yxblockpath", "7,7", "8,8", "done"][..], "YXBLOCKPATH"),
        (&["yxsetdatabase", "C:\\data\\book.db"][..], "YXSETDATABASE"),
        (&["yxswap2step1"][..], "YXSWAP2STEP1"),
        (
            &["YXEDITLABELDATABASE 7,7 \"a label\""][..],
            "YXEDITLABELDATABASE",
        ),
    ] {
        for l in &lines[..lines.len() - 1] {
            e.send(l);
        }
        let r = ask_line(&mut e, lines[lines.len() - 1]);
        assert_eq!(
            r,
            format!("MESSAGE {word} is not supported by wuzi: ignored")
        );
    }
    // Unknown INFO keys of Yixin-Board are silent.
    for key in [
        "caution_factor 1",
        "vcthread 0",
        "nbestsym 1",
        "usedatabase 0",
        "time_increment 0",
    ] {
        e.send(&format!("INFO {key}"));
    }
    e.expect_silence(Duration::from_millis(200));
    // YXSHOWINFO: the limits, then what the engine supports, MAX_HASH_SIZE last.
    e.send("YXSHOWINFO");
    let lines: Vec<String> = (0..4).filter_map(|_| e.line_within(PROMPT)).collect();
    assert!(
        lines[0].starts_with("MESSAGE INFO MAX_THREAD_NUM "),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("MESSAGE INFO COMMANDS ") && lines[1].contains(" YXBALANCEONE "));
    assert!(lines[2].starts_with("MESSAGE INFO SETTINGS ") && lines[2].contains(" pondering "));
    assert!(
        lines[3].starts_with("MESSAGE INFO MAX_HASH_SIZE "),
        "{lines:?}"
    );
    e.send("BEGIN");
    let _ = e.expect_move();
}
