//! A position read from text, with the side to move: a move list played alternately from
//! Black on an empty board of a given size, or a diagram (`x` Black, `o` White), which gives
//! its own size and whose side to move is Black when both have as many stones, else White.

use super::{parse_moves, Diagram, Marks, NotationError};
use crate::board::Board;
use crate::rule::Rule;
use crate::types::Color;

/// A board with the side to move.
#[derive(Debug, Clone)]
pub struct Position {
    pub board: Board,
    pub to_move: Color,
}

/// Reads a position from `text`: a diagram when it looks like one ([`Diagram::looks_like`];
/// then it gives its own size), else a move list on a `width` x `height` board.
pub fn read_position(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Position, NotationError> {
    if Diagram::looks_like(text) {
        let diagram = Diagram::parse(text, Marks::XO)?;
        Ok(Position {
            board: diagram.board(rule)?,
            to_move: diagram.to_move(),
        })
    } else {
        position_from_moves(text, width, height, rule)
    }
}

/// The position after the move list `text`, played alternately from Black on an empty
/// `width` x `height` board.
pub fn position_from_moves(
    text: &str,
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<Position, NotationError> {
    let mut board = Board::new(width, height, rule).map_err(NotationError::Board)?;
    let moves = parse_moves(text)?;
    let mut color = Color::Black;
    for p in moves {
        board.place(color, p).map_err(|error| NotationError::Move {
            name: p.name(),
            error,
        })?;
        color = color.opponent();
    }
    Ok(Position {
        board,
        to_move: color,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Point;

    #[test]
    fn diagrams_and_move_lists() {
        let text = "x x x x .\n. . . . .\no o o . .\n. . . . .\n. . . . .\n";
        let pos = read_position(text, 15, 15, Rule::Freestyle).expect("diagram");
        assert_eq!((pos.board.width(), pos.board.height()), (5, 5));
        assert_eq!(pos.to_move, Color::White);
        let pos = read_position("h8 i9j10", 20, 15, Rule::Renju).expect("moves");
        assert_eq!((pos.board.width(), pos.board.height()), (20, 15));
        assert_eq!(pos.to_move, Color::White);
        assert_eq!(pos.board.stone(Point::new(8, 8)), Some(Color::White));
        assert_eq!(pos.board.side_to_move(), Color::White);
    }

    #[test]
    fn bad_positions_say_why() {
        let said = |text: &str, w: usize| match read_position(text, w, w, Rule::Standard) {
            Err(e) => e.to_string(),
            Ok(_) => panic!("{text:?} read"),
        };
        assert_eq!(said("h8h8", 15), "move h8: point 7,7 is already occupied");
        assert_eq!(said("p1", 15), "move p1: point 15,0 is off the board");
        assert_eq!(
            said("h8", 40),
            "board size 40x40 is not supported (each side must be 5..=32)"
        );
        assert_eq!(said("h8x", 15), "'h8x' is not a move list like h8i9j10");
        assert_eq!(
            said("x x\nx x x\n", 15),
            "bad diagram: row 2 has 3 cells, the first has 2"
        );
    }
}
