//! `wuzi bench --mates FILE`, `wuzi mates extract` and `wuzi mates alternatives`: the
//! command lines of the forced-line suite (arguments and printing only; the work is
//! `wuzi_search::bench::mates` and `wuzi_match::mates`).
//!
//! Exit status of [`bench`]: 0 run, 1 some engine failed on some position (its rows say
//! why; the figures leave those out), 2 bad arguments or an unreadable suite. Of
//! [`command`]: `extract` 0 written, 1 the file could not be written, 2 bad arguments or
//! records; `alternatives` 0 run (and written), 1 some position without a verdict or the
//! file not written, 2 bad arguments or an unreadable suite or `--out` file.

use std::path::{Path, PathBuf};
use std::time::Duration;

use wuzi_core::Rule;
use wuzi_match::mates::alternatives::{merge, run_alternatives, totals, AlternativesSetup};
use wuzi_match::mates::extract::{extract, Batch, Names};
use wuzi_match::mates::{run_suite, MatesSetup};
use wuzi_search::bench::mates::{
    format_suite, read_suite, Attacker, Filter, MatePosition, MateSettings, Split, MATE_HASH_BYTES,
};

use crate::args::parse_engine_spec;

/// The cap per position when `--time` is not given.
pub const DEFAULT_CAP: Duration = Duration::from_secs(3);

/// The `--mates` options of `wuzi bench` (`--time`, `--threads`, `--eval` and `--json` are
/// the bench's own).
#[derive(clap::Args, Debug, Clone)]
pub struct MatesArgs {
    /// Run the forced-line suite in FILE instead (data/mates/suite.txt): for each position,
    /// the time and nodes until wuzi first reports a proven win for the side to move, within
    /// --time (default 3s; also the other engine's turn time).
    #[arg(long, value_name = "FILE",
          conflicts_with_all = ["movegen", "check", "swing", "model", "scaling", "depth"])]
    pub mates: Option<PathBuf>,
    /// With --mates: also run this engine (a `wuzi match` engine spec, e.g.
    /// `cmd=path/to/pbrain-x,name=x`) on every position, over the protocol, side by side.
    #[arg(long, value_name = "SPEC", requires = "mates")]
    pub engine: Option<String>,
    /// With --mates: only positions of this split: train or held-out.
    #[arg(long, requires = "mates")]
    pub split: Option<Split>,
    /// With --mates: only positions of this rule (repeat for more).
    #[arg(long, requires = "mates")]
    pub rule: Vec<Rule>,
    /// With --mates: only positions of this board size, N or WxH (repeat for more).
    #[arg(long, value_name = "N|WxH", value_parser = crate::args::parse_size, requires = "mates")]
    pub size: Vec<(usize, usize)>,
    /// With --mates: only positions whose win is the sparring engine's (sparring) or wuzi's
    /// (wuzi).
    #[arg(long, requires = "mates")]
    pub attacker: Option<Attacker>,
    /// With --mates: cap wuzi's search of each position at N nodes instead of a time (with
    /// one thread, the same figures on any machine); --time still caps the other engine.
    #[arg(long, value_name = "N", requires = "mates")]
    pub nodes: Option<u64>,
    /// With --mates: wuzi orders its moves by the hand-set class scores instead of the
    /// learned ordering table (to compare the two).
    #[arg(long, requires = "mates")]
    pub class_order: bool,
}

/// A suite file read and checked, or why not (the path in the message).
fn read_suite_file(path: &Path) -> Result<Vec<MatePosition>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    read_suite(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `wuzi bench --mates FILE`: `time` is the cap (default [`DEFAULT_CAP`]); `threads` and
/// `eval` are wuzi's.
pub fn bench(
    args: &MatesArgs,
    file: &Path,
    time: Option<Duration>,
    threads: usize,
    eval: wuzi_eval::eval::EvalChoice,
    json: bool,
) -> u8 {
    let fail = |why: String| {
        eprintln!("wuzi bench --mates: {why}");
        2
    };
    let suite = match read_suite_file(file) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let engine = match args.engine.as_deref().map(parse_engine_spec).transpose() {
        Ok(e) => e,
        Err(e) => return fail(format!("--engine: {e}")),
    };
    let cap = time.unwrap_or(DEFAULT_CAP);
    if cap.is_zero() {
        return fail("--time must be above 0".into());
    }
    if args.nodes == Some(0) {
        return fail("--nodes must be above 0".into());
    }
    let filter = Filter {
        split: args.split,
        attacker: args.attacker,
        rules: args.rule.clone(),
        sizes: args.size.clone(),
    };
    let positions: Vec<_> = suite.into_iter().filter(|p| filter.accepts(p)).collect();
    if positions.is_empty() {
        return fail("no position of the suite passes the filters".into());
    }
    let setup = MatesSetup {
        wuzi: MateSettings {
            cap,
            max_nodes: args.nodes,
            threads,
            eval,
            hash_bytes: MATE_HASH_BYTES,
            learned_order: !args.class_order,
        },
        engine,
        max_memory: wuzi_match::config::GOMOCUP_MAX_MEMORY,
    };
    let report = run_suite(&positions, &setup, |report, row| {
        let line = report.row_text(row);
        if json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    });
    let report = match report {
        Ok(r) => r,
        Err(e) => {
            eprintln!("wuzi bench --mates: {e}");
            return 1;
        }
    };
    if json {
        println!("{}", report.json());
    } else {
        print!("\n{}", report.text());
    }
    // An engine that could not be run on some position: the figures lack those positions.
    let failed = report
        .rows
        .iter()
        .flat_map(|r| &r.runs)
        .filter(|r| r.error.is_some())
        .count();
    if failed > 0 {
        eprintln!("wuzi bench --mates: {failed} runs failed (see their rows)");
        return 1;
    }
    0
}

/// `wuzi mates ...`.
#[derive(clap::Args, Debug)]
pub struct MatesCommand {
    #[command(subcommand)]
    command: MatesSub,
}

#[derive(clap::Subcommand, Debug)]
enum MatesSub {
    /// Write the forced-line suite from match records: each batch is PREFIX.sgf (`wuzi match
    /// --sgf`) and PREFIX.log (`--message-log`) of a match of wuzi against the sparring
    /// engine. A game gives the position before the sparring engine's first announced forced
    /// win (`+M<n>`) that wuzi had not yet seen, and the first position where wuzi has a
    /// forced win it or the sparring engine announced (data/README.md, mates/).
    Extract {
        /// A batch at equal time: NAME=PREFIX (repeat for more, in order).
        #[arg(long, value_name = "NAME=PREFIX")]
        batch: Vec<String>,
        /// A batch at time odds (only wuzi's wins are taken): NAME=PREFIX.
        #[arg(long, value_name = "NAME=PREFIX")]
        odds: Vec<String>,
        /// wuzi's name in the records.
        #[arg(long, default_value = "wuzi")]
        wuzi: String,
        /// The sparring engine's name in the records.
        #[arg(long, default_value = "sparring")]
        sparring: String,
        /// Write the suite here.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// The defence measure: for each suite position, take the position one move earlier (the
    /// defender to move), let the chooser play there, and ask the judge (to move after that
    /// choice) whether it now announces a forced win. Prints how many choices let a win in
    /// (fewer is better) and, with --out, adds the positions after those choices (the
    /// game's own move aside) to FILE as suite positions (data/README.md, mates/).
    Alternatives(AlternativesArgs),
}

/// The options of `wuzi mates alternatives`.
#[derive(clap::Args, Debug)]
pub struct AlternativesArgs {
    /// The suite whose positions are taken one move back.
    #[arg(long, value_name = "FILE", default_value = "data/mates/suite.txt")]
    suite: PathBuf,
    /// The engine whose choices are judged (a `wuzi match` engine spec, e.g.
    /// `cmd=target/release/pbrain-wuzi`).
    #[arg(long, value_name = "SPEC")]
    chooser: String,
    /// The engine that looks for a win after each choice (an engine spec; usually the
    /// sparring engine, `name=sparring`, the name written into the sources of --out).
    #[arg(long, value_name = "SPEC")]
    judge: String,
    /// The chooser's turn time.
    #[arg(long, value_name = "TIME", default_value = "500ms", value_parser = crate::args::parse_duration)]
    time: Duration,
    /// The judge's turn time: a win it announces later does not count.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = crate::args::parse_duration)]
    judge_time: Duration,
    /// Positions run at once (each one engine at a time): one per core.
    #[arg(long, value_name = "N", default_value_t = 2)]
    jobs: usize,
    /// Sent to both engines as `INFO max_memory` (bytes; 0 is unlimited). Each position is
    /// a fresh process, so an engine that sizes its table to it pays for the table on every
    /// choice, as on a game's first move.
    #[arg(long, value_name = "BYTES", default_value_t = wuzi_match::config::GOMOCUP_MAX_MEMORY)]
    max_memory: u64,
    /// Add the positions after losing choices to this suite file (positions already in it
    /// stay; it is made if missing).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Only positions of this split: train or held-out.
    #[arg(long)]
    split: Option<Split>,
    /// Only positions of this rule (repeat for more).
    #[arg(long)]
    rule: Vec<Rule>,
    /// Only positions of this board size, N or WxH (repeat for more).
    #[arg(long, value_name = "N|WxH", value_parser = crate::args::parse_size)]
    size: Vec<(usize, usize)>,
    /// Only positions whose win is this side's: sparring (the default: the chooser stands
    /// where wuzi stood in the game) or wuzi.
    #[arg(long, default_value = "sparring")]
    attacker: Attacker,
}

/// Runs `wuzi mates ...`; returns the exit status.
pub fn command(args: &MatesCommand) -> u8 {
    match &args.command {
        MatesSub::Extract {
            batch,
            odds,
            wuzi,
            sparring,
            out,
        } => extract_command(batch, odds, wuzi, sparring, out),
        MatesSub::Alternatives(args) => alternatives_command(args),
    }
}

fn alternatives_command(args: &AlternativesArgs) -> u8 {
    let fail = |why: String| {
        eprintln!("wuzi mates alternatives: {why}");
        2
    };
    let suite = match read_suite_file(&args.suite) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let (chooser, judge) = match (
        parse_engine_spec(&args.chooser),
        parse_engine_spec(&args.judge),
    ) {
        (Ok(c), Ok(j)) => (c, j),
        (Err(e), _) => return fail(format!("--chooser: {e}")),
        (_, Err(e)) => return fail(format!("--judge: {e}")),
    };
    if args.time.is_zero() || args.judge_time.is_zero() {
        return fail("--time and --judge-time must be above 0".into());
    }
    if args.jobs == 0 {
        return fail("--jobs must be at least 1".into());
    }
    // An --out file that exists must read as a suite: its positions are kept.
    let kept = match &args.out {
        Some(out) if out.exists() => match read_suite_file(out) {
            Ok(k) => k,
            Err(e) => return fail(e),
        },
        _ => Vec::new(),
    };
    let filter = Filter {
        split: args.split,
        attacker: Some(args.attacker),
        rules: args.rule.clone(),
        sizes: args.size.clone(),
    };
    let positions: Vec<_> = suite
        .iter()
        .filter(|p| filter.accepts(p))
        .cloned()
        .collect();
    if positions.is_empty() {
        return fail("no position of the suite passes the filters".into());
    }
    let setup = AlternativesSetup {
        chooser,
        choose_time: args.time,
        judge,
        judge_time: args.judge_time,
        jobs: args.jobs,
        max_memory: args.max_memory,
    };
    let rows = run_alternatives(&positions, &setup, |row| println!("{}", row.text()));
    let t = totals(&rows);
    println!(
        "\n{} at {} ms: {}/{} choices let in a forced win ({} replay the game's move; {} without \
         a verdict)",
        setup.chooser.name,
        setup.choose_time.as_millis(),
        t.lose,
        t.positions,
        t.game_moves,
        t.failed
    );
    let mut status = u8::from(t.failed > 0);
    if let Some(out) = &args.out {
        let new = rows
            .iter()
            .filter_map(|r| r.as_position(&setup.judge.name))
            .collect();
        let order: Vec<String> = suite.iter().map(|p| p.id.clone()).collect();
        let all = merge(kept, new, &order);
        let comments = vec![
            "wuzi's own losing choices: data/README.md, mates/ (`wuzi mates alternatives`)"
                .to_string(),
        ];
        let written = format_suite(&comments, &all)
            .map_err(|e| e.to_string())
            .and_then(|text| std::fs::write(out, text).map_err(|e| e.to_string()));
        match written {
            Ok(()) => println!("{}: {} positions", out.display(), all.len()),
            Err(e) => {
                eprintln!(
                    "wuzi mates alternatives: cannot write {}: {e}",
                    out.display()
                );
                status = 1;
            }
        }
    }
    status
}

fn extract_command(
    batch: &[String],
    odds: &[String],
    wuzi: &str,
    sparring: &str,
    out: &Path,
) -> u8 {
    let fail = |why: String| {
        eprintln!("wuzi mates extract: {why}");
        2
    };
    // name, sgf text, log text, odds
    let mut records: Vec<(String, String, String, bool)> = Vec::new();
    let all = batch
        .iter()
        .map(|b| (b, false))
        .chain(odds.iter().map(|b| (b, true)));
    for (text, is_odds) in all {
        let Some((name, prefix)) = text.split_once('=') else {
            return fail(format!("\"{text}\" is not NAME=PREFIX"));
        };
        let read = |ext: &str| {
            let path = format!("{prefix}.{ext}");
            std::fs::read_to_string(&path).map_err(|e| format!("cannot read {path}: {e}"))
        };
        let (sgf, log) = match (read("sgf"), read("log")) {
            (Ok(s), Ok(l)) => (s, l),
            (Err(e), _) | (_, Err(e)) => return fail(e),
        };
        records.push((name.to_string(), sgf, log, is_odds));
    }
    if records.is_empty() {
        return fail("give at least one --batch or --odds".into());
    }
    let batches: Vec<Batch> = records
        .iter()
        .map(|(name, sgf, log, odds)| Batch {
            name,
            sgf,
            log,
            odds: *odds,
        })
        .collect();
    let (positions, counts) = match extract(&batches, Names { wuzi, sparring }) {
        Ok(r) => r,
        Err(e) => return fail(e.to_string()),
    };
    let mut comments = vec![
        "wuzi's forced-line suite: positions from wuzi's games against the sparring engine"
            .to_string(),
        "(data/README.md, mates/). Made by `wuzi mates extract` (scripts/mates-suite.sh).".into(),
        "batch: games, the sparring engine's wins taken, wuzi's wins taken, first wins wuzi had seen"
            .into(),
    ];
    for c in &counts {
        let at_odds = records
            .iter()
            .any(|(name, _, _, odds)| *name == c.name && *odds);
        comments.push(format!(
            "  {}: {} games, {} sparring, {} wuzi, {} seen{}",
            c.name,
            c.games,
            c.sparring_wins,
            c.wuzi_wins,
            c.seen_first,
            if at_odds { " (time odds)" } else { "" }
        ));
    }
    let text = match format_suite(&comments, &positions) {
        Ok(t) => t,
        Err(e) => return fail(e.to_string()),
    };
    if let Err(e) = std::fs::write(out, text) {
        eprintln!("wuzi mates extract: cannot write {}: {e}", out.display());
        return 1;
    }
    for c in &comments[3..] {
        println!("{}", c.trim_start());
    }
    println!("{} positions written to {}", positions.len(), out.display());
    0
}
