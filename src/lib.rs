//! The `wuzi` package: the command-line tools' logic (the binaries in `src/bin` are thin
//! shells over it and over the library crates).

pub mod bench_positions;
pub mod movegen_bench;
pub mod search_bench;
pub mod solve;
