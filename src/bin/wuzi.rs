//! `wuzi`: the command-line tool (benchmarks for now; analysis and matches come with their
//! issues).

use clap::{Parser, Subcommand};
use std::time::Duration;

#[derive(Parser)]
#[command(name = "wuzi", version, about = "wuzi Gomoku engine tools")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure speed.
    Bench {
        /// Make+undo per second with the incremental pattern update.
        #[arg(long)]
        movegen: bool,
        /// Milliseconds spent on each position.
        #[arg(long, default_value_t = 500)]
        ms: u64,
        /// Print one JSON object.
        #[arg(long)]
        json: bool,
    },
}

fn main() {
    let cli = Cli::parse();
    match cli.command {
        Command::Bench { movegen, ms, json } => {
            if !movegen {
                eprintln!("only `wuzi bench --movegen` exists so far (the search bench comes with the search)");
                std::process::exit(2);
            }
            let results = wuzi::movegen_bench::run(Duration::from_millis(ms.max(1)));
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
                    "{{\"make_undo\":{total},\"time_ms\":{},\"make_undo_per_sec\":{rate:.0},\"positions\":[{}]}}",
                    (secs * 1000.0) as u64,
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
    }
}
