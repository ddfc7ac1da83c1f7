//! Faults told apart and no work lost (issue 67): results read back as
//! written, journals bound to their run, no output over an input or over
//! another output, side outputs that never cost the count, memory limits
//! honoured, transient failures with their own exit status.
#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::perft_with_bin as perft;
use perft::board::Board;
use perft::counting::journal::{plan_tasks, Journal, JournalHeader};
use perft::counting::Mode;
use perft::distributed::journal::{JournalId, UnitJournal};
use perft::distributed::plan::Plan;
use perft::distributed::unit::UnitResult;
use perft::distributed::{Keys, UnitIndex};

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn run(args: &[&str]) -> Output {
    perft().args(args).timeout(Duration::from_secs(600)).output().unwrap()
}

fn split(dir: &Path, depth: u32, ply: u32, units: u32) {
    let (d, p, u) = (depth.to_string(), ply.to_string(), units.to_string());
    let output = run(&["split", "--depth", &d, "--ply", &p, "--units", &u, "--out", dir.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output));
}

/// A deterministic stream of numbers (xorshift).
struct Numbers(u64);

impl Numbers {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn a_hundred_units_of_one_to_five_seconds_merge_with_none_called_corrupt() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    split(&plan, 4, 2, 100);
    for index in 0..100 {
        let output =
            run(&["unit", plan.to_str().unwrap(), "--index", &index.to_string(), "--hash", "0", "-t", "1"]);
        assert!(output.status.success(), "{}", text(&output));
    }
    // Each unit as if it had lasted 1 to 5 s, its time as a clock gives it
    // (`Duration::as_secs_f64`: about 7% of such values read back one unit
    // in the last place off without serde_json's float_roundtrip), sealed
    // and written as `perft unit` writes results.
    let mut numbers = Numbers(0x9e37_79b9_7f4a_7c15);
    for index in 0..100 {
        let path = plan.join(UnitIndex(index).result_file(Keys::PRIMARY));
        let mut result: UnitResult = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let nanos = 1_000_000_000 + numbers.next() % 4_000_000_000;
        result.seconds = Duration::from_nanos(nanos).as_secs_f64();
        result.seal();
        let mut bytes = serde_json::to_vec_pretty(&result).unwrap();
        bytes.push(b'\n');
        perft::report::write::replace_atomic(&path, &bytes).unwrap();
    }
    let output = run(&["merge", plan.to_str().unwrap()]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(!out.contains("corrupt") && out.contains("Nodes searched: 197281"), "{out}");
    let output = run(&["status", plan.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
}

/// Depth 5's records (true counts of depth 5) appended to a journal of
/// depth 6 of the same position: dropped and counted again, so the resumed
/// total is perft(6); a journal of depth 5's records alone under depth 6's
/// header is refused, never summed.
#[test]
fn run_journals_of_another_depth_are_never_summed() {
    let tmp = tempfile::tempdir().unwrap();
    let board = Board::startpos();
    let (split, tasks) = plan_tasks(&board, 6);
    let header =
        |depth| JournalHeader { fen: board.fen(), depth, mode: Mode::Bulk, split, tasks: tasks.len() };
    let count = |i: usize, depth: u32| {
        let mut child = board.fork();
        for &mv in &tasks[i] {
            child.make(mv);
        }
        perft::counting::perft(&mut child, depth - split, Mode::Bulk)
    };
    let (six, five) = (tmp.path().join("six.journal"), tmp.path().join("five.journal"));
    let journal = Journal::create(&six, &header(6)).unwrap();
    for (i, task) in tasks.iter().enumerate().take(3) {
        journal.record(i, task, false, count(i, 6)).unwrap();
    }
    drop(journal);
    let journal = Journal::create(&five, &header(5)).unwrap();
    for (i, task) in tasks.iter().enumerate().take(200).skip(3) {
        journal.record(i, task, false, count(i, 5)).unwrap();
    }
    drop(journal);
    let records: String =
        std::fs::read_to_string(&five).unwrap().lines().skip(7).map(|l| format!("{l}\n")).collect();
    let own = std::fs::read_to_string(&six).unwrap();
    std::fs::write(&six, format!("{own}{records}")).unwrap();
    let output = run(&["run", "6", "--hash", "0", "--resume", six.to_str().unwrap()]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("Nodes searched: 119060324"), "{out}");
    assert!(out.contains("a record of another journal dropped"), "{out}");
    let header_six: String = own.lines().take(7).map(|l| format!("{l}\n")).collect();
    std::fs::write(&six, format!("{header_six}{records}")).unwrap();
    let output = run(&["run", "6", "--hash", "0", "--resume", six.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("none of its records is"), "{}", text(&output));
}

/// Unit 1's journal records under unit 0's header: set aside, unit 0
/// counted afresh, and the merge is exact.
#[test]
fn unit_journals_of_another_unit_are_never_summed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, 5, 1, 2);
    let plan = Plan::open(&dir).unwrap();
    let journal_of = |index: usize, records: usize| {
        let entry = &plan.manifest.units[index];
        let id = JournalId {
            plan: plan.checksum.clone(),
            unit: entry.sha256.clone(),
            index: entry.index,
            keys: Keys::PRIMARY,
            depth: plan.manifest.unit_depth(),
        };
        let path = dir.join(entry.index.journal_file(Keys::PRIMARY));
        let journal = UnitJournal::open(&path, &id, entry.positions as usize).unwrap();
        for (i, position) in plan.read_unit(entry).unwrap().iter().take(records).enumerate() {
            let mut board = Board::from_fen(&position.fen).unwrap();
            journal.record(i, perft::counting::perft(&mut board, id.depth, Mode::Bulk)).unwrap();
        }
        drop(journal);
        std::fs::read_to_string(&path).unwrap()
    };
    let zero = journal_of(0, 2);
    let one = journal_of(1, 6);
    let ones_records: String = one.lines().skip(1).map(|l| format!("{l}\n")).collect();
    let zero_path = dir.join(UnitIndex(0).journal_file(Keys::PRIMARY));
    std::fs::write(&zero_path, format!("{}\n{ones_records}", zero.lines().next().unwrap())).unwrap();
    let output = run(&["unit", dir.to_str().unwrap(), "--index", "0", "--hash", "0"]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(text(&output).contains("holds only records of other journals (6 of them)"), "{}", text(&output));
    // And mixed in with its own: dropped one by one.
    std::fs::remove_file(dir.join(UnitIndex(0).result_file(Keys::PRIMARY))).unwrap();
    std::fs::write(&zero_path, format!("{zero}{ones_records}")).unwrap();
    let output = run(&["unit", dir.to_str().unwrap(), "--index", "0", "--hash", "0"]);
    assert!(text(&output).contains("2 taken from the journal"), "{}", text(&output));
    let output = run(&["merge", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3), "unit 1 is not done: {}", text(&output));
    let output = run(&["unit", dir.to_str().unwrap(), "--index", "1", "--hash", "0"]);
    assert!(output.status.success(), "{}", text(&output));
    let output = run(&["merge", dir.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("Nodes searched: 4865609"), "{}", text(&output));
}

/// Every pair of outputs on one path, and every output over an input, is
/// refused before any work, with both names (exit 2).
#[test]
fn outputs_never_share_a_path_nor_replace_an_input() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let at = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let suite = at("s.epd");
    std::fs::write(&suite, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n").unwrap();
    let engine = format!("uci:{}", common::buggy_path().display());
    let (x, journal) = (at("x.json"), at("j.journal"));
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["run", "4", "--json", &x, "--progress-json", &x], "--json and --progress-json both name"),
        (vec!["run", "4", "--checkpoint", &journal, "--progress-json", &journal], "--progress-json"),
        (vec!["suite", &suite, "--json", &x, "--junit", &x], "--json and --junit both name"),
        (vec!["suite", &suite, "--junit", &suite], "is an input of this run"),
        (
            vec!["check", "--engine", &engine, &suite, "--json", &x, "--junit", &x],
            "--json and --junit both name",
        ),
    ];
    for (args, says) in cases {
        let output = run(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains(says), "{args:?}: {}", text(&output));
        assert!(!Path::new(&x).exists() && !Path::new(&journal).exists(), "{args:?} wrote");
    }
    assert_eq!(std::fs::read_to_string(&suite).unwrap(), "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n");
    // The step summary is an output too.
    let output = perft()
        .args(["suite", &suite, "--annotations", "github", "--json", &x])
        .env("GITHUB_STEP_SUMMARY", &x)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("--json and $GITHUB_STEP_SUMMARY both name"), "{}", text(&output));
    // `status --json` over the plan's manifest or a result.
    let plan = dir.join("plan");
    split(&plan, 3, 1, 2);
    assert!(run(&["unit", plan.to_str().unwrap(), "--index", "0"]).status.success());
    let manifest = std::fs::read(plan.join("manifest.json")).unwrap();
    let result = plan.join(UnitIndex(0).result_file(Keys::PRIMARY));
    let sealed = std::fs::read(&result).unwrap();
    for report in [plan.join("manifest.json"), result.clone()] {
        let output = run(&["status", plan.to_str().unwrap(), "--json", report.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains("the plan's"), "{}", text(&output));
    }
    assert_eq!(std::fs::read(plan.join("manifest.json")).unwrap(), manifest);
    assert_eq!(std::fs::read(&result).unwrap(), sealed);
}

#[test]
fn side_outputs_never_cost_the_count_or_the_other_outputs() {
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("r.json");
    // A full disk for the progress file: a warning; the total, the divide
    // and the report all there.
    let output = run(&["run", "7", "--progress-json", "/dev/full", "--json", report.to_str().unwrap()]);
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("Nodes searched: 3195901860") && out.contains("a2a3: "), "{out}");
    assert!(out.contains("warning: cannot write the --progress-json file /dev/full"), "{out}");
    let value: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(value["nodes"], 3195901860u64);
    // A JUnit report that cannot be written: the JSON report still is, and
    // the failure is named (a full disk: a transient failure).
    std::fs::remove_file(&report).unwrap();
    let suite = tmp.path().join("s.epd");
    std::fs::write(&suite, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n").unwrap();
    let output =
        run(&["suite", suite.to_str().unwrap(), "--junit", "/dev/full", "--json", report.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(75), "{}", text(&output));
    assert!(text(&output).contains("cannot write the JUnit report to /dev/full"), "{}", text(&output));
    assert!(report.exists(), "the JSON report was lost: {}", text(&output));
    // A FIFO as the step summary is never waited on: a warning, and the
    // JUnit and JSON reports written.
    let fifo = tmp.path().join("summary.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let junit = tmp.path().join("j.xml");
    std::fs::remove_file(&report).unwrap();
    let output = perft()
        .args(["suite", suite.to_str().unwrap(), "--annotations", "github", "--junit"])
        .arg(&junit)
        .arg("--json")
        .arg(&report)
        .env("GITHUB_STEP_SUMMARY", &fifo)
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("warning: cannot append the step summary"), "{}", text(&output));
    assert!(report.exists() && junit.exists(), "{}", text(&output));
}

/// `perft` with its address space limited to `bytes` (as `prlimit --as`).
fn limited(bytes: u64) -> Command {
    let mut command = Command::new(assert_cmd::cargo::cargo_bin("perft"));
    let limit = libc::rlimit { rlim_cur: bytes, rlim_max: bytes };
    // SAFETY: `setrlimit` is async-signal-safe and touches only `limit`.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(&mut command, move || {
            if libc::setrlimit(libc::RLIMIT_AS, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    command.stdin(Stdio::null());
    command
}

#[test]
fn memory_fitting_honours_an_address_space_limit() {
    // Kiwipete's perft(6): a table its depth would make bigger than the
    // limit leaves room for.
    let output = limited(320 << 20).args(["run", "6", "--position", "kiwipete", "-t", "2"]).output().unwrap();
    let out = text(&output);
    assert_eq!(output.status.code(), Some(0), "{out}");
    assert!(out.contains("Nodes searched: 8031647685"), "{out}");
    assert!(out.contains("address-space limit 320 MB"), "the limit chose the table: {out}");
    // A split that cannot fit is refused before it is built, not aborted.
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    let output = limited(700 << 20)
        .args(["split", "--depth", "8", "--ply", "6", "--units", "4", "--out"])
        .arg(&plan)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("more than the limit"), "{}", text(&output));
    assert!(!text(&output).contains("panicked") && !plan.join("manifest.json").exists());
}

fn holding_the_lock(plan: &Path) -> std::fs::File {
    let lock = plan.join(UnitIndex(0).lock_file(Keys::PRIMARY));
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock).unwrap();
    file.try_lock().unwrap();
    file
}

/// A unit whose lock another process holds is a transient failure (75),
/// neither done (0) nor bad input (2); Slurm's script requeues it.
#[test]
fn a_held_unit_lock_is_a_transient_failure() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    split(&plan, 3, 1, 2);
    let _lock = holding_the_lock(&plan);
    let output = run(&["unit", plan.to_str().unwrap(), "--index", "0"]);
    assert_eq!(output.status.code(), Some(75), "{}", text(&output));
    assert!(text(&output).contains("is being counted by another process"), "{}", text(&output));
    // unit.sbatch requeues the task (a fake scontrol records how), up to
    // PERFT_RETRIES times, then fails with 75.
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let log = tmp.path().join("scontrol.log");
    std::fs::write(bin.join("scontrol"), format!("#!/bin/sh\necho \"$@\" >> '{}'\n", log.display())).unwrap();
    std::fs::set_permissions(bin.join("scontrol"), std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .unwrap();
    let script: PathBuf = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/unit.sbatch");
    let sbatch = |restarts: &str| {
        Command::new("bash")
            .arg(&script)
            .env("PATH", format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()))
            .env("PERFT_PLAN", &plan)
            .env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"))
            .env("SLURM_ARRAY_TASK_ID", "0")
            .env("SLURM_JOB_ID", "4711")
            .env("SLURM_RESTART_COUNT", restarts)
            .output()
            .unwrap()
    };
    let output = sbatch("0");
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "requeue 4711\n");
    let output = sbatch("3");
    assert_eq!(output.status.code(), Some(75), "{}", text(&output));
    assert!(text(&output).contains("giving up"), "{}", text(&output));
}
