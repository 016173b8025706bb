//! The Texel fit: the learned evaluation's parameters minimise the logistic loss between
//! `sigmoid(eval / K)` and a target that mixes the game result with `sigmoid(score / K)`.
//!
//! `K` is not free: it is fitted first, for the hand-set evaluation on the same positions, so
//! that the learned evaluation comes out in the same units and the search's margins keep their
//! meaning. The parameters start from the hand-set evaluation's values (or any weight set) and
//! an L2 term pulls them toward that start, so shapes the data rarely shows stay sensible.
//!
//! Optimiser: Adam on minibatches. Each minibatch is cut into fixed chunks whose gradients are
//! summed in chunk order, so the result is the same on any number of threads.

use crate::features::{Layout, Sample};
use rayon::prelude::*;
use wuzi_core::rng::Rng;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub epochs: usize,
    pub batch: usize,
    /// Adam's step size, in evaluation units.
    pub learning_rate: f64,
    /// Weight of the game result in the target (the rest is the search score).
    pub result_weight: f64,
    /// L2 pull toward the starting parameters, per position.
    pub l2: f64,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            epochs: 20,
            batch: 16_384,
            learning_rate: 2.0,
            result_weight: 0.5,
            l2: 1e-6,
            seed: 1,
        }
    }
}

const CHUNK: usize = 1024;

#[inline]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The target of a sample: the result, mixed with the search score where there is one.
pub fn target(sample: &Sample, k: f64, result_weight: f64) -> f64 {
    match sample.score {
        Some(score) => {
            result_weight * sample.result as f64 + (1.0 - result_weight) * sigmoid(score as f64 / k)
        }
        None => sample.result as f64,
    }
}

/// Logistic loss of a prediction `p` for target `t`.
#[inline]
fn log_loss(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Mean logistic loss of evaluations `evals` against the samples' targets.
pub fn mean_loss(samples: &[Sample], evals: &[f64], k: f64, result_weight: f64) -> f64 {
    let total: f64 = samples
        .par_iter()
        .zip(evals.par_iter())
        .with_min_len(CHUNK)
        .map(|(s, &e)| log_loss(sigmoid(e / k), target(s, k, result_weight)))
        .sum();
    total / samples.len().max(1) as f64
}

/// The `K` that minimises the loss of `evals` against the game results (golden-section
/// search on a log scale between 10 and 10 000).
pub fn fit_k(samples: &[Sample], evals: &[f64]) -> f64 {
    let loss = |log_k: f64| mean_loss(samples, evals, log_k.exp(), 1.0);
    let (mut lo, mut hi) = (10f64.ln(), 10_000f64.ln());
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The learned evaluation of every sample under `params`.
pub fn evaluate_all(samples: &[Sample], params: &[f64]) -> Vec<f64> {
    samples.par_iter().map(|s| s.dot(params)).collect()
}

/// Progress of one epoch.
#[derive(Clone, Debug)]
pub struct EpochReport {
    pub epoch: usize,
    pub train_loss: f64,
    pub validation_loss: f64,
}

/// Fits the parameters from `start`. `on_epoch` sees the losses after each epoch.
pub fn train(
    layout: &Layout,
    train: &[Sample],
    validation: &[Sample],
    start: &[f64],
    k: f64,
    config: &TrainConfig,
    on_epoch: &mut dyn FnMut(&EpochReport),
) -> Vec<f64> {
    let n = layout.len();
    let trainable: Vec<bool> = (0..n).map(|i| !layout.fixed(i)).collect();
    let mut params = start.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (beta1, beta2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut step = 0i32;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Rng::new(config.seed);
    let targets: Vec<f64> = train
        .iter()
        .map(|s| target(s, k, config.result_weight))
        .collect();
    for epoch in 1..=config.epochs {
        rng.shuffle(&mut order);
        // The step size decays linearly to a tenth over the run.
        let rate =
            config.learning_rate * (1.0 - 0.9 * (epoch - 1) as f64 / config.epochs.max(1) as f64);
        for batch in order.chunks(config.batch.max(1)) {
            let partials: Vec<Vec<f64>> = batch
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut grad = vec![0.0; n];
                    for &i in chunk {
                        let s = &train[i];
                        let p = sigmoid(s.dot(&params) / k);
                        let g = (p - targets[i]) / k;
                        for &(f, c) in &s.features {
                            grad[f as usize] += g * c as f64;
                        }
                    }
                    grad
                })
                .collect();
            let mut grad = vec![0.0; n];
            for partial in &partials {
                for (g, p) in grad.iter_mut().zip(partial) {
                    *g += p;
                }
            }
            let scale = 1.0 / batch.len() as f64;
            step += 1;
            let (c1, c2) = (1.0 - beta1.powi(step), 1.0 - beta2.powi(step));
            for i in 0..n {
                if !trainable[i] {
                    continue;
                }
                let g = grad[i] * scale + config.l2 * (params[i] - start[i]);
                m[i] = beta1 * m[i] + (1.0 - beta1) * g;
                v[i] = beta2 * v[i] + (1.0 - beta2) * g * g;
                params[i] -= rate * (m[i] / c1) / ((v[i] / c2).sqrt() + eps);
            }
        }
        let train_loss = mean_loss(
            train,
            &evaluate_all(train, &params),
            k,
            config.result_weight,
        );
        let validation_loss = mean_loss(
            validation,
            &evaluate_all(validation, &params),
            k,
            config.result_weight,
        );
        on_epoch(&EpochReport {
            epoch,
            train_loss,
            validation_loss,
        });
    }
    params
}
