//! A recorded analysis session in the style Yixin-Board sends (`START`, `INFO` settings with
//! `show_detail 3`, `YXBOARD`, `YXNBEST`, `YXSTOP`, `YXBLOCK`, `YXBALANCEONE`, pondering),
//! replayed over the real `pbrain-wuzi` with every reply checked:
//! `data/protocol/yixin-board-analysis.txt` (its format is at its top).

mod protocol_support;

use std::time::{Duration, Instant};

use protocol_support::analysis::{answer, lines_for, moves_of};
use protocol_support::{Engine, PROMPT};
use wuzi_core::{Board, Color, Point, Rule};
use wuzi_protocol::{Coord, Realtime, StoneLine};
use wuzi_testkit::data::read_data;

/// The position the replay follows: what the engine has been sent and has answered.
struct Follow {
    board: Board,
    /// Lines of an open `yxboard`/`board` block, and whether it answers a move.
    block: Option<(Vec<StoneLine>, bool)>,
}

impl Follow {
    fn sent(&mut self, e: &Engine, line: &str) {
        let lower = line.to_ascii_lowercase();
        if let Some((lines, _)) = &mut self.block {
            if lower == "done" {
                let (lines, _) = self.block.take().unwrap_or_default();
                let mut b = Board::new(self.board.width(), self.board.height(), self.board.rule())
                    .unwrap_or_else(|err| e.fail(&err.to_string()));
                let own = match lines.first().and_then(|l| l.field) {
                    Some(wuzi_protocol::Field::Opponent) => Color::White,
                    _ => Color::Black,
                };
                for l in lines {
                    let color = match l.field {
                        Some(wuzi_protocol::Field::Own) => own,
                        _ => own.opponent(),
                    };
                    let p = Point::new(l.at.x as u8, l.at.y as u8);
                    b.place(color, p)
                        .unwrap_or_else(|err| e.fail(&err.to_string()));
                }
                self.board = b;
            } else if let Ok(l) = StoneLine::parse(line) {
                lines.push(l);
            }
            return;
        }
        let words: Vec<&str> = lower.split_whitespace().collect();
        match words.as_slice() {
            ["start", w, h] | ["rectstart", w, h] => {
                let (w, h) = (w.parse().unwrap_or(15), h.parse().unwrap_or(15));
                self.board = Board::new(w, h, self.board.rule())
                    .unwrap_or_else(|err| e.fail(&err.to_string()));
            }
            ["start", n] => {
                let n = n.parse().unwrap_or(15);
                self.board = Board::new(n, n, self.board.rule())
                    .unwrap_or_else(|err| e.fail(&err.to_string()));
            }
            ["yxboard"] | ["board"] => self.block = Some((Vec::new(), words[0] == "board")),
            ["turn", at] => {
                let c = Coord::parse(at, "TURN").unwrap_or_else(|err| e.fail(&err.to_string()));
                self.play(e, Point::new(c.x as u8, c.y as u8));
            }
            _ => {}
        }
    }

    fn play(&mut self, e: &Engine, p: Point) {
        if !self.board.contains(p) || !self.board.is_empty_at(p) || !self.board.is_legal(p) {
            e.fail(&format!(
                "{p} is not a legal move here:\n{}",
                self.board.to_text()
            ));
        }
        let _ = self.board.play(p);
    }

    fn free(&self, c: Coord) -> bool {
        let p = Point::new(c.x as u8, c.y as u8);
        self.board.contains(p) && self.board.is_empty_at(p)
    }
}

/// Checks the search output that came before a reply against the position.
fn check_output(e: &Engine, follow: &Follow, messages: &[String], infos: &[String]) {
    for m in messages {
        if m.starts_with("REALTIME") {
            let event: Realtime = m
                .parse()
                .unwrap_or_else(|err| e.fail(&format!("{m:?}: {err}")));
            match event {
                Realtime::Pos(c) | Realtime::Done(c) | Realtime::Best(c) | Realtime::Lose(c) => {
                    if !follow.free(c) {
                        e.fail(&format!("{m:?} names a taken point"));
                    }
                }
                Realtime::Refresh => {}
            }
        } else if m.starts_with("depth ") {
            let info: wuzi_protocol::SearchInfo = m
                .parse()
                .unwrap_or_else(|err| e.fail(&format!("{m:?}: {err}")));
            if let Some(&first) = info.pv.first() {
                if !follow.free(first) {
                    e.fail(&format!("{m:?} starts on a taken point"));
                }
            }
        }
    }
    let answer = protocol_support::analysis::Answer {
        infos: infos.to_vec(),
        ..Default::default()
    };
    for block in answer.blocks() {
        match block.line.first() {
            Some(&first) if follow.free(first) => {}
            _ => e.fail(&format!(
                "a detail block's line does not start on a free point: {block:?}"
            )),
        }
    }
}

#[test]
fn a_yixin_board_analysis_session_replays_with_every_reply_checked() {
    let text = read_data("protocol/yixin-board-analysis.txt");
    let mut e = Engine::spawn_with_eol("\n");
    let mut follow = Follow {
        board: Board::new(15, 15, Rule::Freestyle).unwrap_or_else(|err| panic!("{err}")),
        block: None,
    };
    let mut replies = 0;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (kind, rest) = line.split_at(1);
        let rest = rest.trim_start();
        match kind {
            ">" => {
                let free = protocol_support::free_point(&follow.board);
                let rest = rest.replace("{free}", &format!("{},{}", free.x, free.y));
                let rest = rest.as_str();
                e.send(rest);
                follow.sent(&e, rest);
                if rest.eq_ignore_ascii_case("end") {
                    let status = e.exit_within(Duration::from_secs(2));
                    assert!(status.is_some_and(|s| s.success()), "END: {status:?}");
                }
            }
            "~" => {
                let ms: u64 = rest
                    .parse()
                    .unwrap_or_else(|_| panic!("line {}: bad wait", n + 1));
                std::thread::sleep(Duration::from_millis(ms));
            }
            "<" => {
                replies += 1;
                expect(&mut e, &mut follow, rest, n + 1);
            }
            _ => panic!("line {}: {line:?} is not of the transcript's format", n + 1),
        }
    }
    assert!(replies >= 20, "{replies} replies checked");
}

fn expect(e: &mut Engine, follow: &mut Follow, want: &str, n: usize) {
    if want == "{silence}" {
        let started = Instant::now();
        let lines = lines_for(e, Duration::from_millis(500));
        let replies: Vec<&String> = lines
            .iter()
            .filter(|l| !l.starts_with("MESSAGE ") && !l.starts_with("INFO "))
            .collect();
        if !replies.is_empty() {
            e.fail(&format!(
                "line {n}: silence expected, got {replies:?} after {:?}",
                started.elapsed()
            ));
        }
        return;
    }
    if let Some(prefix) = want
        .strip_prefix("{message ")
        .and_then(|w| w.strip_suffix('}'))
    {
        let line = e
            .line_within(PROMPT)
            .unwrap_or_else(|| e.fail(&format!("line {n}: no message")));
        if !line.starts_with(&format!("MESSAGE {prefix}")) {
            e.fail(&format!(
                "line {n}: {line:?} should start with MESSAGE {prefix}"
            ));
        }
        return;
    }
    if want.starts_with("MESSAGE ") {
        let line = e
            .line_within(PROMPT)
            .unwrap_or_else(|| e.fail(&format!("line {n}: no message")));
        if line != want {
            e.fail(&format!("line {n}: {line:?}, want {want:?}"));
        }
        return;
    }
    let a = answer(e, Duration::from_secs(30));
    check_output(e, follow, &a.messages, &a.infos);
    let reply = a.reply.as_str();
    if want == "{ok}" {
        if reply != "OK" {
            e.fail(&format!("line {n}: {reply:?}, want OK"));
        }
    } else if let Some(prefix) = want
        .strip_prefix("{error ")
        .and_then(|w| w.strip_suffix('}'))
    {
        if !reply.starts_with(&format!("ERROR {prefix}")) {
            e.fail(&format!("line {n}: {reply:?}, want ERROR {prefix}"));
        }
    } else if let Some(spec) = want
        .strip_prefix("{move")
        .filter(|w| !w.starts_with('s'))
        .and_then(|w| w.strip_suffix('}'))
    {
        let moves = moves_of(e, reply);
        if moves.len() != 1 {
            e.fail(&format!("line {n}: {reply:?} is not one move"));
        }
        if let Some(list) = spec.trim().strip_prefix('!') {
            let excluded =
                Coord::parse_list(list, "excluded").unwrap_or_else(|err| e.fail(&err.to_string()));
            if excluded
                .iter()
                .any(|c| Point::new(c.x as u8, c.y as u8) == moves[0])
            {
                e.fail(&format!("line {n}: {reply:?} is excluded ({list})"));
            }
        }
        follow.play(e, moves[0]);
    } else if let Some(count) = want
        .strip_prefix("{moves ")
        .and_then(|w| w.strip_suffix('}'))
    {
        let moves = moves_of(e, reply);
        if count.trim().parse() != Ok(moves.len()) {
            e.fail(&format!("line {n}: {reply:?} is not {count} moves"));
        }
        for p in moves {
            follow.play(e, p);
        }
    } else if reply != want {
        e.fail(&format!("line {n}: {reply:?}, want {want:?}"));
    }
}
