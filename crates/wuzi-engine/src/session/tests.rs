//! The session against a search thread that misbehaves: silent, or failing.

use std::sync::mpsc::{channel, Sender};
use std::thread;
use std::time::{Duration, Instant};

use super::*;
use crate::output::capture::Captured;

struct Harness {
    events: Sender<Event>,
    out: Captured,
    /// The jobs sent, never run (a test may read them and answer for the search thread).
    jobs: Receiver<Job>,
    session: Option<thread::JoinHandle<()>>,
}

impl Harness {
    fn new() -> Harness {
        let out = Captured::default();
        let (jobs, jobs_rx) = channel();
        let (events, events_rx) = channel();
        let session = Session::new(
            Output::new(Box::new(out.clone())),
            Settings::default(),
            jobs,
            1,
            Duration::ZERO,
        );
        let handle = thread::spawn(move || session.run(events_rx));
        Harness {
            events,
            out,
            jobs: jobs_rx,
            session: Some(handle),
        }
    }

    fn line(&self, text: &str) {
        let _ = self.events.send(Event::Input(Input::Line(
            Ok(text.to_string()),
            Instant::now(),
        )));
    }

    /// Waits for the next batch of output lines (at most `wait`).
    fn lines_within(&self, wait: Duration) -> Vec<String> {
        let end = Instant::now() + wait;
        loop {
            let lines = self.out.take_lines();
            if !lines.is_empty() || Instant::now() >= end {
                return lines;
            }
            thread::sleep(Duration::from_millis(1));
        }
    }

    /// The next search job (skipping table and thread jobs), within `wait`.
    fn think_job(&self, wait: Duration) -> Option<(u64, crate::worker::Think)> {
        let end = Instant::now() + wait;
        loop {
            match self
                .jobs
                .recv_timeout(end.saturating_duration_since(Instant::now()))
            {
                Ok(Job::Think { id, think }) => return Some((id, think)),
                Ok(_) => continue,
                Err(_) => return None,
            }
        }
    }

    fn end(mut self) {
        self.line("END");
        if let Some(h) = self.session.take() {
            h.join().expect("session thread");
        }
    }
}

fn is_move(line: &str) -> bool {
    matches!(Reply::parse(line), Ok(Reply::Move(_)))
}

#[test]
fn a_silent_search_is_given_up_and_the_quick_move_answered_in_time() {
    let h = Harness::new();
    h.line("INFO timeout_turn 300");
    h.line("START 15");
    assert_eq!(h.lines_within(Duration::from_secs(5)), vec!["OK"]);
    let sent = Instant::now();
    h.line("TURN 7,7");
    let lines = h.lines_within(Duration::from_secs(5));
    let took = sent.elapsed();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(is_move(&lines[0]), "{lines:?}");
    assert_ne!(lines[0], "7,7");
    assert!(took < Duration::from_millis(300), "answered after {took:?}");
    // The session goes on: the next turn is answered the same way.
    h.line("TURN 0,0");
    let lines = h.lines_within(Duration::from_secs(5));
    assert!(lines.len() == 1 && is_move(&lines[0]), "{lines:?}");
    h.end();
}

#[test]
fn a_failed_search_gets_the_quick_move_at_once_and_stale_results_are_ignored() {
    let h = Harness::new();
    h.line("INFO timeout_turn 60000");
    h.line("START 15");
    assert_eq!(h.lines_within(Duration::from_secs(5)), vec!["OK"]);
    h.line("TURN 7,7");
    thread::sleep(Duration::from_millis(20));
    let sent = Instant::now();
    // Job 1 is the search for this turn: it panicked.
    let _ = h.events.send(Event::Done(1, Outcome::Failed));
    let lines = h.lines_within(Duration::from_secs(5));
    assert!(sent.elapsed() < Duration::from_secs(1));
    assert!(lines.len() == 1 && is_move(&lines[0]), "{lines:?}");
    // A late result of an old job changes nothing and writes nothing.
    let _ = h.events.send(Event::Done(1, Outcome::Move(None)));
    assert!(h.lines_within(Duration::from_millis(100)).is_empty());
    h.end();
}

#[test]
fn commands_during_a_search_wait_their_turn_but_about_does_not() {
    let h = Harness::new();
    h.line("INFO timeout_turn 60000");
    h.line("START 15");
    assert_eq!(h.lines_within(Duration::from_secs(5)), vec!["OK"]);
    h.line("TURN 7,7");
    h.line("TAKEBACK 7,7");
    h.line("ABOUT");
    let lines = h.lines_within(Duration::from_secs(5));
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("name=\"wuzi\""), "{lines:?}");
    h.line("YXSTOP");
    // The search thread of this harness never answers: after YXSTOP's grace the quick move
    // comes, then the waiting TAKEBACK is handled.
    let sent = Instant::now();
    let mut lines = Vec::new();
    while lines.len() < 2 && sent.elapsed() < Duration::from_secs(5) {
        lines.extend(h.lines_within(Duration::from_millis(50)));
    }
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(is_move(&lines[0]), "{lines:?}");
    assert_eq!(lines[1], "OK");
    h.end();
}

#[test]
fn a_ponder_stops_on_the_next_line_and_none_of_its_time_is_counted() {
    let h = Harness::new();
    for line in [
        "INFO timeout_turn 100000",
        "INFO timeout_match 100000",
        "INFO time_left 10000",
        "INFO pondering 1",
        "START 15",
    ] {
        h.line(line);
    }
    assert_eq!(h.lines_within(Duration::from_secs(5)), vec!["OK"]);
    h.line("TURN 7,7");
    let (first, think) = h.think_job(Duration::from_secs(5)).expect("the search");
    let budget = think.limits.hard_time.expect("a hard limit");
    let _ = h.events.send(Event::Done(first, Outcome::Move(None)));
    let lines = h.lines_within(Duration::from_secs(5));
    assert!(lines.len() == 1 && is_move(&lines[0]), "{lines:?}");
    // The ponder: no limit, nothing reported, the opponent to move.
    let (ponder, think) = h.think_job(Duration::from_secs(5)).expect("a ponder");
    assert_eq!(think.limits.hard_time, None);
    assert_eq!(think.reporting, crate::report::Reporting::silent());
    assert_eq!(think.board.move_count(), 2);
    thread::sleep(Duration::from_millis(600));
    assert!(!think.stop.load(Ordering::SeqCst));
    h.line("TURN 0,0");
    let sent = Instant::now();
    while !think.stop.load(Ordering::SeqCst) && sent.elapsed() < Duration::from_secs(1) {
        thread::sleep(Duration::from_millis(1));
    }
    assert!(
        sent.elapsed() < Duration::from_millis(100),
        "the ponder was not stopped"
    );
    assert!(
        h.lines_within(Duration::from_millis(50)).is_empty(),
        "a ponder answers nothing"
    );
    let _ = h.events.send(Event::Done(ponder, Outcome::Move(None)));
    let (_, think) = h
        .think_job(Duration::from_secs(5))
        .expect("the next search");
    // The move's time counts from the line's arrival: its budget, from then, is the first
    // move's less a fifth of what the first move took (milliseconds). Had the 600 ms of
    // pondering been taken from time_left, it would be 108 ms less.
    let next = think.limits.hard_time.expect("a hard limit") + sent.elapsed();
    assert!(
        next + Duration::from_millis(40) > budget,
        "{next:?} after {budget:?}"
    );
    assert!(
        next <= budget + Duration::from_millis(5),
        "{next:?} after {budget:?}"
    );
    assert_eq!(think.board.move_count(), 3);
    h.end();
}
