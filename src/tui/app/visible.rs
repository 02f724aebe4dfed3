//! The items passing the filters, as a bit set over the file's items: made by a few
//! word-wise ANDs (no list of up to a million numbers is built), asked in O(items / 64)
//! at worst (a position, the n-th item, the next one).

use crate::tui::facts::BitSet;

/// The items passing the filters, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visible {
    bits: BitSet,
    /// How many items are in `bits`.
    len: usize,
}

impl Visible {
    pub fn new(bits: BitSet) -> Visible {
        let len = bits.count();
        Visible { bits, len }
    }

    /// The items as a bit set over the file's items.
    pub fn bits(&self) -> &BitSet {
        &self.bits
    }

    /// How many items pass.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn contains(&self, i: usize) -> bool {
        self.bits.get(i)
    }

    /// The items, in file order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.bits.ones()
    }

    /// The items at `i` and after, in file order.
    pub fn iter_from(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.at_or_after(i), move |&j| self.after(j))
    }

    /// The items as a list (for the search worker, and tests).
    pub fn to_vec(&self) -> Vec<usize> {
        let mut v = Vec::with_capacity(self.len);
        v.extend(self.iter());
        v
    }

    /// How many items pass before item `i` (the position of `i` when it passes, from 0).
    pub fn rank(&self, i: usize) -> usize {
        let w = self.bits.words();
        let i = i.min(self.bits.len());
        let (k, b) = (i / 64, i % 64);
        let whole: usize = w[..k].iter().map(|x| x.count_ones() as usize).sum();
        let part = if b == 0 {
            0
        } else {
            (w[k] & ((1u64 << b) - 1)).count_ones() as usize
        };
        whole + part
    }

    /// The `k`-th item (from 0).
    pub fn nth(&self, k: usize) -> Option<usize> {
        if k >= self.len {
            return None;
        }
        let mut left = k;
        for (j, &w) in self.bits.words().iter().enumerate() {
            let c = w.count_ones() as usize;
            if left < c {
                let mut w = w;
                for _ in 0..left {
                    w &= w - 1;
                }
                return Some(j * 64 + w.trailing_zeros() as usize);
            }
            left -= c;
        }
        None
    }

    pub fn first(&self) -> Option<usize> {
        self.at_or_after(0)
    }

    pub fn last(&self) -> Option<usize> {
        self.bits
            .len()
            .checked_sub(1)
            .and_then(|i| self.at_or_before(i))
    }

    /// The first item at `i` or after.
    pub fn at_or_after(&self, i: usize) -> Option<usize> {
        let w = self.bits.words();
        let k = i / 64;
        if k >= w.len() {
            return None;
        }
        let head = w[k] & (u64::MAX << (i % 64));
        if head != 0 {
            return Some(k * 64 + head.trailing_zeros() as usize);
        }
        w[k + 1..]
            .iter()
            .position(|&x| x != 0)
            .map(|p| (k + 1 + p) * 64 + w[k + 1 + p].trailing_zeros() as usize)
    }

    /// The last item at `i` or before.
    pub fn at_or_before(&self, i: usize) -> Option<usize> {
        let w = self.bits.words();
        if w.is_empty() {
            return None;
        }
        let i = i.min(self.bits.len().saturating_sub(1));
        let k = i / 64;
        let b = i % 64;
        let mask = if b == 63 {
            u64::MAX
        } else {
            (1u64 << (b + 1)) - 1
        };
        let head = w[k] & mask;
        if head != 0 {
            return Some(k * 64 + 63 - head.leading_zeros() as usize);
        }
        w[..k]
            .iter()
            .rposition(|&x| x != 0)
            .map(|p| p * 64 + 63 - w[p].leading_zeros() as usize)
    }

    /// The first item after `i`.
    pub fn after(&self, i: usize) -> Option<usize> {
        self.at_or_after(i + 1)
    }

    /// The last item before `i`.
    pub fn before(&self, i: usize) -> Option<usize> {
        i.checked_sub(1).and_then(|j| self.at_or_before(j))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every question asked of a set, against the plain list, on sets that end inside a
    /// word and on a word's edge, sparse and dense.
    #[test]
    fn every_query_agrees_with_the_list() {
        for n in [0usize, 1, 63, 64, 65, 130, 200] {
            for pattern in 0..6u64 {
                let mut b = BitSet::new(n);
                let mut list = Vec::new();
                for i in 0..n {
                    let on = match pattern {
                        0 => false,
                        1 => true,
                        2 => i % 7 == 3,
                        3 => i == n - 1,
                        4 => i == 0 || i == 64 || i == 127,
                        _ => (i * 2654435761) % 5 < 2,
                    };
                    if on {
                        b.set(i, true);
                        list.push(i);
                    }
                }
                let v = Visible::new(b);
                assert_eq!(v.len(), list.len());
                assert_eq!(v.to_vec(), list);
                assert_eq!(v.iter_from(0).collect::<Vec<_>>(), list);
                assert_eq!(v.first(), list.first().copied());
                assert_eq!(v.last(), list.last().copied());
                for k in 0..=list.len() {
                    assert_eq!(v.nth(k), list.get(k).copied(), "n {n} pattern {pattern}");
                }
                for i in 0..n + 3 {
                    let what = format!("n {n} pattern {pattern} i {i}");
                    assert_eq!(v.contains(i), list.contains(&i), "{what}");
                    assert_eq!(
                        v.iter_from(i).collect::<Vec<_>>(),
                        list.iter().copied().filter(|&x| x >= i).collect::<Vec<_>>(),
                        "{what}"
                    );
                    assert_eq!(v.rank(i), list.partition_point(|&x| x < i), "{what}");
                    assert_eq!(
                        v.at_or_after(i),
                        list.iter().find(|&&x| x >= i).copied(),
                        "{what}"
                    );
                    assert_eq!(v.after(i), list.iter().find(|&&x| x > i).copied(), "{what}");
                    assert_eq!(
                        v.at_or_before(i),
                        list.iter().rev().find(|&&x| x <= i).copied(),
                        "{what}"
                    );
                    assert_eq!(
                        v.before(i),
                        list.iter().rev().find(|&&x| x < i).copied(),
                        "{what}"
                    );
                }
            }
        }
    }
}
