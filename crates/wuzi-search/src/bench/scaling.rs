//! `wuzi bench --scaling`: how the bench scales from one thread to several on the machine at
//! hand, in one run. Each round runs the whole bench three ways, one after the other: on one
//! thread, on `threads` threads, and as `threads` one-thread benches at once (each its own
//! searcher and table on its own OS thread). The first two give the node-rate scaling and
//! the time-to-depth speedup; the third is what the machine gives work that shares nothing,
//! the ceiling the second is read against: on a shared or throttled machine the ceiling
//! itself falls short of the thread count, and it moves from one minute to the next, so the
//! rounds alternate and the summary is their median.
//!
//! The one-thread bench of every round is the ordinary bench (its nodes are the signature's
//! at the bench depth); the rest vary from run to run and sign nothing.

use super::Totals;
use crate::SplitDepth;
use wuzi_eval::eval::EvalChoice;

/// One round of the three benches.
#[derive(Clone, Debug)]
pub struct Round {
    pub one: Totals,
    pub many: Totals,
    /// The one-thread benches run at the same time, one per thread of `many`.
    pub side_by_side: Vec<Totals>,
}

impl Round {
    /// Nodes a second on the threads against on one thread.
    pub fn node_rate_scaling(&self) -> f64 {
        self.many.nps() / self.one.nps()
    }

    /// Time to the bench depth on one thread against on the threads.
    pub fn time_to_depth(&self) -> f64 {
        self.one.elapsed.as_secs_f64() / self.many.elapsed.as_secs_f64().max(1e-9)
    }

    /// The node-rate scaling of independent work: the side-by-side benches' nodes a second,
    /// added up, against the one-thread bench's.
    pub fn ceiling(&self) -> f64 {
        self.side_by_side.iter().map(Totals::nps).sum::<f64>() / self.one.nps()
    }
}

/// What to measure: `rounds` rounds on `threads` threads (at least 2), every bench to `depth`
/// or each position's own depth.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub rounds: usize,
    pub threads: usize,
    pub depth: Option<u32>,
    pub eval: EvalChoice,
    pub split_depth: SplitDepth,
}

/// Runs the rounds of `settings`; `progress` sees each round as it ends.
pub fn run(
    settings: Settings,
    mut progress: impl FnMut(usize, &Round),
) -> Result<Vec<Round>, String> {
    let Settings {
        rounds,
        threads,
        depth,
        eval,
        split_depth,
    } = settings;
    if threads < 2 {
        return Err(format!(
            "scaling compares one thread with 2 or more, not with {threads}"
        ));
    }
    let bench = |threads| {
        super::run(depth, None, threads, eval, split_depth, |_| {}).map(|r| Totals::of(&r))
    };
    let mut out = Vec::with_capacity(rounds);
    for round in 0..rounds {
        let one = bench(1)?;
        let many = bench(threads)?;
        let side_by_side = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    std::thread::Builder::new()
                        .stack_size(crate::parallel::STACK_BYTES)
                        .spawn_scoped(scope, || bench(1))
                })
                .collect();
            handles
                .into_iter()
                .map(|handle| match handle {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|_| Err("a side-by-side bench panicked".to_string())),
                    Err(e) => Err(format!("cannot start a side-by-side bench: {e}")),
                })
                .collect::<Result<Vec<Totals>, String>>()
        })?;
        let r = Round {
            one,
            many,
            side_by_side,
        };
        progress(round, &r);
        out.push(r);
    }
    Ok(out)
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_even_and_no_values() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[f64::NAN, 5.0]), 5.0);
    }

    /// The one-thread bench and each side-by-side one are the ordinary, deterministic
    /// one-thread bench: the same nodes as `bench::run` on one thread.
    #[test]
    fn a_round_runs_the_ordinary_bench_and_side_by_side_copies_of_it() {
        let settings = Settings {
            rounds: 1,
            threads: 2,
            depth: Some(3),
            eval: EvalChoice::default(),
            split_depth: SplitDepth::default(),
        };
        let alone = super::super::run(
            settings.depth,
            None,
            1,
            settings.eval,
            settings.split_depth,
            |_| {},
        )
        .map(|r| Totals::of(&r).nodes);
        let mut seen = 0;
        let rounds = run(settings, |_, _| seen += 1);
        let (Ok(alone), Ok(rounds)) = (alone, rounds) else {
            panic!("the bench failed");
        };
        assert_eq!(seen, 1);
        assert_eq!(rounds.len(), 1);
        let round = &rounds[0];
        assert_eq!(round.one.nodes, alone);
        assert_eq!(round.side_by_side.len(), 2);
        for other in &round.side_by_side {
            assert_eq!(other.nodes, alone);
        }
        assert!(round.many.nodes > 0 && round.node_rate_scaling() > 0.0);
        let one_thread = Settings {
            threads: 1,
            ..settings
        };
        assert!(run(one_thread, |_, _| {}).is_err());
    }

    #[test]
    fn ratios_read_the_totals_the_right_way_round() {
        let totals = |nodes, ms| Totals {
            nodes,
            elapsed: std::time::Duration::from_millis(ms),
        };
        let round = Round {
            one: totals(1_000, 1_000),
            many: totals(1_800, 500),
            side_by_side: vec![totals(900, 1_000), totals(1_000, 1_000)],
        };
        assert!((round.node_rate_scaling() - 3.6).abs() < 1e-9);
        assert!((round.time_to_depth() - 2.0).abs() < 1e-9);
        assert!((round.ceiling() - 1.9).abs() < 1e-9);
    }
}
