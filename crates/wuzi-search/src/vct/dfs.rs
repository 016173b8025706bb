//! The depth-first VCT search, iteratively deepened on the number of attacker moves, with the
//! solver's own transposition table: [`VctSolver::solve`] finds a shortest win of the threat
//! space. The threat logic it shares with the proof-number search (candidate threats, the
//! defences of a threat, the VCF probes) lives in the parent module.

use super::{Defences, VctLimits, VctSolver, ABSOLUTE, DEFEND_KEY, MARK};
use crate::threat::{
    first_two, five_points, four_reply, is_legal, losing_line, position_key, FourReply, Node,
    Outcome, SolveResult, NONE,
};
use crate::vcf::UNLIMITED;
use wuzi_core::{Bitboard, Board, Cell, Color};

impl VctSolver<'_> {
    /// Searches for a VCT of `attacker`, who moves next whatever the board's side to move.
    /// Iterative deepening from depth 0, so a win found is among the shortest in the threat
    /// space searched. The board is left as it was.
    pub fn solve(&mut self, board: &mut Board, attacker: Color, limits: &VctLimits) -> Outcome {
        let outcome = |result, nodes| Outcome { result, nodes };
        if !self.begin(board, attacker, limits) {
            return outcome(SolveResult::NoWin, 0);
        }
        let max_depth = limits.max_depth.min(UNLIMITED) as u16;
        for depth in 0..=max_depth {
            self.depth_cut = false;
            match self.attack(board, depth, 0) {
                Node::Win => {
                    let line = self.pv.get(0).to_vec();
                    return match self.complete_line(board, line, depth) {
                        Some(line) => outcome(SolveResult::Win(line), self.nodes),
                        None => outcome(SolveResult::Unknown, self.nodes),
                    };
                }
                Node::Abort => return outcome(SolveResult::Unknown, self.nodes),
                Node::Fail => {
                    if !self.depth_cut {
                        break;
                    }
                }
            }
        }
        outcome(SolveResult::NoWin, self.nodes)
    }

    /// Replaces the table-hit marks of a winning line by searched continuations (a mark
    /// stands for the rest of a line the table proved). `None` if the budget ran out.
    fn complete_line(
        &mut self,
        board: &mut Board,
        mut line: Vec<Cell>,
        depth: u16,
    ) -> Option<Vec<Cell>> {
        while let Some(at) = line.iter().position(|&c| c == MARK) {
            line.truncate(at);
            let attacker = self.attacker;
            for (i, &c) in line.iter().enumerate() {
                let color = if i % 2 == 0 {
                    attacker
                } else {
                    attacker.opponent()
                };
                board.make(color, c);
            }
            let mut rest = None;
            for d in 0..=depth {
                self.depth_cut = false;
                let r = if at % 2 == 0 {
                    self.attack(board, d, 0)
                } else {
                    self.defend(board, d, 0)
                };
                match r {
                    Node::Win => {
                        rest = Some(self.pv.get(0).to_vec());
                        break;
                    }
                    Node::Abort => break,
                    Node::Fail => {}
                }
            }
            for _ in 0..at {
                board.unmake();
            }
            line.extend(rest?);
        }
        Some(line)
    }

    /// Stores the result of a node searched below the table probe (a failure as deep as the
    /// depth cut-offs under it allow, a win with its first move) and restores the caller's
    /// depth-cut mark (`outer_cut`, set aside before the search), joined with this node's.
    fn finish(&mut self, key: u64, depth: u16, ply: usize, outer_cut: bool, result: Node) -> Node {
        let cut_here = self.depth_cut;
        self.depth_cut |= outer_cut;
        match result {
            Node::Fail => self
                .table
                .store_fail(key, if cut_here { depth } else { ABSOLUTE }),
            Node::Win => {
                if let Some(&m) = self.pv.get(ply).first() {
                    self.table.store_win(key, depth, m);
                }
            }
            Node::Abort => {}
        }
        result
    }

    /// Attacker to move with `depth` attacker moves left. On a win `pv[ply]` holds the line.
    fn attack(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        if self.spent() {
            return Node::Abort;
        }
        let a = self.attacker;
        let d = a.opponent();
        if let Some(f) = five_points(board, a).first() {
            self.pv.set(ply, &[f]);
            return Node::Win;
        }
        let (df, df2) = first_two(five_points(board, d));
        if df2.is_some() {
            return Node::Fail;
        }
        if depth == 0 {
            self.depth_cut = true;
            return Node::Fail;
        }
        let key = position_key(board, a);
        let mut hint = None;
        if let Some(e) = self.table.probe(key) {
            if e.fail != NONE && e.fail >= depth {
                if e.fail != ABSOLUTE {
                    self.depth_cut = true;
                }
                return Node::Fail;
            }
            if e.win != NONE {
                hint = Some(e.best as Cell);
                if e.win <= depth && ply > 0 {
                    self.pv.set(ply, &[MARK]);
                    return Node::Win;
                }
            }
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);
        let result = self.attack_inner(board, depth, ply, df, hint);
        self.finish(key, depth, ply, outer_cut, result)
    }

    fn attack_inner(
        &mut self,
        board: &mut Board,
        depth: u16,
        ply: usize,
        defender_five: Option<Cell>,
        hint: Option<Cell>,
    ) -> Node {
        let a = self.attacker;
        match self.vcf_line(board, a, depth) {
            Ok(Some(line)) => {
                self.pv.set(ply, &line);
                return Node::Win;
            }
            Ok(None) => {}
            Err(()) => return Node::Abort,
        }
        if depth < 2 {
            // A threat needs a further attacker move to be worth anything.
            self.depth_cut = true;
            return Node::Fail;
        }
        let base = self.moves.len();
        let threat_limit = match defender_five {
            Some(f) => {
                if is_legal(board, a, f) {
                    self.moves.push((0, f));
                }
                0
            }
            None => match self.gen_attacks(board, depth, hint) {
                Ok(limit) => limit,
                Err(()) => {
                    self.moves.truncate(base);
                    return Node::Abort;
                }
            },
        };
        let end = self.moves.len();
        self.moves[base..end].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let mut result = Node::Fail;
        for i in base..end {
            let m = self.moves[i].1;
            board.make(a, m);
            // Moves that are not fours are only tried if they threaten a VCF (checked here,
            // lazily, so that a win found early spares the other checks).
            let threat = defender_five.is_some()
                || !five_points(board, a).is_empty()
                || match self.vcf_exists(board, a, threat_limit) {
                    Ok(t) => t,
                    Err(()) => {
                        board.unmake();
                        result = Node::Abort;
                        break;
                    }
                };
            let r = if threat {
                self.defend(board, depth - 1, ply + 1)
            } else {
                Node::Fail
            };
            board.unmake();
            match r {
                Node::Win => {
                    self.pv.set_prefix(ply, &[m]);
                    result = Node::Win;
                    break;
                }
                Node::Abort => {
                    result = Node::Abort;
                    break;
                }
                Node::Fail => {}
            }
        }
        self.moves.truncate(base);
        result
    }

    /// Defender to move after the attacker's move, `depth` attacker moves left. On a win
    /// `pv[ply]` holds the line from the defender's move on.
    fn defend(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        if self.spent() {
            return Node::Abort;
        }
        let a = self.attacker;
        let d = a.opponent();
        if !five_points(board, d).is_empty() {
            return Node::Fail;
        }
        match four_reply(board, a) {
            FourReply::NotForced => {}
            FourReply::Lost => {
                // Every answer loses at once; show one (or none if none is legal).
                let line = losing_line(board, a);
                self.pv.set(ply, &line);
                return Node::Win;
            }
            FourReply::Block(f) => {
                board.make(d, f);
                let r = self.attack(board, depth, ply + 1);
                board.unmake();
                if r == Node::Win {
                    self.pv.set_prefix(ply, &[f]);
                }
                return r;
            }
            FourReply::EachOf(fives) => {
                return self.all_answers_lose(board, depth, ply, &fives, None)
            }
        }
        if depth == 0 {
            self.depth_cut = true;
            return Node::Fail;
        }
        let key = position_key(board, a) ^ DEFEND_KEY;
        if let Some(e) = self.table.probe(key) {
            if e.fail != NONE && e.fail >= depth {
                if e.fail != ABSOLUTE {
                    self.depth_cut = true;
                }
                return Node::Fail;
            }
            if e.win != NONE && e.win <= depth && ply > 0 {
                self.pv.set(ply, &[MARK]);
                return Node::Win;
            }
        }
        let outer_cut = std::mem::replace(&mut self.depth_cut, false);
        let result = self.defend_threat(board, depth, ply);
        self.finish(key, depth, ply, outer_cut, result)
    }

    /// The attacker's last move was not a four: it must be a threat, and every defence must
    /// lose.
    fn defend_threat(&mut self, board: &mut Board, depth: u16, ply: usize) -> Node {
        match self.threat_defences(board, depth) {
            Ok(Defences::Refuted) => Node::Fail,
            Ok(Defences::NoLegalMove) => {
                self.pv.set(ply, &[]);
                Node::Win
            }
            Ok(Defences::Moves(set, line)) => {
                self.all_answers_lose(board, depth, ply, &set, Some(&line))
            }
            Err(()) => Node::Abort,
        }
    }

    /// Every defender move of `answers` must lose (AND node). Ordered so that the likeliest
    /// refutations come first; the line kept is the longest.
    fn all_answers_lose(
        &mut self,
        board: &mut Board,
        depth: u16,
        ply: usize,
        answers: &Bitboard,
        threat_line: Option<&[Cell]>,
    ) -> Node {
        let a = self.attacker;
        let d = a.opponent();
        let base = self.moves.len();
        for c in answers.iter() {
            if !is_legal(board, d, c) {
                continue;
            }
            let score = Self::answer_score(board, a, c, threat_line);
            self.moves.push((score, c));
        }
        let end = self.moves.len();
        if end == base {
            self.pv.set(ply, &[]);
            return Node::Win;
        }
        self.moves[base..end].sort_unstable_by_key(|x| std::cmp::Reverse(x.0));
        let mut best_len = 0;
        let mut result = Node::Win;
        for i in base..end {
            let c = self.moves[i].1;
            board.make(d, c);
            let r = self.attack(board, depth, ply + 1);
            board.unmake();
            match r {
                Node::Win => {
                    let len = self.pv.len_at(ply + 1) + 1;
                    if len > best_len {
                        best_len = len;
                        self.pv.set_prefix(ply, &[c]);
                    }
                }
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.moves.truncate(base);
        result
    }
}
