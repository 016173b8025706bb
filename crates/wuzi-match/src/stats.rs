//! Match statistics: wins, losses and draws from each engine's view and by colour, end
//! reasons, the Elo difference with a 95% interval, and the likelihood of superiority.
//!
//! The Elo model is the logistic one: a score share `s` means an Elo difference of
//! `-400 log10(1/s - 1)`. The interval maps `s ± 1.96 σ` through it, where σ is the standard
//! error of the mean score over the games (trinomial: each game scores 1, 1/2 or 0). The
//! likelihood of superiority is `Φ((W - L) / sqrt(W + L))`, draws carrying no information.
//!
//! Invariant: a [`Stats`] is only ever changed by [`Stats::add`] or [`Stats::add_record`],
//! once per finished game, so every count is a count of games; a game counts the same through
//! either.

use std::collections::BTreeMap;

use wuzi_core::Color;

use crate::game::{EndReason, EngineId, GameResult};
use crate::results::GameRecord;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_985;

/// Wins, losses and draws of one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
}

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Wins plus half the draws.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The mean score per game.
    pub fn mean(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The variance of one game's score around the mean.
    pub fn variance(&self) -> Option<f64> {
        let s = self.mean()?;
        let n = self.games() as f64;
        let (w, l, d) = (self.wins as f64, self.losses as f64, self.draws as f64);
        Some((w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)) / n)
    }

    /// The same games from the opponent's side.
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

impl std::fmt::Display for Tally {
    /// `W-L-D`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}-{}", self.wins, self.losses, self.draws)
    }
}

/// An Elo difference and its 95% interval; infinite where the score is 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Elo {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

impl std::fmt::Display for Elo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = |x: f64| {
            if x.is_finite() {
                format!("{x:+.1}")
            } else {
                whole(x)
            }
        };
        write!(
            f,
            "{} (95%: {} to {})",
            v(self.diff),
            v(self.low),
            v(self.high)
        )
    }
}

/// An Elo value rounded to a whole number with its sign, or `+inf` / `-inf`.
fn whole(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.0}")
    } else if x > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// The expected score of a side `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that a score share `s` means (infinite at 0 and 1).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        // Adding 0.0 turns the -0.0 of an even score into 0.0.
        -400.0 * (1.0 / s - 1.0).log10() + 0.0
    }
}

/// The error function (Abramowitz and Stegun 7.1.26; absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

/// Everything counted over the games of a match.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// By engine id, all games.
    pub total: [Tally; 2],
    /// By engine id then colour (0 Black, 1 White).
    pub by_color: [[Tally; 2]; 2],
    /// Games won by Black, by White, and drawn.
    pub black_wins: u64,
    pub white_wins: u64,
    pub draws: u64,
    /// End reasons by key (see `EndReason::key`), and by the engine at fault for losses.
    pub reasons: BTreeMap<&'static str, u64>,
    pub faults: [BTreeMap<&'static str, u64>; 2],
}

impl Stats {
    pub fn add(&mut self, g: &GameResult) {
        self.count(g.black, g.winner, g.reason.key());
    }

    /// Counts a game read from a results file, `names` the engines by id (the game's engines
    /// must be those two; a game of others is not counted and is the error).
    pub fn add_record(&mut self, g: &GameRecord, names: [&str; 2]) -> Result<(), String> {
        let black = match (g.black.as_str(), g.white.as_str()) {
            (b, w) if b == names[0] && w == names[1] => 0,
            (b, w) if b == names[1] && w == names[0] => 1,
            _ => {
                return Err(format!(
                    "game {} is {} vs {}, not a game of {} and {}",
                    g.index + 1,
                    g.black,
                    g.white,
                    names[0],
                    names[1]
                ))
            }
        };
        let key = EndReason::known_key(&g.reason)
            .ok_or_else(|| format!("game {}: \"{}\" is no end reason", g.index + 1, g.reason))?;
        self.count(black, g.winner, key);
        Ok(())
    }

    /// Counts one game: the engine that played Black, the winning colour, the reason's key.
    fn count(&mut self, black: EngineId, winner: Option<Color>, key: &'static str) {
        let winning = winner.map(|c| match c {
            Color::Black => black,
            Color::White => 1 - black,
        });
        for id in 0..2 {
            let score = match winning {
                Some(w) if w == id => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            self.total[id].add(score);
            let color = if black == id { 0 } else { 1 };
            self.by_color[id][color].add(score);
        }
        match winner {
            Some(Color::Black) => self.black_wins += 1,
            Some(Color::White) => self.white_wins += 1,
            None => self.draws += 1,
        }
        *self.reasons.entry(key).or_default() += 1;
        // A loss that is no five was the loser's fault (draw reasons have no winner).
        if key != EndReason::Five.key() {
            if let Some(w) = winning {
                *self.faults[1 - w].entry(key).or_default() += 1;
            }
        }
    }

    pub fn games(&self) -> u64 {
        self.total[0].games()
    }

    /// Engine 0's Elo advantage over engine 1, if any game was played.
    pub fn elo(&self) -> Option<Elo> {
        let t = &self.total[0];
        let s = t.mean()?;
        let se = (t.variance()? / t.games() as f64).sqrt();
        Some(Elo {
            diff: elo_of_score(s),
            low: elo_of_score(s - Z95 * se),
            high: elo_of_score(s + Z95 * se),
        })
    }

    /// The likelihood that engine 0 is stronger than engine 1; `None` before any decisive game.
    pub fn los(&self) -> Option<f64> {
        let t = &self.total[0];
        let decisive = (t.wins + t.losses) as f64;
        (decisive > 0.0)
            .then(|| 0.5 * (1.0 + erf((t.wins as f64 - t.losses as f64) / (2.0 * decisive).sqrt())))
    }

    /// A several-line report. `names` by engine id.
    pub fn report(&self, names: [&str; 2]) -> String {
        let mut out = String::new();
        let n = self.games();
        for (id, name) in names.iter().enumerate() {
            let t = &self.total[id];
            let pct = t.mean().map_or(0.0, |m| 100.0 * m);
            out.push_str(&format!(
                "{}: {} wins, {} losses, {} draws; score {:.1}/{n} ({pct:.1}%); as Black {} (W-L-D), as White {}\n",
                name, t.wins, t.losses, t.draws, t.points(), self.by_color[id][0], self.by_color[id][1]
            ));
        }
        out.push_str(&format!(
            "By colour: Black won {}, White won {}, drawn {}\n",
            self.black_wins, self.white_wins, self.draws
        ));
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        out.push_str(&format!("End reasons: {}\n", reasons.join(", ")));
        for (faults, name) in self.faults.iter().zip(names) {
            if !faults.is_empty() {
                let f: Vec<String> = faults.iter().map(|(k, v)| format!("{k} {v}")).collect();
                out.push_str(&format!("Losses by fault of {name}: {}\n", f.join(", ")));
            }
        }
        if let Some(elo) = self.elo() {
            out.push_str(&format!(
                "Elo difference ({} - {}): {elo}\n",
                names[0], names[1]
            ));
        }
        if let Some(los) = self.los() {
            out.push_str(&format!(
                "Likelihood of superiority ({} stronger): {:.1}%\n",
                names[0],
                100.0 * los
            ));
        }
        out
    }

    /// A short one-line summary for progress: `3-2-1 (58.3%) Elo +58 ± 190`.
    pub fn short(&self) -> String {
        let t = &self.total[0];
        let mut s = format!("{t}");
        if let Some(m) = t.mean() {
            s.push_str(&format!(" ({:.1}%)", 100.0 * m));
        }
        if let Some(e) = self.elo() {
            if e.low.is_finite() && e.high.is_finite() {
                s.push_str(&format!(
                    " Elo {:+.0} ± {:.0}",
                    e.diff,
                    (e.high - e.low) / 2.0
                ));
            } else if e.diff.is_finite() {
                let (d, l, h) = (whole(e.diff), whole(e.low), whole(e.high));
                s.push_str(&format!(" Elo {d} [{l}, {h}]"));
            } else {
                s.push_str(&format!(" Elo {}", whole(e.diff)));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_interval_match_hand_values() {
        assert!((expected_score(0.0) - 0.5).abs() < 1e-12);
        assert!((elo_of_score(expected_score(123.0)) - 123.0).abs() < 1e-9);
        let mut st = Stats::default();
        st.total[0] = Tally {
            wins: 60,
            losses: 40,
            draws: 0,
        };
        let e = st.elo().unwrap();
        // s = 0.6 -> +70.4 Elo; se = sqrt(0.24 / 100) = 0.049.
        assert!((e.diff - 70.437).abs() < 0.01, "{e}");
        let lo = elo_of_score(0.6 - Z95 * 0.24f64.sqrt() / 10.0);
        assert!((e.low - lo).abs() < 1e-9);
        assert!(e.low < e.diff && e.diff < e.high);
    }

    #[test]
    fn los_is_symmetric_and_ignores_draws() {
        let mut st = Stats::default();
        assert_eq!(st.los(), None);
        st.total[0] = Tally {
            wins: 10,
            losses: 10,
            draws: 50,
        };
        assert!((st.los().unwrap() - 0.5).abs() < 1e-7);
        st.total[0] = Tally {
            wins: 30,
            losses: 10,
            draws: 0,
        };
        // Phi(20 / sqrt(40)) = Phi(3.162) = 0.99922.
        assert!((st.los().unwrap() - 0.99922).abs() < 1e-4);
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(erf(0.0).abs() < 1e-7);
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
        assert!((erf(-0.5) + 0.520_499_88).abs() < 2e-7);
    }
}
