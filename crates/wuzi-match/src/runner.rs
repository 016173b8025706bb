//! Running a whole match: game threads, the schedule, statistics, records and the SPRT stop.
//!
//! `concurrency` game threads each keep their own pair of engine processes (restarted after a
//! fault, reused otherwise) and take the next game of the schedule until none is left or the
//! match is stopped. The calling thread gathers the results in the order games finish, counts
//! them, writes the records and tells the [`Observer`].
//!
//! Invariants: every finished game is counted and recorded exactly once; a game cut short by
//! the stop (SPRT decided, or a fatal error) is neither; when [`run_match`] returns, every game
//! thread has ended and every engine process it started has been asked to quit and then
//! killed. A panic in a game thread becomes [`MatchError::Internal`], not a crash of the
//! runner.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::Duration;

use crate::config::{GameSetup, MatchConfig};
use crate::error::MatchError;
use crate::game::GameResult;
use crate::log::MessageLog;
use crate::record::Recorder;
use crate::referee::{play_game, Slots};
use crate::sprt::SprtState;
use crate::stats::Stats;

/// How often the observer's `tick` is called while no game finishes.
const TICK: Duration = Duration::from_millis(200);
/// How long an engine is given to exit after `END` at the end of the match.
const QUIT_GRACE: Duration = Duration::from_millis(500);

/// Told about the match as it goes (on the thread that called [`run_match`]).
pub trait Observer {
    /// A game finished; `stats` already counts it.
    fn game_finished(&mut self, _game: &GameResult, _stats: &Stats) {}
    /// Called every so often while games are being played.
    fn tick(&mut self, _stats: &Stats) {}
}

/// An observer that does nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// What a finished match gives.
#[derive(Debug)]
pub struct MatchSummary {
    pub stats: Stats,
    /// Every counted game, by game number.
    pub games: Vec<GameResult>,
    /// Games in the schedule.
    pub planned: usize,
    /// The SPRT's verdict, if one was asked for.
    pub sprt: Option<SprtState>,
}

enum FromGame {
    Done(Box<GameResult>),
    Failed(MatchError),
}

/// Plays the match described by `cfg`.
pub fn run_match(
    cfg: &MatchConfig,
    observer: &mut dyn Observer,
) -> Result<MatchSummary, MatchError> {
    cfg.validate()?;
    let schedule = cfg.schedule()?;
    let mut recorder = Recorder::create(cfg)?;
    let log = MessageLog::create_if_asked(cfg.message_log.as_deref())?;
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut stats = Stats::default();
    let mut games = Vec::new();
    let mut fatal: Option<MatchError> = None;
    let mut verdict = cfg.sprt.map(|_| SprtState::Continue);
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.min(schedule.len()) {
            let tx = tx.clone();
            let (schedule, next, stop, log) = (&schedule, &next, &stop, log.as_ref());
            scope.spawn(move || game_thread(cfg, schedule, next, stop, log, tx));
        }
        drop(tx);
        loop {
            match rx.recv_timeout(TICK) {
                Ok(FromGame::Done(g)) => {
                    stats.add(&g);
                    if let Err(e) = recorder.write(&g) {
                        fatal.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    observer.game_finished(&g, &stats);
                    games.push(*g);
                    if let Some(sprt) = &cfg.sprt {
                        let state = sprt.state(&stats.total[0]);
                        verdict = Some(state);
                        if state != SprtState::Continue {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                Ok(FromGame::Failed(e)) => {
                    fatal.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
                Err(RecvTimeoutError::Timeout) => observer.tick(&stats),
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    games.sort_by_key(|g| g.index);
    Ok(MatchSummary {
        stats,
        games,
        planned: schedule.len(),
        sprt: verdict,
    })
}

fn game_thread(
    cfg: &MatchConfig,
    schedule: &[GameSetup],
    next: &AtomicUsize,
    stop: &AtomicBool,
    log: Option<&MessageLog>,
    tx: Sender<FromGame>,
) {
    let mut slots: Slots = [None, None];
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(setup) = schedule.get(i) else {
            break;
        };
        let played = catch_unwind(AssertUnwindSafe(|| {
            play_game(cfg, setup, &mut slots, log, stop)
        }));
        let message = match played {
            Ok(Ok(Some(g))) => FromGame::Done(Box::new(g)),
            Ok(Ok(None)) => break,
            Ok(Err(e)) => FromGame::Failed(e),
            Err(panic) => {
                let text = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                FromGame::Failed(MatchError::Internal(text))
            }
        };
        let failed = matches!(message, FromGame::Failed(_));
        if tx.send(message).is_err() || failed {
            break;
        }
    }
    for engine in slots.into_iter().flatten() {
        engine.quit(QUIT_GRACE);
    }
}
