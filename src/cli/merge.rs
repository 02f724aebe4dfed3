//! `verdict merge`: combine reviewers' files of the same set into one.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;

use crate::cli::out::{errln, outln};
use crate::perms::Derived;
use crate::team::merge::merge;
use crate::team::write_atomic;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The reviewers' files (JSONL or JSON). Items of the first file come first. With
    /// --git: git's %O %A %B %P.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// The merged result set to write (JSONL).
    #[arg(
        short = 'o',
        long = "out",
        value_name = "OUT",
        required_unless_present = "git",
        conflicts_with = "git"
    )]
    pub out: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long, conflicts_with = "git")]
    pub force: bool,
    /// Act as git's merge driver: `verdict merge --git %O %A %B %P` (the ancestor, ours,
    /// theirs, the path). Merges three-way, writes the result into %A; exits 0 when
    /// clean, 1 when conflicts remain (reported on standard error, ours kept for them),
    /// 2 when the file cannot be merged this way. docs/teams.md, "A team across
    /// machines (git)".
    #[arg(long)]
    pub git: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.git {
        return git_driver(&args.files);
    }
    let Some(out) = args.out.clone() else {
        bail!("name the output: -o OUT");
    };
    let args = Plain {
        files: args.files,
        out,
        force: args.force,
    };
    refuse_output(&args)?;
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
    report(&args, &merged)?;
    Ok(ExitCode::SUCCESS)
}

/// An output named `.json` (merge writes JSONL), or one that exists without `--force`.
fn refuse_output(args: &Plain) -> anyhow::Result<()> {
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
    Ok(())
}

/// The verdicts replaced by newer ones, then what was merged.
fn report(args: &Plain, merged: &crate::team::merge::Merged) -> anyhow::Result<()> {
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
    Ok(())
}

/// `verdict merge` without --git.
struct Plain {
    files: Vec<PathBuf>,
    out: PathBuf,
    force: bool,
}

/// git's merge driver: `verdict merge --git %O %A %B %P`.
fn git_driver(files: &[PathBuf]) -> anyhow::Result<ExitCode> {
    let [base, ours, theirs, path] = files else {
        bail!(
            "--git takes git's four placeholders, %O %A %B %P (got {} arguments): set the driver with git config merge.verdict.driver \"verdict merge --git %O %A %B %P\"",
            files.len()
        );
    };
    let shown = path.display().to_string();
    warn_pending_journals(path)?;
    match git_merge(base, ours, theirs, path) {
        Ok(merged) => {
            write_atomic(ours, &merged.to_bytes(), true, &Derived::default())
                .map_err(|e| anyhow::anyhow!("{}: {e}", ours.display()))?;
            if merged.conflicts.is_empty() {
                errln!(
                    "verdict merge --git: {shown}: merged, no conflict ({} verdict change(s) from theirs)",
                    merged.from_theirs
                )?;
                Ok(ExitCode::SUCCESS)
            } else {
                errln!(
                    "verdict merge --git: {shown}: {} conflict(s); the file holds the merge with ours kept for them (valid, no conflict markers): decide, edit or re-grade, then `git add {shown}` and commit:",
                    merged.conflicts.len()
                )?;
                for c in &merged.conflicts {
                    errln!("  {c}")?;
                }
                Ok(ExitCode::from(1))
            }
        }
        Err(why) => {
            // Leave what git itself would have left: its line-by-line merge (with
            // conflict markers where lines clash), marked conflicted.
            let textual = std::process::Command::new("git")
                .args(["merge-file", "-L", "ours", "-L", "ancestor", "-L", "theirs"])
                .arg(ours)
                .arg(base)
                .arg(theirs)
                .status();
            let left = match textual {
                Ok(_) => "git's line-by-line merge is left in it (look for conflict markers)",
                Err(_) => "ours is left in it",
            };
            errln!(
                "verdict merge --git: {shown}: cannot merge it item by item: {why}; {left}, and git marks it conflicted: resolve it by hand"
            )?;
            Ok(ExitCode::from(2))
        }
    }
}

/// The three-way merge of the files git hands the driver; `Err` with the reason when the
/// file cannot be merged item by item.
fn git_merge(
    base: &std::path::Path,
    ours: &std::path::Path,
    theirs: &std::path::Path,
    path: &std::path::Path,
) -> Result<crate::team::merge3::Merged3, String> {
    use crate::store::{Format, Store};
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("json"))
    {
        return Err(
            "it is a JSON document (items span lines); only JSONL results files are merged item by item".into(),
        );
    }
    let open = |p: &std::path::Path, what: &str| -> Result<Store, String> {
        let bytes = std::fs::read(p).map_err(|e| format!("{what} ({}): {e}", p.display()))?;
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            return Err(format!("{what} is a JSON document, not JSONL"));
        }
        Store::from_bytes(path.to_path_buf(), Format::Jsonl, bytes)
            .map_err(|e| format!("{what}: {e}"))
    };
    let (b, o, t) = (
        open(base, "the ancestor")?,
        open(ours, "ours")?,
        open(theirs, "theirs")?,
    );
    crate::team::merge3::merge3(&b, &o, &t).map_err(|e| e.to_string())
}

/// Journals are not in git: verdicts still in one (a reviewer who has not quit) are not
/// in what is being merged. Say so.
fn warn_pending_journals(path: &std::path::Path) -> anyhow::Result<()> {
    for jp in crate::journal::journal_paths(path) {
        let pending = crate::journal::Journal::at(jp.clone())
            .read()
            .map(|(r, torn)| !r.is_empty() || torn)
            .unwrap_or(true);
        if pending {
            errln!(
                "verdict merge --git: warning: {} holds verdicts not yet in {} (a reviewer has not quit): they are not in this merge; quit verdict (it folds them into the file), then commit again",
                jp.display(),
                path.display()
            )?;
        }
    }
    Ok(())
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
    let dir = crate::store::parent_dir(out);
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
