//! Hare and wolves: one hare against four wolves on the dark squares of a
//! draughts board, the articles' first game too big to solve by plain search.
//!
//! This module owns the rules ([`HareWolves`]), the breadth-first evaluation,
//! the move notation and an exact solver used to check what the searches say.
//!
//! Rules as implemented. Squares are named like a chess board: files `a`-`h`
//! from the left, ranks `1`-`8` from the bottom; the dark squares are those of
//! `a1`. The wolves start on `b8`, `d8`, `f8`, `h8` and step one square
//! diagonally *down* (towards rank 1) only. The hare starts on a dark square
//! of rank 1 (`e1` in [`HareWolves::standard`]), steps one square diagonally
//! in any direction, and moves first. Nobody may step onto an occupied square
//! and there is no passing. The hare wins on reaching rank 8; the wolves win
//! when the hare, to move, cannot. If the wolves, to move, cannot, the hare
//! wins: their only moves are forward, so a wolf that cannot step down never
//! will, and a pack that cannot move can no longer close any gap.
//!
//! Invariants: every piece stands on a dark square, no two on the same one;
//! every wolf move goes one rank down, so a game lasts at most 57 plies (4
//! wolves × 7 ranks, a hare move before each and one more at the end). The
//! game graph is therefore acyclic and any search to the end terminates.
//!
//! Move order, which fixes node counts: the hare tries up-left, up-right,
//! down-left, down-right; the wolves are taken rank by rank from the top and
//! left to right within a rank, each trying down-left before down-right.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use crate::game::Game;

/// Value of a won game for the hare, less one per ply already played so that
/// a quicker win (or a slower loss) is preferred.
pub const WIN: i32 = 10_000;

/// Heuristic value when no path of free squares leads the hare to rank 8:
/// scored as lost for the hare, yet kept well above every proven loss so that
/// a search value at or below `-(WIN - 100)` can be read as a proof.
pub const TRAPPED: i32 = -1_000;

/// A square of the 8×8 board; `x` is the file from the left, `y` the row
/// from the top (rank `8 - y`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at file `x` and row `y` from the top, if on the board.
    pub fn new(x: u8, y: u8) -> Option<Square> {
        (x < 8 && y < 8).then_some(Square(y * 8 + x))
    }

    pub fn x(self) -> u8 {
        self.0 % 8
    }

    pub fn y(self) -> u8 {
        self.0 / 8
    }

    /// Whether the square is dark, the only ones the pieces use.
    pub fn is_dark(self) -> bool {
        (self.x() + self.y()) % 2 == 1
    }

    fn bit(self) -> u64 {
        1 << self.0
    }

    fn step(self, dx: i8, dy: i8) -> Option<Square> {
        let x = u8::try_from(self.x() as i8 + dx).ok()?;
        let y = u8::try_from(self.y() as i8 + dy).ok()?;
        Square::new(x, y)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", char::from(b'a' + self.x()), 8 - self.y())
    }
}

impl FromStr for Square {
    type Err = HwError;

    fn from_str(s: &str) -> Result<Square, HwError> {
        let mut chars = s.chars().map(|c| c.to_ascii_lowercase());
        match (chars.next(), chars.next(), chars.next()) {
            (Some(file @ 'a'..='h'), Some(rank @ '1'..='8'), None) => {
                Square::new(file as u8 - b'a', b'8' - rank as u8)
                    .ok_or_else(|| HwError(format!("'{s}' is not a square")))
            }
            _ => Err(HwError(format!("'{s}' is not a square (a1 to h8)"))),
        }
    }
}

/// One of the two players.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Side {
    Hare,
    Wolves,
}

impl Side {
    pub fn opponent(self) -> Side {
        match self {
            Side::Hare => Side::Wolves,
            Side::Wolves => Side::Hare,
        }
    }
}

/// A step of one piece.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct HwMove {
    pub from: Square,
    pub to: Square,
}

impl fmt::Display for HwMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// A position or a move that cannot be, with the reason in plain words.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HwError(pub String);

impl fmt::Display for HwError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for HwError {}

const HARE_STEPS: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
const WOLF_STEPS: [(i8, i8); 2] = [(-1, 1), (1, 1)];

/// A hare-and-wolves position. The hare is the maximiser.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct HareWolves {
    hare: Square,
    /// One bit per square holding a wolf.
    wolves: u64,
    hare_to_move: bool,
    /// Plies played since this value was set up; only shades won values.
    ply: u32,
}

impl HareWolves {
    /// The usual start: hare on `e1`, hare to move.
    pub fn standard() -> Self {
        Self::start(Square(7 * 8 + 4))
    }

    /// The start with the hare on `square`, a dark square of rank 1.
    pub fn hare_starting_at(square: Square) -> Result<Self, HwError> {
        if square.y() != 7 || !square.is_dark() {
            return Err(HwError(format!(
                "the hare starts on a1, c1, e1 or g1, not {square}"
            )));
        }
        Ok(Self::start(square))
    }

    fn start(hare: Square) -> Self {
        let wolves = [1, 3, 5, 7].iter().map(|&x| Square(x).bit()).sum();
        HareWolves {
            hare,
            wolves,
            hare_to_move: true,
            ply: 0,
        }
    }

    /// A composed position: eight rows from rank 8 down, each of eight cells
    /// `H` (the hare), `W` (a wolf) or `.`, whitespace ignored. At most four
    /// wolves, all pieces on dark squares.
    pub fn from_diagram(diagram: &str, to_move: Side) -> Result<Self, HwError> {
        let cells: Vec<char> = diagram.chars().filter(|c| !c.is_whitespace()).collect();
        if cells.len() != 64 {
            return Err(HwError(format!("{} cells instead of 64", cells.len())));
        }
        let (mut hare, mut wolves) = (None, 0u64);
        for (i, &c) in (0u8..).zip(&cells) {
            let square = Square(i);
            if c != '.' && !square.is_dark() {
                return Err(HwError(format!("{square} is a light square")));
            }
            match c {
                'H' | 'h' if hare.is_none() => hare = Some(square),
                'H' | 'h' => return Err(HwError("more than one hare".into())),
                'W' | 'w' => wolves |= square.bit(),
                '.' => {}
                _ => return Err(HwError(format!("'{c}' is not H, W or '.'"))),
            }
        }
        if wolves.count_ones() > 4 {
            return Err(HwError("more than four wolves".into()));
        }
        let hare = hare.ok_or_else(|| HwError("no hare".into()))?;
        Ok(HareWolves {
            hare,
            wolves,
            hare_to_move: to_move == Side::Hare,
            ply: 0,
        })
    }

    pub fn hare(&self) -> Square {
        self.hare
    }

    /// The wolves' squares, top row first, left to right.
    pub fn wolves(&self) -> Vec<Square> {
        (0..64)
            .map(Square)
            .filter(|s| self.wolves & s.bit() != 0)
            .collect()
    }

    pub fn side_to_move(&self) -> Side {
        if self.hare_to_move {
            Side::Hare
        } else {
            Side::Wolves
        }
    }

    fn free(&self, square: Square) -> bool {
        square != self.hare && self.wolves & square.bit() == 0
    }

    /// The moves of the side to move, ignoring whether the game is over.
    fn steps(&self) -> Vec<HwMove> {
        let step_to = |from: Square, &(dx, dy): &(i8, i8)| {
            let to = from.step(dx, dy)?;
            self.free(to).then_some(HwMove { from, to })
        };
        if self.hare_to_move {
            HARE_STEPS
                .iter()
                .filter_map(|d| step_to(self.hare, d))
                .collect()
        } else {
            let wolves = self.wolves();
            let steps = wolves
                .iter()
                .flat_map(|&w| WOLF_STEPS.iter().map(move |d| (w, d)));
            steps.filter_map(|(w, d)| step_to(w, d)).collect()
        }
    }

    /// The winner, once the game is over.
    pub fn winner(&self) -> Option<Side> {
        if self.hare.y() == 0 {
            Some(Side::Hare)
        } else if self.steps().is_empty() {
            Some(self.side_to_move().opponent())
        } else {
            None
        }
    }

    /// The legal moves, none once the game is over.
    pub fn legal_moves(&self) -> Vec<HwMove> {
        if self.hare.y() == 0 {
            Vec::new()
        } else {
            self.steps()
        }
    }

    /// Hare steps to rank 8 if the wolves stood still: a breadth-first search
    /// over the dark squares they leave free. `None` when they wall it in.
    pub fn distance_to_top(&self) -> Option<u32> {
        let mut seen = self.hare.bit();
        let mut frontier = vec![self.hare];
        for distance in 0.. {
            if frontier.iter().any(|s| s.y() == 0) {
                return Some(distance);
            }
            let mut next = Vec::new();
            for &square in &frontier {
                for &(dx, dy) in &HARE_STEPS {
                    if let Some(to) = square.step(dx, dy) {
                        if self.wolves & to.bit() == 0 && seen & to.bit() == 0 {
                            seen |= to.bit();
                            next.push(to);
                        }
                    }
                }
            }
            if next.is_empty() {
                return None;
            }
            frontier = next;
        }
        None
    }

    /// Reads a move typed by a person: both squares (`e1-d2`, `e1 d2`,
    /// `e1d2`) or only the destination when a single legal move goes there.
    pub fn parse_move(&self, input: &str) -> Result<HwMove, HwError> {
        let text: String = input
            .chars()
            .filter(|c| !c.is_whitespace() && !matches!(c, '-' | ',' | '>'))
            .collect();
        let chars: Vec<char> = text.chars().collect();
        let legal = self.legal_moves();
        let listed = || {
            legal
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        match chars.len() {
            0 => Err(HwError("type a move such as e1-d2, or just d2".into())),
            2 => {
                let to: Square = text.parse()?;
                let ends: Vec<HwMove> = legal.iter().copied().filter(|m| m.to == to).collect();
                match ends.as_slice() {
                    [mv] => Ok(*mv),
                    [] => Err(HwError(format!(
                        "nothing can move to {to}; legal: {}",
                        listed()
                    ))),
                    _ => Err(HwError(format!(
                        "several pieces can move to {to}; give both squares"
                    ))),
                }
            }
            4 => {
                let from: Square = chars[..2].iter().collect::<String>().parse()?;
                let to: Square = chars[2..].iter().collect::<String>().parse()?;
                let mv = HwMove { from, to };
                if legal.contains(&mv) {
                    Ok(mv)
                } else {
                    Err(HwError(format!("{mv} is not legal; legal: {}", listed())))
                }
            }
            _ => Err(HwError(format!(
                "'{}' is not a move such as e1-d2",
                input.trim()
            ))),
        }
    }

    /// Who wins with perfect play from here: an exhaustive search that
    /// remembers every position it has solved. It needs no heuristic and
    /// no depth, and shares no code with the searches it is used to check.
    pub fn solve(&self) -> Side {
        solve_from(*self, &mut HashMap::new())
    }
}

fn solve_from(position: HareWolves, memo: &mut HashMap<(u64, u8, bool), Side>) -> Side {
    if let Some(winner) = position.winner() {
        return winner;
    }
    let key = (position.wolves, position.hare.0, position.hare_to_move);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mover = position.side_to_move();
    let mut result = mover.opponent();
    for mv in position.legal_moves() {
        let mut next = position;
        next.play(mv);
        if solve_from(next, memo) == mover {
            result = mover;
            break;
        }
    }
    memo.insert(key, result);
    result
}

impl Game for HareWolves {
    type Move = HwMove;

    fn maximizer_to_move(&self) -> bool {
        self.hare_to_move
    }

    fn moves(&mut self) -> Vec<HwMove> {
        self.legal_moves()
    }

    fn play(&mut self, mv: HwMove) {
        let own = if self.hare_to_move {
            self.hare.bit()
        } else {
            self.wolves
        };
        assert!(
            own & mv.from.bit() != 0 && self.free(mv.to),
            "{mv} cannot be played"
        );
        if self.hare_to_move {
            self.hare = mv.to;
        } else {
            self.wolves = (self.wolves & !mv.from.bit()) | mv.to.bit();
        }
        self.hare_to_move = !self.hare_to_move;
        self.ply += 1;
    }

    fn undo(&mut self, mv: HwMove) {
        self.hare_to_move = !self.hare_to_move;
        self.ply = self.ply.saturating_sub(1);
        if self.hare_to_move {
            self.hare = mv.from;
        } else {
            self.wolves = (self.wolves & !mv.to.bit()) | mv.from.bit();
        }
    }

    fn is_terminal(&mut self) -> bool {
        self.winner().is_some()
    }

    /// A result is worth [`WIN`] less the plies played; otherwise the hare
    /// wants a short way to rank 8, so the score is minus that distance, or
    /// [`TRAPPED`] if there is none.
    fn evaluate(&mut self) -> i32 {
        let shaded = WIN - self.ply.min(1_000) as i32;
        match self.winner() {
            Some(Side::Hare) => shaded,
            Some(Side::Wolves) => -shaded,
            None => self.distance_to_top().map_or(TRAPPED, |d| -(d as i32)),
        }
    }
}

impl fmt::Display for HareWolves {
    /// The board from rank 8 down: `H` hare, `W` wolf, `.` a free dark
    /// square, a blank for the light ones.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "  a b c d e f g h")?;
        for y in 0..8 {
            write!(f, "{}", 8 - y)?;
            for x in 0..8 {
                let square = Square(y * 8 + x);
                let cell = if square == self.hare {
                    'H'
                } else if self.wolves & square.bit() != 0 {
                    'W'
                } else if square.is_dark() {
                    '.'
                } else {
                    ' '
                };
                write!(f, " {cell}")?;
            }
            writeln!(f, " {}", 8 - y)?;
        }
        write!(f, "  a b c d e f g h")
    }
}
