//! The five rules (Gomocup's freestyle, standard, renju and caro, and caro with exact fives)
//! and the one question every other module asks of them: does a maximal run of one colour's
//! stones win?
//!
//! - freestyle: five or more in a row wins;
//! - standard: exactly five wins, an overline wins for nobody;
//! - renju: White wins with five or more, Black only with exactly five (Black's forbidden
//!   moves are decided in `renju.rs`);
//! - caro: a run that is blocked at both ends by the opponent's stones does not win (the
//!   board's edge is not a block); `CaroExact` also requires exactly five.

use crate::types::Color;

#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Rule {
    Freestyle,
    Standard,
    Renju,
    Caro,
    CaroExact,
}

/// What lies just beyond one end of a maximal run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RunEnd {
    Empty,
    Opponent,
    Wall,
}

impl Rule {
    pub const ALL: [Rule; 5] = [
        Rule::Freestyle,
        Rule::Standard,
        Rule::Renju,
        Rule::Caro,
        Rule::CaroExact,
    ];

    /// Position in `Rule::ALL`: an index for per-rule tables.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The rule for a Gomocup `INFO rule` value (Yixin-Board sends 2 for renju).
    pub fn from_gomocup(code: u32) -> Option<Rule> {
        match code {
            0 => Some(Rule::Freestyle),
            1 => Some(Rule::Standard),
            2 | 4 => Some(Rule::Renju),
            8 => Some(Rule::Caro),
            9 => Some(Rule::CaroExact),
            _ => None,
        }
    }

    pub fn gomocup_code(self) -> u32 {
        match self {
            Rule::Freestyle => 0,
            Rule::Standard => 1,
            Rule::Renju => 4,
            Rule::Caro => 8,
            Rule::CaroExact => 9,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
            Rule::Caro => "caro",
            Rule::CaroExact => "caro-exact",
        }
    }

    /// True when `color` may not win with more than five in a row.
    #[inline]
    pub fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle | Rule::Caro => false,
            Rule::Standard | Rule::CaroExact => true,
            Rule::Renju => color == Color::Black,
        }
    }

    /// Whether a maximal run of `len` stones of `color` wins, given what lies beyond its ends.
    pub fn run_wins(self, color: Color, len: usize, left: RunEnd, right: RunEnd) -> bool {
        let long_enough = if self.exact_five(color) {
            len == 5
        } else {
            len >= 5
        };
        let caro = matches!(self, Rule::Caro | Rule::CaroExact);
        long_enough && !(caro && left == RunEnd::Opponent && right == RunEnd::Opponent)
    }

    /// True when Black's overlines, double fours and double threes are forbidden.
    #[inline]
    pub fn has_forbidden_moves(self) -> bool {
        self == Rule::Renju
    }
}

impl std::str::FromStr for Rule {
    type Err = String;
    fn from_str(s: &str) -> Result<Rule, String> {
        let lower = s.to_ascii_lowercase();
        if let Ok(code) = lower.parse::<u32>() {
            return Rule::from_gomocup(code).ok_or_else(|| format!("unknown rule code {code}"));
        }
        Rule::ALL
            .into_iter()
            .find(|r| r.name() == lower || (lower == "caroexact" && *r == Rule::CaroExact))
            .ok_or_else(|| {
                format!("unknown rule '{s}' (freestyle, standard, renju, caro, caro-exact)")
            })
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gomocup_codes_round_trip() {
        for rule in Rule::ALL {
            assert_eq!(Rule::from_gomocup(rule.gomocup_code()), Some(rule));
            assert_eq!(Rule::ALL[rule.index()], rule);
            assert_eq!(rule.name().parse::<Rule>(), Ok(rule));
        }
        assert_eq!(Rule::from_gomocup(2), Some(Rule::Renju));
        assert_eq!(Rule::from_gomocup(3), None);
        assert!("gomoku".parse::<Rule>().is_err());
    }

    #[test]
    fn run_wins_per_rule() {
        use RunEnd::*;
        let b = Color::Black;
        let w = Color::White;
        assert!(Rule::Freestyle.run_wins(b, 6, Empty, Empty));
        assert!(!Rule::Standard.run_wins(w, 6, Empty, Empty));
        assert!(Rule::Standard.run_wins(w, 5, Opponent, Opponent));
        assert!(!Rule::Renju.run_wins(b, 6, Empty, Empty));
        assert!(Rule::Renju.run_wins(w, 6, Empty, Empty));
        assert!(!Rule::Caro.run_wins(b, 5, Opponent, Opponent));
        assert!(Rule::Caro.run_wins(b, 5, Opponent, Wall));
        assert!(Rule::Caro.run_wins(b, 6, Opponent, Empty));
        assert!(!Rule::CaroExact.run_wins(b, 6, Empty, Empty));
        assert!(!Rule::Freestyle.run_wins(b, 4, Empty, Empty));
    }
}
