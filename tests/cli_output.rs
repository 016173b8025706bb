//! The `wuzi` tool's output when its reader goes away: a pipe closed early ends it quietly.

use std::process::{Command, Stdio};

/// A reader that stops reading (`wuzi bench | head`) ends `wuzi` quietly: exit code 0, no
/// panic message.
#[test]
fn a_closed_output_ends_the_tool_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(["bench", "--depth", "3"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start wuzi");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait for wuzi");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(out.status.success(), "{:?}: {stderr}", out.status);
}
