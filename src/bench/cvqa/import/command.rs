//! `verdict import cvqa`: the command line of the C-VQA import.

use std::path::PathBuf;

use anyhow::Context;

use super::{Options, import, to_lines};
use crate::import::{ImagePaths, Imported};
use crate::perms::Derived;
use crate::sanitize;

#[derive(clap::Args, Debug)]
pub struct Args {
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

/// `verdict import cvqa`: write the result set; what to print (`Imported`).
pub fn run(a: Args) -> anyhow::Result<Imported> {
    crate::import::check_output(&a.output, a.force)?;
    let images = match &a.images {
        Some(d) => {
            if !d.is_dir() {
                anyhow::bail!("--images {}: not a folder", d.display());
            }
            Some(ImagePaths::new(d, &a.output)?)
        }
        None => None,
    };
    let opts = Options {
        models: a.models,
        images,
    };
    let imp = import(&a.csv, &opts)?;
    // The set holds the CSVs' content: no more open than the most private of them.
    let perms = Derived::of_sources(&a.csv)?;
    crate::import::write_jsonl(&a.output, to_lines(&imp.items), a.force, &perms)
        .with_context(|| "nothing was written")?;
    let s = &imp.summary;
    let mut out = Vec::new();
    out.push(format!(
        "wrote {}: {} items",
        a.output.display(),
        imp.items.len()
    ));
    for (split, groups) in &s.splits {
        let total: usize = groups.values().sum();
        let parts: Vec<String> = groups.iter().map(|(g, n)| format!("{g} {n}")).collect();
        out.push(format!("  {split}: {total} ({})", parts.join(", ")));
    }
    if s.models.is_empty() {
        out.push("models: none (questions only)".to_string());
    } else {
        let parts: Vec<String> = s
            .models
            .iter()
            .map(|(m, splits)| format!("{} ({})", sanitize::line(m), splits.join(", ")))
            .collect();
        out.push(format!("models: {}", parts.join(", ")));
    }
    Ok(Imported {
        out,
        warnings: s.warnings.clone(),
    })
}
