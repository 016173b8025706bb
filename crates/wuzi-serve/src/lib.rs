//! wuzi-serve: `wuzi serve`, a local web server whose page plays and analyses Gomoku with the
//! wuzi searcher behind it.
//!
//! - [`game`]: a session's game (a line of moves, a cursor, the outcome, the evaluations),
//!   over `wuzi_core`'s board; records read and written by `wuzi_show`;
//! - [`app`]: the table of sessions and the bounded search slots;
//! - [`session`]: one board: its game, its job, the pages watching it;
//! - [`job`]: the jobs that run `wuzi_search::Searcher` (one per running job, on its own
//!   thread): a move, an analysis, a review;
//! - [`progress`]: a search's progress, sent to the pages a few times a second;
//! - [`state`]: the session's state as JSON, what the page draws;
//! - [`api`]: the HTTP routes (axum): the JSON API, the event stream, the page;
//! - [`assets`]: the page's files, compiled in;
//! - [`error`]: refused requests ([`ApiError`]) and why the server did not start
//!   ([`ServeError`]).
//!
//! [`Server::start`] binds the address (127.0.0.1 unless told otherwise), serves on a thread
//! of its own and returns at once; dropping the [`Server`] (or [`Server::shutdown`]) stops
//! every search, ends every event stream and joins the thread.

pub mod api;
pub mod app;
pub mod assets;
pub mod error;
pub mod game;
pub mod job;
pub mod progress;
pub mod session;
pub mod state;

use std::net::{Ipv4Addr, SocketAddr};
use std::sync::mpsc;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

pub use app::Stats;
pub use error::{ApiError, ServeError};

/// The server's settings and bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Where to listen; port 0 picks a free port.
    pub addr: SocketAddr,
    /// The most sessions (boards) at once.
    pub max_sessions: usize,
    /// The most searches running at once, over all sessions.
    pub max_searches: usize,
    /// Each search's transposition table bound, in bytes.
    pub hash_bytes: usize,
    /// The most threads one search may use.
    pub max_threads: usize,
    /// A session that no page watches and nobody asks about for this long is dropped.
    pub idle: Duration,
    /// The largest request body, in bytes.
    pub body_limit: usize,
}

/// The default port of `wuzi serve`.
pub const DEFAULT_PORT: u16 = 8015;

impl Default for Config {
    fn default() -> Config {
        Config {
            addr: SocketAddr::from((Ipv4Addr::LOCALHOST, DEFAULT_PORT)),
            max_sessions: 32,
            max_searches: 2,
            hash_bytes: 64 << 20,
            max_threads: wuzi_search::resolve_threads(0),
            idle: Duration::from_secs(30 * 60),
            body_limit: 256 << 10,
        }
    }
}

impl Config {
    fn check(&self) -> Result<(), ServeError> {
        let positive = [
            (self.max_sessions, "sessions"),
            (self.max_searches, "searches"),
            (self.max_threads, "threads"),
            (self.body_limit, "body limit"),
        ];
        for (value, what) in positive {
            if value == 0 {
                return Err(ServeError::Config(format!("{what} must be at least 1")));
            }
        }
        if self.idle.is_zero() {
            return Err(ServeError::Config("the idle time must be positive".into()));
        }
        Ok(())
    }
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    app: Arc<app::App>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    ended: mpsc::Receiver<()>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds `config.addr` and starts serving on a thread of its own.
    pub fn start(config: Config) -> Result<Server, ServeError> {
        config.check()?;
        let listener =
            std::net::TcpListener::bind(config.addr).map_err(|source| ServeError::Bind {
                addr: config.addr,
                source,
            })?;
        let addr = listener.local_addr().map_err(ServeError::Runtime)?;
        listener
            .set_nonblocking(true)
            .map_err(ServeError::Runtime)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(ServeError::Runtime)?;
        let app = Arc::new(app::App::new(Config { addr, ..config }));
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (ended_tx, ended) = mpsc::channel();
        let shared = app.clone();
        let listener = {
            let _enter = runtime.enter();
            tokio::net::TcpListener::from_std(listener).map_err(ServeError::Runtime)?
        };
        let thread = std::thread::Builder::new()
            .name("wuzi-serve".into())
            .spawn(move || {
                runtime.block_on(async move {
                    let reaper = shared.clone();
                    let every = (reaper.config.idle / 4)
                        .clamp(Duration::from_millis(100), Duration::from_secs(10));
                    tokio::spawn(async move {
                        let mut tick = tokio::time::interval(every);
                        loop {
                            tick.tick().await;
                            reaper.reap();
                        }
                    });
                    let signal = shared.clone();
                    let served = axum::serve(listener, api::router(shared))
                        .with_graceful_shutdown(async move {
                            let _ = stopped.await;
                            signal.begin_shutdown();
                        })
                        .await;
                    if let Err(e) = served {
                        eprintln!("wuzi serve: the server stopped: {e}");
                    }
                });
                let _ = ended_tx.send(());
            })
            .map_err(ServeError::Runtime)?;
        Ok(Server {
            addr,
            app,
            stop: Some(stop),
            ended,
            thread: Some(thread),
        })
    }

    /// The address it listens on (with the port chosen when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The page's address: `http://127.0.0.1:PORT/` (the loopback name when bound to every
    /// interface).
    pub fn url(&self) -> String {
        let ip = self.addr.ip();
        let host = if ip.is_unspecified() {
            "127.0.0.1".to_string()
        } else if ip.is_ipv6() {
            format!("[{ip}]")
        } else {
            ip.to_string()
        };
        format!("http://{host}:{}/", self.addr.port())
    }

    /// Sessions, running searches and the table memory they hold, now.
    pub fn stats(&self) -> Stats {
        self.app.stats()
    }

    /// Blocks until the server stops (it stops by itself only on a fatal error).
    pub fn wait(mut self) {
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }

    /// Stops every search, ends every event stream and stops serving.
    pub fn shutdown(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        self.app.begin_shutdown();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        // Open connections get a bounded time to finish; then the thread is left to end.
        if self.ended.recv_timeout(Duration::from_secs(5)).is_ok() {
            if let Some(thread) = self.thread.take() {
                let _ = thread.join();
            }
        }
        // Jobs end within milliseconds of their stop flag; wait for them, boundedly.
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        while self.app.stats().searches > 0 && std::time::Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.thread.is_some() {
            self.stop_now();
        }
    }
}
