//! Command-line parsing, dispatch, exit codes and error printing.

mod args;
mod bench;
mod check;
mod compare;
mod diff;
mod output;
mod perftree;
mod report;
mod run;
mod suite;
mod uci;

use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Exit status: every count matched (or nothing to check).
pub const EXIT_OK: u8 = 0;
/// Exit status: a count did not match.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status: bad input or usage (unreadable files, malformed FEN, bad options).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status: interrupted by Ctrl-C (128 + SIGINT) after writing what was
/// finished.
pub const EXIT_INTERRUPTED: u8 = 130;

/// The exit status of a command, by the documented precedence: Ctrl-C
/// (130), then a wrong count (1), then bad input or a failed engine (2).
pub fn exit_status(mismatch: bool, bad_input: bool, interrupted: bool) -> u8 {
    if interrupted {
        EXIT_INTERRUPTED
    } else if mismatch {
        EXIT_MISMATCH
    } else if bad_input {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    }
}

/// Raised by the first Ctrl-C: work stops starting new subtrees, checks or
/// runs, and each command writes what it finished. A second Ctrl-C exits at
/// once.
pub static INTERRUPTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, std::sync::atomic::Ordering::SeqCst) {
            std::process::exit(i32::from(EXIT_INTERRUPTED));
        }
        eprintln!(
            "\ninterrupted: finishing what is running and writing what is done (Ctrl-C again to quit now)"
        );
    });
}

pub fn main() -> ExitCode {
    install_interrupt_handler();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { EXIT_OK };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let result = match cli.command {
        Command::Run(args) => run::run(args),
        Command::Suite(args) => suite::suite(args),
        Command::Bench(args) => bench::bench(args),
        Command::Compare(args) => compare::compare(args),
        Command::Diff(args) => diff::diff(args),
        Command::Report(args) => report::report(args),
        Command::Check(args) => check::check(args),
        Command::Debug(args) => check::debug(args),
        Command::Perftree(args) => perftree::perftree(args),
        Command::Uci => uci::uci(),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) if is_broken_pipe(&error) => ExitCode::from(EXIT_OK),
        Err(error) => {
            eprintln!("Error: {error:#}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// A closed stdout (`perft run 7 | head -1`) is not an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
