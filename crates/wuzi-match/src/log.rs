//! The message log: engines' `MESSAGE` (and `DEBUG`, `ERROR`, `UNKNOWN`) lines, kept in one
//! file when asked, one line each:
//!
//! ```text
//! game 3 move 12 pbrain-wuzi (black): MESSAGE depth 7-12 ev 35 n 12K n/ms 410 tm 301 pv h8 i9
//! ```
//!
//! Invariant: lines from games played at once never interleave inside a line (one lock per
//! line); the file is flushed after every line, so it is complete even if the runner is
//! killed. [`LogLine::parse`] reads a line back.

use std::fs::File;
use std::io::{LineWriter, Write};
use std::path::Path;
use std::sync::Mutex;

use wuzi_core::Color;

/// One line of the log, read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogLine<'a> {
    /// From 1.
    pub game: usize,
    /// The stones on the board before the move asked for.
    pub move_no: usize,
    pub engine: &'a str,
    pub color: Color,
    /// The engine's line as written (`MESSAGE ...`).
    pub text: &'a str,
}

impl<'a> LogLine<'a> {
    /// Reads a line written by [`MessageLog::line`]; `None` for anything else.
    pub fn parse(line: &'a str) -> Option<LogLine<'a>> {
        let rest = line.strip_prefix("game ")?;
        let (game, rest) = rest.split_once(' ')?;
        let rest = rest.strip_prefix("move ")?;
        let (move_no, rest) = rest.split_once(' ')?;
        let (head, text) = rest.split_once("): ")?;
        let (engine, color) = head.rsplit_once(" (")?;
        let color = match color {
            "black" => Color::Black,
            "white" => Color::White,
            _ => return None,
        };
        Some(LogLine {
            game: game.parse().ok().filter(|&g| g >= 1)?,
            move_no: move_no.parse().ok()?,
            engine,
            color,
            text,
        })
    }
}

pub struct MessageLog {
    out: Mutex<LineWriter<File>>,
}

impl MessageLog {
    /// Creates (or truncates) the log file.
    pub fn create(path: &Path) -> std::io::Result<MessageLog> {
        Ok(MessageLog {
            out: Mutex::new(LineWriter::new(File::create(path)?)),
        })
    }

    /// The log a match or tournament asked for, if any, created (or truncated) now.
    pub fn create_if_asked(path: Option<&Path>) -> Result<Option<MessageLog>, crate::MatchError> {
        path.map(|path| {
            MessageLog::create(path).map_err(|source| crate::MatchError::Io {
                path: path.display().to_string(),
                source,
            })
        })
        .transpose()
    }

    /// Writes one line. `move_no` counts the stones on the board before the move asked for
    /// (0 while starting). Write errors are ignored: the log must never stop a match.
    pub fn line(&self, game: usize, move_no: usize, engine: &str, color: Color, text: &str) {
        let color = match color {
            Color::Black => "black",
            Color::White => "white",
        };
        let clean: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if let Ok(mut out) = self.out.lock() {
            let _ = writeln!(
                out,
                "game {} move {move_no} {engine} ({color}): {clean}",
                game + 1
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "log-read-back");
        let path = dir.join("m.log");
        let log = MessageLog::create(&path).expect("log");
        log.line(
            2,
            12,
            "my engine",
            Color::White,
            "MESSAGE Eval +M13 | x\u{7}y",
        );
        log.line(0, 0, "w", Color::Black, "MESSAGE depth 1-1 ev 3");
        drop(log);
        let text = std::fs::read_to_string(&path).expect("read");
        let lines: Vec<LogLine> = text.lines().filter_map(LogLine::parse).collect();
        assert_eq!(
            lines,
            vec![
                LogLine {
                    game: 3,
                    move_no: 12,
                    engine: "my engine",
                    color: Color::White,
                    text: "MESSAGE Eval +M13 | x y",
                },
                LogLine {
                    game: 1,
                    move_no: 0,
                    engine: "w",
                    color: Color::Black,
                    text: "MESSAGE depth 1-1 ev 3",
                },
            ]
        );
        let _ = std::fs::remove_dir_all(&dir);
        for bad in [
            "",
            "game x move 1 a (black): t",
            "game 0 move 1 a (black): t",
            "game 1 move 1 a (red): t",
            "game 1 move 1 a black: t",
            "game 1 mve 1 a (black): t",
        ] {
            assert_eq!(LogLine::parse(bad), None, "{bad:?}");
        }
    }
}
