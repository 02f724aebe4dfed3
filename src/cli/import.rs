//! `verdict import cvqa|chartom ... -o OUT.jsonl`.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;

use crate::bench::chartom::import as chartom;
use crate::bench::cvqa::import as cvqa;
use crate::cli::out::{errln, outln};
use crate::import::{self, ImagePaths};
use crate::perms::Derived;
use crate::sanitize;

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub source: Source,
}

#[derive(clap::Subcommand, Debug)]
pub enum Source {
    /// C-VQA: question CSVs and model-output CSVs, merged by row into items.
    ///
    /// Each CSV is either bare questions (img_path,query,answer,new query,new answer,type)
    /// or a model's output (the same plus response,new_response). CSVs of the same split
    /// (real: direct/indirect/boolean; synthetic: abs_counting_1..6) must describe the same
    /// questions row by row; the real and the synthetic set may be imported together.
    /// Item ids are `<split>-<row>` (e.g. `real-00017`).
    Cvqa(CvqaArgs),
    /// CHARTOM: the folder its authors distribute on request.
    ///
    /// DIR holds FACT_questions/<chart id>.txt, FACT_answer_keys.csv,
    /// chart_manipulations.csv and chart_images/<chart id>.png. See docs/import.md for the
    /// optional model answers, human answers, strategies and HMI files.
    Chartom(ChartomArgs),
}

#[derive(clap::Args, Debug)]
pub struct CvqaArgs {
    /// The CSVs: questions and/or model outputs (`<model>_responses.csv`, or the authors'
    /// `C-VQA_<model>_results.csv`, which hold real and synthetic rows: each row joins the
    /// set of its type).
    #[arg(required = true, value_name = "CSV")]
    pub csv: Vec<PathBuf>,
    /// The result set to write (JSONL).
    #[arg(short, long, value_name = "OUT.jsonl")]
    pub output: PathBuf,
    /// Name the model of the next model-output CSV (repeatable, in the order of the CSVs;
    /// default: the file name without `_responses.csv` / `_results.csv` and `C-VQA_`).
    #[arg(long = "model", value_name = "NAME")]
    pub models: Vec<String>,
    /// The folder of the images; items then point at DIR/img_path (relative to OUT's
    /// folder). Without it, img_path is written as it is.
    #[arg(long, value_name = "DIR")]
    pub images: Option<PathBuf>,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(clap::Args, Debug)]
pub struct ChartomArgs {
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.source {
        Source::Cvqa(a) => run_cvqa(a),
        Source::Chartom(a) => run_chartom(a),
    }
}

fn run_cvqa(a: CvqaArgs) -> anyhow::Result<ExitCode> {
    import::check_output(&a.output, a.force)?;
    let images = match &a.images {
        Some(d) => {
            if !d.is_dir() {
                anyhow::bail!("--images {}: not a folder", d.display());
            }
            Some(ImagePaths::new(d, &a.output)?)
        }
        None => None,
    };
    let opts = cvqa::Options {
        models: a.models,
        images,
    };
    let imp = cvqa::import(&a.csv, &opts)?;
    // The set holds the CSVs' content: no more open than the most private of them.
    let perms = Derived::of_sources(&a.csv)?;
    import::write_jsonl(&a.output, cvqa::to_lines(&imp.items), a.force, &perms)
        .with_context(|| "nothing was written")?;
    let s = &imp.summary;
    outln!("wrote {}: {} items", a.output.display(), imp.items.len())?;
    for (split, groups) in &s.splits {
        let total: usize = groups.values().sum();
        let parts: Vec<String> = groups.iter().map(|(g, n)| format!("{g} {n}")).collect();
        outln!("  {split}: {total} ({})", parts.join(", "))?;
    }
    if s.models.is_empty() {
        outln!("models: none (questions only)")?;
    } else {
        let parts: Vec<String> = s
            .models
            .iter()
            .map(|(m, splits)| format!("{} ({})", sanitize::line(m), splits.join(", ")))
            .collect();
        outln!("models: {}", parts.join(", "))?;
    }
    for w in &s.warnings {
        errln!("warning: {w}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn run_chartom(a: ChartomArgs) -> anyhow::Result<ExitCode> {
    import::check_output(&a.output, a.force)?;
    let opts = chartom::Options {
        answers: a.answers,
        human_answers: a.human_answers,
        strategies: a.strategies,
        hmi: a.hmi,
        out: a.output.clone(),
    };
    let imp = chartom::import(&a.dir, &opts)?;
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
    import::write_jsonl(&a.output, chartom::to_lines(&imp.items), a.force, &perms)
        .with_context(|| "nothing was written")?;
    let s = &imp.summary;
    let list = |m: &indexmap::IndexMap<String, usize>| {
        m.iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    outln!(
        "wrote {}: {} items, {} pairs",
        a.output.display(),
        s.items,
        s.pairs
    )?;
    outln!("  chart types: {}", list(&s.types))?;
    outln!("  formats: {}", list(&s.formats))?;
    outln!(
        "  human answers: {} charts; HMI: {} charts",
        s.with_human_answers,
        s.with_hmi
    )?;
    if s.models.is_empty() {
        outln!("models: none")?;
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
        outln!("models: {}", parts.join(", "))?;
    }
    for w in &s.warnings {
        errln!("warning: {w}")?;
    }
    Ok(ExitCode::SUCCESS)
}
