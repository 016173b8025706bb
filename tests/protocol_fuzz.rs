//! Fuzzing the real `pbrain-wuzi` over its pipes: proptest builds byte streams of junk and
//! abuse (binary junk, huge lines, partial UTF-8, CR/LF mixtures, bad commands, position
//! blocks cut off, commands while the engine thinks, thousands of `RESTART`/`TAKEBACK`/
//! `YXBOARD` in a row) and a driver sends them to the engine while keeping its own model of
//! the position.
//!
//! Invariants checked on every case:
//! - no crash and no hang: every line the engine owes comes within [`LINE_LIMIT`] (generous,
//!   for a loaded machine), and `END` ends the process cleanly;
//! - the position after any error is the position before it: after each stream the engine's
//!   position is probed from outside and must equal the model: every model stone refuses
//!   `TURN` onto it, every empty point refuses `TAKEBACK`, and under renju `YXSHOWFORBID`
//!   lists the model's forbidden points (which checks the colours too);
//! - memory stays bounded: peak resident memory (`VmHWM`) under [`MEMORY_LIMIT`].
//!
//! The model follows only what is certain: junk and bad commands change nothing; a cut block
//! changes nothing; `RESTART` empties the board; a `YXBOARD` block of the model restores it;
//! a `TURN` adds the opponent's stone and the engine's answer once the answer is read.
//!
//! CI runs a few cases (`WUZI_FUZZ_CASES`, default 6); `docs/fuzzing.md` says how to run long
//! runs, and `docs/journal/fuzzing.md` records them.

mod protocol_support;

use std::time::Duration;

use proptest::prelude::*;
use protocol_support::Engine;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::{Coord, Reply};

/// The longest wait for any one line the engine owes.
const LINE_LIMIT: Duration = Duration::from_secs(30);
/// Peak resident memory allowed (the engine is told `max_memory` of half of it).
const MEMORY_LIMIT: u64 = 128 << 20;
const SIZE: u8 = 15;
/// The sync marker: `YXSHOWINFO` is queued like any command while the engine thinks (unlike
/// `ABOUT`), so its answer comes after everything sent before it.
const MARKER: &str = "YXSHOWINFO";
const MARKER_REPLY: &str = "MESSAGE INFO MAX_HASH_SIZE";

/// Input that must change nothing, whenever it comes (also while the engine thinks).
#[derive(Clone, Debug)]
enum Junk {
    /// Random bytes without ASCII letters (so never a command), then a line end.
    Bytes(Vec<u8>, &'static str),
    /// One line of `n` copies of a byte (beyond the reader's line limit when long).
    Huge(usize, u8),
    /// A command cut inside a multi-byte UTF-8 character.
    PartialUtf8(&'static str, Vec<u8>),
    /// A line the protocol refuses, or a command that only reads.
    Line(&'static str, &'static str),
}

/// One step of a stream.
#[derive(Clone, Debug)]
enum Item {
    Junk(Junk),
    /// A position block that never takes effect: `BOARD`, `YXBOARD` or `SWAP2BOARD`, some
    /// stone lines, then a bad line and `DONE`, a bad line and a command, or just a command
    /// (the block is cut short).
    CutBlock(&'static str, Vec<(u8, u8, u8)>, u8),
    /// `n` times `RESTART` (then the model restored with `YXBOARD`).
    Restarts(usize),
    /// `n` times `TAKEBACK` of a model stone and `YXBOARD` of the model.
    Takebacks(usize),
    /// `n` times `YXBOARD` of the model.
    Boards(usize),
    /// `TURN` on a free point, then junk while the engine thinks, maybe `YXSTOP`.
    Think(Vec<Junk>, bool),
}

const REFUSED: &[&str] = &[
    "TURN 99,99",
    "TURN 15,0",
    "TURN 0,15",
    "TURN 7",
    "TURN -1,3",
    "TURN 7,7,7",
    "TURN 7 7",
    "TURN +7,7",
    "TURN 4294967296,1",
    "TAKEBACK 40,40",
    "TAKEBACK 15,15",
    "PLAY 15,15",
    "PLAY",
    "START 1",
    "START 0",
    "START 33",
    "START 100000000000",
    "RECTSTART 3,40",
    "RECTSTART 7",
    "BEGIN now",
    "YXNBEST x",
    "INFO",
    "INFO bogus 1",
    "INFO timeout_turn x",
    "BOARD 1",
    "RESTART now",
    "DONE",
    "HELLO",
    "TURNX 7,7",
    "7,7",
    "7,7,1",
    "\u{feff}TURN 7,7",
    "turn\t\t",
    "ABOUT",
    "YXSTOP",
    "YXSHOWFORBID",
    "YXHASHCLEAR",
    "",
    "   ",
];

fn eol() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["\n", "\r\n", "\r\r\n"])
}

fn junk() -> impl Strategy<Value = Junk> {
    // Drawn from the allowed bytes directly: a filter's rejects add up over a long run, and
    // proptest aborts a run after 65,536 of them.
    let allowed: Vec<u8> = (0..=255u8)
        .filter(|b| !b.is_ascii_alphabetic() && *b != b'\n')
        .collect();
    let byte = prop::sample::select(allowed);
    prop_oneof![
        3 => (prop::collection::vec(byte, 0..200), eol()).prop_map(|(b, e)| Junk::Bytes(b, e)),
        1 => (1usize..300_000, prop::sample::select(vec![b'x', b'7', b',', b' ', 0xff]))
            .prop_map(|(n, b)| Junk::Huge(n, b)),
        1 => (
            prop::sample::select(vec!["TURN 7,7", "INFO timeout_turn 100", "START 15", ""]),
            prop::sample::select(vec![vec![0xe4, 0xbd], vec![0xf0, 0x9f, 0x98], vec![0xc3], vec![0x80]]),
        )
            .prop_map(|(c, b)| Junk::PartialUtf8(c, b)),
        3 => (prop::sample::select(REFUSED.to_vec()), eol()).prop_map(|(l, e)| Junk::Line(l, e)),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        6 => junk().prop_map(Item::Junk),
        2 => (
            prop::sample::select(vec!["BOARD", "YXBOARD", "SWAP2BOARD"]),
            prop::collection::vec((0u8..SIZE, 0u8..SIZE, 1u8..=2), 0..8),
            0u8..3,
        )
            .prop_map(|(o, l, e)| Item::CutBlock(o, l, e)),
        1 => (1usize..2000).prop_map(Item::Restarts),
        1 => (1usize..1000).prop_map(Item::Takebacks),
        1 => (1usize..1000).prop_map(Item::Boards),
        2 => (prop::collection::vec(junk(), 0..6), any::<bool>())
            .prop_map(|(j, s)| Item::Think(j, s)),
    ]
}

/// The driver's model of the engine's position: the stones in the order the engine got them.
/// The first is always Black (a `YXBOARD` block's first stone is Black whatever its field) and
/// the side to move is the opponent of the last stone's colour, as in the engine.
struct Model {
    rule: Rule,
    stones: Vec<(Point, Color)>,
}

impl Model {
    fn is_free(&self, p: Point) -> bool {
        !self.stones.iter().any(|(q, _)| *q == p)
    }

    /// The colour of the next stone played by `TURN` (or the engine).
    fn to_move(&self) -> Color {
        self.stones
            .last()
            .map_or(Color::Black, |(_, c)| c.opponent())
    }

    /// A `YXBOARD` block of the model: field 1 Black (the first stone), 2 White.
    fn yxboard(&self) -> String {
        let mut s = String::from("YXBOARD\r\n");
        for (p, c) in &self.stones {
            let f = if *c == Color::Black { 1 } else { 2 };
            s.push_str(&format!("{},{},{f}\r\n", p.x, p.y));
        }
        s.push_str("DONE\r\n");
        s
    }

    fn board(&self) -> Board {
        let mut board = Board::new(SIZE as usize, SIZE as usize, self.rule).expect("size");
        for (p, c) in &self.stones {
            board
                .place(*c, *p)
                .expect("model stones are on free points");
        }
        board
    }
}

fn junk_bytes(j: &Junk) -> Vec<u8> {
    match j {
        Junk::Bytes(b, e) => [b.as_slice(), e.as_bytes()].concat(),
        Junk::Huge(n, b) => {
            let mut v = vec![*b; *n];
            v.extend_from_slice(b"\r\n");
            v
        }
        Junk::PartialUtf8(c, b) => [c.as_bytes(), b.as_slice(), b"\n"].concat(),
        Junk::Line(l, e) => [l.as_bytes(), e.as_bytes()].concat(),
    }
}

fn send_junk(e: &mut Engine, j: &Junk) {
    let bytes = junk_bytes(j);
    e.log
        .push(format!("> [junk {} bytes: {:.60?}]", bytes.len(), j));
    e.send_raw(&bytes);
}

/// Sends the marker and returns every line up to its answer.
fn sync(e: &mut Engine) -> Vec<String> {
    e.send(MARKER);
    match e.lines_until(LINE_LIMIT, |l| l.starts_with(MARKER_REPLY)) {
        Some(lines) => lines,
        None => e.fail("a line the engine owes did not come in time (hang or crash)"),
    }
}

/// The replies that answer commands (not search output, not the marker's messages).
fn answers(lines: &[String]) -> impl Iterator<Item = &String> {
    lines.iter().filter(|l| !l.starts_with("MESSAGE "))
}

fn run_item(e: &mut Engine, model: &mut Model, item: &Item) {
    match item {
        Item::Junk(j) => send_junk(e, j),
        Item::CutBlock(opener, lines, ending) => {
            let mut s = format!("{opener}\r\n");
            for (x, y, f) in lines {
                s.push_str(&format!("{x},{y},{f}\r\n"));
            }
            s.push_str(match ending {
                0 => "99,99,1\r\nDONE\r\n",
                1 => "7,7,9\r\nABOUT\r\n",
                _ => "ABOUT\r\n",
            });
            e.log
                .push(format!("> [cut block {opener} {lines:?} ending {ending}]"));
            e.send_raw(s.as_bytes());
        }
        Item::Restarts(n) => {
            e.log
                .push(format!("> [RESTART x {n}, then YXBOARD of the model]"));
            e.send_raw("RESTART\r\n".repeat(*n).as_bytes());
            let restore = model.yxboard();
            e.send_raw(restore.as_bytes());
        }
        Item::Takebacks(n) => {
            let Some(&(p, _)) = model.stones.last() else {
                return;
            };
            e.log.push(format!("> [TAKEBACK {p} and YXBOARD x {n}]"));
            let one = format!("TAKEBACK {},{}\r\n{}", p.x, p.y, model.yxboard());
            e.send_raw(one.repeat(*n).as_bytes());
        }
        Item::Boards(n) => {
            e.log.push(format!("> [YXBOARD of the model x {n}]"));
            e.send_raw(model.yxboard().repeat(*n).as_bytes());
        }
        Item::Think(junk, stop) => {
            // Renju is left out here: the opponent's stone might be forbidden for Black. So is
            // a position with a five, or a TURN that makes one: the game would be over.
            let mut board = model.board();
            if model.rule == Rule::Renju || board.winner().is_some() {
                return;
            }
            let color = model.to_move();
            let mut points = board.empty_points();
            points.sort_by_key(|p| p.x.abs_diff(SIZE / 2) + p.y.abs_diff(SIZE / 2));
            let Some(p) = points.into_iter().find(|&p| {
                board.place(color, p).is_ok() && {
                    let five = board.winner().is_some();
                    let _ = board.undo();
                    !five
                }
            }) else {
                return;
            };
            e.send(&format!("TURN {},{}", p.x, p.y));
            for j in junk {
                send_junk(e, j);
            }
            if *stop {
                e.send("YXSTOP");
            }
            let lines = sync(e);
            let moves: Vec<Coord> = answers(&lines)
                .filter_map(|l| match Reply::parse(l) {
                    Ok(Reply::Move(c)) => Some(c),
                    _ => None,
                })
                .collect();
            match moves.as_slice() {
                [m] => {
                    let m = Point::new(m.x as u8, m.y as u8);
                    if !model.is_free(m) || m == p || m.x >= SIZE || m.y >= SIZE {
                        e.fail(&format!("the engine answered {m} on a taken point"));
                    }
                    model.stones.push((p, color));
                    model.stones.push((m, color.opponent()));
                }
                [] => e.fail("TURN on a free point got no move"),
                _ => e.fail(&format!("one TURN got several moves: {moves:?}")),
            }
        }
    }
}

/// Checks from outside that the engine's position is the model's.
fn check_position(e: &mut Engine, model: &Model) {
    let _ = sync(e);
    let mut probes = String::new();
    let mut count = 0;
    for y in 0..SIZE {
        for x in 0..SIZE {
            let p = Point::new(x, y);
            let probe = if model.is_free(p) { "TAKEBACK" } else { "TURN" };
            probes.push_str(&format!("{probe} {x},{y}\r\n"));
            count += 1;
        }
    }
    e.log.push(format!("> [{count} probes]"));
    e.send_raw(probes.as_bytes());
    let lines = sync(e);
    let replies: Vec<&String> = answers(&lines).collect();
    if replies.len() != count || replies.iter().any(|r| !r.starts_with("ERROR ")) {
        let wrong: Vec<&&String> = replies
            .iter()
            .filter(|r| !r.starts_with("ERROR "))
            .collect();
        e.fail(&format!(
            "the position differs from the model: {} answers to {count} probes, not refused: \
             {wrong:?}\nmodel:\n{}",
            replies.len(),
            model.board().to_text()
        ));
    }
    if model.rule == Rule::Renju {
        let mut board = model.board();
        let mut expected: Vec<Coord> = board
            .forbidden_points()
            .into_iter()
            .map(|(p, _)| Coord::from(p))
            .collect();
        e.send("YXSHOWFORBID");
        let lines = sync(e);
        let forbid = answers(&lines).find_map(|l| match Reply::parse(l) {
            Ok(Reply::Forbid(points)) => Some(points),
            _ => None,
        });
        let Some(mut got) = forbid else {
            e.fail("no FORBID answer");
        };
        got.sort();
        expected.sort();
        if got != expected {
            e.fail(&format!(
                "forbidden points {got:?}, the model's {expected:?}"
            ));
        }
    }
}

fn fuzz_case(rule: Rule, initial: &[(u8, u8)], items: &[Item]) {
    let mut e = Engine::spawn();
    e.send(&format!("INFO max_memory {}", MEMORY_LIMIT / 2));
    e.send("INFO timeout_turn 100");
    e.send("INFO timeout_match 100000000");
    e.send(&format!("INFO rule {}", rule.gomocup_code()));
    if e.ask(&format!("START {SIZE}")) != "OK" {
        e.fail("START refused");
    }
    let mut model = Model {
        rule,
        stones: Vec::new(),
    };
    for (i, &(x, y)) in initial.iter().enumerate() {
        let p = Point::new(x, y);
        if model.is_free(p) {
            let color = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            model.stones.push((p, color));
        }
    }
    let setup = model.yxboard();
    e.send_raw(setup.as_bytes());
    check_position(&mut e, &model);
    for item in items {
        run_item(&mut e, &mut model, item);
    }
    check_position(&mut e, &model);
    let peak = e.peak_rss();
    if peak == 0 || peak > MEMORY_LIMIT {
        e.fail(&format!(
            "peak resident memory {peak} bytes (limit {MEMORY_LIMIT})"
        ));
    }
    e.send("END");
    match e.exit_within(LINE_LIMIT) {
        Some(status) if status.success() => {}
        other => e.fail(&format!("END: the engine ended with {other:?}")),
    }
}

fn cases() -> u32 {
    wuzi_testkit::env_or("WUZI_FUZZ_CASES", 6)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        // Each case runs a process; shrink a little, not for hours.
        max_shrink_iters: 64,
        ..ProptestConfig::default()
    })]

    #[test]
    fn no_input_breaks_the_engine(
        rule in prop::sample::select(vec![Rule::Freestyle, Rule::Standard, Rule::Renju]),
        initial in prop::collection::vec((0u8..SIZE, 0u8..SIZE), 0..12),
        items in prop::collection::vec(item(), 1..40),
    ) {
        fuzz_case(rule, &initial, &items);
    }
}
