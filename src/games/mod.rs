//! Games for adversarial search: the `Game` trait, Barca and tic-tac-toe.
