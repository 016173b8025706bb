//! The plan of each move in a node's loop: whether it is pruned (by move count, as a trivial
//! move or a far defence at shallow depth), how deep it is searched (the table move's
//! extension, a likely fail-high node's ply less, the late-move reduction), and the search
//! of the move by that plan (a reduced null window re-searched deeper or shallower, a null
//! window, the full window at a PV node). The helpers of a split point (`parallel.rs`) and
//! the root (`root.rs`) plan their moves with it, so a move is planned alike wherever it is
//! searched.
//!
//! Pruning applies only once the node has a move that does not lose: a node whose moves all
//! lose has searched every one of them.

use super::{MovePlan, NodeContext, Pruned, Thread, INF};
use crate::movepick::Facing;
use crate::params::*;
use crate::WIN_MIN;
use std::sync::LazyLock;
use wuzi_core::{Cell, Rule, Threat};

/// `ln` of 0..=255, per rule family, times the family's factor (see `LMR_FACTOR`).
static LOG_TABLE: LazyLock<[[f32; 256]; 3]> = LazyLock::new(|| {
    let mut table = [[0.0f32; 256]; 3];
    for (family, row) in table.iter_mut().enumerate() {
        for (i, v) in row.iter_mut().enumerate().skip(1) {
            *v = (LMR_FACTOR[family] * (i as f64).ln()) as f32;
        }
    }
    table
});

pub(super) fn rule_family(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle | Rule::Caro => 0,
        Rule::Standard | Rule::CaroExact => 1,
        Rule::Renju => 2,
    }
}

/// `MOVE_COUNT_BASE + plies^MOVE_COUNT_EXPONENT` for 0..=63 whole plies.
static MOVE_COUNTS: LazyLock<[usize; 64]> = LazyLock::new(|| {
    let mut table = [0; 64];
    for (plies, n) in table.iter_mut().enumerate() {
        *n = MOVE_COUNT_BASE + (plies as f64).powf(MOVE_COUNT_EXPONENT) as usize;
    }
    table
});

/// Moves a node may search before the rest are pruned by their number.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    MOVE_COUNTS[(depth / PLY).clamp(0, 63) as usize] * MOVE_COUNT_SCALE / (2 - improving as usize)
}

impl Thread<'_> {
    /// How the move `cell`, the `move_number`-th of its node, is searched, or why it is
    /// pruned. `best` is the best score among the node's moves searched so far.
    pub(crate) fn plan(
        &self,
        ctx: &NodeContext,
        cell: Cell,
        move_number: usize,
        best: i32,
    ) -> Result<MovePlan, Pruned> {
        let board = &self.board;
        let us = board.side_to_move();
        let made = board.threat_at(us, cell);
        let blocked = board.threat_at(us.opponent(), cell);
        let new_depth = ctx.depth - PLY;
        if ctx.facing == Facing::Five {
            return Ok(MovePlan {
                depth: ctx.depth - PLY + BLOCK_FIVE_EXTENSION,
                reduced: None,
            });
        }
        if !self.options.pruning {
            return Ok(MovePlan {
                depth: new_depth,
                reduced: None,
            });
        }
        let improving = ctx.improvement > 0;
        let trivial = made <= Threat::Two && blocked <= Threat::Two;
        let own_last = self.frame_before(ctx.ply, 2).current;
        let their_last = self.frame_before(ctx.ply, 1).current;
        let far = |other: Option<Cell>, limit: usize| !matches!(other, Some(o) if crate::threat::distance(board, cell, o) <= limit);
        let (self_limit, them_limit) = match board.rule() {
            Rule::Renju => (FAR_DISTANCE_SELF_RENJU, FAR_DISTANCE),
            Rule::Freestyle => (FAR_DISTANCE, FAR_DISTANCE_OPPONENT_FREESTYLE),
            _ => (FAR_DISTANCE, FAR_DISTANCE),
        };
        let (far_from_self, far_from_them) =
            (far(own_last, self_limit), far(their_last, them_limit));
        let threatened = ctx.facing.is_threat();

        // Pruning at shallow depth, once the node has a move that does not lose.
        if ctx.ply > 0 && best > -WIN_MIN {
            if move_number >= move_count_limit(ctx.depth, improving) {
                return Err(Pruned::ByCount);
            }
            if trivial && ctx.depth < TRIVIAL_PRUNE_DEPTH {
                return Err(Pruned::Alone);
            }
            if threatened
                && ctx.depth < FAR_DEFENCE_PRUNE_DEPTH
                && blocked < Threat::Four
                && far_from_self
                && far_from_them
            {
                return Err(Pruned::Alone);
            }
        }

        // Extensions of the table move and of a likely fail-high node's moves.
        let mut depth = new_depth;
        if Some(cell) == ctx.tt_move {
            depth += if ctx.is_pv {
                TT_MOVE_EXTENSION_PV
            } else {
                TT_MOVE_EXTENSION
            };
        }
        // A node that will probably fail high searches its moves a ply less, except its
        // fours (a line of fours answers a threat the static value cannot see).
        if ctx.likely_fail_high && made < Threat::Four {
            depth -= PLY;
        }

        // Late-move reduction.
        let root = ctx.ply == 0;
        if ctx.depth < 2 * PLY || move_number <= 1 + root as usize {
            return Ok(MovePlan {
                depth,
                reduced: None,
            });
        }
        let logs = &LOG_TABLE[rule_family(board.rule())];
        let base = logs[(ctx.depth / PLY).clamp(0, 255) as usize]
            * logs[move_number.min(255)]
            * PLY as f32;
        let mut r = base as i32;
        if ctx.is_pv {
            let width = (ctx.beta - ctx.alpha).max(1);
            r = (r - PLY * width / self.root_delta.max(1)).max(0);
        } else if ctx.improvement <= 0 && r > PLY {
            r += LMR_NOT_IMPROVING;
        }
        if ctx.tt_pv {
            r -= LMR_TT_PV;
        }
        if !root && ctx.ply % 2 == 1 && best >= -self.root_alpha {
            r += LMR_NO_ALPHA_IMPROVING;
        }
        let killer = self.frame(ctx.ply).killers.contains(&Some(cell));
        if ctx.cut_node && !(!threatened && killer && made < Threat::OpenThree) {
            r += LMR_CUT_NODE;
        }
        if threatened && blocked < Threat::Four {
            if far_from_them {
                r += LMR_FAR_FROM_OPPONENT;
            }
            if far_from_self {
                r += LMR_FAR_FROM_SELF;
            }
        }
        if !threatened
            && self.frame_before(ctx.ply, 2).made >= Threat::OpenThree
            && (made >= Threat::OpenThree || (!far_from_self && made >= Threat::DoubleTwo))
        {
            r -= LMR_CONTINUING_ATTACK;
        }
        if board.rule() == Rule::Renju && board.is_forbid_candidate(cell) {
            r -= LMR_FORBID_CANDIDATE;
        }
        r -= PLY * self.history[us.index()][cell] / LMR_HISTORY_DIVISOR;
        Ok(MovePlan {
            depth,
            reduced: Some((depth - r).min(depth).max(PLY)),
        })
    }

    /// Searches the move just made by its plan: a reduced null-window search for a late
    /// move (and a deeper or shallower full one if it fails high), a null window for the
    /// others after the first, and the full window at a PV node for the first move and for
    /// any that beats alpha. Returns the move's score from the node's view.
    pub(crate) fn search_move(
        &mut self,
        ctx: &NodeContext,
        plan: MovePlan,
        move_number: usize,
        alpha: i32,
        beta: i32,
        best: i32,
    ) -> i32 {
        let child = ctx.ply + 1;
        let mut depth = plan.depth;
        let mut score = -INF;
        if let Some(reduced) = plan.reduced {
            score = -self.node(-alpha - 1, -alpha, reduced, child, false, true);
            if score > alpha && reduced < depth && !self.stopped {
                // A reduced search that fails high by much goes deeper than planned, one
                // that only matches the best so far shallower.
                let gap = (depth - reduced) / PLY;
                if score > alpha + LMR_DEEPER_MARGIN + LMR_DEEPER_PER_PLY * gap {
                    depth += PLY;
                    if score > alpha + LMR_EVEN_DEEPER_MARGIN + LMR_EVEN_DEEPER_PER_PLY * gap
                        && self.frame(ctx.ply).extra_extension < LMR_DEEPER_MAX
                    {
                        depth += PLY;
                    }
                } else if score < best + LMR_SHALLOWER_PER_PLY * depth / PLY {
                    depth -= PLY;
                }
                depth = depth.min(plan.depth + LMR_DEEPER_MAX);
                if reduced < depth {
                    score = -self.node(-alpha - 1, -alpha, depth, child, false, !ctx.cut_node);
                }
            }
        } else if !ctx.is_pv || move_number > 1 {
            score = -self.node(-alpha - 1, -alpha, depth, child, false, !ctx.cut_node);
        }
        if ctx.is_pv
            && !self.stopped
            && (move_number == 1 || (score > alpha && (ctx.ply == 0 || score < beta)))
        {
            score = -self.node(-beta, -alpha, depth, child, true, false);
        }
        score
    }
}
