//! Play hare and wolves against the computer in the terminal.
//!
//! ```text
//! cargo run -p wuzi-textbook --example hare_and_wolves -- --depth 8 --side hare
//! ```
//!
//! `--side` is the side *you* play (the hare moves first); `--depth` is how
//! many plies the computer's alpha-beta search looks ahead. Type moves as
//! `e1-d2`, `e1 d2` or just the destination `d2`; `moves` lists the legal
//! ones, `quit` (or end of input) leaves.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use wuzi_textbook::hare_wolves::{HareWolves, Side};
use wuzi_textbook::{alphabeta, Cutoff, Depth, Game};

const USAGE: &str = "usage: hare_and_wolves [--depth N] [--side hare|wolves]
  --depth N     plies the computer searches, 1 to 30 (default 8)
  --side SIDE   the side you play: hare (moves first) or wolves (default hare)";

struct Options {
    depth: u32,
    human: Side,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        depth: 8,
        human: Side::Hare,
    };
    while let Some(arg) = args.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((name, value)) => (name.to_string(), Some(value.to_string())),
            None => (arg, None),
        };
        match name.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--depth" | "--side" => {
                let value = inline
                    .or_else(|| args.next())
                    .ok_or_else(|| format!("{name} needs a value"))?;
                if name == "--depth" {
                    options.depth = match value.parse::<u32>() {
                        Ok(depth @ 1..=30) => depth,
                        _ => {
                            return Err(format!(
                                "--depth must be a number from 1 to 30, not '{value}'"
                            ))
                        }
                    };
                } else {
                    options.human = match value.to_ascii_lowercase().as_str() {
                        "hare" => Side::Hare,
                        "wolves" | "wolf" => Side::Wolves,
                        _ => return Err(format!("--side must be hare or wolves, not '{value}'")),
                    };
                }
            }
            _ => return Err(format!("unknown argument '{name}'")),
        }
    }
    Ok(options)
}

fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) if message.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("hare_and_wolves: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match play(&options, &mut io::stdin().lock(), &mut io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        // The terminal went away (say, output piped into `head`): nothing to say.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hare_and_wolves: {e}");
            ExitCode::FAILURE
        }
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Hare => "hare",
        Side::Wolves => "wolves",
    }
}

/// "The hare plays", "the wolves play".
fn verb(side: Side, plural: &'static str) -> String {
    match side {
        Side::Hare => format!("{plural}s"),
        Side::Wolves => plural.to_string(),
    }
}

fn play(options: &Options, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
    let mut game = HareWolves::standard();
    writeln!(
        out,
        "You play the {}; the computer searches {} plies. Type 'help' for help.",
        side_name(options.human),
        options.depth
    )?;
    loop {
        writeln!(out, "\n{game}\n")?;
        if let Some(winner) = game.winner() {
            let verdict = if winner == options.human {
                "You win"
            } else {
                "The computer wins"
            };
            let win = verb(winner, "win");
            writeln!(out, "The {} {win}. {verdict}.", side_name(winner))?;
            return Ok(());
        }
        if game.side_to_move() == options.human {
            match read_move(&game, input, out)? {
                Some(mv) => game.play(mv),
                None => {
                    writeln!(out, "Bye.")?;
                    return Ok(());
                }
            }
        } else {
            let result = alphabeta(&mut game, Depth::Plies(options.depth), Cutoff::default());
            // A position that is not over always has a move; take the first
            // legal one should the search ever come back without one.
            let Some(mv) = result
                .best_move
                .or_else(|| game.legal_moves().first().copied())
            else {
                return Ok(());
            };
            writeln!(
                out,
                "The {} {} {mv} (value {}, {} positions searched).",
                side_name(game.side_to_move()),
                verb(game.side_to_move(), "play"),
                result.value,
                result.nodes
            )?;
            game.play(mv);
        }
    }
}

/// Asks until the person types a legal move; `None` when they leave.
fn read_move(
    game: &HareWolves,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> io::Result<Option<wuzi_textbook::hare_wolves::HwMove>> {
    let mut line = Vec::new();
    loop {
        write!(out, "Your move ({}): ", side_name(game.side_to_move()))?;
        out.flush()?;
        line.clear();
        // Bytes, not a String: input that is not UTF-8 gets a message rather
        // than an error that would end the game.
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&line);
        let command = text.trim().to_ascii_lowercase();
        match command.as_str() {
            "quit" | "exit" | "q" => return Ok(None),
            "help" | "?" => writeln!(
                out,
                "Type a move as e1-d2, e1 d2 or just d2 (when only one piece can go there).\n\
                 'moves' lists the legal moves, 'quit' leaves."
            )?,
            "moves" => {
                let moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
                writeln!(out, "Legal moves: {}", moves.join(" "))?;
            }
            _ => match game.parse_move(&command) {
                Ok(mv) => return Ok(Some(mv)),
                Err(e) => writeln!(out, "{e}")?,
            },
        }
    }
}
