use std::path::PathBuf;
use std::process::ExitCode;

use crate::tui::image::ProtocolChoice;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// The result set to review (JSONL, JSON, or the CharToM-QA evaluation JSONL).
    pub file: Option<PathBuf>,
    /// Your name: every verdict is stored under it [default: config `reviewer`, else the
    /// login name].
    #[arg(long, short = 'r')]
    pub reviewer: Option<String>,
    /// How to draw images. `auto` asks the terminal; the others never wait for a reply.
    /// Also settable with VERDICT_IMAGE_PROTOCOL.
    #[arg(long, value_enum)]
    pub image_protocol: Option<ProtocolChoice>,
    /// Colour theme: dark, light or mono (NO_COLOR forces mono).
    #[arg(long)]
    pub theme: Option<String>,
    /// Blind mode: hide other reviewers' verdicts and the judge until you give yours.
    #[arg(long)]
    pub blind: bool,
    /// Start at this item (number, 1-based, or id) instead of where you left off.
    #[arg(long)]
    pub at: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let Some(file) = args.file else {
        let samples: Vec<String> = crate::bench::SAMPLES
            .iter()
            .map(|f| format!("\n  verdict {f}"))
            .collect();
        crate::cli::out::outln!(
            "verdict: review benchmark results by hand.\n\n\
             Usage: verdict FILE            open the reviewer\n\
             \x20      verdict stats FILE      the papers' figures (--json for scripts)\n\
             \x20      verdict --help          every subcommand and option\n\n\
             Try the bundled samples:{}",
            samples.concat()
        )?;
        return Ok(ExitCode::SUCCESS);
    };
    // A folder of lm-eval output or of Inspect logs is one set (each task's latest
    // run); any other is told what to open before anything else.
    if file.is_dir() && crate::bench::folder_set(&file, false).is_none() {
        return Err(crate::bench::folder_error(&file).into());
    }
    if !on_a_terminal() {
        anyhow::bail!(
            "the reviewer needs a terminal; for scripts use `verdict stats`, `check` or `export`"
        );
    }
    crate::tui::run(crate::tui::Options {
        file,
        reviewer: args.reviewer,
        image_protocol: args.image_protocol,
        theme: args.theme,
        blind: args.blind,
        start: args.at,
    })
}

/// Whether standard input and output are a terminal (asked, nothing printed).
#[allow(clippy::disallowed_methods)]
fn on_a_terminal() -> bool {
    use std::io::IsTerminal;
    std::io::stdout().is_terminal() && std::io::stdin().is_terminal()
}
