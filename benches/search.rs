//! Criterion benches of the search crate: evaluation, move generation and a short search on
//! the `wuzi bench` positions.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use wuzi_core::rng::Rng;
use wuzi_eval::eval;
use wuzi_search::bench::POSITIONS;
use wuzi_search::movepick::{Facing, MoveList};
use wuzi_search::tt::{Bound, TranspositionTable};
use wuzi_search::{Limits, Searcher};

fn boards() -> Vec<(&'static str, wuzi_core::Board)> {
    POSITIONS
        .iter()
        .filter_map(|p| p.board().ok().map(|b| (p.name, b)))
        .collect()
}

fn evaluation(c: &mut Criterion) {
    let mut boards = boards();
    for (_, b) in boards.iter_mut() {
        eval::prepare(b);
    }
    c.bench_function("evaluate_all_bench_positions", |bench| {
        bench.iter(|| {
            boards
                .iter()
                .map(|(_, b)| eval::evaluate(black_box(b)))
                .sum::<i32>()
        })
    });
}

fn move_generation(c: &mut Criterion) {
    let mut boards = boards();
    let history = vec![0i32; wuzi_core::geometry::MAX_CELLS];
    let mut list = MoveList::default();
    c.bench_function("generate_moves_all_bench_positions", |bench| {
        bench.iter(|| {
            let mut n = 0;
            for (_, b) in boards.iter_mut() {
                let us = b.side_to_move();
                let facing = Facing::of(b, us);
                let order = wuzi_search::search::ordering_table(&Default::default(), b.rule());
                list.fill(b, us, facing, None, [None; 3], &history, order);
                n += list.moves.len();
            }
            n
        })
    });
}

fn short_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search_depth_6");
    group.sample_size(10);
    for (name, board) in boards().into_iter().take(4) {
        group.bench_function(name, |bench| {
            bench.iter(|| {
                let mut s = Searcher::new(8 << 20);
                let limits = Limits {
                    max_depth: Some(6),
                    ..Limits::default()
                };
                s.search(&board, &limits, &AtomicBool::new(false), &mut |_| {})
            })
        });
    }
    group.finish();
}

/// Stores then probes at scattered keys in a table far larger than the caches, as the search
/// does: the cost is the memory traffic of one bucket, one cache line when buckets are aligned.
fn table_traffic(c: &mut Criterion) {
    let table = TranspositionTable::new(64 << 20);
    // Random keys: spread over every bucket, no pattern the prefetcher could follow.
    let mut keys = Rng::new(1);
    let mut next_key = move || keys.next_u64();
    c.bench_function("table_store_then_probe_1024_keys", |bench| {
        bench.iter(|| {
            let mut hits = 0;
            for _ in 0..1024 {
                let k = next_key();
                table.store(k, 0, Some(7), 10, 0, 3, Bound::Exact);
                hits += usize::from(table.probe(black_box(k), 0).is_some());
            }
            hits
        })
    });
}

criterion_group!(
    benches,
    evaluation,
    move_generation,
    short_search,
    table_traffic
);
criterion_main!(benches);
