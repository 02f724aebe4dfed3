//! The write-back: the reviews of every line as Inspect's own score edits, the figures
//! recomputed, untouched entries copied raw (docs/format.md, "Inspect AI logs").

use super::*;

impl Log {
    /// Every sample's current value of `scorer`, with its id, in the order inspect_ai
    /// reads them (`recompute::sample_order`): the edited samples' from `edited`, the
    /// others' as the log holds them. A sample without a score of `scorer` (one that
    /// failed) is left out, as Inspect leaves it out.
    fn values(&self, scorer: &str, edited: &BTreeMap<usize, Value>) -> Vec<(Value, Value)> {
        let mut order: Vec<usize> = (0..self.samples.len()).collect();
        order.sort_by_cached_key(|&i| {
            recompute::sample_order(&self.samples[i].id, self.samples[i].epoch)
        });
        order
            .into_iter()
            .filter_map(|i| {
                let v = match edited.get(&i) {
                    Some(s) => s
                        .get("scores")
                        .and_then(|m| m.get(scorer))
                        .map(|sc| sc.get("value").cloned().unwrap_or(Value::Null)),
                    None => self.samples[i]
                        .scores
                        .iter()
                        .find(|(k, _)| k == scorer)
                        .map(|(_, v)| v.clone()),
                }?;
                Some((self.samples[i].id.clone(), v))
            })
            .collect()
    }

    /// The log with the edits applied: the changed samples, and the header, reductions
    /// and summaries recomputed.
    fn write_log(
        &self,
        current: &dyn Fn(usize) -> Option<String>,
        out: &mut dyn Write,
    ) -> io::Result<u64> {
        if current(self.lines.len()).is_some() {
            return Err(io::Error::other(
                "verdict cannot add items to an Inspect log; nothing saved",
            ));
        }
        let edits = self.edits(current)?;
        if edits.is_empty() {
            // Nothing for Inspect: the log as it was.
            out.write_all(&self.bytes)?;
            return Ok(self.bytes.len() as u64);
        }
        let (edited, changed_scorers) = self.edited_samples(&edits)?;
        let mut header = self.header.clone();
        let mut reductions = self.reductions(&header)?;
        for scorer in &changed_scorers {
            let values = self.values(scorer, &edited);
            let kept = recompute::recompute(&mut header, reductions.as_mut(), scorer, &values);
            if !kept.is_empty() {
                log::warn!(
                    "scorer {scorer}: not recomputed, kept as they were: {}",
                    kept.join(", ")
                );
            }
        }
        match &self.kind {
            Kind::Eval(a) => {
                self.write_eval(a, &edited, &changed_scorers, &header, &reductions, out)
            }
            Kind::Json(doc) => self.write_json(doc, &edited, &header, reductions, out),
        }
    }

    /// The samples the edits change, with the edits applied, and the scorers they edit.
    #[allow(clippy::type_complexity)]
    fn edited_samples(
        &self,
        edits: &BTreeMap<usize, Vec<(String, edit::Edit)>>,
    ) -> io::Result<(BTreeMap<usize, Value>, std::collections::BTreeSet<String>)> {
        let mut edited: BTreeMap<usize, Value> = BTreeMap::new();
        let mut changed_scorers = std::collections::BTreeSet::new();
        for (&i, list) in edits {
            let mut s = self.sample(i).map_err(io::Error::other)?;
            for (scorer, e) in list {
                if s.get("scores").and_then(|m| m.get(scorer)).is_none() {
                    return Err(io::Error::other(format!(
                        "{}: the sample has no score of scorer {scorer:?}, so {}'s verdict on it cannot be written back; nothing saved",
                        item_id(&self.samples[i].id, self.samples[i].epoch),
                        e.author
                    )));
                }
                edit::apply(&mut s, scorer, e);
                changed_scorers.insert(scorer.clone());
            }
            edited.insert(i, s);
        }
        Ok((edited, changed_scorers))
    }

    /// The log's reductions: its `reductions.json` entry, or the `.json` log's key.
    fn reductions(&self, header: &Value) -> io::Result<Option<Value>> {
        Ok(match &self.kind {
            Kind::Eval(a) => match a.entry("reductions.json") {
                Some(e) => Some(
                    parse(
                        &zip::read(&self.bytes, e).map_err(io::Error::other)?,
                        "reductions.json",
                    )
                    .map_err(io::Error::other)?,
                ),
                None => None,
            },
            Kind::Json(_) => header.get("reductions").cloned(),
        })
    }

    /// A `.eval` log: the edited samples, the header, reductions and summaries replaced;
    /// every other entry copied as it was.
    fn write_eval(
        &self,
        a: &zip::Archive,
        edited: &BTreeMap<usize, Value>,
        changed_scorers: &std::collections::BTreeSet<String>,
        header: &Value,
        reductions: &Option<Value>,
        out: &mut dyn Write,
    ) -> io::Result<u64> {
        let mut replaced: BTreeMap<String, Vec<u8>> = BTreeMap::new();
        for (&i, s) in edited {
            let name = self.samples[i].entry.clone().unwrap_or_default();
            replaced.insert(name, compact(s).into_bytes());
        }
        if !edited.is_empty() {
            if a.entry("header.json").is_some() {
                replaced.insert("header.json".into(), compact(header).into_bytes());
            }
            if let (Some(r), Some(_)) = (reductions, a.entry("reductions.json")) {
                replaced.insert("reductions.json".into(), compact(r).into_bytes());
            }
            if let Some(e) = a.entry("summaries.json") {
                let mut sums = parse(
                    &zip::read(&self.bytes, e).map_err(io::Error::other)?,
                    "summaries.json",
                )
                .map_err(io::Error::other)?;
                for s in edited.values() {
                    for scorer in changed_scorers {
                        edit::update_summary(&mut sums, s, scorer);
                    }
                }
                replaced.insert("summaries.json".into(), compact(&sums).into_bytes());
            }
        }
        zip::rewrite(&self.bytes, a, &replaced, out)
    }

    /// A `.json` log: the edited samples, `results` and `reductions` replaced, written
    /// with two-space indents as Inspect writes it.
    fn write_json(
        &self,
        doc: &Value,
        edited: &BTreeMap<usize, Value>,
        header: &Value,
        reductions: Option<Value>,
        out: &mut dyn Write,
    ) -> io::Result<u64> {
        if edited.is_empty() {
            out.write_all(&self.bytes)?;
            return Ok(self.bytes.len() as u64);
        }
        let mut doc = doc.clone();
        for (&i, s) in edited {
            doc["samples"][self.samples[i].index] = s.clone();
        }
        if let Some(r) = header.get("results") {
            doc["results"] = r.clone();
        }
        if let Some(r) = reductions {
            doc["reductions"] = r;
        }
        let text = nonfinite::decode(serde_json::to_string_pretty(&doc).map_err(io::Error::other)?);
        out.write_all(text.as_bytes())?;
        Ok(text.len() as u64)
    }
}

/// Compact JSON, as Inspect writes an entry of a `.eval` log (`NaN` and `Infinity` bare).
fn compact(v: &Value) -> String {
    nonfinite::decode(serde_json::to_string(v).expect("a Value always serializes"))
}

impl Container for Log {
    fn write(
        &self,
        current: &dyn Fn(usize) -> Option<String>,
        out: &mut File,
        cancel: &AtomicBool,
    ) -> io::Result<u64> {
        if cancel.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "save cancelled"));
        }
        let mut w = io::BufWriter::new(out);
        let n = self.write_log(current, &mut w)?;
        w.flush()?;
        Ok(n)
    }

    fn describe(&self) -> String {
        let format = match self.kind {
            Kind::Eval(_) => "eval",
            Kind::Json(_) => "json",
        };
        // (each scorer once: the log has an entry per scorer and reducer)
        let mut others: Vec<String> = Vec::new();
        for n in self
            .header
            .pointer("/results/scores")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(recompute::scorer_of)
        {
            if n != self.headline && !others.iter().any(|o| o == n) {
                others.push(n.to_string());
            }
        }
        format!(
            "an Inspect AI .{format} log ({} samples × epochs; verdicts on scorer {}{})",
            self.samples.len(),
            self.headline,
            if others.is_empty() {
                String::new()
            } else {
                format!(" (the headline) or {}", others.join(", "))
            }
        )
    }
}

/// Write the log with the lines `current` to `out` (for tests: what a save writes).
pub fn write_to_vec(
    opened: &Opened,
    current: &dyn Fn(usize) -> Option<String>,
) -> io::Result<Vec<u8>> {
    let dir = tempfile::tempfile()?;
    let mut f = dir;
    opened
        .container
        .write(current, &mut f, &AtomicBool::new(false))?;
    use std::io::{Read, Seek};
    f.seek(io::SeekFrom::Start(0))?;
    let mut v = Vec::new();
    f.read_to_end(&mut v)?;
    Ok(v)
}
