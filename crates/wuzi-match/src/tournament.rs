//! Tournaments of two or more engines: the schedule of pairings, the game threads, and
//! resuming from the results file.
//!
//! A round robin pairs every engine with every other; a gauntlet pairs the first engine with
//! each of the others. Every pairing is a match of its own ([`MatchConfig`] with the
//! tournament's settings) over the same openings with colours swapped, so its games are those
//! [`MatchConfig::schedule`] gives. The tournament's schedule takes the pairings in turn, two
//! games (one opening, both colours) of each at a time, so that a tournament stopped early is
//! still balanced; games are numbered in that order from 0.
//!
//! `concurrency` game threads each take the next game not yet played. A thread keeps the
//! processes of the pairing it played last and reuses them when the next game needs the same
//! engine (the referee restarts an engine after a fault, as in a match); the others are asked
//! to quit.
//!
//! With a shard (`settings.shard`, `crate::schedule`) only that shard's share of the schedule
//! is played, and the results file holds that share; the shards' files are merged by
//! `crate::merge`.
//!
//! Invariants: with a results file, every finished game is appended to it (and flushed) by
//! the calling thread, exactly once; on a restart the games it holds are not played again and
//! count in the totals, so an interrupted tournament resumed to the end has played every game
//! of its share exactly once. A results file of another schedule or shard, or whose games do
//! not fit the schedule, is refused before anything is played.

use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, SystemTime};

use crate::config::{GameSetup, MatchConfig};
use crate::engine::{Engine, EngineSpec};
use crate::error::MatchError;
use crate::game::GameResult;
use crate::log::MessageLog;
use crate::record::{psq, sgf, utc_date, MatchInfo};
use crate::referee::{play_game, Slots};
use crate::results::{GameRecord, ResultsFile};
use crate::schedule::ScheduleId;

/// How long an engine is given to exit after `END`.
const QUIT_GRACE: Duration = Duration::from_millis(500);
const TICK: Duration = Duration::from_millis(200);

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every engine against every other.
    RoundRobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// A tournament's settings.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The settings every pairing shares (board, rule, time, openings, records, concurrency);
    /// its engines and number of games are replaced per pairing.
    pub settings: MatchConfig,
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    /// Games per pairing (colours alternate: an even number plays each opening both ways).
    pub games_per_pair: usize,
    /// The results file to append to and resume from.
    pub results: Option<PathBuf>,
}

/// One pairing: engines `a` and `b` (indices into the tournament's engines) and the match
/// settings of their games (`a` is the match's first engine).
#[derive(Clone, Debug)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub config: MatchConfig,
}

/// One game of the schedule.
#[derive(Clone, Debug)]
pub struct Scheduled {
    /// Index into the pairings.
    pub pairing: usize,
    /// The unit of sharding: one opening of one pairing, numbered in schedule order
    /// (`crate::schedule`).
    pub unit: usize,
    /// The game as its pairing's match plays it; `setup.index` is the tournament's number.
    pub setup: GameSetup,
}

impl Scheduled {
    /// The tournament engines playing Black and White.
    pub fn colours(&self, pairings: &[Pairing]) -> (usize, usize) {
        let p = &pairings[self.pairing];
        if self.setup.black == 0 {
            (p.a, p.b)
        } else {
            (p.b, p.a)
        }
    }
}

impl TournamentConfig {
    pub fn validate(&self) -> Result<(), MatchError> {
        let bad = |m: String| Err(MatchError::Config(m));
        if self.engines.len() < 2 {
            return bad(format!(
                "a tournament needs at least two engines (got {})",
                self.engines.len()
            ));
        }
        let mut seen = HashSet::new();
        for e in &self.engines {
            if e.name.chars().any(char::is_control) {
                return bad(format!(
                    "the engine name {:?} holds a control character",
                    e.name
                ));
            }
            if e.cmd.trim().is_empty() {
                return bad(format!("engine {} has no command", e.name));
            }
            if !seen.insert(e.name.as_str()) {
                return bad(format!(
                    "two engines are named \"{}\"; give them distinct names",
                    e.name
                ));
            }
        }
        if self.games_per_pair == 0 {
            return bad("each pairing needs at least one game".into());
        }
        if self.settings.sprt.is_some() {
            return bad("a tournament has no SPRT stop; leave out --sprt".into());
        }
        // The pairings differ only in their engines, checked above.
        self.pairings()
            .first()
            .map_or(Ok(()), |p| p.config.validate())
    }

    /// The pairings, in the order the schedule takes them.
    pub fn pairings(&self) -> Vec<Pairing> {
        let n = self.engines.len();
        let pairs: Vec<(usize, usize)> = match self.format {
            Format::RoundRobin => (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..n).map(|b| (0, b)).collect(),
        };
        pairs
            .into_iter()
            .map(|(a, b)| {
                let mut config = self.settings.clone();
                config.engines = [self.engines[a].clone(), self.engines[b].clone()];
                config.games = self.games_per_pair;
                config.sprt = None;
                Pairing { a, b, config }
            })
            .collect()
    }

    /// The whole schedule.
    pub fn schedule(&self, pairings: &[Pairing]) -> Result<Vec<Scheduled>, MatchError> {
        let mut per_pairing = Vec::new();
        for p in pairings {
            per_pairing.push(p.config.schedule()?);
        }
        let mut out = Vec::new();
        let mut unit = 0;
        for round in 0..self.games_per_pair.div_ceil(2) {
            for (pairing, games) in per_pairing.iter().enumerate() {
                for g in games.iter().skip(2 * round).take(2) {
                    let mut setup = g.clone();
                    setup.index = out.len();
                    out.push(Scheduled {
                        pairing,
                        unit,
                        setup,
                    });
                }
                unit += 1;
            }
        }
        Ok(out)
    }
}

/// Told about the tournament as it goes (on the thread that called [`run_tournament`]).
pub trait TournamentObserver {
    /// A game finished (`played` of `planned` are now done, earlier runs' games included).
    fn game_finished(&mut self, _game: &GameRecord, _played: usize, _planned: usize) {}
    /// Games read back from the results file, and unreadable lines skipped there.
    fn resumed(&mut self, _games: usize, _skipped: &[(usize, String)]) {}
}

/// An observer that does nothing.
pub struct QuietTournament;
impl TournamentObserver for QuietTournament {}

/// What a finished tournament gives.
#[derive(Debug)]
pub struct TournamentSummary {
    /// Every game, by number: those of earlier runs read back, then those played now.
    pub games: Vec<GameRecord>,
    /// How many were read back from the results file.
    pub resumed: usize,
    /// Games in the schedule (in the shard's share of it, for a shard).
    pub planned: usize,
}

enum FromGame {
    Done(usize, Box<GameResult>),
    Failed(MatchError),
}

/// The record of a finished game in the tournament's terms.
fn to_record(cfg: &TournamentConfig, pairing: &Pairing, g: &GameResult) -> GameRecord {
    let names = [
        cfg.engines[pairing.a].name.as_str(),
        cfg.engines[pairing.b].name.as_str(),
    ];
    GameRecord::of(g, names, &pairing.config)
}

/// Plays the tournament (what its results file does not hold yet).
pub fn run_tournament(
    cfg: &TournamentConfig,
    observer: &mut dyn TournamentObserver,
) -> Result<TournamentSummary, MatchError> {
    cfg.validate()?;
    let pairings = cfg.pairings();
    let schedule = cfg.schedule(&pairings)?;
    let id = ScheduleId::of_tournament(cfg)?;
    let shard = cfg.settings.shard;
    let mut done = BTreeMap::new();
    if let Some(path) = cfg.results.as_ref().filter(|p| p.exists()) {
        let (read, skipped) = id.resume(path, shard, "tournament")?;
        observer.resumed(read.len(), &skipped);
        done = read;
    }
    let resumed = done.len();
    let planned = id.share(shard);
    let pending: Vec<&Scheduled> = schedule
        .iter()
        .filter(|s| shard.owns(s.unit) && !done.contains_key(&s.setup.index))
        .collect();
    let mut results = match &cfg.results {
        Some(path) => Some(ResultsFile::open(path, Some(&id.line(shard)))?),
        None => None,
    };
    let mut records = Records::open(cfg, resumed > 0)?;
    let log = MessageLog::create_if_asked(cfg.settings.message_log.as_deref())?;
    let stop = AtomicBool::new(false);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel();
    let mut fatal: Option<MatchError> = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.settings.concurrency.min(pending.len()) {
            let tx = tx.clone();
            let shared: Shared<'_> = (&pairings, &pending, &next, &stop, log.as_ref());
            scope.spawn(move || game_thread(shared, tx));
        }
        drop(tx);
        loop {
            match rx.recv_timeout(TICK) {
                Ok(FromGame::Done(pairing, g)) => {
                    let p = &pairings[pairing];
                    let record = to_record(cfg, p, &g);
                    let written = match results.as_mut() {
                        Some(file) => file.append(&record),
                        None => Ok(()),
                    }
                    .and_then(|_| records.write(p, &g));
                    if let Err(e) = written {
                        fatal.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                    done.insert(record.index, record.clone());
                    observer.game_finished(&record, done.len(), planned);
                }
                Ok(FromGame::Failed(e)) => {
                    fatal.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if let Some(e) = fatal {
        return Err(e);
    }
    Ok(TournamentSummary {
        games: done.into_values().collect(),
        resumed,
        planned,
    })
}

type Shared<'a> = (
    &'a [Pairing],
    &'a [&'a Scheduled],
    &'a AtomicUsize,
    &'a AtomicBool,
    Option<&'a MessageLog>,
);

fn game_thread((pairings, pending, next, stop, log): Shared<'_>, tx: Sender<FromGame>) {
    // Engine processes kept from the last game, by tournament engine index.
    let mut kept: Vec<(usize, Engine)> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        let Some(s) = pending.get(next.fetch_add(1, Ordering::Relaxed)) else {
            break;
        };
        let p = &pairings[s.pairing];
        let mut take = |engine: usize| {
            let at = kept.iter().position(|(e, _)| *e == engine)?;
            Some(kept.swap_remove(at).1)
        };
        let mut slots: Slots = [take(p.a), take(p.b)];
        for (_, e) in kept.drain(..) {
            e.quit(QUIT_GRACE);
        }
        let played = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play_game(&p.config, &s.setup, &mut slots, log, stop)
        }));
        let [first, second] = slots;
        kept.extend(first.map(|e| (p.a, e)));
        kept.extend(second.map(|e| (p.b, e)));
        let message = match played {
            Ok(Ok(Some(g))) => FromGame::Done(s.pairing, Box::new(g)),
            Ok(Ok(None)) => break,
            Ok(Err(e)) => FromGame::Failed(e),
            Err(_) => FromGame::Failed(MatchError::Internal("a game thread panicked".into())),
        };
        let failed = matches!(message, FromGame::Failed(_));
        if tx.send(message).is_err() || failed {
            break;
        }
    }
    for (_, e) in kept {
        e.quit(QUIT_GRACE);
    }
}

/// The SGF collection (appended to when resuming) and the `.psq` folder of a tournament.
struct Records {
    sgf: Option<(PathBuf, File)>,
    psq_dir: Option<PathBuf>,
    date: String,
}

impl Records {
    fn open(cfg: &TournamentConfig, resuming: bool) -> Result<Records, MatchError> {
        let io = |path: &PathBuf| {
            let path = path.display().to_string();
            move |source| MatchError::Io { path, source }
        };
        let sgf = match &cfg.settings.sgf {
            Some(path) => {
                let file = OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(resuming)
                    .truncate(!resuming)
                    .open(path)
                    .map_err(io(path))?;
                Some((path.clone(), file))
            }
            None => None,
        };
        if let Some(dir) = &cfg.settings.psq_dir {
            std::fs::create_dir_all(dir).map_err(io(dir))?;
        }
        Ok(Records {
            sgf,
            psq_dir: cfg.settings.psq_dir.clone(),
            date: utc_date(SystemTime::now()),
        })
    }

    fn write(&mut self, p: &Pairing, g: &GameResult) -> Result<(), MatchError> {
        let mut info = MatchInfo::of(&p.config);
        info.date = self.date.clone();
        if let Some((path, file)) = self.sgf.as_mut() {
            file.write_all(sgf(g, &info).as_bytes())
                .and_then(|_| file.flush())
                .map_err(|source| MatchError::Io {
                    path: path.display().to_string(),
                    source,
                })?;
        }
        if let Some(dir) = &self.psq_dir {
            let path = dir.join(format!("game-{:04}.psq", g.index + 1));
            std::fs::write(&path, psq(g, &info)).map_err(|source| MatchError::Io {
                path: path.display().to_string(),
                source,
            })?;
        }
        Ok(())
    }
}
