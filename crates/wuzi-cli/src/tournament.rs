//! `wuzi tournament`: the match's arguments (the results file, `--shard` and `--merge`
//! included) plus the format and the rating anchor; [`run`] plays it over
//! `wuzi_match::tournament`, printing one line per game and the standings with ratings and the
//! crosstable at the end (texts of `wuzi_match::report`), or with `--merge` reports the
//! shards' results files merged (`wuzi_match::merge`) as one run.
//!
//! Exit codes: 0 the tournament was played, 1 it could not be played to the end, 2 the
//! arguments make no tournament.

use clap::ValueEnum;
use wuzi_match::html::write_report;
use wuzi_match::merge::merge_tournament;
use wuzi_match::report::{tournament_final, tournament_header, tournament_report, RatingSettings};
use wuzi_match::results::GameRecord;
use wuzi_match::tournament::{run_tournament, Format, TournamentConfig, TournamentObserver};
use wuzi_match::MatchConfig;

use crate::match_cmd::{apply_settings, engine_specs, exit_code, log_stderr, MatchArgs};

/// Run a tournament of two or more Gomocup-protocol engines.
#[derive(clap::Args, Debug, Clone)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub common: MatchArgs,
    /// Who plays whom.
    #[arg(long, value_enum, default_value = "round-robin")]
    pub format: TournamentFormat,
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

/// Who plays whom, as the command line names it (`wuzi_match::tournament::Format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TournamentFormat {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

impl From<TournamentFormat> for Format {
    fn from(format: TournamentFormat) -> Format {
        match format {
            TournamentFormat::RoundRobin => Format::RoundRobin,
            TournamentFormat::Gauntlet => Format::Gauntlet,
        }
    }
}

/// The tournament's settings from the arguments.
pub fn tournament_config(args: &TournamentArgs) -> Result<TournamentConfig, String> {
    let mut specs = engine_specs(&args.common)?;
    if let Some(dir) = &args.common.stderr_dir {
        log_stderr(&mut specs, dir)?;
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
        format: args.format.into(),
        games_per_pair,
        results: args.common.results.clone(),
    })
}

/// How the arguments fix the ratings.
fn rating_settings(args: &TournamentArgs) -> RatingSettings {
    RatingSettings {
        anchor: args.anchor.clone(),
        anchor_elo: args.anchor_elo,
        prior_draws: args.prior_draws,
    }
}

/// Prints a line per finished game, and what a resumed tournament read back.
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

/// Runs `wuzi tournament`; returns the process exit code.
pub fn run(args: &TournamentArgs) -> u8 {
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
    let rating = rating_settings(args);
    let outcome = if args.common.merge.is_empty() {
        println!("{}", tournament_header(&cfg));
        run_tournament(&cfg, &mut Lines)
    } else {
        merge_tournament(&cfg, &args.common.merge).map(|(summary, merged)| {
            println!("{}", tournament_header(&cfg));
            println!("{}", merged.describe());
            summary
        })
    };
    match outcome {
        Ok(summary) => {
            println!("{}", tournament_final(&cfg, &summary, &rating));
            let Some(dir) = &args.common.report else {
                return 0;
            };
            match write_report(dir, &tournament_report(&cfg, summary, &rating)) {
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
            exit_code(&e)
        }
    }
}
