//! The SVG is well-formed XML, and parsed back it shows each stone where the move list puts
//! it, in the right colour and with its number, the last move marked, the variation as ghost
//! stones, and the forbidden points wuzi-core finds.

use std::collections::BTreeSet;

use roxmltree::{Document, Node};
use wuzi_core::notation::parse_moves;
use wuzi_core::{Point, Rule};
use wuzi_show::svg::centre;
use wuzi_show::{svg, Game, Picture};

fn attr<T: std::str::FromStr>(n: &Node, name: &str) -> T {
    match n.attribute(name).map(str::parse) {
        Some(Ok(v)) => v,
        _ => panic!("<{}> has no readable {name}", n.tag_name().name()),
    }
}

/// `(move number, x, y, colour, number written)` of every group of `class`, and checks that
/// its circle is centred on its point.
fn stones(doc: &Document, class: &str) -> Vec<(usize, u8, u8, String, Option<String>)> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .map(|g| {
            let (x, y): (u8, u8) = (attr(&g, "data-x"), attr(&g, "data-y"));
            let circle = g
                .children()
                .find(|c| c.has_tag_name("circle"))
                .expect("a circle");
            let (cx, cy) = centre(x as usize, y as usize);
            assert_eq!(attr::<f64>(&circle, "cx"), cx);
            assert_eq!(attr::<f64>(&circle, "cy"), cy);
            let label = g
                .children()
                .find(|c| c.has_tag_name("text"))
                .and_then(|t| t.text())
                .map(str::to_string);
            let color: String = attr(&g, "data-color");
            (attr(&g, "data-move"), x, y, color, label)
        })
        .collect()
}

fn game(moves: &str, rule: Rule) -> Game {
    Game::new(15, 15, rule, parse_moves(moves).expect("moves"))
}

#[test]
fn every_stone_sits_where_the_moves_say() {
    let moves = "h8 i9 j10 i8 i7 g9 o15 a1 a15 o1";
    let mut g = game(moves, Rule::Freestyle);
    g.opening_len = 2;
    let mut picture = Picture::of(g);
    picture.number_opening = false;
    picture.caption = Some("a <b> & c".into());
    let text = svg(&picture).expect("draws");
    let doc = Document::parse(&text).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let found = stones(&doc, "stone");
    let want = parse_moves(moves).expect("moves");
    assert_eq!(found.len(), want.len());
    for (i, (number, x, y, color, label)) in found.iter().enumerate() {
        assert_eq!(*number, i + 1);
        assert_eq!(Point::new(*x, *y), want[i], "move {}", i + 1);
        assert_eq!(color, if i % 2 == 0 { "black" } else { "white" });
        let expected = (i >= 2).then(|| (i + 1).to_string());
        assert_eq!(label, &expected, "move {}", i + 1);
    }
    let last = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("last"))
        .expect("last move marked");
    assert_eq!(
        (attr::<f64>(&last, "cx"), attr::<f64>(&last, "cy")),
        centre(14, 0)
    );
    let caption = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("caption"))
        .and_then(|n| n.text());
    assert_eq!(caption, Some("a <b> & c"));
    // Column letters a..o and row numbers 1..15, each twice.
    let texts: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("coords"))
        .flat_map(|c| c.children().filter(|t| t.has_tag_name("text")))
        .filter_map(|t| t.text())
        .collect();
    assert_eq!(texts.len(), 4 * 15);
    assert!(texts.contains(&"o") && texts.contains(&"15"));
}

#[test]
fn a_prefix_and_a_variation() {
    let mut picture = Picture::of(game("h8 i9 j10 i8", Rule::Standard));
    picture.upto = Some(3);
    picture.pv = parse_moves("k11 g7").expect("pv");
    let doc_text = svg(&picture).expect("draws");
    let doc = Document::parse(&doc_text).expect("well-formed XML");
    assert_eq!(stones(&doc, "stone").len(), 3);
    let ghosts = stones(&doc, "ghost");
    assert_eq!(ghosts.len(), 2);
    // After three moves White is to move: the variation starts white.
    assert_eq!((ghosts[0].1, ghosts[0].2), (10, 10));
    assert_eq!(ghosts[0].3, "white");
    assert_eq!(ghosts[1].3, "black");
    assert_eq!(ghosts[1].4.as_deref(), Some("2"));
    // A variation onto a stone is refused.
    picture.pv = parse_moves("h8").expect("pv");
    assert!(svg(&picture).is_err());
}

#[test]
fn renju_forbidden_points_are_marked_when_asked() {
    // Black h8 i8 j9 j10 with White far away: j8 makes two open threes.
    let g = game("h8 a1 i8 a3 j9 a5 j10", Rule::Renju);
    let mut board = g.replay(None).expect("legal");
    let expected: BTreeSet<(u8, u8)> = board
        .forbidden_points()
        .into_iter()
        .map(|(p, _)| (p.x, p.y))
        .collect();
    assert!(expected.contains(&(9, 7)), "{expected:?}");
    let mut picture = Picture::of(g.clone());
    let plain = svg(&picture).expect("draws");
    assert!(!plain.contains("class=\"forbidden\""));
    picture.forbidden = true;
    let text = svg(&picture).expect("draws");
    let doc = Document::parse(&text).expect("well-formed XML");
    let marked: BTreeSet<(u8, u8)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("forbidden"))
        .map(|n| (attr(&n, "data-x"), attr(&n, "data-y")))
        .collect();
    assert_eq!(marked, expected);
}
