//! Every tuning constant of the main search, in one place.
//!
//! Depths are fractional: [`PLY`] units make one ply, so that reductions and extensions can
//! be fractions of a ply (a five's block is searched a little deeper than the move before
//! it, a late move a few tenths shallower than the one before it). Scores are in the
//! evaluation's units, where a logistic of `score / 1400` is the side to move's expected
//! result (`docs/evaluation.md`): 100 units are about 1.8% of win rate near even.
//!
//! The values were first set from the published structure of the leading classical engine
//! (its constants are in win-rate units seven times coarser than ours, scaled here), then
//! measured with the forced-line suite and self-play matches; `docs/journal/search.md` has
//! each change and its result.

/// Depth units per ply.
pub const PLY: i32 = 16;

/// Depth from plies (`plies` may be fractional).
pub const fn plies(whole: i32, sixteenths: i32) -> i32 {
    whole * PLY + sixteenths
}

// ---------------------------------------------------------------------------------------
// Quiescence: the side to move's fours, with stand pat.

/// Quiescence plies (attacker moves) after which only fours that also make a two or a three
/// in another line are searched, unless the side's last two moves were such fours.
pub const QS_PLAIN_FOURS_PLIES: i32 = 2;
/// Delta pruning: a node whose static value is this far below alpha (plus a little per
/// quiescence ply, which lowers it) returns alpha without trying its fours.
pub const QS_DELTA_BASE: i32 = 14_000;
pub const QS_DELTA_PER_PLY: i32 = 420;
pub const QS_DELTA_MIN: i32 = 5_400;

// ---------------------------------------------------------------------------------------
// Pruning before the move loop.

/// Razoring: below this depth, a non-PV node whose static value plus the margin is below
/// alpha is settled by the quiescence.
pub const RAZOR_DEPTH: i32 = plies(2, 10);
/// Razoring margin: `a d^2 + b d + c` with `d` in plies.
pub const RAZOR_MARGIN: [f32; 3] = [1.2, 98.0, 133.0];
/// Reverse futility margin per ply, per rule family (freestyle and caro, exact five,
/// renju); less at a cut node the table knows nothing of, and a ply less of it when the
/// static value improves. Narrower than the 440 scaled from the classical engine, so it
/// prunes more; each family's value beat or matched its neighbours on both sides in
/// self-play (`docs/journal/search.md`).
pub const FUTILITY_PER_PLY: [i32; 3] = [360, 360, 300];
pub const FUTILITY_NO_TT_CUT: i32 = 84;
/// Null move: from this depth, when the static value exceeds beta by this bias less a
/// little per ply (bounded).
pub const NULL_MIN_DEPTH: i32 = plies(10, 0);
pub const NULL_MARGIN_BIAS: i32 = 4_100;
pub const NULL_MARGIN_PER_PLY: i32 = 196;
pub const NULL_MARGIN_MAX_DROP: i32 = 2_200;
/// Null move reduction: `bias + scale * depth`.
pub const NULL_REDUCTION_BIAS: f32 = 3.67;
pub const NULL_REDUCTION_SCALE: f32 = 0.135;
/// Internal iterative reduction of a PV node without a table move, and of one whose table
/// entry is much shallower than the node (per ply of difference, bounded).
pub const IIR_PV: i32 = plies(0, 5);
pub const IIR_TT_PER_PLY: f32 = 0.28;
pub const IIR_TT_MAX: i32 = plies(3, 10);

// ---------------------------------------------------------------------------------------
// The move loop.

/// Move-count pruning: once a node has a move that does not lose, moves past
/// `MOVE_COUNT_SCALE * (3 + d^1.32) / (2 - improving)` are skipped (`d` in whole plies).
pub const MOVE_COUNT_EXPONENT: f64 = 1.32;
pub const MOVE_COUNT_BASE: usize = 3;
/// The counts above are multiplied by this: our ordering is coarser than the classical
/// engine these counts come from (measured together with the two reductions below:
/// `docs/journal/search.md`).
pub const MOVE_COUNT_SCALE: usize = 2;
/// Moves that make and stop nothing (below an open two or a closed three for either side)
/// are skipped below this depth once a move that does not lose is found.
pub const TRIVIAL_PRUNE_DEPTH: i32 = plies(4, 5);
/// A far defence (neither near the opponent's last move nor near ours) against a threat
/// that blocks no four is skipped below this depth.
pub const FAR_DEFENCE_PRUNE_DEPTH: i32 = plies(4, 5);

/// The block of an opponent's five is searched this much deeper than a ply.
pub const BLOCK_FIVE_EXTENSION: i32 = plies(1, 5);
/// Singular extensions: from this depth, for a table move whose entry is a lower bound at
/// most this much shallower; margin per ply (more on former PV nodes) and the depth of the
/// test search as a share of the node's.
pub const SINGULAR_MIN_DEPTH: i32 = plies(6, 10);
pub const SINGULAR_TT_DEPTH_SLACK: i32 = plies(2, 0);
pub const SINGULAR_MARGIN_PER_PLY: f32 = 6.4;
pub const SINGULAR_MARGIN_FORMER_PV: f32 = 7.0;
pub const SINGULAR_DEPTH_SHARE: f32 = 0.54;
/// A highly singular move at a non-PV node is extended twice, up to this much extra depth
/// along a line; the margin below the singular beta for that.
pub const DOUBLE_EXTENSION_MAX: i32 = plies(10, 13);
pub const DOUBLE_EXTENSION_MARGIN: i32 = 200;
/// A table move that is not singular loses this much of its reduction when the table says
/// it fails high anyway.
pub const SINGULAR_FAIL_HIGH_REDUCTION: i32 = plies(1, 8);
/// The table move's own extension at PV and other nodes.
pub const TT_MOVE_EXTENSION_PV: i32 = plies(0, 4);
pub const TT_MOVE_EXTENSION: i32 = plies(0, 1);

/// Late-move reductions: `factor^2 ln(depth) ln(move number)` plies, per rule family
/// (freestyle and caro, exact five, renju), each measured against other values in its
/// rule's self-play (`docs/journal/search.md`).
pub const LMR_FACTOR: [f64; 3] = [1.0, 0.88, 0.85];
/// Extra reduction at a non-PV node whose static value is not improving (the classical
/// engine's ply; half a ply in freestyle, together with another change, gained in self-play
/// at 200 ms and lost at 500 ms, `docs/journal/search.md`).
pub const LMR_NOT_IMPROVING: i32 = plies(1, 0);
/// Less reduction on nodes that are or were on the principal variation.
pub const LMR_TT_PV: i32 = plies(0, 15);
/// More reduction at cut nodes, except for a quiet killer.
pub const LMR_CUT_NODE: i32 = plies(0, 13);
/// Less reduction for a move that continues an attack (an open three or better after the
/// side's last move made one).
pub const LMR_CONTINUING_ATTACK: i32 = plies(1, 0);
/// More reduction for a defence far from both sides' last moves while a threat stands.
pub const LMR_FAR_FROM_OPPONENT: i32 = plies(1, 15);
pub const LMR_FAR_FROM_SELF: i32 = plies(0, 15);
/// More reduction at odd plies once the best value already beats the root's alpha.
pub const LMR_NO_ALPHA_IMPROVING: i32 = plies(0, 16);
/// Renju: less reduction for a move on a point where Black's lines make a double three, a
/// double four or an overline (a false forbidden point Black may still play, or one White
/// takes from Black), since such a point decides more than its patterns say (the classical
/// engine's 1.05 plies; renju self-play, `docs/journal/search.md`).
pub const LMR_FORBID_CANDIDATE: i32 = plies(1, 1);
/// History: a reduction less (more) per this much of a move's history score above (below)
/// the neutral point.
pub const LMR_HISTORY_DIVISOR: i32 = 8_000;
/// Once a move raised alpha, the rest of the node's moves are searched this much shallower
/// (between these depths, and while the scores are far from proven results).
pub const ALPHA_RAISED_REDUCTION: i32 = plies(1, 0);
pub const ALPHA_RAISED_MIN_DEPTH: i32 = plies(2, 0);
pub const ALPHA_RAISED_MAX_DEPTH: i32 = plies(12, 0);
pub const ALPHA_RAISED_SCORE_LIMIT: i32 = 14_000;
/// After a reduced search fails high: a deeper re-search when it fails high by this much
/// (plus a little per ply of reduction), a shallower one when it only matches the best.
pub const LMR_DEEPER_MARGIN: i32 = 240;
pub const LMR_DEEPER_PER_PLY: i32 = 77;
pub const LMR_DEEPER_MAX: i32 = plies(5, 0);
/// A reduced search that fails high by this much more (plus per ply of reduction) goes a
/// second ply deeper, while the line's extensions stay under [`LMR_DEEPER_MAX`]. Half the
/// classical engine's margin on wuzi's scale: +25 Elo over it in 400 games of freestyle
/// self-play (`docs/journal/search.md`).
pub const LMR_EVEN_DEEPER_MARGIN: i32 = 1_220;
pub const LMR_EVEN_DEEPER_PER_PLY: i32 = 91;
pub const LMR_SHALLOWER_PER_PLY: i32 = 7;
/// A non-PV cut node whose value is this far above beta (more with depth) will probably fail
/// high: its moves are reduced a ply more, except a line of fours, which is extended. A
/// threatened node has no value of its own (step 5 of the node), so it never qualifies.
pub const FAIL_HIGH_MARGIN_BIAS: i32 = -63;
pub const FAIL_HIGH_MARGIN_PER_PLY: i32 = 105;

/// Distance (Chebyshev, in cells) beyond which a move is far from a side's last move.
pub const FAR_DISTANCE: usize = 4;
/// Renju's distance for the side's own last move: closer than [`FAR_DISTANCE`], so more
/// moves count as far from it: a threatened node's defences are pruned at shallow depth
/// (when far from both last moves) and reduced more, and fewer double twos count as a
/// continued attack. Measured in renju self-play against 2, 4 and 5
/// (`docs/journal/search.md`); the other rules keep `FAR_DISTANCE`.
pub const FAR_DISTANCE_SELF_RENJU: usize = 3;
/// Freestyle's distance for the opponent's last move: closer than [`FAR_DISTANCE`], so more
/// of a threatened node's defences count as far from the threat just made (reduced more, and
/// pruned at shallow depth when also far from the side's own last move). Measured in
/// freestyle self-play against 2 and 4 (`docs/journal/search.md`); the other rules keep
/// `FAR_DISTANCE`.
pub const FAR_DISTANCE_OPPONENT_FREESTYLE: usize = 3;

// ---------------------------------------------------------------------------------------
// Move ordering.

/// Added to the static score of a four that also makes a two or better on another line
/// (the start of a four-three), and of an open three that does (the start of a double
/// three or a four-three).
pub const FOUR_BUILDS_BONUS: i32 = 400;
pub const THREE_BUILDS_BONUS: i32 = 150;

/// The most the history adds to or takes from a move's ordering score (in the tree, and
/// at the root, whose moves that failed low are reordered by it after each iteration).
pub const HISTORY_ORDER_BOUND: i32 = 400;

/// Added to the score of a move that makes an open three or more at a node that does not
/// face a threat, when the side's move two plies before made an open three or more: a line
/// of threats goes on. Without it the learned table ranks a plain open three below the
/// quiet moves that take the opponent's threes, and the move count prunes it at shallow
/// depth (the journal's second case study).
pub const CONTINUING_ATTACK_ORDER: i32 = 300;

// ---------------------------------------------------------------------------------------
// Iterative deepening.

/// Aspiration windows from this depth (plies): the first half-width, and how it grows.
pub const ASPIRATION_MIN_DEPTH: u32 = 5;
pub const ASPIRATION_DELTA: i32 = 110;
