//! Writing a game as the records that `read` reads back: an SGF game tree (`GM[4]`) and a
//! piskvork `.psq` file. What a record holds beyond the moves (the players' names, the
//! result) is given by [`RecordInfo`].
//!
//! Invariant: for a game without setup stones, `read_sgf(&sgf(game, info)?, 1)` and
//! `read_psq(&psq(game, info)?, rule)` give back its size, rule and moves. A game with setup
//! stones is refused: neither reader reads setup stones, so writing them would make a record
//! that does not read back as the same position.

use wuzi_core::Point;

use crate::error::ShowError;
use crate::game::Game;

/// What a record says about a game besides its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordInfo {
    /// The players of Black and White.
    pub black: Option<String>,
    pub white: Option<String>,
    /// The result as SGF's `RE` writes it: `B+`, `W+R` (resignation), `0` (a draw).
    pub result: Option<String>,
    /// The result in words, for the `.psq` file's `result:` line.
    pub result_words: Option<String>,
    /// The program that wrote the record (`AP`).
    pub application: Option<String>,
}

/// The SGF letter of a coordinate: `a`..`z`, then `A`..`Z` (boards up to 52 lines).
pub fn sgf_letter(v: u8) -> char {
    if v < 26 {
        char::from(b'a' + v)
    } else {
        char::from(b'A' + (v - 26).min(25))
    }
}

/// An SGF point: column letter, then row letter, from the top left.
pub fn sgf_point(p: Point) -> String {
    format!("{}{}", sgf_letter(p.x), sgf_letter(p.y))
}

/// Text for an SGF property value: `\` and `]` escaped.
pub fn sgf_text(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn no_setup(game: &Game, format: &str) -> Result<(), ShowError> {
    if game.setup.is_empty() {
        Ok(())
    } else {
        Err(ShowError::Write(format!(
            "a {format} record here holds moves only; this game has {} setup stones",
            game.setup.len()
        )))
    }
}

/// The game as one SGF game tree (a collection of one game).
pub fn sgf(game: &Game, info: &RecordInfo) -> Result<String, ShowError> {
    no_setup(game, "SGF")?;
    game.replay(None)?;
    let size = if game.width == game.height {
        game.width.to_string()
    } else {
        format!("{}:{}", game.width, game.height)
    };
    let mut s = format!("(;GM[4]FF[4]CA[UTF-8]SZ[{size}]RU[{}]", game.rule);
    if let Some(app) = &info.application {
        s.push_str(&format!("AP[{}]", sgf_text(app)));
    }
    for (key, value) in [
        ("PB", &info.black),
        ("PW", &info.white),
        ("RE", &info.result),
    ] {
        if let Some(v) = value {
            s.push_str(&format!("{key}[{}]", sgf_text(v)));
        }
    }
    s.push('\n');
    for (i, &p) in game.moves.iter().enumerate() {
        let side = if i % 2 == 0 { 'B' } else { 'W' };
        s.push_str(&format!(";{side}[{}]", sgf_point(p)));
        if (i + 1) % 16 == 0 {
            s.push('\n');
        }
    }
    s.push_str(")\n");
    Ok(s)
}

/// The game as a piskvork `.psq` file: the header, one `x,y,0` line per move (1-based), the
/// players' names, `-1`, then `result:` and `rule:` lines.
pub fn psq(game: &Game, info: &RecordInfo) -> Result<String, ShowError> {
    no_setup(game, "PSQ")?;
    game.replay(None)?;
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", game.width, game.height);
    for p in &game.moves {
        s.push_str(&format!("{},{},0\n", p.x as u32 + 1, p.y as u32 + 1));
    }
    let name = |n: &Option<String>| {
        n.as_deref()
            .map(|t| t.replace(['\n', '\r'], " "))
            .unwrap_or_else(|| "-".to_string())
    };
    s.push_str(&format!(
        "{}\n{}\n-1\n",
        name(&info.black),
        name(&info.white)
    ));
    if let Some(words) = &info.result_words {
        s.push_str(&format!("result: {}\n", words.replace(['\n', '\r'], " ")));
    }
    s.push_str(&format!("rule: {}\n", game.rule));
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::{read_psq, read_sgf};
    use wuzi_core::notation::parse_moves;
    use wuzi_core::{Color, Rule};

    fn game(rule: Rule, w: usize, h: usize, moves: &str) -> Game {
        let moves = parse_moves(moves).expect("moves");
        Game::new(w, h, rule, moves)
    }

    #[test]
    fn records_read_back_as_the_same_game() {
        let info = RecordInfo {
            black: Some("you".into()),
            white: Some("wu]zi".into()),
            result: Some("W+R".into()),
            result_words: Some("White wins: Black resigned".into()),
            application: Some("wuzi".into()),
        };
        for g in [
            game(Rule::Renju, 15, 15, "h8 i9 j10 i10 i8 g8"),
            game(Rule::CaroExact, 20, 15, "a1 t15 t1 a15 k8"),
            game(Rule::Freestyle, 32, 32, "A1 af32 ab27"),
            game(Rule::Standard, 15, 15, ""),
        ] {
            let text = sgf(&g, &info).expect("sgf");
            let back = read_sgf(&text, 1).expect("reads");
            assert_eq!(
                (back.width, back.height, back.rule, &back.moves),
                (g.width, g.height, g.rule, &g.moves),
                "{text}"
            );
            assert_eq!(
                back.title.as_deref(),
                Some("you (black) vs wu]zi (white), W+R")
            );
            let text = psq(&g, &info).expect("psq");
            let back = read_psq(&text, Rule::Freestyle).expect("reads");
            assert_eq!(
                (back.width, back.height, back.rule, &back.moves),
                (g.width, g.height, g.rule, &g.moves),
                "{text}"
            );
        }
    }

    #[test]
    fn setups_and_impossible_games_are_refused() {
        let mut g = game(Rule::Freestyle, 15, 15, "h8");
        g.setup.push((Color::White, wuzi_core::Point::new(0, 0)));
        assert!(matches!(
            sgf(&g, &RecordInfo::default()),
            Err(ShowError::Write(_))
        ));
        assert!(matches!(
            psq(&g, &RecordInfo::default()),
            Err(ShowError::Write(_))
        ));
        let twice = game(Rule::Freestyle, 15, 15, "h8 h8");
        assert!(matches!(
            sgf(&twice, &RecordInfo::default()),
            Err(ShowError::BadMove { number: 2, .. })
        ));
    }

    #[test]
    fn points_use_both_letter_cases() {
        assert_eq!(sgf_point(wuzi_core::Point::new(0, 25)), "az");
        assert_eq!(sgf_point(wuzi_core::Point::new(26, 31)), "AF");
    }
}
