//! The server's shared state: the board sessions, the bounded search slots, and the jobs
//! (a search for a move, an analysis, a review of the game) that run the searcher.
//!
//! Invariants:
//! - at most `max_sessions` sessions and `max_searches` jobs exist at once; a session has at
//!   most one job, and a new one starts only after the previous one has ended;
//! - a job runs on its own thread with its own `Searcher`, dropped when the job ends, so
//!   `table_bytes` (the table bounds of the live searchers) is 0 when no job runs;
//! - a job's result is applied only to the position it searched (the same line and cursor);
//!   any change of the game stops the job;
//! - when the last page watching a session (its event stream) goes away, the session's job
//!   is stopped; a session nobody has asked about for `idle` is dropped;
//! - progress reaches the pages at most every [`PROGRESS_EVERY`], whatever the search does.

use std::collections::{BTreeMap, HashMap};
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::{broadcast, watch};
use wuzi_core::{Color, Point};
use wuzi_search::{Info, Limits, Searcher};
use wuzi_show::Game as Record;

use crate::error::ApiError;
use crate::game::{self, colour_name, kind_words, Eval, Game};
use crate::Config;

/// The least time between two progress events of one search.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// Locks a mutex; a thread that panicked while holding it left consistent data behind (every
/// change here is made whole under the lock), so the poison is ignored.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One message on a session's event stream: its SSE event name and JSON data.
#[derive(Clone, Debug)]
pub struct Event {
    pub name: &'static str,
    pub data: Arc<str>,
}

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
}

struct Job {
    id: u64,
    kind: JobKind,
    stop: Arc<AtomicBool>,
    done: watch::Receiver<bool>,
    /// Positions evaluated and to evaluate (a review).
    progress: (usize, usize),
}

/// A session's mutable part, under one lock.
pub struct Inner {
    pub game: Game,
    job: Option<Job>,
}

impl Inner {
    /// Asks the running job, if any, to stop; its result will not be applied to a changed game.
    pub fn stop_job(&mut self) {
        if let Some(job) = &self.job {
            job.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Stops a job that searches the cursor's position (not a review).
    pub fn stop_search(&mut self) {
        if let Some(job) = &self.job {
            if job.kind != JobKind::Review {
                job.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// One board session: a game, its job, and the pages watching it.
pub struct Session {
    pub id: String,
    inner: Mutex<Inner>,
    events: broadcast::Sender<Event>,
    subscribers: AtomicUsize,
    last_seen: Mutex<Instant>,
    /// Numbers the states sent, in the order of the changes they show (taken under the lock).
    seq: AtomicU64,
}

impl Session {
    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    fn send(&self, name: &'static str, data: String) {
        // No receiver is no error: nobody watches.
        let _ = self.events.send(Event {
            name,
            data: data.into(),
        });
    }

    /// Sends the session's state to every page watching it.
    pub fn broadcast_state(&self) {
        let state = state_json(self, &self.lock());
        self.send("state", state);
    }

    /// A new watcher: its receiver and the guard that counts it.
    pub fn subscribe(self: &Arc<Session>) -> (broadcast::Receiver<Event>, Subscriber) {
        let rx = self.events.subscribe();
        self.subscribers.fetch_add(1, Ordering::SeqCst);
        self.touch();
        (
            rx,
            Subscriber {
                session: self.clone(),
            },
        )
    }

    pub fn subscribers(&self) -> usize {
        self.subscribers.load(Ordering::SeqCst)
    }
}

/// Counts one page watching a session; when the last one goes, the session's job stops.
pub struct Subscriber {
    session: Arc<Session>,
}

impl Drop for Subscriber {
    fn drop(&mut self) {
        self.session.touch();
        if self.session.subscribers.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.session.lock().stop_job();
        }
    }
}

/// The counts `GET /api/status` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Stats {
    pub sessions: usize,
    pub max_sessions: usize,
    pub searches: usize,
    pub max_searches: usize,
    /// The transposition-table bounds of the searchers alive now, in bytes.
    pub table_bytes: u64,
    pub max_threads: usize,
}

/// Everything the server shares between requests.
pub struct App {
    pub config: Config,
    sessions: Mutex<HashMap<String, Arc<Session>>>,
    searches: Mutex<usize>,
    table_bytes: AtomicU64,
    next_job: AtomicU64,
    ids: std::collections::hash_map::RandomState,
    next_id: AtomicU64,
    shutdown: watch::Sender<bool>,
}

impl App {
    pub fn new(config: Config) -> App {
        App {
            config,
            sessions: Mutex::new(HashMap::new()),
            searches: Mutex::new(0),
            table_bytes: AtomicU64::new(0),
            next_job: AtomicU64::new(1),
            // Keyed by the operating system's randomness: session names nobody can guess.
            ids: std::collections::hash_map::RandomState::new(),
            next_id: AtomicU64::new(0),
            shutdown: watch::channel(false).0,
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            sessions: lock(&self.sessions).len(),
            max_sessions: self.config.max_sessions,
            searches: *lock(&self.searches),
            max_searches: self.config.max_searches,
            table_bytes: self.table_bytes.load(Ordering::SeqCst),
            max_threads: self.config.max_threads,
        }
    }

    /// A receiver that sees `true` when the server shuts down.
    pub fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    /// Ends every event stream and stops every job.
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
        for session in lock(&self.sessions).values() {
            session.lock().stop_job();
        }
    }

    fn new_id(&self) -> String {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        format!(
            "{:016x}{:016x}",
            self.ids.hash_one((n, 0u8)),
            self.ids.hash_one((n, 1u8))
        )
    }

    /// A new session with a new game; at the bound, the longest unwatched session that has
    /// been quiet for a minute makes room, else the request is refused.
    pub fn create_session(&self, game: Game) -> Result<Arc<Session>, ApiError> {
        let mut sessions = lock(&self.sessions);
        if sessions.len() >= self.config.max_sessions {
            let quiet = Duration::from_secs(60).min(self.config.idle);
            let oldest = sessions
                .values()
                .filter(|s| s.subscribers() == 0)
                .map(|s| (*lock(&s.last_seen), s.id.clone()))
                .filter(|(seen, _)| seen.elapsed() >= quiet)
                .min();
            match oldest {
                Some((_, id)) => {
                    if let Some(old) = sessions.remove(&id) {
                        old.lock().stop_job();
                    }
                }
                None => {
                    return Err(ApiError::busy(format!(
                        "too many sessions ({}): close a board page or try again later",
                        self.config.max_sessions
                    )))
                }
            }
        }
        let session = Arc::new(Session {
            id: self.new_id(),
            inner: Mutex::new(Inner { game, job: None }),
            events: broadcast::channel(64).0,
            subscribers: AtomicUsize::new(0),
            last_seen: Mutex::new(Instant::now()),
            seq: AtomicU64::new(0),
        });
        sessions.insert(session.id.clone(), session.clone());
        Ok(session)
    }

    pub fn session(&self, id: &str) -> Result<Arc<Session>, ApiError> {
        let session = lock(&self.sessions).get(id).cloned().ok_or_else(|| {
            ApiError::not_found(format!(
                "no session {:?} (it ended, or the server restarted)",
                id.chars().take(40).collect::<String>()
            ))
        })?;
        session.touch();
        Ok(session)
    }

    pub fn remove_session(&self, id: &str) -> Result<(), ApiError> {
        let session = lock(&self.sessions)
            .remove(id)
            .ok_or_else(|| ApiError::not_found("no such session"))?;
        session.lock().stop_job();
        Ok(())
    }

    /// Drops the sessions that nobody watches and nobody asked about for `idle`.
    pub fn reap(&self) {
        let idle = self.config.idle;
        let mut sessions = lock(&self.sessions);
        sessions.retain(|_, s| {
            let keep = s.subscribers() > 0 || lock(&s.last_seen).elapsed() < idle;
            if !keep {
                s.lock().stop_job();
            }
            keep
        });
    }

    fn acquire_slot(&self) -> Result<(), ApiError> {
        let mut running = lock(&self.searches);
        if *running >= self.config.max_searches {
            return Err(ApiError::busy(format!(
                "all {} search slots are busy; try again when a search ends",
                self.config.max_searches
            )));
        }
        *running += 1;
        Ok(())
    }

    fn release_slot(&self) {
        let mut running = lock(&self.searches);
        *running = running.saturating_sub(1);
    }
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
struct Work {
    line: u64,
    ply: usize,
    rule: wuzi_core::Rule,
    record: Record,
    /// The positions to search, by ply, with the evaluation of those already decided.
    positions: Vec<(usize, Option<Eval>)>,
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

/// The latest progress of a search, shared by the search thread and the ticker.
#[derive(Default)]
struct Progress {
    /// The latest line of each rank (1 the best).
    lines: BTreeMap<usize, Info>,
    latest: Option<Info>,
    dirty: bool,
    finished: bool,
}

#[derive(Serialize)]
struct LineView {
    multipv: usize,
    depth: u32,
    #[serde(rename = "move")]
    first: Option<String>,
    /// For the side to move.
    score: i32,
    mate: Option<i32>,
    black_win: f64,
    pv: Vec<String>,
}

#[derive(Serialize)]
struct InfoView {
    job: u64,
    kind: JobKind,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    nps: u64,
    elapsed_ms: u64,
    to_move: &'static str,
    lines: Vec<LineView>,
    board_svg: Option<String>,
}

fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(|p| p.name()).collect()
}

impl Progress {
    /// The progress event, if something new came since the last one.
    fn event(&mut self, work: &Work, job: u64, kind: JobKind) -> Option<String> {
        if !self.dirty || self.finished {
            return None;
        }
        self.dirty = false;
        let latest = self.latest.as_ref()?;
        let to_move = work.record.replay(Some(work.ply)).ok()?.side_to_move();
        let lines: Vec<LineView> = self
            .lines
            .values()
            .map(|info| {
                let black = if to_move == Color::Black {
                    info.score
                } else {
                    -info.score
                };
                LineView {
                    multipv: info.multipv,
                    depth: info.depth,
                    first: info.pv.first().map(|p| p.name()),
                    score: info.score,
                    mate: game::mate_in(info.score),
                    black_win: game::win_rate(work.rule, black),
                    pv: names(&info.pv),
                }
            })
            .collect();
        let best = self.lines.get(&1).map(|i| i.pv.clone()).unwrap_or_default();
        let elapsed = latest.elapsed.as_secs_f64();
        let view = InfoView {
            job,
            kind,
            depth: latest.depth,
            seldepth: latest.seldepth,
            nodes: latest.nodes,
            nps: if elapsed > 0.0 {
                (latest.nodes as f64 / elapsed) as u64
            } else {
                0
            },
            elapsed_ms: latest.elapsed.as_millis() as u64,
            to_move: colour_name(to_move),
            lines,
            board_svg: game::picture(&work.record, work.ply, &best).ok(),
        };
        serde_json::to_string(&view).ok()
    }
}

/// Sends a search's progress to the session at most every [`PROGRESS_EVERY`] until the
/// search has finished.
fn spawn_ticker(
    session: Arc<Session>,
    progress: Arc<Mutex<Progress>>,
    work: Work,
    job: u64,
    kind: JobKind,
) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(PROGRESS_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let mut p = lock(&progress);
            if p.finished {
                break;
            }
            // Sent under the lock: no progress event can follow the search's last one.
            if let Some(event) = p.event(&work, job, kind) {
                session.send("info", event);
            }
        }
    });
}

#[derive(Serialize)]
struct DoneView {
    job: u64,
    kind: JobKind,
    best: Option<String>,
    score: Option<i32>,
    depth: u32,
    nodes: u64,
    /// Whether the best move was played on the board.
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
    let mut on_info = |info: &Info| {
        let mut p = lock(&progress);
        p.lines.insert(info.multipv, info.clone());
        p.latest = Some(info.clone());
        p.dirty = true;
    };
    let result = searcher.search(&board, &spec.limits, &stop, &mut on_info);
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
        let mut inner = session.lock();
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
                match game.play(r.best) {
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

#[derive(Serialize)]
struct JobView {
    id: u64,
    kind: JobKind,
    done: usize,
    total: usize,
}

#[derive(Serialize)]
struct ResultView {
    winner: Option<&'static str>,
    reason: &'static str,
    text: String,
    five: Vec<String>,
}

impl ResultView {
    fn of(o: &game::Outcome) -> ResultView {
        ResultView {
            winner: o.winner().map(colour_name),
            reason: o.reason(),
            text: o.words(),
            five: match o {
                game::Outcome::Five { run, .. } => names(run),
                _ => Vec::new(),
            },
        }
    }
}

#[derive(Serialize)]
struct ForbiddenView {
    point: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct Geometry {
    cell: f64,
    margin: f64,
}

#[derive(Serialize)]
struct StateView<'a> {
    session: &'a str,
    /// Grows with every state: a page that gets states out of order (an answer and the event
    /// stream race) keeps the one with the highest.
    seq: u64,
    rule: &'static str,
    width: usize,
    height: usize,
    moves: Vec<String>,
    ply: usize,
    to_move: &'static str,
    last: Option<String>,
    /// The outcome at the cursor (the game cannot go on from there).
    result: Option<ResultView>,
    /// The outcome at the end of the line.
    end_result: Option<ResultView>,
    forbidden: Vec<ForbiddenView>,
    evals: &'a [Option<Eval>],
    job: Option<JobView>,
    board_svg: Option<String>,
    geometry: Geometry,
    /// Whether playing levels are offered (the engine's levels are not in this build).
    levels: bool,
}

/// The session's state as JSON: everything the page draws. `inner` is the session's locked
/// part, so states are numbered in the order of the changes.
pub fn state_json(session: &Session, inner: &Inner) -> String {
    let g = &inner.game;
    let (width, height) = g.size();
    let view = StateView {
        session: &session.id,
        seq: session.seq.fetch_add(1, Ordering::SeqCst) + 1,
        rule: g.rule().name(),
        width,
        height,
        moves: names(g.moves()),
        ply: g.ply(),
        to_move: colour_name(g.board().side_to_move()),
        last: g.board().last_move().map(|p| p.name()),
        result: g.outcome().as_ref().map(ResultView::of),
        end_result: g.final_outcome().as_ref().map(ResultView::of),
        forbidden: g
            .forbidden()
            .into_iter()
            .map(|(p, k)| ForbiddenView {
                point: p.name(),
                kind: kind_words(k),
            })
            .collect(),
        evals: g.evals(),
        job: inner.job.as_ref().map(|j| JobView {
            id: j.id,
            kind: j.kind,
            done: j.progress.0,
            total: j.progress.1,
        }),
        board_svg: g.picture(&[]).ok(),
        geometry: Geometry {
            cell: wuzi_show::svg::CELL,
            margin: wuzi_show::svg::MARGIN,
        },
        levels: false,
    };
    serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
