//! Reading a results file with every journal of it, in step with saves (docs/format.md,
//! "Several sessions on one file"), and the copies kept aside.

use super::*;
use crate::journal::*;
use crate::store::Scan;

/// Open a result set and replay every journal of it (verdicts of sessions still running
/// or killed). Returns the journals replayed; a journal that cannot be read (or must not
/// be: a symbolic link) is not among them and is listed in `Replay::unreadable`.
///
/// The file and its journals are read as one snapshot: under the file's save lock, held
/// shared, so no session's save (which writes the file and then empties its journal)
/// falls between them. A large file another program changes in place while it is read
/// (its items would no longer read as indexed) is read again, up to a few times; then the
/// open fails rather than call every verdict "no longer in the file".
pub fn open_with_journal(path: &Path) -> anyhow::Result<(Store, Vec<PathBuf>, Replay)> {
    open_with_journal_as(path, Scan::Whole)
}

/// [`open_with_journal`], the file's items found as `scan` says. A journal's replay waits
/// for the scan to reach each record's item (`Store::has`; for every id when the item is
/// no longer at its place: `Locator::locate`), so a verdict of an earlier session is on
/// its item before the store is handed out.
pub fn open_with_journal_as(
    path: &Path,
    scan: Scan,
) -> anyhow::Result<(Store, Vec<PathBuf>, Replay)> {
    read_in_step(path, || {
        for _ in 0..5 {
            let (store, replayed, total) = read_with_journals(path, scan.clone())?;
            if !store.changed_on_disk() {
                return Ok((store, replayed, total));
            }
        }
        anyhow::bail!(
            "{}: another program keeps changing the file while it is read; try again",
            path.display()
        )
    })
}

fn read_with_journals(path: &Path, scan: Scan) -> anyhow::Result<(Store, Vec<PathBuf>, Replay)> {
    let mut store = super::open_store(path, scan)?;
    #[cfg(test)]
    crate::store::test_hook::at("read-after-open");
    let mut total = Replay::default();
    let mut replayed = Vec::new();
    for p in journal_paths(path) {
        match Journal::at(p.clone()).replay(&mut store) {
            Ok(rep) => {
                total.add(rep);
                replayed.push(p);
            }
            Err(e) if untrusted_reason(&e).is_some() => {
                let why = untrusted_reason(&e).unwrap_or_default();
                total
                    .untrusted
                    .push(format!("{}: not read: it is {why}", p.display()));
            }
            Err(e) => {
                let why = unsafe_reason(&e)
                    .map(|w| format!("not read: it is {w}"))
                    .unwrap_or_else(|| format!("cannot be read: {e}"));
                total.unreadable.push(format!("{}: {why}", p.display()));
            }
        }
    }
    for p in kept_aside_paths(path) {
        if let Err(e) = Journal::at(p.clone()).read_lines_for(Some(path))
            && let Some(why) = untrusted_reason(&e)
        {
            total
                .untrusted
                .push(format!("{}: not read: it is {why}", p.display()));
        }
    }
    total.kept_aside = kept_aside_in(&store, path)
        .into_iter()
        .map(|(p, why)| (p, why.map_or(0, |v| v.len())))
        .collect();
    Ok((store, replayed, total))
}

/// Every copy kept aside for `path`, with why each of its verdicts cannot be applied to
/// `store` (tried on a copy: nothing of it is applied to the store), or why the copy cannot
/// be read.
pub fn kept_aside_in(store: &Store, path: &Path) -> Vec<(PathBuf, Result<Vec<String>, String>)> {
    kept_aside_paths(path)
        .into_iter()
        .map(|p| {
            let why = Journal::at(p.clone())
                .replay(&mut store.clone())
                .map(|r| r.invalid.into_iter().chain(r.skipped).collect())
                .map_err(|e| e.to_string());
            (p, why)
        })
        .collect()
}
