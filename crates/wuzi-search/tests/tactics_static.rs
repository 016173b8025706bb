//! The static wins of `tactics.rs` against exhaustive search: on generated positions under
//! every rule, each win the board's pattern sets claim (a four-three, a double three, an open
//! four, a loss to two fives) is a forced result within the distance claimed, whatever the
//! defender plays.

use std::sync::atomic::AtomicBool;
use wuzi_core::rng::Rng;
use wuzi_core::{flag, Board, Cell, Color, Point, Rule, Threat};
use wuzi_search::tactics::{
    five_stoppers, has_winning_double_three, has_winning_four_three, has_winning_four_three_after,
    settle, win_in, winning_open_four, Settled,
};
use wuzi_search::{Limits, Searcher, WIN, WIN_MIN};

const SIZE: usize = 9;

fn empty_cells(board: &Board) -> Vec<Cell> {
    let mut cells = Vec::new();
    for y in 0..SIZE as u8 {
        for x in 0..SIZE as u8 {
            if let Some(c) = board.cell(Point::new(x, y)) {
                if board.is_empty_cell(c) {
                    cells.push(c);
                }
            }
        }
    }
    cells
}

/// Plays `games` random games on a `size` board, the rule of each from `rule_of`, from the
/// centre: every stone on a legal point next to the stones, until a win, no such point or
/// `moves` stones. `visit` sees the position after each stone and ends the game by
/// returning `false`.
fn random_games(
    size: usize,
    games: usize,
    moves: usize,
    rng: &mut Rng,
    rule_of: impl Fn(usize) -> Rule,
    mut visit: impl FnMut(&mut Board) -> bool,
) {
    for game in 0..games {
        let mut board = Board::new(size, size, rule_of(game)).expect("board");
        let centre = (size / 2) as u8;
        board.play(Point::new(centre, centre)).expect("centre");
        for _ in 0..moves {
            let cells: Vec<Cell> = board.empty_near_stones(1).iter().collect();
            if cells.is_empty() {
                break;
            }
            let p = board.point(cells[rng.below(cells.len())]);
            if !board.is_legal(p) {
                continue;
            }
            board.play(p).expect("legal");
            if board.winner().is_some() || !visit(&mut board) {
                break;
            }
        }
    }
}

/// The attacker (to move) makes a five within `plies` plies (odd), whatever the defender
/// does. The attacker's moves are restricted to its threats (open threes and better) and the
/// block of a five of the defender's; every legal move of the defender is tried. A `true` is
/// a proof; a `false` may miss a win through other moves.
fn attacker_wins(board: &mut Board, plies: usize) -> bool {
    let us = board.side_to_move();
    let them = us.opponent();
    let fives = *board.cells_making(us, flag::FIVE);
    if fives.iter().next().is_some() {
        return true;
    }
    if plies < 3 {
        return false;
    }
    let mut their_fives = board.cells_making(them, flag::FIVE).iter();
    if let Some(block) = their_fives.next() {
        // The defender threatens a five: the block is the attacker's only move.
        if their_fives.next().is_some() || !board.may_play(us, block) {
            return false;
        }
        board.make(us, block);
        let won = defender_loses(board, plies - 1);
        board.unmake();
        return won;
    }
    for cell in empty_cells(board) {
        if board.threat_at(us, cell) < Threat::OpenThree || !board.may_play(us, cell) {
            continue;
        }
        board.make(us, cell);
        let won = defender_loses(board, plies - 1);
        board.unmake();
        if won {
            return true;
        }
    }
    false
}

/// The defender (to move) cannot avoid a five of the attacker within `plies` plies.
fn defender_loses(board: &mut Board, plies: usize) -> bool {
    let us = board.side_to_move();
    if board
        .cells_making(us, flag::FIVE)
        .iter()
        .any(|c| board.may_play(us, c))
    {
        return false;
    }
    let mut any = false;
    for cell in empty_cells(board) {
        if !board.may_play(us, cell) {
            continue;
        }
        any = true;
        board.make(us, cell);
        let lost = attacker_wins(board, plies - 1);
        board.unmake();
        if !lost {
            return false;
        }
    }
    any
}

/// Random positions on 9x9 where the side to move has a four-three or double-three point:
/// stones played at random near the others until one appears (or the game ends).
fn positions(rule: Rule, rng: &mut Rng, wanted: usize) -> Vec<Board> {
    let mut found = Vec::new();
    let mut tries = 0;
    while found.len() < wanted && tries < 20_000 {
        tries += 1;
        let mut board = Board::new(SIZE, SIZE, rule).expect("board");
        board.play(Point::new(4, 4)).expect("centre");
        for _ in 0..30 {
            let near = board.empty_near_stones(1);
            let cells: Vec<Cell> = near.iter().collect();
            if cells.is_empty() {
                break;
            }
            let cell = cells[rng.below(cells.len())];
            let p = board.point(cell);
            if !board.is_legal(p) {
                continue;
            }
            board.play(p).expect("legal");
            if board.winner().is_some() {
                break;
            }
            let us = board.side_to_move();
            let them = us.opponent();
            if !board.cells_making(us, flag::FIVE).is_empty()
                || !board.cells_making(them, flag::FIVE).is_empty()
                || !board.cells_making(us, flag::OPEN_FOUR).is_empty()
            {
                break;
            }
            let interesting = board.cells_making(us, flag::OPEN_THREE).iter().any(|c| {
                matches!(
                    board.threat_at(us, c),
                    Threat::FourThree | Threat::DoubleThree
                )
            });
            if interesting {
                found.push(board.clone());
                break;
            }
        }
    }
    found
}

#[test]
fn static_wins_are_forced_wins_within_five_plies() {
    let mut rng = Rng::new(2026);
    let mut claimed = 0;
    let mut refused = 0;
    for rule in Rule::ALL {
        for mut board in positions(rule, &mut rng, 40) {
            let us = board.side_to_move();
            let four_three = has_winning_four_three(&mut board, us);
            let double_three = has_winning_double_three(&mut board, us);
            let settled = settle(&mut board, 0, true);
            if four_three || double_three {
                claimed += 1;
                assert_eq!(settled, Settled::Value(win_in(0, 5)), "{rule:?}\n{board:?}");
                assert!(
                    attacker_wins(&mut board, 5),
                    "{rule:?}: claimed four-three {four_three} double three {double_three}, \
                     but the defender holds\n{board:?}"
                );
            } else {
                refused += 1;
            }
        }
    }
    // Both outcomes must occur, or the test checks nothing.
    assert!(claimed >= 40, "only {claimed} static wins claimed");
    assert!(refused >= 10, "only {refused} positions refused");
}

#[test]
fn settled_losses_and_open_fours_are_exact() {
    let mut rng = Rng::new(99);
    let mut checked = 0;
    for rule in Rule::ALL {
        for _ in 0..300 {
            let mut board = Board::new(SIZE, SIZE, rule).expect("board");
            board.play(Point::new(4, 4)).expect("centre");
            for _ in 0..24 {
                let cells: Vec<Cell> = board.empty_near_stones(1).iter().collect();
                let p = board.point(cells[rng.below(cells.len())]);
                if board.is_legal(p) {
                    board.play(p).expect("legal");
                }
                if board.winner().is_some() {
                    break;
                }
                match settle(&mut board, 0, false) {
                    Settled::Value(v) if v == win_in(0, 3) => {
                        assert!(attacker_wins(&mut board, 3), "{rule:?}\n{board:?}");
                        checked += 1;
                        break;
                    }
                    Settled::Value(v) if v < 0 => {
                        // A loss in two: the side to move cannot stop the opponent's five.
                        let us = board.side_to_move();
                        let mut holds = false;
                        for cell in empty_cells(&board) {
                            if !board.may_play(us, cell) {
                                continue;
                            }
                            board.make(us, cell);
                            let them = us.opponent();
                            let five = board
                                .cells_making(them, flag::FIVE)
                                .iter()
                                .any(|c| board.may_play(them, c));
                            board.unmake();
                            holds |= !five;
                        }
                        assert!(!holds, "{rule:?}: a claimed loss holds\n{board:?}");
                        checked += 1;
                        break;
                    }
                    _ => {}
                }
            }
        }
    }
    assert!(checked >= 50, "only {checked} settled positions checked");
}

/// The quiescence (and the static wins it reads) never claims a win the exhaustive check
/// refutes: on random positions, every proven win of a one-ply search within nine plies is a
/// forced win within that distance.
#[test]
fn quiescence_wins_are_forced_wins() {
    let mut rng = Rng::new(5);
    let mut verified = 0;
    for rule in Rule::ALL {
        let mut searcher = Searcher::new(1 << 20);
        for _ in 0..400 {
            let mut board = Board::new(SIZE, SIZE, rule).expect("board");
            board.play(Point::new(4, 4)).expect("centre");
            let stones = 8 + rng.below(20);
            while board.move_count() < stones {
                let cells: Vec<Cell> = board.empty_near_stones(1).iter().collect();
                let p = board.point(cells[rng.below(cells.len())]);
                if board.is_legal(p) {
                    board.play(p).expect("legal");
                    if board.winner().is_some() {
                        board.undo().expect("undo");
                        break;
                    }
                }
            }
            let limits = Limits {
                max_depth: Some(1),
                ..Limits::default()
            };
            searcher.clear();
            let Some(result) =
                searcher.search(&board, &limits, &AtomicBool::new(false), &mut |_| {})
            else {
                continue;
            };
            if result.score < WIN_MIN {
                continue;
            }
            let plies = (WIN - result.score) as usize;
            if plies > 9 {
                continue;
            }
            assert!(
                attacker_wins(&mut board, plies),
                "{rule:?}: a win in {plies} claimed, not forced\n{board:?}"
            );
            verified += 1;
        }
    }
    assert!(verified >= 30, "only {verified} claimed wins verified");
}

/// `has_winning_four_three_after` (read from the stone's effect) answers what
/// `has_winning_four_three` answers once the stone is played, for every legal stone of the
/// defender in positions where the attacker has a four-three or double-three point, under
/// every rule; where it declines (`None`) the caller plays the stone, which outside caro is
/// rare.
#[test]
fn four_three_after_a_stone_matches_playing_it() {
    let mut rng = Rng::new(41);
    let (mut read, mut declined) = (0usize, 0usize);
    let (mut rb_read, mut rb_declined) = (0usize, 0usize);
    for rule in Rule::ALL {
        for mut board in positions(rule, &mut rng, 60) {
            let attacker = board.side_to_move();
            let defender = attacker.opponent();
            for cell in empty_cells(&board) {
                if !board.may_play(defender, cell) {
                    continue;
                }
                let fast = has_winning_four_three_after(&board, defender, cell);
                board.make(defender, cell);
                let slow = has_winning_four_three(&mut board, attacker);
                board.unmake();
                match fast {
                    Some(answer) => {
                        assert_eq!(answer, slow, "{rule} at {:?}\n{board:?}", board.point(cell));
                        read += 1;
                        if rule == Rule::Renju && attacker == Color::Black {
                            rb_read += 1;
                        }
                    }
                    // Caro's four-threes are always played out.
                    None if matches!(rule, Rule::Caro | Rule::CaroExact) => {}
                    None if rule == Rule::Renju && attacker == Color::Black => rb_declined += 1,
                    None => declined += 1,
                }
            }
        }
    }
    assert!(
        read > 5_000 && read > 50 * declined,
        "{read} read, {declined} declined"
    );
    // Renju Black's are read where its open four plainly holds; the rest are played out.
    assert!(
        rb_read > 1_000 && rb_read > 20 * rb_declined,
        "renju Black: {rb_read} read, {rb_declined} declined"
    );
}

/// The first open four of `us` that it may play and no one stone of the opponent stops, each
/// played out: the reference for `winning_open_four`.
fn first_open_four_played_out(board: &mut Board, us: Color) -> Option<Cell> {
    let open_fours = *board.cells_making(us, flag::OPEN_FOUR);
    open_fours.iter().find(|&cell| {
        if !board.may_play(us, cell) {
            return false;
        }
        board.make(us, cell);
        let holds = five_stoppers(board, us.opponent()).is_empty();
        board.unmake();
        holds
    })
}

/// A four-three of `us` at `cell` played out with the played-out open fours: the stone, then
/// every stone of the opponent that stops its five, each followed by an open four of `us`
/// that it may play and that holds, and no five point of the opponent's. The reference for
/// `has_winning_four_three`'s readings (renju Black's and caro's).
fn four_three_played_out(board: &mut Board, us: Color, cell: Cell) -> bool {
    let them = us.opponent();
    board.make(us, cell);
    let answers = five_stoppers(board, them);
    let won = !board.cells_making(us, flag::FIVE).is_empty()
        && answers.iter().all(|answer| {
            board.make(them, answer);
            let won = board.cells_making(them, flag::FIVE).is_empty()
                && first_open_four_played_out(board, us).is_some();
            board.unmake();
            won
        });
    board.unmake();
    won
}

/// `has_winning_four_three` for renju Black, which reads most four-threes without playing
/// them (its open four included), answers as playing every one out does: along random games
/// on 15x15 at every Black turn, and there after a White stone on any point near the stones
/// (the trials of `four_three_defences`, where White may hold a five point or a four).
#[test]
fn renju_black_four_threes_read_match_playing_them_out() {
    let (black, white) = (Color::Black, Color::White);
    let mut rng = Rng::new(47);
    let (mut won, mut held) = (0usize, 0usize);
    let (mut read, mut declined) = (0usize, 0usize);
    let mut check = |board: &mut Board| {
        if !board.cells_making(black, flag::FIVE).is_empty()
            || !board.cells_making(black, flag::OPEN_FOUR).is_empty()
        {
            return;
        }
        let candidates = board
            .cells_making(black, flag::FOUR)
            .and(board.cells_making(black, flag::OPEN_THREE));
        let slow = candidates.iter().any(|c| {
            board.threat_at(black, c) == Threat::FourThree
                && board.may_play(black, c)
                && four_three_played_out(board, black, c)
        });
        assert_eq!(has_winning_four_three(board, black), slow, "\n{board:?}");
        if slow {
            won += 1;
        } else if !candidates.is_empty() {
            held += 1;
        }
    };
    random_games(
        15,
        300,
        80,
        &mut rng,
        |_| Rule::Renju,
        |board| {
            let near: Vec<Cell> = board.empty_near_stones(2).iter().collect();
            if board.side_to_move() == black {
                check(board);
                for &cell in &near {
                    board.make(white, cell);
                    check(board);
                    board.unmake();
                }
            } else if board.cells_making(white, flag::FIVE).is_empty()
                && board.cells_making(black, flag::FIVE).is_empty()
            {
                // White to move: each stone read without playing it, as `four_three_defences`
                // asks, against the stone played.
                for &cell in &near {
                    let fast = has_winning_four_three_after(board, white, cell);
                    board.make(white, cell);
                    let slow = has_winning_four_three(board, black);
                    board.unmake();
                    match fast {
                        Some(answer) => {
                            assert_eq!(answer, slow, "at {:?}\n{board:?}", board.point(cell));
                            read += 1;
                        }
                        None => declined += 1,
                    }
                }
            }
            true
        },
    );
    assert!(won > 1_000 && held > 1_000, "{won} won, {held} held");
    assert!(read > 10 * declined, "{read} read, {declined} declined");
}

/// Caro's open fours and four-threes, read from the lines where a five's run is exactly five,
/// answer as playing each out does: along random caro and caro-exact games on 15x15, for the
/// side to move, and after a stone of the opponent on every near point (where a stone beside
/// a run blocks one of its ends).
#[test]
fn caro_open_fours_and_four_threes_read_match_playing_them_out() {
    let mut rng = Rng::new(53);
    let (mut held, mut stopped) = (0usize, 0usize);
    let (mut won, mut refused) = (0usize, 0usize);
    let mut check = |board: &mut Board, us: Color| {
        if !board.cells_making(us, flag::FIVE).is_empty() {
            return;
        }
        // The four-threes are also asked after a defender's stone that made it a four.
        let opponent_has_fives = !board.cells_making(us.opponent(), flag::FIVE).is_empty();
        if !opponent_has_fives && !board.cells_making(us, flag::OPEN_FOUR).is_empty() {
            let slow = first_open_four_played_out(board, us);
            assert_eq!(winning_open_four(board, us), slow, "\n{board:?}");
            if slow.is_some() {
                held += 1;
                return;
            }
            stopped += 1;
        }
        let candidates = board
            .cells_making(us, flag::FOUR)
            .and(board.cells_making(us, flag::OPEN_THREE));
        if candidates.is_empty() {
            return;
        }
        let slow = candidates.iter().any(|c| {
            board.threat_at(us, c) == Threat::FourThree && four_three_played_out(board, us, c)
        });
        assert_eq!(has_winning_four_three(board, us), slow, "\n{board:?}");
        if slow {
            won += 1;
        } else {
            refused += 1;
        }
    };
    let rule_of = |game: usize| [Rule::Caro, Rule::CaroExact][game % 2];
    random_games(15, 400, 70, &mut rng, rule_of, |board| {
        let us = board.side_to_move();
        check(board, us);
        for cell in board.empty_near_stones(2).iter().collect::<Vec<_>>() {
            board.make(us.opponent(), cell);
            check(board, us);
            board.unmake();
        }
        true
    });
    assert!(
        held > 1_000 && stopped > 100,
        "{held} held, {stopped} stopped"
    );
    assert!(
        won > 1_000 && refused > 1_000,
        "{won} won, {refused} refused"
    );
}

/// `five_stoppers` is exactly the set of legal stones after which the opponent has no five
/// point, played out stone by stone, under every rule (caro's is read without playing).
#[test]
fn five_stoppers_are_the_stones_that_stop_every_five() {
    let mut rng = Rng::new(43);
    let mut positions = 0usize;
    let rule_of = |game: usize| Rule::ALL[game % Rule::ALL.len()];
    random_games(SIZE, 3_000, 40, &mut rng, rule_of, |board| {
        let us = board.side_to_move();
        let them = us.opponent();
        if board.cells_making(them, flag::FIVE).is_empty()
            || !board.cells_making(us, flag::FIVE).is_empty()
        {
            return true;
        }
        let fast = five_stoppers(board, us);
        for cell in empty_cells(board) {
            let stops = board.may_play(us, cell) && {
                board.make(us, cell);
                let none = board.cells_making(them, flag::FIVE).is_empty();
                board.unmake();
                none
            };
            let rule = board.rule();
            assert_eq!(
                fast.contains(cell),
                stops,
                "{rule} {:?}\n{board:?}",
                board.point(cell)
            );
        }
        positions += 1;
        false
    });
    assert!(positions > 500, "{positions}");
}
