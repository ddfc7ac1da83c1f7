//! Deep perft: hashed counts against plain ones, tiny tables, `--verify-hash`,
//! checkpoint journals resumed after SIGKILL and Ctrl-C, and Ctrl-C during a
//! suite.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use perft::board::{Board, CastlingMode};
use perft::counting::{perft, perft_with, with_threads, CountOptions, KeySet, Mode, PerftTable};
use perft::suite::{load_suite_file, SuiteFile, SuiteOptions, SuitePlan};
use serde_json::Value;

mod common;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn positions(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions").join(file)
}

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_perft"));
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

fn suite_plan(max_nodes: u128) -> SuitePlan {
    let files =
        ["standard.epd", "fischer.epd", "sedlak-and-classic.epd", "tricky.perft", "marcel-random.perft"]
            .iter()
            .map(|f| SuiteFile { name: f.to_string(), content: load_suite_file(&positions(f)) })
            .collect();
    let options = SuiteOptions {
        castling: CastlingMode::Detect,
        relaxed: true,
        max_nodes: Some(max_nodes),
        ..SuiteOptions::default()
    };
    SuitePlan::new(files, options)
}

#[test]
fn hashed_and_unhashed_counts_agree_on_the_suites() {
    let plain = with_threads(2, || suite_plan(3_000_000).run(&|_, _| {})).unwrap();
    // A table small enough to be full and replacing long before the end.
    let table = PerftTable::new(1, KeySet::Primary).unwrap();
    let hashed = with_threads(2, || suite_plan(3_000_000).run_with(Some(&table), None, &|_, _| {})).unwrap();
    assert!(plain.summary.checks > 2000, "only {} checks", plain.summary.checks);
    assert_eq!(plain.summary.failed, 0);
    assert_eq!(hashed.summary.failed, 0, "{:?}", hashed.results.iter().find(|r| !r.ok));
    let counts = |o: &perft::suite::SuiteOutcome| -> Vec<(String, usize, u32, u128)> {
        o.results.iter().map(|r| (r.file.clone(), r.line, r.depth, r.nodes)).collect()
    };
    assert_eq!(counts(&plain), counts(&hashed));
    let (probes, hits) = table.probes_and_hits();
    assert!(hits > 0 && hits < probes, "{hits} hits of {probes} probes");
    assert!(table.fill() > 0.9, "table only {:.0}% full", table.fill() * 100.0);
}

#[test]
fn tiny_tables_force_replacement_and_stay_exact() {
    for (fen, depth) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5),
        (KIWIPETE, 4),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6),
        ("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", 5),
        ("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5),
    ] {
        let board = Board::from_fen(fen).unwrap();
        let expected = perft(&mut board.clone(), depth, Mode::Bulk);
        for buckets in [1, 16, 1024] {
            for keys in [KeySet::Primary, KeySet::Secondary] {
                let table = PerftTable::with_buckets(buckets, keys).unwrap();
                let modes: &[Mode] = if buckets == 16 { &[Mode::Bulk, Mode::Full] } else { &[Mode::Bulk] };
                for &mode in modes {
                    let search = CountOptions { table: Some(&table), ..CountOptions::new(mode) };
                    let nodes = with_threads(2, || perft_with(&board, depth, &search)).unwrap();
                    assert_eq!(
                        nodes,
                        Some(expected),
                        "{fen} depth {depth}, {buckets} buckets, {keys:?}, {mode:?}"
                    );
                }
                let (probes, hits) = table.probes_and_hits();
                // The smallest table (one wide bucket, one narrow) may
                // never hit; larger ones must.
                assert!(probes > 0 && (hits > 0 || buckets == 1), "{fen}: {hits} hits of {probes}");
            }
        }
    }
}

#[test]
fn run_with_hash_and_verify_hash() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("run.json");
    let output = bin()
        .args(["run", "5", "--fen", KIWIPETE, "--hash", "1", "--verify-hash", "-t", "2", "--json"])
        .arg(&json)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("Nodes searched: 193690690"), "{stdout}");
    assert!(stdout.contains("verified with a second key set"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["nodes"], 193690690u64);
    assert_eq!(report["hash"]["megabytes"], 1);
    assert_eq!(report["hash"]["verified"], true);
    assert!(report["hash"]["hits"].as_u64().unwrap() > 0);

    // A size the machine cannot have is refused before anything runs.
    let output = bin().args(["run", "3", "--hash", "1000000000000"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--hash"));
}

#[test]
fn suite_with_hash_reports_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("suite.json");
    let output = bin()
        .args(["suite", "--relaxed", "--hash", "2", "--max-nodes", "2000000", "-t", "2", "--json"])
        .arg(&json)
        .arg(positions("standard.epd"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("hash 2 MB:"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["failed"], 0);
    assert!(report["summary"]["passed"].as_u64().unwrap() > 400);
    assert!(report["hash"]["probes"].as_u64().unwrap() > 0);
    assert_eq!(report["interrupted"], false);
}

#[test]
fn uci_hash_option_keeps_counts_exact() {
    let mut child = bin().arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "setoption name Hash value 1\nposition fen {KIWIPETE}\ngo perft 4\nsetoption name Hash value 0\n\
         go perft 4\nsetoption name Hash value 3\nposition startpos moves e2e4\ngo perft 5\nquit"
    )
    .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let totals: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("Nodes searched: ")).collect();
    assert_eq!(totals, ["4085603", "4085603", "9771632"], "{text}");
}

fn journal_records(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |text| text.lines().count().saturating_sub(7))
}

/// Starts `perft run` with a journal and waits until it has recorded at
/// least `records` subtrees.
fn start_journaled(args: &[&str], journal: &Path, records: usize) -> Child {
    let mut child = bin()
        .args(args)
        .arg("--checkpoint")
        .arg(journal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while journal_records(journal) < records {
        assert!(child.try_wait().unwrap().is_none(), "the run ended before it could be stopped");
        assert!(start.elapsed() < Duration::from_secs(120), "no progress in the journal");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

fn resume(args: &[&str], journal: &Path) -> (String, Option<i32>) {
    let output = bin().args(args).arg("--resume").arg(journal).output().unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), output.status.code())
}

/// The `done` of `resuming: done of N subtrees already done`.
fn resumed_subtrees(stdout: &str) -> (usize, usize) {
    let line = stdout.lines().find(|l| l.starts_with("resuming: ")).expect("no resuming line");
    let words: Vec<&str> = line.split_whitespace().collect();
    (words[1].parse().unwrap(), words[3].parse().unwrap())
}

#[test]
fn resume_after_sigkill_gives_the_full_total() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("d6.journal");
    let args = ["run", "7", "-t", "2"];
    let mut child = start_journaled(&args, &journal, 40);
    child.kill().unwrap(); // SIGKILL: no chance to clean up
    child.wait().unwrap();
    let (stdout, code) = resume(&args, &journal);
    assert_eq!(code, Some(0), "{stdout}");
    let (done, total) = resumed_subtrees(&stdout);
    assert!(done >= 40 && done < total, "{done} of {total} subtrees done before the kill");
    assert!(stdout.contains("Nodes searched: 3195901860"), "{stdout}");
    assert_eq!(journal_records(&journal), total);

    // Resuming a finished journal counts nothing again and gives the same total.
    let (stdout, code) = resume(&args, &journal);
    assert_eq!(code, Some(0));
    assert_eq!(resumed_subtrees(&stdout), (total, total));
    assert!(stdout.contains("Nodes searched: 3195901860"), "{stdout}");
}

#[cfg(unix)]
fn interrupt(child: &Child) {
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_run_exits_130_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("d7.journal");
    let args = ["run", "7", "-t", "2"];
    let child = start_journaled(&args, &journal, 20);
    interrupt(&child);
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("interrupted after"), "{stdout}");
    assert!(stdout.contains(&format!("--resume {}", journal.display())), "{stdout}");
    let (stdout, code) = resume(&args, &journal);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("Nodes searched: 3195901860"), "{stdout}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_suite_writes_a_partial_report() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("suite.json");
    let suite = common::long_suite(dir.path());
    let mut child = bin()
        .args(["suite", "--relaxed", "--hash", "0", "-t", "2", "--json"])
        .arg(&json)
        .arg(&suite)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_work(child.id(), Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the suite ended before it could be interrupted");
    interrupt(&child);
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(130), "{stdout}");
    assert!(stdout.contains("(interrupted)"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["summary"]["failed"], 0);
    assert!(report["summary"]["skipped"].as_u64().unwrap() > 0);
}

#[test]
fn foreign_journals_are_refused_and_damaged_records_recounted() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let output = bin().args(["run", "4", "--checkpoint"]).arg(&journal).output().unwrap();
    assert!(output.status.success());
    // Another depth: foreign.
    let (_, code) = resume(&["run", "5"], &journal);
    assert_eq!(code, Some(2));
    let output = bin().args(["run", "5", "--resume"]).arg(&journal).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("another run") && stderr.contains("depth"), "{stderr}");
    // An edited count: that record is skipped, named by line, and its
    // subtree counted again; the total is right.
    let text = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let record = &mut lines[9];
    assert!(!record.is_empty());
    let mut words: Vec<String> = record.split(' ').map(str::to_string).collect();
    let n = words.len();
    words[n - 2] = (words[n - 2].parse::<u64>().unwrap() + 1).to_string();
    *record = words.join(" ");
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    let (stdout, code) = resume(&["run", "4"], &journal);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("journal line 10: damaged record skipped (checksum does not match)"), "{stdout}");
    let (done, total) = resumed_subtrees(&stdout);
    assert_eq!(done + 1, total, "{stdout}");
    assert!(stdout.contains("Nodes searched: 197281"), "{stdout}");
    // The same journal with CRLF line endings resumes alike.
    let text = std::fs::read_to_string(&journal).unwrap();
    std::fs::write(&journal, text.replace('\n', "\r\n")).unwrap();
    let (stdout, code) = resume(&["run", "4"], &journal);
    assert_eq!(code, Some(0), "{stdout}");
    assert!(stdout.contains("Nodes searched: 197281"), "{stdout}");
    // A damaged header: refused as corrupt.
    std::fs::write(&journal, text.replacen("depth 4", "depth 4 ", 1)).unwrap();
    let output = bin().args(["run", "4", "--resume"]).arg(&journal).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("corrupt at line 7"), "{stderr}");
    // Not a journal at all.
    std::fs::write(&journal, "hello\n").unwrap();
    let output = bin().args(["run", "4", "--resume"]).arg(&journal).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a perft journal"));
}

#[test]
fn run_stats_prints_and_reports_the_table() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("stats.json");
    let output =
        bin().args(["run", "4", "--stats", "--fen", KIWIPETE, "--json"]).arg(&json).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("discovered") && stdout.contains("Nodes searched: 4085603"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["mode"], "stats");
    let row = &report["stats"][3];
    assert_eq!(row["depth"], 4);
    assert_eq!(row["promotions"], 15172);
    assert_eq!(row["discovered_checks"], 42);
    // Timings make every node; they do not combine with a table or journal.
    let output = bin().args(["run", "3", "--stats", "--hash", "1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// CPU seconds `pid` and its children (an engine it started) have used.
#[cfg(target_os = "linux")]
fn cpu_seconds(pid: u32) -> f64 {
    let ticks = |pid: &str| -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        // After the command's `(name)`: state is field 3, utime and stime 14 and 15.
        let fields: Vec<&str> =
            stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
        fields.get(11..13).map_or(0.0, |f| f.iter().map(|t| t.parse::<f64>().unwrap_or(0.0)).sum())
    };
    let children = std::fs::read_to_string(format!("/proc/{pid}/task/{pid}/children")).unwrap_or_default();
    // SAFETY: sysconf only reads a configuration value.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as f64;
    (ticks(&pid.to_string()) + children.split_whitespace().map(ticks).sum::<f64>()) / hz
}

/// Waits until `pid` (with its children) has had `work` of CPU time, so
/// that it has done as much whatever else the machine runs (a fixed sleep
/// on a busy machine gave it less, and the test failed); at most a minute.
#[cfg(target_os = "linux")]
fn wait_for_work(pid: u32, work: Duration) {
    let start = std::time::Instant::now();
    while cpu_seconds(pid) < work.as_secs_f64() && start.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[cfg(all(unix, not(target_os = "linux")))]
fn wait_for_work(_pid: u32, work: Duration) {
    std::thread::sleep(work);
}

#[cfg(unix)]
fn interrupted_run(args: &[&str], json: &Path, after: Duration) -> (String, Option<i32>, Value) {
    let mut child = bin()
        .args(args)
        .arg("--json")
        .arg(json)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_work(child.id(), after);
    assert!(child.try_wait().unwrap().is_none(), "{args:?} ended before it could be interrupted");
    interrupt(&child);
    let output = child.wait_with_output().unwrap();
    let report = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    (String::from_utf8_lossy(&output.stdout).into_owned(), output.status.code(), report)
}

#[cfg(unix)]
#[test]
fn ctrl_c_during_bench_and_check_reports_what_finished() {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set.epd");
    std::fs::write(
        &set,
        format!("{KIWIPETE} ;D4 4085603\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D5 674624\n"),
    )
    .unwrap();
    let json = dir.path().join("bench.json");
    let set_arg = set.to_str().unwrap();
    let (stdout, code, report) = interrupted_run(
        &["bench", "--positions", set_arg, "--repeat", "100000", "--sample-time", "0.05"],
        &json,
        Duration::from_millis(1500),
    );
    assert_eq!(code, Some(130), "{stdout}");
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["positions"].as_array().unwrap().len(), 2);
    assert!(report["positions"][0]["samples"].as_array().unwrap().len() > 1);
    assert_eq!(report["positions"][0]["ok"], true);

    // `check` against our own UCI mode: stops between checks, no failure
    // or engine error is blamed on the interruption.
    let json = dir.path().join("check.json");
    let engine = format!("self=uci:{} uci", env!("CARGO_BIN_EXE_perft"));
    // Far more checks than 1.5 s of CPU time holds on any machine (the
    // standard file alone takes under a second on a quiet one).
    let files = ["standard.epd", "ferdy-enpassant.epd", "marcel-random.perft"].map(positions);
    let mut args = vec!["check", "--engine", &engine, "--relaxed"];
    args.extend(files.iter().map(|f| f.to_str().unwrap()));
    let (stdout, code, report) = interrupted_run(&args, &json, Duration::from_millis(1500));
    assert_eq!(code, Some(130), "{stdout}");
    assert!(stdout.contains("(interrupted)"), "{stdout}");
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["summary"]["failed"], 0);
    assert_eq!(report["summary"]["errors"], 0);
    assert!(report["summary"]["passed"].as_u64().unwrap() > 0);
    assert!(report["summary"]["skipped"].as_u64().unwrap() > 0);
}

/// Waits for `child` and returns its exit code and the peak resident memory
/// the kernel accounted to it (`ru_maxrss` of `wait4`, in KiB on Linux):
/// the process's own peak, exact whatever ran beside it, not a sample.
#[cfg(target_os = "linux")]
fn wait_with_peak_rss(child: Child) -> (Option<i32>, u64) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is a valid value of that plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `wait4` writes the status and the usage through the two
    // pointers, which point at live locals; `pid` is our own child, not
    // yet waited for (`Child` does not reap on drop).
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(reaped, pid, "wait4: {}", std::io::Error::last_os_error());
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    (code, u64::try_from(usage.ru_maxrss).unwrap())
}

#[cfg(target_os = "linux")]
#[test]
fn deep_hashed_run_stays_within_its_memory_and_warns() {
    use std::io::BufRead;
    const HASH_MB: u64 = 256;
    let mut child = bin()
        .args(["run", "12", "--hash", &HASH_MB.to_string(), "-t", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped once the table is set up (every page of it zeroed, so
    // resident) and the count under way: an event, not a time, so a loaded
    // machine only makes it later. The peak is the kernel's account of the
    // whole run, whatever ran beside it.
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    let mut line = String::new();
    while stderr.read_line(&mut line).unwrap() > 0 {
        said.push_str(&line);
        if line.starts_with("hash table:") {
            break;
        }
        line.clear();
    }
    assert!(said.contains("warning: perft 12 here is about"), "{said}");
    assert!(line.contains(&format!("hash table: {HASH_MB} MB")) && line.contains("done in"), "{said}");
    interrupt(&child);
    let rest = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
    let (code, peak_kib) = wait_with_peak_rss(child);
    let rest = rest.join().unwrap();
    assert_eq!(code, Some(130), "{said}{rest}");
    // The table plus the program stays under the size asked for plus a
    // small allowance for code, stacks and buffers; and the table was made.
    let peak_mb = peak_kib / 1024;
    eprintln!("peak RSS {peak_mb} MiB with a {HASH_MB} MiB table");
    assert!(peak_mb >= HASH_MB * 9 / 10, "peak {peak_mb} MiB: the table was not set up?");
    assert!(peak_mb < HASH_MB + 48, "peak {peak_mb} MiB for a {HASH_MB} MiB table");
}

#[cfg(unix)]
#[test]
fn a_killed_suite_leaves_the_previous_report_intact() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("suite.json");
    let quick = bin()
        .args(["suite", "--relaxed", "--max-nodes", "10000", "--json"])
        .arg(&json)
        .arg(positions("standard.epd"))
        .output()
        .unwrap();
    assert!(quick.status.success());
    let before = std::fs::read_to_string(&json).unwrap();
    let inputs = tempfile::tempdir().unwrap();
    let mut child = bin()
        .args(["suite", "--relaxed", "--hash", "0", "-t", "2", "--json"])
        .arg(&json)
        .arg(common::long_suite(inputs.path()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_work(child.id(), Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "the suite ended before it could be killed");
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&json).unwrap(), before);
    let report: Value = serde_json::from_str(&before).unwrap();
    assert_eq!(report["kind"], "suite");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [std::ffi::OsString::from("suite.json")], "stray files: {names:?}");
}

#[test]
fn absurd_depths_are_refused_or_estimated() {
    let output = bin().args(["run", "65"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("65"));
    let board = Board::startpos();
    let estimate = perft::counting::estimate_nodes(&board, 9).nodes;
    // Within 10% of the real 2,439,530,234,167.
    assert!((2.2e12..2.7e12).contains(&estimate), "estimate {estimate:e}");
    let exact = perft::counting::estimate_nodes(&board, 3).nodes;
    assert_eq!(exact, 8902.0);
}

#[cfg(unix)]
#[test]
fn sigterm_at_depth_resumes_exact_and_progress_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("d7.journal");
    let progress = dir.path().join("progress.json");
    let report = dir.path().join("run.json");
    let progress_arg = progress.to_str().unwrap();
    let args = ["run", "7", "-t", "2", "--progress-json", progress_arg];
    let child = start_journaled(&args, &journal, 40);
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143), "{}", String::from_utf8_lossy(&output.stdout));
    let stopped: Value = serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    assert_eq!(stopped["kind"], "progress");
    assert_eq!(stopped["done"], true);
    let done_before = stopped["subtrees_done"].as_u64().unwrap();
    assert!(done_before >= 40 && done_before < stopped["subtrees"].as_u64().unwrap(), "{stopped}");

    let output = bin().args(args).arg("--resume").arg(&journal).arg("--json").arg(&report).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("Nodes searched: 3195901860"), "{stdout}");
    let (resumed, total) = resumed_subtrees(&stdout);
    // At most the subtrees in flight (one per thread) are lost to the stop.
    assert!(
        resumed as u64 >= done_before && resumed as u64 <= done_before + 2,
        "{resumed} resumed, {done_before} seen done"
    );
    let run: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(run["progress"]["subtrees"], total);
    assert_eq!(run["progress"]["resumed"], resumed);
    assert_eq!(run["progress"]["last"]["nodes_done"], 3195901860u64);
    assert_eq!(run["progress"]["last"]["fraction_done"], 1.0);
    let finished: Value = serde_json::from_str(&std::fs::read_to_string(&progress).unwrap()).unwrap();
    assert_eq!(
        (finished["done"].clone(), finished["subtrees_done"].clone()),
        (Value::from(true), Value::from(total))
    );
}
