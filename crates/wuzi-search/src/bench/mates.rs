//! The forced-line suite and wuzi's side of `wuzi bench --mates`.
//!
//! Owns the suite's file format ([`read_suite`], [`format_suite`]), the selection of part of
//! a suite ([`Filter`]), what one engine did on one position ([`MateRun`]), and the search of
//! a position by wuzi's own searcher until it first reports a proven win for the side to move
//! ([`WuziMates`]). The same positions are given to other engines over the protocol by
//! `wuzi-match`, which also builds the suite from match records and sums up the runs.
//!
//! # The file format
//!
//! Plain text, one position a line, ten fields separated by white space; lines that are
//! blank or start with `#` are skipped:
//!
//! ```text
//! # id            split    attacker tomove rule      size  plies source        game         moves
//! fs15-2025:7:27  train    sparring white  freestyle 15x15 13    sparring:+M13 fs15-2025:7  h8i9j10...
//! ```
//!
//! - `id`: the position's name, unique in the file;
//! - `split`: `train` or `held-out` (tune on one, check on the other);
//! - `attacker`: which engine of the game had the forced win: `sparring` (the sparring
//!   engine) or `wuzi`;
//! - `tomove`: `black` or `white`, the side to move, which is the side with the win; it must
//!   agree with the number of moves (Black moves first);
//! - `rule`: `freestyle`, `standard`, `renju`, `caro` or `caro-exact`; `size`: `WxH`;
//! - `plies`: the length of the win as announced, in plies (the five is made on that ply);
//! - `source`: what announced it (`sparring:+M13`: the sparring engine's progress line;
//!   `sparring:-M14`: its announced loss one move earlier; `wuzi:29987`: wuzi's score);
//! - `game`: the game it came from (`BATCH:NUMBER`, see `data/README.md`), or `-`;
//! - `moves`: the moves from Black in letter-number notation run together (`h8i9j10`), or
//!   `-` for none.
//!
//! Invariants of a suite read here: ids are unique; every position's moves are legal, no
//! five (nor renju forbidden move) is on its board, and the side to move is `tomove`.
//! [`format_suite`] writes what [`read_suite`] reads back equal.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use thiserror::Error;
use wuzi_core::{notation, Board, Color, Point, Rule};
use wuzi_eval::eval::EvalChoice;

use crate::{Limits, Options, Searcher, WIN, WIN_MIN};

/// The table wuzi searches with when a manager allows the Gomocup memory limit (350 MiB):
/// what `pbrain-wuzi` uses in a match, and so the default here.
pub const MATE_HASH_BYTES: usize = 256 << 20;

/// Which part of a suite a position belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Split {
    Train,
    HeldOut,
}

impl Split {
    pub fn name(self) -> &'static str {
        match self {
            Split::Train => "train",
            Split::HeldOut => "held-out",
        }
    }
}

impl std::str::FromStr for Split {
    type Err = String;
    fn from_str(s: &str) -> Result<Split, String> {
        match s {
            "train" => Ok(Split::Train),
            "held-out" => Ok(Split::HeldOut),
            _ => Err(format!("unknown split '{s}' (train, held-out)")),
        }
    }
}

/// Which engine of the game the position came from had the forced win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Attacker {
    /// The sparring engine: a win wuzi had to see in defence.
    Sparring,
    /// wuzi itself.
    Wuzi,
}

impl Attacker {
    pub fn name(self) -> &'static str {
        match self {
            Attacker::Sparring => "sparring",
            Attacker::Wuzi => "wuzi",
        }
    }
}

impl std::str::FromStr for Attacker {
    type Err = String;
    fn from_str(s: &str) -> Result<Attacker, String> {
        match s {
            "sparring" => Ok(Attacker::Sparring),
            "wuzi" => Ok(Attacker::Wuzi),
            _ => Err(format!("unknown attacker '{s}' (sparring, wuzi)")),
        }
    }
}

/// One position of the suite: the side to move has a forced win of about `plies` plies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatePosition {
    pub id: String,
    pub split: Split,
    pub attacker: Attacker,
    pub rule: Rule,
    pub width: usize,
    pub height: usize,
    /// The announced length of the win in plies (at least 1).
    pub plies: u32,
    pub source: String,
    /// The game it came from, if any.
    pub game: Option<String>,
    /// The moves from Black.
    pub moves: Vec<Point>,
}

impl MatePosition {
    /// The side to move (and with the win): Black after an even number of moves.
    pub fn to_move(&self) -> Color {
        if self.moves.len() % 2 == 0 {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The league: rule and board size, e.g. `freestyle 15x15`.
    pub fn league(&self) -> String {
        format!("{} {}x{}", self.rule, self.width, self.height)
    }

    /// The position, or why it is not one: an unsupported size, an illegal move, a game
    /// already over.
    pub fn board(&self) -> Result<Board, String> {
        let mut board =
            Board::new(self.width, self.height, self.rule).map_err(|e| e.to_string())?;
        for (i, &p) in self.moves.iter().enumerate() {
            board
                .play(p)
                .map_err(|e| format!("move {} ({}): {e}", i + 1, p.name()))?;
            if board.winner().is_some() {
                return Err(format!(
                    "the game is over after move {} ({})",
                    i + 1,
                    p.name()
                ));
            }
        }
        Ok(board)
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn is_word(s: &str) -> bool {
    !s.is_empty() && !s.chars().any(|c| c.is_whitespace() || c.is_control())
}

impl fmt::Display for MatePosition {
    /// The position's line in the suite file (no line break).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves = if self.moves.is_empty() {
            "-".to_string()
        } else {
            notation::format_moves(&self.moves)
        };
        write!(
            f,
            "{} {} {} {} {} {}x{} {} {} {} {}",
            self.id,
            self.split.name(),
            self.attacker.name(),
            color_name(self.to_move()),
            self.rule,
            self.width,
            self.height,
            self.plies,
            self.source,
            self.game.as_deref().unwrap_or("-"),
            moves
        )
    }
}

/// Why a suite could not be read (or a position written).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SuiteError {
    #[error("line {line}: {why}")]
    Line { line: usize, why: String },
    #[error("position {id}: {why}")]
    Position { id: String, why: String },
}

/// The header [`format_suite`] writes above the positions.
pub const SUITE_HEADER: &str =
    "# id split attacker tomove rule size plies source game moves (data/README.md, mates/)";

/// Reads one position line (not a comment or a blank line).
fn parse_line(text: &str) -> Result<MatePosition, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    let [id, split, attacker, tomove, rule, size, plies, source, game, moves] = fields[..] else {
        return Err(format!(
            "expected 10 fields (id split attacker tomove rule size plies source game moves), found {}",
            fields.len()
        ));
    };
    let split: Split = split.parse()?;
    let attacker: Attacker = attacker.parse()?;
    let to_move = match tomove {
        "black" => Color::Black,
        "white" => Color::White,
        _ => return Err(format!("tomove '{tomove}' is not black or white")),
    };
    let rule: Rule = rule.parse()?;
    let bad_size = || format!("size '{size}' is not WxH");
    let (w, h) = size.split_once('x').ok_or_else(bad_size)?;
    let width: usize = w.parse().map_err(|_| bad_size())?;
    let height: usize = h.parse().map_err(|_| bad_size())?;
    let plies: u32 = match plies.parse() {
        Ok(n) if n >= 1 => n,
        _ => return Err(format!("plies '{plies}' is not a whole number from 1")),
    };
    let moves = match moves {
        "-" => Vec::new(),
        m => notation::parse_moves(m).map_err(|e| e.to_string())?,
    };
    let position = MatePosition {
        id: id.to_string(),
        split,
        attacker,
        rule,
        width,
        height,
        plies,
        source: source.to_string(),
        game: (game != "-").then(|| game.to_string()),
        moves,
    };
    position.board()?;
    if position.to_move() != to_move {
        return Err(format!(
            "tomove is {tomove} but {} moves leave {} to move",
            position.moves.len(),
            color_name(position.to_move())
        ));
    }
    Ok(position)
}

/// Reads a suite (see the module documentation); every position is checked.
pub fn read_suite(text: &str) -> Result<Vec<MatePosition>, SuiteError> {
    let mut out: Vec<MatePosition> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let fail = |why: String| SuiteError::Line { line: i + 1, why };
        let position = parse_line(t).map_err(fail)?;
        if !ids.insert(position.id.clone()) {
            return Err(fail(format!("id '{}' appears twice", position.id)));
        }
        out.push(position);
    }
    Ok(out)
}

/// Writes a suite: `comments` (each made a `#` line), the header, then one line a position.
/// Fails on a position that would not read back (a field with white space, an empty id or
/// source, plies 0, a duplicate id, an illegal position).
pub fn format_suite(comments: &[String], positions: &[MatePosition]) -> Result<String, SuiteError> {
    let mut out = String::new();
    for c in comments {
        for line in c.lines() {
            out.push_str("# ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str(SUITE_HEADER);
    out.push('\n');
    let mut ids = std::collections::HashSet::new();
    for p in positions {
        let fail = |why: String| SuiteError::Position {
            id: p.id.clone(),
            why,
        };
        let words_ok = is_word(&p.id)
            && is_word(&p.source)
            && p.game.as_deref().map_or(true, is_word)
            && !p.id.starts_with('#');
        if !words_ok {
            return Err(fail(
                "id, source and game must be non-empty words without white space".into(),
            ));
        }
        if p.plies == 0 {
            return Err(fail("plies must be at least 1".into()));
        }
        if !ids.insert(p.id.as_str()) {
            return Err(fail("the id appears twice".into()));
        }
        p.board().map_err(fail)?;
        out.push_str(&p.to_string());
        out.push('\n');
    }
    Ok(out)
}

/// Which positions of a suite to run; `None` (or empty) takes all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub split: Option<Split>,
    pub attacker: Option<Attacker>,
    pub rules: Vec<Rule>,
    /// Square sizes or `(width, height)`.
    pub sizes: Vec<(usize, usize)>,
}

impl Filter {
    pub fn accepts(&self, p: &MatePosition) -> bool {
        self.split.map_or(true, |s| s == p.split)
            && self.attacker.map_or(true, |a| a == p.attacker)
            && (self.rules.is_empty() || self.rules.contains(&p.rule))
            && (self.sizes.is_empty() || self.sizes.contains(&(p.width, p.height)))
    }
}

/// The moment an engine first reported a proven win for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// From the start of its search.
    pub elapsed: Duration,
    /// Nodes searched by then, where the engine tells.
    pub nodes: Option<u64>,
    /// The length of the win it reported, in plies, where it tells.
    pub plies: Option<u32>,
    /// The first move of its line, where it tells.
    pub first_move: Option<Point>,
}

/// What one engine did on one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MateRun {
    /// Its first report of a proven win within the cap, if any.
    pub found: Option<Found>,
    /// Time searched: to the stop after the win, or to the cap, or to the end of its search.
    pub elapsed: Duration,
    /// Nodes searched in all, where the engine tells.
    pub nodes: Option<u64>,
    /// It reported a proven loss for the side to move (the suite's position or the engine is
    /// wrong).
    pub claimed_loss: bool,
    /// Why the engine gave no answer (it could not be started, it crashed, ...).
    pub error: Option<String>,
}

/// How wuzi searches the positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateSettings {
    /// The time cap per position: the search's turn time (its soft and hard limit, as when
    /// a manager gives only a turn time).
    pub cap: Duration,
    /// A node cap instead of the time cap: the search has no clock, so that one thread
    /// gives the same figures on any machine (the fast loop of a search change).
    pub max_nodes: Option<u64>,
    pub threads: usize,
    pub eval: EvalChoice,
    pub hash_bytes: usize,
    /// `Options::learned_order`: off compares the hand-set class ordering.
    pub learned_order: bool,
}

impl MateSettings {
    /// A cap of `cap`, one thread, the default evaluation and the match table size.
    pub fn new(cap: Duration) -> MateSettings {
        MateSettings {
            cap,
            max_nodes: None,
            threads: 1,
            eval: EvalChoice::Auto,
            hash_bytes: MATE_HASH_BYTES,
            learned_order: true,
        }
    }
}

/// Searches suite positions with wuzi's searcher, one after the other, each from an empty
/// table (the table and the thread pool are made once).
pub struct WuziMates {
    searcher: Searcher,
    settings: MateSettings,
}

impl WuziMates {
    /// Fails only when the thread pool cannot be started.
    pub fn new(settings: MateSettings) -> Result<WuziMates, String> {
        let mut searcher = Searcher::new(settings.hash_bytes);
        searcher.set_options(Options {
            eval: settings.eval,
            learned_order: settings.learned_order,
            ..Options::default()
        });
        searcher
            .set_threads(settings.threads)
            .map_err(|e| e.to_string())?;
        Ok(WuziMates { searcher, settings })
    }

    /// Searches `position` until the searcher first reports a score of [`WIN_MIN`] or more
    /// (from the root threat solvers or an iteration of the deepening) within the cap, then
    /// stops it; or until the cap, or the search's own end. The clock runs from the search's
    /// start: the table's clearing and the one-time set-up ([`Searcher::prepare`]) are not
    /// timed.
    pub fn run(&mut self, position: &MatePosition) -> MateRun {
        let board = match position.board() {
            Ok(b) => b,
            Err(e) => {
                return MateRun {
                    error: Some(e),
                    ..MateRun::default()
                }
            }
        };
        self.searcher.clear();
        self.searcher.prepare(&board);
        let stop = AtomicBool::new(false);
        let limits = match self.settings.max_nodes {
            Some(nodes) => Limits {
                max_nodes: Some(nodes),
                ..Limits::default()
            },
            // Only a hard limit: every iteration starts while there is time, and a forced
            // root is read on like any position, not stopped as in play.
            None => Limits {
                hard_time: Some(self.settings.cap),
                ..Limits::default()
            },
        };
        let mut found: Option<Found> = None;
        let mut claimed_loss = false;
        // Under a node cap the search stops itself at the cap: no line is past it.
        let cap = match self.settings.max_nodes {
            Some(_) => Duration::MAX,
            None => self.settings.cap,
        };
        let start = Instant::now();
        let result = {
            let stop = &stop;
            let found = &mut found;
            let claimed_loss = &mut claimed_loss;
            self.searcher.search(&board, &limits, stop, &mut |info| {
                // A line reported past the cap (an iteration the clock cut, which still
                // reports a new best move it proved) does not count.
                if info.multipv != 1 || found.is_some() || info.elapsed > cap {
                    return;
                }
                if (WIN_MIN..=WIN).contains(&info.score) {
                    *found = Some(Found {
                        elapsed: info.elapsed,
                        nodes: Some(info.nodes),
                        plies: u32::try_from(WIN - info.score).ok(),
                        first_move: info.pv.first().copied(),
                    });
                    stop.store(true, Ordering::Relaxed);
                } else if (-WIN..=-WIN_MIN).contains(&info.score) {
                    *claimed_loss = true;
                }
            })
        };
        let elapsed = start.elapsed();
        MateRun {
            found,
            elapsed,
            nodes: result.as_ref().map(|r| r.nodes),
            claimed_loss,
            error: result.is_none().then(|| "no legal move".to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<MatePosition> {
        let moves = |m: &str| notation::parse_moves(m).expect("moves");
        vec![
            MatePosition {
                id: "a:1:7".into(),
                split: Split::Train,
                attacker: Attacker::Sparring,
                rule: Rule::Freestyle,
                width: 15,
                height: 15,
                plies: 13,
                source: "sparring:+M13".into(),
                game: Some("a:1".into()),
                moves: moves("h8i9j10i8i10h9g9"),
            },
            MatePosition {
                id: "renju-b".into(),
                split: Split::HeldOut,
                attacker: Attacker::Wuzi,
                rule: Rule::Renju,
                width: 15,
                height: 15,
                plies: 1,
                source: "wuzi:29999".into(),
                game: None,
                moves: moves("h8i9g8j10"),
            },
            MatePosition {
                id: "empty".into(),
                split: Split::Train,
                attacker: Attacker::Wuzi,
                rule: Rule::CaroExact,
                width: 20,
                height: 12,
                plies: 99,
                source: "made-up".into(),
                game: None,
                moves: Vec::new(),
            },
        ]
    }

    #[test]
    fn suite_round_trips() {
        let positions = sample();
        let text = format_suite(&["made here".into()], &positions).expect("written");
        assert!(text.starts_with("# made here\n# id "));
        assert_eq!(read_suite(&text), Ok(positions.clone()));
        // Written again, the text is the same.
        let again = format_suite(&["made here".into()], &read_suite(&text).expect("read"));
        assert_eq!(again, Ok(text.clone()));
        assert!(text.contains(
            "\na:1:7 train sparring white freestyle 15x15 13 sparring:+M13 a:1 h8i9j10i8i10h9g9\n"
        ));
        assert!(text.contains("\nempty train wuzi black caro-exact 20x12 99 made-up - -\n"));
    }

    #[test]
    fn bad_lines_are_errors_with_their_number() {
        let good = "a train sparring white freestyle 15x15 13 s g h8i9j10";
        assert_eq!(read_suite(good).map(|p| p.len()), Ok(1));
        let bad = [
            "a train sparring white freestyle 15x15 13 s g",
            "a train sparring white freestyle 15x15 13 s g h8i9j10 extra",
            "a test sparring white freestyle 15x15 13 s g h8i9j10",
            "a train rapfi white freestyle 15x15 13 s g h8i9j10",
            "a train sparring black freestyle 15x15 13 s g h8i9j10",
            "a train sparring white gomoku 15x15 13 s g h8i9j10",
            "a train sparring white freestyle 15 13 s g h8i9j10",
            "a train sparring white freestyle 4x4 13 s g h8",
            "a train sparring white freestyle 15x15 0 s g h8i9j10",
            "a train sparring white freestyle 15x15 -3 s g h8i9j10",
            "a train sparring white freestyle 15x15 13 s g h8h8j10",
            "a train sparring white freestyle 15x15 13 s g z8i9j10",
            "a train sparring white freestyle 15x15 13 s g h8a1i8a2j8a3k8a4l8",
        ];
        for b in bad {
            let text = format!("# comment\n\n{good}\n{b}\n");
            match read_suite(&text) {
                Err(SuiteError::Line { line: 4, .. }) => {}
                other => panic!("{b:?}: {other:?}"),
            }
        }
        let twice = format!("{good}\n{good}\n");
        assert!(matches!(
            read_suite(&twice),
            Err(SuiteError::Line { line: 2, .. })
        ));
    }

    #[test]
    fn unwritable_positions_are_refused() {
        let mut p = sample();
        p[0].source = "two words".into();
        assert!(format_suite(&[], &p).is_err());
        let mut p = sample();
        p[1].id = p[0].id.clone();
        assert!(format_suite(&[], &p).is_err());
        let mut p = sample();
        p[2].plies = 0;
        assert!(format_suite(&[], &p).is_err());
    }

    #[test]
    fn filters_select() {
        let p = sample();
        let all = Filter::default();
        assert!(p.iter().all(|x| all.accepts(x)));
        let held = Filter {
            split: Some(Split::HeldOut),
            ..Filter::default()
        };
        assert_eq!(p.iter().filter(|x| held.accepts(x)).count(), 1);
        let f = Filter {
            rules: vec![Rule::Freestyle, Rule::CaroExact],
            sizes: vec![(15, 15)],
            ..Filter::default()
        };
        let ids: Vec<&str> = p
            .iter()
            .filter(|x| f.accepts(x))
            .map(|x| x.id.as_str())
            .collect();
        assert_eq!(ids, ["a:1:7"]);
    }

    #[test]
    fn wuzi_finds_a_short_win_and_stops() {
        // Black has an open three h8 i8 j8 with White far away: an open four wins in 3 plies.
        let p = MatePosition {
            id: "t".into(),
            split: Split::Train,
            attacker: Attacker::Wuzi,
            rule: Rule::Freestyle,
            width: 15,
            height: 15,
            plies: 3,
            source: "test".into(),
            game: None,
            moves: notation::parse_moves("h8a1i8a15j8o1").expect("moves"),
        };
        let mut settings = MateSettings::new(Duration::from_secs(5));
        settings.hash_bytes = 1 << 20;
        let mut wuzi = WuziMates::new(settings).expect("searcher");
        let run = wuzi.run(&p);
        let found = run.found.expect("a win");
        assert_eq!(found.plies, Some(3));
        assert!(found.elapsed <= run.elapsed);
        assert!(found.nodes.is_some_and(|n| n <= run.nodes.unwrap_or(0)));
        // Stopped at the win, far from the cap.
        assert!(run.elapsed < Duration::from_secs(4), "{:?}", run.elapsed);
        assert!(!run.claimed_loss);
    }
}
