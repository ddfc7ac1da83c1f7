//! Reports: what a run measured, with the facts needed to compare two runs
//! honestly (tool version and commit, machine), as serde types written to
//! JSON atomically.

use std::io::Write;
use std::path::{Path, PathBuf};

pub mod diff;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Which program produced a report.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolInfo {
    /// `"perft"`.
    pub name: String,
    /// The crate version.
    pub version: String,
    /// `git rev-parse --short=12 HEAD` at build time, `-dirty` if the tree had
    /// uncommitted changes, or `unknown`.
    pub git_commit: String,
    /// The compiler that built it.
    pub rustc: String,
    /// `release`, `debug`, ...
    pub build_profile: String,
    /// How sliding-piece attacks are looked up: `pext` or `magic`.
    pub slider_backend: String,
}

impl ToolInfo {
    /// Facts about this build.
    pub fn current() -> Self {
        ToolInfo {
            name: env!("CARGO_PKG_NAME").to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: env!("PERFT_GIT_COMMIT").to_string(),
            rustc: env!("PERFT_RUSTC_VERSION").to_string(),
            build_profile: env!("PERFT_BUILD_PROFILE").to_string(),
            slider_backend: crate::attacks::SLIDER_BACKEND.to_string(),
        }
    }
}

/// The machine a report was measured on.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MachineInfo {
    /// CPU model name, as the operating system reports it.
    pub cpu: String,
    /// Hardware threads available to this process.
    pub cores: usize,
    /// Operating system and architecture, with the kernel release if known.
    pub os: String,
    /// Instruction-set extensions relevant to move generation detected at
    /// run time (`bmi2`, `popcnt`, `avx2`, ...).
    pub cpu_features: Vec<String>,
    /// Target features the binary was compiled to use.
    pub compiled_features: Vec<String>,
}

impl MachineInfo {
    /// Reads the facts of the current machine.
    pub fn detect() -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find(|line| line.starts_with("model name") || line.starts_with("Model"))
                    .and_then(|line| line.split_once(':'))
                    .map(|(_, name)| name.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".to_string());
        let kernel = std::fs::read_to_string("/proc/sys/kernel/osrelease").ok();
        let os = match kernel {
            Some(release) => {
                format!("{} {} ({})", std::env::consts::OS, release.trim(), std::env::consts::ARCH)
            }
            None => format!("{} ({})", std::env::consts::OS, std::env::consts::ARCH),
        };
        let compiled_features = env!("PERFT_TARGET_FEATURES")
            .split(',')
            .filter(|f| ["bmi1", "bmi2", "popcnt", "avx2", "avx512f", "lzcnt", "neon"].contains(f))
            .map(str::to_string)
            .collect();
        MachineInfo {
            cpu,
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os,
            cpu_features: detect_cpu_features(),
            compiled_features,
        }
    }

    /// Whether two reports come from comparable machines: same CPU model,
    /// core count and operating system family.
    pub fn comparable(&self, other: &MachineInfo) -> bool {
        self.cpu == other.cpu
            && self.cores == other.cores
            && self.os.split(' ').next() == other.os.split(' ').next()
    }
}

#[cfg(target_arch = "x86_64")]
fn detect_cpu_features() -> Vec<String> {
    let mut features = Vec::new();
    macro_rules! probe {
        ($($name:tt),*) => {$(
            if std::arch::is_x86_feature_detected!($name) {
                features.push($name.to_string());
            }
        )*};
    }
    probe!("popcnt", "bmi1", "bmi2", "lzcnt", "avx2", "avx512f");
    features
}

#[cfg(not(target_arch = "x86_64"))]
fn detect_cpu_features() -> Vec<String> {
    Vec::new()
}

/// The current UTC time, RFC 3339 with seconds.
pub fn timestamp() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

/// `results/<kind>-<UTC timestamp>.json`: where reports go when no path is
/// given.
pub fn default_report_path(results_dir: &Path, kind: &str) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    results_dir.join(format!("{kind}-{stamp}.json"))
}

/// Where a write to `path` lands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Destination {
    /// A regular file or a new path (symbolic links followed): written
    /// beside it, then renamed over it.
    Replace(PathBuf),
    /// Something that exists and is not a regular file (a device such as
    /// `/dev/null`, a FIFO, a terminal): written in place.
    InPlace,
    /// A regular file reached through a descriptor link (`/dev/stdout`,
    /// `/proc/self/fd/N`): appended to, as a shell's `>>` would, since
    /// replacing it would detach it from whoever holds it open.
    Append,
}

/// At most this many symbolic links are followed, as Linux does.
const MAX_SYMLINKS: usize = 40;

/// Links into these lead to open file descriptors, not to files.
fn is_descriptor_link(path: &Path) -> bool {
    path.starts_with("/proc") || path.starts_with("/dev/fd") || path.starts_with("/dev/std")
}

fn destination(path: &Path) -> std::io::Result<Destination> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => {
            return Err(std::io::Error::other(format!("{} is a directory", path.display())));
        }
        Ok(metadata) if !metadata.is_file() => return Ok(Destination::InPlace),
        _ => {}
    }
    // A regular file or nothing yet: find the file the links lead to (a
    // dangling link's target is created).
    let mut resolved = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        if is_descriptor_link(&resolved) {
            return Ok(Destination::Append);
        }
        match std::fs::symlink_metadata(&resolved) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&resolved)?;
                resolved = match resolved.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(Destination::Replace(resolved)),
        }
    }
    Err(std::io::Error::other(format!("{}: too many levels of symbolic links", path.display())))
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` so that a reader (or a crash) never sees a
/// half-written report: a regular file is written as a temporary file in
/// the same directory (with the old file's permissions), flushed to disk,
/// then renamed over it; missing parent directories are created. A
/// symbolic link is followed and its target replaced. Anything else that
/// exists (a character device such as `/dev/null`, a FIFO) is written in
/// place, never replaced; a regular file behind a descriptor link
/// (`/dev/stdout`, `/proc/self/fd/N`) is appended to.
///
/// # Errors
/// Any I/O error; the temporary file is removed on failure.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace => {
            let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
            return file.write_all(bytes).and_then(|()| file.flush());
        }
        Destination::Append => {
            let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
            return file.write_all(bytes).and_then(|()| file.flush());
        }
        Destination::Replace(target) => target,
    };
    let dir = parent_dir(&target);
    std::fs::create_dir_all(&dir)?;
    let name = target.file_name().map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        if let Ok(old) = std::fs::metadata(&target) {
            file.set_permissions(old.permissions())?;
        }
        file.sync_all()?;
        std::fs::rename(&temp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Writes `value` as pretty JSON to `path` atomically (see
/// [`write_atomic`]).
///
/// # Errors
/// Any I/O or serialisation error.
pub fn write_json_atomic(path: &Path, value: &impl Serialize) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Checks, before a long run, that a report can be written to `path`: for
/// a file to be replaced, that its directory exists or can be created and
/// a file can be created in it; for a device, FIFO or descriptor link,
/// that this program may write it (nothing is opened: opening a FIFO would
/// wait for a reader).
///
/// # Errors
/// The I/O error that writing would meet.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace | Destination::Append => return may_write(path),
        Destination::Replace(target) => target,
    };
    let dir = parent_dir(&target);
    std::fs::create_dir_all(&dir)?;
    let probe = dir.join(format!(".perft-write-test.{}", std::process::id()));
    std::fs::File::create(&probe)?;
    std::fs::remove_file(&probe)
}

/// Whether this process may write `path` (`access(W_OK)`), without opening
/// it.
fn may_write(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::other("a NUL byte in the path"))?;
        // SAFETY: `access` reads the NUL-terminated path we own and touches
        // no other memory.
        if unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::metadata(path).map(drop)
}

/// One root move's count.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DivideEntry {
    /// The move in UCI notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Leaf nodes below it.
    pub nodes: u128,
}

/// How a hash table was used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HashInfo {
    /// Size asked for, in MiB.
    pub megabytes: u64,
    /// Entries the table holds.
    pub entries: u64,
    /// Fraction of entries in use at the end (sampled).
    pub fill: f64,
    /// Table look-ups.
    pub probes: u64,
    /// Look-ups that found the count.
    pub hits: u64,
    /// With `--verify-hash`: whether the run with the second key set gave
    /// the same counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<bool>,
}

impl HashInfo {
    /// How `table`, asked for with `megabytes`, was used so far.
    pub fn of(table: &crate::perft::PerftTable, megabytes: u64) -> Self {
        let (probes, hits) = table.probes_and_hits();
        HashInfo { megabytes, entries: table.entries(), fill: table.fill(), probes, hits, verified: None }
    }
}

/// What every report starts with: which kind it is, and which program
/// wrote it where and when.
///
/// Reports write it flattened into their top level, but read it in a pass
/// of its own ([`from_json`]): serde reads flattened structs through a
/// buffer that cannot hold integers past 2⁶⁴, and counts can be that large.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ReportHeader {
    /// `run`, `suite`, `bench`, `compare` or `check` (empty in reports
    /// written before reports had kinds).
    #[serde(default)]
    pub kind: String,
    /// The program.
    pub tool: ToolInfo,
    /// The machine.
    pub machine: MachineInfo,
    /// When the run finished (UTC).
    pub timestamp: String,
}

impl ReportHeader {
    /// The header of a `kind` report written now, by this program, here.
    pub fn now(kind: &str) -> Self {
        ReportHeader {
            kind: kind.to_string(),
            tool: ToolInfo::current(),
            machine: MachineInfo::detect(),
            timestamp: timestamp(),
        }
    }
}

/// A report type: a serde struct whose [`ReportHeader`] is flattened when
/// written and skipped when read (see [`from_json`]).
pub trait Report: Serialize + DeserializeOwned {
    /// The report's header.
    fn header_mut(&mut self) -> &mut ReportHeader;
}

macro_rules! impl_report {
    ($($report:ty),*) => {$(
        impl Report for $report {
            fn header_mut(&mut self) -> &mut ReportHeader {
                &mut self.header
            }
        }
    )*};
}
impl_report!(RunReport, SuiteReport, BenchReport, CompareReport, CheckReport);

/// The kind of the report in JSON text (`run`, `suite`, `bench`, `compare`,
/// `check`); for reports written before reports had kinds, inferred from
/// their fields (`bench` or `suite`), else empty.
///
/// # Errors
/// If the text is not a JSON object.
pub fn report_kind(text: &str) -> serde_json::Result<String> {
    use serde::de::IgnoredAny;
    #[derive(Deserialize)]
    struct Probe {
        #[serde(default)]
        kind: String,
        positions: Option<IgnoredAny>,
        total: Option<IgnoredAny>,
        results: Option<IgnoredAny>,
        summary: Option<IgnoredAny>,
    }
    let probe: Probe = serde_json::from_str(text)?;
    Ok(match probe.kind.as_str() {
        "" if probe.positions.is_some() && probe.total.is_some() => "bench".into(),
        "" if probe.results.is_some() && probe.summary.is_some() => "suite".into(),
        _ => probe.kind,
    })
}

/// Reads a report from JSON text, counts of any size exactly.
///
/// # Errors
/// If the text is not JSON or not a report of this type.
pub fn from_json<R: Report>(text: &str) -> serde_json::Result<R> {
    let mut report: R = serde_json::from_str(text)?;
    *report.header_mut() = serde_json::from_str(text)?;
    Ok(report)
}

/// Report of `perft run`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunReport {
    /// `kind` (always `"run"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// The position counted.
    pub fen: String,
    /// When moves were played first: the position they were played from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_fen: Option<String>,
    /// The moves played from `start_fen`, in UCI notation.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// Whether castling is written the Chess960 way.
    pub chess960: bool,
    /// Plies counted.
    pub depth: u32,
    /// `bulk` (last ply counted, not made) or `full` (every leaf made).
    pub mode: String,
    /// Worker threads.
    pub threads: usize,
    /// Leaf nodes.
    pub nodes: u128,
    /// Wall time of the count.
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
    /// Count per root move, in generation order.
    pub divide: Vec<DivideEntry>,
    /// The hash table, when one was used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<HashInfo>,
    /// With `--stats`: the extended statistics of each depth (the divide is
    /// then empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stats: Vec<crate::perft::DepthStats>,
    /// A signal stopped the run: `nodes` and `divide` hold only the root
    /// moves that finished.
    #[serde(default)]
    pub interrupted: bool,
}

/// One check of a suite: a position at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteResult {
    /// The suite file.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The record's name, if the file gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The position as written in the file.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// The count the file expects.
    pub expected: u128,
    /// The count found.
    pub nodes: u128,
    /// Whether they agree.
    pub ok: bool,
    /// Wall time of this check (approximate when checks run in parallel).
    pub seconds: f64,
    /// Our count per root move, for failed checks only (recounted, with
    /// the second key set when hashing).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub divide: Vec<DivideEntry>,
    /// The recount's total, only when it differs from `nodes`: a hash
    /// collision corrupted one of the two counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub recount: Option<u128>,
}

/// A line (or file) of a suite that could not be used.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteError {
    /// The suite file.
    pub file: String,
    /// 1-based line, or 0 for the file as a whole.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Totals of a suite run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SuiteSummary {
    /// Positions read and accepted.
    pub positions: usize,
    /// Checks (position and depth) run.
    pub checks: usize,
    /// Checks whose count matched.
    pub passed: usize,
    /// Checks whose count did not match.
    pub failed: usize,
    /// Unusable lines and files.
    pub errors: usize,
    /// Checks not run: over `--max-depth` or `--max-nodes`, or left after
    /// `--fail-fast` stopped the run.
    pub skipped: usize,
    /// Leaf nodes counted in all checks run.
    pub nodes: u128,
    /// Wall time of the whole run.
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
}

/// The settings a suite ran with.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuiteSettings {
    /// Depths above this were skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// Checks expecting more nodes than this were skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_nodes: Option<u128>,
    /// Impossible-but-playable positions accepted.
    pub relaxed: bool,
    /// Chess960 castling forced for every position.
    pub chess960: bool,
    /// The run stopped at the first mismatch.
    pub fail_fast: bool,
    /// Chess960 positions were skipped.
    #[serde(default)]
    pub skip_chess960: bool,
}

/// Report of `perft suite`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteReport {
    /// `kind` (always `"suite"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// Worker threads.
    pub threads: usize,
    /// `bulk` or `full`.
    pub mode: String,
    /// Options of the run.
    pub settings: SuiteSettings,
    /// Every check run, in file and line order.
    pub results: Vec<SuiteResult>,
    /// Unusable lines and files.
    pub errors: Vec<SuiteError>,
    /// Totals.
    pub summary: SuiteSummary,
    /// The hash table, when one was used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<HashInfo>,
    /// Ctrl-C stopped the run; checks not finished are counted as skipped.
    #[serde(default)]
    pub interrupted: bool,
}

/// Minimum, median and maximum of repeated measurements, in seconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Fastest run.
    pub min: f64,
    /// Median run.
    pub median: f64,
    /// Slowest run.
    pub max: f64,
}

/// One position of a benchmark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchEntry {
    /// The position's name in the bench set.
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// Leaf nodes counted.
    pub nodes: u128,
    /// The count the bench set expects.
    pub expected: u128,
    /// Whether they agree.
    pub ok: bool,
    /// Run times.
    pub seconds: Stats,
    /// Every run's time, in order.
    pub samples: Vec<f64>,
    /// `nodes / seconds.median`.
    pub nodes_per_second: f64,
}

/// Totals of a benchmark.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BenchTotal {
    /// Leaf nodes of one round.
    pub nodes: u128,
    /// Sums of the per-position minimum, median and maximum times.
    pub seconds: Stats,
    /// `nodes / seconds.median`.
    pub nodes_per_second: f64,
}

/// Report of `perft bench`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchReport {
    /// `kind` (always `"bench"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// The bench set file.
    pub bench_set: String,
    /// Its version (from its header).
    pub bench_set_version: String,
    /// Worker threads.
    pub threads: usize,
    /// `bulk` or `full`.
    pub mode: String,
    /// Timed rounds.
    pub repeat: usize,
    /// What ran before timing.
    pub warmup: String,
    /// Per position.
    pub positions: Vec<BenchEntry>,
    /// Totals.
    pub total: BenchTotal,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}

/// One engine of a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareEngine {
    /// Its name.
    pub name: String,
    /// How it was run.
    pub spec: String,
    /// Median time of a depth-1 count of the start position: start-up and
    /// protocol overhead, subtracted from every timing of this engine.
    pub startup_seconds: f64,
    /// Failures, with what the engine printed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// One engine on one position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareResult {
    /// The engine.
    pub engine: String,
    /// The position's name.
    pub position: String,
    /// The count the engine reported (the last one if rounds disagreed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u128>,
    /// Whether every count it reported agrees with the expected count.
    pub agrees: bool,
    /// Run times with the start-up time subtracted.
    pub samples: Vec<f64>,
    /// Their statistics.
    pub seconds: Stats,
    /// `nodes / seconds.median`, when the count agrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes_per_second: Option<f64>,
    /// This engine's speed divided by ours, when both counts agree.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratio_to_ours: Option<f64>,
    /// Why it has no timing or disagrees.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

/// One engine's totals in a comparison.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineSummary {
    /// The engine.
    pub engine: String,
    /// Positions where it was timed and its count agreed.
    pub positions: usize,
    /// Their nodes.
    pub nodes: u128,
    /// Their median seconds, summed.
    pub seconds: f64,
    /// `nodes / seconds`.
    pub nodes_per_second: f64,
    /// Geometric mean over those positions of its speed divided by ours
    /// (above 1: faster than ours).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub geomean_ratio_to_ours: Option<f64>,
}

/// A position of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComparePosition {
    /// Its name.
    pub id: String,
    /// Its FEN.
    pub fen: String,
    /// Depth counted.
    pub depth: u32,
    /// The count every engine should report.
    pub expected: u128,
}

/// Report of `perft compare`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// `kind` (always `"compare"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// Threads given to our engine and to UCI engines (`Threads` option).
    pub threads: usize,
    /// Rounds; engines run interleaved within each round.
    pub rounds: usize,
    /// Per-call time limit.
    pub timeout_seconds: f64,
    /// How timing was done.
    pub method: String,
    /// The positions.
    pub positions: Vec<ComparePosition>,
    /// The engines, ours first.
    pub engines: Vec<CompareEngine>,
    /// One entry per engine and position.
    pub results: Vec<CompareResult>,
    /// Per engine: totals and the geometric mean of its ratios to ours.
    #[serde(default)]
    pub summary: Vec<EngineSummary>,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}

/// The engine a `check` ran against.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckedEngine {
    /// Its name.
    pub name: String,
    /// How it was run.
    pub spec: String,
}

/// One check of another engine: a position at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The suite file.
    pub file: String,
    /// 1-based line of the position.
    pub line: usize,
    /// The record's name, if the file gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// The position as written in the file.
    pub fen: String,
    /// Plies counted.
    pub depth: u32,
    /// The reference count: the file's, or ours where the file has none.
    pub expected: u128,
    /// Where `expected` comes from: `file` or `perft`.
    pub expected_from: crate::check::ExpectedFrom,
    /// The engine's count, if it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine_nodes: Option<u128>,
    /// Whether the engine's count matches.
    pub ok: bool,
    /// Wall time of the engine's count.
    pub seconds: f64,
    /// Why the engine gave no count (crash, hang, unreadable output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Where a wrong count comes from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection: Option<crate::bisect::Bisection>,
    /// Why the bisection could not finish, if it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisection_error: Option<String>,
    /// For a wrong count not bisected because the same position's count
    /// at another depth was: that depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bisected_at: Option<u32>,
    /// A command that reproduces the fault in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reproduce: Option<String>,
}

/// Totals of a `check` run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CheckSummary {
    /// Positions read and accepted.
    pub positions: usize,
    /// Checks the engine was asked.
    pub checks: usize,
    /// Checks it got right.
    pub passed: usize,
    /// Checks it got wrong.
    pub failed: usize,
    /// Checks it failed to answer, and unusable lines and files.
    pub errors: usize,
    /// Checks not run (limits, or after `--fail-fast` stopped the run).
    pub skipped: usize,
    /// Failed checks per tag of the faulty position.
    pub failures_by_tag: std::collections::BTreeMap<String, usize>,
    /// Wall time of the whole run.
    pub seconds: f64,
}

/// Report of `perft check`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckReport {
    /// `kind` (always `"check"`), `tool`, `machine`, `timestamp`.
    #[serde(flatten, skip_deserializing)]
    pub header: ReportHeader,
    /// The engine checked.
    pub engine: CheckedEngine,
    /// Options of the run.
    pub settings: SuiteSettings,
    /// Every check, in file and line order.
    pub results: Vec<CheckResult>,
    /// Unusable lines and files.
    pub errors: Vec<SuiteError>,
    /// Totals.
    pub summary: CheckSummary,
    /// Ctrl-C stopped the run; only what finished is reported.
    #[serde(default)]
    pub interrupted: bool,
}

/// Memory available to new allocations, in MiB (`MemAvailable` on Linux),
/// if the system says.
pub fn available_memory_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
