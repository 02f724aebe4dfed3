//! A small LRU cache.

use std::collections::VecDeque;

/// A small LRU, most recent at the front, bounded by count and by total weight. The
/// weight budget only evicts older entries: the newest is kept even if alone over it.
pub(super) struct Lru<K, V> {
    capacity: usize,
    budget: usize,
    weight: fn(&V) -> usize,
    items: VecDeque<(K, V)>,
}

impl<K: PartialEq, V> Lru<K, V> {
    pub(super) fn new(capacity: usize, budget: usize, weight: fn(&V) -> usize) -> Self {
        Lru {
            capacity,
            budget,
            weight,
            items: VecDeque::new(),
        }
    }

    pub(super) fn get(&mut self, key: &K) -> Option<&V> {
        let i = self.items.iter().position(|(k, _)| k == key)?;
        let item = self.items.remove(i)?;
        self.items.push_front(item);
        self.items.front().map(|(_, v)| v)
    }

    pub(super) fn insert(&mut self, key: K, value: V) {
        self.items.retain(|(k, _)| *k != key);
        self.items.push_front((key, value));
        self.items.truncate(self.capacity.max(1));
        let weight = self.weight;
        let mut total: usize = self.items.iter().map(|(_, v)| weight(v)).sum();
        while total > self.budget && self.items.len() > 1 {
            if let Some((_, v)) = self.items.pop_back() {
                total -= weight(&v);
            }
        }
    }

    pub(super) fn clear(&mut self) {
        self.items.clear();
    }

    #[cfg(test)]
    pub(super) fn keys(&self) -> Vec<&K> {
        self.items.iter().map(|(k, _)| k).collect()
    }
}
