//! `wuzi tune-order`: fits the move-ordering table (`wuzi_tune::order`) to the moves the
//! search found best in a records file, and prints how well the hand-set class ordering, the
//! committed table (when the rule has one) and the fitted table order the training and the
//! held-out positions.

use clap::{Args, ValueEnum};
use std::path::PathBuf;
use wuzi_core::Rule;
use wuzi_tune::order::{self, OrderFitConfig, OrderQuality, OrderSample};
use wuzi_tune::record::load_data;
use wuzi_tune::TuneError;

/// The arguments of `wuzi tune-order`.
#[derive(Args, Debug, Clone)]
pub struct TuneOrderArgs {
    /// The rule whose table is fitted: freestyle, standard, renju, caro or caro-exact.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Records files with moves (`wuzi datagen`, best with `--proven-wins`).
    #[arg(long, required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Where to write the fitted table (the format of `wuzi_search::order_table`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Share of the positions (the last ones: whole games) held out for validation.
    #[arg(long, default_value_t = 0.1)]
    pub validation: f64,
    #[arg(long, default_value_t = 300)]
    pub epochs: usize,
    #[arg(long, default_value_t = 0.05)]
    pub learning_rate: f64,
    /// Weight of the pull back to the start.
    #[arg(long, default_value_t = 1e-4)]
    pub l2: f64,
    /// Where the fit starts and what it is pulled back to: the hand-set class scores, or the
    /// rule's committed table (a refit that keeps what the earlier data taught).
    #[arg(long, value_enum, default_value_t = FitStart::Classes)]
    pub from: FitStart,
    /// Print the loss every this many epochs (0: never).
    #[arg(long, default_value_t = 25)]
    pub report_every: usize,
}

/// Where `wuzi tune-order` starts its fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FitStart {
    Classes,
    Committed,
}

/// Runs `wuzi tune-order`; returns the exit code.
pub fn run(args: &TuneOrderArgs) -> u8 {
    match run_inner(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("wuzi tune-order: {e}");
            2
        }
    }
}

fn show(name: &str, q: &OrderQuality) {
    println!(
        "{name:<24} top-1 {:5.1}%  top-3 {:5.1}%  mean rank {:5.2}  loss {:.4}",
        100.0 * q.top1,
        100.0 * q.top3,
        q.mean_rank,
        q.loss
    );
}

fn run_inner(args: &TuneOrderArgs) -> Result<(), TuneError> {
    if !(0.0..1.0).contains(&args.validation) {
        return Err(TuneError::Data(format!(
            "--validation must be at least 0 and below 1, not {}",
            args.validation
        )));
    }
    let loaded = load_data(&args.data)?;
    for note in &loaded.notes {
        println!("{note}");
    }
    let mut samples: Vec<OrderSample> = Vec::new();
    for record in loaded.records.iter().filter(|r| r.rule == args.rule) {
        if let Some(s) = order::order_sample(record)? {
            samples.push(s);
        }
    }
    if samples.len() < 10 {
        return Err(TuneError::Data(format!(
            "only {} positions of rule {} with a move among the candidates",
            samples.len(),
            args.rule
        )));
    }
    let held = ((samples.len() as f64) * args.validation).round() as usize;
    let (train, valid) = samples.split_at(samples.len() - held);
    println!(
        "{} positions: {} to fit, {} held out",
        samples.len(),
        train.len(),
        valid.len()
    );
    let classes = order::class_params(args.rule);
    let committed = wuzi_search::order_table::OrderTable::committed(args.rule)
        .map(|t| order::params_of(t, args.rule));
    let start = match (args.from, &committed) {
        (FitStart::Classes, _) => &classes,
        (FitStart::Committed, Some(c)) => c,
        (FitStart::Committed, None) => {
            return Err(TuneError::Data(format!(
                "--from committed: rule {} has no committed table",
                args.rule
            )))
        }
    };
    let config = OrderFitConfig {
        epochs: args.epochs,
        learning_rate: args.learning_rate,
        l2: args.l2,
    };
    let every = args.report_every;
    let params = order::fit(train, start, &config, &mut |epoch, loss| {
        if every > 0 && epoch % every == 0 {
            println!("epoch {epoch:4}: training loss {loss:.4}");
        }
    });
    let mut rows = vec![("class scores", &classes)];
    if let Some(c) = &committed {
        rows.push(("committed", c));
    }
    rows.push(("fitted", &params));
    for (name, p) in rows {
        let score = |t: usize, m: [u16; 2]| order::logit(p, t, m);
        show(
            &format!("{name}, fitted set"),
            &order::quality(train, score),
        );
        show(&format!("{name}, held out"), &order::quality(valid, score));
    }
    if let Some(out) = &args.out {
        let table = order::table_of(&params, args.rule);
        // The name clap parses for `--from`, so the recorded command can be run again.
        let from = args
            .from
            .to_possible_value()
            .map(|v| v.get_name().to_owned())
            .unwrap_or_default();
        let comment = format!(
            "The learned move-ordering table of {} (wuzi_search::order_table).\n\
             Made by: wuzi tune-order --rule {} --from {} --epochs {} --learning-rate {} \
             --l2 {} --validation {} --data <records>\n{} positions fitted.",
            args.rule,
            args.rule,
            from,
            args.epochs,
            args.learning_rate,
            args.l2,
            args.validation,
            train.len()
        );
        std::fs::write(out, table.to_text(&comment)).map_err(TuneError::io)?;
        println!("wrote {}", out.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tune::{run_datagen, DatagenArgs};
    use wuzi_search::order_table::OrderTable;

    fn datagen(rule: &str, out: &str) {
        let args: DatagenArgs = crate::parse_test_args(
            "datagen",
            &[
                "--rule",
                rule,
                "--games",
                "4",
                "--nodes",
                "300",
                "--proven-wins",
                "--out",
                out,
                "--quiet",
            ],
        );
        assert_eq!(run_datagen(&args), 0);
    }

    #[test]
    fn a_fit_starts_from_the_table_asked_for() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "tune-order-cli");
        let data = dir.join("d.bin");
        let table = dir.join("t.txt");
        let (d, t) = (
            data.to_str().expect("utf-8"),
            table.to_str().expect("utf-8"),
        );
        datagen("freestyle", d);
        // No epochs: the table written is the start itself.
        for (from, expected) in [
            ("committed", OrderTable::committed(Rule::Freestyle).cloned()),
            (
                "classes",
                Some(order::table_of(
                    &order::class_params(Rule::Freestyle),
                    Rule::Freestyle,
                )),
            ),
        ] {
            let args: TuneOrderArgs = crate::parse_test_args(
                "tune-order",
                &[
                    "--rule",
                    "freestyle",
                    "--data",
                    d,
                    "--from",
                    from,
                    "--epochs",
                    "0",
                    "--out",
                    t,
                ],
            );
            assert_eq!(run(&args), 0, "--from {from}");
            let text = std::fs::read_to_string(&table).expect("table written");
            assert!(
                text.contains(&format!("--from {from} ")),
                "the recorded command names its start: {text}"
            );
            let written = OrderTable::parse(&text, Rule::Freestyle).expect("table parses");
            assert_eq!(Some(written), expected, "--from {from}");
        }
        // A rule without a committed table cannot start from one; nothing is written.
        datagen("caro-exact", d);
        let _ = std::fs::remove_file(&table);
        let args: TuneOrderArgs = crate::parse_test_args(
            "tune-order",
            &[
                "--rule",
                "caro-exact",
                "--data",
                d,
                "--from",
                "committed",
                "--out",
                t,
            ],
        );
        assert_eq!(run(&args), 2);
        assert!(!table.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
