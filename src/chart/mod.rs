//! Charts of reports as SVG, and a self-contained HTML page around them.
//!
//! [`bars`] draws grouped bar charts whose written values never overlap nor
//! touch an axis; [`speeds`] makes them of compare and run reports; this
//! file draws the bench history and the page.

pub mod bars;
pub mod speeds;
pub mod style;

use plotters::prelude::*;

use crate::report::{BenchReport, CompareReport, RunReport, RESULT_COLUMNS, TOTAL_COLUMNS};

pub use speeds::{compare_chart, run_chart};
use style::{draw_legend, err, text_width, Mark, CAPTION_FONT, LABEL_FONT, LEGEND_WIDTH, SIZE};
pub use style::{escape, ChartError};

/// At most this many labels on a time axis.
const MAX_TIME_LABELS: usize = 6;
/// The bench history's plot width in pixels (at least): the chart's less
/// the legend, the margins and the y labels.
const HISTORY_PLOT_WIDTH: f64 = (SIZE.0 - LEGEND_WIDTH - 20 - 60 - 70) as f64 - 10.0;

/// `2026-11-21 10:00 0123abcd`: a bench report on the history's axis, to
/// the minute, so two runs of one day are told apart.
fn history_label(report: &BenchReport) -> String {
    let time = report.header.timestamp.get(..16).unwrap_or(&report.header.timestamp).replace('T', " ");
    let commit: String = report.header.tool.git_commit.chars().take(8).collect();
    format!("{time} {commit}")
}

/// Mnps of a count of `nodes` taking `seconds` (0 for no time).
fn mnps(nodes: u128, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds / 1e6
    } else {
        0.0
    }
}

/// A bench history's positions in the order first met, and the highest
/// Mnps it draws (fastest counts included; at least 1).
fn history_extent(reports: &[BenchReport]) -> (Vec<&str>, f64) {
    let mut ids: Vec<&str> = Vec::new();
    for entry in reports.iter().flat_map(|r| &r.positions) {
        if !ids.contains(&entry.id.as_str()) {
            ids.push(&entry.id);
        }
    }
    let max = reports
        .iter()
        .flat_map(|r| {
            let total = mnps(r.total.nodes, r.total.seconds.min);
            r.positions
                .iter()
                .map(|e| mnps(e.nodes, e.seconds.min))
                .chain([total, r.total.nodes_per_second / 1e6])
        })
        .fold(1.0f64, f64::max);
    (ids, max)
}

/// Lines of Mnps over a series of bench reports (sorted by time): one per
/// position and a thicker one for the total, each point with a bar from its
/// slowest to its fastest count, so a drop within the noise shows as one.
///
/// # Errors
/// If plotters cannot draw.
pub fn bench_history_chart(reports: &[BenchReport]) -> Result<String, ChartError> {
    let (ids, max) = history_extent(reports);
    let labels: Vec<String> = reports.iter().map(history_label).collect();
    let last = reports.len().saturating_sub(1).max(1) as u32;
    // Every k-th report is labelled, k enough that the labels (at most
    // MAX_TIME_LABELS) never run into each other.
    let widest = labels.iter().map(|l| text_width(l, LABEL_FONT)).fold(0.0, f64::max) + 8.0;
    let spacing = HISTORY_PLOT_WIDTH / last as f64;
    let apart = (widest / spacing).ceil() as usize;
    let every = reports.len().div_ceil(MAX_TIME_LABELS).max(apart).max(1) as u32;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(
                "Mnps over time (bench reports; bars: slowest to fastest count)",
                ("sans-serif", CAPTION_FONT),
            )
            .margin(20)
            .margin_right(60)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0u32..last, 0f64..max * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(reports.len().max(2))
            .x_label_formatter(&|x| {
                if x % every == 0 {
                    labels.get(*x as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .label_style(("sans-serif", LABEL_FONT))
            .axis_desc_style(("sans-serif", LABEL_FONT + 1))
            .y_desc("millions of nodes per second")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(BLACK.mix(0.04))
            .draw()
            .map_err(err)?;
        let mut entries = Vec::new();
        let mut draw = |points: Vec<(u32, f64, f64, f64)>,
                        color: RGBAColor,
                        width: u32|
         -> Result<(), ChartError> {
            let line: Vec<(u32, f64)> = points.iter().map(|&(x, v, _, _)| (x, v)).collect();
            chart.draw_series(LineSeries::new(line.clone(), color.stroke_width(width))).map_err(err)?;
            chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(err)?;
            let bars = points
                .into_iter()
                .map(|(x, _, low, high)| PathElement::new(vec![(x, low), (x, high)], color.stroke_width(2)));
            chart.draw_series(bars).map_err(err)?;
            Ok(())
        };
        for (i, id) in ids.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let points = reports
                .iter()
                .enumerate()
                .filter_map(|(x, r)| {
                    let e = r.positions.iter().find(|e| e.id == *id)?;
                    Some((
                        x as u32,
                        e.nodes_per_second / 1e6,
                        mnps(e.nodes, e.seconds.max),
                        mnps(e.nodes, e.seconds.min),
                    ))
                })
                .collect();
            draw(points, color, 2)?;
            entries.push((id.to_string(), color, Mark::Line(2)));
        }
        let total = reports
            .iter()
            .enumerate()
            .map(|(x, r)| {
                let t = &r.total;
                (
                    x as u32,
                    t.nodes_per_second / 1e6,
                    mnps(t.nodes, t.seconds.max),
                    mnps(t.nodes, t.seconds.min),
                )
            })
            .collect();
        draw(total, BLACK.to_rgba(), 4)?;
        entries.push(("total".to_string(), BLACK.to_rgba(), Mark::Line(4)));
        draw_legend(&legend, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Several SVG charts stacked vertically in one SVG document.
pub fn stack_svgs(charts: &[String]) -> String {
    let (w, h) = SIZE;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{}\" viewBox=\"0 0 {w} {}\">\n",
        h as usize * charts.len(),
        h as usize * charts.len()
    );
    for (i, chart) in charts.iter().enumerate() {
        out.push_str(&format!("<g transform=\"translate(0 {})\">\n{chart}\n</g>\n", i as u32 * h));
    }
    out.push_str("</svg>\n");
    out
}

/// A self-contained HTML page: a title, then sections of heading, chart
/// and table (all already HTML-safe except the headings, which are escaped).
pub fn html_page(title: &str, sections: &[(String, String, String)]) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>{}</title>\n\
         <style>body{{font-family:sans-serif;margin:2em;color:#222}}table{{border-collapse:collapse;margin:1em 0}}\
         td,th{{border:1px solid #bbb;padding:4px 10px;text-align:right}}td:first-child,th:first-child{{text-align:left}}\
         .bad{{color:#b00}}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(title),
        escape(title)
    );
    for (heading, svg, table) in sections {
        page.push_str(&format!("<h2>{}</h2>\n<div>\n{svg}\n</div>\n{table}\n", escape(heading)));
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// What [`report_page`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageFormat {
    /// A page with a chart and a table per section.
    Html,
    /// The charts alone, stacked into one picture.
    Svg,
}

/// The page `perft report` writes: a chart and a table for each
/// comparison, one for the bench history (`benches` sorted by time first),
/// and one for the runs of `perft run` (deep counts among them).
///
/// # Errors
/// If a chart cannot be drawn.
pub fn report_page(
    compares: &[CompareReport],
    benches: &mut [BenchReport],
    runs: &[RunReport],
    format: PageFormat,
) -> Result<String, ChartError> {
    benches.sort_by(|a, b| a.header.timestamp.cmp(&b.header.timestamp));
    let mut sections = Vec::new();
    for report in compares {
        let heading = format!(
            "Comparison of {} ({}, {})",
            report.header.timestamp, report.header.machine.cpu, report.header.machine.os
        );
        sections.push((heading, compare_chart(report)?, compare_table(report)));
    }
    if !benches.is_empty() {
        sections.push(("Bench history".to_string(), bench_history_chart(benches)?, bench_table(benches)));
    }
    if !runs.is_empty() {
        sections.push(("Runs".to_string(), run_chart(runs)?, run_table(runs)));
    }
    Ok(match format {
        PageFormat::Html => html_page("perft report", &sections),
        PageFormat::Svg => {
            let charts: Vec<String> = sections.into_iter().map(|(_, svg, _)| svg).collect();
            if charts.len() == 1 {
                charts.into_iter().next().unwrap_or_default()
            } else {
                stack_svgs(&charts)
            }
        }
    })
}

/// The HTML tables under a comparison's chart: each result, then each
/// engine's totals.
fn compare_table(report: &CompareReport) -> String {
    let header = |columns: &[&str]| {
        let cells: String = columns.iter().map(|c| format!("<th>{c}</th>")).collect();
        format!("<table>\n<tr>{cells}</tr>\n")
    };
    let row = |cells: &[String]| {
        let cells: String = cells.iter().map(|c| format!("<td>{}</td>", escape(c))).collect();
        format!("<tr>{cells}</tr>\n")
    };
    let mut html = header(&RESULT_COLUMNS);
    for r in report.result_rows() {
        let key = [r.engine.to_string(), r.position.to_string(), r.depth];
        match r.cells {
            Ok(cells) => html.push_str(&row(&[key.as_slice(), &cells].concat())),
            // A failed or skipped engine says why across the row.
            Err(problem) => html.push_str(&format!(
                "{}<td colspan=\"4\" class=\"bad\">{}</td></tr>\n",
                row(&key).trim_end_matches("</tr>\n"),
                escape(problem)
            )),
        }
    }
    html.push_str("</table>\n");
    let totals = report.total_rows();
    if !totals.is_empty() {
        html.push_str(&header(&TOTAL_COLUMNS));
        for cells in &totals {
            html.push_str(&row(cells));
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

/// The HTML table under the bench history chart.
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
            r.mode,
            r.total.nodes_per_second / 1e6
        ));
    }
    html.push_str("</table>\n");
    html
}

/// The HTML table under the runs' chart, in order of time.
fn run_table(runs: &[RunReport]) -> String {
    let mut runs: Vec<&RunReport> = runs.iter().collect();
    runs.sort_by(|a, b| a.header.timestamp.cmp(&b.header.timestamp));
    let mut html = String::from(
        "<table>\n<tr><th>time</th><th>commit</th><th>machine</th><th>position</th><th>depth</th>\
         <th>threads</th><th>table</th><th>nodes</th><th>seconds</th><th>speed</th><th>note</th></tr>\n",
    );
    for r in runs {
        let table = r
            .hash
            .as_ref()
            .map_or("none".to_string(), |h| format!("{} MB, {:.1}% hit", h.megabytes, h.hit_rate() * 100.0));
        let note = match &r.progress {
            _ if r.interrupted => "interrupted: the root moves that finished".to_string(),
            Some(p) if p.resumed > 0 => {
                format!("resumed: {} of {} subtrees from its journal", p.resumed, p.subtrees)
            }
            _ => String::new(),
        };
        let cells = [
            r.header.timestamp.clone(),
            r.header.tool.git_commit.clone(),
            r.header.machine.cpu.clone(),
            speeds::run_position(r),
            r.depth.to_string(),
            r.threads.to_string(),
            table,
            r.nodes.to_string(),
            format!("{:.1}", r.seconds),
            crate::report::speed_text(r.nodes_per_second),
            note,
        ];
        let cells: String = cells.iter().map(|c| format!("<td>{}</td>", escape(c))).collect();
        html.push_str(&format!("<tr>{cells}</tr>\n"));
    }
    html.push_str("</table>\n");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compare() -> CompareReport {
        serde_json::from_str(include_str!("../../tests/data/compare-report.json")).unwrap()
    }

    fn bench(timestamp: &str) -> BenchReport {
        let mut report: BenchReport =
            serde_json::from_str(include_str!("../../tests/data/bench-report.json")).unwrap();
        report.header.timestamp = timestamp.into();
        report
    }

    #[test]
    fn compare_bars_carry_their_spread_their_value_and_a_log_axis_when_far_apart() {
        let report = compare();
        let svg = compare_chart(&report).unwrap();
        // Within 10x of each other: a linear axis, each median written.
        assert!(!svg.contains("log scale"), "{svg}");
        assert!(svg.contains("458.0 Mnps") && svg.contains("165.2 Mnps"), "{svg}");
        // A slow engine a hundred times slower: a log axis, its speed in knps.
        let mut slow = report.clone();
        for result in slow.results.iter_mut().filter(|r| r.engine == "stockfish") {
            result.nodes_per_second = result.nodes_per_second.map(|s| s / 2000.0);
            result.seconds.min *= 2000.0;
            result.seconds.median *= 2000.0;
            result.seconds.max *= 2000.0;
        }
        let svg = compare_chart(&slow).unwrap();
        assert!(svg.contains("log scale") && svg.contains("82.6 knps"), "{svg}");
        // A hashed perft is named so.
        let mut hashed = report;
        hashed.engines[0].hashed = true;
        assert!(compare_chart(&hashed).unwrap().contains("perft (hash table)"));
        roxmltree::Document::parse(&svg).expect("well-formed SVG");
    }

    #[test]
    fn bench_history_labels_tell_two_runs_of_one_day_apart() {
        let reports = [bench("2026-11-22T09:05:00Z"), bench("2026-11-22T17:40:00Z")];
        let svg = bench_history_chart(&reports).unwrap();
        assert!(svg.contains("2026-11-22 09:05") && svg.contains("2026-11-22 17:40"), "{svg}");
        assert!(svg.contains("slowest to fastest"), "{svg}");
        assert_eq!(history_label(&reports[0]).split(' ').count(), 3);
    }
}
