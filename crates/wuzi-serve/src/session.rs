//! One board session: its game, its job (at most one), and the pages watching it.
//!
//! Invariants:
//! - the game and the job change only under the session's one lock, so every state sent is
//!   whole, and states are numbered (`seq`) in the order of the changes;
//! - when the last page watching a session (its event stream) goes away, the session's job
//!   is stopped.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use tokio::sync::broadcast;
use wuzi_core::rng::Rng;

use crate::app::{lock, Event};
use crate::game::Game;
use crate::job::{Job, JobKind};
use crate::state::state_json;

/// A session's mutable part, under one lock.
pub struct Inner {
    pub game: Game,
    pub(crate) job: Option<Job>,
    /// The session's one generator: the playing level's choices of its moves.
    pub(crate) rng: Rng,
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
    pub(crate) inner: Mutex<Inner>,
    pub(crate) events: broadcast::Sender<Event>,
    pub(crate) subscribers: AtomicUsize,
    pub(crate) last_seen: Mutex<Instant>,
    /// Numbers the states sent, in the order of the changes they show (taken under the lock).
    pub(crate) seq: AtomicU64,
}

impl Session {
    pub fn new(id: String, game: Game, rng: Rng) -> Session {
        Session {
            id,
            inner: Mutex::new(Inner {
                game,
                job: None,
                rng,
            }),
            events: broadcast::channel(64).0,
            subscribers: AtomicUsize::new(0),
            last_seen: Mutex::new(Instant::now()),
            seq: AtomicU64::new(0),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, Inner> {
        lock(&self.inner)
    }

    pub(crate) fn touch(&self) {
        *lock(&self.last_seen) = Instant::now();
    }

    pub(crate) fn send(&self, name: &'static str, data: String) {
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
