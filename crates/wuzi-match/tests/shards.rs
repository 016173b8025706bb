//! A schedule played as one run and as three shards (in another order, one of them
//! interrupted and resumed) merges to the same games, standings, ratings, SPRT state and
//! report; merging refuses a shard of another schedule, a shard given twice, a game twice or
//! out of its shard, and damaged or cut files, and reports the games no file holds.
//!
//! The engines are the test engine's random mover with fixed seeds, started afresh for every
//! game, so a game depends only on its opening and colours: the shards play the very games
//! the one run plays.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{config, engine, play, scratch};
use wuzi_core::shard::Shard;
use wuzi_match::clock::TimeControl;
use wuzi_match::html::page;
use wuzi_match::merge::{merge_match, merge_tournament};
use wuzi_match::opening::Opening;
use wuzi_match::report::{
    final_report, json_summary, match_report, tournament_final, tournament_report, RatingSettings,
};
use wuzi_match::results::{parse_results, GameRecord, ResultsError};
use wuzi_match::sprt::{Sprt, SprtState};
use wuzi_match::standings::Standings;
use wuzi_match::tournament::{Format, QuietTournament};
use wuzi_match::{run_tournament, MatchConfig, MatchError, TournamentConfig};

/// Four openings of a 9x9 board, in both notations.
fn openings() -> Vec<Opening> {
    ["e5", "0,0, 1,1", "d4e6", "-1,0, 0,-1, 1,1"]
        .iter()
        .enumerate()
        .map(|(i, text)| Opening::parse(text, &format!("opening {}", i + 1)).expect("opening"))
        .collect()
}

/// 9x9 freestyle, a fresh process every game, a clock no random mover comes near.
fn settings(first: &str, second: &str) -> MatchConfig {
    let mut cfg = config(
        engine(first, &["random", "--seed", &seed_of(first)]),
        engine(second, &["random", "--seed", &seed_of(second)]),
    );
    (cfg.width, cfg.height) = (9, 9);
    cfg.openings = openings();
    cfg.fresh_process = true;
    cfg.concurrency = 2;
    cfg.time = TimeControl {
        turn: Duration::from_secs(5),
        game: None,
        tolerance: Duration::from_secs(1),
    };
    cfg
}

/// Engine `rN` is the random mover of seed N.
fn seed_of(name: &str) -> String {
    name.trim_start_matches('r').to_string()
}

fn tournament(shard: Shard, results: &Path) -> TournamentConfig {
    let names = ["r5", "r9", "r13"];
    let mut s = settings(names[0], names[1]);
    s.shard = shard;
    TournamentConfig {
        engines: names
            .iter()
            .map(|n| engine(n, &["random", "--seed", &seed_of(n)]))
            .collect(),
        settings: s,
        format: Format::RoundRobin,
        games_per_pair: 8,
        results: Some(results.to_path_buf()),
    }
}

fn shard(k: usize) -> Shard {
    Shard::new(k, 3).expect("shard")
}

fn run(cfg: &TournamentConfig) -> wuzi_match::TournamentSummary {
    match run_tournament(cfg, &mut QuietTournament) {
        Ok(s) => s,
        Err(e) => panic!("tournament failed: {e}"),
    }
}

/// The games without their thinking times, which no two runs share.
fn untimed(games: &[GameRecord]) -> Vec<GameRecord> {
    games
        .iter()
        .map(|g| GameRecord {
            time_ms: None,
            ..g.clone()
        })
        .collect()
}

/// Cuts a results file back to its first `games` games and half of the next line, as a run
/// killed while writing leaves it.
fn interrupt(path: &Path, games: usize) {
    let text = std::fs::read_to_string(path).expect("results");
    let lines: Vec<&str> = text.lines().collect();
    let keep = 2 + games;
    assert!(lines.len() > keep + 1, "{} lines", lines.len());
    let half = &lines[keep][..lines[keep].len() / 2];
    std::fs::write(path, format!("{}\n{half}", lines[..keep].join("\n"))).expect("write");
}

fn merge_error(cfg: &TournamentConfig, files: &[PathBuf]) -> ResultsError {
    match merge_tournament(cfg, files) {
        Err(MatchError::Results(e)) => e,
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("merged {files:?}"),
    }
}

#[test]
fn a_tournament_in_three_shards_merges_to_the_one_run() {
    let dir = scratch("shards-tournament");
    let rating = RatingSettings {
        anchor: Some("r13".into()),
        anchor_elo: 0.0,
        prior_draws: 2.0,
    };
    let whole_cfg = tournament(Shard::WHOLE, &dir.join("whole.txt"));
    let whole = run(&whole_cfg);
    assert_eq!((whole.games.len(), whole.planned), (24, 24));

    // Shard 3, then 1, then 2; shard 2 is interrupted after one game and run again.
    let files: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.txt"))).collect();
    let mut shares = 0;
    for k in [3, 1, 2] {
        let t = run(&tournament(shard(k), &files[k - 1]));
        assert_eq!(t.games.len(), t.planned, "shard {k} plays its share");
        shares += t.planned;
    }
    assert_eq!(shares, 24, "the shares partition the schedule");
    interrupt(&files[1], 1);
    let resumed = run(&tournament(shard(2), &files[1]));
    assert_eq!(resumed.resumed, 1);
    assert_eq!(resumed.games.len(), resumed.planned);

    // Merged in any order: the one run's games, standings, ratings, final text and report.
    let merge_cfg = tournament(Shard::WHOLE, &dir.join("unused.txt"));
    let order = [files[2].clone(), files[0].clone(), files[1].clone()];
    let (merged, info) = merge_tournament(&merge_cfg, &order).expect("merged");
    assert!(info.missing.is_empty(), "{}", info.describe());
    assert!(
        info.describe().contains("24 of 24 games"),
        "{}",
        info.describe()
    );
    assert_eq!(untimed(&merged.games), untimed(&whole.games));
    let names: Vec<String> = whole_cfg.engines.iter().map(|e| e.name.clone()).collect();
    let one = Standings::of(&names, &whole.games);
    let many = Standings::of(&names, &merged.games);
    assert_eq!(one, many);
    let ratings = |s: &Standings| s.ratings(Some("r13"), 0.0, 2.0).expect("ratings");
    assert_eq!(ratings(&one), ratings(&many));
    assert_eq!(
        tournament_final(&whole_cfg, &whole, &rating),
        tournament_final(&merge_cfg, &merged, &rating)
    );
    let mut one_page = tournament_report(&whole_cfg, whole, &rating);
    let mut merged_page = tournament_report(&merge_cfg, merged, &rating);
    one_page.games = untimed(&one_page.games);
    merged_page.games = untimed(&merged_page.games);
    assert_eq!(page(&one_page), page(&merged_page));
    // The games are not all alike: the merge is tested on wins of both colours.
    let reasons = &one.reasons;
    assert!(one.total.iter().all(|t| t.wins > 0), "{:?}", one.total);
    assert!(reasons.contains_key("five"), "{reasons:?}");

    // Refusals: a shard given twice (twice the same file, or a copy of it).
    let twice = [files[0].clone(), files[1].clone(), files[0].clone()];
    assert!(matches!(
        merge_error(&merge_cfg, &twice),
        ResultsError::DuplicateShard { .. }
    ));
    // A game out of its file's shard, and a game twice in one file.
    let text = |k: usize| std::fs::read_to_string(&files[k - 1]).expect("shard file");
    let game_lines = |k: usize| -> Vec<String> {
        text(k)
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let foreign = dir.join("foreign-game.txt");
    std::fs::write(&foreign, format!("{}{}\n", text(3), game_lines(1)[0])).expect("write");
    let e = merge_error(&merge_cfg, &[files[0].clone(), foreign]);
    assert!(
        matches!(&e, ResultsError::DoesNotFit { why, .. } if why.contains("shard 3/3")),
        "{e}"
    );
    let doubled = dir.join("doubled.txt");
    std::fs::write(&doubled, format!("{}{}\n", text(3), game_lines(3)[0])).expect("write");
    let e = merge_error(&merge_cfg, &[doubled]);
    assert!(matches!(e, ResultsError::DuplicateGame { .. }), "{e}");
    // Damage: a line cut short at the end, a line garbled in the middle.
    let cut = dir.join("cut.txt");
    let t3 = text(3);
    std::fs::write(&cut, &t3[..t3.len() - 5]).expect("write");
    let e = merge_error(&merge_cfg, &[files[0].clone(), cut]);
    assert!(matches!(e, ResultsError::Truncated { .. }), "{e}");
    let garbled = dir.join("garbled.txt");
    std::fs::write(&garbled, t3.replacen("\tfive\t", "\tfiv\t", 1)).expect("write");
    let e = merge_error(&merge_cfg, &[garbled]);
    assert!(
        matches!(&e, ResultsError::Damaged { line, .. } if *line > 2),
        "{e}"
    );
    assert!(e.to_string().contains("garbled.txt:"), "{e}");
    // A shard of another schedule: the same engines with the openings in another order.
    let other_path = dir.join("other.txt");
    let mut other = tournament(shard(2), &other_path);
    other.settings.order = wuzi_match::opening::Order::Random;
    other.settings.seed = 11;
    other.games_per_pair = 2;
    run(&other);
    let e = merge_error(&merge_cfg, &[files[0].clone(), other_path]);
    assert!(matches!(e, ResultsError::OtherSchedule { .. }), "{e}");
    assert!(e.to_string().contains("another schedule"), "{e}");
    // A missing shard is no error: its games are listed.
    let (partial, info) =
        merge_tournament(&merge_cfg, &[files[0].clone(), files[2].clone()]).expect("merged");
    let share2 = parse_results(&text(2)).games.len();
    assert_eq!(info.missing.len(), share2);
    assert_eq!(partial.games.len(), 24 - share2);
    assert!(
        info.describe().contains("no file of shard 2/3"),
        "{}",
        info.describe()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

fn match_cfg(shard: Shard, results: Option<&Path>, sprt: Sprt) -> MatchConfig {
    let mut cfg = settings("r5", "r9");
    cfg.games = 24;
    cfg.sprt = Some(sprt);
    cfg.shard = shard;
    cfg.results = results.map(Path::to_path_buf);
    cfg
}

/// Plays a match as one run, one game at a time (so the SPRT stops where the merge stops it),
/// and as three shards merged; returns both summaries' texts after checking they agree.
fn one_run_and_three_shards(name: &str, sprt: Sprt, second: &[&str]) -> (SprtState, usize) {
    let dir = scratch(name);
    let with_second = |mut cfg: MatchConfig| {
        cfg.engines[1].args = second.iter().map(|s| s.to_string()).collect();
        cfg
    };
    let mut whole_cfg = with_second(match_cfg(Shard::WHOLE, Some(&dir.join("whole.txt")), sprt));
    whole_cfg.concurrency = 1;
    let whole = play(whole_cfg.clone());
    let files: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("s{k}.txt"))).collect();
    for k in [2, 3, 1] {
        let s = play(with_second(match_cfg(shard(k), Some(&files[k - 1]), sprt)));
        assert_eq!(s.sprt, None, "a shard does not stop on the SPRT");
        assert_eq!(
            s.records.len(),
            s.planned,
            "shard {k} plays its whole share"
        );
    }
    interrupt(&files[0], 2);
    let resumed = play(with_second(match_cfg(shard(1), Some(&files[0]), sprt)));
    assert_eq!(
        (resumed.resumed, resumed.records.len()),
        (2, resumed.planned)
    );

    let merge_cfg = with_second(match_cfg(Shard::WHOLE, None, sprt));
    let (merged, info) = merge_match(&merge_cfg, &files).expect("merged");
    assert!(info.missing.is_empty(), "{}", info.describe());
    assert_eq!(merged.sprt, whole.sprt);
    assert_eq!(merged.stats.total, whole.stats.total);
    assert_eq!(merged.stats.by_color, whole.stats.by_color);
    assert_eq!(merged.stats.reasons, whole.stats.reasons);
    assert_eq!(merged.stats.faults, whole.stats.faults);
    assert_eq!(untimed(&merged.records), untimed(&whole.records));
    assert_eq!(
        json_summary(&merge_cfg, &merged),
        json_summary(&whole_cfg, &whole)
    );
    // The final text but its last line, the thinking time (a measurement of each run).
    let text = |cfg: &MatchConfig, m: &wuzi_match::MatchSummary| {
        let t = final_report(cfg, m);
        t[..t.rfind("Thinking time").unwrap_or(t.len())].to_string()
    };
    assert_eq!(text(&merge_cfg, &merged), text(&whole_cfg, &whole));
    let (mut a, mut b) = (
        match_report(&merge_cfg, &merged),
        match_report(&whole_cfg, &whole),
    );
    (a.games, b.games) = (untimed(&a.games), untimed(&b.games));
    assert_eq!(page(&a), page(&b));
    // What the one run stopped short of, the merge read and did not count.
    assert_eq!(
        info.uncounted.len() + merged.stats.games() as usize,
        24,
        "{}",
        info.describe()
    );
    let _ = std::fs::remove_dir_all(&dir);
    (
        merged.sprt.unwrap_or(SprtState::Continue),
        merged.stats.games() as usize,
    )
}

#[test]
fn a_match_in_three_shards_merges_to_the_one_run_sprt_included() {
    // Two random movers, and a test of a narrow band at small error rates: the SPRT goes on
    // to the end of the schedule.
    let wide = Sprt::new(-5.0, 5.0, 0.001, 0.001).expect("sprt");
    let (state, games) =
        one_run_and_three_shards("shards-match-even", wide, &["random", "--seed", "9"]);
    assert_eq!((state, games), (SprtState::Continue, 24));
    // The second engine crashes at its fourth move and loses nearly every game: the one run
    // stops early on H1, and the merge stops counting at the same game.
    let narrow = Sprt::new(0.0, 100.0, 0.05, 0.05).expect("sprt");
    let (state, games) = one_run_and_three_shards(
        "shards-match-stop",
        narrow,
        &["random", "--seed", "9", "--crash-after", "3"],
    );
    assert_eq!(state, SprtState::AcceptH1);
    assert!(games < 24, "{games} games");
}
