//! Collecting a block of lines up to `DONE`: a position (`BOARD`, `YXBOARD`, `SWAP2BOARD`),
//! points to block or unblock (`YXBLOCK`, `YXBLOCKUNDO`), or the lines of a command accepted
//! without effect (Yixin-Board's block paths and database edits).
//!
//! Invariants: a block swallows every line up to `DONE`, so a bad stone line never turns into
//! an `UNKNOWN` reply, and one block gets exactly one reply (at `DONE`, or when it is cut
//! short); the first error is kept and reported, with its line number; a line whose first
//! word is a command of the protocol (other than `DONE`) ends the block unfinished (the
//! manager has moved on) and is then handled as a command; the position changes only at a
//! clean `DONE`.

use crate::input::LineError;
use wuzi_protocol::{quote, Command, ParseError, StoneLine};

/// Which command opened the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    Board,
    YxBoard,
    Swap2Board,
    /// `YXBLOCK`: points the search must not play.
    YxBlock,
    /// `YXBLOCKUNDO`: points to unblock.
    YxBlockUndo,
    /// A command accepted without effect; its lines are read and dropped.
    Ignored(&'static str),
}

impl BlockKind {
    pub fn word(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2Board => "SWAP2BOARD",
            BlockKind::YxBlock => "YXBLOCK",
            BlockKind::YxBlockUndo => "YXBLOCKUNDO",
            BlockKind::Ignored(word) => word,
        }
    }
}

/// What a line did to the block.
#[derive(Debug, PartialEq, Eq)]
pub enum Step {
    /// The line was taken; more are expected.
    Continue,
    /// `DONE`: the block is complete (it may hold an error).
    Done,
    /// The line is a command: the block ends unfinished, and the line must be handled as a
    /// command.
    Interrupted,
}

/// A block being read.
#[derive(Debug)]
pub struct Block {
    pub kind: BlockKind,
    pub lines: Vec<StoneLine>,
    /// The first error, already worded for an `ERROR` line.
    pub error: Option<String>,
    count: usize,
}

/// More stone lines than any board has points are refused (the rest are read and dropped).
pub const MAX_STONES: usize = 32 * 32;

impl Block {
    pub fn new(kind: BlockKind) -> Block {
        Block {
            kind,
            lines: Vec::new(),
            error: None,
            count: 0,
        }
    }

    /// Takes one input line.
    pub fn push(&mut self, line: &Result<String, LineError>) -> Step {
        self.count += 1;
        let text = match line {
            Ok(text) => text.trim(),
            Err(e) => {
                self.fail(format!("line {}: {e}", self.count));
                return Step::Continue;
            }
        };
        if text.is_empty() {
            self.count -= 1;
            return Step::Continue;
        }
        if text.eq_ignore_ascii_case("DONE") {
            return Step::Done;
        }
        if !matches!(Command::parse(text), Err(ParseError::Unknown(_))) {
            return Step::Interrupted;
        }
        match StoneLine::parse(text) {
            Ok(_) if self.lines.len() >= MAX_STONES => {
                self.fail(format!("more than {MAX_STONES} stones"));
            }
            Ok(stone) => self.lines.push(stone),
            Err(ParseError::StoneLine { text, why }) => {
                let n = self.count;
                self.fail(format!("line {n} \"{text}\": {why}"));
            }
            Err(e) => {
                let n = self.count;
                self.fail(format!("line {n}: {e}"));
            }
        }
        Step::Continue
    }

    fn fail(&mut self, why: String) {
        if self.error.is_none() {
            self.error = Some(why);
        }
    }

    /// The `ERROR` text for a block cut short by `line`.
    pub fn interrupted_error(&self, line: &str) -> String {
        let unchanged = match self.kind {
            BlockKind::YxBlock | BlockKind::YxBlockUndo => "blocks unchanged",
            BlockKind::Ignored(_) => "ignored",
            _ => "position unchanged",
        };
        format!(
            "{} ended by \"{}\" before DONE; {unchanged}",
            self.kind.word(),
            quote(line.trim())
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> Result<String, LineError> {
        Ok(s.to_string())
    }

    #[test]
    fn collects_until_done() {
        let mut b = Block::new(BlockKind::Board);
        assert_eq!(b.push(&ok("7,7,1")), Step::Continue);
        assert_eq!(b.push(&ok("")), Step::Continue);
        assert_eq!(b.push(&ok(" 8,8,2 ")), Step::Continue);
        assert_eq!(b.push(&ok("done")), Step::Done);
        assert_eq!(b.lines.len(), 2);
        assert!(b.error.is_none());
    }

    #[test]
    fn keeps_the_first_error_and_swallows_the_rest() {
        let mut b = Block::new(BlockKind::YxBoard);
        b.push(&ok("7,7,1"));
        b.push(&ok("7,7,9"));
        b.push(&Err(LineError::NotUtf8));
        b.push(&ok("-3,2,1"));
        assert_eq!(b.push(&ok("DONE")), Step::Done);
        let e = b.error.unwrap();
        assert_eq!(e, "line 2 \"7,7,9\": F must be 1 (own), 2 (opponent) or 3");
    }

    #[test]
    fn a_command_interrupts() {
        let mut b = Block::new(BlockKind::Swap2Board);
        b.push(&ok("7,7"));
        assert_eq!(b.push(&ok("a,3,1")), Step::Continue);
        assert_eq!(b.push(&ok("FOO")), Step::Continue);
        assert_eq!(b.push(&ok("TURN 3,3")), Step::Interrupted);
        assert_eq!(b.push(&ok("turn x")), Step::Interrupted);
        assert!(b
            .interrupted_error("TURN 3,3")
            .contains("SWAP2BOARD ended by \"TURN 3,3\""));
    }
}
