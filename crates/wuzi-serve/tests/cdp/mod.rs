//! A headless Chromium driven over the Chrome DevTools protocol, for the browser tests.
//!
//! The browser is started with a fresh profile under the test's scratch folder and its
//! DevTools port chosen by itself (`--remote-debugging-port=0`, read back from the profile's
//! `DevToolsActivePort`); the test talks to its one page over a WebSocket. Every read has a
//! time limit, every wait a deadline, and dropping the [`Browser`] kills the process and
//! removes the profile, a failing test included. Script exceptions and console errors of the
//! page are collected, so a test can require that there were none.
//!
//! Which browser: `chromium` or `chromium-browser` on the PATH. Without one, a test is skipped
//! with a message, unless `WUZI_BROWSER_TESTS=require` or `CI` is set (as `.ci/run` does):
//! then it fails.

#![allow(dead_code)]

use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

/// The longest a single DevTools call may take.
const CALL_LIMIT: Duration = Duration::from_secs(30);

/// The browser to run, if one is installed; panics when one is required and missing.
pub fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .flat_map(|dir| ["chromium", "chromium-browser"].map(|name| dir.join(name)))
            .find(|p| p.is_file())
    });
    let required = std::env::var("WUZI_BROWSER_TESTS").is_ok_and(|v| v == "require")
        || std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    if found.is_none() {
        assert!(
            !required,
            "the browser tests must run here, and no chromium is on the PATH (apt-get install -y chromium)"
        );
        eprintln!(
            "SKIPPED: no chromium on the PATH (apt-get install -y chromium to run the browser tests)"
        );
    }
    found
}

pub struct Browser {
    child: Child,
    profile: PathBuf,
    ws: WebSocket<TcpStream>,
    next_id: u64,
    /// Exceptions and console errors of the page, in order.
    pub errors: Vec<String>,
}

fn http_get(port: u16, path: &str) -> String {
    use std::io::{BufRead, BufReader, Read, Write};
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("DevTools HTTP");
    s.set_read_timeout(Some(CALL_LIMIT)).expect("timeout");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .expect("send");
    let mut reader = BufReader::new(s);
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return String::new();
        }
        if line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().unwrap_or(0);
            }
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("DevTools answer");
    String::from_utf8_lossy(&body).into_owned()
}

impl Browser {
    /// Starts the browser with a window of `width` x `height` CSS pixels.
    pub fn launch(chromium: &Path, scratch: &Path, width: u32, height: u32) -> Browser {
        let profile = scratch.join("profile");
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile folder");
        let child = Command::new(chromium)
            .args([
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--hide-scrollbars",
                "--mute-audio",
                "--remote-debugging-port=0",
                "--remote-allow-origins=*",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("--window-size={width},{height}"))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromium.display()));
        // From here the child is killed on drop, whatever fails next.
        let mut guard = Launching {
            child: Some(child),
            profile: profile.clone(),
        };
        let port_file = profile.join("DevToolsActivePort");
        let start = Instant::now();
        let port: u16 = loop {
            if let Ok(text) = std::fs::read_to_string(&port_file) {
                if let Some(port) = text.lines().next().and_then(|l| l.trim().parse().ok()) {
                    break port;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "chromium did not open its DevTools port within 30 s"
            );
            std::thread::sleep(Duration::from_millis(25));
        };
        let targets: Value = loop {
            let list = http_get(port, "/json/list");
            if let Ok(v) = serde_json::from_str::<Value>(&list) {
                if v.as_array()
                    .is_some_and(|a| a.iter().any(|t| t["type"] == "page"))
                {
                    break v;
                }
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no page target: {list}"
            );
            std::thread::sleep(Duration::from_millis(25));
        };
        let url = targets
            .as_array()
            .and_then(|a| a.iter().find(|t| t["type"] == "page"))
            .and_then(|t| t["webSocketDebuggerUrl"].as_str())
            .expect("the page's DevTools address")
            .to_string();
        let stream = TcpStream::connect(("127.0.0.1", port)).expect("DevTools socket");
        stream.set_read_timeout(Some(CALL_LIMIT)).expect("timeout");
        let (ws, _) = tungstenite::client(url.as_str(), stream)
            .unwrap_or_else(|e| panic!("DevTools WebSocket {url}: {e}"));
        let mut browser = Browser {
            child: guard.child.take().expect("the child"),
            profile,
            ws,
            next_id: 1,
            errors: Vec::new(),
        };
        browser.call("Runtime.enable", json!({}));
        browser.call("Log.enable", json!({}));
        browser.call("Page.enable", json!({}));
        browser
    }

    /// Sends one command and returns its result; events met on the way are recorded.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({ "id": id, "method": method, "params": params }).to_string();
        self.ws
            .send(Message::text(msg))
            .unwrap_or_else(|e| panic!("{method}: {e}"));
        let start = Instant::now();
        loop {
            assert!(
                start.elapsed() < CALL_LIMIT,
                "{method}: no answer in {CALL_LIMIT:?}"
            );
            let message = self
                .ws
                .read()
                .unwrap_or_else(|e| panic!("{method}: the DevTools socket failed: {e}"));
            let Message::Text(text) = message else {
                continue;
            };
            let v: Value = serde_json::from_str(text.as_str()).unwrap_or(Value::Null);
            if v["id"].as_u64() == Some(id) {
                if !v["error"].is_null() {
                    panic!("{method} failed: {}", v["error"]);
                }
                return v["result"].clone();
            }
            self.record(&v);
        }
    }

    fn record(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Runtime.exceptionThrown") => {
                let d = &params["exceptionDetails"];
                self.errors.push(format!(
                    "exception: {} {}",
                    d["text"], d["exception"]["description"]
                ));
            }
            Some("Runtime.consoleAPICalled") if params["type"] == "error" => {
                self.errors
                    .push(format!("console.error: {}", params["args"]));
            }
            Some("Log.entryAdded") if params["entry"]["level"] == "error" => {
                let text = params["entry"]["text"].as_str().unwrap_or("");
                // A refused API request logs its status; the page shows those itself.
                if !text.contains("the server responded with a status of 4")
                    && !text.contains("the server responded with a status of 503")
                {
                    self.errors.push(format!("log: {text}"));
                }
            }
            _ => {}
        }
    }

    /// Evaluates `expression` in the page (promises awaited) and returns its value.
    pub fn eval(&mut self, expression: &str) -> Value {
        let r = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        if !r["exceptionDetails"].is_null() {
            panic!(
                "{expression}: {}",
                r["exceptionDetails"]["exception"]["description"]
            );
        }
        r["result"]["value"].clone()
    }

    /// Waits until `expression` is truthy (not null, false, 0 or ""), and returns it.
    pub fn wait_for(&mut self, expression: &str, limit: Duration) -> Value {
        let start = Instant::now();
        loop {
            let v = self.eval(expression);
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return v;
            }
            assert!(
                start.elapsed() < limit,
                "never true within {limit:?}: {expression} (errors: {:?})",
                self.errors
            );
            std::thread::sleep(Duration::from_millis(30));
        }
    }

    /// Opens `url` and waits until the page's script says it is ready.
    pub fn open(&mut self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for(
            "document.readyState === 'complete' && document.body && document.body.dataset.ready === '1'",
            Duration::from_secs(30),
        );
    }

    /// A left click at a point of the page's viewport, as a mouse makes it.
    pub fn click_at(&mut self, x: f64, y: f64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "buttons": 1, "clickCount": 1 }),
            );
        }
    }

    /// Makes the page a phone's: a `width` x `height` viewport of a mobile device, with touch.
    pub fn emulate_phone(&mut self, width: u32, height: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": true }),
        );
        self.call(
            "Emulation.setTouchEmulationEnabled",
            json!({ "enabled": true, "maxTouchPoints": 1 }),
        );
    }

    /// A one-finger tap at a point of the page's viewport, as a touch screen makes it.
    pub fn tap_at(&mut self, x: f64, y: f64) {
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchStart", "touchPoints": [{ "x": x, "y": y }] }),
        );
        self.call(
            "Input.dispatchTouchEvent",
            json!({ "type": "touchEnd", "touchPoints": [] }),
        );
    }

    /// Clicks the middle of the element `selector` finds.
    pub fn click(&mut self, selector: &str) {
        let at = self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); if (!e) return null; \
             e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); \
             if (r.width === 0 || r.height === 0) return null; \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
        ));
        let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
            panic!("nothing visible to click: {selector}");
        };
        self.click_at(x, y);
    }

    /// Sets a form field's value and tells the page it changed.
    pub fn set_value(&mut self, selector: &str, value: &str) {
        self.eval(&format!(
            "(() => {{ const e = document.querySelector({selector:?}); e.value = {value:?}; \
             e.dispatchEvent(new Event('input', {{bubbles: true}})); \
             e.dispatchEvent(new Event('change', {{bubbles: true}})); }})()"
        ));
    }

    /// A key pressed and released on the focused element (`ArrowLeft`, `Enter`, `u`, ...).
    pub fn key(&mut self, key: &str) {
        let (code, vk) = match key {
            "ArrowLeft" => ("ArrowLeft", 37),
            "ArrowUp" => ("ArrowUp", 38),
            "ArrowRight" => ("ArrowRight", 39),
            "ArrowDown" => ("ArrowDown", 40),
            "Enter" => ("Enter", 13),
            "Home" => ("Home", 36),
            "End" => ("End", 35),
            "Escape" => ("Escape", 27),
            other => (
                other,
                other.to_ascii_uppercase().bytes().next().unwrap_or(0) as i64,
            ),
        };
        let text = if key.len() == 1 { key } else { "" };
        for kind in ["keyDown", "keyUp"] {
            self.call(
                "Input.dispatchKeyEvent",
                json!({ "type": kind, "key": key, "code": code, "windowsVirtualKeyCode": vk, "text": if kind == "keyDown" { text } else { "" } }),
            );
        }
    }

    /// Gives a file input a file, as choosing it in the dialog does.
    pub fn choose_file(&mut self, selector: &str, file: &Path) {
        let doc = self.call("DOM.getDocument", json!({}));
        let root = doc["root"]["nodeId"].clone();
        let node = self.call(
            "DOM.querySelector",
            json!({ "nodeId": root, "selector": selector }),
        );
        self.call(
            "DOM.setFileInputFiles",
            json!({ "files": [file.display().to_string()], "nodeId": node["nodeId"] }),
        );
    }

    /// Saves a PNG of the viewport.
    pub fn screenshot(&mut self, path: &Path) {
        let r = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let data = r["data"].as_str().expect("screenshot data");
        let png = data_encoding::BASE64
            .decode(data.as_bytes())
            .expect("base64 screenshot");
        assert!(png.starts_with(b"\x89PNG"), "not a PNG");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("screenshot folder");
        }
        std::fs::write(path, png).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }

    /// Fails if the page threw or logged an error.
    pub fn assert_no_errors(&mut self) {
        // Collect events still on their way.
        self.eval("0");
        assert!(
            self.errors.is_empty(),
            "the page had errors: {:#?}",
            self.errors
        );
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.ws.close(None);
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// Kills a browser that has not become a [`Browser`] yet.
struct Launching {
    child: Option<Child>,
    profile: PathBuf,
}

impl Drop for Launching {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_dir_all(&self.profile);
        }
    }
}
