//! Whole games over pipes: two engines play each other through the test, which acts as the
//! manager and keeps its own copy of the position. Under every rule, on 15x15, 20x20 and a
//! rectangular board, with CRLF and with LF, including BOARD set-ups, TAKEBACK, RESTART and
//! a SWAP2BOARD opening stage. Every engine move is checked: on the board, empty, not a renju
//! Black forbidden point, a five taken when there is one, the opponent's only five blocked.

mod protocol_support;

use protocol_support::{play_checked, Engine};
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::Reply;

struct Player {
    engine: Engine,
    color: Color,
    /// Whether the engine's position is the game's up to the opponent's last move.
    synced: bool,
}

#[derive(Clone, Copy)]
struct Game {
    width: usize,
    height: usize,
    rule: Rule,
    eol: &'static str,
    swap2: bool,
}

fn new_player(g: &Game) -> Player {
    let mut engine = Engine::spawn_with_eol(g.eol);
    engine.send(&format!("INFO rule {}", g.rule.gomocup_code()));
    engine.send("INFO timeout_turn 1000");
    engine.send("INFO max_depth 2");
    let start = if g.width == g.height {
        format!("START {}", g.width)
    } else {
        format!("RECTSTART {},{}", g.width, g.height)
    };
    assert_eq!(engine.ask(&start), "OK");
    Player {
        engine,
        color: Color::Black,
        synced: true,
    }
}

/// Checks the rules of play on an engine's move, then plays it.
fn check_and_play(e: &Engine, board: &mut Board, m: Point) {
    let us = board.side_to_move();
    let fives = board.five_points(us);
    if !fives.is_empty() {
        if !fives.contains(&m) {
            e.fail(&format!("{m} misses the win in one at {fives:?}"));
        }
    } else {
        // A five threatened at one legal point must be stopped: by a stone on it, or, in
        // caro, by one beyond it that leaves the five blocked at both ends.
        let threats = board.five_points(us.opponent());
        if threats.len() == 1 && board.clone().is_legal(threats[0]) && m != threats[0] {
            let mut after = board.clone();
            if after.play(m).is_err() || !after.five_points(us.opponent()).is_empty() {
                e.fail(&format!("{m} does not block the five at {}", threats[0]));
            }
        }
    }
    play_checked(e, board, m);
}

fn board_lines(board: &Board, me: Color) -> Vec<String> {
    board
        .history()
        .iter()
        .map(|(c, p)| format!("{},{},{}", p.x, p.y, if *c == me { 1 } else { 2 }))
        .collect()
}

fn ask_board(p: &mut Player, board: &Board) -> Point {
    p.engine.send("BOARD");
    for l in board_lines(board, p.color) {
        p.engine.send(&l);
    }
    p.engine.send("DONE");
    p.synced = true;
    p.engine.expect_move()
}

fn moves_of(e: &Engine, reply: &str) -> Option<Vec<Point>> {
    match Reply::parse(reply) {
        Ok(Reply::Swap) => None,
        Ok(Reply::Move(c)) => Some(vec![Point::new(c.x as u8, c.y as u8)]),
        Ok(Reply::Moves(cs)) => Some(
            cs.iter()
                .map(|c| Point::new(c.x as u8, c.y as u8))
                .collect(),
        ),
        _ => e.fail(&format!("bad swap2 answer {reply:?}")),
    }
}

fn swap2_stage(e: &mut Engine, stones: &[Point]) -> String {
    e.send("SWAP2BOARD");
    for p in stones {
        e.send(&format!("{},{}", p.x, p.y));
    }
    e.send("DONE");
    e.reply()
}

/// The swap2 opening between `a` (the opener) and `b`; sets the players' colours.
fn opening(players: &mut [Player; 2], board: &mut Board) {
    let reply = swap2_stage(&mut players[0].engine, &[]);
    let three = moves_of(&players[0].engine, &reply).unwrap_or_default();
    if three.len() != 3 {
        players[0]
            .engine
            .fail(&format!("0 stones need 3 moves, got {reply:?}"));
    }
    for p in &three {
        play_checked(&players[0].engine, board, *p);
    }
    let stones: Vec<Point> = board.history().iter().map(|(_, p)| *p).collect();
    let reply = swap2_stage(&mut players[1].engine, &stones);
    // b: SWAP takes Black; one move stays White; two moves hand the choice back.
    let b_black = match moves_of(&players[1].engine, &reply) {
        None => true,
        Some(m) if m.len() == 1 => {
            play_checked(&players[1].engine, board, m[0]);
            false
        }
        Some(m) if m.len() == 2 => {
            for p in &m {
                play_checked(&players[1].engine, board, *p);
            }
            let stones: Vec<Point> = board.history().iter().map(|(_, p)| *p).collect();
            let reply = swap2_stage(&mut players[0].engine, &stones);
            match moves_of(&players[0].engine, &reply) {
                None => false, // a takes Black
                Some(m) if m.len() == 1 => {
                    play_checked(&players[0].engine, board, m[0]);
                    true // a stays White
                }
                Some(_) => players[0].engine.fail(&format!("5 stones: {reply:?}")),
            }
        }
        Some(_) => players[1].engine.fail(&format!("3 stones: {reply:?}")),
    };
    players[1].color = if b_black { Color::Black } else { Color::White };
    players[0].color = players[1].color.opponent();
    // Neither engine's position need match the game now: both get the next one by BOARD.
    players[0].synced = false;
    players[1].synced = false;
}

fn play_game(g: Game) {
    let mut players = [new_player(&g), new_player(&g)];
    players[1].color = Color::White;
    let mut board = Board::new(g.width, g.height, g.rule).unwrap();
    if g.swap2 {
        opening(&mut players, &mut board);
    }
    let mut last: Option<Point> = None;
    let mut exercised_takeback = false;
    loop {
        let to_move = board.side_to_move();
        let i = usize::from(players[1].color == to_move);
        let p = &mut players[i];
        let ply = board.move_count();
        let m = if !p.synced || ply == 12 {
            ask_board(p, &board)
        } else if let Some(l) = last {
            p.engine.send(&format!("TURN {},{}", l.x, l.y));
            let r = p.engine.expect_move();
            if ply >= 16 && !exercised_takeback {
                // Take back the answer and the opponent's move, then replay the turn.
                exercised_takeback = true;
                assert_eq!(p.engine.ask(&format!("TAKEBACK {},{}", r.x, r.y)), "OK");
                assert_eq!(p.engine.ask(&format!("TAKEBACK {},{}", l.x, l.y)), "OK");
                p.engine.send(&format!("TURN {},{}", l.x, l.y));
                p.engine.expect_move()
            } else {
                r
            }
        } else {
            p.engine.send("BEGIN");
            p.engine.expect_move()
        };
        check_and_play(&p.engine, &mut board, m);
        if board.winner().is_some() || board.is_full() {
            break;
        }
        last = Some(m);
    }
    // After RESTART both boards are empty: an old stone can no longer be taken back, and a
    // new game starts.
    let any_stone = board.history()[0].1;
    for p in players.iter_mut() {
        assert_eq!(p.engine.ask("RESTART"), "OK");
        p.engine
            .expect_error(&format!("TAKEBACK {},{}", any_stone.x, any_stone.y));
        p.engine.send("BEGIN");
        let m = p.engine.expect_move();
        play_checked(
            &p.engine,
            &mut Board::new(g.width, g.height, g.rule).unwrap(),
            m,
        );
        p.engine.send("END");
        assert!(p.engine.exit_within(protocol_support::PROMPT).is_some());
    }
}

fn games_under(rule: Rule) {
    for (width, height, eol, swap2) in [
        (15, 15, "\r\n", false),
        (20, 20, "\n", true),
        (20, 14, "\r\n", true),
        (11, 17, "\n", false),
    ] {
        play_game(Game {
            width,
            height,
            rule,
            eol,
            swap2,
        });
    }
}

#[test]
fn freestyle_games() {
    games_under(Rule::Freestyle);
}

#[test]
fn standard_games() {
    games_under(Rule::Standard);
}

#[test]
fn renju_games() {
    games_under(Rule::Renju);
}

#[test]
fn caro_games() {
    games_under(Rule::Caro);
}

#[test]
fn caro_exact_games() {
    games_under(Rule::CaroExact);
}
