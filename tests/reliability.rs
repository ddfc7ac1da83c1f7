//! No read that can block, no report over its own input, no two reports
//! on one name, no panic on a closed or full output, clocks that disagree
//! seen for what they are, one owner per unit: the findings of an
//! adversarial probe, each reproduced here.
#![cfg(unix)]

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant, SystemTime};

use common::{buggy_path, perft_with_bin as perft};
use serde_json::Value;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("perft")
}

fn text(output: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}

/// A plan of the start position to `depth` in `units` units, one ply down.
fn split(dir: &Path, depth: u32, units: u32) {
    let output = perft()
        .args(["split", "--depth", &depth.to_string(), "--ply", "1", "--units", &units.to_string(), "--out"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
}

/// Runs `perft ARGS` with a hard limit, and how long it took.
fn timed(args: &[&str]) -> (std::process::Output, Duration) {
    let began = Instant::now();
    let output = perft().args(args).timeout(Duration::from_secs(60)).output().unwrap();
    (output, began.elapsed())
}

#[test]
fn status_never_waits_on_a_heartbeat_that_is_not_a_file() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    split(&plan, 3, 2);
    std::fs::create_dir_all(plan.join("results")).unwrap();
    let beat = plan.join("results/unit-000000.k1.running");
    let plan = plan.to_str().unwrap();
    // A FIFO in the heartbeat's place: no reader's wait, no signal needed.
    mkfifo(&beat);
    let (output, took) = timed(&["status", plan, "--json", "-"]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(output.status.code(), Some(3), "{}", text(&output));
    // A link to standard input, which stays open.
    std::fs::remove_file(&beat).unwrap();
    std::os::unix::fs::symlink("/dev/stdin", &beat).unwrap();
    let mut child = std::process::Command::new(bin())
        .args(["status", plan])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() && began.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let finished = child.try_wait().unwrap().is_some();
    let _ = child.kill();
    assert!(finished, "status waited on its standard input");
    // A huge (sparse) heartbeat is not read whole.
    std::fs::remove_file(&beat).unwrap();
    std::fs::File::create(&beat).unwrap().set_len(512 << 20).unwrap();
    let (output, took) = timed(&["status", plan, "--json", "-"]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["counts"]["running"], 1, "{report}");
    assert_eq!(report["running"][0]["host"], Value::Null, "{report}");
}

#[test]
fn diff_and_report_refuse_a_fifo_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("old.json");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    let (output, took) = timed(&["diff", fifo, fifo]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output).contains("a FIFO"), "{}", text(&output));
    let page = tmp.path().join("page.html");
    let (output, took) = timed(&["report", fifo, "-o", page.to_str().unwrap()]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(text(&output).contains("a FIFO"), "{}", text(&output));
    // A report too large to be one is refused unread.
    let huge = tmp.path().join("huge.json");
    std::fs::File::create(&huge).unwrap().set_len(300 << 20).unwrap();
    let (output, took) = timed(&["diff", huge.to_str().unwrap(), fifo]);
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(text(&output).contains("more than the"), "{}", text(&output));
}

#[test]
fn reports_never_replace_their_own_inputs() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let journal = dir.join("jx");
    // The journal named as the report: refused before any work.
    let (output, _) =
        timed(&["run", "4", "--checkpoint", journal.to_str().unwrap(), "--json", journal.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(text(&output).contains("is the --checkpoint journal"), "{}", text(&output));
    assert!(!journal.exists(), "nothing was counted or written");
    let positions = dir.join("t.epd");
    let set = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902 ;id \"start\"\n";
    std::fs::write(&positions, set).unwrap();
    let p = positions.to_str().unwrap();
    for args in [
        vec!["bench", "--positions", p, "--json", p, "--repeat", "1", "--sample-time", "0"],
        vec!["compare", "--positions", p, "--json", p, "--repeat", "1"],
    ] {
        let (output, _) = timed(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", text(&output));
        assert!(text(&output).contains("is the --positions file"), "{}", text(&output));
        assert_eq!(std::fs::read_to_string(&positions).unwrap(), set);
    }
    let plan = dir.join("plan");
    split(&plan, 3, 1);
    let manifest = std::fs::read(plan.join("manifest.json")).unwrap();
    for report in [plan.join("manifest.json"), plan.join("results/merge.json")] {
        let (output, _) = timed(&["merge", plan.to_str().unwrap(), "--json", report.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2), "{}", text(&output));
        assert!(text(&output).contains("the plan's"), "{}", text(&output));
    }
    assert_eq!(std::fs::read(plan.join("manifest.json")).unwrap(), manifest);
}

#[test]
fn reports_written_at_once_never_share_a_name() {
    let tmp = tempfile::tempdir().unwrap();
    let children: Vec<Child> = (0..12)
        .map(|_| {
            std::process::Command::new(bin())
                .args(["run", "2", "--json"])
                .env("PERFT_RESULTS", tmp.path())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let reports = std::fs::read_dir(tmp.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".json"));
    assert_eq!(reports.count(), 12);
}

#[test]
fn completions_and_help_end_quietly_on_a_closed_pipe_and_fail_on_a_full_disk() {
    let mut child = std::process::Command::new(bin())
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // stdout dropped: the pipe is closed.
    let status = child.wait().unwrap();
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    assert_eq!(status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    for args in [&["completions", "bash"][..], &["--help"], &["run", "--help"], &["man"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
        let output = std::process::Command::new(bin()).args(args).stdout(full).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        // A full disk is a transient failure (75), not bad input (2).
        assert_eq!(output.status.code(), Some(75), "{args:?}: {stderr}");
        assert!(stderr.contains("No space left on device") && !stderr.contains("panicked"), "{stderr}");
    }
}

/// Writes a heartbeat for unit 0 of `plan`, dated `offset` seconds from
/// now (file time and writer's clock alike), with sequence number `seq`.
fn write_beat(plan: &Path, offset: i64, seq: u64) {
    let path = plan.join("results/unit-000000.k1.running");
    let at = if offset >= 0 {
        SystemTime::now() + Duration::from_secs(offset as u64)
    } else {
        SystemTime::now() - Duration::from_secs((-offset) as u64)
    };
    let updated =
        chrono::DateTime::<chrono::Utc>::from(at).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let text =
        format!(r#"{{"host":"node7","pid":1,"started":"{updated}","updated":"{updated}","seq":{seq}}}"#);
    let temp = path.with_extension("tmp");
    std::fs::write(&temp, text).unwrap();
    std::fs::File::options().write(true).open(&temp).unwrap().set_modified(at).unwrap();
    std::fs::rename(&temp, &path).unwrap();
}

/// Rewrites unit 0's heartbeat every 100 ms, `offset` seconds off, until
/// the returned flag is raised.
fn live_beat(
    plan: &Path,
    offset: i64,
) -> (std::sync::Arc<std::sync::atomic::AtomicBool>, std::thread::JoinHandle<()>) {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (flag, plan) = (stop.clone(), plan.to_path_buf());
    let thread = std::thread::spawn(move || {
        let mut seq = 1;
        while !flag.load(std::sync::atomic::Ordering::Relaxed) {
            write_beat(&plan, offset, seq);
            seq += 1;
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    (stop, thread)
}

fn status_json(plan: &Path) -> Value {
    let (output, _) = timed(&["status", plan.to_str().unwrap(), "--watch", "2", "--json", "-"]);
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| panic!("{}", text(&output)))
}

#[test]
fn heartbeats_are_judged_by_change_where_the_clocks_disagree() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    split(&plan, 3, 2);
    std::fs::create_dir_all(plan.join("results")).unwrap();
    // Dated an hour ahead and unchanging: a dead unit, and clock skew said.
    write_beat(&plan, 3600, 1);
    let report = status_json(&plan);
    let reason = report["missing"][0]["reason"].as_str().unwrap();
    assert!(reason.contains("in the future: clock skew") && reason.starts_with("died"), "{report}");
    // An hour ahead and changing: running, with the skew.
    let (stop, thread) = live_beat(&plan, 3600);
    let report = status_json(&plan);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    thread.join().unwrap();
    assert_eq!(report["running"][0]["host"], "node7", "{report}");
    assert!(report["running"][0]["clock_skew_s"].as_f64().is_some_and(|s| s > 3000.0), "{report}");
    // Seen from a clock 200 s ahead of the file server: stale by the clock,
    // but changing: running.
    let (stop, thread) = live_beat(&plan, -200);
    let report = status_json(&plan);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    thread.join().unwrap();
    assert_eq!(report["counts"]["running"], 1, "{report}");
    // And the same heartbeat left unchanged: died.
    write_beat(&plan, -200, 1);
    let report = status_json(&plan);
    assert!(
        report["missing"][0]["reason"].as_str().unwrap().starts_with("died (heartbeat 200 s old, unchanged"),
        "{report}"
    );
}

#[test]
fn the_uci_mode_refuses_a_hash_past_the_memory_it_may_use() {
    let mut child = std::process::Command::new(bin())
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "setoption name Hash value 1000000\nposition startpos\ngo perft 2\nquit").unwrap();
    drop(stdin);
    let mut out = String::new();
    child.stdout.take().unwrap().read_to_string(&mut out).unwrap();
    child.wait().unwrap();
    assert!(out.contains("info string Hash 1000000 MB is more than this process may use"), "{out}");
    assert!(out.contains("keeping 16 MB") && out.contains("Nodes searched: 400"), "{out}");
}

#[test]
fn an_engine_that_floods_without_newlines_is_cut_at_the_limit() {
    let tmp = tempfile::tempdir().unwrap();
    let engine = tmp.path().join("nonl.sh");
    std::fs::write(
        &engine,
        "#!/bin/sh\nwhile read line; do case \"$line\" in\n  uci) echo uciok ;;\n  isready) echo readyok ;;\n  \"go perft\"*) exec tr '\\0' x < /dev/zero ;;\nesac; done\n",
    )
    .unwrap();
    std::fs::set_permissions(&engine, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let began = Instant::now();
    let output = perft()
        .args(["debug", "--depth", "2", "--timeout", "60", "--engine"])
        .arg(format!("uci:{}", engine.display()))
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    assert!(began.elapsed() < Duration::from_secs(20), "{:?}", began.elapsed());
    assert!(text(&output).contains("printed more than 16 MB without an answer"), "{}", text(&output));
}

#[test]
fn a_unit_has_one_owner_at_a_time() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    let output = perft()
        .args(["split", "--depth", "8", "--ply", "1", "--units", "1", "--out"])
        .arg(&plan)
        .output()
        .unwrap();
    assert!(output.status.success());
    let mut first = std::process::Command::new(bin())
        .args(["unit", plan.to_str().unwrap(), "--index", "0", "--hash", "0", "-t", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let beat = plan.join("results/unit-000000.k1.running");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !beat.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let (second, _) = timed(&["unit", plan.to_str().unwrap(), "--index", "0", "--hash", "0", "-t", "1"]);
    let still_beating = beat.exists();
    first.kill().unwrap();
    first.wait().unwrap();
    // Another owner is a transient failure (75): worth a retry, unlike bad input (2).
    assert_eq!(second.status.code(), Some(75), "{}", text(&second));
    assert!(text(&second).contains("is being counted by another process (pid "), "{}", text(&second));
    assert!(still_beating, "the second unit removed the first one's heartbeat");
}

#[test]
fn smaller_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Counts meant and not read are errors, every one.
    let suite = dir.join("s.epd");
    std::fs::write(&suite, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D-1 5\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D-1 5\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D\u{ff11} 3\n").unwrap();
    let (output, _) = timed(&["suite", suite.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    for line in [":1: ", ":2: ", ":3: "] {
        assert!(text(&output).contains(&format!("s.epd{line}operation")), "{line}: {}", text(&output));
    }
    // --verify-hash where auto chose no table: nothing to verify.
    let (output, _) = timed(&["run", "1", "--hash", "auto", "--verify-hash", "-q"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert!(text(&output).contains("nothing to verify"), "{}", text(&output));
    // One corrupt report among good ones: the rest is drawn.
    let good = dir.join("good.json");
    let (output, _) =
        timed(&["bench", "--repeat", "1", "--sample-time", "0", "--json", good.to_str().unwrap()]);
    assert!(output.status.success(), "{}", text(&output));
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{ not json").unwrap();
    let page = dir.join("page.html");
    let (output, _) =
        timed(&["report", bad.to_str().unwrap(), good.to_str().unwrap(), "-o", page.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(page.exists() && text(&output).contains("bad.json: not JSON"), "{}", text(&output));
}

#[test]
fn man_pages_replace_links_and_are_written_all_or_none() {
    let tmp = tempfile::tempdir().unwrap();
    let pages = tmp.path().join("man");
    std::fs::create_dir(&pages).unwrap();
    let outside = tmp.path().join("outside");
    std::fs::write(&outside, "theirs").unwrap();
    std::os::unix::fs::symlink(&outside, pages.join("perft.1")).unwrap();
    // A page name taken by a directory: refused, and nothing written.
    std::fs::create_dir(pages.join("perft-run.1")).unwrap();
    let (output, _) = timed(&["man", "--dir", pages.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(std::fs::symlink_metadata(pages.join("perft.1")).unwrap().file_type().is_symlink());
    assert!(!pages.join("perft-suite.1").exists(), "no page written when one cannot be");
    std::fs::remove_dir(pages.join("perft-run.1")).unwrap();
    let (output, _) = timed(&["man", "--dir", pages.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "theirs", "written through the link");
    assert!(std::fs::symlink_metadata(pages.join("perft.1")).unwrap().is_file());
}

#[test]
fn the_seal_covers_the_seconds_status_reads() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan");
    split(&plan, 3, 2);
    let (output, _) = timed(&["unit", plan.to_str().unwrap(), "--index", "0", "--hash", "0"]);
    assert!(output.status.success(), "{}", text(&output));
    let result = plan.join("results/unit-000000.k1.json");
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(&result).unwrap()).unwrap();
    value["seconds"] = serde_json::json!(-5.0);
    std::fs::write(&result, serde_json::to_string(&value).unwrap()).unwrap();
    let (output, _) = timed(&["status", plan.to_str().unwrap()]);
    let out = text(&output);
    assert!(out.contains("its result is not valid: corrupt: its seal does not match"), "{out}");
    assert!(!out.contains("time left: about -"), "{out}");
}

#[test]
fn a_check_interrupted_before_its_first_count_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("r.json");
    // An engine that takes its time to start: interrupted in its handshake.
    let child = std::process::Command::new(bin())
        .args(["check", "--engine"])
        .arg(format!("uci:{} --start-delay 20000", buggy_path().display()))
        .arg("--json")
        .arg(&report)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    // SAFETY: `kill` touches no memory; the pid is our child's, not reaped.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let output = child.wait_with_output().unwrap();
    let out = text(&output);
    assert_eq!(output.status.code(), Some(130), "{out}");
    assert!(out.contains("interrupted before the first count"), "{out}");
    assert!(!out.contains("no suite line was read"), "{out}");
}
