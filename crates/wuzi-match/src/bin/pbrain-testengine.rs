//! pbrain-testengine: a tiny Gomocup engine for testing match runners, good or deliberately
//! broken. It reads and writes the protocol itself, with the standard library only (so that
//! it checks the match runner from outside `wuzi-protocol`); its random moves come from
//! `wuzi_core::rng`.
//!
//! Usage: `pbrain-testengine MODE [MOVES...] [--seed N] [--delay MS] [--messages] [--message TEXT]
//! [--log FILE] [--crash-after N]`
//!
//! Modes (what it answers when asked for a move):
//! - `random`: a random empty point (a legal mover under every rule but renju's forbidden
//!   points);
//! - `script X,Y X,Y ...`: the listed points in order, skipping taken ones, then random
//!   (the script starts again with every game);
//! - `crash`: exits with code 3 without answering;
//! - `hang`: never answers (keeps reading its input);
//! - `hangstart`: never answers even `START`;
//! - `occupied`: a point that is taken (the centre first on an empty board);
//! - `offboard`: the point `W,H`, just off the board;
//! - `garbage`: the line `hello there`;
//! - `notmove`: the line `OK`;
//! - `twice`: a random move, written twice;
//! - `flood`: `MESSAGE` lines without end, and no move;
//! - `longline`: one line without end (no line break ever);
//! - `errorstart`: answers `START` with `ERROR`.
//!
//! Options: `--delay MS` sleeps before every move (a slow engine); `--messages` sends a
//! `MESSAGE` line before every move, `--message TEXT` the line `MESSAGE TEXT` (a progress
//! report of the engine's choosing); `--log FILE` appends every line it receives to FILE;
//! `--crash-after N` exits with code 3 when asked for move N+1 (after N answers); `--alloc MB`
//! allocates and touches that much memory at every `START`; `--no-restart` answers `RESTART`
//! with `UNKNOWN` (as an engine that does not know it).

use std::io::{BufRead, Write};
use std::time::Duration;
use wuzi_core::rng::Rng;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Random,
    Script,
    Crash,
    Hang,
    HangStart,
    Occupied,
    OffBoard,
    Garbage,
    NotMove,
    Twice,
    Flood,
    LongLine,
    ErrorStart,
}

struct Engine {
    mode: Mode,
    /// The scripted moves as given, and those not yet played in this game.
    full_script: Vec<(usize, usize)>,
    script: Vec<(usize, usize)>,
    delay: Duration,
    messages: bool,
    /// Sent as `MESSAGE <text>` before every move.
    message: Option<String>,
    crash_after: Option<usize>,
    answered: usize,
    alloc_mb: usize,
    memory: Vec<u8>,
    rng: Rng,
    width: usize,
    height: usize,
    /// 0 empty, 1 own, 2 opponent.
    cells: Vec<u8>,
}

impl Engine {
    fn reset(&mut self, width: usize, height: usize) {
        self.width = width;
        self.height = height;
        self.cells = vec![0; width * height];
    }

    fn new_game(&mut self, width: usize, height: usize) {
        self.reset(width, height);
        self.script = self.full_script.clone();
        if self.memory.len() < self.alloc_mb << 20 {
            // Written, not just reserved, so that it is resident.
            self.memory = vec![1; self.alloc_mb << 20];
            std::hint::black_box(&self.memory);
        }
    }

    fn set(&mut self, x: usize, y: usize, who: u8) -> bool {
        if x < self.width && y < self.height && self.cells[y * self.width + x] == 0 {
            self.cells[y * self.width + x] = who;
            true
        } else {
            false
        }
    }

    fn empty(&self, x: usize, y: usize) -> bool {
        x < self.width && y < self.height && self.cells[y * self.width + x] == 0
    }

    fn random_empty(&mut self) -> Option<(usize, usize)> {
        let empties: Vec<usize> = (0..self.cells.len())
            .filter(|&i| self.cells[i] == 0)
            .collect();
        if empties.is_empty() {
            return None;
        }
        let i = empties[self.rng.below(empties.len())];
        Some((i % self.width, i / self.width))
    }

    /// Answers a move request (or exits, or stays silent, as the mode says).
    fn answer(&mut self, out: &mut impl Write) {
        if self.mode == Mode::Crash || self.crash_after == Some(self.answered) {
            std::process::exit(3);
        }
        if self.mode == Mode::Hang {
            return;
        }
        if self.mode == Mode::Flood || self.mode == Mode::LongLine {
            // Until the manager kills it (or the pipe breaks).
            let chunk = if self.mode == Mode::Flood {
                "MESSAGE flooding\n".repeat(64)
            } else {
                "x".repeat(1024)
            };
            while out.write_all(chunk.as_bytes()).is_ok() {}
            std::process::exit(4);
        }
        if !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        if self.messages {
            let _ = writeln!(out, "MESSAGE testengine move {}", self.answered + 1);
        }
        if let Some(text) = &self.message {
            let _ = writeln!(out, "MESSAGE {text}");
        }
        let reply = match self.mode {
            Mode::Garbage => "hello there".to_string(),
            Mode::NotMove => "OK".to_string(),
            Mode::OffBoard => format!("{},{}", self.width, self.height),
            Mode::Occupied => match self.cells.iter().position(|&c| c != 0) {
                Some(i) => format!("{},{}", i % self.width, i / self.width),
                None => {
                    let (x, y) = (self.width / 2, self.height / 2);
                    self.set(x, y, 1);
                    format!("{x},{y}")
                }
            },
            _ => {
                let scripted = loop {
                    if self.mode != Mode::Script || self.script.is_empty() {
                        break None;
                    }
                    let (x, y) = self.script.remove(0);
                    if self.empty(x, y) {
                        break Some((x, y));
                    }
                };
                match scripted.or_else(|| self.random_empty()) {
                    Some((x, y)) => {
                        self.set(x, y, 1);
                        format!("{x},{y}")
                    }
                    None => "ERROR board full".to_string(),
                }
            }
        };
        // Both copies in one write, so that they arrive together.
        let text = if self.mode == Mode::Twice {
            format!("{reply}\n{reply}\n")
        } else {
            format!("{reply}\n")
        };
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
        self.answered += 1;
    }
}

fn parse_pair(text: &str) -> Option<(usize, usize)> {
    let (x, y) = text.trim().split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = match args.first().map(String::as_str) {
        Some("random") => Mode::Random,
        Some("script") => Mode::Script,
        Some("crash") => Mode::Crash,
        Some("hang") => Mode::Hang,
        Some("hangstart") => Mode::HangStart,
        Some("occupied") => Mode::Occupied,
        Some("offboard") => Mode::OffBoard,
        Some("garbage") => Mode::Garbage,
        Some("notmove") => Mode::NotMove,
        Some("twice") => Mode::Twice,
        Some("flood") => Mode::Flood,
        Some("longline") => Mode::LongLine,
        Some("errorstart") => Mode::ErrorStart,
        _ => {
            eprintln!("usage: pbrain-testengine random|script|crash|hang|hangstart|occupied|offboard|garbage|notmove|twice|flood|longline|errorstart [X,Y...] [--seed N] [--delay MS] [--messages] [--message TEXT] [--log FILE] [--crash-after N] [--alloc MB] [--no-restart]");
            std::process::exit(2);
        }
    };
    let mut engine = Engine {
        mode,
        full_script: Vec::new(),
        script: Vec::new(),
        delay: Duration::ZERO,
        messages: false,
        message: None,
        crash_after: None,
        answered: 0,
        alloc_mb: 0,
        memory: Vec::new(),
        rng: Rng::new(u64::from(std::process::id())),
        width: 0,
        height: 0,
        cells: Vec::new(),
    };
    let mut log: Option<std::fs::File> = None;
    let mut refuse_restart = false;
    let mut rest = args.iter().skip(1);
    while let Some(a) = rest.next() {
        let mut value = || rest.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--seed" => engine.rng = Rng::new(value().parse::<u64>().unwrap_or(1)),
            "--delay" => engine.delay = Duration::from_millis(value().parse().unwrap_or(0)),
            "--messages" => engine.messages = true,
            "--message" => engine.message = Some(value()),
            "--no-restart" => refuse_restart = true,
            "--crash-after" => engine.crash_after = value().parse().ok(),
            "--alloc" => engine.alloc_mb = value().parse().unwrap_or(0),
            "--log" => {
                log = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(value())
                    .ok()
            }
            other => match parse_pair(other) {
                Some(p) => engine.full_script.push(p),
                None => {
                    eprintln!("pbrain-testengine: bad argument {other}");
                    std::process::exit(2);
                }
            },
        }
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut in_board = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if let Some(f) = log.as_mut() {
            let _ = writeln!(f, "{line}");
        }
        let upper = line.to_ascii_uppercase();
        let (word, arg) = match upper.split_once(' ') {
            Some((w, a)) => (w.to_string(), a.trim().to_string()),
            None => (upper.clone(), String::new()),
        };
        if in_board {
            if word == "DONE" {
                in_board = false;
                engine.answer(&mut out);
            } else if let Some((x, y, f)) = line.split_once(',').and_then(|(x, rest)| {
                let (y, f) = rest.split_once(',')?;
                Some((
                    x.trim().parse().ok()?,
                    y.trim().parse().ok()?,
                    f.trim().parse::<u8>().ok()?,
                ))
            }) {
                engine.set(x, y, if f == 1 { 1 } else { 2 });
            }
            continue;
        }
        match word.as_str() {
            "RESTART" if refuse_restart => {
                let _ = writeln!(out, "UNKNOWN RESTART");
                let _ = out.flush();
            }
            "START" | "RECTSTART" | "RESTART" => {
                if engine.mode == Mode::HangStart {
                    continue;
                }
                if engine.mode == Mode::ErrorStart {
                    let _ = writeln!(out, "ERROR this engine refuses every board");
                    let _ = out.flush();
                    continue;
                }
                let size = match word.as_str() {
                    "START" => arg.parse().ok().map(|n| (n, n)),
                    "RECTSTART" => parse_pair(&arg),
                    _ => Some((engine.width, engine.height)),
                };
                match size {
                    Some((w, h)) if (5..=32).contains(&w) && (5..=32).contains(&h) => {
                        engine.new_game(w, h);
                        let _ = writeln!(out, "OK");
                    }
                    _ => {
                        let _ = writeln!(out, "ERROR unsupported size");
                    }
                }
                let _ = out.flush();
            }
            "BEGIN" => engine.answer(&mut out),
            "TURN" => {
                if let Some((x, y)) = parse_pair(&arg) {
                    engine.set(x, y, 2);
                }
                engine.answer(&mut out);
            }
            "BOARD" => {
                engine.reset(engine.width, engine.height);
                in_board = true;
            }
            "INFO" => {}
            "ABOUT" => {
                let _ = writeln!(out, "name=\"testengine\", version=\"1\"");
                let _ = out.flush();
            }
            "END" => break,
            _ => {
                let _ = writeln!(out, "UNKNOWN {word}");
                let _ = out.flush();
            }
        }
    }
}
