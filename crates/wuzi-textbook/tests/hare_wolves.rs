//! Hare and wolves: move generation, the breadth-first evaluation, and what
//! the searches and the exact solver establish. Diagrams list the ranks from
//! 8 down to 1.

use wuzi_core::rng::Rng;
use wuzi_textbook::hare_wolves::{HareWolves, HwMove, Side, Square, TRAPPED, WIN};
use wuzi_textbook::{alphabeta, minimax, Cutoff, Depth, Game};

fn square(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn position(diagram: &str, to_move: Side) -> HareWolves {
    HareWolves::from_diagram(diagram, to_move).unwrap_or_else(|e| panic!("{e}\n{diagram}"))
}

fn names(moves: &[HwMove]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// Any value this far from zero is a result the search reached, not a guess.
const PROVEN: i32 = WIN - 100;

#[test]
fn moves_at_the_start() {
    let mut game = HareWolves::standard();
    assert_eq!(game.hare(), square("e1"));
    assert_eq!(names(&game.moves()), ["e1-d2", "e1-f2"]);
    game.play(HwMove {
        from: square("e1"),
        to: square("d2"),
    });
    let wolves = [
        "b8-a7", "b8-c7", "d8-c7", "d8-e7", "f8-e7", "f8-g7", "h8-g7",
    ];
    assert_eq!(names(&game.moves()), wolves);
}

#[test]
fn hare_moves_four_ways_unless_blocked_or_at_the_edge() {
    let empty = "........ ........ ........ ........ ........";
    let mut middle = position(&format!("{empty} ..H..... ........ ........"), Side::Hare);
    assert_eq!(names(&middle.moves()), ["c3-b4", "c3-d4", "c3-b2", "c3-d2"]);
    let mut edge = position(&format!("{empty} H....... ........ ........"), Side::Hare);
    assert_eq!(names(&edge.moves()), ["a3-b4", "a3-b2"]);
    let mut blocked = position(
        "........ ........ ........ ........ .W...... ..H..... .W...... ........",
        Side::Hare,
    );
    assert_eq!(names(&blocked.moves()), ["c3-d4", "c3-d2"]);
}

#[test]
fn wolves_only_step_down_and_not_onto_pieces() {
    let mut game = position(
        "........ ........ ........ ........ .....W.. ..W..... ...H.W.. W.......",
        Side::Wolves,
    );
    // f4 has two ways down, c3 only b2 (d2 holds the hare), f2 both, a1 none.
    assert_eq!(
        names(&game.moves()),
        ["f4-e3", "f4-g3", "c3-b2", "f2-e1", "f2-g1"]
    );
}

#[test]
fn results() {
    let trapped_in_corner = position(
        "........ ........ ........ ........ ........ ........ .W...... H.......",
        Side::Hare,
    );
    assert_eq!(trapped_in_corner.winner(), Some(Side::Wolves));
    let on_top = position(
        "...H.... ........ ........ ........ ........ ........ ........ W.W.W.W.",
        Side::Wolves,
    );
    assert_eq!(on_top.winner(), Some(Side::Hare));
    let wolves_stuck = position(
        "........ ........ ........ ..H..... ........ ........ ........ W.W.W.W.",
        Side::Wolves,
    );
    assert_eq!(wolves_stuck.winner(), Some(Side::Hare));
    assert!(wolves_stuck.legal_moves().is_empty());
    assert_eq!(HareWolves::standard().winner(), None);
}

#[test]
fn distance_to_the_top_goes_around_wolves() {
    let rows = |rank4: &str| {
        format!("........ ........ ........ ........ {rank4} ..H..... ........ ........")
    };
    // Free board: one rank per step, from rank 3 to rank 8.
    assert_eq!(
        position(&rows("........"), Side::Hare).distance_to_top(),
        Some(5)
    );
    // b4 and d4 taken: back to d2, over e3 to f4, then four more ranks.
    assert_eq!(
        position(&rows(".W.W...."), Side::Hare).distance_to_top(),
        Some(7)
    );
    // f4 too: round through d2, e3, f2, g3, h4.
    assert_eq!(
        position(&rows(".W.W.W.."), Side::Hare).distance_to_top(),
        Some(9)
    );
    // All four dark squares of rank 4: walled in.
    let mut walled = position(&rows(".W.W.W.W"), Side::Hare);
    assert_eq!(walled.distance_to_top(), None);
    assert_eq!(walled.evaluate(), TRAPPED);
    // The wolves start on every dark square of rank 8.
    assert_eq!(HareWolves::standard().distance_to_top(), None);
}

#[test]
fn evaluation_prefers_a_shorter_way_and_a_quicker_win() {
    let rows = |rank4: &str| {
        format!("........ ........ ........ ........ {rank4} ..H..... ........ ........")
    };
    let mut near = position(&rows(".W.W...."), Side::Wolves);
    let mut far = position(&rows(".W.W.W.."), Side::Wolves);
    assert_eq!((near.evaluate(), far.evaluate()), (-7, -9));
    let mut game = position(
        "........ ..H..... ........ ........ ........ ........ ........ W.W.W.W.",
        Side::Hare,
    );
    let result = alphabeta(&mut game, Depth::Plies(1), Cutoff::default());
    assert_eq!(
        (result.value, result.best_move.map(|m| m.to_string())),
        (WIN - 1, Some("c7-b8".into()))
    );
}

/// After four moves each the wolves can stand on a7, c7, e7, g7, a wall the
/// hare (at best on rank 5 by then) cannot pass: from depth 8 on the
/// standard start is TRAPPED at the horizon, and nothing is proven either way
/// (the hare needs 13 plies to reach rank 8, the wolves far more to corner it).
#[test]
fn depth_limited_search_from_the_start() {
    for plies in [8, 10] {
        let mm = minimax(&mut HareWolves::standard(), Depth::Plies(plies));
        let ab = alphabeta(
            &mut HareWolves::standard(),
            Depth::Plies(plies),
            Cutoff::default(),
        );
        assert_eq!((mm.value, ab.value), (TRAPPED, TRAPPED), "depth {plies}");
        assert_eq!(mm.best_move, ab.best_move);
        assert!(ab.nodes * 10 < mm.nodes, "{} vs {}", ab.nodes, mm.nodes);
    }
}

/// The exact solver: with perfect play the wolves win from each of the four
/// starting squares of the hare (the classic result for this game).
#[test]
fn the_wolves_win_from_every_start() {
    for start in ["a1", "c1", "e1", "g1"] {
        let game = HareWolves::hare_starting_at(square(start)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(game.solve(), Side::Wolves, "hare on {start}");
    }
    assert!(HareWolves::hare_starting_at(square("b2")).is_err());
    assert!(HareWolves::hare_starting_at(square("b1")).is_err());
}

/// Ranks the wolves can still descend between them: a game from here lasts
/// at most twice that many plies, and one more.
fn wolf_steps_left(game: &HareWolves) -> u32 {
    game.wolves().iter().map(|w| 7 - u32::from(w.y())).sum()
}

/// The wolves' move in a playout: seven times in eight the one that looks
/// best one ply ahead (ties broken at random), otherwise any. Purely random
/// wolves let the hare through almost every time, which would make the
/// positions below nearly all hare wins.
fn playout_move(game: &HareWolves, rng: &mut Rng) -> HwMove {
    let moves = game.legal_moves();
    let roll = rng.below(1 << 31);
    if game.side_to_move() == Side::Hare || roll % 8 == 0 {
        return moves[roll % moves.len()];
    }
    let score = |i: usize, mv: HwMove| {
        let mut next = *game;
        next.play(mv);
        (next.evaluate(), (i + roll) % moves.len())
    };
    let best = moves
        .iter()
        .enumerate()
        .min_by_key(|&(i, &mv)| score(i, mv));
    best.map_or(moves[0], |(_, &mv)| mv)
}

/// Positions from such games, once the wolves have at most `steps` ranks
/// left to descend and the game is still on.
fn late_positions(count: usize, steps: u32, seed: u64) -> Vec<HareWolves> {
    let mut rng = Rng::new(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut game = HareWolves::standard();
        while game.winner().is_none() && wolf_steps_left(&game) > steps {
            let mv = playout_move(&game, &mut rng);
            game.play(mv);
        }
        if game.winner().is_none() {
            found.push(game);
        }
    }
    found
}

/// Searched to the end, alpha-beta's value is always a proven result, and it
/// names the same winner as the solver, on positions won by either side.
#[test]
fn alphabeta_to_the_end_agrees_with_the_solver() {
    let mut wins = [0; 2];
    for mut game in late_positions(100, 8, 1) {
        let result = alphabeta(&mut game, Depth::ToEnd, Cutoff::default());
        assert!(result.value.abs() >= PROVEN, "{}\n{game}", result.value);
        let winner = if result.value > 0 {
            Side::Hare
        } else {
            Side::Wolves
        };
        assert_eq!(winner, game.solve(), "{game}");
        wins[usize::from(winner == Side::Wolves)] += 1;
    }
    assert!(
        wins[0] >= 20 && wins[1] >= 20,
        "hare and wolves wins: {wins:?}"
    );
}

#[test]
fn minimax_and_alphabeta_agree_to_the_end() {
    for mut game in late_positions(60, 4, 2) {
        let mm = minimax(&mut game, Depth::ToEnd);
        let ab = alphabeta(&mut game, Depth::ToEnd, Cutoff::default());
        assert_eq!((mm.value, mm.best_move), (ab.value, ab.best_move), "{game}");
        assert!(ab.nodes <= mm.nodes);
    }
}

#[test]
fn play_and_undo_restore_the_position() {
    for game in late_positions(20, 14, 3) {
        let mut copy = game;
        for mv in copy.moves() {
            copy.play(mv);
            copy.undo(mv);
            assert_eq!(copy, game);
        }
    }
}

#[test]
fn typed_moves() {
    let game = HareWolves::standard();
    for text in ["d2", "e1-d2", "E1 D2", " e1d2 ", "e1,d2"] {
        assert_eq!(
            game.parse_move(text).map(|m| m.to_string()),
            Ok("e1-d2".into()),
            "{text:?}"
        );
    }
    for text in [
        "", "  ", "e2", "d3", "z9", "e1-d2-c3", "e1-e2", "ä1", "e1-ä2", "11", "quit",
    ] {
        assert!(game.parse_move(text).is_err(), "{text:?}");
    }
    let mut wolves_turn = game;
    wolves_turn.play(HwMove {
        from: square("e1"),
        to: square("d2"),
    });
    assert!(
        wolves_turn.parse_move("c7").is_err(),
        "b8 and d8 can both go to c7"
    );
    assert_eq!(
        wolves_turn.parse_move("b8c7").map(|m| m.to.to_string()),
        Ok("c7".into())
    );
    assert_eq!(
        wolves_turn.parse_move("a7").map(|m| m.from.to_string()),
        Ok("b8".into())
    );
}

#[test]
fn diagrams_are_checked() {
    let bad = [
        "",
        "H",
        // A piece on a light square (a8).
        "W....... ........ ........ ........ ........ ........ ........ ....H...",
        // Two hares.
        "........ ........ ........ ........ ........ ........ ........ H...H...",
        // No hare.
        "........ ........ ........ ........ ........ ........ ........ ........",
        // Five wolves.
        ".W.W.W.W ........ ........ ........ ........ ........ .W...... ....H...",
        // Not a piece.
        "........ ........ ........ ........ ........ ........ ........ ....H.x.",
    ];
    for diagram in bad {
        assert!(
            HareWolves::from_diagram(diagram, Side::Hare).is_err(),
            "{diagram}"
        );
    }
    let shown = HareWolves::standard().to_string();
    assert!(
        shown.starts_with("  a b c d e f g h\n8   W   W   W   W 8\n"),
        "{shown}"
    );
    assert!(shown.contains("\n1 .   .   H   .   1\n"), "{shown}");
}
