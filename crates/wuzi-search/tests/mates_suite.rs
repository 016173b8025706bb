//! The committed forced-line suite (`data/mates/suite.txt`): it reads (every position legal,
//! its side to move as stated), writes back to the same lines, covers what issue 38 asks of
//! it, and holds the smoke test's positions. The alternatives (`data/mates/alternatives.txt`)
//! read too, and each is its suite position with another last move.

use std::collections::BTreeSet;

use wuzi_core::{Color, Rule};
use wuzi_search::bench::mates::{format_suite, read_suite, Attacker, MatePosition, Split};
use wuzi_testkit::data::read_data;

fn position_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect()
}

fn suite() -> (String, Vec<MatePosition>) {
    let text = read_data("mates/suite.txt");
    let positions = read_suite(&text).expect("the suite reads");
    (text, positions)
}

#[test]
fn the_suite_reads_and_writes_back_the_same() {
    let (text, positions) = suite();
    let written = format_suite(&[], &positions).expect("writes");
    assert_eq!(position_lines(&written), position_lines(&text));
}

#[test]
fn the_suite_covers_the_leagues_colours_and_splits() {
    let (_, positions) = suite();
    let of = |a: Attacker| positions.iter().filter(move |p| p.attacker == a);
    assert!(of(Attacker::Sparring).count() >= 150);
    assert!(of(Attacker::Wuzi).count() >= 30);
    let leagues: BTreeSet<(&str, usize)> = of(Attacker::Sparring)
        .map(|p| (p.rule.name(), p.width))
        .collect();
    for league in [
        (Rule::Freestyle, 15),
        (Rule::Freestyle, 20),
        (Rule::Standard, 15),
        (Rule::Renju, 15),
    ] {
        assert!(
            leagues.contains(&(league.0.name(), league.1)),
            "{league:?} missing"
        );
        for colour in [Color::Black, Color::White] {
            for split in [Split::Train, Split::HeldOut] {
                assert!(
                    of(Attacker::Sparring).any(|p| (p.rule, p.width) == league
                        && p.to_move() == colour
                        && p.split == split),
                    "{league:?} {colour:?} {split:?} missing"
                );
            }
        }
    }
    // The splits go by game: no game has positions on both sides.
    let games = |s: Split| -> BTreeSet<&str> {
        positions
            .iter()
            .filter(|p| p.split == s)
            .filter_map(|p| p.game.as_deref())
            .collect()
    };
    assert!(games(Split::Train).is_disjoint(&games(Split::HeldOut)));
}

#[test]
fn the_smoke_positions_are_the_suites() {
    let (text, _) = suite();
    let suite_lines: BTreeSet<&str> = position_lines(&text).into_iter().collect();
    let smoke = read_data("mates/smoke.txt");
    let lines = position_lines(&smoke);
    assert_eq!(lines.len(), 3);
    for l in lines {
        assert!(suite_lines.contains(l), "{l}");
    }
    read_suite(&smoke).expect("the smoke file reads");
}

#[test]
fn each_alternative_is_its_suite_position_with_another_last_move() {
    let (_, positions) = suite();
    let text = read_data("mates/alternatives.txt");
    let alternatives = read_suite(&text).expect("the alternatives read");
    assert!(alternatives.len() >= 50);
    for a in &alternatives {
        let (origin, choice) = a.id.rsplit_once('-').expect("SUITE-ID-CHOICE");
        let p = positions
            .iter()
            .find(|p| p.id == origin)
            .unwrap_or_else(|| panic!("{}: no suite position {origin}", a.id));
        assert_eq!(p.attacker, Attacker::Sparring, "{}", a.id);
        assert_eq!(a.attacker, Attacker::Sparring, "{}", a.id);
        assert_eq!((a.split, &a.game), (p.split, &p.game), "{}", a.id);
        assert_eq!((a.rule, a.width, a.height), (p.rule, p.width, p.height));
        let n = p.moves.len();
        assert_eq!(a.moves.len(), n, "{}", a.id);
        assert_eq!(a.moves[..n - 1], p.moves[..n - 1], "{}", a.id);
        assert_ne!(
            a.moves[n - 1],
            p.moves[n - 1],
            "{}: the game's own move",
            a.id
        );
        assert_eq!(
            a.moves[n - 1].name(),
            choice,
            "{}: the id names the choice",
            a.id
        );
    }
    let written = format_suite(&[], &alternatives).expect("writes");
    assert_eq!(position_lines(&written), position_lines(&text));
}
