//! Engine processes: spawning one from its command line, talking to it without ever blocking
//! the referee, and killing it.
//!
//! An [`Engine`] owns one child process and two threads:
//! - a writer thread that owns the child's stdin and writes the lines queued by
//!   [`Engine::send`] (so a child that stops reading can never block the referee);
//! - a reader thread that owns the child's stdout, splits it into lines (at most
//!   [`MAX_LINE`] bytes are kept of any line, and a longer one is reported as soon as it
//!   reaches that length, the rest of it dropped; invalid UTF-8 is replaced, a trailing CR is
//!   removed) and timestamps each line when it arrives, so the referee's own delays never count
//!   against the engine.
//!
//! Invariants: after the child's stdout closes or a write to it fails, [`Engine::recv`] reports
//! [`Received::Closed`] and keeps doing so; dropping an `Engine` kills the child and reaps it.
//! The child's stderr is discarded, or appended to the spec's `stderr_log` file. A frozen
//! engine ([`Engine::freeze`], SIGSTOP on Unix) is continued before it is told to quit. The threads end on their own once the pipes close (a
//! grandchild that keeps a pipe open only keeps its thread alive, never the referee).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use thiserror::Error;

/// The longest line kept from an engine, in bytes; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 64 * 1024;

/// How to start one engine and what to tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program: a path (relative paths are taken from the runner's working directory, not
    /// from `dir`) or a name looked up in `PATH`.
    pub cmd: String,
    /// Arguments, in order.
    pub args: Vec<String>,
    /// The engine's working directory (default: the runner's).
    pub dir: Option<PathBuf>,
    /// The name used in results and records.
    pub name: String,
    /// Sent as `INFO key value` after the standard settings of every game.
    pub options: Vec<(String, String)>,
    /// Append the engine's stderr to this file (default: discard it).
    pub stderr_log: Option<PathBuf>,
}

impl EngineSpec {
    /// A spec for `cmd` with no arguments, named after the program's file name.
    pub fn new(cmd: &str) -> EngineSpec {
        EngineSpec {
            cmd: cmd.to_string(),
            args: Vec::new(),
            dir: None,
            name: default_name(cmd),
            options: Vec::new(),
            stderr_log: None,
        }
    }

    /// The program path to run: a relative path with a directory part is made absolute
    /// against the runner's working directory (its meaning would otherwise depend on `dir`).
    fn program(&self) -> PathBuf {
        let path = Path::new(&self.cmd);
        if path.is_relative() && path.components().count() > 1 {
            if let Ok(cwd) = std::env::current_dir() {
                return cwd.join(path);
            }
        }
        path.to_path_buf()
    }
}

/// Points every engine's stderr at `dir/NAME.stderr.log` (the name with anything but
/// letters, digits, `.`, `_` and `-` replaced by `_`), creating `dir`.
pub fn stderr_logs(specs: &mut [EngineSpec], dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for spec in specs {
        let file: String = spec
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        spec.stderr_log = Some(dir.join(format!("{file}.stderr.log")));
    }
    Ok(())
}

/// The file name of a command without its extension: `./bin/pbrain-x.exe` gives `pbrain-x`.
pub fn default_name(cmd: &str) -> String {
    Path::new(cmd)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| cmd.to_string())
}

#[derive(Debug, Error)]
#[error("cannot start engine {name} ({cmd}): {source}")]
pub struct SpawnError {
    pub name: String,
    pub cmd: String,
    #[source]
    pub source: std::io::Error,
}

/// What the reader and writer threads report.
enum Event {
    Line { text: String, at: Instant },
    Closed,
}

/// The result of waiting for a line.
#[derive(Debug, PartialEq, Eq)]
pub enum Received {
    /// A line (without its terminator) and the moment it was read.
    Line { text: String, at: Instant },
    /// The engine's output closed or its input broke: it exited or crashed.
    Closed,
    /// Nothing came before the deadline.
    TimedOut,
}

/// A running engine process.
pub struct Engine {
    name: String,
    child: Child,
    to_engine: Option<Sender<String>>,
    from_engine: Receiver<Event>,
    closed: bool,
    reaped: bool,
    frozen: bool,
    spawned_at: Instant,
    /// Whether the engine answered `RESTART` with `OK` (`None`: not asked yet).
    pub restart_ok: Option<bool>,
    /// Games this process has started.
    pub games_started: usize,
}

impl Engine {
    /// Starts the engine. Fails only when the process cannot be created.
    pub fn spawn(spec: &EngineSpec) -> Result<Engine, SpawnError> {
        let spawn_error = |source| SpawnError {
            name: spec.name.clone(),
            cmd: spec.cmd.clone(),
            source,
        };
        let stderr = match &spec.stderr_log {
            Some(path) => std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map(Stdio::from)
                .map_err(spawn_error)?,
            None => Stdio::null(),
        };
        let mut command = Command::new(spec.program());
        command
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr);
        if let Some(dir) = &spec.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(spawn_error)?;
        let spawned_at = Instant::now();
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(spawn_error(std::io::Error::other("no pipes to the child")));
            }
        };
        let (event_tx, from_engine) = mpsc::channel();
        let (to_engine, line_rx) = mpsc::channel::<String>();
        let writer_events = event_tx.clone();
        let threads = thread::Builder::new()
            .name(format!("{}-out", spec.name))
            .spawn(move || read_lines(stdout, event_tx))
            .and_then(|_| {
                thread::Builder::new()
                    .name(format!("{}-in", spec.name))
                    .spawn(move || write_lines(stdin, line_rx, writer_events))
            });
        if let Err(e) = threads {
            let _ = child.kill();
            let _ = child.wait();
            return Err(spawn_error(e));
        }
        Ok(Engine {
            name: spec.name.clone(),
            child,
            to_engine: Some(to_engine),
            from_engine,
            closed: false,
            reaped: false,
            frozen: false,
            spawned_at,
            restart_ok: None,
            games_started: 0,
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    /// The operating system's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// When the process was created.
    pub fn spawned_at(&self) -> Instant {
        self.spawned_at
    }

    /// Queues one line (a terminator is added). Never blocks; a broken pipe shows up as
    /// [`Received::Closed`].
    pub fn send(&mut self, line: &str) {
        if let Some(tx) = &self.to_engine {
            let _ = tx.send(line.to_string());
        }
    }

    /// Waits for the next line until `deadline`.
    pub fn recv(&mut self, deadline: Instant) -> Received {
        if self.closed {
            return Received::Closed;
        }
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.from_engine.recv_timeout(wait) {
            Ok(Event::Line { text, at }) => Received::Line { text, at },
            Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Received::Closed
            }
            Err(RecvTimeoutError::Timeout) => Received::TimedOut,
        }
    }

    /// Throws away every line already received (left over from an earlier game).
    pub fn drain(&mut self) {
        loop {
            match self.from_engine.try_recv() {
                Ok(Event::Line { .. }) => {}
                Ok(Event::Closed) | Err(TryRecvError::Disconnected) => {
                    self.closed = true;
                    return;
                }
                Err(TryRecvError::Empty) => return,
            }
        }
    }

    /// Whether the process still runs and its pipes are open.
    pub fn is_alive(&mut self) -> bool {
        !self.closed && !self.reaped && matches!(self.child.try_wait(), Ok(None))
    }

    /// How the process ended, waiting up to `grace` for it: `exit code 3`, `signal 11`, or
    /// `still running`.
    pub fn exit_text(&mut self, grace: Duration) -> String {
        let until = Instant::now() + grace;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    return describe_status(status);
                }
                Ok(None) if Instant::now() < until => thread::sleep(Duration::from_millis(5)),
                Ok(None) => return "still running".to_string(),
                Err(e) => return format!("unknown ({e})"),
            }
        }
    }

    /// Resident memory of the process in bytes, where the system tells it (Linux `/proc`).
    pub fn resident_bytes(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    }

    /// Stops the process (SIGSTOP) so that it cannot think while it is not its turn; a no-op
    /// where there are no signals, or when it already is stopped or has ended.
    pub fn freeze(&mut self) {
        if !self.frozen && !self.reaped && signal(self.child.id(), Signal::Stop) {
            self.frozen = true;
        }
    }

    /// Continues a frozen process (SIGCONT).
    pub fn thaw(&mut self) {
        if self.frozen && !self.reaped {
            signal(self.child.id(), Signal::Continue);
        }
        self.frozen = false;
    }

    /// Kills the process at once and reaps it.
    pub fn kill(&mut self) {
        self.to_engine = None;
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
        self.closed = true;
    }

    /// Sends `END`, closes the engine's input and gives it `grace` to exit; then kills it.
    pub fn quit(mut self, grace: Duration) {
        self.thaw();
        self.send("END");
        self.to_engine = None;
        let until = Instant::now() + grace;
        while Instant::now() < until {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => {
                    self.reaped = true;
                    return;
                }
                Ok(None) => thread::sleep(Duration::from_millis(5)),
            }
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

enum Signal {
    Stop,
    Continue,
}

/// Sends a signal to process `pid`; whether it was delivered. The process is our child and
/// not yet reaped (the caller checks), so the pid cannot belong to another process.
#[cfg(unix)]
fn signal(pid: u32, which: Signal) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    let sig = match which {
        Signal::Stop => libc::SIGSTOP,
        Signal::Continue => libc::SIGCONT,
    };
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    unsafe { libc::kill(pid, sig) == 0 }
}

#[cfg(not(unix))]
fn signal(_pid: u32, _which: Signal) -> bool {
    false
}

fn describe_status(status: std::process::ExitStatus) -> String {
    if let Some(code) = status.code() {
        return format!("exit code {code}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return format!("signal {sig}");
        }
    }
    "no exit code".to_string()
}

fn read_lines(stdout: impl Read, events: Sender<Event>) {
    let mut reader = BufReader::new(stdout);
    let mut line: Vec<u8> = Vec::new();
    // True while the rest of an over-long line, already reported, is being dropped.
    let mut dropping = false;
    let emit = |line: &mut Vec<u8>| {
        let mut text = String::from_utf8_lossy(line).into_owned();
        if text.ends_with('\r') {
            text.pop();
        }
        line.clear();
        events
            .send(Event::Line {
                text,
                at: Instant::now(),
            })
            .is_ok()
    };
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buf.is_empty() {
            if !line.is_empty() {
                emit(&mut line);
            }
            break;
        }
        let (take, complete) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if !dropping {
            let room = MAX_LINE.saturating_sub(line.len());
            line.extend_from_slice(&buf[..take.min(room)]);
        }
        reader.consume(if complete { take + 1 } else { take });
        let full = !dropping && line.len() >= MAX_LINE;
        if ((complete && !dropping) || full) && !emit(&mut line) {
            return;
        }
        dropping = (dropping || full) && !complete;
    }
    let _ = events.send(Event::Closed);
}

fn write_lines(mut stdin: impl Write, lines: Receiver<String>, events: Sender<Event>) {
    for line in lines {
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\n"))
            .and_then(|_| stdin.flush());
        if ok.is_err() {
            let _ = events.send(Event::Closed);
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_come_from_the_file_stem() {
        assert_eq!(default_name("./bin/pbrain-x.exe"), "pbrain-x");
        assert_eq!(default_name("pbrain-wuzi"), "pbrain-wuzi");
    }

    /// The process state letter from `/proc/PID/stat` (`T` stopped, `S` sleeping).
    #[cfg(target_os = "linux")]
    fn state(pid: u32) -> Option<char> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        stat.rsplit_once(')')?.1.trim_start().chars().next()
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn freeze_stops_and_thaw_continues_the_process() {
        let mut spec = EngineSpec::new("sleep");
        spec.args = vec!["30".into()];
        let mut e = Engine::spawn(&spec).expect("sleep starts");
        let pid = e.pid();
        let wait_for = |want: char| {
            let until = Instant::now() + Duration::from_secs(5);
            while Instant::now() < until {
                if state(pid) == Some(want) {
                    return true;
                }
                thread::sleep(Duration::from_millis(5));
            }
            false
        };
        e.freeze();
        assert!(wait_for('T'), "stopped: {:?}", state(pid));
        e.thaw();
        assert!(wait_for('S'), "running again: {:?}", state(pid));
        e.kill();
    }

    #[test]
    fn reader_splits_caps_and_closes() {
        let long = "y".repeat(2 * MAX_LINE + 10);
        let input = format!("OK\r\nhello\n{long}\nlast");
        let (tx, rx) = mpsc::channel();
        read_lines(input.as_bytes(), tx);
        let lines: Vec<Option<String>> = rx
            .iter()
            .map(|e| match e {
                Event::Line { text, .. } => Some(text),
                Event::Closed => None,
            })
            .collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0].as_deref(), Some("OK"));
        assert_eq!(lines[1].as_deref(), Some("hello"));
        assert_eq!(lines[2].as_ref().map(String::len), Some(MAX_LINE));
        assert_eq!(lines[3].as_deref(), Some("last"));
        assert_eq!(lines[4], None);
    }
}
