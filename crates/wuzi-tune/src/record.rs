//! The training-data format: a file of fixed 128-byte blocks, each one position (a record)
//! or the header of a piece.
//!
//! A record:
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
//! A piece is what one run of `wuzi datagen` appends: a [`Header`] block, then the records of
//! the games `first..end` of a data set, in game order. The data set is named by a
//! fingerprint of every setting that decides its games, so the pieces of one data set made
//! apart (shards, `wuzi datagen --shard K/N`) are recognised, checked not to overlap and put
//! in game order ([`load_data`]): the records of all its pieces are then exactly those of one
//! run of the whole data set. Blocks are all 128 bytes, so files concatenate (`cat`) into a
//! valid file. Header layout (integers little-endian):
//!
//! | bytes    | field                                                                 |
//! |----------|-----------------------------------------------------------------------|
//! | 0..8     | `WUZIDATA` (no record starts so: its first byte is a width)           |
//! | 8        | header version, 1                                                     |
//! | 9        | kind: 0 self-play, 1 imported games                                   |
//! | 10       | rule (Gomocup code), 11: board side (for reading by eye)              |
//! | 16..24   | the data set's fingerprint                                            |
//! | 24..32   | games in the whole data set                                           |
//! | 32..40   | the piece's first game; 40..48: its end (exclusive)                   |
//! | 48..56   | records in the piece; all ones while the piece is being written       |
//! | 56..64   | seed; 64..72: nodes per move (self-play; for reading by eye)          |
//! | the rest | zero                                                                  |
//!
//! Records before any header (files of earlier versions) are read as they are, unchecked. A
//! file whose length is not a multiple of 128, a record that breaks a rule above, a header
//! still marked as being written (its run was stopped) or promising more records than follow
//! it is refused with the block's number (from 0, headers counted). A move off the board or on a
//! stone, an unknown move-field version or an unknown flag is refused the same way. Files
//! written before the move field existed have zero in byte 112 and read as records without a
//! move. Bit 1 of the flags is refused by readers older than it, so that a records file with
//! proven wins cannot be fed to an evaluation trainer that would take them for evaluation
//! targets.

use crate::TuneError;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
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

/// The first bytes of a header block.
pub const MAGIC: &[u8; 8] = b"WUZIDATA";
const HEADER_VERSION: u8 = 1;
/// A header's record count while its piece is being written.
const UNFINISHED: u64 = u64::MAX;

/// What made a piece's positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    SelfPlay,
    Import,
}

/// The header of a piece (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub kind: PieceKind,
    /// The data set's fingerprint.
    pub fingerprint: u64,
    /// Games in the whole data set.
    pub games: u64,
    /// The piece's games: `first..end`.
    pub first: u64,
    pub end: u64,
    /// Records in the piece; `None` while it is being written.
    pub records: Option<u64>,
    pub rule: Rule,
    pub size: usize,
    pub seed: u64,
    pub nodes: u64,
}

fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(b)
}

impl Header {
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let mut out = [0u8; RECORD_BYTES];
        out[..8].copy_from_slice(MAGIC);
        out[8] = HEADER_VERSION;
        out[9] = match self.kind {
            PieceKind::SelfPlay => 0,
            PieceKind::Import => 1,
        };
        out[10] = self.rule.gomocup_code() as u8;
        out[11] = self.size.min(255) as u8;
        for (at, v) in [
            (16, self.fingerprint),
            (24, self.games),
            (32, self.first),
            (40, self.end),
            (48, self.records.unwrap_or(UNFINISHED)),
            (56, self.seed),
            (64, self.nodes),
        ] {
            out[at..at + 8].copy_from_slice(&v.to_le_bytes());
        }
        out
    }

    /// Whether a block is a header.
    pub fn is_header(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC)
    }

    /// Decodes the header in block `index` (for errors).
    pub fn decode(bytes: &[u8; RECORD_BYTES], index: usize) -> Result<Header, TuneError> {
        let bad = |what: &str| TuneError::Data(format!("block {index}: a header {what}"));
        if !Header::is_header(bytes) {
            return Err(bad("without its mark"));
        }
        if bytes[8] != HEADER_VERSION {
            return Err(bad(&format!(
                "of version {} (this wuzi reads {HEADER_VERSION})",
                bytes[8]
            )));
        }
        let kind = match bytes[9] {
            0 => PieceKind::SelfPlay,
            1 => PieceKind::Import,
            _ => return Err(bad("of an unknown kind")),
        };
        let rule = Rule::from_gomocup(bytes[10] as u32).ok_or_else(|| bad("of an unknown rule"))?;
        let records = u64_at(bytes, 48);
        let h = Header {
            kind,
            fingerprint: u64_at(bytes, 16),
            games: u64_at(bytes, 24),
            first: u64_at(bytes, 32),
            end: u64_at(bytes, 40),
            records: (records != UNFINISHED).then_some(records),
            rule,
            size: bytes[11] as usize,
            seed: u64_at(bytes, 56),
            nodes: u64_at(bytes, 64),
        };
        if h.first > h.end || h.end > h.games {
            return Err(bad(&format!(
                "of games {}..{} of {}",
                h.first, h.end, h.games
            )));
        }
        if bytes[12..16].iter().chain(&bytes[72..]).any(|&b| b != 0) {
            return Err(bad("with bytes where zeros belong"));
        }
        Ok(h)
    }

    /// The data set, for messages: `self-play data set 5e1f0c2a9b3d7781 (freestyle 15x15,
    /// seed 1, 3000 nodes, 1000 games)`.
    pub fn data_set(&self) -> String {
        match self.kind {
            PieceKind::SelfPlay => format!(
                "self-play data set {:016x} ({} {}x{}, seed {}, {} nodes, {} games)",
                self.fingerprint,
                self.rule.name(),
                self.size,
                self.size,
                self.seed,
                self.nodes,
                self.games
            ),
            PieceKind::Import => format!(
                "imported data set {:016x} ({} {}x{}, {} games)",
                self.fingerprint,
                self.rule.name(),
                self.size,
                self.size,
                self.games
            ),
        }
    }
}

/// The records of a file, piece by piece.
#[derive(Clone, Debug)]
pub struct Piece {
    /// `None` for records before any header.
    pub header: Option<Header>,
    /// The block the piece starts at.
    pub block: usize,
    pub records: Vec<Record>,
}

fn read_bytes(path: &Path) -> Result<Vec<u8>, TuneError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| TuneError::Data(format!("{}: {e}", path.display())))?;
    Ok(bytes)
}

/// Splits a file's blocks into pieces, every header and record checked.
fn pieces_of(bytes: &[u8], shown: &str) -> Result<Vec<Piece>, TuneError> {
    let at = |e: TuneError| TuneError::Data(format!("{shown}: {e}"));
    // Whole blocks first, so that an unfinished piece is named as such even when its last
    // record was cut; then the cut itself.
    let blocks: Vec<&[u8]> = bytes.chunks_exact(RECORD_BYTES).collect();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let mut buf = [0u8; RECORD_BYTES];
        buf.copy_from_slice(blocks[i]);
        if Header::is_header(&buf) {
            let h = Header::decode(&buf, i).map_err(at)?;
            let Some(count) = h.records else {
                return Err(TuneError::Data(format!(
                    "{shown}: the piece at block {i} ({}, games {}..{}) is unfinished: its run was stopped; run it again (it replaces the unfinished piece)",
                    h.data_set(),
                    h.first,
                    h.end
                )));
            };
            let left = (blocks.len() - i - 1) as u64;
            if count > left {
                return Err(TuneError::Data(format!(
                    "{shown}: the piece at block {i} promises {count} records and {left} follow (a file cut short?)"
                )));
            }
            let mut records = Vec::with_capacity(count as usize);
            let body = &blocks[i + 1..=i + count as usize];
            for (j, block) in (i + 1..).zip(body) {
                buf.copy_from_slice(block);
                if Header::is_header(&buf) {
                    return Err(TuneError::Data(format!(
                        "{shown}: the piece at block {i} promises {count} records and block {j} is a header (a piece cut short?)"
                    )));
                }
                records.push(Record::decode(&buf, j).map_err(at)?);
            }
            pieces.push(Piece {
                header: Some(h),
                block: i,
                records,
            });
            i += 1 + count as usize;
        } else {
            let record = Record::decode(&buf, i).map_err(at)?;
            match pieces.last_mut() {
                Some(p) if p.header.is_none() => p.records.push(record),
                _ => pieces.push(Piece {
                    header: None,
                    block: i,
                    records: vec![record],
                }),
            }
            i += 1;
        }
    }
    if bytes.len() % RECORD_BYTES != 0 {
        return Err(TuneError::Data(format!(
            "{shown}: {} bytes is not a whole number of {RECORD_BYTES}-byte records (a file cut short?)",
            bytes.len()
        )));
    }
    Ok(pieces)
}

/// Reads a file's pieces, every block checked (see the module documentation).
pub fn read_pieces(path: &Path) -> Result<Vec<Piece>, TuneError> {
    pieces_of(&read_bytes(path)?, &path.display().to_string())
}

/// Reads every record of a file, in file order.
pub fn read_records(path: &Path) -> Result<Vec<Record>, TuneError> {
    Ok(read_pieces(path)?
        .into_iter()
        .flat_map(|p| p.records)
        .collect())
}

/// The records of many files: each data set's pieces checked and put in game order.
#[derive(Clone, Debug, Default)]
pub struct Loaded {
    pub records: Vec<Record>,
    /// One line per data set: its games present, and those missing.
    pub notes: Vec<String>,
}

/// Game ranges as text: `0..334, 667..1000`.
fn ranges(list: &[(u64, u64)]) -> String {
    let parts: Vec<String> = list.iter().map(|(a, b)| format!("{a}..{b}")).collect();
    parts.join(", ")
}

/// Reads files (shards, or concatenations of them, in any order) into one list of records.
/// The pieces of each data set are put in game order at the place of its first piece; two
/// pieces of one data set with games in common (a shard given twice) are refused. Records
/// without a header keep their place. Missing games are not an error: the notes list them.
pub fn load_data(paths: &[PathBuf]) -> Result<Loaded, TuneError> {
    // Every piece with where it was read, in the order given.
    let mut all: Vec<(String, Piece)> = Vec::new();
    for path in paths {
        let shown = path.display().to_string();
        for piece in read_pieces(path)? {
            all.push((shown.clone(), piece));
        }
    }
    type Key = (PieceKind, u64);
    let mut sets: BTreeMap<Key, Vec<usize>> = BTreeMap::new();
    for (n, (_, piece)) in all.iter().enumerate() {
        if let Some(h) = &piece.header {
            sets.entry((h.kind, h.fingerprint)).or_default().push(n);
        }
    }
    let mut notes = Vec::new();
    for members in sets.values_mut() {
        members.sort_by_key(|&n| all[n].1.header.as_ref().map_or(0, |h| h.first));
        let mut covered: Vec<(u64, u64)> = Vec::new();
        let mut last: Option<usize> = None;
        for &n in members.iter() {
            let Some(h) = &all[n].1.header else { continue };
            if let Some(prev) = last {
                let (from, p) = &all[prev];
                if let Some(ph) = &p.header {
                    if ph.end > h.first {
                        return Err(TuneError::Data(format!(
                            "{}: games {}..{} are in {from} (piece at block {}) and in {} (piece at block {}): a shard given twice?",
                            h.data_set(),
                            h.first.max(ph.first),
                            ph.end.min(h.end),
                            p.block,
                            all[n].0,
                            all[n].1.block
                        )));
                    }
                }
            }
            match covered.last_mut() {
                Some(r) if r.1 == h.first => r.1 = h.end,
                _ if h.first == h.end => {}
                _ => covered.push((h.first, h.end)),
            }
            last = Some(n);
        }
        let Some(h) = members.first().and_then(|&n| all[n].1.header.as_ref()) else {
            continue;
        };
        let mut missing = Vec::new();
        let mut at = 0;
        for &(a, b) in &covered {
            if a > at {
                missing.push((at, a));
            }
            at = b;
        }
        if at < h.games {
            missing.push((at, h.games));
        }
        let records: usize = members.iter().map(|&n| all[n].1.records.len()).sum();
        let mut note = format!(
            "{}: {} records from {} piece{}, games {}",
            h.data_set(),
            records,
            members.len(),
            if members.len() == 1 { "" } else { "s" },
            if covered.is_empty() {
                "none".to_string()
            } else {
                ranges(&covered)
            }
        );
        if missing.is_empty() {
            note.push_str(", none missing");
        } else {
            note.push_str(&format!("; missing games {}", ranges(&missing)));
        }
        notes.push(note);
    }
    // Each data set at the place of its first piece, in game order.
    let mut first_of: BTreeMap<usize, Key> = BTreeMap::new();
    for (key, members) in &sets {
        if let Some(&n) = members.iter().min() {
            first_of.insert(n, *key);
        }
    }
    let mut records = Vec::new();
    let mut taken = vec![false; all.len()];
    for n in 0..all.len() {
        if taken[n] {
            continue;
        }
        match first_of.get(&n) {
            Some(key) => {
                for &m in &sets[key] {
                    taken[m] = true;
                    records.extend(all[m].1.records.iter().cloned());
                }
            }
            None if all[n].1.header.is_none() => {
                taken[n] = true;
                records.extend(all[n].1.records.iter().cloned());
            }
            None => {}
        }
    }
    Ok(Loaded { records, notes })
}

/// Appends one piece to a file: the header marked as being written, the records, then the
/// header again with their count. If the file's last piece is unfinished (a run of it was
/// stopped), it is removed first, so that running a stopped shard again replaces it.
pub struct PieceWriter {
    path: PathBuf,
    out: BufWriter<File>,
    header: Header,
    header_at: u64,
    bytes: u64,
    /// What was removed when the file was opened, if anything.
    pub replaced: Option<String>,
}

impl PieceWriter {
    pub fn create(path: &Path, header: Header) -> Result<PieceWriter, TuneError> {
        let shown = path.display().to_string();
        let io = |e: std::io::Error| TuneError::Io(format!("{shown}: {e}"));
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(path)
            .map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        // The end of the last finished piece, found by walking from header to header (and
        // through records without one).
        let mut end = 0u64;
        let mut replaced = None;
        let block = RECORD_BYTES as u64;
        let mut buf = [0u8; RECORD_BYTES];
        while end + block <= len {
            file.seek(SeekFrom::Start(end)).map_err(io)?;
            file.read_exact(&mut buf).map_err(io)?;
            if !Header::is_header(&buf) {
                end += block;
                continue;
            }
            let h = Header::decode(&buf, (end / block) as usize)
                .map_err(|e| TuneError::Data(format!("{shown}: {e}")))?;
            match h.records {
                Some(n) if end + block * (n + 1) <= len => end += block * (n + 1),
                _ => {
                    replaced = Some(format!(
                        "removed the unfinished piece at block {} of {shown} ({}, games {}..{})",
                        end / block,
                        h.data_set(),
                        h.first,
                        h.end
                    ));
                    break;
                }
            }
        }
        if end < len {
            if replaced.is_none() {
                return Err(TuneError::Data(format!(
                    "{shown}: {len} bytes is not a whole number of {RECORD_BYTES}-byte records; it is no records file, or damaged"
                )));
            }
            file.set_len(end).map_err(io)?;
        }
        file.seek(SeekFrom::Start(end)).map_err(io)?;
        let mut out = BufWriter::new(file);
        let mut marked = header.clone();
        marked.records = None;
        out.write_all(&marked.encode()).map_err(io)?;
        Ok(PieceWriter {
            path: path.to_path_buf(),
            out,
            header: marked,
            header_at: end,
            bytes: 0,
            replaced,
        })
    }

    /// Writes the count into the header: the piece is finished.
    pub fn finish(mut self) -> Result<u64, TuneError> {
        let shown = self.path.display().to_string();
        let io = |e: std::io::Error| TuneError::Io(format!("{shown}: {e}"));
        if self.bytes % RECORD_BYTES as u64 != 0 {
            return Err(TuneError::Data(format!(
                "{shown}: a record was written in part"
            )));
        }
        let count = self.bytes / RECORD_BYTES as u64;
        self.out.flush().map_err(io)?;
        self.header.records = Some(count);
        let file = self.out.get_mut();
        file.seek(SeekFrom::Start(self.header_at)).map_err(io)?;
        file.write_all(&self.header.encode()).map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok(count)
    }
}

impl Write for PieceWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.out.write(buf)?;
        self.bytes += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
