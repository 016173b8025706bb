//! Tournaments of the test engine's modes: the crosstable comes out as the modes dictate, a
//! gauntlet plays only the first engine's pairings, and a tournament interrupted (its results
//! file cut short, a line cut in half) resumes to the same totals with every game once and a
//! file of whole lines.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{config, engine, scratch};
use wuzi_match::results::{parse_results, HEADER};
use wuzi_match::standings::Standings;
use wuzi_match::tournament::{Format, QuietTournament};
use wuzi_match::{run_tournament, EngineSpec, TournamentConfig, TournamentSummary};

/// `random` plays legal moves; `occupied` plays the centre on an empty board and then a taken
/// point (it loses at its first move with stones on the board); `crash` exits when asked for
/// a move. Without openings: random beats both, occupied beats crash.
fn three() -> Vec<EngineSpec> {
    vec![
        engine("random", &["random", "--seed", "5"]),
        engine("occupied", &["occupied"]),
        engine("crash", &["crash"]),
    ]
}

fn tournament(format: Format, games_per_pair: usize, results: Option<&Path>) -> TournamentConfig {
    let engines = three();
    let mut settings = config(engines[0].clone(), engines[1].clone());
    settings.concurrency = 2;
    TournamentConfig {
        settings,
        engines,
        format,
        games_per_pair,
        results: results.map(Path::to_path_buf),
    }
}

fn play(cfg: &TournamentConfig) -> TournamentSummary {
    match run_tournament(cfg, &mut QuietTournament) {
        Ok(s) => s,
        Err(e) => panic!("tournament failed: {e}"),
    }
}

fn names(cfg: &TournamentConfig) -> Vec<String> {
    cfg.engines.iter().map(|e| e.name.clone()).collect()
}

#[test]
fn round_robin_crosstable_follows_the_modes() {
    let cfg = tournament(Format::RoundRobin, 4, None);
    let t = play(&cfg);
    assert_eq!((t.planned, t.games.len(), t.resumed), (12, 12, 0));
    let s = Standings::of(&names(&cfg), &t.games);
    let cell = |i: usize, j: usize| s.cross[i][j].to_string();
    assert_eq!(cell(0, 1), "4-0-0");
    assert_eq!(cell(0, 2), "4-0-0");
    assert_eq!(cell(1, 2), "4-0-0");
    assert_eq!(cell(2, 1), "0-4-0");
    let points: Vec<f64> = s.total.iter().map(|t| t.points()).collect();
    assert_eq!(points, vec![8.0, 4.0, 0.0]);
    // Colours alternate within each pairing: every engine had Black in half its games.
    for name in names(&cfg) {
        let black = t.games.iter().filter(|g| g.black == name).count();
        assert_eq!(black, 4, "{name}");
    }
    let r = s.ratings(Some("occupied"), 1000.0, 2.0).expect("ratings");
    assert_eq!(r[1].elo, 1000.0);
    assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo, "{r:?}");
}

#[test]
fn gauntlet_plays_only_the_first_engine() {
    let cfg = tournament(Format::Gauntlet, 2, None);
    let t = play(&cfg);
    assert_eq!(t.games.len(), 4);
    assert!(t
        .games
        .iter()
        .all(|g| g.black == "random" || g.white == "random"));
}

#[test]
fn an_interrupted_tournament_resumes_to_the_same_totals() {
    let dir = scratch("tournament-resume");
    let full_path = dir.join("full.txt");
    let full = play(&tournament(Format::RoundRobin, 4, Some(&full_path)));
    let text = std::fs::read_to_string(&full_path).expect("results written");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert!(lines[1].starts_with("# schedule "), "{}", lines[1]);
    assert_eq!(lines.len(), 14);

    // The interruption: the two header lines, five games, and half of the sixth game's line.
    let cut_path = dir.join("cut.txt");
    let half_line = &lines[7][..lines[7].len() / 2];
    let cut = format!("{}\n{half_line}", lines[..7].join("\n"));
    std::fs::write(&cut_path, cut).expect("write");
    let cfg = tournament(Format::RoundRobin, 4, Some(&cut_path));
    let resumed = play(&cfg);
    assert_eq!(resumed.resumed, 5);
    assert_eq!(resumed.games.len(), 12);

    let after = parse_results(&std::fs::read_to_string(&cut_path).expect("read"));
    assert!(
        after.skipped.is_empty(),
        "the cut line was removed: {:?}",
        after.skipped
    );
    assert_eq!(after.games.len(), 12, "no game played twice");
    let numbers: BTreeSet<usize> = after.games.iter().map(|g| g.index).collect();
    assert_eq!(
        numbers,
        (0..12).collect::<BTreeSet<usize>>(),
        "no game lost"
    );

    let totals = |games| Standings::of(&names(&cfg), games);
    assert_eq!(totals(&after.games).cross, totals(&full.games).cross);
    assert_eq!(totals(&resumed.games).total, totals(&full.games).total);

    // Once complete, a further run plays nothing.
    let again = play(&cfg);
    assert_eq!((again.resumed, again.games.len()), (12, 12));
}

#[test]
fn another_tournaments_results_file_is_refused() {
    let dir = scratch("tournament-foreign");
    let path = dir.join("foreign.txt");
    std::fs::write(
        &path,
        format!("{HEADER}\n1\tsomeone\telse\t1-0\tfive\t15x15\tfreestyle\t0\th8\n"),
    )
    .expect("write");
    let cfg = tournament(Format::RoundRobin, 2, Some(&path));
    let err = run_tournament(&cfg, &mut QuietTournament).expect_err("refused");
    assert!(err.to_string().contains("another tournament"), "{err}");
}
