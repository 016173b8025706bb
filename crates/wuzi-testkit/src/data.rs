//! The repository's `data/` folder: what the tests read (see `data/README.md` for each file's
//! origin and format). Paths are fixed at compile time from this crate's place in the
//! workspace, so a test finds the data from any working directory, and never outside the
//! repository.

use std::path::PathBuf;

/// The `data/` folder of the repository.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data")
}

/// `data/<rel>`.
pub fn data(rel: &str) -> PathBuf {
    data_dir().join(rel)
}

/// The text of `data/<rel>`; panics with the path when it cannot be read.
pub fn read_data(rel: &str) -> String {
    let path = data(rel);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The opening suites the repository carries.
pub fn openings_dir() -> PathBuf {
    data("openings")
}

/// The string `key` of a JSON object of a data file; panics naming the key when it is missing.
pub(crate) fn text<'a>(object: &'a serde_json::Value, key: &str) -> &'a str {
    object[key]
        .as_str()
        .unwrap_or_else(|| panic!("field {key:?} missing"))
}
