//! The HTTP routes: the embedded page, the JSON API over board sessions, and each session's
//! event stream (server-sent events).
//!
//! Every request body is JSON (`Content-Type: application/json`) of at most
//! `Config::body_limit` bytes, with no unknown field; every refusal is a 4xx (or, when a bound
//! is reached, 503) with `{"error": "..."}`, and leaves the session as it was. No path of the
//! file system is ever served: the page's files are compiled in (`assets.rs`).
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `/app.js`, `/style.css`, `/favicon.svg` | the page |
//! | `GET /api/status` | counts and bounds ([`crate::Stats`]) |
//! | `POST /api/sessions` `{rule?, size?}` | a new session; its state |
//! | `GET`/`DELETE /api/sessions/{id}` | its state / end it |
//! | `POST /api/sessions/{id}/new` `{rule?, size?}` | a new game |
//! | `POST .../move` `{point}` | play a point (`h8`) at the cursor |
//! | `POST .../undo` `{count?}` | take back the last moves |
//! | `POST .../goto` `{ply}` | show the position after `ply` moves |
//! | `POST .../load` `{text, rule?, size?, game?}` | an SGF, PSQ or move list |
//! | `POST .../resign` `{color}` | that side resigns |
//! | `POST .../think` `{mode?, time_ms?, depth?, nodes?, lines?, threads?, level?}` | search (`move` plays the best move, or at a `level` below 100 the level's choice; `analyse` plays nothing and runs at full strength); 202 with `{job, level, state}` |
//! | `POST .../review` `{time_ms?, depth?, threads?}` | evaluate every position of the game |
//! | `POST .../stop` | stop the search (a `move` search then plays its best move so far) |
//! | `GET .../events` | the event stream: `state`, `info` (progress), `done` |
//! | `GET .../picture?pv=h8i9` | the position as SVG, a line as ghost stones |
//! | `GET .../record?format=sgf\|psq&black=&white=` | the game as a file |

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use futures_util::stream::Stream;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;
use wuzi_core::notation::parse_moves;
use wuzi_core::{Color, Rule};
use wuzi_search::strength::FULL_STRENGTH;
use wuzi_search::Limits;

use crate::app::{self, App};
use crate::assets;
use crate::error::ApiError;
use crate::game::{parse_point, parse_rule, parse_size, Game};
use crate::job::{self, JobKind, JobSpec};
use crate::session::{self, Subscriber};
use crate::state::state_json;

type Shared = State<Arc<App>>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message }).to_string();
        (
            self.status,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response()
    }
}

fn json(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// The router of the whole server.
pub fn router(app: Arc<App>) -> Router {
    let limit = app.config.body_limit;
    Router::new()
        .route("/", get(assets::index))
        .route("/{file}", get(assets::file))
        .route("/api/status", get(status))
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(state).delete(delete))
        .route("/api/sessions/{id}/events", get(events))
        .route("/api/sessions/{id}/picture", get(picture))
        .route("/api/sessions/{id}/record", get(record))
        .route("/api/sessions/{id}/{action}", post(action))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(limit))
        .layer(middleware::from_fn_with_state(app.clone(), guard))
        .with_state(app)
}

async fn not_found() -> ApiError {
    ApiError::not_found("no such page")
}

async fn method_not_allowed(method: Method) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{method} is not allowed here"),
    )
}

/// Whether a `Host` header names this machine's loopback interface.
fn loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Every request: a server bound to the loopback interface answers only requests addressed
/// to it by a loopback name (a web page elsewhere cannot reach it by a name of its own that
/// resolves here), and every answer carries headers that keep it from being framed or sniffed.
async fn guard(State(app): Shared, request: Request, next: Next) -> Response {
    if app.config.addr.ip().is_loopback() {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !loopback_host(host) {
            return ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                "this server answers only to localhost or 127.0.0.1 (start it with --bind to serve other addresses)",
            )
            .into_response();
        }
    }
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        ("x-content-type-options", "nosniff"),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
        (
            "content-security-policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
        ),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// Reads a JSON body: an empty body is `{}`; anything else must say it is JSON.
fn body<T: DeserializeOwned>(
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the request is larger than {limit} bytes"),
            )
        } else {
            ApiError::new(
                e.status(),
                format!("cannot read the request: {}", e.body_text()),
            )
        }
    })?;
    let text: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| {
                v.split(';')
                    .next()
                    .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !json {
            return Err(ApiError::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "send the request as JSON (Content-Type: application/json)",
            ));
        }
        &bytes
    };
    serde_json::from_slice(text).map_err(|e| ApiError::bad_request(format!("bad request: {e}")))
}

/// A board size: `15`, or `"20x15"`.
#[derive(Deserialize)]
#[serde(untagged)]
enum SizeArg {
    Square(u64),
    Text(String),
}

impl SizeArg {
    fn read(&self) -> Result<(usize, usize), ApiError> {
        match self {
            SizeArg::Square(n) => parse_size(&n.to_string()),
            SizeArg::Text(t) => parse_size(t),
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct NewGame {
    rule: Option<String>,
    size: Option<SizeArg>,
}

impl NewGame {
    fn read(&self) -> Result<(Rule, usize, usize), ApiError> {
        let rule = match &self.rule {
            Some(r) => parse_rule(r)?,
            None => Rule::Freestyle,
        };
        let (w, h) = match &self.size {
            Some(s) => s.read()?,
            None => (15, 15),
        };
        Ok((rule, w, h))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveReq {
    point: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoReq {
    count: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GotoReq {
    ply: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadReq {
    text: String,
    rule: Option<String>,
    size: Option<SizeArg>,
    game: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResignReq {
    color: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ThinkReq {
    mode: Option<String>,
    time_ms: Option<u64>,
    depth: Option<u32>,
    nodes: Option<u64>,
    lines: Option<usize>,
    threads: Option<u64>,
    level: Option<u64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewReq {
    time_ms: Option<u64>,
    depth: Option<u32>,
    threads: Option<u64>,
}

/// The most lines a search may be asked for.
pub const MAX_LINES: usize = 10;
/// The deepest depth limit taken.
pub const MAX_DEPTH: u32 = 100;
/// The longest time limit taken: a day.
pub const MAX_TIME_MS: u64 = 86_400_000;

fn threads(app: &App, asked: Option<u64>) -> Result<usize, ApiError> {
    let max = app.config.max_threads;
    match asked {
        None => Ok(1),
        Some(0) => Ok(max),
        Some(n) if n as usize <= max => Ok(n as usize),
        Some(n) => Err(ApiError::bad_request(format!(
            "threads {n}: this server allows 1 to {max} (0 for {max})"
        ))),
    }
}

fn time_limit(ms: Option<u64>) -> Result<Option<Duration>, ApiError> {
    match ms {
        None => Ok(None),
        Some(0) => Err(ApiError::bad_request("time_ms must be at least 1")),
        Some(t) if t > MAX_TIME_MS => Err(ApiError::bad_request(format!(
            "time_ms {t} is more than a day ({MAX_TIME_MS})"
        ))),
        Some(t) => Ok(Some(Duration::from_millis(t))),
    }
}

fn depth_limit(depth: Option<u32>) -> Result<Option<u32>, ApiError> {
    match depth {
        Some(d) if d == 0 || d > MAX_DEPTH => Err(ApiError::bad_request(format!(
            "depth {d}: give 1 to {MAX_DEPTH}"
        ))),
        d => Ok(d),
    }
}

impl ThinkReq {
    fn spec(&self, app: &App) -> Result<JobSpec, ApiError> {
        let kind = match self.mode.as_deref() {
            None | Some("move") => JobKind::Move,
            Some("analyse") | Some("analyze") => JobKind::Analyse,
            Some(other) => {
                return Err(ApiError::bad_request(format!(
                    "mode {other:?}: give \"move\" or \"analyse\""
                )))
            }
        };
        let lines = self.lines.unwrap_or(1);
        if !(1..=MAX_LINES).contains(&lines) {
            return Err(ApiError::bad_request(format!(
                "lines {lines}: give 1 to {MAX_LINES}"
            )));
        }
        if self.nodes == Some(0) {
            return Err(ApiError::bad_request("nodes must be at least 1"));
        }
        let level = self.level.unwrap_or(FULL_STRENGTH);
        if level > FULL_STRENGTH {
            return Err(ApiError::bad_request(format!(
                "level {level}: playing levels are 0 to {FULL_STRENGTH} ({FULL_STRENGTH} is full strength)"
            )));
        }
        if kind == JobKind::Analyse && level < FULL_STRENGTH {
            return Err(ApiError::bad_request(format!(
                "level {level}: an analysis always runs at full strength; a level is for the \
                 engine's moves (mode \"move\")"
            )));
        }
        let mut time = time_limit(self.time_ms)?;
        let depth = depth_limit(self.depth)?;
        if kind == JobKind::Move && time.is_none() && depth.is_none() && self.nodes.is_none() {
            // A move is always due: one second unless told otherwise.
            time = Some(Duration::from_secs(1));
        }
        Ok(JobSpec {
            kind,
            limits: Limits {
                // A move's iteration that starts after half the time rarely ends in time.
                soft_time: time.map(|t| if kind == JobKind::Move { t / 2 } else { t }),
                hard_time: time,
                max_depth: depth,
                max_nodes: self.nodes,
                multipv: lines,
                analysis: kind == JobKind::Analyse,
                ..Limits::default()
            },
            threads: threads(app, self.threads)?,
            level,
        })
    }
}

impl ReviewReq {
    fn spec(&self, app: &App) -> Result<JobSpec, ApiError> {
        let mut time = time_limit(self.time_ms)?;
        let depth = depth_limit(self.depth)?;
        if time.is_none() && depth.is_none() {
            time = Some(Duration::from_millis(300));
        }
        Ok(JobSpec {
            kind: JobKind::Review,
            limits: Limits {
                soft_time: time.map(|t| t / 2),
                hard_time: time,
                max_depth: depth,
                max_nodes: None,
                multipv: 1,
                ..Limits::default()
            },
            threads: threads(app, self.threads)?,
            level: FULL_STRENGTH,
        })
    }
}

fn colour(text: &str) -> Result<Color, ApiError> {
    match text.to_ascii_lowercase().as_str() {
        "black" | "b" => Ok(Color::Black),
        "white" | "w" => Ok(Color::White),
        _ => Err(ApiError::bad_request(format!(
            "color {text:?}: give \"black\" or \"white\""
        ))),
    }
}

async fn status(State(app): Shared) -> Response {
    json(
        StatusCode::OK,
        serde_json::to_string(&app.stats()).unwrap_or_default(),
    )
}

async fn create(
    State(app): Shared,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: NewGame = body(&headers, bytes, app.config.body_limit)?;
    let (rule, w, h) = req.read()?;
    let session = app.create_session(Game::new(rule, w, h)?)?;
    let state = state_json(&session, &session.lock());
    Ok(json(StatusCode::CREATED, state))
}

async fn state(State(app): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let session = app.session(&id)?;
    let state = state_json(&session, &session.lock());
    Ok(json(StatusCode::OK, state))
}

async fn delete(State(app): Shared, Path(id): Path<String>) -> Result<StatusCode, ApiError> {
    app.remove_session(&id)?;
    Ok(StatusCode::NO_CONTENT)
}

async fn action(
    State(app): Shared,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let session = app.session(&id)?;
    let limit = app.config.body_limit;
    match action.as_str() {
        "think" | "review" => {
            let spec = if action == "think" {
                body::<ThinkReq>(&headers, bytes, limit)?.spec(&app)?
            } else {
                body::<ReviewReq>(&headers, bytes, limit)?.spec(&app)?
            };
            // The level goes in the answer itself: a short search may have ended, and left
            // the state's `job`, before the state is read.
            let level = spec.level;
            let job = job::start_job(&app, &session, spec).await?;
            let state = state_json(&session, &session.lock());
            return Ok(json(
                StatusCode::ACCEPTED,
                format!("{{\"job\":{job},\"level\":{level},\"state\":{state}}}"),
            ));
        }
        "stop" => {
            body::<serde_json::Map<String, serde_json::Value>>(&headers, bytes, limit)?;
            job::stop_job(&session);
        }
        _ => {
            let change = read_change(&action, &headers, bytes, limit)?;
            let mut inner = session.lock();
            apply(&mut inner, change)?;
        }
    }
    session.broadcast_state();
    let state = state_json(&session, &session.lock());
    Ok(json(StatusCode::OK, state))
}

/// A change of a session's game, read and checked before the game is touched.
enum Change {
    New(Rule, usize, usize),
    Move(wuzi_core::Point),
    Undo(usize),
    Goto(usize),
    Load(Box<wuzi_show::Game>),
    Resign(Color),
}

fn read_change(
    action: &str,
    headers: &HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
    limit: usize,
) -> Result<Change, ApiError> {
    Ok(match action {
        "new" => {
            let (rule, w, h) = body::<NewGame>(headers, bytes, limit)?.read()?;
            Change::New(rule, w, h)
        }
        "move" => Change::Move(parse_point(&body::<MoveReq>(headers, bytes, limit)?.point)?),
        "undo" => Change::Undo(body::<UndoReq>(headers, bytes, limit)?.count.unwrap_or(1)),
        "goto" => Change::Goto(body::<GotoReq>(headers, bytes, limit)?.ply),
        "resign" => Change::Resign(colour(&body::<ResignReq>(headers, bytes, limit)?.color)?),
        "load" => {
            let req: LoadReq = body(headers, bytes, limit)?;
            let rule = match &req.rule {
                Some(r) => parse_rule(r)?,
                None => Rule::Freestyle,
            };
            let size = match &req.size {
                Some(s) => s.read()?,
                None => (15, 15),
            };
            let record = wuzi_show::read_game(&req.text, size, rule, req.game.unwrap_or(1))
                .map_err(|e| ApiError::unprocessable(e.to_string()))?;
            Change::Load(Box::new(record))
        }
        other => {
            return Err(ApiError::not_found(format!(
                "no action {:?} (new, move, undo, goto, load, resign, think, review, stop)",
                other.chars().take(40).collect::<String>()
            )))
        }
    })
}

/// Applies a change all or nothing; a change of the position stops the search on it.
fn apply(inner: &mut session::Inner, change: Change) -> Result<(), ApiError> {
    let mut game = inner.game.clone();
    let resign = matches!(change, Change::Resign(_));
    match change {
        Change::New(rule, w, h) => game.restart(rule, w, h)?,
        Change::Move(p) => game.play(p)?,
        Change::Undo(n) => game.take_back(n)?,
        Change::Goto(ply) => game.goto(ply)?,
        Change::Load(record) => game.load(&record)?,
        Change::Resign(c) => game.resign(c)?,
    }
    let line_changed = game.line() != inner.game.line();
    let moved = game.ply() != inner.game.ply();
    inner.game = game;
    if line_changed || resign {
        inner.stop_job();
    } else if moved {
        inner.stop_search();
    }
    Ok(())
}

async fn events(
    State(app): Shared,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<SseEvent, Infallible>>>, ApiError> {
    let session = app.session(&id)?;
    let (rx, subscriber) = session.subscribe();
    let first = SseEvent::default()
        .event("state")
        .data(state_json(&session, &session.lock()));
    let shutdown = app.shutdown_signal();
    struct Feed {
        first: Option<SseEvent>,
        rx: tokio::sync::broadcast::Receiver<app::Event>,
        session: Arc<session::Session>,
        shutdown: tokio::sync::watch::Receiver<bool>,
        _subscriber: Subscriber,
    }
    let feed = Feed {
        first: Some(first),
        rx,
        session: session.clone(),
        shutdown,
        _subscriber: subscriber,
    };
    let stream = futures_util::stream::unfold(feed, |mut feed| async move {
        if let Some(first) = feed.first.take() {
            return Some((Ok(first), feed));
        }
        if *feed.shutdown.borrow() {
            return None;
        }
        let event = tokio::select! {
            received = feed.rx.recv() => match received {
                Ok(e) => SseEvent::default().event(e.name).data(&*e.data),
                // Fell behind: what it missed is summed up by the state now.
                Err(RecvError::Lagged(_)) => SseEvent::default()
                    .event("state")
                    .data(state_json(&feed.session, &feed.session.lock())),
                Err(RecvError::Closed) => return None,
            },
            _ = feed.shutdown.changed() => return None,
        };
        Some((Ok(event), feed))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(1))))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PictureQuery {
    pv: Option<String>,
}

async fn picture(
    State(app): Shared,
    Path(id): Path<String>,
    query: Result<Query<PictureQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let session = app.session(&id)?;
    let pv = match &query.pv {
        Some(text) => parse_moves(text).map_err(|e| ApiError::bad_request(e.to_string()))?,
        None => Vec::new(),
    };
    let svg = session.lock().game.picture(&pv)?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RecordQuery {
    format: Option<String>,
    black: Option<String>,
    white: Option<String>,
}

async fn record(
    State(app): Shared,
    Path(id): Path<String>,
    query: Result<Query<RecordQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::bad_request(e.body_text()))?;
    let session = app.session(&id)?;
    let psq = match query.format.as_deref() {
        None | Some("sgf") => false,
        Some("psq") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "format {other:?}: give sgf or psq"
            )))
        }
    };
    let name = |n: Option<String>| {
        n.map(|t| t.chars().take(80).collect::<String>())
            .filter(|t| !t.trim().is_empty())
    };
    let text = session
        .lock()
        .game
        .write(psq, name(query.black), name(query.white))?;
    let (kind, file) = if psq {
        (
            "text/plain; charset=utf-8",
            "attachment; filename=\"wuzi-game.psq\"",
        )
    } else {
        (
            "application/x-go-sgf",
            "attachment; filename=\"wuzi-game.sgf\"",
        )
    };
    Ok((
        [
            (header::CONTENT_TYPE, kind),
            (header::CONTENT_DISPOSITION, file),
        ],
        text,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_hosts() {
        for ok in [
            "localhost",
            "localhost:8015",
            "127.0.0.1:80",
            "[::1]:8015",
            "[::1]",
            "LOCALHOST",
        ] {
            assert!(loopback_host(ok), "{ok}");
        }
        for bad in [
            "",
            "example.com",
            "evil.localhost.example:80",
            "10.0.0.1:8015",
            "[fe80::1]",
        ] {
            assert!(!loopback_host(bad), "{bad}");
        }
    }
}
