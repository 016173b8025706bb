//! The command line: arguments to configuration, clear refusals of bad arguments, a whole run
//! through `cli::run`, and SPRT stopping.

mod common;

use std::time::Duration;

use clap::{CommandFactory, Parser};
use common::{config, engine, run_within, testengine};
use wuzi_match::cli::config_from;
use wuzi_match::sprt::{Sprt, SprtState};
use wuzi_match::MatchArgs;

#[derive(Parser)]
struct Wrapper {
    #[command(flatten)]
    args: MatchArgs,
}

fn parse(args: &[&str]) -> Result<MatchArgs, clap::Error> {
    Wrapper::try_parse_from(["wuzi-match"].iter().chain(args)).map(|w| w.args)
}

#[test]
fn arguments_become_a_configuration() {
    let a = format!("cmd={},arg=random,name=A,option.thread_num=2", testengine());
    let b = format!("{},arg=random", testengine());
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
    assert_eq!(cfg.engines[1].name, "pbrain-testengine");
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
    let e = format!("{},arg=random", testengine());
    let (cfg, _) = config_from(&parse(&["--engine", &e, "--engine", &e]).unwrap()).unwrap();
    assert_eq!(cfg.engines[0].name, "pbrain-testengine-1");
    assert_eq!(cfg.engines[1].name, "pbrain-testengine-2");
    assert_eq!(cfg.games, 2);
}

#[test]
fn bad_arguments_are_refused_clearly() {
    let e = format!("{},arg=random", testengine());
    assert!(parse(&["--engine", &e, "--size", "40"]).is_err());
    assert!(parse(&["--engine", &e, "--turn-time", "soon"]).is_err());
    assert!(parse(&["--engine", &e, "--rule", "go"]).is_err());
    assert!(parse(&["--engine", &e, "--sprt", "0", "10", "0.05"]).is_err());
    let refused = |args: &[&str]| match parse(args) {
        Ok(a) => wuzi_match::run(&a),
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
    let dir = common::scratch("cli");
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
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(wuzi_match::run(&args));
    });
    let code = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("run finished");
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("(;GM[4]").count(), 4);
}

#[test]
fn sprt_stops_when_h1_is_accepted() {
    // The second engine loses every game at its first move: H1 (first engine stronger) comes
    // long before the 200-game cap.
    let mut cfg = config(engine("strong", &["random"]), engine("weak", &["garbage"]));
    cfg.games = 200;
    cfg.concurrency = 2;
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (r, _) = run_within(Duration::from_secs(60), cfg);
    let s = r.unwrap();
    assert_eq!(s.sprt, Some(SprtState::AcceptH1));
    let n = s.stats.games();
    assert!((2..200).contains(&n), "{n} games");
    assert_eq!(s.stats.total[0].wins, n);
}

#[test]
fn sprt_stops_when_h0_is_accepted() {
    let mut cfg = config(engine("weak", &["garbage"]), engine("strong", &["random"]));
    cfg.games = 200;
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (r, _) = run_within(Duration::from_secs(60), cfg);
    let s = r.unwrap();
    assert_eq!(s.sprt, Some(SprtState::AcceptH0));
    assert!(s.stats.games() < 200);
}
