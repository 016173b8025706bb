//! `wuzi`: the command-line tool (benchmarks, solving, analysis, engine matches and
//! tournaments, pictures, training the evaluation). Every subcommand's arguments, run and
//! printing are `wuzi_cli`'s; this shell parses, calls and returns the exit code.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    wuzi_cli::quiet_on_closed_output();
    ExitCode::from(wuzi_cli::run(wuzi_cli::Cli::parse()))
}
