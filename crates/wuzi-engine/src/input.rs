//! The stdin reader: a thread that turns bytes into lines, always.
//!
//! It owns the engine's input and never blocks on anything but the read itself, so commands
//! that matter during a search (`INFO`, `YXSTOP`, `END`) reach the session at once. Invariants:
//! a line is everything up to `\n`, without the `\n` and without one `\r` before it; a line
//! longer than [`MAX_LINE`] bytes is not kept (its bytes are read and dropped as they come, so
//! memory stays bounded) and arrives as [`LineError::TooLong`]; a line that is not UTF-8
//! arrives as [`LineError::NotUtf8`]; the end of input (or a read error) arrives once as
//! [`Input::Eof`], and the thread ends after it. Every line carries the instant it was read,
//! from which the session measures the time of a turn.

use std::io::{self, BufRead, BufReader, Read};
use std::thread;
use std::time::Instant;

/// Lines longer than this, in bytes, are refused.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader hands to the session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// One line, or why it could not be read, with the instant its end was read.
    Line(Result<String, LineError>, Instant),
    /// The manager closed the engine's input.
    Eof,
}

/// A line that cannot be used as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("line too long ({0} bytes; the limit is {MAX_LINE})")]
    TooLong(usize),
    #[error("line is not valid UTF-8")]
    NotUtf8,
}

/// Starts the reader thread over `source`. `deliver` gets every input in order and returns
/// false when nobody listens any more, which ends the thread.
pub fn spawn<R, F>(source: R, deliver: F) -> io::Result<thread::JoinHandle<()>>
where
    R: Read + Send + 'static,
    F: FnMut(Input) -> bool + Send + 'static,
{
    thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || read_lines(source, deliver))
}

/// Reads `source` to its end, delivering each line (see the module invariants).
pub fn read_lines<R: Read, F: FnMut(Input) -> bool>(source: R, mut deliver: F) {
    let mut reader = BufReader::with_capacity(16 * 1024, source);
    let mut line: Vec<u8> = Vec::new();
    let mut length = 0usize;
    loop {
        let (consumed, ended) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => {
                let (chunk, ended) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], true),
                    None => (buf, false),
                };
                length += chunk.len();
                if length <= MAX_LINE {
                    line.extend_from_slice(chunk);
                }
                (chunk.len() + usize::from(ended), ended)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        reader.consume(consumed);
        if ended {
            let input = finish(&mut line, length);
            length = 0;
            if !deliver(input) {
                return;
            }
        }
    }
    if length > 0 && !deliver(finish(&mut line, length)) {
        return;
    }
    deliver(Input::Eof);
}

fn finish(line: &mut Vec<u8>, length: usize) -> Input {
    let at = Instant::now();
    let bytes = std::mem::take(line);
    if length > MAX_LINE {
        return Input::Line(Err(LineError::TooLong(length)), at);
    }
    let mut bytes = bytes;
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    match String::from_utf8(bytes) {
        Ok(text) => Input::Line(Ok(text), at),
        Err(_) => Input::Line(Err(LineError::NotUtf8), at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_of(bytes: &[u8]) -> Vec<Result<String, LineError>> {
        let mut out = Vec::new();
        let mut eof = 0;
        read_lines(bytes, |input| {
            match input {
                Input::Line(l, _) => out.push(l),
                Input::Eof => eof += 1,
            }
            true
        });
        assert_eq!(eof, 1);
        out
    }

    #[test]
    fn splits_crlf_and_lf_lines() {
        assert_eq!(
            lines_of(b"START 15\r\nBEGIN\n\nEND"),
            vec![
                Ok("START 15".to_string()),
                Ok("BEGIN".to_string()),
                Ok(String::new()),
                Ok("END".to_string())
            ]
        );
    }

    #[test]
    fn refuses_long_lines_and_keeps_going() {
        let mut input = vec![b'A'; MAX_LINE * 3 + 7];
        input.extend_from_slice(b"\r\nABOUT\n");
        let lines = lines_of(&input);
        assert_eq!(
            lines,
            vec![
                Err(LineError::TooLong(MAX_LINE * 3 + 8)),
                Ok("ABOUT".to_string())
            ]
        );
        // Exactly at the limit is fine.
        let mut input = vec![b'B'; MAX_LINE];
        input.push(b'\n');
        assert_eq!(lines_of(&input), vec![Ok("B".repeat(MAX_LINE))]);
    }

    #[test]
    fn flags_invalid_utf8() {
        assert_eq!(
            lines_of(b"TURN \xff\xfe\nOK\n"),
            vec![Err(LineError::NotUtf8), Ok("OK".to_string())]
        );
    }

    #[test]
    fn stops_when_nobody_listens() {
        let mut seen = 0;
        read_lines(&b"a\nb\nc\n"[..], |_| {
            seen += 1;
            false
        });
        assert_eq!(seen, 1);
    }
}
