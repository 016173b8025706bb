//! The engine's output: whole lines, flushed, from any thread.
//!
//! [`Output`] is shared by the session and the search thread. Invariants: every line is
//! written with its `\n` in one `write_all` under one lock and flushed before the lock is
//! released, so lines never interleave and none is left in a buffer; after [`Output::silence`]
//! (the engine is exiting) nothing more is written; a write error (the manager has gone)
//! silences the output and is remembered in [`Output::is_broken`].

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use wuzi_protocol::Reply;

struct Sink {
    writer: Box<dyn Write + Send>,
    silent: bool,
}

/// A cloneable handle on the engine's output.
#[derive(Clone)]
pub struct Output {
    sink: Arc<Mutex<Sink>>,
    broken: Arc<AtomicBool>,
}

impl Output {
    pub fn new(writer: Box<dyn Write + Send>) -> Output {
        Output {
            sink: Arc::new(Mutex::new(Sink {
                writer,
                silent: false,
            })),
            broken: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The process's standard output.
    pub fn stdout() -> Output {
        Output::new(Box::new(std::io::stdout()))
    }

    /// Writes one reply as one flushed line.
    pub fn send(&self, reply: &Reply) {
        self.line(&reply.to_string());
    }

    /// Writes one line of text (which must hold no line break) and flushes.
    pub fn line(&self, text: &str) {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        if sink.silent {
            return;
        }
        let mut bytes = Vec::with_capacity(text.len() + 1);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(b'\n');
        let ok = sink.writer.write_all(&bytes).is_ok() && sink.writer.flush().is_ok();
        if !ok {
            sink.silent = true;
            self.broken.store(true, Ordering::SeqCst);
        }
    }

    /// Writes nothing from now on. Waits for a line being written to be finished.
    pub fn silence(&self) {
        let mut sink = self.sink.lock().unwrap_or_else(PoisonError::into_inner);
        sink.silent = true;
    }

    /// Whether a write has failed.
    pub fn is_broken(&self) -> bool {
        self.broken.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
pub(crate) mod capture {
    //! An in-memory output for unit tests.
    use std::io::{self, Write};
    use std::sync::{Arc, Mutex};

    #[derive(Clone, Default)]
    pub struct Captured(pub Arc<Mutex<Vec<u8>>>);

    impl Write for Captured {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| io::ErrorKind::Other)?
                .extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Captured {
        pub fn take_lines(&self) -> Vec<String> {
            let mut bytes = self
                .0
                .lock()
                .map(|mut b| std::mem::take(&mut *b))
                .unwrap_or_default();
            if bytes.last() == Some(&b'\n') {
                bytes.pop();
            }
            if bytes.is_empty() {
                return Vec::new();
            }
            String::from_utf8_lossy(&bytes)
                .split('\n')
                .map(str::to_string)
                .collect()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::capture::Captured;
    use super::*;
    use std::io;

    #[test]
    fn writes_whole_lines_and_stops_when_silenced() {
        let cap = Captured::default();
        let out = Output::new(Box::new(cap.clone()));
        out.send(&Reply::Ok);
        out.line("MESSAGE hi");
        out.silence();
        out.send(&Reply::Swap);
        assert_eq!(cap.take_lines(), vec!["OK", "MESSAGE hi"]);
        assert!(!out.is_broken());
    }

    struct Failing;
    impl Write for Failing {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_failed_write_marks_the_output_broken() {
        let out = Output::new(Box::new(Failing));
        out.send(&Reply::Ok);
        assert!(out.is_broken());
    }
}
