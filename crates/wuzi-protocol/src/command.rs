//! Manager-to-engine commands.
//!
//! [`Command::parse`] reads one line as a manager sends it (the line terminator, CR and LF,
//! already removed or not; leading and trailing white space is ignored; the command word in
//! any case). `Display` writes the canonical wire form, so the manager side of a match can send
//! a `Command` as is. The lines inside a position block are [`crate::StoneLine`]s, not
//! commands; `DONE` is a command so that it can be formatted and recognised anywhere.

use std::fmt;

use crate::coord::{parse_index, Coord};
use crate::error::{quote, ParseError};
use crate::setting::Setting;

/// One command line from the manager.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `START N`: new game on an N x N board.
    Start(u32),
    /// `RECTSTART W,H`: new game on a W x H board.
    RectStart { width: u32, height: u32 },
    /// `RESTART`: new game on the same board.
    Restart,
    /// `BEGIN`: the engine moves first.
    Begin,
    /// `TURN X,Y`: the opponent played there; the engine answers a move.
    Turn(Coord),
    /// `BOARD`: a position follows as stone lines, then `DONE`; the engine answers a move.
    Board,
    /// `YXBOARD`: a position follows as stone lines, then `DONE`; no answer.
    YxBoard,
    /// `SWAP2BOARD`: 0, 3 or 5 opening stones follow, then `DONE`; the engine answers its
    /// swap2 choice.
    Swap2Board,
    /// `DONE`: ends a position block.
    Done,
    /// `TAKEBACK X,Y`: remove that stone.
    Takeback(Coord),
    /// `PLAY X,Y`: play that move (after `SUGGEST`).
    Play(Coord),
    /// `INFO key value`.
    Info(Setting),
    /// `END`: exit.
    End,
    /// `ABOUT`: describe the engine.
    About,
    /// `YXSTOP`: stop thinking and answer now.
    YxStop,
    /// `YXSHOWFORBID`: list Black's forbidden points.
    YxShowForbid,
    /// `YXNBEST N`: search the N best moves.
    YxNbest(u32),
    /// `YXHASHCLEAR`: clear the transposition table.
    YxHashClear,
    /// `YXSHOWINFO`: report the engine's limits and what it supports.
    YxShowInfo,
    /// `YXBLOCK`: points the search must not play follow, one `X,Y` a line, then `DONE`.
    YxBlock,
    /// `YXBLOCKUNDO`: points to unblock follow, one `X,Y` a line, then `DONE`.
    YxBlockUndo,
    /// `YXBLOCKRESET`: unblock every point.
    YxBlockReset,
    /// `YXBALANCEONE B`: the move after which the position is worth about `B` for the side
    /// that played it (`B` 0 when left out).
    YxBalanceOne(i32),
    /// `YXBALANCETWO B`: the pair of moves, one of each side, after which the position is
    /// worth about `B` for the side that played the second (`B` 0 when left out).
    YxBalanceTwo(i32),
    /// `YXSEARCHDEFEND`: the defences that hold against the opponent's threat sequence.
    YxSearchDefend,
    /// `YXHASHDUMP FILE`: the transposition table to a file. `None`: the file name follows
    /// on the next line (as Yixin-Board sends it).
    YxHashDump(Option<String>),
    /// `YXHASHLOAD FILE`: the transposition table from a file; `None` as for `YxHashDump`.
    YxHashLoad(Option<String>),
    /// `YXSHOWHASHUSAGE`: report how full the transposition table is.
    YxShowHashUsage,
    /// A Yixin-Board command the engine accepts without acting on it (databases, block
    /// paths, its own opening-rule steps); `follows` says which lines belong to it.
    Unsupported {
        word: &'static str,
        follows: Follows,
    },
}

/// The lines that belong to a command after its own line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Follows {
    /// Nothing.
    Nothing,
    /// One line (a file name).
    OneLine,
    /// Lines up to `DONE`.
    UntilDone,
}

/// The Yixin-Board commands wuzi accepts without acting on them, and the lines each brings.
/// (Yixin-Board sends them for its opening database, its block paths and its own swap2 and
/// soosorv game flows; `protocol.md` lists them.)
pub const UNSUPPORTED: &[(&str, Follows)] = &[
    ("YXBLOCKPATH", Follows::UntilDone),
    ("YXBLOCKPATHUNDO", Follows::UntilDone),
    ("YXBLOCKPATHRESET", Follows::Nothing),
    ("YXSETDATABASE", Follows::OneLine),
    ("YXSAVEDATABASE", Follows::Nothing),
    ("YXQUERYDATABASEALL", Follows::Nothing),
    ("YXQUERYDATABASEALLT", Follows::Nothing),
    ("YXQUERYDATABASEONE", Follows::Nothing),
    ("YXQUERYDATABASETEXT", Follows::Nothing),
    ("YXDELETEDATABASEONE", Follows::Nothing),
    ("YXDELETEDATABASEALL", Follows::Nothing),
    ("YXEDITLABELDATABASE", Follows::Nothing),
    ("YXEDITTVDDATABASE", Follows::Nothing),
    ("YXEDITTEXTDATABASE", Follows::Nothing),
    ("YXSETBESTMOVEDATABASE", Follows::UntilDone),
    ("YXCLEARBESTMOVEDATABASE", Follows::UntilDone),
    ("YXDBTOTXT", Follows::OneLine),
    ("YXTXTTODB", Follows::OneLine),
    ("YXDBCHECK", Follows::Nothing),
    ("YXDBFIX", Follows::Nothing),
    ("YXDBTOPOS", Follows::Nothing),
    ("YXPRINTFEATURE", Follows::Nothing),
    ("YXFORBID", Follows::Nothing),
    ("YXDRAW", Follows::Nothing),
    ("YXRESIGN", Follows::Nothing),
    ("YXSWAP2STEP1", Follows::Nothing),
    ("YXSWAP2STEP2", Follows::Nothing),
    ("YXSWAP2STEP3", Follows::Nothing),
    ("YXSOOSORVSTEP1", Follows::Nothing),
    ("YXSOOSORVSTEP2", Follows::Nothing),
    ("YXSOOSORVSTEP3", Follows::Nothing),
    ("YXSOOSORVSTEP4", Follows::Nothing),
    ("YXSOOSORVSTEP5", Follows::UntilDone),
    ("YXSOOSORVSTEP6", Follows::Nothing),
];

impl Command {
    /// Reads one manager line. A word that is no command gives [`ParseError::Unknown`] with that
    /// word; a known command with bad arguments gives one of the other errors.
    pub fn parse(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        if line.is_empty() {
            return Err(ParseError::Empty);
        }
        let (word, args) = match line.split_once(char::is_whitespace) {
            Some((w, a)) => (w, a.trim()),
            None => (line, ""),
        };
        let upper = word.to_ascii_uppercase();
        let command = match upper.as_str() {
            "START" => start(args)?,
            "RECTSTART" => {
                let size = one_arg(args, "RECTSTART", "a board size W,H")?;
                let c = Coord::parse(size, "RECTSTART")?;
                Command::RectStart {
                    width: c.x,
                    height: c.y,
                }
            }
            "RESTART" => no_arg(args, "RESTART", Command::Restart)?,
            "BEGIN" => no_arg(args, "BEGIN", Command::Begin)?,
            "TURN" => Command::Turn(coord_arg(args, "TURN")?),
            "BOARD" => no_arg(args, "BOARD", Command::Board)?,
            "YXBOARD" => no_arg(args, "YXBOARD", Command::YxBoard)?,
            "SWAP2BOARD" => no_arg(args, "SWAP2BOARD", Command::Swap2Board)?,
            "DONE" => no_arg(args, "DONE", Command::Done)?,
            "TAKEBACK" => Command::Takeback(coord_arg(args, "TAKEBACK")?),
            "PLAY" => Command::Play(coord_arg(args, "PLAY")?),
            "INFO" => Command::Info(Setting::parse(args)?),
            "END" => no_arg(args, "END", Command::End)?,
            "ABOUT" => no_arg(args, "ABOUT", Command::About)?,
            "YXSTOP" => no_arg(args, "YXSTOP", Command::YxStop)?,
            "YXSHOWFORBID" => no_arg(args, "YXSHOWFORBID", Command::YxShowForbid)?,
            "YXNBEST" => {
                let n = one_arg(args, "YXNBEST", "a number of moves N")?;
                Command::YxNbest(parse_index(n, "YXNBEST")?)
            }
            "YXHASHCLEAR" => no_arg(args, "YXHASHCLEAR", Command::YxHashClear)?,
            "YXSHOWINFO" => no_arg(args, "YXSHOWINFO", Command::YxShowInfo)?,
            "YXBLOCK" => no_arg(args, "YXBLOCK", Command::YxBlock)?,
            "YXBLOCKUNDO" => no_arg(args, "YXBLOCKUNDO", Command::YxBlockUndo)?,
            "YXBLOCKRESET" => no_arg(args, "YXBLOCKRESET", Command::YxBlockReset)?,
            "YXBALANCEONE" => Command::YxBalanceOne(bias(args, "YXBALANCEONE")?),
            "YXBALANCETWO" => Command::YxBalanceTwo(bias(args, "YXBALANCETWO")?),
            "YXSEARCHDEFEND" => no_arg(args, "YXSEARCHDEFEND", Command::YxSearchDefend)?,
            "YXHASHDUMP" => Command::YxHashDump(path_arg(args)),
            "YXHASHLOAD" => Command::YxHashLoad(path_arg(args)),
            "YXSHOWHASHUSAGE" => no_arg(args, "YXSHOWHASHUSAGE", Command::YxShowHashUsage)?,
            other => match UNSUPPORTED.iter().find(|(w, _)| *w == other) {
                Some(&(word, follows)) => Command::Unsupported { word, follows },
                None => return Err(ParseError::Unknown(quote(word))),
            },
        };
        Ok(command)
    }

    /// The command word, as written on the wire.
    pub fn word(&self) -> &'static str {
        match self {
            Command::Start(_) => "START",
            Command::RectStart { .. } => "RECTSTART",
            Command::Restart => "RESTART",
            Command::Begin => "BEGIN",
            Command::Turn(_) => "TURN",
            Command::Board => "BOARD",
            Command::YxBoard => "YXBOARD",
            Command::Swap2Board => "SWAP2BOARD",
            Command::Done => "DONE",
            Command::Takeback(_) => "TAKEBACK",
            Command::Play(_) => "PLAY",
            Command::Info(_) => "INFO",
            Command::End => "END",
            Command::About => "ABOUT",
            Command::YxStop => "YXSTOP",
            Command::YxShowForbid => "YXSHOWFORBID",
            Command::YxNbest(_) => "YXNBEST",
            Command::YxHashClear => "YXHASHCLEAR",
            Command::YxShowInfo => "YXSHOWINFO",
            Command::YxBlock => "YXBLOCK",
            Command::YxBlockUndo => "YXBLOCKUNDO",
            Command::YxBlockReset => "YXBLOCKRESET",
            Command::YxBalanceOne(_) => "YXBALANCEONE",
            Command::YxBalanceTwo(_) => "YXBALANCETWO",
            Command::YxSearchDefend => "YXSEARCHDEFEND",
            Command::YxHashDump(_) => "YXHASHDUMP",
            Command::YxHashLoad(_) => "YXHASHLOAD",
            Command::YxShowHashUsage => "YXSHOWHASHUSAGE",
            Command::Unsupported { word, .. } => word,
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let word = self.word();
        match self {
            Command::Start(n) => write!(f, "{word} {n}"),
            Command::RectStart { width, height } => write!(f, "{word} {width},{height}"),
            Command::Turn(c) | Command::Takeback(c) | Command::Play(c) => write!(f, "{word} {c}"),
            Command::Info(s) => write!(f, "{word} {s}"),
            Command::YxNbest(n) => write!(f, "{word} {n}"),
            Command::YxBalanceOne(b) | Command::YxBalanceTwo(b) => write!(f, "{word} {b}"),
            Command::YxHashDump(Some(path)) | Command::YxHashLoad(Some(path)) => {
                write!(f, "{word} {path}")
            }
            _ => f.write_str(word),
        }
    }
}

/// `START N`, or `START W H` (Yixin-Board sends the width and the height, also for a square
/// board): the latter is a rectangular start.
fn start(args: &str) -> Result<Command, ParseError> {
    let mut words = args.split_whitespace();
    match (words.next(), words.next(), words.next()) {
        (None, _, _) => Err(ParseError::Missing {
            command: "START",
            expected: "a board size N",
        }),
        (Some(n), None, _) => Ok(Command::Start(parse_index(n, "START")?)),
        (Some(w), Some(h), None) => Ok(Command::RectStart {
            width: parse_index(w, "START")?,
            height: parse_index(h, "START")?,
        }),
        (Some(_), Some(_), Some(_)) => {
            let extra = args.splitn(3, char::is_whitespace).nth(2).unwrap_or("");
            Err(ParseError::Extra {
                command: "START",
                expected: "a board size N (or W H)",
                extra: quote(extra.trim()),
            })
        }
    }
}

/// The balance target of `YXBALANCEONE`/`YXBALANCETWO`: a whole number, 0 when left out.
fn bias(args: &str, command: &'static str) -> Result<i32, ParseError> {
    if args.is_empty() {
        return Ok(0);
    }
    let text = one_arg(args, command, "a balance target B (a whole number)")?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseError::Number {
            what: command,
            text: quote(text),
            expected: "a whole number",
        });
    }
    text.parse().map_err(|_| ParseError::Number {
        what: command,
        text: quote(text),
        expected: "a number in range",
    })
}

/// A file name: the rest of the line (spaces included), `None` when empty.
fn path_arg(args: &str) -> Option<String> {
    (!args.is_empty()).then(|| args.to_string())
}

fn no_arg(args: &str, command: &'static str, value: Command) -> Result<Command, ParseError> {
    if args.is_empty() {
        Ok(value)
    } else {
        Err(ParseError::Extra {
            command,
            expected: "no argument",
            extra: quote(args),
        })
    }
}

fn one_arg<'a>(
    args: &'a str,
    command: &'static str,
    expected: &'static str,
) -> Result<&'a str, ParseError> {
    if args.is_empty() {
        return Err(ParseError::Missing { command, expected });
    }
    match args.split_once(char::is_whitespace) {
        Some((_, extra)) => Err(ParseError::Extra {
            command,
            expected,
            extra: quote(extra.trim()),
        }),
        None => Ok(args),
    }
}

/// `X,Y`, allowing white space around the comma but nothing after Y.
fn coord_arg(args: &str, command: &'static str) -> Result<Coord, ParseError> {
    if args.is_empty() {
        return Err(ParseError::Missing {
            command,
            expected: "a point X,Y",
        });
    }
    Coord::parse(args, command)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command_in_any_case_with_any_line_ending() {
        let cases = [
            ("START 15", Command::Start(15)),
            (
                "rectstart 20,15",
                Command::RectStart {
                    width: 20,
                    height: 15,
                },
            ),
            ("Restart", Command::Restart),
            ("begin\r", Command::Begin),
            ("TURN 7,8\r\n", Command::Turn(Coord::new(7, 8))),
            ("  turn  7 , 8  ", Command::Turn(Coord::new(7, 8))),
            ("BOARD", Command::Board),
            ("yxboard", Command::YxBoard),
            ("SWAP2BOARD", Command::Swap2Board),
            ("done", Command::Done),
            ("TAKEBACK 3,4", Command::Takeback(Coord::new(3, 4))),
            ("PLAY 3,4", Command::Play(Coord::new(3, 4))),
            (
                "INFO timeout_turn 500",
                Command::Info(Setting::TimeoutTurn(500)),
            ),
            ("END", Command::End),
            ("about", Command::About),
            ("YXSTOP", Command::YxStop),
            ("yxshowforbid", Command::YxShowForbid),
            ("YXNBEST 3", Command::YxNbest(3)),
            ("YXHASHCLEAR", Command::YxHashClear),
            ("YXSHOWINFO", Command::YxShowInfo),
            ("yxblock", Command::YxBlock),
            ("YXBLOCKUNDO", Command::YxBlockUndo),
            ("YXBLOCKRESET", Command::YxBlockReset),
            ("yxbalanceone -120", Command::YxBalanceOne(-120)),
            ("YXBALANCETWO 0", Command::YxBalanceTwo(0)),
            ("YXSEARCHDEFEND", Command::YxSearchDefend),
            (
                "YXHASHDUMP my analysis.hash",
                Command::YxHashDump(Some("my analysis.hash".into())),
            ),
            (
                "yxhashload a.hash",
                Command::YxHashLoad(Some("a.hash".into())),
            ),
            ("YXSHOWHASHUSAGE", Command::YxShowHashUsage),
        ];
        for (line, want) in cases {
            assert_eq!(Command::parse(line), Ok(want.clone()), "{line:?}");
            assert_eq!(Command::parse(&want.to_string()), Ok(want), "{line:?}");
        }
    }

    #[test]
    fn yixin_board_forms() {
        // Yixin-Board starts every analysis with `start W H`.
        assert_eq!(
            Command::parse("start 15 15"),
            Ok(Command::RectStart {
                width: 15,
                height: 15
            })
        );
        assert_eq!(Command::parse("YXBALANCEONE"), Ok(Command::YxBalanceOne(0)));
        // The file name on the next line.
        assert_eq!(Command::parse("yxhashdump"), Ok(Command::YxHashDump(None)));
        assert_eq!(
            Command::parse("yxblockpath"),
            Ok(Command::Unsupported {
                word: "YXBLOCKPATH",
                follows: Follows::UntilDone
            })
        );
        assert_eq!(
            Command::parse("yxsetdatabase"),
            Ok(Command::Unsupported {
                word: "YXSETDATABASE",
                follows: Follows::OneLine
            })
        );
        assert_eq!(
            Command::parse("YXQUERYDATABASEALL").map(|c| c.word()),
            Ok("YXQUERYDATABASEALL")
        );
    }

    #[test]
    fn unknown_words_are_unknown() {
        assert_eq!(
            Command::parse("FOO 1 2"),
            Err(ParseError::Unknown("FOO".into()))
        );
        assert_eq!(
            Command::parse("7,7,1"),
            Err(ParseError::Unknown("7,7,1".into()))
        );
        assert_eq!(Command::parse("   "), Err(ParseError::Empty));
    }

    #[test]
    fn malformed_arguments_are_errors_not_unknown() {
        for bad in [
            "START",
            "START x",
            "START 15 15 15",
            "START -15",
            "START 15 x",
            "YXBALANCEONE x",
            "YXBALANCETWO 1 2",
            "YXBLOCK 1",
            "YXSEARCHDEFEND now",
            "RECTSTART 20",
            "RECTSTART 20,x",
            "BEGIN now",
            "TURN",
            "TURN 7",
            "TURN 7,8,9",
            "TURN a,b",
            "TURN 7,8 extra",
            "TURN -1,5",
            "TAKEBACK",
            "PLAY 1",
            "END now",
            "ABOUT me",
            "YXNBEST",
            "YXNBEST two",
            "INFO",
            "INFO timeout_turn x",
            "DONE 1",
        ] {
            match Command::parse(bad) {
                Err(ParseError::Unknown(_)) | Ok(_) => panic!("{bad:?} not rejected as malformed"),
                Err(_) => {}
            }
        }
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(Command::Turn(Coord::new(1, 2)).to_string(), "TURN 1,2");
        assert_eq!(
            Command::RectStart {
                width: 20,
                height: 10
            }
            .to_string(),
            "RECTSTART 20,10"
        );
        assert_eq!(
            Command::Info(Setting::TimeLeft(-3)).to_string(),
            "INFO time_left -3"
        );
    }
}
