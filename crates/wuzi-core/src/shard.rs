//! Splitting work that a cluster scheduler runs as independent pieces: which share of a
//! numbered list of items a shard owns ([`Shard`]), and a stable fingerprint of the settings
//! that define the list ([`Fingerprint`]), so that pieces made apart can be recognised as
//! parts of one whole before they are put together.
//!
//! A shard is written `K/N` (1 <= K <= N): the K-th of N. Two ways of splitting are offered,
//! each a function of the item numbers alone (never of timing or of how many shards run at
//! once), so that any shard can be run, or run again, on its own:
//! - [`Shard::owns`]: interleaved, unit `u` belongs to shard `u mod N + 1`. Every shard is a
//!   sample of the whole list (a match's shard holds openings from the whole suite, with both
//!   colours), so a merge of the shards finished so far is representative;
//! - [`Shard::block`]: contiguous, shard K holds items `[(K-1)T/N, KT/N)` of `T`; the shards'
//!   outputs, concatenated in order of K, are in the order one run would write them.
//!
//! Invariants: for every `N` the shards `1/N ..= N/N` partition the units (every unit has
//! exactly one owner) and partition `0..T` into blocks; `1/1` owns everything.
//!
//! [`Fingerprint`] is FNV-1a over length-prefixed fields: the same on every machine, build and
//! Rust version (std's hashers promise none of that), and no field can run into the next.
//! It names settings, it does not protect against tampering.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use thiserror::Error;

/// Why a `K/N` text is no shard.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ShardError {
    #[error("\"{0}\" is no shard: write K/N, the K-th of N shards (for example 2/8)")]
    Syntax(String),
    #[error("shard {number}/{count}: K must be between 1 and N")]
    Range { number: usize, count: usize },
}

/// The K-th of N shards (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shard {
    /// 0-based: K - 1.
    index: usize,
    count: usize,
}

impl Default for Shard {
    fn default() -> Shard {
        Shard::WHOLE
    }
}

impl Shard {
    /// `1/1`: all of the work.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Shard `number` (1-based) of `count`.
    pub fn new(number: usize, count: usize) -> Result<Shard, ShardError> {
        if number == 0 || number > count {
            return Err(ShardError::Range { number, count });
        }
        Ok(Shard {
            index: number - 1,
            count,
        })
    }

    /// K, from 1.
    pub fn number(&self) -> usize {
        self.index + 1
    }

    /// N.
    pub fn count(&self) -> usize {
        self.count
    }

    pub fn is_whole(&self) -> bool {
        self.count == 1
    }

    /// Whether unit `unit` is this shard's in the interleaved split.
    pub fn owns(&self, unit: usize) -> bool {
        unit % self.count == self.index
    }

    /// This shard's contiguous block of the items `0..total`.
    pub fn block(&self, total: usize) -> Range<usize> {
        let at = |k: usize| (k as u128 * total as u128 / self.count as u128) as usize;
        at(self.index)..at(self.index + 1)
    }
}

impl fmt::Display for Shard {
    /// `K/N`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.number(), self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(text: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(text.to_string());
        let (k, n) = text.trim().split_once('/').ok_or_else(syntax)?;
        let number = |s: &str| {
            let s = s.trim();
            if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            s.parse::<usize>().map_err(|_| syntax())
        };
        Shard::new(number(k)?, number(n)?)
    }
}

/// A stable 64-bit fingerprint of a sequence of fields (FNV-1a, each field length-prefixed).
#[derive(Clone, Debug)]
pub struct Fingerprint(u64);

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

impl Fingerprint {
    /// A fingerprint whose first field is `domain`, the kind of thing fingerprinted (so that
    /// two kinds with equal fields differ).
    pub fn new(domain: &str) -> Fingerprint {
        let mut f = Fingerprint(FNV_OFFSET);
        f.str(domain);
        f
    }

    fn raw(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(FNV_PRIME);
        }
    }

    /// Adds a field of bytes.
    pub fn bytes(&mut self, bytes: &[u8]) -> &mut Fingerprint {
        self.raw(&(bytes.len() as u64).to_le_bytes());
        self.raw(bytes);
        self
    }

    pub fn str(&mut self, s: &str) -> &mut Fingerprint {
        self.bytes(s.as_bytes())
    }

    pub fn u64(&mut self, v: u64) -> &mut Fingerprint {
        self.bytes(&v.to_le_bytes())
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_read_and_written_as_k_of_n() {
        let s: Shard = "2/8".parse().unwrap();
        assert_eq!((s.number(), s.count()), (2, 8));
        assert_eq!(s.to_string(), "2/8");
        assert_eq!(" 1/1 ".parse::<Shard>(), Ok(Shard::WHOLE));
        assert!(Shard::WHOLE.is_whole() && !s.is_whole());
        for bad in [
            "", "2", "0/3", "4/3", "1/0", "a/2", "1/-2", "+1/2", "1/2/3", "/2",
        ] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
        let e = "4/3".parse::<Shard>().unwrap_err().to_string();
        assert!(e.contains("between 1 and N"), "{e}");
    }

    #[test]
    fn shards_partition_units_and_blocks() {
        for count in 1..=7 {
            let shards: Vec<Shard> = (1..=count).map(|k| Shard::new(k, count).unwrap()).collect();
            for unit in 0..50 {
                let owners = shards.iter().filter(|s| s.owns(unit)).count();
                assert_eq!(owners, 1, "unit {unit} of {count}");
            }
            for total in [0, 1, 5, 13, 100] {
                let mut next = 0;
                for s in &shards {
                    let b = s.block(total);
                    assert_eq!(b.start, next, "{s} of {total}");
                    assert!(b.len() <= total / count + 1);
                    next = b.end;
                }
                assert_eq!(next, total);
            }
        }
        assert_eq!(Shard::new(3, 3).unwrap().block(10), 6..10);
        assert_eq!(Shard::WHOLE.block(usize::MAX), 0..usize::MAX);
    }

    #[test]
    fn fingerprints_separate_fields_and_are_stable() {
        let of = |fields: &[&str]| {
            let mut f = Fingerprint::new("test");
            for s in fields {
                f.str(s);
            }
            f.finish()
        };
        assert_eq!(of(&["ab", "c"]), of(&["ab", "c"]));
        assert_ne!(of(&["ab", "c"]), of(&["a", "bc"]));
        assert_ne!(of(&[]), Fingerprint::new("other").finish());
        // The value itself is part of the contract: files written by one build are checked
        // by another.
        assert_eq!(of(&[]), 0x14e4_d0f6_66ae_5fd9, "{:#x}", of(&[]));
    }
}
