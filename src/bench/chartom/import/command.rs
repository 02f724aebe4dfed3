//! `verdict import chartom`: the command line of the CHARTOM import.

use std::path::PathBuf;

use anyhow::Context;

use super::{Options, import, to_lines};
use crate::import::Imported;
use crate::perms::Derived;
use crate::sanitize;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The CHARTOM folder.
    pub dir: PathBuf,
    /// The result set to write (JSONL).
    #[arg(short, long, value_name = "OUT.jsonl")]
    pub output: PathBuf,
    /// Model answers, JSONL of {"id", "model", "fact", "mind", "justification"}
    /// (repeatable).
    #[arg(long, value_name = "FILE")]
    pub answers: Vec<PathBuf>,
    /// Human answers, CSV `chart id,answer,count` (count optional: one row per answer).
    #[arg(long, value_name = "FILE")]
    pub human_answers: Option<PathBuf>,
    /// Strategy answers of number questions, CSV `chart id,misled,skim` (pair or chart id).
    #[arg(long, value_name = "FILE")]
    pub strategies: Option<PathBuf>,
    /// HMI values, CSV `chart id,hmi`; they win over HMIs computed from human answers.
    #[arg(long, value_name = "FILE")]
    pub hmi: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `verdict import chartom`: write the result set; what to print (`Imported`).
pub fn run(a: Args) -> anyhow::Result<Imported> {
    crate::import::check_output(&a.output, a.force)?;
    let opts = Options {
        answers: a.answers,
        human_answers: a.human_answers,
        strategies: a.strategies,
        hmi: a.hmi,
        out: a.output.clone(),
    };
    let imp = import(&a.dir, &opts)?;
    // The set holds the folder's content: no more open than it and the files named.
    let mut sources = vec![a.dir.clone()];
    sources.extend(
        ["FACT_answer_keys.csv", "chart_manipulations.csv"]
            .iter()
            .map(|f| a.dir.join(f))
            .filter(|p| p.exists()),
    );
    sources.extend(opts.answers.iter().cloned());
    sources.extend(
        [&opts.human_answers, &opts.strategies, &opts.hmi]
            .into_iter()
            .flatten()
            .cloned(),
    );
    let perms = Derived::of_sources(&sources)?;
    crate::import::write_jsonl(&a.output, to_lines(&imp.items), a.force, &perms)
        .with_context(|| "nothing was written")?;
    let s = &imp.summary;
    let mut out = Vec::new();
    let list = |m: &indexmap::IndexMap<String, usize>| {
        m.iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    out.push(format!(
        "wrote {}: {} items, {} pairs",
        a.output.display(),
        s.items,
        s.pairs
    ));
    out.push(format!("  chart types: {}", list(&s.types)));
    out.push(format!("  formats: {}", list(&s.formats)));
    out.push(format!(
        "  human answers: {} charts; HMI: {} charts",
        s.with_human_answers, s.with_hmi
    ));
    if s.models.is_empty() {
        out.push("models: none".to_string());
    } else {
        let parts: Vec<String> = s
            .models
            .iter()
            .map(|(m, n)| {
                format!(
                    "{} ({n} answer{})",
                    sanitize::line(m),
                    if *n == 1 { "" } else { "s" }
                )
            })
            .collect();
        out.push(format!("models: {}", parts.join(", ")));
    }
    Ok(Imported {
        out,
        warnings: s.warnings.clone(),
    })
}
