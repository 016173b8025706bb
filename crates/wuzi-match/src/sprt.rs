//! The sequential probability ratio test: play until one of two Elo hypotheses is accepted.
//!
//! H0: the first engine is `elo0` stronger than the second; H1: it is `elo1` stronger
//! (`elo0 < elo1`). With error rates `alpha` (accepting H1 when H0 holds) and `beta`
//! (accepting H0 when H1 holds), the test stops when the log-likelihood ratio leaves
//! `(ln(beta / (1 - alpha)), ln((1 - beta) / alpha))`: below accepts H0, above accepts H1.
//!
//! The LLR is the standard trinomial (win/draw/loss) generalised-SPRT approximation:
//! with the logistic Elo model, the expected scores `s0`, `s1` of the two hypotheses, the
//! observed mean score `s` and the observed per-game variance `v` over `n` games,
//! `LLR = n (s1 - s0) (2s - s0 - s1) / (2v)`. While every game had the same result the
//! observed variance is 0; then `v` is taken from the counts with half a game added to each
//! of wins, draws and losses, so that a run of wins (or losses, or draws) still moves the LLR
//! and the test can stop.

use crate::stats::{expected_score, Tally};

/// The parameters of a test. Invariant (checked by [`Sprt::new`]): `elo0 < elo1` and both
/// error rates are in `(0, 0.5)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    AcceptH0,
    AcceptH1,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let finite = [elo0, elo1, alpha, beta].iter().all(|v| v.is_finite());
        if !finite {
            return Err("SPRT parameters must be finite numbers".into());
        }
        if elo0 >= elo1 {
            return Err(format!("SPRT needs elo0 < elo1 (got {elo0} and {elo1})"));
        }
        for (name, v) in [("alpha", alpha), ("beta", beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(format!("SPRT {name} must be between 0 and 0.5 (got {v})"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for the first engine's results.
    pub fn llr(&self, t: &Tally) -> f64 {
        let n = t.games() as f64;
        let (Some(s), Some(mut v)) = (t.mean(), t.variance()) else {
            return 0.0;
        };
        if v <= 0.0 {
            v = smoothed_variance(t);
        }
        let s0 = expected_score(self.elo0);
        let s1 = expected_score(self.elo1);
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * v)
    }

    pub fn state(&self, t: &Tally) -> SprtState {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtState::AcceptH1
        } else if llr <= lower {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }

    /// One line: `SPRT [0, 10] alpha 0.05 beta 0.05: LLR 1.23 (-2.94, 2.94) continue`.
    pub fn describe(&self, t: &Tally) -> String {
        let (lower, upper) = self.bounds();
        let state = match self.state(t) {
            SprtState::Continue => "continue",
            SprtState::AcceptH0 => "H0 accepted",
            SprtState::AcceptH1 => "H1 accepted",
        };
        format!(
            "SPRT [{}, {}] alpha {} beta {}: LLR {:.2} ({:.2}, {:.2}) {state}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.llr(t),
            lower,
            upper
        )
    }
}

/// The per-game variance with half a game added to each result.
fn smoothed_variance(t: &Tally) -> f64 {
    let (w, l, d) = (
        t.wins as f64 + 0.5,
        t.losses as f64 + 0.5,
        t.draws as f64 + 0.5,
    );
    let n = w + l + d;
    let s = (w + d / 2.0) / n;
    (w * (1.0 - s).powi(2) + l * s.powi(2) + d * (0.5 - s).powi(2)) / n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(w: u64, l: u64, d: u64) -> Tally {
        Tally {
            wins: w,
            losses: l,
            draws: d,
        }
    }

    #[test]
    fn parameters_are_checked() {
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.05).is_ok());
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.7).is_err());
        assert!(Sprt::new(f64::NAN, 10.0, 0.05, 0.05).is_err());
    }

    #[test]
    fn bounds_are_the_wald_bounds() {
        let s = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
    }

    #[test]
    fn decides_clear_cases_and_waits_on_even_ones() {
        let s = Sprt::new(0.0, 20.0, 0.05, 0.05).unwrap();
        assert_eq!(s.state(&tally(0, 0, 0)), SprtState::Continue);
        assert_eq!(s.state(&tally(3, 0, 0)), SprtState::Continue);
        // A long run of wins alone is enough (smoothed variance), and so is one of losses.
        assert_eq!(s.state(&tally(40, 0, 0)), SprtState::AcceptH1);
        assert_eq!(s.state(&tally(0, 40, 0)), SprtState::AcceptH0);
        assert!(s.llr(&tally(0, 0, 40)) < 0.0);
        assert_eq!(s.state(&tally(10, 10, 10)), SprtState::Continue);
        assert_eq!(s.state(&tally(300, 150, 100)), SprtState::AcceptH1);
        assert_eq!(s.state(&tally(150, 300, 100)), SprtState::AcceptH0);
        // Hand check of the formula: n = 4, s = 0.75, v = 0.1875.
        let t = tally(3, 1, 0);
        let s0 = 0.5;
        let s1 = expected_score(20.0);
        let want = 4.0 * (s1 - s0) * (1.5 - s0 - s1) / (2.0 * 0.1875);
        assert!((s.llr(&t) - want).abs() < 1e-12);
    }
}
