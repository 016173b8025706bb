//! Every case of `data/rules/`: renju forbidden points from the quintet unit
//! tests and the RIF diagrams, each checked by the fast (table) path and by the slow
//! reference classifier.

mod common;

use common::{board_from_rows, testdata};
use serde_json::Value;
use wuzi_core::notation::Names;
use wuzi_core::{Board, Color, ForbiddenKind, Point, Rule};
use wuzi_testkit::referee::kind as kind_of;
use wuzi_testkit::reference;

/// A point named as the data files name them (`H8`, rows from the bottom).
fn point(name: &str, names: Names) -> Point {
    Point::parse_name_in(name, names).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn quintet_forbidden_cases() {
    let text = std::fs::read_to_string(testdata("rules/renju-forbidden-quintet.jsonl"))
        .expect("data/rules present");
    let mut cases = 0;
    for (line_no, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let case: Value = serde_json::from_str(line).expect("json");
        let rows: Vec<&str> = case["board"]
            .as_array()
            .expect("board")
            .iter()
            .map(|r| r.as_str().expect("row"))
            .collect();
        let mut board = board_from_rows(&rows, Rule::Renju, 'o', 'x');
        // The quintet file's names: columns from A, row 1 at the bottom.
        let names = Names::Bottom {
            height: board.height(),
        };
        let query = case["query"].as_str().expect("query");
        if query == "ALL" {
            let mut expected: Vec<(Point, ForbiddenKind)> = case["expected"]
                .as_array()
                .expect("list")
                .iter()
                .map(|pair| {
                    (
                        point(pair[1].as_str().expect("point"), names),
                        kind_of(pair[0].as_str().expect("kind")),
                    )
                })
                .collect();
            expected.sort_by_key(|(p, _)| (p.y, p.x));
            assert_eq!(board.forbidden_points(), expected, "line {line_no}");
            let mut slow: Vec<(Point, ForbiddenKind)> = board
                .empty_points()
                .into_iter()
                .filter_map(|p| reference::forbidden_kind(&board, p).map(|k| (p, k)))
                .collect();
            slow.sort_by_key(|(p, _)| (p.y, p.x));
            assert_eq!(slow, expected, "slow, line {line_no}");
        } else {
            let p = point(query, names);
            let expected = case["expected"].as_str().map(kind_of);
            assert_eq!(board.forbidden_kind(p), expected, "line {line_no} {query}");
            assert_eq!(
                reference::forbidden_kind(&board, p),
                expected,
                "slow, line {line_no}"
            );
        }
        reference::check_consistency(&board).expect("consistent");
        cases += 1;
    }
    assert_eq!(cases, 23, "all quintet cases read");
}

/// The RIF diagrams' names: GTP's, on 15 rows.
const GTP: Names = Names::Gtp { height: 15 };

#[test]
fn rif_diagram_cases() {
    let text = std::fs::read_to_string(testdata("rules/renju-forbidden-rif-diagrams.json"))
        .expect("data/rules present");
    let doc: Value = serde_json::from_str(&text).expect("json");
    let cases = doc["cases"].as_array().expect("cases");
    assert_eq!(cases.len(), 6);
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let mut board = Board::new(15, 15, Rule::Renju).expect("board");
        for mv in case["moves"].as_array().expect("moves") {
            let color = if mv[0] == "B" {
                Color::Black
            } else {
                Color::White
            };
            let p = point(mv[1].as_str().expect("point"), GTP);
            assert_eq!(board.side_to_move(), color, "{name}: moves alternate");
            board.play(p).expect("legal set-up move");
        }
        let next = if case["nextPlayer"] == "B" {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(board.side_to_move(), next, "{name}");
        let check = |board: &mut Board, key: &str, forbidden: bool| {
            for q in case[key].as_array().expect(key) {
                let p = point(q.as_str().expect("point"), GTP);
                assert_eq!(!board.is_legal(p), forbidden, "{name}: {key} {q}");
                let slow = next == Color::Black && reference::forbidden_kind(board, p).is_some();
                assert_eq!(slow, forbidden, "{name} (slow): {key} {q}");
            }
        };
        check(&mut board, "mustBeForbidden", true);
        check(&mut board, "mustBeLegal", false);
    }
}
