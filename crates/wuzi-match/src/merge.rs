//! Merging the results files of a schedule's shards into the summary one run of the whole
//! schedule gives, so that its standings, ratings, SPRT state, crosstable and report are
//! printed by the same functions (`crate::report`) as after one run.
//!
//! [`merge`] reads every file whole ([`read_strict`]) and refuses, with the file and line:
//! a file that is not a results file, has a damaged line or a last line cut short, has no
//! schedule line, or belongs to another schedule; two files of the same shard; a game that is
//! not the schedule's game of its number or not in its file's shard; a game in two places.
//! Games that no file holds are reported as missing, not refused: a merge of the shards
//! finished so far is a valid look at the schedule.
//!
//! A match's SPRT ([`merge_match`]) is applied as a run that plays one game at a time applies
//! it: to the games in the order of their numbers, stopping at the first game where a
//! hypothesis is accepted. The games after that one are reported and not counted, so the
//! merged counts, Elo and SPRT state are those of that run. (A run with several games at once
//! stops at the first decision in the order games finish, which is not fixed in advance.)
//!
//! Invariant: every game of a [`Merged`] is the schedule's game of its number, present once.

use std::collections::BTreeMap;
use std::path::PathBuf;

use wuzi_core::shard::Shard;

use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::results::{read_strict, GameRecord, ResultsError};
use crate::runner::MatchSummary;
use crate::schedule::ScheduleId;
use crate::sprt::SprtState;
use crate::stats::Stats;
use crate::tournament::{TournamentConfig, TournamentSummary};

/// One merged file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    pub path: PathBuf,
    pub shard: Shard,
    /// Games it holds.
    pub games: usize,
}

/// The games of a schedule gathered from its shards' files.
#[derive(Clone, Debug)]
pub struct Merged {
    pub sources: Vec<Source>,
    /// Every game the files hold, by number.
    pub games: Vec<GameRecord>,
    /// The numbers (0-based) of the schedule's games that no file holds.
    pub missing: Vec<usize>,
    /// Games in the schedule.
    pub planned: usize,
    /// The numbers of the games not counted because the SPRT was decided before them.
    pub uncounted: Vec<usize>,
    /// The game at which the SPRT was decided, if it was.
    pub decided_at: Option<usize>,
}

/// Game numbers, 1-based, at most `MAX_LISTED` of them.
fn list_games(games: &[usize]) -> String {
    const MAX_LISTED: usize = 20;
    let mut s: Vec<String> = games
        .iter()
        .take(MAX_LISTED)
        .map(|g| (g + 1).to_string())
        .collect();
    if games.len() > MAX_LISTED {
        s.push(format!("... ({} in all)", games.len()));
    }
    s.join(", ")
}

impl Merged {
    /// What was merged, and what is missing: a few lines to print before the report.
    pub fn describe(&self) -> String {
        let files: Vec<String> = self
            .sources
            .iter()
            .map(|s| {
                format!(
                    "{} (shard {}, {} games)",
                    s.path.display(),
                    s.shard,
                    s.games
                )
            })
            .collect();
        let mut out = format!(
            "Merged {} results file{}: {}\n",
            self.sources.len(),
            if self.sources.len() == 1 { "" } else { "s" },
            files.join(", ")
        );
        out.push_str(&format!(
            "{} of {} games of the schedule",
            self.games.len(),
            self.planned
        ));
        if self.missing.is_empty() {
            out.push_str("; none missing");
        } else {
            out.push_str(&format!(
                "; {} missing: game {}",
                self.missing.len(),
                list_games(&self.missing)
            ));
            let counts: Vec<usize> = self.sources.iter().map(|s| s.shard.count()).collect();
            if let Some(&n) = counts.first().filter(|&&n| counts.iter().all(|&c| c == n)) {
                let absent: Vec<String> = (1..=n)
                    .filter(|k| !self.sources.iter().any(|s| s.shard.number() == *k))
                    .map(|k| format!("{k}/{n}"))
                    .collect();
                if !absent.is_empty() {
                    out.push_str(&format!(" (no file of shard {})", absent.join(", ")));
                }
            }
        }
        if let Some(at) = self.decided_at {
            out.push_str(&format!(
                "\nThe SPRT was decided at game {}, in the order of the game numbers",
                at + 1
            ));
            if !self.uncounted.is_empty() {
                out.push_str(&format!(
                    "; the {} games after it do not count: game {}",
                    self.uncounted.len(),
                    list_games(&self.uncounted)
                ));
            }
        }
        out
    }
}

/// Gathers the games of `files`, every one checked against the schedule `id` (see the
/// module documentation for what is refused).
pub fn merge(id: &ScheduleId, files: &[PathBuf]) -> Result<Merged, MatchError> {
    if files.is_empty() {
        return Err(MatchError::Config(
            "nothing to merge: give results files".into(),
        ));
    }
    let expected = id.line(Shard::WHOLE);
    let mut sources: Vec<Source> = Vec::new();
    // Where each game was found: its file and line.
    let mut found: BTreeMap<usize, (GameRecord, String)> = BTreeMap::new();
    for path in files {
        let shown = path.display().to_string();
        let read = read_strict(path)?;
        let Some(line) = read.schedule else {
            return Err(ResultsError::NoSchedule { path: shown }.into());
        };
        if (line.fingerprint, line.games) != (expected.fingerprint, expected.games) {
            return Err(ResultsError::OtherSchedule {
                path: shown,
                found: line.describe(),
                expected: expected.describe(),
            }
            .into());
        }
        if let Some(other) = sources.iter().find(|s| s.shard == line.shard) {
            return Err(ResultsError::DuplicateShard {
                shard: line.shard,
                first: other.path.display().to_string(),
                second: shown,
            }
            .into());
        }
        for (number, g) in &read.games {
            let at = |why: String| ResultsError::DoesNotFit {
                path: shown.clone(),
                line: *number,
                game: g.index + 1,
                why,
            };
            id.check(g).map_err(at)?;
            if !id.in_shard(g.index, line.shard) {
                return Err(at(format!(
                    "is not in shard {}, which this file holds",
                    line.shard
                ))
                .into());
            }
            let place = format!("{shown}:{number}");
            if let Some((_, first)) = found.get(&g.index) {
                return Err(ResultsError::DuplicateGame {
                    game: g.index + 1,
                    first: first.clone(),
                    second: place,
                }
                .into());
            }
            found.insert(g.index, (g.clone(), place));
        }
        sources.push(Source {
            path: path.clone(),
            shard: line.shard,
            games: read.games.len(),
        });
    }
    let missing = (0..id.len()).filter(|i| !found.contains_key(i)).collect();
    Ok(Merged {
        sources,
        games: found.into_values().map(|(g, _)| g).collect(),
        missing,
        planned: id.len(),
        uncounted: Vec::new(),
        decided_at: None,
    })
}

/// Merges a tournament's results files: the summary one run of the whole schedule gives.
pub fn merge_tournament(
    cfg: &TournamentConfig,
    files: &[PathBuf],
) -> Result<(TournamentSummary, Merged), MatchError> {
    cfg.validate()?;
    let id = ScheduleId::of_tournament(cfg)?;
    let merged = merge(&id, files)?;
    let summary = TournamentSummary {
        games: merged.games.clone(),
        resumed: 0,
        planned: id.len(),
    };
    Ok((summary, merged))
}

/// Merges a match's results files: the summary of one run of the whole schedule that plays
/// one game at a time (the SPRT applied in the order of the game numbers).
pub fn merge_match(
    cfg: &MatchConfig,
    files: &[PathBuf],
) -> Result<(MatchSummary, Merged), MatchError> {
    cfg.validate()?;
    let id = ScheduleId::of_match(cfg)?;
    let mut merged = merge(&id, files)?;
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    let mut stats = Stats::default();
    let mut verdict = cfg.sprt.map(|_| SprtState::Continue);
    let mut records = Vec::new();
    for g in &merged.games {
        if merged.decided_at.is_some() {
            merged.uncounted.push(g.index);
            continue;
        }
        stats.add_record(g, names).map_err(MatchError::Config)?;
        records.push(g.clone());
        if let Some(test) = &cfg.sprt {
            let state = test.state(&stats.total[0]);
            verdict = Some(state);
            if state != SprtState::Continue {
                merged.decided_at = Some(g.index);
            }
        }
    }
    let summary = MatchSummary {
        stats,
        games: Vec::new(),
        records,
        resumed: 0,
        // Those after the decision are games the one run would not have played (the merge
        // says so in `Merged::describe`), not games it played and did not count.
        uncounted: 0,
        planned: id.len(),
        sprt: verdict,
    };
    Ok((summary, merged))
}
