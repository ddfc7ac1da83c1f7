//! `perft report`: charts of compare and bench reports, as HTML or SVG.

use std::io::Write;

use anyhow::{bail, Context, Result};
use perft::chart::{bench_history_chart, compare_chart, escape, html_page, stack_svgs};
use perft::compare::summarize;
use perft::report::{write_atomic, BenchReport, CompareReport};

use super::args::ReportArgs;
use super::EXIT_OK;

fn compare_table(report: &CompareReport) -> String {
    let mut html = String::from(
        "<table>\n<tr><th>engine</th><th>position</th><th>depth</th><th>nodes</th><th>median s</th><th>Mnps</th><th>vs perft</th></tr>\n",
    );
    for r in &report.results {
        let depth = report
            .positions
            .iter()
            .find(|p| p.id == r.position)
            .map_or(String::new(), |p| p.depth.to_string());
        let cells = match (&r.problem, r.nodes_per_second) {
            // A failed or skipped engine says why across the row.
            (Some(problem), None) => format!("<td colspan=\"4\" class=\"bad\">{}</td>", escape(problem)),
            _ => format!(
                "<td>{}</td><td>{}</td><td>{}</td><td>{}</td>",
                r.nodes.map_or("-".into(), |n| n.to_string()),
                if r.samples.is_empty() { "-".into() } else { format!("{:.3}", r.seconds.median) },
                r.nodes_per_second.map_or("-".into(), |s| format!("{:.1}", s / 1e6)),
                r.ratio_to_ours.map_or("-".into(), |x| format!("{x:.2}x")),
            ),
        };
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{depth}</td>{cells}</tr>\n",
            escape(&r.engine),
            escape(&r.position),
        ));
    }
    html.push_str("</table>\n");
    // Reports written before they carried totals get them computed here.
    let summary = if report.summary.is_empty() {
        summarize(&report.engines, &report.results)
    } else {
        report.summary.clone()
    };
    if !summary.is_empty() {
        html.push_str(
            "<table>\n<tr><th>engine</th><th>positions timed</th><th>nodes</th><th>seconds</th><th>Mnps</th><th>geometric mean vs perft</th></tr>\n",
        );
        for s in &summary {
            html.push_str(&format!(
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.1}</td><td>{}</td></tr>\n",
                escape(&s.engine),
                s.positions,
                s.nodes,
                s.seconds,
                s.nodes_per_second / 1e6,
                s.geomean_ratio_to_ours.map_or("-".into(), |x| format!("{x:.2}x")),
            ));
        }
        html.push_str("</table>\n");
    }
    html.push_str(
        "<p>Ratios are an engine's speed divided by perft's on the same position: above 1 is faster than \
         perft, below 1 slower. Engines whose count disagreed are not timed there.</p>\n",
    );
    html.push_str(&format!("<p>{}</p>\n", escape(&report.method)));
    html
}

fn bench_table(reports: &[BenchReport]) -> String {
    let mut html = String::from(
        "<table>\n<tr><th>time</th><th>commit</th><th>machine</th><th>threads</th><th>mode</th><th>total Mnps</th></tr>\n",
    );
    for r in reports {
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.1}</td></tr>\n",
            escape(&r.header.timestamp),
            escape(&r.header.tool.git_commit),
            escape(&r.header.machine.cpu),
            r.threads,
            escape(&r.mode),
            r.total.nodes_per_second / 1e6
        ));
    }
    html.push_str("</table>\n");
    html
}

pub fn report(args: ReportArgs) -> Result<u8> {
    let mut compares = Vec::new();
    let mut benches = Vec::new();
    let mut out = std::io::stdout().lock();
    for path in &args.files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let kind =
            perft::report::report_kind(&text).with_context(|| format!("{} is not JSON", path.display()))?;
        match kind.as_str() {
            "compare" => compares.push(
                perft::report::from_json::<CompareReport>(&text)
                    .with_context(|| format!("{}: malformed compare report", path.display()))?,
            ),
            "bench" => benches.push(
                perft::report::from_json::<BenchReport>(&text)
                    .with_context(|| format!("{}: malformed bench report", path.display()))?,
            ),
            // Other reports (a suite run beside the benches in results/,
            // say) have nothing to chart: skipped, with a note.
            "" => writeln!(out, "note: {}: not a report perft knows; skipped", path.display())?,
            other => writeln!(
                out,
                "note: {}: a {other} report; skipped (charts are drawn from compare and bench reports)",
                path.display()
            )?,
        }
    }
    if compares.is_empty() && benches.is_empty() {
        bail!("nothing to chart: no compare or bench report among the files given");
    }
    benches.sort_by(|a, b| a.header.timestamp.cmp(&b.header.timestamp));
    let mut sections = Vec::new();
    for report in &compares {
        let heading = format!(
            "Comparison of {} ({}, {})",
            report.header.timestamp, report.header.machine.cpu, report.header.machine.os
        );
        sections.push((heading, compare_chart(report)?, compare_table(report)));
    }
    if !benches.is_empty() {
        sections.push(("Bench history".to_string(), bench_history_chart(&benches)?, bench_table(&benches)));
    }
    let extension = args.out.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    let content = match extension.as_deref() {
        Some("html" | "htm") => html_page("perft report", &sections),
        Some("svg") => {
            let charts: Vec<String> = sections.into_iter().map(|(_, svg, _)| svg).collect();
            if charts.len() == 1 {
                charts.into_iter().next().unwrap_or_default()
            } else {
                stack_svgs(&charts)
            }
        }
        _ => bail!("--out {}: the file name must end in .html or .svg", args.out.display()),
    };
    write_atomic(&args.out, content.as_bytes())
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    writeln!(
        out,
        "Wrote {} ({} comparison{}, {} bench report{})",
        args.out.display(),
        compares.len(),
        if compares.len() == 1 { "" } else { "s" },
        benches.len(),
        if benches.len() == 1 { "" } else { "s" }
    )?;
    Ok(EXIT_OK)
}
