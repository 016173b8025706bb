//! The five example trees of the articles: root value and nodes visited by
//! minimax and by alpha-beta, counting each node once when it is visited, the
//! root and the leaves included.

use wuzi_textbook::tree::{Tree, TreeGame};
use wuzi_textbook::{alphabeta, minimax, Cutoff, Depth};

fn tree(text: &str) -> Tree {
    text.parse()
        .unwrap_or_else(|e| panic!("{text:?} is not a tree: {e}"))
}

/// (tree, root value, minimax nodes, alpha-beta nodes)
const EXAMPLES: [(&str, i32, u64, u64); 5] = [
    ("[[7, 3], [15], [1, 12, 20, 22]]", 15, 11, 8),
    ("[[3, 12, 8], [2, 100, 8], [14, 5, 2]]", 3, 13, 11),
    (
        "[[[[10, 20], [5]], [[-10]]], [[[7, 5], [-8]], [[-7, -5]]]]",
        -7,
        22,
        22,
    ),
    (
        "[[[[3, 17], [2, 12]], [[15], [25, 0]]], [[[2, 5], [3]], [[2, 14]]]]",
        3,
        26,
        17,
    ),
    (
        "[[[[5, 6], [7, 4, 5]], [[3]]], [[[6], [6, 9]], [[7]]], [[[5]], [[9, 8], [6]]]]",
        6,
        33,
        25,
    ),
];

#[test]
fn minimax_values_and_node_counts() {
    for (text, value, nodes, _) in EXAMPLES {
        let tree = tree(text);
        let result = minimax(&mut TreeGame::new(&tree), Depth::ToEnd);
        assert_eq!((result.value, result.nodes), (value, nodes), "{text}");
        assert_eq!(
            result.nodes,
            tree.size(),
            "minimax sees every node of {text}"
        );
    }
}

#[test]
fn alphabeta_values_and_node_counts() {
    for (text, value, _, nodes) in EXAMPLES {
        let tree = tree(text);
        let result = alphabeta(&mut TreeGame::new(&tree), Depth::ToEnd, Cutoff::default());
        assert_eq!((result.value, result.nodes), (value, nodes), "{text}");
    }
}

#[test]
fn both_searches_pick_the_same_first_best_move() {
    let expected = [1, 0, 1, 0, 1];
    for ((text, ..), best) in EXAMPLES.into_iter().zip(expected) {
        let tree = tree(text);
        let mm = minimax(&mut TreeGame::new(&tree), Depth::ToEnd);
        let ab = alphabeta(&mut TreeGame::new(&tree), Depth::ToEnd, Cutoff::default());
        assert_eq!(mm.best_move, Some(best), "{text}");
        assert_eq!(ab.best_move, Some(best), "{text}");
    }
}

/// Under `alpha >= beta` a second move that only ties is cut off after its
/// first leaf, so the search cannot tell "ties" from "is worse": both trees
/// below give the same answer and the same count. Under `alpha > beta` the
/// tie is searched out and reported.
#[test]
fn strict_cutoff_keeps_moves_of_equal_value() {
    let ties = tree("[[3, 5], [3, 4]]");
    let worse = tree("[[3, 5], [3, 1]]");

    let at_least = |t: &Tree| {
        alphabeta(
            &mut TreeGame::new(t),
            Depth::ToEnd,
            Cutoff::AlphaAtLeastBeta,
        )
    };
    let (a, b) = (at_least(&ties), at_least(&worse));
    assert_eq!((a.value, a.best_moves.clone(), a.nodes), (3, vec![0], 6));
    assert_eq!((b.value, b.best_moves, b.nodes), (3, vec![0], 6));

    let above = |t: &Tree| alphabeta(&mut TreeGame::new(t), Depth::ToEnd, Cutoff::AlphaAboveBeta);
    let (a, b) = (above(&ties), above(&worse));
    assert_eq!((a.value, a.best_moves, a.nodes), (3, vec![0, 1], 7));
    assert_eq!((b.value, b.best_moves, b.nodes), (3, vec![0], 7));

    let mm = minimax(&mut TreeGame::new(&ties), Depth::ToEnd);
    assert_eq!(mm.best_moves, vec![0, 1]);
}

/// On the fifth example the strict rule costs one node, where a sibling ties
/// with the bound: `[6, 9]` searched with alpha = 6 is no longer cut after
/// its 6, so the 9 is visited too (26 nodes instead of 25, counted by hand).
#[test]
fn strict_cutoff_visits_more_of_tree_five() {
    let (text, value, _, nodes) = EXAMPLES[4];
    let tree = tree(text);
    let result = alphabeta(
        &mut TreeGame::new(&tree),
        Depth::ToEnd,
        Cutoff::AlphaAboveBeta,
    );
    assert_eq!((result.value, result.best_moves), (value, vec![1]));
    assert_eq!(result.nodes, nodes + 1);
}
