//! The referee: plays one game between two engine processes and adjudicates it, the way the
//! official Gomocup referee does.
//!
//! Per game, to each engine: `START n` (or `RECTSTART w,h`), and once its `OK` has come,
//! `INFO timeout_turn`, `timeout_match`, `max_memory`, `game_type 1`, `rule`, `time_left`, then
//! the engine's own options as `INFO key value`. Per move: `INFO time_left`, then the
//! engine's first move of the game as `BOARD` (every stone so far in playing order, field 1
//! its own, 2 the opponent's, then `DONE`) or as `BEGIN` on an empty board, and every later
//! move as `TURN x,y` with the opponent's last move.
//!
//! Adjudication, in order: no reply in time (the engine is killed) or a move past the clock
//! ([`crate::clock`]) loses on time; a crash, a line that is no reply of the protocol, or a
//! well-formed reply that is not a move loses; a move off the board or on an occupied point
//! loses; Black's forbidden move under renju loses; five (per rule, by wuzi-core) wins; a
//! full board, renju Black left with only forbidden points, or the move limit draws.
//! `MESSAGE`, `DEBUG`, `ERROR` and `UNKNOWN` lines while waiting for a move are logged and
//! otherwise ignored (an engine may answer an `INFO` it does not know that way); `ERROR` or
//! `UNKNOWN` in answer to `START` loses.
//!
//! Between games a reused engine is sent `RESTART` instead of `START` (when the match asks
//! for it); an engine that answers it with anything but `OK` is sent `START` and never
//! `RESTART` again. With `freeze`, the engine not to move is stopped (SIGSTOP) while the other
//! thinks, and both are continued when the game ends.
//!
//! Invariants: the referee never waits past a deadline (every wait is bounded by the clock's
//! allowance and polls the stop flag), and an engine that faulted is killed and its slot
//! emptied, so the next game starts a fresh process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wuzi_core::{Board, Color, ForbiddenKind};
use wuzi_protocol::{quote, Command, Coord, Field, Reply, Setting, StoneLine};

use crate::clock::{millis, Clock};
use crate::config::{GameSetup, MatchConfig};
use crate::engine::{Engine, Received};
use crate::error::MatchError;
use crate::game::{EndReason, EngineId, GameResult, PlayedMove};
use crate::log::MessageLog;

/// How often a wait wakes up to look at the stop flag and the engine's memory.
const POLL: Duration = Duration::from_millis(50);
/// How long a crashed engine is given to report how it ended.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// The two engine processes a game thread keeps between games (by engine id).
pub type Slots = [Option<Engine>; 2];

/// What one wait for a line gave.
enum Waited {
    Reply(Reply, Instant),
    Garbage(String),
    Closed,
    TimedOut,
    Memory(u64),
    Aborted,
}

/// A loss: the engine at fault and why.
struct Fault(EngineId, EndReason);

/// A regular end of a game: the winner (`None`: a draw) and why.
type End = (Option<Color>, EndReason);

/// Plays one game. `Ok(None)` when the stop flag was raised before the game ended; `Err` only
/// when an engine process cannot be created or the board size is not supported.
pub fn play_game(
    cfg: &MatchConfig,
    setup: &GameSetup,
    slots: &mut Slots,
    log: Option<&MessageLog>,
    stop: &AtomicBool,
) -> Result<Option<GameResult>, MatchError> {
    let board = Board::new(cfg.width, cfg.height, cfg.rule)
        .map_err(|e| MatchError::Config(e.to_string()))?;
    for (id, slot) in slots.iter_mut().enumerate() {
        let reusable = !cfg.fresh_process && slot.as_mut().is_some_and(Engine::is_alive);
        if reusable {
            if let Some(e) = slot.as_mut() {
                e.drain();
            }
        } else {
            if let Some(old) = slot.take() {
                old.quit(Duration::from_millis(500));
            }
            *slot = Some(Engine::spawn(&cfg.engines[id])?);
        }
    }
    let mut game = Game::new(cfg, setup, board, log, stop);
    let ended = match slots {
        [Some(a), Some(b)] => game.run([a, b]),
        _ => return Ok(None), // cannot happen: both slots were just filled
    };
    for e in slots.iter_mut().flatten() {
        e.thaw();
    }
    match ended {
        Ok(Some((winner, reason))) => Ok(Some(game.result(winner, reason))),
        Ok(None) => {
            // Stopped: whoever was thinking is killed; the match is ending.
            for slot in slots.iter_mut() {
                if let Some(e) = slot.as_mut() {
                    e.kill();
                }
                *slot = None;
            }
            Ok(None)
        }
        Err(Fault(id, reason)) => {
            if reason.needs_restart() {
                if let Some(e) = slots[id].as_mut() {
                    e.kill();
                }
                slots[id] = None;
            }
            let winner = game.color_of(1 - id);
            Ok(Some(game.result(Some(winner), reason)))
        }
    }
}

struct Game<'a> {
    cfg: &'a MatchConfig,
    setup: &'a GameSetup,
    log: Option<&'a MessageLog>,
    stop: &'a AtomicBool,
    board: Board,
    moves: Vec<PlayedMove>,
    clocks: [Clock; 2],
    startup: [Duration; 2],
    first_sent: [bool; 2],
}

impl<'a> Game<'a> {
    fn new(
        cfg: &'a MatchConfig,
        setup: &'a GameSetup,
        mut board: Board,
        log: Option<&'a MessageLog>,
        stop: &'a AtomicBool,
    ) -> Game<'a> {
        for &p in &setup.points {
            // Checked when the schedule was made: the opening's points are legal.
            let _ = board.play(p);
        }
        Game {
            cfg,
            setup,
            log,
            stop,
            board,
            moves: setup
                .points
                .iter()
                .map(|&point| PlayedMove {
                    point,
                    time: Duration::ZERO,
                })
                .collect(),
            clocks: [Clock::new(cfg.time), Clock::new(cfg.time)],
            startup: [Duration::ZERO; 2],
            first_sent: [false; 2],
        }
    }

    fn color_of(&self, id: EngineId) -> Color {
        if id == self.setup.black {
            Color::Black
        } else {
            Color::White
        }
    }

    fn engine_of(&self, color: Color) -> EngineId {
        match color {
            Color::Black => self.setup.black,
            Color::White => 1 - self.setup.black,
        }
    }

    fn result(&self, winner: Option<Color>, reason: EndReason) -> GameResult {
        GameResult {
            index: self.setup.index,
            black: self.setup.black,
            opening: self.setup.opening.and_then(|i| {
                self.cfg
                    .openings
                    .get(i)
                    .map(|o| (o.label.clone(), o.text.clone()))
            }),
            opening_len: self.setup.points.len(),
            moves: self.moves.clone(),
            winner,
            reason,
            time_used: [self.clocks[0].used(), self.clocks[1].used()],
        }
    }

    /// Plays to the end: `Ok(Some)` a regular end (winner, reason), `Ok(None)` stopped,
    /// `Err` an engine's fault.
    fn run(&mut self, mut engines: [&mut Engine; 2]) -> Result<Option<End>, Fault> {
        let start = match (self.cfg.width, self.cfg.height) {
            (w, h) if w == h => Command::Start(w as u32),
            (w, h) => Command::RectStart {
                width: w as u32,
                height: h as u32,
            },
        }
        .to_string();
        let mut sent_at = [Instant::now(); 2];
        let mut restarting = [false; 2];
        for (id, e) in engines.iter_mut().enumerate() {
            restarting[id] = self.cfg.restart && e.games_started > 0 && e.restart_ok != Some(false);
            e.games_started += 1;
            e.send(
                if restarting[id] {
                    Command::Restart.to_string()
                } else {
                    start.clone()
                }
                .as_str(),
            );
            sent_at[id] = Instant::now();
        }
        for id in [self.setup.black, 1 - self.setup.black] {
            if !self.start_engine(engines[id], id, sent_at[id], restarting[id], &start)? {
                return Ok(None);
            }
        }
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Ok(None);
            }
            if self.board.is_full() {
                return Ok(Some((None, EndReason::FullBoard)));
            }
            if !self.board.has_legal_move() {
                return Ok(Some((None, EndReason::NoLegalMove)));
            }
            if let Some(limit) = self.cfg.max_moves {
                if self.board.move_count() >= limit {
                    return Ok(Some((None, EndReason::MoveLimit(limit))));
                }
            }
            let color = self.board.side_to_move();
            let id = self.engine_of(color);
            if self.cfg.freeze {
                engines[1 - id].freeze();
                engines[id].thaw();
            }
            match self.one_move(engines[id], id, color)? {
                Some(end) => return Ok(Some(end)),
                None if self.stop.load(Ordering::Relaxed) => return Ok(None),
                None => {}
            }
        }
    }

    /// Waits for `OK` to `START` (or to `RESTART` when `restarting`: an engine that refuses
    /// it is sent `start` instead, and never `RESTART` again), then sends the settings.
    /// `Ok(false)`: stopped.
    fn start_engine(
        &mut self,
        e: &mut Engine,
        id: EngineId,
        mut sent: Instant,
        restarting: bool,
        start: &str,
    ) -> Result<bool, Fault> {
        let color = self.color_of(id);
        let mut deadline = sent + self.clocks[id].allowance();
        let fault = |r| Err(Fault(id, r));
        if restarting {
            match self.wait(e, id, color, deadline) {
                Waited::Reply(Reply::Ok, at) => {
                    e.restart_ok = Some(true);
                    self.startup[id] = at.saturating_duration_since(sent);
                    return Ok(self.send_settings(e, id));
                }
                Waited::Reply(Reply::Error(_) | Reply::Unknown(_), _) => {
                    e.restart_ok = Some(false);
                    e.send(start);
                    sent = Instant::now();
                    deadline = sent + self.clocks[id].allowance();
                }
                Waited::Aborted => return Ok(false),
                Waited::Reply(other, _) => {
                    let text = quote(&other.to_string());
                    return fault(EndReason::Protocol(format!(
                        "answered \"{text}\" to RESTART"
                    )));
                }
                other => {
                    return Err(self.fault_of(e, id, other, "OK to RESTART", Duration::ZERO, None))
                }
            }
        }
        match self.wait(e, id, color, deadline) {
            Waited::Reply(Reply::Ok, at) => {
                self.startup[id] = at.saturating_duration_since(sent);
            }
            Waited::Reply(Reply::Error(t), _) => {
                return fault(EndReason::Protocol(format!("START refused: {}", quote(&t))))
            }
            Waited::Reply(Reply::Unknown(t), _) => {
                return fault(EndReason::Protocol(format!("START unknown: {}", quote(&t))))
            }
            Waited::Reply(other, _) => {
                let text = quote(&other.to_string());
                return fault(EndReason::Protocol(format!("answered \"{text}\" to START")));
            }
            Waited::Aborted => return Ok(false),
            other => return Err(self.fault_of(e, id, other, "OK to START", Duration::ZERO, None)),
        }
        Ok(self.send_settings(e, id))
    }

    /// Sends the game's settings and the engine's options after its `OK`; always `true`.
    fn send_settings(&mut self, e: &mut Engine, id: EngineId) -> bool {
        let t = &self.cfg.time;
        let settings = [
            Setting::TimeoutTurn(t.turn_ms()),
            Setting::TimeoutMatch(t.game_ms()),
            Setting::MaxMemory(self.cfg.max_memory),
            Setting::GameType(1),
            Setting::Rule(u64::from(self.cfg.rule.gomocup_code())),
            Setting::TimeLeft(self.clocks[id].time_left_ms()),
        ];
        for s in settings {
            e.send(&Command::Info(s).to_string());
        }
        for (key, value) in &self.cfg.engines[id].options {
            let s = Setting::Other {
                key: key.clone(),
                value: value.clone(),
            };
            e.send(&Command::Info(s).to_string());
        }
        true
    }

    /// Asks engine `id` (playing `color`) for a move and plays it. `Ok(Some)`: the game ended
    /// regularly; `Ok(None)`: it goes on (or was stopped, which the caller checks).
    fn one_move(
        &mut self,
        e: &mut Engine,
        id: EngineId,
        color: Color,
    ) -> Result<Option<End>, Fault> {
        if let Some(fault) = self.unasked_output(e, id, color) {
            return fault;
        }
        e.send(&Command::Info(Setting::TimeLeft(self.clocks[id].time_left_ms())).to_string());
        let first = !self.first_sent[id];
        self.first_sent[id] = true;
        let last_line = match (first, self.board.last_move()) {
            (false, Some(last)) => Command::Turn(Coord::from(last)).to_string(),
            (_, None) => Command::Begin.to_string(),
            (true, Some(_)) => {
                e.send(&Command::Board.to_string());
                for (c, p) in self.board.history() {
                    let field = if c == color {
                        Field::Own
                    } else {
                        Field::Opponent
                    };
                    let line = StoneLine {
                        at: Coord::from(p),
                        field: Some(field),
                    };
                    e.send(&line.to_string());
                }
                Command::Done.to_string()
            }
        };
        let extra = if first {
            self.startup[id]
        } else {
            Duration::ZERO
        };
        let sent = Instant::now();
        e.send(&last_line);
        let deadline = sent + self.clocks[id].allowance().saturating_sub(extra);
        let mut last_error: Option<String> = None;
        let (coord, at) = loop {
            match self.wait(e, id, color, deadline) {
                Waited::Reply(Reply::Move(c), at) => break (c, at),
                Waited::Reply(Reply::Error(t) | Reply::Unknown(t), _) => last_error = Some(t),
                Waited::Reply(other, _) => {
                    let text = quote(&other.to_string());
                    let why = format!("answered \"{text}\" where a move was due");
                    return Err(Fault(id, EndReason::Protocol(why)));
                }
                Waited::Aborted => return Ok(None),
                other => return Err(self.fault_of(e, id, other, "move", extra, last_error)),
            }
        };
        let used = at.saturating_duration_since(sent) + extra;
        let charged = self.clocks[id].charge(used);
        if let Err(loss) = charged {
            return Err(Fault(id, EndReason::Time(loss.to_string())));
        }
        let (w, h) = (self.cfg.width, self.cfg.height);
        let Some(p) = coord.to_point(w, h) else {
            let (x, y) = (coord.x, coord.y);
            return Err(Fault(id, EndReason::OffBoard { x, y }));
        };
        if !self.board.is_empty_at(p) {
            return Err(Fault(id, EndReason::Occupied(p)));
        }
        let forbidden = if self.cfg.rule.has_forbidden_moves() && color == Color::Black {
            self.board.forbidden_kind(p)
        } else {
            None
        };
        if self.board.play(p).is_err() {
            return Err(Fault(id, EndReason::Occupied(p)));
        }
        self.moves.push(PlayedMove {
            point: p,
            time: used,
        });
        Ok(match self.board.winner() {
            Some(c) if c == color => Some((Some(c), EndReason::Five)),
            // wuzi-core names the opponent the winner only for Black's forbidden move.
            Some(_) => {
                let kind = forbidden.unwrap_or(ForbiddenKind::Overline);
                return Err(Fault(id, EndReason::Forbidden(kind)));
            }
            None => None,
        })
    }

    /// Looks at what the engine wrote while it was not asked for anything: `ERROR` and
    /// `UNKNOWN` (answers to `INFO`) are fine; a move or any other reply is a protocol fault,
    /// garbage or a crash is that fault. `Some(Ok(None))`: stopped.
    fn unasked_output(
        &self,
        e: &mut Engine,
        id: EngineId,
        color: Color,
    ) -> Option<Result<Option<End>, Fault>> {
        loop {
            match self.wait(e, id, color, Instant::now()) {
                Waited::TimedOut => return None,
                Waited::Reply(Reply::Error(_) | Reply::Unknown(_), _) => {}
                Waited::Aborted => return Some(Ok(None)),
                Waited::Reply(other, _) => {
                    let text = quote(&other.to_string());
                    let why = format!("wrote \"{text}\" without being asked");
                    return Some(Err(Fault(id, EndReason::Protocol(why))));
                }
                other => {
                    let fault = self.fault_of(e, id, other, "move", Duration::ZERO, None);
                    return Some(Err(fault));
                }
            }
        }
    }

    /// The fault for a wait that gave no usable line.
    fn fault_of(
        &self,
        e: &mut Engine,
        id: EngineId,
        waited: Waited,
        expected: &str,
        extra: Duration,
        last_error: Option<String>,
    ) -> Fault {
        let reason = match waited {
            Waited::Garbage(line) => EndReason::Garbage(line),
            Waited::Closed => EndReason::Crash(e.exit_text(EXIT_GRACE)),
            Waited::Memory(bytes) => {
                e.kill();
                EndReason::Memory {
                    bytes,
                    limit: self.cfg.max_memory,
                }
            }
            Waited::TimedOut => {
                e.kill();
                let clock = &self.clocks[id];
                let allowed = millis(clock.allowance().saturating_sub(extra));
                let bound = if clock.game_clock_binds() {
                    "game clock"
                } else {
                    "turn limit"
                };
                let mut why = format!(
                    "no {expected} within {allowed} ms ({bound} plus tolerance; engine killed)"
                );
                if let Some(err) = last_error {
                    why.push_str(&format!("; its last ERROR/UNKNOWN: {}", quote(&err)));
                }
                EndReason::Time(why)
            }
            Waited::Reply(r, _) => {
                EndReason::Protocol(format!("unexpected \"{}\"", quote(&r.to_string())))
            }
            Waited::Aborted => EndReason::Protocol("stopped".into()),
        };
        Fault(id, reason)
    }

    /// Waits for the next line that matters: `MESSAGE` and `DEBUG` lines (and empty ones) are
    /// logged and skipped; every other line is returned, parsed. A line that arrived after the
    /// deadline counts as nothing in time; one that arrived before it is returned even when the
    /// deadline has passed since.
    fn wait(&self, e: &mut Engine, id: EngineId, color: Color, deadline: Instant) -> Waited {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return Waited::Aborted;
            }
            if let Some(bytes) = self.memory_over(e) {
                return Waited::Memory(bytes);
            }
            let (line, at) = match e.recv(deadline.min(Instant::now() + POLL)) {
                Received::Line { text, at } => (text, at),
                Received::Closed => return Waited::Closed,
                Received::TimedOut if Instant::now() >= deadline => return Waited::TimedOut,
                Received::TimedOut => continue,
            };
            // Whatever comes after the deadline is too late: this also bounds the wait when
            // an engine floods its output.
            if at > deadline {
                return Waited::TimedOut;
            }
            if line.trim().is_empty() {
                continue;
            }
            match Reply::parse(&line) {
                Ok(
                    reply @ (Reply::Message(_)
                    | Reply::Debug(_)
                    | Reply::Info(_)
                    | Reply::Error(_)
                    | Reply::Unknown(_)),
                ) => {
                    if let Some(log) = self.log {
                        let name = &self.cfg.engines[id].name;
                        log.line(
                            self.setup.index,
                            self.board.move_count(),
                            name,
                            color,
                            &reply.to_string(),
                        );
                    }
                    if matches!(reply, Reply::Message(_) | Reply::Debug(_) | Reply::Info(_)) {
                        continue;
                    }
                    return Waited::Reply(reply, at);
                }
                Ok(reply) => return Waited::Reply(reply, at),
                Err(_) => return Waited::Garbage(quote(line.trim())),
            }
        }
    }

    fn memory_over(&self, e: &Engine) -> Option<u64> {
        let limit = self.cfg.max_memory;
        if !self.cfg.enforce_memory || limit == 0 {
            return None;
        }
        e.resident_bytes().filter(|&b| b > limit)
    }
}
