//! Each grid search's pseudocode, as its registry entry gives it, with the line of the event
//! replayed; two searches compared show both lines, in one text where the texts differ in one line.

use super::{GridLab, SearchReplay};
use crate::app::widgets;
use crate::pathfinding::registry::{Line, line_of};

/// Where two pseudocodes differ in one line only (Dijkstra, A* and JPS in how they pick the next
/// node), the text with both versions of that line, the left's first, and where each side's
/// lines go in it; `None` when they differ more.
fn merged(left: &[Line], right: &[Line]) -> Option<(Vec<&'static str>, [Vec<usize>; 2])> {
    if left.len() != right.len() {
        return None;
    }
    let differing: Vec<usize> = (0..left.len()).filter(|&i| left[i].text != right[i].text).collect();
    let &[at] = differing.as_slice() else { return None };
    let mut text: Vec<&'static str> = left.iter().map(|line| line.text).collect();
    text.insert(at + 1, right[at].text);
    let shift = |i: usize, right: bool| if i < at || (i == at && !right) { i } else { i + 1 };
    let places = [0, 1].map(|side| (0..left.len()).map(|i| shift(i, side == 1)).collect());
    Some((text, places))
}

impl GridLab {
    /// The current line of each search, in its colour (the statistics' column headers say which
    /// is which).
    pub(super) fn pseudocode(&self, ui: &mut egui::Ui) {
        let lines = |replay: &SearchReplay| replay.search.algorithm.pseudocode();
        let line = |replay: &SearchReplay| replay.player.current_event().and_then(|e| line_of(lines(replay), e));
        let texts = |lines: &[Line]| lines.iter().map(|line| line.text).collect::<Vec<_>>();
        match self.replays.as_slice() {
            [left, right] if lines(left) == lines(right) => {
                widgets::pseudocode(ui, texts(lines(left)), &[line(left), line(right)]);
            }
            [left, right] => match merged(lines(left), lines(right)) {
                // Searches that differ in how they pick the next node: that line for each.
                Some((text, [left_places, right_places])) => {
                    let current = [line(left).map(|l| left_places[l]), line(right).map(|l| right_places[l])];
                    widgets::pseudocode(ui, text, &current);
                }
                None => {
                    for (side, replay) in [left, right].into_iter().enumerate() {
                        ui.label(format!("{}: {}", ["Left", "Right"][side], replay.search.algorithm.name()));
                        let mut current = [None, None];
                        current[side] = line(replay);
                        widgets::pseudocode(ui, texts(lines(replay)), &current);
                    }
                }
            },
            replays => {
                let current: Vec<Option<usize>> = replays.iter().map(line).collect();
                widgets::pseudocode(ui, texts(lines(&replays[0])), &current);
            }
        }
    }
}
