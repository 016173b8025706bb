//! Criterion benches of the core: play + undo with the full incremental pattern update on
//! mid-game positions of 15x15 and 20x20, and board construction.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use wuzi_core::{Board, Rule};
use wuzi_search::bench::movegen::positions;

fn make_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("make_undo");
    for (name, board) in positions() {
        let cells: Vec<usize> = board.empty_near_stones(2).iter().collect();
        group.throughput(Throughput::Elements(cells.len() as u64));
        group.bench_function(&name, |b| {
            b.iter_batched_ref(
                || board.clone(),
                |board| {
                    let side = board.side_to_move();
                    for &cell in &cells {
                        board.make(side, black_box(cell));
                        board.unmake();
                    }
                },
                BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

fn construction(c: &mut Criterion) {
    c.bench_function("board_new_15x15", |b| {
        b.iter(|| Board::new(black_box(15), 15, Rule::Freestyle))
    });
}

criterion_group!(benches, make_undo, construction);
criterion_main!(benches);
