//! The `wuzi tournament` command line: the match's arguments plus the format, the results
//! file and the rating anchor; [`run_tournament_cli`] plays it, printing one line per game and
//! the standings with ratings and the crosstable at the end.
//!
//! Exit codes: 0 the tournament was played, 1 it could not be played to the end, 2 the
//! arguments make no tournament.

use std::path::PathBuf;

use crate::cli::{apply_settings, engine_specs, stderr_logs, MatchArgs};
use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::html::{write_report, ReportInput};
use crate::results::GameRecord;
use crate::standings::Standings;
use crate::tournament::{
    run_tournament, Format, TournamentConfig, TournamentObserver, TournamentSummary,
};

/// Run a tournament of two or more Gomocup-protocol engines.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    /// Who plays whom.
    #[arg(long, value_enum, default_value = "round-robin")]
    pub format: Format,
    /// Append every finished game to this file, and resume from it: games it already holds
    /// are not played again.
    #[arg(long, value_name = "FILE")]
    pub results: Option<PathBuf>,
    /// The engine whose rating is fixed (default: the mean of all is fixed).
    #[arg(long, value_name = "NAME")]
    pub anchor: Option<String>,
    /// The anchor's rating (or the mean's).
    #[arg(
        long,
        value_name = "ELO",
        default_value_t = 0.0,
        allow_negative_numbers = true
    )]
    pub anchor_elo: f64,
    /// The rating prior: virtual draws of every engine against the pool.
    #[arg(long, value_name = "GAMES", default_value_t = 2.0)]
    pub prior_draws: f64,
}

/// The tournament's settings from the arguments.
pub fn tournament_config(args: &TournamentArgs) -> Result<TournamentConfig, String> {
    let mut specs = engine_specs(&args.common)?;
    if let Some(dir) = &args.common.stderr_dir {
        stderr_logs(&mut specs, dir)?;
    }
    if specs.len() < 2 {
        return Err(format!(
            "give at least two engines with --engine (got {})",
            specs.len()
        ));
    }
    if args.common.sprt.is_some() {
        return Err("a tournament has no SPRT stop; leave out --sprt".into());
    }
    if !(args.prior_draws > 0.0 && args.prior_draws.is_finite()) {
        return Err("--prior-draws must be a positive number".into());
    }
    if let Some(name) = &args.anchor {
        if !specs.iter().any(|s| &s.name == name) {
            return Err(format!("--anchor {name}: no engine has that name"));
        }
    }
    let mut settings = MatchConfig::new(specs[0].clone(), specs[1].clone());
    apply_settings(&mut settings, &args.common)?;
    let games_per_pair = args
        .common
        .games
        .unwrap_or((2 * settings.openings.len()).max(2));
    Ok(TournamentConfig {
        settings,
        engines: specs,
        format: args.format,
        games_per_pair,
        results: args.results.clone(),
    })
}

struct Lines;

impl TournamentObserver for Lines {
    fn game_finished(&mut self, g: &GameRecord, played: usize, planned: usize) {
        let result = match g.winner_name() {
            Some(w) => format!("{w} wins"),
            None => "draw".to_string(),
        };
        println!(
            "game {} ({played}/{planned}): {} (black) vs {} (white): {result}, {}",
            g.index + 1,
            g.black,
            g.white,
            g.reason
        );
    }

    fn resumed(&mut self, games: usize, skipped: &[(usize, String)]) {
        for (line, why) in skipped {
            eprintln!("wuzi tournament: results line {line} skipped (played again): {why}");
        }
        println!("Resuming: {games} games already in the results file");
    }
}

/// The final text: standings with ratings and the crosstable.
pub fn final_text(args: &TournamentArgs, cfg: &TournamentConfig, t: &TournamentSummary) -> String {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let standings = Standings::of(&names, &t.games);
    let ratings = standings.ratings(args.anchor.as_deref(), args.anchor_elo, args.prior_draws);
    let mut s = format!(
        "=== Tournament finished: {} of {} games ({} from an earlier run) ===\n",
        t.games.len(),
        t.planned,
        t.resumed
    );
    match &ratings {
        Ok(r) => s.push_str(&standings.table(Some(r))),
        Err(e) => {
            s.push_str(&format!("(no ratings: {e})\n"));
            s.push_str(&standings.table(None));
        }
    }
    s.push_str(&format!(
        "\nElo: joint maximum likelihood, ± 95% interval, {}",
        match &args.anchor {
            Some(a) => format!("{a} fixed at {}", args.anchor_elo),
            None => format!("mean fixed at {}", args.anchor_elo),
        }
    ));
    s
}

/// Runs `wuzi tournament`; returns the process exit code.
pub fn run_tournament_cli(args: &TournamentArgs) -> i32 {
    let cfg = match tournament_config(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("wuzi tournament: error: {e}");
            return 2;
        }
    };
    if let Err(e) = cfg.validate() {
        eprintln!("wuzi tournament: error: {e}");
        return 2;
    }
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    let pairings = cfg.pairings().len();
    println!(
        "Tournament ({:?}): {}; {pairings} pairings of {} games, {}x{} {}, {}, {} at once",
        cfg.format,
        names.join(", "),
        cfg.games_per_pair,
        cfg.settings.width,
        cfg.settings.height,
        cfg.settings.rule,
        cfg.settings.time.describe(),
        cfg.settings.concurrency
    );
    match run_tournament(&cfg, &mut Lines) {
        Ok(summary) => {
            println!("{}", final_text(args, &cfg, &summary));
            let Some(dir) = &args.common.report else {
                return 0;
            };
            let input = ReportInput {
                title: format!("Tournament ({:?}): {}", cfg.format, names.join(", ")),
                details: vec![format!(
                    "{} of {} games, {}x{} {}, {}",
                    summary.games.len(),
                    summary.planned,
                    cfg.settings.width,
                    cfg.settings.height,
                    cfg.settings.rule,
                    cfg.settings.time.describe()
                )],
                names: names.iter().map(|n| n.to_string()).collect(),
                games: summary.games,
                anchor: args.anchor.clone(),
                anchor_elo: args.anchor_elo,
                prior_draws: args.prior_draws,
            };
            match write_report(dir, &input) {
                Ok(path) => {
                    println!("Report: {}", path.display());
                    0
                }
                Err(e) => {
                    eprintln!("wuzi tournament: error: {e}");
                    1
                }
            }
        }
        Err(e) => {
            eprintln!("wuzi tournament: error: {e}");
            match e {
                MatchError::Config(_) | MatchError::Opening(_) => 2,
                _ => 1,
            }
        }
    }
}
