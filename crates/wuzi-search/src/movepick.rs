//! Move generation and ordering.
//!
//! Which moves are searched depends on the threats on the board (the caller has already
//! handled a five for the side to move, the opponent's fives and the side's own open fours):
//! - the opponent threatens an open four (has an open three): only defences are searched —
//!   the points where the opponent would make a four or an open four (every block of a three
//!   lies on one of them) — and the side's own fours (counter-threats);
//! - otherwise: the empty points within two of a stone, plus every point where either side
//!   would make a four or an open three (line threats reach four away).
//!
//! Renju Black's forbidden points are never generated.
//!
//! Ordering: the table move first, then by a score of what the move makes for the side
//! (attack) and takes from the opponent (defence), killer moves and the history table.

use wuzi_core::{flag, Bitboard, Board, Cell, Color, Threat};

/// Attack value of the threat a move makes for the side to move.
const fn attack(t: Threat) -> i32 {
    match t {
        Threat::None | Threat::Forbidden => 0,
        Threat::One => 4,
        Threat::Two => 12,
        Threat::OpenTwo => 60,
        Threat::DoubleTwo => 160,
        Threat::Three => 50,
        Threat::ThreeTwo => 260,
        Threat::OpenThree => 500,
        Threat::DoubleThree => 3000,
        Threat::Four => 400,
        Threat::FourThree => 6000,
        Threat::OpenFour => 20000,
        Threat::Five => 100_000,
    }
}

/// Defence value of the threat a move takes from the opponent.
const fn defence(t: Threat) -> i32 {
    match t {
        Threat::None | Threat::Forbidden => 0,
        Threat::One => 2,
        Threat::Two => 8,
        Threat::OpenTwo => 40,
        Threat::DoubleTwo => 100,
        Threat::Three => 30,
        Threat::ThreeTwo => 160,
        Threat::OpenThree => 250,
        Threat::DoubleThree => 1500,
        Threat::Four => 200,
        Threat::FourThree => 3000,
        Threat::OpenFour => 8000,
        Threat::Five => 50_000,
    }
}

/// Ordering bonus of the table move and of the refutations (the two killer moves of the ply
/// and the counter-move to the opponent's last move). A refutation's bonus is below
/// `TACTICAL`, so a quiet killer comes after the moves that make or stop threats (fours, open
/// threes), as in staged picking, and before the other quiet moves.
pub const TT_MOVE: i32 = 1 << 24;
const KILLER: i32 = 300;

/// Score from which a move counts as tactical (never reduced or pruned).
pub const TACTICAL: i32 = 450;

/// Whether `color` may play the empty `cell` (`Board::may_play`).
#[inline]
pub fn legal_for(board: &mut Board, color: Color, cell: Cell) -> bool {
    board.may_play(color, cell)
}

/// The cells of `set` that `color` may play.
pub fn legal_cells(board: &mut Board, color: Color, set: &Bitboard) -> Vec<Cell> {
    set.iter().filter(|&c| legal_for(board, color, c)).collect()
}

/// True when `color` has a legal move in `set`.
pub fn any_legal(board: &mut Board, color: Color, set: &Bitboard) -> bool {
    set.iter().any(|c| legal_for(board, color, c))
}

/// The opponent threatens to make an open four next move (with a point it may play).
pub fn opponent_threatens_open_four(board: &mut Board, them: Color) -> bool {
    let set = *board.cells_making(them, flag::OPEN_FOUR);
    !set.is_empty() && any_legal(board, them, &set)
}

/// The candidate set for the side to move (see the module documentation).
pub fn candidates(board: &Board, us: Color, threatened: bool) -> Bitboard {
    let them = us.opponent();
    if threatened {
        return board
            .cells_making(them, flag::OPEN_FOUR)
            .or(board.cells_making(them, flag::FOUR))
            .or(board.cells_making(us, flag::FOUR));
    }
    let mut set = board
        .empty_near_stones(2)
        .or(board.cells_making(us, flag::FOUR))
        .or(board.cells_making(us, flag::OPEN_THREE))
        .or(board.cells_making(them, flag::FOUR))
        .or(board.cells_making(them, flag::OPEN_THREE));
    if set.is_empty() {
        // An empty board: the centre.
        let centre = wuzi_core::Point::new((board.width() / 2) as u8, (board.height() / 2) as u8);
        if let Some(c) = board.cell(centre) {
            set.insert(c);
        }
    }
    set
}

/// The static ordering score of a move.
#[inline]
pub fn move_score(board: &Board, us: Color, cell: Cell) -> i32 {
    attack(board.threat_at(us, cell)) + defence(board.threat_at(us.opponent(), cell))
}

/// A scored move list, handed out best first by `pick`.
///
/// Invariant: after a fill, `pick` is called with 0, 1, 2, ... in turn; once `sorted` is set,
/// the moves from the last index picked on are in order already.
#[derive(Default)]
pub struct MoveList {
    pub moves: Vec<(Cell, i32)>,
    sorted: bool,
}

/// Picks by selection before the rest of the list is sorted at once. Most nodes cut off
/// after one or two moves, where selection is cheapest; a node that goes on (an all-node
/// searches every move) would pay a scan of the rest for each move, quadratic in the list.
const PICKS_BEFORE_SORT: usize = 2;

/// Best first; ties to the lower cell, so that the order is a total one and selection and
/// sorting hand out the same sequence.
#[inline]
fn before(a: &(Cell, i32), b: &(Cell, i32)) -> std::cmp::Ordering {
    b.1.cmp(&a.1).then(a.0.cmp(&b.0))
}

impl MoveList {
    /// Fills the list with the legal candidates, scored (picked best first by `pick`).
    #[allow(clippy::too_many_arguments)]
    pub fn fill(
        &mut self,
        board: &mut Board,
        us: Color,
        threatened: bool,
        tt_move: Option<Cell>,
        refutations: [Option<Cell>; 3],
        history: &[i32],
    ) {
        self.moves.clear();
        self.sorted = false;
        let set = candidates(board, us, threatened);
        for cell in set.iter() {
            if !legal_for(board, us, cell) {
                continue;
            }
            let mut score = move_score(board, us, cell) + history[cell].clamp(-400, 400);
            if Some(cell) == tt_move {
                score += TT_MOVE;
            } else if refutations.contains(&Some(cell)) {
                score += KILLER;
            }
            self.moves.push((cell, score));
        }
    }

    /// Fills the list with every legal empty point (the textbook oracle's move set), scored
    /// like `fill`.
    pub fn fill_all(&mut self, board: &mut Board, us: Color, tt_move: Option<Cell>) {
        self.moves.clear();
        self.sorted = false;
        let empty = board.on_board().and_not(&board.occupied());
        for cell in empty.iter() {
            if legal_for(board, us, cell) {
                let bonus = if Some(cell) == tt_move { TT_MOVE } else { 0 };
                self.moves.push((cell, move_score(board, us, cell) + bonus));
            }
        }
    }

    /// Brings the best of the moves from `i` on to position `i`: by selection for the first
    /// `PICKS_BEFORE_SORT` moves, then by sorting the rest once (the same order either way).
    #[inline]
    pub fn pick(&mut self, i: usize) {
        if self.sorted {
            return;
        }
        if i >= PICKS_BEFORE_SORT {
            self.sort_from(i);
            return;
        }
        let mut best = i;
        for j in i + 1..self.moves.len() {
            if before(&self.moves[j], &self.moves[best]).is_lt() {
                best = j;
            }
        }
        self.moves.swap(i, best);
    }

    /// Sorts the moves from `i` on (those before it picked already), so that every later
    /// `pick` is free: for a node that hands all its remaining moves out at once.
    pub fn sort_from(&mut self, i: usize) {
        if let Some(rest) = self.moves.get_mut(i..) {
            rest.sort_unstable_by(before);
        }
        self.sorted = true;
    }

    /// Sorts the whole list best first (for the root).
    pub fn sort(&mut self) {
        self.sort_from(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use wuzi_core::{Point, Rule};

    /// The slow, obviously right order: every move against every other.
    fn order_by_counting(moves: &[(Cell, i32)]) -> Vec<(Cell, i32)> {
        let mut out = vec![(0, 0); moves.len()];
        for a in moves {
            let ahead = moves.iter().filter(|b| before(b, a).is_lt()).count();
            out[ahead] = *a;
        }
        out
    }

    proptest! {
        /// Picking one move at a time hands out the sorted order, whether the rest of the
        /// list is sorted after `PICKS_BEFORE_SORT` picks or at once from any index (as a
        /// splitting node does), scores tied or not.
        #[test]
        fn picks_hand_out_the_sorted_order(
            scores in prop::collection::vec(-3i32..3, 0..40),
            split_at in 0usize..12,
        ) {
            // Distinct cells in a scrambled order, few distinct scores so that ties abound.
            let moves: Vec<(Cell, i32)> = scores
                .iter()
                .enumerate()
                .map(|(k, &s)| ((k * 7919) % 401, s))
                .collect();
            let expected = order_by_counting(&moves);
            let mut one_by_one = MoveList { moves: moves.clone(), sorted: false };
            for i in 0..moves.len() {
                one_by_one.pick(i);
            }
            prop_assert_eq!(&one_by_one.moves, &expected);
            let mut split = MoveList { moves, sorted: false };
            for i in 0..split.moves.len() {
                if i == split_at {
                    split.sort_from(i);
                }
                split.pick(i);
            }
            prop_assert_eq!(&split.moves, &expected);
        }
    }

    #[test]
    fn open_three_forces_defences_only() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
        // Black: three in a row at (5..8, 7); White stones elsewhere; White to move.
        for (b, w) in [((5, 7), (0, 0)), ((6, 7), (0, 14)), ((7, 7), (14, 0))] {
            board.play(Point::new(b.0, b.1)).expect("b");
            board.play(Point::new(w.0, w.1)).expect("w");
        }
        board.play(Point::new(14, 14)).expect("b");
        // White to move with Black's open three .XXX. on row 7.
        assert_eq!(board.side_to_move(), Color::White);
        assert!(opponent_threatens_open_four(&mut board, Color::Black));
        let set = candidates(&board, Color::White, true);
        let points: Vec<Point> = set.iter().map(|c| board.point(c)).collect();
        for p in [(4, 7), (8, 7), (3, 7), (9, 7)] {
            assert!(
                points.contains(&Point::new(p.0, p.1)),
                "{p:?} in {points:?}"
            );
        }
        assert!(!points.contains(&Point::new(7, 8)));
    }
}
