//! Command-line arguments.

use std::path::PathBuf;

use clap::builder::Resettable;
use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand};
pub use perft::memory::HashSize;

/// The engine specs, for the help of every command that drives engines.
macro_rules! engine_specs {
    () => {
        "\
Engine specs:
  PROGRAM [ARGS]          the program alone: perft probes how it counts (UCI `go perft`, then
                          commands of its own such as `perft N`, `perft depth N`, `divide N`;
                          a program that exits at once is run per count as PROGRAM DEPTH FEN
                          [MOVES]) and prints the spec that pins what it found
  uci:PROGRAM [ARGS]      a UCI engine: `position fen ...` + `go perft N`
  uci,perft=COMMAND:...   a UCI engine with a perft command of its own (`uci,perft=perft {depth}:./e`)
  console:PROGRAM [ARGS]  a program kept running, without UCI: `position fen ...` + `perft N`;
                          perft=COMMAND and position=COMMAND change them
                          (`console,perft=perft depth {depth},position=setboard {fen}:./e`)
  cmd:TEMPLATE            a command run per count; placeholders {depth}, {fen}, {moves} and
                          {chess960} (true or false: the program plays Chess960)
  qperft:PATH             qperft (`PATH {depth} {fen}`, total from `perft( N)= ...`; no Chess960)
  gigantua:PATH           Gigantua (`PATH {fen} {depth}`, total from `Perft N: ...`; no Chess960)
  KIND,no960:...          declares that the engine does not play Chess960: those positions are
                          skipped (`cmd,no960:./mine {depth} {fen}`, `uci,no960:./mine`)
Totals are read in the forms engines print (`Nodes searched: N`, `Nodes: N`, `Total: N`,
`Moves 197,742`, `perft(5)= N`, `info nodes N`, `N nodes`, a bare number after the divide, a
number equal to the divide's sum, ...), else give --total-regex; divides from `e2e4: 20`,
`e2e4 20`, `e2e4 - 20`, `Move e2e4: 20`, `move 1 : e2e4 : 20` and similar, else give
--divide-regex. Both take REGEX (every engine) or NAME=REGEX (one)."
    };
}

const COMPARE_HELP: &str = concat!(
    engine_specs!(),
    "
Each engine's start-up time (median of depth-1 counts) is subtracted from its timings.

Exit status:
  0  every engine agreed on every count
  1  an engine reported a different count
  2  bad input or usage, or an engine failed (start, crash, hang, flood, unreadable output)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)"
);

const DIFF_HELP: &str = "\
Compares two reports of the same kind: bench, suite, or compare (another engine's speed before
and after a change). Counts that changed are listed. A speed change is a REGRESSION (or
`faster`) only past --threshold and past the noise: when both reports kept several samples
(bench, compare), Welch's t-test on them at 95%; otherwise the min-max ranges must not overlap.
A change past the threshold but not past the noise is reported as `within noise`. Reports from
different machines, CPU kernels, modes, thread counts or bench-set versions, and suite reports
of different checks, are refused unless --force.

Exit status:
  0  no count changed and no regression
  1  a count changed or a regression was flagged
  2  bad input, or the reports are not comparable";

const CHECK_HELP: &str = concat!(
    "ENGINE is [NAME=]SPEC.\n",
    engine_specs!(),
    "
Every wrong count is bisected (with the engine's divide, or by asking for each child
position's count) down to the position whose move list differs, and grouped by cause: missing
moves by kind, extra moves by why they are illegal, a move listed twice, a count that differs
where the move list agrees (with candidates), answers that contradict each other. Each cause is
printed once (--verbose prints every wrong count). Positions an engine cannot read (Chess960
for qperft, Gigantua, UCI engines without UCI_Chess960, engines declared no960) are skipped;
depth-0 counts are not asked of engines (perft(0) = 1).

Exit status:
  0  the engine matched every count
  1  the engine got a count wrong
  2  bad input or usage, or the engine failed (start, crash, hang, flood, unreadable output)
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (what finished is printed and reported)"
);

const DEBUG_HELP: &str = concat!(
    "ENGINE is [NAME=]SPEC.\n",
    engine_specs!(),
    "
The engine's divide is compared with ours at the position; the cheapest move whose count
differs is followed (looking one level ahead for a position whose move list differs), down to
the position where a move is missing, extra or listed twice; each step is printed. Where the
engine prints no divide, each child position's count is asked, and its move list is read from
its divide one ply deeper.

Exit status:
  0  the engine agrees
  1  a difference was found
  2  bad input or usage, or the engine failed
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP"
);

const EXIT_STATUS: &str = "\
Exit status:
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
#[command(name = "perft", version, about, after_help = EXIT_STATUS, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf nodes DEPTH plies below a position, with a divide per
    /// root move in Stockfish's `go perft` format.
    #[command(after_help = EXIT_STATUS)]
    Run(Deferred<RunArgs>),
    /// Check perft counts against EPD (`;D1 20`) or `.perft` suites; with no
    /// files, run the bundled default suite.
    #[command(after_help = EXIT_STATUS)]
    Suite(Deferred<SuiteArgs>),
    /// Time a fixed benchmark set (positions/bench.epd by default): warm-up,
    /// then samples of at least --sample-time per position, with their spread.
    #[command(after_help = EXIT_STATUS)]
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
    #[command(after_help = EXIT_STATUS)]
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

#[derive(Debug, Args)]
pub struct ManArgs {
    /// Write perft.1 and one page per subcommand (perft-run.1, ...) here
    /// instead of perft.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

const COMPLETIONS_HELP: &str = "\
Install, for example:
  bash:  perft completions bash > ~/.local/share/bash-completion/completions/perft
  zsh:   perft completions zsh > ~/.zfunc/_perft   (with fpath+=~/.zfunc before compinit)
  fish:  perft completions fish > ~/.config/fish/completions/perft.fish
  PowerShell: perft completions powershell >> $PROFILE";

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to write completions for.
    #[arg(value_name = "SHELL", value_enum)]
    pub shell: clap_complete::Shell,
}

const SPLIT_HELP: &str = "\
Example: perft split --depth 10 --ply 4 --units 64 --out d10
         (then `perft unit d10 --index I` for I in 0..63, then `perft merge d10`)

Exit status:
  0  plan written
  2  bad input or usage (depth, ply, units), a non-empty directory without --force, a ply too
     large for this machine's memory
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (nothing written)

With --force, the new plan is written beside the old one and swapped in at the end: a split
that fails or is stopped leaves the old plan and its results as they were.";

const UNIT_HELP: &str = "\
The unit: --index, else the first of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX and
AWS_BATCH_JOB_ARRAY_INDEX that is set and not empty; plus --index-offset (else PERFT_INDEX_OFFSET).
A valid result already present ends the command at once (status 0). Each finished position is
journaled in PLAN/results/unit-NNNNNN.kK.journal; after SIGTERM (preemption), a kill or a crash,
the same command resumes from it.

Exit status:
  0  the result is written (or was already there)
  2  bad input: plan, unit file (checksum), index, options
  130, 143, 129  stopped by Ctrl-C, SIGTERM or SIGHUP (finished positions are journaled)";

const MERGE_HELP: &str = "\
Exit status:
  0  every unit present and valid (and the key sets agree): total and divide printed
  1  two key sets disagree on a unit (named)
  2  bad input: the plan cannot be read or a unit file changed
  3  units missing or invalid: `missing: 3,17,250-260` (usable as sbatch --array=...)";

#[derive(Debug, Args)]
pub struct SplitArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Total depth of the count.
    #[arg(long, short = 'd', value_name = "D", value_parser = depth_parser())]
    pub depth: u32,
    /// Plies down to the unit positions (1 to D - 1).
    #[arg(long, value_name = "P", value_parser = depth_parser())]
    pub ply: u32,
    /// Number of units (1 to the number of unique positions).
    #[arg(long, value_name = "N")]
    pub units: u32,
    /// The plan directory (created; must be empty unless --force).
    #[arg(long, value_name = "PLAN")]
    pub out: PathBuf,
    /// Replace the plan (manifest, units, results) in a non-empty directory.
    #[arg(long)]
    pub force: bool,
    /// The most unique positions one ply may hold in memory [default: from
    /// the memory available].
    #[arg(long, value_name = "N")]
    pub max_positions: Option<u64>,
    /// Worker threads for the check count, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
}

#[derive(Debug, Args)]
pub struct UnitArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// The unit, from 0 [default: from SLURM_ARRAY_TASK_ID,
    /// JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX].
    #[arg(long, value_name = "I", allow_hyphen_values = true)]
    pub index: Option<String>,
    /// Added to the unit index, whatever its source [default: from
    /// PERFT_INDEX_OFFSET, else 0]: job arrays whose own indexes must stay
    /// small (Slurm's MaxArraySize) reach units past them.
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub index_offset: Option<String>,
    /// Zobrist key set of the hash table: 1 or 2.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub keys: u8,
    /// Hash table shared by the whole unit: MB mebibytes, `auto` (sized
    /// from the unit and the memory this process may use: the job's cgroup
    /// limit or the available memory), or 0 for none.
    #[arg(long, value_name = "MB|auto", default_value = "auto")]
    pub hash: HashSize,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
}

const STATUS_HELP: &str = "\
Example: perft status d10
         until perft status d10 --quiet; do sleep 60; done; perft merge d10

A unit is running while its heartbeat (results/unit-NNNNNN.kK.running, rewritten every 15 s) is
at most 120 s old; an older one is a unit that died, and it counts as missing.

Exit status:
  0  every unit is done (run `perft merge`)
  2  the plan cannot be read
  3  some units are running or missing";

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// The key set whose results to look at: 1 or 2.
    #[arg(long, value_name = "K", default_value_t = 1)]
    pub keys: u8,
    /// Write the status as JSON to FILE (atomically; `-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Print nothing; the exit status says whether every unit is done.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Seconds to watch a heartbeat that the clocks cannot judge (dated in
    /// the future, or a little stale) for a change before calling its unit
    /// dead; 0 to not watch.
    #[arg(long, value_name = "SECONDS", default_value_t = 17.0)]
    pub watch: f64,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The plan directory.
    #[arg(value_name = "PLAN")]
    pub plan: PathBuf,
    /// Key sets whose results to merge: 1, 2 or 1,2 (both must be present
    /// and agree unit by unit).
    #[arg(long, value_name = "K[,K]", value_delimiter = ',', default_value = "1")]
    pub keys: Vec<u8>,
    /// Write a merge report to FILE (atomically; `-` for stdout).
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

const LABEL_HELP: &str = "\
Example: perft label --depth 5 my-positions.txt -o my-suite.epd

Counts a position's file already gives are checked against ours (MISMATCH on stderr).

Exit status:
  0  every position labelled
  1  a count the file gave differs from ours (ours is written)
  2  an unreadable line or position (reported and left out)
  130  interrupted (nothing written)";

#[derive(Debug, Args)]
pub struct LabelArgs {
    /// Files of positions: FENs one a line, EPD lines, or `.perft` records.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// Count at depths 1 to D.
    #[arg(long, short = 'd', value_name = "D", value_parser = depth_parser())]
    pub depth: u32,
    /// Write the suite to FILE (atomically) instead of stdout.
    #[arg(long = "out", short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Accept impossible-but-playable positions.
    #[arg(long)]
    pub relaxed: bool,
    /// Read every position's castling the Chess960 way.
    #[arg(long)]
    pub chess960: bool,
}

/// Where the position comes from.
#[derive(Debug, Args)]
pub struct PositionArgs {
    /// Start from this FEN (4 to 6 fields; X-FEN and Shredder-FEN accepted).
    #[arg(long, value_name = "FEN", conflicts_with = "startpos")]
    pub fen: Option<String>,
    /// Start from the standard starting position (the default).
    #[arg(long)]
    pub startpos: bool,
    /// Moves to play first, in UCI notation (e2e4 e7e5 ...).
    #[arg(long, value_name = "MOVE", num_args = 1.., allow_hyphen_values = false)]
    pub moves: Vec<String>,
    /// Write (and read) castling the Chess960 way: king takes rook.
    #[arg(long)]
    pub chess960: bool,
    /// Accept impossible-but-playable positions (too much material,
    /// impossible checks, impossible castling history).
    #[arg(long)]
    pub relaxed: bool,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Plies to count (at most 64); or give --depth.
    #[arg(value_name = "DEPTH", value_parser = depth_parser())]
    pub depth_argument: Option<u32>,
    /// Plies to count (at most 64).
    #[arg(long = "depth", short = 'd', value_name = "N", value_parser = depth_parser(), conflicts_with = "depth_argument")]
    pub depth_option: Option<u32>,
    /// The depth, however it was given (set by [`RunArgs::resolve`]).
    #[arg(skip)]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Make every leaf move instead of counting the last ply by set sizes
    /// (bulk counting). Slower; the counts are the same.
    #[arg(long)]
    pub full: bool,
    /// Print only the total.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// Share a hash table of subtree counts: MB mebibytes, `auto` (sized
    /// from the depth and the memory this process may use: its cgroup's
    /// limit or the available memory), or 0 for none [default: auto where
    /// the count is large enough for a table to pay].
    #[arg(long, value_name = "MB|auto")]
    pub hash: Option<HashSize>,
    /// Repeat the run with an independent set of hash keys and fail unless
    /// both give the same counts (needs a table).
    #[arg(long)]
    pub verify_hash: bool,
    /// Count, per depth, captures, en passant, castles, promotions, checks,
    /// discovered and double checks and checkmates (every node is made).
    #[arg(long, conflicts_with_all = ["hash", "checkpoint", "resume", "full"])]
    pub stats: bool,
    /// Record every finished subtree in a journal FILE (new), so the run can
    /// resume after a crash, kill or Ctrl-C.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub checkpoint: Option<PathBuf>,
    /// Resume from the journal FILE of an earlier run with the same position,
    /// depth and mode: finished subtrees are skipped, the rest recorded.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/run-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

impl RunArgs {
    /// Settles the depth: the argument or `--depth`, else a number that
    /// `--moves` took in (`--moves e2e4 e7e5 3`: the 3 is the depth), or
    /// that `--json` took as its file (`--json 3`: a report, depth 3).
    pub fn resolve(mut self) -> Result<Self, String> {
        let is_number = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
        if self.depth_argument.or(self.depth_option).is_none() {
            let json_number =
                self.json.as_ref().and_then(|j| j.as_ref()).and_then(|p| p.to_str()).filter(|p| is_number(p));
            if let Some(number) = json_number {
                self.depth_argument = Some(
                    number.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                        format!("depth {number} is beyond the {} plies supported", perft::counting::MAX_DEPTH)
                    })?,
                );
                self.json = Some(None);
            }
        }
        let trailing_number = self.position.moves.last().filter(|m| is_number(m));
        let depth = match (self.depth_argument.or(self.depth_option), trailing_number) {
            (Some(depth), _) => depth,
            (None, Some(number)) => {
                let depth =
                    number.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                        format!("depth {number} is beyond the {} plies supported", perft::counting::MAX_DEPTH)
                    })?;
                self.position.moves.pop();
                depth
            }
            (None, None) => return Err("a depth is needed: perft run DEPTH, or --depth N".into()),
        };
        self.depth = depth;
        Ok(self)
    }
}

/// Which checks of the suites run, and how their positions are read
/// (`suite` and `check`).
#[derive(Debug, Args)]
pub struct SelectionArgs {
    /// Skip depths above D.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// Skip checks whose expected count exceeds N.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u128>,
    /// Count impossible-but-playable positions (such as those of
    /// tricky.perft) without the note they get by default.
    #[arg(long, conflicts_with = "strict")]
    pub relaxed: bool,
    /// Refuse impossible-but-playable positions (too much material,
    /// impossible checks or castling rights) as errors.
    #[arg(long)]
    pub strict: bool,
    /// Read every position's castling the Chess960 way (otherwise detected
    /// from the castling field and the placement).
    #[arg(long)]
    pub chess960: bool,
    /// Stop at the first wrong count.
    #[arg(long)]
    pub fail_fast: bool,
    /// Skip Chess960 positions (counted as skipped); `check` skips them
    /// anyway for engines that cannot read them (qperft, Gigantua, UCI
    /// engines without UCI_Chess960).
    #[arg(long)]
    pub skip_chess960: bool,
}

impl SelectionArgs {
    /// The suite options these flags give, counting in `mode`, with
    /// `extra_depth` checked for every position.
    pub fn options(
        &self,
        mode: perft::counting::Mode,
        extra_depth: Option<u32>,
    ) -> perft::suite::SuiteOptions {
        perft::suite::SuiteOptions {
            castling: perft::board::CastlingMode::from_chess960(self.chess960),
            relaxed: self.relaxed,
            strict: self.strict,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            fail_fast: self.fail_fast,
            mode,
            extra_depth,
            skip_chess960: self.skip_chess960,
            skip_depth_zero: false,
        }
    }
}

#[derive(Debug, Args)]
pub struct SuiteArgs {
    /// Suite files (EPD with `;D<depth> <nodes>` or `.perft`); none runs the
    /// bundled default suite.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Worker threads, 1 to 1024 [default: all cores].
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Make every leaf move instead of bulk counting.
    #[arg(long)]
    pub full: bool,
    /// Share a hash table of subtree counts across all positions and
    /// depths: MB mebibytes or `auto` (sized from the deepest count and the
    /// memory this process may use); a failing check's divide is recounted
    /// with a second table indexed by the second key set [default: none].
    #[arg(long, value_name = "MB|auto")]
    pub hash: Option<HashSize>,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/suite-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Benchmark set: EPD or .perft; each position runs at the deepest depth
    /// it lists [default: the bundled positions/bench.epd].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Timed rounds: samples per position.
    #[arg(long, short = 'r', value_name = "R", default_value_t = 5)]
    pub repeat: usize,
    /// Least seconds of one sample: a position is counted again and again
    /// until its sample has lasted this long.
    #[arg(long, value_name = "SECONDS", default_value_t = 0.5)]
    pub sample_time: f64,
    /// Worker threads.
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Make every leaf move instead of bulk counting.
    #[arg(long)]
    pub full: bool,
    /// Write the JSON report to FILE (`-` for stdout) instead of
    /// results/bench-<timestamp>.json (`$PERFT_RESULTS` instead of
    /// results/): a bench always writes its report, so that the history of
    /// its runs stays in one place for `perft diff` and `perft report`.
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report.
    #[arg(long)]
    pub no_json: bool,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// An engine to race, as NAME=SPEC (repeatable); this program always
    /// takes part as `perft`.
    #[arg(long = "engine", short = 'e', value_name = "NAME=SPEC")]
    pub engines: Vec<String>,
    #[command(flatten)]
    pub patterns: PatternArgs,
    /// Positions with their expected counts [default: positions/bench.epd].
    #[arg(long, value_name = "FILE")]
    pub positions: Option<PathBuf>,
    /// Skip Chess960 positions for every engine (engines that cannot read
    /// them skip them anyway).
    #[arg(long)]
    pub skip_chess960: bool,
    /// Rounds; within a round the engines take turns on each position.
    #[arg(long, short = 'r', value_name = "R", default_value_t = 3)]
    pub repeat: usize,
    /// Seconds one count may take before the engine is killed.
    #[arg(long, value_name = "SECONDS", default_value_t = 300.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for this program and for UCI engines (their `Threads`
    /// option).
    #[arg(long, short = 't', value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/compare-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

/// How engines' answers are read.
#[derive(Debug, Args)]
pub struct PatternArgs {
    /// Pattern for an engine's total: a regular expression whose first
    /// group is the number (`{depth}` stands for the depth); REGEX for
    /// every engine, NAME=REGEX for one (repeatable).
    #[arg(long = "total-regex", value_name = "[NAME=]REGEX")]
    pub total_regex: Vec<String>,
    /// Pattern for one line of an engine's divide, with groups for the move
    /// and the count (named `move` and `count`, or the first two); REGEX or
    /// NAME=REGEX (repeatable).
    #[arg(long = "divide-regex", value_name = "[NAME=]REGEX")]
    pub divide_regex: Vec<String>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier report.
    #[arg(value_name = "OLD.json")]
    pub old: PathBuf,
    /// The later report.
    #[arg(value_name = "NEW.json")]
    pub new: PathBuf,
    /// Smallest change, in percent of the median speed, that is flagged
    /// (when it is also past the noise).
    #[arg(long, value_name = "PCT", default_value_t = 2.0)]
    pub threshold: f64,
    /// Compare reports from different machines, modes or thread counts.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Compare and bench reports (JSON).
    #[arg(value_name = "FILE.json", required = true)]
    pub files: Vec<PathBuf>,
    /// Output file: `.html` for a page with charts and tables, `.svg` for
    /// the charts alone.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: PathBuf,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The engine to check, [NAME=]SPEC.
    #[arg(long, short = 'e', value_name = "ENGINE")]
    pub engine: String,
    /// Suite files; none runs the bundled default suite.
    #[arg(value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Also check every position at depth D, with our count as the reference
    /// where the file has none.
    #[arg(long, value_name = "D", value_parser = depth_parser())]
    pub depth: Option<u32>,
    /// Seconds one engine call may take before the engine is killed and
    /// restarted.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for our own counts.
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    /// Engine processes to run at once, each asked its share of the checks
    /// (a slow engine checks a suite N times faster on N free cores).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 1)]
    pub jobs: usize,
    #[command(flatten)]
    pub patterns: PatternArgs,
    /// Print every wrong count and every engine error, not only one example
    /// of each cause.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Write a JSON report to FILE (`-` for stdout); without FILE, to
    /// results/check-<timestamp>.json (`$PERFT_RESULTS` instead of results/).
    /// Reports are written only when asked (`bench` always writes one).
    #[arg(long, value_name = "FILE", num_args = 0..=1, conflicts_with = "no_json")]
    pub json: Option<Option<PathBuf>>,
    /// Write no JSON report (the default; accepted for scripts).
    #[arg(long)]
    pub no_json: bool,
}

#[derive(Debug, Args)]
pub struct DebugArgs {
    /// The engine to debug, [NAME=]SPEC.
    #[arg(long, short = 'e', value_name = "ENGINE")]
    pub engine: String,
    #[command(flatten)]
    pub position: PositionArgs,
    /// Plies to count.
    #[arg(long, short = 'd', value_name = "N", value_parser = depth_parser())]
    pub depth: u32,
    /// Seconds one engine call may take.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub timeout: f64,
    /// Seconds a UCI engine may take to answer `uci` and each `isready`
    /// [default: the smaller of 30 and --timeout], and a program given
    /// alone each try while it is probed [default: 3].
    #[arg(long, value_name = "SECONDS")]
    pub handshake_timeout: Option<f64>,
    /// Threads for our own counts.
    #[arg(long, short = 't', value_name = "N")]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub patterns: PatternArgs,
}

#[derive(Debug, Args)]
pub struct PerftreeArgs {
    /// Plies to count (instead of the DEPTH argument).
    #[arg(long = "depth", short = 'd', value_name = "N", value_parser = depth_parser())]
    pub depth_option: Option<u32>,
    /// DEPTH FEN [MOVES...], as the perftree debugger calls it (without
    /// DEPTH when --depth is given); MOVES are UCI moves played from FEN
    /// first, in one argument or several.
    #[arg(
        value_name = "DEPTH FEN MOVES",
        required = true,
        trailing_var_arg = true,
        allow_hyphen_values = true
    )]
    pub words: Vec<String>,
}

impl PerftreeArgs {
    /// The depth, the FEN and the moves.
    pub fn parts(&self) -> Result<(u32, &str, Vec<&str>), String> {
        let mut words = self.words.iter().map(String::as_str);
        let depth = match self.depth_option {
            Some(depth) => depth,
            None => {
                let text = words.next().unwrap_or_default();
                text.parse().ok().filter(|d| *d <= perft::counting::MAX_DEPTH).ok_or_else(|| {
                    format!("bad depth {text:?}: a number of plies, at most {}", perft::counting::MAX_DEPTH)
                })?
            }
        };
        let fen = words.next().ok_or("no FEN given")?;
        Ok((depth, fen, words.flat_map(str::split_whitespace).collect()))
    }
}
