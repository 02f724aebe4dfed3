//! The items of a CHARTOM import: each chart with its image, type, manipulation, FACT
//! question, human answers, HMI and model answers.

use super::*;

/// chart id → the name of its image in `chart_images/` (a `.png` wins over other formats).
pub(crate) fn image_names(img_dir: &Path) -> HashMap<String, String> {
    let mut image_names: HashMap<String, String> = HashMap::new();
    if let Ok(rd) = std::fs::read_dir(img_dir) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some((stem, _)) = name.rsplit_once('.') {
                let better = image_names
                    .get(stem)
                    .is_none_or(|prev| !prev.ends_with(".png"));
                if better {
                    image_names.insert(stem.to_string(), name);
                }
            }
        }
    }
    image_names
}

/// The optional inputs, read.
pub(crate) struct Inputs {
    /// pair → (misled, skim).
    strategies: HashMap<String, (Number, Number)>,
    /// chart id → merged `(answer, count)`.
    human: HashMap<String, Vec<(Value, u64)>>,
    /// chart id → given HMI.
    hmi_given: HashMap<String, f64>,
    /// chart id → model responses.
    responses: HashMap<String, Vec<Value>>,
}

impl Inputs {
    pub(crate) fn read(
        opts: &Options,
        charts: &[Chart],
        by_id: &HashMap<String, usize>,
        summary: &mut Summary,
    ) -> Result<Inputs, ImportError> {
        let strategies = match &opts.strategies {
            Some(p) => read_strategies(p, charts, by_id, summary)?,
            None => HashMap::new(),
        };
        let human = match &opts.human_answers {
            Some(p) => read_human_answers(p, charts, by_id)?,
            None => HashMap::new(),
        };
        let hmi_given = match &opts.hmi {
            Some(p) => read_hmi(p, by_id)?,
            None => HashMap::new(),
        };
        let mut responses: HashMap<String, Vec<Value>> = HashMap::new();
        let mut seen: HashMap<(String, String), String> = HashMap::new();
        for p in &opts.answers {
            read_answers(p, by_id, &mut responses, &mut seen, summary)?;
        }
        Ok(Inputs {
            strategies,
            human,
            hmi_given,
            responses,
        })
    }
}

/// What an item is built from besides its chart and the inputs.
pub(crate) struct Sources<'a> {
    pub(crate) manips: &'a Manipulations<'a>,
    pub(crate) pairs: &'a IndexMap<String, PairInfo>,
    pub(crate) images: &'a ImagePaths,
    pub(crate) image_names: &'a HashMap<String, String>,
}

/// Charts that an item's build noted, for the warnings after them.
#[derive(Default)]
struct Missing {
    images: Vec<String>,
    no_hmi_without_strategies: Vec<String>,
}

/// One item per chart, in the charts' order; then the warnings of missing images and of
/// number questions without an HMI.
pub(crate) fn build_items(
    charts: &[Chart],
    sources: &Sources,
    mut inputs: Inputs,
    img_dir: &Path,
    summary: &mut Summary,
) -> Result<Vec<Value>, ImportError> {
    let mut missing = Missing::default();
    let mut items = Vec::with_capacity(charts.len());
    for c in charts {
        items.push(item(c, sources, &mut inputs, summary, &mut missing)?);
    }
    let missing_images = missing.images;
    let no_hmi_without_strategies = missing.no_hmi_without_strategies;
    if !missing_images.is_empty() {
        summary.warnings.push(format!(
            "{} of {} chart images not found in {}: {}",
            missing_images.len(),
            charts.len(),
            img_dir.display(),
            abbreviate(&missing_images)
        ));
    }
    if !no_hmi_without_strategies.is_empty() {
        summary.warnings.push(format!(
            "no HMI for {} number question{} with human answers but no strategies (give --strategies): {}",
            no_hmi_without_strategies.len(),
            if no_hmi_without_strategies.len() == 1 { "" } else { "s" },
            abbreviate(&no_hmi_without_strategies)
        ));
    }
    Ok(items)
}

/// The item of chart `c`.
fn item(
    c: &Chart,
    sources: &Sources,
    inputs: &mut Inputs,
    summary: &mut Summary,
    missing: &mut Missing,
) -> Result<Value, ImportError> {
    let ctype = sources.manips.chart_type_of(c)?;
    *summary.types.entry(ctype.to_string()).or_default() += 1;
    *summary
        .formats
        .entry(c.format.name().to_string())
        .or_default() += 1;
    let image_name = sources
        .image_names
        .get(&c.id)
        .cloned()
        .unwrap_or_else(|| format!("{}.png", c.id));
    if !sources.images.exists(&image_name) {
        missing.images.push(c.id.clone());
    }
    let (fact, hmi) = fact(c, inputs, summary, missing);
    let mut item = Map::new();
    item.insert("id".into(), json!(c.id));
    item.insert("benchmark".into(), json!("chartom"));
    item.insert("image".into(), json!(sources.images.item_path(&image_name)));
    item.insert(
        "chart".into(),
        json!({
            "pair": c.pair,
            "version": if c.manipulated { "manipulated" } else { "original" },
            "type": ctype,
            "manipulation": sources.pairs[&c.pair].manipulation,
        }),
    );
    item.insert("fact".into(), Value::Object(fact));
    if let Some(h) = hmi {
        summary.with_hmi += 1;
        item.insert("mind".into(), json!({ "hmi": h }));
    }
    item.insert(
        "responses".into(),
        Value::Array(inputs.responses.remove(&c.id).unwrap_or_default()),
    );
    item.insert(
        "source".into(),
        json!({
            "question": path_string(&Path::new("FACT_questions").join(format!("{}.txt", c.id))),
            "answer_type": c.raw_type,
            "answer": c.raw_key,
        }),
    );
    Ok(Value::Object(item))
}

/// The chart's `fact` object (question, key, strategies, human answers) and its HMI: the
/// given one, else the one its human answers give.
fn fact(
    c: &Chart,
    inputs: &Inputs,
    summary: &mut Summary,
    missing: &mut Missing,
) -> (Map<String, Value>, Option<f64>) {
    let mut fact = Map::new();
    fact.insert("question".into(), json!(c.question.text));
    fact.insert("format".into(), json!(c.format.name()));
    fact.insert("options".into(), json!(c.question.options));
    fact.insert("key".into(), c.key.clone());
    let strat = inputs
        .strategies
        .get(&c.pair)
        .filter(|_| c.format == Format::Number);
    if let Some((m, s)) = strat {
        fact.insert("strategies".into(), json!({"misled": m, "skim": s}));
    }
    let mut hmi: Option<f64> = None;
    if let Some(ans) = inputs.human.get(&c.id) {
        summary.with_human_answers += 1;
        fact.insert(
            "human_answers".into(),
            Value::Array(ans.iter().map(|(a, n)| json!([a, n])).collect()),
        );
        // the one rule of verdict::bench::chartom::grade, on the fact as written
        hmi = serde_json::from_value::<crate::bench::chartom::fields::Fact>(Value::Object(
            fact.clone(),
        ))
        .ok()
        .as_ref()
        .and_then(hmi_from_fact)
        .map(|h| h.hmi);
        if hmi.is_none() && c.format == Format::Number && strat.is_none() {
            missing.no_hmi_without_strategies.push(c.id.clone());
        }
    }
    if let Some(&h) = inputs.hmi_given.get(&c.id) {
        hmi = Some(h);
    }
    (fact, hmi)
}
