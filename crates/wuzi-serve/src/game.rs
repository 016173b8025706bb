//! The game of one board session: a line of moves from the empty board, a cursor into it
//! (the position shown and searched), a resignation, and the evaluations found for the
//! positions of the line.
//!
//! Invariants: `board` is always the position after `moves[..ply]`; `evals` has one entry
//! per position of the line (`moves.len() + 1`); every move of the line was legal when it
//! was played (on the board, empty, not renju Black's forbidden point, the game not over);
//! a refused operation changes nothing. `line` counts changes of the line (its moves, rule
//! or size), so a search's result is applied only to the position it searched.

use serde::Serialize;
use wuzi_core::rule::RunEnd;
use wuzi_core::{Board, Color, ForbiddenKind, Point, Rule};
use wuzi_search::{WIN, WIN_MIN};
use wuzi_show::{Game as Record, Picture, RecordInfo};

use crate::error::ApiError;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The winner made five: the stones of the winning run.
    Five {
        winner: Color,
        run: Vec<Point>,
    },
    /// Renju Black played a forbidden point (only a loaded record can hold one).
    Forbidden {
        point: Point,
        kind: ForbiddenKind,
    },
    Resigned {
        loser: Color,
    },
    Full,
    /// Renju Black is to move and every empty point is forbidden: a draw, as a full board is.
    NoLegalMove,
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Five { winner, .. } => Some(*winner),
            Outcome::Forbidden { .. } => Some(Color::White),
            Outcome::Resigned { loser } => Some(loser.opponent()),
            Outcome::Full | Outcome::NoLegalMove => None,
        }
    }

    pub fn reason(&self) -> &'static str {
        match self {
            Outcome::Five { .. } => "five",
            Outcome::Forbidden { .. } => "forbidden",
            Outcome::Resigned { .. } => "resign",
            Outcome::Full => "full",
            Outcome::NoLegalMove => "no-legal-move",
        }
    }

    /// The outcome in words: `Black wins: five in a row`.
    pub fn words(&self) -> String {
        let who = match self.winner() {
            Some(c) => format!("{} wins", colour_title(c)),
            None => "Draw".to_string(),
        };
        let why = match self {
            Outcome::Five { .. } => "five in a row".to_string(),
            Outcome::Forbidden { point, kind } => format!(
                "Black's {} is forbidden ({})",
                point.name(),
                kind_words(*kind)
            ),
            Outcome::Resigned { loser } => format!("{} resigned", colour_title(*loser)),
            Outcome::Full => "the board is full".to_string(),
            Outcome::NoLegalMove => "every empty point is forbidden for Black".to_string(),
        };
        format!("{who}: {why}")
    }

    /// SGF's `RE` value.
    pub fn sgf_result(&self) -> String {
        match (self.winner(), self) {
            (None, _) => "0".to_string(),
            (Some(c), o) => {
                let side = if c == Color::Black { "B" } else { "W" };
                match o {
                    Outcome::Resigned { .. } => format!("{side}+R"),
                    Outcome::Forbidden { .. } => format!("{side}+F"),
                    _ => format!("{side}+"),
                }
            }
        }
    }
}

pub fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn colour_title(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

pub fn kind_words(kind: ForbiddenKind) -> &'static str {
    match kind {
        ForbiddenKind::DoubleThree => "double three",
        ForbiddenKind::DoubleFour => "double four",
        ForbiddenKind::Overline => "overline",
    }
}

/// The scale of a score's logistic: `sigmoid(score / K)` is the side's expected result. These
/// are the `K` fitted for the hand-set evaluation when the rule's learned weights were made
/// (`docs/journal/evaluation.md`); caro has no fit of its own and takes freestyle's.
fn logistic_scale(rule: Rule) -> f64 {
    match rule {
        Rule::Freestyle | Rule::Caro | Rule::CaroExact => 1220.0,
        Rule::Standard => 1181.0,
        Rule::Renju => 2481.0,
    }
}

/// The expected result for the side whose score this is, in `0..=1`: proven wins and losses
/// are 1 and 0.
pub fn win_rate(rule: Rule, score: i32) -> f64 {
    if score >= WIN_MIN {
        1.0
    } else if score <= -WIN_MIN {
        0.0
    } else {
        1.0 / (1.0 + (-(score as f64) / logistic_scale(rule)).exp())
    }
}

/// Plies to a proven result: positive when the side wins, negative when it loses.
pub fn mate_in(score: i32) -> Option<i32> {
    if score >= WIN_MIN {
        Some(WIN - score)
    } else if score <= -WIN_MIN {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// What a search found for one position of the line, from Black's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Eval {
    /// The score for Black.
    pub score: i32,
    /// Black's expected result, `0..=1`.
    pub black_win: f64,
    pub depth: u32,
    /// Plies to a proven result, positive when Black wins.
    pub mate: Option<i32>,
}

impl Eval {
    /// An evaluation from a search's score for `to_move`.
    pub fn of(rule: Rule, to_move: Color, score: i32, depth: u32) -> Eval {
        let score = if to_move == Color::Black {
            score
        } else {
            -score
        };
        Eval {
            score,
            black_win: win_rate(rule, score),
            depth,
            mate: mate_in(score),
        }
    }

    /// The evaluation of a finished position.
    fn of_outcome(outcome: &Outcome) -> Eval {
        let score = match outcome.winner() {
            Some(Color::Black) => WIN,
            Some(Color::White) => -WIN,
            None => 0,
        };
        Eval {
            score,
            black_win: match outcome.winner() {
                Some(Color::Black) => 1.0,
                Some(Color::White) => 0.0,
                None => 0.5,
            },
            depth: 0,
            mate: None,
        }
    }
}

/// A board size and rule as the API names them.
pub fn parse_rule(text: &str) -> Result<Rule, ApiError> {
    text.parse::<Rule>().map_err(ApiError::bad_request)
}

pub fn parse_size(text: &str) -> Result<(usize, usize), ApiError> {
    wuzi_core::notation::parse_size(text).map_err(|e| ApiError::bad_request(e.to_string()))
}

/// A point name (`h8`) of the API.
pub fn parse_point(text: &str) -> Result<Point, ApiError> {
    Point::parse_name(text).map_err(|e| ApiError::bad_request(e.to_string()))
}

#[derive(Clone, Debug)]
pub struct Game {
    rule: Rule,
    width: usize,
    height: usize,
    moves: Vec<Point>,
    ply: usize,
    board: Board,
    /// The side that resigned at the end of the line.
    resigned: Option<Color>,
    evals: Vec<Option<Eval>>,
    line: u64,
}

impl Game {
    pub fn new(rule: Rule, width: usize, height: usize) -> Result<Game, ApiError> {
        let board =
            Board::new(width, height, rule).map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Game {
            rule,
            width,
            height,
            moves: Vec::new(),
            ply: 0,
            board,
            resigned: None,
            evals: vec![None],
            line: 0,
        })
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    pub fn ply(&self) -> usize {
        self.ply
    }

    pub fn line(&self) -> u64 {
        self.line
    }

    /// The position at the cursor.
    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn evals(&self) -> &[Option<Eval>] {
        &self.evals
    }

    /// The board after the first `ply` moves of the line.
    pub fn board_at(&self, ply: usize) -> Board {
        let mut board = self.board.cleared();
        for &p in &self.moves[..ply.min(self.moves.len())] {
            // Every move of the line was played on this very sequence before.
            let _ = board.play(p);
        }
        board
    }

    /// A fresh start of the line: a new game of this rule and size.
    pub fn restart(&mut self, rule: Rule, width: usize, height: usize) -> Result<(), ApiError> {
        let line = self.line;
        *self = Game::new(rule, width, height)?;
        self.line = line + 1;
        Ok(())
    }

    /// The outcome of the position after `ply` moves of the line, if it is over; `board` is
    /// that position.
    fn outcome_of(&self, board: &mut Board, ply: usize) -> Option<Outcome> {
        if ply > 0 {
            if let Some(winner) = board.winner() {
                let last = board.last_move()?;
                if let Some(run) = winning_run(board, last) {
                    return Some(Outcome::Five { winner, run });
                }
                // Not a five: renju Black's forbidden move (see `Board::winner`).
                let mut before = board.clone();
                before.undo().ok()?;
                let kind = before.forbidden_kind(last)?;
                return Some(Outcome::Forbidden { point: last, kind });
            }
        }
        if board.is_full() {
            return Some(Outcome::Full);
        }
        if !board.has_legal_move() {
            return Some(Outcome::NoLegalMove);
        }
        if ply == self.moves.len() {
            if let Some(loser) = self.resigned {
                return Some(Outcome::Resigned { loser });
            }
        }
        None
    }

    /// The outcome at the cursor.
    pub fn outcome(&self) -> Option<Outcome> {
        let mut board = self.board.clone();
        self.outcome_of(&mut board, self.ply)
    }

    /// The outcome at the end of the line.
    pub fn final_outcome(&self) -> Option<Outcome> {
        let mut board = self.board_at(self.moves.len());
        self.outcome_of(&mut board, self.moves.len())
    }

    /// Renju Black's forbidden points at the cursor (none under other rules).
    pub fn forbidden(&self) -> Vec<(Point, ForbiddenKind)> {
        if !self.rule.has_forbidden_moves() {
            return Vec::new();
        }
        self.board.clone().forbidden_points()
    }

    /// Plays `p` for the side to move at the cursor. The line after the cursor is dropped,
    /// unless `p` is its next move (then the cursor only steps on).
    pub fn play(&mut self, p: Point) -> Result<(), ApiError> {
        if let Some(outcome) = self.outcome() {
            return Err(ApiError::conflict(format!(
                "the game is over ({}); take back, step back or start a new game",
                outcome.words()
            )));
        }
        if !self.board.contains(p) {
            return Err(ApiError::unprocessable(format!(
                "{} is off the {}x{} board",
                p.name(),
                self.width,
                self.height
            )));
        }
        if !self.board.is_empty_at(p) {
            return Err(ApiError::unprocessable(format!(
                "{} is already occupied",
                p.name()
            )));
        }
        let mut board = self.board.clone();
        if board.side_to_move() == Color::Black {
            if let Some(kind) = board.forbidden_kind(p) {
                return Err(ApiError::unprocessable(format!(
                    "{} is forbidden for Black ({})",
                    p.name(),
                    kind_words(kind)
                )));
            }
        }
        board
            .play(p)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        self.board = board;
        if self.moves.get(self.ply) == Some(&p) {
            self.ply += 1;
            return Ok(());
        }
        self.moves.truncate(self.ply);
        self.evals.truncate(self.ply + 1);
        self.moves.push(p);
        self.evals.push(None);
        self.ply += 1;
        self.resigned = None;
        self.line += 1;
        Ok(())
    }

    /// Takes back the last `count` moves of the line; the cursor stays where it was unless
    /// those moves included it.
    pub fn take_back(&mut self, count: usize) -> Result<(), ApiError> {
        if count == 0 {
            return Err(ApiError::bad_request("take back at least one move"));
        }
        if count > self.moves.len() {
            return Err(ApiError::conflict(format!(
                "cannot take back {count} moves: the game has {}",
                self.moves.len()
            )));
        }
        let len = self.moves.len() - count;
        self.moves.truncate(len);
        self.evals.truncate(len + 1);
        self.resigned = None;
        self.line += 1;
        if self.ply > len {
            self.ply = len;
            self.board = self.board_at(len);
        }
        Ok(())
    }

    /// Moves the cursor to the position after `ply` moves of the line.
    pub fn goto(&mut self, ply: usize) -> Result<(), ApiError> {
        if ply > self.moves.len() {
            return Err(ApiError::unprocessable(format!(
                "there is no position after move {ply}: the game has {} moves",
                self.moves.len()
            )));
        }
        if ply != self.ply {
            self.ply = ply;
            self.board = self.board_at(ply);
        }
        Ok(())
    }

    /// Replaces the game by a record read by `wuzi_show` (every move already checked by
    /// replaying it); the cursor goes to its end.
    pub fn load(&mut self, record: &Record) -> Result<(), ApiError> {
        if !record.setup.is_empty() {
            return Err(ApiError::unprocessable(
                "the record sets stones up; only games of moves can be loaded",
            ));
        }
        let mut game = Game::new(record.rule, record.width, record.height)?;
        let board = record
            .replay(None)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        game.moves = record.moves.clone();
        game.evals = vec![None; game.moves.len() + 1];
        game.ply = game.moves.len();
        game.board = board;
        game.line = self.line + 1;
        *self = game;
        Ok(())
    }

    /// `color` resigns: the cursor goes to the end of the line, which must not be over yet.
    pub fn resign(&mut self, color: Color) -> Result<(), ApiError> {
        if let Some(outcome) = self.final_outcome() {
            return Err(ApiError::conflict(format!(
                "the game is already over ({})",
                outcome.words()
            )));
        }
        self.goto(self.moves.len())?;
        self.resigned = Some(color);
        Ok(())
    }

    /// Records what a search found for the position after `ply` moves of line `line`;
    /// ignored when the line has changed since.
    pub fn set_eval(&mut self, line: u64, ply: usize, eval: Eval) {
        if line == self.line {
            if let Some(slot) = self.evals.get_mut(ply) {
                *slot = Some(eval);
            }
        }
    }

    /// The evaluation of a finished position of the line, if it is one (no search needed).
    pub fn settled_eval(&self, ply: usize) -> Option<Eval> {
        let mut board = self.board_at(ply);
        self.outcome_of(&mut board, ply)
            .filter(|o| !matches!(o, Outcome::Resigned { .. }))
            .map(|o| Eval::of_outcome(&o))
    }

    /// The line as a record of `wuzi_show`.
    pub fn record(&self) -> Record {
        Record::new(self.width, self.height, self.rule, self.moves.clone())
    }

    /// The position at the cursor as SVG (`wuzi_show`): numbered stones, the last move,
    /// renju forbidden points, and `pv` from the position as numbered ghost stones.
    pub fn picture(&self, pv: &[Point]) -> Result<String, ApiError> {
        picture(&self.record(), self.ply, pv)
    }

    /// The line as an SGF or `.psq` record, with the players' names.
    pub fn write(
        &self,
        psq: bool,
        black: Option<String>,
        white: Option<String>,
    ) -> Result<String, ApiError> {
        let outcome = self.final_outcome();
        let info = RecordInfo {
            black,
            white,
            result: outcome.as_ref().map(Outcome::sgf_result),
            result_words: outcome.as_ref().map(Outcome::words),
            application: Some(format!("wuzi:{}", env!("CARGO_PKG_VERSION"))),
        };
        let record = self.record();
        let text = if psq {
            wuzi_show::psq(&record, &info)
        } else {
            wuzi_show::sgf(&record, &info)
        };
        text.map_err(|e| ApiError::unprocessable(e.to_string()))
    }
}

/// The position after `ply` moves of `record` as SVG, `pv` from there as ghost stones.
pub fn picture(record: &Record, ply: usize, pv: &[Point]) -> Result<String, ApiError> {
    let picture = Picture {
        upto: Some(ply),
        forbidden: true,
        pv: pv.to_vec(),
        caption: None,
        ..Picture::of(record.clone())
    };
    wuzi_show::svg(&picture).map_err(|e| ApiError::unprocessable(e.to_string()))
}

/// The stones of the winning run through `last` (its colour's), if one wins under the rule.
fn winning_run(board: &Board, last: Point) -> Option<Vec<Point>> {
    let color = board.stone(last)?;
    let (w, h) = (board.width() as i32, board.height() as i32);
    let at = |x: i32, y: i32| {
        if x < 0 || y < 0 || x >= w || y >= h {
            None
        } else {
            Some(Point::new(x as u8, y as u8))
        }
    };
    let end = |p: Option<Point>| match p {
        None => RunEnd::Wall,
        Some(p) => match board.stone(p) {
            None => RunEnd::Empty,
            Some(_) => RunEnd::Opponent,
        },
    };
    for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        let (x0, y0) = (last.x as i32, last.y as i32);
        let mut back = 0;
        while at(x0 - (back + 1) * dx, y0 - (back + 1) * dy)
            .is_some_and(|p| board.stone(p) == Some(color))
        {
            back += 1;
        }
        let mut run = Vec::new();
        let mut k = -back;
        while let Some(p) = at(x0 + k * dx, y0 + k * dy).filter(|&p| board.stone(p) == Some(color))
        {
            run.push(p);
            k += 1;
        }
        let before = end(at(x0 - (back + 1) * dx, y0 - (back + 1) * dy));
        let after = end(at(x0 + k * dx, y0 + k * dy));
        if board.rule().run_wins(color, run.len(), before, after) {
            return Some(run);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::notation::parse_moves;

    fn game(rule: Rule, moves: &str) -> Game {
        let mut g = Game::new(rule, 15, 15).expect("board");
        for p in parse_moves(moves).expect("moves") {
            g.play(p).expect("legal");
        }
        g
    }

    fn pt(name: &str) -> Point {
        Point::parse_name(name).expect("name")
    }

    #[test]
    fn a_five_ends_the_game_and_is_marked() {
        let mut g = game(Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 a4");
        assert_eq!(g.outcome(), None);
        g.play(pt("l8")).expect("five");
        let Some(Outcome::Five { winner, run }) = g.outcome() else {
            panic!("no five: {:?}", g.outcome());
        };
        assert_eq!(winner, Color::Black);
        let mut run: Vec<String> = run.iter().map(|p| p.name()).collect();
        run.sort();
        assert_eq!(run, ["h8", "i8", "j8", "k8", "l8"]);
        let before = g.clone();
        let err = g.play(pt("a5")).expect_err("over");
        assert_eq!(err.status.as_u16(), 409);
        assert_eq!(g.moves(), before.moves());
        // Stepping back reopens the position; a new move there drops the rest of the line.
        g.goto(8).expect("goto");
        assert_eq!(g.outcome(), None);
        g.play(pt("g8")).expect("legal");
        assert_eq!(g.moves().len(), 9);
        assert_eq!(g.evals().len(), 10);
    }

    #[test]
    fn under_caro_a_five_blocked_at_both_ends_does_not_win() {
        let mut g = game(Rule::Caro, "h8 g8 i8 m8 j8 a1 k8 a2");
        g.play(pt("l8")).expect("legal");
        assert_eq!(g.outcome(), None, "h8..l8 is blocked by g8 and m8");
    }

    #[test]
    fn renju_forbidden_points_are_refused_and_shown() {
        // Black h8 i8 g9 g10: g8 makes two open threes.
        let mut g = game(Rule::Renju, "h8 a1 i8 a3 g9 a5 g10 a7");
        let forbidden = g.forbidden();
        assert!(
            forbidden.contains(&(pt("g8"), ForbiddenKind::DoubleThree)),
            "{forbidden:?}"
        );
        let err = g.play(pt("g8")).expect_err("forbidden");
        assert_eq!(err.status.as_u16(), 422);
        assert!(err.message.contains("double three"), "{}", err.message);
        assert_eq!(g.moves().len(), 8);
        // White may play there.
        g.play(pt("o15")).expect("black elsewhere");
        g.play(pt("g8")).expect("white may");
    }

    #[test]
    fn take_back_goto_and_resign() {
        let mut g = game(Rule::Standard, "h8 i9 j10");
        g.goto(1).expect("goto");
        assert_eq!(g.board().move_count(), 1);
        g.take_back(1).expect("take back");
        assert_eq!((g.moves().len(), g.ply()), (2, 1));
        g.take_back(2).expect("to the start");
        assert_eq!((g.moves().len(), g.ply()), (0, 0));
        assert_eq!(g.take_back(1).expect_err("empty").status.as_u16(), 409);
        assert_eq!(g.goto(1).expect_err("none").status.as_u16(), 422);
        g.play(pt("h8")).expect("legal");
        g.resign(Color::White).expect("resign");
        assert_eq!(
            g.outcome().map(|o| o.words()),
            Some("Black wins: White resigned".into())
        );
        assert_eq!(
            g.resign(Color::Black).expect_err("over").status.as_u16(),
            409
        );
        g.take_back(1).expect("take back clears the resignation");
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn records_round_trip_through_the_show_readers() {
        let g = game(Rule::Renju, "h8 i9 j10 i10 i8");
        let text = g
            .write(false, Some("you".into()), Some("wuzi".into()))
            .expect("sgf");
        let back = wuzi_show::read_game(&text, (15, 15), Rule::Freestyle, 1).expect("reads");
        let mut loaded = Game::new(Rule::Freestyle, 19, 19).expect("board");
        loaded.load(&back).expect("loads");
        assert_eq!(loaded.moves(), g.moves());
        assert_eq!(loaded.rule(), Rule::Renju);
        let text = g.write(true, None, None).expect("psq");
        let back = wuzi_show::read_game(&text, (15, 15), Rule::Freestyle, 1).expect("reads");
        assert_eq!(back.moves, g.moves().to_vec());
    }

    #[test]
    fn win_rates_follow_the_score() {
        assert_eq!(win_rate(Rule::Freestyle, 0), 0.5);
        assert!(win_rate(Rule::Freestyle, 500) > 0.5);
        assert_eq!(win_rate(Rule::Renju, WIN - 7), 1.0);
        assert_eq!(mate_in(WIN - 7), Some(7));
        assert_eq!(mate_in(-(WIN - 4)), Some(-4));
        let e = Eval::of(Rule::Freestyle, Color::White, 300, 5);
        assert_eq!(e.score, -300);
        assert!(e.black_win < 0.5);
    }
}
