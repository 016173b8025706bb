//! A search's progress on its way to the pages: the latest line of each rank, turned into
//! `info` events at most every [`PROGRESS_EVERY`], whatever the search reports, and none
//! after the search's last one.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use wuzi_core::{Color, Point};
use wuzi_search::Info;

use crate::app::lock;
use crate::game::{self, colour_name};
use crate::job::{JobKind, Work};
use crate::session::Session;

/// The least time between two progress events of one search.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(200);

/// The latest progress of a search, shared by the search thread and the ticker.
#[derive(Default)]
pub(crate) struct Progress {
    /// The latest line of each rank (1 the best).
    pub(crate) lines: BTreeMap<usize, Info>,
    pub(crate) latest: Option<Info>,
    pub(crate) dirty: bool,
    pub(crate) finished: bool,
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

pub(crate) fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(|p| p.name()).collect()
}

impl Progress {
    /// The progress event, if something new came since the last one.
    pub(crate) fn event(&mut self, work: &Work, job: u64, kind: JobKind) -> Option<String> {
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
pub(crate) fn spawn_ticker(
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
