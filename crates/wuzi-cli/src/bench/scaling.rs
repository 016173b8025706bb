//! `wuzi bench --scaling`: prints the rounds and medians of `wuzi_search::bench::scaling`.

use wuzi_search::bench::scaling::{self, Round, Settings};

/// Runs the rounds, printing each, then the medians (or one JSON object at the end).
pub fn run(settings: Settings, json: bool) -> u8 {
    let threads = settings.threads;
    let results = scaling::run(settings, |k, r| {
        if !json {
            println!(
                "round {:>3}  1 thread {:>9.0} nps  {threads} threads {:>9.0} nps  node-rate scaling {:.3}  time to depth {:.3}  side by side {:.3}",
                k + 1,
                r.one.nps(),
                r.many.nps(),
                r.node_rate_scaling(),
                r.time_to_depth(),
                r.ceiling()
            );
        }
    });
    let results = match results {
        Ok(r) => r,
        Err(e) => {
            eprintln!("wuzi bench: {e}");
            return 2;
        }
    };
    let column = |f: fn(&Round) -> f64| -> Vec<f64> { results.iter().map(f).collect() };
    let nrs = column(Round::node_rate_scaling);
    let ttd = column(Round::time_to_depth);
    let ceiling = column(Round::ceiling);
    let share: Vec<f64> = nrs.iter().zip(&ceiling).map(|(n, c)| n / c).collect();
    let (nrs, ttd, ceiling, share) = (
        scaling::median(&nrs),
        scaling::median(&ttd),
        scaling::median(&ceiling),
        scaling::median(&share),
    );
    if json {
        let rows: Vec<String> = results
            .iter()
            .map(|r| {
                format!(
                    "{{\"one_nodes\":{},\"one_ms\":{},\"many_nodes\":{},\"many_ms\":{},\"node_rate_scaling\":{:.4},\"time_to_depth\":{:.4},\"side_by_side\":{:.4}}}",
                    r.one.nodes,
                    r.one.elapsed.as_millis(),
                    r.many.nodes,
                    r.many.elapsed.as_millis(),
                    r.node_rate_scaling(),
                    r.time_to_depth(),
                    r.ceiling()
                )
            })
            .collect();
        println!(
            "{{\"threads\":{threads},\"rounds\":[{}],\"median\":{{\"node_rate_scaling\":{nrs:.4},\"time_to_depth\":{ttd:.4},\"side_by_side\":{ceiling:.4},\"of_side_by_side\":{share:.4}}}}}",
            rows.join(",")
        );
    } else {
        println!(
            "medians over {} rounds, {threads} threads: node-rate scaling {nrs:.3}  time to depth {ttd:.3}  side by side {ceiling:.3}  (node-rate scaling / side by side {share:.3})",
            results.len()
        );
    }
    0
}
