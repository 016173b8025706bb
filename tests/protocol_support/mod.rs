//! The protocol tests' helpers: they live in `wuzi-testkit` (one copy for the workspace).
#![allow(unused_imports)]

pub use wuzi_testkit::engine::*;
