//! The root of the tree: which moves it has (forced ones first), the threat solvers that run
//! before any alpha-beta (the side's own VCF and VCT, and the filter that drops root moves
//! leaving the opponent a VCF), and the search of the root moves at one depth.
//!
//! Invariant: `search_root` keeps the root moves ordered best first, so an iteration cut off
//! by the clock has already tried the previous best; `root_verified` holds the best move whose
//! search finished above the window's alpha.

use super::{RootMove, Thread, INF};
use crate::movepick::{self, MoveList};
use crate::threat::SolveResult;
use crate::tt::Bound;
use crate::vcf::UNLIMITED;
use crate::WIN;
use std::time::Duration;
use wuzi_core::{flag, Cell};

impl Thread<'_> {
    /// The root moves: forced ones if the position forces, else every candidate.
    pub fn root_moves(&mut self) -> Vec<Cell> {
        let board = &mut self.board;
        let us = board.side_to_move();
        if self.options.textbook.is_some() {
            let mut list = MoveList::default();
            list.fill_all(board, us, None);
            list.sort();
            return list.moves.iter().map(|m| m.0).collect();
        }
        let them = us.opponent();
        let fives = *board.cells_making(us, flag::FIVE);
        if let Some(c) = fives.first() {
            return vec![c];
        }
        let blocks = *board.cells_making(them, flag::FIVE);
        if !blocks.is_empty() {
            let legal = movepick::legal_cells(board, us, &blocks);
            if !legal.is_empty() {
                return legal;
            }
        }
        let open_four_set = *board.cells_making(us, flag::OPEN_FOUR);
        let open_fours = movepick::legal_cells(board, us, &open_four_set);
        if let Some(&c) = open_fours.first() {
            return vec![c];
        }
        let threatened = movepick::opponent_threatens_open_four(board, them);
        let mut list = MoveList::default();
        let history = self.history[us.index()];
        list.fill(board, us, threatened, None, [None; 3], &history);
        if list.moves.is_empty() && threatened {
            list.fill(board, us, false, None, [None; 3], &history);
        }
        list.sort();
        let mut moves: Vec<Cell> = list.moves.iter().map(|m| m.0).collect();
        if moves.is_empty() {
            // Nothing near the stones is legal: any legal empty point.
            let empty = board.on_board().and_not(&board.occupied());
            moves = movepick::legal_cells(board, us, &empty);
        }
        moves
    }

    /// Searches the root moves at `depth` within `(alpha, beta)`, reordering `moves` by
    /// score; returns the best score (meaningless if stopped).
    pub fn search_root(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        match self.split.clone() {
            Some(split) => split.search_root(self, moves, depth, alpha, beta),
            None => self.search_root_serial(moves, depth, alpha, beta),
        }
    }

    /// `search_root` on this thread alone (below the root, principal variation nodes still
    /// split where the thread has helpers).
    pub(crate) fn search_root_serial(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.span_open();
        let best = self.search_root_moves(moves, depth, alpha, beta);
        self.span_close();
        best
    }

    fn search_root_moves(
        &mut self,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        let us = self.board.side_to_move();
        self.nodes += 1;
        self.root_verified = None;
        let fives = *self.board.cells_making(us, flag::FIVE);
        for i in 0..moves.len() {
            let cell = moves[i].cell;
            self.report_entered(cell, depth);
            self.board.make(us, cell);
            let score = if fives.contains(cell) {
                self.pv[1].clear();
                WIN - 1
            } else if i == 0 {
                -self.node(-beta, -alpha, depth - 1, 1, true)
            } else {
                let mut s = -self.node(-alpha - 1, -alpha, depth - 1, 1, false);
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(-beta, -alpha, depth - 1, 1, true);
                }
                s
            };
            self.board.unmake();
            // The root split hands out every move after the first.
            self.span_end_move(i > 0);
            if self.stopped {
                return best;
            }
            if self.observed() {
                self.report_finished(cell, depth, score, score > best);
            }
            if score > best {
                best = score;
                let mut pv = vec![cell];
                pv.extend_from_slice(&self.pv[1]);
                moves[i].pv = pv;
                moves[i].score = score;
                // Keep the best first, the rest in order.
                moves[..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                    self.root_verified = Some(moves[0].clone());
                    if score >= beta {
                        break;
                    }
                }
            } else {
                moves[i].score = -INF;
            }
        }
        if let (Some(first), true) = (moves.first(), self.options.use_tt) {
            self.tt.store(
                self.board.hash(),
                0,
                Some(first.cell),
                best,
                0,
                depth,
                if best >= beta {
                    Bound::Lower
                } else {
                    Bound::Exact
                },
            );
        }
        best
    }

    /// Threat-space search at the root: the side's own VCF, then (with a share of the time)
    /// its VCT. A win found is a finished search: its line and score.
    pub fn root_threats(&mut self) -> Option<RootMove> {
        if let Some(win) = self.root_vcf() {
            return Some(win);
        }
        let threat_time = self.threat_time();
        let (line, nodes) = crate::vct::root_vct(
            &mut self.board,
            threat_time,
            self.start,
            self.limits.max_nodes,
            self.stop,
        );
        self.nodes += nodes;
        if let Some(span) = self.span.as_mut() {
            span.beside_deepening(nodes);
        }
        line.map(|line| self.proven_root_move(line))
    }

    /// The side to move's VCF at the root (a quarter of the soft time at most).
    pub(crate) fn root_vcf(&mut self) -> Option<RootMove> {
        let us = self.board.side_to_move();
        let soft = self.threat_time();
        let deadline = soft.map(|t| self.start + t / 4);
        self.vcf.set_deadline(deadline);
        // A node-bounded search gives the VCF a quarter of its nodes at most.
        let budget = self
            .limits
            .max_nodes
            .map_or(2_000_000, |n| (n / 4).clamp(1, 2_000_000));
        let outcome = self.vcf.solve(&mut self.board, us, UNLIMITED, budget);
        self.vcf.set_deadline(None);
        self.nodes += outcome.nodes;
        match outcome.result {
            SolveResult::Win(line) => Some(self.proven_root_move(line)),
            _ => None,
        }
    }

    /// The time the root's threat solvers take their shares of: the soft limit, but never
    /// more than three fifths of the hard one (what the soft limit was when a move used only
    /// that much), so that a search allowed its whole turn does not spend it on threats.
    pub(crate) fn threat_time(&self) -> Option<Duration> {
        match (self.limits.soft_time, self.limits.hard_time) {
            (Some(soft), Some(hard)) => Some(soft.min(hard * 3 / 5)),
            (soft, hard) => soft.or(hard),
        }
    }

    pub(crate) fn proven_root_move(&self, line: Vec<Cell>) -> RootMove {
        RootMove {
            cell: line[0],
            score: WIN - line.len() as i32,
            depth: line.len() as u32,
            pv: line,
        }
    }

    /// The root moves that leave the opponent no VCF (checked only if the opponent has one
    /// now); all of them if none does (the search then finds the best loss).
    pub fn filter_against_opponent_vcf(&mut self, cells: Vec<Cell>) -> Vec<Cell> {
        let us = self.board.side_to_move();
        let them = us.opponent();
        if cells.len() <= 1 || self.board.cells_making(them, flag::FOUR).is_empty() {
            return cells;
        }
        let soft = self.threat_time();
        self.vcf.set_deadline(soft.map(|t| self.start + t / 3));
        let outcome = self.vcf.solve(&mut self.board, them, UNLIMITED, 200_000);
        self.nodes += outcome.nodes;
        if !outcome.result.is_win() {
            self.vcf.set_deadline(None);
            return cells;
        }
        let our_fours = *self.board.cells_making(us, flag::FOUR);
        let mut safe = Vec::new();
        for &cell in &cells {
            if our_fours.contains(cell) {
                safe.push(cell);
                continue;
            }
            self.board.make(us, cell);
            let outcome = self.vcf.solve(&mut self.board, them, UNLIMITED, 20_000);
            self.board.unmake();
            self.nodes += outcome.nodes;
            if !outcome.result.is_win() {
                safe.push(cell);
            }
        }
        self.vcf.set_deadline(None);
        if safe.is_empty() {
            cells
        } else {
            safe
        }
    }
}
