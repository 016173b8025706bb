// Scratch: search a move list (freestyle 15x15 by default) with stats, print iterations.
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wuzi_core::{notation, Board, Rule};
use wuzi_search::{Limits, Options, Searcher};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let moves = &args[1];
    let ms: u64 = args.get(2).map_or(3000, |s| s.parse().unwrap());
    let rule = match args.get(3).map(|s| s.as_str()) { Some("standard") => Rule::Standard, Some("renju") => Rule::Renju, _ => Rule::Freestyle };
    let size: usize = args.get(4).map_or(15, |s| s.parse().unwrap());
    let mut b = Board::new(size, size, rule).unwrap();
    for p in notation::parse_moves(moves).unwrap() { b.play(p).unwrap(); }
    let mut s = Searcher::new(64 << 20);
    s.set_options(Options { stats: true, ..Options::default() });
    let limits = Limits { soft_time: Some(Duration::from_millis(ms)), hard_time: Some(Duration::from_millis(ms)), ..Limits::default() };
    let stop = AtomicBool::new(false);
    let r = s.search(&b, &limits, &stop, &mut |i| {
        if i.multipv == 1 { println!("depth {:2} sel {:2} score {:6} nodes {:8} {:5} ms pv {}", i.depth, i.seldepth, i.score, i.nodes, i.elapsed.as_millis(), i.pv.iter().map(|p| p.name()).collect::<Vec<_>>().join(" ")); }
    }).unwrap();
    println!("best {} score {} nodes {}", r.best.name(), r.score, r.nodes);
    if let Some(st) = r.stats { print!("{}", st.report()); }
}
