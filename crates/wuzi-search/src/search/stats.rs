//! Where the nodes go: counters a caller switches on (`Thread::stats`) to see how the tree
//! spends its nodes, for `wuzi bench --stats` and the forced-line suite.
//!
//! Off (the default: `None`) they change nothing, neither the tree nor the node count, and
//! cost one predictable branch per node; on, they only count.

use crate::tactics::Settled;
use std::fmt::Write as _;

/// The kind of an interior node, by the threat it faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    /// The opponent has a five point: the block is the only move.
    Block,
    /// The opponent threatens an open four (it has an open three): defences only.
    Threatened,
    /// Anything else.
    Quiet,
}

pub const KINDS: [NodeKind; 3] = [NodeKind::Block, NodeKind::Threatened, NodeKind::Quiet];
/// Depths (whole plies) counted apart; deeper ones share the last slot.
pub const DEPTH_SLOTS: usize = 16;
/// Ranks of the best move counted apart; later ones share the last slot.
pub const RANK_SLOTS: usize = 8;

/// The counters (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeStats {
    /// Interior nodes entered (every call of the node function that counted a node).
    pub interior: u64,
    /// Interior nodes that reached their move loop, by kind and depth, and the moves they
    /// searched.
    pub nodes: [[u64; DEPTH_SLOTS]; 3],
    pub children: [[u64; DEPTH_SLOTS]; 3],
    /// Quiescence nodes.
    pub quiescence: u64,
    /// Nodes (interior and quiescence) in the subtree of a node that faces a threat (the
    /// opponent has a five point, an open three or a winning four-three), that node included.
    pub under_threat: u64,
    /// Per iteration depth (whole plies), the nodes of the deepening when it completed, summed
    /// over the searches counted: the effective branching factor is the ratio of neighbours.
    pub nodes_at_depth: Vec<u64>,
    /// Searches counted.
    pub searches: u64,
    /// Nodes whose value was settled without search: a five, a loss to fives, an open four,
    /// a four-three or double three.
    pub settled_five: u64,
    pub settled_loss: u64,
    pub settled_open_four: u64,
    pub settled_static_win: u64,
    /// Interior nodes that returned before their moves: the table, razoring, reverse
    /// futility, the null move.
    pub cut_by_table: u64,
    pub cut_by_razor: u64,
    pub cut_by_futility: u64,
    pub cut_by_null: u64,
    /// Where the best move of a node that raised alpha stood in the node's ordering.
    pub best_rank: [u64; RANK_SLOTS],
    /// Moves skipped by move-count and other pruning.
    pub pruned: u64,
    /// Nodes facing a four-three whose narrowed moves all lost, and the defences off the
    /// four-three's lines they searched after them.
    pub widened: u64,
    pub widened_moves: u64,
}

fn kind_index(kind: NodeKind) -> usize {
    match kind {
        NodeKind::Block => 0,
        NodeKind::Threatened => 1,
        NodeKind::Quiet => 2,
    }
}

fn depth_slot(plies: i32) -> usize {
    (plies.max(0) as usize).min(DEPTH_SLOTS - 1)
}

impl NodeStats {
    /// A node at `ply` settled without search.
    pub(crate) fn settled(&mut self, settled: &Settled, ply: usize) {
        if let Settled::Value(v) = *settled {
            if v <= -crate::WIN_MIN {
                self.settled_loss += 1;
            } else if v >= crate::WIN_MIN {
                match crate::WIN - v - ply as i32 {
                    1 => self.settled_five += 1,
                    3 => self.settled_open_four += 1,
                    _ => self.settled_static_win += 1,
                }
            }
        }
    }

    pub(crate) fn node(&mut self, kind: NodeKind, plies: i32, children: usize) {
        let k = kind_index(kind);
        let d = depth_slot(plies);
        self.nodes[k][d] += 1;
        self.children[k][d] += children as u64;
    }

    /// An iteration to `depth` plies completed after `nodes` nodes of the search.
    pub fn completed(&mut self, depth: u32, nodes: u64) {
        let d = depth as usize;
        if self.nodes_at_depth.len() <= d {
            self.nodes_at_depth.resize(d + 1, 0);
        }
        self.nodes_at_depth[d] += nodes;
    }

    pub(crate) fn best_at(&mut self, rank: usize) {
        self.best_rank[rank.min(RANK_SLOTS - 1)] += 1;
    }

    /// Adds another thread's counters.
    pub fn add(&mut self, other: &NodeStats) {
        for k in 0..3 {
            for d in 0..DEPTH_SLOTS {
                self.nodes[k][d] += other.nodes[k][d];
                self.children[k][d] += other.children[k][d];
            }
        }
        self.quiescence += other.quiescence;
        self.interior += other.interior;
        self.under_threat += other.under_threat;
        if self.nodes_at_depth.len() < other.nodes_at_depth.len() {
            self.nodes_at_depth.resize(other.nodes_at_depth.len(), 0);
        }
        for (a, b) in self.nodes_at_depth.iter_mut().zip(&other.nodes_at_depth) {
            *a += b;
        }
        self.searches += other.searches;
        self.settled_five += other.settled_five;
        self.settled_loss += other.settled_loss;
        self.settled_open_four += other.settled_open_four;
        self.settled_static_win += other.settled_static_win;
        self.cut_by_table += other.cut_by_table;
        self.cut_by_razor += other.cut_by_razor;
        self.cut_by_futility += other.cut_by_futility;
        self.cut_by_null += other.cut_by_null;
        for r in 0..RANK_SLOTS {
            self.best_rank[r] += other.best_rank[r];
        }
        self.pruned += other.pruned;
        self.widened += other.widened;
        self.widened_moves += other.widened_moves;
    }

    /// A plain-text table of the counters.
    pub fn report(&self) -> String {
        let mut out = String::new();
        let interior = self.interior;
        let total = interior + self.quiescence;
        let share = |n: u64| 100.0 * n as f64 / total.max(1) as f64;
        let _ = writeln!(
            out,
            "nodes {total}: interior {interior} ({:.1}%), quiescence {} ({:.1}%); \
             in the subtrees of nodes facing a threat {} ({:.1}%)",
            share(interior),
            self.quiescence,
            share(self.quiescence),
            self.under_threat,
            share(self.under_threat)
        );
        for kind in KINDS {
            let k = kind_index(kind);
            let n: u64 = self.nodes[k].iter().sum();
            let c: u64 = self.children[k].iter().sum();
            let _ = write!(
                out,
                "{kind:?} (to their moves): {n} nodes ({:.1}%), {:.2} moves each; by depth (nodes/moves each):",
                share(n),
                c as f64 / n.max(1) as f64
            );
            for d in 0..DEPTH_SLOTS {
                if self.nodes[k][d] > 0 {
                    let _ = write!(
                        out,
                        " {d}:{}/{:.2}",
                        self.nodes[k][d],
                        self.children[k][d] as f64 / self.nodes[k][d] as f64
                    );
                }
            }
            out.push('\n');
        }
        let _ = writeln!(
            out,
            "settled: five {}, loss {}, open four {}, four-three or double three {}",
            self.settled_five, self.settled_loss, self.settled_open_four, self.settled_static_win
        );
        let _ = writeln!(
            out,
            "returned before moves: table {}, razoring {}, futility {}, null move {}; moves pruned {}",
            self.cut_by_table, self.cut_by_razor, self.cut_by_futility, self.cut_by_null, self.pruned
        );
        let _ = writeln!(
            out,
            "four-three defences off its lines: {} nodes whose narrowed moves all lost searched {}",
            self.widened, self.widened_moves
        );
        let _ = write!(
            out,
            "effective branching factor by iteration (the nodes of iteration d over those of \
             d-1, {} searches):",
            self.searches
        );
        let at = &self.nodes_at_depth;
        for d in 3..at.len() {
            let (before, now) = (
                at[d - 1].saturating_sub(at[d - 2]),
                at[d].saturating_sub(at[d - 1]),
            );
            if before > 0 && now > 0 {
                let _ = write!(out, " {d}:{:.2}", now as f64 / before as f64);
            }
        }
        out.push('\n');
        let ranked: u64 = self.best_rank.iter().sum();
        let _ = write!(out, "rank of the best move:");
        for (r, &n) in self.best_rank.iter().enumerate() {
            let label = if r + 1 == RANK_SLOTS {
                format!("{}+", r + 1)
            } else {
                format!("{}", r + 1)
            };
            let _ = write!(
                out,
                " {label}:{:.1}%",
                100.0 * n as f64 / ranked.max(1) as f64
            );
        }
        out.push('\n');
        out
    }
}
