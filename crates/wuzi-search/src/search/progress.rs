//! Reporting the root's progress ([`crate::RootEvent`]) to whoever follows it, from the
//! search's own thread. With nobody following (`root_events` is `None`) nothing is built.
//! An iteration's depth is in plies; a root move's search depth arrives fractional ([`PLY`]
//! units a ply) and is reported in whole plies.

use super::Thread;
use crate::params::PLY;
use crate::RootEvent;
use crate::WIN_MIN;
use wuzi_core::Cell;

impl<'a> Thread<'a> {
    /// Follows the root's progress with `on_root` from now on.
    pub fn observe(&mut self, on_root: &'a (dyn Fn(&RootEvent) + Sync)) {
        self.root_events = Some(on_root);
    }

    pub(crate) fn observed(&self) -> bool {
        self.root_events.is_some()
    }

    pub(crate) fn report_iteration(&self, depth: i32) {
        if let Some(f) = self.root_events {
            f(&RootEvent::Iteration {
                depth: depth.max(0) as u32,
            });
        }
    }

    pub(crate) fn report_entered(&self, cell: Cell, depth: i32) {
        if let Some(f) = self.root_events {
            f(&RootEvent::Entered {
                point: self.board.point(cell),
                depth: (depth / PLY).max(0) as u32,
            });
        }
    }

    /// A root move's search came back with `score` (an exact score when `best`, else at
    /// least an upper bound): finished, maybe the new best, and lost if even its bound is a
    /// proven loss.
    pub(crate) fn report_finished(&self, cell: Cell, depth: i32, score: i32, best: bool) {
        let Some(f) = self.root_events else {
            return;
        };
        let point = self.board.point(cell);
        let depth = (depth / PLY).max(0) as u32;
        f(&RootEvent::Finished { point, depth });
        if score <= -WIN_MIN {
            f(&RootEvent::Lost { point, depth });
        } else if best {
            f(&RootEvent::Best {
                point,
                depth,
                score,
                line: self.root_line + 1,
            });
        }
    }
}
