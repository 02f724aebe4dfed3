//! One categorical variable being rated (units, raters, categories), and what a
//! benchmark rates its variables from (`verdict agree`, docs/teams.md). Its figures are
//! `team::agree`'s.

use indexmap::{IndexMap, IndexSet};

use crate::bench::item::{Item, Review};
use crate::bench::kit::benchmark::Benchmark;

/// (item index, model or "", bonus point or 0)
pub(crate) type UnitKey = (usize, String, u32);

/// One categorical variable being collected.
pub(crate) struct Variable {
    pub(crate) benchmark: Benchmark,
    pub(crate) field: &'static str,
    pub(crate) unit: &'static str,
    pub(crate) categories: Vec<String>,
    pub(crate) ordinal: bool,
    /// Ratings per unit: (rater index, category index).
    pub(crate) units: IndexMap<UnitKey, Vec<(usize, usize)>>,
}

impl Variable {
    pub(crate) fn new(
        benchmark: Benchmark,
        field: &'static str,
        unit: &'static str,
        categories: &[&str],
        ordinal: bool,
    ) -> Variable {
        Variable {
            benchmark,
            field,
            unit,
            categories: categories.iter().map(|s| s.to_string()).collect(),
            ordinal,
            units: IndexMap::new(),
        }
    }
    fn category(&mut self, name: &str) -> usize {
        match self.categories.iter().position(|c| c == name) {
            Some(i) => i,
            None => {
                self.categories.push(name.to_string());
                self.categories.len() - 1
            }
        }
    }
    pub(crate) fn rate(&mut self, key: UnitKey, rater: usize, category: usize) {
        self.units.entry(key).or_default().push((rater, category));
    }
    pub(crate) fn rate_named(&mut self, key: UnitKey, rater: usize, category: &str) {
        let c = self.category(category);
        self.rate(key, rater, c);
    }
}

/// What a benchmark's variables are rated from, for one item.
pub(crate) struct ItemRatings<'a> {
    /// The item's index in the store.
    pub(crate) i: usize,
    pub(crate) item: &'a Item,
    /// The item's id (or `#line`), for warnings.
    pub(crate) label: &'a str,
    /// The reviews that count (adjudications left out), by rater index.
    pub(crate) reviews: &'a [(usize, &'a Review)],
    /// Every rater's name, by index.
    pub(crate) raters: &'a IndexSet<String>,
    /// The LLM judge's rater index.
    pub(crate) judge: usize,
    pub(crate) warnings: &'a mut Vec<String>,
}
