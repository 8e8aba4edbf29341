//! A game tree typed in as nested leaves, the textbook exercise: `((3,12,8),(2,4,6),(14,5,2))` is a
//! MAX root with three MIN children of three leaves each. Leaves hold integer values for MAX (the
//! first player); MAX moves at the root and the players alternate. Leaves may sit at any depth.
//!
//! A move is a child's number, counted from 1 as a class reads the tree left to right. The searches
//! score a leaf with [`Game::leaf_value`], so the tree is searched to its height whatever its shape.

use std::fmt;
use std::sync::Arc;

use super::{Game, MAX_PLY, Outcome, Score, Side, WIN, path_key};
use crate::text::quote;

/// Leaf values stay below proven-win scores, so no leaf reads as "X wins".
pub const LEAF_LIMIT: Score = WIN - MAX_PLY as Score;
/// Deeper nesting is refused: no class tree is this deep, and parsing recurses.
pub const MAX_DEPTH: usize = 64;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Node {
    /// A leaf's value for MAX.
    Leaf(Score),
    /// An inner node's children, left to right (at least one).
    Inner(Vec<Node>),
}

impl Node {
    /// Reads a tree; the error names the column (from 1) where the text goes wrong.
    pub fn parse(text: &str) -> Result<Node, String> {
        let mut parser = Parser { text: text.as_bytes(), at: 0 };
        parser.skip_space();
        if parser.at == text.len() {
            return Err("the tree is empty: write leaves in brackets, e.g. ((3,12,8),(2,4,6))".to_string());
        }
        let node = parser.node(0)?;
        parser.skip_space();
        if parser.at < text.len() {
            return Err(parser.error(&format!("unexpected {} after the tree", parser.found())));
        }
        Ok(node)
    }

    /// Plies from this node down to its deepest leaf.
    pub fn height(&self) -> usize {
        match self {
            Node::Leaf(_) => 0,
            Node::Inner(children) => 1 + children.iter().map(Node::height).max().unwrap_or(0),
        }
    }

    pub fn leaf_count(&self) -> usize {
        match self {
            Node::Leaf(_) => 1,
            Node::Inner(children) => children.iter().map(Node::leaf_count).sum(),
        }
    }

    fn children(&self) -> &[Node] {
        match self {
            Node::Leaf(_) => &[],
            Node::Inner(children) => children,
        }
    }
}

/// The tree in the form it is typed, without spaces.
impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Node::Leaf(value) => write!(f, "{value}"),
            Node::Inner(children) => {
                write!(f, "(")?;
                for (i, child) in children.iter().enumerate() {
                    if i > 0 {
                        write!(f, ",")?;
                    }
                    child.fmt(f)?;
                }
                write!(f, ")")
            }
        }
    }
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn error(&self, problem: &str) -> String {
        format!("column {}: {problem}", self.at + 1)
    }

    fn found(&self) -> String {
        match std::str::from_utf8(&self.text[self.at..]).ok().and_then(|rest| rest.chars().next()) {
            Some(c) => format!("'{}'", quote(&c.to_string())),
            None if self.at < self.text.len() => "a byte that is not text".to_string(),
            None => "the end of the text".to_string(),
        }
    }

    fn skip_space(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    fn node(&mut self, depth: usize) -> Result<Node, String> {
        self.skip_space();
        match self.text.get(self.at) {
            Some(b'(') if depth >= MAX_DEPTH => Err(self.error(&format!("the tree is deeper than {MAX_DEPTH} levels"))),
            Some(b'(') => {
                self.at += 1;
                let mut children = Vec::new();
                loop {
                    self.skip_space();
                    if children.is_empty() && self.text.get(self.at) == Some(&b')') {
                        return Err(self.error("a node needs at least one child: () is empty"));
                    }
                    children.push(self.node(depth + 1)?);
                    self.skip_space();
                    match self.text.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b')') => {
                            self.at += 1;
                            return Ok(Node::Inner(children));
                        }
                        _ => return Err(self.error(&format!("expected ',' or ')', found {}", self.found()))),
                    }
                }
            }
            Some(b'-' | b'0'..=b'9') => self.leaf(),
            _ => Err(self.error(&format!("expected a number or '(', found {}", self.found()))),
        }
    }

    fn leaf(&mut self) -> Result<Node, String> {
        let start = self.at;
        if self.text[self.at] == b'-' {
            self.at += 1;
        }
        while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        let digits = std::str::from_utf8(&self.text[start..self.at]).expect("ASCII digits");
        if matches!(self.text.get(self.at), Some(b'.' | b'e' | b'E')) {
            let end = self.at + self.text[self.at..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'.').count();
            let written = String::from_utf8_lossy(&self.text[start..end]);
            return Err(format!("column {}: leaves are whole numbers, not {written}", start + 1));
        }
        let too_big = || format!("column {}: {digits} is beyond ±{LEAF_LIMIT}", start + 1);
        match digits.parse::<Score>() {
            Ok(value) if value.abs() <= LEAF_LIMIT => Ok(Node::Leaf(value)),
            Ok(_) => Err(too_big()),
            Err(_) if digits.len() > 1 => Err(too_big()),
            Err(_) => Err(self.error(&format!("expected digits after '-', found {}", self.found()))),
        }
    }
}

/// A typed-in tree being played: the whole tree and the path to the current node.
#[derive(Debug, Clone)]
pub struct CustomTree {
    root: Arc<Node>,
    /// Child indices (from 0) from the root to the current node.
    path: Vec<u32>,
    hash: u64,
}

impl CustomTree {
    pub fn new(root: Node) -> Self {
        Self { root: Arc::new(root), path: Vec::new(), hash: 0 }
    }

    /// Reads a tree to search ([`Node::parse`]); a lone leaf is refused, as it has no move.
    pub fn parse(text: &str) -> Result<Self, String> {
        match Node::parse(text)? {
            Node::Leaf(_) => Err("a tree needs at least one move".to_string()),
            root => Ok(Self::new(root)),
        }
    }

    pub fn root(&self) -> &Node {
        &self.root
    }

    /// The moves made so far: child indices (from 0) from the root.
    pub fn path(&self) -> &[u32] {
        &self.path
    }

    /// The node the moves made so far lead to.
    pub fn current(&self) -> &Node {
        self.path.iter().fold(&*self.root, |node, &i| &node.children()[i as usize])
    }
}

impl Game for CustomTree {
    type Move = u32;

    fn side_to_move(&self) -> Side {
        if self.path.len().is_multiple_of(2) { Side::First } else { Side::Second }
    }

    fn legal_moves(&self, moves: &mut Vec<u32>) {
        moves.extend(0..self.current().children().len() as u32);
    }

    fn make_move(&mut self, index: u32) {
        self.hash ^= path_key(self.path.len(), index);
        self.path.push(index);
    }

    fn unmake_move(&mut self) {
        let index = self.path.pop().expect("unmake_move at the root");
        self.hash ^= path_key(self.path.len(), index);
    }

    /// Leaves are scored by [`Game::leaf_value`], not as game results.
    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn leaf_value(&self) -> Option<Score> {
        match self.current() {
            Node::Leaf(value) => Some(self.side_to_move().sign() * value),
            Node::Inner(_) => None,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    /// Only leaves have values; the tree's searches reach every leaf, so no horizon asks for more.
    fn evaluate(&self) -> Score {
        self.leaf_value().unwrap_or(0)
    }

    fn ply(&self) -> usize {
        self.path.len()
    }

    fn move_text(&self, index: u32) -> String {
        (index + 1).to_string()
    }

    fn parse_move(&self, text: &str) -> Result<u32, String> {
        let count = self.current().children().len();
        match text.trim().parse::<usize>() {
            Ok(number) if (1..=count).contains(&number) => Ok(number as u32 - 1),
            _ if count == 0 => Err("a leaf has no moves".to_string()),
            _ => Err(format!("'{}' is not a child number from 1 to {count}", quote(text))),
        }
    }
}

impl crate::games::RegisteredGame for CustomTree {
    const ID: &'static str = "tree";
    const NAME: &'static str = "Custom tree";
    const SIDES: [&'static str; 2] = ["MAX", "MIN"];
    const DEFAULT_POSITION: &'static str = "((3,12,8),(2,4,6),(14,5,2))";
    const POSITION_HELP: &'static str = "Nested leaves, e.g. ((3,12,8),(2,4,6),(14,5,2)): MAX at the root, then MIN, \
         alternating; integer leaves for MAX at any depth. Moves are child numbers from 1.";
    // Searched to its height whatever the depth asked for (see the game-tree lab's `spawn`).
    const DEFAULT_DEPTH: u32 = MAX_DEPTH as u32;
    const MAX_DEPTH: u32 = MAX_DEPTH as u32;

    fn parse_position(text: &str) -> Result<Self, String> {
        CustomTree::parse(text)
    }

    /// The subtree the moves made lead to.
    fn position_text(&self) -> String {
        self.current().to_string()
    }

    fn looks_like(text: &str) -> bool {
        text.trim_start().starts_with('(')
    }

    /// The whole tree and the moves made in it: `TREE|1,0`.
    fn record(&self) -> String {
        let path: Vec<String> = self.path.iter().map(u32::to_string).collect();
        format!("{}|{}", self.root, path.join(","))
    }

    fn from_record(text: &str) -> Result<Self, String> {
        let (tree, path) = text.split_once('|').ok_or("a tree's record is TREE|PATH")?;
        let mut game = CustomTree::parse(tree)?;
        for index in path.split(',').filter(|index| !index.is_empty()) {
            let index: u32 = index.parse().map_err(|_| format!("'{index}' is not a child index"))?;
            if index as usize >= game.current().children().len() {
                return Err(format!("the tree has no child {index} there"));
            }
            game.make_move(index);
        }
        Ok(game)
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn trees_read_with_spaces_and_negative_leaves() {
        let tree = Node::parse(" ( (3, -12 ,8),\n(2) , 7 ) ").unwrap();
        let leaf = Node::Leaf;
        assert_eq!(
            tree,
            Node::Inner(vec![Node::Inner(vec![leaf(3), leaf(-12), leaf(8)]), Node::Inner(vec![leaf(2)]), leaf(7)])
        );
        assert_eq!(tree.to_string(), "((3,-12,8),(2),7)");
        assert_eq!((tree.height(), tree.leaf_count()), (2, 5));
        assert_eq!(Node::parse("5"), Ok(leaf(5)));
    }

    #[test]
    fn bad_trees_name_the_column() {
        for (text, message) in [
            ("((3,12,8),(2,4,6)", "column 18: expected ',' or ')', found the end of the text"),
            ("((3,12;8))", "column 7: expected ',' or ')', found ';'"),
            ("(3,,4)", "column 4: expected a number or '(', found ','"),
            ("(1,())", "column 5: a node needs at least one child"),
            ("(1,2) x", "column 7: unexpected 'x' after the tree"),
            ("(1,-)", "column 5: expected digits after '-', found ')'"),
            ("(1,99999999999)", "column 4: 99999999999 is beyond ±999000"),
            ("  ", "the tree is empty"),
            ("(1,é)", "column 4: expected a number or '(', found 'é'"),
        ] {
            let error = Node::parse(text).unwrap_err();
            assert!(error.starts_with(message), "{text}: {error}");
        }
        let deep = format!("{}1{}", "(".repeat(MAX_DEPTH + 1), ")".repeat(MAX_DEPTH + 1));
        assert!(Node::parse(&deep).unwrap_err().contains("deeper than 64"));
    }

    #[test]
    fn moves_walk_the_tree_and_leaves_score_for_the_side_to_move() {
        let mut game = CustomTree::parse("((3,12),(-2,4))").unwrap();
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        assert_eq!(moves, [0, 1]);
        game.make_move(game.parse_move("2").unwrap());
        game.make_move(game.parse_move("1").unwrap());
        // Leaf -2 for MAX, with MAX to move two plies down.
        assert_eq!((game.side_to_move(), game.leaf_value()), (Side::First, Some(-2)));
        assert!(game.parse_move("1").unwrap_err().contains("a leaf has no moves"));
        game.unmake_move();
        assert_eq!((game.side_to_move(), game.leaf_value(), game.ply()), (Side::Second, None, 1));
        assert!(game.parse_move("3").is_err());
        game.unmake_move();
        assert_eq!(game.hash(), 0, "unmaking every move restores the root's hash");
    }

    fn tree() -> impl Strategy<Value = Node> {
        let leaf = (-LEAF_LIMIT..=LEAF_LIMIT).prop_map(Node::Leaf);
        leaf.prop_recursive(6, 64, 5, |inner| prop::collection::vec(inner, 1..5).prop_map(Node::Inner))
    }

    proptest! {
        #[test]
        fn any_text_reads_or_fails_without_panicking(text in "[-0-9(), \\n]{0,40}|\\PC{0,20}") {
            if let Ok(tree) = Node::parse(&text) {
                prop_assert_eq!(Node::parse(&tree.to_string()), Ok(tree));
            }
        }

        #[test]
        fn trees_round_trip_through_text(tree in tree(), spaces in any::<bool>()) {
            let text = if spaces { tree.to_string().replace(',', " , ").replace('(', "( ") } else { tree.to_string() };
            prop_assert_eq!(Node::parse(&text), Ok(tree));
        }
    }
}
