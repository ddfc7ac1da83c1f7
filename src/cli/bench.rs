//! `perft bench`: time the benchmark set.

use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::bench::{bench_positions, bench_set_version, run_bench, BenchPosition};
use perft::counting::{with_threads, Mode};
use perft::report::{BenchEntry, BenchReport, BenchTotal, ReportHeader};
use perft::suite::parse_suite;

use super::args::BenchArgs;
use super::report_target::ReportTarget;
use super::{exit_status, interrupted, interrupted_status, INTERRUPTED};
use super::{output, resolve};

/// The bundled benchmark set.
pub const BENCH_SET: &[u8] = include_bytes!("../../positions/bench.epd");
/// Its name in reports.
pub const BENCH_SET_NAME: &str = "positions/bench.epd";

/// A benchmark set as read.
pub struct BenchSet {
    /// Its positions.
    pub positions: Vec<BenchPosition>,
    /// The file name, or the bundled set's.
    pub name: String,
    /// Its version (see [`bench_set_version`]).
    pub version: String,
}

/// The positions of `--positions FILE`, or the bundled set.
pub fn load_positions(path: Option<&Path>) -> Result<BenchSet> {
    let (bytes, name) = match path {
        Some(path) => (
            perft::report::read::read_existing(path, perft::suite::MAX_SUITE_FILE_BYTES)
                .with_context(|| format!("cannot read {}", path.display()))?,
            path.display().to_string(),
        ),
        None => (BENCH_SET.to_vec(), BENCH_SET_NAME.to_string()),
    };
    let positions = bench_positions(&parse_suite(&bytes)).with_context(|| name.clone())?;
    Ok(BenchSet { positions, name, version: bench_set_version(&bytes) })
}

/// Counts per sample, as `4` or `3-5`.
fn runs(runs: &[u32]) -> String {
    match (runs.iter().min(), runs.iter().max()) {
        (Some(low), Some(high)) if low == high => low.to_string(),
        (Some(low), Some(high)) => format!("{low}-{high}"),
        _ => String::new(),
    }
}

/// The confidence interval's half-width, as `0.8%`, or `-` with one sample.
fn spread(spread: &perft::report::Spread) -> String {
    if spread.ci95_percent > 0.0 {
        format!("{:.1}%", spread.ci95_percent)
    } else {
        "-".into()
    }
}

/// The timings per position, and the total.
fn bench_table(entries: &[BenchEntry], total: &BenchTotal) -> Table {
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    table.set_header(["position", "depth", "nodes", "runs", "min s", "median s", "max s", "± 95%", "Mnps"]);
    let right = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
    for e in entries {
        table.add_row([
            Cell::new(&e.id),
            right(e.depth.to_string()),
            right(e.nodes.to_string()),
            right(runs(&e.runs)),
            right(format!("{:.4}", e.seconds.min)),
            right(format!("{:.4}", e.seconds.median)),
            right(format!("{:.4}", e.seconds.max)),
            right(spread(&e.spread)),
            right(format!("{:.1}", e.nodes_per_second / 1e6)),
        ]);
    }
    table.add_row([
        Cell::new("total"),
        Cell::new(""),
        right(total.nodes.to_string()),
        Cell::new(""),
        right(format!("{:.4}", total.seconds.min)),
        right(format!("{:.4}", total.seconds.median)),
        right(format!("{:.4}", total.seconds.max)),
        right(spread(&total.spread)),
        right(format!("{:.1}", total.nodes_per_second / 1e6)),
    ]);
    table
}

pub fn bench(args: BenchArgs) -> Result<u8> {
    resolve::threads(Some(args.threads))?;
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    if !(args.sample_time.is_finite() && (0.0..=3600.0).contains(&args.sample_time)) {
        bail!("--sample-time must be 0 to 3600 seconds");
    }
    let sample_time = std::time::Duration::from_secs_f64(args.sample_time);
    let BenchSet { positions, name: set_name, version } = load_positions(args.positions.as_deref())?;
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "bench", !args.no_json)?;
    if let Some(positions) = &args.positions {
        ReportTarget::refuse_over(&target, "--json", &[(positions, "the --positions file")])?;
    }
    let mode = if args.full { Mode::Full } else { Mode::Bulk };

    let bar = output::progress_bar(
        (positions.len() * args.repeat) as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} runs {msg}",
        true,
    );
    let entries = with_threads(args.threads, || {
        run_bench(&positions, args.repeat, sample_time, mode, Some(&INTERRUPTED), &|i, seconds| {
            bar.inc(1);
            bar.set_message(format!("{} {seconds:.3} s", positions[i].id));
        })
    })?;
    bar.finish_and_clear();
    let interrupted = interrupted();
    if entries.is_empty() {
        eprintln!("interrupted before any position was timed; no report written");
        return Ok(interrupted_status());
    }

    let total = BenchTotal::of(&entries);
    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    writeln!(out, "{}", bench_table(&entries, &total))?;
    writeln!(
        out,
        "bench set {set_name} ({version}), {} counting, hash off, {} thread{}, {} samples of at least {} s \
         per position after a warm-up (times are per count; ± 95%: the confidence interval of the mean)",
        mode.name(),
        args.threads,
        if args.threads == 1 { "" } else { "s" },
        args.repeat,
        args.sample_time
    )?;
    if interrupted {
        writeln!(
            out,
            "interrupted: {} of {} positions timed, some with fewer rounds",
            entries.len(),
            positions.len()
        )?;
    }
    for e in entries.iter().filter(|e| !e.ok) {
        writeln!(out, "FAIL {}: depth {}: expected {}, got {}", e.id, e.depth, e.expected, e.nodes)?;
    }
    let code = exit_status(entries.iter().any(|e| !e.ok), false, interrupted);

    if let Some(target) = target {
        let report = BenchReport {
            header: ReportHeader::of::<BenchReport>(),
            bench_set: set_name,
            bench_set_version: version,
            threads: args.threads,
            mode,
            repeat: args.repeat,
            sample_time: args.sample_time,
            warmup: "one pass over all positions one ply shallower".into(),
            positions: entries,
            total,
            interrupted,
        };
        target.write(&report, &mut out)?;
    }
    out.flush()?;
    Ok(code)
}
