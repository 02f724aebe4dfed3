//! What a save writes to Inspect: the reviews of each changed line compared with the
//! line as opened, as score edits (docs/format.md, "Inspect AI logs").

use super::*;

impl Log {
    /// The score edits the current lines ask for, sample by sample: for each reviewer
    /// and each scorer whose verdict or note differs from the one the log holds, an edit
    /// of that scorer (in time order). The review's own `verdict` and `note` are the
    /// headline scorer's, `scorers.<name>` another scorer's.
    pub(super) fn edits(
        &self,
        current: &dyn Fn(usize) -> Option<String>,
    ) -> io::Result<BTreeMap<usize, Vec<(String, edit::Edit)>>> {
        let mut out = BTreeMap::new();
        for (i, orig) in self.lines.iter().enumerate() {
            let Some(now) = current(i) else { continue };
            if now == *orig {
                continue;
            }
            let list = self.sample_edits(i, orig, &now)?;
            if !list.is_empty() {
                out.insert(i, list);
            }
        }
        Ok(out)
    }

    /// The edits of sample `i`, whose line was `orig` and is `now`, in time order.
    fn sample_edits(
        &self,
        i: usize,
        orig: &str,
        now: &str,
    ) -> io::Result<Vec<(String, edit::Edit)>> {
        let (before, after) = (line_reviews(orig), line_reviews(now));
        let id = || item_id(&self.samples[i].id, self.samples[i].epoch);
        let mut list = Vec::new();
        let mut authors: Vec<&String> = after.keys().collect();
        authors.extend(before.keys().filter(|w| !after.contains_key(*w)));
        for who in authors {
            let (b, a) = (before.get(who), after.get(who));
            for scorer in self.scorers_of(who, b, a, &id)? {
                let part_b = b.and_then(|r| part(r, &self.headline, &scorer));
                let part_a = a.and_then(|r| part(r, &self.headline, &scorer));
                if let Some(e) = self.edit_of(who, &scorer, &part_b, &part_a, &id)? {
                    list.push((scorer.clone(), e));
                }
            }
        }
        list.sort_by(|(_, a), (_, b)| (&a.at, &a.author).cmp(&(&b.at, &b.author)));
        Ok(list)
    }

    /// The scorers `who`'s review before (`b`) and after (`a`) speaks of: the headline,
    /// then the others its `scorers` names, in order. An error when `scorers` names the
    /// headline or is not an object.
    fn scorers_of(
        &self,
        who: &str,
        b: Option<&Value>,
        a: Option<&Value>,
        id: &dyn Fn() -> String,
    ) -> io::Result<Vec<String>> {
        let mut scorers = vec![self.headline.clone()];
        for r in [b, a].into_iter().flatten() {
            match r.get("scorers") {
                None | Some(Value::Null) => {}
                Some(Value::Object(m)) => {
                    for k in m.keys() {
                        if *k == self.headline {
                            return Err(io::Error::other(format!(
                                "{}: reviews.{who}.scorers.{k} names the headline scorer, whose verdict is the review's own `verdict`; nothing saved",
                                id()
                            )));
                        }
                        if !scorers.contains(k) {
                            scorers.push(k.clone());
                        }
                    }
                }
                Some(v) => {
                    return Err(io::Error::other(format!(
                        "{}: reviews.{who}.scorers is {v}, not an object of scorers; nothing saved",
                        id()
                    )));
                }
            }
        }
        Ok(scorers)
    }

    /// The edit of `scorer` by `who` when what their review says of it went from `part_b`
    /// to `part_a`: none when it says the same, a withdrawal when it says nothing now.
    fn edit_of(
        &self,
        who: &str,
        scorer: &str,
        part_b: &Option<Value>,
        part_a: &Option<Value>,
        id: &dyn Fn() -> String,
    ) -> io::Result<Option<edit::Edit>> {
        Ok(match (part_b, part_a) {
            (None, None) => None,
            (Some(x), Some(y)) if same_edit(x, y) => None,
            (_, Some(r)) => {
                // No verdict (a note alone): an edit that keeps the value.
                let v = match r.get("verdict") {
                    None | Some(Value::Null) => None,
                    Some(verdict) => Some(
                        verdict
                            .as_str()
                            .and_then(crate::bench::inspect::Verdict::parse)
                            .ok_or_else(|| {
                                io::Error::other(format!(
                                    "{}: the verdict of {who} on scorer {scorer} is {verdict}, not correct, incorrect or ambiguous-target; nothing saved",
                                    id()
                                ))
                            })?,
                    ),
                };
                Some(edit::Edit {
                    author: who.to_string(),
                    at: r
                        .get("at")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| self.now()),
                    note: r.get("note").and_then(Value::as_str).map(str::to_string),
                    verdict: v,
                    withdrawn: false,
                    is_final: r.get("final") == Some(&Value::Bool(true)),
                })
            }
            (Some(_), None) => Some(edit::Edit {
                author: who.to_string(),
                at: self.now(),
                note: Some("verdict withdrawn".into()),
                verdict: None,
                withdrawn: true,
                is_final: false,
            }),
        })
    }

    fn now(&self) -> String {
        self.withdrawn_at
            .get_or_init(|| {
                time::OffsetDateTime::now_utc()
                    .replace_nanosecond(0)
                    .unwrap_or_else(|_| time::OffsetDateTime::now_utc())
                    .format(&time::format_description::well_known::Rfc3339)
                    .unwrap_or_default()
            })
            .clone()
    }
}

/// The reviews of a line (as opened or as it is now).
fn line_reviews(text: &str) -> Map<String, Value> {
    serde_json::from_str::<Value>(text)
        .ok()
        .and_then(|v| v.get("reviews").and_then(Value::as_object).cloned())
        .unwrap_or_default()
}

/// What a review says of one scorer: the review's own `verdict`, `note`, `at` and `final`
/// for the headline scorer, `scorers.<name>` for another; `None` when it gives that
/// scorer neither a verdict nor a note.
fn part(r: &Value, headline: &str, scorer: &str) -> Option<Value> {
    let p = if scorer == headline {
        let mut m = Map::new();
        for k in ["verdict", "note", "at", "final"] {
            if let Some(v) = r.get(k).filter(|v| !v.is_null()) {
                m.insert(k.into(), v.clone());
            }
        }
        Value::Object(m)
    } else {
        r.get("scorers")?.get(scorer)?.clone()
    };
    let said = |k: &str| p.get(k).is_some_and(|v| !v.is_null());
    (said("verdict") || said("note")).then_some(p)
}

/// Do two verdicts on one scorer say the same to Inspect (verdict, note, the final mark)?
/// The time is not compared: the review's `at` moves with any change to the review (a
/// verdict on another scorer too), and the same verdict given again is no new edit.
fn same_edit(a: &Value, b: &Value) -> bool {
    let fin = |v: &Value| v.get("final") == Some(&Value::Bool(true));
    a.get("verdict") == b.get("verdict") && a.get("note") == b.get("note") && fin(a) == fin(b)
}
