//! The jobs that run the searcher for a session: a search for a move, an analysis, a review
//! of the game.
//!
//! Invariants:
//! - a session has at most one job, and a new one starts only after the previous one has
//!   ended; a job holds one of the app's search slots until its guard drops, however it ends;
//! - a job runs on its own thread with its own `Searcher`, dropped when the job ends;
//! - a job's result is applied only to the position it searched (the same line and cursor);
//!   any change of the game stops the job.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::watch;
use wuzi_search::strength::{self, FULL_STRENGTH};
use wuzi_search::{Info, Limits, Searcher};
use wuzi_show::Game as Record;

use crate::app::{lock, App};
use crate::error::ApiError;
use crate::game::Eval;
use crate::progress::{spawn_ticker, Progress, PROGRESS_EVERY};
use crate::session::Session;

/// What a job does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// Search the position and play the best move found.
    Move,
    /// Search the position until stopped or a limit, playing nothing.
    Analyse,
    /// Evaluate every position of the line, for the review graph.
    Review,
}

/// What a job is to do, checked.
#[derive(Clone, Debug)]
pub struct JobSpec {
    pub kind: JobKind,
    pub limits: Limits,
    pub threads: usize,
    /// The playing level of a search for a move, 0 to [`FULL_STRENGTH`] (the full search);
    /// an analysis and a review always run at full strength.
    pub level: u64,
}

pub(crate) struct Job {
    pub(crate) id: u64,
    pub(crate) kind: JobKind,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) done: watch::Receiver<bool>,
    /// Positions evaluated and to evaluate (a review).
    pub(crate) progress: (usize, usize),
    /// The playing level it searches at.
    pub(crate) level: u64,
}

/// Stops the session's job, if any, and waits (a bounded time) until it has ended.
async fn end_job(session: &Session) -> Result<(), ApiError> {
    let done = {
        let inner = session.lock();
        inner.job.as_ref().map(|job| {
            job.stop.store(true, Ordering::Relaxed);
            job.done.clone()
        })
    };
    if let Some(mut done) = done {
        let ended = tokio::time::timeout(Duration::from_secs(10), done.wait_for(|d| *d)).await;
        if ended.is_err() {
            return Err(ApiError::busy(
                "the previous search of this session has not stopped yet; try again",
            ));
        }
    }
    Ok(())
}

/// Starts a job on the session's current position (or, for a review, its whole line).
pub async fn start_job(
    app: &Arc<App>,
    session: &Arc<Session>,
    spec: JobSpec,
) -> Result<u64, ApiError> {
    end_job(session).await?;
    app.acquire_slot()?;
    // From here the slot is the guard's: released however the job ends.
    let (done_tx, done_rx) = watch::channel(false);
    let id = app.next_job.fetch_add(1, Ordering::Relaxed);
    let guard = JobGuard {
        app: app.clone(),
        session: session.clone(),
        id,
        done: done_tx,
        table: 0,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let work = {
        let mut inner = session.lock();
        if inner.job.is_some() {
            return Err(ApiError::busy(
                "another search of this session started at the same time; try again",
            ));
        }
        let game = &inner.game;
        if spec.kind != JobKind::Review {
            if let Some(outcome) = game.outcome() {
                return Err(ApiError::conflict(format!(
                    "the game is over here ({}); nothing to search",
                    outcome.words()
                )));
            }
        }
        let work = Work {
            line: game.line(),
            ply: game.ply(),
            rule: game.rule(),
            record: game.record(),
            positions: match spec.kind {
                JobKind::Review => (0..=game.moves().len())
                    .map(|ply| (ply, game.settled_eval(ply)))
                    .collect(),
                _ => vec![(game.ply(), None)],
            },
        };
        let total = work.positions.len();
        inner.job = Some(Job {
            id,
            kind: spec.kind,
            stop: stop.clone(),
            done: done_rx,
            progress: (0, total),
            level: spec.level,
        });
        work
    };
    session.broadcast_state();
    let progress = Arc::new(Mutex::new(Progress::default()));
    if spec.kind != JobKind::Review {
        spawn_ticker(
            session.clone(),
            progress.clone(),
            work.clone(),
            id,
            spec.kind,
        );
    }
    let thread = std::thread::Builder::new()
        .name(format!("wuzi-serve-job-{id}"))
        .spawn(move || run_job(guard, spec, work, stop, progress));
    match thread {
        Ok(_) => Ok(id),
        // The guard went with the closure and was dropped: the slot is free, the job cleared.
        Err(e) => Err(ApiError::busy(format!("cannot start a search thread: {e}"))),
    }
}

/// Asks the session's job to stop. A search for a move then plays the best move found so far.
pub fn stop_job(session: &Session) {
    session.lock().stop_job();
}

/// What a job works on, copied from the game when it starts.
#[derive(Clone)]
pub(crate) struct Work {
    pub(crate) line: u64,
    pub(crate) ply: usize,
    pub(crate) rule: wuzi_core::Rule,
    pub(crate) record: Record,
    /// The positions to search, by ply, with the evaluation of those already decided.
    pub(crate) positions: Vec<(usize, Option<Eval>)>,
}

/// Releases what a job held, however it ends (a panic of the search included).
struct JobGuard {
    app: Arc<App>,
    session: Arc<Session>,
    id: u64,
    done: watch::Sender<bool>,
    table: u64,
}

impl JobGuard {
    fn hold_table(&mut self, bytes: u64) {
        self.table += bytes;
        self.app.table_bytes.fetch_add(bytes, Ordering::SeqCst);
    }
}

impl Drop for JobGuard {
    fn drop(&mut self) {
        self.app.table_bytes.fetch_sub(self.table, Ordering::SeqCst);
        {
            let mut inner = self.session.lock();
            if inner.job.as_ref().is_some_and(|j| j.id == self.id) {
                inner.job = None;
            }
        }
        self.app.release_slot();
        self.done.send_replace(true);
        self.session.broadcast_state();
    }
}

#[derive(Serialize)]
struct DoneView {
    job: u64,
    kind: JobKind,
    best: Option<String>,
    score: Option<i32>,
    depth: u32,
    nodes: u64,
    /// The playing level searched at (100: full strength).
    level: u64,
    /// The move the level chose among the search's lines: `best` at full strength.
    chosen: Option<String>,
    /// Whether the chosen move was played on the board.
    played: bool,
    error: Option<String>,
}

fn run_job(
    mut guard: JobGuard,
    spec: JobSpec,
    work: Work,
    stop: Arc<AtomicBool>,
    progress: Arc<Mutex<Progress>>,
) {
    let hash = guard.app.config.hash_bytes;
    guard.hold_table(hash as u64);
    let mut searcher = Searcher::new(hash);
    let session = guard.session.clone();
    let mut done = DoneView {
        job: guard.id,
        kind: spec.kind,
        best: None,
        score: None,
        depth: 0,
        nodes: 0,
        level: spec.level,
        chosen: None,
        played: false,
        error: None,
    };
    if let Err(e) = searcher.set_threads(spec.threads) {
        done.error = Some(format!("cannot start {} search threads: {e}", spec.threads));
        lock(&progress).finished = true;
        session.send("done", serde_json::to_string(&done).unwrap_or_default());
        return;
    }
    if spec.kind == JobKind::Review {
        review(&guard, &mut searcher, &spec, &work, &stop);
        drop(searcher);
        session.send("done", serde_json::to_string(&done).unwrap_or_default());
        return;
    }
    let board = match work.record.replay(Some(work.ply)) {
        Ok(b) => b,
        Err(e) => {
            done.error = Some(e.to_string());
            lock(&progress).finished = true;
            session.send("done", serde_json::to_string(&done).unwrap_or_default());
            return;
        }
    };
    let to_move = board.side_to_move();
    // Below full strength a move's search runs with the level's limits, and the move is the
    // level's choice among its lines; only the best line is shown, as the others are the
    // level's candidates, not an analysis.
    let level = (spec.kind == JobKind::Move && spec.level < FULL_STRENGTH)
        .then(|| strength::level(spec.level));
    let limits = match &level {
        Some(level) => strength::limits(level, &spec.limits),
        None => spec.limits.clone(),
    };
    let shown = if level.is_some() { 1 } else { limits.multipv };
    let mut on_info = |info: &Info| {
        if info.multipv > shown {
            return;
        }
        let mut p = lock(&progress);
        p.lines.insert(info.multipv, info.clone());
        p.latest = Some(info.clone());
        p.dirty = true;
    };
    let result = searcher.search(&board, &limits, &stop, &mut on_info);
    drop(searcher);
    {
        // The last progress, then no more: the ticker sends nothing once `finished` is set.
        let mut p = lock(&progress);
        if let Some(event) = p.event(&work, guard.id, spec.kind) {
            session.send("info", event);
        }
        p.finished = true;
    }
    if let Some(r) = &result {
        done.best = Some(r.best.name());
        done.score = Some(r.score);
        done.depth = r.depth;
        done.nodes = r.nodes;
        let mut locked = session.lock();
        let inner = &mut *locked;
        let still_current = inner.job.as_ref().is_some_and(|j| j.id == guard.id);
        let game = &mut inner.game;
        let same_position = game.line() == work.line && game.ply() == work.ply;
        if still_current && same_position {
            game.set_eval(
                work.line,
                work.ply,
                Eval::of(work.rule, to_move, r.score, r.depth),
            );
            if spec.kind == JobKind::Move {
                let chosen = match &level {
                    Some(level) => strength::choose(r, level, &mut inner.rng),
                    None => r.best,
                };
                done.chosen = Some(chosen.name());
                match game.play(chosen) {
                    Ok(()) => done.played = true,
                    Err(e) => done.error = Some(e.message),
                }
            }
        }
    }
    session.send("done", serde_json::to_string(&done).unwrap_or_default());
}

/// Evaluates each position of the line in turn, storing each evaluation as it comes.
fn review(
    guard: &JobGuard,
    searcher: &mut Searcher,
    spec: &JobSpec,
    work: &Work,
    stop: &AtomicBool,
) {
    let session = &guard.session;
    let mut last_sent = Instant::now();
    let total = work.positions.len();
    for (i, &(ply, settled)) in work.positions.iter().enumerate() {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let eval = match settled {
            Some(e) => Some(e),
            None => work.record.replay(Some(ply)).ok().and_then(|board| {
                let to_move = board.side_to_move();
                let mut quiet = |_: &Info| {};
                let r = searcher.search(&board, &spec.limits, stop, &mut quiet)?;
                if stop.load(Ordering::Relaxed) {
                    // Cut short: not the evaluation asked for.
                    return None;
                }
                Some(Eval::of(work.rule, to_move, r.score, r.depth))
            }),
        };
        {
            let mut inner = session.lock();
            if let Some(e) = eval {
                inner.game.set_eval(work.line, ply, e);
            }
            if let Some(job) = inner.job.as_mut().filter(|j| j.id == guard.id) {
                job.progress = (i + 1, total);
            }
        }
        if last_sent.elapsed() >= PROGRESS_EVERY {
            last_sent = Instant::now();
            session.broadcast_state();
        }
    }
}
