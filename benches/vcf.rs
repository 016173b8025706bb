//! Criterion bench of the VCF solver on the VCF positions of the carried tactics file
//! (`data/tactics/vcf-vct-quintet.jsonl`, renju): each iteration solves one
//! position from an emptied table, so the time is that of a cold solve.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use wuzi_search::vcf::VcfSolver;
use wuzi_testkit::tactics::{load_cases, Case};

/// The file's VCF cases, each with its bench name.
fn load() -> Vec<(String, Case)> {
    let cases: Vec<(String, Case)> = load_cases()
        .into_iter()
        .filter(Case::is_vcf)
        .map(|case| {
            let name = format!("{}_d{}_l{}", case.test, case.max_depth, case.index + 1);
            (name, case)
        })
        .collect();
    assert!(!cases.is_empty(), "no VCF case in the tactics file");
    cases
}

fn vcf(c: &mut Criterion) {
    let mut group = c.benchmark_group("vcf");
    let mut solver = VcfSolver::with_table_bits(12);
    for (name, case) in load() {
        let mut board = case.board.clone();
        group.bench_function(&name, |b| {
            b.iter(|| {
                solver.clear();
                let depth = black_box(case.max_depth);
                let out = solver.solve(&mut board, case.attacker, depth, u64::MAX);
                black_box(out.nodes)
            })
        });
    }
    group.finish();
}

criterion_group!(benches, vcf);
criterion_main!(benches);
