//! The HTML report in a real headless browser (Chromium): the page's script runs without an
//! error and sets up every game, and a screenshot shows the board's wood.
//!
//! Skipped, with a message, when no `chromium` (or `chromium-browser`) is on the PATH, unless
//! `WUZI_BROWSER_TESTS=require` or `CI` is set (as `.ci/run` does): then it fails. On
//! Debian or Ubuntu: `apt-get install -y chromium`, then
//! `cargo test -p wuzi-match --test report_browser -- --nocapture`.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{config, engine, scratch};
use wuzi_match::html::{write_report, ReportInput};
use wuzi_match::tournament::{Format, QuietTournament};
use wuzi_match::{run_tournament, TournamentConfig};

fn browser() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
        .find(|p| p.is_file())
}

/// Runs the browser headless on `page` with `args`, under a time limit.
fn headless(chromium: &Path, args: &[String], page: &Path) -> std::process::Output {
    let profile = page.with_file_name("profile");
    let mut cmd = Command::new("timeout");
    cmd.arg("120")
        .arg(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(format!("file://{}", page.display()));
    match cmd.output() {
        Ok(out) => out,
        Err(e) => panic!("cannot run {}: {e}", chromium.display()),
    }
}

#[test]
fn the_report_runs_in_a_browser_and_shows_the_board() {
    let Some(chromium) = browser() else {
        let required = std::env::var("WUZI_BROWSER_TESTS").is_ok_and(|v| v == "require")
            || std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
        assert!(
            !required,
            "the browser tests must run here, and no chromium is on the PATH (apt-get install -y chromium)"
        );
        eprintln!(
            "SKIPPED report_browser: no chromium on the PATH (apt-get install -y chromium to run it)"
        );
        return;
    };
    let engines = vec![
        engine("random", &["random", "--seed", "5"]),
        engine("occupied", &["occupied"]),
        engine("other", &["random", "--seed", "9"]),
    ];
    let settings = config(engines[0].clone(), engines[1].clone());
    let cfg = TournamentConfig {
        settings,
        engines,
        format: Format::RoundRobin,
        games_per_pair: 2,
        results: None,
    };
    let summary = match run_tournament(&cfg, &mut QuietTournament) {
        Ok(s) => s,
        Err(e) => panic!("tournament failed: {e}"),
    };
    let dir = scratch("report-browser");
    let input = ReportInput {
        title: "Browser test".into(),
        details: Vec::new(),
        names: cfg.engines.iter().map(|e| e.name.clone()).collect(),
        games: summary.games.clone(),
        anchor: None,
        anchor_elo: 0.0,
        prior_draws: 2.0,
    };
    let page = write_report(&dir, &input).expect("report written");

    let dom = headless(&chromium, &["--dump-dom".to_string()], &page);
    let dom_text = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom_text.contains("data-ready=\"1\""),
        "the page's script did not finish; stderr: {}",
        String::from_utf8_lossy(&dom.stderr)
    );
    assert!(
        !dom_text.contains("data-errors"),
        "script errors: {dom_text}"
    );
    // The script set up every game: each shows its last move.
    for g in &summary.games {
        let n = g.moves.len();
        assert!(
            dom_text.contains(&format!("move {n} / {n}")),
            "game {} not set up",
            g.index + 1
        );
    }

    let shot = dir.join("shot.png");
    let out = headless(
        &chromium,
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1000,1400".to_string(),
        ],
        &page,
    );
    let file = std::fs::File::open(&shot).unwrap_or_else(|e| {
        panic!(
            "no screenshot ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let mut decoder = png::Decoder::new(file);
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    // The board's wood is #deb468.
    let wood = pixels
        .chunks(channels)
        .filter(|p| {
            channels >= 3
                && p[0].abs_diff(0xde) < 6
                && p[1].abs_diff(0xb4) < 6
                && p[2].abs_diff(0x68) < 6
        })
        .count();
    let total = pixels.len() / channels;
    assert!(
        wood > total / 50,
        "the screenshot shows little of the board: {wood} of {total} pixels"
    );
}
