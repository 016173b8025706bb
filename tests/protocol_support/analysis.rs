//! Helpers of the analysis-GUI tests: a search's answer with the `MESSAGE` and `INFO` lines
//! before it, the realtime events and detail blocks among them, positions sent as `YXBOARD`.
#![allow(dead_code)]

use std::time::{Duration, Instant};

use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::{PvDetail, Realtime, SearchInfo};
use wuzi_testkit::engine::Engine;

/// What came up to and including a reply that is neither `MESSAGE`, `DEBUG` nor `INFO`.
#[derive(Debug, Default)]
pub struct Answer {
    pub reply: String,
    /// `MESSAGE` lines, without `MESSAGE `.
    pub messages: Vec<String>,
    /// `INFO` lines, without `INFO `.
    pub infos: Vec<String>,
    pub took: Duration,
}

/// Reads lines until a reply comes (failing the test after `timeout`).
pub fn answer(e: &mut Engine, timeout: Duration) -> Answer {
    let start = Instant::now();
    let mut out = Answer::default();
    loop {
        let left = timeout.saturating_sub(start.elapsed());
        let Some(line) = e.line_within(left) else {
            e.fail("no reply in time");
        };
        if let Some(m) = line.strip_prefix("MESSAGE ") {
            out.messages.push(m.to_string());
        } else if let Some(i) = line.strip_prefix("INFO ") {
            out.infos.push(i.to_string());
        } else if !line.starts_with("DEBUG ") {
            out.reply = line;
            out.took = start.elapsed();
            return out;
        }
    }
}

/// Collects every line that comes within `wait` (for checking silence or late lines).
pub fn lines_for(e: &mut Engine, wait: Duration) -> Vec<String> {
    let end = Instant::now() + wait;
    let mut out = Vec::new();
    while let Some(line) = e.line_within(end.saturating_duration_since(Instant::now())) {
        out.push(line);
    }
    out
}

impl Answer {
    /// The realtime events, in order.
    pub fn realtime(&self) -> Vec<Realtime> {
        self.messages
            .iter()
            .filter(|m| m.starts_with("REALTIME"))
            .map(|m| m.parse().unwrap_or_else(|err| panic!("{m:?}: {err}")))
            .collect()
    }

    /// The `MESSAGE depth ...` lines.
    pub fn progress(&self) -> Vec<SearchInfo> {
        self.messages
            .iter()
            .filter(|m| m.starts_with("depth "))
            .map(|m| m.parse().unwrap_or_else(|err| panic!("{m:?}: {err}")))
            .collect()
    }

    /// The detail blocks, in order; every `INFO` line must belong to one.
    pub fn blocks(&self) -> Vec<PvDetail> {
        let mut out = Vec::new();
        let mut current: Vec<&str> = Vec::new();
        for line in &self.infos {
            if line.starts_with("PV ") && line != "PV DONE" {
                assert!(
                    current.is_empty(),
                    "a block opens inside another: {:?}",
                    self.infos
                );
            }
            current.push(line);
            if line == "PV DONE" {
                let block = PvDetail::parse_block(&current)
                    .unwrap_or_else(|err| panic!("bad block {current:?}: {err}"));
                out.push(block);
                current.clear();
            }
        }
        assert!(current.is_empty(), "an unfinished block: {current:?}");
        out
    }
}

/// A board after `moves` (alternating from Black).
pub fn board_of(moves: &[(u8, u8)], size: usize, rule: Rule) -> Board {
    let mut b = Board::new(size, size, rule).expect("board");
    for &(x, y) in moves {
        b.play(Point::new(x, y)).expect("legal move");
    }
    b
}

/// Sends `board` as a `YXBOARD` block (the first stone is the engine's, so the engine plays
/// Black), in move order.
pub fn send_yxboard(e: &mut Engine, board: &Board) {
    e.send("YXBOARD");
    for (color, p) in board.history() {
        let field = if color == Color::Black { 1 } else { 2 };
        e.send(&format!("{},{},{field}", p.x, p.y));
    }
    e.send("DONE");
}

/// A point of a wire coordinate.
pub fn point(c: wuzi_protocol::Coord) -> Point {
    Point::new(c.x as u8, c.y as u8)
}

/// The points of a reply of moves (`x,y` or `x1,y1 x2,y2`), or the test fails.
pub fn moves_of(e: &Engine, reply: &str) -> Vec<Point> {
    match wuzi_protocol::Reply::parse(reply) {
        Ok(wuzi_protocol::Reply::Move(c)) => vec![point(c)],
        Ok(wuzi_protocol::Reply::Moves(cs)) => cs.into_iter().map(point).collect(),
        _ => e.fail(&format!("expected moves, got {reply:?}")),
    }
}

/// CPU time the process has used so far, in clock ticks (Linux).
pub fn cpu_ticks(pid: u32) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command name (which is in parentheses): utime is the 14th field.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let num = |i: usize| {
        fields
            .get(i)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    num(11) + num(12)
}

/// A quiet opening, Black to move (h8 i9 i7 g9): no threat sequence ends the search early,
/// so every iteration runs and reports.
pub fn midgame() -> Board {
    board_of(&[(7, 7), (8, 8), (8, 6), (6, 8)], 15, Rule::Freestyle)
}

/// Black (to move) has an open three on row 8; White's stones are far away.
pub fn open_three() -> Board {
    board_of(
        &[(7, 7), (0, 0), (8, 7), (0, 14), (9, 7), (14, 0)],
        15,
        Rule::Freestyle,
    )
}

pub fn engine_with(board: &Board, settings: &[&str]) -> Engine {
    let mut e = Engine::spawn();
    for s in settings {
        e.send(s);
    }
    assert_eq!(e.ask(&format!("START {}", board.width())), "OK");
    send_yxboard(&mut e, board);
    e
}

/// The engine's position is `board`: every stone refuses a move onto it, and the engine's
/// answer to the next move is legal there.
pub fn assert_position(e: &mut Engine, board: &Board) {
    for (_, p) in board.history() {
        let reply = e.ask(&format!("TURN {},{}", p.x, p.y));
        if !reply.starts_with("ERROR ") {
            e.fail(&format!("stone {p} missing: TURN onto it gave {reply:?}"));
        }
    }
    let mut b = board.clone();
    let next = super::free_point(&b);
    e.send(&format!("TURN {},{}", next.x, next.y));
    super::play_checked(e, &mut b, next);
    let m = e.expect_move();
    super::play_checked(e, &mut b, m);
}

/// Sends a command whose answer is one line, `MESSAGE` lines included, and returns it.
pub fn ask_line(e: &mut Engine, line: &str) -> String {
    e.send(line);
    e.line_within(super::PROMPT)
        .unwrap_or_else(|| e.fail(&format!("no answer to {line:?}")))
}

pub fn is_free(board: &Board, c: wuzi_protocol::Coord) -> bool {
    let p = Point::new(c.x as u8, c.y as u8);
    board.contains(p) && board.is_empty_at(p)
}
