//! What a node settles without searching, from the pattern sets the board keeps: its
//! static wins and losses, and the one move a five forces.
//!
//! In order (the first that applies decides):
//! 1. the side to move has a five point: a win on this ply;
//! 2. the opponent has five points: a loss in two plies if no stone of the side stops them
//!    all (two fives, or renju Black's forbidden block); otherwise the stones that do are the
//!    only moves (outside caro the one five point);
//! 3. the side has a legal open-four point (or double four): a win in three plies;
//! 4. the side has a legal four-three point whose four the opponent cannot answer with a
//!    four of its own: the opponent must block the four, and the three then makes an open
//!    four: a win in five plies;
//! 5. the side has a legal double-three point and the opponent has no point that makes any
//!    four (renju Black never does: a double three is forbidden to it; under caro an open
//!    three is no sure open four): the opponent can block one three only, and has nothing
//!    that comes first: a win in five plies.
//!
//! Every rule's exceptions live in the board's pattern sets (caro's blocked fives, exact
//! five, renju Black's forbidden points and false threes). Where a set cannot tell, the
//! stones of the lines are read (renju Black's open four and caro's blocks and open fours);
//! where those cannot tell either (a renju Black open four whose legality the lines do not
//! vouch for, a caro five whose run would be longer than five, or a block that makes the
//! opponent a four) the four-three is played out: the opponent's forced block, then an open
//! four for the side and no five for the opponent.
//!
//! Invariant: a win or loss returned here is a forced result of the game from this position
//! within the distance returned (tested against exhaustive search on generated positions in
//! `tests/tactics_static.rs`).

use crate::WIN;
use wuzi_core::lookahead::CellAfter;
use wuzi_core::rule::RunEnd;
use wuzi_core::{flag, Bitboard, Board, Cell, Color, Pattern, Rule, Threat};

/// What [`settle`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Settled {
    /// The node's value without search.
    Value(i32),
    /// The opponent threatens a five that the side can stop: the moves are
    /// [`five_stoppers`] (outside caro, the one five point).
    Block,
    /// Nothing is settled: the node must be searched.
    Open,
}

/// The win in `plies` plies from a node at `ply`, and the loss.
#[inline]
pub fn win_in(ply: usize, plies: usize) -> i32 {
    WIN - (ply + plies) as i32
}

#[inline]
pub fn loss_in(ply: usize, plies: usize) -> i32 {
    -win_in(ply, plies)
}

/// Settles the position for the side to move at `ply` (see the module documentation).
/// `static_wins`: look for the four-three and double-three wins too (rules 4 and 5).
pub fn settle(board: &mut Board, ply: usize, static_wins: bool) -> Settled {
    let us = board.side_to_move();
    let them = us.opponent();
    if !board.cells_making(us, flag::FIVE).is_empty() {
        return Settled::Value(win_in(ply, 1));
    }
    if !board.cells_making(them, flag::FIVE).is_empty() {
        return if five_stoppers(board, us).is_empty() {
            Settled::Value(loss_in(ply, 2))
        } else {
            Settled::Block
        };
    }
    if has_winning_open_four(board, us) {
        return Settled::Value(win_in(ply, 3));
    }
    if static_wins && (has_winning_four_three(board, us) || has_winning_double_three(board, us)) {
        return Settled::Value(win_in(ply, 5));
    }
    Settled::Open
}

/// The legal moves of `us` after which the opponent has no five point. Outside caro that is
/// the opponent's one five point (none against two: no stone stops two fives). Under caro a
/// five blocked at both ends does not win, so a stone beyond an end of the five can stop it
/// too: there every point on the line of each five, five cells either way, is tried.
pub fn five_stoppers(board: &mut Board, us: Color) -> Bitboard {
    let them = us.opponent();
    let fives = *board.cells_making(them, flag::FIVE);
    let mut stoppers = Bitboard::default();
    if !matches!(board.rule(), Rule::Caro | Rule::CaroExact) {
        let mut cells = fives.iter();
        if let (Some(block), None) = (cells.next(), cells.next()) {
            if board.may_play(us, block) {
                stoppers.insert(block);
            }
        }
        return stoppers;
    }
    let mut pool = fives;
    let offsets = board.dir_offsets();
    for five in fives.iter() {
        for (dir, &step) in offsets.iter().enumerate() {
            if board.pattern_at(them, five, dir) != Pattern::Five {
                continue;
            }
            for k in 1..=5 {
                for cell in [five + k * step, five.wrapping_sub(k * step)] {
                    if board.is_on_board(cell) && board.is_empty_cell(cell) {
                        pool.insert(cell);
                    }
                }
            }
        }
    }
    // A stone never gives the opponent a five point (`wuzi_core::lookahead`), so it stops
    // them all when none of today's is one after it.
    for cell in pool.iter() {
        if board.may_play(us, cell)
            && fives.iter().all(|five| {
                five == cell || board.cell_after(us, cell, five).flags(them) & flag::FIVE == 0
            })
        {
            stoppers.insert(cell);
        }
    }
    stoppers
}

/// The side `us` (to move; the opponent without a five point) has a legal point that makes
/// an open four (or a double four) that wins: two five points the opponent cannot both stop.
/// Under caro a five blocked at both ends does not win, so a block of one five point can
/// kill the other: there each block is weighed (`caro_open_four_read`, else played out).
pub fn has_winning_open_four(board: &mut Board, us: Color) -> bool {
    winning_open_four(board, us).is_some()
}

/// The first point of [`has_winning_open_four`].
pub fn winning_open_four(board: &mut Board, us: Color) -> Option<Cell> {
    let open_fours = board.cells_making(us, flag::OPEN_FOUR);
    if open_fours.is_empty() {
        return None;
    }
    let open_fours = *open_fours;
    let caro = matches!(board.rule(), Rule::Caro | Rule::CaroExact);
    open_fours
        .iter()
        .find(|&cell| board.may_play(us, cell) && (!caro || open_four_holds(board, us, cell)))
}

/// Plays the open four at `cell` and checks that no stone of the opponent stops its fives
/// (read from the lines where `caro_open_four_read` can). The board is left as it was.
fn open_four_holds(board: &mut Board, us: Color, cell: Cell) -> bool {
    if let Some(holds) = caro_open_four_read(board, us, cell) {
        return holds;
    }
    board.make(us, cell);
    let holds = five_stoppers(board, us.opponent()).is_empty();
    board.unmake();
    holds
}

/// Caro's open four at `cell` read without playing it: whether no one stone of the opponent
/// stops every five point the stone makes. A five point `p` (on a line of `cell` where it
/// makes a four) is stopped by a stone on `p`, or on an end of the run it would complete (the
/// first cell past the five, `cell` and `p` counted as the side's) when the other end is
/// already the opponent's: a run blocked at both ends does not win, and no other stone
/// touches that run. `None` where this does not apply: the side has a five point already,
/// the stone makes none, or a five point's run is longer than five (its far end may lie past
/// what the line patterns see); then the open four is played out.
fn caro_open_four_read(board: &Board, us: Color, cell: Cell) -> Option<bool> {
    if !board.cells_making(us, flag::FIVE).is_empty() {
        return None;
    }
    let them = us.opponent();
    let offsets = board.dir_offsets();
    // The stones that stop every five point seen so far (`None`: none seen yet).
    let mut common: Option<FiveStops> = None;
    for (dir, &step) in offsets.iter().enumerate() {
        if board.pattern_at(us, cell, dir).four_count() == 0 {
            continue;
        }
        for five in board.completion_cells(us, cell, dir) {
            let run = run_through(board, us, &[cell], five, step);
            if run.length != 5 {
                return None;
            }
            common = Some(stops_in_common(common, run.stops(board, them, five)));
        }
    }
    common.map(|stops| stops.iter().all(Option::is_none))
}

/// The stones of the opponent that stop one caro five (at most three: the five point and the
/// two ends of its run), `None` in the slots that do not apply.
type FiveStops = [Option<Cell>; 3];

/// The stops of `seen` that are also in `stops` (all of `stops` when nothing was seen).
fn stops_in_common(seen: Option<FiveStops>, stops: FiveStops) -> FiveStops {
    match seen {
        None => stops,
        Some(seen) => seen.map(|s| s.filter(|s| stops.contains(&Some(*s)))),
    }
}

/// A maximal run of the side's stones along one line, as it would be with stones on cells
/// that are empty now: its length and the cells just past its two ends.
struct Run {
    length: usize,
    low_end: Cell,
    high_end: Cell,
}

impl Run {
    /// The opponent's stones that stop the five this run would be once `five` is played
    /// (see `caro_open_four_read`).
    fn stops(&self, board: &Board, them: Color, five: Cell) -> FiveStops {
        let theirs = |c: Cell| board.stone_at(c) == Some(them);
        [
            Some(five),
            (board.is_empty_cell(self.low_end) && theirs(self.high_end)).then_some(self.low_end),
            (board.is_empty_cell(self.high_end) && theirs(self.low_end)).then_some(self.high_end),
        ]
    }

    /// Whether the run wins under the rule (caro: not blocked at both ends).
    fn wins(&self, board: &Board, us: Color) -> bool {
        let end = |c: Cell| {
            if board.is_empty_cell(c) {
                RunEnd::Empty
            } else if board.stone_at(c) == Some(us.opponent()) {
                RunEnd::Opponent
            } else {
                RunEnd::Wall
            }
        };
        board
            .rule()
            .run_wins(us, self.length, end(self.low_end), end(self.high_end))
    }
}

/// The run of `us` through the empty `at` along `step`, with `at` and the (empty) cells of
/// `extra` counted as the side's.
fn run_through(board: &Board, us: Color, extra: &[Cell], at: Cell, step: usize) -> Run {
    let ours = |c: Cell| c == at || extra.contains(&c) || board.stone_at(c) == Some(us);
    let (mut low, mut high, mut length) = (at, at, 1);
    while ours(low - step) {
        low -= step;
        length += 1;
    }
    while ours(high + step) {
        high += step;
        length += 1;
    }
    Run {
        length,
        low_end: low - step,
        high_end: high + step,
    }
}

/// Caro's four-three at `cell` read without playing it: `true` where it wins as
/// `four_three_wins_played_out` would find. The opponent's answers are the stones that stop
/// the four's one five (`Run::stops`); none may make the opponent a four, and a straight-four
/// point `e` of the three must leave an open four that holds whatever the answer: the answers
/// lie on the four's line, which crosses the three's only at `cell`, so they touch neither
/// that line's runs nor their ends. `false` where it cannot tell (then it is played out); the
/// caller has checked that the opponent has no five point.
fn caro_four_three_read(board: &Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    let offsets = board.dir_offsets();
    let Some(four_dir) = (0..4).find(|&d| board.pattern_at(us, cell, d).four_count() > 0) else {
        return false;
    };
    let mut fives = board.completion_cells(us, cell, four_dir);
    let (Some(block), None) = (fives.next(), fives.next()) else {
        return false;
    };
    let run = run_through(board, us, &[cell], block, offsets[four_dir]);
    if run.length != 5
        || run
            .stops(board, them, block)
            .iter()
            .flatten()
            .any(|&answer| board.threat_at(them, answer) >= Threat::Four)
    {
        return false;
    }
    (0..4).any(|dir| {
        dir != four_dir
            && board.pattern_at(us, cell, dir).is_open_three()
            && board.completion_cells(us, cell, dir).any(|e| {
                let after = board.cell_after(us, cell, e);
                after.pattern(us, dir) == Pattern::F4
                    && after.threat(us) == Threat::OpenFour
                    && caro_straight_four_holds(board, us, cell, e, offsets[dir])
            })
    })
}

/// With the side's stones on `cell` and `e` (both empty now, on one line along `step`), no
/// one stone of the opponent stops every five point that line then has (fives on other lines
/// would only make it harder to stop). `false` where a five's run would be longer than
/// five.
fn caro_straight_four_holds(board: &Board, us: Color, cell: Cell, e: Cell, step: usize) -> bool {
    let them = us.opponent();
    let mut common: Option<FiveStops> = None;
    for k in 1..=5 {
        for five in [e + k * step, e.wrapping_sub(k * step)] {
            if five == cell || !board.is_empty_cell(five) {
                continue;
            }
            let run = run_through(board, us, &[cell, e], five, step);
            if !run.wins(board, us) {
                continue;
            }
            if run.length != 5 {
                return false;
            }
            common = Some(stops_in_common(common, run.stops(board, them, five)));
        }
    }
    common.is_some_and(|stops| stops.iter().all(Option::is_none))
}

/// The side `us` (to move, no five point on either side, no open four of its own) has a
/// four-three point that wins: see the module documentation.
pub fn has_winning_four_three(board: &mut Board, us: Color) -> bool {
    let them = us.opponent();
    let candidates = board
        .cells_making(us, flag::FOUR)
        .and(board.cells_making(us, flag::OPEN_THREE));
    if candidates.is_empty() {
        return false;
    }
    // The opponent can only block the four, and a block that makes it no four leaves it
    // without a five point while the three becomes an open four. Where the four's one five
    // point is no four point of the opponent's now, it will not be one after the side's stone
    // either (a stone of the side only takes from the opponent's lines): that settles it
    // without playing. Renju Black's three may be false (its open four forbidden): there the
    // open four is read too (`renju_black_open_four_holds`), and only where the opponent has
    // no five point already (which the block would leave). Caro's five points depend on both
    // ends: its blocks and open four are read from the stones of the lines
    // (`caro_four_three_read`). What neither reading settles is played out, as is a block
    // that makes a four today.
    let opponent_has_fours = !board.cells_making(them, flag::FOUR).is_empty();
    let exact_lines = four_threes_read_from_lines(board.rule(), us);
    let renju_black = board.rule() == Rule::Renju && us == Color::Black;
    let caro = matches!(board.rule(), Rule::Caro | Rule::CaroExact);
    let opponent_has_fives = !board.cells_making(them, flag::FIVE).is_empty();
    for cell in candidates.iter() {
        if board.threat_at(us, cell) != Threat::FourThree || !board.may_play(us, cell) {
            continue;
        }
        // The block's four is asked only where a reading uses it (not under caro).
        if exact_lines || renju_black {
            let block_is_quiet = !opponent_has_fours || !block_makes_a_four(board, us, cell);
            if block_is_quiet
                && (exact_lines
                    || (!opponent_has_fives && renju_black_open_four_holds(board, cell)))
            {
                return true;
            }
        }
        if caro && !opponent_has_fives && caro_four_three_read(board, us, cell) {
            return true;
        }
        if four_three_wins_played_out(board, us, cell) {
            return true;
        }
    }
    false
}

/// Renju Black's four-three at `cell` (legal) leaves, once White has blocked the four, an
/// open four Black may play, read without playing: a straight-four point `e` of the three
/// where the stone on `cell` makes `e` an open four with no second four, no overline and at
/// most one open three beside it. White's block lies on the four's line, which crosses the
/// three's line only at `cell`, so it leaves `e`'s straight four as it is and can only lower
/// `e`'s other lines: `e` stays an open four and no forbidden point. `false` where it cannot
/// tell (then the four-three is played out).
fn renju_black_open_four_holds(board: &Board, cell: Cell) -> bool {
    let black = Color::Black;
    (0..4).any(|dir| {
        board.pattern_at(black, cell, dir).is_open_three()
            && board
                .completion_cells(black, cell, dir)
                .any(|e| renju_black_plain_open_four(board, cell, e, dir))
    })
}

/// Black's stone on `cell` makes the empty `e` a straight four along `dir` with no second
/// four, no overline and at most one open three beside it (so no forbidden candidate): an
/// open four Black may play, whatever a White stone off that line does to `e`'s other lines.
fn renju_black_plain_open_four(board: &Board, cell: Cell, e: Cell, dir: usize) -> bool {
    let black = Color::Black;
    let after = board.cell_after(black, cell, e);
    after.pattern(black, dir) == Pattern::F4
        && after.threat(black) == Threat::OpenFour
        && after.flags(black) & flag::FORBID_CANDIDATE == 0
}

/// Whether `us`'s four-threes can be read from the line patterns alone under `rule`: renju
/// Black's three may be false (its open four forbidden), so its open four is read as well
/// (`renju_black_open_four_holds`), and caro's five points depend on both ends, so caro's
/// are read from the stones of the lines (`caro_four_three_read`).
fn four_threes_read_from_lines(rule: Rule, us: Color) -> bool {
    match rule {
        Rule::Freestyle | Rule::Standard => true,
        Rule::Renju => us == Color::White,
        Rule::Caro | Rule::CaroExact => false,
    }
}

/// Whether the five point of the four that `us` makes at `cell` (with its one four line) is
/// a point where the opponent would make a four today. `true` where it cannot tell.
fn block_makes_a_four(board: &Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    let Some(dir) = (0..4).find(|&d| board.pattern_at(us, cell, d).four_count() > 0) else {
        return true;
    };
    let mut fives = board.completion_cells(us, cell, dir);
    match (fives.next(), fives.next()) {
        (Some(block), None) => board.threat_at(them, block) >= Threat::Four,
        _ => true,
    }
}

/// [`has_winning_four_three`] for `attacker` as it would be once `defender` (`attacker`'s
/// opponent) placed a stone on `stone`, read without playing it (`Board::cell_after`):
/// `Some(answer)`, or `None` where that function would have to play a four-three out (each
/// four-three left is one whose block may make the defender a four), or where the rule's
/// four-threes are not read from the lines alone (caro, renju Black, whose forbidden points a
/// White stone may lift). The caller checks that the stone is legal.
///
/// Where it answers, the attacker's four-three points after the stone are among its
/// four-three, open-four and five points before it: a stone never raises the other colour's
/// threat (`wuzi_core::lookahead`).
pub fn has_winning_four_three_after(board: &Board, defender: Color, stone: Cell) -> Option<bool> {
    let attacker = defender.opponent();
    if board.rule() == Rule::Renju && attacker == Color::Black {
        return renju_black_four_three_after(board, stone);
    }
    if !four_threes_read_from_lines(board.rule(), attacker) {
        return None;
    }
    let at_least_four_three = board
        .cells_making(attacker, flag::FOUR)
        .and(board.cells_making(attacker, flag::OPEN_THREE))
        .or(board.cells_making(attacker, flag::OPEN_FOUR))
        .or(board.cells_making(attacker, flag::FIVE));
    let mut played_out = false;
    for cell in at_least_four_three.iter() {
        if cell == stone {
            continue;
        }
        let after = board.cell_after(defender, stone, cell);
        if after.threat(attacker) != Threat::FourThree {
            continue;
        }
        // The block of the four is its one five point; a block that makes the defender no
        // four wins for the attacker whatever else the defender has (outside renju every
        // point is legal, and renju White's are).
        let Some(dir) = (0..4).find(|&d| after.pattern(attacker, d).four_count() > 0) else {
            played_out = true;
            continue;
        };
        let mut fives = after.completion_cells(board, attacker, dir);
        match (fives.next(), fives.next()) {
            (Some(block), None)
                if block == stone
                    || board.cell_after(defender, stone, block).threat(defender) < Threat::Four =>
            {
                return Some(true)
            }
            _ => played_out = true,
        }
    }
    if played_out {
        None
    } else {
        Some(false)
    }
}

/// [`has_winning_four_three_after`] for renju Black, once White placed a stone on `stone`.
///
/// A White stone can lift a Black forbidden point (a double four or a double three it
/// breaks), so Black's four-three points after it are sought among its four, five and
/// forbidden-candidate points. Each must be one that is plainly legal after the stone (no
/// forbidden candidate) and win as `has_winning_four_three` reads it: a block that makes White
/// no four, and an open four as `renju_black_open_four_holds` reads it, on a line of the three
/// that the stone does not touch (Black's stone on the four-three point is read on the board
/// without White's stone). `None` where a four-three remains that this cannot settle, or
/// where the stone makes White a four (White's five point would weigh in) or either side has
/// a five point already.
fn renju_black_four_three_after(board: &Board, stone: Cell) -> Option<bool> {
    let (black, white) = (Color::Black, Color::White);
    if board.flags_at(white, stone) & (flag::FOUR | flag::FIVE) != 0
        || !board.cells_making(white, flag::FIVE).is_empty()
        || !board.cells_making(black, flag::FIVE).is_empty()
    {
        return None;
    }
    let candidates = board
        .cells_making(black, flag::FOUR)
        .or(board.cells_making(black, flag::FORBID_CANDIDATE));
    let mut unsettled = false;
    for cell in candidates.iter() {
        if cell == stone {
            continue;
        }
        let after = board.cell_after(white, stone, cell);
        if after.threat(black) != Threat::FourThree {
            continue;
        }
        if after.flags(black) & flag::FORBID_CANDIDATE == 0
            && renju_black_four_three_after_wins(board, stone, cell, &after)
        {
            return Some(true);
        }
        unsettled = true;
    }
    if unsettled {
        None
    } else {
        Some(false)
    }
}

/// Black's four-three at `cell` (`after`: the cell once White's stone is on `stone`) wins as
/// `has_winning_four_three` would find it with the stone played; `false` where that cannot be
/// read.
fn renju_black_four_three_after_wins(
    board: &Board,
    stone: Cell,
    cell: Cell,
    after: &CellAfter,
) -> bool {
    let (black, white) = (Color::Black, Color::White);
    let Some(four_dir) = (0..4).find(|&d| after.pattern(black, d).four_count() > 0) else {
        return false;
    };
    let mut fives = after.completion_cells(board, black, four_dir);
    let block = match (fives.next(), fives.next()) {
        (Some(block), None) if block != stone => block,
        _ => return false,
    };
    if board.cell_after(white, stone, block).threat(white) >= Threat::Four {
        return false;
    }
    (0..4).any(|dir| {
        dir != four_dir
            && after.pattern(black, dir).is_open_three()
            && !board.on_one_line(cell, stone, dir)
            && after
                .completion_cells(board, black, dir)
                .any(|e| renju_black_plain_open_four(board, cell, e, dir))
    })
}

/// Plays the four-three at `cell`, the opponent's forced block, and checks that the side
/// then has a legal open four and the opponent no five point. The board is left as it was.
fn four_three_wins_played_out(board: &mut Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    board.make(us, cell);
    // Every answer that stops the four (outside caro, its one five point) must leave the
    // opponent without a five point and the side with an open four that wins.
    let answers = five_stoppers(board, them);
    let won = !board.cells_making(us, flag::FIVE).is_empty()
        && answers.iter().all(|answer| {
            board.make(them, answer);
            let won =
                board.cells_making(them, flag::FIVE).is_empty() && has_winning_open_four(board, us);
            board.unmake();
            won
        });
    board.unmake();
    won
}

/// The side `us` has a legal double-three point and the opponent no point that makes a four.
/// Not under caro, where an open three's open four may not win (see
/// `has_winning_open_four`), nor for renju Black, to which a double three is forbidden.
pub fn has_winning_double_three(board: &mut Board, us: Color) -> bool {
    let them = us.opponent();
    if (board.rule() == Rule::Renju && us == Color::Black)
        || matches!(board.rule(), Rule::Caro | Rule::CaroExact)
        || !board.cells_making(them, flag::FOUR).is_empty()
    {
        return false;
    }
    let threes = *board.cells_making(us, flag::OPEN_THREE);
    threes
        .iter()
        .any(|c| board.threat_at(us, c) == Threat::DoubleThree && board.may_play(us, c))
}
