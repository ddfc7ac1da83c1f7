//! Finding how a program counts perft, when it is given alone
//! (`--engine NAME=PROGRAM`), in three steps, each bounded:
//!
//! 1. **UCI**: `uci` answered with `uciok`: `go perft`, then perft commands
//!    of its own in its UCI loop, after `position fen`.
//! 2. **Console**: perft commands at its prompt, then the position commands
//!    engines use (`position fen`, `setboard`, `fen`, `pos`, ...). An engine
//!    that answered `uciok` is started again and never sent `uci` here
//!    (some engines' console perft is gone once they are in UCI mode).
//! 3. **Command lines**, for a program that exits when started without
//!    arguments (or on `uci`): `PROG DEPTH FEN [MOVES]`, `PROG FEN DEPTH`,
//!    `PROG -d N -f FEN` and the other forms of [`COMMAND_LINES`].
//!
//! Every try is checked against our own counts on the start position (20,
//! then 400) and on Kiwipete, so a command that ignores the position is
//! told from one that reads it; then the start position after three moves,
//! so an engine that drops the moves after `position fen FEN moves ...` is
//! given the position reached as a FEN instead. FENs have six fields; an
//! engine that misreads them (a wrong count, an error, a crash) is asked
//! again with four. What a program prints before it is asked anything is
//! its banner, never an answer. A program that says nothing at all after
//! it starts is waited for up to [`ProbeOptions::start`] (a slow start);
//! one that answers is given [`ProbeOptions::wait`] after each line.

mod costs;
mod dialects;
mod prober;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use costs::Costs;

use super::console::{CONSOLE_PERFT, CONSOLE_POSITION};
use super::session::Session;
use super::spec::{EngineSpec, Protocol};
use super::template::FenFields;
use super::uci::UCI_POSITION;
use prober::Prober;

/// Perft commands tried in an engine's UCI loop or at its prompt, in this
/// order (after `go perft {depth}` for UCI engines): the forms open-source
/// engines use.
pub const PERFT_COMMANDS: &[&str] = &[
    CONSOLE_PERFT,
    "perft {depth} {fen}",
    "perft depth {depth}",
    "go perft depth {depth}",
    "divide {depth}",
    "perft divide {depth}",
    "dperft {depth}",
];

/// Position commands tried for a console engine.
pub const POSITION_COMMANDS: &[&str] =
    &[CONSOLE_POSITION, "position fen {fen}", "setboard {fen}", "fen {fen}", "pos {fen}", "position {fen}"];

/// Command lines tried, after the program's own arguments, for a program
/// that exits at once: perftree's (`SCRIPT DEPTH FEN [MOVES]`), Gigantua's
/// order, then flags and subcommands.
pub const COMMAND_LINES: &[&str] = &[
    "{depth} {fen} {moves}",
    "{fen} {depth}",
    "perft {depth} {fen}",
    "-d {depth} -f {fen}",
    "--depth {depth} --fen {fen}",
    "--perft {depth} {fen}",
];

/// How probing runs.
#[derive(Clone, Copy, Debug)]
pub struct ProbeOptions {
    /// How long one try waits for an answer after the engine's last line
    /// (and for `uciok`) before it counts as silence.
    pub wait: Duration,
    /// How long a program that has said nothing at all since it started
    /// is waited for (a slow start), and `isready` after `uciok`.
    pub start: Duration,
    /// Once raised, probing stops.
    pub stop: Option<&'static AtomicBool>,
    /// Once found, time its start-up, a small count and a larger one
    /// ([`Probe::costs`]).
    pub measure: bool,
}

impl Default for ProbeOptions {
    fn default() -> Self {
        ProbeOptions {
            wait: Duration::from_secs(3),
            start: super::DEFAULT_HANDSHAKE,
            stop: None,
            measure: false,
        }
    }
}

/// One thing tried, and what came of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Try {
    /// What was sent or run (`go perft 1`, `./engine 1 FEN`).
    pub what: String,
    /// What came of it (`20`, `a search: bestmove e2e4`, `no answer in 3 s`).
    pub outcome: String,
    /// A count that differs from ours: (its, ours).
    pub miscount: Option<(u128, u128)>,
}

/// What probing found.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The spec of what was found (the probed spec's format and Chess960
    /// declaration kept), if anything counted.
    pub found: Option<EngineSpec>,
    /// Which step found it (`UCI`, `console, started again without uci`,
    /// `command lines`).
    pub step: Option<String>,
    /// What was tried, in order.
    pub tries: Vec<Try>,
    /// What was learnt on the way that changes how it is asked (it drops
    /// the moves, it wants four FEN fields).
    pub notes: Vec<String>,
    /// What it costs to run, when measured ([`ProbeOptions::measure`]).
    pub costs: Option<Costs>,
    /// The engine's last output, when nothing was found.
    pub output: String,
}

/// A found dialect.
#[derive(Clone, Debug)]
struct Found {
    protocol: Protocol,
    command: Vec<String>,
    perft: Option<String>,
    position: Option<String>,
    fen: FenFields,
}

/// Probes `spec`'s program (its `command`) for how it counts perft.
pub fn probe(spec: &EngineSpec, options: &ProbeOptions) -> Probe {
    let mut prober =
        Prober::new(Session::new(spec.command.clone(), options.stop), spec.format.clone(), options);
    let found = prober.find();
    let output = prober.session.tail();
    prober.session.restart();
    // Written as a spec read from the command line would be: defaults
    // left out.
    let found = found.map(|(step, found)| {
        let Found { protocol, command, perft, position, fen } = found;
        let default_position = if protocol == Protocol::Uci { UCI_POSITION } else { CONSOLE_POSITION };
        let spec = EngineSpec {
            protocol,
            command,
            format: spec.format.clone(),
            chess960: spec.chess960,
            perft: perft.filter(|p| !(protocol == Protocol::Console && p == CONSOLE_PERFT)),
            position: position.filter(|p| p != default_position),
            fen,
            preset: None,
        };
        (step, spec)
    });
    let costs = match &found {
        Some((_, spec)) if options.measure => costs::measure(spec, options),
        _ => None,
    };
    let (step, found) = found.unzip();
    Probe { found, step, tries: prober.tries, notes: prober.notes, costs, output }
}
