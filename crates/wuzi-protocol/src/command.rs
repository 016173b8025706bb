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
    /// `YXSHOWINFO`: report the engine's limits.
    YxShowInfo,
}

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
            "START" => {
                let size = one_arg(args, "START", "a board size N")?;
                Command::Start(parse_index(size, "START")?)
            }
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
            _ => return Err(ParseError::Unknown(quote(word))),
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
            _ => f.write_str(word),
        }
    }
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
        ];
        for (line, want) in cases {
            assert_eq!(Command::parse(line), Ok(want.clone()), "{line:?}");
            assert_eq!(Command::parse(&want.to_string()), Ok(want), "{line:?}");
        }
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
            "START 15 15",
            "START -15",
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
