//! Helpers of the wuzi-serve integration tests: a server on a free loopback port, a small
//! HTTP/1.1 client with a timeout on every read, and a reader of a session's event stream.
//! Everything a test starts is stopped when its value is dropped, a failing test included.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use serde_json::Value;
use wuzi_serve::{Config, Server};

/// Every network read of a test gives up after this.
pub const READ_LIMIT: Duration = Duration::from_secs(20);

/// A server for one test: port chosen at run time, small tables, stopped on drop.
pub fn server(max_sessions: usize, max_searches: usize) -> Server {
    let config = Config {
        addr: "127.0.0.1:0".parse().expect("address"),
        max_sessions,
        max_searches,
        hash_bytes: 4 << 20,
        max_threads: 2,
        ..Config::default()
    };
    Server::start(config).unwrap_or_else(|e| panic!("server: {e}"))
}

/// One HTTP exchange's answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The error text of a refusal, checking that it is one with this status.
    pub fn refused(&self, status: u16) -> String {
        assert_eq!(self.status, status, "expected {status}, got: {self:?}");
        let text = self.json()["error"].as_str().unwrap_or("").to_string();
        assert!(!text.is_empty(), "a refusal without a message: {self:?}");
        text
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap_or_else(|e| panic!("connect {addr}: {e}"));
    stream
        .set_read_timeout(Some(READ_LIMIT))
        .expect("read timeout");
    stream
}

/// Sends raw request bytes and reads the whole answer (the request asks the server to close).
pub fn raw(addr: SocketAddr, request: &[u8]) -> Answer {
    let mut stream = connect(addr);
    stream.write_all(request).expect("send");
    let mut bytes = Vec::new();
    stream
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("no answer within {READ_LIMIT:?}: {e}"));
    parse_answer(&bytes)
}

fn parse_answer(bytes: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(bytes);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {text:?}"));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let chunked = headers.iter().any(|(n, v)| {
        n.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_string()
    };
    Answer {
        status,
        headers,
        body,
    }
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

/// A request with an optional JSON body.
pub fn request(addr: SocketAddr, method: &str, path: &str, json: Option<&str>) -> Answer {
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if let Some(body) = json {
        req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        ));
    } else {
        req.push_str("Content-Length: 0\r\n\r\n");
    }
    raw(addr, req.as_bytes())
}

pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, None)
}

pub fn post(addr: SocketAddr, path: &str, json: &str) -> Answer {
    request(addr, "POST", path, Some(json))
}

/// A new session; its state.
pub fn new_session(addr: SocketAddr, json: &str) -> Value {
    let a = post(addr, "/api/sessions", json);
    assert_eq!(a.status, 201, "{a:?}");
    a.json()
}

/// `POST /api/sessions/{id}/{action}` that must succeed; the state it answers.
pub fn act(addr: SocketAddr, id: &str, action: &str, json: &str) -> Value {
    let a = post(addr, &format!("/api/sessions/{id}/{action}"), json);
    assert!(a.status == 200 || a.status == 202, "{action} {json}: {a:?}");
    let v = a.json();
    if a.status == 202 {
        v["state"].clone()
    } else {
        v
    }
}

pub fn state(addr: SocketAddr, id: &str) -> Value {
    let a = get(addr, &format!("/api/sessions/{id}"));
    assert_eq!(a.status, 200, "{a:?}");
    a.json()
}

pub fn status(addr: SocketAddr) -> Value {
    get(addr, "/api/status").json()
}

/// Waits until `check` holds of the session's state, or fails after `limit`.
pub fn wait_state(
    addr: SocketAddr,
    id: &str,
    limit: Duration,
    check: impl Fn(&Value) -> bool,
) -> Value {
    let start = Instant::now();
    loop {
        let s = state(addr, id);
        if check(&s) {
            return s;
        }
        assert!(
            start.elapsed() < limit,
            "state never came within {limit:?}: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `check` holds of the server's status, or fails after `limit`.
pub fn wait_status(addr: SocketAddr, limit: Duration, check: impl Fn(&Value) -> bool) -> Value {
    let start = Instant::now();
    loop {
        let s = status(addr);
        if check(&s) {
            return s;
        }
        assert!(
            start.elapsed() < limit,
            "status never came within {limit:?}: {s}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A session's event stream, read as the page reads it (over HTTP/1.0, so the body is the
/// stream itself, not chunks).
pub struct Events {
    reader: BufReader<TcpStream>,
}

impl Events {
    pub fn open(addr: SocketAddr, id: &str) -> Events {
        let mut stream = connect(addr);
        write!(
            stream,
            "GET /api/sessions/{id}/events HTTP/1.0\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n"
        )
        .expect("send");
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).expect("status line");
        assert!(line.contains(" 200 "), "events: {line}");
        loop {
            line.clear();
            reader.read_line(&mut line).expect("header");
            if line == "\r\n" || line.is_empty() {
                break;
            }
        }
        Events { reader }
    }

    /// The next event (its name and data), skipping keep-alive comments.
    pub fn next(&mut self) -> Option<(String, Value)> {
        let mut name = String::new();
        let mut data = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            match self.reader.read_line(&mut line) {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let l = line.trim_end_matches(['\r', '\n']);
            if let Some(v) = l.strip_prefix("event:") {
                name = v.trim().to_string();
            } else if let Some(v) = l.strip_prefix("data:") {
                data.push_str(v.strip_prefix(' ').unwrap_or(v));
            } else if l.is_empty() && !name.is_empty() {
                let value = serde_json::from_str(&data)
                    .unwrap_or_else(|e| panic!("event {name} data is not JSON ({e}): {data}"));
                return Some((name, value));
            }
        }
    }

    /// The next event called `wanted`, within `limit`.
    pub fn until(&mut self, wanted: &str, limit: Duration) -> Value {
        let start = Instant::now();
        while start.elapsed() < limit {
            match self.next() {
                Some((name, v)) if name == wanted => return v,
                Some(_) => {}
                None => panic!("the event stream ended before a {wanted} event"),
            }
        }
        panic!("no {wanted} event within {limit:?}");
    }
}
