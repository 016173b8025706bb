//! Ratings of many engines fitted jointly by maximum likelihood, as Ordo and BayesElo do.
//!
//! The model is the logistic (Bradley–Terry) one on the Elo scale: an engine rated `d` Elo
//! above its opponent scores `1 / (1 + 10^(-d/400))` on average. A draw counts as half a win
//! and half a loss, so the likelihood of a pairing's results is `p^s (1-p)^(n-s)` with `n`
//! games and `s` points. Every engine also gets `prior_draws` virtual draws against a virtual
//! opponent rated at the pool's zero: a weak prior that keeps a perfect (or a zero) score
//! finite and makes the fit unique even when the pairings leave the pool in pieces.
//!
//! The maximum is found by Newton's method on the concave log-likelihood (with step halving,
//! so every step improves it). The error bars come from the inverse of the negative Hessian
//! at the maximum (the observed information): the variance of a rating relative to the anchor
//! is `cᵀ C c` for the contrast `c` between the engine and the anchor, and a bar is 1.96
//! standard deviations (95%). The anchor itself has no error: it is fixed.

use thiserror::Error;

/// The 97.5% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_985;

/// Newton stops once no rating moves by more than this (in natural log-odds units).
const TOLERANCE: f64 = 1e-10;
const MAX_ITERATIONS: usize = 200;

/// The results of one pairing: `games` played between engines `a` and `b`, `points_a` scored
/// by `a` (a win 1, a draw 1/2).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub games: f64,
    pub points_a: f64,
}

/// What fixes the scale's zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Anchor {
    /// The mean of all ratings is this Elo.
    Mean(f64),
    /// This engine is rated exactly this Elo.
    Engine(usize, f64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingOptions {
    /// Virtual draws of every engine against the pool's zero (the prior's weight).
    pub prior_draws: f64,
    pub anchor: Anchor,
}

impl Default for RatingOptions {
    /// Two virtual draws each; the mean rated 0.
    fn default() -> RatingOptions {
        RatingOptions {
            prior_draws: 2.0,
            anchor: Anchor::Mean(0.0),
        }
    }
}

/// One engine's rating and the half-width of its 95% interval (both in Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub elo: f64,
    pub error: f64,
}

#[derive(Debug, Error, PartialEq)]
pub enum RatingError {
    #[error("a pairing names engine {0}, but there are only {1}")]
    NoSuchEngine(usize, usize),
    #[error("a pairing has a bad count: {0} points in {1} games")]
    BadCounts(f64, f64),
    #[error("the prior needs a positive number of virtual draws (got {0})")]
    BadPrior(f64),
    #[error("the fit did not converge")]
    NoConvergence,
}

/// Elo per natural log-odds unit.
fn scale() -> f64 {
    400.0 / std::f64::consts::LN_10
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// `ln σ(x)`, accurate for large |x|.
fn log_sigmoid(x: f64) -> f64 {
    if x > 0.0 {
        -(-x).exp().ln_1p()
    } else {
        x - x.exp().ln_1p()
    }
}

/// Fits the ratings of `n` engines to the results.
pub fn fit(
    n: usize,
    results: &[PairResult],
    opts: RatingOptions,
) -> Result<Vec<Rating>, RatingError> {
    if opts.prior_draws.is_nan() || opts.prior_draws <= 0.0 {
        return Err(RatingError::BadPrior(opts.prior_draws));
    }
    for r in results {
        for e in [r.a, r.b] {
            if e >= n {
                return Err(RatingError::NoSuchEngine(e, n));
            }
        }
        let ok = r.games >= 0.0 && r.points_a >= 0.0 && r.points_a <= r.games;
        if !ok {
            return Err(RatingError::BadCounts(r.points_a, r.games));
        }
    }
    if let Anchor::Engine(a, _) = opts.anchor {
        if a >= n {
            return Err(RatingError::NoSuchEngine(a, n));
        }
    }
    if n == 0 {
        return Ok(Vec::new());
    }
    let d0 = opts.prior_draws;
    let mut beta = vec![0.0; n];
    let mut converged = false;
    for _ in 0..MAX_ITERATIONS {
        let (grad, hess) = derivatives(&beta, results, d0);
        let neg: Vec<Vec<f64>> = hess
            .iter()
            .map(|r| r.iter().map(|v| -v).collect())
            .collect();
        let step = solve(&neg, &grad).ok_or(RatingError::NoConvergence)?;
        let before = log_likelihood(&beta, results, d0);
        let mut t = 1.0;
        let mut next: Vec<f64>;
        loop {
            next = beta.iter().zip(&step).map(|(b, s)| b + t * s).collect();
            if log_likelihood(&next, results, d0) >= before - 1e-12 || t < 1e-6 {
                break;
            }
            t /= 2.0;
        }
        let moved = step.iter().fold(0.0f64, |m, s| m.max((t * s).abs()));
        beta = next;
        if moved < TOLERANCE {
            converged = true;
            break;
        }
    }
    if !converged {
        return Err(RatingError::NoConvergence);
    }
    let (_, hess) = derivatives(&beta, results, d0);
    let neg: Vec<Vec<f64>> = hess
        .iter()
        .map(|r| r.iter().map(|v| -v).collect())
        .collect();
    let cov = invert(&neg).ok_or(RatingError::NoConvergence)?;
    let k = scale();
    let (zero, base) = match opts.anchor {
        Anchor::Mean(e) => (beta.iter().sum::<f64>() / n as f64, e),
        Anchor::Engine(a, e) => (beta[a], e),
    };
    Ok((0..n)
        .map(|i| {
            let c: Vec<f64> = (0..n)
                .map(|j| {
                    let own = if i == j { 1.0 } else { 0.0 };
                    match opts.anchor {
                        Anchor::Mean(_) => own - 1.0 / n as f64,
                        Anchor::Engine(a, _) => own - if a == j { 1.0 } else { 0.0 },
                    }
                })
                .collect();
            let var: f64 = (0..n)
                .map(|p| (0..n).map(|q| c[p] * cov[p][q] * c[q]).sum::<f64>())
                .sum();
            Rating {
                elo: base + k * (beta[i] - zero),
                error: Z95 * k * var.max(0.0).sqrt(),
            }
        })
        .collect())
}

fn log_likelihood(beta: &[f64], results: &[PairResult], d0: f64) -> f64 {
    let pairs: f64 = results
        .iter()
        .map(|r| {
            let d = beta[r.a] - beta[r.b];
            r.points_a * log_sigmoid(d) + (r.games - r.points_a) * log_sigmoid(-d)
        })
        .sum();
    let prior: f64 = beta
        .iter()
        .map(|&b| d0 * 0.5 * (log_sigmoid(b) + log_sigmoid(-b)))
        .sum();
    pairs + prior
}

/// The gradient and the Hessian of the log-likelihood.
fn derivatives(beta: &[f64], results: &[PairResult], d0: f64) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = beta.len();
    let mut grad = vec![0.0; n];
    let mut hess = vec![vec![0.0; n]; n];
    for r in results {
        let p = sigmoid(beta[r.a] - beta[r.b]);
        let g = r.points_a - r.games * p;
        let w = r.games * p * (1.0 - p);
        grad[r.a] += g;
        grad[r.b] -= g;
        hess[r.a][r.a] -= w;
        hess[r.b][r.b] -= w;
        hess[r.a][r.b] += w;
        hess[r.b][r.a] += w;
    }
    for i in 0..n {
        let p = sigmoid(beta[i]);
        grad[i] += d0 * (0.5 - p);
        hess[i][i] -= d0 * p * (1.0 - p);
    }
    (grad, hess)
}

/// Solves `m x = v` by Gaussian elimination with partial pivoting; `None` if `m` is singular.
fn solve(m: &[Vec<f64>], v: &[f64]) -> Option<Vec<f64>> {
    let n = v.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(v)
        .map(|(row, &x)| {
            let mut r = row.clone();
            r.push(x);
            r
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        for row in col + 1..n {
            let f = a[row][col] / a[col][col];
            if f != 0.0 {
                let pivot_row = a[col].clone();
                for (x, p) in a[row].iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let rest: f64 = (row + 1..n).map(|k| a[row][k] * x[k]).sum();
        x[row] = (a[row][n] - rest) / a[row][row];
    }
    Some(x)
}

fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut columns = Vec::with_capacity(n);
    for j in 0..n {
        let unit: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        columns.push(solve(m, &unit)?);
    }
    Some(
        (0..n)
            .map(|i| (0..n).map(|j| columns[j][i]).collect())
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::expected_score;

    /// Every pairing of engines with these true ratings, `games` games each, scored exactly
    /// as the model expects (rounded to half points).
    fn synthetic(truth: &[f64], games: f64) -> Vec<PairResult> {
        let mut out = Vec::new();
        for a in 0..truth.len() {
            for b in a + 1..truth.len() {
                let p = expected_score(truth[a] - truth[b]);
                out.push(PairResult {
                    a,
                    b,
                    games,
                    points_a: (p * games * 2.0).round() / 2.0,
                });
            }
        }
        out
    }

    #[test]
    fn recovers_known_strengths() {
        let truth = [0.0, 120.0, 300.0, -150.0];
        let results = synthetic(&truth, 4000.0);
        let opts = RatingOptions {
            prior_draws: 2.0,
            anchor: Anchor::Engine(0, 0.0),
        };
        let r = fit(4, &results, opts).expect("fits");
        for (got, want) in r.iter().zip(truth) {
            assert!((got.elo - want).abs() < 3.0, "{} vs {want}", got.elo);
        }
        assert_eq!(r[0].error, 0.0);
        assert!(r[1].error > 0.0 && r[1].error < 20.0, "{:?}", r[1]);
    }

    #[test]
    fn the_mean_anchor_centres_the_pool() {
        let truth = [10.0, 60.0, 110.0];
        let results = synthetic(&truth, 2000.0);
        let opts = RatingOptions {
            prior_draws: 1.0,
            anchor: Anchor::Mean(1500.0),
        };
        let r = fit(3, &results, opts).expect("fits");
        let mean = r.iter().map(|x| x.elo).sum::<f64>() / 3.0;
        assert!((mean - 1500.0).abs() < 1e-6);
        assert!((r[2].elo - r[0].elo - 100.0).abs() < 5.0, "{r:?}");
    }

    #[test]
    fn perfect_scores_stay_finite_and_uncertain() {
        let results = [PairResult {
            a: 0,
            b: 1,
            games: 10.0,
            points_a: 10.0,
        }];
        let r = fit(2, &results, RatingOptions::default()).expect("fits");
        assert!(r[0].elo.is_finite() && r[0].elo > r[1].elo);
        assert!(r[0].error.is_finite() && r[0].error > 100.0, "{r:?}");
    }

    #[test]
    fn more_games_narrow_the_bars() {
        let truth = [0.0, 50.0];
        let small = fit(2, &synthetic(&truth, 100.0), RatingOptions::default()).expect("fits");
        let large = fit(2, &synthetic(&truth, 10000.0), RatingOptions::default()).expect("fits");
        assert!(large[0].error * 5.0 < small[0].error, "{small:?} {large:?}");
    }

    #[test]
    fn bad_input_is_refused() {
        let bad = [PairResult {
            a: 0,
            b: 3,
            games: 1.0,
            points_a: 1.0,
        }];
        assert_eq!(
            fit(2, &bad, RatingOptions::default()),
            Err(RatingError::NoSuchEngine(3, 2))
        );
        let bad = [PairResult {
            a: 0,
            b: 1,
            games: 1.0,
            points_a: 2.0,
        }];
        assert!(fit(2, &bad, RatingOptions::default()).is_err());
        let opts = RatingOptions {
            prior_draws: 0.0,
            anchor: Anchor::Mean(0.0),
        };
        assert!(fit(2, &[], opts).is_err());
    }
}
