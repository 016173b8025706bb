//! `pbrain-wuzi`'s own command-line flags. Managers start the engine without any; the flags
//! set what a manager's `INFO` lines cannot: the evaluation and the thread count used until
//! `INFO thread_num` arrives.
//!
//! Each value is read by the function its concept's crate owns, the same one the `wuzi` tool
//! uses: the evaluation by [`EvalChoice::from_arg`], and the thread count by the one rule
//! [`wuzi_search::resolve_threads`] (through [`crate::settings::Settings::threads`]).

use clap::Parser;
use wuzi_eval::eval::EvalChoice;

use crate::settings::DEFAULT_THREADS;

/// The wuzi Gomoku engine for Gomocup managers: the piskvork protocol with Yixin-Board
/// extensions on standard input and output (`protocol.md`).
#[derive(Parser, Debug, Clone)]
#[command(name = "pbrain-wuzi", version)]
pub struct Flags {
    /// Search threads until the manager sends `INFO thread_num` (0: one per available core;
    /// at most 256).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_THREADS)]
    pub threads: u64,
    /// The evaluation: `auto` (the learned weights in the rules where they won their match),
    /// `classic` (the hand-set one), `learned`, or a weights file written by `wuzi tune`.
    #[arg(long, value_name = "auto|classic|learned|FILE", default_value = "auto",
          value_parser = EvalChoice::from_arg)]
    pub eval: EvalChoice,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(list: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("pbrain-wuzi").chain(list.iter().copied()))
    }

    #[test]
    fn no_flags_is_what_managers_get() {
        let f = parse(&[]).expect("no flags");
        assert_eq!(f.threads, DEFAULT_THREADS);
        assert_eq!(f.eval, EvalChoice::Auto);
    }

    #[test]
    fn flags_are_read_and_nonsense_refused() {
        let f = parse(&["--threads", "0", "--eval", "classic"]).expect("valid flags");
        assert_eq!((f.threads, f.eval), (0, EvalChoice::Classic));
        for bad in [
            &["--threads", "many"][..],
            &["--threads", "-1"],
            &["--engine", "simple"],
            &["--eval", "/nonexistent/weights.txt"],
            &["--colour", "black"],
            &["--threads"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
