//! The mate bench's results: one [`Row`] a position (each engine's [`MateRun`]), and the
//! totals of groups of positions (all, by attacker, by split, by league, by league and split),
//! as text or JSON.
//!
//! How the totals count, for each engine over the positions it ran without an error:
//! - `found`: positions where it reported a proven win for the side to move within the cap;
//! - `time`: the geometric mean of the time to that first report, a position without one
//!   counted at the cap (so the mean can only understate the engine's true time); times
//!   under 1 ms count as 1 ms (engines report whole milliseconds);
//! - `nodes`: the geometric mean of the nodes searched to that report, a position without one
//!   counted at the nodes it searched in all (to the cap, or to the end of its search), over
//!   the positions where the engine tells its nodes;
//! - `time ratio` (`node ratio`): the geometric mean over the positions both engines ran of
//!   the first engine's time (nodes) over the second's, counted as above. Above 1: the first
//!   engine (wuzi) needs more.

use std::time::Duration;

use wuzi_search::bench::mates::{MatePosition, MateRun};

use crate::report::{json_number, json_string};

/// One position and what each engine did on it, in the report's engine order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub position: MatePosition,
    pub runs: Vec<MateRun>,
}

/// Every position's row, and the engines' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatesReport {
    pub engines: Vec<String>,
    pub cap: Duration,
    pub rows: Vec<Row>,
}

/// One engine's totals over a group.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineTotals {
    /// Positions run without an error.
    pub ran: usize,
    pub found: usize,
    pub errors: usize,
    /// Positions where it reported a proven loss for the side to move.
    pub claimed_loss: usize,
    /// Seconds, geometric mean (see the module documentation).
    pub time_geomean: Option<f64>,
    pub nodes_geomean: Option<f64>,
}

/// The totals of a group of positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    pub name: String,
    pub positions: usize,
    pub engines: Vec<EngineTotals>,
    /// First engine over second (`None` with one engine or no position both ran).
    pub time_ratio: Option<f64>,
    pub node_ratio: Option<f64>,
}

/// A run's time for the totals, in seconds: to its win, or the cap; `None` after an error.
fn run_time(run: &MateRun, cap: Duration) -> Option<f64> {
    if run.error.is_some() {
        return None;
    }
    let t = run.found.as_ref().map_or(cap, |f| f.elapsed);
    Some(t.as_secs_f64().max(0.001))
}

/// A run's nodes for the totals: to its win, or in all; `None` where unknown.
fn run_nodes(run: &MateRun) -> Option<f64> {
    if run.error.is_some() {
        return None;
    }
    let n = match &run.found {
        Some(f) => f.nodes?,
        None => run.nodes?,
    };
    Some((n as f64).max(1.0))
}

fn geomean(values: impl Iterator<Item = f64>) -> Option<f64> {
    let (mut sum, mut n) = (0.0, 0usize);
    for v in values {
        sum += v.ln();
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64).exp())
}

impl MatesReport {
    /// The totals of the rows that `keep` accepts.
    pub fn group(&self, name: &str, keep: impl Fn(&MatePosition) -> bool) -> Group {
        let rows: Vec<&Row> = self.rows.iter().filter(|r| keep(&r.position)).collect();
        let engines = (0..self.engines.len())
            .map(|e| {
                let runs: Vec<&MateRun> = rows.iter().filter_map(|r| r.runs.get(e)).collect();
                EngineTotals {
                    ran: runs.iter().filter(|r| r.error.is_none()).count(),
                    found: runs.iter().filter(|r| r.found.is_some()).count(),
                    errors: runs.iter().filter(|r| r.error.is_some()).count(),
                    claimed_loss: runs.iter().filter(|r| r.claimed_loss).count(),
                    time_geomean: geomean(runs.iter().filter_map(|r| run_time(r, self.cap))),
                    nodes_geomean: geomean(runs.iter().filter_map(|r| run_nodes(r))),
                }
            })
            .collect();
        let pair = |f: &dyn Fn(&MateRun) -> Option<f64>| {
            geomean(rows.iter().filter_map(|r| match r.runs.as_slice() {
                [a, b, ..] => Some(f(a)? / f(b)?),
                _ => None,
            }))
        };
        Group {
            name: name.to_string(),
            positions: rows.len(),
            engines,
            time_ratio: pair(&|r| run_time(r, self.cap)),
            node_ratio: pair(&run_nodes),
        }
    }

    /// All positions, then by attacker, by split, by league, and (with both splits) by league
    /// and split where the group has positions, each in sorted order.
    pub fn groups(&self) -> Vec<Group> {
        let mut out = vec![self.group("all", |_| true)];
        let mut attackers: Vec<_> = self.rows.iter().map(|r| r.position.attacker).collect();
        attackers.sort();
        attackers.dedup();
        for a in attackers {
            out.push(self.group(&format!("attacker {}", a.name()), |p| p.attacker == a));
        }
        let mut splits: Vec<_> = self.rows.iter().map(|r| r.position.split).collect();
        splits.sort();
        splits.dedup();
        for &s in &splits {
            out.push(self.group(&format!("split {}", s.name()), |p| p.split == s));
        }
        let mut leagues: Vec<String> = self.rows.iter().map(|r| r.position.league()).collect();
        leagues.sort();
        leagues.dedup();
        for l in &leagues {
            out.push(self.group(l, |p| p.league() == *l));
        }
        if splits.len() > 1 {
            for l in &leagues {
                for &s in &splits {
                    let name = format!("{l} {}", s.name());
                    let group = self.group(&name, |p| p.league() == *l && p.split == s);
                    if group.positions > 0 {
                        out.push(group);
                    }
                }
            }
        }
        out
    }

    /// The totals as a table, with a line on how they count.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} positions, cap {:.3} s. time and nodes: geometric means to the first proven win, \
             a position without one counted at the cap (time) or at all its nodes; ratio: {} over {}.\n",
            self.rows.len(),
            self.cap.as_secs_f64(),
            self.engines.first().map_or("-", String::as_str),
            self.engines.get(1).map_or("-", String::as_str),
        );
        s.push_str(&format!("{:<26} {:>5}", "group", "n"));
        for name in &self.engines {
            s.push_str(&format!(
                "  {:>9} {:>9} {:>8}",
                format!("{name:.9}"),
                "time",
                "nodes"
            ));
        }
        if self.engines.len() > 1 {
            s.push_str(&format!("  {:>10} {:>10}", "time ratio", "node ratio"));
        }
        s.push('\n');
        for g in self.groups() {
            s.push_str(&format!("{:<26} {:>5}", g.name, g.positions));
            for e in &g.engines {
                let mut found = format!("{}/{}", e.found, e.ran);
                if e.errors > 0 {
                    found.push('*');
                }
                s.push_str(&format!(
                    "  {:>9} {:>9} {:>8}",
                    found,
                    e.time_geomean
                        .map_or("-".to_string(), |t| format!("{t:.3} s")),
                    e.nodes_geomean.map_or("-".to_string(), |n| count(n as u64)),
                ));
            }
            if self.engines.len() > 1 {
                let ratio = |r: Option<f64>| r.map_or("-".to_string(), |v| format!("{v:.2}"));
                s.push_str(&format!(
                    "  {:>10} {:>10}",
                    ratio(g.time_ratio),
                    ratio(g.node_ratio)
                ));
            }
            s.push('\n');
        }
        let all = self.group("all", |_| true);
        for (e, name) in all.engines.iter().zip(&self.engines) {
            if e.errors > 0 {
                s.push_str(&format!(
                    "* {name} failed on {} positions, which its figures leave out\n",
                    e.errors
                ));
            }
        }
        let losses: Vec<String> = self
            .rows
            .iter()
            .flat_map(|r| {
                r.runs
                    .iter()
                    .zip(&self.engines)
                    .filter(|(run, _)| run.claimed_loss)
                    .map(move |(_, name)| format!("{} ({name})", r.position.id))
            })
            .collect();
        if !losses.is_empty() {
            s.push_str(&format!(
                "proven loss claimed for the side to move: {}\n",
                losses.join(", ")
            ));
        }
        s
    }

    /// One position's line: its id, league, announced length, then each engine's result.
    pub fn row_text(&self, row: &Row) -> String {
        let p = &row.position;
        let mut s = format!(
            "{:<22} {:<16} {:<8} {:>3}",
            p.id,
            p.league(),
            p.attacker.name(),
            p.plies
        );
        for (run, name) in row.runs.iter().zip(&self.engines) {
            s.push_str(&format!("  {name}: {}", run_text(run)));
        }
        s
    }

    /// The whole report as one JSON object: the settings, every position with each engine's
    /// run, and the groups' totals.
    pub fn json(&self) -> String {
        let engines: Vec<String> = self.engines.iter().map(|e| json_string(e)).collect();
        let rows: Vec<String> = self.rows.iter().map(|r| self.row_json(r)).collect();
        let groups: Vec<String> = self.groups().iter().map(group_json).collect();
        format!(
            "{{\"cap_ms\":{},\"engines\":[{}],\"positions\":[{}],\"groups\":[{}]}}",
            self.cap.as_millis(),
            engines.join(","),
            rows.join(","),
            groups.join(",")
        )
    }

    fn row_json(&self, row: &Row) -> String {
        let p = &row.position;
        let runs: Vec<String> = row
            .runs
            .iter()
            .zip(&self.engines)
            .map(|(run, name)| run_json(run, name))
            .collect();
        format!(
            "{{\"id\":{},\"league\":{},\"rule\":{},\"width\":{},\"height\":{},\"split\":{},\"attacker\":{},\"plies\":{},\"source\":{},\"runs\":[{}]}}",
            json_string(&p.id),
            json_string(&p.league()),
            json_string(p.rule.name()),
            p.width,
            p.height,
            json_string(p.split.name()),
            json_string(p.attacker.name()),
            p.plies,
            json_string(&p.source),
            runs.join(",")
        )
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64() * 1000.0)
}

fn opt<T: ToString>(v: Option<T>) -> String {
    v.map_or("null".to_string(), |v| v.to_string())
}

fn run_json(run: &MateRun, name: &str) -> String {
    let f = run.found.as_ref();
    format!(
        "{{\"engine\":{},\"found\":{},\"time_ms\":{},\"nodes\":{},\"plies\":{},\"move\":{},\"elapsed_ms\":{},\"total_nodes\":{},\"claimed_loss\":{},\"error\":{}}}",
        json_string(name),
        f.is_some(),
        f.map_or("null".to_string(), |f| ms(f.elapsed)),
        opt(f.and_then(|f| f.nodes)),
        opt(f.and_then(|f| f.plies)),
        f.and_then(|f| f.first_move)
            .map_or("null".to_string(), |p| json_string(&p.name())),
        ms(run.elapsed),
        opt(run.nodes),
        run.claimed_loss,
        run.error.as_deref().map_or("null".to_string(), json_string),
    )
}

fn group_json(g: &Group) -> String {
    let engines: Vec<String> = g
        .engines
        .iter()
        .map(|e| {
            format!(
                "{{\"ran\":{},\"found\":{},\"errors\":{},\"claimed_loss\":{},\"time_geomean_ms\":{},\"nodes_geomean\":{}}}",
                e.ran,
                e.found,
                e.errors,
                e.claimed_loss,
                json_number(e.time_geomean.map(|t| t * 1000.0)),
                json_number(e.nodes_geomean),
            )
        })
        .collect();
    format!(
        "{{\"name\":{},\"positions\":{},\"engines\":[{}],\"time_ratio\":{},\"node_ratio\":{}}}",
        json_string(&g.name),
        g.positions,
        engines.join(","),
        json_number(g.time_ratio),
        json_number(g.node_ratio)
    )
}

/// A node count in a few characters: `950`, `12K`, `3.4M`.
fn count(n: u64) -> String {
    match n {
        0..=9_999 => n.to_string(),
        10_000..=9_999_999 => format!("{}K", n / 1000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// One run in a few words: `0.412 s 123K (13)`, or `- (3.000 s 4.1M)` without a win.
fn run_text(run: &MateRun) -> String {
    if let Some(e) = &run.error {
        return format!("failed: {e}");
    }
    let nodes = |n: Option<u64>| n.map_or("?".to_string(), count);
    let mut s = match &run.found {
        Some(f) => format!(
            "{:.3} s {} ({})",
            f.elapsed.as_secs_f64(),
            nodes(f.nodes),
            f.plies.map_or("?".to_string(), |p| p.to_string())
        ),
        None => format!(
            "- ({:.3} s {})",
            run.elapsed.as_secs_f64(),
            nodes(run.nodes)
        ),
    };
    if run.claimed_loss {
        s.push_str(" claims a loss");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::{notation, Rule};
    use wuzi_search::bench::mates::{Attacker, Found, Split};

    fn position(id: &str, rule: Rule, split: Split) -> MatePosition {
        MatePosition {
            id: id.into(),
            split,
            attacker: Attacker::Sparring,
            rule,
            width: 15,
            height: 15,
            plies: 9,
            source: "test".into(),
            game: None,
            moves: notation::parse_moves("h8i9").expect("moves"),
        }
    }

    fn found(ms: u64, nodes: u64) -> MateRun {
        MateRun {
            found: Some(Found {
                elapsed: Duration::from_millis(ms),
                nodes: Some(nodes),
                plies: Some(9),
                first_move: None,
            }),
            elapsed: Duration::from_millis(ms),
            nodes: Some(nodes),
            ..MateRun::default()
        }
    }

    fn missed(nodes: u64) -> MateRun {
        MateRun {
            elapsed: Duration::from_millis(2500),
            nodes: Some(nodes),
            ..MateRun::default()
        }
    }

    #[test]
    fn totals_count_misses_at_the_cap() {
        let report = MatesReport {
            engines: vec!["a".into(), "b".into()],
            cap: Duration::from_secs(1),
            rows: vec![
                Row {
                    position: position("p1", Rule::Freestyle, Split::Train),
                    runs: vec![found(100, 1000), found(10, 100)],
                },
                Row {
                    position: position("p2", Rule::Freestyle, Split::HeldOut),
                    runs: vec![missed(40_000), found(250, 1000)],
                },
                Row {
                    position: position("p3", Rule::Renju, Split::Train),
                    runs: vec![
                        found(0, 10),
                        MateRun {
                            error: Some("crashed".into()),
                            ..MateRun::default()
                        },
                    ],
                },
            ],
        };
        let all = report.group("all", |_| true);
        assert_eq!(all.positions, 3);
        let (a, b) = (&all.engines[0], &all.engines[1]);
        assert_eq!((a.ran, a.found, a.errors), (3, 2, 0));
        assert_eq!((b.ran, b.found, b.errors), (2, 2, 1));
        // a: 0.1 s, 1 s (the cap, not its 2.5 s), 0.001 s (0 counted as 1 ms).
        let close = |x: Option<f64>, y: f64| x.is_some_and(|x| (x - y).abs() < 1e-9 * y.max(1.0));
        assert!(close(a.time_geomean, (0.1f64 * 1.0 * 0.001).cbrt()));
        assert!(close(b.time_geomean, (0.01f64 * 0.25).sqrt()));
        assert!(close(a.nodes_geomean, (1000.0f64 * 40_000.0 * 10.0).cbrt()));
        // Ratios over p1 and p2 only (p3 failed for b): 10 and 4.
        assert!(close(all.time_ratio, (10.0f64 * 4.0).sqrt()));
        assert!(close(all.node_ratio, (10.0f64 * 40.0).sqrt()));
        let names: Vec<String> = report.groups().into_iter().map(|g| g.name).collect();
        assert_eq!(
            names,
            [
                "all",
                "attacker sparring",
                "split train",
                "split held-out",
                "freestyle 15x15",
                "renju 15x15",
                "freestyle 15x15 train",
                "freestyle 15x15 held-out",
                "renju 15x15 train",
            ]
        );
        let text = report.text();
        assert!(text.contains("3 positions, cap 1.000 s"), "{text}");
        assert!(text.contains("2/2*"), "{text}");
        assert!(text.contains("* b failed on 1 positions"), "{text}");
        let json = report.json();
        assert!(json.starts_with("{\"cap_ms\":1000,\"engines\":[\"a\",\"b\"],"));
        assert!(json.contains("\"error\":\"crashed\""));
        assert!(json.contains("\"name\":\"renju 15x15\",\"positions\":1"));
        assert!(report
            .row_text(&report.rows[1])
            .contains("a: - (2.500 s 40K)"));
    }

    #[test]
    fn one_engine_has_no_ratio() {
        let report = MatesReport {
            engines: vec!["a".into()],
            cap: Duration::from_secs(1),
            rows: vec![Row {
                position: position("p1", Rule::Freestyle, Split::Train),
                runs: vec![found(100, 1000)],
            }],
        };
        let g = report.group("all", |_| true);
        assert_eq!((g.time_ratio, g.node_ratio), (None, None));
        assert!(!report.text().contains("time ratio"));
    }
}
