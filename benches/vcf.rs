//! Criterion bench of the VCF solver on the VCF positions of the carried tactics file
//! (`data/tactics/vcf-vct-quintet.jsonl`, renju): each iteration solves one
//! position from an emptied table, so the time is that of a cold solve.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::path::PathBuf;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_search::vcf::VcfSolver;

/// One VCF case of the file.
struct Case {
    name: String,
    board: Board,
    attacker: Color,
    depth: u32,
}

/// The text of `"key": "value"` in a JSON line of this file (values hold no quotes).
fn string_field<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let pat = format!("\"{key}\": \"");
    let start = line.find(&pat)? + pat.len();
    let len = line[start..].find('"')?;
    Some(&line[start..start + len])
}

/// The number of `"key": 12`.
fn number_field(line: &str, key: &str) -> Option<u32> {
    let pat = format!("\"{key}\": ");
    let start = line.find(&pat)? + pat.len();
    let digits: String = line[start..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

/// The strings of `"key": ["...", "..."]`.
fn string_list<'a>(line: &'a str, key: &str) -> Option<Vec<&'a str>> {
    let pat = format!("\"{key}\": [");
    let start = line.find(&pat)? + pat.len();
    let len = line[start..].find(']')?;
    Some(
        line[start..start + len]
            .split('"')
            .skip(1)
            .step_by(2)
            .collect(),
    )
}

fn load() -> Vec<Case> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/tactics/vcf-vct-quintet.jsonl");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if !string_field(line, "solver").is_some_and(|s| s.starts_with("VCF")) {
            continue;
        }
        let (Some(test), Some(depth), Some(attacker), Some(rows)) = (
            string_field(line, "test"),
            number_field(line, "max_depth"),
            string_field(line, "attacker"),
            string_list(line, "board_rows_top_down"),
        ) else {
            panic!("line {}: missing fields", i + 1);
        };
        let mut board = Board::new(15, 15, Rule::Renju).expect("15x15");
        for (y, row) in rows.iter().enumerate() {
            for (x, ch) in row.chars().filter(|c| !c.is_whitespace()).enumerate() {
                // The quintet diagrams: `o` Black, `x` White.
                let color = match ch {
                    'o' => Color::Black,
                    'x' => Color::White,
                    _ => continue,
                };
                board
                    .place(color, Point::new(x as u8, y as u8))
                    .expect("a free point");
            }
        }
        let attacker = if attacker == "White" {
            Color::White
        } else {
            Color::Black
        };
        cases.push(Case {
            name: format!("{test}_d{depth}_l{}", i + 1),
            board,
            attacker,
            depth,
        });
    }
    assert!(!cases.is_empty(), "no VCF case in {}", path.display());
    cases
}

fn vcf(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf");
    let mut solver = VcfSolver::with_table_bits(12);
    for case in load() {
        let mut board = case.board.clone();
        group.bench_function(&case.name, |b| {
            b.iter(|| {
                solver.clear();
                let out = solver.solve(&mut board, case.attacker, black_box(case.depth), u64::MAX);
                black_box(out.nodes)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, vcf);
criterion_main!(benches);
