//! Fuzzing the real `pbrain-wuzi` over its pipes: proptest builds byte streams of junk and
//! abuse (binary junk, huge lines, partial UTF-8, CR/LF mixtures, bad commands, position
//! blocks cut off, commands while the engine thinks, thousands of `RESTART`/`TAKEBACK`/
//! `YXBOARD` in a row) and the analysis GUIs' commands (blocks, balance, `YXNBEST`,
//! `YXSEARCHDEFEND`, saved tables, the `show_detail` levels, pondering, levels, draw rules,
//! Yixin-Board's commands without effect), and a driver sends them to the engine while keeping
//! its own model of the position and of the blocked points.
//!
//! Invariants checked on every case:
//! - no crash and no hang: every line the engine owes comes within [`LINE_LIMIT`] (generous,
//!   for a loaded machine), and `END` ends the process cleanly;
//! - the position after any error is the position before it: after each stream the engine's
//!   position is probed from outside and must equal the model: every model stone refuses
//!   `TURN` onto it, every empty point refuses `TAKEBACK`, and under renju `YXSHOWFORBID`
//!   lists the model's forbidden points (which checks the colours too);
//! - the engine never answers a point the model knows to be blocked, and every move it
//!   answers (a `TURN`, `YXNBEST`, a balance pair) is on a free point;
//! - memory stays bounded: peak resident memory (`VmHWM`) under [`MEMORY_LIMIT`].
//!
//! The model follows only what is certain: junk and bad commands change nothing; a cut block
//! changes nothing; `RESTART` empties the board; a `YXBOARD` block of the model restores it;
//! a `TURN` adds the opponent's stone and the engine's answer once the answer is read, and
//! `YXNBEST` and the balance commands add the moves they answer. Blocks sent whole with points
//! on the board are added to (or removed from) the model's blocked points; junk may block
//! more (a junk `YXBLOCK`, then `7,7`, then `DONE`), which only leaves the model knowing less.
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
    /// `YXBLOCK` (or `YXBLOCKUNDO` when the flag is set) of these points, then `DONE`, maybe
    /// with a line off the board (the whole block is refused); or `YXBLOCKRESET` when empty.
    Blocks(Vec<(u8, u8)>, bool, bool),
    /// A search that plays what it answers: `YXNBEST n` (0: `YXBALANCEONE`, 1:
    /// `YXBALANCETWO`, 2 and up: `YXNBEST n - 1`), with a target, then junk while it runs.
    Analyse(u8, i32, Vec<Junk>, bool),
    /// `YXSEARCHDEFEND`: a `MESSAGE DEFEND` line, nothing changed.
    Defend,
    /// The table saved to a file and loaded back, then its usage shown.
    HashRoundTrip,
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
    "YXBLOCK 1",
    "YXBLOCKUNDO x",
    "YXBLOCKRESET now",
    "YXBALANCEONE x",
    "YXBALANCETWO 1 2",
    "YXBALANCEONE 99999999999",
    "YXSEARCHDEFEND now",
    "YXSHOWHASHUSAGE",
    "YXHASHLOAD /nonexistent/wuzi/none.hash",
    "YXHASHLOAD",
    "INFO show_detail 3",
    "INFO show_detail 1",
    "INFO show_detail 0",
    "INFO pondering 1",
    "INFO pondering 0",
    "INFO pondering 7",
    "INFO strength 40",
    "INFO strength 100",
    "INFO strength 101",
    "INFO max_moves 30",
    "INFO max_moves 0",
    "INFO max_moves -3",
    "INFO draw_result 1",
    "INFO draw_result 9",
    "yxquerydatabaseall",
    "YXBLOCKPATH",
    "yxsetdatabase",
    "YXSWAP2STEP1",
    "START 15 15 15",
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
        1 => (
            prop::collection::vec((0u8..SIZE, 0u8..SIZE), 0..6),
            any::<bool>(),
            prop::bool::weighted(0.2),
        )
            .prop_map(|(p, undo, off)| Item::Blocks(p, undo, off)),
        1 => (0u8..5, -300i32..300, prop::collection::vec(junk(), 0..3), any::<bool>())
            .prop_map(|(k, t, j, s)| Item::Analyse(k, t, j, s)),
        1 => Just(Item::Defend),
        1 => Just(Item::HashRoundTrip),
    ]
}

/// The driver's model of the engine's position: the stones in the order the engine got them.
/// The first is always Black (a `YXBOARD` block's first stone is Black whatever its field) and
/// the side to move is the opponent of the last stone's colour, as in the engine.
struct Model {
    rule: Rule,
    stones: Vec<(Point, Color)>,
    /// Points surely blocked (junk may have blocked more).
    blocked: Vec<Point>,
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
    lines
        .iter()
        .filter(|l| !l.starts_with("MESSAGE ") && !l.starts_with("INFO "))
}

/// The moves an engine answered, checked against the model: on the board, free, not blocked.
fn answered_moves(e: &Engine, model: &Model, lines: &[String]) -> Vec<Vec<Point>> {
    let mut out = Vec::new();
    for l in answers(lines) {
        let moves = match Reply::parse(l) {
            Ok(Reply::Move(c)) => vec![c],
            Ok(Reply::Moves(cs)) => cs,
            _ => continue,
        };
        let points: Vec<Point> = moves
            .iter()
            .map(|c| Point::new(c.x.min(255) as u8, c.y.min(255) as u8))
            .collect();
        for (c, p) in moves.iter().zip(&points) {
            if c.x >= u32::from(SIZE) || c.y >= u32::from(SIZE) || !model.is_free(*p) {
                e.fail(&format!("the engine answered {c}: off the board or taken"));
            }
        }
        if model.blocked.contains(&points[0]) {
            e.fail(&format!(
                "the engine answered the blocked point {}",
                points[0]
            ));
        }
        out.push(points);
    }
    out
}

/// Whether a junk line keeps the engine busy for a moment, as a search does (the table
/// commands run on the search thread and the session waits for them): lines that arrive
/// meanwhile wait in the engine's queue, which refuses more than 4,096 (`protocol.md`), so
/// the driver waits for the engine before sending a flood of churn after one.
fn busies_the_engine(j: &Junk) -> bool {
    matches!(j, Junk::Line(l, _) if l.starts_with("YXHASH") || l.starts_with("YXSHOWHASHUSAGE"))
}

fn run_item(e: &mut Engine, model: &mut Model, item: &Item) {
    match item {
        Item::Junk(j) => {
            send_junk(e, j);
            if busies_the_engine(j) {
                let _ = sync(e);
            }
        }
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
            model.stones.push((p, color));
            let moves = answered_moves(e, model, &lines);
            match moves.as_slice() {
                [m] if m.len() == 1 => model.stones.push((m[0], color.opponent())),
                [] => e.fail("TURN on a free point got no move"),
                _ => e.fail(&format!("one TURN got several moves: {moves:?}")),
            }
        }
        Item::Blocks(points, undo, off) => {
            if points.is_empty() {
                e.send("YXBLOCKRESET");
                model.blocked.clear();
                return;
            }
            let word = if *undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
            let mut s = format!("{word}\r\n");
            for (x, y) in points {
                s.push_str(&format!("{x},{y}\r\n"));
            }
            if *off {
                s.push_str(&format!("{SIZE},3\r\n"));
            }
            s.push_str("DONE\r\n");
            e.log
                .push(format!("> [{word} {points:?}, off the board: {off}]"));
            e.send_raw(s.as_bytes());
            let lines = sync(e);
            let refused = answers(&lines).any(|l| l.starts_with(&format!("ERROR {word}: ")));
            if refused != *off {
                e.fail(&format!(
                    "{word} with a point off the board: {off}, refused: {refused}"
                ));
            }
            if !*off {
                for &(x, y) in points {
                    let p = Point::new(x, y);
                    if *undo {
                        model.blocked.retain(|&q| q != p);
                    } else if !model.blocked.contains(&p) {
                        model.blocked.push(p);
                    }
                }
            }
        }
        Item::Analyse(kind, target, junk, stop) => {
            // A finished game is left alone, as is a nearly full board.
            let mut board = model.board();
            if board.winner().is_some() || board.empty_points().len() < 3 {
                return;
            }
            let command = match kind {
                0 => format!("YXBALANCEONE {target}"),
                1 => format!("YXBALANCETWO {target}"),
                n => format!("YXNBEST {}", n - 1),
            };
            e.send(&command);
            for j in junk {
                send_junk(e, j);
            }
            if *stop {
                e.send("YXSTOP");
            }
            let lines = sync(e);
            let wanted = if *kind == 1 { 2 } else { 1 };
            let moves = answered_moves(e, model, &lines);
            let errors: Vec<&String> = answers(&lines)
                .filter(|l| l.starts_with("ERROR no legal move"))
                .collect();
            match moves.as_slice() {
                [m] if m.len() == wanted => {
                    let mut color = model.to_move();
                    for &p in m {
                        if !model.is_free(p) {
                            e.fail(&format!("{command} answered {p} twice"));
                        }
                        model.stones.push((p, color));
                        color = color.opponent();
                    }
                }
                [] if !errors.is_empty() => {}
                _ => e.fail(&format!("{command} answered {moves:?}")),
            }
        }
        Item::Defend => {
            e.send("YXSEARCHDEFEND");
            let lines = sync(e);
            let said = lines
                .iter()
                .any(|l| l.starts_with("MESSAGE DEFEND ") || l.starts_with("ERROR "));
            if !said {
                e.fail("YXSEARCHDEFEND: no DEFEND line");
            }
        }
        Item::HashRoundTrip => {
            let path = std::env::temp_dir().join(format!("wuzi-fuzz-{}.hash", std::process::id()));
            e.send(&format!("YXHASHDUMP {}", path.display()));
            e.send(&format!("YXHASHLOAD {}", path.display()));
            e.send("YXSHOWHASHUSAGE");
            let lines = sync(e);
            let _ = std::fs::remove_file(&path);
            let ok = ["hash table saved", "hash table loaded", "hash usage"]
                .iter()
                .all(|want| {
                    lines
                        .iter()
                        .any(|l| l.starts_with(&format!("MESSAGE {want}")))
                });
            if !ok {
                e.fail(&format!("the table did not make the round trip: {lines:?}"));
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
        blocked: Vec::new(),
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
