//! `perft compare`: race engines on the same positions.

use std::io::Write;

use anyhow::{bail, Context, Result};
use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use perft::bench::BenchPosition;
use perft::compare::{run_compare, summarize, CompareEvent, Entrant, RunOutcome};
use perft::engine::{split_name, AnswerFormat, CommandEngine, EngineSpec, HowRun, Protocol};
use perft::memory::HashSize;
use perft::report::{
    CompareEngine, ComparePosition, CompareReport, CompareResult, EngineSummary, ReportHeader,
    RESULT_COLUMNS, TOTAL_COLUMNS,
};

use super::args::CompareArgs;
use super::bench::{load_positions, BenchSet};
use super::engines::{probing, resolve, startable};
use super::report_target::ReportTarget;
use super::{exit_status, interrupted, INTERRUPTED};
use super::{output, resolve};

/// `--hash` as `perft run` reads it.
fn hash_text(hash: HashSize) -> String {
    match hash {
        HashSize::Auto => "auto".into(),
        HashSize::Megabytes(mb) => mb.to_string(),
    }
}

/// Our own engine: this binary, run per count like any command engine,
/// with the table `--hash` asks for (none by default: the others' perft
/// has none).
fn ourselves(threads: usize, hash: HashSize) -> Result<Entrant> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    let exe = exe.to_string_lossy().into_owned();
    let hash = hash_text(hash);
    let template = [&exe, "run", "{depth}", "--fen", "{fen}", "--quiet", "--threads", &threads.to_string()]
        .into_iter()
        .chain(["--hash", &hash])
        .map(String::from)
        .collect();
    let spec = format!("cmd:{exe} run {{depth}} --fen {{fen}} --quiet --threads {threads} --hash {hash}");
    let format = AnswerFormat { total: Some(r"^(\d+)$".into()), divide: None };
    let engine = CommandEngine::new("perft", template, format).with_stop(Some(&INTERRUPTED));
    let hashed = hash != "0";
    let how = HowRun {
        protocol: "command line run for every count (`perft run`)".into(),
        threads: Some(threads),
        threads_asked: None,
        hash: Some(match hash.as_str() {
            "0" => "none".to_string(),
            "auto" => "auto".to_string(),
            mb => format!("{mb} MB"),
        }),
        bulk: Some(true),
        all_depths: Some(false),
        notes: hashed.then(|| "--hash gave it a table: not like for like".to_string()).into_iter().collect(),
    };
    Ok(Entrant { engine: Box::new(engine), spec, how, hashed, per_process: true })
}

/// The names of ourselves and each `--engine NAME=SPEC`, in that order,
/// with the specs.
fn engine_names(args: &CompareArgs) -> Result<Vec<(&str, &str)>> {
    let mut named: Vec<(&str, &str)> = vec![("perft", "")];
    for item in &args.engines {
        let (Some(name), spec) = split_name(item) else {
            bail!("--engine {item:?}: expected NAME=SPEC");
        };
        if name.is_empty() || named.iter().any(|(n, _)| *n == name) {
            bail!("--engine {item:?}: the name {name:?} is empty or already taken (perft is this program)");
        }
        named.push((name, spec));
    }
    Ok(named)
}

/// Ourselves and each `--engine NAME=SPEC` (a program given alone probed
/// first, what was found printed to `out`).
fn entrants(args: &CompareArgs, named: &[(&str, &str)], out: &mut dyn Write) -> Result<Vec<Entrant>> {
    let engine_options = resolve::engine_options(Some(args.threads), args.handshake_timeout, args.timeout)?;
    let names: Vec<&str> = named.iter().map(|(name, _)| *name).collect();
    let mut entrants = vec![ourselves(args.threads, args.hash)?];
    // Every program checked before any is probed.
    let mut specs = Vec::new();
    for &(name, spec) in &named[1..] {
        let spec = EngineSpec::parse(spec, &resolve::answer_format(&args.patterns, name, &names))?;
        startable(name, &spec)?;
        specs.push((name, spec));
    }
    for (name, spec) in specs {
        // Its start-up is measured once, by the race, not by the probe too.
        let probing = probing(args.handshake_timeout, engine_options.handshake).untimed();
        let (spec, _) = resolve(name, spec, &probing, out)?;
        let how = spec.how_run(Some(args.threads));
        let per_process = spec.protocol == Protocol::Command;
        let engine = spec.build(name, &engine_options);
        entrants.push(Entrant { engine, spec: spec.to_string(), how, hashed: false, per_process });
    }
    Ok(entrants)
}

/// The results table, one row per engine and position, then each
/// engine's totals.
fn print_tables(out: &mut dyn Write, report: &CompareReport) -> Result<()> {
    let right = |text: String| Cell::new(text).set_alignment(CellAlignment::Right);
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED);
    table.set_header(RESULT_COLUMNS);
    // A failure or skip keeps its row's columns (dashes) and says why
    // under the table, in full.
    let mut reasons = Vec::new();
    for r in report.result_rows() {
        let mut row = vec![Cell::new(&r.engine), Cell::new(r.position), right(r.depth)];
        match r.cells {
            Ok(cells) => row.extend(cells.map(right)),
            Err(problem) => {
                row.extend((3..RESULT_COLUMNS.len()).map(|_| right("-".into())));
                let why = problem.lines().next().unwrap_or("");
                reasons.push(format!("{} on {}: {why}", r.engine, r.position));
            }
        }
        table.add_row(row);
    }
    writeln!(out, "{table}")?;
    for reason in reasons {
        writeln!(out, "  {reason}")?;
    }
    let mut totals = Table::new();
    totals.load_style(UTF8_FULL_CONDENSED);
    totals.set_header(TOTAL_COLUMNS);
    for cells in report.total_rows() {
        let [engine, numbers @ .., run_as] = cells;
        totals.add_row([Cell::new(engine)].into_iter().chain(numbers.map(right)).chain([Cell::new(run_as)]));
    }
    writeln!(out, "{totals}")?;
    Ok(())
}

/// The JSON report of a comparison.
fn compare_report(
    args: &CompareArgs,
    positions: &[BenchPosition],
    engines: Vec<CompareEngine>,
    results: Vec<CompareResult>,
    summary: Vec<EngineSummary>,
    interrupted: bool,
) -> CompareReport {
    CompareReport {
        header: ReportHeader::of::<CompareReport>(),
        threads: args.threads,
        rounds: args.repeat,
        timeout_seconds: args.timeout,
        method: "wall time of each count measured from outside the engine (process start to exit for \
                 command engines, `go perft` to `Nodes searched` for UCI engines), minus the time of the \
                 engine's depth-1 count of the start position once started (`count_overhead_seconds`; \
                 `startup_seconds` is its start-up, measured as probing and check measure it); engines \
                 interleaved in rotated order each round; median of the rounds; perft counts as `perft \
                 run` does, bulk counting and, unless --hash gives it one, no hash table; what is known \
                 of how each engine counts is its `how`"
            .into(),
        positions: positions
            .iter()
            .map(|p| ComparePosition {
                id: p.id.clone(),
                fen: p.fen.clone(),
                depth: p.depth,
                expected: p.expected,
            })
            .collect(),
        engines,
        results,
        summary,
        interrupted,
    }
}

/// What a comparison says as it goes: on a terminal, a progress bar naming
/// the run in flight; elsewhere (a pipe, a log), each start-up time, error
/// and finished round as a line on `out` when it happens, so that a log
/// never waits for the end.
struct RaceProgress<'a> {
    bar: indicatif::ProgressBar,
    out: std::cell::RefCell<&'a mut dyn Write>,
    rounds: usize,
    /// The round of the last run started.
    round: std::cell::Cell<usize>,
}

impl RaceProgress<'_> {
    /// A line: above the bar on a terminal, else on `out`.
    fn say(&self, line: String) {
        if self.bar.is_hidden() {
            let _ = writeln!(self.out.borrow_mut(), "{line}");
        } else {
            self.bar.println(line);
        }
    }

    /// Round `round` (from 0) is over; said off a terminal.
    fn round_done(&self, round: usize) {
        if self.bar.is_hidden() {
            self.say(format!("round {} of {} done", round + 1, self.rounds));
        }
    }

    fn event(&self, event: CompareEvent) {
        match event {
            CompareEvent::Starting { round, engine, position, depth } => {
                if round != self.round.replace(round) {
                    self.round_done(round - 1);
                }
                self.bar.set_message(format!("round {}: {engine} on {position} (depth {depth})", round + 1));
            }
            CompareEvent::Startup { engine, result } => match result {
                Ok(startup) => self.say(format!(
                    "{engine}: start-up {}; its depth-1 count's time is subtracted from its timings",
                    startup.text()
                )),
                Err(error) => self.say(format!("ERROR {engine} failed to start: {error}")),
            },
            CompareEvent::Run { round, engine, position, result } => {
                self.bar.inc(1);
                match result {
                    RunOutcome::Timed(_) => {}
                    RunOutcome::Skipped(why) => self.say(format!("note: {engine} skips {position}: {why}")),
                    RunOutcome::Failed(error) => {
                        self.say(format!("ERROR {engine} round {}: {error}", round + 1))
                    }
                }
            }
        }
    }
}

/// Every engine on every position, `repeat` rounds, saying how it goes
/// ([`RaceProgress`]).
fn race(
    entrants: &mut [Entrant],
    positions: &[BenchPosition],
    repeat: usize,
    timeout: std::time::Duration,
    out: &mut dyn Write,
) -> (Vec<CompareEngine>, Vec<CompareResult>) {
    let bar = output::progress_bar(
        (entrants.len() * positions.len() * repeat) as u64,
        "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} runs: {msg}",
        true,
    );
    let progress = RaceProgress {
        bar,
        out: std::cell::RefCell::new(out),
        rounds: repeat,
        round: std::cell::Cell::new(0),
    };
    let raced =
        run_compare(entrants, positions, repeat, timeout, Some(&INTERRUPTED), &|event| progress.event(event));
    if !interrupted() {
        progress.round_done(progress.round.get());
    }
    progress.bar.finish_and_clear();
    raced
}

pub fn compare(args: CompareArgs) -> Result<u8> {
    resolve::threads(Some(args.threads))?;
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let timeout = resolve::timeout(args.timeout)?;
    let named = engine_names(&args)?;
    let names: Vec<&str> = named.iter().map(|(name, _)| *name).collect();
    let BenchSet { mut positions, name: set_name, .. } = load_positions(args.positions.as_deref())?;
    let before = positions.len();
    if args.skip_chess960 {
        positions.retain(|p| !p.board.is_chess960());
    }
    let skipped_chess960 = before - positions.len();
    if positions.is_empty() {
        bail!("no positions left to compare (--skip-chess960 skipped all {before})");
    }
    let target = ReportTarget::resolve(args.json.as_ref().map(Option::as_deref), "compare", false)?;
    if let Some(positions) = &args.positions {
        ReportTarget::refuse_over(&target, "--json", &[(positions, "the --positions file")])?;
    }
    let mut out = output::human_output(ReportTarget::is_stdout(&target));
    for note in resolve::pattern_notes(&args.patterns, &names) {
        writeln!(out, "{note}")?;
    }
    let mut entrants = entrants(&args, &named, &mut out)?;
    writeln!(
        out,
        "{}, {} from {set_name}, {}, timeout {} s",
        output::plural(entrants.len(), "engine"),
        output::plural(positions.len(), "position"),
        output::plural(args.repeat, "round"),
        args.timeout
    )?;

    if skipped_chess960 > 0 {
        writeln!(out, "note: {skipped_chess960} Chess960 positions skipped (--skip-chess960)")?;
    }
    for entrant in &entrants {
        writeln!(out, "{}: {}", entrant.engine.name(), entrant.how.text())?;
    }
    out.flush()?;
    let (engines, results) = race(&mut entrants, &positions, args.repeat, timeout, &mut out);
    let interrupted = interrupted();
    if interrupted {
        writeln!(out, "interrupted: the table holds the runs that finished")?;
    }

    let summary = summarize(&engines, &results);
    let failed_engines = engines.iter().any(|e| !e.errors.is_empty());
    let report = compare_report(&args, &positions, engines, results, summary, interrupted);
    print_tables(&mut out, &report)?;
    let mut mismatch = false;
    for r in report.results.iter().filter(|r| r.nodes.is_some() && !r.agrees) {
        writeln!(
            out,
            "DISAGREEMENT: {} on {}: {} (its speed is not ranked there)",
            r.engine,
            r.position,
            r.problem.as_deref().unwrap_or("count differs")
        )?;
        mismatch = true;
    }
    let code = exit_status(mismatch, failed_engines, interrupted);
    writeln!(
        out,
        "Times are medians with each engine's depth-1 count time subtracted; ratios above 1 are faster than perft."
    )?;
    if report.engines.iter().any(|e| e.how.as_ref().is_some_and(|h| h.all_depths == Some(true))) {
        writeln!(
            out,
            "An engine that counts depths 1..N a call has the shallower depths in its time: its speed is a \
             little low against engines that count one depth."
        )?;
    }
    if report.engines.iter().any(|e| e.hashed) {
        writeln!(
            out,
            "perft counted with a hash table (--hash): its speed is not like for like with engines that count \
             without one."
        )?;
    }

    if let Some(target) = target {
        target.write(&report, &mut out)?;
    }
    out.flush()?;
    Ok(code)
}
