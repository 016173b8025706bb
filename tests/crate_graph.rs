//! The crate table of `docs/architecture.md` against the manifests: for every workspace crate,
//! the crates its "knows" column names must be exactly the workspace crates it depends on
//! (normal dependencies, as `cargo metadata` reports them), and the table must list every
//! workspace library crate. A dependency added or dropped without the drawing fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// Workspace crate name -> the workspace crates it depends on (normal dependencies only).
fn manifest_graph() -> BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
    let packages = meta["packages"].as_array().expect("packages");
    let names: BTreeSet<String> = packages
        .iter()
        .filter_map(|p| p["name"].as_str().map(str::to_string))
        .collect();
    let mut graph = BTreeMap::new();
    for p in packages {
        let name = p["name"].as_str().expect("name").to_string();
        let deps = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            // `kind` is null for normal dependencies, "dev" or "build" otherwise.
            .filter(|d| d["kind"].is_null())
            .filter_map(|d| d["name"].as_str())
            .filter(|d| names.contains(*d))
            .map(str::to_string)
            .collect();
        graph.insert(name, deps);
    }
    graph
}

/// Removes every parenthesised aside, so that commas inside one do not split items.
fn without_asides(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// The table's rows: crate name -> the crates its "knows" column names (`core` is
/// `wuzi-core`; "nothing of the others" is none; what follows a `;` is a remark).
fn drawn_graph() -> BTreeMap<String, BTreeSet<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md");
    let text = std::fs::read_to_string(path).expect("docs/architecture.md");
    let mut graph = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("| `wuzi-")) {
        let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
        assert_eq!(cells.len(), 3, "a crate row has three cells: {line}");
        let name = cells[0]
            .split('`')
            .nth(1)
            .expect("the crate name in backquotes")
            .to_string();
        let knows = without_asides(cells[2]);
        let knows = knows.split(';').next().unwrap_or("").trim();
        let deps = if knows.starts_with("nothing") {
            BTreeSet::new()
        } else {
            knows
                .split(',')
                .map(|k| format!("wuzi-{}", k.trim()))
                .collect()
        };
        graph.insert(name, deps);
    }
    graph
}

#[test]
fn the_architecture_table_draws_the_manifests() {
    let manifests = manifest_graph();
    let drawn = drawn_graph();
    assert!(
        !drawn.is_empty(),
        "no crate rows found in docs/architecture.md"
    );
    for (name, deps) in &manifests {
        if name == "wuzi" {
            // The root package (binaries and tests) is described in prose under the table.
            continue;
        }
        let Some(drawn_deps) = drawn.get(name) else {
            panic!("docs/architecture.md has no row for the workspace crate {name}");
        };
        assert_eq!(
            drawn_deps, deps,
            "{name}: docs/architecture.md says it knows {drawn_deps:?}, its manifest {deps:?}"
        );
    }
    for name in drawn.keys() {
        assert!(
            manifests.contains_key(name),
            "docs/architecture.md has a row for {name}, which is no workspace crate"
        );
    }
}

#[test]
fn asides_and_remarks_are_not_crates() {
    assert_eq!(
        without_asides("core, show (reading, writing), search"),
        "core, show , search"
    );
}
