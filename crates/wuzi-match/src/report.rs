//! The texts of a match (the header describing it, the final report, the one-line JSON
//! summary) and of a tournament (its header, the standings with ratings and the crosstable),
//! and what their HTML reports show. Texts only: printing them is the caller's.

use crate::config::MatchConfig;
use crate::engine::EngineSpec;
use crate::html::ReportInput;
use crate::opening::Order;
use crate::runner::MatchSummary;
use crate::sprt::SprtState;
use crate::standings::Standings;
use crate::tournament::{TournamentConfig, TournamentSummary};

pub fn header(cfg: &MatchConfig, seed_chosen: Option<u64>) -> String {
    let describe = |e: &EngineSpec| {
        let mut s = format!("{} = {}", e.name, e.cmd);
        for a in &e.args {
            s.push_str(&format!(" {a}"));
        }
        if let Some(d) = &e.dir {
            s.push_str(&format!(" (in {})", d.display()));
        }
        for (k, v) in &e.options {
            s.push_str(&format!(", INFO {k} {v}"));
        }
        s
    };
    let openings = if cfg.openings.is_empty() {
        "none".to_string()
    } else {
        let seed = match (cfg.order, seed_chosen) {
            (Order::Random, Some(s)) => format!(", seed {s} (chosen)"),
            (Order::Random, None) => format!(", seed {}", cfg.seed),
            _ => String::new(),
        };
        format!("{} ({:?}{seed})", cfg.openings.len(), cfg.order).to_lowercase()
    };
    let mut s = format!(
        "Match: {} vs {}\n  {}\n  {}\n  {}{} games, {}x{} {}, {}, max_memory {}, {} at once, openings {}",
        cfg.engines[0].name,
        cfg.engines[1].name,
        describe(&cfg.engines[0]),
        describe(&cfg.engines[1]),
        if cfg.sprt.is_some() { "up to " } else { "" },
        cfg.games,
        cfg.width,
        cfg.height,
        cfg.rule,
        cfg.time.describe(),
        cfg.max_memory,
        cfg.concurrency,
        openings
    );
    if let Some(n) = cfg.max_moves {
        s.push_str(&format!(", draw at {n} stones"));
    }
    if !cfg.shard.is_whole() {
        s.push_str(&format!(", shard {} of them", cfg.shard));
    }
    if let Some(sprt) = &cfg.sprt {
        s.push_str(&format!(
            "\n  SPRT elo0 {} elo1 {} alpha {} beta {}",
            sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
        ));
    }
    s
}

/// What a shard's final line says after "Match" or "Tournament".
fn shard_words(cfg: &MatchConfig) -> String {
    if cfg.shard.is_whole() {
        String::new()
    } else {
        format!(" shard {}", cfg.shard)
    }
}

pub fn final_report(cfg: &MatchConfig, m: &MatchSummary) -> String {
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut s = format!(
        "=== Match{} finished: {} of {} games played ===\n",
        shard_words(cfg),
        m.stats.games(),
        m.planned
    );
    s.push_str(&m.stats.report(names));
    if let Some(sprt) = &cfg.sprt {
        if m.sprt.is_some() {
            s.push_str(&sprt.describe(&m.stats.total[0]));
            if m.uncounted > 0 {
                s.push_str(&format!(
                    "; {} games finished after the decision, not counted",
                    m.uncounted
                ));
            }
        } else {
            s.push_str("SPRT: a shard does not stop on it; merge the shards' results (--merge) for its verdict");
        }
        s.push('\n');
    }
    let used: Vec<String> = (0..2)
        .map(|id| {
            let (mut total_ms, mut moves) = (0u64, 0usize);
            for g in &m.records {
                let Some(time) = g.time_ms else {
                    continue;
                };
                let is_black = g.black == names[id];
                let own = g.moves.len() - g.opening_len;
                let black_first = g.opening_len % 2 == 0;
                let first_is_own = black_first == is_black;
                moves += own / 2 + usize::from(first_is_own && own % 2 == 1);
                total_ms += time[if is_black { 0 } else { 1 }];
            }
            let avg = if moves > 0 {
                total_ms / moves as u64
            } else {
                0
            };
            format!("{} {moves} moves, {avg} ms a move on average", names[id])
        })
        .collect();
    s.push_str(&format!("Thinking time: {}", used.join("; ")));
    s
}

pub(crate) fn json_number(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.3}"),
        _ => "null".to_string(),
    }
}

pub(crate) fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub fn json_summary(cfg: &MatchConfig, m: &MatchSummary) -> String {
    let t = &m.stats.total[0];
    let elo = m.stats.elo();
    let reasons: Vec<String> = m
        .stats
        .reasons
        .iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    let sprt = match m.sprt {
        None => "null".to_string(),
        Some(SprtState::Continue) => "\"continue\"".to_string(),
        Some(SprtState::AcceptH0) => "\"H0\"".to_string(),
        Some(SprtState::AcceptH1) => "\"H1\"".to_string(),
    };
    let llr = cfg.sprt.filter(|_| m.sprt.is_some()).map(|s| s.llr(t));
    format!(
        "{{\"engines\":[{},{}],\"games\":{},\"wins\":{},\"losses\":{},\"draws\":{},\"elo\":{},\"elo_low\":{},\"elo_high\":{},\"los\":{},\"sprt\":{sprt},\"llr\":{},\"reasons\":{{{}}}}}",
        json_string(&cfg.engines[0].name),
        json_string(&cfg.engines[1].name),
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        json_number(elo.map(|e| e.diff)),
        json_number(elo.map(|e| e.low)),
        json_number(elo.map(|e| e.high)),
        json_number(m.stats.los()),
        json_number(llr),
        reasons.join(",")
    )
}

/// The settings line under a report's title.
fn details(played: usize, planned: usize, cfg: &MatchConfig) -> String {
    format!(
        "{played} of {planned} games, {}x{} {}, {}",
        cfg.width,
        cfg.height,
        cfg.rule,
        cfg.time.describe()
    )
}

/// What the HTML report of a match shows: the second engine is the anchor at 0, so the first
/// engine's rating is the Elo difference.
pub fn match_report(cfg: &MatchConfig, m: &MatchSummary) -> ReportInput {
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    ReportInput {
        title: format!("Match: {} vs {}", names[0], names[1]),
        details: vec![details(m.stats.games() as usize, m.planned, cfg)],
        names: names.iter().map(|n| n.to_string()).collect(),
        games: m.records.clone(),
        anchor: Some(names[1].to_string()),
        anchor_elo: 0.0,
        prior_draws: 2.0,
    }
}

/// How a tournament's ratings are fixed.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingSettings {
    /// The engine whose rating is fixed at `anchor_elo` (`None`: the mean of all is).
    pub anchor: Option<String>,
    pub anchor_elo: f64,
    /// The prior: virtual draws of every engine against the pool.
    pub prior_draws: f64,
}

fn tournament_title(cfg: &TournamentConfig) -> String {
    let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    format!("Tournament ({:?}): {}", cfg.format, names.join(", "))
}

/// The line that opens a tournament: who plays, the pairings and the settings.
pub fn tournament_header(cfg: &TournamentConfig) -> String {
    let mut s = format!(
        "{}; {} pairings of {} games, {}x{} {}, {}, {} at once",
        tournament_title(cfg),
        cfg.pairings().len(),
        cfg.games_per_pair,
        cfg.settings.width,
        cfg.settings.height,
        cfg.settings.rule,
        cfg.settings.time.describe(),
        cfg.settings.concurrency
    );
    if !cfg.settings.shard.is_whole() {
        s.push_str(&format!(", shard {} of them", cfg.settings.shard));
    }
    s
}

/// The final text of a tournament: standings with ratings and the crosstable.
pub fn tournament_final(
    cfg: &TournamentConfig,
    t: &TournamentSummary,
    rating: &RatingSettings,
) -> String {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let standings = Standings::of(&names, &t.games);
    let ratings = standings.ratings(
        rating.anchor.as_deref(),
        rating.anchor_elo,
        rating.prior_draws,
    );
    let mut s = format!(
        "=== Tournament{} finished: {} of {} games ({} from an earlier run) ===\n",
        shard_words(&cfg.settings),
        t.games.len(),
        t.planned,
        t.resumed
    );
    match &ratings {
        Ok(r) => s.push_str(&standings.table(Some(r))),
        Err(e) => {
            s.push_str(&format!("(no ratings: {e})\n"));
            s.push_str(&standings.table(None));
        }
    }
    s.push_str(&format!(
        "\nElo: joint maximum likelihood, ± 95% interval, {}",
        match &rating.anchor {
            Some(a) => format!("{a} fixed at {}", rating.anchor_elo),
            None => format!("mean fixed at {}", rating.anchor_elo),
        }
    ));
    s
}

/// What the HTML report of a tournament shows.
pub fn tournament_report(
    cfg: &TournamentConfig,
    t: TournamentSummary,
    rating: &RatingSettings,
) -> ReportInput {
    ReportInput {
        title: tournament_title(cfg),
        details: vec![details(t.games.len(), t.planned, &cfg.settings)],
        names: cfg.engines.iter().map(|e| e.name.clone()).collect(),
        games: t.games,
        anchor: rating.anchor.clone(),
        anchor_elo: rating.anchor_elo,
        prior_draws: rating.prior_draws,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
