//! Gomoku on a small `wuzi_core` board as a [`Game`], for checking the fast
//! search against plain minimax and alpha-beta.
//!
//! This module owns [`Gomoku`] and its static evaluation. Everything about
//! the rules (fives, overlines, renju's forbidden points, threat classes)
//! comes from `wuzi_core::Board`; this wrapper only decides what a move, an
//! end and a value are:
//!
//! - moves are the empty points in row-major order (`y`, then `x`), without
//!   Black's forbidden points under renju;
//! - the game is over when the last move won (`Board::winner`), when the board
//!   is full, or when the side to move has no legal point left (renju Black
//!   surrounded by forbidden points), which counts as a draw;
//! - values are from the side of a fixed *maximiser* colour, chosen when the
//!   position is wrapped.
//!
//! Invariants: boards are 5 to 9 points a side, the only sizes plain search
//! can get anywhere on; the wrapped board is only changed through `play` and
//! `undo`, so the move count at wrapping time stays the search's root.

use std::fmt;

use wuzi_core::{Board, Color, Point, Rule, Threat};

use crate::game::Game;

/// Value of a won game for the winner, less one per ply from the root so that
/// a quicker win (or a slower loss) is preferred. Far above any evaluation of
/// an unfinished position.
pub const WIN: i32 = 1_000_000;

/// Points an empty intersection is worth to a colour, by what a stone of
/// that colour would make there. Strictly increasing with the threat class,
/// roughly doubling from the open three up; nothing for a point the colour
/// may not play.
pub fn threat_weight(threat: Threat) -> i32 {
    match threat {
        Threat::None => 0,
        Threat::One => 1,
        Threat::Two => 2,
        Threat::OpenTwo => 4,
        Threat::DoubleTwo => 6,
        Threat::Three => 8,
        Threat::ThreeTwo => 12,
        Threat::OpenThree => 20,
        Threat::DoubleThree => 40,
        Threat::Four => 60,
        Threat::FourThree => 120,
        Threat::OpenFour => 240,
        Threat::Five => 480,
        Threat::Forbidden => 0,
    }
}

/// The static evaluation of an unfinished position for `color`: over all
/// empty points, [`threat_weight`] of `Board::threat` for `color` minus the
/// same for its opponent. It ignores whose move it is and takes the threat
/// classes exactly as the board reports them (under renju a double three is
/// only classed `Forbidden` once the board's own classification says so), so
/// a fast search can reproduce it from the same board.
pub fn threat_balance(board: &Board, color: Color) -> i32 {
    board
        .empty_points()
        .into_iter()
        .map(|p| {
            threat_weight(board.threat(color, p)) - threat_weight(board.threat(color.opponent(), p))
        })
        .sum()
}

/// Why a board cannot be wrapped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardTooLarge {
    pub width: usize,
    pub height: usize,
}

impl fmt::Display for BoardTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (w, h) = (self.width, self.height);
        write!(
            f,
            "a {w}x{h} board is too large for plain search (at most 9x9)"
        )
    }
}

impl std::error::Error for BoardTooLarge {}

/// Largest side a wrapped board may have.
pub const MAX_SIDE: usize = 9;

/// A Gomoku position under any rule, searched from a fixed root.
#[derive(Clone)]
pub struct Gomoku {
    board: Board,
    maximizer: Color,
    /// Moves on the board when it was wrapped: plies are counted from here.
    root_moves: usize,
}

impl Gomoku {
    /// Wraps `board`, with the side to move as the maximiser.
    pub fn new(board: Board) -> Result<Self, BoardTooLarge> {
        let maximizer = board.side_to_move();
        Self::with_maximizer(board, maximizer)
    }

    /// Wraps `board`, scoring values for `maximizer`.
    pub fn with_maximizer(board: Board, maximizer: Color) -> Result<Self, BoardTooLarge> {
        let (width, height) = (board.width(), board.height());
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(BoardTooLarge { width, height });
        }
        let root_moves = board.move_count();
        Ok(Gomoku {
            board,
            maximizer,
            root_moves,
        })
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn maximizer(&self) -> Color {
        self.maximizer
    }

    /// Legal points for the side to move, ignoring whether the game is over.
    fn legal_points(&mut self) -> Vec<Point> {
        let mut points = self.board.empty_points();
        points.sort_by_key(|p| (p.y, p.x));
        if self.board.rule() == Rule::Renju && self.board.side_to_move() == Color::Black {
            let forbidden = self.board.forbidden_points();
            points.retain(|p| !forbidden.iter().any(|(f, _)| f == p));
        }
        points
    }

    /// The winner if the game is over: `Some(None)` for a draw.
    pub fn outcome(&mut self) -> Option<Option<Color>> {
        if let Some(winner) = self.board.winner() {
            return Some(Some(winner));
        }
        if self.board.is_full() || self.legal_points().is_empty() {
            return Some(None);
        }
        None
    }
}

impl Game for Gomoku {
    type Move = Point;

    fn maximizer_to_move(&self) -> bool {
        self.board.side_to_move() == self.maximizer
    }

    fn moves(&mut self) -> Vec<Point> {
        if self.board.winner().is_some() {
            return Vec::new();
        }
        self.legal_points()
    }

    fn play(&mut self, mv: Point) {
        if let Err(e) = self.board.play(mv) {
            panic!("{mv} cannot be played: {e}");
        }
    }

    fn undo(&mut self, mv: Point) {
        let undone = self.board.undo();
        assert_eq!(undone, Ok(mv), "undo must take back the last move");
    }

    fn is_terminal(&mut self) -> bool {
        self.outcome().is_some()
    }

    /// A win is worth [`WIN`] less the plies since the root, a draw 0, and an
    /// unfinished position its [`threat_balance`] for the maximiser.
    fn evaluate(&mut self) -> i32 {
        let plies = (self.board.move_count().saturating_sub(self.root_moves)).min(1_000) as i32;
        match self.outcome() {
            Some(Some(winner)) if winner == self.maximizer => WIN - plies,
            Some(Some(_)) => plies - WIN,
            Some(None) => 0,
            None => threat_balance(&self.board, self.maximizer),
        }
    }
}
