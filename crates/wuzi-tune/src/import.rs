//! Positions from recorded games (SGF, PSQ, move lists; `wuzi_show::read_game` reads them),
//! so that games against other engines are training data too. An SGF text may be a
//! collection (`wuzi match --sgf` writes one): every game of it is read. A game counts only
//! if it ends in a five (its result is then known); every position of it that the evaluation
//! could be asked about is kept, without a search score, with the move the game played from
//! it.

use crate::datagen::evaluation_sees;
use crate::record::{Header, PieceKind, Record};
use crate::TuneError;
use wuzi_core::shard::Fingerprint;
use wuzi_core::{Color, Rule};

/// The header of the piece that holds the positions of these game texts: a data set named by
/// the board, the rule and the texts themselves (the same games imported twice are one data
/// set, refused twice); its game count is the games the texts hold.
pub fn header(texts: &[String], size: usize, rule: Rule) -> Header {
    let games: u64 = texts.iter().map(|t| wuzi_show::game_count(t) as u64).sum();
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
        games,
        first: 0,
        end: games,
        records: None,
        rule,
        size,
        seed: 0,
        nodes: 0,
    }
}

/// The positions of every game of a text (`wuzi_show::game_count` of them), each labelled by
/// its game's result.
pub fn positions_of_text(text: &str, size: usize, rule: Rule) -> Result<Vec<Record>, TuneError> {
    let games = wuzi_show::read_games(text, (size, size), rule)
        .map_err(|e| TuneError::Data(e.to_string()))?;
    let mut records = Vec::new();
    for game in &games {
        records.extend(positions_of(game)?);
    }
    Ok(records)
}

/// The positions of a game, labelled by its result; none if it has no winner.
fn positions_of(game: &wuzi_show::Game) -> Result<Vec<Record>, TuneError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Black makes five on the h file; White makes five on the b file.
    const BLACK_WINS: &str =
        "(;GM[4]FF[4]SZ[15];B[hh];W[ah];B[hi];W[ai];B[hj];W[aj];B[hk];W[ak];B[hl])";
    const WHITE_WINS: &str =
        "(;GM[4]FF[4]SZ[15];B[hh];W[bh];B[jj];W[bi];B[ll];W[bj];B[nn];W[bk];B[dd];W[bl])";

    #[test]
    fn every_game_of_a_collection_is_read() {
        let collection = format!("{BLACK_WINS}\n{WHITE_WINS}\n");
        let rule = Rule::Freestyle;
        assert_eq!(wuzi_show::game_count(&collection), 2);
        let first = positions_of_text(BLACK_WINS, 15, rule).unwrap();
        let second = positions_of_text(WHITE_WINS, 15, rule).unwrap();
        assert!(!first.is_empty() && !second.is_empty());
        let all = positions_of_text(&collection, 15, rule).unwrap();
        assert_eq!(all.len(), first.len() + second.len());
        assert_eq!(header(&[collection], 15, rule).games, 2);
    }

    #[test]
    fn each_game_is_labelled_by_its_own_result() {
        let rule = Rule::Freestyle;
        for (text, winner) in [(BLACK_WINS, Color::Black), (WHITE_WINS, Color::White)] {
            let records = positions_of_text(text, 15, rule).unwrap();
            assert!(!records.is_empty());
            for r in &records {
                assert_eq!(r.result, if r.side == winner { 2 } else { 0 });
            }
        }
    }

    #[test]
    fn a_move_list_is_one_game() {
        assert_eq!(wuzi_show::game_count("h8 a8 h9 a9 h10 a10 h11 a11 h12"), 1);
        let records = positions_of_text("h8 a8 h9 a9 h10 a10 h11 a11 h12", 15, Rule::Freestyle);
        assert!(!records.unwrap().is_empty());
    }
}
