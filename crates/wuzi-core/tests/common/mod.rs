//! The core tests' helpers: they live in `wuzi-testkit` (one copy for the workspace).
#![allow(unused_imports)]

pub use wuzi_testkit::data::data as testdata;
pub use wuzi_testkit::position::board_from_rows;
