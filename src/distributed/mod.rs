//! Perft beyond one machine: a count cut into work units of unique
//! positions, each unit counted anywhere (a Slurm array task, a Kubernetes
//! Indexed Job pod, an AWS Batch array child), the results merged exactly.
//!
//! - [`plan::split`] enumerates the positions `ply` plies below a root,
//!   merges transpositions by exact position (placement, side to move,
//!   castling rights, and the en-passant square only where a capture is
//!   legal), keeps each position's multiplicity per root move, sorts them and
//!   writes a plan directory: `manifest.json` and `units/unit-NNNNNN.txt`.
//! - [`unit::run_unit`] counts every position of one unit at `depth - ply`
//!   with one shared hash table, journals each finished position, and writes
//!   `results/unit-NNNNNN.kK.json` atomically.
//! - [`merge::merge`] checks every result against the plan and sums
//!   `multiplicity × count` in `u128`, per root move too.
//! - [`status::plan_status`] says, without writing anything, which units are
//!   done, running (a heartbeat file each unit keeps fresh) or missing.
//!
//! Positions that end the game (mate, stalemate) before `ply` have no
//! positions below them at `ply`: they contribute nothing to any deeper
//! count and are not in the plan, which keeps the sum of multiplicities equal
//! to perft(`ply`).

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::counting::KeySet;

pub mod heartbeat;
pub mod journal;
pub mod merge;
pub mod packed;
pub mod plan;
pub mod status;
pub mod unit;

/// The plan format version written into manifests, unit files and results.
pub const FORMAT: u32 = 1;
/// The manifest's file name inside a plan directory.
pub const MANIFEST: &str = "manifest.json";
/// The directory of unit files inside a plan.
pub const UNITS_DIR: &str = "units";
/// The directory of results and journals inside a plan.
pub const RESULTS_DIR: &str = "results";
/// The largest plan file (manifest, unit, result, journal) read: a unit of
/// a million positions is about 100 MB.
pub const MAX_PLAN_FILE_BYTES: u64 = 4 << 30;
/// Environment variables that carry a unit index, in the order they are
/// read: Slurm job arrays, Kubernetes Indexed Jobs, AWS Batch array jobs.
pub const INDEX_VARIABLES: [&str; 3] =
    ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];

/// The environment variable with an offset added to the unit index (when
/// `perft unit` has no `--index-offset`): `submit.sh` sets it for each
/// Slurm array of a plan cut into several arrays.
pub const OFFSET_VARIABLE: &str = "PERFT_INDEX_OFFSET";

/// A unit's number in its plan, from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnitIndex(pub u32);

impl UnitIndex {
    /// `unit-000017`: the stem of the unit's file and of its results.
    pub fn stem(self) -> String {
        format!("unit-{:06}", self.0)
    }

    /// The unit file, relative to the plan directory.
    pub fn unit_file(self) -> PathBuf {
        Path::new(UNITS_DIR).join(format!("{}.txt", self.stem()))
    }

    /// The result file for key set `keys`, relative to the plan directory.
    pub fn result_file(self, keys: Keys) -> PathBuf {
        Path::new(RESULTS_DIR).join(format!("{}.k{}.json", self.stem(), keys.number()))
    }

    /// The journal for key set `keys`, relative to the plan directory.
    pub fn journal_file(self, keys: Keys) -> PathBuf {
        Path::new(RESULTS_DIR).join(format!("{}.k{}.journal", self.stem(), keys.number()))
    }

    /// The lock file that gives the unit under `keys` one owner at a time,
    /// relative to the plan directory.
    pub fn lock_file(self, keys: Keys) -> PathBuf {
        Path::new(RESULTS_DIR).join(format!("{}.k{}.lock", self.stem(), keys.number()))
    }
}

impl fmt::Display for UnitIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Which Zobrist key set indexes a unit's hash table: 1 (the primary keys)
/// or 2 (the independent second set). Two runs of a unit with different key
/// sets agree unless a hash collision corrupted one of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Keys(u8);

impl Keys {
    /// Key set 1.
    pub const PRIMARY: Keys = Keys(1);
    /// Key set 2.
    pub const SECONDARY: Keys = Keys(2);

    /// Key set `number` (1 or 2).
    ///
    /// # Errors
    /// [`DistError::BadKeys`] for any other number.
    pub fn new(number: u8) -> Result<Keys, DistError> {
        match number {
            1 | 2 => Ok(Keys(number)),
            _ => Err(DistError::BadKeys(number.to_string())),
        }
    }

    /// 1 or 2.
    pub fn number(self) -> u8 {
        self.0
    }

    /// The key set of the hash table.
    pub fn key_set(self) -> KeySet {
        if self.0 == 2 {
            KeySet::Secondary
        } else {
            KeySet::Primary
        }
    }
}

impl TryFrom<u8> for Keys {
    type Error = DistError;
    fn try_from(number: u8) -> Result<Keys, DistError> {
        Keys::new(number)
    }
}

impl From<Keys> for u8 {
    fn from(keys: Keys) -> u8 {
        keys.0
    }
}

impl fmt::Display for Keys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A node count or multiplicity, exact at any size; written in JSON as a
/// decimal string so that readers with 53-bit numbers (JavaScript, `jq`)
/// cannot round it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Count(pub u128);

impl Serialize for Count {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(serde::de::Error::custom(format!("{text:?} is not a count")));
        }
        text.parse().map(Count).map_err(|_| serde::de::Error::custom(format!("{text} is 2^128 or more")))
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A SHA-256 digest in lower-case hex. Read from JSON only as exactly 64
/// lower-case hex digits; anything else is an error.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(transparent)]
pub struct Checksum(pub String);

impl Checksum {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> Checksum {
        let digest = Sha256::digest(bytes);
        Checksum(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// Whether `text` is a digest as [`Checksum::of`] writes it: 64
    /// lower-case hex digits.
    pub fn is_valid(text: &str) -> bool {
        text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    }

    /// The first 12 characters, for messages (whole characters, whatever
    /// the string holds).
    pub fn short(&self) -> &str {
        let end = self.0.char_indices().nth(12).map_or(self.0.len(), |(at, _)| at);
        &self.0[..end]
    }
}

impl<'de> Deserialize<'de> for Checksum {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        if !Checksum::is_valid(&text) {
            return Err(serde::de::Error::custom(format!(
                "{text:?} is not a SHA-256 checksum (64 lower-case hex digits)"
            )));
        }
        Ok(Checksum(text))
    }
}

impl fmt::Display for Checksum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why splitting, counting a unit or merging failed.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    /// Reading or writing a file failed.
    #[error("{}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The split asked for cannot be made (depth, ply, units, ...).
    #[error("{0}")]
    BadSplit(String),
    /// Another process counts this unit now (it holds the unit's lock).
    #[error("unit {index} (keys {keys}) is being counted by another process ({holder}); not started")]
    Busy {
        /// The unit.
        index: UnitIndex,
        /// The key set.
        keys: Keys,
        /// Who holds the lock, as its lock file says.
        holder: String,
    },
    /// The plan directory already holds files.
    #[error("{} is not empty; choose a new directory, or give --force to replace the plan there", .0.display())]
    PlanExists(PathBuf),
    /// The split would need more positions in memory than allowed.
    #[error(
        "ply {ply} has {what} unique positions, more than the limit of {limit} that fits the memory this process may use \
         (about {bytes_per_position} bytes each while splitting); split at ply {} and use more units, or raise \
         --max-positions on a machine with more memory",
        ply - 1
    )]
    TooManyPositions {
        /// The ply being enumerated.
        ply: u32,
        /// How many there are or are expected (`about N` for an estimate).
        what: String,
        /// The limit.
        limit: u64,
        /// Memory per position assumed for the limit.
        bytes_per_position: u64,
    },
    /// The sum of multiplicities is not perft(ply): a bug, never expected.
    #[error(
        "the multiplicities at ply {ply} sum to {sum}, but perft({ply}) of the root is {perft}; refusing to \
         write a plan that cannot add up"
    )]
    SumMismatch {
        /// The split ply.
        ply: u32,
        /// Sum of multiplicities.
        sum: u128,
        /// The independent count.
        perft: u128,
    },
    /// A multiplicity passed 2⁶⁴ while splitting.
    #[error("a multiplicity at ply {0} passed 2^64; split at a shallower ply")]
    MultiplicityOverflow(u32),
    /// The manifest or a unit file cannot be read as one.
    #[error("{}{}: {reason}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
    BadPlan {
        /// The file.
        path: PathBuf,
        /// 1-based line, for unit files.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// A unit file does not match the checksum the manifest gives it.
    #[error(
        "{}: checksum {} does not match the manifest's {} for unit {index}: the unit file changed after the \
         split; split again",
        path.display(), actual.short(), expected.short()
    )]
    UnitChecksum {
        /// The unit.
        index: UnitIndex,
        /// Its file.
        path: PathBuf,
        /// The manifest's checksum.
        expected: Checksum,
        /// The file's.
        actual: Checksum,
    },
    /// No unit index was given.
    #[error(
        "no unit index: give --index I, or run under a job array that sets SLURM_ARRAY_TASK_ID, \
         JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX"
    )]
    NoIndex,
    /// The unit index given is not a number.
    #[error("{source_name}={value:?} is not a unit index (a whole number from 0)")]
    BadIndex {
        /// `--index` or the environment variable.
        source_name: String,
        /// What it held.
        value: String,
    },
    /// The unit index is past the plan's units.
    #[error("unit {index} (from {source_name}) does not exist: the plan has {units} units, 0 to {}", units.saturating_sub(1))]
    IndexOutOfRange {
        /// The index asked for.
        index: u64,
        /// Where it came from.
        source_name: String,
        /// How many units the plan has.
        units: u32,
    },
    /// A key set other than 1 or 2.
    #[error("key set {0:?}: there are key sets 1 and 2")]
    BadKeys(String),
    /// The hash table could not be made.
    #[error("--hash")]
    Table(#[from] crate::counting::hash::TableError),
    /// The hash table asked for is larger than this process may use.
    #[error("{0}")]
    TableTooLarge(String),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The merged count passed 2^128: some results hold impossible counts.
    #[error(
        "the merged count passes 2^128{}: no perft count is that large, so some results hold impossible \
         counts; delete them and count those units again",
        .0.map(|unit| format!(" at unit {unit}")).unwrap_or_default()
    )]
    MergeOverflow(Option<UnitIndex>),
    /// A stop signal arrived during the split.
    #[error("interrupted; nothing was written")]
    Interrupted,
}

impl DistError {
    /// An I/O error on `path`.
    pub fn io(path: &Path) -> impl FnOnce(std::io::Error) -> DistError + '_ {
        move |source| DistError::Io { path: path.to_path_buf(), source }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_strings_of_any_size() {
        let big = Count(u128::MAX);
        let text = serde_json::to_string(&big).unwrap();
        assert_eq!(text, "\"340282366920938463463374607431768211455\"");
        assert_eq!(serde_json::from_str::<Count>(&text).unwrap(), big);
        for bad in ["\"-1\"", "\"1e5\"", "\"\"", "\"340282366920938463463374607431768211456\"", "12"] {
            assert!(serde_json::from_str::<Count>(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_and_key_sets() {
        assert_eq!(UnitIndex(17).unit_file(), Path::new("units/unit-000017.txt"));
        assert_eq!(UnitIndex(17).result_file(Keys::SECONDARY), Path::new("results/unit-000017.k2.json"));
        assert!(Keys::new(3).is_err() && Keys::new(0).is_err());
        assert_eq!(Keys::new(2).unwrap().key_set(), KeySet::Secondary);
        assert_eq!(serde_json::from_str::<Keys>("1").unwrap(), Keys::PRIMARY);
        assert!(serde_json::from_str::<Keys>("7").is_err());
        assert_eq!(
            Checksum::of(b"abc").0,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn checksums_are_read_only_as_64_hex_digits() {
        let good = Checksum::of(b"abc");
        let text = serde_json::to_string(&good).unwrap();
        assert_eq!(serde_json::from_str::<Checksum>(&text).unwrap(), good);
        let accented = format!("a{}", "\u{e9}".repeat(20));
        for bad in [
            accented.clone(),
            good.0.to_uppercase(),
            good.0[..63].to_string(),
            format!("{}0", good.0),
            format!("{}g", &good.0[..63]),
            String::new(),
        ] {
            let json = serde_json::to_string(&bad).unwrap();
            let error = serde_json::from_str::<Checksum>(&json).unwrap_err().to_string();
            assert!(error.contains("is not a SHA-256 checksum"), "{bad:?}: {error}");
        }
        // Built in code rather than read, short() still cuts on a character.
        assert_eq!(Checksum(accented).short(), format!("a{}", "\u{e9}".repeat(11)));
        assert_eq!(good.short(), "ba7816bf8f01");
    }
}
