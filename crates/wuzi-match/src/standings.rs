//! Standings of a tournament: each engine's points and W-L-D, the crosstable (what each
//! engine scored against each other one), the end reasons, and the printed table with the
//! ratings of `rating`.
//!
//! Invariant: counts come only from [`Standings::of`] over finished games, each game counted
//! once for each of its two engines.

use std::collections::BTreeMap;

use crate::rating::{fit, Anchor, PairResult, Rating, RatingError, RatingOptions};
use crate::results::GameRecord;
use crate::stats::Tally;

/// Everything counted over a tournament's games.
#[derive(Clone, Debug, PartialEq)]
pub struct Standings {
    pub names: Vec<String>,
    /// By engine: all its games.
    pub total: Vec<Tally>,
    /// `cross[i][j]`: engine `i`'s games against engine `j`, from `i`'s side.
    pub cross: Vec<Vec<Tally>>,
    /// End reasons by key.
    pub reasons: BTreeMap<String, u64>,
    /// Games whose engines are not among `names` (not counted elsewhere).
    pub unknown: usize,
}

impl Standings {
    /// One cell of the crosstable: engine `i`'s points against `j` over their games, `·` on
    /// the diagonal, `-` where they have not met.
    pub fn cross_cell(&self, i: usize, j: usize) -> String {
        let c = self.cross[i][j];
        if i == j {
            "·".to_string()
        } else if c.games() == 0 {
            "-".to_string()
        } else {
            format!("{}/{}", half(c.points()), c.games())
        }
    }

    /// Counts the games of engines `names`.
    pub fn of(names: &[String], games: &[GameRecord]) -> Standings {
        let n = names.len();
        let mut s = Standings {
            names: names.to_vec(),
            total: vec![Tally::default(); n],
            cross: vec![vec![Tally::default(); n]; n],
            reasons: BTreeMap::new(),
            unknown: 0,
        };
        let id = |name: &str| names.iter().position(|x| x == name);
        for g in games {
            let (Some(b), Some(w)) = (id(&g.black), id(&g.white)) else {
                s.unknown += 1;
                continue;
            };
            let winner = g.winner_name().and_then(id);
            for (me, other) in [(b, w), (w, b)] {
                let t = &mut s.cross[me][other];
                match winner {
                    Some(x) if x == me => t.wins += 1,
                    Some(_) => t.losses += 1,
                    None => t.draws += 1,
                }
            }
            *s.reasons.entry(g.reason.clone()).or_default() += 1;
        }
        for i in 0..n {
            for j in 0..n {
                let c = s.cross[i][j];
                s.total[i].wins += c.wins;
                s.total[i].losses += c.losses;
                s.total[i].draws += c.draws;
            }
        }
        s
    }

    /// The pairings' results as the rating fit takes them.
    pub fn pair_results(&self) -> Vec<PairResult> {
        let n = self.names.len();
        let mut out = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                let t = self.cross[a][b];
                if t.games() > 0 {
                    out.push(PairResult {
                        a,
                        b,
                        games: t.games() as f64,
                        points_a: t.points(),
                    });
                }
            }
        }
        out
    }

    /// Ratings of every engine, `anchor` naming the engine fixed at `elo` (or the pool's mean
    /// at `elo` when `None`).
    pub fn ratings(
        &self,
        anchor: Option<&str>,
        elo: f64,
        prior_draws: f64,
    ) -> Result<Vec<Rating>, String> {
        let anchor = match anchor {
            None => Anchor::Mean(elo),
            Some(name) => match self.names.iter().position(|x| x == name) {
                Some(i) => Anchor::Engine(i, elo),
                None => return Err(format!("--anchor {name}: no engine has that name")),
            },
        };
        let opts = RatingOptions {
            prior_draws,
            anchor,
        };
        fit(self.names.len(), &self.pair_results(), opts).map_err(|e: RatingError| e.to_string())
    }

    /// Engine indices best first: by rating when given, then by points.
    pub fn order(&self, ratings: Option<&[Rating]>) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by(|&a, &b| {
            let by_rating = ratings
                .map(|r| r[b].elo.total_cmp(&r[a].elo))
                .unwrap_or(std::cmp::Ordering::Equal);
            by_rating.then(self.total[b].points().total_cmp(&self.total[a].points()))
        });
        order
    }

    /// The standings and crosstable as text: one row per engine, best first; the crosstable
    /// cell in row `i`, column `j` is what `i` scored against `j` (`points/games`).
    pub fn table(&self, ratings: Option<&[Rating]>) -> String {
        let order = self.order(ratings);
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(4).max(6);
        let mut s = format!(
            "{:>3} {:<width$} {:>14} {:>11} {:>12}",
            "#", "engine", "Elo", "points", "W-L-D"
        );
        for (col, _) in order.iter().enumerate() {
            s.push_str(&format!(" {:>7}", col + 1));
        }
        s.push('\n');
        for (rank, &i) in order.iter().enumerate() {
            let elo = match ratings {
                Some(r) => format!("{:+.0} ± {:.0}", r[i].elo, r[i].error),
                None => "-".to_string(),
            };
            let t = &self.total[i];
            s.push_str(&format!(
                "{:>3} {:<width$} {elo:>14} {:>11} {:>12}",
                rank + 1,
                self.names[i],
                format!("{}/{}", half(t.points()), t.games()),
                t.to_string()
            ));
            for &j in &order {
                let cell = self.cross_cell(i, j);
                s.push_str(&format!(" {cell:>7}"));
            }
            s.push('\n');
        }
        let reasons: Vec<String> = self
            .reasons
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        s.push_str(&format!("End reasons: {}", reasons.join(", ")));
        s
    }
}

/// A score with a half point written `.5`: `3`, `3.5`.
pub fn half(points: f64) -> String {
    if points.fract() == 0.0 {
        format!("{points:.0}")
    } else {
        format!("{points:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::{Color, Rule};

    fn game(index: usize, black: &str, white: &str, winner: Option<Color>) -> GameRecord {
        GameRecord {
            index,
            black: black.into(),
            white: white.into(),
            winner,
            reason: if winner.is_some() {
                "five"
            } else {
                "full-board"
            }
            .into(),
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening_len: 0,
            moves: Vec::new(),
            time_ms: None,
        }
    }

    #[test]
    fn crosstable_counts_each_game_for_both_sides() {
        let names: Vec<String> = ["a", "b", "c"].iter().map(|s| s.to_string()).collect();
        let games = [
            game(0, "a", "b", Some(Color::Black)),
            game(1, "b", "a", Some(Color::White)),
            game(2, "a", "c", None),
            game(3, "c", "b", Some(Color::Black)),
            game(4, "x", "b", None),
        ];
        let s = Standings::of(&names, &games);
        assert_eq!(s.cross[0][1].to_string(), "2-0-0");
        assert_eq!(s.cross[1][0].to_string(), "0-2-0");
        assert_eq!(s.cross[0][2].to_string(), "0-0-1");
        assert_eq!(s.cross[2][1].to_string(), "1-0-0");
        assert_eq!(s.total[0].points(), 2.5);
        assert_eq!(s.total[1].points(), 0.0);
        assert_eq!(s.unknown, 1);
        assert_eq!(s.reasons.get("five"), Some(&3));
        let r = s.ratings(Some("b"), 1000.0, 2.0).expect("fits");
        assert_eq!(r[1].elo, 1000.0);
        assert!(r[0].elo > r[2].elo && r[2].elo > r[1].elo, "{r:?}");
        assert_eq!(s.order(Some(&r)), vec![0, 2, 1]);
        let table = s.table(Some(&r));
        assert!(table.contains("2.5/3"), "{table}");
        assert!(s.ratings(Some("nobody"), 0.0, 2.0).is_err());
    }
}
