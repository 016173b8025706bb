//! The search as the tests run it: one thread, a fixed depth, no time limit.

use std::sync::atomic::AtomicBool;
use wuzi_core::Board;
use wuzi_search::{Limits, Options, SearchResult, Searcher};

/// The table of [`search_to_depth`]: 4 MiB.
pub const TABLE_BYTES: usize = 4 << 20;

/// Searches `board` for the side to move to `depth` with `options`, on one thread with a
/// fresh table; panics when there is no legal move.
pub fn search_to_depth(board: &Board, depth: u32, options: Options) -> SearchResult {
    let mut searcher = Searcher::new(TABLE_BYTES);
    searcher.set_options(options);
    let limits = Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    searcher
        .search(board, &limits, &AtomicBool::new(false), &mut |_| {})
        .unwrap_or_else(|| panic!("no legal move in\n{board:?}"))
}
