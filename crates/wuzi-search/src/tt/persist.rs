//! The transposition table on disk: saving a table to a file and loading it back, so that an
//! analysis can be resumed later (`YXHASHDUMP` / `YXHASHLOAD`).
//!
//! The file, all numbers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `WUZI-TT\n` |
//! | 4 | format version ([`VERSION`]) |
//! | 2, 2 | board width, height |
//! | 4 | rule (its Gomocup code) |
//! | 4 | bytes of one entry (16) |
//! | 8 | number of entries `n` |
//! | 16 `n` | the entries: key, then the packed entry (`tt.rs`) |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! Only slots holding an entry are written. Invariants: a file is read back only if its
//! magic, version, board size, rule, length and checksum are all right and every entry
//! unpacks to a valid one; otherwise [`TableFileError`] says which, and the table is left as
//! it was (the whole file is checked before the table is touched). A loaded table replaces
//! the table's contents; its entries join the current search generation. A file is written
//! under a temporary name and renamed into place, so a crash never leaves half a file under
//! the name asked for.

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use thiserror::Error;
use wuzi_core::Rule;

use super::{unpack, TranspositionTable, BUCKET, ENTRY_BYTES};

/// The first bytes of every table file.
pub const MAGIC: &[u8; 8] = b"WUZI-TT\n";
/// The format this build writes and reads.
pub const VERSION: u32 = 1;
const HEADER_BYTES: u64 = 32;

/// What a table was searched for: a file is loaded only into a game of the same kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableMeta {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
}

/// Why a table file could not be written or read.
#[derive(Debug, Error)]
pub enum TableFileError {
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path} is not a wuzi hash file")]
    NotATable { path: PathBuf },
    #[error("{path} is in format version {found}; this engine reads version {VERSION}")]
    Version { path: PathBuf, found: u32 },
    #[error("{path} was saved for a {found} game; this game is {expected}")]
    Mismatch {
        path: PathBuf,
        found: String,
        expected: String,
    },
    #[error("{path} is damaged: {why}")]
    Damaged { path: PathBuf, why: String },
}

/// How full a table is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableUsage {
    /// Slots holding an entry.
    pub used: usize,
    pub slots: usize,
    pub bytes: usize,
}

impl TableUsage {
    /// The share of slots in use, in percent.
    pub fn percent(&self) -> f64 {
        100.0 * self.used as f64 / self.slots.max(1) as f64
    }
}

fn describe(width: usize, height: usize, rule: Option<Rule>) -> String {
    let rule = rule.map_or_else(
        || "unknown rule".to_string(),
        |r| format!("{r:?}").to_lowercase(),
    );
    format!("{width}x{height} {rule}")
}

/// FNV-1a, 64 bits: enough to tell a damaged file from a sound one (not an adversary's).
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// A writer that checksums what passes through it.
struct Summed<W> {
    inner: W,
    sum: Fnv,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.sum.update(bytes);
        self.inner.write_all(bytes)
    }
}

/// A reader that checksums what passes through it.
struct Checked<R> {
    inner: R,
    sum: Fnv,
}

impl<R: Read> Checked<R> {
    fn take<const N: usize>(&mut self) -> std::io::Result<[u8; N]> {
        let mut buf = [0u8; N];
        self.inner.read_exact(&mut buf)?;
        self.sum.update(&buf);
        Ok(buf)
    }
}

/// Whether a packed entry from a file is one the table could have written.
fn valid_entry(data: u64) -> bool {
    if data == 0 || (data >> 56) & 3 == 3 {
        return false;
    }
    let (entry, _) = unpack(data);
    match entry.cell {
        Some(c) => c < wuzi_core::geometry::MAX_CELLS,
        None => true,
    }
}

impl TranspositionTable {
    /// Empties every slot, whether or not a search used the table.
    fn clear_all(&mut self) {
        self.write_zeros();
        self.generation = 0;
        self.used = false;
    }

    /// How many slots hold an entry.
    pub fn usage(&self) -> TableUsage {
        let used = self
            .buckets
            .iter()
            .flat_map(|b| &b.0)
            .filter(|s| s.data.load(Ordering::Relaxed) != 0)
            .count();
        TableUsage {
            used,
            slots: self.buckets.len() * BUCKET,
            bytes: self.bytes(),
        }
    }

    /// Writes every entry to `path` (through a temporary file renamed into place); returns
    /// how many.
    pub fn save(&self, path: &Path, meta: &TableMeta) -> Result<usize, TableFileError> {
        let err = |source| TableFileError::Write {
            path: path.to_path_buf(),
            source,
        };
        let mut temp = path.as_os_str().to_owned();
        temp.push(".part");
        let temp = PathBuf::from(temp);
        let entries: Vec<(u64, u64)> = self
            .buckets
            .iter()
            .flat_map(|b| &b.0)
            .filter_map(|s| {
                let data = s.data.load(Ordering::Relaxed);
                let check = s.check.load(Ordering::Relaxed);
                (data != 0).then_some((check ^ data, data))
            })
            .collect();
        let written = (|| -> std::io::Result<()> {
            let file = File::create(&temp)?;
            let mut w = Summed {
                inner: BufWriter::new(file),
                sum: Fnv::new(),
            };
            w.put(MAGIC)?;
            w.put(&VERSION.to_le_bytes())?;
            w.put(&(meta.width as u16).to_le_bytes())?;
            w.put(&(meta.height as u16).to_le_bytes())?;
            w.put(&meta.rule.gomocup_code().to_le_bytes())?;
            w.put(&(ENTRY_BYTES as u32).to_le_bytes())?;
            w.put(&(entries.len() as u64).to_le_bytes())?;
            for &(key, data) in &entries {
                w.put(&key.to_le_bytes())?;
                w.put(&data.to_le_bytes())?;
            }
            let sum = w.sum.0;
            w.inner.write_all(&sum.to_le_bytes())?;
            let file = w.inner.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()
        })();
        if let Err(source) = written {
            let _ = std::fs::remove_file(&temp);
            return Err(err(source));
        }
        std::fs::rename(&temp, path).map_err(|source| {
            let _ = std::fs::remove_file(&temp);
            err(source)
        })?;
        Ok(entries.len())
    }

    /// Replaces the table's contents with the entries of `path`, if the file is sound and was
    /// saved for a game like `meta`; returns how many entries it held. On any error the table
    /// is unchanged.
    pub fn load(&mut self, path: &Path, meta: &TableMeta) -> Result<usize, TableFileError> {
        let count = Self::check_file(path, meta)?;
        let damaged = |why: &str| TableFileError::Damaged {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        let read_err = |source| TableFileError::Read {
            path: path.to_path_buf(),
            source,
        };
        let file = File::open(path).map_err(read_err)?;
        let mut r = Checked {
            inner: BufReader::new(file),
            sum: Fnv::new(),
        };
        let _header: [u8; HEADER_BYTES as usize] = r.take().map_err(read_err)?;
        self.clear_all();
        self.new_search();
        for _ in 0..count {
            let key = u64::from_le_bytes(r.take().map_err(read_err)?);
            let data = u64::from_le_bytes(r.take().map_err(read_err)?);
            let (entry, _) = unpack(data);
            self.store(
                key,
                0,
                entry.cell,
                entry.score,
                entry.eval,
                entry.depth,
                entry.bound,
            );
        }
        let expected = r.sum.0;
        let found = u64::from_le_bytes(r.take().map_err(read_err)?);
        if found != expected {
            // The file changed between the check and the load.
            self.clear_all();
            return Err(damaged(
                "it changed while being read; the table is now empty",
            ));
        }
        Ok(count as usize)
    }

    /// Reads the whole file once without touching any table: header, length, entries and
    /// checksum. Returns the number of entries.
    pub fn check_file(path: &Path, meta: &TableMeta) -> Result<u64, TableFileError> {
        let read_err = |source| TableFileError::Read {
            path: path.to_path_buf(),
            source,
        };
        let damaged = |why: String| TableFileError::Damaged {
            path: path.to_path_buf(),
            why,
        };
        let file = File::open(path).map_err(read_err)?;
        let length = file.metadata().map_err(read_err)?.len();
        let mut r = Checked {
            inner: BufReader::new(file),
            sum: Fnv::new(),
        };
        let truncated = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                damaged("it is cut short".to_string())
            } else {
                read_err(e)
            }
        };
        if length < HEADER_BYTES {
            let magic_ok = std::fs::read(path)
                .map(|bytes| MAGIC.starts_with(&bytes) && !bytes.is_empty())
                .unwrap_or(false);
            return Err(if magic_ok {
                damaged("it is cut short".to_string())
            } else {
                TableFileError::NotATable {
                    path: path.to_path_buf(),
                }
            });
        }
        let magic: [u8; 8] = r.take().map_err(truncated)?;
        if &magic != MAGIC {
            return Err(TableFileError::NotATable {
                path: path.to_path_buf(),
            });
        }
        let version = u32::from_le_bytes(r.take().map_err(truncated)?);
        if version != VERSION {
            return Err(TableFileError::Version {
                path: path.to_path_buf(),
                found: version,
            });
        }
        let width = u16::from_le_bytes(r.take().map_err(truncated)?) as usize;
        let height = u16::from_le_bytes(r.take().map_err(truncated)?) as usize;
        let rule_code = u32::from_le_bytes(r.take().map_err(truncated)?);
        let rule = Rule::from_gomocup(rule_code);
        if (width, height, rule) != (meta.width, meta.height, Some(meta.rule)) {
            return Err(TableFileError::Mismatch {
                path: path.to_path_buf(),
                found: describe(width, height, rule),
                expected: describe(meta.width, meta.height, Some(meta.rule)),
            });
        }
        let entry_bytes = u32::from_le_bytes(r.take().map_err(truncated)?);
        if entry_bytes as usize != ENTRY_BYTES {
            return Err(damaged(format!("entries of {entry_bytes} bytes")));
        }
        let count = u64::from_le_bytes(r.take().map_err(truncated)?);
        let expected_length = count
            .checked_mul(ENTRY_BYTES as u64)
            .and_then(|b| b.checked_add(HEADER_BYTES + 8));
        if expected_length != Some(length) {
            return Err(damaged(format!(
                "its length ({length} bytes) does not match its {count} entries"
            )));
        }
        for i in 0..count {
            let _key: [u8; 8] = r.take().map_err(truncated)?;
            let data = u64::from_le_bytes(r.take().map_err(truncated)?);
            if !valid_entry(data) {
                return Err(damaged(format!("entry {} is not a valid entry", i + 1)));
            }
        }
        let expected = r.sum.0;
        let found = u64::from_le_bytes(r.take().map_err(truncated)?);
        if found != expected {
            return Err(damaged("its checksum does not match".to_string()));
        }
        Ok(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Bound;

    fn meta() -> TableMeta {
        TableMeta {
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
        }
    }

    fn temp(name: &str) -> PathBuf {
        std::env::temp_dir().join(format!("wuzi-tt-{}-{name}", std::process::id()))
    }

    fn filled() -> TranspositionTable {
        let mut tt = TranspositionTable::new(1 << 16);
        tt.new_search();
        for key in 1..200u64 {
            let key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            tt.store(
                key,
                0,
                Some((key % 500) as usize),
                (key % 300) as i32 - 150,
                7,
                5,
                Bound::Exact,
            );
        }
        tt
    }

    #[test]
    fn a_saved_table_loads_back_with_every_entry() {
        let tt = filled();
        let path = temp("round-trip");
        let n = tt.save(&path, &meta()).expect("saved");
        assert_eq!(n, tt.usage().used);
        // Into a table of another size: every entry is found again.
        let mut other = TranspositionTable::new(1 << 18);
        assert_eq!(other.load(&path, &meta()).expect("loaded"), n);
        for key in 1..200u64 {
            let key = key.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            assert_eq!(tt.probe(key, 0), other.probe(key, 0), "{key}");
        }
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn wrong_games_and_damaged_files_are_refused_and_leave_the_table() {
        let tt = filled();
        let path = temp("damaged");
        tt.save(&path, &meta()).expect("saved");
        let mut target = TranspositionTable::new(1 << 16);
        target.new_search();
        target.store(42, 0, Some(1), 10, 0, 3, Bound::Exact);
        let before = target.probe(42, 0);
        let renju = TableMeta {
            rule: Rule::Renju,
            ..meta()
        };
        let e = target.load(&path, &renju).unwrap_err();
        assert!(e.to_string().contains("15x15 freestyle"), "{e}");
        let big = TableMeta {
            width: 20,
            height: 20,
            ..meta()
        };
        assert!(matches!(
            target.load(&path, &big),
            Err(TableFileError::Mismatch { .. })
        ));
        let bytes = std::fs::read(&path).expect("read");
        // A flipped byte in an entry, a cut file, another version, not a table at all.
        let mut flipped = bytes.clone();
        flipped[40] ^= 0x10;
        let mut version = bytes.clone();
        version[8] = 9;
        for (case, content, want) in [
            ("flipped", flipped, "damaged"),
            ("cut", bytes[..bytes.len() - 5].to_vec(), "damaged"),
            ("version", version, "version"),
            ("text", b"hello, world\n".to_vec(), "not a wuzi hash file"),
            ("empty", Vec::new(), "not a wuzi hash file"),
        ] {
            let p = temp(case);
            std::fs::write(&p, content).expect("write");
            let e = target.load(&p, &meta()).unwrap_err();
            assert!(e.to_string().contains(want), "{case}: {e}");
            assert_eq!(target.probe(42, 0), before, "{case}");
            let _ = std::fs::remove_file(&p);
        }
        assert!(matches!(
            target.load(&temp("missing"), &meta()),
            Err(TableFileError::Read { .. })
        ));
        let _ = std::fs::remove_file(&path);
    }
}
