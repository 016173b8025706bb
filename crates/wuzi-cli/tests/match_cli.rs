//! `wuzi match` and `wuzi tournament` on the command line: arguments to configuration, clear
//! refusals of bad arguments, and whole runs of the test engine through their `run`.
//!
//! The whole runs start `wuzi-match`'s test engine, which Cargo builds beside these tests when
//! the workspace's tests are built together (`cargo test --workspace`, as CI runs them).

use std::path::PathBuf;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use wuzi_cli::match_cmd::{config_from, MatchArgs};
use wuzi_cli::tournament::TournamentArgs;
use wuzi_match::results::parse_results;
use wuzi_match::sprt::Sprt;
use wuzi_testkit::matches::built;
use wuzi_testkit::within;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: MatchArgs,
}

fn parse(args: &[&str]) -> Result<MatchArgs, clap::Error> {
    Wrapper::try_parse_from(["wuzi-match"].iter().chain(args)).map(|w| w.args)
}

#[derive(Parser)]
struct TournamentWrapper {
    #[command(flatten)]
    args: TournamentArgs,
}

fn tournament_args(list: &[&str]) -> TournamentArgs {
    match TournamentWrapper::try_parse_from(["wuzi-tournament"].iter().chain(list)) {
        Ok(c) => c.args,
        Err(e) => panic!("{list:?}: {e}"),
    }
}

/// `wuzi-match`'s test engine (`pbrain-testengine`).
fn testengine() -> String {
    built("pbrain-testengine").display().to_string()
}

/// A program that the configuration tests name but never start.
const PROGRAM: &str = "engines/pbrain-x";

/// A fresh scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    wuzi_testkit::scratch(env!("CARGO_TARGET_TMPDIR"), &format!("cli-{name}"))
}

#[test]
fn arguments_become_a_configuration() {
    let a = format!("cmd={PROGRAM},arg=random,name=A,option.thread_num=2");
    let b = format!("{PROGRAM},arg=random");
    let args = parse(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--each",
        "option.hash_size=1024,option.thread_num=1",
        "--size",
        "20x15",
        "--rule",
        "renju",
        "--turn-time",
        "250ms",
        "--match-time",
        "1m",
        "--tolerance",
        "0.5s",
        "--max-memory",
        "64M",
        "--concurrency",
        "2",
        "--max-moves",
        "100",
        "--sprt",
        "-5",
        "5",
        "0.05",
        "0.1",
        "--opening",
        "h8i9",
        "--order",
        "random",
        "--seed",
        "9",
    ])
    .expect("parses");
    let (cfg, chosen) = config_from(&args).expect("valid");
    assert_eq!(chosen, None);
    assert_eq!(cfg.engines[0].name, "A");
    assert_eq!(cfg.engines[1].name, "pbrain-x");
    // --each options first, the engine's own of the same key replaces one.
    assert_eq!(
        cfg.engines[0].options,
        vec![
            ("hash_size".into(), "1024".into()),
            ("thread_num".into(), "2".into())
        ]
    );
    assert_eq!(cfg.engines[1].options.len(), 2);
    assert_eq!((cfg.width, cfg.height), (20, 15));
    assert_eq!(cfg.rule, wuzi_core::Rule::Renju);
    assert_eq!(cfg.time.turn, Duration::from_millis(250));
    assert_eq!(cfg.time.game, Some(Duration::from_secs(60)));
    assert_eq!(cfg.time.tolerance, Duration::from_millis(500));
    assert_eq!(cfg.max_memory, 64 << 20);
    assert_eq!(cfg.sprt, Some(Sprt::new(-5.0, 5.0, 0.05, 0.1).unwrap()));
    assert_eq!(cfg.openings.len(), 1);
    assert_eq!(cfg.seed, 9);
    cfg.validate().expect("valid");
}

#[test]
fn same_program_twice_gets_two_names() {
    let e = format!("{PROGRAM},arg=random");
    let (cfg, _) = config_from(&parse(&["--engine", &e, "--engine", &e]).unwrap()).unwrap();
    assert_eq!(cfg.engines[0].name, "pbrain-x-1");
    assert_eq!(cfg.engines[1].name, "pbrain-x-2");
    assert_eq!(cfg.games, 2);
}

#[test]
fn bad_arguments_are_refused_clearly() {
    let e = format!("{PROGRAM},arg=random");
    assert!(parse(&["--engine", &e, "--size", "40"]).is_err());
    assert!(parse(&["--engine", &e, "--turn-time", "soon"]).is_err());
    assert!(parse(&["--engine", &e, "--rule", "go"]).is_err());
    assert!(parse(&["--engine", &e, "--sprt", "0", "10", "0.05"]).is_err());
    let refused = |args: &[&str]| match parse(args) {
        Ok(a) => wuzi_cli::match_cmd::run(&a),
        Err(_) => 2,
    };
    assert_eq!(refused(&["--engine", &e]), 2, "one engine");
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--engine", &e]),
        2
    );
    assert_eq!(
        refused(&["--engine", "cmd=x,colour=red", "--engine", &e]),
        2
    );
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--sprt", "10", "0", "0.05", "0.05"]),
        2
    );
    assert_eq!(
        refused(&[
            "--engine",
            &e,
            "--engine",
            &e,
            "--openings",
            "/nonexistent.txt"
        ]),
        2
    );
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--opening", "0,0, 99,0"]),
        2
    );
    assert_eq!(
        refused(&["--engine", "name=x,cmd=a", "--engine", "name=x,cmd=b"]),
        2
    );
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--max-moves", "0"]),
        2
    );
    let short_limit = ["--opening", "h8i9j10", "--max-moves", "3"];
    assert_eq!(
        refused(&[&["--engine", &e, "--engine", &e][..], &short_limit].concat()),
        2
    );
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--games", "0"]),
        2
    );
    assert_eq!(
        refused(&["--engine", &e, "--engine", &e, "--concurrency", "0"]),
        2
    );
}

#[test]
fn help_documents_engine_specs() {
    let help = Wrapper::command().render_long_help().to_string();
    for want in [
        "--engine <SPEC>",
        "option.KEY=VALUE",
        "--sprt <ELO0> <ELO1> <ALPHA> <BETA>",
        "--concurrency",
        "BOARD",
    ] {
        assert!(help.contains(want), "{want} missing in help:\n{help}");
    }
}

#[test]
fn a_whole_run_through_the_command_line() {
    let dir = scratch("match");
    let sgf = dir.join("m.sgf");
    let a = format!("{},arg=random,name=left", testengine());
    let b = format!("{},arg=random,name=right", testengine());
    let args = parse(&[
        "--engine",
        &a,
        "--engine",
        &b,
        "--games",
        "4",
        "--concurrency",
        "2",
        "--max-moves",
        "20",
        "--progress",
        "lines",
        "--sgf",
        sgf.to_str().unwrap(),
        "--json",
    ])
    .unwrap();
    let (code, _) = within(Duration::from_secs(60), "wuzi match", move || {
        wuzi_cli::match_cmd::run(&args)
    });
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("(;GM[4]").count(), 4);
}

#[test]
fn the_command_line_plays_reports_and_refuses_bad_arguments() {
    let dir = scratch("tournament");
    let results = dir.join("results.txt");
    let report = dir.join("report");
    let t = testengine();
    let (a, b, c) = (
        format!("cmd={t},arg=random,name=a"),
        format!("cmd={t},arg=occupied,name=b"),
        format!("cmd={t},arg=crash,name=c"),
    );
    let (r, rep) = (results.display().to_string(), report.display().to_string());
    let mut list = vec![
        "--engine",
        &a,
        "--engine",
        &b,
        "--engine",
        &c,
        "--games",
        "2",
        "--turn-time",
        "300ms",
        "--results",
        &r,
        "--report",
        &rep,
        "--anchor",
        "b",
        "--anchor-elo",
        "-50",
    ];
    assert_eq!(wuzi_cli::tournament::run(&tournament_args(&list)), 0);
    let read = parse_results(&std::fs::read_to_string(&results).expect("results"));
    assert_eq!(read.games.len(), 6);
    let page = std::fs::read_to_string(report.join("index.html")).expect("report");
    assert_eq!(page.matches("class=\"game\"").count(), 6);
    // Bad arguments: exit code 2, nothing played.
    list.truncate(4);
    for extra in [
        &["--games", "2"][..],
        &["--anchor", "nobody"],
        &["--sprt", "0", "5", "0.05", "0.05"],
    ] {
        let mut bad = if extra[0] == "--games" {
            vec!["--engine", &a]
        } else {
            list.clone()
        };
        bad.extend_from_slice(extra);
        assert_eq!(
            wuzi_cli::tournament::run(&tournament_args(&bad)),
            2,
            "{bad:?}"
        );
    }
}
