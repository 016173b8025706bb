//! Opening suites: reading them, checking them against the board, and ordering them.
//!
//! A suite file holds one opening a line, in either of two forms (told apart per line: a line
//! with a letter is a move string):
//! - offsets from the centre, `dx,dy, dx,dy, ...`: the point is `x = dx + width/2`,
//!   `y = dy + height/2` (integer division; (0,0) is the top-left corner, x the column), as in
//!   the Gomocup suites;
//! - a move string, `h8i9j10`: letter-number names as `wuzi-protocol` writes them (column
//!   letter from `a`, row number from 1 at the top).
//!
//! In both, moves alternate from Black. Empty lines and lines starting with `#` are skipped.
//!
//! Invariant: an [`Opening`] that [`Opening::points`] accepted for a board places only empty,
//! on-board points, does not end the game (no five, no renju forbidden move) and leaves at
//! least one empty point.

use std::path::{Path, PathBuf};

use thiserror::Error;
use wuzi_core::rng::Rng;
use wuzi_core::{Board, Point, Rule};

#[derive(Debug, Error, PartialEq, Eq)]
pub enum OpeningError {
    #[error("cannot read opening file {path}: {message}")]
    Read { path: String, message: String },
    #[error("{label}: {message}")]
    Bad { label: String, message: String },
    #[error("opening file {path} holds no opening")]
    Empty { path: String },
    #[error(
        "no opening file or suite named \"{name}\" (looked in: {looked}; suites there: {known})"
    )]
    NotFound {
        name: String,
        looked: String,
        known: String,
    },
}

/// The moves of an opening as written.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Moves {
    /// Offsets from the centre.
    Offsets(Vec<(i32, i32)>),
    /// Absolute points.
    Points(Vec<Point>),
}

/// One opening: where it came from and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `file:line`, or the text itself for an opening given on the command line.
    pub label: String,
    /// The line as written (trimmed).
    pub text: String,
    moves: Moves,
}

impl Opening {
    /// Reads one line in either form; `label` names it in errors.
    pub fn parse(text: &str, label: &str) -> Result<Opening, OpeningError> {
        let bad = |message: String| OpeningError::Bad {
            label: label.to_string(),
            message,
        };
        let text = text.trim();
        let moves = if text.chars().any(|c| c.is_ascii_alphabetic()) {
            Moves::Points(wuzi_core::notation::parse_moves(text).map_err(|e| bad(e.to_string()))?)
        } else {
            let numbers = text
                .split(',')
                .map(|n| n.trim().parse::<i32>())
                .collect::<Result<Vec<i32>, _>>()
                .map_err(|_| bad(format!("\"{text}\" is not a list of dx,dy offsets")))?;
            if numbers.len() % 2 != 0 {
                return Err(bad(
                    "an odd count of numbers: offsets come in dx,dy pairs".into()
                ));
            }
            Moves::Offsets(numbers.chunks(2).map(|c| (c[0], c[1])).collect())
        };
        Ok(Opening {
            label: label.to_string(),
            text: text.to_string(),
            moves,
        })
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        match &self.moves {
            Moves::Offsets(v) => v.len(),
            Moves::Points(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The opening's points on a board of this size and rule, checked (see the module
    /// invariant).
    pub fn points(&self, width: usize, height: usize, rule: Rule) -> Result<Vec<Point>, String> {
        let raw: Vec<Option<Point>> = match &self.moves {
            Moves::Offsets(v) => v
                .iter()
                .map(|&(dx, dy)| {
                    let x = i64::from(dx) + (width / 2) as i64;
                    let y = i64::from(dy) + (height / 2) as i64;
                    let ok = (0..width as i64).contains(&x) && (0..height as i64).contains(&y);
                    ok.then(|| Point::new(x as u8, y as u8))
                })
                .collect(),
            Moves::Points(v) => v
                .iter()
                .map(|&p| ((p.x as usize) < width && (p.y as usize) < height).then_some(p))
                .collect(),
        };
        let mut board = Board::new(width, height, rule).map_err(|e| e.to_string())?;
        let mut points = Vec::with_capacity(raw.len());
        for (i, p) in raw.into_iter().enumerate() {
            let n = i + 1;
            let p = p.ok_or_else(|| format!("move {n} is off the {width}x{height} board"))?;
            board
                .play(p)
                .map_err(|_| format!("move {n} ({p}) is on an occupied point"))?;
            if board.winner().is_some() {
                return Err(format!("move {n} ({p}) ends the game under {rule}"));
            }
            points.push(p);
        }
        if board.is_full() {
            return Err("the opening fills the board".into());
        }
        Ok(points)
    }
}

/// The folders where a suite may be named by its short name (`freestyle15-gomocup2025`), in
/// the order they are tried: `$WUZI_DATA/openings`; `data/openings` and `openings` beside the
/// running binary (an installed copy ships its suites there); and the `data/openings` folder of
/// the source tree the binary was built from.
pub fn suite_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(root) = std::env::var_os("WUZI_DATA") {
        dirs.push(PathBuf::from(root).join("openings"));
    }
    if let Some(exe_dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        dirs.push(exe_dir.join("data").join("openings"));
        dirs.push(exe_dir.join("openings"));
    }
    dirs.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/openings"));
    dirs
}

/// Finds a suite: `arg` itself when it is a file, else a bare name (with or without `.txt`)
/// looked up in [`suite_dirs`]. A name that is not found is an error that lists where it
/// looked and which suites exist there, so a typo is easy to see.
pub fn resolve_suite(arg: &Path) -> Result<PathBuf, OpeningError> {
    if arg.is_file() {
        return Ok(arg.to_path_buf());
    }
    let name = arg.to_string_lossy().into_owned();
    let bare = arg.components().count() == 1 && !name.contains(['/', '\\']);
    let dirs = suite_dirs();
    if bare {
        for dir in &dirs {
            for candidate in [dir.join(&name), dir.join(format!("{name}.txt"))] {
                if candidate.is_file() {
                    return Ok(candidate);
                }
            }
        }
    }
    let mut known: Vec<String> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let file = e.file_name().to_string_lossy().into_owned();
            file.strip_suffix(".txt").map(str::to_string)
        })
        .collect();
    known.sort();
    known.dedup();
    Err(OpeningError::NotFound {
        name,
        looked: dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        known: if known.is_empty() {
            "none".into()
        } else {
            known.join(", ")
        },
    })
}

/// Reads a suite file. Every line must parse; the suite must not be empty.
pub fn load_suite(path: &Path) -> Result<Vec<Opening>, OpeningError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| OpeningError::Read {
        path: shown.clone(),
        message: e.to_string(),
    })?;
    let name = path
        .file_name()
        .map_or(shown.clone(), |n| n.to_string_lossy().into_owned());
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        out.push(Opening::parse(line, &format!("{name}:{}", i + 1))?);
    }
    if out.is_empty() {
        return Err(OpeningError::Empty { path: shown });
    }
    Ok(out)
}

/// Checks every opening of a suite against the board; the first failure is the error.
pub fn check_suite(
    suite: &[Opening],
    width: usize,
    height: usize,
    rule: Rule,
) -> Result<(), OpeningError> {
    for o in suite {
        o.points(width, height, rule)
            .map_err(|message| OpeningError::Bad {
                label: o.label.clone(),
                message,
            })?;
    }
    Ok(())
}

/// In which order the openings are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// As in the file.
    Sequential,
    /// Shuffled with the seed.
    Random,
}

/// The order of `n` openings: `0..n`, or a seeded shuffle of it (the project's generator,
/// `wuzi_core::rng`, drawn as `next % (i + 1)` from the last place down: this exact sequence
/// is what existing schedules, and the results files that resume them, were made with).
pub fn arrange(n: usize, order: Order, seed: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    if order == Order::Random {
        // Fisher-Yates with remainder draws: the order a seed gives stays the same.
        let mut rng = Rng::new(seed);
        for i in (1..n).rev() {
            let j = rng.below_by_remainder(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_are_from_the_centre() {
        let o = Opening::parse("0,0, 1,0, -1,3", "t").unwrap();
        assert_eq!(o.len(), 3);
        let p = o.points(15, 15, Rule::Freestyle).unwrap();
        assert_eq!(
            p,
            vec![Point::new(7, 7), Point::new(8, 7), Point::new(6, 10)]
        );
        // Rectangular: x from width/2, y from height/2.
        let p = o.points(20, 11, Rule::Freestyle).unwrap();
        assert_eq!(p[0], Point::new(10, 5));
    }

    #[test]
    fn move_strings_are_absolute() {
        let o = Opening::parse("h8i9", "t").unwrap();
        let p = o.points(15, 15, Rule::Renju).unwrap();
        assert_eq!(p, vec![Point::new(7, 7), Point::new(8, 8)]);
    }

    #[test]
    fn bad_openings_are_refused() {
        assert!(Opening::parse("0,0, 1", "t").is_err());
        assert!(Opening::parse("0,0, x,1", "t").is_err());
        let off = Opening::parse("8,0", "t").unwrap();
        assert!(off.points(15, 15, Rule::Freestyle).is_err());
        let dup = Opening::parse("0,0, 1,1, 0,0", "t").unwrap();
        assert!(dup.points(15, 15, Rule::Freestyle).is_err());
        // Black makes five in the opening: refused.
        let five = Opening::parse("a1b5a2b6a3b7a4b8a5", "t").unwrap();
        let e = five.points(15, 15, Rule::Freestyle).unwrap_err();
        assert!(e.contains("ends the game"), "{e}");
    }

    #[test]
    fn the_carried_suites_load_and_fit_their_boards() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/openings");
        for (file, size, rule, count) in [
            ("freestyle15-gomocup2024.txt", 15, Rule::Freestyle, 12),
            ("freestyle20-gomocupjudge.txt", 20, Rule::Freestyle, 6),
            ("any-size-piskvork.txt", 20, Rule::Freestyle, 41),
            ("renju15-katagomo-balanced200.txt", 15, Rule::Renju, 200),
        ] {
            let suite = load_suite(&dir.join(file)).unwrap();
            assert_eq!(suite.len(), count, "{file}");
            check_suite(&suite, size, size, rule).unwrap();
        }
    }

    #[test]
    fn suites_are_found_by_short_name_or_path() {
        let by_name = resolve_suite(Path::new("freestyle15-gomocup2025")).unwrap();
        assert!(
            by_name.ends_with("freestyle15-gomocup2025.txt"),
            "{by_name:?}"
        );
        assert_eq!(load_suite(&by_name).unwrap().len(), 12);
        let with_ext = resolve_suite(Path::new("renju15-katagomo-balanced200.txt")).unwrap();
        assert_eq!(load_suite(&with_ext).unwrap().len(), 200);
        // A path is taken as it is.
        assert_eq!(resolve_suite(&by_name).unwrap(), by_name);
        let e = resolve_suite(Path::new("freestyle15-gomocup1999")).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("freestyle15-gomocup2025"), "{text}");
        // A path that does not exist is not looked up by name.
        assert!(matches!(
            resolve_suite(Path::new("no/such/freestyle15-gomocup2025")),
            Err(OpeningError::NotFound { .. })
        ));
    }

    #[test]
    fn random_order_is_a_seeded_permutation() {
        let a = arrange(50, Order::Random, 7);
        let b = arrange(50, Order::Random, 7);
        let c = arrange(50, Order::Random, 8);
        assert_eq!(a, b);
        assert_ne!(a, c);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_eq!(arrange(4, Order::Sequential, 7), vec![0, 1, 2, 3]);
        // The order every earlier schedule of seed 7 had (SplitMix64 from the seed).
        assert_eq!(
            arrange(12, Order::Random, 7),
            vec![10, 11, 5, 1, 7, 4, 8, 2, 9, 6, 0, 3]
        );
    }
}
