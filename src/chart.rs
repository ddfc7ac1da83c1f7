//! Charts of reports as SVG, and a self-contained HTML page around them.

use plotters::prelude::*;

use crate::report::{BenchReport, CompareReport, RESULT_COLUMNS, TOTAL_COLUMNS};

/// Width and height of one chart, in pixels.
const SIZE: (u32, u32) = (960, 480);
/// Width of the legend column right of the plot, so it never covers data.
const LEGEND_WIDTH: u32 = 170;
/// At most this many labels on a time axis.
const MAX_TIME_LABELS: usize = 6;

/// How a legend entry is drawn.
#[derive(Clone, Copy)]
enum Mark {
    Bar,
    Line(u32),
}

/// A legend in its own drawing area: a swatch and a name per entry.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    entries: &[(String, RGBAColor, Mark)],
) -> Result<(), ChartError> {
    for (i, (name, color, mark)) in entries.iter().enumerate() {
        let y = 60 + 24 * i as i32;
        match *mark {
            Mark::Bar => {
                area.draw(&Rectangle::new([(10, y - 7), (26, y + 7)], color.filled())).map_err(err)?
            }
            Mark::Line(width) => {
                area.draw(&PathElement::new(vec![(8, y), (28, y)], color.stroke_width(width))).map_err(err)?
            }
        }
        let label: String = name.chars().take(18).collect();
        area.draw(&Text::new(label, (34, y - 8), ("sans-serif", 15))).map_err(err)?;
    }
    Ok(())
}

/// A chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct ChartError(String);

fn err(e: impl std::fmt::Display) -> ChartError {
    ChartError(e.to_string())
}

/// Escapes text for HTML and SVG.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Bars of Mnps per position, one per engine, from a compare report.
/// Engines whose count disagreed or that failed have no bar there.
///
/// # Errors
/// If plotters cannot draw (never expected for an SVG string).
pub fn compare_chart(report: &CompareReport) -> Result<String, ChartError> {
    let engines: Vec<&str> = report.engines.iter().map(|e| e.name.as_str()).collect();
    let positions: Vec<&str> = report.positions.iter().map(|p| p.id.as_str()).collect();
    let speed = |engine: &str, position: &str| {
        report
            .results
            .iter()
            .find(|r| r.engine == engine && r.position == position)
            .and_then(|r| r.nodes_per_second)
            .map(|s| s / 1e6)
    };
    let max =
        engines.iter().flat_map(|e| positions.iter().filter_map(move |p| speed(e, p))).fold(1.0f64, f64::max);
    let group = engines.len() as u32 + 2;
    let width = positions.len().max(1) as u32 * group;
    let title = format!(
        "Mnps per position ({} thread{})",
        report.threads,
        if report.threads == 1 { "" } else { "s" }
    );

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&title, ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0u32..width, 0f64..max * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_x_mesh()
            .x_labels(width as usize + 1)
            .x_label_formatter(&|x| {
                if x % group == group / 2 {
                    positions.get((x / group) as usize).map_or(String::new(), |p| p.to_string())
                } else {
                    String::new()
                }
            })
            .y_desc("millions of nodes per second")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(BLACK.mix(0.04))
            .draw()
            .map_err(err)?;
        let mut entries = Vec::new();
        for (e, engine) in engines.iter().enumerate() {
            let color = Palette99::pick(e).to_rgba();
            let bars: Vec<_> = positions
                .iter()
                .enumerate()
                .filter_map(|(p, position)| {
                    speed(engine, position).map(|v| {
                        let x = p as u32 * group + 1 + e as u32;
                        Rectangle::new([(x, 0.0), (x + 1, v)], color.filled())
                    })
                })
                .collect();
            chart.draw_series(bars).map_err(err)?;
            entries.push((engine.to_string(), color, Mark::Bar));
        }
        draw_legend(&legend, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

/// Lines of Mnps over a series of bench reports (sorted by time): one per
/// position and a thicker one for the total.
///
/// # Errors
/// If plotters cannot draw.
pub fn bench_history_chart(reports: &[BenchReport]) -> Result<String, ChartError> {
    let mut ids: Vec<&str> = Vec::new();
    for report in reports {
        for entry in &report.positions {
            if !ids.contains(&entry.id.as_str()) {
                ids.push(&entry.id);
            }
        }
    }
    let max = reports
        .iter()
        .flat_map(|r| r.positions.iter().map(|e| e.nodes_per_second).chain([r.total.nodes_per_second]))
        .fold(1.0f64, f64::max)
        / 1e6;
    let labels: Vec<String> = reports
        .iter()
        .map(|r| {
            format!(
                "{} {}",
                r.header.timestamp.get(..10).unwrap_or(&r.header.timestamp),
                &r.header.tool.git_commit
            )
        })
        .collect();
    let last = reports.len().saturating_sub(1).max(1) as u32;
    // Every k-th report is labelled, so labels never run into each other.
    let every = reports.len().div_ceil(MAX_TIME_LABELS).max(1) as u32;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption("Mnps over time (bench reports)", ("sans-serif", 22))
            .margin(20)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(0u32..last, 0f64..max * 1.1)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_labels(reports.len().max(2))
            .x_label_style(("sans-serif", 12))
            .x_label_formatter(&|x| {
                if x % every == 0 {
                    labels.get(*x as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_desc("millions of nodes per second")
            .y_label_formatter(&|y| format!("{y:.0}"))
            .light_line_style(BLACK.mix(0.04))
            .draw()
            .map_err(err)?;
        let mut entries = Vec::new();
        for (i, id) in ids.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let points: Vec<(u32, f64)> = reports
                .iter()
                .enumerate()
                .filter_map(|(x, r)| {
                    r.positions.iter().find(|e| e.id == *id).map(|e| (x as u32, e.nodes_per_second / 1e6))
                })
                .collect();
            chart.draw_series(LineSeries::new(points.clone(), color.stroke_width(2))).map_err(err)?;
            chart.draw_series(points.into_iter().map(|p| Circle::new(p, 3, color.filled()))).map_err(err)?;
            entries.push((id.to_string(), color, Mark::Line(2)));
        }
        let total: Vec<(u32, f64)> =
            reports.iter().enumerate().map(|(x, r)| (x as u32, r.total.nodes_per_second / 1e6)).collect();
        chart.draw_series(LineSeries::new(total, BLACK.stroke_width(4))).map_err(err)?;
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
/// comparison, and one for the bench history (`benches` sorted by time
/// first).
///
/// # Errors
/// If a chart cannot be drawn.
pub fn report_page(
    compares: &[CompareReport],
    benches: &mut [BenchReport],
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
