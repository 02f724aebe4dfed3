//! The command line: one module per subcommand. Each has `Args` (clap) and
//! `run(Args) -> anyhow::Result<ExitCode>`. Everything they print goes through [`out`].

pub mod out;

pub mod agree;
pub mod check;
pub mod export;
pub mod import;
pub mod merge;
pub mod review;
pub mod split;
pub mod stats;
