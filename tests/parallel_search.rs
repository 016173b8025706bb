//! The parallel search (`wuzi-search/src/parallel.rs`) against the single-thread search:
//! legal moves, and at a fixed depth with pruning, the table and threat search off, the same
//! score on every bench position, with the root split alone and with split points at every
//! depth from 3 (splitting changes the order of work, not the minimax value). Small depths keep CI quick; `WUZI_PARALLEL_DEPTH` asks for deeper.
//! The model of how the search scales past the cores at hand is `wuzi bench --model`
//! (`wuzi-search/src/bench/model.rs`).

use std::sync::atomic::AtomicBool;
use wuzi_search::bench::{BenchPosition, POSITIONS};
use wuzi_search::parallel::{Pool, Split};
use wuzi_search::params::PLY;
use wuzi_search::search::{RootMove, Thread};
use wuzi_search::tt::TranspositionTable;
use wuzi_search::{Limits, Options, Searcher, SplitDepth, WIN};

fn depth() -> u32 {
    wuzi_testkit::env_or("WUZI_PARALLEL_DEPTH", 3)
}

fn search(
    threads: usize,
    options: Options,
    depth: u32,
    pos: &BenchPosition,
) -> wuzi_search::SearchResult {
    let board = pos.board().unwrap();
    let mut searcher = Searcher::new(1 << 20);
    searcher.set_options(options);
    searcher.set_threads(threads).unwrap();
    assert_eq!(searcher.threads(), threads);
    let limits = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let result = searcher
        .search(&board, &limits, &stop, &mut |_| {})
        .unwrap_or_else(|| panic!("{}: no move", pos.name));
    let mut check = board.clone();
    assert!(
        check.is_legal(result.best),
        "{}: {threads} threads chose {}, not legal",
        pos.name,
        result.best
    );
    result
}

/// No table, no pruning, no threat search: the plain minimax value, which the order of work
/// cannot change. The split depths are the engine's defaults (checked below).
const EXACT: Options = Options {
    use_tt: false,
    pruning: false,
    threat_search: false,
    textbook: None,
    eval: wuzi_eval::eval::EvalChoice::Auto,
    split_depth: SplitDepth {
        pv: 3,
        other: 9,
        idle: 4,
    },
    stats: false,
    learned_order: true,
};

#[test]
fn the_exact_options_split_as_the_engine_does() {
    assert_eq!(EXACT.split_depth, SplitDepth::default());
}

/// `EXACT` with every node from depth 3 splitting: nested split points below the root, at
/// principal variation nodes and at null-window nodes, with cut-offs abandoning running
/// helpers.
const EXACT_SPLIT_EVERYWHERE: Options = Options {
    split_depth: SplitDepth {
        pv: 3,
        other: 3,
        idle: 3,
    },
    ..EXACT
};

/// `EXACT` splitting below the root only where a thread is idle (from depth 3): split points
/// that depend on the threads' timing, not on the tree.
const EXACT_IDLE_SPLITS: Options = Options {
    split_depth: SplitDepth {
        pv: 100,
        other: 100,
        idle: 3,
    },
    ..EXACT
};

#[test]
fn parallel_score_equals_single_thread_score_without_pruning() {
    let exact = EXACT;
    let depth = depth();
    let mut differ = Vec::new();
    for pos in POSITIONS {
        let one = search(1, exact, depth, pos);
        for threads in [2, 3] {
            let many = search(threads, exact, depth, pos);
            if many.score != one.score || many.depth != one.depth {
                differ.push(format!(
                    "{}: 1 thread {} at depth {}, {threads} threads {} at depth {}",
                    pos.name, one.score, one.depth, many.score, many.depth
                ));
            }
            // The helpers' nodes are counted: never fewer than the principal move's alone.
            assert!(many.nodes > 0);
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
}

/// Inside a finite window (an aspiration window) the value inside the window is still the
/// single-thread value, and a value outside is still reported on the right side.
#[test]
fn concurrent_principal_keeps_the_value_in_aspiration_windows() {
    let exact = EXACT;
    let depth = depth();
    let pool = Pool::new(3).unwrap();
    for pos in POSITIONS {
        let v = search(1, exact, depth, pos).score;
        if v.abs() >= wuzi_search::WIN_MIN {
            continue; // Proven: settled by the root's tactics, not by the split.
        }
        let board = pos.board().unwrap();
        let tt = TranspositionTable::new(1 << 16);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        for (alpha, beta) in [
            (v - 30, v + 30),
            (v - 1, v + 1),
            (v - 90, v - 10),
            (v + 5, v + 80),
        ] {
            let mut thread = Thread::new(&board, &tt, &stop, &limits, exact);
            Split::new(&pool, &board, &tt, &stop, &limits, exact).attach(&mut thread);
            let mut moves: Vec<RootMove> = thread
                .root_moves()
                .into_iter()
                .map(|cell| RootMove {
                    cell,
                    score: -WIN - 1,
                    pv: vec![cell],
                    depth: 0,
                })
                .collect();
            let got = thread.search_root(&mut moves, depth as i32 * PLY, alpha, beta);
            let expected = if v <= alpha {
                got <= alpha
            } else if v >= beta {
                got >= beta
            } else {
                got == v && moves[0].score == v
            };
            assert!(
                expected,
                "{}: window ({alpha}, {beta}), single thread {v}, split {got}",
                pos.name
            );
        }
    }
}

/// Splitting below the root (every node from depth 3, nested, with cut-offs) keeps the
/// minimax value on every bench position, at a depth where such split points exist.
#[test]
fn nested_split_points_keep_the_single_thread_score() {
    assert_scores_match_one_thread(EXACT_SPLIT_EVERYWHERE, depth().max(5), &[2, 4]);
}

/// Every bench position searched to `depth` with `options` on each of `threads` scores as on
/// one thread.
fn assert_scores_match_one_thread(options: Options, depth: u32, threads: &[usize]) {
    let mut differ = Vec::new();
    for pos in POSITIONS {
        let one = search(1, options, depth, pos);
        for &n in threads {
            let many = search(n, options, depth, pos);
            if many.score != one.score {
                differ.push(format!(
                    "{}: 1 thread {}, {n} threads {}",
                    pos.name, one.score, many.score
                ));
            }
        }
    }
    assert!(differ.is_empty(), "{differ:#?}");
}

/// Split points opened because a thread was idle (wherever the timing puts them, from depth
/// 3) keep the minimax value too.
#[test]
fn idle_split_points_keep_the_single_thread_score() {
    assert_scores_match_one_thread(EXACT_IDLE_SPLITS, depth().max(5), &[2, 3]);
}

#[test]
fn parallel_search_with_every_option_plays_legal_moves() {
    for pos in POSITIONS {
        let one = search(1, Options::default(), 6, pos);
        let four = search(4, Options::default(), 6, pos);
        // A proven result is a fact of the position, whatever the order of work.
        if one.score.abs() >= wuzi_search::WIN_MIN && one.depth > 0 {
            assert_eq!(
                one.score.signum(),
                four.score.signum(),
                "{}: 1 thread {}, 4 threads {}",
                pos.name,
                one.score,
                four.score
            );
        }
    }
}

#[test]
fn thread_count_changes_between_searches() {
    let board = POSITIONS[0].board().unwrap();
    let mut searcher = Searcher::new(1 << 20);
    let limits = Limits {
        max_depth: Some(4),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for threads in [2, 1, 4, 4, 8, 1] {
        searcher.set_threads(threads).unwrap();
        assert_eq!(searcher.threads(), threads.min(searcher.max_threads()));
        let result = searcher.search(&board, &limits, &stop, &mut |_| {});
        assert!(result.is_some());
    }
}

#[test]
fn a_set_stop_flag_ends_every_worker() {
    let board = POSITIONS[1].board().unwrap();
    let mut searcher = Searcher::new(1 << 20);
    searcher.set_threads(4).unwrap();
    // Stopped before it starts: depth 1 at most is searched, and the search returns.
    let stop = AtomicBool::new(true);
    let limits = Limits {
        max_depth: Some(60),
        ..Limits::default()
    };
    let result = searcher.search(&board, &limits, &stop, &mut |_| {});
    let result = result.expect("a move even when stopped at once");
    assert!(result.depth <= 1, "searched to depth {}", result.depth);
}

/// The root's threat solvers (VCF first, then the VCT, which runs beside the deepening on
/// several threads) look at the stop flag too: a search stopped before it starts spends a
/// handful of node checks, not the solvers' budgets (2 million VCF and 400,000 VCT nodes
/// when no time is set, as in analysis).
#[test]
fn a_set_stop_flag_ends_the_root_threat_search() {
    for threads in [1, 3] {
        for pos in POSITIONS {
            let board = pos.board().unwrap();
            let mut searcher = Searcher::new(1 << 20);
            searcher.set_threads(threads).unwrap();
            let stop = AtomicBool::new(true);
            let result = searcher.search(&board, &Limits::default(), &stop, &mut |_| {});
            let result = result.expect("a move even when stopped at once");
            assert!(
                result.nodes < 20_000,
                "{} on {threads} threads: {} nodes after the stop",
                pos.name,
                result.nodes
            );
        }
    }
}
