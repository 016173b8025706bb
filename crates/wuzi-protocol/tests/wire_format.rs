//! The wire format of points has one definition (`Coord::parse_list`) and both ends read it
//! alike: the engine's `Command::parse` (`TURN X,Y`) and the manager's `Reply::parse` (an
//! engine's move or move list).
//!
//! - Round trip: any list of points, written as the engine writes it (`Display`) or with any
//!   white space around the commas and between the points, reads back as the same list on
//!   both ends.
//! - Agreement: any short text over the characters that matter (digits, comma, white space,
//!   sign, dot, a letter) is either one point on both ends, or rejected by both ends.

use proptest::prelude::*;
use wuzi_protocol::{Command, Coord, Reply};

fn coord() -> impl Strategy<Value = Coord> {
    (0u32..100_000, 0u32..100_000).prop_map(|(x, y)| Coord::new(x, y))
}

/// White space as a manager or an engine may put it: none, spaces, tabs.
fn blank(min: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(vec![' ', '\t']), min..=min + 3)
        .prop_map(|v| v.into_iter().collect())
}

/// One point with white space around its comma.
fn spaced_point() -> impl Strategy<Value = (Coord, String)> {
    (coord(), blank(0), blank(0)).prop_map(|(c, a, b)| (c, format!("{}{a},{b}{}", c.x, c.y)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn written_points_read_back_on_both_ends(points in prop::collection::vec(coord(), 1..6)) {
        let reply = if points.len() == 1 {
            Reply::Move(points[0])
        } else {
            Reply::Moves(points.clone())
        };
        let text = reply.to_string();
        prop_assert_eq!(Reply::parse(&text), Ok(reply));
        prop_assert_eq!(Coord::parse_list(&text, "moves"), Ok(points.clone()));
        if let [one] = points.as_slice() {
            prop_assert_eq!(Command::parse(&format!("TURN {text}")), Ok(Command::Turn(*one)));
        }
    }

    #[test]
    fn white_space_around_commas_is_the_same_point_on_both_ends(
        items in prop::collection::vec((spaced_point(), blank(1)), 1..5),
        lead in blank(0),
    ) {
        let points: Vec<Coord> = items.iter().map(|((c, _), _)| *c).collect();
        let mut text = lead;
        for ((_, written), sep) in &items {
            text.push_str(written);
            text.push_str(sep);
        }
        prop_assert_eq!(Coord::parse_list(&text, "moves"), Ok(points.clone()));
        let reply = Reply::parse(&text);
        if let [one] = points.as_slice() {
            prop_assert_eq!(reply, Ok(Reply::Move(*one)));
            prop_assert_eq!(Command::parse(&format!("TURN {text}")), Ok(Command::Turn(*one)));
            prop_assert_eq!(Coord::parse(&text, "TURN"), Ok(*one));
        } else {
            prop_assert_eq!(reply, Ok(Reply::Moves(points)));
        }
    }

    #[test]
    fn both_ends_agree_on_any_text(
        chars in prop::collection::vec(
            prop::sample::select(vec!['0', '1', '7', '9', ',', ' ', '\t', '-', '+', '.', 'x']),
            0..12,
        )
    ) {
        let text: String = chars.into_iter().collect();
        let engine = Command::parse(&format!("TURN {text}")).ok().and_then(|c| match c {
            Command::Turn(c) => Some(c),
            _ => None,
        });
        let single = Coord::parse(&text, "TURN").ok();
        let manager = match Reply::parse(&text) {
            Ok(Reply::Move(c)) => Some(c),
            _ => None,
        };
        prop_assert_eq!(engine, single, "TURN {:?}", text);
        prop_assert_eq!(manager, single, "reply {:?}", text);
    }
}
