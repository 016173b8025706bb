//! wuzi-engine: the engine side of the Gomocup protocol, what `pbrain-wuzi` runs. The wire
//! format itself (commands, replies, coordinates) is `wuzi-protocol`'s.
//!
//! Three threads: the stdin reader ([`input`]) turns bytes into lines; the search thread
//! ([`worker`]) owns the searcher and runs one job at a time; the session ([`session`], on the
//! calling thread) owns the position and the settings and handles every event in order. They
//! talk only through channels, and all output goes through [`output::Output`] one whole,
//! flushed line at a time. [`timer`] sizes each move's time, [`settings`] keeps the `INFO`
//! values, [`config`] reads their defaults from the settings file beside the binary,
//! [`game`] holds the all-or-nothing position operations, [`block`] reads blocks of lines up
//! to `DONE`, [`report`] writes a search's progress (the `show_detail` levels), and the
//! analysis commands are built on the searcher's public API: [`swap2`] makes the swap2
//! choices, [`balance`] the balance search, [`defend`] `YXSEARCHDEFEND`; the playing
//! levels are `wuzi_search::strength`'s. [`run`], with the command line's [`Flags`], is the one entry point.

pub mod balance;
pub mod block;
pub mod config;
pub mod defend;
pub mod flags;
pub mod game;
pub mod input;
pub mod output;
pub mod report;
pub mod session;
pub mod settings;
pub mod swap2;
pub mod timer;
pub mod worker;

use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Instant;

use wuzi_eval::eval::EvalChoice;
use wuzi_search::{Options, Searcher};

pub use flags::Flags;
use session::{Event, Session};
use settings::Settings;

/// Runs an engine session on stdin and stdout until `END` or the end of input: the one
/// entry point of `pbrain-wuzi`. Its defaults come from the settings file beside the binary
/// ([`config`]), then from the command line's [`Flags`] where given.
pub fn run(flags: &Flags) -> ExitCode {
    let launched = Instant::now();
    let out = output::Output::stdout();
    let file = match config::path_beside_binary() {
        Some(path) => match config::read(&path) {
            Ok(file) => file.unwrap_or_default(),
            Err(why) => {
                out.send(&wuzi_protocol::Reply::Message(format!(
                    "settings file {}: {why}; the built-in defaults are used",
                    path.display()
                )));
                config::FileSettings::default()
            }
        },
        None => config::FileSettings::default(),
    };
    let settings = Settings::launched(&file, flags.threads);
    let eval = flags.eval.or(file.eval).unwrap_or(EvalChoice::Auto);
    let (events_tx, events) = mpsc::channel::<Event>();
    let (jobs, job_rx) = mpsc::channel();
    let mut searcher = Searcher::new(settings.table_bytes());
    searcher.set_options(Options {
        eval,
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
