//! `verdict merge`: combine reviewers' files of the same set into one.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use crate::cli::out::outln;
use crate::team::merge::merge;
use crate::team::write_atomic;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The reviewers' files (JSONL or JSON). Items of the first file come first.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The merged result set to write (JSONL).
    #[arg(short = 'o', long = "out", value_name = "OUT")]
    pub out: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        bail!(
            "{}: merge writes JSONL (one item a line); name the output .jsonl",
            args.out.display()
        );
    }
    if !args.force && args.out.exists() {
        bail!(
            "{}: the file exists; not overwriting it (use --force to replace it)",
            args.out.display()
        );
    }
    let mut stores = Vec::with_capacity(args.files.len());
    for f in &args.files {
        let store = super::open_with_journal(f)?;
        stores.push(store);
    }
    let inputs: Vec<(String, &crate::store::Store)> = args
        .files
        .iter()
        .zip(&stores)
        .map(|(p, s)| (p.display().to_string(), s))
        .collect();
    let merged = merge(&inputs).map_err(|e| anyhow::anyhow!("{e}; nothing was written"))?;
    // The merged set holds every input's content: no more open than the most private.
    let perms = crate::perms::Derived::of_sources(&args.files)?;
    write_atomic(&args.out, &merged.to_bytes(), args.force, &perms).map_err(|e| {
        if e.kind() == std::io::ErrorKind::AlreadyExists {
            anyhow::anyhow!(
                "{}: the file exists; not overwriting it (use --force to replace it)",
                args.out.display()
            )
        } else {
            anyhow::Error::new(e).context(args.out.display().to_string())
        }
    })?;
    record_origin(&args.out, &stores, &perms)?;
    for r in &merged.replaced {
        outln!("{r}")?;
    }
    let mut reviews: Vec<(&String, &usize)> = merged.reviews.iter().collect();
    reviews.sort();
    let reviews: Vec<String> = reviews
        .into_iter()
        .map(|(r, n)| format!("{r} {n}"))
        .collect();
    outln!(
        "merged {} file(s) into {}: {} items ({} unchanged), verdicts: {}{}",
        args.files.len(),
        args.out.display(),
        merged.lines.len(),
        merged.unchanged,
        if reviews.is_empty() {
            "none".to_string()
        } else {
            reviews.join(", ")
        },
        if merged.replaced.is_empty() {
            String::new()
        } else {
            format!("; {} replaced by newer ones (above)", merged.replaced.len())
        }
    )?;
    Ok(ExitCode::SUCCESS)
}

/// The merged file holds the first input's items byte for byte: their relative image
/// paths and the names the set's file gives are that set's (docs/format.md, "Paths").
/// Recorded beside OUT unless OUT is the set's own file.
fn record_origin(
    out: &std::path::Path,
    stores: &[crate::store::Store],
    perms: &crate::perms::Derived,
) -> anyhow::Result<()> {
    use crate::store::origin;
    let Some(first) = stores.first() else {
        return Ok(());
    };
    let source = first.naming_path();
    let same = |a: &std::path::Path, b: &std::path::Path| match (
        std::fs::canonicalize(a),
        std::fs::canonicalize(b),
    ) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    };
    let Some(name) = out.file_name() else {
        return Ok(());
    };
    let dir = crate::import::parent_dir(out);
    if same(out, source) {
        return Ok(());
    }
    let origin_file = origin::file_in(&dir);
    let bytes = origin::recorded(&dir, &[name.to_string_lossy().into_owned()], source)
        .map_err(|e| anyhow::anyhow!("{}: {e}", origin_file.display()))?;
    write_atomic(&origin_file, &bytes, true, perms)
        .map_err(|e| anyhow::anyhow!("{}: {e}", origin_file.display()))?;
    Ok(())
}
