//! The charts of the CHARTOM folder: one per row of the answer keys, with its question
//! file; and the chart types and planted manipulations of `chart_manipulations.csv`.

use super::*;

/// The charts of the answer keys, in their order, and chart id → index.
pub(crate) fn read_charts(
    keys: &Table,
    qdir: &Path,
) -> Result<(Vec<Chart>, HashMap<String, usize>), ImportError> {
    let mut charts: Vec<Chart> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for r in &keys.rows {
        let chart = read_chart(keys, r, qdir, &charts, &by_id)?;
        by_id.insert(chart.id.clone(), charts.len());
        charts.push(chart);
    }
    if charts.is_empty() {
        return Err(ImportError::File {
            path: keys.path.clone(),
            message: "has no rows".into(),
        });
    }
    Ok((charts, by_id))
}

/// One row of the answer keys: its chart id, answer type, question file and key.
fn read_chart(
    keys: &Table,
    r: &TableRow,
    qdir: &Path,
    charts: &[Chart],
    by_id: &HashMap<String, usize>,
) -> Result<Chart, ImportError> {
    let id = keys.get(r, "chart id").to_string();
    let Some((pair, manipulated)) = split_chart_id(&id).map(|(p, m)| (p.to_string(), m)) else {
        return Err(keys.err(
            r,
            "chart id",
            format!(
                "{} is not a chart id like `G7_Q1_1` (original) or `G7_Q1_2` (manipulated)",
                quote(&id)
            ),
        ));
    };
    if let Some(&prev) = by_id.get(&id) {
        let p = &charts[prev];
        return Err(keys.err(
            r,
            "chart id",
            format!(
                "{} already has a key on row {} (line {})",
                quote(&id),
                p.key_place.0,
                p.key_place.1
            ),
        ));
    }
    let raw_type = keys.get(r, "answer type").to_string();
    let format = Format::from_answer_type(&raw_type).ok_or_else(|| {
        keys.err(
            r,
            "answer type",
            format!(
                "unknown answer type {} (expected `multiple choice`, `rank` or `free text`)",
                quote(&raw_type)
            ),
        )
    })?;
    let question = read_question(keys, r, qdir, &id, format)?;
    let raw_key = keys.get(r, "answer").to_string();
    let key = match format {
        Format::Choice => parse_choice_key(&raw_key, &question).map(|n| json!(n)),
        Format::Rank => parse_rank_key(&raw_key, &question)
            .map(|o| if o.len() == 1 { json!(o[0]) } else { json!(o) }),
        Format::Number => parse_number(&raw_key).map(Value::Number),
    }
    .map_err(|m| keys.err(r, "answer", format!("{id}: {m}")))?;
    Ok(Chart {
        id,
        pair,
        manipulated,
        format,
        raw_type,
        raw_key,
        key_place: (r.row, r.line),
        question,
        key,
    })
}

/// The chart's question file `FACT_questions/<chart id>.txt`: a number question's text as
/// written, else the question and its options.
fn read_question(
    keys: &Table,
    r: &TableRow,
    qdir: &Path,
    id: &str,
    format: Format,
) -> Result<Question, ImportError> {
    let qpath = qdir.join(format!("{id}.txt"));
    let qbytes = match std::fs::read(&qpath) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(keys.err(
                r,
                "chart id",
                format!("no question file {}", qpath.display()),
            ));
        }
        Err(e) => return Err(ImportError::io(&qpath, e)),
    };
    let qtext = std::str::from_utf8(strip_bom(&qbytes)).map_err(|e| ImportError::At {
        path: qpath.clone(),
        at: format!("byte {}", e.valid_up_to()),
        message: "invalid UTF-8".into(),
    })?;
    Ok(match format {
        Format::Number => Question {
            text: qtext.replace("\r\n", "\n").trim().to_string(),
            ..Question::default()
        },
        _ => parse_question(qtext),
    })
}

/// A warning for the question files without a key.
pub(crate) fn warn_questions_without_key(
    qdir: &Path,
    by_id: &HashMap<String, usize>,
    summary: &mut Summary,
) {
    if let Ok(rd) = std::fs::read_dir(qdir) {
        let mut extra: Vec<String> = rd
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let stem = name.strip_suffix(".txt")?.to_string();
                (!by_id.contains_key(&stem)).then_some(stem)
            })
            .collect();
        extra.sort();
        if !extra.is_empty() {
            summary.warnings.push(format!(
                "{} question file{} without an answer key, skipped: {}",
                extra.len(),
                if extra.len() == 1 { "" } else { "s" },
                extra.join(", ")
            ));
        }
    }
}

pub(crate) struct PairInfo {
    pub(crate) manipulation: Option<String>,
}

/// `chart_manipulations.csv`: chart types and manipulations, by chart id or pair id.
pub(crate) struct Manipulations<'t> {
    pub(crate) table: &'t Table,
    rows: HashMap<String, &'t TableRow>,
}

impl<'t> Manipulations<'t> {
    pub(crate) fn read(table: &'t Table) -> Result<Self, ImportError> {
        let mut rows: HashMap<String, &TableRow> = HashMap::new();
        for r in &table.rows {
            let id = table.get(r, "chart id").to_string();
            if id.is_empty() {
                return Err(table.err(r, "chart id", "empty chart id"));
            }
            if let Some(prev) = rows.insert(id.clone(), r) {
                return Err(table.err(
                    r,
                    "chart id",
                    format!("{} is also on {}", quote(&id), table.place(prev)),
                ));
            }
        }
        Ok(Manipulations { table, rows })
    }

    /// Each pair's planted manipulation (the one of its `_2` chart, or of the pair id), in
    /// the order of the charts, with a warning for a pair without one and for an original
    /// chart that lists another.
    pub(crate) fn pairs(
        &self,
        charts: &[Chart],
        summary: &mut Summary,
    ) -> IndexMap<String, PairInfo> {
        let (manips, manip_rows) = (self.table, &self.rows);
        let mut pairs: IndexMap<String, PairInfo> = IndexMap::new();
        for c in charts {
            if pairs.contains_key(&c.pair) {
                continue;
            }
            let m2 = manip_rows
                .get(&format!("{}_2", c.pair))
                .map(|r| manips.get(r, "planted manipulation"));
            let mp = manip_rows
                .get(&c.pair)
                .map(|r| manips.get(r, "planted manipulation"));
            let manipulation = [m2, mp]
                .into_iter()
                .flatten()
                .find(|m| !is_no_manipulation(m))
                .map(str::to_string);
            if manipulation.is_none() {
                summary.warnings.push(format!(
                    "pair {}: no planted manipulation in {}",
                    c.pair,
                    manips.path.display()
                ));
            }
            if let Some(r) = manip_rows.get(&format!("{}_1", c.pair)) {
                let m1 = manips.get(r, "planted manipulation");
                if !is_no_manipulation(m1) && Some(m1) != manipulation.as_deref() {
                    summary.warnings.push(format!(
                        "{}: the original chart {}_1 lists a manipulation ({}); the pair's is the one of {}_2",
                        manips.place(r),
                        c.pair,
                        quote(m1),
                        c.pair
                    ));
                }
            }
            pairs.insert(c.pair.clone(), PairInfo { manipulation });
        }
        pairs
    }

    /// The chart's type: of its own row, its pair's, or the other chart's of the pair.
    pub(crate) fn chart_type_of(&self, c: &Chart) -> Result<&'static str, ImportError> {
        let (manips, manip_rows) = (self.table, &self.rows);
        let other = format!("{}_{}", c.pair, if c.manipulated { 1 } else { 2 });
        let row = [c.id.as_str(), c.pair.as_str(), other.as_str()]
            .into_iter()
            .find_map(|k| {
                manip_rows
                    .get(k)
                    .filter(|r| !manips.get(r, "chart type").is_empty())
            });
        let Some(r) = row else {
            return Err(ImportError::File {
                path: manips.path.clone(),
                message: format!("no chart type for {} (nor for its pair)", c.id),
            });
        };
        let t = manips.get(r, "chart type");
        chart_type(t).ok_or_else(|| {
            manips.err(
                r,
                "chart type",
                format!(
                    "unknown chart type {} (expected line, bar, pie, scatter or map)",
                    quote(t)
                ),
            )
        })
    }
}
