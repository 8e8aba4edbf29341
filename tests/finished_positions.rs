//! A position whose game is already over: every search answers without a move, with the result
//! the rules give (the same score from minimax and UCT), and never panics.

use searchlab::adversarial::mcts::{MctsConfig, Proven, uct_search};
use searchlab::adversarial::{alphabeta, minimax};
use searchlab::games::tictactoe::TicTacToe;
use searchlab::games::{DefaultEval, WIN};
use searchlab::trace::NoTrace;

#[test]
fn uct_on_a_finished_game_reports_its_result_like_minimax() {
    // X has won (O to move has lost), O has won (X to move has lost), and a full board drawn.
    for (position, proven, score, value) in [
        ("xxx/oo./...", Proven::Loss, -WIN, 0.0),
        ("ooo/xx./x..", Proven::Loss, -WIN, 0.0),
        ("xox/xoo/oxx", Proven::Draw, 0, 0.5),
    ] {
        let game = TicTacToe::from_position(position).unwrap();
        let exact = minimax::search(&game, &DefaultEval, 9, &mut NoTrace);
        assert_eq!((exact.best_move, exact.score), (None, score), "{position}: minimax");
        assert_eq!(alphabeta::search(&game, &DefaultEval, 9, &mut NoTrace).score, score, "{position}: alpha-beta");
        for config in [MctsConfig::plain(), MctsConfig::tuned()] {
            let uct = uct_search(&game, &DefaultEval, &MctsConfig { iterations: Some(100), ..config }, &mut NoTrace);
            assert_eq!(uct.best_move, None, "{position}");
            assert_eq!(uct.proven, Some(proven), "{position}");
            assert_eq!((uct.score, uct.value), (score, value), "{position}: UCT's score and value");
        }
    }
}
