//! The session: one engine's state machine, driven by events.
//!
//! Owns the position (`None` before `START`), the settings, an open position block, the
//! search in progress and the commands that arrived while it ran. Invariants:
//! - events are handled one at a time in arrival order; the session never blocks on the
//!   search thread, so `END`, `YXSTOP`, `INFO` and `ABOUT` are handled at once, also during a
//!   search; other commands that arrive during a search wait in a queue and are handled in
//!   order when it ends;
//! - a move is played on the session's position before its reply is written, so a manager
//!   that answers within microseconds finds the position up to date;
//! - every command that fails leaves the position as it was and gets one `ERROR` line;
//! - a search that has not answered by its hard limit is told to stop; one that has still
//!   not answered after the grace time is abandoned and the quick move is answered, so the
//!   turn time holds even if the searcher misbehaves.
//!
//! This file holds the event loop and the dispatch; `handlers` the commands that change or
//! report the position; `think` the search lifecycle.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

use wuzi_core::Board;

use crate::block::{Block, BlockKind, Step};
use crate::input::{Input, LineError};
use crate::output::Output;
use crate::settings::Settings;
use crate::worker::{Job, Outcome};
use wuzi_protocol::{Command, ParseError, Reply};

/// Commands queued during a search beyond this many, or this many bytes, are refused with an
/// `ERROR`.
pub const MAX_QUEUED: usize = 4096;
pub const MAX_QUEUED_BYTES: usize = 1 << 20;
/// After `YXSTOP`, the search has this long to answer before the quick move is sent.
pub const STOP_GRACE: Duration = Duration::from_millis(200);

/// What the session receives.
#[derive(Debug)]
pub enum Event {
    Input(Input),
    /// A search job finished: its id and outcome.
    Done(u64, Outcome),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Exit,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ThinkKind {
    Move,
    Nbest(usize),
    Swap2,
}

struct Thinking {
    id: u64,
    kind: ThinkKind,
    stop: Arc<AtomicBool>,
    started: Instant,
    hard_at: Instant,
    give_up_at: Instant,
    stopped: bool,
}

pub struct Session {
    out: Output,
    settings: Settings,
    game: Option<Board>,
    block: Option<Block>,
    thinking: Option<Thinking>,
    queue: VecDeque<(Result<String, LineError>, Instant)>,
    queued_bytes: usize,
    jobs: Sender<Job>,
    next_id: u64,
    /// Time before the session could read, counted against the first move.
    startup: Option<Duration>,
    max_threads: usize,
}

impl Session {
    pub fn new(
        out: Output,
        settings: Settings,
        jobs: Sender<Job>,
        max_threads: usize,
        startup: Duration,
    ) -> Session {
        Session {
            out,
            settings,
            game: None,
            block: None,
            thinking: None,
            queue: VecDeque::new(),
            queued_bytes: 0,
            jobs,
            next_id: 1,
            startup: Some(startup),
            max_threads,
        }
    }

    /// Runs until `END`, the end of input, or a broken output.
    pub fn run(mut self, events: Receiver<Event>) {
        loop {
            let event =
                match self.thinking.as_ref().map(
                    |t| {
                        if t.stopped {
                            t.give_up_at
                        } else {
                            t.hard_at
                        }
                    },
                ) {
                    None => match events.recv() {
                        Ok(e) => e,
                        Err(_) => break,
                    },
                    Some(wake) => {
                        let wait = wake.saturating_duration_since(Instant::now());
                        match events.recv_timeout(wait) {
                            Ok(e) => e,
                            Err(RecvTimeoutError::Timeout) => {
                                self.on_deadline();
                                continue;
                            }
                            Err(RecvTimeoutError::Disconnected) => break,
                        }
                    }
                };
            let flow = match event {
                Event::Input(Input::Eof) => Flow::Exit,
                Event::Input(Input::Line(line, at)) => self.on_line(line, at),
                Event::Done(id, outcome) => self.on_done(id, outcome),
            };
            if flow == Flow::Exit || self.out.is_broken() {
                break;
            }
        }
        if let Some(t) = &self.thinking {
            t.stop.store(true, Ordering::SeqCst);
        }
        self.out.silence();
    }

    fn send(&self, reply: Reply) {
        self.out.send(&reply);
    }

    fn error(&self, why: impl Into<String>) {
        self.send(Reply::Error(why.into()));
    }

    fn on_line(&mut self, line: Result<String, LineError>, at: Instant) -> Flow {
        if self.thinking.is_none() {
            return self.handle(line, at);
        }
        if let Ok(text) = &line {
            match Command::parse(text) {
                Ok(Command::End) => return Flow::Exit,
                Ok(Command::YxStop) => {
                    if let Some(t) = self.thinking.as_mut() {
                        t.stop.store(true, Ordering::SeqCst);
                        t.stopped = true;
                        t.give_up_at = t.give_up_at.min(later(Instant::now(), STOP_GRACE));
                    }
                    return Flow::Continue;
                }
                Ok(Command::About) => return self.command(Command::About, at),
                Ok(Command::Info(s)) => return self.command(Command::Info(s), at),
                Err(ParseError::Empty) => return Flow::Continue,
                _ => {}
            }
        }
        let bytes = line.as_ref().map_or(0, String::len);
        if self.queue.len() >= MAX_QUEUED || self.queued_bytes + bytes > MAX_QUEUED_BYTES {
            self.error("busy thinking: too many commands waiting; this one is dropped");
        } else {
            self.queued_bytes += bytes;
            self.queue.push_back((line, at));
        }
        Flow::Continue
    }

    /// Handles the waiting commands until one starts a search or none is left.
    fn drain(&mut self) -> Flow {
        while self.thinking.is_none() {
            let Some((line, at)) = self.queue.pop_front() else {
                break;
            };
            self.queued_bytes -= line.as_ref().map_or(0, String::len);
            if self.handle(line, at) == Flow::Exit {
                return Flow::Exit;
            }
        }
        Flow::Continue
    }

    /// Handles one line while no search runs.
    fn handle(&mut self, line: Result<String, LineError>, at: Instant) -> Flow {
        if let Some(block) = self.block.as_mut() {
            match block.push(&line) {
                Step::Continue => return Flow::Continue,
                Step::Done => {
                    let block = self.block.take();
                    return block.map_or(Flow::Continue, |b| self.finish_block(b, at));
                }
                Step::Interrupted => {
                    let text = line.as_deref().unwrap_or_default();
                    if matches!(Command::parse(text), Ok(Command::End)) {
                        return Flow::Exit;
                    }
                    if let Some(b) = self.block.take() {
                        self.error(b.interrupted_error(text));
                    }
                }
            }
        }
        let text = match line {
            Ok(text) => text,
            Err(e) => {
                self.error(e.to_string());
                return Flow::Continue;
            }
        };
        match Command::parse(&text) {
            Ok(command) => self.command(command, at),
            Err(ParseError::Empty) => Flow::Continue,
            Err(ParseError::Unknown(word)) => {
                self.send(Reply::Unknown(word));
                Flow::Continue
            }
            Err(e) => {
                self.error(e.to_string());
                Flow::Continue
            }
        }
    }

    fn command(&mut self, command: Command, at: Instant) -> Flow {
        let word = command.word();
        let result = match command {
            Command::End => return Flow::Exit,
            Command::About => {
                self.send(about());
                Ok(())
            }
            Command::Info(setting) => {
                self.apply_setting(setting);
                Ok(())
            }
            Command::YxStop => Ok(()),
            Command::YxHashClear => {
                let _ = self.jobs.send(Job::Clear);
                Ok(())
            }
            Command::YxShowInfo => {
                self.send(Reply::Message(format!(
                    "INFO MAX_THREAD_NUM {}",
                    self.max_threads
                )));
                self.send(Reply::Message(format!(
                    "INFO MAX_HASH_SIZE {}",
                    self.settings.table_cap() / 1024
                )));
                Ok(())
            }
            Command::Done => Err("DONE without an open BOARD, YXBOARD or SWAP2BOARD".to_string()),
            Command::Board => self.open_block(BlockKind::Board),
            Command::YxBoard => self.open_block(BlockKind::YxBoard),
            Command::Swap2Board => self.open_block(BlockKind::Swap2Board),
            Command::Start(n) => self.start(n, n),
            Command::RectStart { width, height } => self.start(width, height),
            Command::Restart => self.restart(),
            Command::Begin => {
                let ready = self.playing().map(|_| ());
                ready.map(|()| self.think(ThinkKind::Move, at))
            }
            Command::Turn(c) => self.turn(c, at),
            Command::Takeback(c) => self.takeback(c),
            Command::Play(c) => self.play(c),
            Command::YxShowForbid => self.show_forbid(),
            Command::YxNbest(n) => self.nbest(n, at),
        };
        if let Err(why) = result {
            self.error(format!("{word}: {why}"));
        }
        Flow::Continue
    }

    /// The position, if a game is on and its rule is playable.
    fn playing(&self) -> Result<&Board, String> {
        self.settings.rule()?;
        self.game
            .as_ref()
            .ok_or_else(|| "no game yet: send START first".to_string())
    }
}

mod handlers;
mod think;

pub use handlers::about;
use think::later;

#[cfg(test)]
mod tests;
