//! `pbrain-wuzi`: the wuzi engine for Gomocup managers (piskvork protocol with Yixin-Board
//! extensions) on stdin and stdout. The contract is `protocol.md`; the session and its flags
//! (`pbrain-wuzi --help`) are `wuzi_engine`'s. Managers start it without arguments; its
//! defaults then come from the settings file beside it (`pbrain-wuzi.toml`, see
//! `wuzi_engine::config`), which the flags override.

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    wuzi_engine::run(&wuzi_engine::Flags::parse())
}
