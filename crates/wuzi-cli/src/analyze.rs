//! `wuzi analyze`: a multi-PV analysis of one position for a chosen time, with a progress
//! line per completed iteration on standard error, the best lines at the end, and the best
//! line as a picture with `--svg`. The search is `wuzi_search::Searcher` (its `multipv`
//! limit); reading the position is `wuzi_core::notation`, as for `wuzi solve`.
//!
//! Exit status of [`run`]: 0 the analysis was printed, 2 bad input (a message on standard
//! error; nothing here panics on user input).

use crate::args::parse_duration;
use crate::position::PositionArgs;
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wuzi_core::notation::{format_moves, Position};
use wuzi_search::{Info, Limits, Searcher, WIN, WIN_MIN};

#[derive(Args, Debug, Clone)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// How long to think: 500ms, 2s, 1m; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "5s", value_parser = parse_duration)]
    pub time: Duration,
    /// Stop at this depth (default: only the time bounds the search).
    #[arg(long)]
    pub depth: Option<u32>,
    /// How many best moves to find, each with its line.
    #[arg(long, default_value_t = 3)]
    pub lines: usize,
    /// Transposition table size in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 64)]
    pub hash: usize,
    /// Search threads (1 to 256; 0: one per available core).
    #[arg(long, default_value_t = 1)]
    pub threads: u64,
    /// Draw the position and the best line (numbered ghost stones) as SVG here.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// A score in words: `+35`, `win in 7`, `loss in 4`.
fn score_text(score: i32) -> String {
    if score >= WIN_MIN {
        format!("win in {}", WIN - score)
    } else if score <= -WIN_MIN {
        format!("loss in {}", WIN + score)
    } else {
        format!("{score:+}")
    }
}

fn position(args: &AnalyzeArgs) -> Result<Position, String> {
    let pos = args.position.read().map_err(|e| e.to_string())?;
    if pos.to_move != pos.board.side_to_move() {
        return Err("the diagram's side to move is not the side the stones give; analyze a move list instead".into());
    }
    Ok(pos)
}

/// Runs `wuzi analyze`; returns the exit status.
pub fn run(args: &AnalyzeArgs) -> u8 {
    let pos = match position(args) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("wuzi analyze: {e}");
            return 2;
        }
    };
    if args.lines == 0 {
        eprintln!("wuzi analyze: --lines must be at least 1");
        return 2;
    }
    let limits = Limits {
        soft_time: Some(args.time),
        hard_time: Some(args.time),
        max_depth: args.depth,
        multipv: args.lines,
        analysis: true,
        ..Limits::default()
    };
    let mut searcher = Searcher::new(args.hash.saturating_mul(1 << 20));
    if let Err(e) = searcher.set_threads(wuzi_search::resolve_threads(args.threads)) {
        eprintln!("wuzi analyze: {e}");
        return 2;
    }
    let stop = AtomicBool::new(false);
    let mut latest: Vec<Info> = Vec::new();
    let mut on_info = |info: &Info| {
        if info.multipv == 1 {
            eprintln!(
                "depth {:>2}  best {:<4} {:>12}  nodes {:>10}  {:>6} ms  pv {}",
                info.depth,
                info.pv.first().map(|p| p.name()).unwrap_or_default(),
                score_text(info.score),
                info.nodes,
                info.elapsed.as_millis(),
                format_moves(&info.pv)
            );
        }
        latest.retain(|l| l.multipv != info.multipv);
        latest.push(info.clone());
    };
    let Some(result) = searcher.search(&pos.board, &limits, &stop, &mut on_info) else {
        eprintln!("wuzi analyze: no legal move in this position");
        return 2;
    };
    latest.sort_by_key(|l| l.multipv);
    println!(
        "Analysis: {} {}x{}, {} to move, depth {}, {} nodes",
        pos.board.rule(),
        pos.board.width(),
        pos.board.height(),
        if pos.to_move == wuzi_core::Color::Black {
            "Black"
        } else {
            "White"
        },
        result.depth,
        result.nodes
    );
    for (i, (point, score)) in result.lines.iter().enumerate() {
        let pv = latest
            .iter()
            .find(|l| l.pv.first() == Some(point))
            .map(|l| format_moves(&l.pv))
            .unwrap_or_else(|| point.name());
        println!(
            "{:>2}. {:<4} {:>12}  {pv}",
            i + 1,
            point.name(),
            score_text(*score)
        );
    }
    if let Some(path) = &args.svg {
        let best = latest
            .iter()
            .find(|l| l.pv.first() == Some(&result.best))
            .map(|l| l.pv.clone())
            .unwrap_or_else(|| vec![result.best]);
        let drawn = crate::show::position_svg(&pos.board, &best, pos.to_move)
            .and_then(|text| crate::show::write_out(Some(path), &text));
        if let Err(e) = drawn {
            eprintln!("wuzi analyze: {e}");
            return 2;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> AnalyzeArgs {
        crate::parse_test_args("analyze", list)
    }

    #[test]
    fn analyzes_to_a_depth_and_draws_the_line() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "analyze");
        let path = dir.join("best.svg");
        let p = path.display().to_string();
        let a = args(&[
            "h8i9j10", "--depth", "3", "--time", "60s", "--lines", "2", "--hash", "4", "--svg", &p,
        ]);
        assert_eq!(run(&a), 0);
        let text = std::fs::read_to_string(&path).expect("svg written");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(text.matches("class=\"stone\"").count(), 3);
        assert!(text.contains("class=\"ghost\""));
    }

    #[test]
    fn scores_in_words() {
        assert_eq!(score_text(35), "+35");
        assert_eq!(score_text(WIN - 7), "win in 7");
        assert_eq!(score_text(-(WIN - 4)), "loss in 4");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            vec!["h8h8"],
            vec![],
            vec!["h8", "--lines", "0"],
            vec!["q1", "--size", "9"],
        ] {
            assert_eq!(run(&args(&bad)), 2, "{bad:?}");
        }
    }
}
