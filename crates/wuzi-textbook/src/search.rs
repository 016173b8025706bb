//! Plain minimax and alpha-beta over any [`Game`], with node counts.
//!
//! This module owns the two searches and their options. Both count a node
//! once when they visit it, the root and the leaves included, so the counts of
//! the textbook examples can be checked by hand. Both search the moves in the
//! order the game generates them and keep the *first* best move found; they do
//! nothing clever (no move ordering, no memory), which is what makes them a
//! trustworthy oracle.
//!
//! Invariant: on the same game and depth, [`alphabeta`] returns the same root
//! value and the same (first) best move as [`minimax`], and never visits more
//! nodes. A move that comes before the first best one is worse, so its value
//! never reaches the best; the first best one is searched with a window below
//! its value and so comes back exact.

use crate::game::Game;

/// Larger than any value a [`Game`] may return; `-INFINITY` is its opposite
/// (not `i32::MIN`, which has no opposite).
const INFINITY: i32 = i32::MAX;

/// How far a search looks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Depth {
    /// Until every line reaches a terminal position.
    ToEnd,
    /// This many plies from the root; the positions reached are scored by
    /// [`Game::evaluate`] even if the game goes on. `Plies(0)` scores the root.
    Plies(u32),
}

impl Depth {
    fn is_horizon(self) -> bool {
        self == Depth::Plies(0)
    }

    fn next(self) -> Depth {
        match self {
            Depth::ToEnd => Depth::ToEnd,
            Depth::Plies(n) => Depth::Plies(n.saturating_sub(1)),
        }
    }
}

/// When alpha-beta stops searching the remaining moves of a node.
///
/// `alpha` is what the maximiser is already sure of elsewhere in the tree,
/// `beta` what the minimiser is sure of. Once they meet, the rest of the node
/// cannot change the value at the root, but it can still *tie* with it.
///
/// With [`Cutoff::AlphaAtLeastBeta`] a move that merely ties with the best one
/// found so far is cut off as soon as it is known to be no better; its exact
/// value is never computed, only a bound ("at most this"). The search then
/// cannot tell a move that ties from one that is worse, and any deliberate
/// tie-break among equally good moves (prefer the centre, prefer the lowest
/// point, match another engine's choice) is impossible: only the first best
/// move is known.
///
/// With [`Cutoff::AlphaAboveBeta`] ties are searched to the end, at the price
/// of more nodes, and every root move whose value equals the best is reported
/// exactly, so a tie-break can be applied afterwards.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Cutoff {
    /// Prune when `alpha >= beta`: the textbook rule and the fewest nodes.
    #[default]
    AlphaAtLeastBeta,
    /// Prune only when `alpha > beta`: keeps every move of equal value.
    AlphaAboveBeta,
}

impl Cutoff {
    fn prunes(self, alpha: i32, beta: i32) -> bool {
        match self {
            Cutoff::AlphaAtLeastBeta => alpha >= beta,
            Cutoff::AlphaAboveBeta => alpha > beta,
        }
    }
}

/// What a search found at the root.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult<M> {
    /// The value of the root for the maximiser.
    pub value: i32,
    /// The first move, in generation order, that achieves `value`; `None` if
    /// the root is terminal or the depth is zero.
    pub best_move: Option<M>,
    /// The root moves known to achieve `value`, in generation order. Minimax
    /// and alpha-beta with [`Cutoff::AlphaAboveBeta`] list all of them;
    /// alpha-beta with [`Cutoff::AlphaAtLeastBeta`] lists only the first,
    /// since it cannot prove that another one ties.
    pub best_moves: Vec<M>,
    /// Positions visited, each counted once, the root included.
    pub nodes: u64,
}

/// Looks at every position to the given depth. The reference the pruned
/// search is measured against: slow, but with nothing to get wrong.
pub fn minimax<G: Game>(game: &mut G, depth: Depth) -> SearchResult<G::Move> {
    let mut nodes = 1;
    let mut root = RootBest::new(game.maximizer_to_move(), true);
    if !game.is_terminal() && !depth.is_horizon() {
        for mv in game.moves() {
            game.play(mv);
            let value = minimax_value(game, depth.next(), &mut nodes);
            game.undo(mv);
            root.offer(mv, value);
        }
    }
    root.finish(game, nodes)
}

fn minimax_value<G: Game>(game: &mut G, depth: Depth, nodes: &mut u64) -> i32 {
    *nodes += 1;
    if game.is_terminal() || depth.is_horizon() {
        return game.evaluate();
    }
    let maximizing = game.maximizer_to_move();
    let mut best: Option<i32> = None;
    for mv in game.moves() {
        game.play(mv);
        let value = minimax_value(game, depth.next(), nodes);
        game.undo(mv);
        best = Some(match best {
            None => value,
            Some(b) if maximizing => b.max(value),
            Some(b) => b.min(value),
        });
    }
    // A non-terminal position without moves breaks the Game contract; scoring
    // it statically is the least surprising thing to do.
    best.unwrap_or_else(|| game.evaluate())
}

/// Minimax that skips the moves which cannot change the root value.
///
/// Values are "fail-soft": a node searched with window `(alpha, beta)` returns
/// its exact value when that lies strictly inside the window (inside or on its
/// edge with [`Cutoff::AlphaAboveBeta`]), otherwise a bound on the same side of
/// the window as the exact value.
pub fn alphabeta<G: Game>(game: &mut G, depth: Depth, cutoff: Cutoff) -> SearchResult<G::Move> {
    let mut nodes = 1;
    let maximizing = game.maximizer_to_move();
    let mut root = RootBest::new(maximizing, cutoff == Cutoff::AlphaAboveBeta);
    if !game.is_terminal() && !depth.is_horizon() {
        let (mut alpha, mut beta) = (-INFINITY, INFINITY);
        for mv in game.moves() {
            game.play(mv);
            let value = alphabeta_value(game, depth.next(), alpha, beta, cutoff, &mut nodes);
            game.undo(mv);
            // The root's own window is infinite, so nothing is pruned here;
            // a child whose value merely reaches the current best is exact
            // only with AlphaAboveBeta, which `RootBest` was told about.
            root.offer(mv, value);
            if maximizing {
                alpha = alpha.max(value);
            } else {
                beta = beta.min(value);
            }
        }
    }
    root.finish(game, nodes)
}

fn alphabeta_value<G: Game>(
    game: &mut G,
    depth: Depth,
    mut alpha: i32,
    mut beta: i32,
    cutoff: Cutoff,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if game.is_terminal() || depth.is_horizon() {
        return game.evaluate();
    }
    let maximizing = game.maximizer_to_move();
    let mut best = if maximizing { -INFINITY } else { INFINITY };
    let moves = game.moves();
    if moves.is_empty() {
        return game.evaluate();
    }
    for mv in moves {
        game.play(mv);
        let value = alphabeta_value(game, depth.next(), alpha, beta, cutoff, nodes);
        game.undo(mv);
        if maximizing {
            best = best.max(value);
            alpha = alpha.max(best);
        } else {
            best = best.min(value);
            beta = beta.min(best);
        }
        if cutoff.prunes(alpha, beta) {
            break;
        }
    }
    best
}

/// Collects the best root moves as their values come in.
struct RootBest<M> {
    maximizing: bool,
    /// Whether a value equal to the best so far is exact (and so a real tie).
    ties_are_exact: bool,
    value: Option<i32>,
    moves: Vec<M>,
}

impl<M: Copy> RootBest<M> {
    fn new(maximizing: bool, ties_are_exact: bool) -> Self {
        RootBest {
            maximizing,
            ties_are_exact,
            value: None,
            moves: Vec::new(),
        }
    }

    fn offer(&mut self, mv: M, value: i32) {
        let better = match self.value {
            None => true,
            Some(best) if self.maximizing => value > best,
            Some(best) => value < best,
        };
        if better {
            self.value = Some(value);
            self.moves.clear();
            self.moves.push(mv);
        } else if self.ties_are_exact && self.value == Some(value) {
            self.moves.push(mv);
        }
    }

    fn finish<G: Game<Move = M>>(self, game: &mut G, nodes: u64) -> SearchResult<M> {
        let value = match self.value {
            Some(value) => value,
            None => game.evaluate(),
        };
        SearchResult {
            value,
            best_move: self.moves.first().copied(),
            best_moves: self.moves,
            nodes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{Tree, TreeGame};
    use wuzi_core::rng::Rng;

    /// A random tree of the given depth, with 1 to 4 children per node and
    /// leaves from a small range so that ties are common.
    fn random_tree(rng: &mut Rng, depth: u32) -> Tree {
        if depth == 0 || (depth < 3 && rng.below(5) == 0) {
            return Tree::Leaf(rng.below(7) as i32 - 3);
        }
        let children = 1 + rng.below(4);
        Tree::Node((0..children).map(|_| random_tree(rng, depth - 1)).collect())
    }

    #[test]
    fn alphabeta_agrees_with_minimax_on_random_trees() {
        let mut rng = Rng::new(7);
        for _ in 0..2_000 {
            let depth = 1 + rng.below(6) as u32;
            let tree = random_tree(&mut rng, depth);
            let mm = minimax(&mut TreeGame::new(&tree), Depth::ToEnd);
            assert_eq!(mm.nodes, tree.size(), "{tree}");
            assert_eq!(mm.best_move, mm.best_moves.first().copied());
            for cutoff in [Cutoff::AlphaAtLeastBeta, Cutoff::AlphaAboveBeta] {
                let ab = alphabeta(&mut TreeGame::new(&tree), Depth::ToEnd, cutoff);
                assert_eq!(ab.value, mm.value, "{tree} {cutoff:?}");
                assert_eq!(ab.best_move, mm.best_move, "{tree} {cutoff:?}");
                assert!(ab.nodes <= mm.nodes, "{tree} {cutoff:?}");
                if cutoff == Cutoff::AlphaAboveBeta {
                    assert_eq!(ab.best_moves, mm.best_moves, "{tree}");
                }
            }
        }
    }

    #[test]
    fn depth_limits_agree_too() {
        let mut rng = Rng::new(11);
        for _ in 0..500 {
            let tree = random_tree(&mut rng, 5);
            for plies in 0..6 {
                let depth = Depth::Plies(plies);
                let mm = minimax(&mut TreeGame::new(&tree), depth);
                let ab = alphabeta(&mut TreeGame::new(&tree), depth, Cutoff::default());
                assert_eq!((ab.value, ab.best_move), (mm.value, mm.best_move), "{tree}");
            }
        }
    }

    #[test]
    fn depth_zero_scores_the_root_only() {
        let tree: Tree = "[[1, 2], [3]]".parse().expect("a valid tree");
        let result = minimax(&mut TreeGame::new(&tree), Depth::Plies(0));
        assert_eq!((result.value, result.best_move, result.nodes), (0, None, 1));
        let result = minimax(&mut TreeGame::new(&tree), Depth::Plies(1));
        assert_eq!(
            (result.value, result.best_move, result.nodes),
            (0, Some(0), 3)
        );
        let result = alphabeta(
            &mut TreeGame::new(&tree),
            Depth::Plies(2),
            Cutoff::default(),
        );
        assert_eq!((result.value, result.best_move), (3, Some(1)));
    }

    #[test]
    fn a_terminal_root_has_no_best_move() {
        let tree = Tree::Leaf(-4);
        let result = alphabeta(&mut TreeGame::new(&tree), Depth::ToEnd, Cutoff::default());
        assert_eq!(result.value, -4);
        assert_eq!(result.best_move, None);
        assert!(result.best_moves.is_empty());
        assert_eq!(result.nodes, 1);
    }
}
