//! `wuzi tournament` and `wuzi match` split into shards on the command line: three shard
//! processes (one killed in the middle and started again) merge with `--merge` to the text
//! and report one run prints; bad splits (a shard without a results file among them) are
//! refused with exit code 2 before anything runs.
//!
//! The engines are `wuzi-match`'s test engine (random movers of fixed seeds, a fresh process
//! every game, so that a game depends only on its opening and colours), which Cargo builds
//! beside these tests when the workspace's tests are built together (`cargo test
//! --workspace`, as CI runs them).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use wuzi_testkit::engine::workspace_binary;

fn testengine() -> String {
    let path = workspace_binary("pbrain-testengine");
    assert!(
        path.is_file(),
        "{} is missing: build it with `cargo build -p wuzi-match --bin pbrain-testengine`, or run \
         the workspace's tests together (`cargo test --workspace`)",
        path.display()
    );
    path.display().to_string()
}

fn scratch(name: &str) -> PathBuf {
    wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("shards-cli-{name}"))
}

/// The arguments every run of the schedule shares: three random movers (one slowed down so
/// that a run can be killed in the middle), 9x9, four openings, eight games a pairing.
fn tournament_args(t: &str) -> Vec<String> {
    let mut a: Vec<String> = vec!["tournament".into()];
    for (name, seed, extra) in [
        ("r5", 5, ",arg=--delay,arg=4"),
        ("r9", 9, ""),
        ("r13", 13, ""),
    ] {
        a.push("--engine".into());
        a.push(format!(
            "cmd={t},arg=random,arg=--seed,arg={seed}{extra},name={name}"
        ));
    }
    for x in [
        "--size",
        "9",
        "--opening",
        "e5",
        "--opening",
        "0,0, 1,1",
        "--opening",
        "d4e6",
        "--opening=-1,0, 0,-1, 1,1",
        "--games",
        "8",
        "--turn-time",
        "5s",
        "--fresh-process",
        "--anchor",
        "r13",
    ] {
        a.push(x.into());
    }
    a
}

fn wuzi(args: &[String]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wuzi"));
    c.args(args).stdin(Stdio::null());
    c
}

fn run(args: &[String]) -> Output {
    match wuzi(args).output() {
        Ok(o) => o,
        Err(e) => panic!("wuzi {args:?}: {e}"),
    }
}

fn with(base: &[String], extra: &[&str]) -> Vec<String> {
    let mut v = base.to_vec();
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The final report of a run's output: from the line that opens it up to the report's path.
fn final_part(out: &str, opens: &str) -> String {
    let from = out
        .find(opens)
        .unwrap_or_else(|| panic!("no {opens:?} in {out}"));
    let part = &out[from..];
    part[..part.find("Report:").unwrap_or(part.len())].to_string()
}

fn game_lines(path: &Path) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().filter(|l| !l.starts_with('#')).count())
        .unwrap_or(0)
}

#[test]
fn a_tournament_in_three_shard_processes_merges_to_the_one_run() {
    let dir = scratch("tournament");
    let base = tournament_args(&testengine());
    let p = |name: &str| dir.join(name).display().to_string();

    let whole = run(&with(
        &base,
        &["--results", &p("whole.txt"), "--report", &p("whole-report")],
    ));
    assert!(whole.status.success(), "{whole:?}");

    // Shard 2 is killed once its first game is written, then run again to the end.
    let mut child = wuzi(&with(&base, &["--shard", "2/3", "--results", &p("s2.txt")]))
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn");
    let started = Instant::now();
    while game_lines(&dir.join("s2.txt")) < 1 && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let cut_at = game_lines(&dir.join("s2.txt"));
    for (k, file) in [(3, "s3.txt"), (1, "s1.txt"), (2, "s2.txt")] {
        let shard = format!("{k}/3");
        let o = run(&with(&base, &["--shard", &shard, "--results", &p(file)]));
        assert!(o.status.success(), "shard {shard}: {o:?}");
        assert!(
            text(&o).contains(&format!("Tournament shard {shard} finished")),
            "{}",
            text(&o)
        );
    }
    assert!(
        cut_at < 8,
        "the kill came before shard 2 was done ({cut_at} games)"
    );

    let merged = run(&with(
        &base,
        &[
            "--merge",
            &p("s3.txt"),
            &p("s2.txt"),
            &p("s1.txt"),
            "--report",
            &p("merged-report"),
        ],
    ));
    assert!(merged.status.success(), "{merged:?}");
    let out = text(&merged);
    assert!(
        out.contains("24 of 24 games of the schedule; none missing"),
        "{out}"
    );
    let opens = "=== Tournament finished";
    assert_eq!(final_part(&out, opens), final_part(&text(&whole), opens));
    let page = |d: &str| std::fs::read_to_string(dir.join(d).join("index.html")).expect("page");
    assert_eq!(page("merged-report"), page("whole-report"));

    // The whole run's own file merges too; a shard of it beside it overlaps.
    let again = run(&with(&base, &["--merge", &p("whole.txt")]));
    assert_eq!(final_part(&text(&again), opens), final_part(&out, opens));
    let twice = run(&with(&base, &["--merge", &p("whole.txt"), &p("s1.txt")]));
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&twice.stderr).contains("is not in shard 1/3")
            || String::from_utf8_lossy(&twice.stderr).contains("a game may be merged once"),
        "{twice:?}"
    );
    // Another schedule (fewer games a pairing) is refused with exit code 2.
    let mut other = base.clone();
    let at = other.iter().position(|a| a == "--games").expect("--games") + 1;
    other[at] = "6".into();
    let refused = run(&with(&other, &["--merge", &p("s1.txt")]));
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("another schedule"),
        "{refused:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_match_in_two_shard_processes_merges_and_bad_splits_are_refused() {
    let dir = scratch("match");
    let t = testengine();
    let p = |name: &str| dir.join(name).display().to_string();
    let base: Vec<String> = [
        "match",
        "--engine",
        &format!("cmd={t},arg=random,arg=--seed,arg=5,name=a"),
        "--engine",
        &format!("cmd={t},arg=random,arg=--seed,arg=9,name=b"),
        "--size",
        "9",
        "--opening",
        "e5",
        "--opening",
        "d4e6",
        "--order",
        "random",
        "--seed",
        "3",
        "--games",
        "12",
        "--fresh-process",
        "--sprt",
        "-5",
        "5",
        "0.001",
        "0.001",
        "--progress",
        "off",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let whole = run(&with(&base, &["--results", &p("whole.txt")]));
    assert!(whole.status.success(), "{whole:?}");
    for k in [2, 1] {
        let o = run(&with(
            &base,
            &[
                "--shard",
                &format!("{k}/2"),
                "--results",
                &p(&format!("s{k}.txt")),
            ],
        ));
        assert!(o.status.success(), "{o:?}");
        assert!(
            text(&o).contains("a shard does not stop on it"),
            "{}",
            text(&o)
        );
    }
    let merged = run(&with(&base, &["--merge", &p("s1.txt"), &p("s2.txt")]));
    assert!(merged.status.success(), "{merged:?}");
    let json = |o: &Output| {
        text(o)
            .lines()
            .find(|l| l.starts_with('{'))
            .unwrap_or_else(|| panic!("no JSON line in {}", text(o)))
            .to_string()
    };
    assert_eq!(json(&merged), json(&whole));
    let sprt_line = |o: &Output| {
        text(o)
            .lines()
            .find(|l| l.starts_with("SPRT"))
            .map(str::to_string)
    };
    assert_eq!(sprt_line(&merged), sprt_line(&whole));

    // Splits that cannot work are refused before anything is played.
    let drop_flag = |args: &[String], flag: &str, values: usize| -> Vec<String> {
        let mut v = args.to_vec();
        if let Some(at) = v.iter().position(|a| a == flag) {
            v.drain(at..=at + values);
        }
        v
    };
    let shard_1 = ["--shard", "1/2", "--results", &p("s1.txt")];
    for (args, says) in [
        (
            with(&drop_flag(&base, "--seed", 1), &shard_1),
            "needs --seed",
        ),
        (
            with(&drop_flag(&base, "--games", 1), &shard_1),
            "needs --games",
        ),
        (with(&base, &["--shard", "3/2"]), "between 1 and N"),
        (with(&base, &["--shard", "1/2"]), "--results"),
        (
            with(&base, &["--shard", "1/2", "--merge", &p("s1.txt")]),
            "cannot be used with",
        ),
        (with(&base, &["--merge", &p("no-such.txt")]), "cannot read"),
    ] {
        let o = run(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
