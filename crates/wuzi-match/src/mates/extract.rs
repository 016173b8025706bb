//! Building the forced-line suite from the records of matches of wuzi against the sparring
//! engine: each batch is a match's SGF collection (`--sgf`) and its message log
//! (`--message-log`), which holds both engines' progress lines of every move.
//!
//! A game gives at most one position of each kind:
//! - **the sparring engine's win** (batches at equal time only): the position before the
//!   first move of the game at which the sparring engine's progress announced a forced win
//!   (`+M<n>`, any line of that search), provided none of wuzi's progress lines so far in the
//!   game showed a proven loss (wuzi had not yet seen it); the length is that search's last
//!   `+M<n>`. A game whose first announcement wuzi had already seen gives none;
//! - **wuzi's win**: the earliest position with wuzi to move and a forced win known: where
//!   wuzi's own progress showed a proven win (its last such line gives the length), or just
//!   after a move at which the sparring engine announced its own forced loss (`-M<n>`: wuzi
//!   then wins in `n - 1` plies at most).
//!
//! Announcements of unknown length (`+M*`) are passed over. Games pair by opening (games
//! `2k + 1` and `2k + 2` of a batch, one with each colour); pairs `k` with `k % 4 == 3` are
//! held out, the rest are for training. Ids are `BATCH:GAME:STONES`, games `BATCH:GAME`.

use std::collections::BTreeMap;

use thiserror::Error;
use wuzi_core::Color;
use wuzi_search::bench::mates::{Attacker, MatePosition, Split};

use super::announce::{parse_message, Mate};
use crate::log::LogLine;

/// One match's records.
#[derive(Clone, Copy, Debug)]
pub struct Batch<'a> {
    /// A short name without white space or `:` (the ids start with it).
    pub name: &'a str,
    /// The SGF collection.
    pub sgf: &'a str,
    /// The message log.
    pub log: &'a str,
    /// Played at time odds: only positions of wuzi's wins are taken.
    pub odds: bool,
}

/// The engines' names in the records.
#[derive(Clone, Copy, Debug)]
pub struct Names<'a> {
    pub wuzi: &'a str,
    pub sparring: &'a str,
}

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ExtractError {
    #[error("batch {batch}: {why}")]
    Batch { batch: String, why: String },
}

/// What was taken from one batch.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchCount {
    pub name: String,
    pub games: usize,
    pub sparring_wins: usize,
    pub wuzi_wins: usize,
    /// Games whose first announcement by the sparring engine wuzi had already seen.
    pub seen_first: usize,
}

/// One engine's search at one move: every proven result its lines reported, in order.
#[derive(Debug)]
struct Search {
    engine: Attacker,
    color: Color,
    mates: Vec<Mate>,
}

/// Reads the batches; returns the positions in batch, game and kind order, and counts.
pub fn extract(
    batches: &[Batch],
    names: Names,
) -> Result<(Vec<MatePosition>, Vec<BatchCount>), ExtractError> {
    let mut out = Vec::new();
    let mut counts = Vec::new();
    for batch in batches {
        let fail = |why: String| ExtractError::Batch {
            batch: batch.name.to_string(),
            why,
        };
        if batch.name.is_empty() || batch.name.contains(|c: char| c.is_whitespace() || c == ':') {
            return Err(fail("a batch name is a word without ':'".into()));
        }
        let searches = read_log(batch.log, names);
        let mut count = BatchCount {
            name: batch.name.to_string(),
            ..BatchCount::default()
        };
        for index in 1..=wuzi_show::sgf_game_count(batch.sgf) {
            let game = wuzi_show::read_sgf(batch.sgf, index)
                .map_err(|e| fail(format!("game {index} of the SGF: {e}")))?;
            let number = match wuzi_show::sgf_property(batch.sgf, index, "GN") {
                Ok(Some(n)) => n
                    .trim()
                    .parse::<usize>()
                    .ok()
                    .filter(|&g| g >= 1)
                    .ok_or_else(|| fail(format!("game {index} of the SGF: GN[{n}]")))?,
                _ => index,
            };
            count.games += 1;
            let Some(moves) = searches.get(&number) else {
                continue;
            };
            let make = |stones: usize, attacker: Attacker, plies: u32, source: String| {
                let position = MatePosition {
                    id: format!("{}:{number}:{stones}", batch.name),
                    split: if ((number - 1) / 2) % 4 == 3 {
                        Split::HeldOut
                    } else {
                        Split::Train
                    },
                    attacker,
                    rule: game.rule,
                    width: game.width,
                    height: game.height,
                    plies,
                    source,
                    game: Some(format!("{}:{number}", batch.name)),
                    moves: game.moves[..stones].to_vec(),
                };
                position
                    .board()
                    .map_err(|e| fail(format!("{}: {e}", position.id)))?;
                Ok(position)
            };
            for (&stones, search) in moves {
                let expected = if stones % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if search.color != expected || stones > game.moves.len() {
                    return Err(fail(format!(
                        "game {number}: the log's move {stones} does not fit the SGF's game"
                    )));
                }
            }
            if !batch.odds {
                match sparring_win(moves) {
                    First::Position(stones, plies) => {
                        out.push(make(
                            stones,
                            Attacker::Sparring,
                            plies,
                            format!("sparring:+M{plies}"),
                        )?);
                        count.sparring_wins += 1;
                    }
                    First::Seen => count.seen_first += 1,
                    First::None => {}
                }
            }
            if let Some((stones, plies, source)) = wuzi_win(moves, game.moves.len()) {
                out.push(make(stones, Attacker::Wuzi, plies, source)?);
                count.wuzi_wins += 1;
            }
        }
        counts.push(count);
    }
    Ok((out, counts))
}

/// Every game's searches by the stones on the board, from the log's progress lines.
fn read_log(log: &str, names: Names) -> BTreeMap<usize, BTreeMap<usize, Search>> {
    let mut games: BTreeMap<usize, BTreeMap<usize, Search>> = BTreeMap::new();
    for line in log.lines().filter_map(LogLine::parse) {
        let engine = if line.engine == names.wuzi {
            Attacker::Wuzi
        } else if line.engine == names.sparring {
            Attacker::Sparring
        } else {
            continue;
        };
        let Some(progress) = line.text.strip_prefix("MESSAGE ").and_then(parse_message) else {
            continue;
        };
        let search = games
            .entry(line.game)
            .or_default()
            .entry(line.move_no)
            .or_insert(Search {
                engine,
                color: line.color,
                mates: Vec::new(),
            });
        if search.engine == engine {
            search.mates.extend(progress.mate);
        }
    }
    games
}

enum First {
    Position(usize, u32),
    Seen,
    None,
}

/// The sparring engine's first announced win, unless wuzi had seen its loss by then.
fn sparring_win(moves: &BTreeMap<usize, Search>) -> First {
    let mut wuzi_saw = false;
    for (&stones, search) in moves {
        match search.engine {
            Attacker::Wuzi => {
                wuzi_saw |= search.mates.iter().any(|m| matches!(m, Mate::Loss(_)));
            }
            Attacker::Sparring => {
                let last_win = search.mates.iter().rev().find_map(|m| match m {
                    Mate::Win(Some(n)) => Some(*n),
                    _ => None,
                });
                if let Some(plies) = last_win {
                    return if wuzi_saw {
                        First::Seen
                    } else {
                        First::Position(stones, plies.max(1))
                    };
                }
            }
        }
    }
    First::None
}

/// The earliest position with wuzi to move and a known forced win: stones, plies, source.
fn wuzi_win(moves: &BTreeMap<usize, Search>, game_len: usize) -> Option<(usize, u32, String)> {
    let mut best: Option<(usize, u32, String)> = None;
    for (&stones, search) in moves {
        let candidate = match search.engine {
            Attacker::Wuzi => search.mates.iter().rev().find_map(|m| match m {
                Mate::Win(Some(n)) => Some((stones, (*n).max(1), format!("wuzi:+M{n}"))),
                _ => None,
            }),
            Attacker::Sparring => search.mates.iter().rev().find_map(|m| match m {
                Mate::Loss(Some(n)) if *n >= 2 && stones < game_len => {
                    Some((stones + 1, n - 1, format!("sparring:-M{n}")))
                }
                _ => None,
            }),
        };
        if let Some(c) = candidate {
            // The earlier position wins; at the same one, the sparring engine's word.
            let better = match &best {
                None => true,
                Some(b) => c.0 < b.0 || (c.0 == b.0 && c.2.starts_with("sparring")),
            };
            if better {
                best = Some(c);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::notation;

    const NAMES: Names = Names {
        wuzi: "wuzi",
        sparring: "sparring",
    };

    /// An SGF collection of one game (number `gn`) with these moves.
    fn sgf(gn: usize, moves: &str) -> String {
        let points = notation::parse_moves(moves).expect("moves");
        let mut s = format!("(;GM[4]FF[4]SZ[15]RU[freestyle]GN[{gn}]PB[wuzi]PW[sparring]");
        for (i, p) in points.iter().enumerate() {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let l = |v: u8| char::from(b'a' + v);
            s.push_str(&format!(";{c}[{}{}]", l(p.x), l(p.y)));
        }
        s.push(')');
        s
    }

    fn line(game: usize, stones: usize, engine: &str, text: &str) -> String {
        let color = if stones % 2 == 0 { "black" } else { "white" };
        format!("game {game} move {stones} {engine} ({color}): MESSAGE {text}\n")
    }

    const MOVES: &str = "h8i9j10i8i10h9g9k9j9i7i6h11g12";

    #[test]
    fn the_sparring_engines_first_unseen_win() {
        let sgf = sgf(7, MOVES);
        let log = [
            line(7, 4, "wuzi", "depth 5-5 ev 10 n 100 n/ms 1 tm 1 pv a1"),
            line(7, 5, "sparring", "Depth 9-12 | Eval 120 | Time 3ms | A2"),
            line(7, 7, "sparring", "Depth 9-12 | Eval +M21 | Time 3ms | A2"),
            line(7, 7, "sparring", "Depth 10-12 | Eval +M15 | Time 5ms | A2"),
            line(
                7,
                7,
                "sparring",
                "Speed 1K | Depth 10-12 | Eval +M15 | Node 5 | Time 5ms",
            ),
            line(7, 8, "wuzi", "depth 5-5 ev -29990 n 100 n/ms 1 tm 1 pv a1"),
            line(7, 9, "sparring", "Depth 9-12 | Eval +M11 | Time 3ms | A2"),
        ]
        .concat();
        let batch = Batch {
            name: "b",
            sgf: &sgf,
            log: &log,
            odds: false,
        };
        let (positions, counts) = extract(&[batch], NAMES).expect("extract");
        assert_eq!(positions.len(), 1, "{positions:?}");
        let p = &positions[0];
        assert_eq!(p.id, "b:7:7");
        assert_eq!(p.game.as_deref(), Some("b:7"));
        assert_eq!(p.attacker, Attacker::Sparring);
        assert_eq!(p.to_move(), Color::White);
        assert_eq!((p.plies, p.source.as_str()), (15, "sparring:+M15"));
        assert_eq!(p.moves.len(), 7);
        // Game 7 is pair 3: held out.
        assert_eq!(p.split, Split::HeldOut);
        assert_eq!(counts[0].games, 1);
        assert_eq!(counts[0].sparring_wins, 1);
        // At time odds the sparring engine's wins are not taken.
        let odds = Batch {
            odds: true,
            ..batch
        };
        assert!(extract(&[odds], NAMES).expect("extract").0.is_empty());
    }

    #[test]
    fn a_win_wuzi_saw_first_gives_nothing() {
        let sgf = sgf(1, MOVES);
        let log = [
            line(1, 6, "wuzi", "depth 5-5 ev -29980 n 100 n/ms 1 tm 1 pv a1"),
            line(1, 7, "sparring", "Depth 9-12 | Eval +M19 | Time 3ms | A2"),
        ]
        .concat();
        let batch = Batch {
            name: "b",
            sgf: &sgf,
            log: &log,
            odds: false,
        };
        let (positions, counts) = extract(&[batch], NAMES).expect("extract");
        assert!(positions.is_empty());
        assert_eq!(counts[0].seen_first, 1);
    }

    #[test]
    fn wuzis_wins_earliest_first() {
        let sgf = sgf(2, MOVES);
        let log = [
            line(2, 7, "sparring", "Depth 9-12 | Eval -M12 | Time 3ms | A2"),
            line(2, 8, "wuzi", "depth 5-5 ev 29989 n 100 n/ms 1 tm 1 pv a1"),
            line(2, 10, "wuzi", "depth 5-5 ev 29991 n 100 n/ms 1 tm 1 pv a1"),
        ]
        .concat();
        let batch = Batch {
            name: "b",
            sgf: &sgf,
            log: &log,
            odds: true,
        };
        let (positions, _) = extract(&[batch], NAMES).expect("extract");
        assert_eq!(positions.len(), 1);
        let p = &positions[0];
        assert_eq!((p.id.as_str(), p.attacker), ("b:2:8", Attacker::Wuzi));
        assert_eq!((p.plies, p.source.as_str()), (11, "sparring:-M12"));
        assert_eq!(p.split, Split::Train);
        // Without the sparring engine's line, wuzi's own at the same position.
        let log = line(2, 8, "wuzi", "depth 5-5 ev 29989 n 100 n/ms 1 tm 1 pv a1");
        let batch = Batch { log: &log, ..batch };
        let (positions, _) = extract(&[batch], NAMES).expect("extract");
        assert_eq!(positions[0].source, "wuzi:+M11");
    }

    #[test]
    fn records_that_disagree_are_errors() {
        let sgf = sgf(1, "h8i9");
        // Move 5 is past the end of the game.
        let log = line(1, 5, "sparring", "Depth 9-12 | Eval +M9 | Time 3ms | A2");
        let batch = Batch {
            name: "b",
            sgf: &sgf,
            log: &log,
            odds: false,
        };
        assert!(extract(&[batch], NAMES).is_err());
        // Game numbers count from 1.
        let zero = sgf.replace("GN[1]", "GN[0]");
        let no_log = Batch { log: "", ..batch };
        assert!(extract(&[no_log], NAMES).is_ok());
        let bad_number = Batch {
            sgf: &zero,
            ..no_log
        };
        assert!(extract(&[bad_number], NAMES).is_err());
        let bad_name = Batch {
            name: "a:b",
            log: "",
            ..batch
        };
        assert!(extract(&[bad_name], NAMES).is_err());
    }
}
