//! Reading the CHARTOM folder's tables: human answers, strategies, HMIs and model answers.

use super::*;

pub(crate) fn abbreviate(ids: &[String]) -> String {
    if ids.len() <= 8 {
        ids.join(", ")
    } else {
        format!("{}, ... ({} more)", ids[..8].join(", "), ids.len() - 8)
    }
}

pub(crate) fn chart_for<'c>(
    t: &Table,
    r: &TableRow,
    charts: &'c [Chart],
    by_id: &HashMap<String, usize>,
) -> Result<&'c Chart, ImportError> {
    let id = t.get(r, "chart id");
    by_id.get(id).map(|&i| &charts[i]).ok_or_else(|| {
        t.err(
            r,
            "chart id",
            format!("{} is not a chart of FACT_answer_keys.csv", quote(id)),
        )
    })
}

/// `chart id, answer[, count]` → chart id → merged `(answer, count)`.
pub(crate) fn read_human_answers(
    path: &Path,
    charts: &[Chart],
    by_id: &HashMap<String, usize>,
) -> Result<HashMap<String, Vec<(Value, u64)>>, ImportError> {
    let t = Table::read(path, &["chart id", "answer"])?;
    let has_count = t.has("count");
    let mut out: HashMap<String, Vec<(Value, u64)>> = HashMap::new();
    for r in &t.rows {
        let c = chart_for(&t, r, charts, by_id)?;
        let raw = t.get(r, "answer");
        let answer = match c.format {
            Format::Choice => option_number(raw, &c.question).map(|n| json!(n)),
            Format::Rank => parse_rank_key(raw, &c.question).and_then(|o| {
                if o.len() == 1 {
                    Ok(json!(o[0]))
                } else {
                    Err("a human answer is one order".to_string())
                }
            }),
            Format::Number => parse_number(raw).map(Value::Number),
        }
        .map_err(|m| t.err(r, "answer", m))?;
        let count: u64 = if has_count {
            let s = t.get(r, "count");
            s.parse().map_err(|_| {
                t.err(
                    r,
                    "count",
                    format!("{} is not a whole number ≥ 0", quote(s)),
                )
            })?
        } else {
            1
        };
        let list = out.entry(c.id.clone()).or_default();
        match list.iter_mut().find(|(a, _)| same_answer(a, &answer)) {
            Some(e) => e.1 += count,
            None => list.push((answer, count)),
        }
    }
    Ok(out)
}

pub(crate) fn same_answer(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

/// `chart id, misled, skim` (pair id or either chart id) → pair → strategies.
pub(crate) fn read_strategies(
    path: &Path,
    charts: &[Chart],
    by_id: &HashMap<String, usize>,
    summary: &mut Summary,
) -> Result<HashMap<String, (Number, Number)>, ImportError> {
    let t = Table::read(path, &["chart id", "misled", "skim"])?;
    let pairs: HashMap<&str, bool> = charts
        .iter()
        .map(|c| (c.pair.as_str(), c.format == Format::Number))
        .collect();
    let mut out: HashMap<String, (Number, Number)> = HashMap::new();
    let mut place: HashMap<String, String> = HashMap::new();
    for r in &t.rows {
        let id = t.get(r, "chart id");
        let pair = if pairs.contains_key(id) {
            id.to_string()
        } else if by_id.contains_key(id) {
            charts[by_id[id]].pair.clone()
        } else {
            return Err(t.err(
                r,
                "chart id",
                format!(
                    "{} is neither a chart nor a pair of FACT_answer_keys.csv",
                    quote(id)
                ),
            ));
        };
        let m = parse_number(t.get(r, "misled")).map_err(|e| t.err(r, "misled", e))?;
        let s = parse_number(t.get(r, "skim")).map_err(|e| t.err(r, "skim", e))?;
        if let Some(prev) = out.get(&pair)
            && (prev.0.as_f64() != m.as_f64() || prev.1.as_f64() != s.as_f64())
        {
            return Err(t.err(
                r,
                "chart id",
                format!(
                    "pair {pair} already has other strategies on {}; both charts of a pair use the same",
                    place[&pair]
                ),
            ));
        }
        if !pairs[pair.as_str()] {
            summary.warnings.push(format!(
                "{}: strategies for pair {pair}, which has no number question; ignored",
                t.place(r)
            ));
        }
        place.insert(pair.clone(), t.place(r));
        out.insert(pair, (m, s));
    }
    Ok(out)
}

/// `chart id, hmi` → chart id → HMI in [0, 1].
pub(crate) fn read_hmi(
    path: &Path,
    by_id: &HashMap<String, usize>,
) -> Result<HashMap<String, f64>, ImportError> {
    let t = Table::read(path, &["chart id", "hmi"])?;
    let mut out = HashMap::new();
    for r in &t.rows {
        let id = t.get(r, "chart id");
        if !by_id.contains_key(id) {
            return Err(t.err(
                r,
                "chart id",
                format!("{} is not a chart of FACT_answer_keys.csv", quote(id)),
            ));
        }
        let raw = t.get(r, "hmi");
        let h: f64 = raw
            .parse()
            .ok()
            .filter(|h: &f64| (0.0..=1.0).contains(h))
            .ok_or_else(|| {
                t.err(
                    r,
                    "hmi",
                    format!("{} is not a number in [0, 1]", quote(raw)),
                )
            })?;
        out.insert(id.to_string(), h);
    }
    Ok(out)
}

/// Model answers, one JSON object a line: `{"id", "model", "fact", "mind", "justification"}`.
/// Other keys are kept in the response.
pub(crate) fn read_answers(
    path: &Path,
    by_id: &HashMap<String, usize>,
    responses: &mut HashMap<String, Vec<Value>>,
    seen: &mut HashMap<(String, String), String>,
    summary: &mut Summary,
) -> Result<(), ImportError> {
    let bytes = read_file(path)?;
    let body = strip_bom(&bytes);
    for (n, line) in body.split(|&b| b == b'\n').enumerate() {
        let at = AnswerLine {
            path,
            line_no: n + 1,
        };
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let (id, model, obj) = at.parse(line, by_id)?;
        let place = format!("{} line {}", path.display(), at.line_no);
        if let Some(prev) = seen.insert((id.clone(), model.clone()), place) {
            return Err(at.err(
                "",
                format!(
                    "a second answer of model {} to {id} (the first is on {prev})",
                    quote(&model)
                ),
            ));
        }
        let resp = at.response(obj, &model)?;
        *summary.models.entry(model).or_default() += 1;
        responses.entry(id).or_default().push(Value::Object(resp));
    }
    Ok(())
}

/// A line of a model answers file, for its errors.
struct AnswerLine<'a> {
    path: &'a Path,
    line_no: usize,
}

impl AnswerLine<'_> {
    fn err(&self, field: &str, message: String) -> ImportError {
        let line_no = self.line_no;
        ImportError::At {
            path: self.path.into(),
            at: if field.is_empty() {
                format!("line {line_no}")
            } else {
                format!("line {line_no}, field `{field}`")
            },
            message,
        }
    }

    /// The line's object, its chart id (one of `by_id`) and its model.
    fn parse(
        &self,
        line: &[u8],
        by_id: &HashMap<String, usize>,
    ) -> Result<(String, String, Map<String, Value>), ImportError> {
        let text = std::str::from_utf8(line)
            .map_err(|e| self.err("", format!("invalid UTF-8 at byte {}", e.valid_up_to())))?;
        let v: Value =
            serde_json::from_str(text).map_err(|e| self.err("", format!("malformed JSON: {e}")))?;
        let Value::Object(obj) = v else {
            return Err(self.err("", "expected a JSON object".into()));
        };
        let id = match obj.get("id") {
            Some(Value::String(s)) => s.clone(),
            _ => return Err(self.err("id", "missing, or not a string".into())),
        };
        if !by_id.contains_key(&id) {
            return Err(self.err(
                "id",
                format!("{} is not a chart of FACT_answer_keys.csv", quote(&id)),
            ));
        }
        let model = match obj.get("model") {
            Some(Value::String(s)) if !s.trim().is_empty() => s.clone(),
            _ => return Err(self.err("model", "missing, empty, or not a string".into())),
        };
        Ok((id, model, obj))
    }

    /// The response: `model` first, then the line's keys but `id` and nulls, with `fact`,
    /// `mind` and `justification` checked (a number `fact` becomes its text).
    fn response(
        &self,
        obj: Map<String, Value>,
        model: &str,
    ) -> Result<Map<String, Value>, ImportError> {
        let mut resp = Map::new();
        resp.insert("model".into(), json!(model));
        for (k, v) in obj {
            match (k.as_str(), v) {
                ("id" | "model", _) | (_, Value::Null) => {}
                ("fact", Value::String(s)) => {
                    resp.insert(k, Value::String(s));
                }
                ("fact", Value::Number(x)) => {
                    resp.insert(k, Value::String(x.to_string()));
                }
                ("fact", _) => {
                    return Err(self.err("fact", "expected a string or a number".into()));
                }
                ("mind", Value::Number(x)) => {
                    match x.as_f64() {
                        Some(m) if (0.0..=1.0).contains(&m) => {}
                        _ => {
                            return Err(self.err(
                                "mind",
                                format!(
                                    "{x} is not in [0, 1] (the predicted share of people misled, not a percentage)"
                                ),
                            ));
                        }
                    }
                    resp.insert(k, Value::Number(x));
                }
                ("mind", _) => return Err(self.err("mind", "expected a number in [0, 1]".into())),
                ("justification", Value::String(s)) => {
                    resp.insert(k, Value::String(s));
                }
                ("justification", _) => {
                    return Err(self.err("justification", "expected a string".into()));
                }
                (_, v) => {
                    resp.insert(k, v);
                }
            }
        }
        Ok(resp)
    }
}
