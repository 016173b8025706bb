//! The SPRT ends a match as soon as one hypothesis is accepted, long before its game cap.

mod common;

use std::time::Duration;

use common::{config, engine};
use wuzi_match::sprt::{Sprt, SprtState};
use wuzi_testkit::matches::run_within;

#[test]
fn sprt_stops_when_h1_is_accepted() {
    // The second engine loses every game at its first move: H1 (first engine stronger) comes
    // long before the 200-game cap.
    let mut cfg = config(engine("strong", &["random"]), engine("weak", &["garbage"]));
    cfg.games = 200;
    cfg.concurrency = 2;
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (r, _) = run_within(Duration::from_secs(60), cfg);
    let s = r.unwrap();
    assert_eq!(s.sprt, Some(SprtState::AcceptH1));
    let n = s.stats.games();
    assert!((2..200).contains(&n), "{n} games");
    assert_eq!(s.stats.total[0].wins, n);
}

#[test]
fn sprt_stops_when_h0_is_accepted() {
    let mut cfg = config(engine("weak", &["garbage"]), engine("strong", &["random"]));
    cfg.games = 200;
    cfg.sprt = Some(Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap());
    let (r, _) = run_within(Duration::from_secs(60), cfg);
    let s = r.unwrap();
    assert_eq!(s.sprt, Some(SprtState::AcceptH0));
    assert!(s.stats.games() < 200);
}
