//! The session's state as the page sees it: the JSON of `GET /api/sessions/{id}` and of every
//! `state` event (everything the page draws), numbered in the order of the changes.

use std::sync::atomic::Ordering;

use serde::Serialize;

use crate::game::{self, colour_name, kind_words, Eval};
use crate::job::JobKind;
use crate::progress::names;
use crate::session::{Inner, Session};

#[derive(Serialize)]
struct JobView {
    id: u64,
    kind: JobKind,
    done: usize,
    total: usize,
    /// The playing level it searches at (100: full strength).
    level: u64,
}

#[derive(Serialize)]
struct ResultView {
    winner: Option<&'static str>,
    reason: &'static str,
    text: String,
    five: Vec<String>,
}

impl ResultView {
    fn of(o: &game::Outcome) -> ResultView {
        ResultView {
            winner: o.winner().map(colour_name),
            reason: o.reason(),
            text: o.words(),
            five: match o {
                game::Outcome::Five { run, .. } => names(run),
                _ => Vec::new(),
            },
        }
    }
}

#[derive(Serialize)]
struct ForbiddenView {
    point: String,
    kind: &'static str,
}

#[derive(Serialize)]
struct Geometry {
    cell: f64,
    margin: f64,
}

#[derive(Serialize)]
struct StateView<'a> {
    session: &'a str,
    /// Grows with every state: a page that gets states out of order (an answer and the event
    /// stream race) keeps the one with the highest.
    seq: u64,
    rule: &'static str,
    width: usize,
    height: usize,
    moves: Vec<String>,
    ply: usize,
    to_move: &'static str,
    last: Option<String>,
    /// The outcome at the cursor (the game cannot go on from there).
    result: Option<ResultView>,
    /// The outcome at the end of the line.
    end_result: Option<ResultView>,
    forbidden: Vec<ForbiddenView>,
    evals: &'a [Option<Eval>],
    job: Option<JobView>,
    board_svg: Option<String>,
    geometry: Geometry,
    /// Whether playing levels are offered (`level` of a search for a move).
    levels: bool,
}

/// The session's state as JSON: everything the page draws. `inner` is the session's locked
/// part, so states are numbered in the order of the changes.
pub fn state_json(session: &Session, inner: &Inner) -> String {
    let g = &inner.game;
    let (width, height) = g.size();
    let view = StateView {
        session: &session.id,
        seq: session.seq.fetch_add(1, Ordering::SeqCst) + 1,
        rule: g.rule().name(),
        width,
        height,
        moves: names(g.moves()),
        ply: g.ply(),
        to_move: colour_name(g.board().side_to_move()),
        last: g.board().last_move().map(|p| p.name()),
        result: g.outcome().as_ref().map(ResultView::of),
        end_result: g.final_outcome().as_ref().map(ResultView::of),
        forbidden: g
            .forbidden()
            .into_iter()
            .map(|(p, k)| ForbiddenView {
                point: p.name(),
                kind: kind_words(k),
            })
            .collect(),
        evals: g.evals(),
        job: inner.job.as_ref().map(|j| JobView {
            id: j.id,
            kind: j.kind,
            done: j.progress.0,
            total: j.progress.1,
            level: j.level,
        }),
        board_svg: g.picture(&[]).ok(),
        geometry: Geometry {
            cell: wuzi_show::svg::CELL,
            margin: wuzi_show::svg::MARGIN,
        },
        levels: true,
    };
    serde_json::to_string(&view).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}
