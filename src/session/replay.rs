//! What a replay did, and the words every command and the reviewer use for it.

use std::io;

use super::{Locator, Refusal, prepare};
use crate::journal::{Journal, Line, Unreadable};
use crate::store::Store;
use std::path::{Path, PathBuf};

/// What a replay did. Nothing a journal holds is dropped in silence: every line that was not
/// applied is listed, with where it is and why.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Replay {
    pub applied: usize,
    /// Records that match no item of the file (item gone, item unreadable), with why.
    pub skipped: Vec<String>,
    /// Records whose review fails the checks the file's own reviews get (a review that is
    /// `5`, a `status` of `"bogus"`): not applied.
    pub invalid: Vec<String>,
    /// Lines (or whole journals) that could not be read, with where and why.
    pub unreadable: Vec<String>,
    /// A last line cut short by a crash while it was being written (never acknowledged);
    /// it is listed in `unreadable` too.
    pub torn_tail: bool,
    /// The journals holding what was not applied: keep a copy of them before they are
    /// folded away.
    pub to_keep: Vec<PathBuf>,
    /// Copies kept aside by earlier sessions (`kept_aside_paths`), each with how many of
    /// its verdicts still cannot be applied to the file (their item is gone, or they do
    /// not fit it): never folded, shown by every command and on every open.
    pub kept_aside: Vec<(PathBuf, usize)>,
    /// Journals and copies kept aside that are not read (their owner could not have
    /// written the file, or others may write them: docs/format.md, "Who may write beside
    /// a file"), each with why. Never folded, counted or removed.
    pub untrusted: Vec<String>,
}

impl Replay {
    /// How many journal lines were not applied.
    pub fn not_applied(&self) -> usize {
        self.skipped.len() + self.invalid.len() + self.unreadable.len()
    }

    /// How many records of journal `path` were read but not applied (skipped or
    /// invalid; each message starts with where it is, `<path> line <n>`).
    pub fn not_applied_in(&self, path: &Path) -> usize {
        let of_it = format!("{} line ", path.display());
        (self.skipped.iter().chain(&self.invalid))
            .filter(|m| m.starts_with(&of_it))
            .count()
    }

    /// How many journal records were read but not applied (skipped or invalid).
    pub fn not_applied_in_journals(&self) -> usize {
        self.skipped.len() + self.invalid.len()
    }

    /// Every line not applied, each with why.
    pub fn problems(&self) -> impl Iterator<Item = &String> {
        self.unreadable
            .iter()
            .chain(&self.invalid)
            .chain(&self.skipped)
    }

    /// What the journals added, in the words every command and the reviewer use.
    pub fn recovered_notice(&self) -> String {
        format!(
            "recovered {} from the journal (not yet saved into the file)",
            verdicts(self.applied)
        )
    }

    /// What in the journals could not be used, in the words every command and the
    /// reviewer use (each entry and why: [`Replay::problems`]).
    pub fn not_applied_notice(&self) -> String {
        let n = self.not_applied();
        format!(
            "{n} journal {} not applied: {} unreadable, {} invalid, {} match no item",
            if n == 1 { "entry" } else { "entries" },
            self.unreadable.len(),
            self.invalid.len(),
            self.skipped.len()
        )
    }

    /// How many verdicts kept aside by earlier sessions cannot be applied to the file.
    pub fn kept_aside_verdicts(&self) -> usize {
        self.kept_aside.iter().map(|(_, n)| n).sum()
    }

    /// The verdicts kept aside by earlier sessions, in the words every command and the
    /// reviewer use; `None` when there are none.
    pub fn kept_aside_notice(&self) -> Option<String> {
        let n = self.kept_aside_verdicts();
        (n > 0).then(|| {
            // each folder named once, its files after it: the notice stays short enough
            // to be read whole on the reviewer's status line at 80 columns
            let mut folders: Vec<(String, Vec<String>)> = Vec::new();
            for (p, _) in self.kept_aside.iter().filter(|(_, k)| *k > 0) {
                let (dir, name) = match (p.parent(), p.file_name()) {
                    (Some(d), Some(f)) => {
                        (d.display().to_string(), f.to_string_lossy().into_owned())
                    }
                    _ => (String::new(), p.display().to_string()),
                };
                match folders.iter_mut().find(|(d, _)| *d == dir) {
                    Some((_, names)) => names.push(name),
                    None => folders.push((dir, vec![name])),
                }
            }
            let files: Vec<String> = folders
                .into_iter()
                .map(|(dir, names)| match (dir.as_str(), names.len()) {
                    ("", _) => names.join(", "),
                    (d, 1) => Path::new(d).join(&names[0]).display().to_string(),
                    (d, _) => format!("in {d}: {}", names.join(", ")),
                })
                .collect();
            format!(
                "{} kept aside cannot be applied (`verdict check` says why): {}",
                verdicts(n),
                files.join("; ")
            )
        })
    }

    /// The journals not read, in the words every command and the reviewer use; `None`
    /// when there are none.
    pub fn untrusted_notice(&self) -> Option<String> {
        (!self.untrusted.is_empty()).then(|| {
            format!(
                "{}; its verdicts are not counted nor folded into the file (its owner or an \
                 administrator can remove it)",
                self.untrusted.join("; ")
            )
        })
    }

    /// Take in what another replay did (another journal's; a folder's set: another
    /// file's).
    pub fn add(&mut self, other: Replay) {
        self.applied += other.applied;
        self.skipped.extend(other.skipped);
        self.invalid.extend(other.invalid);
        self.unreadable.extend(other.unreadable);
        self.torn_tail |= other.torn_tail;
        self.to_keep.extend(other.to_keep);
        self.kept_aside.extend(other.kept_aside);
        self.untrusted.extend(other.untrusted);
    }
}

/// `1 verdict`, `3 verdicts`.
pub fn verdicts(n: usize) -> String {
    format!("{n} verdict{}", if n == 1 { "" } else { "s" })
}

impl Journal {
    /// Apply the journal's records to `store` (in memory; the caller saves). A record is
    /// applied only if its review passes the checks the file's own reviews get; what is
    /// not applied is listed, never dropped in silence.
    pub fn replay(&self, store: &mut Store) -> io::Result<Replay> {
        let lines = self.read_lines_for(Some(store.path()))?;
        let named = self.named_reviewer(store.path());
        let mut rep = Replay::default();
        let mut ids = Locator::default();
        let at = |n: usize| format!("{} line {n}", self.path().display());
        for (n, l) in lines {
            let r = match l {
                Line::Record(r) => r,
                Line::Unreadable(why) => {
                    rep.torn_tail |= why == Unreadable::TornTail;
                    rep.unreadable.push(format!("{}: {why}", at(n)));
                    continue;
                }
            };
            let name =
                r.id.clone()
                    .unwrap_or_else(|| format!("(index {})", r.item));
            if let Some(who) = named.as_deref().filter(|w| !same_reviewer(w, &r.reviewer)) {
                rep.invalid.push(format!(
                    "{}: item {name}: not applied: a verdict of {:?} in {who:?}'s journal",
                    at(n),
                    r.reviewer
                ));
                continue;
            }
            let i = match ids.locate(store, &r) {
                Ok(i) => i,
                Err(why) => {
                    rep.skipped
                        .push(format!("{}: item {name} (index {}) {why}", at(n), r.item));
                    continue;
                }
            };
            match prepare(store, i, &r) {
                Ok(edit) => {
                    store.apply_review(edit);
                    rep.applied += 1;
                }
                Err(Refusal::Invalid(why)) => {
                    rep.invalid
                        .push(format!("{}: item {name}: not applied: {why}", at(n)));
                }
                Err(Refusal::Unappliable(why)) => {
                    rep.skipped.push(format!("{}: item {name}: {why}", at(n)));
                }
            }
        }
        if rep.not_applied() > 0 {
            rep.to_keep.push(self.path().to_path_buf());
        }
        Ok(rep)
    }
}

/// Do two reviewer names name one journal? On a case-insensitive file system `Ann` and
/// `ann` share one (docs/format.md, "The verdict journal").
fn same_reviewer(a: &str, b: &str) -> bool {
    a == b || a.to_lowercase() == b.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// Copies kept aside in one folder name it once: the notice is read whole on the
    /// reviewer's status line (issue 19 item 13), and still names every file.
    #[test]
    fn the_kept_aside_notice_names_each_folder_once() {
        let d = Path::new("/root/.local/share/verdict/journals/4f1c0a9e2b7d3c55");
        let r = Replay {
            kept_aside: vec![
                (d.join(".cvqa.jsonl.verdict-journal.unapplied-1"), 1),
                (d.join(".cvqa.jsonl.verdict-journal.unapplied-2"), 2),
                (
                    PathBuf::from("data/.cvqa.jsonl.verdict-journal.unapplied-3"),
                    1,
                ),
                (d.join(".cvqa.jsonl.verdict-journal.unapplied-4"), 0),
            ],
            ..Replay::default()
        };
        assert_eq!(
            r.kept_aside_notice().unwrap(),
            "4 verdicts kept aside cannot be applied (`verdict check` says why): in \
             /root/.local/share/verdict/journals/4f1c0a9e2b7d3c55: \
             .cvqa.jsonl.verdict-journal.unapplied-1, .cvqa.jsonl.verdict-journal.unapplied-2; \
             data/.cvqa.jsonl.verdict-journal.unapplied-3"
        );
    }
}
