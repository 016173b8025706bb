//! The time budget of one move.
//!
//! Pure arithmetic over the manager's clock settings, so it can be tested without a clock.
//! Invariants: the hard limit is never more than the turn time, nor more than a fifth of the
//! match time left, minus a safety margin for process and pipe latency (at least
//! [`MIN_MARGIN`], and a tenth of the time); the soft limit (no new iteration after it) is at
//! most the hard limit, and equals it when only the turn time binds (time a move leaves unused
//! is then lost, so the search uses all of it); a budget whose hard limit is under [`INSTANT`]
//! is answered by the quick move without a search. The watchdog's grace after the hard limit
//! stays inside the margin.

use std::time::Duration;

/// The smallest margin kept between the hard limit and the manager's limit.
pub const MIN_MARGIN: Duration = Duration::from_millis(50);
/// Budgets whose hard limit is below this get the quick move.
pub const INSTANT: Duration = Duration::from_millis(20);
/// The share of the match time left that one move aims at (its soft limit) is
/// `1 / MOVES_TO_GO`.
pub const MOVES_TO_GO: i64 = 15;
/// The share of the match time left that one move may never pass is `1 / MAX_SHARE`.
pub const MAX_SHARE: i64 = 5;
/// Longer limits are taken as this (30 days): "unlimited" in practice, and no clock overflows.
pub const MAX_LIMIT_MS: i64 = 30 * 24 * 3600 * 1000;

/// The manager's clock, as the `INFO` settings gave it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// `timeout_turn` in ms; 0 asks for a move at once.
    pub timeout_turn: u64,
    /// `timeout_match` in ms; 0 means unlimited.
    pub timeout_match: u64,
    /// `time_left` in ms; `None` when unlimited or never sent.
    pub time_left: Option<i64>,
}

/// How long one move may take, counted from the moment its command was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search here.
    pub hard: Duration,
    /// After the hard limit, wait at most this long for the search to return before
    /// answering the quick move instead.
    pub grace: Duration,
}

impl Budget {
    /// Whether the move should be the quick move, without a search.
    pub fn is_instant(&self) -> bool {
        self.hard < INSTANT
    }

    /// A budget for no time at all.
    pub const fn instant() -> Budget {
        Budget {
            soft: Duration::ZERO,
            hard: Duration::ZERO,
            grace: Duration::ZERO,
        }
    }
}

/// The budget for the next move. `already_spent` is time the manager counts against this move
/// before its command was read (the engine's start-up, for the first move).
pub fn budget(clock: &Clock, already_spent: Duration) -> Budget {
    let turn_ms = i64::try_from(clock.timeout_turn)
        .unwrap_or(i64::MAX)
        .min(MAX_LIMIT_MS);
    let mut limit_ms = turn_ms;
    let mut optimum_ms = turn_ms;
    if let Some(left) = clock.time_left {
        if left <= 0 {
            return Budget::instant();
        }
        limit_ms = limit_ms.min(left / MAX_SHARE).min(left);
        optimum_ms = optimum_ms.min(left / MOVES_TO_GO.max(1));
    }
    if limit_ms <= 0 {
        return Budget::instant();
    }
    let limit = Duration::from_millis(limit_ms as u64);
    let margin = MIN_MARGIN.max(limit / 10);
    let hard = limit.saturating_sub(margin).saturating_sub(already_spent);
    if hard < INSTANT {
        return Budget::instant();
    }
    // The optimum keeps the same proportional margin as the limit.
    let optimum = Duration::from_millis(optimum_ms.max(0) as u64);
    let soft = if optimum_ms >= limit_ms {
        hard
    } else {
        (optimum - optimum / 10)
            .saturating_sub(already_spent)
            .min(hard)
    };
    Budget {
        soft,
        hard,
        grace: (margin / 2).min(Duration::from_millis(100)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(turn: u64, left: Option<i64>) -> Clock {
        Clock {
            timeout_turn: turn,
            timeout_match: if left.is_some() { 180_000 } else { 0 },
            time_left: left,
        }
    }

    #[test]
    fn turn_time_minus_margin() {
        let b = budget(&clock(1000, None), Duration::ZERO);
        assert_eq!(b.hard, Duration::from_millis(900));
        assert_eq!(b.soft, b.hard, "time a move leaves is lost: use all of it");
        assert!(b.hard + b.grace < Duration::from_millis(1000));
        let b = budget(&clock(300, None), Duration::ZERO);
        assert_eq!(b.hard, Duration::from_millis(250));
    }

    #[test]
    fn match_time_limits_the_move() {
        // 30 s left: a fifth (6 s) at most, less the margin; aim at a fifteenth (2 s).
        let b = budget(&clock(30_000, Some(30_000)), Duration::ZERO);
        assert_eq!(b.hard, Duration::from_millis(5400));
        assert_eq!(b.soft, Duration::from_millis(1800));
        // The turn time binds the maximum, the match time the optimum.
        let b = budget(&clock(30_000, Some(180_000)), Duration::ZERO);
        assert_eq!(b.hard, Duration::from_millis(27_000));
        assert_eq!(b.soft, Duration::from_millis(10_800));
        // Plenty of match time: only the turn binds.
        let b = budget(&clock(5_000, Some(120_000)), Duration::ZERO);
        assert_eq!(b.soft, b.hard);
    }

    #[test]
    fn no_time_means_the_quick_move() {
        assert!(budget(&clock(0, None), Duration::ZERO).is_instant());
        assert!(budget(&clock(30_000, Some(-500)), Duration::ZERO).is_instant());
        assert!(budget(&clock(30_000, Some(0)), Duration::ZERO).is_instant());
        assert!(budget(&clock(60, None), Duration::ZERO).is_instant());
        assert!(!budget(&clock(1000, None), Duration::ZERO).is_instant());
    }

    #[test]
    fn start_up_counts_against_the_move() {
        let b = budget(&clock(1000, None), Duration::from_millis(300));
        assert_eq!(b.hard, Duration::from_millis(600));
        assert!(budget(&clock(1000, None), Duration::from_secs(5)).is_instant());
    }

    #[test]
    fn huge_limits_do_not_overflow() {
        for turn in [u64::MAX, i64::MAX as u64 + 1, 1 << 62] {
            let b = budget(&clock(turn, None), Duration::ZERO);
            assert!(!b.is_instant());
            assert!(std::time::Instant::now()
                .checked_add(b.hard + b.grace)
                .is_some());
        }
    }

    /// Whole games on a simulated clock: every move takes its hard limit, its grace and some
    /// pipe latency (the worst the engine does), and the clock never runs out, whatever the
    /// control, for games far longer than real ones.
    #[test]
    fn simulated_games_never_run_out_of_time() {
        let latency = Duration::from_millis(5);
        for turn in [0_u64, 100, 200, 500, 1000, 5000, 30_000, 600_000] {
            for game_ms in [0_i64, 1_000, 5_000, 30_000, 120_000, 180_000, 3_600_000] {
                let mut left = (game_ms > 0).then_some(game_ms);
                for move_number in 0..225 {
                    let c = Clock {
                        timeout_turn: turn,
                        timeout_match: game_ms as u64,
                        time_left: left,
                    };
                    let b = budget(&c, Duration::ZERO);
                    let used = if b.is_instant() {
                        latency
                    } else {
                        b.hard + b.grace + latency
                    };
                    let used_ms = used.as_millis() as i64;
                    assert!(
                        turn == 0 || used_ms <= turn as i64 || b.is_instant(),
                        "turn {turn} game {game_ms} move {move_number}: {b:?}"
                    );
                    if let Some(l) = left.as_mut() {
                        // Only the quick move may use time a nearly empty clock lacks.
                        assert!(
                            used_ms < *l || b.is_instant(),
                            "turn {turn} game {game_ms} move {move_number}: {b:?} left {l}"
                        );
                        *l -= used_ms;
                    }
                }
            }
        }
    }

    #[test]
    fn hard_plus_grace_stays_inside_every_limit() {
        for turn in [0, 1, 10, 55, 100, 999, 1000, 5000, 30_000, 2_147_483_647] {
            for left in [None, Some(-1), Some(0), Some(70), Some(1000), Some(180_000)] {
                let b = budget(&clock(turn, left), Duration::ZERO);
                assert!(b.soft <= b.hard);
                let used = b.hard + b.grace;
                assert!(
                    used.as_millis() as u64 <= turn.max(1),
                    "{turn} {left:?} {b:?}"
                );
                if let Some(l) = left {
                    assert!(used.as_millis() as i64 <= l.max(0), "{turn} {left:?} {b:?}");
                }
            }
        }
    }
}
