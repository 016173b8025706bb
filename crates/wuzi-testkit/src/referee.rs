//! The renju referee cases of `data/rules/renju-referee.jsonl`: positions with the complete
//! list of Black's forbidden points as the Gomocup referee judges them (see `data/README.md`
//! for which answers came from the referee and which were derived by hand from its rule).

use crate::data::{read_data, text};
use serde_json::Value;
use wuzi_core::notation::parse_coords;
use wuzi_core::{Board, Color, ForbiddenKind, Point, Rule};

/// Where a case's answer came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The referee's own answer (quoted from where it was run).
    Referee,
    /// Derived by hand from the referee's published rule; not run through the referee.
    Derived,
}

/// One position and its complete list of forbidden points, row-major.
pub struct RefereeCase {
    pub name: String,
    pub source: Source,
    pub board: Board,
    pub forbidden: Vec<(Point, ForbiddenKind)>,
}

/// `"x,y x,y ..."` as points (`wuzi_core::notation::parse_coords`); panics with the text on a
/// broken fixture.
pub fn points(text: &str) -> Vec<Point> {
    parse_coords(text).unwrap_or_else(|e| panic!("{e}"))
}

/// `"x,y"` as a point.
pub fn point(text: &str) -> Point {
    match points(text)[..] {
        [p] => p,
        _ => panic!("{text:?} is not one point"),
    }
}

/// The name of a kind as the data file writes it.
pub fn kind(name: &str) -> ForbiddenKind {
    match name {
        "DoubleThree" => ForbiddenKind::DoubleThree,
        "DoubleFour" => ForbiddenKind::DoubleFour,
        "Overline" => ForbiddenKind::Overline,
        other => panic!("unknown forbidden kind {other:?}"),
    }
}

/// Every case of `data/rules/renju-referee.jsonl`.
pub fn referee_cases() -> Vec<RefereeCase> {
    read_data("rules/renju-referee.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let case: Value = serde_json::from_str(line).expect("referee case is JSON");
            let size = case["size"].as_u64().expect("size") as usize;
            let mut board = Board::new(size, size, Rule::Renju).expect("board size");
            for (color, key) in [(Color::Black, "black"), (Color::White, "white")] {
                for p in points(text(&case, key)) {
                    board.place(color, p).expect("stone on an empty point");
                }
            }
            let mut forbidden: Vec<(Point, ForbiddenKind)> = case["forbidden"]
                .as_array()
                .expect("forbidden list")
                .iter()
                .map(|pair| {
                    let p = point(pair[0].as_str().expect("point"));
                    (p, kind(pair[1].as_str().expect("kind")))
                })
                .collect();
            forbidden.sort_by_key(|(p, _)| (p.y, p.x));
            let source = match text(&case, "source") {
                "referee" => Source::Referee,
                "derived" => Source::Derived,
                other => panic!("unknown source {other:?}"),
            };
            RefereeCase {
                name: text(&case, "name").to_string(),
                source,
                board,
                forbidden,
            }
        })
        .collect()
}
