//! Playing levels (0 to 100; the protocol's `INFO strength N`, the browser board's level) for
//! people who want a weaker opponent.
//!
//! The method: a level searches with a node budget that halves every ten levels below full
//! strength and asks for several lines (more the weaker it is). Most moves it then plays the
//! search's best; with a probability that grows as the level falls (5% just below full
//! strength, 50% at level 0) it makes a mistake instead: one of the other lines whose score
//! is within a margin of the best (wider the weaker), each with weight `exp((score - best) /
//! T)`, `T` rising as the level falls. So a weak level plays moves a shallow search thought
//! nearly as good: plausible mistakes, not random ones. What no level gives away: a proven win
//! found is always played, a proven-lost line is never chosen while another exists, and the
//! search's forced moves (a five, the block of a five) are the only lines it offers. Level 100
//! is the full search, unchanged. The levels' strength against full strength is measured in
//! `docs/analysis.md`.

use crate::{Limits, SearchResult, WIN_MIN};
use wuzi_core::rng::Rng;
use wuzi_core::Point;

/// Full strength: the full search, unchanged.
pub const FULL_STRENGTH: u64 = 100;

/// The parameters of one level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Level {
    /// Nodes of the search.
    pub nodes: u64,
    /// Lines asked for.
    pub lines: usize,
    /// The probability of a mistake on a move.
    pub mistake: f64,
    /// Lines scored more than this below the best are not chosen.
    pub margin: i32,
    /// The softness of the choice among them.
    pub temperature: f64,
}

/// The level of `strength` (below 100; 100 is the full search).
pub fn level(strength: u64) -> Level {
    let s = strength.min(99) as f64;
    let weakness = 100.0 - s;
    Level {
        nodes: (1000.0 * 2f64.powf(s / 10.0)) as u64,
        lines: 2 + (weakness / 25.0) as usize,
        mistake: 0.05 + 0.45 * (weakness / 100.0).powi(2),
        margin: (40.0 + 4.0 * weakness) as i32,
        temperature: 20.0 + 2.0 * weakness,
    }
}

/// `base` narrowed to the level: its node budget (or the base's, if smaller) and its lines.
pub fn limits(level: &Level, base: &Limits) -> Limits {
    Limits {
        max_nodes: Some(base.max_nodes.map_or(level.nodes, |n| n.min(level.nodes))),
        multipv: level.lines,
        ..base.clone()
    }
}

/// The move the level plays from a search's lines.
pub fn choose(result: &SearchResult, level: &Level, rng: &mut Rng) -> Point {
    let best = result.score;
    if best >= WIN_MIN || result.lines.len() < 2 || rng.unit() >= level.mistake {
        return result.best;
    }
    let candidates: Vec<(Point, i32)> = result
        .lines
        .iter()
        .copied()
        .filter(|&(p, score)| p != result.best && score > -WIN_MIN && score >= best - level.margin)
        .collect();
    if candidates.is_empty() {
        return result.best;
    }
    let weights: Vec<f64> = candidates
        .iter()
        .map(|&(_, score)| ((f64::from(score - best)) / level.temperature).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut pick = rng.unit() * total;
    for (&(p, _), w) in candidates.iter().zip(&weights) {
        if pick < *w {
            return p;
        }
        pick -= w;
    }
    candidates[0].0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CutoffStats, PvLine, WIN};

    fn result(lines: &[(u8, i32)]) -> SearchResult {
        let lines: Vec<(Point, i32)> = lines.iter().map(|&(x, s)| (Point::new(x, 0), s)).collect();
        SearchResult {
            best: lines[0].0,
            score: lines[0].1,
            depth: 4,
            nodes: 100,
            pv: lines
                .iter()
                .map(|&(p, score)| PvLine {
                    score,
                    depth: 4,
                    pv: vec![p],
                })
                .collect(),
            lines,
            cutoffs: CutoffStats::default(),
            stats: None,
        }
    }

    #[test]
    fn levels_get_stronger_with_the_number() {
        let (weak, strong) = (level(0), level(90));
        assert!(weak.nodes < strong.nodes && weak.lines > strong.lines);
        assert!(weak.margin > strong.margin && weak.temperature > strong.temperature);
        assert!(weak.mistake > strong.mistake);
        assert!(level(99).mistake > 0.0 && level(0).mistake <= 0.5);
        let base = Limits {
            max_nodes: Some(100),
            ..Limits::default()
        };
        assert_eq!(limits(&strong, &base).max_nodes, Some(100));
        assert_eq!(
            limits(&weak, &Limits::default()).max_nodes,
            Some(weak.nodes)
        );
    }

    #[test]
    fn choices_stay_within_the_margin_and_never_give_up_a_win() {
        let mut rng = Rng::new(7);
        let lv = level(0);
        let r = result(&[(1, 100), (2, 60), (3, 100 - lv.margin - 1), (4, -(WIN - 9))]);
        let mut seen = [0usize; 5];
        for _ in 0..2000 {
            seen[choose(&r, &lv, &mut rng).x as usize] += 1;
        }
        assert!(seen[1] > 0 && seen[2] > 0, "{seen:?}");
        assert_eq!(seen[3] + seen[4], 0, "{seen:?}");
        // The best most of the time, a mistake about as often as the level makes one.
        let mistakes = seen[2] as f64 / 2000.0;
        assert!((mistakes - lv.mistake).abs() < 0.05, "{seen:?}");
        let won = result(&[(1, WIN - 5), (2, 100)]);
        for _ in 0..100 {
            assert_eq!(choose(&won, &lv, &mut rng), Point::new(1, 0));
        }
        // Every line but the best lost: the best.
        let lost = result(&[(1, -(WIN - 20)), (2, -(WIN - 4))]);
        assert_eq!(choose(&lost, &lv, &mut rng), Point::new(1, 0));
    }
}
