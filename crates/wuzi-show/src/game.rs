//! A game to draw: the board, the rule, the moves in order from Black, and words about it.
//!
//! Invariant once [`Game::replay`] succeeded: every move lies on the board and on a point
//! empty when it was played.

use wuzi_core::{Board, Color, Point, Rule};

use crate::error::ShowError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    /// Stones set on the board before the moves (a diagram), drawn without numbers.
    pub setup: Vec<(Color, Point)>,
    /// Every move, alternately Black and White, from Black (or, after a setup, from the
    /// opponent of its last stone).
    pub moves: Vec<Point>,
    /// How many of `moves` are the opening (drawn without numbers when asked).
    pub opening_len: usize,
    /// A line about the game (players, result), if the record tells.
    pub title: Option<String>,
}

impl Game {
    /// A game of these moves with no title and no opening.
    pub fn new(width: usize, height: usize, rule: Rule, moves: Vec<Point>) -> Game {
        Game {
            width,
            height,
            rule,
            setup: Vec::new(),
            moves,
            opening_len: 0,
            title: None,
        }
    }

    /// A game read from a record: its moves, checked by replaying them, and its title.
    pub fn recorded(
        width: usize,
        height: usize,
        rule: Rule,
        moves: Vec<Point>,
        title: Option<String>,
    ) -> Result<Game, ShowError> {
        let game = Game {
            title,
            ..Game::new(width, height, rule, moves)
        };
        game.replay(None)?;
        Ok(game)
    }

    /// The board after the setup and the first `upto` moves (all when `None`), each checked.
    pub fn replay(&self, upto: Option<usize>) -> Result<Board, ShowError> {
        let mut board = Board::new(self.width, self.height, self.rule)
            .map_err(|e| ShowError::Board(e.to_string()))?;
        for (i, &(color, p)) in self.setup.iter().enumerate() {
            board.place(color, p).map_err(|e| ShowError::BadMove {
                number: i + 1,
                point: p.name(),
                why: format!("in the setup: {e}"),
            })?;
        }
        let n = upto.unwrap_or(self.moves.len()).min(self.moves.len());
        for (i, &p) in self.moves[..n].iter().enumerate() {
            board.play(p).map_err(|e| ShowError::BadMove {
                number: i + 1,
                point: p.name(),
                why: e.to_string(),
            })?;
        }
        Ok(board)
    }
}
