//! The symmetries of a board: eight on a square board, four on a rectangle.

use crate::board::Board;
use crate::types::{BoardError, Point};

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Symmetry {
    Identity,
    /// Mirror left-right.
    FlipX,
    /// Mirror top-bottom.
    FlipY,
    Rotate180,
    /// Swap x and y (square boards only).
    Transpose,
    /// Mirror in the other diagonal (square boards only).
    AntiTranspose,
    /// Quarter turn clockwise (square boards only).
    Rotate90,
    /// Quarter turn anticlockwise (square boards only).
    Rotate270,
}

impl Symmetry {
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
    ];

    /// The symmetries of a `width x height` board.
    pub fn of_size(width: usize, height: usize) -> &'static [Symmetry] {
        if width == height {
            &Symmetry::ALL
        } else {
            &Symmetry::ALL[..4]
        }
    }

    /// Where `p` goes on a `width x height` board. For the four square-only symmetries the
    /// board must be square.
    pub fn apply(self, p: Point, width: usize, height: usize) -> Point {
        let (x, y) = (p.x as usize, p.y as usize);
        let (w, h) = (width - 1, height - 1);
        let (nx, ny) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::FlipX => (w - x, y),
            Symmetry::FlipY => (x, h - y),
            Symmetry::Rotate180 => (w - x, h - y),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (h - y, w - x),
            Symmetry::Rotate90 => (h - y, x),
            Symmetry::Rotate270 => (y, w - x),
        };
        Point::new(nx as u8, ny as u8)
    }

    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }
}

impl Board {
    /// The symmetries of this board.
    pub fn symmetries(&self) -> &'static [Symmetry] {
        Symmetry::of_size(self.width(), self.height())
    }

    /// The board with every stone moved by `sym`, replaying the history in order.
    pub fn transformed(&self, sym: Symmetry) -> Result<Board, BoardError> {
        let mut out = self.cleared();
        for (color, p) in self.history() {
            out.place(color, sym.apply(p, self.width(), self.height()))?;
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_are_bijections_with_inverses() {
        for (w, h) in [(15, 15), (20, 12)] {
            for &s in Symmetry::of_size(w, h) {
                let mut seen = std::collections::HashSet::new();
                for y in 0..h {
                    for x in 0..w {
                        let p = Point::new(x as u8, y as u8);
                        let q = s.apply(p, w, h);
                        assert!((q.x as usize) < w && (q.y as usize) < h);
                        assert_eq!(s.inverse().apply(q, w, h), p, "{s:?}");
                        seen.insert(q);
                    }
                }
                assert_eq!(seen.len(), w * h);
            }
        }
        assert_eq!(Symmetry::of_size(15, 15).len(), 8);
        assert_eq!(Symmetry::of_size(15, 10).len(), 4);
    }
}
