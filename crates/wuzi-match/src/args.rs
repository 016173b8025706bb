//! Reading the values of `wuzi match` arguments: engine specs (`cmd=..,arg=..,dir=..,
//! name=..,option.KEY=VALUE`, with `\\,` and `\\\\` escapes), `--each` options, board sizes,
//! times and byte counts. Each reader returns the value or a one-line error naming the bad
//! text.

use std::path::PathBuf;
use std::time::Duration;

use wuzi_core::Rule;

use crate::engine::{default_name, EngineSpec};

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

pub fn has_key(text: &str, key: &str) -> bool {
    split_items(text).is_ok_and(|items| {
        items
            .iter()
            .any(|i| i.split_once('=').is_some_and(|(k, _)| k.trim() == key))
    })
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

/// `15`, `20x15`, `20X15` or `20,15`.
pub fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("\"{text}\" is not a board size (N or WxH, each 5..=32)");
    let (w, h) = match t.split_once(['x', ',']) {
        Some((w, h)) => (
            w.trim().parse().map_err(|_| bad())?,
            h.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = t.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    let ok = |v: usize| (wuzi_core::MIN_SIZE..=wuzi_core::MAX_SIZE).contains(&v);
    if ok(w) && ok(h) {
        Ok((w, h))
    } else {
        Err(bad())
    }
}

pub fn parse_rule(text: &str) -> Result<Rule, String> {
    text.parse()
}

/// `250` (ms), `250ms`, `1.5s`, `2m`.
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let bad = || format!("\"{text}\" is not a time (e.g. 500, 500ms, 1.5s, 2m)");
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
    fn sizes_times_and_bytes() {
        assert_eq!(parse_size("15"), Ok((15, 15)));
        assert_eq!(parse_size("20x15"), Ok((20, 15)));
        assert_eq!(parse_size("20,15"), Ok((20, 15)));
        for bad in ["4", "33", "x", "15x", "-15"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_duration("250"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse_duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse_duration("2m"), Ok(Duration::from_secs(120)));
        for bad in ["", "-1", "1h", "abc", "nan", "1e20"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_bytes("350M"), Ok(367_001_600));
        assert_eq!(parse_bytes("350MiB"), Ok(367_001_600));
        assert_eq!(parse_bytes("0"), Ok(0));
        assert!(parse_bytes("12Q").is_err());
        assert!(parse_bytes("99999999999G").is_err());
    }
}
