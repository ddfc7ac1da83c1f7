//! Charts of reports as SVG, and a self-contained HTML page around them.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::report::{speed_text, BenchReport, CompareReport, RESULT_COLUMNS, TOTAL_COLUMNS};

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
        let label: String = name.chars().take(20).collect();
        area.draw(&Text::new(label, (34, y - 8), ("sans-serif", LABEL_FONT))).map_err(err)?;
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

/// Tick labels, axis names and legend entries: big enough to read in a
/// page at its natural size.
const LABEL_FONT: u32 = 15;
/// Bars whose speeds differ this much or more are drawn on a log axis, so
/// that the slow engine's bar is not a sliver.
const LOG_AXIS_RATIO: f64 = 10.0;
/// Units per bar on the compare chart's x axis: the bar takes all but the
/// last, its error bar stands on the middle one.
const BAR_UNITS: u32 = 5;

/// One bar: the median speed and the range of the samples' speeds.
#[derive(Clone, Copy)]
struct Bar {
    median: f64,
    low: f64,
    high: f64,
}

/// An engine's bar on a position: its median speed, and the speeds of its
/// slowest and fastest samples.
fn compare_bar(report: &CompareReport, engine: &str, position: &str) -> Option<Bar> {
    let result = report.results.iter().find(|r| r.engine == engine && r.position == position)?;
    let median = result.nodes_per_second?;
    let nodes = result.nodes? as f64;
    let speed = |seconds: f64| if seconds > 0.0 { nodes / seconds } else { median };
    Some(Bar { median, low: speed(result.seconds.max), high: speed(result.seconds.min) })
}

/// A speed on an axis, in the unit that fits: `50k`, `1.2M`, `3G`.
fn axis_speed(nodes_per_second: f64) -> String {
    let (value, unit) = match nodes_per_second {
        s if s >= 1e9 => (s / 1e9, "G"),
        s if s >= 1e6 => (s / 1e6, "M"),
        s if s >= 1e3 => (s / 1e3, "k"),
        s => (s, ""),
    };
    if value >= 10.0 || value == value.round() {
        format!("{value:.0}{unit}")
    } else {
        format!("{value:.1}{unit}")
    }
}

/// Bars of speed per position, one per engine, with the range of its
/// samples as an error bar and its median written on top, from a compare
/// report; on a log axis where the speeds differ ten times or more.
/// Engines whose count disagreed or that failed have no bar there, and an
/// engine that counted with a hash table is named so.
///
/// # Errors
/// If plotters cannot draw (never expected for an SVG string).
pub fn compare_chart(report: &CompareReport) -> Result<String, ChartError> {
    let engines: Vec<&str> = report.engines.iter().map(|e| e.name.as_str()).collect();
    let positions: Vec<&str> = report.positions.iter().map(|p| p.id.as_str()).collect();
    let bars: Vec<Bar> =
        engines.iter().flat_map(|e| positions.iter().filter_map(|p| compare_bar(report, e, p))).collect();
    let range = |values: Vec<f64>| {
        values
            .into_iter()
            .filter(|v| *v > 0.0)
            .fold((f64::INFINITY, 1.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)))
    };
    // The bars decide the axis; the error bars only widen it.
    let (slowest, fastest) = range(bars.iter().map(|b| b.median).collect());
    let log = fastest / slowest >= LOG_AXIS_RATIO;
    let (lowest, highest) = range(bars.iter().flat_map(|b| [b.low, b.high, b.median]).collect());
    // On a log axis the chart holds log10 of the speed.
    let y = |v: f64| if log { v.max(1.0).log10() } else { v };
    let (bottom, top) = if log { (y(lowest) - 0.3, y(highest) + 0.3) } else { (0.0, highest * 1.15) };
    let group = engines.len() as u32 * BAR_UNITS + 3;
    let width = positions.len().max(1) as u32 * group;
    let title = format!(
        "Speed per position ({} thread{}{}; bars: median, lines: fastest and slowest round)",
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        if log { ", log scale" } else { "" }
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption(&title, ("sans-serif", 18))
            .margin(20)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0u32..width, bottom..top)
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
            .label_style(("sans-serif", LABEL_FONT))
            .axis_desc_style(("sans-serif", LABEL_FONT + 1))
            .y_desc(if log { "nodes per second (log scale)" } else { "nodes per second" })
            .y_label_formatter(&|v| axis_speed(if log { 10f64.powf(*v) } else { *v }))
            .light_line_style(BLACK.mix(0.04))
            .draw()
            .map_err(err)?;
        let mut entries = Vec::new();
        for (e, engine) in engines.iter().enumerate() {
            let color = Palette99::pick(e).to_rgba();
            for (p, position) in positions.iter().enumerate() {
                let Some(bar) = compare_bar(report, engine, position) else { continue };
                let x = p as u32 * group + 2 + e as u32 * BAR_UNITS;
                let bar_top = y(bar.median);
                chart
                    .draw_series([Rectangle::new(
                        [(x, bottom), (x + BAR_UNITS - 1, bar_top)],
                        color.filled(),
                    )])
                    .map_err(err)?;
                let middle = x + (BAR_UNITS - 1) / 2;
                let whisker = [(middle, y(bar.low)), (middle, y(bar.high))];
                chart
                    .draw_series([PathElement::new(whisker.to_vec(), BLACK.stroke_width(2))])
                    .map_err(err)?;
                for end in [bar.low, bar.high] {
                    let cap = vec![(middle - 1, y(end)), (middle + 1, y(end))];
                    chart.draw_series([PathElement::new(cap, BLACK.stroke_width(1))]).map_err(err)?;
                }
                // The median written just above the bar and its error bar.
                let style = TextStyle::from(("sans-serif", 13)).pos(Pos::new(HPos::Center, VPos::Bottom));
                let above = y(bar.high).max(bar_top) + (top - bottom) * 0.01;
                chart
                    .draw_series([Text::new(speed_text(bar.median), (middle, above), style)])
                    .map_err(err)?;
            }
            entries.push((report.label(engine), color, Mark::Bar));
        }
        draw_legend(&legend, &entries)?;
        root.present().map_err(err)?;
    }
    Ok(svg)
}

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
    // Every k-th report is labelled, so labels never run into each other.
    let every = reports.len().div_ceil(MAX_TIME_LABELS).max(1) as u32;

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let (plot, legend) = root.split_horizontally(SIZE.0 - LEGEND_WIDTH);
        let mut chart = ChartBuilder::on(&plot)
            .caption("Mnps over time (bench reports; bars: slowest to fastest count)", ("sans-serif", 18))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn compare() -> CompareReport {
        serde_json::from_str(include_str!("../tests/data/compare-report.json")).unwrap()
    }

    fn bench(timestamp: &str) -> BenchReport {
        let mut report: BenchReport =
            serde_json::from_str(include_str!("../tests/data/bench-report.json")).unwrap();
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
        assert_eq!(axis_speed(52_300.0), "52k");
        assert_eq!(axis_speed(1_500_000.0), "1.5M");
        assert_eq!(axis_speed(3e9), "3G");
    }
}
