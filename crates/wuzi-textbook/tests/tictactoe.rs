//! Tic-tac-toe solved by both searches. Moves are generated cell by cell,
//! row by row from the top left (cells 0 to 8); X is the maximiser.

use wuzi_textbook::tictactoe::{TicTacToe, WIN};
use wuzi_textbook::{alphabeta, minimax, Cutoff, Depth, Game};

fn board(text: &str) -> TicTacToe {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is not a board: {e}"))
}

/// Positions in the whole game tree, the empty board included, a game ending
/// at a win or a full board: the well-known 549,946.
#[test]
fn minimax_visits_the_whole_game_tree_and_finds_a_draw() {
    let result = minimax(&mut TicTacToe::new(), Depth::ToEnd);
    assert_eq!(result.value, 0);
    assert_eq!(result.nodes, 549_946);
    // Every first move draws with best play.
    assert_eq!(result.best_moves, (0..9).collect::<Vec<u8>>());
}

/// Alpha-beta with the fixed cell order 0..8 and the default `alpha >= beta`
/// cutoff proves the draw after 18,297 positions, about 3.3 % of minimax's.
#[test]
fn alphabeta_proves_the_draw_with_far_fewer_nodes() {
    let result = alphabeta(
        &mut TicTacToe::new(),
        Depth::ToEnd,
        Cutoff::AlphaAtLeastBeta,
    );
    assert_eq!(result.value, 0);
    assert_eq!(result.best_move, Some(0));
    assert_eq!(result.nodes, 18_297);
    assert!(result.nodes * 25 < 549_946);
}

/// Keeping ties costs more nodes (146,120 with the same move order) but still
/// far fewer than minimax, and returns every drawing first move, as minimax
/// does.
#[test]
fn strict_cutoff_keeps_all_drawing_first_moves() {
    let result = alphabeta(&mut TicTacToe::new(), Depth::ToEnd, Cutoff::AlphaAboveBeta);
    assert_eq!(result.value, 0);
    assert_eq!(result.best_moves, (0..9).collect::<Vec<u8>>());
    let default = alphabeta(
        &mut TicTacToe::new(),
        Depth::ToEnd,
        Cutoff::AlphaAtLeastBeta,
    );
    assert!(result.nodes > default.nodes);
    assert_eq!(result.nodes, 146_120);
}

#[test]
fn takes_a_win_in_one() {
    let mut game = board("XX. OO. ...");
    let result = alphabeta(&mut game, Depth::Plies(1), Cutoff::default());
    assert_eq!((result.value, result.best_move), (WIN, Some(2)));
    let result = alphabeta(&mut game, Depth::ToEnd, Cutoff::default());
    assert_eq!((result.value, result.best_move), (WIN, Some(2)));
}

#[test]
fn o_must_block_and_only_the_block_holds() {
    let mut game = board("XX. .O. ...");
    assert!(!game.maximizer_to_move());
    let result = minimax(&mut game, Depth::ToEnd);
    assert_eq!((result.value, result.best_moves), (0, vec![2]));
    // Two plies are enough to see that anything else loses. After the block
    // X's best reply (cell 5, 6 or 8) leaves each side two open lines: 0.
    let result = alphabeta(&mut game, Depth::Plies(2), Cutoff::AlphaAboveBeta);
    assert_eq!((result.value, result.best_moves), (0, vec![2]));
}

/// The open-lines heuristic: X in the centre keeps all 8 lines and leaves O 4,
/// a corner leaves O 5, an edge 6.
#[test]
fn one_ply_prefers_the_centre() {
    let result = minimax(&mut TicTacToe::new(), Depth::Plies(1));
    assert_eq!(
        (result.value, result.best_moves, result.nodes),
        (4, vec![4], 10)
    );
    let mut corner = board("X.. ... ...");
    assert_eq!(corner.evaluate(), 3);
    let mut edge = board(".X. ... ...");
    assert_eq!(edge.evaluate(), 2);
}

#[test]
fn searches_agree_at_every_depth() {
    for text in ["... ... ...", "X.. .O. ...", "XO. .X. ..O", "X.O ... ..."] {
        for plies in 0..=9 {
            let mm = minimax(&mut board(text), Depth::Plies(plies));
            for cutoff in [Cutoff::AlphaAtLeastBeta, Cutoff::AlphaAboveBeta] {
                let ab = alphabeta(&mut board(text), Depth::Plies(plies), cutoff);
                assert_eq!(
                    (ab.value, ab.best_move),
                    (mm.value, mm.best_move),
                    "{text} {plies}"
                );
                assert!(ab.nodes <= mm.nodes);
            }
        }
    }
}

#[test]
fn play_and_undo_restore_the_position() {
    let mut game = board("X.O ... ...");
    let before = game;
    for mv in game.moves() {
        game.play(mv);
        game.undo(mv);
        assert_eq!(game, before);
    }
    assert_eq!(before.to_string(), "X.O\n...\n...\n");
}

#[test]
fn rejects_impossible_boards() {
    for text in [
        "",
        "XX. ... ...",
        "OO. X.. ...",
        "X.. ... ....",
        "X.. ... ..Z",
        "XXX OOO X..",
    ] {
        assert!(text.parse::<TicTacToe>().is_err(), "{text:?}");
    }
    assert!(board("XXX OO. ...").is_terminal());
}
