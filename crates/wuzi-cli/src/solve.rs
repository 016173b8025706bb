//! `wuzi solve`: its arguments and its printing. The solving itself is
//! `wuzi_search::solve`.
//!
//! Exit status of [`run`]: 0 when a win was found, 1 when none was (proved absent or budget
//! spent), 2 for bad input. Nothing here panics on user input.

use crate::args::parse_duration;
use crate::position::{PositionArgs, PositionError};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::Duration;
use wuzi_core::notation::{format_moves, Position};
use wuzi_core::{Color, Point};
use wuzi_search::solve::{line_holds, solve, SolveKind, SolveRequest};
use wuzi_search::threat::SolveResult;
use wuzi_search::vcf::UNLIMITED;

/// The arguments of `wuzi solve`.
#[derive(Args, Debug, Clone)]
#[command(
    after_help = "Points are a column letter from `a` at the left and a row number \
from 1 at the top (h8 is the centre of 15x15). A position file holds either a move list or \
a diagram: one board row a line, top row first, `x` Black, `o` White, `.` empty (spaces \
ignored); the side to move is then Black if both have as many stones, else White."
)]
pub struct SolveArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Search a VCF: continuous fours (the default).
    #[arg(long, conflicts_with = "vct")]
    pub vcf: bool,
    /// Search a VCT: fours and threats (open threes and the like).
    #[arg(long)]
    pub vct: bool,
    /// The most attacker moves before the final five (default: unlimited for VCF, 10 for VCT).
    #[arg(long)]
    pub depth: Option<u32>,
    /// VCT: the longest VCF (in fours) that makes a move a threat (1: open threes and the
    /// like; 2 adds moves preparing a four-three; ...).
    #[arg(long, default_value_t = 2)]
    pub threat_depth: u32,
    /// VCT: find a shortest win (iterative-deepening depth-first search) instead of using
    /// proof numbers (usually much faster on long lines, but the line may be longer).
    #[arg(long)]
    pub shortest: bool,
    /// Give up after this long: 500ms, 2s, 1m; a bare number is milliseconds.
    #[arg(long, value_name = "TIME", value_parser = parse_duration, alias = "time-ms")]
    pub time: Option<Duration>,
    /// Give up after this many nodes.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Who attacks (default: the side to move).
    #[arg(long, value_enum)]
    pub attacker: Option<Side>,
    /// Also draw the position and the winning line (numbered ghost stones) as SVG here.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Side {
    Black,
    White,
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// Builds the position the arguments describe.
pub fn position(args: &SolveArgs) -> Result<Position, PositionError> {
    args.position.read()
}

/// The solve the arguments ask for.
pub fn request(args: &SolveArgs) -> SolveRequest {
    let kind = if args.vct {
        SolveKind::Vct {
            threat_depth: args.threat_depth,
            shortest: args.shortest,
        }
    } else {
        SolveKind::Vcf
    };
    SolveRequest {
        kind,
        attacker: args.attacker.map(Color::from),
        depth: args.depth,
        time: args.time,
        nodes: args.nodes,
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// Runs `wuzi solve`: prints the verdict, the line, nodes and time; returns the exit status.
pub fn run(args: &SolveArgs) -> u8 {
    let pos = match position(args) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("wuzi solve: {e}");
            return 2;
        }
    };
    let report = solve(&request(args), &pos);
    let kind = if report.vct { "VCT" } else { "VCF" };
    let depth = if report.depth >= UNLIMITED {
        "unlimited".to_string()
    } else {
        report.depth.to_string()
    };
    println!(
        "{kind} for {} ({} {}x{}, {} to move, depth {depth}{})",
        color_name(report.attacker),
        pos.board.rule(),
        pos.board.width(),
        pos.board.height(),
        color_name(pos.to_move),
        if report.vct {
            format!(", threat depth {}", args.threat_depth)
        } else {
            String::new()
        }
    );
    let status = match &report.result {
        SolveResult::Win(line) => {
            let points: Vec<Point> = line.iter().map(|&c| pos.board.point(c)).collect();
            let attacker_moves = points.len().div_ceil(2);
            println!("verdict: {} wins", color_name(report.attacker));
            println!("line: {}", format_moves(&points));
            println!(
                "      ({} plies, {attacker_moves} attacker moves; attacker first)",
                points.len()
            );
            if !line_holds(&pos.board, report.attacker, &points) {
                eprintln!("wuzi solve: internal error: the line does not play out to a win");
                return 2;
            }
            if let Some(path) = &args.svg {
                let drawn = crate::show::position_svg(&pos.board, &points, report.attacker)
                    .and_then(|text| crate::show::write_out(Some(path), &text));
                if let Err(e) = drawn {
                    eprintln!("wuzi solve: {e}");
                    return 2;
                }
            }
            0
        }
        SolveResult::NoWin => {
            println!("verdict: no {kind} within depth {depth}");
            1
        }
        SolveResult::Unknown => {
            println!("verdict: unknown (the node or time budget ran out)");
            1
        }
    };
    println!("nodes: {}", report.nodes);
    println!("time: {:.1} ms", report.elapsed.as_secs_f64() * 1e3);
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> SolveArgs {
        crate::parse_test_args("solve", list)
    }

    #[test]
    fn four_three_is_found_from_a_move_list() {
        // Black h8 i8 j8 (row 8 from the top) with White g8 closing the left end, Black k6
        // and k7 above k8: k8 is a four-three. White's other stones are far away.
        let a = args(&["h8a1i8a15j8o1k6o15k7g8", "--rule", "standard"]);
        let pos = position(&a).expect("position");
        assert_eq!(pos.to_move, Color::Black);
        let report = solve(&request(&a), &pos);
        let SolveResult::Win(line) = &report.result else {
            panic!("expected a win, got {:?}", report.result);
        };
        let points: Vec<Point> = line.iter().map(|&c| pos.board.point(c)).collect();
        assert!(line_holds(&pos.board, Color::Black, &points));
        assert_eq!(run(&a), 0);
        let dir = wuzi_testkit::scratch(std::env::temp_dir(), "solve");
        let path = dir.join("line.svg");
        let p = path.display().to_string();
        let a = args(&["h8a1i8a15j8o1k6o15k7g8", "--rule", "standard", "--svg", &p]);
        assert_eq!(run(&a), 0);
        let text = std::fs::read_to_string(&path).expect("svg written");
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(text.matches("class=\"stone\"").count(), 10);
        assert_eq!(text.matches("class=\"ghost\"").count(), points.len());
    }

    #[test]
    fn double_three_is_a_vct_not_a_vcf() {
        // Black f8 g8 (row) and h6 h7 (column) meet at h8: two open threes at once.
        let moves = "f8a1g8a15h6o1h7o15";
        for extra in [&[][..], &["--shortest"][..]] {
            let mut list = vec![moves, "--vct", "--threat-depth", "1"];
            list.extend_from_slice(extra);
            let a = args(&list);
            let pos = position(&a).expect("position");
            let report = solve(&request(&a), &pos);
            if a.shortest {
                // The only win with two attacker moves.
                assert_eq!(report.result.first_move(), pos.board.cell(Point::new(7, 7)));
            }
            assert!(report.result.is_win());
            assert_eq!(run(&a), 0);
        }
        assert_eq!(run(&args(&[moves, "--vcf"])), 1);
    }

    #[test]
    fn the_time_limit_reads_durations_and_its_old_spelling() {
        assert_eq!(
            args(&["h8", "--time", "1.5s"]).time,
            Some(Duration::from_millis(1500))
        );
        assert_eq!(
            args(&["h8", "--time-ms", "250"]).time,
            Some(Duration::from_millis(250))
        );
        assert_eq!(args(&["h8"]).time, None);
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        for bad in [
            vec!["h8h8"],
            vec!["zz99"],
            vec!["h8", "--width", "3"],
            vec!["q1", "--size", "9"],
        ] {
            let a = args(&bad);
            assert!(position(&a).is_err(), "{bad:?}");
            assert_eq!(run(&a), 2, "{bad:?}");
        }
        assert_eq!(position(&args(&[])).err(), Some(PositionError::NoPosition));
        for bad in [&["h8", "--size", "3"][..], &["h8", "--time", "soon"]] {
            assert!(
                crate::try_parse_test_args::<SolveArgs>("solve", bad).is_err(),
                "{bad:?}"
            );
        }
    }
}
