//! The report of `perft run`.

use serde::{Deserialize, Serialize};

use crate::counting::Mode;

use super::ReportHeader;

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
    /// Size of the table made, in MiB: the size asked for (reports written
    /// before tables had any number of buckets may hold less, the size
    /// rounded down to a power of two buckets; absent in older ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table_megabytes: Option<u64>,
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
    /// With `--hash auto`: why this size (`auto: cgroup limit 8 GB, 7.5 GB
    /// free`, `auto: enough for depth 9`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto: Option<String>,
    /// Seconds spent allocating and zeroing the table before counting (not
    /// part of the run's `seconds`).
    #[serde(default)]
    pub table_setup_s: f64,
}

impl HashInfo {
    /// How `table`, made as `size` says, was used so far.
    pub fn of(table: &crate::counting::PerftTable, size: &crate::memory::TableSize) -> Self {
        let (probes, hits) = table.probes_and_hits();
        HashInfo {
            megabytes: size.megabytes,
            table_megabytes: Some(table.bytes() >> 20),
            entries: table.entries(),
            fill: table.fill(),
            probes,
            hits,
            verified: None,
            auto: size.auto.clone(),
            table_setup_s: table.setup_seconds(),
        }
    }

    /// The fraction of probes that hit (0 without probes).
    pub fn hit_rate(&self) -> f64 {
        if self.probes > 0 {
            self.hits as f64 / self.probes as f64
        } else {
            0.0
        }
    }
}

/// `hash 256 MB: 40% full, 53.3% of 22100000 probes hit, set up in 0.1 s`,
/// and `, verified with a second key set` when it was; a table smaller than
/// asked for (in older reports) is written `hash 8192 MB (10000 asked)`, an
/// automatic size `hash 6144 MB (auto: cgroup limit 8 GB, 7.5 GB free)`.
impl std::fmt::Display for HashInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.table_megabytes, &self.auto) {
            (_, Some(why)) => write!(f, "hash {} MB ({why})", self.megabytes)?,
            (Some(made), None) if made != self.megabytes => {
                write!(f, "hash {made} MB ({} asked)", self.megabytes)?
            }
            _ => write!(f, "hash {} MB", self.megabytes)?,
        }
        write!(
            f,
            ": {:.0}% full, {:.1}% of {} probes hit, set up in {:.1} s",
            self.fill * 100.0,
            self.hit_rate() * 100.0,
            self.probes,
            self.table_setup_s
        )?;
        if self.verified == Some(true) {
            write!(f, ", verified with a second key set")?;
        }
        Ok(())
    }
}

/// How a run counted: one of the counting modes, or extended statistics
/// (`--stats`, every node made). Written `"bulk"`, `"full"` or `"stats"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RunMode {
    /// The last ply counted by set sizes.
    Bulk,
    /// Every leaf made and unmade.
    Full,
    /// Extended statistics.
    Stats,
}

impl From<Mode> for RunMode {
    fn from(mode: Mode) -> Self {
        match mode {
            Mode::Bulk => RunMode::Bulk,
            Mode::Full => RunMode::Full,
        }
    }
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
    /// How the nodes were counted.
    pub mode: RunMode,
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
    pub stats: Vec<crate::counting::DepthStats>,
    /// A signal stopped the run: `nodes` and `divide` hold only the root
    /// moves that finished.
    #[serde(default)]
    pub interrupted: bool,
    /// How the count progressed, for counts followed subtree by subtree
    /// (deep or journaled ones).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<RunProgress>,
}

/// How a long count progressed: its subtrees, and what the ETA said on the
/// way, to judge it by.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunProgress {
    /// Subtrees the count was cut into.
    pub subtrees: usize,
    /// Of them, taken from a journal.
    pub resumed: usize,
    /// What the ETA said at 10, 25, 50, 75 and 90% of the work.
    pub estimates: Vec<EtaEstimate>,
    /// The last progress seen (at the end, or at the stop).
    pub last: crate::counting::progress::Snapshot,
}

/// An ETA as it was shown.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EtaEstimate {
    /// Percent of the work done (by weight) when it was taken.
    pub percent: u32,
    /// Seconds since the start then.
    pub elapsed_seconds: f64,
    /// Seconds left it said.
    pub eta_seconds: f64,
}
