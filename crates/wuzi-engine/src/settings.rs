//! The engine's settings, as the settings file and then `INFO` lines left them.
//!
//! Owns the values and what follows from them: the rule (an unsupported code is kept and
//! reported by [`Settings::rule`] until a supported one arrives), the clock for the time
//! budget, the number of search threads, the transposition table size, what the search
//! reports (`show_detail`), pondering, the playing strength and the stone limit of a game
//! ([`Settings::draw_rule`]: `max_moves`, else the 200 stones of Gomocup's renju). Invariant of
//! [`Settings::table_bytes`]: with a `max_memory`, the table plus [`RESERVED_BYTES`]
//! (everything else the process holds) plus [`PER_THREAD_BYTES`] for every search thread
//! past the first stays below it with a tenth to spare.

use wuzi_core::{Color, Rule};
use wuzi_search::DrawRule;

use crate::timer::Clock;
use wuzi_protocol::{Setting, UNLIMITED_TIME_LEFT};

/// Search threads until `INFO thread_num` arrives: managers that play games side by side
/// rely on one (`pbrain-wuzi --threads N` sets another default).
pub const DEFAULT_THREADS: u64 = 1;
/// Turn time assumed until `INFO timeout_turn` arrives, in ms.
pub const DEFAULT_TIMEOUT_TURN: u64 = 5_000;
/// Memory the process needs besides the table: code, thread stacks, boards, buffers.
pub const RESERVED_BYTES: u64 = 24 << 20;
/// Memory of each search thread past the first: its board, killer, history and counter-move
/// tables, move lists, VCF table and the touched part of its stack (measured in
/// `tests/protocol_parallel.rs`, with room to spare).
pub const PER_THREAD_BYTES: u64 = 8 << 20;
/// Table size without `hash_size` and without `max_memory`.
pub const DEFAULT_TABLE_BYTES: u64 = 64 << 20;
/// Largest table used without `hash_size` when `max_memory` allows more.
pub const MAX_DEFAULT_TABLE_BYTES: u64 = 256 << 20;
/// Largest table at all.
pub const MAX_TABLE_BYTES: u64 = 16 << 30;
/// Full strength (`INFO strength`).
pub use wuzi_search::strength::FULL_STRENGTH;
/// Gomocup's renju tournaments declare a game drawn after this many moves (stones).
pub const RENJU_DRAW_STONES: usize = 200;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub timeout_turn: u64,
    /// `None` until sent; `Some(0)` means no match limit.
    pub timeout_match: Option<u64>,
    /// `None` until sent; the raw value otherwise.
    pub time_left: Option<i64>,
    pub max_memory: u64,
    pub game_type: u64,
    pub rule_code: u64,
    pub folder: String,
    /// As sent: 0 means one thread per available core (see [`Settings::threads`]).
    pub thread_num: u64,
    pub hash_kb: u64,
    pub max_depth: Option<u64>,
    pub max_node: Option<u64>,
    /// `MESSAGE depth ...` progress lines (`show_detail` not 0).
    pub show_detail: bool,
    /// The realtime display (`show_detail` 1 or 3).
    pub realtime: bool,
    /// The detail block after each iteration (`show_detail` 2 or 3).
    pub detail: bool,
    /// Think on the opponent's time.
    pub pondering: bool,
    /// 0 (weakest) to [`FULL_STRENGTH`].
    pub strength: u64,
    /// `INFO max_moves` as sent (`Some(0)`: no limit); `None` until sent.
    pub max_moves: Option<u64>,
    /// 0 draw, 1 Black wins, 2 White wins.
    pub draw_result: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            timeout_turn: DEFAULT_TIMEOUT_TURN,
            timeout_match: None,
            time_left: None,
            max_memory: 0,
            game_type: 0,
            rule_code: 0,
            folder: String::new(),
            thread_num: DEFAULT_THREADS,
            hash_kb: 0,
            max_depth: None,
            max_node: None,
            show_detail: true,
            realtime: false,
            detail: false,
            pondering: false,
            strength: FULL_STRENGTH,
            max_moves: None,
            draw_result: 0,
        }
    }
}

/// What changed when a setting was applied, for the session to act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    Rule,
    Table,
    /// The thread count, and with it the table size.
    Threads,
    /// The stone limit or its result: what the table holds was searched under other rules.
    Draw,
}

impl Settings {
    pub fn apply(&mut self, setting: Setting) -> Changed {
        match setting {
            Setting::TimeoutTurn(v) => self.timeout_turn = v,
            Setting::TimeoutMatch(v) => self.timeout_match = Some(v),
            Setting::TimeLeft(v) => self.time_left = Some(v),
            Setting::MaxMemory(v) => {
                self.max_memory = v;
                return Changed::Table;
            }
            Setting::GameType(v) => self.game_type = v,
            Setting::Rule(v) => {
                self.rule_code = v;
                return Changed::Rule;
            }
            Setting::Folder(v) => self.folder = v,
            Setting::ThreadNum(v) => {
                self.thread_num = v;
                return Changed::Threads;
            }
            Setting::HashSize(v) => {
                self.hash_kb = v;
                return Changed::Table;
            }
            Setting::MaxDepth(v) => self.max_depth = v,
            Setting::MaxNode(v) => self.max_node = v,
            Setting::ShowDetail(v) => {
                self.show_detail = v != 0;
                self.realtime = v & 1 != 0;
                self.detail = v & 2 != 0;
            }
            Setting::Pondering(v) => self.pondering = v,
            Setting::Strength(v) => self.strength = v.min(FULL_STRENGTH),
            Setting::MaxMoves(v) => {
                let before = self.max_moves;
                self.max_moves = Some(v);
                if before != self.max_moves {
                    return Changed::Draw;
                }
            }
            Setting::DrawResult(v) => {
                let before = self.draw_result;
                self.draw_result = v;
                if before != v {
                    return Changed::Draw;
                }
            }
            Setting::Other { .. } => {}
        }
        Changed::Nothing
    }

    /// The rule to play, or why the rule code cannot be played.
    pub fn rule(&self) -> Result<Rule, String> {
        u32::try_from(self.rule_code)
            .ok()
            .and_then(Rule::from_gomocup)
            .ok_or_else(|| {
                format!(
                    "unsupported rule {} (INFO rule: 0 freestyle, 1 standard, 2 or 4 renju, \
                     8 caro, 9 caro with exact five)",
                    self.rule_code
                )
            })
    }

    /// The stone limit of a game under `rule`: `max_moves` if sent (0: none), else 200 stones
    /// under renju (Gomocup's rule), else none; its result from `draw_result`.
    pub fn draw_rule(&self, rule: Rule) -> Option<DrawRule> {
        let stones = match self.max_moves {
            Some(0) => return None,
            Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
            None if rule == Rule::Renju => RENJU_DRAW_STONES,
            None => return None,
        };
        let winner = match self.draw_result {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        };
        Some(DrawRule { stones, winner })
    }

    /// Whether the search plays below full strength.
    pub fn weakened(&self) -> bool {
        self.strength < FULL_STRENGTH
    }

    /// The clock for the time budget.
    pub fn clock(&self) -> Clock {
        let match_limited = self.timeout_match != Some(0);
        let time_left = self
            .time_left
            .filter(|&v| match_limited && v != UNLIMITED_TIME_LEFT);
        Clock {
            timeout_turn: self.timeout_turn,
            timeout_match: self.timeout_match.unwrap_or(0),
            time_left,
        }
    }

    /// Counts `used_ms` against the match time left (until the manager sends a new value).
    pub fn spend(&mut self, used_ms: u64) {
        if let Some(left) = self.time_left {
            if left != UNLIMITED_TIME_LEFT {
                self.time_left = Some(left.saturating_sub(used_ms as i64));
            }
        }
    }

    /// The settings an engine starts with: the built-in defaults, then what the settings
    /// file sets, then the command line's thread count (if given).
    pub fn launched(file: &crate::config::FileSettings, threads: Option<u64>) -> Settings {
        let mut s = Settings::default();
        if let Some(t) = threads.or(file.threads) {
            s.thread_num = t;
        }
        if let Some(kb) = file.hash_kb {
            s.hash_kb = kb;
        }
        if let Some(p) = file.pondering {
            s.pondering = p;
        }
        if let Some(level) = file.show_detail {
            s.apply(Setting::ShowDetail(level));
        }
        if let Some(v) = file.strength {
            s.strength = v.min(FULL_STRENGTH);
        }
        s
    }

    /// The search threads to use: `thread_num` read by the one thread-count rule
    /// ([`wuzi_search::resolve_threads`]: 0 is one per available core; `1..=MAX_THREADS`).
    pub fn threads(&self) -> usize {
        wuzi_search::resolve_threads(self.thread_num)
    }

    /// The largest table that fits the memory limit.
    pub fn table_cap(&self) -> u64 {
        if self.max_memory == 0 {
            MAX_TABLE_BYTES
        } else {
            let helpers = (self.threads() as u64 - 1) * PER_THREAD_BYTES;
            (self
                .max_memory
                .saturating_sub(RESERVED_BYTES)
                .saturating_sub(helpers)
                / 10
                * 9)
            .min(MAX_TABLE_BYTES)
        }
    }

    /// The transposition table size in bytes.
    pub fn table_bytes(&self) -> usize {
        let want = if self.hash_kb > 0 {
            self.hash_kb.saturating_mul(1024)
        } else if self.max_memory > 0 {
            MAX_DEFAULT_TABLE_BYTES
        } else {
            DEFAULT_TABLE_BYTES
        };
        usize::try_from(want.min(self.table_cap())).unwrap_or(usize::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_search::parallel::MAX_THREADS;

    #[test]
    fn rule_codes() {
        let mut s = Settings::default();
        assert_eq!(s.rule(), Ok(Rule::Freestyle));
        for (code, rule) in [(1, Rule::Standard), (2, Rule::Renju), (4, Rule::Renju)] {
            s.apply(Setting::Rule(code));
            assert_eq!(s.rule(), Ok(rule));
        }
        for bad in [3, 5, 6, 7, 12, 16, 1 << 40] {
            s.apply(Setting::Rule(bad));
            assert!(s.rule().is_err(), "{bad}");
        }
    }

    #[test]
    fn time_left_counts_only_with_a_match_limit() {
        let mut s = Settings::default();
        s.apply(Setting::TimeLeft(10_000));
        assert_eq!(s.clock().time_left, Some(10_000));
        s.apply(Setting::TimeoutMatch(0));
        assert_eq!(s.clock().time_left, None);
        s.apply(Setting::TimeoutMatch(180_000));
        s.apply(Setting::TimeLeft(UNLIMITED_TIME_LEFT));
        assert_eq!(s.clock().time_left, None);
        s.apply(Setting::TimeLeft(-20));
        assert_eq!(s.clock().time_left, Some(-20));
        s.apply(Setting::TimeLeft(1_000));
        s.spend(300);
        assert_eq!(s.clock().time_left, Some(700));
    }

    #[test]
    fn table_fits_max_memory() {
        let mut s = Settings::default();
        assert_eq!(s.table_bytes() as u64, DEFAULT_TABLE_BYTES);
        s.apply(Setting::HashSize(1 << 30)); // a terabyte in KB
        s.apply(Setting::MaxMemory(367_001_600));
        let t = s.table_bytes() as u64;
        assert!(t + RESERVED_BYTES < 367_001_600 / 10 * 9 + RESERVED_BYTES / 10);
        assert!(t > 200 << 20);
        s.apply(Setting::MaxMemory(1 << 20));
        assert_eq!(s.table_bytes(), 0);
        s.apply(Setting::MaxMemory(0));
        s.apply(Setting::HashSize(1024));
        assert_eq!(s.table_bytes(), 1 << 20);
    }

    #[test]
    fn show_detail_levels_and_the_stone_limit() {
        let mut s = Settings::default();
        assert!(s.show_detail && !s.realtime && !s.detail);
        s.apply(Setting::ShowDetail(1));
        assert!(s.show_detail && s.realtime && !s.detail);
        s.apply(Setting::ShowDetail(2));
        assert!(s.show_detail && !s.realtime && s.detail);
        s.apply(Setting::ShowDetail(3));
        assert!(s.realtime && s.detail);
        s.apply(Setting::ShowDetail(0));
        assert!(!s.show_detail && !s.realtime && !s.detail);
        // Renju games end at 200 stones unless max_moves says otherwise.
        assert_eq!(s.draw_rule(Rule::Freestyle), None);
        assert_eq!(
            s.draw_rule(Rule::Renju),
            Some(DrawRule {
                stones: RENJU_DRAW_STONES,
                winner: None
            })
        );
        assert_eq!(s.apply(Setting::MaxMoves(50)), Changed::Draw);
        assert_eq!(s.apply(Setting::DrawResult(2)), Changed::Draw);
        assert_eq!(s.apply(Setting::DrawResult(2)), Changed::Nothing);
        assert_eq!(
            s.draw_rule(Rule::Freestyle),
            Some(DrawRule {
                stones: 50,
                winner: Some(Color::White)
            })
        );
        s.apply(Setting::MaxMoves(0));
        assert_eq!(s.draw_rule(Rule::Renju), None);
    }

    #[test]
    fn threads_resolve_and_shrink_the_table() {
        let mut s = Settings::default();
        assert_eq!(s.threads(), 1);
        assert_eq!(s.apply(Setting::ThreadNum(4)), Changed::Threads);
        assert_eq!(s.threads(), 4);
        s.apply(Setting::ThreadNum(100_000));
        assert_eq!(s.threads(), MAX_THREADS);
        s.apply(Setting::ThreadNum(0));
        assert!((1..=MAX_THREADS).contains(&s.threads()));
        let file = crate::config::FileSettings::default();
        assert_eq!(Settings::launched(&file, Some(3)).threads(), 3);
        // Every helper thread's budget comes out of the table.
        s.apply(Setting::MaxMemory(100 << 20));
        s.apply(Setting::ThreadNum(1));
        let one = s.table_cap();
        s.apply(Setting::ThreadNum(4));
        assert_eq!(one - s.table_cap(), (3 * PER_THREAD_BYTES) / 10 * 9);
        let t = s.table_bytes() as u64;
        assert!(t + RESERVED_BYTES + 3 * PER_THREAD_BYTES <= 100 << 20);
        // So many threads that nothing is left for a table.
        s.apply(Setting::ThreadNum(256));
        assert_eq!(s.table_bytes(), 0);
    }
}
