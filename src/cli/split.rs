//! `verdict split`: one file per reviewer, each item to `--overlap` of them.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::cli::out::{errln, outln};
use crate::perms::Derived;
use crate::store::Format;
use crate::store::Store;
use crate::store::origin;
use crate::team::split::{DEFAULT_SEED, Split, split};
use crate::team::write_atomic;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set to split (JSONL or JSON).
    pub file: PathBuf,
    /// The reviewers, comma-separated (`a,b,c`); their names go into the file names.
    #[arg(long, value_delimiter = ',', required = true)]
    pub reviewers: Vec<String>,
    /// How many different reviewers get each item.
    #[arg(long, default_value_t = 2)]
    pub overlap: usize,
    /// Seed of the generator that breaks ties; the same seed gives the same split.
    #[arg(long, default_value_t = DEFAULT_SEED)]
    pub seed: u64,
    /// Folder for the reviewer files, `<stem>.<reviewer>.jsonl` (created if missing).
    #[arg(short = 'o', long = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Replace reviewer files that already exist.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let store = super::open_with_journal(&args.file)?;
    let document = match store.format() {
        Format::Json => {
            Some(fs::read(&args.file).with_context(|| format!("{}", args.file.display()))?)
        }
        Format::Jsonl => None,
    };
    // What merge could not put back together is refused now, not when the team merges.
    crate::team::merge::check_mergeable(&args.file.display().to_string(), &store).map_err(
        |e| {
            anyhow::anyhow!(
                "{e}; `verdict merge` could not put the reviewers' files back together, so nothing was split"
            )
        },
    )?;
    let result = split(
        &store,
        document.as_deref(),
        &args.reviewers,
        args.overlap,
        args.seed,
        &args.out,
    )?;
    if !args.force {
        refuse_existing(&result)?;
    }
    write_files(&args, &result, &store)?;
    report(&args, &store, &result)?;
    Ok(ExitCode::SUCCESS)
}

/// Without `--force`: an error naming the reviewer files that exist.
fn refuse_existing(result: &Split) -> anyhow::Result<()> {
    let existing: Vec<String> = result
        .files
        .iter()
        .filter(|f| f.path.exists())
        .map(|f| f.path.display().to_string())
        .collect();
    if !existing.is_empty() {
        bail!(
            "not overwriting {} (use --force to replace): {}",
            if existing.len() == 1 {
                "a file that exists"
            } else {
                "files that exist"
            },
            existing.join(", ")
        );
    }
    Ok(())
}

/// The reviewer files, and the record of their origin in the folder.
fn write_files(args: &Args, result: &Split, store: &Store) -> anyhow::Result<()> {
    // The reviewer files hold the set's content: no more open than the set.
    let perms = Derived::of_sources(&[&args.file])?;
    perms
        .create_dir_all(&args.out)
        .with_context(|| format!("{}", args.out.display()))?;
    for f in &result.files {
        write_atomic(&f.path, &f.bytes, args.force, &perms)
            .with_context(|| format!("{}", f.path.display()))?;
    }
    // The files hold the set's items byte for byte: their relative image paths and the
    // names the set's file gives are the set's (docs/format.md, "Paths").
    let names: Vec<String> = result
        .files
        .iter()
        .filter_map(|f| f.path.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    let origin_file = origin::file_in(&args.out);
    let bytes = origin::recorded(&args.out, &names, store.naming_path())
        .with_context(|| format!("{}", origin_file.display()))?;
    write_atomic(&origin_file, &bytes, true, &perms)
        .with_context(|| format!("{}", origin_file.display()))?;
    Ok(())
}

/// What was split, for whom, and what the reviewers share; the unreadable items.
fn report(args: &Args, store: &Store, result: &Split) -> anyhow::Result<()> {
    outln!(
        "split {} ({} items) for {} reviewers, overlap {}, seed {}:",
        args.file.display(),
        store.len(),
        result.files.len(),
        args.overlap,
        args.seed
    )?;
    let width = args
        .reviewers
        .iter()
        .map(|r| r.chars().count())
        .max()
        .unwrap_or(0);
    for f in &result.files {
        outln!(
            "  {:<width$}  {:>7} item{}  {}",
            f.reviewer,
            f.items,
            if f.items == 1 { " " } else { "s" },
            f.path.display()
        )?;
    }
    let n = args.reviewers.len();
    if args.overlap >= 2 && n >= 2 {
        let mut pairs = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                pairs.push(format!(
                    "{}-{} {}",
                    args.reviewers[a],
                    args.reviewers[b],
                    result.assignment.shared(a, b)
                ));
            }
        }
        outln!("items in common: {}", pairs.join(", "))?;
    }
    if !result.unreadable.is_empty() {
        errln!(
            "verdict: {} item(s) are not valid JSON objects ({}); they were dealt out as they are, but `verdict merge` refuses them until they are fixed: `verdict check {}` says what is wrong",
            result.unreadable.len(),
            abbreviate(&result.unreadable, 10),
            args.file.display()
        )?;
    }
    Ok(())
}

fn abbreviate(xs: &[String], n: usize) -> String {
    if xs.len() <= n {
        xs.join(", ")
    } else {
        format!("{}, and {} more", xs[..n].join(", "), xs.len() - n)
    }
}
