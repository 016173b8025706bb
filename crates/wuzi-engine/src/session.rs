//! The session: one engine's state machine, driven by events.
//!
//! Owns the position (`None` before `START`), the settings, the blocked points, an open block
//! of lines, a command waiting for its file name, the search in progress and the commands
//! that arrived while it ran. Invariants:
//! - events are handled one at a time in arrival order; the session never blocks on the
//!   search thread, so `END`, `YXSTOP`, `INFO` and `ABOUT` are handled at once, also during a
//!   search; other commands that arrive during a search wait in a queue and are handled in
//!   order when it ends;
//! - a ponder (a search on the opponent's time, `INFO pondering 1`) is stopped by any line
//!   at all; the line then waits as during a search, its time counted from its arrival, and
//!   the ponder writes nothing and spends none of the engine's time;
//! - a move is played on the session's position before its reply is written, so a manager
//!   that answers within microseconds finds the position up to date;
//! - every command that fails leaves the position (and the blocks) as they were and gets one
//!   `ERROR` line;
//! - blocked points stay blocked through new positions (`START`, `BOARD`, `YXBOARD`, `TURN`)
//!   until `YXBLOCKRESET` or `YXBLOCKUNDO`, and the engine never answers a blocked point as
//!   its move;
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

use wuzi_core::{Board, Point};

use crate::block::{Block, BlockKind, Step};
use crate::input::{Input, LineError};
use crate::output::Output;
use crate::settings::Settings;
use crate::worker::{Job, Outcome};
use wuzi_protocol::{quote, Command, Follows, ParseError, Reply};

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
    /// `YXBALANCEONE` (`two` false) or `YXBALANCETWO`.
    Balance {
        two: bool,
        target: i32,
    },
    Defend,
    /// A search on the opponent's time: it owes nothing.
    Ponder,
    /// Saving, loading or measuring the table (the command's word).
    Table(&'static str),
}

impl ThinkKind {
    /// Whether the search answers the manager (and so counts against its clock).
    fn answers(self) -> bool {
        !matches!(self, ThinkKind::Ponder)
    }
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

/// A command that takes its argument from the next line (as Yixin-Board sends a file name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pending {
    HashDump,
    HashLoad,
    /// The file name of a command accepted without effect.
    Ignored(&'static str),
}

pub struct Session {
    out: Output,
    settings: Settings,
    game: Option<Board>,
    block: Option<Block>,
    pending: Option<Pending>,
    /// Points the engine must not play (`YXBLOCK`).
    blocked: Vec<Point>,
    thinking: Option<Thinking>,
    queue: VecDeque<(Result<String, LineError>, Instant)>,
    queued_bytes: usize,
    jobs: Sender<Job>,
    next_id: u64,
    /// Time before the session could read, counted against the first move.
    startup: Option<Duration>,
    max_threads: usize,
    /// The engine just answered a move: ponder if nothing else comes first.
    ponder_next: bool,
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
            pending: None,
            blocked: Vec::new(),
            thinking: None,
            queue: VecDeque::new(),
            queued_bytes: 0,
            jobs,
            next_id: 1,
            startup: Some(startup),
            max_threads,
            ponder_next: false,
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

    /// Tells the search to stop now, with the grace time to answer.
    fn stop_search(&mut self) {
        if let Some(t) = self.thinking.as_mut() {
            t.stop.store(true, Ordering::SeqCst);
            t.stopped = true;
            t.give_up_at = t.give_up_at.min(later(Instant::now(), STOP_GRACE));
        }
    }

    fn on_line(&mut self, line: Result<String, LineError>, at: Instant) -> Flow {
        let Some(kind) = self.thinking.as_ref().map(|t| t.kind) else {
            return self.handle(line, at);
        };
        let pondering = kind == ThinkKind::Ponder;
        if let Ok(text) = &line {
            match Command::parse(text) {
                Ok(Command::End) => return Flow::Exit,
                Err(ParseError::Empty) => return Flow::Continue,
                _ => {}
            }
        }
        if pondering {
            // Anything at all ends a ponder; the line is then handled as after a search.
            self.stop_search();
            if line
                .as_ref()
                .is_ok_and(|t| matches!(Command::parse(t), Ok(Command::YxStop)))
            {
                return Flow::Continue;
            }
        } else if let Ok(text) = &line {
            match Command::parse(text) {
                Ok(Command::YxStop) => {
                    if !matches!(kind, ThinkKind::Table(_)) {
                        self.stop_search();
                    }
                    return Flow::Continue;
                }
                Ok(Command::About) => return self.command(Command::About, at),
                Ok(Command::Info(s)) => return self.command(Command::Info(s), at),
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

    /// Handles the waiting commands until one starts a search or none is left; then, if the
    /// engine has just answered a move and pondering is on, ponders.
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
        if self.thinking.is_none() && self.ponder_next {
            self.ponder_next = false;
            self.ponder();
        }
        Flow::Continue
    }

    /// Handles one line while no search runs.
    fn handle(&mut self, line: Result<String, LineError>, at: Instant) -> Flow {
        self.ponder_next = false;
        if let Some(pending) = self.pending.take() {
            return self.finish_pending(pending, line, at);
        }
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

    /// The line after a command that takes its argument from the next line. A command of
    /// the protocol there means the argument never came: the command is refused and the line
    /// handled as a command.
    fn finish_pending(
        &mut self,
        pending: Pending,
        line: Result<String, LineError>,
        at: Instant,
    ) -> Flow {
        let word = match pending {
            Pending::HashDump => "YXHASHDUMP",
            Pending::HashLoad => "YXHASHLOAD",
            Pending::Ignored(word) => word,
        };
        let text = match &line {
            Ok(text) => text.trim().to_string(),
            Err(e) => {
                self.error(format!("{word}: the file name line: {e}"));
                return Flow::Continue;
            }
        };
        if text.is_empty() {
            self.pending = Some(pending);
            return Flow::Continue;
        }
        if !matches!(Command::parse(&text), Err(ParseError::Unknown(_))) {
            self.error(format!(
                "{word}: a file name was expected on the next line, not \"{}\"",
                quote(&text)
            ));
            return self.handle(line, at);
        }
        match pending {
            Pending::HashDump => self.command(Command::YxHashDump(Some(text)), at),
            Pending::HashLoad => self.command(Command::YxHashLoad(Some(text)), at),
            Pending::Ignored(word) => {
                self.send(not_supported(word));
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
                self.show_info();
                Ok(())
            }
            Command::Done => Err(
                "DONE without an open BOARD, YXBOARD, SWAP2BOARD, YXBLOCK or \
                                  YXBLOCKUNDO"
                    .to_string(),
            ),
            Command::Board => self.open_block(BlockKind::Board),
            Command::YxBoard => self.open_block(BlockKind::YxBoard),
            Command::Swap2Board => self.open_block(BlockKind::Swap2Board),
            Command::YxBlock => self.open_block(BlockKind::YxBlock),
            Command::YxBlockUndo => self.open_block(BlockKind::YxBlockUndo),
            Command::YxBlockReset => {
                self.blocked.clear();
                Ok(())
            }
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
            Command::YxBalanceOne(target) => self.balance(false, target, at),
            Command::YxBalanceTwo(target) => self.balance(true, target, at),
            Command::YxSearchDefend => {
                let ready = self.playing().map(|_| ());
                ready.map(|()| self.think(ThinkKind::Defend, at))
            }
            Command::YxHashDump(None) => {
                self.pending = Some(Pending::HashDump);
                Ok(())
            }
            Command::YxHashLoad(None) => {
                self.pending = Some(Pending::HashLoad);
                Ok(())
            }
            Command::YxHashDump(Some(path)) => self.table_file(path, true),
            Command::YxHashLoad(Some(path)) => self.table_file(path, false),
            Command::YxShowHashUsage => self.table_usage(),
            Command::Unsupported { word, follows } => {
                match follows {
                    Follows::Nothing => self.send(not_supported(word)),
                    Follows::OneLine => self.pending = Some(Pending::Ignored(word)),
                    Follows::UntilDone => self.block = Some(Block::new(BlockKind::Ignored(word))),
                }
                Ok(())
            }
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

/// The answer to a command wuzi accepts without acting on it.
fn not_supported(word: &str) -> Reply {
    Reply::Message(format!("{word} is not supported by wuzi: ignored"))
}

mod handlers;
mod think;

pub use handlers::about;
use think::later;

#[cfg(test)]
mod tests;
