//! The message log: engines' `MESSAGE` (and `DEBUG`, `ERROR`, `UNKNOWN`) lines, kept in one
//! file when asked, one line each:
//!
//! ```text
//! game 3 move 12 pbrain-wuzi (black): MESSAGE depth 7-12 ev 35 n 12K n/ms 410 tm 301 pv h8 i9
//! ```
//!
//! Invariant: lines from games played at once never interleave inside a line (one lock per
//! line); the file is flushed after every line, so it is complete even if the runner is
//! killed.

use std::fs::File;
use std::io::{LineWriter, Write};
use std::path::Path;
use std::sync::Mutex;

use wuzi_core::Color;

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
