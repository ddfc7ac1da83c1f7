//! Drivers for other programs' perft: UCI engines (`go perft`, or a perft
//! command of their own), console engines kept running, command templates
//! such as qperft, all behind one [`Engine`] trait; and [`probe`], which
//! finds which of these a program speaks.
//!
//! An engine that fails to start, exits, hangs past its deadline, floods
//! its output or prints something unreadable yields an [`EngineError`] that
//! carries the last lines it printed; a UCI engine that died is restarted
//! on the next call. Every engine runs in a process group of its own, killed
//! as a whole when the engine stops, fails or is dropped; [`kill_all`] ends
//! every engine still alive at once.

mod answer;
mod auto;
mod build;
mod command;
mod console;
mod how_run;
mod probe;
mod process;
mod program;
mod session;
mod spec;
mod startup;
mod template;
mod uci;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

pub use perft_harness::engine::{
    Engine, EngineError, EnginePosition, EngineRun, MAX_ANSWER_BYTES, MAX_DIVIDE_LINES, NO_OUTPUT,
};

pub use answer::{AnswerFormat, PatternError, DEFAULT_TOTAL_PATTERNS};
pub use auto::AutoEngine;
pub use command::CommandEngine;
pub use console::{ConsoleEngine, CONSOLE_PERFT, CONSOLE_POSITION};
pub use how_run::HowRun;
pub use probe::{probe, Costs, Probe, ProbeOptions, Try};
pub use process::kill_all;
pub use program::{find_program, ProgramError};
pub use spec::{split_name, EngineSpec, Preset, Protocol, SpecError, PRESETS};
pub use startup::{measure_startup, Startup, StartupError, STARTUP_RUNS};
pub use template::{FenFields, PLACEHOLDERS};
pub use uci::{UciEngine, GO_PERFT, UCI_POSITION};

/// How engines built from a spec are run.
#[derive(Clone, Copy, Debug)]
pub struct EngineOptions {
    /// Threads a UCI engine is told to use (its `Threads` option); command
    /// engines choose their own.
    pub threads: Option<usize>,
    /// Once raised, a call in progress kills the engine and returns
    /// [`EngineError::Interrupted`].
    pub stop: Option<&'static AtomicBool>,
    /// The longest a UCI engine may take to answer `uci` and each
    /// `isready`.
    pub handshake: Duration,
}

/// The default handshake limit of UCI engines.
pub const DEFAULT_HANDSHAKE: Duration = Duration::from_secs(30);

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions { threads: None, stop: None, handshake: DEFAULT_HANDSHAKE }
    }
}
