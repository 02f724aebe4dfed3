//! What the CHARTOM screen shows of the grading rules: thin adapters over
//! `crate::bench::chartom::grade`, shaped for display. No rule is implemented here.

use crate::bench::Item;
use crate::bench::chartom::grade as chartom;

pub struct FactView {
    pub parsed: Option<String>,
    pub auto: Option<bool>,
    pub effective: Option<bool>,
    pub overridden: bool,
}

pub fn chartom_fact(item: &Item, model: &str) -> FactView {
    let e = chartom::effective(item, model);
    FactView {
        parsed: e.fact.display.clone(),
        auto: e.fact.correct,
        effective: e.fact_correct,
        overridden: e.overridden,
    }
}

pub struct HmiView {
    pub hmi: f64,
    pub n: u64,
    pub not_acceptable: u64,
}

pub fn chartom_hmi(item: &Item) -> Option<HmiView> {
    let h = chartom::hmi_from_fact(item.fact.as_ref()?)?;
    Some(HmiView {
        hmi: h.hmi,
        n: h.n_answers,
        not_acceptable: h.n_not_acceptable,
    })
}

/// The key line of the item screen ([`chartom::key_line`]).
pub fn fact_key_display(fact: &crate::bench::chartom::fields::Fact) -> String {
    chartom::key_line(fact)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key line of the item screen says the key as `verdict stats` says it (one rule,
    /// `bench::chartom::grade::key_display`), with the tolerance of a number key.
    #[test]
    fn the_key_line_is_the_key_as_stats_shows_it() {
        let fact = |format: &str, key: serde_json::Value, options: serde_json::Value| {
            let it = Item::parse(
                &serde_json::json!({
                    "benchmark": "chartom",
                    "fact": {"question": "q", "format": format, "key": key, "options": options},
                })
                .to_string(),
            )
            .unwrap();
            fact_key_display(it.fact.as_ref().unwrap())
        };
        // Alternative rankings: " or ", as in the suspect-key list.
        assert_eq!(
            fact(
                "rank",
                serde_json::json!([[3, 1, 2], [1, 3, 2]]),
                serde_json::json!(["a", "b", "c"])
            ),
            "3 > 1 > 2 or 1 > 3 > 2"
        );
        // An option without a text shows its number alone.
        assert_eq!(
            fact("choice", serde_json::json!(2), serde_json::json!(["x", ""])),
            "2"
        );
        assert_eq!(
            fact(
                "choice",
                serde_json::json!(2),
                serde_json::json!(["x", "Spain"])
            ),
            "2 (Spain)"
        );
        assert_eq!(
            fact("number", serde_json::json!(1.2), serde_json::json!([])),
            "1.2 (correct within ±10%)"
        );
        assert_eq!(
            fact("number", serde_json::Value::Null, serde_json::json!([])),
            "missing or unusable"
        );
    }
}
