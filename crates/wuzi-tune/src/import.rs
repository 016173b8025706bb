//! Positions from recorded games (SGF, PSQ, move lists; `wuzi_show::read_game` reads them),
//! so that games against other engines are training data too. A game counts only if it ends
//! in a five (its result is then known); every position of it that the evaluation could be
//! asked about is kept, without a search score, with the move the game played from it.

use crate::datagen::evaluation_sees;
use crate::record::{Header, PieceKind, Record};
use crate::TuneError;
use wuzi_core::shard::Fingerprint;
use wuzi_core::{Color, Rule};

/// The header of the piece that holds the positions of these game texts: a data set named by
/// the board, the rule and the texts themselves (the same games imported twice are one data
/// set, refused twice).
pub fn header(texts: &[String], size: usize, rule: Rule) -> Header {
    let mut f = Fingerprint::new("wuzi import 1");
    f.u64(u64::from(rule.gomocup_code()))
        .u64(size as u64)
        .u64(texts.len() as u64);
    for t in texts {
        f.str(t);
    }
    Header {
        kind: PieceKind::Import,
        fingerprint: f.finish(),
        games: texts.len() as u64,
        first: 0,
        end: texts.len() as u64,
        records: None,
        rule,
        size,
        seed: 0,
        nodes: 0,
    }
}

/// The positions of one game text, labelled by its result; none if it has no winner.
pub fn positions_of_game(
    text: &str,
    size: usize,
    rule: Rule,
    game: usize,
) -> Result<Vec<Record>, TuneError> {
    let game = wuzi_show::read_game(text, (size, size), rule, game)
        .map_err(|e| TuneError::Data(e.to_string()))?;
    let mut board = game
        .replay(Some(0))
        .map_err(|e| TuneError::Data(e.to_string()))?;
    let mut seen: Vec<(Record, Color)> = Vec::new();
    let mut winner = None;
    for &p in &game.moves {
        if evaluation_sees(&board) {
            let record = Record::of(&board, 1, None)?.with_best(p);
            seen.push((record, board.side_to_move()));
        }
        let mover = board.side_to_move();
        board.play(p).map_err(|e| TuneError::Data(e.to_string()))?;
        if board.winner().is_some() {
            winner = Some(mover);
            break;
        }
    }
    let Some(winner) = winner else {
        return Ok(Vec::new());
    };
    Ok(seen
        .into_iter()
        .map(|(mut r, side)| {
            r.result = if side == winner { 2 } else { 0 };
            r
        })
        .collect())
}
