//! Game records, in formats that other Gomoku tools read:
//! - SGF (`GM[4]`, FF[4]): one file per match holding every game as a game tree of the
//!   collection, in the order the games finished; `PB`/`PW` the engines, `RE` the result (`B+`
//!   five, `B+T` on time, `B+F` by forfeit: crash, garbage, illegal or forbidden move; `0` a
//!   draw), `RU` the rule, `TM`/`OT` the time control, `GN` the game number, and `GC` the end
//!   reason, the opening and the time control in words. Moves are SGF points (column then row
//!   letter from the top-left, `a`..`z` then `A`..`Z`); the opening's moves come first, and
//!   `GC` says how many they are;
//! - piskvork `.psq`: one file per game in a folder (`game-0001.psq`, ...): the header line
//!   `Piskvorky WxH, 11:11, 0`, one `x,y,ms` line per move (1-based coordinates, thinking
//!   time in ms), then the engines' names, `-1`, and lines with the result, end reason,
//!   opening and time control.
//!
//! Invariant: a game is written completely or not at all, and the SGF file is flushed after
//! every game, so the records of a match that is interrupted hold every finished game.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use wuzi_core::{Color, Rule};
use wuzi_show::write::{sgf_point, sgf_text};

use crate::clock::{millis, TimeControl};
use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::game::{EndReason, GameResult};

/// What every record of a match shares.
#[derive(Clone, Debug)]
pub struct MatchInfo {
    pub names: [String; 2],
    pub width: usize,
    pub height: usize,
    pub rule: Rule,
    pub time: TimeControl,
    /// `YYYY-MM-DD` (UTC) of the match's start.
    pub date: String,
}

impl MatchInfo {
    pub fn of(cfg: &MatchConfig) -> MatchInfo {
        MatchInfo {
            names: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
            width: cfg.width,
            height: cfg.height,
            rule: cfg.rule,
            time: cfg.time,
            date: utc_date(SystemTime::now()),
        }
    }
}

/// The winner's colour letter and the reason, as `RE` writes them.
fn sgf_result(g: &GameResult) -> String {
    let Some(winner) = g.winner else {
        return "0".to_string();
    };
    let side = if winner == Color::Black { "B" } else { "W" };
    let how = match g.reason {
        EndReason::Five => "",
        EndReason::Time(_) => "T",
        _ => "F",
    };
    format!("{side}+{how}")
}

fn opening_words(g: &GameResult) -> String {
    match &g.opening {
        Some((label, text)) => format!("{label} \"{text}\" ({} moves)", g.opening_len),
        None => "none".to_string(),
    }
}

fn result_words(g: &GameResult, info: &MatchInfo) -> String {
    match g.winning_engine() {
        Some(w) => {
            let color = if g.winner == Some(Color::Black) {
                "Black"
            } else {
                "White"
            };
            format!("{} ({color}) wins: {}", info.names[w], g.reason)
        }
        None => format!("draw: {}", g.reason),
    }
}

/// One game as an SGF game tree.
pub fn sgf(g: &GameResult, info: &MatchInfo) -> String {
    let size = if info.width == info.height {
        info.width.to_string()
    } else {
        format!("{}:{}", info.width, info.height)
    };
    let black = &info.names[g.engine_of(Color::Black)];
    let white = &info.names[g.engine_of(Color::White)];
    let mut s = format!(
        "(;GM[4]FF[4]CA[UTF-8]AP[wuzi-match:{}]SZ[{size}]RU[{}]EV[wuzi match]GN[{}]DT[{}]",
        env!("CARGO_PKG_VERSION"),
        info.rule,
        g.index + 1,
        info.date
    );
    s.push_str(&format!(
        "PB[{}]PW[{}]RE[{}]",
        sgf_text(black),
        sgf_text(white),
        sgf_result(g)
    ));
    if let Some(game) = info.time.game {
        s.push_str(&format!("TM[{}]", game.as_secs_f64()));
    }
    s.push_str(&format!(
        "OT[{} ms per move, {} ms tolerance]",
        info.time.turn_ms(),
        millis(info.time.tolerance)
    ));
    let gc = format!(
        "{}; opening: {}; time control: {}",
        result_words(g, info),
        opening_words(g),
        info.time.describe()
    );
    s.push_str(&format!("GC[{}]\n", sgf_text(&gc)));
    for (i, m) in g.moves.iter().enumerate() {
        let side = if i % 2 == 0 { "B" } else { "W" };
        s.push_str(&format!(";{side}[{}]", sgf_point(m.point)));
        if (i + 1) % 16 == 0 {
            s.push('\n');
        }
    }
    s.push_str(")\n");
    s
}

/// One game as a piskvork `.psq` file.
pub fn psq(g: &GameResult, info: &MatchInfo) -> String {
    let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", info.width, info.height);
    for m in &g.moves {
        s.push_str(&format!(
            "{},{},{}\n",
            m.point.x as u32 + 1,
            m.point.y as u32 + 1,
            millis(m.time)
        ));
    }
    s.push_str(&format!(
        "{}\n{}\n-1\n",
        info.names[g.engine_of(Color::Black)],
        info.names[g.engine_of(Color::White)]
    ));
    s.push_str(&format!("result: {}\n", result_words(g, info)));
    s.push_str(&format!("end reason: {}\n", g.reason.key()));
    s.push_str(&format!("rule: {}\n", info.rule));
    s.push_str(&format!("opening: {}\n", opening_words(g)));
    s.push_str(&format!("time control: {}\n", info.time.describe()));
    s
}

/// Writes the records a match asked for.
pub struct Recorder {
    info: MatchInfo,
    sgf: Option<(PathBuf, File)>,
    psq_dir: Option<PathBuf>,
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Io {
        path: path.display().to_string(),
        source,
    }
}

impl Recorder {
    /// Creates the SGF file (appended to when `resuming`, else truncated) and the `.psq`
    /// folder, if asked for.
    pub fn create(cfg: &MatchConfig, resuming: bool) -> Result<Recorder, MatchError> {
        let sgf = match &cfg.sgf {
            Some(path) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(resuming)
                    .truncate(!resuming)
                    .open(path)
                    .map_err(io_error(path))?;
                Some((path.clone(), file))
            }
            None => None,
        };
        if let Some(dir) = &cfg.psq_dir {
            std::fs::create_dir_all(dir).map_err(io_error(dir))?;
        }
        Ok(Recorder {
            info: MatchInfo::of(cfg),
            sgf,
            psq_dir: cfg.psq_dir.clone(),
        })
    }

    pub fn write(&mut self, g: &GameResult) -> Result<(), MatchError> {
        if let Some((path, file)) = self.sgf.as_mut() {
            let text = sgf(g, &self.info);
            file.write_all(text.as_bytes())
                .and_then(|_| file.flush())
                .map_err(io_error(path))?;
        }
        if let Some(dir) = &self.psq_dir {
            let path = dir.join(format!("game-{:04}.psq", g.index + 1));
            std::fs::write(&path, psq(g, &self.info)).map_err(io_error(&path))?;
        }
        Ok(())
    }
}

/// `YYYY-MM-DD` of a time, in UTC (days-to-civil conversion of the proleptic Gregorian
/// calendar).
pub fn utc_date(t: SystemTime) -> String {
    let days = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| (d.as_secs() / 86_400) as i64);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::PlayedMove;
    use std::time::Duration;
    use wuzi_core::Point;

    fn info() -> MatchInfo {
        MatchInfo {
            names: ["alpha".into(), "be]ta".into()],
            width: 15,
            height: 15,
            rule: Rule::Freestyle,
            time: TimeControl {
                turn: Duration::from_millis(1000),
                game: Some(Duration::from_secs(60)),
                tolerance: Duration::from_millis(500),
            },
            date: "2026-01-02".into(),
        }
    }

    fn game() -> GameResult {
        let mv = |x, y, ms| PlayedMove {
            point: Point::new(x, y),
            time: Duration::from_millis(ms),
        };
        GameResult {
            index: 2,
            black: 1,
            opening: Some(("suite.txt:4".into(), "0,0".into())),
            opening_len: 1,
            moves: vec![mv(7, 7, 0), mv(8, 7, 120), mv(27, 3, 300)],
            winner: Some(Color::White),
            reason: EndReason::Time("move took 1600 ms, turn limit 1000 ms".into()),
            time_used: [Duration::ZERO; 2],
        }
    }

    #[test]
    fn sgf_has_the_required_properties() {
        let s = sgf(&game(), &info());
        assert!(s.starts_with("(;GM[4]FF[4]"), "{s}");
        for want in [
            "SZ[15]",
            "RU[freestyle]",
            "GN[3]",
            "PB[be\\]ta]",
            "PW[alpha]",
            "RE[W+T]",
            "TM[60]",
            ";B[hh];W[ih];B[Bd])",
        ] {
            assert!(s.contains(want), "{want} missing in {s}");
        }
        assert!(s.contains("alpha (White) wins: lost on time"), "{s}");
        assert!(s.contains("opening: suite.txt:4 \"0,0\" (1 moves)"), "{s}");
    }

    #[test]
    fn psq_lists_moves_one_based_with_times() {
        let p = psq(&game(), &info());
        let lines: Vec<&str> = p.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(&lines[1..4], ["8,8,0", "9,8,120", "28,4,300"]);
        assert_eq!(&lines[4..7], ["be]ta", "alpha", "-1"]);
        assert!(p.contains("result: alpha (White) wins"), "{p}");
    }

    #[test]
    fn dates() {
        assert_eq!(utc_date(UNIX_EPOCH), "1970-01-01");
        let t = UNIX_EPOCH + Duration::from_secs(1_709_164_800); // 2024-02-29
        assert_eq!(utc_date(t), "2024-02-29");
    }
}
