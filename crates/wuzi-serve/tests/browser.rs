//! The page in headless Chromium against a real server: a game played to a five by clicking,
//! the playing level set in the page and carried to the engine's moves, the thinking display,
//! take back (by mouse and keyboard), the page on a phone-sized touch
//! screen, an SGF file loaded and reviewed with the graph, and the renju forbidden points
//! shown, also through a shared link. Each test saves a screenshot under `target/`
//! (`CARGO_TARGET_TMPDIR/wuzi-serve-shots/`) and fails if the page threw or logged an error.
//!
//! `.ci/run` installs Chromium and requires these tests; elsewhere they are skipped, with a
//! message, when no `chromium` is on the PATH (see `cdp/mod.rs`).

mod cdp;
mod common;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use cdp::{chromium, Browser};
use common::*;
use serde_json::Value;
use wuzi_core::notation::parse_moves;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_search::{Limits, Searcher};
use wuzi_serve::Server;

const WAIT: Duration = Duration::from_secs(30);

fn shots() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wuzi-serve-shots")
}

/// A server and a browser on its page, or `None` when the browser tests are skipped here.
fn setup(name: &str, width: u32, height: u32) -> Option<(Server, Browser)> {
    let chromium = chromium()?;
    let server = server(4, 2);
    let scratch = wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("serve-{name}"));
    let mut browser = Browser::launch(&chromium, &scratch, width, height);
    browser.open(&server.url());
    Some((server, browser))
}

fn session_id(browser: &mut Browser) -> String {
    browser
        .wait_for("sessionStorage.getItem('wuzi-session')", WAIT)
        .as_str()
        .expect("a session id")
        .to_string()
}

fn moves_of(state: &Value) -> Vec<Point> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| parse_moves(m.as_str().expect("name")).expect("a point name")[0])
        .collect()
}

/// Where the board's point `p` is drawn, in the viewport (the board scrolled into view).
fn point_at(browser: &mut Browser, p: Point) -> (f64, f64) {
    let at = browser.eval(&format!(
        "(() => {{ const svg = document.querySelector('#board svg'); svg.scrollIntoView({{block: 'center'}}); \
         const cell = Number(svg.dataset.cell), margin = Number(svg.dataset.margin); \
         const q = new DOMPoint(margin + {x} * cell, margin + {y} * cell).matrixTransform(svg.getScreenCTM()); \
         return [q.x, q.y]; }})()",
        x = p.x,
        y = p.y
    ));
    let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
        panic!("no board to click: {at}");
    };
    (x, y)
}

/// Clicks the board's point `p` where it is drawn.
fn click_point(browser: &mut Browser, p: Point) {
    let (x, y) = point_at(browser, p);
    browser.click_at(x, y);
}

/// The page's expression for the number of stones drawn on the board.
const STONE_COUNT: &str = "document.querySelectorAll('#board .stones .stone').length";

fn stones(browser: &mut Browser) -> u64 {
    browser.eval(STONE_COUNT).as_u64().unwrap_or(0)
}

/// Waits until the board shows `n` stones.
fn wait_for_stones(browser: &mut Browser, n: usize) {
    browser.wait_for(&format!("{STONE_COUNT} === {n}"), WAIT);
}

/// Waits until the page itself shows `n` stones and no engine move in progress. The page
/// follows the server by polling, so right after the server's state changes the page may
/// still act on the old one: a click is refused while it thinks the engine is moving, and
/// `u` takes back one move instead of the pair.
fn wait_for_page_to_catch_up(browser: &mut Browser, n: usize) {
    browser.wait_for(
        &format!("{STONE_COUNT} === {n} && document.getElementById('move-now').hidden"),
        WAIT,
    );
}

fn text(browser: &mut Browser, id: &str) -> String {
    browser
        .eval(&format!("document.getElementById({id:?}).textContent"))
        .as_str()
        .unwrap_or("")
        .to_string()
}

#[test]
fn a_game_played_by_clicking_ends_in_a_five() {
    let Some((server, mut browser)) = setup("play", 1100, 800) else {
        return;
    };
    let addr = server.addr();
    browser.set_value("#rule", "freestyle");
    browser.set_value("#size", "15");
    browser.set_value("#colour", "black");
    browser.set_value("#depth", "1");
    browser.set_value("#time", "1000");
    browser.click("#new-game");
    let id = session_id(&mut browser);
    // The clicking player is a deeper search of our own; the page's engine searches 1 ply.
    let mut searcher = Searcher::new(16 << 20);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        max_depth: Some(4),
        ..Limits::default()
    };
    let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
    let mut played = 0;
    let end = loop {
        let s = wait_state(addr, &id, WAIT, |s| {
            s["job"].is_null() && (s["to_move"] == "black" || !s["result"].is_null())
        });
        let moves = moves_of(&s);
        for &p in &moves[board.move_count()..] {
            board.play(p).expect("the server's moves are legal");
        }
        if !s["result"].is_null() {
            break s;
        }
        let best = searcher
            .search(&board, &limits, &stop, &mut |_| {})
            .expect("a move")
            .best;
        wait_for_page_to_catch_up(&mut browser, moves.len());
        click_point(&mut browser, best);
        played += 1;
        wait_state(addr, &id, WAIT, |s| moves_of(s).len() > moves.len());
        assert!(played < 100, "no end after 100 moves");
    };
    // The page announces the winner that the rules give, and marks the five.
    let winner = board.winner().expect("a five ended the game");
    let expected = if winner == Color::Black {
        "You win!"
    } else {
        "wuzi wins."
    };
    let status = browser.wait_for(
        &format!("(() => {{ const t = document.getElementById('status').textContent; return t.includes({expected:?}) && t; }})()"),
        WAIT,
    );
    assert!(
        status.as_str().is_some_and(|t| t.contains("five in a row")),
        "{status}"
    );
    let marked: Vec<String> = browser
        .eval("[...document.querySelectorAll('#board .five-mark')].map(e => e.dataset.point)")
        .as_array()
        .expect("marks")
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect();
    let five: Vec<String> = end["result"]["five"]
        .as_array()
        .expect("five")
        .iter()
        .filter_map(|v| v.as_str().map(String::from))
        .collect();
    assert_eq!(marked, five);
    assert!(marked.len() >= 5);
    for name in &marked {
        let p = Point::parse_name(name).expect("name");
        assert_eq!(
            board.stone(p),
            Some(winner),
            "{name} is not the winner's stone"
        );
    }
    assert_eq!(
        stones(&mut browser) as usize,
        board.move_count(),
        "every move is drawn"
    );
    browser.screenshot(&shots().join("play-five.png"));
    browser.assert_no_errors();
}

#[test]
fn the_playing_level_set_in_the_page_goes_with_the_engine_s_moves() {
    let Some((server, mut browser)) = setup("level", 1100, 800) else {
        return;
    };
    let addr = server.addr();
    let id = session_id(&mut browser);
    // Every think request the page sends, with the server's answer.
    browser.eval(
        "(() => { window.thinks = []; const f = window.fetch; \
         window.fetch = async (url, init) => { const r = await f(url, init); \
         if (String(url).endsWith('/think')) { \
           let answer = null; try { answer = await r.clone().json(); } catch (e) { answer = null; } \
           window.thinks.push({ body: JSON.parse(init.body), status: r.status, answer }); } \
         return r; }; })()",
    );
    browser.set_value("#level", "20");
    browser.set_value("#depth", "1");
    // Playing White: the engine moves first.
    browser.set_value("#colour", "white");
    let s = wait_state(addr, &id, WAIT, |s| {
        moves_of(s).len() == 1 && s["job"].is_null()
    });
    let thinks = browser.wait_for("window.thinks.length > 0 && window.thinks", WAIT);
    let first = &thinks[0];
    assert_eq!(first["body"]["mode"], "move", "{thinks}");
    assert_eq!(
        first["body"]["level"], 20,
        "the request carries the level: {thinks}"
    );
    assert_eq!(first["status"], 202, "{thinks}");
    assert_eq!(
        first["answer"]["level"], 20,
        "the server searches at the level: {thinks}"
    );
    // The state read with the answer shows the job unless a depth-1 search already ended.
    let job = &first["answer"]["state"]["job"];
    assert!(
        job.is_null() || job["level"] == 20,
        "a running job shows its level: {thinks}"
    );
    // A level out of range: the engine's move is refused with the server's message, and the
    // game stays as it was.
    browser.set_value("#level", "150");
    let engine = moves_of(&s)[0];
    let reply = if engine == Point::new(0, 0) {
        Point::new(1, 0)
    } else {
        Point::new(0, 0)
    };
    click_point(&mut browser, reply);
    let message = browser.wait_for(
        "(() => { const m = document.getElementById('message'); \
         return !m.hidden && m.textContent.includes('level 150') && m.textContent; })()",
        WAIT,
    );
    assert!(
        message.as_str().is_some_and(|t| t.contains("0 to 100")),
        "{message}"
    );
    let s = wait_state(addr, &id, WAIT, |s| s["job"].is_null());
    assert_eq!(moves_of(&s), [engine, reply]);
    browser.screenshot(&shots().join("level.png"));
    // Put right, the level lets the engine move, and that request carries it.
    browser.set_value("#level", "0");
    let s = wait_state(addr, &id, WAIT, |s| {
        moves_of(s).len() == 3 && s["job"].is_null()
    });
    assert_eq!(moves_of(&s)[..2], [engine, reply]);
    // The page's record of a request lands once its answer's body is read, which may be
    // after the engine's move shows in the state: wait for the record itself.
    let last = browser.wait_for(
        "(() => { const t = window.thinks[window.thinks.length - 1]; \
         return t && t.body.level !== 150 && t; })()",
        WAIT,
    );
    assert_eq!(
        (last["body"]["level"].as_u64(), last["status"].as_u64()),
        (Some(0), Some(202)),
        "{last}"
    );
    browser.assert_no_errors();
}

#[test]
fn the_thinking_display_follows_the_search() {
    let Some((server, mut browser)) = setup("thinking", 1100, 760) else {
        return;
    };
    browser.click("#tab-analyse");
    browser.set_value("#paste", "h8 i9 h10 h9 j9 i10 i8");
    browser.click("#load");
    browser.wait_for(
        "document.getElementById('nav-pos').textContent === 'move 7 / 7'",
        WAIT,
    );
    browser.set_value("#lines", "3");
    browser.click("#analyse");
    let depth = |b: &mut Browser| -> u64 {
        text(b, "t-depth")
            .split('/')
            .next()
            .and_then(|d| d.trim().parse().ok())
            .unwrap_or(0)
    };
    browser.wait_for(
        "parseInt(document.getElementById('t-depth').textContent) >= 2",
        WAIT,
    );
    let first = depth(&mut browser);
    // The display moves on as the search does.
    browser.wait_for(
        &format!("parseInt(document.getElementById('t-depth').textContent) > {first}"),
        WAIT,
    );
    let ghosts = browser.eval("document.querySelectorAll('#board .ghost').length");
    assert!(
        ghosts.as_u64().is_some_and(|g| g >= 1),
        "no ghost stones: {ghosts}"
    );
    let candidates = browser.wait_for(
        "document.querySelectorAll('#board .candidate').length >= 2 && document.querySelectorAll('#board .candidate').length",
        WAIT,
    );
    assert!(candidates.as_u64().is_some_and(|c| c <= 3), "{candidates}");
    assert!(text(&mut browser, "t-nps").contains("n/s"));
    assert!(text(&mut browser, "t-pv").starts_with("1. "));
    let lines = browser.eval("document.querySelectorAll('#t-lines li').length");
    assert!(
        lines.as_u64().is_some_and(|l| (2..=3).contains(&l)),
        "{lines}"
    );
    let bar = browser.eval("document.getElementById('winbar-black').style.width");
    assert!(bar.as_str().is_some_and(|w| w.ends_with('%')), "{bar}");
    // Stepping through a line: the board shows it up to the move pointed at.
    browser.click("#t-lines li .line-move:nth-of-type(2)");
    browser.wait_for(
        "document.querySelector('.line-move.shown') && document.querySelectorAll('#board .ghost').length === 2",
        WAIT,
    );
    browser.screenshot(&shots().join("thinking.png"));
    browser.click("#stop");
    wait_status(server.addr(), WAIT, |s| s["searches"] == 0);
    browser.assert_no_errors();
}

#[test]
fn take_back_by_mouse_and_keyboard() {
    let Some((server, mut browser)) = setup("take-back", 900, 900) else {
        return;
    };
    let addr = server.addr();
    browser.set_value("#depth", "1");
    browser.click("#new-game");
    let id = session_id(&mut browser);
    click_point(&mut browser, Point::new(7, 7));
    wait_for_stones(&mut browser, 2);
    wait_state(addr, &id, WAIT, |s| s["job"].is_null());
    browser.click("#take-back");
    wait_for_stones(&mut browser, 0);
    assert_eq!(text(&mut browser, "nav-pos"), "move 0 / 0");
    // The keyboard: the cursor starts in the middle; move it and play.
    browser.eval("document.getElementById('board').focus()");
    browser.key("ArrowRight");
    browser.key("ArrowDown");
    browser.key("Enter");
    let s = wait_state(addr, &id, WAIT, |s| {
        moves_of(s).len() == 2 && s["job"].is_null()
    });
    assert_eq!(
        moves_of(&s)[0],
        Point::new(8, 8),
        "the stone goes where the cursor is"
    );
    wait_for_page_to_catch_up(&mut browser, 2);
    browser.eval("document.getElementById('board').blur()");
    browser.key("u");
    wait_state(addr, &id, WAIT, |s| moves_of(s).is_empty());
    wait_for_stones(&mut browser, 0);
    browser.screenshot(&shots().join("take-back.png"));
    browser.assert_no_errors();
}

#[test]
fn on_a_phone_the_page_fits_and_plays_by_touch() {
    let Some((server, mut browser)) = setup("phone", 390, 844) else {
        return;
    };
    let addr = server.addr();
    browser.emulate_phone(390, 844);
    browser.open(&server.url());
    browser.set_value("#depth", "1");
    browser.click("#new-game");
    let id = session_id(&mut browser);
    browser.wait_for("document.querySelector('#board svg') !== null", WAIT);
    // Nothing scrolls sideways; the board takes most of the width; the panel comes below it.
    let layout = browser.eval(
        "(() => { const b = document.getElementById('board').getBoundingClientRect(); \
         const p = document.getElementById('panel').getBoundingClientRect(); \
         return [document.documentElement.scrollWidth, innerWidth, b.left, b.right, b.bottom, p.top]; })()",
    );
    let v: Vec<f64> = layout
        .as_array()
        .expect("numbers")
        .iter()
        .filter_map(Value::as_f64)
        .collect();
    let [scroll_width, width, left, right, board_bottom, panel_top] = v[..] else {
        panic!("layout: {layout}");
    };
    assert!(scroll_width <= width, "the page scrolls sideways: {layout}");
    assert!(
        left >= 0.0 && right <= width && right - left >= 0.85 * width,
        "the board does not fit the width: {layout}"
    );
    assert!(
        panel_top >= board_bottom,
        "the panel overlaps the board: {layout}"
    );
    // A tap plays, and the engine answers.
    let (x, y) = point_at(&mut browser, Point::new(7, 7));
    browser.tap_at(x, y);
    let s = wait_state(addr, &id, WAIT, |s| {
        moves_of(s).len() == 2 && s["job"].is_null()
    });
    assert_eq!(
        moves_of(&s)[0],
        Point::new(7, 7),
        "the stone goes where the tap was"
    );
    wait_for_stones(&mut browser, 2);
    browser.screenshot(&shots().join("phone.png"));
    browser.assert_no_errors();
}

#[test]
fn an_sgf_file_is_loaded_and_reviewed_with_the_graph() {
    let Some((server, mut browser)) = setup("review", 1100, 900) else {
        return;
    };
    let addr = server.addr();
    // White lets Black's open three become an open four at move 8: a blunder to find.
    let sgf = "(;GM[4]FF[4]SZ[15]RU[freestyle]PB[a]PW[b];B[hh];W[ih];B[hi];W[gj];B[hg];W[ag];B[hf];W[ai];B[ii];W[aa])";
    let file = shots().join("review.sgf");
    std::fs::create_dir_all(shots()).expect("folder");
    std::fs::write(&file, sgf).expect("sgf file");
    browser.click("#tab-analyse");
    browser.choose_file("#file", &file);
    browser.wait_for(
        "document.getElementById('nav-pos').textContent === 'move 10 / 10'",
        WAIT,
    );
    let id = session_id(&mut browser);
    browser.click("#tab-review");
    browser.set_value("#review-time", "100");
    browser.click("#evaluate");
    browser.wait_for(
        "document.querySelectorAll('#graph .eval-point').length === 11",
        WAIT,
    );
    let s = wait_state(addr, &id, WAIT, |s| s["job"].is_null());
    // The moves marked are the ones whose mover lost the most by them, from the evaluations.
    let evals: Vec<f64> = s["evals"]
        .as_array()
        .expect("evals")
        .iter()
        .map(|e| e["black_win"].as_f64().expect("every position evaluated"))
        .collect();
    let mut losses: Vec<(f64, usize)> = (1..evals.len())
        .map(|k| {
            let loss = if k % 2 == 1 {
                evals[k - 1] - evals[k]
            } else {
                evals[k] - evals[k - 1]
            };
            (loss, k)
        })
        .collect();
    losses.sort_by(|a, b| b.0.total_cmp(&a.0));
    let worst = losses[0];
    assert!(worst.0 > 0.08, "no move lost anything: {evals:?}");
    let marked = browser
        .eval("[...document.querySelectorAll('#graph .drop')].map(e => Number(e.dataset.ply))");
    let marked: Vec<u64> = marked
        .as_array()
        .expect("marks")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert!(
        marked.contains(&(worst.1 as u64)),
        "{marked:?} lacks move {}",
        worst.1
    );
    // Step back with the keyboard, then jump by clicking the graph's start.
    browser.key("ArrowLeft");
    browser.wait_for(
        "document.getElementById('nav-pos').textContent === 'move 9 / 10'",
        WAIT,
    );
    let at = browser.eval(
        "(() => { const r = document.getElementById('graph').getBoundingClientRect(); return [r.x + r.width * 0.03, r.y + r.height / 2]; })()",
    );
    browser.click_at(at[0].as_f64().unwrap_or(0.0), at[1].as_f64().unwrap_or(0.0));
    browser.wait_for(
        "document.getElementById('nav-pos').textContent === 'move 0 / 10'",
        WAIT,
    );
    // The game saves as the same SGF moves.
    let href = browser.eval("document.getElementById('save-sgf').getAttribute('href')");
    let saved = get(addr, href.as_str().expect("a link"));
    let game = wuzi_show::read_sgf(&saved.body, 1).expect("the saved SGF reads");
    assert_eq!(game.moves, moves_of(&s));
    browser.key("End");
    browser.wait_for(
        "document.getElementById('nav-pos').textContent === 'move 10 / 10'",
        WAIT,
    );
    browser.screenshot(&shots().join("review.png"));
    browser.assert_no_errors();
}

#[test]
fn renju_forbidden_points_are_marked_and_refused() {
    let Some((server, mut browser)) = setup("renju", 1000, 800) else {
        return;
    };
    let addr = server.addr();
    browser.set_value("#rule", "renju");
    browser.set_value("#size", "15");
    browser.click("#tab-analyse");
    browser.click("#new-board");
    let id = session_id(&mut browser);
    let line = "h8 a1 i8 a3 g9 a5 g10 a7";
    let mut board = Board::new(15, 15, Rule::Renju).expect("board");
    for (i, p) in parse_moves(line).expect("moves").into_iter().enumerate() {
        click_point(&mut browser, p);
        wait_state(addr, &id, WAIT, |s| moves_of(s).len() == i + 1);
        board.play(p).expect("legal");
    }
    let expected: Vec<(u64, u64)> = {
        let mut v: Vec<(u64, u64)> = board
            .forbidden_points()
            .into_iter()
            .map(|(p, _)| (p.x as u64, p.y as u64))
            .collect();
        v.sort();
        v
    };
    assert!(
        expected.contains(&(6, 7)),
        "g8 is a double three: {expected:?}"
    );
    let marked_now = |b: &mut Browser| -> Vec<(u64, u64)> {
        let v = b.eval("[...document.querySelectorAll('#board .forbidden')].map(e => [Number(e.dataset.x), Number(e.dataset.y)])");
        let mut out: Vec<(u64, u64)> = v
            .as_array()
            .expect("marks")
            .iter()
            .map(|p| (p[0].as_u64().unwrap_or(99), p[1].as_u64().unwrap_or(99)))
            .collect();
        out.sort();
        out
    };
    browser.wait_for(
        "document.querySelectorAll('#board .forbidden').length > 0",
        WAIT,
    );
    assert_eq!(marked_now(&mut browser), expected);
    // Black's click on g8 is refused, with the reason, and nothing changes.
    click_point(&mut browser, Point::new(6, 7));
    let message = browser.wait_for(
        "(() => { const m = document.getElementById('message'); return !m.hidden && m.textContent; })()",
        WAIT,
    );
    assert!(
        message
            .as_str()
            .is_some_and(|m| m.contains("forbidden for Black")),
        "{message}"
    );
    assert_eq!(moves_of(&state(addr, &id)).len(), 8);
    browser.screenshot(&shots().join("renju-forbidden.png"));
    // A shared link opens the same position, markers and all, in a fresh page.
    browser.click("#share");
    let url = browser.wait_for("document.getElementById('share-url').value", WAIT);
    let url = url.as_str().expect("a link").to_string();
    assert!(url.contains("moves=h8a1i8a3g9a5g10a7"), "{url}");
    browser.eval("sessionStorage.clear()");
    browser.call("Page.navigate", serde_json::json!({ "url": "about:blank" }));
    browser.wait_for(
        "location.href === 'about:blank' && document.readyState === 'complete'",
        WAIT,
    );
    browser.call("Page.navigate", serde_json::json!({ "url": url }));
    browser.wait_for(
        "document.body && document.body.dataset.ready === '1' && document.getElementById('nav-pos').textContent === 'move 8 / 8'",
        WAIT,
    );
    let other = session_id(&mut browser);
    assert_ne!(other, id, "the shared link opened a new board");
    browser.wait_for(
        "document.querySelectorAll('#board .forbidden').length > 0",
        WAIT,
    );
    assert_eq!(marked_now(&mut browser), expected);
    browser.assert_no_errors();
}
