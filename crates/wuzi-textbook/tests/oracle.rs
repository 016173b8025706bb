//! The textbook as an oracle for the fast search.
//!
//! 1. On random small positions of every rule, the fast searcher configured with the
//!    textbook's semantics and evaluation (`Options::textbook`) and with the result-changing
//!    pruning off returns, at a fixed depth, exactly the value plain minimax (or alpha-beta,
//!    which equals it) returns — with and without its transposition table.
//! 2. Every win the VCF solver claims is a forced win for the textbook search over the
//!    game "the attacker may only make fours", and every such forced win the textbook finds
//!    within a few fours, the VCF solver finds.

use wuzi_core::rng::Rng;
use wuzi_core::{flag, Board, Color, Point, Rule, Threat};
use wuzi_search::vcf::VcfSolver;
use wuzi_search::{Options, WIN};
use wuzi_testkit::search::search_to_depth;
use wuzi_textbook::gomoku::{threat_weight, Gomoku, WIN as TEXTBOOK_WIN};
use wuzi_textbook::{alphabeta, minimax, Cutoff, Depth, Game};

/// A random unfinished position: `stones` stones near the centre, no five on the board.
fn random_position(rng: &mut Rng, size: usize, rule: Rule, stones: usize) -> Board {
    let mut b = Board::new(size, size, rule).expect("size");
    let mut tries = 0;
    while b.move_count() < stones && tries < 1000 {
        tries += 1;
        let lo = 1;
        let span = size - 2;
        let p = Point::new((lo + rng.below(span)) as u8, (lo + rng.below(span)) as u8);
        if !b.is_legal(p) {
            continue;
        }
        b.play(p).expect("legal");
        if b.winner().is_some() {
            b.undo().expect("undo");
        }
    }
    b
}

fn weights() -> [i32; 14] {
    Threat::ALL.map(threat_weight)
}

/// The fast search's score for a textbook value (the maximiser is the side to move).
fn expected_fast_score(textbook_value: i32) -> i32 {
    let margin = TEXTBOOK_WIN - 10_000;
    if textbook_value >= margin {
        WIN - (TEXTBOOK_WIN - textbook_value)
    } else if textbook_value <= -margin {
        -(WIN - (TEXTBOOK_WIN + textbook_value))
    } else {
        textbook_value
    }
}

fn fast_score(board: &Board, depth: u32, use_tt: bool) -> i32 {
    let options = Options {
        use_tt,
        pruning: false,
        threat_search: false,
        textbook: Some(weights()),
        ..Options::default()
    };
    search_to_depth(board, depth, options).score
}

#[test]
fn fast_search_equals_textbook_minimax_at_fixed_depth() {
    let mut rng = Rng::new(0x5eed_0001);
    let mut checked = 0;
    for round in 0..40 {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let size = 7 + round % 3;
        let stones = 3 + rng.below(10);
        let board = random_position(&mut rng, size, rule, stones);
        let depths: &[u32] = if size == 7 { &[1, 2, 3] } else { &[1, 2] };
        for &depth in depths {
            let mut game = Gomoku::new(board.clone()).expect("small board");
            let oracle = if round % 4 == 0 && depth <= 2 {
                minimax(&mut game, Depth::Plies(depth)).value
            } else {
                alphabeta(&mut game, Depth::Plies(depth), Cutoff::AlphaAtLeastBeta).value
            };
            let want = expected_fast_score(oracle);
            for use_tt in [false, true] {
                let got = fast_score(&board, depth, use_tt);
                assert_eq!(
                    got, want,
                    "round {round} {rule} depth {depth} tt {use_tt}\n{board:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 90, "{checked} comparisons");
}

/// The game in which `attacker` may only play moves that make a four or a five (and the
/// defender anything legal); a position where the attacker has no such move is over, lost
/// for the attacker. The value is for the attacker: a win is worth `TEXTBOOK_WIN`.
struct FourGame {
    board: Board,
    attacker: Color,
}

impl FourGame {
    fn over(&mut self) -> Option<i32> {
        if let Some(w) = self.board.winner() {
            return Some(if w == self.attacker {
                TEXTBOOK_WIN
            } else {
                -TEXTBOOK_WIN
            });
        }
        if self.board.is_full() || self.moves_unchecked().is_empty() {
            return Some(0);
        }
        None
    }

    fn moves_unchecked(&mut self) -> Vec<Point> {
        let us = self.board.side_to_move();
        let mut out = Vec::new();
        for p in self.board.empty_points() {
            let cell = self.board.cell(p).expect("on board");
            let flags = self.board.flags_at(us, cell);
            if us == self.attacker && flags & (flag::FOUR | flag::FIVE) == 0 {
                continue;
            }
            if self.board.is_legal(p) {
                out.push(p);
            }
        }
        out
    }
}

impl Game for FourGame {
    type Move = Point;
    fn maximizer_to_move(&self) -> bool {
        self.board.side_to_move() == self.attacker
    }
    fn moves(&mut self) -> Vec<Point> {
        if self.board.winner().is_some() {
            return Vec::new();
        }
        self.moves_unchecked()
    }
    fn play(&mut self, mv: Point) {
        self.board.play(mv).expect("legal move");
    }
    fn undo(&mut self, _mv: Point) {
        self.board.undo().expect("undo");
    }
    fn is_terminal(&mut self) -> bool {
        self.over().is_some()
    }
    fn evaluate(&mut self) -> i32 {
        self.over().unwrap_or(0)
    }
}

/// Random positions with fours about: the side to move has several stones in lines.
fn tactical_position(rng: &mut Rng, rule: Rule) -> Board {
    loop {
        let stones = 10 + rng.below(10);
        let b = random_position(rng, 9, rule, stones);
        let us = b.side_to_move();
        if !b.cells_making(us, flag::FOUR).is_empty()
            && b.cells_making(us.opponent(), flag::FIVE).is_empty()
        {
            return b;
        }
    }
}

#[test]
fn vcf_claims_agree_with_textbook_four_search() {
    let mut rng = Rng::new(0x5eed_0002);
    let mut wins = 0;
    for round in 0..60 {
        let rule = Rule::ALL[round % Rule::ALL.len()];
        let board = tactical_position(&mut rng, rule);
        let attacker = board.side_to_move();
        // Up to 3 attacker fours before the five: 7 plies.
        let max_fours = 3;
        let mut solver = VcfSolver::new();
        let mut scratch = board.clone();
        let vcf = solver.solve(&mut scratch, attacker, max_fours, u64::MAX);
        let mut game = FourGame {
            board: board.clone(),
            attacker,
        };
        let plies = 2 * max_fours + 1;
        let textbook = alphabeta(&mut game, Depth::Plies(plies), Cutoff::AlphaAtLeastBeta).value;
        let textbook_wins = textbook == TEXTBOOK_WIN;
        assert_eq!(
            vcf.result.is_win(),
            textbook_wins,
            "round {round} {rule}\n{board:?}\n{:?}",
            vcf.result
        );
        if textbook_wins {
            wins += 1;
        }
    }
    assert!(
        wins >= 5,
        "enough positions with a VCF to mean something: {wins}"
    );
}
