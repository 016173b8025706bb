//! The simple search: iterative-deepening negamax alpha-beta with a transposition table.
//!
//! Candidates are the empty points within two of a stone, ordered by the threat each makes
//! for the side to move (counted twice) plus the threat it takes from the opponent; inner
//! nodes search only the best [`INNER_WIDTH`] of them. A node where the side to move can make
//! a five is a win; a node where the opponent threatens a five has one move (the block),
//! searched without spending depth, so forced lines are read out. Leaves score the sum of
//! threat weights of both sides. The stop flag, the hard time and the node limit are checked
//! every [`CHECK_EVERY`] nodes and between root moves; only completed iterations change the
//! answer. Renju Black's forbidden points are never generated.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use wuzi_core::board::Cell;
use wuzi_core::{flag, Board, Color, Point, Threat};

use crate::{Info, Limits, SearchResult, WIN, WIN_MIN};

/// Moves searched at an inner node.
const INNER_WIDTH: usize = 12;
/// Deepest ply of a line (forced replies extend lines).
const MAX_PLY: usize = 100;
/// Deepest iteration.
const MAX_DEPTH: u32 = 60;
const INF: i32 = WIN + 1;
/// Nodes between checks of the clock and the stop flag (a power of two).
const CHECK_EVERY: u64 = 256;
/// Smallest table, in entries, whatever the byte bound.
const MIN_ENTRIES: usize = 1 << 10;
const ENTRY_BYTES: usize = 16;

/// The value of a threat class, for ordering and evaluation.
fn weight(t: Threat) -> i32 {
    match t {
        Threat::None | Threat::Forbidden => 0,
        Threat::One => 1,
        Threat::Two => 3,
        Threat::OpenTwo => 8,
        Threat::DoubleTwo => 20,
        Threat::Three => 10,
        Threat::ThreeTwo => 30,
        Threat::OpenThree => 40,
        Threat::DoubleThree => 300,
        Threat::Four => 50,
        Threat::FourThree => 600,
        Threat::OpenFour => 1500,
        Threat::Five => 5000,
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Bound {
    Exact = 0,
    Lower = 1,
    Upper = 2,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    cell: Option<Cell>,
    score: i32,
    depth: u32,
    bound: Bound,
}

/// A one-entry-per-slot, always-replace table; allocated (zeroed lazily by the OS) on first
/// use, never larger than its byte bound, except for [`MIN_ENTRIES`].
struct Table {
    bytes: usize,
    slots: Vec<[u64; 2]>,
}

impl Table {
    fn ensure(&mut self) {
        if self.slots.is_empty() {
            let fit = (self.bytes / ENTRY_BYTES).max(MIN_ENTRIES);
            let entries = 1usize << (usize::BITS - 1 - fit.leading_zeros());
            self.slots = vec![[0u64; 2]; entries];
        }
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        let [k, data] = *self.slots.get(self.index(key))?;
        if k != key || data == 0 {
            return None;
        }
        let cell = (data >> 48) as usize;
        Some(Entry {
            cell: cell.checked_sub(1),
            score: data as u32 as i32,
            depth: ((data >> 32) & 0xff) as u32,
            bound: match (data >> 40) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
        })
    }

    fn store(&mut self, key: u64, e: Entry) {
        let cell = e.cell.map_or(0, |c| c as u64 + 1);
        let data = u64::from(e.score as u32)
            | u64::from(e.depth.min(255)) << 32
            | (e.bound as u64) << 40
            | cell << 48;
        let i = self.index(key);
        if let Some(slot) = self.slots.get_mut(i) {
            *slot = [key, data];
        }
    }
}

pub(crate) struct Simple {
    table: Table,
}

impl Simple {
    pub(crate) fn new(hash_bytes: usize) -> Simple {
        Simple {
            table: Table {
                bytes: hash_bytes,
                slots: Vec::new(),
            },
        }
    }

    pub(crate) fn clear(&mut self) {
        self.table.slots = Vec::new();
    }

    pub(crate) fn set_hash(&mut self, hash_bytes: usize) {
        if hash_bytes != self.table.bytes {
            self.table.bytes = hash_bytes;
            self.table.slots = Vec::new();
        }
    }

    pub(crate) fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Option<SearchResult> {
        let start = Instant::now();
        let mut board = board.clone();
        if let Some((p, score)) =
            forced_root_move(&mut board).filter(|(p, _)| !limits.blocked.contains(p))
        {
            let info = Info {
                depth: 0,
                seldepth: 0,
                multipv: 1,
                score,
                nodes: 0,
                elapsed: start.elapsed(),
                pv: vec![p],
            };
            on_info(&info);
            return Some(SearchResult {
                best: p,
                score,
                depth: 0,
                nodes: 0,
                lines: vec![(p, score)],
                pv: vec![crate::PvLine {
                    score,
                    depth: 0,
                    pv: vec![p],
                }],
                cutoffs: crate::CutoffStats::default(),
            });
        }
        let us = board.side_to_move();
        let mut roots: Vec<RootMove> = ordered_candidates(&mut board, us)
            .into_iter()
            .map(|(cell, _)| RootMove::new(cell))
            .collect();
        if !limits.blocked.is_empty() {
            roots.retain(|r| !limits.blocked.contains(&board.point(r.cell)));
        }
        if roots.is_empty() {
            roots = all_legal(&mut board)
                .into_iter()
                .filter(|&c| !limits.blocked.contains(&board.point(c)))
                .map(RootMove::new)
                .collect();
        }
        let first = roots.first()?.cell;
        self.table.ensure();
        let mut ctx = Ctx {
            board,
            table: &mut self.table,
            stop,
            start,
            hard: limits.hard_time,
            max_nodes: limits.max_nodes,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            pv: vec![[0; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        };
        let lines = limits.multipv.max(1).min(roots.len());
        let max_depth = limits.max_depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut completed: Option<(u32, Vec<RootMove>)> = None;
        for depth in 1..=max_depth {
            if !ctx.search_root(&mut roots, depth, lines) {
                break;
            }
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
            let elapsed = start.elapsed();
            for (k, r) in roots.iter().take(lines).enumerate() {
                on_info(&Info {
                    depth,
                    seldepth: ctx.seldepth,
                    multipv: k + 1,
                    score: r.score,
                    nodes: ctx.nodes,
                    elapsed,
                    pv: r.pv.iter().map(|&c| ctx.board.point(c)).collect(),
                });
            }
            completed = Some((depth, roots.clone()));
            let best = roots[0].score;
            let proven = best.abs() >= WIN_MIN && (WIN - best.abs()) as u32 <= depth;
            if proven || roots.len() == 1 || limits.soft_time.is_some_and(|s| elapsed >= s) {
                break;
            }
        }
        let board = &ctx.board;
        let (depth, pv) = match completed {
            Some((depth, done)) => (
                depth,
                done.iter()
                    .take(lines)
                    .map(|r| crate::PvLine {
                        score: r.score,
                        depth,
                        pv: r.pv.iter().map(|&c| board.point(c)).collect(),
                    })
                    .collect::<Vec<_>>(),
            ),
            None => (
                0,
                vec![crate::PvLine {
                    score: 0,
                    depth: 0,
                    pv: vec![board.point(first)],
                }],
            ),
        };
        let lines_out: Vec<(Point, i32)> = pv
            .iter()
            .map(|l| (l.pv.first().copied().unwrap_or(board.point(first)), l.score))
            .collect();
        let (best, score) = lines_out[0];
        Some(SearchResult {
            best,
            score,
            depth,
            nodes: ctx.nodes,
            lines: lines_out,
            pv,
            cutoffs: crate::CutoffStats::default(),
        })
    }
}

#[derive(Clone, Debug)]
struct RootMove {
    cell: Cell,
    score: i32,
    pv: Vec<Cell>,
}

impl RootMove {
    fn new(cell: Cell) -> RootMove {
        RootMove {
            cell,
            score: -INF,
            pv: vec![cell],
        }
    }
}

struct Ctx<'a> {
    board: Board,
    table: &'a mut Table,
    stop: &'a AtomicBool,
    start: Instant,
    hard: Option<Duration>,
    max_nodes: Option<u64>,
    nodes: u64,
    seldepth: u32,
    aborted: bool,
    pv: Vec<[Cell; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
}

impl Ctx<'_> {
    fn check(&mut self) {
        if self.stop.load(Ordering::Relaxed)
            || self.hard.is_some_and(|h| self.start.elapsed() >= h)
            || self.max_nodes.is_some_and(|n| self.nodes >= n)
        {
            self.aborted = true;
        }
    }

    /// One iteration over the root moves. Returns false if aborted (results unusable).
    fn search_root(&mut self, roots: &mut [RootMove], depth: u32, lines: usize) -> bool {
        let mut found: Vec<i32> = Vec::with_capacity(roots.len());
        for root in roots.iter_mut() {
            self.check();
            if self.aborted {
                return false;
            }
            // With `lines` lines wanted, a move must beat the lines-th best score so far.
            let alpha = if found.len() < lines {
                -INF
            } else {
                found[lines - 1]
            };
            self.board.make(self.board.side_to_move(), root.cell);
            let score = -self.negamax(depth as i32 - 1, 1, -INF, -alpha);
            self.board.unmake();
            if self.aborted {
                return false;
            }
            root.score = if score > alpha { score } else { -INF + 1 };
            if score > alpha {
                root.pv.clear();
                root.pv.push(root.cell);
                root.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
                let at = found.partition_point(|&s| s >= score);
                found.insert(at, score);
            }
        }
        true
    }

    fn negamax(&mut self, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            self.check();
        }
        if self.aborted {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply as u32);
        let us = self.board.side_to_move();
        let them = us.opponent();
        if !self.board.cells_making(us, flag::FIVE).is_empty() {
            return WIN - ply as i32 - 1;
        }
        if ply >= MAX_PLY || self.board.is_full() {
            return if ply >= MAX_PLY {
                evaluate(&self.board, us)
            } else {
                0
            };
        }
        let their_fives = *self.board.cells_making(them, flag::FIVE);
        if their_fives.count() >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        if let Some(block) = their_fives.first() {
            let p = self.board.point(block);
            if us == Color::Black && self.board.is_forbidden(p) {
                return -(WIN - ply as i32 - 2);
            }
            self.board.make(us, block);
            let score = -self.negamax(depth, ply + 1, -beta, -alpha);
            self.board.unmake();
            self.set_pv(ply, block);
            return score;
        }
        if depth <= 0 {
            return evaluate(&self.board, us);
        }
        let key = self.board.hash();
        let mut tt_cell = None;
        if let Some(e) = self.table.probe(key) {
            tt_cell = e.cell;
            if e.depth >= depth as u32 {
                let s = from_table(e.score, ply);
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                };
                if cut {
                    return s;
                }
            }
        }
        let mut moves = ordered_candidates(&mut self.board, us);
        if let Some(tc) = tt_cell {
            if let Some(i) = moves.iter().position(|&(c, _)| c == tc) {
                moves[..=i].rotate_right(1);
            }
        }
        moves.truncate(INNER_WIDTH);
        if moves.is_empty() {
            let legal = all_legal(&mut self.board);
            if legal.is_empty() {
                // Nothing legal: a full board draws, renju Black with only forbidden points loses.
                return if self.board.is_full() {
                    0
                } else {
                    -(WIN - ply as i32 - 2)
                };
            }
            moves = legal
                .into_iter()
                .take(INNER_WIDTH)
                .map(|c| (c, 0))
                .collect();
        }
        let alpha_orig = alpha;
        let mut best = -INF;
        let mut best_cell = moves[0].0;
        for (cell, _) in moves {
            self.board.make(us, cell);
            let score = -self.negamax(depth - 1, ply + 1, -beta, -alpha);
            self.board.unmake();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                best_cell = cell;
                if score > alpha {
                    alpha = score;
                    self.set_pv(ply, cell);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha_orig {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table.store(
            key,
            Entry {
                cell: Some(best_cell),
                score: to_table(best, ply),
                depth: depth as u32,
                bound,
            },
        );
        best
    }

    fn set_pv(&mut self, ply: usize, cell: Cell) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][ply] = cell;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }
}

fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_MIN {
        score + ply as i32
    } else if score <= -WIN_MIN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_MIN {
        score - ply as i32
    } else if score <= -WIN_MIN {
        score + ply as i32
    } else {
        score
    }
}

/// The side to move's view: its threat weights minus the opponent's, plus a small tempo.
fn evaluate(board: &Board, us: Color) -> i32 {
    let them = us.opponent();
    let mut sum = 20;
    for cell in board.empty_near_stones(2).iter() {
        sum += weight(board.threat_at(us, cell)) - weight(board.threat_at(them, cell));
    }
    sum.clamp(-WIN_MIN / 2, WIN_MIN / 2)
}

/// Whether `us` may play the empty `cell` (renju Black's forbidden points excluded).
fn allowed(board: &mut Board, us: Color, cell: Cell) -> bool {
    board.may_play(us, cell)
}

/// Empty points within two of a stone that `us` may play, best first.
fn ordered_candidates(board: &mut Board, us: Color) -> Vec<(Cell, i32)> {
    let them = us.opponent();
    let mut out: Vec<(Cell, i32)> = Vec::new();
    for cell in board.empty_near_stones(2).iter() {
        if !allowed(board, us, cell) {
            continue;
        }
        let score = 2 * weight(board.threat_at(us, cell)) + weight(board.threat_at(them, cell));
        out.push((cell, score));
    }
    out.sort_by_key(|&(c, s)| (std::cmp::Reverse(s), c));
    out
}

/// Every empty point `us` (the side to move) may play, centre first.
fn all_legal(board: &mut Board) -> Vec<Cell> {
    let us = board.side_to_move();
    let (cx, cy) = ((board.width() / 2) as i32, (board.height() / 2) as i32);
    let mut points = board.empty_points();
    points.sort_by_key(|p| {
        let (dx, dy) = (i32::from(p.x) - cx, i32::from(p.y) - cy);
        (dx.abs().max(dy.abs()), dx.abs() + dy.abs(), p.y, p.x)
    });
    let cells: Vec<Cell> = points.into_iter().filter_map(|p| board.cell(p)).collect();
    cells
        .into_iter()
        .filter(|&c| allowed(board, us, c))
        .collect()
}

/// A root move that needs no search: an empty board's centre, a five, or the only block of
/// the opponent's five. Returns the move and its score.
fn forced_root_move(board: &mut Board) -> Option<(Point, i32)> {
    let us = board.side_to_move();
    let them = us.opponent();
    if let Some(c) = board.cells_making(us, flag::FIVE).first() {
        return Some((board.point(c), WIN - 1));
    }
    if board.occupied().is_empty() {
        let centre = Point::new((board.width() / 2) as u8, (board.height() / 2) as u8);
        return Some((centre, 0));
    }
    let fives = *board.cells_making(them, flag::FIVE);
    let blocks: Vec<Cell> = fives.iter().filter(|&c| allowed(board, us, c)).collect();
    match (fives.count(), blocks.first()) {
        (1, Some(&c)) => Some((board.point(c), 0)),
        (_, Some(&c)) => Some((board.point(c), -(WIN - 2))),
        _ => None,
    }
}

pub(crate) fn quick_move(board: &Board) -> Option<Point> {
    let mut board = board.clone();
    if let Some((p, _)) = forced_root_move(&mut board) {
        return Some(p);
    }
    let us = board.side_to_move();
    if let Some(&(c, _)) = ordered_candidates(&mut board, us).first() {
        return Some(board.point(c));
    }
    all_legal(&mut board).first().map(|&c| board.point(c))
}

#[cfg(test)]
mod tests;
