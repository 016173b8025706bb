//! The threat-solver cases of `data/tactics/vcf-vct-quintet.jsonl` (renju, 15x15): each a
//! diagram (`o` Black, `x` White, as the file writes them), the solver and limits to use, the
//! attacker, and the expected line (points named from the bottom row, `wuzi_core::notation`'s
//! [`Names::Bottom`]) or none.

use crate::data::{read_data, text};
use serde_json::Value;
use wuzi_core::notation::{Diagram, Marks, Names};
use wuzi_core::{Board, Color, Point, Rule};

/// The file's style of point names: `J12`, rows counted from the bottom.
pub fn names(board: &Board) -> Names {
    Names::Bottom {
        height: board.height(),
    }
}

/// One case of the file.
pub struct Case {
    /// Its place among the file's non-blank lines, from 0.
    pub index: usize,
    pub test: String,
    pub bench_only: bool,
    pub solver: String,
    pub max_depth: u32,
    pub threshold: u32,
    pub attacker: Color,
    pub board: Board,
    /// `None` for `NONE`.
    pub expected: Option<Vec<Point>>,
}

impl Case {
    pub fn is_vcf(&self) -> bool {
        self.solver.starts_with("VCF")
    }

    pub fn name(&self) -> String {
        format!(
            "#{} {} {} depth {} threshold {}",
            self.index, self.test, self.solver, self.max_depth, self.threshold
        )
    }

    /// `line` in the file's names, comma separated.
    pub fn names(&self, line: &[Point]) -> String {
        let names = names(&self.board);
        line.iter()
            .map(|p| p.name_in(names))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Every case of the file, in its order.
pub fn load_cases() -> Vec<Case> {
    read_data("tactics/vcf-vct-quintet.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(index, line)| {
            let v: Value = serde_json::from_str(line).expect("json line");
            let rows = v["board_rows_top_down"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|r| r.as_str().expect("row"));
            let board = Diagram::from_rows(rows, Marks::OX)
                .and_then(|d| d.board(Rule::Renju))
                .unwrap_or_else(|e| panic!("case {index}: {e}"));
            let names = names(&board);
            let expected = match &v["expected"] {
                Value::String(s) if s == "NONE" => None,
                Value::Array(a) => Some(
                    a.iter()
                        .map(|p| {
                            Point::parse_name_in(p.as_str().expect("point"), names)
                                .unwrap_or_else(|e| panic!("case {index}: {e}"))
                        })
                        .collect(),
                ),
                other => panic!("unexpected `expected`: {other}"),
            };
            Case {
                index,
                test: text(&v, "test").to_string(),
                bench_only: v["bench_only"].as_bool().unwrap_or(false),
                solver: text(&v, "solver").to_string(),
                max_depth: v["max_depth"].as_u64().expect("max_depth") as u32,
                threshold: v["threshold"].as_u64().unwrap_or(0) as u32,
                attacker: match text(&v, "attacker") {
                    "Black" => Color::Black,
                    "White" => Color::White,
                    other => panic!("unexpected attacker {other:?}"),
                },
                board,
                expected,
            }
        })
        .collect()
}
