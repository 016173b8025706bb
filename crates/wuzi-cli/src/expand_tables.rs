//! `wuzi expand-tables`: rewrites learned tables made for the twelve coarse line patterns
//! (weights files of format 1, `wuzi_eval::learned`; move-ordering tables of format 1,
//! `wuzi_search::order_table`) in the current format over the fine patterns, in place. Every
//! fine combo gets the value of the coarse combo it coarsens to, so the rewritten table
//! evaluates and orders every position exactly as before; the files' comments are kept, with
//! one line saying how they were converted. A file already in the current format is left as
//! it is.

use clap::Args;
use std::fmt;
use std::path::PathBuf;
use wuzi_eval::learned::{Weights, WeightsError};
use wuzi_search::order_table::{OrderTable, OrderTableError};

/// The arguments of `wuzi expand-tables`.
#[derive(Args, Debug, Clone)]
pub struct ExpandTablesArgs {
    /// Weights files (`wuzi tune`) or move-ordering tables (`wuzi tune-order`) to rewrite.
    #[arg(required = true, num_args = 1..)]
    pub files: Vec<PathBuf>,
}

/// The comment line a converted table gets.
pub const CONVERTED_NOTE: &str = "Converted from format 1 (combos of the twelve coarse line \
     patterns) by `wuzi expand-tables`: every combo has the value of the coarse combo it \
     coarsens to (F3S as F3, F2A and F2B as F2).";

/// Why a file could not be converted.
#[derive(Debug, PartialEq, Eq)]
pub enum ExpandError {
    /// The file (its path, and why) cannot be read or written.
    File(String, String),
    /// A weights file that does not parse.
    Weights(WeightsError),
    /// An ordering table that parses in neither format (the error of format 1).
    Order(OrderTableError),
}

impl fmt::Display for ExpandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpandError::File(path, e) => write!(f, "{path}: {e}"),
            ExpandError::Weights(e) => write!(f, "not a weights file: {e}"),
            ExpandError::Order(e) => write!(f, "not an ordering table of either format: {e}"),
        }
    }
}

impl std::error::Error for ExpandError {}

/// What a table's text becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expanded {
    /// The text in the current format.
    Converted(String),
    /// The text is in the current format already.
    Current,
}

/// The comment lines of a table's text, without their `#` (and the threat-fields line a
/// weights file writes itself).
fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.trim().strip_prefix('#'))
        .map(str::trim)
        .filter(|l| !l.starts_with("threat fields:"))
        .collect()
}

/// Converts one table's text: a weights file if it starts like one, else an ordering table.
pub fn expand_text(text: &str) -> Result<Expanded, ExpandError> {
    let first = text.lines().map(str::trim).find(|l| !l.is_empty());
    let mut comment = comments(text);
    comment.push(CONVERTED_NOTE);
    let comment = comment.join("\n");
    if first.is_some_and(|l| l.starts_with("wuzi-eval-weights")) {
        if first == Some("wuzi-eval-weights 2") {
            return Ok(Expanded::Current);
        }
        let weights = Weights::parse_any(text).map_err(ExpandError::Weights)?;
        return Ok(Expanded::Converted(weights.to_text(&comment)));
    }
    if OrderTable::parse_any(text).is_ok() {
        return Ok(Expanded::Current);
    }
    let table = OrderTable::parse_coarse(text).map_err(ExpandError::Order)?;
    Ok(Expanded::Converted(table.to_text(&comment)))
}

/// Runs `wuzi expand-tables`; returns the exit code.
pub fn run(args: &ExpandTablesArgs) -> u8 {
    let mut code = 0;
    for path in &args.files {
        match expand_file(path) {
            Ok(Expanded::Converted(_)) => println!("{}: converted", path.display()),
            Ok(Expanded::Current) => {
                println!(
                    "{}: in the current format already, left as it is",
                    path.display()
                )
            }
            Err(e) => {
                eprintln!("wuzi expand-tables: {}: {e}", path.display());
                code = 2;
            }
        }
    }
    code
}

fn expand_file(path: &std::path::Path) -> Result<Expanded, ExpandError> {
    let io = |e: std::io::Error| ExpandError::File(path.display().to_string(), e.to_string());
    let text = std::fs::read_to_string(path).map_err(io)?;
    let expanded = expand_text(&text)?;
    if let Expanded::Converted(new) = &expanded {
        std::fs::write(path, new).map_err(io)?;
    }
    Ok(expanded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::Rule;
    use wuzi_eval::learned::{coarse_combo, COARSE_COMBO_COUNT, COMBO_COUNT};

    #[test]
    fn a_coarse_ordering_table_is_expanded_and_keeps_its_comments() {
        let mut coarse = String::from("# fitted once\n# second line\nrule caro\n");
        for c in 0..COARSE_COMBO_COUNT {
            coarse.push_str(&format!("{c} {c} -{c} {} 7\n", c % 13));
        }
        let Ok(Expanded::Converted(text)) = expand_text(&coarse) else {
            panic!("not converted");
        };
        assert!(text.starts_with("# fitted once\n# second line\n# Converted"));
        let table = OrderTable::parse(&text, Rule::Caro).expect("current format");
        for c in 0..COMBO_COUNT {
            let k = coarse_combo(c) as i16;
            assert_eq!(table.own[0][c], k);
            assert_eq!(table.theirs[0][c], -k);
            assert_eq!(table.own[1][c], k % 13);
            assert_eq!(table.theirs[1][c], 7);
        }
        assert_eq!(expand_text(&text), Ok(Expanded::Current));
        assert!(matches!(
            expand_text("rule caro\n0 1 2 3 4\n"),
            Err(ExpandError::Order(_))
        ));
    }

    #[test]
    fn weights_in_the_current_format_are_left_and_damaged_ones_refused() {
        let text = Weights::zero(Rule::Renju).to_text("x");
        assert_eq!(expand_text(&text), Ok(Expanded::Current));
        let old = text.replacen("wuzi-eval-weights 2", "wuzi-eval-weights 1", 1);
        // Format 1 knows no fine pattern: the file does not parse.
        assert!(matches!(expand_text(&old), Err(ExpandError::Weights(_))));
    }
}
