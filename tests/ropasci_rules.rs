//! RoPaSci 360's rules checked against a second, plain implementation written here from
//! `spec/ropasci360-rules.md` (sharing no code with the library): legal action sets, positions
//! after each turn and results over random games and random positions; perft against the
//! published counts.

use std::collections::{BTreeSet, HashMap};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use searchlab::games::Side;
use searchlab::games::ropasci::RoPaSci;
use searchlab::games::simultaneous::{SimultaneousGame, perft};

type Hex = (i32, i32);

const STEPS: [Hex; 6] = [(1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1)];

fn on_board((r, q): Hex) -> bool {
    r.abs() <= 4 && q.abs() <= 4 && (r + q).abs() <= 4
}

fn all_hexes() -> Vec<Hex> {
    (-4..=4).flat_map(|r| (-4..=4).map(move |q| (r, q))).filter(|&h| on_board(h)).collect()
}

fn neighbours((r, q): Hex) -> Vec<Hex> {
    STEPS.iter().map(|(dr, dq)| (r + dr, q + dq)).filter(|&h| on_board(h)).collect()
}

/// The symbol `a` defeats.
fn prey(a: char) -> char {
    match a {
        'r' => 's',
        's' => 'p',
        _ => 'r',
    }
}

fn hex_text((r, q): Hex) -> String {
    format!("{r},{q}")
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum RefAction {
    Throw(char, Hex),
    Slide(Hex, Hex),
    Swing(Hex, Hex),
}

impl RefAction {
    fn text(self) -> String {
        match self {
            RefAction::Throw(s, h) => format!("THROW {s} {}", hex_text(h)),
            RefAction::Slide(a, b) => format!("SLIDE {} {}", hex_text(a), hex_text(b)),
            RefAction::Swing(a, b) => format!("SWING {} {}", hex_text(a), hex_text(b)),
        }
    }

    fn target(self) -> Hex {
        match self {
            RefAction::Throw(_, h) | RefAction::Slide(_, h) | RefAction::Swing(_, h) => h,
        }
    }
}

/// A token: (player 0 = Upper / 1 = Lower, symbol r/p/s, hex).
type Token = (usize, char, Hex);

#[derive(Clone, Debug)]
struct RefGame {
    tokens: Vec<Token>,
    throws: [u32; 2],
    turns: u32,
    history: Vec<String>,
    result: Option<String>,
}

impl RefGame {
    fn new(tokens: Vec<Token>, throws: [u32; 2], turns: u32) -> Self {
        let mut game = RefGame { tokens, throws, turns, history: Vec::new(), result: None };
        game.history.push(game.key());
        game.result = game.check_end();
        game
    }

    fn key(&self) -> String {
        let mut items: Vec<String> = self.tokens.iter().map(|t| format!("{t:?}")).collect();
        items.sort();
        format!("{} {:?}", items.join(" "), self.throws)
    }

    fn text(&self) -> String {
        let mut tokens = self.tokens.clone();
        tokens.sort_by_key(|&(p, _, (r, q))| (-r, q, p));
        let items: Vec<String> = tokens
            .iter()
            .map(|&(p, s, h)| format!("{}@{}", if p == 0 { s.to_ascii_uppercase() } else { s }, hex_text(h)))
            .collect();
        let tokens = if items.is_empty() { "-".to_string() } else { items.join(" ") };
        format!("{tokens} / {} {} / {}", self.throws[0], self.throws[1], self.turns)
    }

    fn legal(&self, player: usize) -> Vec<RefAction> {
        if self.result.is_some() {
            return Vec::new();
        }
        let mut actions = Vec::new();
        let mut seen = BTreeSet::new();
        let mut push = |a: RefAction, actions: &mut Vec<RefAction>| {
            if seen.insert(a.text()) {
                actions.push(a);
            }
        };
        if self.throws[player] < 9 {
            let n = self.throws[player] as i32 + 1;
            for s in ['r', 'p', 's'] {
                for h in all_hexes() {
                    let inside = if player == 0 { h.0 >= 5 - n } else { h.0 <= n - 5 };
                    if inside {
                        push(RefAction::Throw(s, h), &mut actions);
                    }
                }
            }
        }
        let own: Vec<Hex> = self.tokens.iter().filter(|t| t.0 == player).map(|t| t.2).collect();
        for &x in &own {
            for y in neighbours(x) {
                push(RefAction::Slide(x, y), &mut actions);
                if own.contains(&y) {
                    for z in neighbours(y) {
                        if z != x && !neighbours(x).contains(&z) {
                            push(RefAction::Swing(x, z), &mut actions);
                        }
                    }
                }
            }
        }
        actions
    }

    fn play(&mut self, upper: RefAction, lower: RefAction) {
        let moves = [upper, lower];
        let symbols: Vec<char> = (0..2)
            .map(|p| match moves[p] {
                RefAction::Throw(s, _) => s,
                RefAction::Slide(x, _) | RefAction::Swing(x, _) => {
                    self.tokens.iter().find(|t| t.0 == p && t.2 == x).expect("own token").1
                }
            })
            .collect();
        for p in 0..2 {
            match moves[p] {
                RefAction::Throw(s, h) => {
                    self.tokens.push((p, s, h));
                    self.throws[p] += 1;
                }
                RefAction::Slide(x, z) | RefAction::Swing(x, z) => {
                    let i = self.tokens.iter().position(|&t| t == (p, symbols[p], x)).expect("own token");
                    self.tokens[i].2 = z;
                }
            }
        }
        for hex in [upper.target(), lower.target()] {
            let present: BTreeSet<char> = self.tokens.iter().filter(|t| t.2 == hex).map(|t| t.1).collect();
            let present: Vec<char> = present.into_iter().collect();
            let losers: Vec<char> = match present.len() {
                3 => present,
                2 if prey(present[0]) == present[1] => vec![present[1]],
                2 => vec![present[0]],
                _ => vec![],
            };
            self.tokens.retain(|t| !(t.2 == hex && losers.contains(&t.1)));
        }
        self.turns += 1;
        self.history.push(self.key());
        self.result = self.check_end();
    }

    fn check_end(&self) -> Option<String> {
        let count =
            |p: usize, s: Option<char>| self.tokens.iter().filter(|t| t.0 == p && s.is_none_or(|s| t.1 == s)).count();
        let out = |p: usize| self.throws[p] == 9 && count(p, None) == 0;
        let name = ["First", "Second"];
        if out(0) && out(1) {
            return Some("Draw Elimination".into());
        }
        for p in 0..2 {
            if out(p) {
                return Some(format!("Win({}) Elimination", name[1 - p]));
            }
        }
        let invincible = |p: usize| {
            let o = 1 - p;
            self.throws[o] == 9
                && ['r', 'p', 's'].iter().any(|&s| {
                    count(p, Some(s)) > 0
                        && count(o, Some(['r', 'p', 's'].into_iter().find(|&b| prey(b) == s).unwrap())) == 0
                })
        };
        if invincible(0) && invincible(1) {
            return Some("Draw BothInvincible".into());
        }
        for (p, winner) in name.iter().enumerate() {
            if invincible(p) && self.throws[1 - p] == 9 && count(1 - p, None) == 1 {
                return Some(format!("Win({winner}) InvincibleAgainstLone"));
            }
        }
        let now = self.history.last().unwrap();
        if self.history.iter().filter(|k| *k == now).count() >= 3 {
            return Some("Draw Repetition".into());
        }
        (self.turns >= 360).then(|| "Draw TurnLimit".into())
    }
}

fn library_result(game: &RoPaSci) -> Option<String> {
    game.end().map(|(outcome, ending)| format!("{outcome:?} {ending:?}"))
}

/// Picks an action: half the time one landing on an enemy token when there is one (battles).
fn pick(game: &RefGame, player: usize, actions: &[RefAction], rng: &mut StdRng) -> RefAction {
    let hostile: Vec<RefAction> =
        actions.iter().copied().filter(|a| game.tokens.iter().any(|t| t.0 != player && t.2 == a.target())).collect();
    if !hostile.is_empty() && rng.random_bool(0.5) {
        hostile[rng.random_range(0..hostile.len())]
    } else {
        actions[rng.random_range(0..actions.len())]
    }
}

/// Compares the legal sets, plays one random joint action on both and compares the outcome;
/// false when the game was already over.
fn compare_turn(reference: &mut RefGame, library: &mut RoPaSci, rng: &mut StdRng) -> bool {
    let context = reference.text();
    let mut legal = [Vec::new(), Vec::new()];
    for (p, side) in [Side::First, Side::Second].into_iter().enumerate() {
        let mut actions = Vec::new();
        library.legal_actions(side, &mut actions);
        let library_set: BTreeSet<String> = actions.iter().map(|&a| library.action_text(side, a)).collect();
        assert_eq!(library_set.len(), actions.len(), "duplicate actions at {context}");
        legal[p] = reference.legal(p);
        let reference_set: BTreeSet<String> = legal[p].iter().map(|a| a.text()).collect();
        assert_eq!(library_set, reference_set, "{side:?}'s actions at {context}");
    }
    if legal[0].is_empty() {
        assert!(library.is_terminal() && legal[1].is_empty(), "no actions only when over, at {context}");
        return false;
    }
    let (upper, lower) = (pick(reference, 0, &legal[0], rng), pick(reference, 1, &legal[1], rng));
    let first = library.parse_action(Side::First, &upper.text()).expect("legal upper action parses");
    let second = library.parse_action(Side::Second, &lower.text()).expect("legal lower action parses");
    library.apply(first, second);
    reference.play(upper, lower);
    let joint = format!("{} + {} at {context}", upper.text(), lower.text());
    assert_eq!(library.position_text(), reference.text(), "position after {joint}");
    assert_eq!(library_result(library), reference.result, "result after {joint}");
    true
}

#[test]
fn random_games_agree_with_a_plain_implementation() {
    let mut rng = StdRng::seed_from_u64(360);
    let (mut turns, mut games, mut endings) = (0, 0, HashMap::<String, u32>::new());
    while turns < 8_000 {
        let (mut reference, mut library) = (RefGame::new(Vec::new(), [0, 0], 0), RoPaSci::new());
        while compare_turn(&mut reference, &mut library, &mut rng) {
            turns += 1;
        }
        games += 1;
        *endings.entry(reference.result.unwrap()).or_default() += 1;
    }
    println!("{games} games, {turns} joint actions, endings {endings:?}");
    assert!(endings.keys().any(|e| e.contains("Win")) && endings.keys().any(|e| e.contains("Draw")));
}

/// A random position written as text: throws, tokens no more than thrown, one symbol per hex.
fn random_position(rng: &mut StdRng) -> RefGame {
    let hexes = all_hexes();
    let throws = [rng.random_range(0..=9), rng.random_range(0..=9)];
    let mut tokens: Vec<Token> = Vec::new();
    for (p, &thrown) in throws.iter().enumerate() {
        for _ in 0..rng.random_range(0..=thrown) {
            let hex = hexes[rng.random_range(0..hexes.len())];
            let symbol = tokens.iter().find(|t| t.2 == hex).map_or(['r', 'p', 's'][rng.random_range(0..3)], |t| t.1);
            tokens.push((p, symbol, hex));
        }
    }
    let turns = rng.random_range(throws[0].max(throws[1])..=360);
    RefGame::new(tokens, throws, turns)
}

#[test]
fn random_positions_agree_with_a_plain_implementation() {
    let mut rng = StdRng::seed_from_u64(61);
    let mut played = 0;
    for _ in 0..3_000 {
        let mut reference = random_position(&mut rng);
        let mut library = RoPaSci::from_position(&reference.text()).expect("a generated position parses");
        assert_eq!(library.position_text(), reference.text());
        assert_eq!(library_result(&library), reference.result, "result of {}", reference.text());
        for _ in 0..2 {
            if !compare_turn(&mut reference, &mut library, &mut rng) {
                break;
            }
            played += 1;
        }
    }
    assert!(played >= 4_000, "only {played} joint actions from random positions");
}

#[test]
fn perft_matches_the_published_counts() {
    let start = RoPaSci::new();
    assert_eq!(perft(&start, 1), 225);
    assert_eq!(perft(&start, 2), 301_401);
    assert_eq!(perft(&start, 3), 1_103_302_656);
}

#[test]
fn bad_text_gives_one_line_errors() {
    let start = RoPaSci::new();
    for text in ["", "THROW x 4,0", "THROW r 9,9", "SLIDE 4,0", "JUMP 4,0 3,0", "SLIDE 4,0 3,0", "THROW r -4,0"] {
        let error = start.parse_action(Side::First, text).expect_err(text);
        assert!(!error.contains('\n'), "{error}");
    }
    for text in
        ["", "- / 0 0", "R@4,0 / 0 0 / 0", "R@4,0 p@4,0 / 1 1 / 1", "Q@0,0 / 1 0 / 1", "- / 10 0 / 10", "- / 3 0 / 2"]
    {
        let error = RoPaSci::from_position(text).expect_err(text);
        assert!(!error.contains('\n'), "{error}");
    }
    assert_eq!(RoPaSci::from_position("- / 0 0 / 0").unwrap(), start);
}
