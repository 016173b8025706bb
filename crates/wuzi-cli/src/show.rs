//! `wuzi show`: its arguments, reading the input, and writing the picture. Reading the
//! records and drawing are `wuzi_show`; a tournament's results file is read by
//! `wuzi_match::results`.
//!
//! Exit status of [`run`]: 0 the picture was written, 2 bad input (a message on standard
//! error; nothing here panics on user input).

use clap::Args;
use std::path::{Path, PathBuf};
use wuzi_core::notation::parse_moves;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_match::results::parse_results;
use wuzi_show::{read_game, svg, Game, Picture};

use crate::args::parse_size;

#[derive(Args, Debug, Clone)]
#[command(
    after_help = "INPUT is a move list (h8 i9 j10, or run together) or a file: an SGF record \
(a collection; --game picks one), a piskvork .psq file, a tournament's results file (--game \
picks the game by its number), or a file holding a move list."
)]
pub struct ShowArgs {
    /// A move list or a file (SGF, .psq, results file, move list).
    #[arg(value_name = "INPUT")]
    pub input: String,
    /// Write the SVG here (default: standard output).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Which game of an SGF collection or results file (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
    /// Board size for a move list: N or WxH.
    #[arg(long, value_name = "N|WxH", default_value = "15", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Rule for a move list (and a .psq file that names none).
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Draw the position after this many moves.
    #[arg(long, value_name = "N")]
    pub upto: Option<usize>,
    /// Mark renju Black's forbidden points.
    #[arg(long)]
    pub forbidden: bool,
    /// A variation to draw as numbered ghost stones from the position shown.
    #[arg(long, value_name = "MOVES")]
    pub pv: Option<String>,
    /// No move numbers on the stones.
    #[arg(long)]
    pub no_numbers: bool,
}

/// The game the input names.
fn load(args: &ShowArgs) -> Result<Game, String> {
    let path = Path::new(&args.input);
    let text = if path.is_file() {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", args.input))?
    } else {
        args.input.clone()
    };
    if text.starts_with("# wuzi results") {
        let read = parse_results(&text);
        let g = read
            .games
            .into_iter()
            .find(|g| g.index + 1 == args.game)
            .ok_or_else(|| format!("{}: there is no game {}", args.input, args.game))?;
        let title = match g.winner_name() {
            Some(w) => format!(
                "game {}: {} (black) vs {} (white), {w} wins ({})",
                args.game, g.black, g.white, g.reason
            ),
            None => format!(
                "game {}: {} (black) vs {} (white), draw ({})",
                args.game, g.black, g.white, g.reason
            ),
        };
        let mut game = Game::new(g.width, g.height, g.rule, g.moves);
        game.opening_len = g.opening_len;
        game.title = Some(title);
        return Ok(game);
    }
    read_game(&text, args.size, args.rule, args.game).map_err(|e| e.to_string())
}

/// Writes `text` to `out`, or to standard output.
pub fn write_out(out: Option<&Path>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

/// Runs `wuzi show`; returns the exit status.
pub fn run(args: &ShowArgs) -> u8 {
    let drawn = load(args).and_then(|game| {
        let mut picture = Picture::of(game);
        picture.upto = args.upto;
        picture.forbidden = args.forbidden;
        picture.numbers = !args.no_numbers;
        if let Some(pv) = &args.pv {
            picture.pv = parse_moves(pv).map_err(|e| e.to_string())?;
        }
        svg(&picture).map_err(|e| e.to_string())
    });
    match drawn.and_then(|text| write_out(args.out.as_deref(), &text)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("wuzi show: {e}");
            2
        }
    }
}

/// A position on a board (as `wuzi solve` reads it) with a line from it, as a picture: the
/// stones as a game when they alternate from Black, else as a diagram.
pub fn position_svg(board: &Board, line: &[Point], first: Color) -> Result<String, String> {
    let history = board.history();
    let alternates = history
        .iter()
        .enumerate()
        .all(|(i, (c, _))| (*c == Color::Black) == (i % 2 == 0));
    let mut game = Game::new(board.width(), board.height(), board.rule(), Vec::new());
    if alternates {
        game.moves = history.iter().map(|&(_, p)| p).collect();
    } else {
        game.setup = history;
    }
    let mut picture = Picture::of(game);
    picture.pv = line.to_vec();
    picture.pv_first = Some(first);
    svg(&picture).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> ShowArgs {
        crate::parse_test_args("show", list)
    }

    #[test]
    fn reads_a_results_file_game() {
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "show");
        let path = dir.join("results.txt");
        std::fs::write(
            &path,
            "# wuzi results 1: header\n1\ta\tb\t1-0\tfive\t15x15\tfreestyle\t1\th8i9j10\n2\tb\ta\t1/2\tfull-board\t9x9\trenju\t0\ta1\n",
        )
        .expect("write");
        let p = path.display().to_string();
        let g = load(&args(&[&p, "--game", "2"])).expect("game 2");
        assert_eq!((g.width, g.rule, g.moves.len()), (9, Rule::Renju, 1));
        assert!(load(&args(&[&p, "--game", "3"])).is_err());
        let out = dir.join("g1.svg");
        let o = out.display().to_string();
        assert_eq!(run(&args(&[&p, "-o", &o, "--forbidden"])), 0);
        let text = std::fs::read_to_string(&out).expect("written");
        assert_eq!(text.matches("class=\"stone\"").count(), 3);
        assert!(text.contains("a (black) vs b (white), a wins (five)"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            vec!["h8h8"],
            vec!["zz99"],
            vec!["h8", "--pv", "h8"],
            vec!["x"],
        ] {
            assert_eq!(run(&args(&bad)), 2, "{bad:?}");
        }
    }
}
