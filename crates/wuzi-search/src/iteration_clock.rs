//! When iterative deepening starts another iteration.
//!
//! Owns the rule that turns a move's soft and hard limits into "one more iteration or not".
//! Invariant: with no soft limit every iteration may start (depth and node limits, and the
//! hard limit that cuts a running iteration, end the search instead).

use std::time::Duration;

use crate::Limits;

/// When to start another iteration. Time left unused at the end of a move is lost when the
/// limit is per move only (`soft_time` equal to `hard_time`, or absent): then every iteration
/// starts while there is time, and the clock cuts the last one. When the soft limit is below
/// the hard one, saved time is banked for later moves: no iteration starts that is predicted
/// not to finish, and the soft limit stretches while the best move changes and shrinks while
/// it stays the same.
pub(crate) struct IterationClock {
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether the search is analysis (see [`Limits::analysis`]).
    analysis: bool,
    /// Iterations in a row that kept the best move (from depth 2 on).
    stable_iterations: u32,
    /// Whether the last iteration changed the best move.
    changed: bool,
}

impl IterationClock {
    pub(crate) fn new(limits: &Limits) -> IterationClock {
        IterationClock {
            soft: limits.soft_time,
            hard: limits.hard_time,
            analysis: limits.analysis,
            stable_iterations: 0,
            changed: false,
        }
    }

    fn banked(&self) -> bool {
        matches!((self.soft, self.hard), (Some(soft), Some(hard)) if soft < hard)
    }

    pub(crate) fn record(&mut self, depth: i32, best_changed: bool) {
        self.changed = best_changed && depth > 1;
        if self.changed {
            self.stable_iterations = 0;
        } else if depth > 1 {
            self.stable_iterations += 1;
        }
    }

    /// Whether the search of a forced move (one root move) may stop after `depth`: in play (a
    /// soft limit), after a few iterations for its score or an eighth of the soft limit.
    /// Without a soft limit (a depth, a node budget, a measurement), and in analysis, it is
    /// searched like any other position. Searching it on to the hard limit where a turn's
    /// unused time is lost was measured and lost (`docs/journal/search.md`, 2026-11-27).
    pub(crate) fn forced_move_done(&self, depth: i32, elapsed: Duration) -> bool {
        !self.analysis
            && self
                .soft
                .is_some_and(|soft| depth >= 8 || elapsed * 8 >= soft)
    }

    pub(crate) fn may_start_iteration(&self, elapsed: Duration, last_iteration: Duration) -> bool {
        let Some(soft) = self.soft else {
            return true;
        };
        if !self.banked() {
            return elapsed < soft;
        }
        let hard = self.hard.unwrap_or(soft);
        let soft = if self.changed {
            soft * 3 / 2
        } else if self.stable_iterations >= 4 {
            soft * 3 / 5
        } else {
            soft
        };
        elapsed < soft.min(hard) && elapsed + last_iteration * 3 / 2 < hard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(soft_ms: u64, hard_ms: u64) -> IterationClock {
        IterationClock::new(&Limits {
            soft_time: Some(Duration::from_millis(soft_ms)),
            hard_time: Some(Duration::from_millis(hard_ms)),
            ..Limits::default()
        })
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_per_move_limit_starts_every_iteration_it_has_time_for() {
        let c = clock(450, 450);
        // A long last iteration does not stop it: time not used now is lost.
        assert!(c.may_start_iteration(ms(300), ms(250)));
        assert!(!c.may_start_iteration(ms(450), ms(10)));
    }

    #[test]
    fn banked_time_is_spent_by_prediction_and_stability() {
        let mut c = clock(1000, 5000);
        assert!(c.may_start_iteration(ms(900), ms(100)));
        assert!(
            !c.may_start_iteration(ms(1000), ms(10)),
            "past the soft limit"
        );
        assert!(
            !c.may_start_iteration(ms(900), ms(3000)),
            "cannot finish by hard"
        );
        // A changed best move stretches the soft limit by half.
        c.record(5, true);
        assert!(c.may_start_iteration(ms(1400), ms(100)));
        assert!(!c.may_start_iteration(ms(1500), ms(100)));
        // A best move kept for four iterations shrinks it to three fifths.
        for depth in 6..10 {
            c.record(depth, false);
        }
        assert!(c.may_start_iteration(ms(500), ms(100)));
        assert!(!c.may_start_iteration(ms(600), ms(100)));
    }

    #[test]
    fn a_forced_move_stops_early_only_in_play() {
        let without_clock = IterationClock::new(&Limits::default());
        assert!(!without_clock.forced_move_done(20, ms(0)));
        let only_hard = IterationClock::new(&Limits {
            hard_time: Some(ms(100)),
            ..Limits::default()
        });
        assert!(!only_hard.forced_move_done(20, ms(90)));
        // In play: a few iterations, or an eighth of the soft limit.
        for c in [clock(100, 100), clock(100, 300)] {
            assert!(!c.forced_move_done(7, ms(12)));
            assert!(c.forced_move_done(8, ms(0)));
            assert!(c.forced_move_done(3, ms(13)));
        }
        // Analysis reads it to the limits.
        let analysis = IterationClock::new(&Limits {
            soft_time: Some(ms(100)),
            hard_time: Some(ms(100)),
            analysis: true,
            ..Limits::default()
        });
        assert!(!analysis.forced_move_done(20, ms(90)));
    }

    #[test]
    fn no_soft_limit_never_stops_an_iteration_early() {
        let c = IterationClock::new(&Limits::default());
        assert!(c.may_start_iteration(ms(1_000_000), ms(1_000_000)));
    }
}
