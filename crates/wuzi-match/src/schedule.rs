//! A schedule as its results files see it ([`ScheduleId`]): every game's engines and opening,
//! the unit that shards split, and the fingerprint that names the schedule in a results
//! file's schedule line.
//!
//! The unit of sharding is one opening of one pairing: the two games that play it with
//! colours swapped (one game when the pairing has an odd number). Units are numbered in
//! schedule order and shard `K/N` owns the units `u` with `u mod N = K - 1`
//! (`wuzi_core::shard::Shard::owns`), so every shard plays both colours of its openings and
//! a sample of the whole schedule.
//!
//! The fingerprint covers what makes two runs the same experiment: the board and rule, the
//! time control, the memory limit and its enforcement, the move limit, freezing, every
//! engine's name and `INFO` options, and every game (number, Black, White, opening). It
//! leaves out the engines' programs, arguments and folders (they may differ from node to
//! node: give each engine version its own name), how many games run at once, the records
//! asked for, the SPRT (it decides where to stop, not what is played) and the shard.
//!
//! Invariant: a game that [`ScheduleId::check`] accepts is the schedule's game of its number:
//! the same engines in the same colours, board, rule and opening.

use std::collections::BTreeMap;
use std::path::Path;

use wuzi_core::shard::{Fingerprint, Shard};
use wuzi_core::{Point, Rule};

use crate::config::MatchConfig;
use crate::engine::EngineSpec;
use crate::error::MatchError;
use crate::results::{read_results, GameRecord, ScheduleLine};
use crate::tournament::TournamentConfig;

/// What a results file gives back to resume from: the games by number, and the lines
/// skipped as unreadable (1-based number and why).
pub type Resumed = (BTreeMap<usize, GameRecord>, Vec<(usize, String)>);

/// One game of a schedule, engines named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 0-based game number.
    pub index: usize,
    /// The unit of sharding it belongs to.
    pub unit: usize,
    pub black: String,
    pub white: String,
    /// The opening's points.
    pub opening: Vec<Point>,
}

/// A schedule's games and fingerprint.
#[derive(Clone, Debug)]
pub struct ScheduleId {
    pub fingerprint: u64,
    /// Every game, by number.
    pub slots: Vec<Slot>,
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
}

impl ScheduleId {
    /// The schedule of a match.
    pub fn of_match(cfg: &MatchConfig) -> Result<ScheduleId, MatchError> {
        let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
        let slots = cfg
            .schedule()?
            .into_iter()
            .map(|g| Slot {
                index: g.index,
                unit: g.index / 2,
                black: names[g.black].to_string(),
                white: names[1 - g.black].to_string(),
                opening: g.points,
            })
            .collect();
        Ok(ScheduleId::new(cfg, &cfg.engines, slots))
    }

    /// The schedule of a tournament.
    pub fn of_tournament(cfg: &TournamentConfig) -> Result<ScheduleId, MatchError> {
        let pairings = cfg.pairings();
        let slots = cfg
            .schedule(&pairings)?
            .into_iter()
            .map(|s| {
                let (black, white) = s.colours(&pairings);
                Slot {
                    index: s.setup.index,
                    unit: s.unit,
                    black: cfg.engines[black].name.clone(),
                    white: cfg.engines[white].name.clone(),
                    opening: s.setup.points,
                }
            })
            .collect();
        Ok(ScheduleId::new(&cfg.settings, &cfg.engines, slots))
    }

    fn new(settings: &MatchConfig, engines: &[EngineSpec], slots: Vec<Slot>) -> ScheduleId {
        let mut f = Fingerprint::new("wuzi schedule 1");
        let duration = |d: std::time::Duration| d.as_nanos().min(u128::from(u64::MAX)) as u64;
        f.u64(settings.width as u64)
            .u64(settings.height as u64)
            .str(settings.rule.name())
            .u64(duration(settings.time.turn))
            .u64(settings.time.game.map_or(u64::MAX, duration))
            .u64(duration(settings.time.tolerance))
            .u64(settings.max_memory)
            .u64(u64::from(settings.enforce_memory))
            .u64(settings.max_moves.map_or(u64::MAX, |m| m as u64))
            .u64(u64::from(settings.freeze))
            .u64(engines.len() as u64);
        for e in engines {
            f.str(&e.name).u64(e.options.len() as u64);
            for (k, v) in &e.options {
                f.str(k).str(v);
            }
        }
        f.u64(slots.len() as u64);
        for s in &slots {
            f.u64(s.index as u64)
                .str(&s.black)
                .str(&s.white)
                .u64(s.opening.len() as u64);
            for p in &s.opening {
                f.u64(u64::from(p.x)).u64(u64::from(p.y));
            }
        }
        ScheduleId {
            fingerprint: f.finish(),
            slots,
            width: settings.width,
            height: settings.height,
            rule: settings.rule,
        }
    }

    /// Games in the whole schedule.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The schedule line of a results file holding `shard`.
    pub fn line(&self, shard: Shard) -> ScheduleLine {
        ScheduleLine {
            fingerprint: self.fingerprint,
            games: self.slots.len(),
            shard,
        }
    }

    /// Whether game `index` is in `shard`'s share.
    pub fn in_shard(&self, index: usize, shard: Shard) -> bool {
        self.slots.get(index).is_some_and(|s| shard.owns(s.unit))
    }

    /// How many games `shard`'s share holds.
    pub fn share(&self, shard: Shard) -> usize {
        self.slots.iter().filter(|s| shard.owns(s.unit)).count()
    }

    /// Whether a recorded game is this schedule's game of its number; the error says how it
    /// differs.
    pub fn check(&self, g: &GameRecord) -> Result<(), String> {
        let Some(slot) = self.slots.get(g.index) else {
            return Err(format!(
                "is not in this schedule (it has {} games)",
                self.slots.len()
            ));
        };
        if (g.black.as_str(), g.white.as_str()) != (slot.black.as_str(), slot.white.as_str()) {
            return Err(format!(
                "was {} (black) vs {} (white); this schedule has {} vs {}",
                g.black, g.white, slot.black, slot.white
            ));
        }
        if (g.width, g.height, g.rule) != (self.width, self.height, self.rule) {
            return Err(format!(
                "was played on {}x{} {}; this schedule is {}x{} {}",
                g.width, g.height, g.rule, self.width, self.height, self.rule
            ));
        }
        if g.opening_len != slot.opening.len()
            || g.moves.get(..g.opening_len) != Some(&slot.opening[..])
        {
            return Err("started from another opening than this schedule's".to_string());
        }
        Ok(())
    }

    /// Reads back the games a results file holds, to resume `shard` of this schedule from
    /// it: the games by number (a game recorded twice counts once) and the lines skipped as
    /// unreadable. A file of another schedule or shard, or with a game that is not this
    /// shard's game of its number, is refused (`what` names the run in the error: "match",
    /// "tournament").
    pub fn resume(&self, path: &Path, shard: Shard, what: &str) -> Result<Resumed, MatchError> {
        let shown = path.display();
        let refuse = |why: String| {
            Err(MatchError::Config(format!(
                "{shown}: {why}; is it another {what}'s file?"
            )))
        };
        let read = read_results(path)?;
        if let Some(line) = read.schedule {
            let mine = self.line(shard);
            if (line.fingerprint, line.games) != (mine.fingerprint, mine.games) {
                return refuse(format!(
                    "it holds {}, this {what} is {}",
                    line.describe(),
                    mine.describe()
                ));
            }
            if line.shard != shard {
                return Err(MatchError::Config(format!(
                    "{shown} holds shard {} of this {what}, not shard {shard}",
                    line.shard
                )));
            }
        }
        let mut done = BTreeMap::new();
        for g in read.games {
            if let Err(why) = self.check(&g) {
                return refuse(format!("game {} {why}", g.index + 1));
            }
            if !self.in_shard(g.index, shard) {
                return refuse(format!("game {} is not in shard {shard}", g.index + 1));
            }
            done.entry(g.index).or_insert(g);
        }
        Ok((done, read.skipped))
    }
}
