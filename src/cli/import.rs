//! `verdict import <benchmark> ... -o OUT.jsonl`: each benchmark's import is its own
//! (`bench::ImportSource`); this prints what it says.

use std::process::ExitCode;

use crate::cli::out::{errln, outln};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub source: crate::bench::ImportSource,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let imported = args.source.run()?;
    for line in &imported.out {
        outln!("{line}")?;
    }
    for w in &imported.warnings {
        errln!("warning: {w}")?;
    }
    Ok(ExitCode::SUCCESS)
}
