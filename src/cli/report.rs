//! `perft report`: charts of compare and bench reports, as HTML or SVG.

use std::io::Write;

use anyhow::{bail, Context, Result};
use perft::chart::{bench_history_chart, compare_chart, escape, html_page, stack_svgs};
use perft::report::{write_atomic, BenchReport, CompareReport};

use super::args::ReportArgs;
use super::EXIT_OK;

fn compare_table(report: &CompareReport) -> String {
    let mut html = String::from(
        "<table>\n<tr><th>engine</th><th>position</th><th>nodes</th><th>median s</th><th>Mnps</th><th>vs perft</th><th>problem</th></tr>\n",
    );
    for r in &report.results {
        html.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"bad\">{}</td></tr>\n",
            escape(&r.engine),
            escape(&r.position),
            r.nodes.map_or("-".into(), |n| n.to_string()),
            if r.samples.is_empty() { "-".into() } else { format!("{:.3}", r.seconds.median) },
            r.nodes_per_second.map_or("-".into(), |s| format!("{:.1}", s / 1e6)),
            r.ratio_to_ours.map_or("-".into(), |x| format!("{x:.2}x")),
            escape(r.problem.as_deref().unwrap_or("")),
        ));
    }
    html.push_str("</table>\n");
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
            "" => bail!(
                "{}: an unknown report; charts are drawn from compare and bench reports",
                path.display()
            ),
            other => {
                bail!("{}: a {other} report; charts are drawn from compare and bench reports", path.display())
            }
        }
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
    let mut out = std::io::stdout().lock();
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
