//! The results file of a match or tournament: one line per finished game, appended and
//! flushed as each game ends, so that an interrupted run can be resumed from it and the files
//! of a schedule's shards merged.
//!
//! The file starts with two comment lines; every other line is a game, its fields separated
//! by tabs (shown here as spaces):
//!
//! ```text
//! # wuzi results 2: game black white result reason size rule opening moves time
//! # schedule 5e1f0c2a9b3d7781: 120 games, shard 2/3
//! 12 alpha beta 1-0 five 15x15 freestyle 2 h8i9j10i10... 5210,4877
//! ```
//!
//! `game` is the 1-based number in the schedule, `result` is from Black's side (`1-0` Black
//! won, `0-1` White won, `1/2` a draw), `reason` the end reason's key (see `EndReason::key`),
//! `opening` how many of the moves are the opening, `moves` the whole game in letter-number
//! notation run together, and `time` the thinking time of Black and White in milliseconds.
//! The schedule line names the schedule ([`crate::schedule::ScheduleId`]: its fingerprint and
//! number of games) and the shard of it that the file holds.
//!
//! Version 1 files (no `time` field, no schedule line) are read too.
//!
//! Every line ends with a line break: a last line without one was cut short when its run was
//! stopped. Reading to resume ([`parse_results`]) skips and reports lines that cannot be read
//! (their games are played again) and [`ResultsFile::open`] removes a cut last line before it
//! appends. Reading to merge ([`read_strict`]) refuses any such line.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use thiserror::Error;
use wuzi_core::notation::{format_moves, parse_moves, parse_size};
use wuzi_core::shard::Shard;
use wuzi_core::{Color, Point, Rule};

use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::game::{EndReason, GameResult};

/// The first line of every results file this version writes.
pub const HEADER: &str =
    "# wuzi results 2: game black white result reason size rule opening moves time";
/// How the first line of a results file of any version starts.
pub const HEADER_START: &str = "# wuzi results ";
/// How the schedule line starts.
pub const SCHEDULE_START: &str = "# schedule ";

/// Why results files cannot be read or merged.
#[derive(Debug, Error)]
pub enum ResultsError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} is not a wuzi results file (it does not start with \"{HEADER_START}\")")]
    NotResults { path: String },
    #[error("{path}:{line}: damaged line: {why}")]
    Damaged {
        path: String,
        line: usize,
        why: String,
    },
    #[error("{path}:{line}: the last line is cut short (its run was stopped while writing it); run that shard again to resume it")]
    Truncated { path: String, line: usize },
    #[error("{path} has no schedule line (written by an older wuzi, or not by wuzi); it cannot be checked against this schedule")]
    NoSchedule { path: String },
    #[error("{path} belongs to another schedule ({found}; these settings make {expected}): were its shards run with other engines, options, openings, --games, --seed or time control?")]
    OtherSchedule {
        path: String,
        found: String,
        expected: String,
    },
    #[error("{first} and {second} are both shard {shard}: a shard given twice?")]
    DuplicateShard {
        shard: Shard,
        first: String,
        second: String,
    },
    #[error("game {game} is in {first} and again in {second}: a game may be merged once")]
    DuplicateGame {
        game: usize,
        first: String,
        second: String,
    },
    #[error("{path}:{line}: game {game} {why}")]
    DoesNotFit {
        path: String,
        line: usize,
        game: usize,
        why: String,
    },
}

/// The schedule line: which schedule a file belongs to, and which shard of it it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduleLine {
    /// The schedule's fingerprint (`ScheduleId::fingerprint`).
    pub fingerprint: u64,
    /// Games in the whole schedule.
    pub games: usize,
    pub shard: Shard,
}

impl ScheduleLine {
    /// `# schedule 5e1f0c2a9b3d7781: 120 games, shard 2/3`.
    pub fn to_line(&self) -> String {
        format!(
            "{SCHEDULE_START}{:016x}: {} games, shard {}",
            self.fingerprint, self.games, self.shard
        )
    }

    /// The schedule without the shard, as errors name it.
    pub fn describe(&self) -> String {
        format!("schedule {:016x} of {} games", self.fingerprint, self.games)
    }

    /// Reads a line that starts with [`SCHEDULE_START`].
    pub fn parse(line: &str) -> Result<ScheduleLine, String> {
        let bad = || format!("\"{line}\" is no schedule line");
        let rest = line.strip_prefix(SCHEDULE_START).ok_or_else(bad)?;
        let (hex, rest) = rest.split_once(": ").ok_or_else(bad)?;
        let (games, shard) = rest.split_once(" games, shard ").ok_or_else(bad)?;
        if hex.len() != 16 {
            return Err(bad());
        }
        Ok(ScheduleLine {
            fingerprint: u64::from_str_radix(hex, 16).map_err(|_| bad())?,
            games: games.parse().map_err(|_| bad())?,
            shard: shard.parse().map_err(|e| format!("{}: {e}", bad()))?,
        })
    }
}

/// One finished game of a match or tournament, engines named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// 0-based number in the schedule.
    pub index: usize,
    pub black: String,
    pub white: String,
    /// The winning colour; `None` for a draw.
    pub winner: Option<Color>,
    /// The end reason's key.
    pub reason: String,
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub opening_len: usize,
    pub moves: Vec<Point>,
    /// Thinking time of Black and White in milliseconds (`None` in version 1 files).
    pub time_ms: Option<[u64; 2]>,
}

impl GameRecord {
    /// The record of a game of a match between engines named `names` (by engine id).
    pub fn of(g: &GameResult, names: [&str; 2], cfg: &MatchConfig) -> GameRecord {
        let ms = |c: Color| g.time_used[g.engine_of(c)].as_millis() as u64;
        GameRecord {
            index: g.index,
            black: names[g.engine_of(Color::Black)].to_string(),
            white: names[g.engine_of(Color::White)].to_string(),
            winner: g.winner,
            reason: g.reason.key().to_string(),
            width: cfg.width,
            height: cfg.height,
            rule: cfg.rule,
            opening_len: g.opening_len,
            moves: g.moves.iter().map(|m| m.point).collect(),
            time_ms: Some([ms(Color::Black), ms(Color::White)]),
        }
    }

    /// The result from Black's side: `1-0`, `0-1` or `1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2",
        }
    }

    /// The name of the winning engine, if any.
    pub fn winner_name(&self) -> Option<&str> {
        self.winner.map(|c| match c {
            Color::Black => self.black.as_str(),
            Color::White => self.white.as_str(),
        })
    }

    /// The record as one line (without its line break).
    pub fn to_line(&self) -> String {
        let mut line = format!(
            "{}\t{}\t{}\t{}\t{}\t{}x{}\t{}\t{}\t{}",
            self.index + 1,
            self.black,
            self.white,
            self.result_text(),
            self.reason,
            self.width,
            self.height,
            self.rule,
            self.opening_len,
            format_moves(&self.moves)
        );
        if let Some([b, w]) = self.time_ms {
            line.push_str(&format!("\t{b},{w}"));
        }
        line
    }

    /// Reads one line (9 fields in version 1, 10 in version 2); the error says what is wrong
    /// with it.
    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let (game, black, white, result, reason, size, rule, opening, moves, time) = match fields[..]
        {
            [g, b, w, r, why, s, rule, o, m] => (g, b, w, r, why, s, rule, o, m, None),
            [g, b, w, r, why, s, rule, o, m, t] => (g, b, w, r, why, s, rule, o, m, Some(t)),
            _ => {
                return Err(format!(
                    "{} fields where 9 or 10 were expected",
                    fields.len()
                ))
            }
        };
        let index = game
            .parse::<usize>()
            .ok()
            .and_then(|g| g.checked_sub(1))
            .ok_or_else(|| format!("\"{game}\" is no game number"))?;
        let winner = match result {
            "1-0" => Some(Color::Black),
            "0-1" => Some(Color::White),
            "1/2" => None,
            other => return Err(format!("\"{other}\" is no result (1-0, 0-1, 1/2)")),
        };
        let (width, height) = parse_size(size).map_err(|e| e.to_string())?;
        let rule: Rule = rule.parse()?;
        let opening_len = opening
            .parse()
            .map_err(|_| format!("\"{opening}\" is no opening length"))?;
        let moves = parse_moves(moves).map_err(|e| e.to_string())?;
        if opening_len > moves.len() {
            return Err("the opening is longer than the game".into());
        }
        if moves
            .iter()
            .any(|p| p.x as usize >= width || p.y as usize >= height)
        {
            return Err("a move lies off the board".into());
        }
        if black.is_empty() || white.is_empty() || reason.is_empty() {
            return Err("an empty field".into());
        }
        if black == white {
            return Err(format!("\"{black}\" plays both colours"));
        }
        let key =
            EndReason::known_key(reason).ok_or_else(|| format!("\"{reason}\" is no end reason"))?;
        if EndReason::key_is_draw(key) != winner.is_none() {
            return Err(format!(
                "the result {result} does not go with the reason {reason}"
            ));
        }
        let time_ms = match time {
            None => None,
            Some(t) => {
                let pair = t.split_once(',').and_then(|(b, w)| {
                    let ms = |s: &str| {
                        (!s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()))
                            .then(|| s.parse::<u64>().ok())
                            .flatten()
                    };
                    Some([ms(b)?, ms(w)?])
                });
                Some(pair.ok_or_else(|| format!("\"{t}\" is no pair of thinking times"))?)
            }
        };
        Ok(GameRecord {
            index,
            black: black.to_string(),
            white: white.to_string(),
            winner,
            reason: key.to_string(),
            width,
            height,
            rule,
            opening_len,
            moves,
            time_ms,
        })
    }
}

/// The games read from a results file (to resume it), the lines that could not be read
/// (1-based line number and why), and its schedule line if it has one.
#[derive(Debug, Default)]
pub struct ReadResults {
    pub games: Vec<GameRecord>,
    pub skipped: Vec<(usize, String)>,
    pub schedule: Option<ScheduleLine>,
}

/// The lines of a text, each with its 1-based number and whether a line break ends it.
fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str, bool)> {
    text.split_inclusive('\n').enumerate().map(|(i, raw)| {
        let ended = raw.ends_with('\n');
        let line = raw.trim_end_matches('\n').trim_end_matches('\r');
        (i + 1, line, ended)
    })
}

/// Reads a results file's text to resume it: unreadable lines, a cut last line among them,
/// are skipped and reported.
pub fn parse_results(text: &str) -> ReadResults {
    let mut out = ReadResults::default();
    for (number, line, ended) in numbered_lines(text) {
        if !ended {
            if !line.trim().is_empty() {
                out.skipped
                    .push((number, "cut short (the line has no end)".to_string()));
            }
            continue;
        }
        if line.starts_with(SCHEDULE_START) {
            match (ScheduleLine::parse(line), out.schedule) {
                (Ok(s), None) => out.schedule = Some(s),
                (Ok(s), Some(first)) if s == first => {}
                (Ok(_), Some(_)) => out
                    .skipped
                    .push((number, "a second, different schedule line".to_string())),
                (Err(why), _) => out.skipped.push((number, why)),
            }
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match GameRecord::parse(line) {
            Ok(g) => out.games.push(g),
            Err(why) => out.skipped.push((number, why)),
        }
    }
    out
}

fn read_text(path: &Path) -> Result<String, ResultsError> {
    std::fs::read_to_string(path).map_err(|source| ResultsError::Read {
        path: path.display().to_string(),
        source,
    })
}

/// Reads a results file to resume it ([`parse_results`]).
pub fn read_results(path: &Path) -> Result<ReadResults, MatchError> {
    Ok(parse_results(&read_text(path)?))
}

/// A results file read to be merged: every line whole and readable.
#[derive(Debug)]
pub struct StrictRead {
    pub schedule: Option<ScheduleLine>,
    /// Each game with its 1-based line number.
    pub games: Vec<(usize, GameRecord)>,
}

/// Reads a results file to merge it: a file that does not start with a results header, a
/// line that cannot be read, a second schedule line or a cut last line is an error.
pub fn read_strict(path: &Path) -> Result<StrictRead, ResultsError> {
    let shown = path.display().to_string();
    let text = read_text(path)?;
    if !text.starts_with(HEADER_START) {
        return Err(ResultsError::NotResults { path: shown });
    }
    let mut out = StrictRead {
        schedule: None,
        games: Vec::new(),
    };
    let damaged = |line: usize, why: String| ResultsError::Damaged {
        path: shown.clone(),
        line,
        why,
    };
    for (number, line, ended) in numbered_lines(&text) {
        if !ended {
            return Err(ResultsError::Truncated {
                path: shown.clone(),
                line: number,
            });
        }
        if line.starts_with(SCHEDULE_START) {
            let s = ScheduleLine::parse(line).map_err(|why| damaged(number, why))?;
            if out.schedule.is_some_and(|first| first != s) {
                return Err(damaged(number, "a second, different schedule line".into()));
            }
            out.schedule = Some(s);
            continue;
        }
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let g = GameRecord::parse(line).map_err(|why| damaged(number, why))?;
        out.games.push((number, g));
    }
    Ok(out)
}

/// A results file open for appending.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens the file for appending. In an existing file a last line cut short (no line
    /// break) is removed first; a new or then empty file gets the header and, when given, the
    /// schedule line. The cut line goes so that the next record starts on a line of its own
    /// and the file holds whole lines only; the game it held was skipped when the file was
    /// read to resume, and is played again.
    pub fn open(path: &Path, schedule: Option<&ScheduleLine>) -> Result<ResultsFile, MatchError> {
        let io = |source| MatchError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        // Where the last whole line ends: after the last line break.
        let mut keep = len;
        let mut buf = [0u8; 4096];
        while keep > 0 {
            let from = keep.saturating_sub(buf.len() as u64);
            let chunk = &mut buf[..(keep - from) as usize];
            file.seek(SeekFrom::Start(from)).map_err(io)?;
            file.read_exact(chunk).map_err(io)?;
            if let Some(at) = chunk.iter().rposition(|&b| b == b'\n') {
                keep = from + at as u64 + 1;
                break;
            }
            keep = from;
        }
        if keep < len {
            file.set_len(keep).map_err(io)?;
        }
        if keep == 0 {
            let mut head = format!("{HEADER}\n");
            if let Some(s) = schedule {
                head.push_str(&s.to_line());
                head.push('\n');
            }
            file.write_all(head.as_bytes()).map_err(io)?;
        }
        file.flush().map_err(io)?;
        Ok(ResultsFile {
            path: path.to_path_buf(),
            file,
        })
    }

    /// Appends one game and flushes it to the file.
    pub fn append(&mut self, g: &GameRecord) -> Result<(), MatchError> {
        let line = format!("{}\n", g.to_line());
        self.file
            .write_all(line.as_bytes())
            .and_then(|_| self.file.flush())
            .map_err(|source| MatchError::Io {
                path: self.path.display().to_string(),
                source,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            index: 11,
            black: "alpha".into(),
            white: "beta".into(),
            winner: Some(Color::White),
            reason: "time".into(),
            width: 20,
            height: 15,
            rule: Rule::Renju,
            opening_len: 1,
            moves: vec![Point::new(7, 7), Point::new(19, 14), Point::new(0, 0)],
            time_ms: Some([1234, 5]),
        }
    }

    #[test]
    fn lines_round_trip() {
        let g = record();
        let line = g.to_line();
        assert_eq!(
            line,
            "12\talpha\tbeta\t0-1\ttime\t20x15\trenju\t1\th8t15a1\t1234,5"
        );
        assert_eq!(GameRecord::parse(&line), Ok(g.clone()));
        // A version 1 line: no thinking times.
        let v1 = "12\talpha\tbeta\t0-1\ttime\t20x15\trenju\t1\th8t15a1";
        let old = GameRecord::parse(v1).unwrap();
        assert_eq!(old.time_ms, None);
        assert_eq!(old.to_line(), v1);
        assert_eq!(GameRecord { time_ms: None, ..g }, old);
    }

    #[test]
    fn schedule_lines_round_trip() {
        let s = ScheduleLine {
            fingerprint: 0x5e1f_0c2a_9b3d_7781,
            games: 120,
            shard: Shard::new(2, 3).unwrap(),
        };
        let line = s.to_line();
        assert_eq!(line, "# schedule 5e1f0c2a9b3d7781: 120 games, shard 2/3");
        assert_eq!(ScheduleLine::parse(&line), Ok(s));
        for bad in [
            "# schedule 5e1f0c2a9b3d778: 120 games, shard 2/3",
            "# schedule 5e1f0c2a9b3d7781: x games, shard 2/3",
            "# schedule 5e1f0c2a9b3d7781: 120 games, shard 4/3",
            "# schedule 5e1f0c2a9b3d7781: 120 games",
        ] {
            assert!(ScheduleLine::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn lines_that_contradict_themselves_are_refused() {
        let g = record().to_line();
        for (from, to) in [
            ("\ttime\t", "\tresigned\t"),
            ("\t0-1\t", "\t1/2\t"),
            ("\tbeta\t", "\talpha\t"),
            ("1234,5", "1234"),
            ("1234,5", "12a,5"),
        ] {
            let bad = g.replacen(from, to, 1);
            assert!(GameRecord::parse(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bad_lines_are_skipped_with_a_reason() {
        let good = record().to_line();
        let cut = &good[..good.len() - 8];
        let text = format!("{HEADER}\n{good}\n{cut}\n0\ta\tb\t1-0\tfive\t15\t0\t0\th8\n");
        let read = parse_results(&text);
        assert_eq!(read.games.len(), 1);
        assert_eq!(read.skipped.len(), 2, "{:?}", read.skipped);
        assert_eq!(read.skipped[0].0, 3);
        assert_eq!(read.schedule, None);
        // A last line without its line break is cut short, even where it reads as a game.
        let read = parse_results(&format!("{HEADER}\n{good}\n{good}"));
        assert_eq!(read.games.len(), 1);
        assert_eq!(
            read.skipped,
            vec![(3, "cut short (the line has no end)".to_string())]
        );
    }

    #[test]
    fn opening_to_append_removes_a_cut_last_line() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "results-open");
        let path = dir.join("r.txt");
        let schedule = ScheduleLine {
            fingerprint: 7,
            games: 4,
            shard: Shard::WHOLE,
        };
        let mut f = ResultsFile::open(&path, Some(&schedule)).unwrap();
        f.append(&record()).unwrap();
        drop(f);
        let whole = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            whole,
            format!("{HEADER}\n{}\n{}\n", schedule.to_line(), record().to_line())
        );
        // Cut in the middle of a second record, then opened again: back to the whole lines.
        let cut = format!("{whole}{}", &record().to_line()[..9]);
        std::fs::write(&path, &cut).unwrap();
        assert!(matches!(
            read_strict(&path),
            Err(ResultsError::Truncated { line: 4, .. })
        ));
        drop(ResultsFile::open(&path, Some(&schedule)).unwrap());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), whole);
        let strict = read_strict(&path).unwrap();
        assert_eq!(strict.schedule, Some(schedule));
        assert_eq!(strict.games, vec![(3, record())]);
        // A file of one cut line loses it, and is a results file again when opened.
        std::fs::write(&path, "# wuzi res").unwrap();
        drop(ResultsFile::open(&path, None).unwrap());
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            format!("{HEADER}\n")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
