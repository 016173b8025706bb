//! What a search writes while it runs and when it ends, by the `show_detail` levels:
//! `MESSAGE depth ...` progress lines, the realtime display (`MESSAGE REALTIME ...`) and the
//! detail block (`INFO PV k` ... `INFO PV DONE`), and the final lines of a multi-PV search.
//!
//! Invariants: every line goes through [`Output`] whole; the realtime display starts only
//! once the search is past [`REALTIME_MIN_DEPTH`] and [`REALTIME_MIN_TIME`], so that a fast
//! search does not flood the pipe, and `BEST` is written only when the best move changes; the
//! final lines are written only when they differ from the last lines reported, so the last
//! line written for each `multipv` is always the answer's.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use wuzi_core::Point;
use wuzi_protocol::{Coord, Eval, PvDetail, Realtime, Reply, SearchInfo};
use wuzi_search::{Info, PvLine, RootEvent, SearchResult, WIN, WIN_MIN};

use crate::output::Output;
use crate::worker::info_line;

/// The realtime display starts at this iteration...
pub const REALTIME_MIN_DEPTH: u32 = 4;
/// ...and this long into the search.
pub const REALTIME_MIN_TIME: Duration = Duration::from_millis(150);
/// The scale of the win rate shown for a score: `1 / (1 + exp(-score / K))`. The Texel fits
/// of the hand-set evaluation against game results found K from 1,050 to 1,510 by rule
/// (`docs/evaluation.md`); this is their middle. A display, not a calibrated probability.
pub const WINRATE_SCALE: f64 = 1200.0;

/// What a search writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reporting {
    /// `MESSAGE depth ...` after each iteration.
    pub progress: bool,
    /// `MESSAGE REALTIME ...`.
    pub realtime: bool,
    /// The `INFO` detail block after each iteration.
    pub detail: bool,
    /// The final lines of a multi-PV search, when they differ from the last reported.
    pub final_lines: bool,
}

impl Reporting {
    /// Nothing at all (a ponder, a search inside another command).
    pub fn silent() -> Reporting {
        Reporting::default()
    }
}

/// The score as the detail block writes it.
pub fn eval_of(score: i32) -> Eval {
    if score >= WIN_MIN {
        Eval::Win((WIN - score).max(0) as u32)
    } else if score <= -WIN_MIN {
        Eval::Loss((WIN + score).max(0) as u32)
    } else {
        Eval::Score(score)
    }
}

/// The side to move's expected score for a search score, from 0 to 1.
pub fn winrate(score: i32) -> f64 {
    match eval_of(score) {
        Eval::Win(_) => 1.0,
        Eval::Loss(_) => 0.0,
        Eval::Score(s) => 1.0 / (1.0 + (-(s as f64) / WINRATE_SCALE).exp()),
    }
}

fn coords(pv: &[Point]) -> Vec<Coord> {
    pv.iter().map(|&p| Coord::from(p)).collect()
}

/// The detail block of one line; `before` is the search's node count at the block before.
pub fn detail_block(info: &Info, lines: usize, before: u64) -> PvDetail {
    let ms = info.elapsed.as_millis().min(u128::from(u64::MAX)) as u64;
    PvDetail {
        index: info.multipv.saturating_sub(1),
        count: lines,
        depth: info.depth,
        seldepth: info.seldepth.max(info.depth),
        nodes: info.nodes.saturating_sub(before),
        total_nodes: info.nodes,
        time_ms: ms,
        speed: info.nodes.saturating_mul(1000) / ms.max(1),
        eval: eval_of(info.score),
        winrate: winrate(info.score),
        line: coords(&info.pv),
    }
}

/// Writes the per-iteration reports of one search and remembers what it wrote.
pub struct Reporter {
    out: Output,
    how: Reporting,
    lines: usize,
    /// The search's node count at the last block written.
    reported_nodes: u64,
    /// The last line reported for each multi-PV index (from 1).
    last: Vec<Option<Info>>,
}

impl Reporter {
    pub fn new(out: Output, how: Reporting, lines: usize) -> Reporter {
        Reporter {
            out,
            how,
            lines: lines.max(1),
            reported_nodes: 0,
            last: vec![None; lines.max(1) + 1],
        }
    }

    /// One line after an iteration.
    pub fn on_info(&mut self, info: &Info) {
        if self.how.progress {
            self.out
                .send(&Reply::Message(info_line(info, self.lines).to_string()));
        }
        if self.how.detail {
            let block = detail_block(info, self.lines, self.reported_nodes);
            self.reported_nodes = info.nodes;
            for line in block.lines() {
                self.out.send(&line);
            }
        }
        if let Some(slot) = self.last.get_mut(info.multipv) {
            *slot = Some(info.clone());
        }
    }

    /// After the search: the final lines, if they are not what was last reported.
    pub fn finish(&mut self, result: &SearchResult, elapsed: Duration) {
        if !self.how.final_lines || !(self.how.progress || self.how.detail) {
            return;
        }
        // The search gives its lines best first, as a GUI lists them: a selective search's
        // later multi-PV pass can score above an earlier one, so the search sorts each
        // iteration's lines by score, and after a cut pass the lines it finished (the
        // deepest) come before those it kept from the iteration before.
        let finals: Vec<Info> = result
            .pv
            .iter()
            .enumerate()
            .map(|(k, line)| final_info(k + 1, line, result.nodes, elapsed))
            .collect();
        let same = finals.iter().all(|f| {
            self.last
                .get(f.multipv)
                .and_then(Option::as_ref)
                .is_some_and(|l| l.depth == f.depth && l.score == f.score && l.pv == f.pv)
        });
        if same {
            return;
        }
        for f in &finals {
            if self.how.progress {
                let mut line: SearchInfo = info_line(f, self.lines);
                line.seldepth = line.seldepth.max(line.depth);
                self.out.send(&Reply::Message(line.to_string()));
            }
            if self.how.detail {
                let block = detail_block(f, finals.len(), self.reported_nodes);
                self.reported_nodes = f.nodes;
                for reply in block.lines() {
                    self.out.send(&reply);
                }
            }
        }
    }
}

fn final_info(multipv: usize, line: &PvLine, nodes: u64, elapsed: Duration) -> Info {
    Info {
        depth: line.depth,
        seldepth: line.depth,
        multipv,
        score: line.score,
        nodes,
        elapsed,
        pv: line.pv.clone(),
    }
}

/// The realtime display of one search: turns root events into `MESSAGE REALTIME` lines once
/// the search is deep and old enough. Shared with the search's threads (`Sync`).
pub struct Realtimer {
    out: Output,
    started: Instant,
    on: AtomicBool,
    /// The best move last written, as `x << 8 | y`, or `u32::MAX`.
    best: AtomicU32,
}

impl Realtimer {
    pub fn new(out: Output, started: Instant) -> Realtimer {
        Realtimer {
            out,
            started,
            on: AtomicBool::new(false),
            best: AtomicU32::new(u32::MAX),
        }
    }

    fn send(&self, event: Realtime) {
        self.out.send(&event.reply());
    }

    /// Whether the display runs, starting it when the search is past its thresholds and
    /// `may_start` (only at an iteration or a move entered: a display that started inside a
    /// move would write its `DONE` without its `POS`).
    fn running(&self, depth: u32, may_start: bool) -> bool {
        if self.on.load(Ordering::Relaxed) {
            return true;
        }
        if may_start && depth >= REALTIME_MIN_DEPTH && self.started.elapsed() >= REALTIME_MIN_TIME {
            self.on.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    pub fn on_event(&self, event: &RootEvent) {
        match *event {
            RootEvent::Iteration { depth } => {
                if self.running(depth, true) {
                    self.send(Realtime::Refresh);
                }
            }
            RootEvent::Entered { point, depth } => {
                if self.running(depth, true) {
                    self.send(Realtime::Pos(Coord::from(point)));
                }
            }
            RootEvent::Finished { point, depth } => {
                if self.running(depth, false) {
                    self.send(Realtime::Done(Coord::from(point)));
                }
            }
            RootEvent::Lost { point, depth } => {
                if self.running(depth, false) {
                    self.send(Realtime::Lose(Coord::from(point)));
                }
            }
            // The GUI marks one best move: the best line's (a multi-PV search's later passes
            // look for the second best, third best, ...).
            RootEvent::Best {
                point,
                depth,
                line: 1,
                ..
            } => {
                let key = (u32::from(point.x) << 8) | u32::from(point.y);
                if self.running(depth, false) && self.best.swap(key, Ordering::Relaxed) != key {
                    self.send(Realtime::Best(Coord::from(point)));
                }
            }
            RootEvent::Best { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::capture::Captured;

    #[test]
    fn scores_become_evals_and_win_rates() {
        assert_eq!(eval_of(35), Eval::Score(35));
        assert_eq!(eval_of(WIN - 5), Eval::Win(5));
        assert_eq!(eval_of(-(WIN - 4)), Eval::Loss(4));
        assert_eq!(winrate(0), 0.5);
        assert!(winrate(600) > 0.6 && winrate(600) < 0.65);
        assert!((winrate(-600) + winrate(600) - 1.0).abs() < 1e-12);
        assert_eq!(winrate(WIN - 3), 1.0);
        assert_eq!(winrate(-(WIN - 3)), 0.0);
    }

    #[test]
    fn realtime_waits_for_depth_and_time_and_writes_best_once() {
        let cap = Captured::default();
        let out = Output::new(Box::new(cap.clone()));
        let rt = Realtimer::new(out, Instant::now() - Duration::from_secs(1));
        let p = Point::new(7, 7);
        rt.on_event(&RootEvent::Entered { point: p, depth: 2 });
        assert!(cap.take_lines().is_empty(), "too shallow");
        rt.on_event(&RootEvent::Iteration { depth: 5 });
        rt.on_event(&RootEvent::Entered { point: p, depth: 5 });
        let best = |score, line| RootEvent::Best {
            point: p,
            depth: 5,
            score,
            line,
        };
        rt.on_event(&best(3, 1));
        rt.on_event(&best(9, 1));
        // The best of a later multi-PV pass is no best move.
        rt.on_event(&RootEvent::Best {
            point: Point::new(3, 3),
            depth: 5,
            score: 1,
            line: 2,
        });
        rt.on_event(&RootEvent::Finished { point: p, depth: 5 });
        rt.on_event(&RootEvent::Lost {
            point: Point::new(0, 1),
            depth: 5,
        });
        assert_eq!(
            cap.take_lines(),
            [
                "MESSAGE REALTIME REFRESH",
                "MESSAGE REALTIME POS 7,7",
                "MESSAGE REALTIME BEST 7,7",
                "MESSAGE REALTIME DONE 7,7",
                "MESSAGE REALTIME LOSE 0,1"
            ]
        );
        let young = Realtimer::new(Output::new(Box::new(cap.clone())), Instant::now());
        young.on_event(&RootEvent::Iteration { depth: 9 });
        assert!(cap.take_lines().is_empty(), "too early");
    }
}
