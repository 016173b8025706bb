// Scratch: nodes to the first proven win on suite positions, node-capped (deterministic).
use std::sync::atomic::AtomicBool;
use wuzi_core::{notation, Board, Rule};
use wuzi_search::{Limits, Options, Searcher, WIN_MIN};
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = std::fs::read_to_string(&args[1]).unwrap();
    let cap: u64 = args.get(2).map_or(1_000_000, |s| s.parse().unwrap());
    let filter = args.get(3).cloned().unwrap_or_default();
    let (mut found, mut total, mut logsum) = (0, 0, 0.0f64);
    for line in file.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (id, split, rule, size, moves) = (f[0], f[1], f[4], f[5], f[f.len() - 1]);
        if !filter.is_empty() && !line.contains(&filter) { continue; }
        let _ = split;
        let rule = match rule { "freestyle" => Rule::Freestyle, "standard" => Rule::Standard, "renju" => Rule::Renju, _ => continue };
        let n: usize = size.split('x').next().unwrap().parse().unwrap();
        let mut b = Board::new(n, n, rule).unwrap();
        for p in notation::parse_moves(moves).unwrap() { b.play(p).unwrap(); }
        let mut s = Searcher::new(64 << 20);
        s.set_options(Options::default());
        let limits = Limits { max_nodes: Some(cap), ..Limits::default() };
        let stop = AtomicBool::new(false);
        let mut first: Option<(u64, i32)> = None;
        s.search(&b, &limits, &stop, &mut |i| {
            if first.is_none() && i.multipv == 1 && i.score >= WIN_MIN { first = Some((i.nodes, i.score)); }
        });
        total += 1;
        match first {
            Some((nodes, score)) => { found += 1; logsum += (nodes.max(1) as f64).ln(); println!("{id:24} {nodes:9} win {}", 30000 - score); }
            None => { logsum += (cap as f64).ln(); println!("{id:24} -"); }
        }
    }
    println!("found {found}/{total}  geomean nodes (misses at cap) {:.0}", (logsum / total as f64).exp());
}
