//! The alternatives measure (`wuzi_match::mates::alternatives`) with the test engine as
//! chooser and judge: every verdict, an engine that fails, and the positions it writes.

mod common;

use std::time::Duration;

use common::engine;
use wuzi_core::notation;
use wuzi_match::mates::alternatives::{run_alternatives, totals, AlternativesSetup, Verdict};
use wuzi_search::bench::mates::{read_suite, MatePosition};

/// White to move wins after Black's i8 (the game's move, `8,7` in Gomocup coordinates).
const SUITE: &str = "fs15-2025:11:15 train sparring white freestyle 15x15 15 sparring:+M15 \
                     fs15-2025:11 o3o4n3n4m3m4o9o8n9n8m9m8k8l3i8";

fn position() -> MatePosition {
    read_suite(SUITE).expect("the suite reads").remove(0)
}

fn setup(chooser: &[&str], judge: &[&str]) -> AlternativesSetup {
    AlternativesSetup {
        chooser: engine("chooser", chooser),
        choose_time: Duration::from_millis(200),
        judge: engine("judge", judge),
        judge_time: Duration::from_millis(300),
        jobs: 2,
        max_memory: 64 << 20,
    }
}

fn verdict(chooser: &[&str], judge: &[&str]) -> (Option<String>, Verdict) {
    let rows = run_alternatives(&[position()], &setup(chooser, judge), |_| {});
    assert_eq!(rows.len(), 1);
    let row = rows.into_iter().next().expect("one row");
    (row.choice.map(|p| p.name()), row.verdict)
}

#[test]
fn the_games_own_move_takes_the_suites_win_without_the_judge() {
    // The judge would crash if it were asked.
    let (choice, v) = verdict(&["script", "8,7"], &["crash"]);
    assert_eq!(choice.as_deref(), Some("i8"));
    assert_eq!(v, Verdict::GameMove { plies: 15 });
}

#[test]
fn a_judge_that_announces_a_win_makes_the_choice_lose() {
    let (choice, v) = verdict(
        &["script", "0,0"],
        &[
            "random",
            "--message",
            "Depth 5-9 | Eval +M7 | Time 3ms | A2",
        ],
    );
    assert_eq!(choice.as_deref(), Some("a1"));
    assert!(matches!(v, Verdict::LetsIn { plies: Some(7), .. }), "{v:?}");
    // A judge that announces nothing: the choice holds.
    let (_, v) = verdict(&["script", "0,0"], &["random"]);
    assert_eq!(v, Verdict::Holds);
}

#[test]
fn failures_are_rows_without_a_verdict() {
    let cases: [(&[&str], &[&str], &str); 4] = [
        (&["crash"], &["random"], "the chooser"),
        (&["occupied"], &["random"], "illegal"),
        (&["garbage"], &["random"], "instead of a move"),
        (&["script", "0,0"], &["crash"], "the judge"),
    ];
    for (chooser, judge, expected) in cases {
        let (_, v) = verdict(chooser, judge);
        match v {
            Verdict::Failed(why) => assert!(why.contains(expected), "{chooser:?}: {why}"),
            other => panic!("{chooser:?} {judge:?}: {other:?}"),
        }
    }
}

#[test]
fn rows_come_back_in_order_and_add_up() {
    let p = position();
    // Three copies under other ids: the rows keep the positions' order whatever finishes
    // first.
    let positions: Vec<MatePosition> = (0..3)
        .map(|i| MatePosition {
            id: format!("{}-{i}", p.id),
            ..p.clone()
        })
        .collect();
    let rows = run_alternatives(
        &positions,
        &setup(
            &["script", "0,0"],
            &[
                "random",
                "--message",
                "Depth 5-9 | Eval +M7 | Time 3ms | A2",
            ],
        ),
        |_| {},
    );
    let ids: Vec<&str> = rows.iter().map(|r| r.position.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "fs15-2025:11:15-0",
            "fs15-2025:11:15-1",
            "fs15-2025:11:15-2"
        ]
    );
    let t = totals(&rows);
    assert_eq!((t.positions, t.lose, t.game_moves, t.failed), (3, 3, 0, 0));
    // Each losing choice is a suite position after a1, White still to move.
    let q = rows[0].as_position("judge").expect("a losing choice");
    assert_eq!(
        q.moves.last(),
        notation::parse_moves("a1")
            .ok()
            .as_ref()
            .and_then(|m| m.first())
    );
    assert_eq!(q.to_move(), p.to_move());
    assert_eq!(q.source, "judge:+M7");
}
