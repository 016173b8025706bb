//! The results file of a tournament: one line per finished game, appended and flushed as each
//! game ends, so that an interrupted tournament can be resumed from it.
//!
//! The file starts with one comment line; every other line is a game, its fields separated by
//! tabs (shown here as spaces):
//!
//! ```text
//! # wuzi results 1: game black white result reason size rule opening moves
//! 12 alpha beta 1-0 five 15x15 freestyle 2 h8i9j10i10...
//! ```
//!
//! `game` is the 1-based number in the tournament's schedule, `result` is from Black's side
//! (`1-0` Black won, `0-1` White won, `1/2` a draw), `reason` the end reason's key (see
//! `EndReason::key`), `opening` how many of the moves are the opening, and `moves` the whole
//! game in letter-number notation run together. Lines that cannot be read (a line cut short by
//! the interruption) are reported and skipped; the game they held is played again.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use wuzi_core::notation::{format_moves, parse_moves, parse_size};
use wuzi_core::{Color, Point, Rule};

use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::game::GameResult;

/// The first line of every results file.
pub const HEADER: &str = "# wuzi results 1: game black white result reason size rule opening moves";

/// One finished game of a tournament, engines named.
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
}

impl GameRecord {
    /// The record of a game of a match between engines named `names` (by engine id).
    pub fn of(g: &GameResult, names: [&str; 2], cfg: &MatchConfig) -> GameRecord {
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
        format!(
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
        )
    }

    /// Reads one line; the error says what is wrong with it.
    pub fn parse(line: &str) -> Result<GameRecord, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [game, black, white, result, reason, size, rule, opening, moves] = fields[..] else {
            return Err(format!("{} fields where 9 were expected", fields.len()));
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
        Ok(GameRecord {
            index,
            black: black.to_string(),
            white: white.to_string(),
            winner,
            reason: reason.to_string(),
            width,
            height,
            rule,
            opening_len,
            moves,
        })
    }
}

/// The games read from a results file, and the lines that could not be read (1-based line
/// number and why).
#[derive(Debug, Default)]
pub struct ReadResults {
    pub games: Vec<GameRecord>,
    pub skipped: Vec<(usize, String)>,
}

/// Reads a results file's text.
pub fn parse_results(text: &str) -> ReadResults {
    let mut out = ReadResults::default();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        match GameRecord::parse(line) {
            Ok(g) => out.games.push(g),
            Err(why) => out.skipped.push((i + 1, why)),
        }
    }
    out
}

/// Reads a results file.
pub fn read_results(path: &Path) -> Result<ReadResults, MatchError> {
    let text = std::fs::read_to_string(path).map_err(|source| MatchError::Io {
        path: path.display().to_string(),
        source,
    })?;
    Ok(parse_results(&text))
}

/// A results file open for appending.
pub struct ResultsFile {
    path: PathBuf,
    file: File,
}

impl ResultsFile {
    /// Opens the file for appending, creating it with its header if it does not exist, and
    /// ending a last line cut short, so the next record starts on a line of its own.
    pub fn open(path: &Path) -> Result<ResultsFile, MatchError> {
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
        if len == 0 {
            writeln!(file, "{HEADER}").map_err(io)?;
        } else {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1)).map_err(io)?;
            file.read_exact(&mut last).map_err(io)?;
            if last[0] != b'\n' {
                file.write_all(b"\n").map_err(io)?;
            }
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
        }
    }

    #[test]
    fn lines_round_trip() {
        let g = record();
        let line = g.to_line();
        assert_eq!(line, "12\talpha\tbeta\t0-1\ttime\t20x15\trenju\t1\th8t15a1");
        assert_eq!(GameRecord::parse(&line), Ok(g));
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
    }
}
