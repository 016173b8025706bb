//! Diagrams: a board drawn as text, one row a line, top row first. Two characters are the
//! stones (by default `x` Black and `o` White, in either case: [`Marks`]), `.`, `-` and `_`
//! are empty points, and spaces between cells are ignored; blank lines are skipped. Every row
//! has as many cells as the first; the rows give the board's size.

use super::NotationError;
use crate::board::Board;
use crate::rule::Rule;
use crate::types::{Color, Point};

/// Which characters of a diagram are the stones (each read in either case).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Marks {
    pub black: char,
    pub white: char,
}

impl Marks {
    /// `x` Black, `o` White: the project's diagrams.
    pub const XO: Marks = Marks {
        black: 'x',
        white: 'o',
    };
    /// `o` Black, `x` White: the diagrams of the quintet data files.
    pub const OX: Marks = Marks {
        black: 'o',
        white: 'x',
    };

    fn color(self, ch: char) -> Option<Color> {
        if ch.eq_ignore_ascii_case(&self.black) {
            Some(Color::Black)
        } else if ch.eq_ignore_ascii_case(&self.white) {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// The characters of an empty point.
const EMPTY: [char; 3] = ['.', '-', '_'];

/// A diagram read: its size and its stones, row by row from the top-left.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagram {
    pub width: usize,
    pub height: usize,
    pub stones: Vec<(Color, Point)>,
}

/// Rows of a text: its non-blank lines with white space removed.
fn rows_of<'a>(lines: impl IntoIterator<Item = &'a str>) -> Vec<Vec<char>> {
    lines
        .into_iter()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<Vec<char>>()
        })
        .filter(|r| !r.is_empty())
        .collect()
}

impl Diagram {
    /// Reads a diagram written as lines of text.
    pub fn parse(text: &str, marks: Marks) -> Result<Diagram, NotationError> {
        Diagram::from_rows(text.lines(), marks)
    }

    /// Reads a diagram given row by row.
    pub fn from_rows<'a>(
        rows: impl IntoIterator<Item = &'a str>,
        marks: Marks,
    ) -> Result<Diagram, NotationError> {
        let rows = rows_of(rows);
        let height = rows.len();
        let width = rows.first().map_or(0, Vec::len);
        let mut stones = Vec::new();
        for (y, row) in rows.iter().enumerate() {
            if row.len() != width {
                return Err(NotationError::Diagram(format!(
                    "row {} has {} cells, the first has {width}",
                    y + 1,
                    row.len()
                )));
            }
            for (x, &ch) in row.iter().enumerate() {
                match marks.color(ch) {
                    Some(color) => stones.push((color, point(x, y)?)),
                    None if EMPTY.contains(&ch) => {}
                    None => {
                        return Err(NotationError::Diagram(format!(
                            "row {} has '{ch}', neither a stone ('{}', '{}') nor an empty point \
                             ('.', '-', '_')",
                            y + 1,
                            marks.black,
                            marks.white
                        )))
                    }
                }
            }
        }
        Ok(Diagram {
            width,
            height,
            stones,
        })
    }

    /// Whether `text` is a diagram of `x`/`o` stones rather than a move list: at least two
    /// rows, each of stones and empty points only.
    pub fn looks_like(text: &str) -> bool {
        let rows = rows_of(text.lines());
        rows.len() >= 2
            && rows.iter().all(|r| {
                r.iter()
                    .all(|&c| Marks::XO.color(c).is_some() || EMPTY.contains(&c))
            })
    }

    /// The side to move by the count of stones: Black when both have as many, else White.
    pub fn to_move(&self) -> Color {
        let black = self
            .stones
            .iter()
            .filter(|(c, _)| *c == Color::Black)
            .count();
        if black > self.stones.len() - black {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The diagram's board under `rule`, its stones placed row by row from the top-left
    /// (`Board::place`, so the board's side to move is the opponent of the last stone's
    /// colour in that order; [`Diagram::to_move`] counts the stones instead).
    pub fn board(&self, rule: Rule) -> Result<Board, NotationError> {
        self.board_placing(rule, &self.stones)
    }

    /// The diagram's board with its stones placed in the order `stones` gives.
    pub fn board_placing(
        &self,
        rule: Rule,
        stones: &[(Color, Point)],
    ) -> Result<Board, NotationError> {
        let mut board = Board::new(self.width, self.height, rule).map_err(NotationError::Board)?;
        for &(color, p) in stones {
            board.place(color, p).map_err(NotationError::Board)?;
        }
        Ok(board)
    }
}

fn point(x: usize, y: usize) -> Result<Point, NotationError> {
    match (u8::try_from(x), u8::try_from(y)) {
        (Ok(x), Ok(y)) => Ok(Point::new(x, y)),
        _ => Err(NotationError::Diagram(format!(
            "the point {x},{y} is beyond any board"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagrams_are_read_with_their_marks() {
        let text = "x x x x .\n. . . . .\n\no o O . .\n- _ . . .\n. . . . X\n";
        assert!(Diagram::looks_like(text));
        let d = Diagram::parse(text, Marks::XO).expect("diagram");
        assert_eq!((d.width, d.height), (5, 5));
        assert_eq!(d.stones.len(), 8);
        assert_eq!(d.stones[4], (Color::White, Point::new(0, 2)));
        assert_eq!(d.stones[7], (Color::Black, Point::new(4, 4)));
        assert_eq!(d.to_move(), Color::White);
        let board = d.board(Rule::Freestyle).expect("board");
        assert_eq!(board.stone(Point::new(4, 4)), Some(Color::Black));
        assert_eq!(
            board.side_to_move(),
            Color::White,
            "the last stone was Black"
        );
        let swapped = Diagram::parse(text, Marks::OX).expect("diagram");
        assert_eq!(swapped.stones[0], (Color::White, Point::new(0, 0)));
    }

    #[test]
    fn bad_diagrams_are_errors() {
        for (text, why) in [
            ("x x\nx x x\n", "row 2 has 3 cells, the first has 2"),
            (". x\n. q\n", "row 2 has 'q'"),
        ] {
            match Diagram::parse(text, Marks::XO) {
                Err(NotationError::Diagram(e)) => assert!(e.contains(why), "{e}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
        let small = Diagram::parse("x.\n.o\n", Marks::XO).expect("read");
        assert!(matches!(
            small.board(Rule::Freestyle),
            Err(NotationError::Board(_))
        ));
        assert!(!Diagram::looks_like("h8i9j10"));
        assert!(!Diagram::looks_like("x.x.x"), "one row is no diagram");
        assert!(!Diagram::looks_like(". x\n. q\n"));
    }
}
