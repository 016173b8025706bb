//! `pbrain-wuzi`: the wuzi engine for Gomocup managers (piskvork protocol with Yixin-Board
//! extensions) on stdin and stdout. The contract is `protocol.md`; the work is in
//! `wuzi_engine`.
//!
//! Managers start it without arguments; its defaults then come from the settings file beside
//! it (`pbrain-wuzi.toml`, see `wuzi_engine::config`), which the flags override.
//! `--engine simple` runs the simple search the protocol started with instead of the main one
//! (a yardstick for `wuzi match`). `--threads N` sets the search threads used until the
//! manager sends `INFO thread_num` (default 1; 0 is one per available core). `--eval` chooses
//! the evaluation: `auto` (the default: the learned weights in the rules where they won their
//! match), `classic` (the hand-set one), `learned`, or the path of a weights file written by
//! `wuzi tune`.

use std::process::ExitCode;
use wuzi_eval::eval::EvalChoice;
use wuzi_search::Engine;

const USAGE: &str =
    "usage: pbrain-wuzi [--engine main|simple] [--threads N] [--eval auto|classic|learned|FILE]";

fn main() -> ExitCode {
    let mut engine = Engine::Main;
    let mut threads = None;
    let mut eval = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value.as_deref()) {
            ("--engine", Some("main")) => engine = Engine::Main,
            ("--engine", Some("simple")) => engine = Engine::Simple,
            ("--threads", Some(n)) => match n.parse::<u64>() {
                Ok(n) => threads = Some(n),
                Err(e) => {
                    eprintln!("pbrain-wuzi: --threads {n}: {e}\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            ("--eval", Some(choice)) => match EvalChoice::from_arg(choice) {
                Ok(e) => eval = Some(e),
                Err(e) => {
                    eprintln!("pbrain-wuzi: --eval {choice}: {e}\n{USAGE}");
                    return ExitCode::from(2);
                }
            },
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    wuzi_engine::run_launched(engine, threads, eval)
}
