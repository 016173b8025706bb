use wuzi_core::{notation, Board, Rule, Point};
use wuzi_search::movepick::{Facing, MoveList};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut b = Board::new(15, 15, Rule::Freestyle).unwrap();
    for p in notation::parse_moves(&args[1]).unwrap() { b.play(p).unwrap(); }
    let us = b.side_to_move();
    let facing = Facing::of(&mut b, us);
    let mut l = MoveList::default();
    let hist = vec![0i32; wuzi_core::geometry::MAX_CELLS];
    l.fill(&mut b, us, facing, None, [None; 3], &hist);
    l.sort();
    println!("{:?} facing {:?}, {} moves", us, facing, l.moves.len());
    for (i, (c, s)) in l.moves.iter().take(15).enumerate() {
        let p: Point = b.point(*c);
        println!("{:2} {:4} {:6} us {:?} them {:?}", i + 1, p.name(), s, b.threat_at(us, *c), b.threat_at(us.opponent(), *c));
    }
}
