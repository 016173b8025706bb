//! The JSON API and the event stream over a real server on a loopback port: whole games, take
//! back, bad requests of every kind, many sessions at once, the bounds on sessions and
//! searches, a page that goes away mid-search, progress that never floods, and shutdown.

mod common;

use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;
use wuzi_core::notation::parse_moves;
use wuzi_core::{Board, Color, Rule};

fn moves_of(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("a name").to_string())
        .collect()
}

/// Waits for the engine's search to end, checks that it added exactly one move to `moves`,
/// and returns the state and the game's moves.
fn one_move_added(
    addr: std::net::SocketAddr,
    id: &str,
    moves: &[String],
    limit: Duration,
) -> (Value, Vec<String>) {
    let s = wait_state(addr, id, limit, |s| s["job"].is_null());
    let now = moves_of(&s);
    assert_eq!(now.len(), moves.len() + 1, "one move per search: {now:?}");
    assert_eq!(
        now[..moves.len()],
        moves[..],
        "the game so far is unchanged"
    );
    (s, now)
}

fn id_of(state: &Value) -> String {
    state["session"].as_str().expect("session id").to_string()
}

/// The game's own outcome, replayed independently of the server: the winner of the first
/// move that wins, else a draw on a full board.
fn replayed_winner(rule: Rule, size: usize, moves: &[String]) -> (Option<Color>, usize) {
    let mut board = Board::new(size, size, rule).expect("board");
    for (i, m) in moves.iter().enumerate() {
        let p = parse_moves(m).expect("name")[0];
        board.play(p).expect("a legal move");
        if let Some(w) = board.winner() {
            return (Some(w), i + 1);
        }
    }
    (None, moves.len())
}

#[test]
fn the_engine_plays_a_whole_game_against_itself() {
    let server = server(4, 2);
    let addr = server.addr();
    let s = new_session(addr, r#"{"rule":"standard","size":15}"#);
    let id = id_of(&s);
    let mut moves: Vec<String> = Vec::new();
    loop {
        let a = post(
            addr,
            &format!("/api/sessions/{id}/think"),
            r#"{"mode":"move","depth":2}"#,
        );
        assert_eq!(a.status, 202, "{a:?}");
        assert!(a.json()["job"].as_u64().is_some());
        let (s, now) = one_move_added(addr, &id, &moves, Duration::from_secs(20));
        moves = now;
        assert!(
            s["evals"][moves.len() - 1].is_object(),
            "the search's evaluation is kept"
        );
        if !s["result"].is_null() {
            let (winner, at) = replayed_winner(Rule::Standard, 15, &moves);
            assert_eq!(at, moves.len(), "the game went on after its end");
            let expected = winner.map_or(Value::Null, |c| {
                Value::from(if c == Color::Black { "black" } else { "white" })
            });
            assert_eq!(s["result"]["winner"], expected, "{}", s["result"]);
            if winner.is_some() {
                let five = s["result"]["five"].as_array().expect("five");
                assert_eq!(five.len(), 5, "the five is marked: {five:?}");
                assert!(five.iter().all(|p| moves.iter().any(|m| m == p)));
            }
            // Nothing more can be played, and asking leaves the game as it is.
            let refused = post(
                addr,
                &format!("/api/sessions/{id}/think"),
                r#"{"mode":"move","depth":1}"#,
            );
            refused.refused(409);
            assert_eq!(moves_of(&state(addr, &id)), moves);
            break;
        }
        assert!(moves.len() < 225, "the board is full without a result");
    }
    // The record reads back as the same game.
    let sgf = get(
        addr,
        &format!("/api/sessions/{id}/record?format=sgf&black=a&white=b"),
    );
    assert_eq!(sgf.status, 200);
    assert!(sgf
        .header("content-disposition")
        .is_some_and(|d| d.contains(".sgf")));
    let game = wuzi_show::read_sgf(&sgf.body, 1).expect("the SGF reads");
    let names: Vec<String> = game.moves.iter().map(|p| p.name()).collect();
    assert_eq!(names, moves);
    assert_eq!(game.rule, Rule::Standard);
    let psq = get(addr, &format!("/api/sessions/{id}/record?format=psq"));
    let game = wuzi_show::read_psq(&psq.body, Rule::Freestyle).expect("the PSQ reads");
    assert_eq!(game.moves.len(), moves.len());
}

#[test]
fn take_back_step_through_and_resign() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    act(addr, &id, "move", r#"{"point":"h8"}"#);
    act(addr, &id, "think", r#"{"depth":1}"#);
    let s = wait_state(addr, &id, Duration::from_secs(20), |s| s["job"].is_null());
    assert_eq!(moves_of(&s).len(), 2);
    act(addr, &id, "move", r#"{"point":"a1"}"#);
    let s = act(addr, &id, "goto", r#"{"ply":1}"#);
    assert_eq!((s["ply"].as_u64(), moves_of(&s).len()), (Some(1), 3));
    assert_eq!(s["to_move"], "white");
    // Playing the line's next move only steps on; another move drops the rest.
    let reply = moves_of(&s)[1].clone();
    let s = act(addr, &id, "move", &format!(r#"{{"point":"{reply}"}}"#));
    assert_eq!((s["ply"].as_u64(), moves_of(&s).len()), (Some(2), 3));
    let s = act(addr, &id, "undo", r#"{"count":2}"#);
    assert_eq!(moves_of(&s), ["h8"]);
    let s = act(addr, &id, "undo", "{}");
    assert!(moves_of(&s).is_empty());
    post(addr, &format!("/api/sessions/{id}/undo"), "{}").refused(409);
    act(addr, &id, "move", r#"{"point":"h8"}"#);
    let s = act(addr, &id, "resign", r#"{"color":"white"}"#);
    assert_eq!(s["result"]["winner"], "black");
    assert_eq!(s["result"]["reason"], "resign");
    post(
        addr,
        &format!("/api/sessions/{id}/move"),
        r#"{"point":"a1"}"#,
    )
    .refused(409);
    let sgf = get(addr, &format!("/api/sessions/{id}/record"));
    assert!(sgf.body.contains("RE[B+R]"), "{}", sgf.body);
    let s = act(addr, &id, "undo", "{}");
    assert!(s["result"].is_null(), "taking back undoes the resignation");
}

#[test]
fn bad_requests_are_refused_clearly_and_change_nothing() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, r#"{"rule":"renju","size":"15"}"#));
    // Black h8 i8 g9 g10 make g8 a double three.
    for m in ["h8", "a1", "i8", "a3", "g9", "a5", "g10", "a7"] {
        act(addr, &id, "move", &format!(r#"{{"point":"{m}"}}"#));
    }
    let before = state(addr, &id);
    let path = |action: &str| format!("/api/sessions/{id}/{action}");
    let cases: Vec<(&str, String, &str, u16, &str)> = vec![
        ("POST", path("move"), "{\"point\":", 400, "bad request"),
        ("POST", path("move"), "[1,2]", 400, "bad request"),
        (
            "POST",
            path("move"),
            r#"{"point":"h8","colour":"white"}"#,
            400,
            "unknown field",
        ),
        ("POST", path("move"), r#"{"point":7}"#, 400, "invalid type"),
        ("POST", path("move"), "{}", 400, "missing field"),
        (
            "POST",
            path("move"),
            r#"{"point":"zz99x"}"#,
            400,
            "not a move list",
        ),
        (
            "POST",
            path("move"),
            r#"{"point":"p16"}"#,
            422,
            "off the 15x15 board",
        ),
        ("POST", path("move"), r#"{"point":"h8"}"#, 422, "occupied"),
        (
            "POST",
            path("move"),
            r#"{"point":"g8"}"#,
            422,
            "forbidden for Black (double three)",
        ),
        (
            "POST",
            path("new"),
            r#"{"rule":"chess"}"#,
            400,
            "unknown rule",
        ),
        (
            "POST",
            path("new"),
            r#"{"size":40}"#,
            400,
            "not a board size",
        ),
        (
            "POST",
            path("new"),
            r#"{"size":"15x"}"#,
            400,
            "not a board size",
        ),
        ("POST", path("undo"), r#"{"count":0}"#, 400, "at least one"),
        ("POST", path("undo"), r#"{"count":9}"#, 409, "has 8"),
        ("POST", path("goto"), r#"{"ply":9}"#, 422, "has 8 moves"),
        ("POST", path("goto"), r#"{"ply":-1}"#, 400, "invalid value"),
        ("POST", path("resign"), r#"{"color":"green"}"#, 400, "black"),
        (
            "POST",
            path("load"),
            r#"{"text":"hello"}"#,
            422,
            "cannot read",
        ),
        (
            "POST",
            path("load"),
            r#"{"text":"(;GM[4]SZ[15];B[hh];W[hh])"}"#,
            422,
            "occupied",
        ),
        (
            "POST",
            path("load"),
            r#"{"text":"h8","rule":"go"}"#,
            400,
            "unknown rule",
        ),
        ("POST", path("think"), r#"{"lines":0}"#, 400, "lines 0"),
        ("POST", path("think"), r#"{"lines":11}"#, 400, "lines 11"),
        (
            "POST",
            path("think"),
            r#"{"threads":99}"#,
            400,
            "threads 99",
        ),
        ("POST", path("think"), r#"{"depth":0}"#, 400, "depth 0"),
        ("POST", path("think"), r#"{"time_ms":0}"#, 400, "time_ms"),
        ("POST", path("think"), r#"{"mode":"dream"}"#, 400, "mode"),
        ("POST", path("think"), r#"{"nodes":0}"#, 400, "nodes"),
        ("POST", path("fly"), "{}", 404, "no action"),
        ("GET", path("move"), "", 405, "not allowed"),
        (
            "GET",
            "/api/sessions/0123456789abcdef/".into(),
            "",
            404,
            "no such",
        ),
        (
            "POST",
            "/api/sessions/nosuch/move".into(),
            r#"{"point":"a1"}"#,
            404,
            "no session",
        ),
        (
            "POST",
            "/api/sessions".into(),
            r#"{"rule":"gomoku-ish"}"#,
            400,
            "unknown rule",
        ),
        (
            "GET",
            format!("/api/sessions/{id}/record?format=pdf"),
            "",
            400,
            "sgf or psq",
        ),
        (
            "GET",
            format!("/api/sessions/{id}/picture?pv=h8"),
            "",
            422,
            "occupied",
        ),
        ("GET", "/nothing-here".into(), "", 404, "no such page"),
    ];
    for (method, path, body, status, words) in cases {
        let json = (method == "POST").then_some(body);
        let answer = request(addr, method, &path, json);
        let text = answer.refused(status);
        assert!(
            text.to_lowercase().contains(&words.to_lowercase()),
            "{method} {path} {body}: {text:?} does not say {words:?}"
        );
        let now = state(addr, &id);
        for key in ["moves", "ply", "rule", "width", "height", "result", "job"] {
            assert_eq!(
                now[key], before[key],
                "{method} {path} {body} changed {key}"
            );
        }
    }
    // Not JSON, too large, for another host, or after a path of the file system.
    let text = r#"{"point":"a15"}"#;
    let form = format!(
        "POST {} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: {}\r\n\r\n{text}",
        path("move"),
        text.len()
    );
    raw(addr, form.as_bytes()).refused(415);
    let big = format!(r#"{{"text":"{}"}}"#, "h8 ".repeat(100_000));
    post(addr, &path("load"), &big).refused(413);
    let foreign = "GET /api/status HTTP/1.1\r\nHost: attacker.example\r\nConnection: close\r\n\r\n";
    raw(addr, foreign.as_bytes()).refused(421);
    for p in [
        "/../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/..%2fCargo.toml",
        "/app.js/../../../Cargo.toml",
        "/etc/passwd",
        "/web/app.js",
        "/src/lib.rs",
    ] {
        let req = format!("GET {p} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        let a = raw(addr, req.as_bytes());
        assert!(a.status == 404 || a.status == 400, "{p}: {a:?}");
        assert!(
            !a.body.contains("[package]") && !a.body.contains("root:"),
            "{p}"
        );
    }
    let after = state(addr, &id);
    assert_eq!(after["moves"], before["moves"]);
    // The page itself is there, with its guards.
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.body.contains("<title>wuzi</title>"));
    assert!(page
        .header("content-security-policy")
        .is_some_and(|c| c.contains("default-src 'self'")));
    assert_eq!(get(addr, "/app.js").status, 200);
}

#[test]
fn many_sessions_at_once_keep_their_own_games() {
    let server = server(6, 2);
    let addr = server.addr();
    let openings = ["h8 i9", "a1 b2", "o15 n14", "h1 h2", "a8 b8", "g7 g8"];
    let handles: Vec<_> = openings
        .iter()
        .map(|opening| {
            let opening = opening.to_string();
            std::thread::spawn(move || {
                let id = id_of(&new_session(addr, r#"{"rule":"freestyle"}"#));
                for m in opening.split(' ') {
                    act(addr, &id, "move", &format!(r#"{{"point":"{m}"}}"#));
                }
                // Two search slots for six sessions: a busy answer says so; try again.
                let start = Instant::now();
                loop {
                    let a = post(
                        addr,
                        &format!("/api/sessions/{id}/think"),
                        r#"{"mode":"move","depth":3}"#,
                    );
                    if a.status == 202 {
                        break;
                    }
                    assert!(a.refused(503).contains("search slots"), "{a:?}");
                    assert!(start.elapsed() < Duration::from_secs(30), "never a slot");
                    std::thread::sleep(Duration::from_millis(20));
                }
                let s = wait_state(addr, &id, Duration::from_secs(30), |s| s["job"].is_null());
                let moves = moves_of(&s);
                assert_eq!(moves.len(), 3, "{moves:?}");
                assert_eq!(
                    moves[..2].join(" "),
                    opening,
                    "another session's moves leaked in"
                );
                id
            })
        })
        .collect();
    let ids: Vec<String> = handles
        .into_iter()
        .map(|h| h.join().expect("a session thread"))
        .collect();
    assert_eq!(status(addr)["sessions"], 6);
    // The bound on sessions: a seventh is refused while the others are in use.
    post(addr, "/api/sessions", "{}").refused(503);
    // The bound on searches: two endless analyses fill the slots, a third waits its turn.
    for id in &ids[..2] {
        act(addr, id, "think", r#"{"mode":"analyse"}"#);
    }
    let third = post(
        addr,
        &format!("/api/sessions/{}/think", ids[2]),
        r#"{"mode":"analyse"}"#,
    );
    assert!(third.refused(503).contains("2 search slots"));
    assert_eq!(status(addr)["searches"], 2);
    for id in &ids[..2] {
        act(addr, id, "stop", "");
    }
    wait_status(addr, Duration::from_secs(10), |s| s["searches"] == 0);
    // Ending a session makes room.
    assert_eq!(
        request(addr, "DELETE", &format!("/api/sessions/{}", ids[5]), None).status,
        204
    );
    new_session(addr, "{}");
}

#[test]
fn a_page_that_goes_away_stops_its_search_and_frees_its_table() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    act(addr, &id, "move", r#"{"point":"h8"}"#);
    let mut events = Events::open(addr, &id);
    let first = events.until("state", READ_LIMIT);
    assert_eq!(moves_of(&first), ["h8"]);
    act(addr, &id, "think", r#"{"mode":"analyse","lines":2}"#);
    let info = events.until("info", READ_LIMIT);
    assert!(info["depth"].as_u64().is_some_and(|d| d >= 1));
    let during = status(addr);
    assert_eq!(during["searches"], 1);
    assert_eq!(during["table_bytes"], 4 << 20);
    drop(events);
    let after = wait_status(addr, Duration::from_secs(10), |s| {
        s["searches"] == 0 && s["table_bytes"] == 0
    });
    assert_eq!(
        after["sessions"], 1,
        "the session itself stays for the page to come back"
    );
    assert!(state(addr, &id)["job"].is_null());
}

#[test]
fn progress_comes_a_few_times_a_second_and_never_floods() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, r#"{"size":"20x15"}"#));
    act(addr, &id, "move", r#"{"point":"j8"}"#);
    let mut events = Events::open(addr, &id);
    events.until("state", READ_LIMIT);
    act(addr, &id, "think", r#"{"mode":"analyse","lines":3}"#);
    let window = Duration::from_millis(2000);
    let start = Instant::now();
    let mut infos: Vec<Value> = Vec::new();
    while start.elapsed() < window {
        match events.next() {
            Some((name, v)) if name == "info" => infos.push(v),
            Some(_) => {}
            None => panic!("the stream ended"),
        }
    }
    let elapsed = start.elapsed();
    // At most one every 200 ms (and one more at the edges), however fast iterations end.
    let most = (elapsed.as_millis() / 200) as usize + 2;
    assert!(!infos.is_empty(), "no progress in {elapsed:?}");
    assert!(
        infos.len() <= most,
        "{} progress events in {elapsed:?}",
        infos.len()
    );
    let last = infos.last().expect("one");
    let lines = last["lines"].as_array().expect("lines");
    assert!(!lines.is_empty() && lines.len() <= 3);
    assert!(lines[0]["pv"].as_array().is_some_and(|pv| !pv.is_empty()));
    let win = lines[0]["black_win"].as_f64().expect("a win rate");
    assert!((0.0..=1.0).contains(&win));
    assert!(last["board_svg"]
        .as_str()
        .is_some_and(|svg| svg.contains("class=\"ghost\"")));
    let nodes: Vec<u64> = infos
        .iter()
        .map(|i| i["nodes"].as_u64().unwrap_or(0))
        .collect();
    assert!(nodes.windows(2).all(|w| w[0] <= w[1]), "{nodes:?}");
    act(addr, &id, "stop", "");
    let done = events.until("done", READ_LIMIT);
    assert_eq!(done["kind"], "analyse");
    assert_eq!(done["played"], false);
    let s = events.until("state", READ_LIMIT);
    assert!(s["job"].is_null());
    assert_eq!(moves_of(&s), ["j8"], "an analysis plays nothing");
    assert!(s["evals"][1].is_object(), "its evaluation is kept");
}

#[test]
fn stop_makes_a_thinking_engine_move_now() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    let mut events = Events::open(addr, &id);
    act(addr, &id, "think", r#"{"mode":"move","time_ms":600000}"#);
    events.until("info", READ_LIMIT);
    let asked = Instant::now();
    act(addr, &id, "stop", "{}");
    let done = events.until("done", READ_LIMIT);
    assert_eq!(done["played"], true, "{done}");
    assert!(asked.elapsed() < Duration::from_secs(5));
    let s = wait_state(addr, &id, Duration::from_secs(5), |s| s["job"].is_null());
    assert_eq!(moves_of(&s).len(), 1);
}

#[test]
fn a_review_evaluates_every_position() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    let s = act(
        addr,
        &id,
        "load",
        r#"{"text":"(;GM[4]SZ[15]RU[freestyle];B[hh];W[ih];B[hi];W[hg];B[hj];W[hk];B[gi];W[ii];B[fj];W[ek])"}"#,
    );
    assert_eq!((moves_of(&s).len(), s["ply"].as_u64()), (10, Some(10)));
    act(addr, &id, "review", r#"{"depth":2}"#);
    let s = wait_state(addr, &id, Duration::from_secs(30), |s| s["job"].is_null());
    let evals = s["evals"].as_array().expect("evals");
    assert_eq!(evals.len(), 11);
    for (ply, e) in evals.iter().enumerate() {
        let w = e["black_win"].as_f64().unwrap_or(-1.0);
        assert!((0.0..=1.0).contains(&w), "position {ply}: {e}");
    }
    // Stepping through the game keeps them.
    let s = act(addr, &id, "goto", r#"{"ply":3}"#);
    assert_eq!(s["evals"], Value::Array(evals.clone()));
}

#[test]
fn shutdown_ends_open_streams_and_searches() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    let mut events = Events::open(addr, &id);
    events.until("state", READ_LIMIT);
    act(addr, &id, "think", r#"{"mode":"analyse"}"#);
    events.until("info", READ_LIMIT);
    let start = Instant::now();
    drop(server);
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
    // The stream ends (within its read limit) instead of hanging.
    let rest = std::iter::from_fn(|| events.next()).count();
    assert!(rest < 100);
}

#[test]
fn a_game_at_a_low_level_is_played_to_the_end_with_legal_moves() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, r#"{"rule":"freestyle","size":15}"#));
    let mut events = Events::open(addr, &id);
    events.until("state", READ_LIMIT);
    let budget = wuzi_search::strength::level(0).nodes;
    let mut moves: Vec<String> = Vec::new();
    loop {
        // A depth no level-0 move reaches: the level's node budget is what ends each search.
        let a = post(
            addr,
            &format!("/api/sessions/{id}/think"),
            r#"{"mode":"move","depth":60,"time_ms":60000,"level":0}"#,
        );
        assert_eq!(a.status, 202, "{a:?}");
        assert_eq!(a.json()["level"], 0, "the answer carries the level: {a:?}");
        // A level-0 search can end before the answer's state is taken: the job is then
        // gone from it, and the `done` event below still carries the level.
        let job = &a.json()["state"]["job"];
        assert!(job.is_null() || job["level"] == 0, "{a:?}");
        let done = events.until("done", READ_LIMIT);
        assert_eq!(
            (done["level"].as_u64(), done["played"].as_bool()),
            (Some(0), Some(true)),
            "{done}"
        );
        let nodes = done["nodes"].as_u64().expect("nodes");
        assert!(
            nodes <= 2 * budget,
            "{nodes} nodes at level 0 (budget {budget})"
        );
        let (s, now) = one_move_added(addr, &id, &moves, READ_LIMIT);
        assert_eq!(
            done["chosen"].as_str(),
            now.last().map(String::as_str),
            "{done}"
        );
        moves = now;
        // Every move legal: the game replays on an independent board.
        let (winner, at) = replayed_winner(Rule::Freestyle, 15, &moves);
        if !s["result"].is_null() {
            assert_eq!(at, moves.len(), "the game went on after its end");
            let expected = winner.map_or(Value::Null, |c| {
                Value::from(if c == Color::Black { "black" } else { "white" })
            });
            assert_eq!(s["result"]["winner"], expected, "{}", s["result"]);
            break;
        }
        assert!(winner.is_none(), "a five the server did not see: {moves:?}");
        assert!(moves.len() < 225, "the board is full without a result");
    }
}

#[test]
fn bad_levels_are_refused_and_change_nothing() {
    let server = server(4, 2);
    let addr = server.addr();
    let id = id_of(&new_session(addr, "{}"));
    act(addr, &id, "move", r#"{"point":"h8"}"#);
    let before = state(addr, &id);
    let think = format!("/api/sessions/{id}/think");
    let cases = [
        (r#"{"mode":"move","level":101}"#, "level 101"),
        (r#"{"mode":"move","level":1000000}"#, "0 to 100"),
        (r#"{"mode":"move","level":-1}"#, "invalid value"),
        (r#"{"mode":"move","level":"weak"}"#, "invalid type"),
        (r#"{"mode":"move","level":50.5}"#, "invalid type"),
        (r#"{"mode":"analyse","level":50}"#, "full strength"),
    ];
    for (body, words) in cases {
        let text = post(addr, &think, body).refused(400);
        assert!(text.contains(words), "{body}: {text:?} lacks {words:?}");
        let now = state(addr, &id);
        assert_eq!(moves_of(&now), moves_of(&before), "{body}");
        assert!(now["job"].is_null(), "{body}: a job started: {now}");
    }
    // An analysis at full strength, said or not, is taken.
    let a = post(addr, &think, r#"{"mode":"analyse","level":100,"depth":1}"#);
    assert_eq!(a.status, 202, "{a:?}");
    wait_state(addr, &id, READ_LIMIT, |s| s["job"].is_null());
    assert_eq!(moves_of(&state(addr, &id)), ["h8"]);
}

#[test]
fn level_100_plays_what_the_full_search_plays() {
    let server = server(4, 2);
    let addr = server.addr();
    let opening = ["h8", "i9", "h9", "h10", "j8", "g10"];
    let mut board = Board::new(15, 15, Rule::Standard).expect("board");
    for m in opening {
        board.play(parse_moves(m).expect("name")[0]).expect("legal");
    }
    let limits = wuzi_search::Limits {
        max_depth: Some(4),
        ..wuzi_search::Limits::default()
    };
    // The server's searcher: one thread, a table of the test server's size, a fresh table.
    let mut searcher = wuzi_search::Searcher::new(4 << 20);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let full = searcher
        .search(&board, &limits, &stop, &mut |_| {})
        .expect("a move")
        .best
        .name();
    for body in [
        r#"{"mode":"move","depth":4,"level":100}"#,
        r#"{"mode":"move","depth":4}"#,
    ] {
        let id = id_of(&new_session(addr, r#"{"rule":"standard","size":15}"#));
        for m in opening {
            act(addr, &id, "move", &format!(r#"{{"point":"{m}"}}"#));
        }
        act(addr, &id, "think", body);
        let s = wait_state(addr, &id, READ_LIMIT, |s| s["job"].is_null());
        assert_eq!(moves_of(&s).len(), opening.len() + 1, "{body}: {s}");
        assert_eq!(moves_of(&s).last(), Some(&full), "{body}");
    }
}
