//! Time control and the per-engine game clock, as the official Gomocup referee keeps them.
//!
//! A [`TimeControl`] is a limit per move (`timeout_turn`), an optional limit for the whole game
//! (`timeout_match`) and a tolerance added to both. A [`Clock`] is one engine's clock in one
//! game.
//!
//! Invariants and rules:
//! - every move is charged in full to the game clock, including any part of it that ran past
//!   the turn limit: an overrun inside the tolerance is not forgiven, it carries over and
//!   shortens the rest of the game (so `time_left` can go negative, and is sent as such);
//! - a move loses on time when it took longer than `turn + tolerance`, or when it left the game
//!   clock below `-tolerance`;
//! - the engine's start-up time (from `START` to its `OK`) is charged to its first move;
//! - [`Clock::allowance`] is the longest the referee waits for a move: past it the move has
//!   lost on time whatever comes, so the referee can stop waiting and kill the engine.

use std::time::Duration;

use wuzi_protocol::UNLIMITED_TIME_LEFT;

/// Limits of one match. `turn` is at least one millisecond (checked where it is built).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for one move (`INFO timeout_turn`).
    pub turn: Duration,
    /// Time for the whole game (`INFO timeout_match`); `None` is unlimited (sent as 0).
    pub game: Option<Duration>,
    /// Grace added to both limits before a move counts as late.
    pub tolerance: Duration,
}

impl TimeControl {
    /// `timeout_turn` in milliseconds, as sent.
    pub fn turn_ms(&self) -> u64 {
        millis(self.turn)
    }

    /// `timeout_match` in milliseconds, as sent (0 = unlimited).
    pub fn game_ms(&self) -> u64 {
        self.game.map_or(0, millis)
    }

    /// A short human description: `turn 1000 ms, game 60000 ms, tolerance 1000 ms`.
    pub fn describe(&self) -> String {
        let game = match self.game {
            Some(g) => format!("{} ms", millis(g)),
            None => "unlimited".to_string(),
        };
        format!(
            "turn {} ms, game {game}, tolerance {} ms",
            self.turn_ms(),
            millis(self.tolerance)
        )
    }
}

/// Why a move lost on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeLoss {
    /// The move took `used_ms`, more than the turn limit plus tolerance.
    Turn { used_ms: u64, limit_ms: u64 },
    /// The game clock fell to `left_ms` (negative), below minus the tolerance.
    Game { left_ms: i64 },
}

impl std::fmt::Display for TimeLoss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TimeLoss::Turn { used_ms, limit_ms } => {
                write!(f, "move took {used_ms} ms, turn limit {limit_ms} ms")
            }
            TimeLoss::Game { left_ms } => write!(f, "game clock at {left_ms} ms"),
        }
    }
}

/// One engine's clock in one game.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: TimeControl,
    /// Milliseconds left on the game clock; `None` when the game time is unlimited.
    left_ms: Option<i64>,
    /// Total time charged so far.
    used: Duration,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        Clock {
            tc,
            left_ms: tc.game.map(|g| millis(g) as i64),
            used: Duration::ZERO,
        }
    }

    /// The value of `INFO time_left` to send before the next move.
    pub fn time_left_ms(&self) -> i64 {
        self.left_ms.unwrap_or(UNLIMITED_TIME_LEFT)
    }

    /// Total time charged in this game.
    pub fn used(&self) -> Duration {
        self.used
    }

    /// The longest the next move may take (start-up time included) before it is lost
    /// whatever happens: the tighter of the turn limit and the game clock, plus tolerance.
    pub fn allowance(&self) -> Duration {
        let by_turn = self.tc.turn + self.tc.tolerance;
        match self.left_ms {
            Some(left) => {
                let by_game = left.saturating_add(millis(self.tc.tolerance) as i64);
                by_turn.min(Duration::from_millis(by_game.max(0) as u64))
            }
            None => by_turn,
        }
    }

    /// Whether the game clock, not the turn limit, bounds the next move.
    pub fn game_clock_binds(&self) -> bool {
        self.allowance() < self.tc.turn + self.tc.tolerance
    }

    /// Charges a move that took `used` and says whether it lost on time.
    pub fn charge(&mut self, used: Duration) -> Result<(), TimeLoss> {
        self.used += used;
        let used_ms = millis(used);
        let tolerance_ms = millis(self.tc.tolerance) as i64;
        if let Some(left) = self.left_ms.as_mut() {
            *left = left.saturating_sub(used_ms as i64);
        }
        if used > self.tc.turn + self.tc.tolerance {
            return Err(TimeLoss::Turn {
                used_ms,
                limit_ms: self.tc.turn_ms(),
            });
        }
        match self.left_ms {
            Some(left) if left < -tolerance_ms => Err(TimeLoss::Game { left_ms: left }),
            _ => Ok(()),
        }
    }
}

/// Whole milliseconds of a duration, saturating.
pub fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(turn: u64, game: Option<u64>, tol: u64) -> TimeControl {
        TimeControl {
            turn: Duration::from_millis(turn),
            game: game.map(Duration::from_millis),
            tolerance: Duration::from_millis(tol),
        }
    }

    #[test]
    fn turn_limit_with_tolerance() {
        let mut c = Clock::new(tc(1000, None, 200));
        assert_eq!(c.time_left_ms(), UNLIMITED_TIME_LEFT);
        assert_eq!(c.allowance(), Duration::from_millis(1200));
        assert!(c.charge(Duration::from_millis(1200)).is_ok());
        assert_eq!(
            c.charge(Duration::from_millis(1201)),
            Err(TimeLoss::Turn {
                used_ms: 1201,
                limit_ms: 1000
            })
        );
    }

    #[test]
    fn overrun_carries_into_the_game_clock() {
        let mut c = Clock::new(tc(1000, Some(2500), 300));
        // 1200 ms: past the turn limit but inside the tolerance; all of it is charged.
        assert!(c.charge(Duration::from_millis(1200)).is_ok());
        assert_eq!(c.time_left_ms(), 1300);
        assert!(c.charge(Duration::from_millis(1250)).is_ok());
        assert_eq!(c.time_left_ms(), 50);
        // The next move may take at most 50 ms plus tolerance.
        assert_eq!(c.allowance(), Duration::from_millis(350));
        assert!(c.charge(Duration::from_millis(340)).is_ok());
        assert_eq!(c.time_left_ms(), -290);
        // Negative time left: only what remains of the tolerance may be used.
        assert_eq!(c.allowance(), Duration::from_millis(10));
        assert_eq!(
            c.charge(Duration::from_millis(20)),
            Err(TimeLoss::Game { left_ms: -310 })
        );
    }
}
