//! The training-data format: a file of fixed 128-byte records, one position each, no header.
//!
//! | bytes    | field                                                                 |
//! |----------|-----------------------------------------------------------------------|
//! | 0, 1     | width, height (5..=20)                                                |
//! | 2        | rule, as its Gomocup code (0, 1, 4, 8, 9)                             |
//! | 3        | side to move: 0 Black, 1 White                                        |
//! | 4        | game result for the side to move: 0 loss, 1 draw, 2 win               |
//! | 5        | flags: bit 0 set when `score` is absent (a position from a game file); |
//! |          | bit 1 set when `score` is a proven win (a position for the move        |
//! |          | ordering only, never an evaluation target)                             |
//! | 6, 7     | search score for the side to move, i16 little-endian                  |
//! | 8, 9     | moves played so far, u16 little-endian                                |
//! | 10, 11   | zero                                                                  |
//! | 12..112  | the cells, 2 bits each (0 empty, 1 Black, 2 White), row-major from    |
//! |          | the top left, cell `i` in byte `12 + i / 4` at bits `2 * (i % 4)`     |
//! | 112      | version of the move field: 0 none, 1 bytes 113 and 114 hold it        |
//! | 113, 114 | the move played from the position (x, y): the search's best move in   |
//! |          | self-play, the game's next move in an imported game                   |
//! | 115..128 | zero                                                                  |
//!
//! Files written before the move field existed have zero in byte 112 and read as records
//! without a move. A file whose length is not a multiple of 128, or a record that breaks a
//! rule above (a move off the board or on a stone, an unknown field version, an unknown
//! flag), is refused with the record's number. Bit 1 of the flags is refused by readers older
//! than it, so that a records file with proven wins cannot be fed to an evaluation trainer
//! that would take them for evaluation targets.

use crate::TuneError;
use std::io::{Read, Write};
use wuzi_core::{Board, Color, Point, Rule};

pub const RECORD_BYTES: usize = 128;
/// Largest board side a record holds.
pub const MAX_SIDE: usize = 20;
const CELLS_AT: usize = 12;
const FLAG_NO_SCORE: u8 = 1;
const FLAG_PROVEN: u8 = 2;
const MOVE_VERSION_AT: usize = 112;
/// The version of the move field this code writes.
const MOVE_VERSION: u8 = 1;

/// One training position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub side: Color,
    /// 0 loss, 1 draw, 2 win, for the side to move.
    pub result: u8,
    /// The search score for the side to move, if searched.
    pub score: Option<i16>,
    pub moves: u16,
    /// Row-major, `None` for empty.
    pub cells: Vec<Option<Color>>,
    /// The move played from this position (the search's best move in self-play, the next
    /// move of an imported game), when known: on the board and on an empty cell.
    pub best: Option<Point>,
    /// `score` is a proven win for the side to move: the position is there for the move
    /// ordering's fit only, and the evaluation's trainer skips it.
    pub proven: bool,
}

impl Record {
    /// The record of a board (at most 20x20).
    pub fn of(board: &Board, result: u8, score: Option<i16>) -> Result<Record, TuneError> {
        if board.width() > MAX_SIDE || board.height() > MAX_SIDE {
            return Err(TuneError::Data(format!(
                "a {}x{} board does not fit a record (at most {MAX_SIDE}x{MAX_SIDE})",
                board.width(),
                board.height()
            )));
        }
        let mut cells = Vec::with_capacity(board.width() * board.height());
        for y in 0..board.height() {
            for x in 0..board.width() {
                cells.push(board.stone(Point::new(x as u8, y as u8)));
            }
        }
        Ok(Record {
            width: board.width(),
            height: board.height(),
            rule: board.rule(),
            side: board.side_to_move(),
            result,
            score,
            moves: board.move_count().min(u16::MAX as usize) as u16,
            cells,
            best: None,
            proven: false,
        })
    }

    /// The same record with the move played from it.
    pub fn with_best(mut self, best: Point) -> Record {
        self.best = Some(best);
        self
    }

    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[0] = self.width as u8;
        out[1] = self.height as u8;
        out[2] = self.rule.gomocup_code() as u8;
        out[3] = self.side.index() as u8;
        out[4] = self.result;
        out[5] = if self.score.is_none() {
            FLAG_NO_SCORE
        } else {
            0
        } | if self.proven { FLAG_PROVEN } else { 0 };
        out[6..8].copy_from_slice(&self.score.unwrap_or(0).to_le_bytes());
        out[8..10].copy_from_slice(&self.moves.to_le_bytes());
        for (i, cell) in self.cells.iter().enumerate() {
            let v = match cell {
                None => 0,
                Some(Color::Black) => 1,
                Some(Color::White) => 2,
            };
            out[CELLS_AT + i / 4] |= v << (2 * (i % 4));
        }
        if let Some(p) = self.best {
            out[MOVE_VERSION_AT] = MOVE_VERSION;
            out[MOVE_VERSION_AT + 1] = p.x;
            out[MOVE_VERSION_AT + 2] = p.y;
        }
        out
    }

    /// Decodes record number `index` (for errors).
    pub fn decode(bytes: &[u8; RECORD_BYTES], index: usize) -> Result<Record, TuneError> {
        let bad = |what: &str| TuneError::Data(format!("record {index}: {what}"));
        let (width, height) = (bytes[0] as usize, bytes[1] as usize);
        if !(5..=MAX_SIDE).contains(&width) || !(5..=MAX_SIDE).contains(&height) {
            return Err(bad("board size out of range"));
        }
        let rule = Rule::from_gomocup(bytes[2] as u32).ok_or_else(|| bad("unknown rule"))?;
        let side = match bytes[3] {
            0 => Color::Black,
            1 => Color::White,
            _ => return Err(bad("bad side to move")),
        };
        if bytes[4] > 2 || bytes[5] & !(FLAG_NO_SCORE | FLAG_PROVEN) != 0 {
            return Err(bad("bad result or flags"));
        }
        let proven = bytes[5] & FLAG_PROVEN != 0;
        if proven && bytes[5] & FLAG_NO_SCORE != 0 {
            return Err(bad("a proven win without a score"));
        }
        let score =
            (bytes[5] & FLAG_NO_SCORE == 0).then(|| i16::from_le_bytes([bytes[6], bytes[7]]));
        let mut cells = Vec::with_capacity(width * height);
        for i in 0..width * height {
            cells.push(match (bytes[CELLS_AT + i / 4] >> (2 * (i % 4))) & 3 {
                0 => None,
                1 => Some(Color::Black),
                2 => Some(Color::White),
                _ => return Err(bad("bad cell")),
            });
        }
        let best = match bytes[MOVE_VERSION_AT] {
            0 => None,
            MOVE_VERSION => {
                let (x, y) = (bytes[MOVE_VERSION_AT + 1], bytes[MOVE_VERSION_AT + 2]);
                if x as usize >= width || y as usize >= height {
                    return Err(bad("the move is off the board"));
                }
                if cells[y as usize * width + x as usize].is_some() {
                    return Err(bad("the move is on a stone"));
                }
                Some(Point::new(x, y))
            }
            v => return Err(bad(&format!("unknown move field version {v}"))),
        };
        Ok(Record {
            width,
            height,
            rule,
            side,
            result: bytes[4],
            score,
            moves: u16::from_le_bytes([bytes[8], bytes[9]]),
            cells,
            best,
            proven,
        })
    }

    /// The position as a board with the side to move right: the side to move's stones are
    /// placed first, the opponent's last. The patterns depend on the stones only, not on
    /// their order.
    pub fn board(&self) -> Result<Board, TuneError> {
        let mut board = Board::new(self.width, self.height, self.rule)
            .map_err(|e| TuneError::Data(e.to_string()))?;
        for color in [self.side, self.side.opponent()] {
            for (i, cell) in self.cells.iter().enumerate() {
                if *cell == Some(color) {
                    board
                        .place(
                            color,
                            Point::new((i % self.width) as u8, (i / self.width) as u8),
                        )
                        .map_err(|e| TuneError::Data(e.to_string()))?;
                }
            }
        }
        if board.side_to_move() != self.side {
            return Err(TuneError::Data(format!(
                "no stone of {:?} to put {:?} on move",
                self.side.opponent(),
                self.side
            )));
        }
        Ok(board)
    }
}

/// Appends records to a writer.
pub fn write_records(out: &mut impl Write, records: &[Record]) -> Result<(), TuneError> {
    for r in records {
        out.write_all(&r.encode()).map_err(TuneError::io)?;
    }
    Ok(())
}

/// Reads every record of a file.
pub fn read_records(path: &std::path::Path) -> Result<Vec<Record>, TuneError> {
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| TuneError::Data(format!("{}: {e}", path.display())))?;
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(TuneError::Data(format!(
            "{}: {} bytes is not a whole number of {RECORD_BYTES}-byte records",
            path.display(),
            bytes.len()
        )));
    }
    bytes
        .chunks_exact(RECORD_BYTES)
        .enumerate()
        .map(|(i, chunk)| {
            let mut buf = [0u8; RECORD_BYTES];
            buf.copy_from_slice(chunk);
            Record::decode(&buf, i)
        })
        .collect()
}
