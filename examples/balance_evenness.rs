//! How even the balance search's answers are, judged by another engine.
//!
//! For each opening of a suite (and for its first three stones), the engine under test
//! answers its best move (`YXNBEST 1`), its balanced move (`YXBALANCEONE 0`), its best move
//! and then the other side's best answer (`YXNBEST 1` twice: the pair a balanced pair is to
//! be compared with) and its balanced pair (`YXBALANCETWO 0`); a judge engine then searches
//! each resulting position and reports its win rate for the side to move (`INFO show_detail
//! 2`, the detail block's `WINRATE`). Printed: each position's win rates for the side that
//! played last, and the mean distance from an even game (0.5) of each kind of answer. Used
//! for the figures in `docs/analysis.md`:
//!
//! ```sh
//! cargo build --release --bins --example balance_evenness
//! target/release/examples/balance_evenness target/release/pbrain-wuzi PATH/TO/JUDGE \
//!     data/openings/freestyle15-gomocup2025.txt 2000 1000
//! ```
//!
//! Arguments: the engine, the judge, the suite, the engine's time per answer and the judge's
//! time per position (ms). Freestyle, 15x15. In place of the suite, `random:N:SEED` takes N
//! random openings instead: 3 to 6 stones, alternately from Black, on random points within
//! three of the centre (from the project's seeded generator), positions the best move often
//! leaves lopsided.

use std::path::Path;
use std::time::Duration;

use wuzi_core::{Board, Point, Rule};
use wuzi_protocol::Reply;
use wuzi_testkit::engine::Engine;

fn send_board(e: &mut Engine, board: &Board) {
    e.send("YXBOARD");
    for (color, p) in board.history() {
        let f = if color == wuzi_core::Color::Black {
            1
        } else {
            2
        };
        e.send(&format!("{},{},{f}", p.x, p.y));
    }
    e.send("DONE");
}

/// The moves of the engine's reply to `command` on `board`.
fn ask_moves(e: &mut Engine, board: &Board, command: &str) -> Vec<Point> {
    send_board(e, board);
    e.send(command);
    let reply = e.reply();
    match Reply::parse(&reply) {
        Ok(Reply::Move(c)) => vec![Point::new(c.x as u8, c.y as u8)],
        Ok(Reply::Moves(cs)) => cs
            .iter()
            .map(|c| Point::new(c.x as u8, c.y as u8))
            .collect(),
        _ => e.fail(&format!("{command}: {reply:?}")),
    }
}

/// The judge's win rate, after its search of `board`, for the side that played last.
fn judged(judge: &mut Engine, board: &Board, time: Duration) -> f64 {
    send_board(judge, board);
    judge.send("YXNBEST 1");
    let mut winrate = None;
    let deadline = std::time::Instant::now() + time * 5 + Duration::from_secs(10);
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let Some(line) = judge.line_within(left) else {
            judge.fail("the judge did not answer");
        };
        if let Some(w) = line.strip_prefix("INFO WINRATE ") {
            winrate = w.trim().parse::<f64>().ok();
        } else if !line.starts_with("INFO ") && !line.starts_with("MESSAGE ") {
            break;
        }
    }
    1.0 - winrate.unwrap_or_else(|| judge.fail("no WINRATE line"))
}

/// The positions: each opening of a suite and its first three stones, or random openings.
fn positions(arg: &str) -> Vec<Board> {
    let empty = || Board::new(15, 15, Rule::Freestyle).expect("board");
    if let Some(spec) = arg.strip_prefix("random:") {
        let (n, seed) = spec.split_once(':').unwrap_or((spec, "1"));
        let (n, seed): (usize, u64) = (n.parse().unwrap_or(24), seed.parse().unwrap_or(1));
        let mut rng = wuzi_core::rng::Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut board = empty();
            let stones = 3 + rng.below(4);
            while board.move_count() < stones {
                let p = Point::new(4 + rng.below(7) as u8, 4 + rng.below(7) as u8);
                if board.is_empty_at(p) {
                    board.play(p).expect("a free point");
                }
            }
            out.push(board);
        }
        return out;
    }
    let suite = wuzi_match::opening::load_suite(Path::new(arg)).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2);
    });
    let mut out = Vec::new();
    for opening in &suite {
        let Ok(points) = opening.points(15, 15, Rule::Freestyle) else {
            continue;
        };
        for stones in [points.len(), 3] {
            let mut board = empty();
            for &p in points.iter().take(stones) {
                board.play(p).expect("opening move");
            }
            out.push(board);
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() != 5 {
        eprintln!("usage: balance_evenness ENGINE JUDGE SUITE ENGINE_MS JUDGE_MS");
        std::process::exit(2);
    }
    let ms = |s: &str| Duration::from_millis(s.parse().unwrap_or(1000));
    let (engine_time, judge_time) = (ms(&args[3]), ms(&args[4]));
    let positions = positions(&args[2]);
    let mut engine = Engine::spawn_program(Path::new(&args[0]), "\n");
    let mut judge = Engine::spawn_program(Path::new(&args[1]), "\n");
    engine.send(&format!("INFO timeout_turn {}", engine_time.as_millis()));
    engine.send("INFO show_detail 0");
    judge.send(&format!("INFO timeout_turn {}", judge_time.as_millis()));
    judge.send("INFO show_detail 2");
    for e in [&mut engine, &mut judge] {
        if e.ask("START 15") != "OK" {
            e.fail("START refused");
        }
    }
    let mut sums = [0.0f64; 4];
    let mut n = 0;
    println!("position\tstones\tbest\tbalanced one\tbest pair\tbalanced two");
    for (i, board) in positions.iter().enumerate() {
        {
            let stones = board.move_count();
            let mut rates = [0.0; 4];
            for (k, commands) in [
                &["YXNBEST 1"][..],
                &["YXBALANCEONE 0"],
                &["YXNBEST 1", "YXNBEST 1"],
                &["YXBALANCETWO 0"],
            ]
            .iter()
            .enumerate()
            {
                let mut after = board.clone();
                for command in *commands {
                    for p in ask_moves(&mut engine, &after, command) {
                        after.play(p).expect("a legal answer");
                    }
                }
                rates[k] = judged(&mut judge, &after, judge_time);
                sums[k] += (rates[k] - 0.5).abs();
            }
            n += 1;
            println!(
                "{}\t{stones}\t{:.3}\t{:.3}\t{:.3}\t{:.3}",
                i + 1,
                rates[0],
                rates[1],
                rates[2],
                rates[3]
            );
        }
    }
    let n = f64::from(n.max(1));
    println!(
        "mean |win rate - 0.5| over {n} positions: best {:.3}, balanced one {:.3}, \
         best pair {:.3}, balanced two {:.3}",
        sums[0] / n,
        sums[1] / n,
        sums[2] / n,
        sums[3] / n
    );
    engine.send("END");
    judge.send("END");
}
