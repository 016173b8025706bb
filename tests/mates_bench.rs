//! `wuzi bench --mates` and `wuzi mates alternatives` on the three-position smoke file
//! (`data/mates/smoke.txt`: short forced wins wuzi sees in a few hundredths of a second),
//! wuzi alone and beside `pbrain-wuzi` over the protocol; and their answers to bad input.

use std::process::{Command, Output};

use serde_json::Value;
use wuzi_testkit::data::data;

fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("wuzi runs")
}

fn smoke() -> String {
    data("mates/smoke.txt").display().to_string()
}

fn json_of(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

/// Every position's run by engine `e` found its win, with a length and the time within the
/// cap; returns the group totals of `all`.
fn check_found(v: &Value, e: usize) -> Value {
    let positions = v["positions"].as_array().expect("positions");
    assert_eq!(positions.len(), 3);
    for p in positions {
        let run = &p["runs"][e];
        assert_eq!(run["found"], true, "{p}");
        assert!(run["plies"].as_u64().is_some_and(|n| n >= 1), "{p}");
        assert!(run["nodes"].as_u64().is_some_and(|n| n >= 1), "{p}");
        let t = run["time_ms"].as_f64().expect("time");
        assert!(
            (0.0..=v["cap_ms"].as_f64().expect("cap")).contains(&t),
            "{p}"
        );
        assert!(run["error"].is_null());
    }
    let all = &v["groups"][0];
    assert_eq!(all["name"], "all");
    assert_eq!(all["positions"], 3);
    assert_eq!(all["engines"][e]["found"], 3);
    all.clone()
}

#[test]
fn wuzi_sees_the_smoke_wins() {
    let v = json_of(&wuzi(&[
        "bench",
        "--mates",
        &smoke(),
        "--time",
        "5s",
        "--json",
    ]));
    assert_eq!(v["engines"], serde_json::json!(["wuzi"]));
    assert_eq!(v["cap_ms"], 5000);
    let all = check_found(&v, 0);
    assert!(all["time_ratio"].is_null());
    // The text form: a row a position and the totals.
    let out = wuzi(&["bench", "--mates", &smoke(), "--time", "5s"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("3 positions, cap 5.000 s"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("all ") && l.contains("3/3")),
        "{text}"
    );
}

#[test]
fn an_engine_runs_beside_wuzi_over_the_protocol() {
    let engine = format!("cmd={},name=engine", env!("CARGO_BIN_EXE_pbrain-wuzi"));
    let v = json_of(&wuzi(&[
        "bench",
        "--mates",
        &smoke(),
        "--time",
        "5s",
        "--json",
        "--engine",
        &engine,
    ]));
    assert_eq!(v["engines"], serde_json::json!(["wuzi", "engine"]));
    check_found(&v, 0);
    let all = check_found(&v, 1);
    assert!(all["time_ratio"].as_f64().is_some_and(|r| r > 0.0));
    assert!(all["node_ratio"].as_f64().is_some_and(|r| r > 0.0));
}

#[test]
fn filters_pick_positions() {
    let v = json_of(&wuzi(&[
        "bench",
        "--mates",
        &smoke(),
        "--json",
        "--rule",
        "renju",
    ]));
    let positions = v["positions"].as_array().expect("positions");
    assert!(!positions.is_empty() && positions.len() < 3);
    assert!(positions.iter().all(|p| p["rule"] == "renju"));
}

#[test]
fn bad_input_is_a_clear_error() {
    let dir = wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), "mates-bench");
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "# a comment\nx train sparring black freestyle 15x15 9 s - h8i9j10\n",
    )
    .expect("write");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--mates".into(), dir.join("none.txt").display().to_string()],
            "cannot read",
        ),
        (vec!["--mates".into(), bad.display().to_string()], "line 2"),
        (
            vec![
                "--mates".into(),
                smoke(),
                "--split".into(),
                "held-out".into(),
                "--rule".into(),
                "caro".into(),
            ],
            "no position",
        ),
        (
            vec![
                "--mates".into(),
                smoke(),
                "--engine".into(),
                "name=x".into(),
            ],
            "--engine",
        ),
        (
            vec!["--mates".into(), smoke(), "--time".into(), "0".into()],
            "--time",
        ),
    ];
    for (args, expected) in cases {
        let mut all = vec!["bench".to_string()];
        all.extend(args);
        let refs: Vec<&str> = all.iter().map(String::as_str).collect();
        let out = wuzi(&refs);
        assert_eq!(out.status.code(), Some(2), "{refs:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(expected), "{refs:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{refs:?}: {err}");
    }
    // The mate bench's own options need --mates; other modes refuse it.
    let misuses: [&[&str]; 3] = [
        &["bench", "--engine", "cmd=x"],
        &["bench", "--attacker", "wuzi"],
        &["bench", "--mates", "x.txt", "--movegen"],
    ];
    for args in misuses {
        let out = wuzi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `wuzi mates alternatives` with `pbrain-wuzi` as chooser and judge on the smoke file: a row
/// a position, the totals, and an `--out` file that reads back as a suite (its positions
/// after the choices, the side to move unchanged).
#[test]
fn alternatives_run_and_write_a_suite() {
    let dir = wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), "mates-alternatives");
    let out_file = dir.join("alt.txt");
    let engine = format!("cmd={},name=wuzi", env!("CARGO_BIN_EXE_pbrain-wuzi"));
    let judge = format!("cmd={},name=judge", env!("CARGO_BIN_EXE_pbrain-wuzi"));
    let out_arg = out_file.display().to_string();
    let suite_arg = smoke();
    let run = || {
        wuzi(&[
            "mates",
            "alternatives",
            "--suite",
            &suite_arg,
            "--chooser",
            &engine,
            "--judge",
            &judge,
            "--time",
            "100ms",
            "--judge-time",
            "300ms",
            "--attacker",
            "wuzi",
            "--out",
            &out_arg,
        ])
    };
    let out = run();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The two positions of wuzi's wins, each with a choice and a verdict.
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(" choice ")).collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(rows.iter().all(|r| r.starts_with("renju15:")), "{text}");
    assert!(text.contains("wuzi at 100 ms: "), "{text}");
    assert!(text.contains("/2 choices let in a forced win"), "{text}");
    let written = std::fs::read_to_string(&out_file).expect("the --out file");
    let suite = wuzi_search::bench::mates::read_suite(&written).expect("a suite");
    let smoke_suite = wuzi_search::bench::mates::read_suite(
        &std::fs::read_to_string(smoke()).expect("the smoke file"),
    )
    .expect("a suite");
    for p in &suite {
        let (base, _) = p.id.rsplit_once('-').expect("ID-CHOICE");
        let from = smoke_suite
            .iter()
            .find(|s| s.id == base)
            .expect("its position");
        assert_eq!(p.moves.len(), from.moves.len());
        assert_eq!(p.to_move(), from.to_move());
        assert_ne!(p.moves.last(), from.moves.last(), "not the game's move");
        assert!(p.source.starts_with("judge:+M"));
    }
    // A second run keeps what the file holds (adding its own losing choices); an --out
    // file that is not a suite is refused before anything runs.
    let out = run();
    assert!(out.status.success());
    let again = std::fs::read_to_string(&out_file).expect("the --out file");
    let again = wuzi_search::bench::mates::read_suite(&again).expect("a suite");
    for p in &suite {
        assert!(again.contains(p), "{} kept", p.id);
    }
    std::fs::write(&out_file, "not a suite\n").expect("write");
    let out = run();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("alt.txt"));
    // Bad arguments: each case after `mates alternatives`, with the smoke suite.
    let bad: [&[&str]; 4] = [
        &["--judge", "cmd=x"],
        &["--chooser", "name=x", "--judge", "cmd=x"],
        &["--chooser", "cmd=x", "--judge", "cmd=x", "--time", "0"],
        &["--chooser", "cmd=x", "--judge", "cmd=x", "--rule", "caro"],
    ];
    for case in bad {
        let mut all = vec!["mates", "alternatives", "--suite", suite_arg.as_str()];
        all.extend(case);
        let out = wuzi(&all);
        assert_eq!(out.status.code(), Some(2), "{all:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
