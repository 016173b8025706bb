//! Work and span of a one-thread search under the split rules of `parallel.rs`: the model
//! behind what `docs/parallel.md` says about machines with more cores than this one has.
//!
//! The *work* of a search is its node count. Its *span* is the node count of its critical
//! path: what a machine with unlimited threads would still have to search one node after
//! another if every move that young brothers wait hands to helpers ran at once. At a node
//! the span is the node's own nodes (itself, a leaf's VCF), plus the spans of the moves
//! searched one after another (the first move, every move of a node too shallow to split,
//! the null-move, singular and verification searches), plus the longest span among the moves
//! that the split would hand out (those after the first searched move, once the node is deep
//! enough: `Options::split_depth`). At the root every move after the first is handed out.
//! Iterations, aspiration re-searches and the root's VCF run one after another.
//!
//! With `W` the work and `S` the span, `p` threads need at least `max(W/p, S)` and, by
//! greedy scheduling (Brent), at most `W/p + S` node-times: the speedup lies between
//! `W / (W/p + S)` and `W / max(W/p, S)`, and never passes the parallelism `W/S`. The model
//! counts the one-thread tree: the extra nodes of parallel search (looser bounds, lost table
//! hits, moves searched after a cut-off) come on top, and are measured separately.
//!
//! Invariant: off (the default: `Thread::span` is `None`) it changes nothing, neither the
//! tree nor the node count; on, it only reads `Thread::nodes`.

/// The bookkeeping of one node (or one root pass) while it is searched.
#[derive(Clone, Copy, Debug, Default)]
struct Frame {
    /// `Thread::nodes` when the frame opened.
    start: u64,
    /// Work of the child nodes so far (so the node's own nodes are the rest).
    children_work: u64,
    /// Spans of the moves searched one after another.
    sequential: u64,
    /// The longest span among the moves that a split would hand out.
    longest_parallel: u64,
    /// The span of the move being searched (its calls: a reduced search, re-searches).
    current: u64,
}

/// Work and span accumulated over a search (see the module documentation).
#[derive(Debug, Default)]
pub struct SpanModel {
    frames: Vec<Frame>,
    /// Work and span of the root passes finished so far.
    root_work: u64,
    root_span: u64,
}

impl SpanModel {
    pub fn new() -> SpanModel {
        SpanModel::default()
    }

    /// A node (or a root pass) starts, with `nodes` counted so far.
    pub(crate) fn open(&mut self, nodes: u64) {
        self.frames.push(Frame {
            start: nodes,
            ..Frame::default()
        });
    }

    /// The innermost node ends with `nodes` counted: its work and span go to its parent's
    /// current move, or, for a root pass, to the totals.
    pub(crate) fn close(&mut self, nodes: u64) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        let work = nodes - frame.start;
        let own = work - frame.children_work;
        let span = own + frame.sequential + frame.current + frame.longest_parallel;
        match self.frames.last_mut() {
            Some(parent) => {
                parent.children_work += work;
                parent.current += span;
            }
            None => {
                self.root_work += work;
                self.root_span += span;
            }
        }
    }

    /// The innermost node finished a move: the move's span was sequential, or one that a
    /// split would hand out beside its other late moves.
    pub(crate) fn end_move(&mut self, handed_out: bool) {
        if let Some(frame) = self.frames.last_mut() {
            let span = std::mem::take(&mut frame.current);
            if handed_out {
                frame.longest_parallel = frame.longest_parallel.max(span);
            } else {
                frame.sequential += span;
            }
        }
    }

    /// The span of a search whose total work is `work` nodes: its root passes' spans, and
    /// every other node (the root's VCF and the filter against the opponent's) one after
    /// another.
    pub fn span(&self, work: u64) -> u64 {
        let outside = work.saturating_sub(self.root_work);
        outside + self.root_span
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_add_in_sequence_and_take_the_longest_of_handed_out_moves() {
        let mut m = SpanModel::new();
        let mut nodes = 0;
        m.open(nodes); // a root pass
        nodes += 1; // the root itself
        for (handed_out, size) in [(false, 10), (true, 4), (true, 7), (true, 2)] {
            m.open(nodes);
            nodes += size; // a child of `size` nodes with no children of its own
            m.close(nodes);
            m.end_move(handed_out);
        }
        m.close(nodes);
        assert_eq!(nodes, 24);
        // 1 (the root) + 10 (first move) + 7 (the longest handed-out move).
        assert_eq!(m.span(nodes), 18);
        // Nodes outside any root pass count in sequence.
        assert_eq!(m.span(nodes + 5), 23);
    }

    #[test]
    fn a_childs_span_is_its_own_critical_path() {
        let mut m = SpanModel::new();
        let mut nodes = 0;
        m.open(nodes);
        nodes += 1;
        m.open(nodes); // the first move: a node with two handed-out children
        nodes += 1;
        for size in [5, 3] {
            m.open(nodes);
            nodes += size;
            m.close(nodes);
            m.end_move(true);
        }
        m.close(nodes);
        m.end_move(false);
        m.close(nodes);
        // Work 1 + 1 + 5 + 3 = 10; span 1 + (1 + 5) = 7.
        assert_eq!(nodes, 10);
        assert_eq!(m.span(nodes), 7);
    }
}
