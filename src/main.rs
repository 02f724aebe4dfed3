// Everything printed goes through `cli::out` (and so through `sanitize`).
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use verdict::cli;
use verdict::cli::out;

/// Review benchmark results by hand: CHARTOM, CharToM-QA and C-VQA result sets,
/// lm-evaluation-harness sample logs and Inspect AI eval logs.
///
/// `verdict FILE` opens the reviewer on a result set (JSONL, JSON, the CharToM-QA
/// evaluation JSONL, an lm-eval `samples_*.jsonl`, an Inspect `.eval` or `.json` log).
/// The subcommands work headless, for scripts and CI.
/// Try it on the bundled samples: `verdict sample-data/cvqa.jsonl`.
#[derive(Parser)]
#[command(name = "verdict", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    review: cli::review::Args,
    /// Read every item as the benchmark this TOML spec declares: the fields it shows and
    /// the questions you answer (docs/format.md, "Declared benchmarks"). For the reviewer
    /// and every command that reads a file.
    #[arg(long, value_name = "SPEC.toml", global = true)]
    benchmark: Option<std::path::PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// The papers' figures for a result set, per benchmark and model, and review progress.
    Stats(cli::stats::Args),
    /// Validate a result set; report every problem with its line and field.
    Check(cli::check::Args),
    /// Turn a benchmark's own files into a result set (JSONL).
    Import(cli::import::Args),
    /// One row per item x model with grades and verdicts, as CSV or JSONL.
    Export(cli::export::Args),
    /// Deal a result set out to reviewers: one file each, every item to --overlap of them.
    Split(cli::split::Args),
    /// Combine reviewers' files of the same set into one; the newer of two verdicts wins.
    Merge(cli::merge::Args),
    /// Agreement between reviewers (and the LLM judge): kappas, alpha, time per item.
    Agree(cli::agree::Args),
    /// Fold a reviewing session's journal into its file after the reviewer quit
    /// (started by the reviewer itself; not for use by hand).
    #[command(name = "__fold", hide = true)]
    Fold(verdict::tui::worker::FoldArgs),
}

fn main() -> ExitCode {
    // A full disk or a file-size limit must give a write error we can report, not kill us.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" at start-up, before any thread.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // A panic's message can quote a file's text: it goes out harmless too.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let _ = out::eprint(&format!(
            "verdict: internal error (a bug, please report it){at}: {msg}\n"
        ));
    }));
    verdict::bench::register_containers();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    if let Some(spec) = &cli.benchmark
        && let Err(e) = verdict::bench::register_spec(spec)
    {
        for line in e.lines() {
            let _ = out::eprint(&format!("verdict: {line}\n"));
        }
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Some(Command::Stats(a)) => cli::stats::run(a),
        Some(Command::Check(a)) => cli::check::run(a),
        Some(Command::Import(a)) => cli::import::run(a),
        Some(Command::Export(a)) => cli::export::run(a),
        Some(Command::Split(a)) => cli::split::run(a),
        Some(Command::Merge(a)) => cli::merge::run(a),
        Some(Command::Agree(a)) => cli::agree::run(a),
        Some(Command::Fold(a)) => return verdict::tui::worker::run_fold(a),
        None => cli::review::run(cli.review),
    };
    match result {
        Ok(code) => code,
        // `verdict ... | head`: the reader has all it wants; stop quietly.
        Err(e) if out::is_broken_pipe(&e) => ExitCode::from(out::BROKEN_PIPE),
        Err(e) => {
            let _ = out::eprint(&format!("verdict: {}\n", out::error_message(&e)));
            ExitCode::from(2)
        }
    }
}

/// clap's messages quote the arguments (file names among them): print them through the
/// sanitiser, as plain text. Help and version text is ours and keeps clap's styling.
fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    let code = u8::try_from(e.exit_code()).unwrap_or(2);
    let printed = match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => e.print(),
        _ => out::eprint(&e.render().to_string()),
    };
    match printed {
        Err(io) if io.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::from(out::BROKEN_PIPE),
        _ => ExitCode::from(code),
    }
}
