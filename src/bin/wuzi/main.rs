//! `wuzi`: the command-line tool: benchmarks, threat-space solving, engine matches and
//! tournaments, and pictures of games.

use clap::{Parser, Subcommand};
use std::process::ExitCode;
use std::time::Duration;
use wuzi_search::bench as search_bench;

mod analyze;
mod position_args;
mod scaling;
mod show;
mod solve;
mod tune;

#[derive(Parser)]
#[command(name = "wuzi", version, about = "wuzi Gomoku engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run a match between two Gomocup-protocol engines (see `wuzi match --help`).
    Match(wuzi_match::MatchArgs),
    /// Run a round-robin or gauntlet tournament of two or more engines, resumable from its
    /// results file, with ratings and a crosstable (see `wuzi tournament --help`).
    Tournament(wuzi_match::TournamentArgs),
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
    /// Solve a position by threat-space search: a VCF or VCT and its line.
    Solve(solve::SolveArgs),
    /// Search the fixed bench positions to a fixed depth (nodes, time, nodes per second and a
    /// node-count signature), or with --movegen measure make+undo per second.
    Bench {
        /// Make+undo per second with the incremental pattern update instead.
        #[arg(long)]
        movegen: bool,
        /// With --movegen: milliseconds spent on each position.
        #[arg(long, default_value_t = 500)]
        ms: u64,
        /// Override every position's depth.
        #[arg(long)]
        depth: Option<u32>,
        /// Search each position for this many milliseconds instead of to a fixed depth
        /// (reports the depth reached; node counts are then not reproducible).
        #[arg(long)]
        movetime: Option<u64>,
        /// Search threads (1 to 256; 0: one per available core). The signature (--check) is
        /// a one-thread figure.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
        /// Compare the node-count signature with the one in this file; fail if different.
        #[arg(long)]
        check: Option<std::path::PathBuf>,
        /// The evaluation: auto, classic, learned or a weights file.
        #[arg(long, default_value = "auto")]
        eval: String,
        /// Print the score after each depth up to this one on every position, and the mean
        /// swing between consecutive depths, instead of benchmarking.
        #[arg(long, value_name = "DEPTH")]
        swing: Option<u32>,
        /// Print where the one-thread bench's nodes go (node kinds, moves searched per node
        /// by depth, settled nodes, pruning, the rank of the best move) instead of timing.
        #[arg(long)]
        stats: bool,
        /// Print the work and span of the one-thread search on every position, and the
        /// speedups they allow on 2 to 64 threads (docs/parallel.md), instead of benchmarking.
        #[arg(long)]
        model: bool,
        /// The least depths at which principal-variation and other nodes split among
        /// threads, and any node while a thread is idle (each at least 3), for the parallel
        /// bench and for --model (which models the first two).
        #[arg(long, value_name = "PV,OTHER[,IDLE]", value_parser = parse_split_depth, default_value = "3,9,4")]
        split_depth: wuzi_search::SplitDepth,
        /// Measure how the bench scales from one thread to --threads (2 or more; 0: every
        /// core) in this many rounds, each the bench on one thread, on the threads, and as
        /// that many one-thread benches at once (the machine's ceiling); prints each round
        /// and the medians, instead of benchmarking once.
        #[arg(long, value_name = "ROUNDS", value_parser = clap::value_parser!(u32).range(1..=1000),
              conflicts_with_all = ["movegen", "movetime", "check", "swing", "model"])]
        scaling: Option<u32>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Match(args) => ExitCode::from(wuzi_match::run(&args).clamp(0, 255) as u8),
        Command::Tournament(args) => {
            ExitCode::from(wuzi_match::run_tournament_cli(&args).clamp(0, 255) as u8)
        }
        Command::Analyze(args) => ExitCode::from(analyze::run(&args).clamp(0, 255) as u8),
        Command::Show(args) => ExitCode::from(show::run(&args).clamp(0, 255) as u8),
        Command::Solve(args) => ExitCode::from(solve::run(&args).clamp(0, 255) as u8),
        Command::Datagen(args) => ExitCode::from(tune::run_datagen(&args).clamp(0, 255) as u8),
        Command::Tune(args) => ExitCode::from(tune::run_tune(&args).clamp(0, 255) as u8),
        Command::Bench {
            movegen,
            ms,
            depth,
            movetime,
            threads,
            json,
            check,
            eval,
            swing,
            stats,
            model,
            split_depth,
            scaling,
        } => {
            let eval = match wuzi_eval::eval::EvalChoice::from_arg(&eval) {
                Ok(e) => e,
                Err(e) => {
                    eprintln!("wuzi bench: --eval {eval}: {e}");
                    return ExitCode::from(2);
                }
            };
            if stats {
                return match search_bench::node_stats(depth, eval) {
                    Ok(stats) => {
                        print!("{}", stats.report());
                        ExitCode::SUCCESS
                    }
                    Err(e) => {
                        eprintln!("wuzi bench: {e}");
                        ExitCode::FAILURE
                    }
                };
            }
            if let Some(depth) = swing {
                return swing_command(depth, eval);
            }
            if model {
                return model_command(depth, eval, split_depth);
            }
            if movegen {
                movegen_bench(ms, json);
                return ExitCode::SUCCESS;
            }
            let threads = resolve_threads(threads);
            if let Some(rounds) = scaling {
                let settings = search_bench::scaling::Settings {
                    rounds: rounds as usize,
                    threads,
                    depth,
                    eval,
                    split_depth,
                };
                return scaling::run(settings, json);
            }
            if threads != 1 && check.is_some() {
                eprintln!("wuzi bench: --check needs --threads 1: the signature is the node count of one thread (more threads vary from run to run)");
                return ExitCode::from(2);
            }
            search_bench_command(
                depth,
                movetime.map(Duration::from_millis),
                threads,
                eval,
                split_depth,
                json,
                check,
            )
        }
    }
}

/// A thread count from the command line: 0 is one per available core; at most 256.
fn resolve_threads(threads: usize) -> usize {
    let threads = if threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        threads
    };
    threads.clamp(1, wuzi_search::parallel::MAX_THREADS)
}

/// `--split-depth PV,OTHER[,IDLE]`: each at least 3 (a split node prunes by move count
/// only); IDLE, the depth from which any node splits while a thread is idle, defaults to 4.
fn parse_split_depth(text: &str) -> Result<wuzi_search::SplitDepth, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let (pv, other, idle) = match parts[..] {
        [pv, other] => (pv, other, None),
        [pv, other, idle] => (pv, other, Some(idle)),
        _ => {
            return Err(format!(
                "{text:?}: expected PV,OTHER or PV,OTHER,IDLE, e.g. 3,9,4"
            ))
        }
    };
    let depth = |t: &str| -> Result<i32, String> {
        match t.trim().parse::<i32>() {
            Ok(d) if (3..=100).contains(&d) => Ok(d),
            _ => Err(format!(
                "{t:?}: a split depth is a whole number from 3 to 100"
            )),
        }
    };
    Ok(wuzi_search::SplitDepth {
        pv: depth(pv)?,
        other: depth(other)?,
        idle: match idle {
            Some(idle) => depth(idle)?,
            None => wuzi_search::SplitDepth::default().idle,
        },
    })
}

/// `wuzi bench --model`: work, span and the speedups they allow (no search overhead).
fn model_command(
    depth: Option<u32>,
    eval: wuzi_eval::eval::EvalChoice,
    split: wuzi_search::SplitDepth,
) -> ExitCode {
    let rows = match search_bench::model::run(depth, eval, split) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let threads = [2usize, 4, 8, 16, 64];
    println!(
        "{:<18} {:>10} {:>10} {:>8}   speedup at most (at least) on {threads:?} threads",
        "position", "work", "span", "W/S"
    );
    let print = |row: &search_bench::model::WorkSpan| {
        let speedups: Vec<String> = threads
            .iter()
            .map(|&p| {
                let (low, high) = row.speedup(p, 1.0);
                format!("{high:.2} ({low:.2})")
            })
            .collect();
        println!(
            "{:<18} {:>10} {:>10} {:>8.2}   {}",
            row.name,
            row.work,
            row.span,
            row.parallelism(),
            speedups.join("  ")
        );
    };
    rows.iter().for_each(print);
    print(&search_bench::model::WorkSpan {
        name: "all",
        work: rows.iter().map(|r| r.work).sum(),
        span: rows.iter().map(|r| r.span).sum(),
    });
    ExitCode::SUCCESS
}

/// `wuzi bench --swing`: how far the score moves from one depth to the next.
fn swing_command(depth: u32, eval: wuzi_eval::eval::EvalChoice) -> ExitCode {
    let rows = match search_bench::depth_scores(depth, eval) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let (mut total, mut steps) = (0i64, 0i64);
    for (name, scores) in &rows {
        let text: Vec<String> = scores.iter().map(|s| s.to_string()).collect();
        println!("{name:<18} {}", text.join(" "));
        for pair in scores.windows(2) {
            if pair[0].abs() < wuzi_search::WIN_MIN && pair[1].abs() < wuzi_search::WIN_MIN {
                total += i64::from((pair[1] - pair[0]).abs());
                steps += 1;
            }
        }
    }
    println!(
        "mean swing between consecutive depths: {:.1} over {steps} steps",
        total as f64 / steps.max(1) as f64
    );
    ExitCode::SUCCESS
}

fn search_bench_command(
    depth: Option<u32>,
    movetime: Option<Duration>,
    threads: usize,
    eval: wuzi_eval::eval::EvalChoice,
    split_depth: wuzi_search::SplitDepth,
    json: bool,
    check: Option<std::path::PathBuf>,
) -> ExitCode {
    let results = match search_bench::run(depth, movetime, threads, eval, split_depth, |r| {
        if !json {
            println!(
                "{:<18} depth {:>2} best {:<4} score {:>6} nodes {:>10} time {:>7} ms  {:>8} nps  first-move cut-offs {:>5.1}%",
                r.name,
                r.depth,
                r.best.name(),
                r.score,
                r.nodes,
                r.elapsed.as_millis(),
                r.nps(),
                100.0 * r.cutoffs.first_move_rate()
            );
        }
    }) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return ExitCode::from(2);
        }
    };
    let totals = search_bench::Totals::of(&results);
    let (nodes, time) = (totals.nodes, totals.elapsed);
    let nps = totals.nps() as u64;
    let mut cutoffs = wuzi_search::CutoffStats::default();
    for r in &results {
        cutoffs.add(r.cutoffs);
    }
    let first_move_rate = cutoffs.first_move_rate();
    if json {
        let positions: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"name\":\"{}\",\"depth\":{},\"best\":\"{}\",\"score\":{},\"nodes\":{},\"time_ms\":{},\"nps\":{},\"first_move_cutoff_rate\":{:.4}}}",
                    r.name,
                    r.depth,
                    r.best.name(),
                    r.score,
                    r.nodes,
                    r.elapsed.as_millis(),
                    r.nps(),
                    r.cutoffs.first_move_rate()
                )
            })
            .collect();
        println!(
            "{{\"threads\":{threads},\"nodes\":{nodes},\"time_ms\":{},\"nps\":{nps},\"first_move_cutoff_rate\":{first_move_rate:.4},\"signature\":{nodes},\"positions\":[{}]}}",
            time.as_millis(),
            positions.join(",")
        );
    } else {
        println!(
            "total nodes {nodes} time {} ms  {nps} nps  threads {threads}  first-move cut-offs {:.1}%",
            time.as_millis(),
            100.0 * first_move_rate
        );
        println!("signature {nodes}");
    }
    if let Some(path) = check {
        let recorded = match std::fs::read_to_string(&path) {
            Ok(text) => text.trim().to_string(),
            Err(e) => {
                eprintln!("wuzi bench: cannot read {}: {e}", path.display());
                return ExitCode::from(2);
            }
        };
        if recorded != nodes.to_string() {
            eprintln!(
                "wuzi bench: signature {nodes} differs from the recorded {recorded} in {}: search behaviour changed; if on purpose, record the new signature",
                path.display()
            );
            return ExitCode::FAILURE;
        }
        if !json {
            println!("signature matches {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

fn movegen_bench(ms: u64, json: bool) {
    let results = search_bench::movegen::run(Duration::from_millis(ms.max(1)));
    let total: u64 = results.iter().map(|r| r.make_undo).sum();
    let secs: f64 = results.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    let rate = total as f64 / secs.max(1e-9);
    if json {
        let positions: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"name\":\"{}\",\"make_undo\":{},\"time_ms\":{},\"make_undo_per_sec\":{:.0}}}",
                    r.name,
                    r.make_undo,
                    r.elapsed.as_millis(),
                    r.per_second()
                )
            })
            .collect();
        println!(
            "{{\"make_undo\":{total},\"time_ms\":{},\"make_undo_per_sec\":{rate:.0},\"board_bytes\":{},\"positions\":[{}]}}",
            (secs * 1000.0) as u64,
            std::mem::size_of::<wuzi_core::Board>(),
            positions.join(",")
        );
    } else {
        for r in &results {
            println!(
                "{:<32} {:>12} make+undo  {:>12.0} /s",
                r.name,
                r.make_undo,
                r.per_second()
            );
        }
        println!("{:<32} {total:>12} make+undo  {rate:>12.0} /s", "total");
        println!(
            "board struct: {} bytes",
            std::mem::size_of::<wuzi_core::Board>()
        );
    }
}

/// Parses a subcommand's arguments as the command line would give them (for the tests).
#[cfg(test)]
fn parse_test_args<A: clap::Args + clap::FromArgMatches>(name: &'static str, list: &[&str]) -> A {
    let command = A::augment_args(clap::Command::new(name));
    let matches = command
        .try_get_matches_from(std::iter::once(name).chain(list.iter().copied()))
        .expect("arguments");
    A::from_arg_matches(&matches).expect("arguments")
}

#[cfg(test)]
mod tests {
    use super::parse_split_depth;

    #[test]
    fn split_depths_are_two_or_three_depths_from_3() {
        let d = parse_split_depth("3,7").expect("valid");
        assert_eq!((d.pv, d.other, d.idle), (3, 7, 4));
        let d = parse_split_depth(" 4 , 100 ").expect("spaces are fine");
        assert_eq!((d.pv, d.other), (4, 100));
        let d = parse_split_depth("3,7,5").expect("valid");
        assert_eq!((d.pv, d.other, d.idle), (3, 7, 5));
        for bad in ["3", "2,7", "3,101", "a,7", "3,7,2", "3,7,4,4", "3,7,", ""] {
            assert!(parse_split_depth(bad).is_err(), "{bad:?}");
        }
    }
}
