//! The node function of the main search, in numbered steps (each move's plan, its pruning,
//! extension and reduction, is `plan.rs`).
//!
//! No kind of move is exempt from selectivity: threats and defences are pruned by move
//! count and reduced like quiet moves once the node has a move that does not lose; what
//! keeps forced lines readable is that a node facing a threat generates only its defences
//! (a handful of moves), that the block of a five is searched deeper than a ply,
//! that a line of the side's own threats is reduced less, and that the quiescence and the
//! static wins (`tactics.rs`) read the last plies of a line without search.

use super::parallel::SplitPoint;
use super::plan::rule_family;
use super::stats::NodeKind;
use super::{NodeContext, Pruned, Thread, INF};
use crate::movepick::Facing;
use crate::params::*;
use crate::tactics::{loss_in, Settled};
use crate::tt::Bound;
use crate::WIN_MIN;
use wuzi_core::{Rule, Threat};
use wuzi_eval::eval::EVAL_LIMIT;

fn razor_margin(depth: i32) -> i32 {
    let d = depth as f32 / PLY as f32;
    (RAZOR_MARGIN[0] * d * d + RAZOR_MARGIN[1] * d + RAZOR_MARGIN[2]) as i32
}

fn futility_margin(rule: Rule, depth: i32, no_tt_cut_node: bool, improving: bool) -> i32 {
    let per_ply = FUTILITY_PER_PLY[rule_family(rule)] - FUTILITY_NO_TT_CUT * no_tt_cut_node as i32;
    (per_ply * (depth - improving as i32 * PLY) / PLY).max(0)
}

fn null_margin(depth: i32) -> i32 {
    NULL_MARGIN_BIAS - (NULL_MARGIN_PER_PLY * (depth / PLY)).min(NULL_MARGIN_MAX_DROP)
}

fn null_reduction(depth: i32) -> i32 {
    ((NULL_REDUCTION_BIAS + NULL_REDUCTION_SCALE * depth as f32 / PLY as f32) * PLY as f32) as i32
}

impl Thread<'_> {
    /// One node of the tree (not the root).
    #[inline]
    pub(crate) fn node(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        if self.span.is_none() {
            return self.search_node(alpha, beta, depth, ply, is_pv, cut_node);
        }
        self.span_open();
        let score = self.search_node(alpha, beta, depth, ply, is_pv, cut_node);
        self.span_close();
        score
    }

    pub(super) fn span_open(&mut self) {
        if let Some(span) = self.span.as_mut() {
            span.open(self.nodes);
        }
    }

    pub(super) fn span_close(&mut self) {
        if let Some(span) = self.span.as_mut() {
            span.close(self.nodes);
        }
    }

    /// The span model: the move just searched was sequential or would be handed out.
    pub(super) fn span_end_move(&mut self, handed_out: bool) {
        if let Some(span) = self.span.as_mut() {
            span.end_move(handed_out);
        }
    }

    fn search_node(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        let textbook = self.options.textbook.is_some();
        let pruning = self.options.pruning;
        // Step 1. The horizon: the quiescence reads on.
        if depth <= 0 && !textbook {
            return self.qsearch(alpha, beta, ply, 0, is_pv);
        }

        // Step 2. Initialise the node.
        self.nodes += 1;
        self.pv[ply].clear();
        let after_null = std::mem::take(&mut self.frame_mut(ply).after_null);
        {
            let f = self.frame_mut(ply);
            f.raw_eval = None;
            f.static_eval = None;
            f.current = None;
        }
        self.frame_mut(ply + 2).killers = [None; 2];
        if let Some(stats) = self.stats.as_mut() {
            stats.interior += 1;
        }
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let us = self.board.side_to_move();

        // Step 3. What needs no search.
        let facing = if textbook {
            if self.at_draw() {
                return self.draw_score(ply);
            }
            if self.board.move_count() > 0 && self.board.winner().is_some() {
                return loss_in(ply, 0);
            }
            if self.board.is_full() {
                return 0;
            }
            if ply >= super::MAX_PLY - 1 || depth <= 0 {
                return self.evaluate();
            }
            Facing::Nothing
        } else {
            match self.settle_node(&mut alpha, &mut beta, ply) {
                Settled::Value(v) => return v,
                Settled::Block => Facing::Five,
                Settled::Open => Facing::of(&mut self.board, us),
            }
        };

        if self.stats.is_some() {
            let under = self.frame_before(ply, 1).under_threat || facing.is_threat();
            self.frame_mut(ply).under_threat = under;
            if let Some(stats) = self.stats.as_mut() {
                stats.under_threat += under as u64;
            }
        }

        // Step 4. The transposition table.
        let excluded = self.frame(ply).excluded;
        let hash = self.board.hash();
        let entry = if self.options.use_tt && excluded.is_none() {
            self.tt.probe(hash, ply)
        } else {
            None
        };
        if let Some(e) = entry {
            let usable = e.settles(alpha, beta);
            if !is_pv && e.depth * PLY >= depth && usable {
                if let Some(stats) = self.stats.as_mut() {
                    stats.cut_by_table += 1;
                }
                return e.score;
            }
        }
        let tt_move = entry
            .and_then(|e| e.cell)
            .filter(|&c| self.board.is_empty_cell(c));
        let tt_pv = is_pv || entry.is_some_and(|e| e.pv);
        if excluded.is_none() {
            self.frame_mut(ply).tt_pv = tt_pv;
        }

        // Step 5. The static value: the parent's, negated, where a threat makes the node's
        // own meaningless (its moves are forced or few, and no early pruning applies).
        let parent_static = self.frame_before(ply, 1).static_eval;
        let mut raw_eval = None;
        let (static_eval, eval) = match facing {
            Facing::Five | Facing::OpenThree | Facing::FourThree if !textbook => {
                (parent_static.map_or(0, |v| -v), None)
            }
            _ => {
                let raw = match entry {
                    Some(e) if e.eval.abs() < EVAL_LIMIT => e.eval,
                    _ => self.evaluate(),
                };
                raw_eval = Some(raw);
                let value = self.smoothed(raw, ply);
                // The table's score is a better estimate where its bound says so.
                let better = entry.filter(|e| {
                    e.score.abs() < WIN_MIN
                        && match e.bound {
                            Bound::Exact => true,
                            Bound::Lower => e.score > value,
                            Bound::Upper => e.score < value,
                        }
                });
                (value, Some(better.map_or(value, |e| e.score)))
            }
        };
        {
            let f = self.frame_mut(ply);
            f.raw_eval = raw_eval;
            f.static_eval = Some(static_eval);
        }
        let improvement = match (eval, self.frame_before(ply, 2).static_eval) {
            (Some(_), Some(before)) => static_eval - before,
            _ => 0,
        };
        let improving = improvement > 0;
        let selective = pruning && excluded.is_none();

        if let (Some(eval), true) = (eval, selective && !is_pv) {
            // Step 6. Razoring: far below alpha near the horizon, the quiescence decides.
            if depth < RAZOR_DEPTH
                && (alpha < WIN_MIN || entry.is_none())
                && eval + razor_margin(depth) < alpha
            {
                if let Some(stats) = self.stats.as_mut() {
                    stats.cut_by_razor += 1;
                }
                return self.qsearch(alpha, alpha + 1, ply, 0, false);
            }

            // Step 7. Reverse futility: far above beta, a move will not bring it back below
            // (unless the side's last two moves were fours: a line of fours may be failing).
            let fours_line = self.frame_before(ply, 2).made >= Threat::Four
                && self.frame_before(ply, 4).made >= Threat::Four;
            if eval < WIN_MIN
                && beta > -WIN_MIN
                && !fours_line
                && eval
                    - futility_margin(
                        self.board.rule(),
                        depth - PLY,
                        cut_node && entry.is_none(),
                        improving,
                    )
                    >= beta
            {
                if let Some(stats) = self.stats.as_mut() {
                    stats.cut_by_futility += 1;
                }
                return eval;
            }

            // Step 8. The null move: if passing still holds beta against a shallower search,
            // a move would too. Deep, and never twice in a row.
            if eval >= beta
                && !after_null
                && ply >= self.null_min_ply
                && depth >= NULL_MIN_DEPTH
                && static_eval >= beta + null_margin(depth)
            {
                let r = null_reduction(depth);
                self.frame_mut(ply).current = None;
                self.frame_mut(ply).made = Threat::None;
                self.board.pass();
                self.frame_mut(ply + 1).after_null = true;
                let value = -self.node(-beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                self.board.unpass();
                if self.stopped {
                    return 0;
                }
                if value >= beta {
                    let value = if value >= WIN_MIN { beta } else { value };
                    if beta.abs() < WIN_MIN {
                        if let Some(stats) = self.stats.as_mut() {
                            stats.cut_by_null += 1;
                        }
                        return value;
                    }
                    let saved = self.null_min_ply;
                    self.null_min_ply = ply + 2;
                    let verified = self.node(beta - 1, beta, depth - r, ply, false, false);
                    self.null_min_ply = saved;
                    if self.stopped {
                        return 0;
                    }
                    if verified >= beta {
                        return value;
                    }
                }
            }
        }

        // Step 9. Internal iterative reduction: a PV node the table knows no move for, or
        // one whose entry is much shallower, is searched a little less deep.
        if selective && is_pv && facing != Facing::Five {
            match (tt_move, entry) {
                (None, _) => depth -= IIR_PV,
                (Some(_), Some(e)) if depth > PLY => {
                    let gap = ((depth - e.depth * PLY) as f32 * IIR_TT_PER_PLY) as i32;
                    depth -= gap.clamp(0, IIR_TT_MAX);
                }
                _ => {}
            }
            if depth <= 0 {
                return self.qsearch(alpha, beta, ply, 0, is_pv);
            }
        }

        // Step 10. The moves, by the threat the node faces.
        let mut list = std::mem::take(&mut self.lists[ply]);
        match facing {
            _ if textbook => list.fill_all(&mut self.board, us, tt_move),
            _ => {
                let counter = self
                    .board
                    .last_cell()
                    .and_then(|c| self.counter_moves[us.index()][c]);
                let [k0, k1] = self.frame(ply).killers;
                list.fill(
                    &mut self.board,
                    us,
                    facing,
                    tt_move,
                    [k0, k1, counter],
                    &self.history[us.index()],
                    self.order,
                );
                // A line of threats goes on from the side's own open three or four: its
                // next threats go before the quiet moves the static score prefers, which
                // the move count would otherwise prune at shallow depth.
                if !facing.is_threat() && self.frame_before(ply, 2).made >= Threat::OpenThree {
                    list.raise_threats(&self.board, us, CONTINUING_ATTACK_ORDER);
                }
            }
        }
        if list.moves.is_empty() {
            self.lists[ply] = list;
            // Threatened with no defence (or only forbidden ones): the open four comes.
            return if facing == Facing::OpenThree && self.within_draw(4) {
                loss_in(ply, 4)
            } else if facing == Facing::OpenThree {
                self.draw_score(ply)
            } else {
                0
            };
        }

        // Step 11. The move loop.
        let likely_fail_high = selective
            && !is_pv
            && cut_node
            && eval.is_some_and(|e| {
                e >= beta + FAIL_HIGH_MARGIN_BIAS + FAIL_HIGH_MARGIN_PER_PLY * depth / PLY
            });
        let mut ctx = NodeContext {
            ply,
            depth,
            is_pv,
            cut_node,
            facing,
            improvement,
            tt_move,
            likely_fail_high,
            tt_pv,
            alpha,
            beta,
        };
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_cell = None;
        let mut best_index = 0;
        let mut searched = 0usize;
        let split_depth = if is_pv {
            self.options.split_depth.pv
        } else {
            self.options.split_depth.other
        } * PLY;
        // The moves from here on would go to helpers (for the span model; `parallel.rs`).
        let mut handed_out = false;
        // The moves are searched in one pass, and a second one where a PV node faces a
        // four-three and every move of its narrowed set lost: the defences off the
        // four-three's lines are searched before the principal variation claims a proven
        // loss. (Elsewhere the narrowed set's loss stands: widening every such node cost
        // more nodes than the proofs it corrected were worth.)
        let mut from = 0;
        let mut widened = false;
        loop {
            for i in from..list.moves.len() {
                // A node splits by its depth, or, shallower, because a thread has run out of
                // work (the span model counts only the first: the second depends on timing).
                let by_depth = ctx.depth >= split_depth.max(3 * PLY);
                if searched > 0
                    && list.moves.len() - i >= 2
                    && (by_depth
                        || (ctx.depth >= self.options.split_depth.idle.max(3) * PLY
                            && self.split.as_ref().is_some_and(|s| s.wants_work())))
                {
                    handed_out |= by_depth;
                    if let Some(split) = self.split.clone().filter(|s| s.has_room()) {
                        // Young brothers wait: the moves searched set the bound, the rest run
                        // on the helpers, planned as this loop would plan them.
                        ctx.alpha = alpha;
                        let mut cells = Vec::with_capacity(list.moves.len() - i);
                        list.sort_from(i);
                        for j in i..list.moves.len() {
                            let cell = list.moves[j].0;
                            if Some(cell) == excluded {
                                continue;
                            }
                            match self.plan(&ctx, cell, j + 1, best) {
                                Ok(_) => cells.push((cell, j)),
                                Err(Pruned::ByCount) => break,
                                Err(Pruned::Alone) => {}
                            }
                        }
                        let frames = self.frames_around(ply).to_vec();
                        let point = SplitPoint {
                            board: &self.board,
                            ctx,
                            best,
                            frames: &frames,
                            root_delta: self.root_delta,
                            root_alpha: self.root_alpha,
                            history: &self.history,
                            counter_moves: &self.counter_moves,
                            null_min_ply: self.null_min_ply,
                            cuts: self.split_cuts(),
                        };
                        let (results, history) = split.search_siblings(&point, &cells);
                        self.absorb(&results, &history);
                        self.stop_if_cut();
                        if self.stopped {
                            self.lists[ply] = list;
                            return 0;
                        }
                        let merged = self.merge_siblings(&cells, &results, &ctx, alpha);
                        if merged.0 > best {
                            (best, best_cell) = (merged.0, merged.1);
                            best_index = merged.2;
                        }
                        break;
                    }
                }
                list.pick(i);
                let (cell, _) = list.moves[i];
                if Some(cell) == excluded {
                    continue;
                }
                let move_number = i + 1;
                let mut plan = match self.plan(&ctx, cell, move_number, best) {
                    Ok(plan) => plan,
                    Err(why) => {
                        if let Some(stats) = self.stats.as_mut() {
                            stats.pruned += 1;
                        }
                        if why == Pruned::ByCount {
                            break;
                        }
                        continue;
                    }
                };
                // Singular extension of the table move (always the first move searched).
                if i == 0
                    && selective
                    && facing != Facing::Five
                    && Some(cell) == tt_move
                    && ctx.depth >= SINGULAR_MIN_DEPTH
                {
                    if let Some(e) = entry.filter(|e| {
                        e.score.abs() < WIN_MIN
                            && e.bound != Bound::Upper
                            && e.depth * PLY >= ctx.depth - SINGULAR_TT_DEPTH_SLACK
                    }) {
                        let former_pv = !is_pv && tt_pv;
                        let margin = ((SINGULAR_MARGIN_PER_PLY
                            + SINGULAR_MARGIN_FORMER_PV * former_pv as i32 as f32)
                            * ctx.depth as f32
                            / PLY as f32) as i32;
                        let singular_beta = (e.score - margin).max(-WIN_MIN);
                        let test_depth = (ctx.depth as f32 * SINGULAR_DEPTH_SHARE) as i32
                            - PLY * former_pv as i32;
                        self.frame_mut(ply).excluded = Some(cell);
                        let value = self.node(
                            singular_beta - 1,
                            singular_beta,
                            test_depth,
                            ply,
                            false,
                            cut_node,
                        );
                        self.frame_mut(ply).excluded = None;
                        if self.stopped {
                            self.lists[ply] = list;
                            return 0;
                        }
                        if value < singular_beta {
                            let double = !is_pv
                                && value < singular_beta - DOUBLE_EXTENSION_MARGIN
                                && self.frame(ply).extra_extension < DOUBLE_EXTENSION_MAX;
                            plan.depth = ctx.depth - PLY + if double { 2 * PLY } else { PLY };
                        } else if singular_beta >= beta {
                            // Multi-cut: another move also reaches beta.
                            self.lists[ply] = list;
                            return singular_beta;
                        } else if e.score >= beta {
                            plan.depth -= SINGULAR_FAIL_HIGH_REDUCTION;
                        }
                    }
                }
                self.enter_move(ply, cell, plan.depth, ctx.depth);
                let score = self.search_move(&ctx, plan, move_number, alpha, beta, best);
                self.board.unmake();
                self.span_end_move(handed_out);
                if self.stopped {
                    self.lists[ply] = list;
                    return 0;
                }
                searched += 1;
                if score > best {
                    best = score;
                    if score > alpha {
                        best_cell = Some(cell);
                        best_index = i;
                        if is_pv {
                            self.set_pv(ply, cell);
                        }
                        if score >= beta {
                            self.cutoffs.cutoffs += 1;
                            self.cutoffs.first_move += (i == 0) as u64;
                            break;
                        }
                        alpha = score;
                        ctx.alpha = alpha;
                        // Once a move raised alpha, the rest must beat it: searched less deep.
                        if selective
                            && ctx.depth > ALPHA_RAISED_MIN_DEPTH
                            && ctx.depth < ALPHA_RAISED_MAX_DEPTH
                            && score.abs() < ALPHA_RAISED_SCORE_LIMIT
                        {
                            ctx.depth -= ALPHA_RAISED_REDUCTION;
                        }
                    }
                }
            }
            if widened
                || !is_pv
                || facing != Facing::FourThree
                || excluded.is_some()
                || best > -WIN_MIN
            {
                break;
            }
            widened = true;
            from = list.moves.len();
            let extra = crate::movepick::four_three_block_defences(&mut self.board, us);
            for cell in extra.iter() {
                if !list.moves.iter().any(|m| m.0 == cell) {
                    list.moves.push((cell, 0));
                }
            }
            if let Some(stats) = self.stats.as_mut() {
                stats.widened += 1;
                stats.widened_moves += (list.moves.len() - from) as u64;
            }
            if list.moves.len() == from {
                break;
            }
        }
        if let Some(stats) = self.stats.as_mut() {
            let kind = match facing {
                Facing::Five => NodeKind::Block,
                Facing::OpenThree | Facing::FourThree => NodeKind::Threatened,
                Facing::Nothing => NodeKind::Quiet,
            };
            stats.node(kind, depth / PLY, searched);
            if best_cell.is_some() {
                stats.best_at(best_index);
            }
        }
        if best == -INF {
            self.lists[ply] = list;
            // Every move was pruned or excluded: a singular test fails low; otherwise the
            // static view stands.
            return if excluded.is_some() {
                alpha
            } else {
                static_eval.clamp(original_alpha, beta)
            };
        }

        // Step 12. Remember the best move and store the node.
        if let Some(cell) = best_cell {
            let index = list
                .moves
                .iter()
                .position(|m| m.0 == cell)
                .unwrap_or(best_index);
            self.reward_best_move(&list, index, ply, ctx.depth, facing);
        }
        self.lists[ply] = list;
        let bound = if best >= beta {
            Bound::Lower
        } else if is_pv && best_cell.is_some() {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.options.use_tt && excluded.is_none() {
            self.tt.store_pv(
                hash,
                ply,
                best_cell,
                best,
                raw_eval.unwrap_or(static_eval),
                depth / PLY,
                bound,
                tt_pv,
            );
        }
        best
    }
}
