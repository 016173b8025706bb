//! Move generation and ordering.
//!
//! Which moves a node searches depends on the threat it faces (the caller has already
//! settled a five for the side to move, the opponent's fives and the side's own open fours,
//! `search/tactics.rs`):
//! - the opponent threatens a five: the stones that stop it (outside caro, its five point);
//! - the opponent threatens an open four (has an open three): every point where the
//!   opponent would make a four or an open four (each defence against an open three lies
//!   there) and the side's own fours (counter-threats);
//! - the opponent has a four-three point that wins: the points on its lines after which it
//!   has none, and the side's own fours; at the root, and at a principal-variation node
//!   where all of those lose, also the points off its lines that stop it by letting the
//!   four's block make a four ([`four_three_block_defences`]);
//! - otherwise: the empty points within two of a stone, plus every point where either side
//!   would make a four or an open three (line threats reach four away).
//!
//! The quiescence generates the side's fours near its own last stone ([`quiescence_fours`]).
//! Renju Black's forbidden points are never generated.
//!
//! Ordering: the table move first, then by a static score of what the move makes for the
//! side and takes from the opponent (the learned ordering table of `order_table.rs` where the
//! rule has one, else the hand-set class scores), killer moves and the history table.

use crate::order_table::OrderTable;
use crate::params::{FOUR_BUILDS_BONUS, HISTORY_ORDER_BOUND, THREE_BUILDS_BONUS};
use wuzi_core::{flag, Bitboard, Board, Cell, Color, Pattern, Threat};

/// Attack value of the threat a move makes for the side to move.
fn attack(t: Threat) -> i32 {
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
        Threat::Four => 700,
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

/// The cells of `set` that `color` may play.
pub fn legal_cells(board: &mut Board, color: Color, set: &Bitboard) -> Vec<Cell> {
    set.iter().filter(|&c| board.may_play(color, c)).collect()
}

/// True when `color` has a legal move in `set`.
pub fn any_legal(board: &mut Board, color: Color, set: &Bitboard) -> bool {
    set.iter().any(|c| board.may_play(color, c))
}

/// The opponent threatens to make an open four next move (with a point it may play).
pub fn opponent_threatens_open_four(board: &mut Board, them: Color) -> bool {
    let set = *board.cells_making(them, flag::OPEN_FOUR);
    !set.is_empty() && any_legal(board, them, &set)
}

/// The threat a node's moves must answer (after the node's own wins are settled,
/// `tactics.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Facing {
    /// The opponent threatens a five: the stones that stop it are the only moves
    /// (`tactics::five_stoppers`).
    Five,
    /// The opponent has an open three (a legal open-four point).
    OpenThree,
    /// The opponent has a four-three point that wins (`tactics::has_winning_four_three`).
    FourThree,
    Nothing,
}

impl Facing {
    /// What the side to move faces, its own wins and the opponent's fives already settled.
    pub fn of(board: &mut Board, us: Color) -> Facing {
        let them = us.opponent();
        if opponent_threatens_open_four(board, them) {
            Facing::OpenThree
        } else if crate::tactics::has_winning_four_three(board, them) {
            Facing::FourThree
        } else {
            Facing::Nothing
        }
    }

    /// The node answers a threat (its moves are defences).
    pub fn is_threat(self) -> bool {
        self != Facing::Nothing
    }
}

/// The candidate set for the side to move (see the module documentation).
pub fn candidates(board: &mut Board, us: Color, facing: Facing) -> Bitboard {
    let them = us.opponent();
    match facing {
        Facing::Five => return crate::tactics::five_stoppers(board, us),
        Facing::OpenThree => {
            // Every point where the opponent would make a four or an open four, and our own
            // fours. A narrower set (the points after which no open four is left) was tried:
            // checking it costs a make per point and it lost strength (the journal).
            return board
                .cells_making(them, flag::OPEN_FOUR)
                .or(board.cells_making(them, flag::FOUR))
                .or(board.cells_making(us, flag::FOUR));
        }
        Facing::FourThree => {
            let defences = four_three_defences(board, us);
            if !defences.is_empty() {
                return defences.or(board.cells_making(us, flag::FOUR));
            }
            // No point stops it: every move is searched, and the search finds the loss or
            // the counter-attack.
        }
        Facing::Nothing => {}
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

/// The points after which the opponent of `us` (which has a winning four-three point, and
/// no open three) has no winning four-three point left. A four-three is broken on its four's
/// line or its three's (at the point itself, or anywhere in the five cells each needs, which
/// includes the far ends of a three that are no threat points themselves, and caro's cells
/// beyond a five), so the pool is every empty point within six cells along the four lines
/// through each of its four-three points.
pub fn four_three_defences(board: &mut Board, us: Color) -> Bitboard {
    let points = four_three_points(board, us.opponent());
    let pool = four_three_lines(board, &points);
    stopping_four_threes(board, us, &pool)
}

/// The defences of a four-three that [`four_three_defences`] leaves out: the points within
/// four cells along the lines through the block of a four-three point's four (off the
/// four-three's own lines within six cells) after which the opponent has no winning
/// four-three left. Such a stone stops it by making the block a four of `us`, so the
/// attacker's four is answered with a four. Searched at the root, and at a
/// principal-variation node where every move of the narrower set loses (`node.rs`):
/// searching them wherever that happens lost strength (the journal).
pub fn four_three_block_defences(board: &mut Board, us: Color) -> Bitboard {
    let them = us.opponent();
    let points = four_three_points(board, them);
    let offsets = board.dir_offsets();
    let mut pool = Bitboard::default();
    for point in points.iter() {
        for dir in 0..4 {
            if board.pattern_at(them, point, dir).four_count() == 0 {
                continue;
            }
            for block in board.completion_cells(them, point, dir) {
                for &step in &offsets {
                    insert_along(board, &mut pool, block, step, 4);
                }
            }
        }
    }
    let pool = pool.and_not(&four_three_lines(board, &points));
    stopping_four_threes(board, us, &pool)
}

/// The four-three points and the empty cells within six of them along their four lines (the
/// pool of [`four_three_defences`]).
fn four_three_lines(board: &Board, points: &Bitboard) -> Bitboard {
    let mut lines = *points;
    for point in points.iter() {
        for &step in &board.dir_offsets() {
            insert_along(board, &mut lines, point, step, 6);
        }
    }
    lines
}

/// The cells where `them` makes a four-three (its threat there is exactly that).
fn four_three_points(board: &Board, them: Color) -> Bitboard {
    let candidates = board
        .cells_making(them, flag::FOUR)
        .and(board.cells_making(them, flag::OPEN_THREE));
    let mut points = candidates;
    for point in candidates.iter() {
        if board.threat_at(them, point) != Threat::FourThree {
            points.remove(point);
        }
    }
    points
}

/// Adds the empty cells within `reach` of `from` both ways along `step` to `set`.
fn insert_along(board: &Board, set: &mut Bitboard, from: Cell, step: usize, reach: usize) {
    for k in 1..=reach {
        for cell in [from + k * step, from.wrapping_sub(k * step)] {
            if board.is_on_board(cell) && board.is_empty_cell(cell) {
                set.insert(cell);
            }
        }
    }
}

/// The legal points of `pool` after which the opponent of `us` has no winning four-three.
fn stopping_four_threes(board: &mut Board, us: Color, pool: &Bitboard) -> Bitboard {
    let them = us.opponent();
    let mut defences = Bitboard::default();
    for cell in pool.iter() {
        if !board.may_play(us, cell) {
            continue;
        }
        // Read from the stone's effect where that settles it; a make and unmake costs about
        // ten times as much, and these trials were a third of all the search's makes.
        let stopped = match crate::tactics::has_winning_four_three_after(board, us, cell) {
            Some(wins) => !wins,
            None => {
                board.make(us, cell);
                let stopped = !crate::tactics::has_winning_four_three(board, them);
                board.unmake();
                stopped
            }
        };
        if stopped {
            defences.insert(cell);
        }
    }
    defences
}

/// Whether `a` is near `b`: within two cells in both directions, or on a line through `b`
/// within four (where a stone on `b` shares a five's window).
#[inline]
pub fn near(board: &Board, a: Cell, b: Cell) -> bool {
    let s = board.stride();
    let dx = (a % s).abs_diff(b % s);
    let dy = (a / s).abs_diff(b / s);
    let far = dx.max(dy);
    far <= 2 || (far <= 4 && (dx == 0 || dy == 0 || dx == dy))
}

/// Whether the four `us` makes at `cell` also makes a two or a three in another line (a
/// four that builds on, not only forces).
pub fn four_builds(board: &Board, us: Color, cell: Cell) -> bool {
    four_builds_in(line_patterns(board, us, cell))
}

/// The four line patterns of `us` at the empty point `cell`.
#[inline]
fn line_patterns(board: &Board, us: Color, cell: Cell) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|dir| board.pattern_at(us, cell, dir))
}

/// [`four_builds`] from the point's four line patterns.
fn four_builds_in(dirs: [Pattern; 4]) -> bool {
    let mut fours = 0;
    let mut builds = 0;
    for p in dirs {
        if p.four_count() > 0 {
            fours += 1;
        } else if p >= Pattern::F2 {
            builds += 1;
        }
    }
    fours >= 2 || (fours == 1 && builds > 0)
}

/// The quiescence's moves for `us`: its legal fours, near `own_last` (its last stone) when
/// given, and only fours that build on (`four_builds`) when `building_only`; scored.
pub fn quiescence_fours(
    board: &mut Board,
    us: Color,
    own_last: Option<Cell>,
    building_only: bool,
    table: Option<&OrderTable>,
    out: &mut Vec<(Cell, i32)>,
) {
    out.clear();
    let fours = *board.cells_making(us, flag::FOUR);
    for cell in fours.iter() {
        if own_last.is_some_and(|last| !near(board, cell, last))
            || (building_only && !four_builds(board, us, cell))
            || !board.may_play(us, cell)
        {
            continue;
        }
        out.push((cell, move_score(table, board, us, cell)));
    }
    out.sort_unstable_by(before);
}

/// The static ordering score of a move: from the learned `table`, or the class scores where
/// there is none.
#[inline]
pub fn move_score(table: Option<&OrderTable>, board: &Board, us: Color, cell: Cell) -> i32 {
    match table {
        Some(t) => t.score(board, us, cell),
        None => class_score(board, us, cell),
    }
}

/// A move's ordering score before the table move and the refutations: its table (or class)
/// score and its history, the history bounded so that it reorders moves of near scores
/// rather than outweighing what the moves make and take on the board.
#[inline]
pub fn ordering_score(
    table: Option<&OrderTable>,
    board: &Board,
    us: Color,
    cell: Cell,
    history: i32,
) -> i32 {
    move_score(table, board, us, cell) + history.clamp(-HISTORY_ORDER_BOUND, HISTORY_ORDER_BOUND)
}

/// The hand-set ordering score of a move: the classes of what it makes and takes.
#[inline]
pub fn class_score(board: &Board, us: Color, cell: Cell) -> i32 {
    let made = board.threat_at(us, cell);
    let mut score = attack(made) + defence(board.threat_at(us.opponent(), cell));
    // A four or an open three that also builds on another line is the start of a
    // four-three or a double three: it goes before the plain ones.
    if made == Threat::Four && four_builds(board, us, cell) {
        score += FOUR_BUILDS_BONUS;
    }
    if made == Threat::OpenThree && three_builds(board, us, cell) {
        score += THREE_BUILDS_BONUS;
    }
    score
}

/// The class score's two parts from a point's line patterns for one side: what a move there
/// makes for that side (if it is the side to move) and what it takes from that side (if it is
/// the opponent). `class_score` is the first for us plus the second for them.
pub fn class_parts(dirs: [Pattern; 4], threat: Threat) -> (i32, i32) {
    let mut own = attack(threat);
    if threat == Threat::Four && four_builds_in(dirs) {
        own += FOUR_BUILDS_BONUS;
    }
    if threat == Threat::OpenThree && three_builds_in(dirs) {
        own += THREE_BUILDS_BONUS;
    }
    (own, defence(threat))
}

/// Whether the open three `us` makes at `cell` also makes a two or a closed three elsewhere.
pub fn three_builds(board: &Board, us: Color, cell: Cell) -> bool {
    three_builds_in(line_patterns(board, us, cell))
}

/// [`three_builds`] from the point's four line patterns.
fn three_builds_in(dirs: [Pattern; 4]) -> bool {
    dirs.iter().filter(|&&p| p >= Pattern::F2).count() >= 2
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
        facing: Facing,
        tt_move: Option<Cell>,
        refutations: [Option<Cell>; 3],
        history: &[i32],
        table: Option<&OrderTable>,
    ) {
        self.moves.clear();
        self.sorted = false;
        let set = candidates(board, us, facing);
        for cell in set.iter() {
            if !board.may_play(us, cell) {
                continue;
            }
            let mut score = ordering_score(table, board, us, cell, history[cell]);
            if Some(cell) == tt_move {
                score += TT_MOVE;
            } else if refutations.contains(&Some(cell)) {
                score += KILLER;
            }
            self.moves.push((cell, score));
        }
    }

    /// Adds `bonus` to the score of every move that makes `us` an open three or more.
    pub fn raise_threats(&mut self, board: &Board, us: Color, bonus: i32) {
        for m in self.moves.iter_mut() {
            if board.threat_at(us, m.0) >= Threat::OpenThree {
                m.1 += bonus;
            }
        }
    }

    /// Fills the list with every legal empty point (the textbook oracle's move set), scored
    /// like `fill`.
    pub fn fill_all(&mut self, board: &mut Board, us: Color, tt_move: Option<Cell>) {
        self.moves.clear();
        self.sorted = false;
        let empty = board.on_board().and_not(&board.occupied());
        for cell in empty.iter() {
            if board.may_play(us, cell) {
                let bonus = if Some(cell) == tt_move { TT_MOVE } else { 0 };
                self.moves
                    .push((cell, class_score(board, us, cell) + bonus));
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
    fn raise_threats_raises_exactly_the_open_threes_and_more() {
        let mut board = Board::new(15, 15, Rule::Freestyle).expect("board");
        // Black: two in a row at (6..7, 7); White far away; Black to move.
        for (b, w) in [((6, 7), (0, 0)), ((7, 7), (0, 14))] {
            board.play(Point::new(b.0, b.1)).expect("b");
            board.play(Point::new(w.0, w.1)).expect("w");
        }
        let us = board.side_to_move();
        let mut list = MoveList::default();
        list.fill(
            &mut board,
            us,
            Facing::Nothing,
            None,
            [None; 3],
            &vec![0; wuzi_core::geometry::MAX_CELLS],
            None,
        );
        let before = list.moves.clone();
        list.raise_threats(&board, us, 300);
        let mut raised = 0;
        for (&(cell, old), &(same, new)) in before.iter().zip(&list.moves) {
            assert_eq!(cell, same);
            let threat = board.threat_at(us, cell);
            let bonus = if threat >= Threat::OpenThree { 300 } else { 0 };
            assert_eq!(new, old + bonus, "{:?} makes {threat:?}", board.point(cell));
            raised += (bonus > 0) as usize;
        }
        // (5, 7) and (8, 7) make .XXX. open threes, as do the split threes beyond them.
        assert!(raised >= 2, "only {raised} moves raised");
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
        // The defences are Black's four points: the two beside the three (which stop it)
        // and the two a step further (after which Black still makes a straight four on the
        // other side, left to the search). White has no fours of its own.
        let set = candidates(&mut board, Color::White, Facing::OpenThree);
        let points: Vec<Point> = set.iter().map(|c| board.point(c)).collect();
        let expected = [(3, 7), (4, 7), (8, 7), (9, 7)].map(|(x, y)| Point::new(x, y));
        assert_eq!(points, expected.to_vec());
    }

    /// A defence off the four-three's lines, from a game (the suite's std15-2026:19:13):
    /// White's h6 stops Black's four-three by making White's block of the four a four of
    /// White's; the lines' defences leave it out, the block defences hold it.
    #[test]
    fn the_block_defences_hold_a_defence_off_the_four_threes_lines() {
        let mut board = Board::new(15, 15, Rule::Standard).expect("board");
        let moves = "h8i7k6k7l10j7h7i5i8j6l8j4j8k8k10j9i10j10j11l7m7";
        for p in wuzi_core::notation::parse_moves(moves).expect("moves") {
            board.play(p).expect("legal");
        }
        let us = board.side_to_move();
        assert_eq!(us, Color::White);
        assert_eq!(Facing::of(&mut board, us), Facing::FourThree);
        let h6 = board
            .cell(wuzi_core::Point::parse_name("h6").expect("name"))
            .expect("on the board");
        assert!(!four_three_defences(&mut board, us).contains(h6));
        assert!(four_three_block_defences(&mut board, us).contains(h6));
    }

    /// Every four-three defence stops the opponent's winning four-three points, and every
    /// point on a line through one of them (within six cells) that stops them is a defence,
    /// apart from the side's own fours, which the node adds anyway (checked on every empty
    /// point of random positions where the opponent has one). Every other point that stops
    /// them (a stone that lets the block of the four make a four of the side's) is one of
    /// the block defences, which are disjoint from the first set and stop them too.
    #[test]
    fn four_three_defences_match_their_definition() {
        let mut rng = wuzi_core::rng::Rng::new(11);
        let mut checked = 0;
        let mut positions = 0;
        for round in 0..3000 {
            let rule = Rule::ALL[round % Rule::ALL.len()];
            let mut board = Board::new(11, 11, rule).expect("board");
            let stones = 8 + rng.below(16);
            while board.move_count() < stones {
                let p = Point::new(rng.below(11) as u8, rng.below(11) as u8);
                if board.is_legal(p) {
                    board.play(p).expect("legal");
                    if board.winner().is_some() {
                        board.undo().expect("undo");
                        break;
                    }
                }
            }
            let us = board.side_to_move();
            let them = us.opponent();
            if !board.cells_making(them, flag::FIVE).is_empty()
                || !board.cells_making(us, flag::FIVE).is_empty()
                || Facing::of(&mut board, us) != Facing::FourThree
            {
                continue;
            }
            positions += 1;
            let fast = four_three_defences(&mut board, us);
            let block = four_three_block_defences(&mut board, us);
            assert!(fast.and(&block).is_empty());
            let own_fours = *board.cells_making(us, flag::FOUR);
            // The opponent's four-three points, and whether a point lies on a line through one
            // of them within six cells (by coordinates: the slow, obvious way).
            let points: Vec<Point> = board
                .cells_making(them, flag::FOUR)
                .iter()
                .filter(|&c| board.threat_at(them, c) == Threat::FourThree)
                .map(|c| board.point(c))
                .collect();
            let on_lines = |board: &Board, cell: Cell| {
                let p = board.point(cell);
                points.iter().any(|q| {
                    let (dx, dy) = (p.x as i32 - q.x as i32, p.y as i32 - q.y as i32);
                    let far = dx.abs().max(dy.abs());
                    far <= 6 && (dx == 0 || dy == 0 || dx.abs() == dy.abs())
                })
            };
            for y in 0..11u8 {
                for x in 0..11u8 {
                    let Some(cell) = board.cell(Point::new(x, y)) else {
                        continue;
                    };
                    if !board.is_empty_cell(cell) || !board.may_play(us, cell) {
                        continue;
                    }
                    board.make(us, cell);
                    let stopped = !crate::tactics::has_winning_four_three(&mut board, them);
                    board.unmake();
                    let generated = fast.contains(cell) || block.contains(cell);
                    assert!(
                        !generated || stopped,
                        "{:?} under {rule:?}\n{board:?}",
                        board.point(cell)
                    );
                    if stopped && !own_fours.contains(cell) {
                        assert!(
                            fast.contains(cell) || (!on_lines(&board, cell) && generated),
                            "{:?} missed under {rule:?}\n{board:?}",
                            board.point(cell)
                        );
                    }
                    checked += 1;
                }
            }
        }
        assert!(
            positions >= 10 && checked > 500,
            "only {positions} positions, {checked} cells"
        );
    }
}
