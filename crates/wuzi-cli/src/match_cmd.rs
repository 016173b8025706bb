//! `wuzi match`: [`MatchArgs`] and [`run`], which turns the arguments into a `wuzi_match`
//! [`MatchConfig`], plays the match (or, with `--shard K/N`, its K-th share) with live
//! progress ([`crate::progress`]) and prints the report; with `--merge FILE...` it plays
//! nothing and reports the shards' results files merged (`wuzi_match::merge`). `wuzi
//! tournament` takes the same arguments ([`apply_settings`], [`engine_specs`]).
//!
//! Exit codes of [`run`]: 0 the match was played (whatever its result), 1 it could not be
//! played to the end (an engine could not be started, a record could not be written), 2 the
//! arguments make no match. Every error is one clear line on standard error.

use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use clap::ValueEnum;
use wuzi_core::shard::Shard;
use wuzi_core::Rule;
use wuzi_match::clock::TimeControl;
use wuzi_match::engine::{stderr_logs, EngineSpec};
use wuzi_match::html::write_report;
use wuzi_match::merge::merge_match;
use wuzi_match::opening::{load_suite, resolve_suite, Opening, Order};
use wuzi_match::report::{final_report, header, json_summary, match_report};
use wuzi_match::schedule::ScheduleId;
use wuzi_match::sprt::Sprt;
use wuzi_match::{run_match, MatchConfig, MatchError, MatchSummary};

use crate::args::{
    has_key, parse_bytes, parse_duration, parse_each, parse_engine_spec, parse_size,
};
use crate::progress::{print_line, Progress, ProgressMode};

const ENGINE_HELP: &str = "\
ENGINE SPECS
  --engine takes comma-separated key=value items:
    cmd=PROGRAM        the program (required; a path, relative to where wuzi runs, or a name in PATH)
    arg=ARG            one argument; repeat for more, in order
    dir=DIR            the engine's working directory
    name=NAME          its name in results and records (default: the program's file name)
    option.KEY=VALUE   sent as `INFO KEY VALUE` at the start of every game; repeat for more
  A first item without '=' is the program. Write \\, for a comma and \\\\ for a backslash
  inside a value. --each takes option.KEY=VALUE items for both engines (an engine's own
  option of the same key wins).

PROTOCOL
  Per game: START (RECTSTART for W x H), then after OK: INFO timeout_turn, timeout_match,
  max_memory, game_type 1, rule, time_left, and the engine's options. Per move: INFO
  time_left, then the engine's first move as BOARD (BEGIN on an empty board), later moves as
  TURN. Start-up time counts in the first move; the tolerance is added to the turn and game
  limits; time over the turn limit is still charged to the game clock (it carries over).

EXAMPLES
  wuzi match --engine ./pbrain-new,name=new --engine ./pbrain-old,name=old \\
      --openings freestyle15-gomocup2024 \\
      --turn-time 1s --match-time 60s --concurrency 2 --sgf games.sgf
  wuzi match --engine cmd=./pbrain-wuzi,option.thread_num=2 --engine cmd=./pbrain-x,dir=/opt/x \\
      --rule renju --openings renju.txt --order random --seed 7 --sprt 0 10 0.05 0.05";

/// Run a match between two Gomocup-protocol engines.
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = ENGINE_HELP)]
pub struct MatchArgs {
    /// An engine, `cmd=PROGRAM,arg=..,dir=..,name=..,option.KEY=VALUE` (see below); give it
    /// twice (a tournament: two or more times).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Options for both engines: `option.KEY=VALUE,...`.
    #[arg(long, value_name = "OPTIONS")]
    pub each: Vec<String>,
    /// Board size: N (square) or WxH.
    #[arg(long, value_name = "N|WxH", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Rule: freestyle, standard, renju, caro, caro-exact, or a Gomocup code (0, 1, 4, 8, 9).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Time per move (`timeout_turn`): 500ms, 1.5s, 2m; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = parse_duration)]
    pub turn_time: Duration,
    /// Time per game and engine (`timeout_match`); 0 is unlimited.
    #[arg(long, value_name = "TIME", default_value = "0", value_parser = parse_duration)]
    pub match_time: Duration,
    /// Grace added to both limits before a move loses on time.
    #[arg(long, value_name = "TIME", default_value = "1s", value_parser = parse_duration)]
    pub tolerance: Duration,
    /// Memory limit sent as `INFO max_memory`, in bytes or with K, M, G (binary); 0 unlimited.
    #[arg(long, value_name = "BYTES", default_value = "350M", value_parser = parse_bytes)]
    pub max_memory: u64,
    /// Also adjudicate a loss when an engine's resident memory exceeds --max-memory (Linux).
    #[arg(long)]
    pub enforce_memory: bool,
    /// Opening suite: a file (one opening a line, centre offsets `dx,dy, ...` or moves
    /// `h8i9...`) or the short name of a suite the project ships in `data/openings`
    /// (`freestyle15-gomocup2025`, `renju15-katagomo-balanced200`, ...).
    #[arg(long, value_name = "FILE|SUITE")]
    pub openings: Option<PathBuf>,
    /// One more opening given here (either form); may be repeated.
    #[arg(long = "opening", value_name = "MOVES")]
    pub opening_lines: Vec<String>,
    /// Order of the openings.
    #[arg(long, value_enum, default_value = "sequential")]
    pub order: OpeningOrder,
    /// Seed of the random order (default: from the clock; printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Number of games (default: two per opening, or 2; under --sprt, the most games).
    #[arg(long)]
    pub games: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Draw when this many stones (the opening included) are on the board.
    #[arg(long, value_name = "STONES")]
    pub max_moves: Option<usize>,
    /// Stop when one hypothesis is accepted: first engine elo0 or elo1 Elo stronger.
    #[arg(long, num_args = 4, value_names = ["ELO0", "ELO1", "ALPHA", "BETA"], allow_negative_numbers = true)]
    pub sprt: Option<Vec<f64>>,
    /// Write every game to this SGF file (GM[4]).
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<PathBuf>,
    /// Write every game as a piskvork .psq file into this folder.
    #[arg(long, value_name = "DIR")]
    pub psq_dir: Option<PathBuf>,
    /// Keep the engines' MESSAGE (and DEBUG, ERROR, UNKNOWN) lines in this file.
    #[arg(long, value_name = "FILE")]
    pub message_log: Option<PathBuf>,
    /// Progress display.
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: ProgressMode,
    /// Print the full report every N games (on a terminal, Enter prints it at any time).
    #[arg(long, value_name = "N")]
    pub report_every: Option<usize>,
    /// Start new engine processes for every game (default: reuse them, restart after a fault).
    #[arg(long)]
    pub fresh_process: bool,
    /// Do not send RESTART between games: start fresh processes instead (as --fresh-process).
    /// By default a reused engine gets RESTART, and START from then on if it refuses it.
    #[arg(long)]
    pub no_restart: bool,
    /// Stop (SIGSTOP) the engine that is not to move while the other thinks, as the Gomocup
    /// referee does, so neither thinks on the other's time (Unix).
    #[arg(long)]
    pub freeze: bool,
    /// Keep each engine's standard error in DIR/NAME.stderr.log (appended).
    #[arg(long, value_name = "DIR")]
    pub stderr_dir: Option<PathBuf>,
    /// Write an HTML report (standings, Elo against games played, end reasons, every game
    /// as a picture to step through) to DIR/index.html.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Also print the final result as one JSON line.
    #[arg(long)]
    pub json: bool,
    /// Append every finished game to this file, and resume from it: games it already holds
    /// are not played again.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// Play only shard K of N of the schedule (K from 1): its share of the openings, both
    /// colours of each; give every shard the same arguments and its own --results file, then
    /// --merge the files. With --order random, give --seed.
    #[arg(
        long,
        value_name = "K/N",
        conflicts_with = "merge",
        requires = "results"
    )]
    pub shard: Option<Shard>,
    /// Play nothing: merge the results files of this schedule's shards (run with these same
    /// arguments and --shard) and print the report one run of the whole schedule prints.
    /// Files of another schedule, a shard given twice, a game twice and damaged or cut lines
    /// are refused; games no file holds are listed.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with = "results")]
    pub merge: Vec<PathBuf>,
}

/// The order of the openings, as the command line names it (`wuzi_match::opening::Order`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum OpeningOrder {
    /// As in the file.
    Sequential,
    /// Shuffled with the seed.
    Random,
}

impl From<OpeningOrder> for Order {
    fn from(order: OpeningOrder) -> Order {
        match order {
            OpeningOrder::Sequential => Order::Sequential,
            OpeningOrder::Random => Order::Random,
        }
    }
}

/// Runs `wuzi match`; returns the process exit code.
pub fn run(args: &MatchArgs) -> u8 {
    let (cfg, seed_chosen) = match config_from(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("wuzi match: error: {e}");
            return 2;
        }
    };
    let planned = cfg
        .validate()
        .and_then(|_| ScheduleId::of_match(&cfg))
        .map(|id| id.share(cfg.shard));
    let planned = match planned {
        Ok(n) => n,
        Err(e) => {
            eprintln!("wuzi match: error: {e}");
            return 2;
        }
    };
    if !args.merge.is_empty() {
        return run_merge(args, &cfg, seed_chosen);
    }
    print_line(&header(&cfg, seed_chosen));
    let names = [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()];
    let mut progress = Progress::new(args.progress, planned, names.clone(), cfg.sprt)
        .report_every(args.report_every);
    if args.progress != ProgressMode::Off && std::io::stdin().is_terminal() {
        let (tx, rx) = std::sync::mpsc::channel();
        let _ = std::thread::Builder::new()
            .name("report-requests".into())
            .spawn(move || {
                for _ in std::io::stdin().lock().lines() {
                    if tx.send(()).is_err() {
                        break;
                    }
                }
            });
        progress = progress.report_on(rx);
    }
    let outcome = run_match(&cfg, &mut progress);
    progress.finish();
    match outcome {
        Ok(summary) => print_summary(args, &cfg, &summary),
        Err(e) => {
            eprintln!("wuzi match: error: {e}");
            exit_code(&e)
        }
    }
}

/// Prints the final report (and the JSON line, and writes the HTML report) of a match played
/// or merged; returns the exit code.
fn print_summary(args: &MatchArgs, cfg: &MatchConfig, summary: &MatchSummary) -> u8 {
    print_line(&final_report(cfg, summary));
    if args.json {
        print_line(&json_summary(cfg, summary));
    }
    match &args.report {
        Some(dir) => match write_report(dir, &match_report(cfg, summary)) {
            Ok(path) => {
                print_line(&format!("Report: {}", path.display()));
                0
            }
            Err(e) => {
                eprintln!("wuzi match: error: {e}");
                1
            }
        },
        None => 0,
    }
}

/// `wuzi match --merge`: the shards' results files merged and reported as one run.
fn run_merge(args: &MatchArgs, cfg: &MatchConfig, seed_chosen: Option<u64>) -> u8 {
    match merge_match(cfg, &args.merge) {
        Ok((summary, merged)) => {
            print_line(&header(cfg, seed_chosen));
            print_line(&merged.describe());
            print_summary(args, cfg, &summary)
        }
        Err(e) => {
            eprintln!("wuzi match: error: {e}");
            exit_code(&e)
        }
    }
}

/// The exit code of a match or tournament that stopped on `e`: 2 when its settings make no
/// match or its results files cannot be read or merged, 1 when it could not be played to the
/// end.
pub fn exit_code(e: &MatchError) -> u8 {
    match e {
        MatchError::Config(_) | MatchError::Opening(_) | MatchError::Results(_) => 2,
        _ => 1,
    }
}

/// The match's settings from the arguments, and the seed if it was chosen here.
pub fn config_from(args: &MatchArgs) -> Result<(MatchConfig, Option<u64>), String> {
    if args.engines.len() != 2 {
        return Err(format!(
            "give exactly two engines with --engine (got {}); for more, use wuzi tournament",
            args.engines.len()
        ));
    }
    let specs = engine_specs(args)?;
    let [first, second]: [EngineSpec; 2] = specs
        .try_into()
        .map_err(|_| "give exactly two engines with --engine".to_string())?;
    let mut cfg = MatchConfig::new(first, second);
    let seed_chosen = apply_settings(&mut cfg, args)?;
    if let Some(v) = &args.sprt {
        let [elo0, elo1, alpha, beta] = v[..] else {
            return Err("--sprt takes four numbers: ELO0 ELO1 ALPHA BETA".into());
        };
        cfg.sprt = Some(Sprt::new(elo0, elo1, alpha, beta)?);
    }
    if cfg.sprt.is_some()
        && args.games.is_none()
        && (args.shard.is_some() || !args.merge.is_empty())
    {
        return Err(
            "--sprt with --shard or --merge needs --games: the most games, split into the shards"
                .into(),
        );
    }
    cfg.games = match (args.games, cfg.sprt.is_some()) {
        (Some(n), _) => n,
        (None, true) => 100_000,
        (None, false) => (2 * cfg.openings.len()).max(2),
    };
    Ok((cfg, seed_chosen))
}

/// Every `--engine` as a spec, with the `--each` options merged in (an engine's own option of
/// the same key wins) and default names that clash numbered `-1`, `-2`, ...
pub fn engine_specs(args: &MatchArgs) -> Result<Vec<EngineSpec>, String> {
    let mut each = Vec::new();
    for text in &args.each {
        each.extend(parse_each(text)?);
    }
    let mut specs = Vec::new();
    for text in &args.engines {
        let mut spec = parse_engine_spec(text)?;
        let own: Vec<String> = spec
            .options
            .iter()
            .map(|(k, _)| k.to_ascii_lowercase())
            .collect();
        let mut merged: Vec<(String, String)> = each
            .iter()
            .filter(|(k, _)| !own.contains(&k.to_ascii_lowercase()))
            .cloned()
            .collect();
        merged.append(&mut spec.options);
        spec.options = merged;
        specs.push(spec);
    }
    let named: Vec<bool> = args.engines.iter().map(|t| has_key(t, "name")).collect();
    let base: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    for (i, spec) in specs.iter_mut().enumerate() {
        let clashes = (0..base.len())
            .filter(|&j| j != i && base[j] == base[i] && !named[j])
            .count();
        if !named[i] && clashes > 0 {
            let rank = (0..i).filter(|&j| base[j] == base[i] && !named[j]).count();
            spec.name = format!("{}-{}", base[i], rank + 1);
        }
    }
    Ok(specs)
}

/// Sets everything but the engines, the SPRT and the number of games from the arguments;
/// returns the seed if it was chosen here.
pub fn apply_settings(cfg: &mut MatchConfig, args: &MatchArgs) -> Result<Option<u64>, String> {
    (cfg.width, cfg.height) = args.size;
    cfg.rule = args.rule;
    cfg.time = TimeControl {
        turn: args.turn_time,
        game: (!args.match_time.is_zero()).then_some(args.match_time),
        tolerance: args.tolerance,
    };
    cfg.max_memory = args.max_memory;
    cfg.enforce_memory = args.enforce_memory;
    if let Some(path) = &args.openings {
        let path = resolve_suite(path).map_err(|e| e.to_string())?;
        cfg.openings = load_suite(&path).map_err(|e| e.to_string())?;
    }
    for (i, line) in args.opening_lines.iter().enumerate() {
        let o =
            Opening::parse(line, &format!("--opening #{}", i + 1)).map_err(|e| e.to_string())?;
        cfg.openings.push(o);
    }
    cfg.order = args.order.into();
    let split = args.shard.is_some() || !args.merge.is_empty();
    if split && cfg.order == Order::Random && args.seed.is_none() {
        return Err("--order random with --shard or --merge needs --seed: every shard must build the same schedule".into());
    }
    let seed_chosen = args.seed.is_none().then(clock_seed);
    cfg.seed = args.seed.or(seed_chosen).unwrap_or(0);
    cfg.concurrency = args.concurrency;
    cfg.max_moves = args.max_moves;
    cfg.sgf = args.sgf.clone();
    cfg.psq_dir = args.psq_dir.clone();
    cfg.message_log = args.message_log.clone();
    cfg.fresh_process = args.fresh_process || args.no_restart;
    cfg.restart = !args.no_restart;
    cfg.freeze = args.freeze;
    cfg.results = args.results.clone();
    cfg.shard = args.shard.unwrap_or(Shard::WHOLE);
    if let Some(dir) = &args.stderr_dir {
        log_stderr(&mut cfg.engines, dir)?;
    }
    Ok(seed_chosen)
}

/// Points every engine's stderr at a log in `dir` (`wuzi_match::engine::stderr_logs`).
pub fn log_stderr(specs: &mut [EngineSpec], dir: &std::path::Path) -> Result<(), String> {
    stderr_logs(specs, dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))
}

fn clock_seed() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}
