//! Every file the tool writes, it reads back to the same value: unit
//! results (and their seals), run and unit journals, manifests, reports
//! (run, status) and heartbeats, over many values (times of hours included), written and read
//! through the same code the commands use.

use std::collections::BTreeMap;

use perft::board::Board;
use perft::counting::journal::{plan_tasks, Journal, JournalHeader};
use perft::counting::Mode;
use perft::distributed::heartbeat::Heartbeat;
use perft::distributed::journal::{JournalId, UnitJournal};
use perft::distributed::plan::{split, Plan, SplitRequest};
use perft::distributed::status::{MissingUnit, PlanStatus, RunningUnit, StatusCounts};
use perft::distributed::unit::UnitResult;
use perft::distributed::{Checksum, Count, Keys, UnitIndex, FORMAT};
use perft::report::{self, DivideEntry, ReportHeader, RunMode, RunReport, ToolInfo};
use proptest::prelude::*;

/// A time as a clock gives it (`Duration::as_secs_f64`, whose values of a
/// second or more the default float parser reads back one unit in the
/// last place off about 7% of the time) or as units write it (whole
/// nanoseconds over 1e9), from none to days.
fn seconds() -> impl Strategy<Value = f64> {
    let clock = |ns: u64| std::time::Duration::from_nanos(ns).as_secs_f64();
    prop_oneof![
        (0u64..1_000_000_000).prop_map(clock),
        (1_000_000_000u64..5_000_000_000).prop_map(clock),
        (0u64..400_000_000_000_000).prop_map(clock),
        (1_000_000_000u64..5_000_000_000).prop_map(|ns| ns as f64 / 1e9),
    ]
}

/// Any float a report may hold: speeds, fractions, times.
fn any_float() -> impl Strategy<Value = f64> {
    prop_oneof![0.0..1.0f64, 1.0..5.0f64, 0.0..1e7f64, 1e7..1e15f64]
}

fn unit_result(counts: Vec<u128>, seconds: f64, table_setup_s: f64) -> UnitResult {
    let total = counts.iter().sum();
    let mut result = UnitResult {
        kind: "perft-unit-result".into(),
        format: FORMAT,
        plan_checksum: Checksum::of(b"plan"),
        unit_checksum: Checksum::of(b"unit"),
        index: UnitIndex(17),
        keys: Keys::SECONDARY,
        depth: 6,
        positions: counts.len() as u64,
        counts: counts.into_iter().map(Count).collect(),
        total: Count(total),
        host: "node7".into(),
        started: report::timestamp(),
        finished: report::timestamp(),
        seconds,
        resumed_positions: 0,
        threads: 32,
        hash_mb: 4096,
        hash_auto: None,
        table_setup_s,
        tool: ToolInfo::current(),
        machine: Default::default(),
        seal: Checksum::of(b""),
    };
    result.seal();
    result
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn unit_results_read_back_sealed_and_equal(
        counts in prop::collection::vec(0u128..1 << 90, 1..20),
        seconds in seconds(),
        setup in any_float(),
    ) {
        let result = unit_result(counts, seconds, setup);
        let mut bytes = serde_json::to_vec_pretty(&result).unwrap();
        bytes.push(b'\n');
        let back: UnitResult = serde_json::from_slice(&bytes).unwrap();
        prop_assert_eq!(back.seconds.to_bits(), seconds.to_bits());
        prop_assert_eq!(&back.seal, &back.compute_seal());
        prop_assert_eq!(back, result);
    }

    #[test]
    fn heartbeats_read_back_equal(seq in any::<u64>(), resumed in any::<u64>(), pid in any::<u32>(), host in "[ -~]{0,40}") {
        let beat = Heartbeat {
            host,
            pid,
            started: report::timestamp(),
            updated: report::timestamp(),
            seq,
            resumed_positions: resumed,
        };
        let back: Heartbeat = serde_json::from_slice(&serde_json::to_vec(&beat).unwrap()).unwrap();
        prop_assert_eq!(back, beat);
    }

    #[test]
    fn status_reports_read_back_equal(age in any_float(), running in seconds(), left in seconds(), done in any::<u128>()) {
        let unit = RunningUnit {
            index: UnitIndex(3),
            host: Some("node7".into()),
            heartbeat_age_s: age,
            clock_skew_s: Some(age * 3.0),
            positions_done: 12,
            positions: 40,
            seconds_running: Some(running),
            resumed_positions: 2,
        };
        let status = PlanStatus {
            kind: "perft-status".into(),
            plan: "plan".into(),
            fen: Board::startpos().fen(),
            depth: 11,
            keys: Keys::PRIMARY,
            units: 4,
            counts: StatusCounts { done: 1, running: 1, missing: 2 },
            done: vec![UnitIndex(0)],
            running: vec![unit],
            missing: vec![MissingUnit { index: UnitIndex(1), reason: "never started".into(), positions_done: 0 }],
            nodes_done: Count(done),
            unit_seconds: running,
            seconds_left: Some(left),
            taken: report::timestamp(),
        };
        let back: PlanStatus = serde_json::from_slice(&serde_json::to_vec_pretty(&status).unwrap()).unwrap();
        prop_assert_eq!(back, status);
    }

    #[test]
    fn run_reports_read_back_equal(
        nodes in any::<u128>(),
        seconds in seconds(),
        speed in any_float(),
        divide in prop::collection::vec(any::<u128>(), 0..30),
    ) {
        let report = RunReport {
            header: ReportHeader::of::<RunReport>(),
            fen: Board::startpos().fen(),
            start_fen: None,
            moves: Vec::new(),
            chess960: false,
            depth: 9,
            mode: RunMode::Bulk,
            threads: 2,
            nodes,
            seconds,
            nodes_per_second: speed,
            divide: divide.into_iter().map(|nodes| DivideEntry { mv: "e2e4".into(), nodes }).collect(),
            hash: None,
            stats: Vec::new(),
            interrupted: false,
            progress: None,
        };
        let text = serde_json::to_string_pretty(&report).unwrap();
        let back: RunReport = report::from_json(&text).unwrap();
        prop_assert_eq!(back, report);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn run_journals_read_back_what_they_recorded(
        depth in 3u32..7,
        picks in prop::collection::btree_map(0usize..400, any::<u128>(), 0..60),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.journal");
        let board = Board::startpos();
        let (split, tasks) = plan_tasks(&board, depth);
        let header = JournalHeader { fen: board.fen(), depth, mode: Mode::Bulk, split, tasks: tasks.len() };
        let picks: BTreeMap<usize, u128> = picks.into_iter().filter(|(i, _)| *i < tasks.len()).collect();
        let journal = Journal::create(&path, &header).unwrap();
        for (&i, &n) in &picks {
            journal.record(i, &tasks[i], false, n).unwrap();
        }
        drop(journal);
        let resumed = Journal::resume(&path, &header, &tasks, &board).unwrap();
        prop_assert!(resumed.notes.is_empty(), "{:?}", resumed.notes);
        prop_assert_eq!(resumed.done, picks);
    }

    #[test]
    fn unit_journals_read_back_what_they_recorded(
        depth in 1u32..12,
        index in any::<u32>(),
        picks in prop::collection::btree_map(0usize..1000, any::<u128>(), 0..100),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("unit.journal");
        let id = JournalId {
            plan: Checksum::of(b"plan"),
            unit: Checksum::of(&index.to_le_bytes()),
            index: UnitIndex(index),
            keys: Keys::PRIMARY,
            depth,
        };
        let journal = UnitJournal::open(&path, &id, 1000).unwrap();
        for (&i, &n) in &picks {
            journal.record(i, n).unwrap();
        }
        drop(journal);
        let journal = UnitJournal::open(&path, &id, 1000).unwrap();
        prop_assert!(journal.notes.is_empty(), "{:?}", journal.notes);
        prop_assert_eq!(&journal.done, &picks);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn manifests_read_back_equal(moves in prop::collection::vec(0usize..40, 0..6), ply in 1u32..3, units in 1u32..9) {
        let mut board = Board::startpos();
        for pick in moves {
            let legal = board.legal_moves();
            if legal.is_empty() {
                break;
            }
            board.make(legal[pick % legal.len()]);
        }
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("plan");
        let request =
            SplitRequest { root: &board, depth: ply + 2, ply, units, max_positions: 1 << 20, force: false, stop: None };
        let Ok(summary) = split(&request, &out) else { return Ok(()) };
        let plan = Plan::open(&out).unwrap();
        prop_assert_eq!(plan.manifest, summary.manifest);
    }
}
