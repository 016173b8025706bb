//! `pbrain-wuzi`: the wuzi engine for Gomocup managers (piskvork protocol with Yixin-Board
//! extensions) on stdin and stdout. The contract is `protocol.md`; the work is in
//! `wuzi_protocol::brain`.
//!
//! Managers start it without arguments. `--engine simple` runs the simple search the
//! protocol started with instead of the main one (a yardstick for `wuzi match`).

use std::process::ExitCode;
use wuzi_search::Engine;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let engine = match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [] | ["--engine", "main"] => Engine::Main,
        ["--engine", "simple"] => Engine::Simple,
        _ => {
            eprintln!("usage: pbrain-wuzi [--engine main|simple]");
            return ExitCode::from(2);
        }
    };
    wuzi_protocol::brain::run_with(engine)
}
