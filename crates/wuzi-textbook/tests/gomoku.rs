//! Gomoku over `wuzi_core`: the searches find wins and forced blocks, agree
//! with each other on small random positions, and respect renju's forbidden
//! points.

use wuzi_core::rng::Rng;
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_textbook::gomoku::{threat_balance, Gomoku, WIN};
use wuzi_textbook::{alphabeta, minimax, Cutoff, Depth, Game};

const RULES: [Rule; 5] = [
    Rule::Freestyle,
    Rule::Standard,
    Rule::Renju,
    Rule::Caro,
    Rule::CaroExact,
];

/// Any value this close to `WIN` is a result the search reached.
const PROVEN: i32 = WIN - 1_000;

fn p(x: u8, y: u8) -> Point {
    Point::new(x, y)
}

/// A composed position with `to_move` to play: the other side's stones go
/// down last so that the board hands the move over.
fn position(rule: Rule, size: usize, black: &[Point], white: &[Point], to_move: Color) -> Gomoku {
    let mut board = Board::new(size, size, rule).unwrap_or_else(|e| panic!("{e}"));
    let (first, last) = match to_move {
        Color::Black => ((Color::Black, black), (Color::White, white)),
        Color::White => ((Color::White, white), (Color::Black, black)),
    };
    for (color, stones) in [first, last] {
        for &stone in stones {
            board.place(color, stone).unwrap_or_else(|e| panic!("{e}"));
        }
    }
    assert_eq!(board.side_to_move(), to_move);
    Gomoku::new(board).unwrap_or_else(|e| panic!("{e}"))
}

fn row(y: u8, xs: &[u8]) -> Vec<Point> {
    xs.iter().map(|&x| p(x, y)).collect()
}

#[test]
fn finds_a_win_in_one_at_depth_one_under_every_rule() {
    for rule in RULES {
        let mut game = position(
            rule,
            7,
            &row(3, &[1, 2, 3, 4]),
            &row(1, &[1, 2, 4, 5]),
            Color::Black,
        );
        let result = alphabeta(&mut game, Depth::Plies(1), Cutoff::default());
        assert_eq!(
            (result.value, result.best_move),
            (WIN - 1, Some(p(0, 3))),
            "{rule:?}"
        );
        let all = minimax(&mut game, Depth::Plies(1));
        assert_eq!(all.best_moves, [p(0, 3), p(5, 3)], "{rule:?}");
    }
}

#[test]
fn finds_the_only_block_at_depth_two() {
    for rule in RULES {
        let mut game = position(
            rule,
            7,
            &row(3, &[1, 2, 3, 4]),
            &[p(0, 3), p(3, 5), p(6, 6)],
            Color::White,
        );
        assert!(game.maximizer_to_move());
        let strict = alphabeta(&mut game, Depth::Plies(2), Cutoff::AlphaAboveBeta);
        assert_eq!(strict.best_moves, [p(5, 3)], "{rule:?}");
        assert!(strict.value.abs() < PROVEN, "{rule:?}: {}", strict.value);
        let result = alphabeta(&mut game, Depth::Plies(2), Cutoff::default());
        assert_eq!(
            (result.value, result.best_move),
            (strict.value, Some(p(5, 3))),
            "{rule:?}"
        );
        // One ply shallower the threat is invisible: the reply that wins is
        // past the horizon.
        let shallow = alphabeta(&mut game, Depth::Plies(1), Cutoff::AlphaAboveBeta);
        assert!(shallow.value.abs() < PROVEN);
    }
}

/// An open three becomes an open four, which no single stone can stop: a
/// win on the third ply, seen at depth 3 and not before.
#[test]
fn finds_a_win_in_two_through_an_open_four() {
    for rule in RULES {
        let mut game = position(
            rule,
            7,
            &row(3, &[2, 3, 4]),
            &[p(0, 0), p(6, 0)],
            Color::Black,
        );
        let result = alphabeta(&mut game, Depth::Plies(3), Cutoff::default());
        assert_eq!(result.value, WIN - 3, "{rule:?}");
        assert!(
            matches!(result.best_move, Some(q) if q == p(1, 3) || q == p(5, 3)),
            "{rule:?}"
        );
        let shallow = alphabeta(&mut game, Depth::Plies(2), Cutoff::default());
        assert!(shallow.value < PROVEN, "{rule:?}");
    }
}

#[test]
fn renju_black_may_not_play_an_overline() {
    let black = row(3, &[0, 1, 2, 4, 5]);
    let white = [p(0, 0), p(2, 0), p(4, 0), p(6, 6), p(0, 6)];
    let mut renju = position(Rule::Renju, 7, &black, &white, Color::Black);
    assert!(!renju.moves().contains(&p(3, 3)));
    assert_eq!(renju.moves().len(), 49 - 10 - 1);
    let mut freestyle = position(Rule::Freestyle, 7, &black, &white, Color::Black);
    assert!(freestyle.moves().contains(&p(3, 3)));
    let result = alphabeta(&mut freestyle, Depth::Plies(1), Cutoff::default());
    assert_eq!((result.value, result.best_move), (WIN - 1, Some(p(3, 3))));
    // White may play there under renju.
    let mut white_to_move = position(Rule::Renju, 7, &black, &white[..4], Color::White);
    assert!(white_to_move.moves().contains(&p(3, 3)));
}

#[test]
fn the_game_ends_at_a_five_or_a_full_board() {
    let mut game = position(
        Rule::Freestyle,
        7,
        &row(3, &[1, 2, 3, 4]),
        &row(1, &[1, 2, 4, 5]),
        Color::Black,
    );
    assert!(!game.is_terminal());
    game.play(p(5, 3));
    assert!(game.is_terminal());
    assert!(game.moves().is_empty());
    // Black was the maximiser and won with the first ply.
    assert_eq!(game.evaluate(), WIN - 1);
    game.undo(p(5, 3));
    assert!(!game.is_terminal());

    // A full 5x5 board with no five anywhere: (x + 2y) mod 4 < 2 is Black.
    let all: Vec<Point> = (0..5).flat_map(|y| (0..5).map(move |x| p(x, y))).collect();
    let (black, white): (Vec<Point>, Vec<Point>) =
        all.iter().partition(|q| (q.x + 2 * q.y) % 4 < 2);
    for rule in RULES {
        let mut full = position(rule, 5, &black, &white, Color::Black);
        assert!(full.is_terminal(), "{rule:?}");
        assert_eq!(full.evaluate(), 0, "{rule:?}");
    }
}

#[test]
fn evaluation_is_zero_sum_and_symmetric() {
    let empty = Board::new(7, 7, Rule::Standard).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(threat_balance(&empty, Color::Black), 0);
    let game = position(
        Rule::Standard,
        7,
        &row(3, &[2, 3]),
        &[p(4, 4)],
        Color::White,
    );
    let board = game.board();
    let black = threat_balance(board, Color::Black);
    assert_eq!(threat_balance(board, Color::White), -black);
    assert!(
        black > 0,
        "two black stones in a row against one white: {black}"
    );
    let mut as_black =
        Gomoku::with_maximizer(board.clone(), Color::Black).unwrap_or_else(|e| panic!("{e}"));
    let mut as_white =
        Gomoku::with_maximizer(board.clone(), Color::White).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(as_black.evaluate(), -as_white.evaluate());
}

#[test]
fn boards_larger_than_nine_are_refused() {
    let board = Board::new(10, 9, Rule::Freestyle).unwrap_or_else(|e| panic!("{e}"));
    assert!(Gomoku::new(board).is_err());
    let board = Board::new(9, 9, Rule::Freestyle).unwrap_or_else(|e| panic!("{e}"));
    assert!(Gomoku::new(board).is_ok());
}

/// A random unfinished game on a `size` board with `empty` points left.
fn random_position(rule: Rule, size: usize, empty: usize, rng: &mut Rng) -> Option<Gomoku> {
    let board = Board::new(size, size, rule).ok()?;
    let mut game = Gomoku::new(board).ok()?;
    while game.board().empty_points().len() > empty {
        let moves = game.moves();
        if moves.is_empty() {
            return None;
        }
        let mv = moves[rng.below(moves.len())];
        game.play(mv);
        if game.is_terminal() {
            return None;
        }
    }
    // Re-wrap so that the maximiser is the side to move and plies count from here.
    Gomoku::new(game.board().clone()).ok()
}

fn check_agreement(game: &Gomoku, depth: Depth) {
    let mm = minimax(&mut game.clone(), depth);
    for cutoff in [Cutoff::AlphaAtLeastBeta, Cutoff::AlphaAboveBeta] {
        let ab = alphabeta(&mut game.clone(), depth, cutoff);
        let board = game.board();
        assert_eq!(
            (ab.value, ab.best_move),
            (mm.value, mm.best_move),
            "{board:?} {cutoff:?}"
        );
        assert!(ab.nodes <= mm.nodes);
        if cutoff == Cutoff::AlphaAboveBeta {
            assert_eq!(ab.best_moves, mm.best_moves, "{board:?}");
        }
    }
}

#[test]
fn searches_agree_to_the_end_on_nearly_full_boards() {
    let mut rng = Rng::new(5);
    let mut checked = 0;
    while checked < 40 {
        let rule = RULES[checked % RULES.len()];
        if let Some(game) = random_position(rule, 5, 7, &mut rng) {
            check_agreement(&game, Depth::ToEnd);
            checked += 1;
        }
    }
}

#[test]
fn searches_agree_at_depth_three_on_open_boards() {
    let mut rng = Rng::new(9);
    let mut checked = 0;
    while checked < 20 {
        let rule = RULES[checked % RULES.len()];
        if let Some(game) = random_position(rule, 6, 14, &mut rng) {
            check_agreement(&game, Depth::Plies(3));
            checked += 1;
        }
    }
}
