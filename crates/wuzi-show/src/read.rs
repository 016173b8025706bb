//! Reading a game from the records the match runner writes, and from plain move lists.
//!
//! - SGF (`GM[4]`): `SZ[n]` or `SZ[w:h]`, `RU[...]` (a rule name or Gomocup code; other
//!   values are ignored), `PB`, `PW`, `RE`, and `;B[..]`/`;W[..]` moves as SGF points (column
//!   then row letter, `a`..`z` then `A`..`Z`). A collection holds several game trees; one is
//!   picked by number.
//! - piskvork `.psq`: the header `Piskvorky WxH, ...`, then `x,y[,ms]` lines with 1-based
//!   coordinates up to the first line that is not one; a later `rule: NAME` line (the match
//!   runner writes one) sets the rule.
//! - a move list in letter-number notation (`h8 i9 j10` or `h8i9j10`).
//!
//! [`read_game`] tells the three apart by their first characters.

use wuzi_core::notation::parse_moves;
use wuzi_core::{Point, Rule};

use crate::error::ShowError;
use crate::game::Game;

fn bad(what: impl Into<String>) -> ShowError {
    ShowError::Read(what.into())
}

/// Reads any of the three forms. `size` and `rule` are used where the text does not give
/// them (a move list; a `.psq` without a rule line); `game` picks a game of an SGF collection
/// (1-based).
pub fn read_game(
    text: &str,
    size: (usize, usize),
    rule: Rule,
    game: usize,
) -> Result<Game, ShowError> {
    let t = trimmed(text);
    if t.starts_with('(') {
        read_sgf(t, game)
    } else if t.starts_with("Piskvorky") {
        read_psq(t, rule)
    } else {
        let moves = parse_moves(t).map_err(|e| bad(e.to_string()))?;
        let g = Game::new(size.0, size.1, rule, moves);
        g.replay(None)?;
        Ok(g)
    }
}

/// The text without a byte-order mark and leading white space (an SGF text then starts with
/// its first game tree).
fn trimmed(text: &str) -> &str {
    text.trim_start_matches('\u{feff}').trim_start()
}

/// The number of games [`read_game`] can read from a text: the game trees of an SGF
/// collection, one for the other forms.
pub fn game_count(text: &str) -> usize {
    let t = trimmed(text);
    if t.starts_with('(') {
        sgf_game_count(t)
    } else {
        1
    }
}

/// Every game [`read_game`] can read from a text, in order: the trees of an SGF collection
/// (the collection is split once, so reading all of a large one stays linear), or the one
/// game of the other forms.
pub fn read_games(text: &str, size: (usize, usize), rule: Rule) -> Result<Vec<Game>, ShowError> {
    let t = trimmed(text);
    if t.starts_with('(') {
        game_trees(t)
            .into_iter()
            .map(|tree| read_sgf(tree, 1))
            .collect()
    } else {
        Ok(vec![read_game(t, size, rule, 1)?])
    }
}

/// The value of an SGF property in one game tree: the text between the brackets after `key`
/// (escapes undone).
fn property(tree: &str, key: &str) -> Option<String> {
    let bytes = tree.as_bytes();
    let mut from = 0;
    while let Some(at) = tree[from..].find(key).map(|i| i + from) {
        let before_ok = at == 0 || !bytes[at - 1].is_ascii_uppercase();
        let after = at + key.len();
        if before_ok && bytes.get(after) == Some(&b'[') {
            let mut value = String::new();
            let mut chars = tree[after + 1..].chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    ']' => return Some(value),
                    c => value.push(c),
                }
            }
            return None;
        }
        from = after;
    }
    None
}

/// Splits a collection into its game trees (the text of each, brackets included).
/// Game tree `game` (1-based) of an SGF collection.
fn nth_game_tree(text: &str, game: usize) -> Result<&str, ShowError> {
    let trees = game_trees(text);
    game.checked_sub(1)
        .and_then(|i| trees.get(i).copied())
        .ok_or(ShowError::NoSuchGame {
            wanted: game,
            found: trees.len(),
        })
}

fn game_trees(text: &str) -> Vec<&str> {
    let mut trees = Vec::new();
    let (mut depth, mut start, mut in_value, mut escaped) = (0usize, 0usize, false, false);
    for (i, c) in text.char_indices() {
        if in_value {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            '[' => in_value = true,
            '(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    trees.push(&text[start..=i]);
                }
            }
            _ => {}
        }
    }
    trees
}

fn sgf_coord(c: u8) -> Option<u8> {
    match c {
        b'a'..=b'z' => Some(c - b'a'),
        b'A'..=b'Z' => Some(c - b'A' + 26),
        _ => None,
    }
}

/// The number of game trees in an SGF collection.
pub fn sgf_game_count(text: &str) -> usize {
    game_trees(text).len()
}

/// The value of property `key` (`GN`, `PB`, `RE`, ...) of game `game` (1-based) of an SGF
/// collection, escapes undone; `Ok(None)` when the game lacks it.
pub fn sgf_property(text: &str, game: usize, key: &str) -> Result<Option<String>, ShowError> {
    let tree = nth_game_tree(text, game)?;
    Ok(property(tree, key))
}

/// Reads game `game` (1-based) of an SGF collection.
pub fn read_sgf(text: &str, game: usize) -> Result<Game, ShowError> {
    let tree = nth_game_tree(text, game)?;
    let (width, height) = match property(tree, "SZ") {
        Some(v) => {
            let parse = |s: &str| {
                s.trim()
                    .parse::<usize>()
                    .map_err(|_| bad(format!("SZ[{v}]")))
            };
            match v.split_once(':') {
                Some((w, h)) => (parse(w)?, parse(h)?),
                None => (parse(&v)?, parse(&v)?),
            }
        }
        None => (15, 15),
    };
    let rule = property(tree, "RU")
        .and_then(|r| {
            r.trim()
                .parse::<Rule>()
                .ok()
                .or_else(|| r.trim().parse::<u32>().ok().and_then(Rule::from_gomocup))
        })
        .unwrap_or(Rule::Freestyle);
    let mut moves = Vec::new();
    for (i, _) in tree.match_indices(['B', 'W']) {
        let bytes = tree.as_bytes();
        let node_start = i > 0 && bytes[i - 1] == b';';
        if !node_start || bytes.get(i + 1) != Some(&b'[') {
            continue;
        }
        let value = bytes.get(i + 2..i + 4).unwrap_or(&[]);
        let closes = bytes.get(i + 4) == Some(&b']');
        match (value, closes) {
            ([x, y], true) => {
                let (Some(x), Some(y)) = (sgf_coord(*x), sgf_coord(*y)) else {
                    return Err(bad(format!("bad SGF point at byte {i}")));
                };
                moves.push(Point::new(x, y));
            }
            _ => return Err(bad(format!("bad SGF move at byte {i}"))),
        }
    }
    let title = match (property(tree, "PB"), property(tree, "PW")) {
        (Some(b), Some(w)) => {
            let result = property(tree, "RE").map_or(String::new(), |r| format!(", {r}"));
            Some(format!("{b} (black) vs {w} (white){result}"))
        }
        _ => None,
    };
    Game::recorded(width, height, rule, moves, title)
}

/// Reads a piskvork `.psq` file; `rule` unless the file names one.
pub fn read_psq(text: &str, rule: Rule) -> Result<Game, ShowError> {
    let mut lines = text.lines();
    let header = lines.next().unwrap_or_default();
    let size = header
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.trim().split(',').next())
        .and_then(|s| {
            let (w, h) = s.trim().split_once(['x', 'X'])?;
            Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
        })
        .ok_or_else(|| bad(format!("the header \"{header}\" gives no size WxH")))?;
    let mut moves = Vec::new();
    let mut rest = Vec::new();
    let mut in_moves = true;
    for line in lines {
        let numbers: Option<Vec<u32>> = line.split(',').map(|f| f.trim().parse().ok()).collect();
        match numbers.as_deref() {
            Some([x, y, ..]) if in_moves && *x >= 1 && *y >= 1 && *x <= 256 && *y <= 256 => {
                moves.push(Point::new((x - 1) as u8, (y - 1) as u8));
            }
            _ => {
                in_moves = false;
                rest.push(line);
            }
        }
    }
    let rule = rest
        .iter()
        .find_map(|l| l.strip_prefix("rule:"))
        .and_then(|r| r.trim().parse::<Rule>().ok())
        .unwrap_or(rule);
    let names: Vec<&str> = rest.iter().take(2).map(|s| s.trim()).collect();
    let title = match names[..] {
        [b, w] if !b.is_empty() && !w.is_empty() && b != "-1" && w != "-1" => {
            let result = rest
                .iter()
                .find_map(|l| l.strip_prefix("result:"))
                .map_or(String::new(), |r| format!(", {}", r.trim()));
            Some(format!("{b} (black) vs {w} (white){result}"))
        }
        _ => None,
    };
    Game::recorded(size.0, size.1, rule, moves, title)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_collections_and_properties() {
        let text = "(;GM[4]SZ[15]RU[renju]PB[a\\]b]PW[c]RE[B+];B[hh];W[ih]\n;B[ii])\n(;GM[4]SZ[20:15]GC[a (comment) ;B\\[xx\\] here];B[aa];W[ta])";
        let g = read_sgf(text, 1).expect("first");
        assert_eq!((g.width, g.rule), (15, Rule::Renju));
        assert_eq!(
            g.moves,
            vec![Point::new(7, 7), Point::new(8, 7), Point::new(8, 8)]
        );
        assert_eq!(g.title.as_deref(), Some("a]b (black) vs c (white), B+"));
        let g = read_sgf(text, 2).expect("second");
        assert_eq!((g.width, g.height), (20, 15));
        assert_eq!(g.moves, vec![Point::new(0, 0), Point::new(19, 0)]);
        assert_eq!(
            read_sgf(text, 3),
            Err(ShowError::NoSuchGame {
                wanted: 3,
                found: 2
            })
        );
    }

    #[test]
    fn game_count_of_every_form() {
        let collection = "(;GM[4];B[hh])(;GM[4];B[aa])";
        assert_eq!(game_count(collection), 2);
        assert_eq!(game_count(&format!("\u{feff}\n  {collection}")), 2);
        assert_eq!(game_count("h8 i9 j10"), 1);
        assert_eq!(game_count("Piskvorky 15x15, 11:11, 0\n8,8,0\n"), 1);
    }

    #[test]
    fn read_games_reads_each_game_as_read_game_does() {
        let collection = "(;GM[4];B[hh];W[ii])\n(;GM[4]SZ[20];B[aa])";
        let all = read_games(collection, (15, 15), Rule::Freestyle).unwrap();
        assert_eq!(all.len(), 2);
        for (i, g) in all.iter().enumerate() {
            let one = read_game(collection, (15, 15), Rule::Freestyle, i + 1).unwrap();
            assert_eq!(g.moves, one.moves);
            assert_eq!((g.width, g.height), (one.width, one.height));
        }
        let list = read_games("h8 i9", (15, 15), Rule::Freestyle).unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].moves.len(), 2);
    }

    #[test]
    fn sgf_properties_by_game() {
        let text = "(;GM[4]GN[7]PB[a\\]b];B[hh])(;GM[4]GN[8];B[aa])";
        assert_eq!(sgf_game_count(text), 2);
        assert_eq!(sgf_game_count("no game"), 0);
        assert_eq!(sgf_property(text, 1, "GN"), Ok(Some("7".into())));
        assert_eq!(sgf_property(text, 1, "PB"), Ok(Some("a]b".into())));
        assert_eq!(sgf_property(text, 2, "GN"), Ok(Some("8".into())));
        assert_eq!(sgf_property(text, 2, "PB"), Ok(None));
        assert!(sgf_property(text, 3, "GN").is_err());
        assert!(sgf_property(text, 0, "GN").is_err());
    }

    #[test]
    fn psq_files() {
        let text =
            "Piskvorky 20x15, 11:11, 0\n8,8,0\n9,8,120\nbe]ta\nalpha\n-1\nresult: x\nrule: renju\n";
        let g = read_psq(text, Rule::Freestyle).expect("reads");
        assert_eq!((g.width, g.height, g.rule), (20, 15, Rule::Renju));
        assert_eq!(g.moves, vec![Point::new(7, 7), Point::new(8, 7)]);
        assert_eq!(
            g.title.as_deref(),
            Some("be]ta (black) vs alpha (white), x")
        );
    }

    #[test]
    fn move_lists_are_checked() {
        let g = read_game("h8 i9 j10", (15, 15), Rule::Standard, 1).expect("reads");
        assert_eq!(g.moves.len(), 3);
        assert!(matches!(
            read_game("h8 h8", (15, 15), Rule::Standard, 1),
            Err(ShowError::BadMove { number: 2, .. })
        ));
        assert!(read_game("z26", (15, 15), Rule::Standard, 1).is_err());
        assert!(read_game("hello", (15, 15), Rule::Standard, 1).is_err());
        assert!(read_game("Piskvorky", (15, 15), Rule::Standard, 1).is_err());
    }
}
