//! The agreement report as text, from the typed [`AgreementReport`]: `verdict agree`'s
//! report ([`render`]) and the summary screen's lines ([`summary_lines`]).

use std::fmt::Write as _;

use super::{AgreementReport, FieldReport, PairFigures};
use crate::sanitize;

fn num(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{v:.3}"),
        None => "n/a".into(),
    }
}

fn pct(x: Option<f64>) -> String {
    match x {
        Some(v) => format!("{:.1}%", v * 100.0),
        None => "n/a".into(),
    }
}

fn benchmark_title(b: &str) -> &str {
    crate::bench::Benchmark::from_name(Some(b)).title()
}

/// The human-readable report.
pub fn render(r: &AgreementReport) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Agreement in {}: {} items, reviewers {}; {} adjudication(s) left out",
        sanitize::line(&r.file),
        r.items,
        if r.reviewers.is_empty() {
            "none".to_string()
        } else {
            sanitize::line(&r.reviewers.join(", ")).into_owned()
        },
        r.adjudications_left_out
    );
    if !r.unreadable.is_empty() {
        let _ = writeln!(o, "{} unreadable item(s) left out:", r.unreadable.len());
        for u in r.unreadable.iter().take(10) {
            let _ = writeln!(o, "  {}", sanitize::line(u));
        }
        if r.unreadable.len() > 10 {
            let _ = writeln!(o, "  ... and {} more", r.unreadable.len() - 10);
        }
    }
    if r.fields.is_empty() {
        let _ = writeln!(o, "\nNo categorical verdicts to compare yet.");
    }
    for f in &r.fields {
        o.push('\n');
        field(&mut o, f, "");
    }
    if let Some(j) = &r.judge {
        let _ = writeln!(
            o,
            "\n{}: human reviewers vs the LLM judge ({}): {} judged responses, {} with an unparsable bonus (their bonus points left out for the judge)",
            j.benchmark.title(),
            j.judge,
            j.responses,
            j.unparsable_bonus
        );
        for f in &j.fields {
            o.push('\n');
            field(&mut o, f, "  ");
        }
        if !j.versus.is_empty() {
            let _ = writeln!(
                o,
                "\n  reviewer vs judge, on the units both graded\n  {:<16} {:>6} {:>7} {:>7} {:>7} {:>7}   {:>6} {:>7} {:>7} {:>7} {:>7}",
                "reviewer",
                "bonus",
                "agree",
                "kappa",
                "BPC",
                "judge",
                "penal.",
                "agree",
                "kappa",
                "PR",
                "judge"
            );
            for v in &j.versus {
                let cols = |p: &Option<PairFigures>| match p {
                    Some(p) => format!(
                        "{:>6} {:>7} {:>7} {:>7.3} {:>7.3}",
                        p.units,
                        pct(Some(p.agreement)),
                        num(p.cohen_kappa),
                        p.reviewer,
                        p.judge
                    ),
                    None => format!("{:>6} {:>7} {:>7} {:>7} {:>7}", 0, "", "", "", ""),
                };
                let _ = writeln!(
                    o,
                    "  {:<16} {}   {}",
                    sanitize::line(&v.reviewer),
                    cols(&v.bonus),
                    cols(&v.penalty)
                );
            }
        }
        if !j.raters.is_empty() {
            let _ = writeln!(
                o,
                "\n  BPC and PR by each rater, over everything they graded\n  {:<16} {:>7} {:>8} {:>7}   {:>7} {:>8} {:>7}",
                "rater", "points", "covered", "BPC", "graded", "penalty", "PR"
            );
            for f in &j.raters {
                let _ = writeln!(
                    o,
                    "  {:<16} {:>7} {:>8} {:>7}   {:>7} {:>8} {:>7}",
                    sanitize::line(&f.rater),
                    f.bonus_points,
                    f.covered,
                    num(f.bpc),
                    f.penalty_graded,
                    f.with_penalty,
                    num(f.pr)
                );
            }
        }
    }
    if !r.time.reviewers.is_empty() {
        let _ = writeln!(
            o,
            "\nTime per item: median seconds per verdict\n  ({})\n  {:<16} {:>6} {:>8} {:>8}",
            r.time.rule, "reviewer", "timed", "median", "others"
        );
        for t in &r.time.reviewers {
            let _ = writeln!(
                o,
                "  {:<16} {:>6} {:>8} {:>8}{}",
                sanitize::line(&t.reviewer),
                t.timed,
                t.median_seconds
                    .map(|s| format!("{s:.1}s"))
                    .unwrap_or_else(|| "n/a".into()),
                t.others_median_seconds
                    .map(|s| format!("{s:.1}s"))
                    .unwrap_or_else(|| "n/a".into()),
                if t.possibly_rushing {
                    "  possibly rushing"
                } else {
                    ""
                }
            );
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(o, "\n{} warning(s):", r.warnings.len());
        for w in r.warnings.iter().take(20) {
            let _ = writeln!(o, "  {}", sanitize::line(w));
        }
        if r.warnings.len() > 20 {
            let _ = writeln!(o, "  ... and {} more", r.warnings.len() - 20);
        }
    }
    o
}

fn field(o: &mut String, f: &FieldReport, ind: &str) {
    let cats: Vec<String> = f
        .categories
        .iter()
        .zip(&f.counts)
        .map(|(c, n)| format!("{} {n}", sanitize::line(c)))
        .collect();
    let _ = writeln!(
        o,
        "{ind}{} {} (unit: {}; ratings: {})",
        benchmark_title(f.benchmark),
        f.field,
        f.unit,
        cats.join(", ")
    );
    let _ = writeln!(
        o,
        "{ind}  units rated: {}, by two or more: {}; percent agreement {}",
        f.units_rated,
        f.units_multi,
        pct(f.percent_agreement)
    );
    let fleiss = match &f.fleiss {
        Some(fl) => format!(
            "{} ({} units with {} ratings{})",
            num(fl.kappa),
            fl.units,
            fl.raters_per_unit,
            if fl.units_left_out > 0 {
                format!("; {} with another number left out", fl.units_left_out)
            } else {
                String::new()
            }
        ),
        None => "n/a".into(),
    };
    let mut alpha = format!("{} nominal", num(f.krippendorff_alpha.nominal));
    if let Some(ord) = f.krippendorff_alpha.ordinal {
        let _ = write!(alpha, ", {ord:.3} ordinal");
    }
    let _ = writeln!(
        o,
        "{ind}  Fleiss' kappa {fleiss}; Krippendorff's alpha {alpha}"
    );
    if !f.pairs.is_empty() {
        let _ = writeln!(
            o,
            "{ind}  {:<24} {:>6} {:>9} {:>13}",
            "pair", "units", "agreement", "Cohen's kappa"
        );
        for p in &f.pairs {
            let _ = writeln!(
                o,
                "{ind}  {:<24} {:>6} {:>9} {:>13}",
                format!("{} - {}", sanitize::line(&p.a), sanitize::line(&p.b)),
                p.units,
                pct(Some(p.agreement)),
                num(p.cohen_kappa)
            );
        }
    }
}

/// A figure with two decimals, `–` when there is none (the summary screen).
fn f2(x: Option<f64>) -> String {
    x.map(|x| format!("{x:.2}")).unwrap_or_else(|| "–".into())
}

/// The agreement figures in a few lines, for the reviewer's summary screen: each field
/// measured on two or more reviewers, each reviewer against the LLM judge, and time per
/// item. Names are not sanitized here: the screen does it when it draws.
pub fn summary_lines(r: &AgreementReport) -> Vec<String> {
    let mut out = Vec::new();
    let multi: Vec<&FieldReport> = r.fields.iter().filter(|f| f.units_multi > 0).collect();
    if multi.is_empty() {
        out.push("  no item has verdicts by two or more reviewers yet".into());
    }
    for f in multi {
        let pairs: Vec<String> = f
            .pairs
            .iter()
            .filter(|p| p.cohen_kappa.is_some())
            .map(|p| format!("{}–{} {}", p.a, p.b, f2(p.cohen_kappa)))
            .collect();
        out.push(format!(
            "  {:<10} {:<18} units {} agree {}  Fleiss κ {}  α {}{}  {}",
            f.benchmark,
            f.field,
            f.units_multi,
            f2(f.percent_agreement),
            f2(f.fleiss.as_ref().and_then(|x| x.kappa)),
            f2(f.krippendorff_alpha.nominal),
            match f.krippendorff_alpha.ordinal {
                None => String::new(),
                Some(o) => format!(" (ordinal {})", f2(Some(o))),
            },
            if pairs.is_empty() {
                String::new()
            } else {
                format!("Cohen κ {}", pairs.join(", "))
            }
        ));
    }
    if let Some(j) = &r.judge {
        for v in &j.versus {
            for (what, fig) in [("bonus", &v.bonus), ("penalty", &v.penalty)] {
                let Some(fig) = fig else { continue };
                out.push(format!(
                    "  human {} vs judge, {what}: units {} agree {} Cohen κ {} · {} {} vs judge {}",
                    v.reviewer,
                    fig.units,
                    f2(Some(fig.agreement)),
                    f2(fig.cohen_kappa),
                    if what == "bonus" { "BPC" } else { "PR" },
                    f2(Some(fig.reviewer)),
                    f2(Some(fig.judge))
                ));
            }
        }
    }
    for t in &r.time.reviewers {
        out.push(format!(
            "  {:<12} median {} s per item over {} timed verdicts{}",
            t.reviewer,
            t.median_seconds
                .map(|x| format!("{x:.0}"))
                .unwrap_or("–".into()),
            t.timed,
            if t.possibly_rushing {
                "  ⚠ possibly rushing (far below the others)"
            } else {
                ""
            }
        ));
    }
    out
}
