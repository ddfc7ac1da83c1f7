//! Command-line arguments: the command tree here, each command's arguments
//! in the file of its family ([`counting`], [`engines`], [`reports`],
//! [`distributed`], [`tools`]).

use clap::builder::Resettable;
use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand};
pub use perft::memory::HashSize;

mod counting;
mod distributed;
mod engines;
mod reports;
mod tools;

pub use counting::*;
pub use distributed::*;
pub use engines::*;
pub use reports::*;
pub use tools::*;

const EXIT_STATUS: &str = "\
Examples:
  perft suite                          # check the bundled default suite
  perft run 6                          # perft(6) of the start position, divided
  perft check --engine ./my-engine     # check another engine, bisect its wrong counts
  perft help run                       # a command's options and examples

Exit status (each command's own are in its help):
  0  every count matched
  1  a count did not match
  2  bad input or usage (unreadable file, malformed FEN or move, bad option)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)";

/// Depths from 0 to [`perft::counting::MAX_DEPTH`].
fn depth_parser() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(..=i64::from(perft::counting::MAX_DEPTH))
}

/// Exact, fast perft: count legal move trees, check suites, compare engines.
#[derive(Debug, Parser)]
#[command(
    name = "perft",
    version,
    about,
    after_help = EXIT_STATUS,
    propagate_version = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes DEPTH plies below a position, with a divide per
    /// root move in Stockfish's `go perft` format.
    #[command(after_help = RUN_HELP)]
    Run(Deferred<RunArgs>),
    /// Check perft counts against EPD (`;D1 20`) or `.perft` suites; with no
    /// files, run the bundled default suite.
    #[command(after_help = SUITE_HELP)]
    Suite(Deferred<SuiteArgs>),
    /// Time a fixed benchmark set (positions/bench.epd by default): warm-up,
    /// then samples of at least --sample-time per position, with their spread.
    #[command(after_help = BENCH_HELP)]
    Bench(Deferred<BenchArgs>),
    /// Race other engines (UCI `go perft` or command templates such as
    /// qperft) against this one on the same positions, cross-checking counts.
    #[command(after_help = COMPARE_HELP)]
    Compare(Deferred<CompareArgs>),
    /// Compare two bench, suite or compare reports: changed counts, and
    /// speed changes judged against the noise.
    #[command(after_help = DIFF_HELP)]
    Diff(Deferred<DiffArgs>),
    /// Draw charts from compare reports (Mnps per position per engine) and
    /// bench reports (Mnps over time) into a self-contained HTML page or SVG.
    #[command(after_help = REPORT_HELP)]
    Report(Deferred<ReportArgs>),
    /// Check another engine's perft against suites; bisect every wrong count
    /// down to the position and move it comes from.
    #[command(after_help = CHECK_HELP)]
    Check(Deferred<CheckArgs>),
    /// Bisect one position's count difference with another engine, step by
    /// step.
    #[command(after_help = DEBUG_HELP)]
    Debug(Deferred<DebugArgs>),
    /// The engine interface of the perftree debugger: `perft perftree DEPTH
    /// FEN [MOVES]` prints `move count` lines, a blank line and the total.
    Perftree(Deferred<PerftreeArgs>),
    /// A minimal UCI engine on stdin/stdout with Stockfish's `go perft`
    /// (uci, isready, ucinewgame, position, go perft, setoption, d, quit).
    Uci,
    /// Make a suite: count positions (bare FENs, EPD lines or `.perft`
    /// records) at depths 1 to D and write them as EPD lines with
    /// `;D1 ... ;DD` counts.
    #[command(after_help = LABEL_HELP)]
    Label(Deferred<LabelArgs>),
    /// Split a deep count into work units of unique positions PLY plies
    /// down (transpositions merged), written to a plan directory.
    #[command(after_help = SPLIT_HELP)]
    Split(Deferred<SplitArgs>),
    /// Count one unit of a plan (the index from --index, or from
    /// SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX).
    #[command(after_help = UNIT_HELP)]
    Unit(Deferred<UnitArgs>),
    /// Check every unit result of a plan and print the total and the root
    /// divide, in `run`'s format.
    #[command(after_help = MERGE_HELP)]
    Merge(Deferred<MergeArgs>),
    /// Say where a plan stands: units done, running (a fresh heartbeat) and
    /// missing, nodes counted so far, time left. Writes nothing into the
    /// plan; runs while units count elsewhere.
    #[command(after_help = STATUS_HELP)]
    Status(Deferred<StatusArgs>),
    /// Print a shell completion script (bash, zsh, fish, powershell or
    /// elvish) for this program to stdout.
    #[command(after_help = COMPLETIONS_HELP)]
    Completions(Deferred<CompletionsArgs>),
    /// Print the manual page (roff) to stdout, or write every page
    /// (perft.1, perft-run.1, ...) to a directory.
    #[command(
        after_help = "Install: perft man --dir ~/.local/share/man/man1 (then `man perft`, `man perft-run`)"
    )]
    Man(Deferred<ManArgs>),
    /// Print the help of the program, or of the command named
    /// (`perft help run` is `perft run --help`).
    Help(Deferred<HelpArgs>),
}

impl Command {
    /// Whether the command may start other engines (whose process groups a
    /// second stop signal must kill).
    pub fn starts_engines(&self) -> bool {
        matches!(self, Command::Compare(_) | Command::Check(_) | Command::Debug(_))
    }
}

/// A subcommand's arguments, built only when that subcommand is parsed or
/// its help is shown ([`clap::Command::defer`]): a run does not build the
/// other subcommands' arguments (a quarter of a millisecond at start-up).
#[derive(Debug)]
pub struct Deferred<T>(pub T);

/// `augment` on `command`, which keeps the description it has: the doc
/// comment of a flattened group would otherwise replace the subcommand's,
/// since deferred arguments are added after it.
fn keeping_about(command: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = Resettable::from(command.get_about().cloned());
    let long_about = Resettable::from(command.get_long_about().cloned());
    augment(command).about(about).long_about(long_about)
}

impl<T: Args> Args for Deferred<T> {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.defer(|command| keeping_about(command, T::augment_args))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        command.defer(|command| keeping_about(command, T::augment_args_for_update))
    }

    fn group_id() -> Option<clap::Id> {
        T::group_id()
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}
