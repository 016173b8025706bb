//! The picture of a position as SVG: a wooden board with its lines, column letters above and
//! below, row numbers left and right (Gomocup coordinates: row 1 at the top, as `h8` names
//! `7,7`), the stones with their move numbers, the last move marked, renju Black's forbidden
//! points marked with a cross, and a principal variation as half-transparent numbered ghost
//! stones.
//!
//! Every stone is a `<g class="stone">` carrying `data-move` (1-based; 0 for a setup stone), `data-x`, `data-y`
//! (Gomocup coordinates) and `data-color`, its circle centred on its point; ghost stones are
//! `<g class="ghost">` with the same attributes (`data-move` counting the variation from 1);
//! forbidden points are `<g class="forbidden">`. Scripts and tests find them by those names.
//! The picture uses no fonts or images from elsewhere (a generic sans-serif family).

use wuzi_core::{Color, Point};

use crate::error::ShowError;
use crate::game::Game;

/// Pixels between two lines.
pub const CELL: f64 = 32.0;
/// Pixels from the picture's edge to the outer lines (room for the coordinates).
pub const MARGIN: f64 = 40.0;

/// What to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub game: Game,
    /// Draw the position after this many moves (all when `None`).
    pub upto: Option<usize>,
    /// Write move numbers on the stones (the opening's stones too, unless `number_opening` is
    /// false).
    pub numbers: bool,
    pub number_opening: bool,
    /// Mark Black's forbidden points (renju only; nothing under other rules).
    pub forbidden: bool,
    /// A variation from the position, drawn as numbered ghost stones.
    pub pv: Vec<Point>,
    /// Who plays the variation's first move (default: the side to move).
    pub pv_first: Option<Color>,
    /// A line of text under the board.
    pub caption: Option<String>,
}

impl Picture {
    /// The whole game with move numbers; no forbidden points, no variation, the game's title
    /// as the caption.
    pub fn of(game: Game) -> Picture {
        let caption = game.title.clone();
        Picture {
            game,
            upto: None,
            numbers: true,
            number_opening: true,
            forbidden: false,
            pv: Vec::new(),
            pv_first: None,
            caption,
        }
    }
}

/// The centre of point `(x, y)` in the picture.
pub fn centre(x: usize, y: usize) -> (f64, f64) {
    (MARGIN + x as f64 * CELL, MARGIN + y as f64 * CELL)
}

/// Escapes text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            '\'' => s.push_str("&apos;"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Column letters as the notation writes them: `a`..`z`, then `aa`, `ab`, ...
fn column_name(x: usize) -> String {
    let name = Point::new(x as u8, 0).name();
    name.trim_end_matches(|c: char| c.is_ascii_digit())
        .to_string()
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Draws the picture.
pub fn svg(p: &Picture) -> Result<String, ShowError> {
    let g = &p.game;
    let mut board = g.replay(p.upto)?;
    let shown = board.move_count();
    let (w, h) = (g.width, g.height);
    let caption_room = if p.caption.is_some() { 24.0 } else { 0.0 };
    let width = 2.0 * MARGIN + (w - 1) as f64 * CELL;
    let height = 2.0 * MARGIN + (h - 1) as f64 * CELL + caption_room;
    let r = CELL * 0.46;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"wuzi-board\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" data-width=\"{w}\" data-height=\"{h}\" font-family=\"sans-serif\">\n"
    );
    s.push_str(&format!(
        "<rect class=\"wood\" x=\"0\" y=\"0\" width=\"{width}\" height=\"{}\" fill=\"#deb468\"/>\n",
        height - caption_room
    ));
    let (x0, y0) = centre(0, 0);
    let (x1, y1) = centre(w - 1, h - 1);
    s.push_str("<g class=\"lines\" stroke=\"#5a4020\" stroke-width=\"1\">\n");
    for x in 0..w {
        let (cx, _) = centre(x, 0);
        s.push_str(&format!(
            "<line x1=\"{cx}\" y1=\"{y0}\" x2=\"{cx}\" y2=\"{y1}\"/>\n"
        ));
    }
    for y in 0..h {
        let (_, cy) = centre(0, y);
        s.push_str(&format!(
            "<line x1=\"{x0}\" y1=\"{cy}\" x2=\"{x1}\" y2=\"{cy}\"/>\n"
        ));
    }
    s.push_str(
        "</g>\n<g class=\"coords\" font-size=\"13\" fill=\"#3a2810\" text-anchor=\"middle\">\n",
    );
    for x in 0..w {
        let (cx, _) = centre(x, 0);
        let name = column_name(x);
        for ty in [MARGIN * 0.45, y1 + MARGIN * 0.75] {
            s.push_str(&format!("<text x=\"{cx}\" y=\"{ty}\">{name}</text>\n"));
        }
    }
    for y in 0..h {
        let (_, cy) = centre(0, y);
        for tx in [MARGIN * 0.4, x1 + MARGIN * 0.6] {
            s.push_str(&format!(
                "<text x=\"{tx}\" y=\"{}\">{}</text>\n",
                cy + 4.5,
                y + 1
            ));
        }
    }
    s.push_str("</g>\n");
    if p.forbidden && g.rule.has_forbidden_moves() {
        s.push_str("<g class=\"forbiddens\" stroke=\"#c01818\" stroke-width=\"3\">\n");
        for (pt, kind) in board.forbidden_points() {
            let (cx, cy) = centre(pt.x as usize, pt.y as usize);
            let d = CELL * 0.22;
            s.push_str(&format!(
                "<g class=\"forbidden\" data-x=\"{}\" data-y=\"{}\" data-kind=\"{}\"><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/><line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/></g>\n",
                pt.x, pt.y, kind.name(),
                cx - d, cy - d, cx + d, cy + d, cx - d, cy + d, cx + d, cy - d
            ));
        }
        s.push_str("</g>\n");
    }
    s.push_str("<g class=\"stones\" font-size=\"13\" text-anchor=\"middle\">\n");
    let setup = g.setup.len();
    for (i, (color, pt)) in board.history().into_iter().enumerate() {
        let Some(k) = i.checked_sub(setup) else {
            stone(&mut s, "stone", 0, color, pt, r, None, 1.0);
            continue;
        };
        let number = (p.numbers && (p.number_opening || k >= g.opening_len)).then_some(k + 1);
        stone(&mut s, "stone", k + 1, color, pt, r, number, 1.0);
    }
    s.push_str("</g>\n");
    if let Some(last) = board.last_move() {
        let (cx, cy) = centre(last.x as usize, last.y as usize);
        let color = board.stone(last).map_or("#e02020", |c| match c {
            Color::Black => "#ff5050",
            Color::White => "#e02020",
        });
        s.push_str(&format!(
            "<circle class=\"last\" cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{color}\" stroke-width=\"2.5\"/>\n",
            r + 2.0
        ));
    }
    if !p.pv.is_empty() {
        s.push_str("<g class=\"variation\" font-size=\"13\" text-anchor=\"middle\">\n");
        let mut color = p.pv_first.unwrap_or(board.side_to_move());
        for (i, &pt) in p.pv.iter().enumerate() {
            board.place(color, pt).map_err(|e| ShowError::BadMove {
                number: shown - g.setup.len() + i + 1,
                point: pt.name(),
                why: format!("in the variation: {e}"),
            })?;
            stone(&mut s, "ghost", i + 1, color, pt, r, Some(i + 1), 0.45);
            color = color.opponent();
        }
        s.push_str("</g>\n");
    }
    if let Some(c) = &p.caption {
        s.push_str(&format!(
            "<text class=\"caption\" x=\"{}\" y=\"{}\" font-size=\"14\" text-anchor=\"middle\" fill=\"#222\">{}</text>\n",
            width / 2.0,
            height - 8.0,
            escape(c)
        ));
    }
    s.push_str("</svg>\n");
    Ok(s)
}

/// One stone (or ghost stone) with its number.
#[allow(clippy::too_many_arguments)]
fn stone(
    s: &mut String,
    class: &str,
    number: usize,
    color: Color,
    pt: Point,
    r: f64,
    label: Option<usize>,
    opacity: f64,
) {
    let (cx, cy) = centre(pt.x as usize, pt.y as usize);
    let (fill, ink) = match color {
        Color::Black => ("#111", "#fff"),
        Color::White => ("#f6f6f2", "#111"),
    };
    s.push_str(&format!(
        "<g class=\"{class}\" data-move=\"{number}\" data-x=\"{}\" data-y=\"{}\" data-color=\"{}\" opacity=\"{opacity}\"><circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{fill}\" stroke=\"#222\" stroke-width=\"1\"/>",
        pt.x,
        pt.y,
        colour_name(color)
    ));
    if let Some(n) = label {
        let size = if n >= 100 { 10 } else { 13 };
        s.push_str(&format!(
            "<text x=\"{cx}\" y=\"{}\" fill=\"{ink}\" font-size=\"{size}\">{n}</text>",
            cy + 4.5
        ));
    }
    s.push_str("</g>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_follow_the_notation() {
        assert_eq!(column_name(0), "a");
        assert_eq!(column_name(25), "z");
        assert_eq!(column_name(26), "aa");
        assert_eq!(escape("a<b&\"c'"), "a&lt;b&amp;&quot;c&apos;");
    }
}
