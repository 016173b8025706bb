//! The argument module: the one home of every reader of an argument's value. Each returns
//! the value or a one-line error naming the bad text, and is given to clap as a
//! `value_parser`, so a bad value is refused before anything runs.
//!
//! - durations ([`parse_duration`]): `500ms`, `2s`, `1.5s`, `1m`; a bare number is
//!   milliseconds (the meaning every time flag of the tool documents). Every time flag takes
//!   this one type, with one name per meaning: `--turn-time`, `--match-time` and `--tolerance` for
//!   a match's clock, `--time` for the budget of `analyze`, `bench` and `solve`;
//! - board sizes ([`parse_size`], the notation's reader in `wuzi-core`): `15`, `20x15`;
//! - byte counts ([`parse_bytes`]): `367001600`, `350M`;
//! - engine specs ([`parse_engine_spec`], [`parse_each`]) for `match` and `tournament`;
//! - split depths ([`parse_split_depth`]) for `bench`.
//!
//! Values whose concept lives in a lower crate are read by that crate's function, the same
//! one `pbrain-wuzi` uses: rule names by `Rule`'s `FromStr` (`wuzi-core`), evaluations by
//! `EvalChoice::from_arg` (`wuzi-eval`), and thread counts (0: one per available core) by
//! `wuzi_search::resolve_threads`, the one thread-count rule.

use std::path::PathBuf;
use std::time::Duration;

use wuzi_match::engine::{default_name, EngineSpec};

/// Board sizes are read by the notation's reader, as results files write them.
pub use wuzi_core::notation::parse_size;

/// Whether an engine spec names `key` itself (then a default it would get is not applied).
pub fn has_key(text: &str, key: &str) -> bool {
    split_items(text).is_ok_and(|items| {
        items
            .iter()
            .any(|i| i.split_once('=').is_some_and(|(k, _)| k.trim() == key))
    })
}

/// Splits at unescaped commas; `\,` is a comma and `\\` a backslash inside an item.
fn split_items(text: &str) -> Result<Vec<String>, String> {
    let mut items = vec![String::new()];
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(e @ (',' | '\\')) => items.last_mut().map_or((), |s| s.push(e)),
                _ => {
                    return Err(format!(
                        "in \"{text}\": a backslash must come before , or \\"
                    ))
                }
            },
            ',' => items.push(String::new()),
            c => items.last_mut().map_or((), |s| s.push(c)),
        }
    }
    Ok(items.into_iter().filter(|s| !s.trim().is_empty()).collect())
}

/// An `option.KEY` item's key, checked to be one word.
fn option_key(key: &str, text: &str) -> Result<Option<String>, String> {
    let Some(k) = key.strip_prefix("option.") else {
        return Ok(None);
    };
    if k.is_empty() || k.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(format!(
            "in \"{text}\": \"{key}\" needs a one-word option name"
        ));
    }
    Ok(Some(k.to_string()))
}

fn check_value(value: &str, text: &str) -> Result<String, String> {
    if value.chars().any(char::is_control) {
        return Err(format!("in \"{text}\": a value holds a control character"));
    }
    Ok(value.to_string())
}

/// Reads an engine spec (see the `--help` text).
pub fn parse_engine_spec(text: &str) -> Result<EngineSpec, String> {
    let mut cmd: Option<String> = None;
    let mut spec = EngineSpec::new("");
    let mut name: Option<String> = None;
    for (i, item) in split_items(text)?.into_iter().enumerate() {
        let (key, value) = match item.split_once('=') {
            Some((k, v)) => (k.trim().to_string(), v.to_string()),
            None if i == 0 => ("cmd".to_string(), item.clone()),
            None => return Err(format!("in engine \"{text}\": \"{item}\" is not key=value")),
        };
        let value = check_value(&value, text)?;
        let once = |slot: &mut Option<String>| {
            if slot.is_some() {
                return Err(format!("in engine \"{text}\": {key} given twice"));
            }
            *slot = Some(value.clone());
            Ok(())
        };
        match key.as_str() {
            "cmd" => once(&mut cmd)?,
            "name" => once(&mut name)?,
            "dir" => {
                let mut dir = spec.dir.take().map(|d| d.display().to_string());
                once(&mut dir)?;
                spec.dir = dir.map(PathBuf::from);
            }
            "arg" => spec.args.push(value),
            _ => match option_key(&key, text)? {
                Some(k) => spec.options.push((k, value)),
                None => {
                    return Err(format!(
                    "in engine \"{text}\": unknown key \"{key}\" (cmd, arg, dir, name, option.KEY)"
                ))
                }
            },
        }
    }
    let cmd = cmd
        .filter(|c| !c.trim().is_empty())
        .ok_or_else(|| format!("engine \"{text}\" has no cmd=PROGRAM"))?;
    spec.name = name
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| default_name(&cmd));
    spec.cmd = cmd;
    Ok(spec)
}

/// Reads `--each`: `option.KEY=VALUE` items for every engine.
pub fn parse_each(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut out = Vec::new();
    for item in split_items(text)? {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("in --each \"{text}\": \"{item}\" is not option.KEY=VALUE"))?;
        let key = option_key(key.trim(), text)?.ok_or_else(|| {
            format!("in --each \"{text}\": only option.KEY=VALUE items are allowed")
        })?;
        out.push((key, check_value(value, text)?));
    }
    Ok(out)
}

/// A time: `500ms`, `2s`, `1.5s`, `1m`, or a bare number of milliseconds (`250`).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || {
        format!("\"{text}\" is not a time (e.g. 500ms, 1.5s, 2m; a bare number is milliseconds)")
    };
    let (number, scale_ms) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = t.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        (t.as_str(), 1.0)
    };
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    let ms = v * scale_ms;
    if !(0.0..=1e12).contains(&ms) {
        return Err(bad());
    }
    Ok(Duration::from_micros((ms * 1000.0).round() as u64))
}

/// `367001600`, `350M`, `512K`, `1G` (binary multiples).
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim().to_ascii_uppercase();
    let t = t
        .strip_suffix("IB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(&t)
        .to_string();
    let (digits, mult) = match t.chars().last() {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t.as_str(), 1),
    };
    digits
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(|v| v.checked_mul(mult))
        .ok_or_else(|| format!("\"{text}\" is not a byte count (e.g. 367001600 or 350M)"))
}

/// `--split-depth PV,OTHER[,IDLE]`: each at least 3 (a split node prunes by move count
/// only); IDLE, the depth from which any node splits while a thread is idle, defaults to 4.
pub fn parse_split_depth(text: &str) -> Result<wuzi_search::SplitDepth, String> {
    let parts: Vec<&str> = text.split(',').collect();
    let (pv, other, idle) = match parts[..] {
        [pv, other] => (pv, other, None),
        [pv, other, idle] => (pv, other, Some(idle)),
        _ => {
            return Err(format!(
                "{text:?}: expected PV,OTHER or PV,OTHER,IDLE, e.g. 3,9,4"
            ))
        }
    };
    let depth = |t: &str| -> Result<i32, String> {
        match t.trim().parse::<i32>() {
            Ok(d) if (3..=100).contains(&d) => Ok(d),
            _ => Err(format!(
                "{t:?}: a split depth is a whole number from 3 to 100"
            )),
        }
    };
    Ok(wuzi_search::SplitDepth {
        pv: depth(pv)?,
        other: depth(other)?,
        idle: match idle {
            Some(idle) => depth(idle)?,
            None => wuzi_search::SplitDepth::default().idle,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_specs() {
        let s = parse_engine_spec(
            "cmd=./bin/pbrain-x,arg=-v,arg=a\\,b,dir=/tmp,name=X,option.thread_num=2",
        )
        .unwrap();
        assert_eq!(s.cmd, "./bin/pbrain-x");
        assert_eq!(s.args, vec!["-v", "a,b"]);
        assert_eq!(s.dir, Some(PathBuf::from("/tmp")));
        assert_eq!(s.name, "X");
        assert_eq!(s.options, vec![("thread_num".to_string(), "2".to_string())]);
        let s = parse_engine_spec("./pbrain-y,option.hash_size=1024").unwrap();
        assert_eq!(
            (s.cmd.as_str(), s.name.as_str()),
            ("./pbrain-y", "pbrain-y")
        );
        for bad in [
            "",
            "name=X",
            "cmd=a,cmd=b",
            "cmd=a,colour=red",
            "cmd=a,option.=1",
            "cmd=a,option.two words=1",
            "cmd=a,stray",
            "cmd=a\\x",
        ] {
            assert!(parse_engine_spec(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn times_and_bytes() {
        assert_eq!(parse_duration("250"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse_duration("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse_duration(" 2S "), Ok(Duration::from_secs(2)));
        assert_eq!(parse_duration("1m"), Ok(Duration::from_secs(60)));
        assert_eq!(parse_duration("0"), Ok(Duration::ZERO));
        for bad in ["", "-1", "1h", "abc", "nan", "1e20"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_bytes("350M"), Ok(367_001_600));
        assert_eq!(parse_bytes("350MiB"), Ok(367_001_600));
        assert_eq!(parse_bytes("0"), Ok(0));
        assert!(parse_bytes("12Q").is_err());
        assert!(parse_bytes("99999999999G").is_err());
    }

    #[test]
    fn split_depths_are_two_or_three_depths_from_3() {
        let d = parse_split_depth("3,7").expect("valid");
        assert_eq!((d.pv, d.other, d.idle), (3, 7, 4));
        let d = parse_split_depth(" 4 , 100 ").expect("spaces are fine");
        assert_eq!((d.pv, d.other), (4, 100));
        let d = parse_split_depth("3,7,5").expect("valid");
        assert_eq!((d.pv, d.other, d.idle), (3, 7, 5));
        for bad in ["3", "2,7", "3,101", "a,7", "3,7,2", "3,7,4,4", "3,7,", ""] {
            assert!(parse_split_depth(bad).is_err(), "{bad:?}");
        }
    }
}
