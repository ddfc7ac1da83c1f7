//! The charts `perft report` draws, read back as SVG: no two texts overlap,
//! no text lies on an axis, and a skipped engine's slot is marked; and the
//! reports bundled in results/ draw a page.
//!
//! Each text's box is estimated from its `x`, `y`, `dy`, `font-size`,
//! `text-anchor` and `transform` and its letters, generously: a common
//! sans-serif face (Arial) draws digits and most lower case at 0.556 em,
//! capitals at most 0.944 em, narrow letters and punctuation at 0.28 em or
//! less, and a line reaches 0.9 em above its baseline and 0.25 em below.

use std::path::PathBuf;
use std::process::Command;

use perft::chart::{bench_history_chart, compare_chart, run_chart};
use perft::report::{AnyReport, BenchReport, CompareReport, RunReport};
use serde_json::{json, Value};

/// A text's estimated box: left, top, right, bottom, in pixels.
#[derive(Clone, Copy, Debug)]
struct Box2 {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Box2 {
    fn overlaps(&self, other: &Box2) -> bool {
        self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// Whether the axis-parallel segment from `a` to `b` touches the box.
    fn touches_segment(&self, (ax, ay): (f64, f64), (bx, by): (f64, f64)) -> bool {
        let (x0, x1) = (ax.min(bx), ax.max(bx));
        let (y0, y1) = (ay.min(by), ay.max(by));
        x0 <= self.right && self.left <= x1 && y0 <= self.bottom && self.top <= y1
    }
}

/// Ems a letter takes, at least, in a common sans-serif face.
fn letter_ems(c: char) -> f64 {
    match c {
        c if c.is_uppercase() || c == 'm' || c == 'w' => 0.944,
        ' ' | '.' | ',' | ':' | ';' | '\'' | '|' | 'i' | 'l' | 'j' | '!' => 0.28,
        _ => 0.556,
    }
}

#[derive(Debug)]
struct Label {
    text: String,
    area: Box2,
}

fn attr(node: roxmltree::Node, name: &str) -> f64 {
    node.attribute(name).unwrap_or("0").parse().unwrap_or_else(|_| panic!("{name} of {node:?}"))
}

/// Every non-empty text of `svg` with its estimated box.
fn labels(svg: &str) -> Vec<Label> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let mut out = Vec::new();
    for node in doc.descendants().filter(|n| n.has_tag_name("text")) {
        let text = node.text().unwrap_or_default().trim().to_string();
        if text.is_empty() {
            continue;
        }
        let (x, y, size) = (attr(node, "x"), attr(node, "y"), attr(node, "font-size"));
        let width: f64 = text.chars().map(letter_ems).sum::<f64>() * size;
        let dy = match node.attribute("dy").unwrap_or("0") {
            "0" => 0.0,
            d if d.ends_with("em") => d.trim_end_matches("em").parse::<f64>().unwrap() * size,
            d if d.ends_with("ex") => d.trim_end_matches("ex").parse::<f64>().unwrap() * size * 0.5,
            d => panic!("dy {d}"),
        };
        let baseline = y + dy;
        let (left, right) = match node.attribute("text-anchor").unwrap_or("start") {
            "start" => (x, x + width),
            "middle" => (x - width / 2.0, x + width / 2.0),
            "end" => (x - width, x),
            a => panic!("text-anchor {a}"),
        };
        let corners = [(left, baseline - 0.9 * size), (right, baseline + 0.25 * size)];
        let area = match node.attribute("transform") {
            None => Box2 { left, top: corners[0].1, right, bottom: corners[1].1 },
            Some(t) => {
                let inner = t.strip_prefix("rotate(").and_then(|t| t.strip_suffix(')')).expect("a rotation");
                let v: Vec<f64> = inner.split(',').map(|p| p.trim().parse().unwrap()).collect();
                let (angle, cx, cy) = (v[0].to_radians(), v[1], v[2]);
                let points = [
                    (corners[0].0, corners[0].1),
                    (corners[1].0, corners[0].1),
                    (corners[0].0, corners[1].1),
                    (corners[1].0, corners[1].1),
                ]
                .map(|(px, py)| {
                    let (dx, dy) = (px - cx, py - cy);
                    (cx + dx * angle.cos() - dy * angle.sin(), cy + dx * angle.sin() + dy * angle.cos())
                });
                let xs = points.map(|p| p.0);
                let ys = points.map(|p| p.1);
                Box2 {
                    left: xs.iter().cloned().fold(f64::INFINITY, f64::min),
                    right: xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                    top: ys.iter().cloned().fold(f64::INFINITY, f64::min),
                    bottom: ys.iter().cloned().fold(f64::NEG_INFINITY, f64::max),
                }
            }
        };
        out.push(Label { text, area });
    }
    out
}

/// The axes: opaque black lines one pixel wide, level or upright, 150
/// pixels or longer (tick marks are short, error bars two pixels wide).
fn axes(svg: &str) -> Vec<((f64, f64), (f64, f64))> {
    let doc = roxmltree::Document::parse(svg).unwrap();
    let mut out = Vec::new();
    for node in doc.descendants().filter(|n| n.has_tag_name("polyline") || n.has_tag_name("line")) {
        let black =
            node.attribute("stroke") == Some("#000000") && node.attribute("opacity").unwrap_or("1") == "1";
        if !black || node.attribute("stroke-width").unwrap_or("1") != "1" {
            continue;
        }
        let points: Vec<(f64, f64)> = match node.attribute("points") {
            Some(points) => points
                .split_whitespace()
                .map(|p| {
                    let (x, y) = p.split_once(',').unwrap();
                    (x.parse().unwrap(), y.parse().unwrap())
                })
                .collect(),
            None => vec![(attr(node, "x1"), attr(node, "y1")), (attr(node, "x2"), attr(node, "y2"))],
        };
        for pair in points.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let level = a.1 == b.1 && (a.0 - b.0).abs() >= 150.0;
            let upright = a.0 == b.0 && (a.1 - b.1).abs() >= 150.0;
            if level || upright {
                out.push((a, b));
            }
        }
    }
    out
}

/// No two texts of `svg` overlap and none touches an axis; the texts read.
#[track_caller]
fn assert_readable(name: &str, svg: &str) -> Vec<Label> {
    let labels = labels(svg);
    let axes = axes(svg);
    assert!(axes.len() >= 2, "{name}: the x and y axes are found: {axes:?}");
    for (i, a) in labels.iter().enumerate() {
        for b in &labels[i + 1..] {
            assert!(!a.area.overlaps(&b.area), "{name}: {:?} overlaps {:?}", a, b);
        }
        for &(p, q) in &axes {
            assert!(!a.area.touches_segment(p, q), "{name}: {a:?} lies on the axis {p:?}-{q:?}");
        }
    }
    labels
}

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A compare report of `engines` on `positions`, `speed(engine, position)`
/// giving each result's median speed (`None`: the engine was skipped
/// there), its rounds 5% either side.
fn compare(
    engines: &[&str],
    positions: &[&str],
    speed: &dyn Fn(usize, usize) -> Option<f64>,
) -> CompareReport {
    let mut report: Value = serde_json::from_str(include_str!("data/compare-report.json")).unwrap();
    let template = report["positions"][0].clone();
    report["positions"] = positions
        .iter()
        .map(|id| {
            let mut p = template.clone();
            p["id"] = json!(id);
            p
        })
        .collect();
    let spec = report["engines"][0].clone();
    report["engines"] = engines
        .iter()
        .map(|name| {
            let mut e = spec.clone();
            e["name"] = json!(name);
            e
        })
        .collect();
    let nodes = 119_060_324u64;
    let mut results = Vec::new();
    for (e, engine) in engines.iter().enumerate() {
        for (p, position) in positions.iter().enumerate() {
            results.push(match speed(e, p) {
                Some(nps) => {
                    let median = nodes as f64 / nps;
                    let (min, max) = (median * 0.95, median * 1.05);
                    json!({"engine": engine, "position": position, "nodes": nodes, "agrees": true,
                           "samples": [min, median, max], "seconds": {"min": min, "median": median, "max": max},
                           "nodes_per_second": nps})
                }
                None => json!({"engine": engine, "position": position, "agrees": false, "samples": [],
                               "seconds": {"min": 0.0, "median": 0.0, "max": 0.0},
                               "problem": "skipped: it cannot count Chess960 positions"}),
            });
        }
    }
    report["results"] = json!(results);
    match AnyReport::from_json(&report.to_string()).unwrap() {
        AnyReport::Compare(report) => report,
        other => panic!("{}", other.kind()),
    }
}

#[test]
fn compare_charts_keep_their_labels_apart_off_the_axes_and_mark_a_skipped_engine() {
    let three = ["perft", "stockfish", "cozy-chess"];
    let positions = ["start", "kiwipete", "chess960"];
    // Near-equal speeds side by side: 50.2 and 51.5 Mnps (the user's case).
    let near =
        compare(&three, &positions, &|e, p| Some([50.2e6, 51.5e6, 49.8e6][e] * (1.0 + p as f64 * 0.01)));
    let svg = compare_chart(&near).unwrap();
    let texts = assert_readable("near-equal", &svg);
    assert!(texts.iter().any(|l| l.text == "50.2 Mnps") && texts.iter().any(|l| l.text == "51.5 Mnps"));
    // Tiny next to huge: a log axis.
    let far = compare(&three, &positions, &|e, _| Some([1.8e9, 1.2e3, 2.5e6][e]));
    let svg = compare_chart(&far).unwrap();
    assert!(svg.contains("log scale"));
    assert_readable("tiny and huge", &svg);
    // Many engines, many positions, values of every size.
    let engines: Vec<String> = (0..9).map(|i| format!("engine-{i}")).collect();
    let engines: Vec<&str> = engines.iter().map(String::as_str).collect();
    let many = compare(&engines, &positions, &|e, p| Some(10f64.powi(3 + ((e + p) % 7) as i32) * 1.234));
    assert_readable("many engines", &compare_chart(&many).unwrap());
    let positions: Vec<String> = (0..14).map(|i| format!("position-{i}")).collect();
    let positions: Vec<&str> = positions.iter().map(String::as_str).collect();
    let crowded = compare(&engines[..4], &positions, &|e, p| Some(100.0e6 + (e * 7 + p) as f64 * 1.3e6));
    assert_readable("many positions", &compare_chart(&crowded).unwrap());
    let crowded = compare(&engines, &positions, &|e, p| Some(100.0e6 + (e * 7 + p) as f64 * 1.3e6));
    assert_readable("many engines on many positions", &compare_chart(&crowded).unwrap());
    // An engine that cannot count Chess960: its slot is marked and says so.
    let skipped = compare(&three, &["start", "kiwipete", "chess960"], &|e, p| {
        (e != 2 || p != 2).then_some([458.0e6, 165.2e6, 92.4e6][e])
    });
    let svg = compare_chart(&skipped).unwrap();
    let texts = assert_readable("skipped", &svg);
    assert_eq!(texts.iter().filter(|l| l.text == "skipped").count(), 1, "{svg}");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let outlines = doc
        .descendants()
        .filter(|n| {
            n.has_tag_name("rect") && n.attribute("fill") == Some("none") && n.attribute("stroke").is_some()
        })
        .count();
    assert_eq!(outlines, 1, "one outlined empty slot: {svg}");
    // Without the skipped engine, no slot is marked.
    let all = compare(&three, &positions[..3], &|e, _| Some([458.0e6, 165.2e6, 92.4e6][e]));
    assert!(!compare_chart(&all).unwrap().contains(">skipped<"));
}

#[test]
fn bench_history_and_run_charts_keep_their_labels_apart() {
    let mut bench: Value = serde_json::from_str(include_str!("data/bench-report.json")).unwrap();
    let reports: Vec<BenchReport> = (0..15)
        .map(|i| {
            bench["timestamp"] = json!(format!("2026-11-{:02}T10:{:02}:00Z", 1 + i, i));
            match AnyReport::from_json(&bench.to_string()).unwrap() {
                AnyReport::Bench(report) => report,
                other => panic!("{}", other.kind()),
            }
        })
        .collect();
    for n in [1, 2, 5, 15] {
        assert_readable(&format!("{n} bench reports"), &bench_history_chart(&reports[..n]).unwrap());
    }
    let runs = bundled_runs();
    assert!(runs.len() >= 2, "results/ holds run reports");
    let svg = run_chart(&runs).unwrap();
    let texts = assert_readable("bundled runs", &svg);
    assert!(texts.iter().any(|l| l.text.contains("depth 11")), "{texts:?}");
    assert!(
        texts.iter().filter(|l| l.text.ends_with("nps")).count() >= runs.len()
            || svg.contains("values in the table")
    );
}

/// The run reports bundled in results/ (the deep counts of scripts/deep.sh).
fn bundled_runs() -> Vec<RunReport> {
    bundled_reports()
        .iter()
        .filter_map(|path| match AnyReport::read_file(path) {
            Ok(AnyReport::Run(run)) => Some(run),
            _ => None,
        })
        .collect()
}

/// results/*.json as git holds them (a fresh clone's).
fn bundled_reports() -> Vec<PathBuf> {
    let output = Command::new("git")
        .args(["ls-files", "--", "results/*.json"])
        .current_dir(repository())
        .output()
        .expect("git runs");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap().lines().map(|l| repository().join(l)).collect()
}

#[test]
fn the_bundled_results_draw_a_page() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("page.html");
    let files = bundled_reports();
    assert!(!files.is_empty());
    let output = Command::new(env!("CARGO_BIN_EXE_perft"))
        .arg("report")
        .arg("--out")
        .arg(&page)
        .args(&files)
        .current_dir(repository())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    let html = std::fs::read_to_string(&page).unwrap();
    let charts: Vec<&str> = html.split("<svg").skip(1).collect();
    assert!(!charts.is_empty(), "{html}");
    for chart in &charts {
        let svg = format!("<svg{}", &chart[..chart.find("</svg>").unwrap() + 6]);
        let drawn = roxmltree::Document::parse(&svg)
            .unwrap()
            .descendants()
            .filter(|n| n.has_tag_name("rect"))
            .count();
        assert!(drawn > 3, "a chart with bars: {svg}");
    }
    // Files that are not perft's reports get one short line each.
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("note:")).collect();
    let runs = bundled_runs().len();
    assert!(notes.len() <= files.len() - runs, "{stdout}");
    for note in &notes {
        let named: Vec<_> =
            files.iter().map(|f| f.to_string_lossy()).filter(|f| note.contains(&**f)).collect();
        assert_eq!(named.len(), 1, "{note}");
        assert!(note.len() - named[0].len() < 100, "a short note: {note}");
    }
    assert!(stdout.contains(&format!("{runs} runs")), "{stdout}");
}
