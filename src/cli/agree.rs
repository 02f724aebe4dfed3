//! `verdict agree`: how far reviewers (and the LLM judge) agree, and time per item.

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::out;
use crate::team::agree::report;
pub use crate::team::agree::text::render;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set (usually the output of `verdict merge`).
    pub file: PathBuf,
    /// Print the report as JSON (shape documented in docs/teams.md).
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_with_journal(&args.file)?;
    let r = report(&store);
    if args.json {
        out::print_json(&r)?;
    } else {
        out::print(&render(&r))?;
    }
    Ok(ExitCode::SUCCESS)
}
