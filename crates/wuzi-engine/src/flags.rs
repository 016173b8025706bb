//! `pbrain-wuzi`'s own command-line flags. Managers start the engine without any; the flags
//! set what a manager's `INFO` lines cannot: the evaluation and the thread count used until
//! `INFO thread_num` arrives. A flag left out is `None`: the settings file beside the binary
//! ([`crate::config`]) then gives the value, or the built-in default
//! ([`crate::settings::DEFAULT_THREADS`], [`EvalChoice::Auto`]).
//!
//! Each value is read by the function its concept's crate owns, the same one the `wuzi` tool
//! uses: the evaluation by [`EvalChoice::from_arg`], and the thread count by the one rule
//! [`wuzi_search::resolve_threads`] (through [`crate::settings::Settings::threads`]).

use clap::Parser;
use wuzi_eval::eval::EvalChoice;

/// The wuzi Gomoku engine for Gomocup managers: the piskvork protocol with Yixin-Board
/// extensions on standard input and output (`protocol.md`).
#[derive(Parser, Debug, Clone)]
#[command(name = "pbrain-wuzi", version)]
pub struct Flags {
    /// Search threads until the manager sends `INFO thread_num` (0: one per available core;
    /// at most 256). Default: the settings file's `threads`, else 1.
    #[arg(long, value_name = "N")]
    pub threads: Option<u64>,
    /// The evaluation: `auto` (the learned weights in the rules where they won their match),
    /// `classic` (the hand-set one), `learned`, or a weights file written by `wuzi tune`.
    /// Default: the settings file's `eval`, else `auto`.
    #[arg(long, value_name = "auto|classic|learned|FILE", value_parser = EvalChoice::from_arg)]
    pub eval: Option<EvalChoice>,
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
        assert_eq!(f.threads, None);
        assert_eq!(f.eval, None);
    }

    #[test]
    fn flags_are_read_and_nonsense_refused() {
        let f = parse(&["--threads", "0", "--eval", "classic"]).expect("valid flags");
        assert_eq!((f.threads, f.eval), (Some(0), Some(EvalChoice::Classic)));
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
