//! `wuzi bench` and its modes: its arguments, the choice of mode, and the printing of each
//! (text or one JSON object). The measuring is `wuzi_search::bench`: the search bench (fixed
//! positions to a fixed depth or for a fixed time; its one-thread node count is the
//! signature `.ci/run` checks), `--movegen` (make+undo per second), `--swing` (the score
//! after each depth), `--model` (work and span) and `--scaling` ([`scaling`]); `--mates` is
//! [`crate::mates`].
//!
//! Exit status of [`run`]: 0 measured, 1 the signature differs from the one in `--check`'s
//! file, 2 bad arguments (a message on standard error).

pub mod scaling;

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use wuzi_eval::eval::EvalChoice;
use wuzi_search::bench as search_bench;

use crate::args::{parse_duration, parse_split_depth};

/// Time on each position of `--movegen` when `--time` is not given.
const MOVEGEN_TIME: Duration = Duration::from_millis(500);

/// The arguments of `wuzi bench`.
#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Make+undo per second with the incremental pattern update instead.
    #[arg(long)]
    pub movegen: bool,
    /// Search each position for this long instead of to a fixed depth (reports the depth
    /// reached; node counts are then not reproducible); with --movegen, the time on each
    /// position (default 500ms); with --mates, the cap per position (default 3s). 500ms,
    /// 2s, 1m; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", value_parser = parse_duration, aliases = ["movetime", "ms"])]
    pub time: Option<Duration>,
    /// Override every position's depth.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads (1 to 256; 0: one per available core). The signature (--check) is
    /// a one-thread figure.
    #[arg(long, default_value_t = 1)]
    pub threads: u64,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Compare the node-count signature with the one in this file; fail if different.
    #[arg(long)]
    pub check: Option<PathBuf>,
    /// The evaluation: auto, classic, learned or a weights file.
    #[arg(long, value_name = "auto|classic|learned|FILE", default_value = "auto",
          value_parser = EvalChoice::from_arg)]
    pub eval: EvalChoice,
    /// Print the score after each depth up to this one on every position, and the mean
    /// swing between consecutive depths, instead of benchmarking.
    #[arg(long, value_name = "DEPTH")]
    pub swing: Option<u32>,
    /// Print where the one-thread bench's nodes go (node kinds, moves searched per node by
    /// depth, settled nodes, pruning, the effective branching factor, the rank of the best
    /// move) instead of timing.
    #[arg(long)]
    pub stats: bool,
    /// Print the work and span of the one-thread search on every position, and the
    /// speedups they allow on 2 to 64 threads (docs/parallel.md), instead of benchmarking.
    #[arg(long)]
    pub model: bool,
    /// The least depths at which principal-variation and other nodes split among
    /// threads, and any node while a thread is idle (each at least 3), for the parallel
    /// bench and for --model (which models the first two).
    #[arg(long, value_name = "PV,OTHER[,IDLE]", value_parser = parse_split_depth, default_value = "3,9,4")]
    pub split_depth: wuzi_search::SplitDepth,
    /// Measure how the bench scales from one thread to --threads (2 or more; 0: every
    /// core) in this many rounds, each the bench on one thread, on the threads, and as
    /// that many one-thread benches at once (the machine's ceiling); prints each round
    /// and the medians, instead of benchmarking once.
    #[arg(long, value_name = "ROUNDS", value_parser = clap::value_parser!(u32).range(1..=1000),
          conflicts_with_all = ["movegen", "time", "check", "swing", "model"])]
    pub scaling: Option<u32>,
    #[command(flatten)]
    pub mates: crate::mates::MatesArgs,
}

/// Runs `wuzi bench` in the mode its arguments choose; returns the exit status.
pub fn run(args: &BenchArgs) -> u8 {
    if args.stats {
        return match search_bench::node_stats(args.depth, args.eval) {
            Ok(stats) => {
                print!("{}", stats.report());
                0
            }
            Err(e) => {
                eprintln!("wuzi bench: {e}");
                1
            }
        };
    }
    if let Some(file) = &args.mates.mates {
        let threads = wuzi_search::resolve_threads(args.threads);
        return crate::mates::bench(&args.mates, file, args.time, threads, args.eval, args.json);
    }
    if let Some(depth) = args.swing {
        return swing(depth, args.eval);
    }
    if args.model {
        return model(args.depth, args.eval, args.split_depth);
    }
    if args.movegen {
        movegen(args.time.unwrap_or(MOVEGEN_TIME), args.json);
        return 0;
    }
    let threads = wuzi_search::resolve_threads(args.threads);
    if let Some(rounds) = args.scaling {
        let settings = search_bench::scaling::Settings {
            rounds: rounds as usize,
            threads,
            depth: args.depth,
            eval: args.eval,
            split_depth: args.split_depth,
        };
        return scaling::run(settings, args.json);
    }
    if threads != 1 && args.check.is_some() {
        eprintln!("wuzi bench: --check needs --threads 1: the signature is the node count of one thread (more threads vary from run to run)");
        return 2;
    }
    search(args, threads)
}

/// `wuzi bench --model`: work, span and the speedups they allow (no search overhead).
fn model(depth: Option<u32>, eval: EvalChoice, split: wuzi_search::SplitDepth) -> u8 {
    let rows = match search_bench::model::run(depth, eval, split) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return 2;
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
    0
}

/// `wuzi bench --swing`: how far the score moves from one depth to the next.
fn swing(depth: u32, eval: EvalChoice) -> u8 {
    let rows = match search_bench::depth_scores(depth, eval) {
        Ok(rows) => rows,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return 2;
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
    0
}

/// A position's line of the search bench.
fn position_text(r: &search_bench::BenchResult) -> String {
    format!(
        "{:<18} depth {:>2} best {:<4} score {:>6} nodes {:>10} time {:>7} ms  {:>8} nps  first-move cut-offs {:>5.1}%",
        r.name,
        r.depth,
        r.best.name(),
        r.score,
        r.nodes,
        r.elapsed.as_millis(),
        r.nps(),
        100.0 * r.cutoffs.first_move_rate()
    )
}

/// A position of the search bench as a JSON object.
fn position_json(r: &search_bench::BenchResult) -> String {
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
}

/// The search bench: a line a position, the totals and the signature (or one JSON object),
/// and the signature checked against `--check`'s file.
fn search(args: &BenchArgs, threads: usize) -> u8 {
    let json = args.json;
    let (depth, time, eval, split) = (args.depth, args.time, args.eval, args.split_depth);
    let run = search_bench::run(depth, time, threads, eval, split, |r| {
        if !json {
            println!("{}", position_text(r));
        }
    });
    let results = match run {
        Ok(r) => r,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return 2;
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
        let positions: Vec<String> = results.iter().map(position_json).collect();
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
    if let Some(path) = &args.check {
        let recorded = match std::fs::read_to_string(path) {
            Ok(text) => text.trim().to_string(),
            Err(e) => {
                eprintln!("wuzi bench: cannot read {}: {e}", path.display());
                return 2;
            }
        };
        if recorded != nodes.to_string() {
            eprintln!(
                "wuzi bench: signature {nodes} differs from the recorded {recorded} in {}: search behaviour changed; if on purpose, record the new signature",
                path.display()
            );
            return 1;
        }
        if !json {
            println!("signature matches {}", path.display());
        }
    }
    0
}

/// `wuzi bench --movegen`: make+undo per second on each position, `time` on each.
fn movegen(time: Duration, json: bool) {
    let results = search_bench::movegen::run(time.max(Duration::from_millis(1)));
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

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> BenchArgs {
        crate::parse_test_args("bench", list)
    }

    fn refused(list: &[&str]) -> bool {
        crate::try_parse_test_args::<BenchArgs>("bench", list).is_err()
    }

    #[test]
    fn the_time_on_each_position_reads_durations_and_its_old_spellings() {
        let second = Some(Duration::from_secs(1));
        assert_eq!(args(&["--time", "1s"]).time, second);
        assert_eq!(args(&["--time", "1000"]).time, second);
        assert_eq!(args(&["--movetime", "1000"]).time, second);
        assert_eq!(
            args(&["--movegen", "--ms", "250"]).time,
            Some(Duration::from_millis(250))
        );
        assert_eq!(args(&[]).time, None);
        assert!(refused(&["--time", "soon"]));
        assert!(refused(&["--scaling", "2", "--movetime", "5"]));
        assert!(refused(&["--eval", "/nonexistent/weights.txt"]));
    }

    #[test]
    fn the_class_order_goes_with_the_mates_suite_only() {
        assert!(
            args(&["--mates", "suite.txt", "--class-order"])
                .mates
                .class_order
        );
        assert!(!args(&["--mates", "suite.txt"]).mates.class_order);
        assert!(refused(&["--class-order"]));
    }

    #[test]
    fn modes_run_and_bad_combinations_are_refused() {
        // The signature is a one-thread figure: nothing is searched.
        assert_eq!(run(&args(&["--check", "x", "--threads", "2"])), 2);
        assert_eq!(run(&args(&["--movegen", "--time", "1ms", "--json"])), 0);
    }
}
