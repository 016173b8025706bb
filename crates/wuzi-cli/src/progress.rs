//! The live progress of `wuzi match`: an `indicatif` bar on a terminal (games done, score,
//! Elo so far, SPRT LLR), or one plain line per finished game when the output is no terminal;
//! plus the full report on demand (every N games, or when a line is typed on the terminal's
//! input).
//!
//! Invariant: everything goes to the terminal through the bar while there is one (so lines
//! never tear it); plain lines go to standard output.

use std::io::IsTerminal;
use std::sync::mpsc::Receiver;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use wuzi_core::Color;

use wuzi_match::game::GameResult;
use wuzi_match::runner::Observer;
use wuzi_match::sprt::Sprt;
use wuzi_match::stats::Stats;

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressMode {
    /// A bar when standard error is a terminal, plain lines otherwise.
    Auto,
    /// Always the bar.
    Bar,
    /// One plain line per game.
    Lines,
    /// Nothing until the final report.
    Off,
}

pub struct Progress {
    bar: Option<ProgressBar>,
    lines: bool,
    total: usize,
    names: [String; 2],
    sprt: Option<Sprt>,
    report_every: Option<usize>,
    requests: Option<Receiver<()>>,
}

impl Progress {
    pub fn new(
        mode: ProgressMode,
        total: usize,
        names: [String; 2],
        sprt: Option<Sprt>,
    ) -> Progress {
        let use_bar = match mode {
            ProgressMode::Auto => std::io::stderr().is_terminal(),
            ProgressMode::Bar => true,
            ProgressMode::Lines | ProgressMode::Off => false,
        };
        let bar = use_bar.then(|| {
            let bar = ProgressBar::new(total as u64);
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
            )
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar.enable_steady_tick(Duration::from_millis(500));
            bar
        });
        Progress {
            bar,
            lines: mode == ProgressMode::Lines || (mode == ProgressMode::Auto && !use_bar),
            total,
            names,
            sprt,
            report_every: None,
            requests: None,
        }
    }

    /// Prints the full report every `n` games.
    pub fn report_every(mut self, n: Option<usize>) -> Progress {
        self.report_every = n.filter(|&n| n > 0);
        self
    }

    /// Prints the full report whenever something arrives on `requests`.
    pub fn report_on(mut self, requests: Receiver<()>) -> Progress {
        self.requests = Some(requests);
        self
    }

    /// Prints a (possibly several-line) text above the bar, or to standard output.
    pub fn println(&self, text: &str) {
        let text = text.trim_end();
        match &self.bar {
            Some(bar) => bar.suspend(|| print_line(text)),
            None => print_line(text),
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    fn report(&self, stats: &Stats) {
        let mut text = format!("--- after {} games ---\n", stats.games());
        text.push_str(&stats.report([&self.names[0], &self.names[1]]));
        if let Some(sprt) = &self.sprt {
            text.push_str(&sprt.describe(&stats.total[0]));
        }
        self.println(&text);
    }

    fn summary(&self, stats: &Stats) -> String {
        let mut s = format!("{} {}", self.names[0], stats.short());
        if let Some(sprt) = &self.sprt {
            s.push_str(&format!("  LLR {:.2}", sprt.llr(&stats.total[0])));
        }
        s
    }
}

/// Writes a line to standard output; a closed output (a pipe whose reader left) is ignored
/// rather than ending the runner in the middle of a match.
pub fn print_line(text: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
    let _ = out.flush();
}

impl Observer for Progress {
    fn game_finished(&mut self, g: &GameResult, stats: &Stats) {
        if let Some(bar) = &self.bar {
            bar.inc(1);
            bar.set_message(self.summary(stats));
        }
        if self.lines {
            let black = &self.names[g.engine_of(Color::Black)];
            let white = &self.names[g.engine_of(Color::White)];
            let result = match g.winning_engine() {
                Some(w) => format!("{} wins, {}", self.names[w], g.reason),
                None => format!("draw, {}", g.reason),
            };
            self.println(&format!(
                "game {}/{}: {black} (black) vs {white} (white): {result}; {} moves | {}",
                g.index + 1,
                self.total,
                g.moves.len(),
                self.summary(stats)
            ));
        }
        if self
            .report_every
            .is_some_and(|n| stats.games().checked_rem(n as u64) == Some(0))
        {
            self.report(stats);
        }
        self.tick(stats);
    }

    fn resumed(&mut self, games: usize, skipped: &[(usize, String)]) {
        for (line, why) in skipped {
            self.println(&format!(
                "wuzi match: results line {line} skipped (played again): {why}"
            ));
        }
        if let Some(bar) = &self.bar {
            bar.set_position(games as u64);
        }
        self.println(&format!(
            "Resuming: {games} games already in the results file"
        ));
    }

    fn tick(&mut self, stats: &Stats) {
        let asked = self
            .requests
            .as_ref()
            .is_some_and(|rx| rx.try_iter().count() > 0);
        if asked {
            self.report(stats);
        }
    }
}
