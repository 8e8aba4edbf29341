//! A table by index (vertex, portal) that empties in constant time.

/// Values by index for one search at a time: each entry carries the number of the search that
/// wrote it, so emptying costs nothing per entry. A hash map here cost a hash per channel opened,
/// a tenth of TA*'s time on small maps.
#[derive(Default)]
pub(super) struct StampedTable<V> {
    entries: Vec<(u32, V)>,
    stamp: u32,
}

impl<V: Copy + Default> StampedTable<V> {
    /// Empties the table and sizes it for indices below `len`.
    pub(super) fn reset(&mut self, len: usize) {
        if self.entries.len() != len || self.stamp == u32::MAX {
            self.entries = vec![(0, V::default()); len];
            self.stamp = 0;
        }
        self.stamp += 1;
    }

    pub(super) fn get(&self, i: u32) -> Option<V> {
        let (stamp, value) = self.entries[i as usize];
        (stamp == self.stamp).then_some(value)
    }

    pub(super) fn set(&mut self, i: u32, value: V) {
        self.entries[i as usize] = (self.stamp, value);
    }
}
