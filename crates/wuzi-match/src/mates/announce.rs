//! Reading an engine's search progress for what the mate bench and the suite builder need: a
//! proven result (a mate) for the side to move, and the time and nodes searched so far.
//!
//! Three forms are read, each where it is recognised; any other line says nothing:
//! - wuzi's progress line, `depth 7-12 ev 29987 n 123K n/ms 410 tm 301 pv h8 i9`
//!   (`wuzi_protocol::SearchInfo`): a score of `WIN_MIN` or more is a win in `WIN - score`
//!   plies, `-WIN_MIN` or less a loss;
//! - the `|`-separated lines of the sparring engine and its kin, `Depth 14-28 | Eval +M13 |
//!   Time 12ms | H8 I9` and the closing `Speed 843K | Depth 19-17 | Eval 7 | Node 367K | Time
//!   435ms`: `+M13` is a win in 13 plies, `-M12` a loss in 12, `+M*` and `-M*` of unknown
//!   length; `Time` in `ms`, `s`, `min` or `h`; `Node` as `367K`, `12M`, ...;
//! - the Yixin-Board detail block (`INFO show_detail 2`), raw `INFO` lines from `INFO PV 0` to
//!   `INFO PV DONE` with `INFO EVAL +M13` (or a number), `INFO TOTALNODES` and `INFO
//!   TOTALTIME` (ms) exactly: read by [`DetailReader`], best line (`PV 0`) only.
//!
//! Both `MESSAGE` forms are read from the line's text after `MESSAGE `.

use wuzi_core::Point;
use wuzi_protocol::{parse_nodes, SearchInfo};
use wuzi_search::{WIN, WIN_MIN};

/// A proven result for the side to move, with its length in plies where told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mate {
    Win(Option<u32>),
    Loss(Option<u32>),
}

/// What one progress report says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    pub mate: Option<Mate>,
    /// Milliseconds since the search started.
    pub time_ms: Option<u64>,
    /// Nodes searched so far.
    pub nodes: Option<u64>,
    /// The first move of the reported line.
    pub first_move: Option<Point>,
}

/// A wuzi score as a mate, if it is a proven result.
pub fn mate_of_score(score: i32) -> Option<Mate> {
    let plies = |s: i32| u32::try_from(WIN - s).ok();
    if (WIN_MIN..=WIN).contains(&score) {
        Some(Mate::Win(plies(score)))
    } else if (-WIN..=-WIN_MIN).contains(&score) {
        Some(Mate::Loss(plies(-score)))
    } else {
        None
    }
}

/// `+M13`, `-M12`, `+M*`, `-M*`: a mate; a plain number: no mate (`Some(None)`); anything
/// else: not a value (`None`).
fn parse_value(text: &str) -> Option<Option<Mate>> {
    let t = text.trim();
    let mate = |rest: &str| match rest {
        "*" => Some(None),
        n => n.parse::<u32>().ok().map(Some),
    };
    if let Some(rest) = t.strip_prefix("+M") {
        return mate(rest).map(|n| Some(Mate::Win(n)));
    }
    if let Some(rest) = t.strip_prefix("-M") {
        return mate(rest).map(|n| Some(Mate::Loss(n)));
    }
    t.parse::<i64>().ok().map(|_| None)
}

/// `12ms`, `3s`, `2min`, `1h` (or plain milliseconds) in milliseconds.
fn parse_time(text: &str) -> Option<u64> {
    let t = text.trim();
    let (digits, scale) = if let Some(d) = t.strip_suffix("ms") {
        (d, 1)
    } else if let Some(d) = t.strip_suffix("min") {
        (d, 60_000)
    } else if let Some(d) = t.strip_suffix('s') {
        (d, 1_000)
    } else if let Some(d) = t.strip_suffix('h') {
        (d, 3_600_000)
    } else {
        (t, 1)
    };
    digits.trim().parse::<u64>().ok()?.checked_mul(scale)
}

/// Node counts with the suffixes both engines write (`K`, `M`, `G`, `T`).
fn parse_count(text: &str) -> Option<u64> {
    let t = text.trim();
    match t.strip_suffix(['T', 't']) {
        Some(d) => d.parse::<u64>().ok()?.checked_mul(1_000_000_000_000),
        None => parse_nodes(t),
    }
}

/// The first point of a line of moves such as `H8 I9` or `[H8] [I9]`.
fn first_point(words: &str) -> Option<Point> {
    let word = words.split_whitespace().next()?;
    let name = word.trim_matches(|c: char| !c.is_ascii_alphanumeric());
    Point::parse_name(name).ok()
}

/// Reads the text of a `MESSAGE` line (without `MESSAGE `): wuzi's form or the `|` form.
pub fn parse_message(text: &str) -> Option<Progress> {
    if let Ok(info) = text.parse::<SearchInfo>() {
        if info.multipv.is_some_and(|k| k != 1) {
            return None;
        }
        return Some(Progress {
            mate: mate_of_score(info.score),
            time_ms: Some(info.time_ms),
            nodes: Some(info.nodes),
            first_move: info.pv.first().and_then(|c| c.to_point(256, 256)),
        });
    }
    let fields: Vec<&str> = text.split('|').map(str::trim).collect();
    // Pondering lines (`[Pondering] Depth ...`) are about another position: not read.
    let leads = fields
        .first()
        .is_some_and(|f| f.starts_with("Depth ") || f.starts_with("Speed "));
    if !leads {
        return None;
    }
    let mut progress = Progress::default();
    let mut has_value = false;
    for field in &fields {
        if let Some(v) = field.strip_prefix("Eval ") {
            progress.mate = parse_value(v)?;
            has_value = true;
        } else if let Some(v) = field.strip_prefix("Time ") {
            progress.time_ms = parse_time(v);
        } else if let Some(v) = field.strip_prefix("Node ") {
            progress.nodes = parse_count(v);
        }
    }
    if fields.len() >= 4 && fields[0].starts_with("Depth ") {
        progress.first_move = fields.last().and_then(|f| first_point(f));
    }
    has_value.then_some(progress)
}

/// Reads the Yixin-Board detail block line by line.
#[derive(Debug, Default)]
pub struct DetailReader {
    /// Inside the block of the best line (`INFO PV 0`).
    open: bool,
    current: Progress,
    has_value: bool,
}

impl DetailReader {
    pub fn new() -> DetailReader {
        DetailReader::default()
    }

    /// Takes one raw line; returns the block's report at its `INFO PV DONE`.
    pub fn line(&mut self, raw: &str) -> Option<Progress> {
        let rest = raw.trim().strip_prefix("INFO ")?;
        let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim();
        match key.to_ascii_uppercase().as_str() {
            "PV" if value.eq_ignore_ascii_case("DONE") => {
                let done = std::mem::take(&mut self.current);
                let report = (self.open && self.has_value).then_some(done);
                self.open = false;
                self.has_value = false;
                report
            }
            "PV" => {
                self.open = value == "0";
                self.current = Progress::default();
                self.has_value = false;
                None
            }
            _ if !self.open => None,
            "EVAL" => {
                if let Some(mate) = parse_value(value) {
                    self.current.mate = mate;
                    self.has_value = true;
                }
                None
            }
            "TOTALNODES" => {
                self.current.nodes = value.parse().ok();
                None
            }
            "TOTALTIME" => {
                self.current.time_ms = value.parse().ok();
                None
            }
            "BESTLINE" => {
                self.current.first_move = first_point(value);
                None
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wuzi_lines() {
        let p = parse_message("depth 9-21 ev 29987 n 123K n/ms 410 tm 301 pv h8 i9").expect("read");
        assert_eq!(p.mate, Some(Mate::Win(Some(13))));
        assert_eq!((p.time_ms, p.nodes), (Some(301), Some(123_000)));
        assert_eq!(p.first_move, Some(Point::new(7, 7)));
        let p = parse_message("depth 9-21 ev -29990 n 5000 n/ms 4 tm 3 pv a1").expect("read");
        assert_eq!(p.mate, Some(Mate::Loss(Some(10))));
        let p = parse_message("depth 9-21 ev 28999 n 5000 n/ms 4 tm 3 pv a1").expect("read");
        assert_eq!(p.mate, None);
        assert_eq!(
            parse_message("depth 9-21 multipv 2 ev 29990 n 5000 n/ms 4 tm 3 pv a1"),
            None
        );
    }

    #[test]
    fn bar_lines() {
        let p = parse_message("Depth 14-28 | Eval +M13 | Time 12ms | H10 I9 J8").expect("read");
        assert_eq!(p.mate, Some(Mate::Win(Some(13))));
        assert_eq!(p.time_ms, Some(12));
        assert_eq!(p.nodes, None);
        assert_eq!(p.first_move, Some(Point::new(7, 9)));
        let p = parse_message("Depth 20-30 | Eval -M12 | Time 12s | H10").expect("read");
        assert_eq!(p.mate, Some(Mate::Loss(Some(12))));
        assert_eq!(p.time_ms, Some(12_000));
        let p = parse_message("Depth 3-5 | Eval -142 | Time 0ms | I6 F8 E8").expect("read");
        assert_eq!(p.mate, None);
        let p = parse_message("Speed 843K | Depth 19-17 | Eval +M* | Node 367K | Time 435ms")
            .expect("read");
        assert_eq!(p.mate, Some(Mate::Win(None)));
        assert_eq!((p.nodes, p.time_ms), (Some(367_000), Some(435)));
        for other in [
            "OptiTime 423ms | MaxTime 470ms",
            "Load config from somewhere",
            "(1) 35 | 14-28 | H8",
            "[Pondering] Depth 3-5 | Eval +M3 | Time 0ms | H8",
            "Depth 3-5 | Eval lots | Time 0ms | H8",
            "",
        ] {
            assert_eq!(parse_message(other), None, "{other:?}");
        }
    }

    #[test]
    fn detail_blocks() {
        let mut r = DetailReader::new();
        let block = |pv: &str, eval: &str| {
            vec![
                format!("INFO PV {pv}"),
                "INFO NUMPV 1".into(),
                "INFO DEPTH 12".into(),
                "INFO TOTALNODES 123456".into(),
                "INFO TOTALTIME 87".into(),
                format!("INFO EVAL {eval}"),
                "INFO BESTLINE [H8] [I9]".into(),
                "INFO PV DONE".into(),
            ]
        };
        let reports: Vec<Progress> = block("0", "+M17")
            .iter()
            .chain(&block("1", "+M21"))
            .chain(&block("0", "35"))
            .filter_map(|l| r.line(l))
            .collect();
        assert_eq!(
            reports,
            vec![
                Progress {
                    mate: Some(Mate::Win(Some(17))),
                    time_ms: Some(87),
                    nodes: Some(123_456),
                    first_move: Some(Point::new(7, 7)),
                },
                Progress {
                    mate: None,
                    time_ms: Some(87),
                    nodes: Some(123_456),
                    first_move: Some(Point::new(7, 7)),
                },
            ]
        );
        // A block without a value reports nothing.
        assert_eq!(r.line("INFO PV 0"), None);
        assert_eq!(r.line("INFO PV DONE"), None);
        assert_eq!(r.line("MESSAGE hi"), None);
    }
}
