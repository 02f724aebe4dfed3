//! Any other benchmark (`"other"`): a free verdict and a note (docs/format.md).

pub mod stats;
