//! Engines named on the command line: `[NAME=]SPEC` read, and a program
//! given alone probed for how it counts, with what was found printed and
//! the spec that pins it.

use std::io::Write;
use std::time::Duration;

use anyhow::{bail, Result};
use perft::engine::{find_program, probe, split_name, Costs, EngineSpec, Probe, ProbeOptions, Protocol};
use perft::report::speed_text;

use super::args::PatternArgs;
use super::resolve;
use super::INTERRUPTED;

/// How long a probe waits for each answer, unless --handshake-timeout
/// says otherwise.
const PROBE_WAIT: Duration = Duration::from_secs(3);

/// How long a probe waits: for each answer, and for a program that says
/// nothing after it starts.
pub struct Probing {
    wait: Duration,
    start: Duration,
    /// Time what was found (its start-up, a small count, its speed) and
    /// say so.
    measure: bool,
}

impl Probing {
    /// Without timing what was found: for a caller that measures the
    /// engine itself (`compare`), so its start-up is measured and said
    /// once.
    pub fn untimed(self) -> Probing {
        Probing { measure: false, ..self }
    }
}

/// How long a probe waits: for each answer, `--handshake-timeout` if given
/// (else 3 s); for a slow start, the handshake limit.
pub fn probing(handshake_seconds: Option<f64>, handshake: Duration) -> Probing {
    let wait = handshake_seconds
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(PROBE_WAIT, |s| Duration::from_secs_f64(s.min(600.0)));
    Probing { wait, start: handshake, measure: true }
}

/// Lines of a probed program's last output shown when nothing worked.
const PROBE_OUTPUT_LINES: usize = 6;

/// `[NAME=]SPEC` into a name and a spec; without a name, the program's file
/// name.
pub fn parse_engine(text: &str, patterns: &PatternArgs) -> Result<(String, EngineSpec)> {
    let (name, spec) = split_name(text);
    let name = match name {
        Some(name) if !name.is_empty() => name.to_string(),
        _ => program_name(spec),
    };
    let spec = EngineSpec::parse(spec, &resolve::answer_format(patterns, &name, &[name.as_str()]))?;
    startable(&name, &spec)?;
    Ok((name, spec))
}

/// An error if `spec`'s program cannot be started (a path to nothing, a
/// file without execute permission, a name on no directory of `PATH`),
/// said before anything is probed or counted.
pub fn startable(name: &str, spec: &EngineSpec) -> Result<()> {
    let program = spec.command.first().map_or("", String::as_str);
    find_program(program).map_err(|why| anyhow::anyhow!("engine {name}: {why}"))?;
    Ok(())
}

/// The file name of a spec's program (`stockfish` for
/// `uci:/usr/games/stockfish`), for an engine given without a name.
pub fn program_name(spec: &str) -> String {
    let command = EngineSpec::parse(spec, &Default::default()).map(|s| s.command).unwrap_or_default();
    let program = command.first().cloned().unwrap_or_default();
    std::path::Path::new(&program).file_name().map_or(program.clone(), |n| n.to_string_lossy().into_owned())
}

/// The spec to run `name` with: `spec` itself, or for a program given
/// alone what probing it found (printed to `out`, with the spec that
/// skips probing next time), with what running it costs. Probing that
/// finds nothing is an error that says what was tried and what the program
/// printed.
pub fn resolve(
    name: &str,
    spec: EngineSpec,
    probing: &Probing,
    out: &mut dyn Write,
) -> Result<(EngineSpec, Option<Costs>)> {
    if spec.protocol != Protocol::Auto {
        return Ok((spec, None));
    }
    let program = shlex::try_join(spec.command.iter().map(String::as_str)).unwrap_or_default();
    writeln!(out, "probing {name} ({program}) for how it counts perft:")?;
    let options = ProbeOptions {
        wait: probing.wait,
        start: probing.start,
        stop: Some(&INTERRUPTED),
        measure: probing.measure,
    };
    let found = probe(&spec, &options);
    // Tries in a row that came to the same are one line.
    for run in found.tries.chunk_by(|a, b| a.outcome == b.outcome) {
        let what: Vec<&str> = run.iter().map(|t| t.what.as_str()).collect();
        writeln!(out, "  {}: {}", what.join(", "), run[0].outcome)?;
    }
    if super::interrupted() {
        bail!("interrupted while probing {name}");
    }
    let Some(pinned) = &found.found else { bail!("{}", nothing_found(name, &program, &found)) };
    let pin = shlex::try_quote(&format!("{name}={pinned}")).map(|q| q.into_owned()).unwrap_or_default();
    let step = found.step.as_deref().unwrap_or("probing");
    writeln!(out, "found ({step}): {}; to skip probing next time: --engine {pin}", dialect(pinned))?;
    for note in &found.notes {
        writeln!(out, "note: {note}")?;
    }
    if let Some(costs) = &found.costs {
        writeln!(out, "{}", describe_costs(costs))?;
    }
    Ok((pinned.clone(), found.costs))
}

/// What running an engine costs, in a line.
fn describe_costs(costs: &Costs) -> String {
    let speed = match costs.nps {
        Some(nps) if costs.at_least => format!("under {}", speed_text(nps)),
        Some(nps) => format!("about {}", speed_text(nps)),
        None => "too fast to time on small counts".into(),
    };
    format!("timed: {}, {speed}", costs.startup().text())
}

/// A found dialect in words.
fn dialect(spec: &EngineSpec) -> String {
    match spec.protocol {
        Protocol::Uci => match &spec.perft {
            None => "UCI `go perft`".into(),
            Some(perft) => format!("`{perft}` in its UCI loop, after `position fen`"),
        },
        Protocol::Console => format!(
            "`{}` at its prompt{}",
            spec.perft.as_deref().unwrap_or(perft::engine::CONSOLE_PERFT),
            spec.console_position().map_or(String::new(), |p| format!(", after `{p}`"))
        ),
        Protocol::Command => "a command line per count".into(),
        Protocol::Auto => "nothing".into(),
    }
}

/// The error when probing found nothing: what the program printed last,
/// and how to say what it speaks.
fn nothing_found(name: &str, program: &str, probe: &Probe) -> String {
    let lines: Vec<&str> = probe.output.lines().collect();
    let last = &lines[lines.len().saturating_sub(PROBE_OUTPUT_LINES)..];
    let quote = |spec: String| shlex::try_quote(&spec).map(|q| q.into_owned()).unwrap_or(spec);
    // A command that counted, wrongly, is the likeliest perft.
    let miscounted = probe.tries.iter().find_map(|t| {
        let (answer, ours) = t.miscount?;
        Some(format!(
            "\n{} answers {answer} where we count {ours}: if that is its perft, name it as below.",
            t.what
        ))
    });
    format!(
        "{name} ({program}): no way to count perft found (tried what is listed above); its last \
         output:\n    {}{}\nIf it has a perft command, name it: --engine {} (a UCI engine), --engine {} (one \
         without UCI), or --engine {} (run per count); see docs/engines.md. A program that starts \
         slowly may need a longer --handshake-timeout.",
        last.join("\n    "),
        miscounted.unwrap_or_default(),
        quote(format!("{name}=uci,perft=perft {{depth}}:{program}")),
        quote(format!("{name}=console,perft=perft {{depth}},position=setboard {{fen}}:{program}")),
        quote(format!("{name}=cmd:{program} {{depth}} {{fen}}")),
    )
}
