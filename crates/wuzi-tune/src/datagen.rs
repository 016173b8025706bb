//! Self-play for training data: the engine plays both sides at a fixed node budget (so a game
//! is the same on any machine and any thread count), from suite openings and from random
//! openings it makes and keeps only when a short search finds them balanced.
//!
//! A position is written when the evaluation could be asked about it: nobody can make a five
//! and the side to move cannot make a straight four (the search settles those before it
//! evaluates), and the search score is not a proven result. Each record carries the search
//! score, the search's best move (the move played) and, once the game is over, its result.
//! With `proven_wins`, the positions of that kind where the side to move has a proven win are
//! written too, flagged as such (`Record::proven`): the move ordering learns from their best
//! moves (the first move of a forced win), the evaluation's trainer skips them.
//!
//! Games are numbered; game `i` draws everything random from `Rng::for_item(seed, i)` and
//! the games are written in their numbers' order, so a file depends only on the settings, and
//! any range of games (a shard's block, [`run_games`]) can be played apart: blocks played
//! apart and put together in order are the records of one run. The data set is named by the
//! [`fingerprint`] of those settings, which every piece's header carries (`record.rs`).

use crate::record::{write_records, Header, PieceKind, Record};
use crate::TuneError;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::AtomicBool;
use wuzi_core::rng::Rng;
use wuzi_core::shard::Fingerprint;
use wuzi_core::{flag, Board, Color, Point, Rule};
use wuzi_eval::eval::EvalChoice;
use wuzi_search::{Limits, Options, Searcher, WIN, WIN_MIN};

/// What `datagen` plays.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    pub rule: Rule,
    pub size: usize,
    pub games: usize,
    /// Nodes per move.
    pub nodes: u64,
    pub seed: u64,
    /// Suite openings (may be empty: every game then starts from a random opening).
    pub openings: Vec<Vec<Point>>,
    /// Share of games from random openings when there are suite openings.
    pub random_share: f64,
    /// Random moves played after a suite opening, for variety.
    pub suite_random_plies: usize,
    /// A random opening's largest absolute score in a short search.
    pub balance_limit: i32,
    /// A game still going after this many moves is a draw.
    pub max_plies: usize,
    pub eval: EvalChoice,
    /// Also write the positions where the side to move has a proven win (flagged).
    pub proven_wins: bool,
}

/// What one game left.
#[derive(Clone, Debug)]
pub struct GameData {
    pub records: Vec<Record>,
    pub winner: Option<Color>,
    pub plies: usize,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: usize,
    pub positions: usize,
    pub black_wins: usize,
    pub white_wins: usize,
    pub draws: usize,
}

fn searcher(config: &DatagenConfig) -> Searcher {
    let mut s = Searcher::new(4 << 20);
    s.set_options(Options {
        eval: config.eval,
        ..Options::default()
    });
    s
}

fn search(s: &mut Searcher, board: &Board, nodes: u64) -> Option<wuzi_search::SearchResult> {
    let limits = Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    };
    s.search(board, &limits, &AtomicBool::new(false), &mut |_| {})
}

/// A random legal point within `radius` of the centre, or next to a stone when `near`.
fn random_point(board: &mut Board, rng: &mut Rng, radius: usize, near: bool) -> Option<Point> {
    let (w, h) = (board.width(), board.height());
    for _ in 0..200 {
        let p = if near && board.move_count() > 0 {
            let cells: Vec<_> = board.empty_near_stones(2).iter().collect();
            if cells.is_empty() {
                return None;
            }
            board.point(cells[rng.below(cells.len())])
        } else {
            let (cx, cy) = (w / 2, h / 2);
            let x = cx + rng.below(2 * radius + 1);
            let y = cy + rng.below(2 * radius + 1);
            if x < radius || y < radius || x - radius >= w || y - radius >= h {
                continue;
            }
            Point::new((x - radius) as u8, (y - radius) as u8)
        };
        if board.is_empty_at(p) && board.is_legal(p) {
            return Some(p);
        }
    }
    None
}

/// The opening of game `rng`'s: a suite line plus random plies, or random stones near the
/// centre; tried until a short search finds it balanced (at most 50 tries).
fn opening(config: &DatagenConfig, rng: &mut Rng, s: &mut Searcher) -> Result<Board, TuneError> {
    let new_board = || {
        Board::new(config.size, config.size, config.rule)
            .map_err(|e| TuneError::Data(e.to_string()))
    };
    let mut last = new_board()?;
    for _ in 0..50 {
        let mut board = new_board()?;
        let from_suite = !config.openings.is_empty() && rng.unit() >= config.random_share;
        let mut ok = true;
        if from_suite {
            let line = &config.openings[rng.below(config.openings.len())];
            for &p in line {
                ok &= board.play(p).is_ok();
            }
            for _ in 0..config.suite_random_plies {
                match random_point(&mut board, rng, 3, true) {
                    Some(p) => ok &= board.play(p).is_ok(),
                    None => ok = false,
                }
            }
        } else {
            let stones = 2 + rng.below(5);
            for _ in 0..stones {
                match random_point(&mut board, rng, 3, false) {
                    Some(p) => ok &= board.play(p).is_ok(),
                    None => ok = false,
                }
            }
        }
        if !ok || board.winner().is_some() {
            continue;
        }
        let balanced =
            search(s, &board, config.nodes).is_some_and(|r| r.score.abs() <= config.balance_limit);
        s.clear();
        if balanced {
            return Ok(board);
        }
        last = board;
    }
    Ok(last)
}

/// Whether the evaluation can be asked about this position (see the module documentation).
pub fn evaluation_sees(board: &Board) -> bool {
    let us = board.side_to_move();
    let them = us.opponent();
    board.cells_making(us, flag::FIVE).is_empty()
        && board.cells_making(them, flag::FIVE).is_empty()
        && board.cells_making(us, flag::OPEN_FOUR).is_empty()
}

/// Plays game `index`.
pub fn play_game(config: &DatagenConfig, index: u64) -> Result<GameData, TuneError> {
    let mut rng = Rng::for_item(config.seed, index);
    let mut s = searcher(config);
    let mut board = opening(config, &mut rng, &mut s)?;
    let mut positions: Vec<(Record, Color)> = Vec::new();
    let mut winner = None;
    while board.move_count() < config.max_plies && !board.is_full() {
        let Some(result) = search(&mut s, &board, config.nodes) else {
            break;
        };
        if evaluation_sees(&board) {
            let score = Some(result.score.clamp(-WIN, WIN) as i16);
            if result.score.abs() < WIN_MIN && result.depth > 0 {
                let record = Record::of(&board, 1, score)?.with_best(result.best);
                positions.push((record, board.side_to_move()));
            } else if config.proven_wins && result.score >= WIN_MIN {
                let mut record = Record::of(&board, 1, score)?.with_best(result.best);
                record.proven = true;
                positions.push((record, board.side_to_move()));
            }
        }
        let mover = board.side_to_move();
        board
            .play(result.best)
            .map_err(|e| TuneError::Data(format!("game {index}: engine move refused: {e}")))?;
        if board.winner().is_some() {
            winner = Some(mover);
            break;
        }
    }
    let records = positions
        .into_iter()
        .map(|(mut r, side)| {
            r.result = match winner {
                None => 1,
                Some(w) if w == side => 2,
                Some(_) => 0,
            };
            r
        })
        .collect();
    Ok(GameData {
        records,
        winner,
        plies: board.move_count(),
    })
}

/// The fingerprint of the data set `config` makes: every setting that decides its games
/// (`record.rs`, the header), so that its pieces made apart are known as one data set.
pub fn fingerprint(config: &DatagenConfig) -> u64 {
    let mut f = Fingerprint::new("wuzi datagen 1");
    f.u64(u64::from(config.rule.gomocup_code()))
        .u64(config.size as u64)
        .u64(config.games as u64)
        .u64(config.nodes)
        .u64(config.seed)
        .u64(config.random_share.to_bits())
        .u64(config.suite_random_plies as u64)
        .u64(config.balance_limit as u64)
        .u64(config.max_plies as u64)
        .u64(config.openings.len() as u64);
    for line in &config.openings {
        f.u64(line.len() as u64);
        for p in line {
            f.u64(u64::from(p.x)).u64(u64::from(p.y));
        }
    }
    if config.proven_wins {
        // Only when set, so that the data sets made before the option keep their names.
        f.str("proven wins");
    }
    match config.eval {
        EvalChoice::Auto => f.str("auto"),
        EvalChoice::Classic => f.str("classic"),
        EvalChoice::Learned => f.str("learned"),
        EvalChoice::Weights(w) => f.str("weights").str(&w.to_text("")),
    };
    f.finish()
}

/// The header of the piece that holds the games `games` of `config`'s data set.
pub fn header(config: &DatagenConfig, games: Range<usize>) -> Header {
    Header {
        kind: PieceKind::SelfPlay,
        fingerprint: fingerprint(config),
        games: config.games as u64,
        first: games.start as u64,
        end: games.end as u64,
        records: None,
        rule: config.rule,
        size: config.size,
        seed: config.seed,
        nodes: config.nodes,
    }
}

/// Plays `config.games` games on the current rayon pool and writes their positions in game
/// order. `on_game` is called after each game (for progress).
pub fn run(
    config: &DatagenConfig,
    out: &mut impl std::io::Write,
    on_game: &(dyn Fn(&Summary) + Sync),
) -> Result<Summary, TuneError> {
    run_games(config, 0..config.games, out, on_game)
}

/// Plays the games `games` of `config`'s data set (a shard's block, `Shard::block`) on the
/// current rayon pool and writes their positions in game order: for consecutive blocks, the
/// very records one run of them all writes.
pub fn run_games(
    config: &DatagenConfig,
    games: Range<usize>,
    out: &mut impl std::io::Write,
    on_game: &(dyn Fn(&Summary) + Sync),
) -> Result<Summary, TuneError> {
    let mut summary = Summary::default();
    let batch = 64;
    let mut next = games.start;
    while next < games.end {
        let end = (next + batch).min(games.end);
        let played: Vec<Result<GameData, TuneError>> = (next..end)
            .into_par_iter()
            .map(|i| play_game(config, i as u64))
            .collect();
        for game in played {
            let game = game?;
            summary.games += 1;
            summary.positions += game.records.len();
            match game.winner {
                Some(Color::Black) => summary.black_wins += 1,
                Some(Color::White) => summary.white_wins += 1,
                None => summary.draws += 1,
            }
            write_records(out, &game.records)?;
            on_game(&summary);
        }
        next = end;
    }
    out.flush().map_err(TuneError::io)?;
    Ok(summary)
}
