//! The server's shared state: the table of board sessions and the bounded search slots.
//!
//! Invariants:
//! - at most `max_sessions` sessions and `max_searches` jobs exist at once (a job holds a
//!   slot from its start until its guard drops, `job.rs`);
//! - `table_bytes` is the sum of the table bounds of the live searchers, so it is 0 when no
//!   job runs;
//! - a session nobody watches and nobody has asked about for `idle` is dropped, and its job
//!   stopped.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use serde::Serialize;
use tokio::sync::watch;
use wuzi_core::rng::Rng;

use crate::error::ApiError;
use crate::game::Game;
use crate::session::Session;
use crate::Config;

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
    pub(crate) table_bytes: AtomicU64,
    pub(crate) next_job: AtomicU64,
    ids: std::collections::hash_map::RandomState,
    next_id: AtomicU64,
    /// Seeds the sessions' generators: from the clock, so that games differ from run to run.
    seed: u64,
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
            seed: Rng::from_clock().next_u64(),
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

    /// A new session's name and its generator (for the playing levels' choices).
    fn new_id(&self) -> (String, Rng) {
        let n = self.next_id.fetch_add(1, Ordering::Relaxed);
        let id = format!(
            "{:016x}{:016x}",
            self.ids.hash_one((n, 0u8)),
            self.ids.hash_one((n, 1u8))
        );
        (id, Rng::for_item(self.seed, n))
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
        let (id, rng) = self.new_id();
        let session = Arc::new(Session::new(id, game, rng));
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

    pub(crate) fn acquire_slot(&self) -> Result<(), ApiError> {
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

    pub(crate) fn release_slot(&self) {
        let mut running = lock(&self.searches);
        *running = running.saturating_sub(1);
    }
}
