//! An engine's side of the mate bench: one suite position given to a Gomocup-protocol engine,
//! and the moment it first announces a proven win for the side to move.
//!
//! For each position a fresh process: `START n` (or `RECTSTART w,h`), and after its `OK` the
//! settings a match sends (`timeout_turn` the cap, `timeout_match` 0, `max_memory`,
//! `game_type 1`, `rule`, `time_left`), the engine's own options, and `INFO show_detail 2`
//! (the Yixin-Board detail block, whose exact node counts engines such as the sparring engine
//! give only there; other engines ignore it) unless the spec sets `show_detail` itself; then
//! the position as a `BOARD` block, the side to move's stones as field 1.
//!
//! Every progress report is read ([`super::announce`]); the first that is a win ends the run:
//! its time is the engine's own clock where the report gives one (else the time since `DONE`
//! was sent), its nodes where it gives them; a win reported past the cap does not count. The
//! engine is then told `END` and killed after a short grace. Without a win the run ends at
//! the engine's move, at a report past the cap, or at twice the cap plus [`GRACE`] after
//! `DONE` (an engine's clock may start well after `DONE`: the sparring engine first sizes its
//! table to `max_memory`, which takes a few hundred milliseconds). Nothing an engine does
//! makes this panic or wait longer.

use std::time::{Duration, Instant};

use wuzi_core::Point;
use wuzi_protocol::{Command, Coord, Field, Reply, Setting, StoneLine, UNLIMITED_TIME_LEFT};
use wuzi_search::bench::mates::{Found, MatePosition, MateRun};

use super::announce::{parse_message, DetailReader, Mate};
use crate::engine::{Engine, EngineSpec, Received};

/// How long an engine may take to answer `START`.
pub const START_TIME: Duration = Duration::from_secs(15);
/// How long past twice the cap the run waits for the engine's move before killing it.
pub const GRACE: Duration = Duration::from_secs(1);
/// How long a finished engine is given to exit after `END`.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// Runs `spec` on `position` with a turn time of `cap`.
pub fn run_engine(
    spec: &EngineSpec,
    position: &MatePosition,
    cap: Duration,
    max_memory: u64,
) -> MateRun {
    let (mut engine, sent) = match send_position(spec, position, cap, max_memory) {
        Ok(started) => started,
        Err(why) => {
            return MateRun {
                error: Some(why),
                ..MateRun::default()
            }
        }
    };
    let run = watch(&mut engine, sent, cap);
    engine.quit(EXIT_GRACE);
    run
}

/// Asks `spec` for its move in `position` with a turn time of `turn`: the point it answers,
/// or why there is none (it failed to start, exited, answered something else, or no move
/// came within twice the turn plus [`GRACE`]). The point is the engine's; whether it is
/// legal is the caller's to check.
pub fn engine_move(
    spec: &EngineSpec,
    position: &MatePosition,
    turn: Duration,
    max_memory: u64,
) -> Result<Point, String> {
    let (mut engine, sent) = send_position(spec, position, turn, max_memory)?;
    let deadline = sent + turn * 2 + GRACE;
    let answer = loop {
        match engine.recv(deadline) {
            Received::Line { text, .. } => match Reply::parse(&text) {
                Ok(Reply::Move(c)) => {
                    break c
                        .to_point(position.width, position.height)
                        .ok_or_else(|| format!("its move {c} is off the board"));
                }
                Ok(Reply::Message(_) | Reply::Debug(_)) => {}
                _ if text.trim().is_empty() || text.starts_with("INFO ") => {}
                _ => break Err(format!("it answered \"{}\" instead of a move", text.trim())),
            },
            Received::Closed => {
                let how = engine.exit_text(Duration::from_millis(200));
                break Err(format!("it exited before its move ({how})"));
            }
            Received::TimedOut => {
                break Err(format!(
                    "no move within {} ms",
                    (turn * 2 + GRACE).as_millis()
                ))
            }
        }
    };
    engine.quit(EXIT_GRACE);
    answer
}

/// Starts `spec`, gives it the settings, its options and `position` with a turn time of
/// `turn`; returns the engine and the moment `DONE` was sent.
fn send_position(
    spec: &EngineSpec,
    position: &MatePosition,
    turn: Duration,
    max_memory: u64,
) -> Result<(Engine, Instant), String> {
    let board = position.board()?;
    let mut engine = Engine::spawn(spec).map_err(|e| e.to_string())?;
    let start = if position.width == position.height {
        Command::Start(position.width as u32)
    } else {
        Command::RectStart {
            width: position.width as u32,
            height: position.height as u32,
        }
    };
    engine.send(&start.to_string());
    if let Err(why) = wait_ok(&mut engine) {
        engine.kill();
        return Err(why);
    }
    let cap_ms = u64::try_from(turn.as_millis()).unwrap_or(u64::MAX).max(1);
    let mut settings = vec![
        Setting::TimeoutTurn(cap_ms),
        Setting::TimeoutMatch(0),
        Setting::MaxMemory(max_memory),
        Setting::GameType(1),
        Setting::Rule(u64::from(position.rule.gomocup_code())),
        Setting::TimeLeft(UNLIMITED_TIME_LEFT),
    ];
    for (key, value) in &spec.options {
        settings.push(Setting::Other {
            key: key.clone(),
            value: value.clone(),
        });
    }
    if !spec
        .options
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("show_detail"))
    {
        settings.push(Setting::ShowDetail(2));
    }
    for s in settings {
        engine.send(&Command::Info(s).to_string());
    }
    let us = board.side_to_move();
    engine.send(&Command::Board.to_string());
    for (color, p) in board.history() {
        let field = if color == us {
            Field::Own
        } else {
            Field::Opponent
        };
        let line = StoneLine {
            at: Coord::new(u32::from(p.x), u32::from(p.y)),
            field: Some(field),
        };
        engine.send(&line.to_string());
    }
    let sent = Instant::now();
    engine.send(&Command::Done.to_string());
    Ok((engine, sent))
}

/// Waits for the `OK` to `START`, skipping messages.
fn wait_ok(engine: &mut Engine) -> Result<(), String> {
    let deadline = Instant::now() + START_TIME;
    loop {
        match engine.recv(deadline) {
            Received::Line { text, .. } => match Reply::parse(&text) {
                Ok(Reply::Ok) => return Ok(()),
                Ok(Reply::Message(_) | Reply::Debug(_)) => {}
                Ok(Reply::Error(t) | Reply::Unknown(t)) => {
                    return Err(format!("it refused START: {t}"))
                }
                _ if text.trim().is_empty() => {}
                _ => return Err(format!("it answered \"{}\" to START", text.trim())),
            },
            Received::Closed => {
                let how = engine.exit_text(Duration::from_millis(200));
                return Err(format!("it exited before answering START ({how})"));
            }
            Received::TimedOut => {
                return Err(format!("no OK to START within {} s", START_TIME.as_secs()))
            }
        }
    }
}

/// Reads the engine's output until its first win, its move, a report past the cap, or twice
/// the cap plus [`GRACE`].
fn watch(engine: &mut Engine, sent: Instant, cap: Duration) -> MateRun {
    let deadline = sent + cap * 2 + GRACE;
    let mut detail = DetailReader::new();
    let mut run = MateRun::default();
    let mut last_time_ms: Option<u64> = None;
    loop {
        let (text, at) = match engine.recv(deadline) {
            Received::Line { text, at } => (text, at),
            Received::Closed => {
                let how = engine.exit_text(Duration::from_millis(200));
                run.elapsed = sent.elapsed();
                run.error = Some(format!("it exited while searching ({how})"));
                return run;
            }
            Received::TimedOut => {
                run.elapsed = sent.elapsed();
                return run;
            }
        };
        let progress = if let Some(message) = text.strip_prefix("MESSAGE ") {
            parse_message(message)
        } else if text.starts_with("INFO ") {
            detail.line(&text)
        } else {
            if let Ok(Reply::Move(_)) = Reply::parse(&text) {
                run.elapsed = at.saturating_duration_since(sent);
                return run;
            }
            None
        };
        let Some(progress) = progress else { continue };
        let wall = at.saturating_duration_since(sent);
        if progress.nodes.is_some() {
            run.nodes = progress.nodes;
        }
        if progress.time_ms.is_some() {
            last_time_ms = progress.time_ms;
        }
        let elapsed = progress.time_ms.map_or(wall, Duration::from_millis);
        run.elapsed = last_time_ms.map_or(wall, Duration::from_millis);
        if elapsed > cap {
            return run;
        }
        match progress.mate {
            Some(Mate::Win(plies)) => {
                run.found = Some(Found {
                    elapsed,
                    nodes: progress.nodes,
                    plies,
                    first_move: progress.first_move,
                });
                run.elapsed = elapsed;
                return run;
            }
            Some(Mate::Loss(_)) => run.claimed_loss = true,
            None => {}
        }
    }
}
