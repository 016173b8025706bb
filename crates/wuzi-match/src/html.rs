//! The HTML report of a match or tournament (`--report DIR` writes `DIR/index.html`): one
//! self-contained page, with its styles, pictures and script inline and nothing fetched from
//! elsewhere.
//!
//! The page holds: the standings with ratings and the crosstable; the ratings (with their 95%
//! interval as a band) drawn against the number of games played, refitted at up to
//! [`CHECKPOINTS`] points; the end reasons; and every game as a `wuzi-show` picture with
//! buttons and a slider that step through its moves (the script shows the stones up to the
//! chosen move and moves the last-move mark).
//!
//! When the script has set up every game it sets `data-ready="1"` on `<body>`; an error in
//! the page's script is written to `data-errors`. The browser test reads both.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use wuzi_show::svg::escape;
use wuzi_show::{svg, Game, Picture};

use crate::error::MatchError;
use crate::rating::Rating;
use crate::results::GameRecord;
use crate::standings::{half, Standings};

/// The most points at which the ratings are refitted for the chart.
pub const CHECKPOINTS: usize = 60;

/// Colours of the engines' lines in the chart, in turn.
const PALETTE: [&str; 8] = [
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
];

/// What the report shows.
#[derive(Clone, Debug)]
pub struct ReportInput {
    pub title: String,
    /// Lines under the title (settings).
    pub details: Vec<String>,
    pub names: Vec<String>,
    pub games: Vec<GameRecord>,
    /// The engine fixed at `anchor_elo` (else the mean).
    pub anchor: Option<String>,
    pub anchor_elo: f64,
    pub prior_draws: f64,
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222;background:#fafaf7}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.2em .6em;text-align:right}
th{background:#eee}td.name{text-align:left}.games{display:flex;flex-wrap:wrap;gap:1.5em}
.game{border:1px solid #ccc;background:#fff;padding:.6em}.game h3{font-size:1em;margin:.2em 0}
.controls{display:flex;gap:.3em;align-items:center;margin-top:.3em}.controls input{flex:1}";

const SCRIPT: &str = r#"window.addEventListener('error', function (e) {
  var b = document.body; b.dataset.errors = (b.dataset.errors || '') + e.message + ';';
});
function wuziSetup(box) {
  var svg = box.querySelector('svg');
  var stones = Array.prototype.slice.call(svg.querySelectorAll('g.stone'));
  var last = svg.querySelector('circle.last');
  var slider = box.querySelector('input');
  var label = box.querySelector('.move');
  var n = stones.filter(function (s) { return +s.dataset.move > 0; }).length;
  slider.max = n;
  function show(k) {
    k = Math.max(0, Math.min(n, k));
    slider.value = k;
    var mark = null;
    stones.forEach(function (s) {
      var m = +s.dataset.move;
      var on = m <= k;
      s.style.display = on ? '' : 'none';
      if (m === k && m > 0) { mark = s.querySelector('circle'); }
    });
    if (last) {
      last.style.display = mark ? '' : 'none';
      if (mark) { last.setAttribute('cx', mark.getAttribute('cx')); last.setAttribute('cy', mark.getAttribute('cy')); }
    }
    label.textContent = 'move ' + k + ' / ' + n;
  }
  box.querySelectorAll('button').forEach(function (b) {
    b.addEventListener('click', function () {
      var k = +slider.value, step = b.dataset.step;
      show(step === 'first' ? 0 : step === 'last' ? n : k + (+step));
    });
  });
  slider.addEventListener('input', function () { show(+slider.value); });
  show(n);
}
document.addEventListener('DOMContentLoaded', function () {
  document.querySelectorAll('.game').forEach(wuziSetup);
  document.body.dataset.ready = '1';
});"#;

/// Writes `dir/index.html` (creating `dir`); returns the page's path.
pub fn write_report(dir: &Path, input: &ReportInput) -> Result<PathBuf, MatchError> {
    let io = |path: &Path| {
        let path = path.display().to_string();
        move |source| MatchError::Io { path, source }
    };
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    let path = dir.join("index.html");
    std::fs::write(&path, page(input)).map_err(io(&path))?;
    Ok(path)
}

fn ratings_of(input: &ReportInput, games: &[GameRecord]) -> Option<Vec<Rating>> {
    Standings::of(&input.names, games)
        .ratings(input.anchor.as_deref(), input.anchor_elo, input.prior_draws)
        .ok()
}

/// The whole page.
pub fn page(input: &ReportInput) -> String {
    let mut games = input.games.clone();
    games.sort_by_key(|g| g.index);
    let standings = Standings::of(&input.names, &games);
    let ratings = ratings_of(input, &games);
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>\n",
        escape(&input.title),
        escape(&input.title)
    );
    for d in &input.details {
        let _ = writeln!(s, "<p>{}</p>", escape(d));
    }
    s.push_str(&standings_table(&standings, ratings.as_deref()));
    s.push_str("<h2>Ratings against games played</h2>\n");
    s.push_str(&chart(input, &games));
    s.push_str("<h2>End reasons</h2>\n<table><tr><th>reason</th><th>games</th></tr>\n");
    for (k, v) in &standings.reasons {
        let _ = writeln!(
            s,
            "<tr><td class=\"name\">{}</td><td>{v}</td></tr>",
            escape(k)
        );
    }
    s.push_str("</table>\n<h2>Games</h2>\n<div class=\"games\">\n");
    for g in &games {
        s.push_str(&game_box(g));
    }
    let _ = write!(s, "</div>\n<script>{SCRIPT}</script>\n</body></html>\n");
    s
}

fn standings_table(st: &Standings, ratings: Option<&[Rating]>) -> String {
    let order = st.order(ratings);
    let mut s = String::from(
        "<h2>Standings</h2>\n<table class=\"standings\"><tr><th>#</th><th>engine</th><th>Elo</th><th>±95%</th><th>points</th><th>W-L-D</th>",
    );
    for (col, _) in order.iter().enumerate() {
        let _ = write!(s, "<th>{}</th>", col + 1);
    }
    s.push_str("</tr>\n");
    for (rank, &i) in order.iter().enumerate() {
        let (elo, err) = match ratings {
            Some(r) => (format!("{:.0}", r[i].elo), format!("{:.0}", r[i].error)),
            None => ("-".into(), "-".into()),
        };
        let t = st.total[i];
        let _ = write!(
            s,
            "<tr><td>{}</td><td class=\"name\">{}</td><td>{elo}</td><td>{err}</td><td>{}/{}</td><td>{t}</td>",
            rank + 1,
            escape(&st.names[i]),
            half(t.points()),
            t.games()
        );
        for &j in &order {
            let _ = write!(s, "<td>{}</td>", st.cross_cell(i, j));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n<p>Row against column: points/games. Elo: joint maximum likelihood, 95% interval.</p>\n");
    s
}

/// The ratings refitted at checkpoints, as an SVG chart with a band for each interval.
fn chart(input: &ReportInput, games: &[GameRecord]) -> String {
    let total = games.len();
    if total == 0 {
        return "<p>No games.</p>\n".into();
    }
    let steps = total.min(CHECKPOINTS);
    let points: Vec<(usize, Vec<Rating>)> = (1..=steps)
        .map(|k| k * total / steps)
        .filter_map(|m| ratings_of(input, &games[..m]).map(|r| (m, r)))
        .collect();
    let finite = |v: f64| v.is_finite();
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (_, rs) in &points {
        for r in rs {
            if finite(r.elo) && finite(r.error) {
                lo = lo.min(r.elo - r.error);
                hi = hi.max(r.elo + r.error);
            }
        }
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return "<p>No ratings.</p>\n".into();
    }
    if hi - lo < 20.0 {
        hi += 10.0;
        lo -= 10.0;
    }
    let (w, h, left, right, top, bottom) = (640.0, 300.0, 56.0, 150.0, 12.0, 30.0);
    let px = |m: usize| left + (w - left - right) * m as f64 / total as f64;
    let py = |e: f64| top + (h - top - bottom) * (hi - e) / (hi - lo);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" width=\"{w}\" height=\"{h}\" font-family=\"sans-serif\" font-size=\"11\">\n<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"#fff\" stroke=\"#999\"/>\n",
        w - left - right,
        h - top - bottom
    );
    for k in 0..=4 {
        let e = lo + (hi - lo) * k as f64 / 4.0;
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{e:.0}</text>",
            left - 4.0,
            py(e) + 4.0
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">games played (of {total})</text>",
        (left + w - right) / 2.0,
        h - 8.0
    );
    for (i, name) in input.names.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let upper: Vec<String> = points
            .iter()
            .map(|(m, r)| format!("{:.1},{:.1}", px(*m), py(r[i].elo + r[i].error)))
            .collect();
        let lower: Vec<String> = points
            .iter()
            .rev()
            .map(|(m, r)| format!("{:.1},{:.1}", px(*m), py(r[i].elo - r[i].error)))
            .collect();
        let line: Vec<String> = points
            .iter()
            .map(|(m, r)| format!("{:.1},{:.1}", px(*m), py(r[i].elo)))
            .collect();
        let _ = writeln!(
            s,
            "<polygon class=\"band\" points=\"{} {}\" fill=\"{colour}\" fill-opacity=\"0.15\"/>\n<polyline class=\"elo\" points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
            upper.join(" "),
            lower.join(" "),
            line.join(" ")
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" fill=\"{colour}\">{}</text>",
            w - right + 8.0,
            top + 14.0 * (i + 1) as f64,
            escape(name)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// One game: its picture and the controls that step through it.
fn game_box(g: &GameRecord) -> String {
    let result = match g.winner_name() {
        Some(w) => format!("{w} wins"),
        None => "draw".to_string(),
    };
    let mut game = Game::new(g.width, g.height, g.rule, g.moves.clone());
    game.opening_len = g.opening_len;
    let picture = match svg(&Picture::of(game)) {
        Ok(p) => p,
        Err(e) => format!("<p>cannot draw: {}</p>", escape(&e.to_string())),
    };
    format!(
        "<div class=\"game\" id=\"game-{}\"><h3>Game {}: {} (black) vs {} (white): {}, {}</h3>\n{picture}<div class=\"controls\"><button data-step=\"first\">|&lt;</button><button data-step=\"-1\">&lt;</button><input type=\"range\" min=\"0\" value=\"0\"><button data-step=\"1\">&gt;</button><button data-step=\"last\">&gt;|</button><span class=\"move\"></span></div></div>\n",
        g.index + 1,
        g.index + 1,
        escape(&g.black),
        escape(&g.white),
        escape(&result),
        escape(&g.reason)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_core::notation::parse_moves;
    use wuzi_core::{Color, Rule};

    fn input() -> ReportInput {
        let game = |index, black: &str, white: &str, winner| GameRecord {
            index,
            black: black.into(),
            white: white.into(),
            winner,
            reason: "five".into(),
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            opening_len: 1,
            moves: parse_moves("h8 i9 j10").unwrap_or_default(),
            time_ms: None,
        };
        ReportInput {
            title: "A <match>".into(),
            details: vec!["x & y".into()],
            names: vec!["a".into(), "b".into()],
            games: vec![
                game(1, "b", "a", Some(Color::White)),
                game(0, "a", "b", None),
            ],
            anchor: Some("b".into()),
            anchor_elo: 0.0,
            prior_draws: 2.0,
        }
    }

    #[test]
    fn the_page_is_self_contained_and_escaped() {
        let p = page(&input());
        assert!(p.contains("<h1>A &lt;match&gt;</h1>"));
        assert!(p.contains("<p>x &amp; y</p>"));
        for outside in ["http://", "https://", "src=", "href=", "@import"] {
            let hits = p.matches(outside).count();
            let namespaces = p.matches("xmlns=\"http://").count();
            let allowed = if outside == "http://" { namespaces } else { 0 };
            assert_eq!(hits, allowed, "{outside}");
        }
        // Games in order, each with its picture and controls.
        let first = p.find("id=\"game-1\"").expect("game 1");
        let second = p.find("id=\"game-2\"").expect("game 2");
        assert!(first < second);
        assert_eq!(p.matches("class=\"controls\"").count(), 2);
        assert_eq!(p.matches("class=\"stone\"").count(), 6);
        assert_eq!(p.matches("class=\"elo\"").count(), 2);
    }
}
