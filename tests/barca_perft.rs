//! perft of the Barca engine against the spec's figure and against the independent slow rule
//! checker in `barca_reference`.

mod barca_reference;

use barca_reference::{fear_positions, fen_with, parse, playout_positions};
use searchlab::games::barca::perft::{divide, perft};
use searchlab::games::barca::{Barca, START_FEN};

#[test]
fn perft_1_from_the_start_is_38() {
    assert_eq!(perft(&mut Barca::start(), 1), 38);
    assert_eq!(parse(START_FEN).perft(1), 38);
}

/// The start position's counts, each confirmed by the reference checker (below; depth 4 in the
/// ignored test). Fear already bites at depth 2: 1,404 < 38².
const START_PERFT: [u64; 5] = [1, 38, 1_404, 66_286, 3_046_014];

#[test]
fn perft_from_the_start_matches_the_reference_at_depths_2_and_3() {
    // `depth` is the perft depth as well as the table's index.
    #[allow(clippy::needless_range_loop)]
    for depth in 2..=3 {
        let engine = perft(&mut Barca::start(), depth);
        assert_eq!(engine, parse(START_FEN).perft(depth), "depth {depth}");
        assert_eq!(engine, START_PERFT[depth]);
    }
    assert_eq!(perft(&mut Barca::start(), 4), START_PERFT[4]);
}

#[test]
#[ignore = "the slow reference takes seconds at depth 4; run with --ignored"]
fn perft_4_from_the_start_matches_the_reference() {
    assert_eq!(parse(START_FEN).perft(4), START_PERFT[4]);
}

#[test]
fn divide_sums_to_perft_at_depth_3() {
    let mut game = Barca::start();
    let split = divide(&mut game, 3);
    assert_eq!(split.len(), 38);
    assert_eq!(split.iter().map(|(_, nodes)| nodes).sum::<u64>(), perft(&mut game, 3));
    let reference = parse(START_FEN);
    for (mv, nodes) in split.iter().take(5) {
        assert_eq!(*nodes, reference.play(&mv.to_string()).perft(2), "after {mv}");
    }
    assert_eq!(game.to_fen(), START_FEN, "perft leaves the position as it found it");
}

#[test]
fn perft_matches_the_reference_on_random_playout_positions() {
    let positions = playout_positions(12, 40, 7);
    for game in positions.iter().step_by(positions.len() / 16) {
        let fen = game.to_fen();
        for depth in 1..=2 {
            assert_eq!(perft(&mut game.clone(), depth), parse(&fen).perft(depth), "{fen} depth {depth}");
        }
    }
    for game in positions.iter().step_by(positions.len() / 10) {
        let fen = game.to_fen();
        assert_eq!(perft(&mut game.clone(), 3), parse(&fen).perft(3), "{fen} depth 3");
    }
}

#[test]
fn perft_matches_the_reference_where_fear_decides() {
    for fen in fear_positions() {
        let game = Barca::from_fen(&fen).unwrap();
        for depth in 1..=3 {
            assert_eq!(perft(&mut game.clone(), depth), parse(&fen).perft(depth), "{fen} depth {depth}");
        }
    }
}

#[test]
fn perft_stops_at_a_won_position() {
    let won = fen_with(
        &[
            ("d4", 'E'),
            ("g4", 'E'),
            ("d7", 'L'),
            ("a1", 'L'),
            ("a2", 'M'),
            ("a3", 'M'),
            ("j10", 'e'),
            ("i10", 'e'),
            ("j9", 'l'),
            ("i9", 'l'),
            ("j8", 'm'),
            ("i8", 'm'),
        ],
        'b',
    );
    let mut game = Barca::from_fen(&won).unwrap();
    assert_eq!(perft(&mut game, 0), 1);
    assert_eq!(perft(&mut game, 1), 0);
    assert_eq!(perft(&mut game, 2), 0);
    assert!(divide(&mut game, 2).is_empty());
}
