//! A Gomocup engine driven over pipes, as a manager drives it.
//!
//! Every read has a timeout (a reader thread feeds a channel), so a broken engine fails the
//! test instead of hanging it. Each engine keeps a log of the conversation for failure
//! messages, and is killed when dropped.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::Reply;

/// Generous limit for replies that should come at once.
pub const PROMPT: Duration = Duration::from_secs(10);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Result<String, String>>,
    /// Line ending sent after each line.
    pub eol: &'static str,
    pub log: Vec<String>,
    pub spawned: Instant,
}

impl Engine {
    /// `pbrain-wuzi`, sending CRLF line ends.
    pub fn spawn() -> Engine {
        Engine::spawn_with_eol("\r\n")
    }

    /// `pbrain-wuzi`, sending `eol` after each line.
    pub fn spawn_with_eol(eol: &'static str) -> Engine {
        Engine::spawn_program(&workspace_binary("pbrain-wuzi"), eol)
    }

    /// `pbrain-wuzi` started with these command-line arguments, sending CRLF line ends.
    pub fn spawn_with_args(args: &[&str]) -> Engine {
        Engine::spawn_program_with_args(&workspace_binary("pbrain-wuzi"), args, "\r\n")
    }

    /// Any engine program, sending `eol` after each line.
    pub fn spawn_program(program: &Path, eol: &'static str) -> Engine {
        Engine::spawn_program_with_args(program, &[], eol)
    }

    /// Any engine program with command-line arguments, sending `eol` after each line.
    pub fn spawn_program_with_args(program: &Path, args: &[&str], eol: &'static str) -> Engine {
        let spawned = Instant::now();
        let mut child = spawn_when_not_busy(program, args)
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        thread::spawn(move || {
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            loop {
                let n = match stdout.read(&mut chunk) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                buf.extend_from_slice(&chunk[..n]);
                while let Some(i) = buf.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = buf.drain(..=i).collect();
                    let line = &line[..line.len() - 1];
                    let sent = match String::from_utf8(line.to_vec()) {
                        Ok(s) => Ok(s),
                        Err(_) => Err(format!("non-UTF-8 output {line:?}")),
                    };
                    if tx.send(sent).is_err() {
                        return;
                    }
                }
            }
            if !buf.is_empty() {
                let _ = tx.send(Err(format!(
                    "partial line without newline: {:?}",
                    String::from_utf8_lossy(&buf)
                )));
            }
        });
        Engine {
            child,
            stdin,
            lines,
            eol,
            log: Vec::new(),
            spawned,
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line with the engine's line ending.
    pub fn send(&mut self, line: &str) {
        self.log.push(format!("> {line}"));
        let bytes = format!("{line}{}", self.eol);
        self.send_raw(bytes.as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        if let Some(stdin) = self.stdin.as_mut() {
            // A write error means the engine has exited; the next read reports it.
            let _ = stdin.write_all(bytes).and_then(|()| stdin.flush());
        }
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or `None` after `timeout`.
    pub fn line_within(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(Ok(line)) => {
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Ok(Err(bad)) => self.fail(&bad),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// The next line that is not MESSAGE or DEBUG (those are collected in `messages`).
    pub fn reply_within(
        &mut self,
        timeout: Duration,
        messages: &mut Vec<String>,
    ) -> Option<String> {
        let end = Instant::now() + timeout;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let line = self.line_within(left)?;
            if line.starts_with("MESSAGE ") || line.starts_with("DEBUG ") {
                messages.push(line);
                continue;
            }
            return Some(line);
        }
    }

    /// The next reply (skipping MESSAGE and DEBUG), failing the test after `PROMPT`.
    pub fn reply(&mut self) -> String {
        let mut ignored = Vec::new();
        match self.reply_within(PROMPT, &mut ignored) {
            Some(line) => line,
            None => self.fail("no reply in time"),
        }
    }

    /// Sends a line and returns the reply.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// Sends a line and expects an `ERROR` reply.
    pub fn expect_error(&mut self, line: &str) -> String {
        let reply = self.ask(line);
        if !reply.starts_with("ERROR ") || reply.len() <= "ERROR ".len() {
            self.fail(&format!("{line:?} should give ERROR <why>, got {reply:?}"));
        }
        reply
    }

    /// The next reply, which must be one move; returns it.
    pub fn expect_move(&mut self) -> Point {
        let reply = self.reply();
        match Reply::parse(&reply) {
            Ok(Reply::Move(c)) => Point::new(c.x as u8, c.y as u8),
            _ => self.fail(&format!("expected a move, got {reply:?}")),
        }
    }

    /// Fails if any line other than MESSAGE/DEBUG arrives within `wait`.
    pub fn expect_silence(&mut self, wait: Duration) {
        let mut ignored = Vec::new();
        if let Some(line) = self.reply_within(wait, &mut ignored) {
            self.fail(&format!("unexpected reply {line:?}"));
        }
    }

    /// Waits for the process to exit.
    pub fn exit_within(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + timeout;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// All output lines still buffered (after the engine exited).
    pub fn remaining_lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.line_within(Duration::from_millis(200)) {
            out.push(l);
        }
        out
    }

    /// Peak resident memory of the process in bytes (Linux).
    pub fn peak_rss(&self) -> u64 {
        let status =
            std::fs::read_to_string(format!("/proc/{}/status", self.pid())).unwrap_or_default();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb * 1024)
    }

    pub fn fail(&self, why: &str) -> ! {
        let tail: Vec<&String> = self.log.iter().rev().take(40).collect();
        let tail: Vec<&str> = tail.into_iter().rev().map(String::as_str).collect();
        panic!(
            "{why}\n--- last lines of the conversation ---\n{}",
            tail.join("\n")
        );
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A binary of the workspace, for the integration tests of the package that builds it: Cargo
/// builds a package's binaries before its integration tests and puts them one folder above the
/// test executables (`target/<profile>/deps/..`).
pub fn workspace_binary(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test executable's path");
    let mut dir = exe
        .parent()
        .expect("the test executable's folder")
        .to_path_buf();
    if dir.ends_with("deps") {
        dir.pop();
    }
    dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX))
}

/// Asserts that the engine's move `p` is legal on `board` and plays it.
pub fn play_checked(engine: &Engine, board: &mut Board, p: Point) {
    if !board.contains(p) || !board.is_empty_at(p) {
        engine.fail(&format!("move {p} is off the board or occupied"));
    }
    if board.side_to_move() == Color::Black && board.rule() == Rule::Renju && board.is_forbidden(p)
    {
        engine.fail(&format!("move {p} is forbidden for Black"));
    }
    if board.play(p).is_err() {
        engine.fail(&format!("move {p} refused by the board"));
    }
}

/// A legal point for the side to move on `board`, as close to the centre as possible.
pub fn free_point(board: &Board) -> Point {
    let (cx, cy) = (board.width() as i32 / 2, board.height() as i32 / 2);
    let mut points = board.empty_points();
    points.sort_by_key(|p| (i32::from(p.x) - cx).abs() + (i32::from(p.y) - cy).abs());
    let mut check = board.clone();
    points
        .into_iter()
        .find(|&p| check.is_legal(p))
        .expect("a legal point")
}

impl Engine {
    /// The next reply must be a legal move on `board` (within [`PROMPT`]): it is played there
    /// and returned.
    pub fn play_reply(&mut self, board: &mut Board) -> Point {
        let m = self.expect_move();
        play_checked(self, board, m);
        m
    }

    /// Plays the opponent's move `p` on `board` (it must be legal there) and sends it as
    /// `TURN`.
    pub fn turn(&mut self, board: &mut Board, p: Point) {
        self.send(&format!("TURN {},{}", p.x, p.y));
        play_checked(self, board, p);
    }
}

/// The Gomocup `INFO rule` code of a rule.
pub fn rule_code(rule: Rule) -> u32 {
    rule.gomocup_code()
}

impl Engine {
    /// Every line up to and including the first one for which `last` holds, each line within
    /// `per_line` of the one before; `None` when a line does not come in time (the engine
    /// hung, died or never answered).
    pub fn lines_until(
        &mut self,
        per_line: Duration,
        mut last: impl FnMut(&str) -> bool,
    ) -> Option<Vec<String>> {
        let mut out = Vec::new();
        loop {
            let line = self.line_within(per_line)?;
            let done = last(&line);
            out.push(line);
            if done {
                return Some(out);
            }
        }
    }
}

/// Starts `program`, trying again while the kernel says its file is busy. A test that copies
/// the engine before starting it races the other test threads: a child forked by one of them
/// holds the copy's write handle from fork until exec, and exec of a file open for writing
/// fails with ETXTBSY. The handle goes at that child's exec, within milliseconds.
fn spawn_when_not_busy(program: &Path, args: &[&str]) -> std::io::Result<Child> {
    const ETXTBSY: i32 = 26;
    let mut tries = 0;
    loop {
        let result = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        match result {
            Err(e) if cfg!(unix) && e.raw_os_error() == Some(ETXTBSY) && tries < 100 => {
                tries += 1;
                thread::sleep(Duration::from_millis(10));
            }
            other => return other,
        }
    }
}
