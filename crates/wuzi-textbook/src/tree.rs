//! Explicit game trees, as drawn in the articles, and their bracket notation.
//!
//! This module owns [`Tree`], its parser and printer, and [`TreeGame`], which
//! walks a tree as a [`Game`]. A list is an inner node whose children are the
//! moves, a number is a leaf holding the value for the maximiser, and the
//! maximiser moves at the root: `[[7, 3], [15]]`.
//!
//! Invariants: every inner node has at least one child (the parser rejects
//! `[]`), and parsing what [`Tree`]'s `Display` prints gives the same tree.

use std::fmt;
use std::str::FromStr;

use crate::game::Game;

/// A game tree with its leaf values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Tree {
    /// A terminal position and its value for the maximiser.
    Leaf(i32),
    /// A position whose moves lead to these children, in order.
    Node(Vec<Tree>),
}

impl Tree {
    /// Nodes in the tree, leaves and root included: what minimax visits when
    /// it searches the tree to the end.
    pub fn size(&self) -> u64 {
        match self {
            Tree::Leaf(_) => 1,
            Tree::Node(children) => 1 + children.iter().map(Tree::size).sum::<u64>(),
        }
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tree::Leaf(value) => write!(f, "{value}"),
            Tree::Node(children) => {
                f.write_str("[")?;
                for (i, child) in children.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{child}")?;
                }
                f.write_str("]")
            }
        }
    }
}

/// Why a string is not a tree, and where (a byte offset into it).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseTreeError {
    /// Byte offset of the offending character, or the length at end of input.
    pub offset: usize,
    /// What was wrong there.
    pub message: String,
}

impl fmt::Display for ParseTreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at byte {}: {}", self.offset, self.message)
    }
}

impl std::error::Error for ParseTreeError {}

/// Deep enough for any tree a search could get through, shallow enough that a
/// hostile string of brackets cannot overflow the parser's stack.
const MAX_NESTING: usize = 200;

impl FromStr for Tree {
    type Err = ParseTreeError;

    fn from_str(s: &str) -> Result<Tree, ParseTreeError> {
        let mut parser = Parser {
            text: s.as_bytes(),
            pos: 0,
        };
        let tree = parser.tree(0)?;
        parser.skip_spaces();
        if parser.pos < parser.text.len() {
            return Err(parser.error("unexpected text after the tree"));
        }
        Ok(tree)
    }
}

/// A recursive-descent parser over the bytes of the notation (all of its
/// syntax is ASCII, so byte offsets are character boundaries where it matters).
struct Parser<'a> {
    text: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, message: &str) -> ParseTreeError {
        ParseTreeError {
            offset: self.pos,
            message: message.to_string(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    fn tree(&mut self, nesting: usize) -> Result<Tree, ParseTreeError> {
        self.skip_spaces();
        match self.peek() {
            Some(b'[') => self.node(nesting),
            Some(b'-' | b'0'..=b'9') => self.leaf(),
            Some(_) => Err(self.error("expected '[' or a number")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn node(&mut self, nesting: usize) -> Result<Tree, ParseTreeError> {
        if nesting >= MAX_NESTING {
            return Err(self.error("lists nested too deeply"));
        }
        self.pos += 1; // the '['
        let mut children = Vec::new();
        loop {
            self.skip_spaces();
            if self.peek() == Some(b']') {
                if children.is_empty() {
                    return Err(self.error("an inner node needs at least one child"));
                }
                self.pos += 1;
                return Ok(Tree::Node(children));
            }
            if !children.is_empty() {
                if self.peek() != Some(b',') {
                    return Err(self.error("expected ',' or ']'"));
                }
                self.pos += 1;
            }
            children.push(self.tree(nesting + 1)?);
        }
    }

    fn leaf(&mut self) -> Result<Tree, ParseTreeError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        let digits = &self.text[start..self.pos];
        // Only ASCII '-' and digits were consumed, so this cannot fail; the
        // number itself may still be malformed ("-") or too large.
        let number = std::str::from_utf8(digits).unwrap_or_default();
        number
            .parse::<i32>()
            .map(Tree::Leaf)
            .map_err(|_| ParseTreeError {
                offset: start,
                message: format!("'{number}' is not a leaf value (a 32-bit integer)"),
            })
    }
}

/// A walk through a [`Tree`]: the position is the path from the root, and a
/// move is the index of the child to go to.
#[derive(Clone, Debug)]
pub struct TreeGame<'a> {
    /// The nodes from the root down to the current one; never empty.
    path: Vec<&'a Tree>,
}

impl<'a> TreeGame<'a> {
    /// Starts at the root, with the maximiser to move.
    pub fn new(root: &'a Tree) -> Self {
        TreeGame { path: vec![root] }
    }

    fn current(&self) -> &'a Tree {
        // `path` starts with the root and `undo` never pops it.
        self.path[self.path.len() - 1]
    }
}

impl Game for TreeGame<'_> {
    type Move = usize;

    fn maximizer_to_move(&self) -> bool {
        // The root is at depth 0, and the players alternate by level.
        self.path.len() % 2 == 1
    }

    fn moves(&mut self) -> Vec<usize> {
        match self.current() {
            Tree::Leaf(_) => Vec::new(),
            Tree::Node(children) => (0..children.len()).collect(),
        }
    }

    fn play(&mut self, mv: usize) {
        match self.current() {
            Tree::Node(children) if mv < children.len() => self.path.push(&children[mv]),
            _ => panic!("no move {mv} from this node of the tree"),
        }
    }

    fn undo(&mut self, _mv: usize) {
        if self.path.len() > 1 {
            self.path.pop();
        }
    }

    fn is_terminal(&mut self) -> bool {
        matches!(self.current(), Tree::Leaf(_))
    }

    /// A leaf's value. An inner node has no heuristic value in these trees, so
    /// one cut off by a depth limit scores 0.
    fn evaluate(&mut self) -> i32 {
        match self.current() {
            Tree::Leaf(value) => *value,
            Tree::Node(_) => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Tree {
        match s.parse() {
            Ok(tree) => tree,
            Err(e) => panic!("{s:?} should parse: {e}"),
        }
    }

    #[test]
    fn parses_nested_lists_and_negative_leaves() {
        let tree = parse(" [[7, -3], [15] ,[1]] ");
        let expected = Tree::Node(vec![
            Tree::Node(vec![Tree::Leaf(7), Tree::Leaf(-3)]),
            Tree::Node(vec![Tree::Leaf(15)]),
            Tree::Node(vec![Tree::Leaf(1)]),
        ]);
        assert_eq!(tree, expected);
        assert_eq!(tree.size(), 8);
    }

    #[test]
    fn printing_and_parsing_round_trip() {
        let text = "[[[[10, 20], [5]], [[-10]]], [[[7, 5], [-8]], [[-7, -5]]]]";
        assert_eq!(parse(text).to_string(), text);
        assert_eq!(parse("42"), Tree::Leaf(42));
    }

    #[test]
    fn rejects_malformed_input_with_its_position() {
        let cases = [
            ("", 0),
            ("[]", 1),
            ("[1 2]", 3),
            ("[1,]", 3),
            ("[1, [2]", 7),
            ("[1] 2", 4),
            ("[-]", 1),
            ("[x]", 1),
            ("[99999999999]", 1),
            ("[1]]", 3),
        ];
        for (text, offset) in cases {
            match text.parse::<Tree>() {
                Ok(tree) => panic!("{text:?} parsed as {tree}"),
                Err(e) => assert_eq!(e.offset, offset, "{text:?}: {e}"),
            }
        }
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_stack_overflow() {
        let text = "[".repeat(100_000);
        let err = text.parse::<Tree>().err();
        assert_eq!(err.map(|e| e.offset), Some(MAX_NESTING));
        let ok = format!("{}1{}", "[".repeat(50), "]".repeat(50));
        assert_eq!(parse(&ok).size(), 51);
    }

    #[test]
    fn walking_the_tree_alternates_players() {
        let tree = parse("[[1, 2], [3]]");
        let mut game = TreeGame::new(&tree);
        assert!(game.maximizer_to_move());
        assert_eq!(game.moves(), vec![0, 1]);
        game.play(0);
        assert!(!game.maximizer_to_move());
        assert!(!game.is_terminal());
        game.play(1);
        assert!(game.is_terminal());
        assert_eq!(game.evaluate(), 2);
        game.undo(1);
        game.undo(0);
        assert_eq!(game.moves(), vec![0, 1]);
        assert_eq!(game.evaluate(), 0);
    }
}
