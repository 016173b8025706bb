//! wuzi-cli: the `wuzi` command line. It owns every subcommand's arguments (clap), its run
//! function and its printing; the work itself is a call into the crate that owns it, and the
//! `wuzi` binary only parses ([`Cli`]), calls [`run`] and exits with the code it returns.
//!
//! - [`args`]: the argument module, the one home of the readers of argument values
//!   (durations, board sizes, byte counts, engine specs, split depths); [`position`]: the
//!   position arguments `solve` and `analyze` share;
//! - [`bench`]: `wuzi bench` and its modes (`--movegen`, `--swing`, `--model`,
//!   `--scaling`), with their printing; the measuring is `wuzi_search::bench`;
//! - [`mates`]: the forced-line suite: `wuzi bench --mates` and `wuzi mates extract`, over
//!   `wuzi_search::bench::mates` and `wuzi_match::mates`;
//! - [`solve`], [`analyze`]: a position's threat-space solution and its multi-PV analysis;
//! - [`show`]: pictures of positions and games (`wuzi_show`);
//! - [`match_cmd`], [`tournament`]: `wuzi match` and `wuzi tournament` over `wuzi_match`,
//!   with [`progress`], the live display of a match;
//! - [`tune`]: `wuzi datagen` and `wuzi tune` over `wuzi_tune`; [`tune_order`]: `wuzi
//!   tune-order`; [`expand_tables`]: `wuzi expand-tables`, the rewrite of learned tables of
//!   the coarse line patterns for the fine ones;
//! - [`serve`]: `wuzi serve`, the web board over `wuzi_serve`.
//!
//! Exit codes, for every subcommand: 0 done (for `solve`, a win found), 1 it could not be
//! done to the end (for `solve`, no win found; for `bench --check`, another signature), 2 the
//! arguments or the input make no sense. Every error is one clear line on standard error;
//! nothing here panics on user input.

pub mod analyze;
pub mod args;
pub mod bench;
pub mod expand_tables;
pub mod match_cmd;
pub mod mates;
pub mod position;
pub mod progress;
pub mod serve;
pub mod show;
pub mod solve;
pub mod tournament;
pub mod tune;
pub mod tune_order;

use clap::{Parser, Subcommand};

/// The `wuzi` command line.
#[derive(Parser, Debug)]
#[command(name = "wuzi", version, about = "wuzi Gomoku engine tools")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a match between two Gomocup-protocol engines (see `wuzi match --help`).
    Match(match_cmd::MatchArgs),
    /// Run a round-robin or gauntlet tournament of two or more engines, resumable from its
    /// results file, with ratings and a crosstable (see `wuzi tournament --help`).
    Tournament(tournament::TournamentArgs),
    /// Analyse a position for a chosen time: the best moves, each with its line (multi-PV).
    Analyze(analyze::AnalyzeArgs),
    /// Draw a position or a game (a move list, an SGF or .psq file, a game of a results
    /// file) as SVG.
    Show(show::ShowArgs),
    /// Play self-play games at a fixed node budget (or read game records) and write training
    /// positions for the learned evaluation.
    Datagen(tune::DatagenArgs),
    /// Fit the learned evaluation's weights to training positions (Texel method).
    Tune(tune::TuneArgs),
    /// Fit the learned move-ordering table to the moves the search found best in training
    /// positions (`wuzi datagen --proven-wins`).
    TuneOrder(tune_order::TuneOrderArgs),
    /// Rewrite weights files and move-ordering tables made for the twelve coarse line
    /// patterns for the fine ones, in place, with the same values (every fine combo valued as
    /// the coarse combo it coarsens to).
    ExpandTables(expand_tables::ExpandTablesArgs),
    /// Solve a position by threat-space search: a VCF or VCT and its line.
    Solve(solve::SolveArgs),
    /// Start the web board: a local web server whose page plays and analyses with the engine
    /// (see `wuzi serve --help`).
    Serve(serve::ServeArgs),
    /// Search the fixed bench positions to a fixed depth (nodes, time, nodes per second and a
    /// node-count signature), or with --movegen measure make+undo per second, or with --mates
    /// the time to see the forced wins of a suite.
    Bench(bench::BenchArgs),
    /// The forced-line suite: build it from match records (`wuzi mates extract`); run it
    /// with `wuzi bench --mates FILE`.
    Mates(mates::MatesCommand),
}

/// Makes a closed standard output (the reader of a pipe gone, as with `wuzi bench | head`)
/// end the process quietly with exit code 0 instead of a panic's message: the printing
/// macros panic when a write fails, and a reader that stopped reading wants no more.
pub fn quiet_on_closed_output() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        report(info);
    }));
}

/// Runs the subcommand; returns the process exit code.
pub fn run(cli: Cli) -> u8 {
    match cli.command {
        Command::Match(args) => match_cmd::run(&args),
        Command::Tournament(args) => tournament::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Show(args) => show::run(&args),
        Command::Solve(args) => solve::run(&args),
        Command::Datagen(args) => tune::run_datagen(&args),
        Command::Tune(args) => tune::run_tune(&args),
        Command::TuneOrder(args) => tune_order::run(&args),
        Command::ExpandTables(args) => expand_tables::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Mates(args) => mates::command(&args),
    }
}

/// Parses one subcommand's arguments as the command line would give them (for the tests).
#[cfg(test)]
fn try_parse_test_args<A: clap::Args + clap::FromArgMatches>(
    name: &'static str,
    list: &[&str],
) -> Result<A, clap::Error> {
    let command = A::augment_args(clap::Command::new(name));
    let matches =
        command.try_get_matches_from(std::iter::once(name).chain(list.iter().copied()))?;
    A::from_arg_matches(&matches)
}

/// [`try_parse_test_args`] of arguments that must parse.
#[cfg(test)]
fn parse_test_args<A: clap::Args + clap::FromArgMatches>(name: &'static str, list: &[&str]) -> A {
    match try_parse_test_args(name, list) {
        Ok(a) => a,
        Err(e) => panic!("{name} {list:?}: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
