//! wuzi-engine: the engine side of the Gomocup protocol, what `pbrain-wuzi` runs. The wire
//! format itself (commands, replies, coordinates) is `wuzi-protocol`'s.
//!
//! Three threads: the stdin reader ([`input`]) turns bytes into lines; the search thread
//! ([`worker`]) owns the searcher and runs one job at a time; the session ([`session`], on the
//! calling thread) owns the position and the settings and handles every event in order. They
//! talk only through channels, and all output goes through [`output::Output`] one whole,
//! flushed line at a time. [`timer`] sizes each move's time, [`settings`] keeps the `INFO`
//! values, [`game`] holds the all-or-nothing position operations, [`block`] reads position
//! blocks and [`swap2`] makes the swap2 choices. [`run`], with the command line's [`Flags`],
//! is the one entry point.

pub mod block;
pub mod flags;
pub mod game;
pub mod input;
pub mod output;
pub mod session;
pub mod settings;
pub mod swap2;
pub mod timer;
pub mod worker;

use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use wuzi_search::{Options, Searcher};

pub use flags::Flags;
use session::{Event, Session};
use settings::Settings;

/// Runs an engine session on stdin and stdout until `END` or the end of input: the one
/// entry point of `pbrain-wuzi`, with its command-line [`Flags`].
pub fn run(flags: &Flags) -> ExitCode {
    let launched = Instant::now();
    let out = output::Output::stdout();
    let settings = Settings::with_threads(flags.threads);
    let (events_tx, events) = mpsc::channel::<Event>();
    let (jobs, job_rx) = mpsc::channel();
    let mut searcher = Searcher::new(settings.table_bytes());
    searcher.set_options(Options {
        eval: flags.eval,
        ..Options::default()
    });
    if let Err(e) = searcher.set_threads(settings.threads()) {
        out.send(&wuzi_protocol::Reply::Error(format!(
            "{e}; searching on one thread"
        )));
    }
    let max_threads = searcher.max_threads();
    let done_tx = events_tx.clone();
    // Without a search thread every move is the quick move (the session falls back when a
    // job cannot be sent).
    let _ = worker::spawn(searcher, job_rx, out.clone(), move |id, outcome| {
        done_tx.send(Event::Done(id, outcome)).is_ok()
    });
    let reader = input::spawn(std::io::stdin(), move |line| {
        events_tx.send(Event::Input(line)).is_ok()
    });
    if reader.is_err() {
        out.send(&wuzi_protocol::Reply::Error(
            "cannot start the input thread".into(),
        ));
        return ExitCode::FAILURE;
    }
    Session::new(out, settings, jobs, max_threads, launched.elapsed()).run(events);
    ExitCode::SUCCESS
}
