//! Position operations of a session, each all-or-nothing.
//!
//! Every function here either returns a new or changed position, or an error text for an
//! `ERROR` line and leaves its input untouched: callers assign the result only on success, so
//! a bad command never changes the engine's position. Positions are kept by colour and move
//! order (Black first), which is all the protocol's "own"/"opponent" fields and renju need.

use wuzi_core::{Board, BoardError, Color, Point, Rule};

use wuzi_protocol::{Coord, Field, StoneLine};

/// The board point of a wire coordinate, if it is on `board`.
pub fn point(board: &Board, c: Coord) -> Result<Point, String> {
    c.to_point(board.width(), board.height())
        .ok_or_else(|| format!("{c} is off the {}x{} board", board.width(), board.height()))
}

/// The wire coordinate of a board point.
pub fn coord(p: Point) -> Coord {
    Coord::from(p)
}

/// A new empty board.
pub fn new_board(width: u32, height: u32, rule: Rule) -> Result<Board, String> {
    let w = usize::try_from(width).unwrap_or(usize::MAX);
    let h = usize::try_from(height).unwrap_or(usize::MAX);
    Board::new(w, h, rule).map_err(|e| match e {
        BoardError::BadSize { .. } => format!(
            "unsupported board size {width}x{height} (each side {}..={})",
            wuzi_core::MIN_SIZE,
            wuzi_core::MAX_SIZE
        ),
        other => other.to_string(),
    })
}

/// `board` with the stone at `c` added for the side to move (an opponent's `TURN`, or `PLAY`).
pub fn with_move(board: &Board, c: Coord) -> Result<Board, String> {
    let p = point(board, c)?;
    if !board.is_empty_at(p) {
        return Err(format!("{c} is already occupied"));
    }
    let mut next = board.clone();
    next.play(p).map_err(|e| e.to_string())?;
    Ok(next)
}

/// `board` without the stone at `c`; the other stones keep their order.
pub fn without_stone(board: &Board, c: Coord) -> Result<Board, String> {
    let p = point(board, c)?;
    if board.is_empty_at(p) {
        return Err(format!("there is no stone at {c}"));
    }
    let mut next = board.clone();
    if board.last_move() == Some(p) {
        next.undo().map_err(|e| e.to_string())?;
        return Ok(next);
    }
    replay(
        empty_like(board)?,
        board.history().into_iter().filter(|&(_, q)| q != p),
    )
    .map_err(|e| e.to_string())
}

/// The same stones in the same order under another rule.
pub fn with_rule(board: &Board, rule: Rule) -> Result<Board, String> {
    if board.rule() == rule {
        return Ok(board.clone());
    }
    let empty = Board::new(board.width(), board.height(), rule).map_err(|e| e.to_string())?;
    replay(empty, board.history()).map_err(|e| e.to_string())
}

/// An empty board of the size and rule of `board`.
fn empty_like(board: &Board) -> Result<Board, String> {
    Board::new(board.width(), board.height(), board.rule()).map_err(|e| e.to_string())
}

fn replay(
    mut board: Board,
    stones: impl IntoIterator<Item = (Color, Point)>,
) -> Result<Board, BoardError> {
    for (color, p) in stones {
        board.place(color, p)?;
    }
    Ok(board)
}

/// The position of a `BOARD` or `YXBOARD` block on an empty copy of `template`. The first
/// stone listed is Black's: its field says whether "own" is Black or White. Field 3 lines are
/// skipped. The side to move is the side after the last stone.
pub fn from_board_block(template: &Board, lines: &[StoneLine]) -> Result<Board, String> {
    let mut board = empty_like(template)?;
    let mut own: Option<Color> = None;
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let field = line
            .field
            .ok_or_else(|| format!("line {n} \"{line}\": missing the field F (X,Y,F)"))?;
        let color = match field {
            Field::Winning => continue,
            Field::Own => *own.get_or_insert(Color::Black),
            Field::Opponent => own.get_or_insert(Color::White).opponent(),
        };
        place_line(&mut board, color, line, n)?;
    }
    Ok(board)
}

/// The position of a `SWAP2BOARD` block: 0, 3 or 5 stones, alternately Black and White from
/// Black. A field, if given, is not used: the order decides the colour.
pub fn from_swap2_block(template: &Board, lines: &[StoneLine]) -> Result<Board, String> {
    if ![0, 3, 5].contains(&lines.len()) {
        return Err(format!(
            "{} stones given; a swap2 stage has 0, 3 or 5",
            lines.len()
        ));
    }
    let mut board = empty_like(template)?;
    for (i, line) in lines.iter().enumerate() {
        let color = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        place_line(&mut board, color, line, i + 1)?;
    }
    Ok(board)
}

fn place_line(board: &mut Board, color: Color, line: &StoneLine, n: usize) -> Result<(), String> {
    let p = point(board, line.at).map_err(|e| format!("line {n} \"{line}\": {e}"))?;
    if !board.is_empty_at(p) {
        return Err(format!("line {n} \"{line}\": {} is already taken", line.at));
    }
    board
        .place(color, p)
        .map_err(|e| format!("line {n} \"{line}\": {e}"))
}

/// Why the side to move has no legal move, if it has none.
pub fn no_move_reason(board: &Board) -> String {
    if board.is_full() {
        "no legal move: the board is full".to_string()
    } else {
        "no legal move: every empty point is forbidden for Black".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<StoneLine> {
        text.iter().map(|t| StoneLine::parse(t).unwrap()).collect()
    }

    fn board() -> Board {
        Board::new(15, 15, Rule::Freestyle).unwrap()
    }

    #[test]
    fn board_block_colours_follow_the_first_stone() {
        let b = from_board_block(&board(), &lines(&["7,7,2", "8,8,1", "9,9,2"])).unwrap();
        assert_eq!(b.stone(Point::new(7, 7)), Some(Color::Black));
        assert_eq!(b.stone(Point::new(8, 8)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
        let b = from_board_block(&board(), &lines(&["7,7,1", "8,8,2"])).unwrap();
        assert_eq!(b.stone(Point::new(7, 7)), Some(Color::Black));
        assert_eq!(b.side_to_move(), Color::Black);
        // Two in a row of one side: the other side passed.
        let b = from_board_block(&board(), &lines(&["7,7,1", "8,8,1", "3,3,3"])).unwrap();
        assert_eq!(b.stone(Point::new(8, 8)), Some(Color::Black));
        assert_eq!(b.stone(Point::new(3, 3)), None);
        assert_eq!(b.side_to_move(), Color::White);
    }

    #[test]
    fn bad_blocks_are_refused() {
        assert!(from_board_block(&board(), &lines(&["7,7,1", "7,7,2"])).is_err());
        assert!(from_board_block(&board(), &lines(&["7,7", "8,8,2"])).is_err());
        assert!(from_board_block(&board(), &lines(&["15,0,1"])).is_err());
        assert!(from_swap2_block(&board(), &lines(&["7,7", "8,8"])).is_err());
        let b = from_swap2_block(&board(), &lines(&["7,7", "8,8,1", "9,9"])).unwrap();
        assert_eq!(b.stone(Point::new(8, 8)), Some(Color::White));
        assert_eq!(b.side_to_move(), Color::White);
    }

    #[test]
    fn takeback_of_any_stone_keeps_the_order() {
        let b = from_board_block(&board(), &lines(&["7,7,1", "8,8,2", "9,9,1"])).unwrap();
        let last = without_stone(&b, Coord::new(9, 9)).unwrap();
        assert_eq!(last.move_count(), 2);
        assert_eq!(last.side_to_move(), Color::Black);
        let middle = without_stone(&b, Coord::new(8, 8)).unwrap();
        assert_eq!(
            middle.history(),
            vec![
                (Color::Black, Point::new(7, 7)),
                (Color::Black, Point::new(9, 9))
            ]
        );
        assert!(without_stone(&b, Coord::new(0, 0)).is_err());
        assert!(without_stone(&b, Coord::new(99, 0)).is_err());
    }

    #[test]
    fn moves_and_rules() {
        let b = with_move(&board(), Coord::new(7, 7)).unwrap();
        assert!(with_move(&b, Coord::new(7, 7)).is_err());
        assert!(with_move(&b, Coord::new(1000, 7)).is_err());
        let r = with_rule(&b, Rule::Renju).unwrap();
        assert_eq!(r.rule(), Rule::Renju);
        assert_eq!(r.history(), b.history());
        assert!(new_board(4, 15, Rule::Freestyle).is_err());
        assert!(new_board(33, 33, Rule::Freestyle).is_err());
        assert!(new_board(u32::MAX, 20, Rule::Freestyle).is_err());
        assert!(new_board(20, 15, Rule::Caro).is_ok());
    }
}
