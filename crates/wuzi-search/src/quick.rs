//! A legal move without searching ([`quick_move`], microseconds): what the engine answers
//! when a search fails or overruns its hard limit, and what it checks for "is there any legal
//! move at all". In order: a five, else the only block of the opponent's five (any block when
//! there are several), else the centre of an empty board, else the candidate (an empty point
//! within two of a stone) with the best threat score, else any legal point, centre first.
//! Renju Black's forbidden points are never answered.

use wuzi_core::board::Cell;
use wuzi_core::{flag, Board, Point, Threat};

/// The value of a threat class for the quick move's order: what the side's own stone would
/// make there counts twice, what it takes from the opponent once.
fn weight(t: Threat) -> i32 {
    match t {
        Threat::None | Threat::Forbidden => 0,
        Threat::One => 1,
        Threat::Two => 3,
        Threat::OpenTwo => 8,
        Threat::DoubleTwo => 20,
        Threat::Three => 10,
        Threat::ThreeTwo => 30,
        Threat::OpenThree => 40,
        Threat::DoubleThree => 300,
        Threat::Four => 50,
        Threat::FourThree => 600,
        Threat::OpenFour => 1500,
        Threat::Five => 5000,
    }
}

/// A move that needs no choosing: a five, an empty board's centre, or a block of the
/// opponent's five.
fn forced_move(board: &mut Board) -> Option<Point> {
    let us = board.side_to_move();
    let them = us.opponent();
    if let Some(c) = board.cells_making(us, flag::FIVE).first() {
        return Some(board.point(c));
    }
    if board.occupied().is_empty() {
        return Some(Point::new(
            (board.width() / 2) as u8,
            (board.height() / 2) as u8,
        ));
    }
    let fives = *board.cells_making(them, flag::FIVE);
    let block = fives.iter().find(|&c| board.may_play(us, c));
    block.map(|c| board.point(c))
}

/// The candidate with the best threat score (ties: the lowest cell).
fn best_candidate(board: &mut Board) -> Option<Cell> {
    let us = board.side_to_move();
    let them = us.opponent();
    let mut best: Option<(i32, Cell)> = None;
    for cell in board.empty_near_stones(2).iter() {
        if !board.may_play(us, cell) {
            continue;
        }
        let score = 2 * weight(board.threat_at(us, cell)) + weight(board.threat_at(them, cell));
        let better = match best {
            None => true,
            Some((s, c)) => score > s || (score == s && cell < c),
        };
        if better {
            best = Some((score, cell));
        }
    }
    best.map(|(_, c)| c)
}

/// The legal point nearest the centre (by rings, then by distance, then row, then column).
fn nearest_legal(board: &mut Board) -> Option<Point> {
    let us = board.side_to_move();
    let (cx, cy) = ((board.width() / 2) as i32, (board.height() / 2) as i32);
    let mut points = board.empty_points();
    points.sort_by_key(|p| {
        let (dx, dy) = (i32::from(p.x) - cx, i32::from(p.y) - cy);
        (dx.abs().max(dy.abs()), dx.abs() + dy.abs(), p.y, p.x)
    });
    points
        .into_iter()
        .find(|&p| board.cell(p).is_some_and(|c| board.may_play(us, c)))
}

/// A legal move found without searching; `None` only if there is no legal move.
pub fn quick_move(board: &Board) -> Option<Point> {
    let mut board = board.clone();
    if let Some(p) = forced_move(&mut board) {
        return Some(p);
    }
    if let Some(c) = best_candidate(&mut board) {
        return Some(board.point(c));
    }
    nearest_legal(&mut board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::{Color, Rule};

    fn board_with(rule: Rule, size: usize, stones: &[(Color, u8, u8)]) -> Board {
        let mut b = Board::new(size, size, rule).expect("size");
        for &(c, x, y) in stones {
            b.place(c, Point::new(x, y)).expect("empty point");
        }
        b
    }

    #[test]
    fn an_empty_board_gets_the_centre() {
        for (w, h) in [(15, 15), (20, 20), (20, 15), (5, 5)] {
            let b = Board::new(w, h, Rule::Freestyle).expect("size");
            assert_eq!(
                quick_move(&b),
                Some(Point::new((w / 2) as u8, (h / 2) as u8))
            );
        }
    }

    #[test]
    fn takes_a_five_and_blocks_one() {
        use Color::{Black as B, White as W};
        // Black has four in a row open at one end; Black to move.
        let stones = [
            (B, 3, 7),
            (W, 3, 8),
            (B, 4, 7),
            (W, 4, 8),
            (B, 5, 7),
            (W, 5, 8),
            (B, 6, 7),
            (W, 2, 7),
        ];
        for rule in Rule::ALL {
            let b = board_with(rule, 15, &stones);
            assert_eq!(b.side_to_move(), B);
            assert_eq!(quick_move(&b), Some(Point::new(7, 7)), "{rule:?}");
        }
        // White's four on row 8 is closed at its left end: one five point, Black to move.
        let stones = [
            (B, 7, 7),
            (W, 2, 8),
            (B, 1, 8),
            (W, 3, 8),
            (B, 7, 9),
            (W, 4, 8),
            (B, 9, 9),
            (W, 5, 8),
        ];
        let b = board_with(Rule::Freestyle, 15, &stones);
        assert_eq!(b.side_to_move(), B);
        assert_eq!(b.five_points(W), vec![Point::new(6, 8)]);
        assert_eq!(quick_move(&b), Some(Point::new(6, 8)));
    }

    #[test]
    fn makes_and_stops_the_strongest_threat() {
        use Color::{Black as B, White as W};
        // Black's open three on row 7, White's stones far away: an open four at either end.
        let stones = [
            (B, 5, 7),
            (W, 0, 0),
            (B, 6, 7),
            (W, 14, 14),
            (B, 7, 7),
            (W, 0, 14),
        ];
        let ends = [Point::new(4, 7), Point::new(8, 7)];
        let b = board_with(Rule::Freestyle, 15, &stones);
        assert_eq!(b.side_to_move(), B);
        let m = quick_move(&b).expect("a move");
        assert!(ends.contains(&m), "{m:?} makes no open four");
        // With White to move, the same points: they take Black's open four.
        let b = board_with(Rule::Freestyle, 15, &stones[..5]);
        assert_eq!(b.side_to_move(), W);
        let m = quick_move(&b).expect("a move");
        assert!(ends.contains(&m), "{m:?} leaves Black the open four");
    }

    #[test]
    fn a_full_board_has_no_move() {
        let mut b = Board::new(5, 5, Rule::Freestyle).expect("size");
        // Colours by (x / 2 + y) parity: no five anywhere.
        for y in 0..5u8 {
            for x in 0..5u8 {
                let c = if (x / 2 + y) % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                b.place(c, Point::new(x, y)).expect("empty point");
            }
        }
        assert!(b.is_full());
        assert_eq!(quick_move(&b), None);
    }

    #[test]
    fn renju_black_never_gets_a_forbidden_point() {
        use Color::{Black as B, White as W};
        // Two Black open twos crossing at (7,7): playing there is a double three.
        let stones = [
            (B, 5, 7),
            (W, 0, 0),
            (B, 6, 7),
            (W, 14, 0),
            (B, 7, 5),
            (W, 0, 14),
            (B, 7, 6),
            (W, 14, 14),
        ];
        let mut b = board_with(Rule::Renju, 15, &stones);
        assert_eq!(b.side_to_move(), B);
        assert!(b.is_forbidden(Point::new(7, 7)));
        let q = quick_move(&b).expect("a move");
        assert!(b.is_legal(q), "{q:?}");
        // Under freestyle the crossing point is the strongest move: a double three.
        let free = board_with(Rule::Freestyle, 15, &stones);
        assert_eq!(quick_move(&free), Some(Point::new(7, 7)));
    }
}
