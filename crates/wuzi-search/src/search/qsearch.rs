//! The quiescence below the horizon: the side to move may stand pat on its static value or
//! play one of its fours, which the opponent must block; the value is the best of these, so
//! a line of fours that ends in a better position counts, not only one that ends in a five.
//!
//! Steps of a node:
//! 1. settle tactics (`tactics.rs`): a five, a loss to fives, an open four, a four-three or
//!    double three; the opponent's one five point forces the block, played at once and free;
//! 2. the table (entries of any depth: the quiescence stores at depth 0);
//! 3. stand pat: the static value fails high alone, or raises alpha at a PV node; far below
//!    alpha (delta pruning) the fours are not tried;
//! 4. the fours: near the side's own last stone (a line of fours grows from the stones it
//!    places), and after `QS_PLAIN_FOURS_PLIES` of them only fours that also make a two or a
//!    three (unless the side's last two fours did), best first.
//!
//! With `Options::pruning` off there is no delta pruning and every four is tried, near or
//! not, so the value depends on the position alone (the invariant of `search.rs`). With
//! `Options::threat_search` off no four is tried: the quiescence settles tactics and stands
//! pat.

use super::{Thread, INF};
use crate::movepick;
use crate::params::{QS_DELTA_BASE, QS_DELTA_MIN, QS_DELTA_PER_PLY, QS_PLAIN_FOURS_PLIES};
use crate::tactics::{self, Settled};
use crate::tt::Bound;
use wuzi_core::{Cell, Color, Threat};

impl Thread<'_> {
    /// The quiescence value of the position at `ply`, `qply` fours into the quiescence.
    pub(super) fn qsearch(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        qply: i32,
        is_pv: bool,
    ) -> i32 {
        self.nodes += 1;
        if self.stats.is_some() {
            let under = self.frame_before(ply, 1).under_threat;
            self.frame_mut(ply).under_threat = under;
            if let Some(stats) = self.stats.as_mut() {
                stats.quiescence += 1;
                stats.under_threat += under as u64;
            }
        }
        self.pv[ply].clear();
        let f = self.frame_mut(ply);
        f.raw_eval = None;
        f.static_eval = None;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.options.textbook.is_some() {
            return self.evaluate();
        }
        // Step 1. Tactics.
        match self.settle_node(&mut alpha, &mut beta, ply) {
            Settled::Value(v) => return v,
            Settled::Block => {
                if self.stats.is_some() && !self.frame(ply).under_threat {
                    self.frame_mut(ply).under_threat = true;
                    if let Some(stats) = self.stats.as_mut() {
                        stats.under_threat += 1;
                    }
                }
                // The stones that stop the five are the only moves, and free.
                let us = self.board.side_to_move();
                let stoppers = tactics::five_stoppers(&mut self.board, us);
                let mut best = -INF;
                for block in stoppers.iter() {
                    self.set_move(ply, us, block);
                    self.board.make(us, block);
                    let score = -self.qsearch(-beta, -alpha, ply + 1, qply, is_pv);
                    self.board.unmake();
                    if self.stopped {
                        return 0;
                    }
                    if score > best {
                        best = score;
                        if score > alpha {
                            if is_pv {
                                self.set_pv(ply, block);
                            }
                            if score >= beta {
                                break;
                            }
                            alpha = score;
                        }
                    }
                }
                return best;
            }
            Settled::Open => {}
        }
        // Step 2. The table.
        let hash = self.board.hash();
        let entry = if self.options.use_tt {
            self.tt.probe(hash, ply)
        } else {
            None
        };
        if let Some(e) = entry {
            let usable = e.settles(alpha, beta);
            if !is_pv && usable {
                return e.score;
            }
        }
        // Step 3. Stand pat.
        let raw = match entry {
            Some(e) if e.eval.abs() < wuzi_eval::eval::EVAL_LIMIT => e.eval,
            _ => self.evaluate(),
        };
        let static_value = self.smoothed(raw, ply);
        let f = self.frame_mut(ply);
        f.raw_eval = Some(raw);
        f.static_eval = Some(static_value);
        let mut best = static_value;
        if best >= beta {
            return best;
        }
        let original_alpha = alpha;
        if is_pv && best > alpha {
            alpha = best;
        }
        let pruning = self.options.pruning;
        let delta = (QS_DELTA_BASE + QS_DELTA_PER_PLY * qply).max(QS_DELTA_MIN);
        if pruning && !is_pv && best + delta < alpha {
            return alpha;
        }
        // Step 4. The fours.
        let us = self.board.side_to_move();
        let own_last = if pruning {
            self.board.recent_move(1).map(|(_, c)| c)
        } else {
            None
        };
        // The side's last two fours both made a three too: its line of fours is building.
        let building = self.frame_before(ply, 2).made >= Threat::FourThree
            && self.frame_before(ply, 4).made >= Threat::FourThree;
        let building_only = pruning && -qply >= QS_PLAIN_FOURS_PLIES && !building;
        let mut moves = std::mem::take(&mut self.lists[ply].moves);
        if self.options.threat_search {
            movepick::quiescence_fours(
                &mut self.board,
                us,
                own_last,
                building_only,
                self.order,
                &mut moves,
            );
        } else {
            moves.clear();
        }
        let mut best_cell = None;
        for &(cell, _) in moves.iter() {
            self.set_move(ply, us, cell);
            self.board.make(us, cell);
            let score = -self.qsearch(-beta, -alpha, ply + 1, qply - 1, is_pv);
            self.board.unmake();
            if self.stopped {
                self.lists[ply].moves = moves;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_cell = Some(cell);
                    if is_pv {
                        self.set_pv(ply, cell);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.lists[ply].moves = moves;
        if self.options.use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if is_pv && best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(hash, ply, best_cell, best, raw, 0, bound);
        }
        best
    }

    /// Records the move searched from `ply` and what it makes and blocks.
    #[inline]
    pub(super) fn set_move(&mut self, ply: usize, us: Color, cell: Cell) {
        let made = self.board.threat_at(us, cell);
        let blocked = self.board.threat_at(us.opponent(), cell);
        let f = self.frame_mut(ply);
        f.current = Some(cell);
        f.made = made;
        f.blocked = blocked;
    }
}
