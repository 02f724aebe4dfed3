//! A fixed-size set of item numbers: what every filterable fact of the index is.

/// A fixed-size set of item numbers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct BitSet {
    pub(super) words: Vec<u64>,
    pub(super) len: usize,
}

impl BitSet {
    pub fn new(len: usize) -> BitSet {
        BitSet {
            words: vec![0; len.div_ceil(64)],
            len,
        }
    }
    /// Every item of `0..len`.
    pub fn full(len: usize) -> BitSet {
        let mut b = BitSet {
            words: vec![u64::MAX; len.div_ceil(64)],
            len,
        };
        b.trim();
        b
    }
    fn trim(&mut self) {
        let r = self.len % 64;
        if r != 0
            && let Some(w) = self.words.last_mut()
        {
            *w &= (1u64 << r) - 1;
        }
    }
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn set(&mut self, i: usize, on: bool) {
        let (w, b) = (i / 64, 1u64 << (i % 64));
        if on {
            self.words[w] |= b;
        } else {
            self.words[w] &= !b;
        }
    }
    pub fn get(&self, i: usize) -> bool {
        i < self.len && self.words[i / 64] & (1u64 << (i % 64)) != 0
    }
    pub fn count(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }
    pub fn and_with(&mut self, o: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a &= b;
        }
    }
    pub fn or_with(&mut self, o: &BitSet) {
        for (a, b) in self.words.iter_mut().zip(&o.words) {
            *a |= b;
        }
    }
    pub fn invert(&mut self) {
        for w in &mut self.words {
            *w = !*w;
        }
        self.trim();
    }
    /// How many items are in both sets.
    pub fn count_and(&self, o: &BitSet) -> usize {
        self.words
            .iter()
            .zip(&o.words)
            .map(|(a, b)| (a & b).count_ones() as usize)
            .sum()
    }
    /// The set's 64-bit words, item `i` at bit `i % 64` of word `i / 64` (bits past
    /// `len` are 0).
    pub fn words(&self) -> &[u64] {
        &self.words
    }
    pub fn ones(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(k, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let t = w.trailing_zeros() as usize;
                w &= w - 1;
                Some(k * 64 + t)
            })
        })
    }
    /// Copy `part` (a set over `offset..offset + part.len`) in; `offset` is a multiple of 64.
    pub(super) fn put(&mut self, offset: usize, part: &BitSet) {
        debug_assert_eq!(offset % 64, 0);
        let w = offset / 64;
        self.words[w..w + part.words.len()].copy_from_slice(&part.words);
    }
}
