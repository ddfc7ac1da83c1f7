//! One stop is one stop: coreutils `timeout` (the child, then its group),
//! a kill of the process and then of its group, and Ctrl-C pressed in a
//! terminal, twice in a row: each is one request, and the command writes
//! what it finished.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("perft")
}

fn text(output: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

/// The report at `path`, which must say the run was interrupted.
fn interrupted_report(path: &Path, output: &str) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("no report ({e}):\n{output}"));
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["interrupted"], true, "{output}");
    report
}

/// `perft check` of Stockfish on a suite that ends in the start position's
/// perft(8): minutes of work, so any stop finds it counting.
fn check_args(dir: &Path, report: &Path) -> Vec<String> {
    let suite = common::long_suite(dir);
    let engine = format!("sf=uci:{}", common::stockfish_path());
    [
        "check",
        "--engine",
        &engine,
        "--jobs",
        "1",
        "--max-nodes",
        "100000000000",
        "--timeout",
        "600",
        "--json",
        report.to_str().unwrap(),
        suite.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn five_timeout_runs_of_check_all_write_their_report() {
    let dir = tempfile::tempdir().unwrap();
    for run in 0..5 {
        let report = dir.path().join(format!("check-{run}.json"));
        let junit = dir.path().join(format!("check-{run}.xml"));
        let output = Command::new("timeout")
            .args(["-k", "60", "6"])
            .arg(bin())
            .args(check_args(dir.path(), &report))
            .arg("--junit")
            .arg(&junit)
            .env_remove("GITHUB_ACTIONS")
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let out = text(&output);
        // 124: `timeout` stopped it (with SIGTERM, to the child and then to
        // its group), not the SIGKILL 60 s later (137).
        assert_eq!(output.status.code(), Some(124), "run {run}: {out}");
        assert!(out.contains("(interrupted)"), "run {run}: no summary: {out}");
        assert_eq!(out.matches("SIGTERM: finishing what is running").count(), 1, "run {run}: {out}");
        interrupted_report(&report, &out);
        // The JUnit report of an interrupted run is never a green one.
        let xml = std::fs::read_to_string(&junit).unwrap_or_else(|e| panic!("no JUnit report ({e}): {out}"));
        assert!(xml.contains("message=\"interrupted: a signal stopped the run"), "{xml}");
    }
}

#[test]
fn a_kill_of_the_process_and_then_of_its_group_is_one_stop() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("check.json");
    let child = std::os::unix::process::CommandExt::process_group(
        Command::new(bin()).args(check_args(dir.path(), &report)).env_remove("GITHUB_ACTIONS"),
        0,
    )
    .stdin(Stdio::null())
    .stdout(Stdio::piped())
    .stderr(Stdio::piped())
    .spawn()
    .unwrap();
    std::thread::sleep(Duration::from_secs(3));
    let pid = child.id().to_string();
    for target in [pid.clone(), format!("-{pid}")] {
        assert!(Command::new("kill").args(["-TERM", "--", &target]).status().unwrap().success());
    }
    let output = child.wait_with_output().unwrap();
    let out = text(&output);
    assert_eq!(output.status.code(), Some(143), "{out}");
    assert_eq!(out.matches("SIGTERM: finishing what is running").count(), 1, "{out}");
    interrupted_report(&report, &out);
}

/// Runs `perft ARGS` on a new pseudo-terminal (python3's `pty`), presses
/// Ctrl-C twice after `after` seconds, and gives the exit status and what
/// the terminal showed; `None` without python3 (unless CI requires it).
fn ctrl_c_in_a_terminal(args: &[&str], after: f64) -> Option<(i32, String)> {
    let script = r#"
import os, pty, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
time.sleep(float(os.environ["AFTER"]))
os.write(fd, b"\x03\x03")
shown = b""
while True:
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    shown += data
_, status = os.waitpid(pid, 0)
sys.stdout.write("%d\n" % os.waitstatus_to_exitcode(status))
sys.stdout.write(shown.decode("utf-8", "replace"))
"#;
    let output = Command::new("timeout")
        .args(["120", "python3", "-c", script])
        .arg(bin())
        .args(args)
        .env("AFTER", after.to_string())
        .env_remove("GITHUB_ACTIONS")
        .output();
    let required = std::env::var("PERFT_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    match output {
        Ok(output) if output.status.success() => {
            let all = String::from_utf8_lossy(&output.stdout).into_owned();
            let (code, shown) = all.split_once('\n').unwrap();
            Some((code.trim().parse().unwrap(), shown.to_string()))
        }
        Err(e) if !required => {
            eprintln!("skipped: no python3 ({e})");
            None
        }
        other => panic!("the terminal test did not run: {other:?}"),
    }
}

#[test]
fn ctrl_c_twice_in_a_terminal_is_one_stop() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("run.json");
    let args = ["run", "9", "-t", "1", "--hash", "0", "--json", report.to_str().unwrap()];
    let Some((code, shown)) = ctrl_c_in_a_terminal(&args, 2.0) else { return };
    assert_eq!(code, 130, "{shown}");
    assert_eq!(shown.matches("Ctrl-C: finishing what is running").count(), 1, "{shown}");
    assert!(shown.contains("root moves finished ("), "no total: {shown}");
    interrupted_report(&report, &shown);
}
