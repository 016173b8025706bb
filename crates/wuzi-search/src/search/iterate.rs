//! Iterative deepening over the root: aspiration windows, multi-PV, and the decision, after
//! each iteration, whether another one may start (`IterationClock`).

use super::{RootMove, Thread, INF, MAX_DEPTH};
use crate::iteration_clock::IterationClock;
use crate::params::{ASPIRATION_DELTA, ASPIRATION_MIN_DEPTH, PLY};
use crate::{Info, WIN, WIN_MIN};
use wuzi_core::Cell;

/// The root's VCF, then iterative deepening with aspiration windows and multi-PV. Reports
/// each completed line through `on_info`; returns the root moves of the last completed
/// iteration, best first, and the depth completed. The deeper forcing lines (threes as well
/// as fours) are the tree's own: its static wins, threat defences and quiescence read them,
/// so no separate threat-space search runs beside it.
pub fn iterate(
    thread: &mut Thread,
    on_info: &mut (dyn FnMut(&Info) + Send),
) -> (Vec<RootMove>, u32) {
    let root_moves = thread.root_moves();
    let mut cells = thread.unblocked(root_moves);
    if cells.len() > 1 && thread.options.threat_search && thread.options.textbook.is_none() {
        // Blocks and a stone limit can void the VCF's win: its first move may be blocked, or
        // its five come after the last stone.
        let restricted = thread.has_blocks() || thread.limits.draw.is_some();
        let win = thread.root_vcf().filter(|w| {
            !restricted
                || (thread.root_allowed(w.cell) && thread.within_draw((WIN - w.score) as usize))
        });
        if let Some(win) = win {
            return report_win(thread, win, on_info);
        }
        // An opponent's VCF that the stone limit cuts short is no threat: near the limit
        // every root move is kept.
        if thread.within_draw(DRAW_HORIZON) {
            cells = thread.filter_against_opponent_vcf(cells);
        }
    }
    deepen(thread, cells, on_info)
}

/// Plies within which a stone limit may cut an opponent's VCF short (the root filter of
/// moves that leave one is skipped that close to the limit).
const DRAW_HORIZON: usize = 64;

/// A win the threat solvers proved at the root: reported as the search's one line.
pub(crate) fn report_win(
    thread: &Thread,
    win: RootMove,
    on_info: &mut dyn FnMut(&Info),
) -> (Vec<RootMove>, u32) {
    let depth = win.pv.len() as u32;
    on_info(&Info {
        depth,
        seldepth: depth,
        multipv: 1,
        score: win.score,
        nodes: thread.nodes,
        elapsed: thread.elapsed(),
        pv: thread.points(&win.pv),
    });
    (vec![win], depth)
}

/// Iterative deepening over the root moves `cells`. An iteration cut off by the clock still
/// counts where it found a new best move: a root move whose finished search beat the previous
/// best's bound (root moves are searched best first, so such a move is better than the last
/// iteration's choice).
pub(crate) fn deepen(
    thread: &mut Thread,
    cells: Vec<Cell>,
    on_info: &mut dyn FnMut(&Info),
) -> (Vec<RootMove>, u32) {
    let mut moves: Vec<RootMove> = cells
        .iter()
        .map(|&cell| RootMove {
            cell,
            score: -INF,
            pv: vec![cell],
            depth: 0,
        })
        .collect();
    if moves.is_empty() {
        return (moves, 0);
    }
    let multipv = thread.limits().multipv.clamp(1, moves.len());
    let max_depth = thread
        .limits()
        .max_depth
        .map_or(MAX_DEPTH, |d| (d as i32).clamp(1, MAX_DEPTH));
    let mut clock = IterationClock::new(thread.limits());
    let mut completed: Vec<RootMove> = moves.clone();
    let mut completed_depth = 0;
    let mut previous: i32 = 0;
    for depth in 1..=max_depth {
        thread.report_iteration(depth);
        let iteration_start = thread.elapsed();
        let mut found: Vec<RootMove> = Vec::new();
        let mut cut_off_best: Option<RootMove> = None;
        for pv_index in 0..multipv {
            let mut rest: Vec<RootMove> = moves
                .iter()
                .filter(|m| !found.iter().any(|f| f.cell == m.cell))
                .cloned()
                .collect();
            let mut delta = ASPIRATION_DELTA;
            let aspiration =
                thread.options.pruning && depth >= ASPIRATION_MIN_DEPTH as i32 && pv_index == 0;
            let (mut alpha, mut beta) = if aspiration && previous.abs() < WIN_MIN {
                (previous - delta, previous + delta)
            } else {
                (-INF, INF)
            };
            thread.root_line = pv_index;
            let score = loop {
                let score = thread.search_root(&mut rest, depth * PLY, alpha, beta);
                if let Some(verified) = thread.root_verified.take() {
                    cut_off_best = Some(verified);
                }
                if thread.stopped() {
                    break score;
                }
                if score <= alpha {
                    alpha = (alpha - delta).max(-INF);
                    beta = (alpha + beta) / 2;
                } else if score >= beta {
                    beta = (beta + delta).min(INF);
                } else {
                    break score;
                }
                delta *= 2;
                if delta > 1000 {
                    alpha = -INF;
                    beta = INF;
                }
            };
            if thread.stopped() {
                break;
            }
            if pv_index == 0 {
                previous = score;
            }
            let mut best = rest[0].clone();
            best.depth = depth as u32;
            on_info(&Info {
                depth: depth as u32,
                seldepth: thread.seldepth as u32,
                multipv: pv_index + 1,
                score: best.score,
                nodes: thread.nodes,
                elapsed: thread.elapsed(),
                pv: thread.points(&best.pv),
            });
            found.push(best);
            // Keep the order of this pass for the next iteration.
            for m in rest.into_iter().skip(1) {
                if let Some(slot) = moves.iter_mut().find(|x| x.cell == m.cell) {
                    *slot = m;
                }
            }
        }
        if thread.stopped() && found.is_empty() {
            // The clock cut the first line's pass: a new best move it proved still counts.
            if let Some(mut best) = cut_off_best.filter(|b| b.cell != completed[0].cell) {
                best.depth = depth as u32;
                on_info(&Info {
                    depth: depth as u32,
                    seldepth: thread.seldepth as u32,
                    multipv: 1,
                    score: best.score,
                    nodes: thread.nodes,
                    elapsed: thread.elapsed(),
                    pv: thread.points(&best.pv),
                });
                completed.retain(|m| m.cell != best.cell);
                completed.insert(0, best);
            }
            break;
        }
        // A later pass of a selective search can score above an earlier one (each pass
        // prunes its own tree): the lines are kept best first, ties in pass order.
        found.sort_by_key(|m| std::cmp::Reverse(m.score));
        // Next iteration: the found lines first, the rest as last ordered.
        let mut next = found.clone();
        next.extend(
            moves
                .iter()
                .filter(|m| !found.iter().any(|f| f.cell == m.cell))
                .cloned(),
        );
        // The moves that failed low, in the order a node would now search them: the history
        // learned in this iteration reorders them (else a late move stays late, and heavily
        // reduced, in every iteration).
        next[found.len()..]
            .sort_by_cached_key(|m| std::cmp::Reverse(thread.root_order_score(m.cell)));
        moves = next;
        let best_before = completed[0].cell;
        if found.len() == multipv {
            completed = moves.clone();
            completed_depth = depth as u32;
        } else if !found.is_empty() {
            // A stopped multi-PV pass still improves the best move. The lines it did not reach
            // keep their last completed search (score, line and depth together), not the
            // bounds this iteration's passes left on them.
            completed = merge_lines(&found, &completed, multipv, &moves);
        }
        if thread.stopped() {
            break;
        }
        clock.record(depth, completed[0].cell != best_before);
        if moves.len() == 1 && clock.forced_move_done(depth, thread.elapsed()) {
            break; // A forced move in play: a few iterations for its score, no more.
        }
        let best_score = completed[0].score;
        if best_score.abs() >= WIN_MIN && WIN - best_score.abs() <= depth {
            break; // A proven result no deeper search can change.
        }
        let elapsed = thread.elapsed();
        let last_iteration = elapsed.saturating_sub(iteration_start);
        if !clock.may_start_iteration(elapsed, last_iteration) {
            break;
        }
    }
    (completed, completed_depth)
}

/// The root moves after a multi-PV iteration cut short: the lines it finished (`found`), then
/// the lines of the last complete iteration (`previous`) that it did not reach, up to
/// `multipv` lines, each as its own last search left it; then every other root move in the
/// order of `order`.
fn merge_lines(
    found: &[RootMove],
    previous: &[RootMove],
    multipv: usize,
    order: &[RootMove],
) -> Vec<RootMove> {
    let mut lines: Vec<RootMove> = found.to_vec();
    for m in previous {
        if lines.len() >= multipv {
            break;
        }
        if !lines.iter().any(|l| l.cell == m.cell) {
            lines.push(m.clone());
        }
    }
    for m in order {
        if !lines.iter().any(|l| l.cell == m.cell) {
            lines.push(m.clone());
        }
    }
    lines
}
