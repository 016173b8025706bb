//! The alternatives measure: would the chooser's own move, one ply before a suite position,
//! also have let the win in?
//!
//! A suite position is the side to move's forced win, reached after the other side's move.
//! For each position this takes the position one move earlier (the defender to move), asks
//! the chooser (any Gomocup engine, usually wuzi) for its move there with a turn time, and
//! then asks the judge (usually the sparring engine, to move after that choice) whether it
//! sees a forced win within its own time: a progress line announcing a proven win for the
//! side to move. A choice equal to the game's move takes the suite's own announcement
//! without asking the judge. The count of choices that let a win in is the defence measure
//! (fewer is better); the positions after such choices, other than the game's own move, are
//! suite positions of their own (`data/mates/alternatives.txt`): wins the chooser had to see
//! one ply inside its search to avoid the loss.
//!
//! Positions run `jobs` at a time, each the chooser's search and then the judge's, one after
//! the other; nothing else should run beside them. An engine that fails is a row's verdict,
//! never the run's.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use wuzi_core::Point;
use wuzi_search::bench::mates::MatePosition;

use super::engine::{engine_move, run_engine};
use crate::engine::EngineSpec;

/// What `wuzi mates alternatives` runs.
#[derive(Clone, Debug)]
pub struct AlternativesSetup {
    /// The engine whose choices are judged.
    pub chooser: EngineSpec,
    /// The chooser's turn time.
    pub choose_time: Duration,
    /// The engine that looks for a win after each choice.
    pub judge: EngineSpec,
    /// The judge's turn time: a win announced later does not count.
    pub judge_time: Duration,
    /// Positions run at once.
    pub jobs: usize,
    /// Sent to both engines as `INFO max_memory`.
    pub max_memory: u64,
}

/// What became of one choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The chooser played the game's move: the suite's own win, in this many plies.
    GameMove { plies: u32 },
    /// The judge announced a forced win after the choice, in this many plies (where it said
    /// how many), after this long.
    LetsIn {
        plies: Option<u32>,
        elapsed: Duration,
    },
    /// The judge announced no win within its time (or the choice won the game).
    Holds,
    /// No verdict: an engine failed, or the choice was not a legal move.
    Failed(String),
}

/// One position's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The suite position (after the game's move).
    pub position: MatePosition,
    /// The chooser's move, where it gave one.
    pub choice: Option<Point>,
    pub verdict: Verdict,
}

impl Choice {
    /// Whether the choice lets a forced win in (the game's own move included).
    pub fn loses(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::GameMove { .. } | Verdict::LetsIn { .. }
        )
    }

    /// The row as text: the position, the choice, the verdict.
    pub fn text(&self) -> String {
        let choice = self.choice.map_or_else(|| "-".to_string(), |p| p.name());
        let verdict = match &self.verdict {
            Verdict::GameMove { plies } => format!("the game's move (+M{plies})"),
            Verdict::LetsIn { plies, elapsed } => format!(
                "lets in +M{} ({:.3} s)",
                plies.map_or_else(|| "?".to_string(), |n| n.to_string()),
                elapsed.as_secs_f64()
            ),
            Verdict::Holds => "holds".to_string(),
            Verdict::Failed(why) => format!("no verdict: {why}"),
        };
        format!(
            "{} {} choice {choice}: {verdict}",
            self.position.id,
            self.position.league()
        )
    }

    /// The position after a losing choice that is not the game's move, as a suite position:
    /// id `ID-CHOICE`, the judge's length and `source` (`JUDGE:+M<n>`), the rest as the
    /// suite position's. A win of unknown length makes no suite position.
    pub fn as_position(&self, judge: &str) -> Option<MatePosition> {
        let (
            Verdict::LetsIn {
                plies: Some(plies), ..
            },
            Some(choice),
        ) = (&self.verdict, self.choice)
        else {
            return None;
        };
        let mut moves = before(&self.position).moves;
        moves.push(choice);
        Some(MatePosition {
            id: format!("{}-{}", self.position.id, choice.name()),
            plies: *plies,
            source: format!("{judge}:+M{plies}"),
            moves,
            ..self.position.clone()
        })
    }
}

/// The totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub positions: usize,
    /// Choices that let a forced win in, the game's own moves included.
    pub lose: usize,
    /// Of those, the game's own move.
    pub game_moves: usize,
    /// Positions without a verdict.
    pub failed: usize,
}

/// Adds up the rows.
pub fn totals(rows: &[Choice]) -> Totals {
    Totals {
        positions: rows.len(),
        lose: rows.iter().filter(|r| r.loses()).count(),
        game_moves: rows
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::GameMove { .. }))
            .count(),
        failed: rows
            .iter()
            .filter(|r| matches!(r.verdict, Verdict::Failed(_)))
            .count(),
    }
}

/// The position one move before `position` (the move that let the win in taken back).
fn before(position: &MatePosition) -> MatePosition {
    let mut moves = position.moves.clone();
    moves.pop();
    MatePosition {
        moves,
        ..position.clone()
    }
}

/// Judges one position.
fn judge_one(position: &MatePosition, setup: &AlternativesSetup) -> Choice {
    let row = |choice, verdict| Choice {
        position: position.clone(),
        choice,
        verdict,
    };
    let Some(&game_move) = position.moves.last() else {
        return row(
            None,
            Verdict::Failed("the position has no move to take back".into()),
        );
    };
    let earlier = before(position);
    let choice = match engine_move(
        &setup.chooser,
        &earlier,
        setup.choose_time,
        setup.max_memory,
    ) {
        Ok(p) => p,
        Err(why) => return row(None, Verdict::Failed(format!("the chooser: {why}"))),
    };
    if choice == game_move {
        return row(
            Some(choice),
            Verdict::GameMove {
                plies: position.plies,
            },
        );
    }
    // An illegal choice, or one that ends the game, has no position after it to judge.
    let mut board = match earlier.board() {
        Ok(b) => b,
        Err(why) => return row(Some(choice), Verdict::Failed(why)),
    };
    if let Err(e) = board.play(choice) {
        return row(
            Some(choice),
            Verdict::Failed(format!("the chooser's move is illegal: {e}")),
        );
    }
    if board.winner().is_some() {
        return row(Some(choice), Verdict::Holds);
    }
    let mut after = earlier;
    after.moves.push(choice);
    let run = run_engine(&setup.judge, &after, setup.judge_time, setup.max_memory);
    let verdict = match (run.found, run.error) {
        (Some(found), _) => Verdict::LetsIn {
            plies: found.plies,
            elapsed: found.elapsed,
        },
        (None, Some(why)) => Verdict::Failed(format!("the judge: {why}")),
        (None, None) => Verdict::Holds,
    };
    row(Some(choice), verdict)
}

/// Judges every position, `setup.jobs` at a time; `each` sees every row as it is finished
/// (in the order they finish); the rows come back in the positions' order.
pub fn run_alternatives(
    positions: &[MatePosition],
    setup: &AlternativesSetup,
    each: impl Fn(&Choice) + Sync,
) -> Vec<Choice> {
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<Option<Choice>>> = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|scope| {
        for _ in 0..setup.jobs.clamp(1, positions.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(position) = positions.get(i) else {
                    break;
                };
                let row = judge_one(position, setup);
                each(&row);
                // A job that panicked makes the scope panic; no row is ever lost silently.
                rows.lock().unwrap_or_else(PoisonError::into_inner)[i] = Some(row);
            });
        }
    });
    rows.into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .into_iter()
        .flatten()
        .collect()
}

/// The positions of `kept` (a file's, from an earlier run) and the new ones, without
/// repeating an id (a kept position stays as it was), ordered by the suite position each
/// comes from (`suite_order`: ids in suite order) and then by id.
pub fn merge(
    kept: Vec<MatePosition>,
    new: Vec<MatePosition>,
    suite_order: &[String],
) -> Vec<MatePosition> {
    let mut all = kept;
    for p in new {
        if !all.iter().any(|k| k.id == p.id) {
            all.push(p);
        }
    }
    let rank = |id: &str| {
        let base = id.rsplit_once('-').map_or(id, |(base, _)| base);
        suite_order
            .iter()
            .position(|s| s == base)
            .unwrap_or(usize::MAX)
    };
    all.sort_by(|a, b| rank(&a.id).cmp(&rank(&b.id)).then_with(|| a.id.cmp(&b.id)));
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::notation;
    use wuzi_search::bench::mates::read_suite;

    const SUITE: &str = "\
fs15-2025:11:15 train sparring white freestyle 15x15 15 sparring:+M15 fs15-2025:11 o3o4n3n4m3m4o9o8n9n8m9m8k8l3i8
fs15-2025:15:25 held-out sparring white freestyle 15x15 21 sparring:+M21 fs15-2025:15 f6f5h5g4i2h6e6g7f8g6g5h7i8g8f9h4i4j6k6j7k7j5j8k5f10
";

    fn suite() -> Vec<MatePosition> {
        read_suite(SUITE).expect("the test suite reads")
    }

    #[test]
    fn a_losing_choice_becomes_a_suite_position() {
        let p = suite().remove(1);
        let choice = notation::parse_moves("i7").expect("a point")[0];
        let row = Choice {
            position: p.clone(),
            choice: Some(choice),
            verdict: Verdict::LetsIn {
                plies: Some(19),
                elapsed: Duration::from_millis(48),
            },
        };
        assert!(row.loses());
        let q = row.as_position("sparring").expect("a losing choice");
        assert_eq!(q.id, "fs15-2025:15:25-i7");
        assert_eq!(q.plies, 19);
        assert_eq!(q.source, "sparring:+M19");
        assert_eq!(q.moves.len(), p.moves.len());
        assert_eq!(q.moves[..q.moves.len() - 1], p.moves[..p.moves.len() - 1]);
        assert_eq!(q.moves.last(), Some(&choice));
        assert_eq!(q.to_move(), p.to_move());
        q.board().expect("a legal position");
        assert!(row.text().contains("lets in +M19"), "{}", row.text());
        // The game's own move and a choice that holds are not new positions.
        for verdict in [Verdict::GameMove { plies: 21 }, Verdict::Holds] {
            let other = Choice {
                verdict,
                ..row.clone()
            };
            assert!(other.as_position("sparring").is_none());
        }
    }

    #[test]
    fn totals_count_each_kind() {
        let ps = suite();
        let row = |verdict| Choice {
            position: ps[0].clone(),
            choice: None,
            verdict,
        };
        let rows = vec![
            row(Verdict::GameMove { plies: 15 }),
            row(Verdict::LetsIn {
                plies: Some(9),
                elapsed: Duration::ZERO,
            }),
            row(Verdict::Holds),
            row(Verdict::Failed("gone".into())),
        ];
        assert_eq!(
            totals(&rows),
            Totals {
                positions: 4,
                lose: 2,
                game_moves: 1,
                failed: 1
            }
        );
    }

    #[test]
    fn merge_keeps_old_positions_and_orders_by_the_suite() {
        let ps = suite();
        let order: Vec<String> = ps.iter().map(|p| p.id.clone()).collect();
        let mk = |base: &MatePosition, choice: &str, plies| {
            Choice {
                position: base.clone(),
                choice: Some(notation::parse_moves(choice).expect("a point")[0]),
                verdict: Verdict::LetsIn {
                    plies: Some(plies),
                    elapsed: Duration::ZERO,
                },
            }
            .as_position("judge")
            .expect("a position")
        };
        let kept = vec![mk(&ps[1], "i7", 19), mk(&ps[0], "j8", 7)];
        let new = vec![
            mk(&ps[1], "i7", 25),
            mk(&ps[0], "a1", 9),
            mk(&ps[1], "f10", 3),
        ];
        let merged = merge(kept, new, &order);
        let ids: Vec<&str> = merged.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "fs15-2025:11:15-a1",
                "fs15-2025:11:15-j8",
                "fs15-2025:15:25-f10",
                "fs15-2025:15:25-i7"
            ]
        );
        // The kept i7 stays as it was.
        assert_eq!(merged[3].plies, 19);
    }
}
