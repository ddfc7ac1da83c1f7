//! Reports: what a run measured, with the facts needed to compare two runs
//! honestly (tool version and commit, machine), as serde types written to
//! JSON atomically.
//!
//! One file per concern: [`machine`] (program, machine, time, free memory),
//! [`write`](mod@write) (atomic writes), one per report kind ([`run`], [`suite`],
//! [`bench`](mod@bench), [`compare`], [`check`]), and [`diff`] (verdicts between two
//! reports). This file holds what all reports share: the header and the
//! reader.

pub mod bench;
pub mod check;
pub mod ci;
pub mod compare;
pub mod diff;
pub mod machine;
pub mod read;
pub mod run;
pub mod suite;
pub mod write;

pub use bench::*;
pub use check::*;
pub use compare::*;
pub use machine::*;
pub use run::*;
pub use suite::*;
pub use write::*;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

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
    /// The header of a report of type `R` written now, by this program,
    /// here.
    pub fn of<R: Report>() -> Self {
        Self::now(R::KIND)
    }

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
    /// The `kind` its header carries: `run`, `suite`, `bench`, `compare`
    /// or `check`.
    const KIND: &'static str;
    /// The report's header.
    fn header_mut(&mut self) -> &mut ReportHeader;
}

macro_rules! impl_report {
    ($($report:ty => $kind:literal),*) => {$(
        impl Report for $report {
            const KIND: &'static str = $kind;
            fn header_mut(&mut self) -> &mut ReportHeader {
                &mut self.header
            }
        }
    )*};
}
impl_report!(RunReport => "run", SuiteReport => "suite", BenchReport => "bench", CompareReport => "compare", CheckReport => "check");

/// `count - reference` with its sign (`+5`, `-6007`, `+0`), exact for any
/// two counts.
pub fn signed_difference(count: u128, reference: u128) -> String {
    if count >= reference {
        format!("+{}", count - reference)
    } else {
        format!("-{}", reference - count)
    }
}

/// `nodes / seconds`, or 0 when no time was measured.
pub fn nodes_per_second(nodes: u128, seconds: f64) -> f64 {
    if seconds > 0.0 {
        nodes as f64 / seconds
    } else {
        0.0
    }
}

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

/// A report of any kind, as read from a file.
///
/// Not a serde-tagged enum on purpose: serde reads tagged enums, like
/// flattened structs, through a buffer that cannot hold integers past
/// 2⁶⁴. [`AnyReport::from_json`] reads the kind first and then the report.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)]
pub enum AnyReport {
    /// `perft run`.
    Run(RunReport),
    /// `perft suite`.
    Suite(SuiteReport),
    /// `perft bench`.
    Bench(BenchReport),
    /// `perft compare`.
    Compare(CompareReport),
    /// `perft check`.
    Check(CheckReport),
}

/// Why JSON text is not a report this program reads.
#[derive(Debug, thiserror::Error)]
pub enum ReadReportError {
    /// Not a JSON object.
    #[error("not JSON: {0}")]
    NotJson(serde_json::Error),
    /// No `kind`, and not shaped like an old bench or suite report; or a
    /// kind this program does not know (the string, empty if none).
    #[error("{}", if .0.is_empty() { "not a report perft knows".to_string() } else { format!("a {:?} report, a kind perft does not know", .0) })]
    UnknownKind(String),
    /// The kind is known but the fields do not fit it.
    #[error("not a valid {kind} report: {source}")]
    Malformed {
        /// The kind the text claims.
        kind: &'static str,
        /// What did not fit.
        source: serde_json::Error,
    },
}

/// The largest report file read: far past any report this program writes
/// (a compare report of thousands of samples is a few megabytes).
pub const MAX_REPORT_FILE_BYTES: u64 = 256 << 20;

/// Why a report file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadReportFileError {
    /// The file could not be read: missing, not a regular file (a FIFO is
    /// refused, never waited on), or past [`MAX_REPORT_FILE_BYTES`].
    #[error("cannot read it: {0}")]
    Io(std::io::Error),
    /// Not UTF-8 text.
    #[error("not text (UTF-8)")]
    NotText,
    /// Not a report.
    #[error(transparent)]
    Report(#[from] ReadReportError),
}

impl AnyReport {
    /// Reads the report file at `path` through the guarded reader (see
    /// [`read::read_existing`]): regular files only, opened without
    /// blocking, at most [`MAX_REPORT_FILE_BYTES`].
    ///
    /// # Errors
    /// [`ReadReportFileError`].
    pub fn read_file(path: &std::path::Path) -> Result<Self, ReadReportFileError> {
        let bytes = read::read_existing(path, MAX_REPORT_FILE_BYTES).map_err(ReadReportFileError::Io)?;
        let text = String::from_utf8(bytes).map_err(|_| ReadReportFileError::NotText)?;
        Ok(AnyReport::from_json(&text)?)
    }

    /// Reads a report of whatever kind `text` holds (see [`report_kind`]),
    /// counts of any size exactly.
    ///
    /// # Errors
    /// [`ReadReportError`] if `text` is not JSON, of no known kind, or not
    /// a valid report of its kind.
    pub fn from_json(text: &str) -> Result<Self, ReadReportError> {
        fn read<R: Report>(text: &str) -> Result<R, ReadReportError> {
            from_json(text).map_err(|source| ReadReportError::Malformed { kind: R::KIND, source })
        }
        let kind = report_kind(text).map_err(ReadReportError::NotJson)?;
        Ok(match kind.as_str() {
            RunReport::KIND => AnyReport::Run(read(text)?),
            SuiteReport::KIND => AnyReport::Suite(read(text)?),
            BenchReport::KIND => AnyReport::Bench(read(text)?),
            CompareReport::KIND => AnyReport::Compare(read(text)?),
            CheckReport::KIND => AnyReport::Check(read(text)?),
            _ => return Err(ReadReportError::UnknownKind(kind)),
        })
    }

    /// `run`, `suite`, `bench`, `compare` or `check`.
    pub fn kind(&self) -> &'static str {
        match self {
            AnyReport::Run(_) => RunReport::KIND,
            AnyReport::Suite(_) => SuiteReport::KIND,
            AnyReport::Bench(_) => BenchReport::KIND,
            AnyReport::Compare(_) => CompareReport::KIND,
            AnyReport::Check(_) => CheckReport::KIND,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_and_hash_lines() {
        assert_eq!(nodes_per_second(300, 1.5), 200.0);
        assert_eq!(nodes_per_second(300, 0.0), 0.0);
        let mut hash = HashInfo {
            megabytes: 16,
            table_megabytes: None,
            entries: 1 << 20,
            fill: 0.25,
            probes: 8,
            hits: 2,
            verified: None,
            auto: None,
            table_setup_s: 0.25,
        };
        assert_eq!(hash.hit_rate(), 0.25);
        assert_eq!(hash.to_string(), "hash 16 MB: 25% full, 25.0% of 8 probes hit, set up in 0.2 s");
        hash.verified = Some(true);
        assert!(hash.to_string().ends_with("set up in 0.2 s, verified with a second key set"));
        assert_eq!(HashInfo { probes: 0, hits: 0, ..hash.clone() }.hit_rate(), 0.0);
        hash.auto = Some("auto: enough for depth 9".into());
        assert!(hash.to_string().starts_with("hash 16 MB (auto: enough for depth 9): 25% full"), "{hash}");
        // A table is the size asked for: whole buckets, no power of two.
        let table = crate::counting::PerftTable::new(3, crate::counting::KeySet::Primary).unwrap();
        let made = HashInfo::of(&table, &crate::memory::TableSize { megabytes: 3, auto: None });
        assert_eq!(made.table_megabytes, Some(3));
        assert_eq!(table.bytes(), 3 << 20);
        assert!(made.table_setup_s >= 0.0);
        assert!(made.to_string().starts_with("hash 3 MB: "), "{made}");
    }

    /// A run report with a count past 2^64.
    pub(super) fn sample_run() -> RunReport {
        RunReport {
            header: ReportHeader::of::<RunReport>(),
            fen: crate::board::STARTPOS_FEN.to_string(),
            start_fen: None,
            moves: Vec::new(),
            chess960: false,
            depth: 15,
            mode: RunMode::Bulk,
            threads: 1,
            nodes: 2_015_099_950_053_364_471_960,
            seconds: 1.0,
            nodes_per_second: 1.0,
            divide: Vec::new(),
            hash: None,
            stats: Vec::new(),
            interrupted: false,
            progress: None,
        }
    }

    #[test]
    fn any_report_reads_each_kind_and_refuses_the_rest() {
        let mut run = sample_run();
        let text = serde_json::to_string(&run).unwrap();
        let read = AnyReport::from_json(&text).unwrap();
        assert_eq!(read.kind(), "run");
        assert_eq!(read, AnyReport::Run(run.clone()), "counts past 2^64 survive");
        run.header.kind = "bench".into();
        let text = serde_json::to_string(&run).unwrap();
        assert!(matches!(AnyReport::from_json(&text), Err(ReadReportError::Malformed { kind: "bench", .. })));
        assert!(matches!(AnyReport::from_json("[1]"), Err(ReadReportError::NotJson(_))));
        let unknown = AnyReport::from_json(r#"{"kind": "weather"}"#).unwrap_err();
        assert_eq!(unknown.to_string(), r#"a "weather" report, a kind perft does not know"#);
        assert!(matches!(AnyReport::from_json("{}"), Err(ReadReportError::UnknownKind(k)) if k.is_empty()));
    }

    #[test]
    fn modes_are_written_by_name_and_unknown_modes_refused() {
        let mut run = sample_run();
        for (mode, name) in [(RunMode::Bulk, "bulk"), (RunMode::Full, "full"), (RunMode::Stats, "stats")] {
            run.mode = mode;
            let text = serde_json::to_string(&run).unwrap();
            assert!(text.contains(&format!(r#""mode":"{name}""#)), "{text}");
            assert_eq!(from_json::<RunReport>(&text).unwrap().mode, mode);
        }
        assert_eq!(RunMode::from(crate::counting::Mode::Full), RunMode::Full);
        let text = serde_json::to_string(&run).unwrap().replace(r#""mode":"stats""#, r#""mode":"turbo""#);
        let error = AnyReport::from_json(&text).unwrap_err().to_string();
        assert!(error.contains("turbo"), "{error}");
    }
}
