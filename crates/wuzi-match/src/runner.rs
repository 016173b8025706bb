//! Running a whole match: game threads, the schedule, statistics, records, the results file
//! and the SPRT stop.
//!
//! `concurrency` game threads each keep their own pair of engine processes (restarted after a
//! fault, reused otherwise) and take the next game of the schedule until none is left or the
//! match is stopped. The calling thread gathers the results in the order games finish, counts
//! them, writes the records and tells the [`Observer`].
//!
//! With a results file (`cfg.results`) every finished game is appended to it, and a match run
//! again with the same settings resumes: the games the file holds are counted (in the order
//! of their numbers, the SPRT too) and not played again. With a shard (`cfg.shard`) only that
//! shard's share of the schedule is played (`crate::schedule`); a shard never stops on the
//! SPRT, which only the merge of all shards (`crate::merge`) can decide.
//!
//! The SPRT is applied to the games in the order they finish and stops the match at the first
//! game where a hypothesis is accepted; games that other threads finish after that are
//! recorded (results file, SGF, `.psq`) but not counted, so the counts, Elo and SPRT state
//! are those at the decision. One game at a time, that is the order of the game numbers, the
//! order in which a merge of shards applies it (`crate::merge`).
//!
//! Invariants: every finished game is recorded exactly once and counted at most once (not
//! after the SPRT decision); a game cut short by the stop (SPRT decided, or a fatal error) is
//! neither; when [`run_match`] returns, every game
//! thread has ended and every engine process it started has been asked to quit and then
//! killed. A panic in a game thread becomes [`MatchError::Internal`], not a crash of the
//! runner.

use std::collections::BTreeMap;
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
use crate::results::{GameRecord, ResultsFile};
use crate::schedule::ScheduleId;
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
    /// Games read back from the results file, and unreadable lines skipped there (before any
    /// game is played).
    fn resumed(&mut self, _games: usize, _skipped: &[(usize, String)]) {}
}

/// An observer that does nothing.
pub struct Quiet;
impl Observer for Quiet {}

/// What a finished match gives.
#[derive(Debug)]
pub struct MatchSummary {
    pub stats: Stats,
    /// Every counted game played in this run, by game number.
    pub games: Vec<GameResult>,
    /// Every counted game as its results line records it (those read back from the results
    /// file, or merged, and those played now), by game number.
    pub records: Vec<GameRecord>,
    /// How many of `records` were read back from the results file.
    pub resumed: usize,
    /// Games that finished after the SPRT was decided (other game threads were playing
    /// them): recorded, not counted.
    pub uncounted: usize,
    /// Games in the schedule (in the shard's share of it, for a shard).
    pub planned: usize,
    /// The SPRT's verdict, if one was asked for (and the match is not a shard).
    pub sprt: Option<SprtState>,
}

enum FromGame {
    Done(Box<GameResult>),
    Failed(MatchError),
}

/// Plays the match described by `cfg` (what its results file does not hold yet).
pub fn run_match(
    cfg: &MatchConfig,
    observer: &mut dyn Observer,
) -> Result<MatchSummary, MatchError> {
    cfg.validate()?;
    let schedule = cfg.schedule()?;
    let id = ScheduleId::of_match(cfg)?;
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut done = BTreeMap::new();
    if let Some(path) = cfg.results.as_ref().filter(|p| p.exists()) {
        let (read, skipped) = id.resume(path, cfg.shard, "match")?;
        observer.resumed(read.len(), &skipped);
        done = read;
    }
    let resumed = done.len();
    let sprt = cfg.sprt.filter(|_| cfg.shard.is_whole());
    let mut stats = Stats::default();
    let mut verdict = sprt.map(|_| SprtState::Continue);
    // The games read back count in the order of their numbers; should the SPRT be decided
    // among them, those after the decision do not count (as when it is decided in play).
    let mut records = Vec::new();
    for g in done.values() {
        if verdict.is_some_and(|v| v != SprtState::Continue) {
            break;
        }
        stats.add_record(g, names).map_err(MatchError::Config)?;
        records.push(g.clone());
        if let Some(test) = &sprt {
            verdict = Some(test.state(&stats.total[0]));
        }
    }
    let decided = verdict.is_some_and(|v| v != SprtState::Continue);
    let pending: Vec<&GameSetup> = schedule
        .iter()
        .filter(|g| id.in_shard(g.index, cfg.shard) && !done.contains_key(&g.index))
        .filter(|_| !decided)
        .collect();
    let mut results = match &cfg.results {
        Some(path) => Some(ResultsFile::open(path, Some(&id.line(cfg.shard)))?),
        None => None,
    };
    let mut recorder = Recorder::create(cfg, resumed > 0)?;
    let log = MessageLog::create_if_asked(cfg.message_log.as_deref())?;
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut games = Vec::new();
    let mut uncounted = 0;
    let mut fatal: Option<MatchError> = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.min(pending.len()) {
            let tx = tx.clone();
            let (pending, next, stop, log) = (&pending, &next, &stop, log.as_ref());
            scope.spawn(move || game_thread(cfg, pending, next, stop, log, tx));
        }
        drop(tx);
        loop {
            match rx.recv_timeout(TICK) {
                Ok(FromGame::Done(g)) => {
                    let record = GameRecord::of(&g, names, cfg);
                    let written = match results.as_mut() {
                        Some(file) => file.append(&record),
                        None => Ok(()),
                    }
                    .and_then(|_| recorder.write(&g));
                    if let Err(e) = written {
                        fatal.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    if verdict.is_some_and(|v| v != SprtState::Continue) {
                        // Finished after the SPRT was decided: recorded, not counted.
                        uncounted += 1;
                        continue;
                    }
                    stats.add(&g);
                    records.push(record);
                    observer.game_finished(&g, &stats);
                    games.push(*g);
                    if let Some(test) = &sprt {
                        let state = test.state(&stats.total[0]);
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
    records.sort_by_key(|g| g.index);
    Ok(MatchSummary {
        stats,
        games,
        records,
        resumed,
        uncounted,
        planned: id.share(cfg.shard),
        sprt: verdict,
    })
}

fn game_thread(
    cfg: &MatchConfig,
    schedule: &[&GameSetup],
    next: &AtomicUsize,
    stop: &AtomicBool,
    log: Option<&MessageLog>,
    tx: Sender<FromGame>,
) {
    let mut slots: Slots = [None, None];
    while !stop.load(Ordering::Relaxed) {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&setup) = schedule.get(i) else {
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
