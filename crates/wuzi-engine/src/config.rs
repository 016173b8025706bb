//! The settings file beside the binary: the defaults of an engine that managers start with
//! no arguments (GomocupJudge and piskvork never send `thread_num`).
//!
//! The file is named after the executable with `.toml` (`pbrain-wuzi.toml` beside
//! `pbrain-wuzi`), holds `key = value` lines without sections, and may set:
//!
//! | key | value | as |
//! |---|---|---|
//! | `threads` | whole number >= 0 (0: one per core) | `--threads`, `INFO thread_num` |
//! | `hash_mb` | whole number >= 0 (MiB; 0: the default) | `INFO hash_size` |
//! | `eval` | `"auto"`, `"classic"`, `"learned"` or a weights file | `--eval` |
//! | `pondering` | `true` or `false` | `INFO pondering` |
//! | `show_detail` | 0 to 3 | `INFO show_detail` |
//! | `strength` | 0 to 100 | `INFO strength` |
//!
//! Invariants: a missing file is no error (the built-in defaults); a file that cannot be
//! read, is not TOML, or holds an unknown key or a bad value is refused whole, with one
//! message naming the first fault, and the built-in defaults are used; nothing here panics.
//! Precedence, lowest first: built-in defaults, this file, command-line flags, protocol
//! commands.

use std::path::{Path, PathBuf};

use toml_edit::{DocumentMut, Item, Value};
use wuzi_eval::eval::EvalChoice;

/// What the settings file sets (`None`: left at the built-in default).
#[derive(Clone, Debug, Default)]
pub struct FileSettings {
    pub threads: Option<u64>,
    pub hash_kb: Option<u64>,
    pub eval: Option<EvalChoice>,
    pub pondering: Option<bool>,
    pub show_detail: Option<u64>,
    pub strength: Option<u64>,
}

/// The settings file of the running executable: its name with `.toml`, in its folder.
pub fn path_beside_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let stem = exe.file_stem()?.to_owned();
    let mut name = stem;
    name.push(".toml");
    Some(exe.with_file_name(name))
}

/// Reads the settings file at `path`. `Ok(None)` when there is none; `Err` with a one-line
/// reason when it is refused.
pub fn read(path: &Path) -> Result<Option<FileSettings>, String> {
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot read it: {e}")),
    };
    let text = String::from_utf8(text).map_err(|_| "it is not UTF-8 text".to_string())?;
    let folder = path.parent().unwrap_or(Path::new("."));
    parse(&text, folder).map(Some)
}

/// Reads the text of a settings file; relative weights paths are taken from `folder`.
pub fn parse(text: &str, folder: &Path) -> Result<FileSettings, String> {
    let doc: DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| one_line(&e.to_string()))?;
    let mut out = FileSettings::default();
    for (key, item) in doc.iter() {
        let value = match item {
            Item::Value(v) => v,
            _ => {
                return Err(format!(
                    "{key}: sections and arrays of tables are not settings"
                ))
            }
        };
        let number = |max: u64| -> Result<u64, String> {
            match value {
                Value::Integer(i) if (0..=max as i64).contains(i.value()) => Ok(*i.value() as u64),
                _ => Err(format!("{key} must be a whole number from 0 to {max}")),
            }
        };
        match key {
            "threads" => out.threads = Some(number(u64::from(u32::MAX))?),
            "hash_mb" => out.hash_kb = Some(number(16 << 10)? * 1024),
            "pondering" => match value {
                Value::Boolean(b) => out.pondering = Some(*b.value()),
                _ => return Err("pondering must be true or false".to_string()),
            },
            "show_detail" => out.show_detail = Some(number(3)?),
            "strength" => out.strength = Some(number(100)?),
            "eval" => {
                let Value::String(s) = value else {
                    return Err("eval must be a string: auto, classic, learned or a file".into());
                };
                let arg = s.value();
                let choice = match arg.as_str() {
                    "auto" | "classic" | "learned" => EvalChoice::from_arg(arg),
                    file => {
                        let path = folder.join(file);
                        EvalChoice::from_arg(&path.to_string_lossy())
                    }
                };
                out.eval = Some(choice.map_err(|e| format!("eval \"{arg}\": {e}"))?);
            }
            other => {
                return Err(format!(
                    "unknown key {other} (the keys are threads, hash_mb, eval, pondering, \
                     show_detail and strength)"
                ))
            }
        }
    }
    Ok(out)
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_key() {
        let text = "# defaults for managers\nthreads = 4\nhash_mb = 128\neval = \"classic\"\n\
                    pondering = true\nshow_detail = 3\nstrength = 60\n";
        let s = parse(text, Path::new(".")).expect("good file");
        assert_eq!(s.threads, Some(4));
        assert_eq!(s.hash_kb, Some(128 * 1024));
        assert!(matches!(s.eval, Some(EvalChoice::Classic)));
        assert_eq!(s.pondering, Some(true));
        assert_eq!(s.show_detail, Some(3));
        assert_eq!(s.strength, Some(60));
        assert!(parse("", Path::new(".")).is_ok());
    }

    #[test]
    fn refuses_damaged_files_whole_with_a_reason() {
        for (text, want) in [
            ("threads = ", "line 1"),
            ("threads = -1", "threads must be a whole number"),
            ("threads = \"two\"", "threads must be"),
            (
                "strength = 101",
                "strength must be a whole number from 0 to 100",
            ),
            ("pondering = 1", "pondering must be true or false"),
            ("colour = 1", "unknown key colour"),
            ("[engine]\nthreads = 2", "sections"),
            (
                "eval = \"no-such-weights.txt\"",
                "eval \"no-such-weights.txt\"",
            ),
            ("threads = 2\nthreads = 3", "duplicate"),
        ] {
            let e = parse(text, Path::new(".")).expect_err(text);
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains('\n'), "{e:?}");
        }
    }

    #[test]
    fn a_missing_file_is_no_error() {
        assert!(matches!(
            read(Path::new("/nonexistent/wuzi/pbrain-wuzi.toml")),
            Ok(None)
        ));
    }
}
