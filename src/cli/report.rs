//! `perft report`: charts of compare, bench and run reports, as HTML or SVG.

use std::io::Write;

use anyhow::{bail, Context, Result};
use perft::chart::{report_page, PageFormat};
use perft::report::{write_atomic, AnyReport, ReadReportError, ReadReportFileError};

use super::args::ReportArgs;
use super::{EXIT_BAD_INPUT, EXIT_OK};

/// What the charts are drawn from, as the notes on skipped files say.
const CHARTED: &str = "charts are drawn from compare, bench and run reports";

pub fn report(args: ReportArgs) -> Result<u8> {
    let inputs: Vec<(&str, &std::path::Path)> =
        args.files.iter().map(|f| ("one of the reports read", f.as_path())).collect();
    super::resolve::refuse_collisions(&[("--out", args.out.as_path())], &inputs)?;
    let mut compares = Vec::new();
    let mut benches = Vec::new();
    let mut runs = Vec::new();
    let mut out = std::io::stdout().lock();
    // A file that cannot be read is said, and the others are drawn.
    let mut unreadable = 0;
    for path in &args.files {
        match AnyReport::read_file(path) {
            Ok(AnyReport::Compare(report)) => compares.push(report),
            Ok(AnyReport::Bench(report)) => benches.push(report),
            Ok(AnyReport::Run(report)) => runs.push(report),
            // Other reports (a suite run beside the benches in results/,
            // say) have nothing to chart: skipped, with a note.
            Ok(other) => {
                writeln!(out, "note: {}: a {} report; skipped ({CHARTED})", path.display(), other.kind())?
            }
            // perft's own merge report (`perft merge --json`) is read by
            // none of the report commands, but it is no stranger.
            Err(ReadReportFileError::Report(ReadReportError::UnknownKind(kind))) if kind == "merge" => {
                writeln!(out, "note: {}: a merge report; skipped", path.display())?
            }
            // A file of another program (the summaries scripts/deep.sh
            // writes beside perft's run reports): one short line.
            Err(ReadReportFileError::Report(ReadReportError::UnknownKind(_))) => {
                writeln!(out, "note: {}: not a perft report; skipped", path.display())?
            }
            Err(e) => {
                unreadable += 1;
                writeln!(out, "ERROR {}: {e}; skipped", path.display())?;
            }
        }
    }
    if compares.is_empty() && benches.is_empty() && runs.is_empty() {
        bail!("nothing to chart: no readable compare, bench or run report among the files given");
    }
    let format = match args.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("html" | "htm") => PageFormat::Html,
        Some("svg") => PageFormat::Svg,
        _ => bail!("--out {}: the file name must end in .html or .svg", args.out.display()),
    };
    let content = report_page(&compares, &mut benches, &runs, format)?;
    write_atomic(&args.out, content.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    writeln!(
        out,
        "Wrote {} ({} comparison{}, {} bench report{}, {} run{})",
        args.out.display(),
        compares.len(),
        if compares.len() == 1 { "" } else { "s" },
        benches.len(),
        if benches.len() == 1 { "" } else { "s" },
        runs.len(),
        if runs.len() == 1 { "" } else { "s" }
    )?;
    Ok(if unreadable > 0 { EXIT_BAD_INPUT } else { EXIT_OK })
}
