//! The protocol tests' helpers: they live in `wuzi-testkit` (one copy for the workspace),
//! except those of the analysis-GUI tests (`analysis`), which only the tests here use.
#![allow(unused_imports)]

pub mod analysis;

pub use wuzi_testkit::engine::*;
