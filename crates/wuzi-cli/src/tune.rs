//! `wuzi datagen` and `wuzi tune`: arguments, progress and printing. The work is in the
//! `wuzi-tune` crate; `docs/evaluation.md` gives the commands that made the committed weights.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use wuzi_core::shard::Shard;
use wuzi_core::{Point, Rule};
use wuzi_eval::eval::{classic_as_weights, EvalChoice, Evaluator};
use wuzi_eval::learned::Weights;
use wuzi_tune::datagen::{self, DatagenConfig};
use wuzi_tune::features::{sample_of, Layout, Sample};
use wuzi_tune::record::{load_data, write_records, Header, PieceWriter, Record};
use wuzi_tune::trainer::{self, TrainConfig};
use wuzi_tune::TuneError;

use crate::args::parse_size;

/// The arguments of `wuzi datagen`.
#[derive(Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The rule: freestyle, standard, renju, caro or caro-exact (or a Gomocup rule code).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Board size: N, a square board of side 5 to 20 (training records hold up to 20x20).
    #[arg(long, value_name = "N", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Opening suites (a file or a suite's name); none: random openings only.
    #[arg(long)]
    pub openings: Vec<PathBuf>,
    /// Share of games from random balanced openings when suites are given.
    #[arg(long, default_value_t = 0.5)]
    pub random_share: f64,
    /// The evaluation the players use: auto, classic, learned or a weights file.
    #[arg(long, value_name = "auto|classic|learned|FILE", default_value = "auto",
          value_parser = EvalChoice::from_arg)]
    pub eval: EvalChoice,
    /// Worker threads (0: one per available core; at most 256).
    #[arg(long, default_value_t = 0)]
    pub threads: u64,
    /// Instead of playing: read these game records (SGF, every game of an SGF collection,
    /// PSQ, move lists) and write the positions of those that end in a five.
    #[arg(long)]
    pub import: Vec<PathBuf>,
    /// Play only shard K of N (K from 1): the K-th block of the --games games, as a piece
    /// of the data set that the same arguments make. The shards' files, given together to
    /// `wuzi tune` (or concatenated), are the records one run writes.
    #[arg(long, value_name = "K/N", conflicts_with = "import")]
    pub shard: Option<Shard>,
    /// Also write the positions where the side to move has a proven win, flagged for the
    /// move ordering's fit; `wuzi tune` of the evaluation skips them.
    #[arg(long)]
    pub proven_wins: bool,
    /// The records file to write (appended to if it exists; an unfinished piece at its end,
    /// left by a stopped run, is replaced).
    #[arg(long)]
    pub out: PathBuf,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// The arguments of `wuzi tune`.
#[derive(Args, Debug, Clone)]
pub struct TuneArgs {
    /// The rule whose weights are fitted: freestyle, standard, renju, caro or caro-exact.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Records files (`wuzi datagen` output, shards in any order); positions of other
    /// rules are skipped. The pieces of each data set are checked not to overlap and put in
    /// game order.
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the fitted weights.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Starting weights: classic (the hand-set evaluation) or a weights file.
    #[arg(long, default_value = "classic")]
    pub start: String,
    /// Multiplies the starting cell values by this factor (rounded) before the fit. The
    /// fit barely changes the scale of the cell table, whose values are only defined up to a
    /// shared constant and are strongly correlated, so a scale the data prefers is set here.
    #[arg(long, default_value_t = 1.0)]
    pub start_cell_scale: f64,
    /// Share of the positions (the last ones: whole games) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    #[arg(long, default_value_t = 16_384)]
    pub batch: usize,
    #[arg(long, default_value_t = 2.0)]
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest: the search score).
    #[arg(long, default_value_t = 0.5)]
    pub result_weight: f64,
    #[arg(long, default_value_t = 1e-6)]
    pub l2: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0: one per available core; at most 256). The result does not depend
    /// on it.
    #[arg(long, default_value_t = 0)]
    pub threads: u64,
    #[arg(long)]
    pub quiet: bool,
}

/// The worker threads, as many as the one thread-count rule gives.
fn pool(threads: u64) -> Result<rayon::ThreadPool, TuneError> {
    // Boards are large values; nested work-stealing can stack several of them.
    rayon::ThreadPoolBuilder::new()
        .num_threads(wuzi_search::resolve_threads(threads))
        .stack_size(64 << 20)
        .build()
        .map_err(|e| TuneError::Data(format!("cannot start threads: {e}")))
}

fn bar(len: u64, quiet: bool, what: &str) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    let template = format!("{what} {{bar:40}} {{pos}}/{{len}} {{msg}} [{{elapsed}} < {{eta}}]");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        pb.set_style(style);
    }
    pb
}

/// The side of datagen's square board, at most what a training record holds.
fn square_side((width, height): (usize, usize)) -> Result<usize, TuneError> {
    if width != height || width > wuzi_tune::record::MAX_SIDE {
        return Err(TuneError::Data(format!(
            "--size {width}x{height}: datagen plays square boards of side 5 to {}",
            wuzi_tune::record::MAX_SIDE
        )));
    }
    Ok(width)
}

/// Runs `wuzi datagen`; returns the exit status.
pub fn run_datagen(args: &DatagenArgs) -> u8 {
    match datagen_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("wuzi datagen: {e}");
            2
        }
    }
}

/// Opens the piece `header` in the output file, saying what an unfinished piece it replaced
/// was.
fn open_piece(path: &std::path::Path, header: Header) -> Result<PieceWriter, TuneError> {
    let piece = PieceWriter::create(path, header)?;
    if let Some(note) = &piece.replaced {
        eprintln!("wuzi datagen: {note}");
    }
    Ok(piece)
}

fn datagen_inner(args: &DatagenArgs) -> Result<(), TuneError> {
    let rule = args.rule;
    let size = square_side(args.size)?;
    if !args.import.is_empty() {
        let mut texts = Vec::new();
        for path in &args.import {
            texts.push(
                std::fs::read_to_string(path)
                    .map_err(|e| TuneError::Io(format!("{}: {e}", path.display())))?,
            );
        }
        let header = wuzi_tune::import::header(&texts, size, rule);
        let games = header.games;
        let mut out = open_piece(&args.out, header)?;
        let mut total = 0;
        for (path, text) in args.import.iter().zip(&texts) {
            let records = wuzi_tune::import::positions_of_text(text, size, rule)
                .map_err(|e| TuneError::Data(format!("{}: {e}", path.display())))?;
            total += records.len();
            write_records(&mut out, &records)?;
        }
        out.finish()?;
        println!(
            "{total} positions from {games} games in {} files",
            args.import.len()
        );
        return Ok(());
    }
    let mut openings: Vec<Vec<Point>> = Vec::new();
    for suite in &args.openings {
        let path = wuzi_match::opening::resolve_suite(suite)
            .map_err(|e| TuneError::Data(e.to_string()))?;
        for line in
            wuzi_match::opening::load_suite(&path).map_err(|e| TuneError::Data(e.to_string()))?
        {
            let points = line
                .points(size, size, rule)
                .map_err(|e| TuneError::Data(format!("{}: {e}", line.label)))?;
            openings.push(points);
        }
    }
    let config = DatagenConfig {
        rule,
        size,
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        openings,
        random_share: args.random_share.clamp(0.0, 1.0),
        suite_random_plies: 2,
        balance_limit: 150,
        max_plies: size * size,
        eval: args.eval,
        proven_wins: args.proven_wins,
    };
    let games = args.shard.unwrap_or(Shard::WHOLE).block(args.games);
    let threads = pool(args.threads)?;
    let mut out = open_piece(&args.out, datagen::header(&config, games.clone()))?;
    let pb = bar(games.len() as u64, args.quiet, "games");
    let summary = threads.install(|| {
        datagen::run_games(&config, games.clone(), &mut out, &|s| {
            pb.set_position(s.games as u64);
            pb.set_message(format!("{} positions", s.positions));
        })
    })?;
    out.finish()?;
    pb.finish_and_clear();
    let share = match args.shard {
        Some(shard) => format!(
            " (shard {shard}: games {}..{} of {})",
            games.start, games.end, args.games
        ),
        None => String::new(),
    };
    println!(
        "{} games{share} ({} Black wins, {} White wins, {} draws), {} positions written to {}",
        summary.games,
        summary.black_wins,
        summary.white_wins,
        summary.draws,
        summary.positions,
        args.out.display()
    );
    Ok(())
}

/// Runs `wuzi tune`; returns the exit status.
pub fn run_tune(args: &TuneArgs) -> u8 {
    match pool(args.threads).and_then(|p| p.install(|| tune_inner(args))) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("wuzi tune: {e}");
            2
        }
    }
}

/// The hand-set evaluation of a record's position.
fn classic_eval(record: &Record) -> Result<f64, TuneError> {
    let mut board = record.board()?;
    let evaluator = Evaluator::Classic;
    evaluator.prepare(&mut board);
    Ok(evaluator.evaluate(&board) as f64)
}

fn tune_inner(args: &TuneArgs) -> Result<(), TuneError> {
    use rayon::prelude::*;
    let rule = args.rule;
    if !(args.start_cell_scale.is_finite() && args.start_cell_scale > 0.0) {
        return Err(TuneError::Data(format!(
            "--start-cell-scale must be a positive number, not {}",
            args.start_cell_scale
        )));
    }
    let layout = Layout::for_rule(rule);
    let loaded = load_data(&args.data)?;
    for note in &loaded.notes {
        println!("{note}");
    }
    let records: Vec<Record> = loaded
        .records
        .into_iter()
        // Proven wins are there for the move ordering, not as evaluation targets.
        .filter(|r| r.rule == rule && !r.proven)
        .collect();
    if records.len() < 10 {
        return Err(TuneError::Data(format!(
            "only {} positions of rule {rule} in the data",
            records.len()
        )));
    }
    let pb = bar(records.len() as u64, args.quiet, "features");
    let built: Vec<Result<(Sample, f64), TuneError>> = records
        .par_iter()
        .map(|r| {
            pb.inc(1);
            Ok((sample_of(r, &layout)?, classic_eval(r)?))
        })
        .collect();
    pb.finish_and_clear();
    let (samples, classic): (Vec<Sample>, Vec<f64>) = built
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .unzip();
    let held = ((samples.len() as f64 * args.validation.clamp(0.0, 0.9)) as usize).max(1);
    let split = samples.len() - held;
    let (train, validation) = samples.split_at(split);
    let k = trainer::fit_k(train, &classic[..split]);
    let mut start = match args.start.as_str() {
        "classic" => classic_as_weights(rule),
        path => Weights::load(std::path::Path::new(path))?,
    };
    start.scale_cells(args.start_cell_scale);
    let start = layout.flatten(&start);
    let result_loss = |evals: &[f64]| trainer::mean_loss(validation, evals, k, 1.0);
    let classic_validation = result_loss(&classic[split..]);
    let start_validation = result_loss(&trainer::evaluate_all(validation, &start));
    println!(
        "{} positions ({} training, {} validation); K = {k:.1}",
        samples.len(),
        train.len(),
        validation.len()
    );
    println!("validation loss against results: hand-set {classic_validation:.5}, start {start_validation:.5}");
    let searched: Vec<f64> = validation
        .iter()
        .map(|s| s.score.map_or(0.0, f64::from))
        .collect();
    println!(
        "validation loss against results of the search scores: {:.5}",
        result_loss(&searched)
    );
    let start_train = trainer::mean_loss(
        train,
        &trainer::evaluate_all(train, &start),
        k,
        args.result_weight.clamp(0.0, 1.0),
    );
    println!("training loss at the start: {start_train:.5}");
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch,
        learning_rate: args.learning_rate,
        result_weight: args.result_weight.clamp(0.0, 1.0),
        l2: args.l2,
        seed: args.seed,
    };
    let params = trainer::train(&layout, train, validation, &start, k, &config, &mut |r| {
        if !args.quiet {
            println!(
                "epoch {:>3}  training loss {:.5}  validation loss {:.5}",
                r.epoch, r.train_loss, r.validation_loss
            );
        }
    });
    let fitted = layout.weights(&params);
    let fitted_params = layout.flatten(&fitted);
    let learned_validation = result_loss(&trainer::evaluate_all(validation, &fitted_params));
    println!("validation loss against results: hand-set {classic_validation:.5}, learned {learned_validation:.5}");
    if let Some(out) = &args.out {
        let data: Vec<String> = args.data.iter().map(|p| p.display().to_string()).collect();
        let comment = format!(
            "Generated by: wuzi tune --rule {} --data {} --start {}{} --validation {} --epochs {} --batch {} --learning-rate {} --result-weight {} --l2 {} --seed {}\n\
             {} positions, K = {k:.1}; validation loss against results: hand-set {classic_validation:.5}, learned {learned_validation:.5}",
            rule.name(),
            data.join(" --data "),
            args.start,
            if args.start_cell_scale == 1.0 {
                String::new()
            } else {
                format!(" --start-cell-scale {}", args.start_cell_scale)
            },
            args.validation,
            args.epochs,
            args.batch,
            args.learning_rate,
            args.result_weight,
            args.l2,
            args.seed,
            samples.len()
        );
        std::fs::write(out, fitted.to_text(&comment))
            .map_err(|e| TuneError::Io(format!("{}: {e}", out.display())))?;
        println!("weights written to {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datagen_then_tune_writes_weights_that_load() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "tune-cli");
        let data = dir.join("d.bin");
        let weights = dir.join("w.txt");
        let d = data.to_str().expect("utf-8");
        let w = weights.to_str().expect("utf-8");
        let args: DatagenArgs = crate::parse_test_args(
            "datagen",
            &[
                "--rule",
                "renju",
                "--games",
                "6",
                "--nodes",
                "300",
                "--threads",
                "2",
                "--out",
                d,
                "--quiet",
            ],
        );
        assert_eq!(run_datagen(&args), 0);
        let args: TuneArgs = crate::parse_test_args(
            "tune",
            &[
                "--rule", "renju", "--data", d, "--epochs", "2", "--out", w, "--quiet",
            ],
        );
        assert_eq!(run_tune(&args), 0);
        let loaded = Weights::load(&weights).expect("weights load");
        assert_eq!(loaded.rule, Rule::Renju);
        // Training another rule on this data finds nothing to train on; a damaged start file
        // is an error, not a fallback.
        let args: TuneArgs =
            crate::parse_test_args("tune", &["--rule", "caro", "--data", d, "--quiet"]);
        assert_eq!(run_tune(&args), 2);
        std::fs::write(&weights, "wuzi-eval-weights 1\nrule renju\ncell black\n").expect("write");
        let args: TuneArgs = crate::parse_test_args(
            "tune",
            &["--rule", "renju", "--data", d, "--start", w, "--quiet"],
        );
        assert_eq!(run_tune(&args), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
