//! Command-line parsing, dispatch, exit codes and error printing.

mod args;
mod bench;
mod check;
mod check_output;
mod check_progress;
mod ci_output;
mod compare;
mod diff;
#[cfg(test)]
mod docs_check;
mod engines;
mod estimate;
mod help;
mod label;
mod merge;
mod output;
mod perftree;
mod report;
mod report_target;
mod resolve;
mod run;
mod run_progress;
mod split;
mod status;
mod suite;
mod table;
mod uci_server;
mod unit;

use std::io::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};

use clap::{CommandFactory, FromArgMatches};
use perft::kernel::{Kernel, Level};
#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

pub use args::{Cli, Command, Deferred};

/// Exit status: every count matched (or nothing to check).
pub const EXIT_OK: u8 = 0;
/// Exit status: a count did not match.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status: bad input or usage (unreadable files, malformed FEN, bad options).
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit status of `merge`: units are missing or invalid (run them again).
pub const EXIT_INCOMPLETE: u8 = 3;
/// Exit status: a transient failure, worth running the same command again
/// (sysexits' `EX_TEMPFAIL`): an I/O error, a full disk, a unit's lock held
/// by another process. Never bad input.
pub const EXIT_TEMPFAIL: u8 = 75;
/// The signals handled like Ctrl-C: what `timeout`, CI cancellation,
/// `docker stop`, Slurm and a closed terminal send.
#[cfg(unix)]
const STOP_SIGNALS: [i32; 3] = [SIGINT, SIGTERM, SIGHUP];
// Elsewhere (Windows) Ctrl-C and Ctrl-Break are read as SIGINT, and the
// other two never arrive; their numbers name the exit statuses.
#[cfg(not(unix))]
const SIGINT: i32 = 2;
#[cfg(not(unix))]
const SIGTERM: i32 = 15;
#[cfg(not(unix))]
const SIGHUP: i32 = 1;

/// The exit status of a command, by the documented precedence: a signal
/// (128 + its number: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP),
/// then a wrong count (1), then bad input or a failed engine (2).
pub fn exit_status(mismatch: bool, bad_input: bool, interrupted: bool) -> u8 {
    if interrupted {
        interrupted_status()
    } else if mismatch {
        EXIT_MISMATCH
    } else if bad_input {
        EXIT_BAD_INPUT
    } else {
        EXIT_OK
    }
}

/// Raised by the first SIGINT, SIGTERM or SIGHUP: work stops starting new
/// subtrees, checks or runs, running engine calls are stopped, and each
/// command writes what it finished. Another stop signal within
/// [`REPEAT_WINDOW_MS`] of the first is the same request (coreutils
/// `timeout` signals the child and then its group, a group kill reaches a
/// process more than once); one later exits at once.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The first stop signal received (0: none).
static SIGNAL: AtomicI32 = AtomicI32::new(0);

/// A stop signal this soon after the first (milliseconds) repeats it.
pub const REPEAT_WINDOW_MS: u64 = 1000;

/// When the first stop signal arrived, by [`monotonic_ms`] (0: none yet).
static FIRST_SIGNAL_MS: AtomicU64 = AtomicU64::new(0);

/// Milliseconds of a monotonic clock, never 0; async-signal-safe
/// (`clock_gettime` is).
#[cfg(unix)]
fn monotonic_ms() -> u64 {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `clock_gettime` writes the one timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    (now.tv_sec as u64 * 1000 + now.tv_nsec as u64 / 1_000_000).max(1)
}

#[cfg(not(unix))]
fn monotonic_ms() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_millis() as u64 + 1
}

/// What a stop signal means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// The first: stop starting work, write what is done.
    First,
    /// Within [`REPEAT_WINDOW_MS`] of the first: the same request again.
    Repeat,
    /// Later (or where [`EXIT_ON_SIGNAL`] is set): end now.
    QuitNow,
}

/// Set by modes with nothing to write on the way out (`uci`, `perftree`):
/// the first signal ends the program at once, as it would without a
/// handler (a GUI or harness stops an engine with SIGTERM).
pub static EXIT_ON_SIGNAL: AtomicBool = AtomicBool::new(false);

/// Whether a stop signal arrived (the stop flag [`INTERRUPTED`] is also
/// raised by a failing journal, which is not an interruption).
pub fn interrupted() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// 128 + the number of the signal that stopped the run (130 when the stop
/// came from elsewhere).
pub fn interrupted_status() -> u8 {
    match SIGNAL.load(Ordering::SeqCst) {
        signal @ 1..=127 => 128 + signal as u8,
        _ => 130,
    }
}

/// What the first stop signal prints: a fixed text, so that a signal handler
/// can write it without formatting.
fn stop_message(signal: i32) -> &'static str {
    macro_rules! message {
        ($name:literal) => {
            concat!(
                "\n",
                $name,
                ": finishing what is running and writing what is done (again, a second later, to quit now)\n"
            )
        };
    }
    match signal {
        SIGTERM => message!("SIGTERM"),
        SIGHUP => message!("SIGHUP"),
        _ => message!("Ctrl-C"),
    }
}

/// Records a stop signal arriving at `now_ms` ([`monotonic_ms`]): the first
/// raises [`INTERRUPTED`]. Atomics only, so a signal handler may call it.
fn record_stop_signal(signal: i32, now_ms: u64) -> Stop {
    if EXIT_ON_SIGNAL.load(Ordering::SeqCst) {
        return Stop::QuitNow;
    }
    match FIRST_SIGNAL_MS.compare_exchange(0, now_ms, Ordering::SeqCst, Ordering::SeqCst) {
        Ok(_) => {
            SIGNAL.store(signal, Ordering::SeqCst);
            INTERRUPTED.store(true, Ordering::SeqCst);
            Stop::First
        }
        Err(first) if now_ms.saturating_sub(first) < REPEAT_WINDOW_MS => Stop::Repeat,
        Err(_) => Stop::QuitNow,
    }
}

/// What a stop signal does, on a thread of its own: the first raises
/// [`INTERRUPTED`] and says so, the second ends the engines and the program.
fn on_stop_signal(signal: i32) {
    match record_stop_signal(signal, monotonic_ms()) {
        Stop::QuitNow => {
            // No destructor runs, so end the engines here.
            perft::engine::kill_all();
            std::process::exit(128 + signal);
        }
        // After SIGHUP the terminal may be gone: never panic on stderr.
        Stop::First => {
            let _ = std::io::stderr().write_all(stop_message(signal).as_bytes());
        }
        Stop::Repeat => {}
    }
}

/// [`on_stop_signal`] inside the signal handler, for commands that start no
/// engine: only atomics, `write(2)` and `_exit(2)`, which are
/// async-signal-safe (ending engines takes a lock, which is not).
#[cfg(unix)]
fn on_stop_signal_in_handler(signal: i32) {
    match record_stop_signal(signal, monotonic_ms()) {
        // SAFETY: `_exit` ends the process without touching its memory.
        Stop::QuitNow => unsafe { libc::_exit(128 + signal) },
        Stop::Repeat => return,
        Stop::First => {}
    }
    let message = stop_message(signal);
    // SAFETY: `write` reads `message.len()` bytes of a static string. A
    // closed stderr only makes it fail, which changes nothing.
    let _ = unsafe { libc::write(libc::STDERR_FILENO, message.as_ptr().cast(), message.len()) };
}

/// Installs the stop signals' handling. Commands that start engines
/// (`starts_engines`) handle the signals on a thread of their own, which can
/// end the engines at a second signal; the others in the handler itself, so
/// that no thread is started (a thread costs 0.1 ms, a few percent of a
/// short run).
#[cfg(unix)]
fn install_signal_handlers(starts_engines: bool) {
    if starts_engines {
        let Ok(mut signals) = signal_hook::iterator::Signals::new(STOP_SIGNALS) else { return };
        std::thread::spawn(move || {
            for signal in signals.forever() {
                on_stop_signal(signal);
            }
        });
    } else {
        for signal in STOP_SIGNALS {
            // SAFETY: the action is async-signal-safe (see
            // `on_stop_signal_in_handler`).
            let _ = unsafe {
                signal_hook::low_level::register(signal, move || on_stop_signal_in_handler(signal))
            };
        }
    }
}

#[cfg(not(unix))]
fn install_signal_handlers(_starts_engines: bool) {
    // Ctrl-C and Ctrl-Break, on a thread of ctrlc's own.
    let _ = ctrlc::set_handler(|| on_stop_signal(SIGINT));
}

/// The environment variable that forces a CPU kernel.
pub const KERNEL_VARIABLE: &str = "PERFT_CPU";

/// The kernel every count of this run uses: the one `PERFT_CPU` names,
/// else the best this CPU runs; and how it was chosen, for `--version`.
///
/// # Errors
/// A message naming the variable, its value and what this CPU supports,
/// when the value is not a kernel or names one this CPU cannot run.
fn choose_kernel() -> Result<(Kernel, String), String> {
    let supported = Level::supported().iter().map(|level| level.name()).collect::<Vec<_>>().join(", ");
    match std::env::var_os(KERNEL_VARIABLE) {
        Some(value) if !value.is_empty() => {
            let text = value.to_string_lossy();
            let kernel = text
                .parse::<Level>()
                .and_then(Kernel::for_level)
                .map_err(|e| format!("{KERNEL_VARIABLE}={}: {e}", perft::board::truncate_chars(&text, 40)))?;
            Ok((kernel, format!("forced by {KERNEL_VARIABLE}; this CPU supports {supported}")))
        }
        _ => Ok((
            Kernel::detect(),
            format!(
                "the best this CPU supports ({supported}); {KERNEL_VARIABLE}=baseline|v2|v3|v4 forces one"
            ),
        )),
    }
}

pub fn main() -> ExitCode {
    // Before any thread starts: under an address-space limit, one
    // allocator arena for all threads.
    perft::memory::share_allocator_arenas_under_a_limit();
    // Before anything counts: a kernel the CPU cannot run is refused here.
    let (kernel, chosen) = match choose_kernel() {
        Ok(choice) => choice,
        Err(message) => {
            let _ = writeln!(std::io::stderr(), "error: {message}");
            return ExitCode::from(EXIT_BAD_INPUT);
        }
    };
    kernel.activate();
    let version = format!("{}, kernel {kernel}", env!("CARGO_PKG_VERSION"));
    let long_version = format!(
        "{version}\nkernel: {chosen}\ncommit {}, {} build by {}",
        env!("PERFT_GIT_COMMIT"),
        env!("PERFT_BUILD_PROFILE"),
        env!("PERFT_RUSTC_VERSION")
    );
    let mut command = Cli::command().version(version).long_version(long_version);
    // Parsed in place, not on a copy of the whole definition (start-up
    // counts in short runs).
    let parsed = command
        .try_get_matches_from_mut(std::env::args_os())
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_BAD_INPUT } else { EXIT_OK };
            // Help and the version go to stdout: a closed pipe ends
            // quietly, a full disk is an error.
            if let Err(error) = e.print().and_then(|()| std::io::stdout().flush()) {
                if error.kind() != std::io::ErrorKind::BrokenPipe {
                    let _ = writeln!(std::io::stderr(), "error: cannot write to stdout: {error}");
                    let transient = perft::report::write::is_transient(&error);
                    return ExitCode::from(if transient { EXIT_TEMPFAIL } else { EXIT_BAD_INPUT });
                }
            }
            if e.use_stderr() {
                if let Some(hint) = unquoted_fen_hint(std::env::args_os().skip(1)) {
                    let _ = writeln!(std::io::stderr(), "\n{hint}");
                }
                if let Some(tip) = help::command_tip(&command, &e) {
                    let _ = writeln!(std::io::stderr(), "\n{tip}");
                }
            }
            return ExitCode::from(code);
        }
    };
    install_signal_handlers(cli.command.starts_engines());
    let result = match cli.command {
        Command::Run(Deferred(args)) => match args.resolve() {
            Ok(args) => run::run(args),
            Err(message) => Err(anyhow::anyhow!(message)),
        },
        Command::Suite(Deferred(args)) => suite::suite(args),
        Command::Bench(Deferred(args)) => bench::bench(args),
        Command::Compare(Deferred(args)) => compare::compare(args),
        Command::Diff(Deferred(args)) => diff::diff(args),
        Command::Report(Deferred(args)) => report::report(args),
        Command::Check(Deferred(args)) => check::check(args),
        Command::Debug(Deferred(args)) => check::debug(args),
        Command::Perftree(Deferred(args)) => perftree::perftree(args),
        Command::Uci => uci_server::uci(),
        Command::Label(Deferred(args)) => label::label_command(args),
        Command::Split(Deferred(args)) => split::split(args),
        Command::Unit(Deferred(args)) => unit::unit(args),
        Command::Merge(Deferred(args)) => merge::merge(args),
        Command::Status(Deferred(args)) => status::status(args),
        Command::Completions(Deferred(args)) => completions(command, args.shell),
        Command::Man(Deferred(args)) => man_page(command, args.dir.as_deref()),
        Command::Help(Deferred(args)) => help::help(command, args.command.as_deref()),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(error) if is_broken_pipe(&error) && !interrupted() => ExitCode::from(EXIT_OK),
        Err(error) => {
            let _ = writeln!(std::io::stderr(), "error: {}", output::error_text(&error));
            // After a signal (a closed terminal, say) the signal's status
            // tells why the run ended.
            ExitCode::from(if interrupted() {
                interrupted_status()
            } else if is_transient(&error) {
                EXIT_TEMPFAIL
            } else {
                EXIT_BAD_INPUT
            })
        }
    }
}

/// Whether `error` is a transient failure ([`EXIT_TEMPFAIL`]): an I/O
/// error of the moment anywhere in its chain, or a unit another process is
/// counting.
fn is_transient(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(perft::report::write::is_transient)
            || matches!(
                cause.downcast_ref::<perft::distributed::DistError>(),
                Some(perft::distributed::DistError::Busy { .. })
            )
    })
}

/// A closed stdout (`perft run 7 | head -1`) is not an error.
fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause.downcast_ref::<std::io::Error>().is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// Writes the completion script for `shell` to stdout: made whole in
/// memory first (the generator panics on a failed write), so a closed pipe
/// ends quietly and a full disk is an error.
fn completions(mut command: clap::Command, shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "perft", &mut script);
    use anyhow::Context;
    let mut out = std::io::stdout().lock();
    out.write_all(&script).and_then(|()| out.flush()).context("cannot write the completion script")?;
    Ok(EXIT_OK)
}

/// Writes the manual page (roff), from the same definition as `--help`:
/// perft.1 to stdout, or perft.1 and one page per subcommand
/// (`perft-run.1`, ...) into `dir`, each written atomically.
fn man_page(command: clap::Command, dir: Option<&std::path::Path>) -> anyhow::Result<u8> {
    use anyhow::Context;
    let render = |page: clap::Command| -> std::io::Result<Vec<u8>> {
        let mut roff = Vec::new();
        clap_mangen::Man::new(page).render(&mut roff)?;
        Ok(roff)
    };
    let Some(dir) = dir else {
        let mut out = std::io::stdout().lock();
        out.write_all(&render(command)?)?;
        out.flush()?;
        return Ok(EXIT_OK);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let version = command.get_version().unwrap_or_default().to_string();
    let mut pages = vec![("perft".to_string(), command.clone())];
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set() && sub.get_name() != "help") {
        // The page is perft-run; its synopsis reads `perft run ...`.
        let name = format!("perft-{}", sub.get_name());
        let page = sub.clone().display_name(name.clone()).bin_name(format!("perft {}", sub.get_name()));
        pages.push((name, page.version(version.clone())));
    }
    // Every page rendered first, then all written or none: a link at a
    // page's name is replaced, not written through.
    let files = pages
        .into_iter()
        .map(|(name, page)| Ok((dir.join(format!("{name}.1")), render(page)?)))
        .collect::<std::io::Result<Vec<_>>>()?;
    perft::report::write::replace_all_atomic(&files)
        .with_context(|| format!("cannot write the manual pages into {}", dir.display()))?;
    let mut out = std::io::stdout().lock();
    for (path, _) in &files {
        // The pages matter more than the list: a closed stdout stops nothing.
        let _ = writeln!(out, "{}", path.display());
    }
    Ok(EXIT_OK)
}

/// A hint for a FEN given without quotes: `--fen` followed by a board
/// (slashes) and then a lone side to move (`w` or `b`) as the next word,
/// which the shell split off.
fn unquoted_fen_hint(args: impl Iterator<Item = std::ffi::OsString>) -> Option<String> {
    let args: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    let board_at = args.iter().position(|a| a == "--fen" || a == "-f")? + 1;
    let board = args.get(board_at)?;
    let side = args.get(board_at + 1)?;
    if board.matches('/').count() == 7 && !board.contains(' ') && (side == "w" || side == "b") {
        let fields: Vec<&str> = args[board_at..].iter().take(6).map(String::as_str).collect();
        Some(format!(
            "hint: a FEN has spaces, so the shell splits it: quote it, as in --fen \"{}\"",
            fields.join(" ")
        ))
    } else {
        None
    }
}

#[cfg(test)]
mod fen_hint_tests {
    use super::unquoted_fen_hint;

    #[test]
    fn an_unquoted_fen_gets_a_hint_and_a_quoted_one_none() {
        let args = |line: &str| line.split(' ').map(std::ffi::OsString::from).collect::<Vec<_>>().into_iter();
        let hint = unquoted_fen_hint(args("run 3 --fen 8/8/8/8/8/8/8/K6k w - - 0 1")).unwrap();
        assert!(hint.contains("--fen \"8/8/8/8/8/8/8/K6k w - - 0 1\""), "{hint}");
        assert_eq!(unquoted_fen_hint(args("run 3 --moves e2e4 e7e5")), None);
        let quoted = ["run", "3", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"].map(std::ffi::OsString::from);
        assert_eq!(unquoted_fen_hint(quoted.into_iter()), None);
    }
}
