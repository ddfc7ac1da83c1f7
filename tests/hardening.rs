//! Hostile inputs, engines and environments: counts past 2^64, report
//! paths that are devices, FIFOs or links, engines that flood, hang, fork
//! or never answer, absurd thread counts, signals. Every test bounds its
//! own time (a hard timeout kills the program under test) and never starts
//! more than a handful of threads or processes.

#![cfg(unix)]

use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use perft::report::{from_json, RunReport, SuiteReport};
use serde_json::Value;

mod common;

const KINGS: &str = "8/8/8/4k3/8/8/8/4K3 w - - 0 1";

fn bin() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_perft"));
    cmd.env_remove("RUST_BACKTRACE").env("PERFT_BIN", env!("CARGO_BIN_EXE_perft"));
    cmd
}

fn fake(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fakes").join(name).to_string_lossy().into_owned()
}

/// Waits for `child`, killing it and failing the test past `limit`.
fn finish(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let output = child.wait_with_output().unwrap();
            panic!(
                "still running after {limit:?}; killed. stdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Runs `cmd` to the end within `limit` seconds.
fn run(cmd: &mut Command, limit: u64) -> Output {
    let child = cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    finish(child, Duration::from_secs(limit))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn signal(child: &Child, name: &str) {
    assert!(Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap()
        .success());
}

/// Whether process `pid` is running (a zombie is not).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| stat.rsplit(')').next().map(|rest| rest.trim_start().starts_with('Z')))
        .is_some_and(|zombie| !zombie)
}

/// Reads a pid a fake engine wrote, waiting for it to appear.
fn read_pid(path: &Path) -> u32 {
    let start = Instant::now();
    loop {
        if let Some(pid) = std::fs::read_to_string(path).ok().and_then(|t| t.trim().parse().ok()) {
            return pid;
        }
        assert!(start.elapsed() < Duration::from_secs(20), "the fake engine never wrote {}", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits until `pid` is gone (the process that reaps it may need a
/// moment); false if it still runs after five seconds.
fn gone(pid: u32) -> bool {
    let start = Instant::now();
    while alive(pid) {
        if start.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

/// Perft of the two-kings position above by dynamic programming over the
/// kings' squares: an independent count that passes 2^64 at depth 24.
fn kings_perft(depth: u32) -> u128 {
    let near = |a: usize, b: usize| (a % 8).abs_diff(b % 8) <= 1 && (a / 8).abs_diff(b / 8) <= 1;
    let steps: Vec<Vec<usize>> =
        (0..64).map(|s| (0..64).filter(|&t| t != s && near(s, t)).collect()).collect();
    // leaves[white king][black king][side to move], one ply at a time.
    let mut leaves = vec![[[1u128; 2]; 64]; 64];
    for _ in 0..depth {
        let mut next = vec![[[0u128; 2]; 64]; 64];
        for w in 0..64 {
            for b in 0..64 {
                if w == b || near(w, b) {
                    continue;
                }
                next[w][b][0] = steps[w].iter().filter(|&&t| !near(t, b)).map(|&t| leaves[t][b][1]).sum();
                next[w][b][1] = steps[b].iter().filter(|&&t| !near(t, w)).map(|&t| leaves[w][t][0]).sum();
            }
        }
        leaves = next;
    }
    leaves[4][36][0] // white king e1, black king e5, white to move
}

#[test]
fn counts_past_2_pow_64_are_exact_everywhere() {
    assert!(kings_perft(24) > u128::from(u64::MAX), "the test must pass 2^64");
    let dir = tempfile::tempdir().unwrap();
    for depth in [24, 25, 28] {
        let json = dir.path().join(format!("run{depth}.json"));
        let output = run(
            bin().args(["run", &depth.to_string(), "--fen", KINGS, "--hash", "16", "--json"]).arg(&json),
            60,
        );
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{stdout}");
        let exact = kings_perft(depth);
        assert!(stdout.contains(&format!("Nodes searched: {exact}\n")), "depth {depth}: {stdout}");
        // The report holds the exact integers and reads back exactly.
        let raw = std::fs::read_to_string(&json).unwrap();
        assert!(raw.contains(&format!("\"nodes\": {exact},")), "{raw}");
        let report: RunReport = from_json(&raw).unwrap();
        assert_eq!(report.nodes, exact);
        assert_eq!(report.divide.iter().map(|d| d.nodes).sum::<u128>(), exact);
        assert_eq!(report.header.kind, "run");
    }

    // A suite line expecting the count wrapped to 64 bits fails; the exact
    // count passes, hashed or not at the parallel levels; a count past
    // 2^128 - 1 is an error naming its line.
    let exact = kings_perft(24);
    let wrapped = exact as u64;
    let suite = dir.path().join("big.epd");
    std::fs::write(&suite, format!("{KINGS} ;D24 {wrapped}\n")).unwrap();
    let output = run(bin().args(["suite", "--hash", "16", "--no-json"]).arg(&suite), 60);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(&format!("expected {wrapped}, got {exact}")), "{stdout}");
    let json = dir.path().join("suite.json");
    std::fs::write(&suite, format!("{KINGS} ;D24 {exact} ;D25 {}\n", kings_perft(25))).unwrap();
    let output = run(bin().args(["suite", "--hash", "16", "--json"]).arg(&json).arg(&suite), 60);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    let report: SuiteReport = from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report.results[0].nodes, exact);
    assert_eq!(report.summary.nodes, exact + kings_perft(25));
    // diff reads such reports back exactly.
    let output = run(bin().arg("diff").arg(&json).arg(&json), 30);
    assert_eq!(output.status.code(), Some(0), "{}{}", text(&output.stdout), text(&output.stderr));

    std::fs::write(&suite, format!("{KINGS} ;D3 {}0\n", u128::MAX)).unwrap();
    let output = run(bin().args(["suite", "--no-json"]).arg(&suite), 30);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains(":1: node count") && stdout.contains("too large"), "{stdout}");
}

#[test]
fn consecutive_deep_depths_and_wrong_deep_counts_finish_at_table_speed() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("kings.epd");
    std::fs::write(&suite, format!("{KINGS} ;D15 {} ;D16 {}\n", kings_perft(15), kings_perft(16))).unwrap();
    let output = run(bin().args(["suite", "--hash", "16", "--no-json"]).arg(&suite), 30);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    // A wrong deep expectation is recounted (with the second key set) for
    // its divide, also at table speed; the divide adds up to the count.
    let json = dir.path().join("wrong.json");
    std::fs::write(&suite, format!("{KINGS} ;D16 {}\n", kings_perft(16) + 1)).unwrap();
    let output = run(bin().args(["suite", "--hash", "16", "--json"]).arg(&json).arg(&suite), 30);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stdout));
    let report: SuiteReport = from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let failure = &report.results[0];
    assert_eq!(failure.nodes, kings_perft(16));
    assert_eq!(failure.divide.iter().map(|d| d.nodes).sum::<u128>(), failure.nodes);
    assert_eq!(failure.recount, None, "the two key sets agree");
}

#[test]
fn reports_write_through_links_fifos_and_devices() {
    let dir = tempfile::tempdir().unwrap();
    // A symbolic link: its target is replaced, the link stays.
    let target = dir.path().join("real.json");
    std::fs::write(&target, "old").unwrap();
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink("real.json", &link).unwrap();
    let output = run(bin().args(["run", "2", "-q", "--json"]).arg(&link), 30);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert!(std::fs::read_to_string(&target).unwrap().contains("\"nodes\": 400"));
    // A dangling link: its target is created, but not the directories
    // leading to it (checked before the count: nothing is counted).
    let dangling = dir.path().join("dangling.json");
    std::os::unix::fs::symlink("sub/new.json", &dangling).unwrap();
    let output = run(bin().args(["run", "1", "-q", "--json"]).arg(&dangling), 30);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("whose directory does not exist"), "{}", text(&output.stderr));
    assert!(!dir.path().join("sub").exists());
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let output = run(bin().args(["run", "1", "-q", "--json"]).arg(&dangling), 30);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(std::fs::read_to_string(dir.path().join("sub/new.json")).unwrap().contains("\"nodes\": 20"));

    // A FIFO is written into, not replaced.
    let fifo = dir.path().join("fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let reader_path = fifo.clone();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        std::fs::File::open(&reader_path).unwrap().read_to_string(&mut text).unwrap();
        text
    });
    let output = run(bin().args(["run", "2", "-q", "--json"]).arg(&fifo), 30);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(reader.join().unwrap().contains("\"nodes\": 400"));
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // /dev/stdout is stdout itself, as `-`: piped, or redirected to a file
    // (which it would otherwise overwrite from its start), it holds the
    // whole report and the human output goes to stderr.
    let output = run(bin().args(["run", "1", "-q", "--json", "/dev/stdout"]), 30);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert!(text(&output.stdout).contains("\"kind\": \"run\""), "{}", text(&output.stdout));
    let redirected = dir.path().join("stdout.txt");
    let output = bin()
        .args(["run", "2", "--json", "/dev/stdout"])
        .stdout(std::fs::File::create(&redirected).unwrap())
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert!(output.status.success());
    assert!(text(&output.stderr).contains("Nodes searched: 400"), "{}", text(&output.stderr));
    let report: RunReport = from_json(&std::fs::read_to_string(&redirected).unwrap()).unwrap();
    assert_eq!(report.nodes, 400);
    // A replaced file keeps its permissions.
    let private = dir.path().join("private.json");
    std::fs::write(&private, "old").unwrap();
    std::fs::set_permissions(&private, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let output = run(bin().args(["run", "1", "-q", "--json"]).arg(&private), 30);
    assert_eq!(output.status.code(), Some(0));
    let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&private).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o600);

    // A character device (a copy of /dev/null; making one needs root).
    let device = dir.path().join("null");
    if Command::new("mknod").arg(&device).args(["c", "1", "3"]).status().is_ok_and(|s| s.success()) {
        let output = run(bin().args(["run", "2", "-q", "--json"]).arg(&device), 30);
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        assert!(std::fs::metadata(&device).unwrap().file_type().is_char_device());
    } else {
        eprintln!("not root: the character-device case is not exercised");
    }
    // A directory is refused before any work.
    let output = run(bin().args(["run", "2", "--json"]).arg(dir.path()), 30);
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stderr).contains("is a directory"), "{}", text(&output.stderr));
}

fn two_position_suite(dir: &Path) -> PathBuf {
    let suite = dir.join("s.epd");
    std::fs::write(
        &suite,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n8/8/8/8/8/8/8/K6k w - - ;D1 3\n",
    )
    .unwrap();
    suite
}

#[test]
fn engine_floods_are_cut_off_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let suite = two_position_suite(dir.path());
    // `a2a3: 1` forever, as fast as a pipe goes: bounded memory, an error
    // for that count, and the other checks still run.
    let engine = format!("flood=uci:env FAKE_MODE=flood {}", fake("uci-fake.sh"));
    let child = bin()
        .args(["check", "--timeout", "60", "--no-json", "--engine", &engine])
        .arg(&suite)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let peak = std::thread::spawn(move || {
        let mut peak = 0u64;
        while let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status")) {
            let kib = status
                .lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok());
            peak = peak.max(kib.unwrap_or(0));
            std::thread::sleep(Duration::from_millis(20));
        }
        peak
    });
    let output = finish(child, Duration::from_secs(40));
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("printed more than 16 MB without an answer"), "{stdout}");
    assert!(stdout.contains("2 passed, 0 failed, 1 error,"), "{stdout}");
    let peak_mib = peak.join().unwrap() / 1024;
    assert!(peak_mib < 150, "peak RSS {peak_mib} MiB while the engine flooded");

    // `yes spam` from a command engine: cut off by the output limit.
    let engine = format!("spam=qperft:env FAKE_MODE=spam {}", fake("cmd-fake.sh"));
    let start = Instant::now();
    let output =
        run(bin().args(["check", "--timeout", "5", "--no-json", "--engine", &engine]).arg(&suite), 40);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("printed more than 16 MB"), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());

    // A slow stream of `info string spam` never reaches the limit: the
    // deadline ends it, although the engine never stops printing.
    let engine = format!("spam=uci:env FAKE_MODE=spam {}", fake("uci-fake.sh"));
    let start = Instant::now();
    let output =
        run(bin().args(["check", "--timeout", "2", "--no-json", "--engine", &engine]).arg(&suite), 40);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("no answer within 2.0 s"), "{stdout}");
    assert!(stdout.contains("info string spam"), "the engine's last output is shown: {stdout}");
    assert!(start.elapsed() < Duration::from_secs(15), "took {:?}", start.elapsed());
}

#[test]
fn thread_counts_are_capped_before_any_work() {
    for args in
        [&["run", "3", "-t", "100000"][..], &["suite", "-t", "1025", "--no-json"], &["bench", "-t", "5000"]]
    {
        let start = Instant::now();
        let output = run(bin().args(args), 30);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("is more than the maximum of 1024"), "{args:?}: {stderr}");
        assert!(start.elapsed() < Duration::from_secs(5));
    }
    // `uci` clamps to the maximum it advertises, and setoption starts no
    // thread (the pool is built at the next `go perft`).
    let mut child = bin().arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    use std::io::{BufRead, Write};
    writeln!(stdin, "uci\nsetoption name Threads value 100000000\nisready").unwrap();
    let mut lines = Vec::new();
    loop {
        let mut line = String::new();
        assert!(stdout.read_line(&mut line).unwrap() > 0, "uci ended: {lines:?}");
        let done = line.starts_with("readyok");
        lines.push(line);
        if done {
            break;
        }
    }
    assert!(lines.iter().any(|l| l.contains("max 1024")), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.contains("Threads 100000000 is above the maximum; using 1024")),
        "{lines:?}"
    );
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap();
    let threads: usize =
        status.lines().find_map(|l| l.strip_prefix("Threads:")).unwrap().trim().parse().unwrap();
    assert!(threads < 8, "{threads} threads after setoption");
    writeln!(stdin, "quit").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn engines_and_their_children_are_killed() {
    let dir = tempfile::tempdir().unwrap();
    let suite = two_position_suite(dir.path());
    // A UCI engine that forks a child and hangs: both are gone after the
    // timeout, and the run goes on.
    let pidfile = dir.path().join("forker.pid");
    let engine =
        format!("forker=uci:env FAKE_MODE=forker FAKE_PIDFILE={} {}", pidfile.display(), fake("uci-fake.sh"));
    let output =
        run(bin().args(["check", "--timeout", "2", "--no-json", "--engine", &engine]).arg(&suite), 40);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stdout));
    let child = read_pid(&pidfile);
    assert!(gone(child), "the engine's child {child} outlived it");

    // A command engine that prints its count and exits, leaving a child
    // holding its output: the answer is complete, the child killed.
    let pidfile = dir.path().join("background.pid");
    let engine = format!(
        "bg=qperft:env FAKE_MODE=background FAKE_PIDFILE={} {}",
        pidfile.display(),
        fake("cmd-fake.sh")
    );
    let start = Instant::now();
    let output =
        run(bin().args(["check", "--timeout", "60", "--no-json", "--engine", &engine]).arg(&suite), 50);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("3 checks: 3 passed"), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(30), "took {:?}", start.elapsed());
    let child = read_pid(&pidfile);
    assert!(gone(child), "the engine's leftover child {child} still runs");

    // A child that leaves the group (setsid) and holds the output open,
    // writing to stderr forever: the answer is still taken once the engine
    // itself has exited.
    let pidfile = dir.path().join("escape.pid");
    let engine =
        format!("esc=qperft:env FAKE_MODE=escape FAKE_PIDFILE={} {}", pidfile.display(), fake("cmd-fake.sh"));
    let start = Instant::now();
    let output =
        run(bin().args(["check", "--timeout", "60", "--no-json", "--engine", &engine]).arg(&suite), 50);
    let escaped = read_pid(&pidfile);
    let _ = Command::new("kill").arg(escaped.to_string()).status(); // it escaped us: clean up
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(30), "took {:?}", start.elapsed());
    // A program that closes stdout and then logs much to stderr is not
    // stalled by its full pipe.
    let engine = format!("log=qperft:env FAKE_MODE=stderrlog {}", fake("cmd-fake.sh"));
    let start = Instant::now();
    let output =
        run(bin().args(["check", "--timeout", "30", "--no-json", "--engine", &engine]).arg(&suite), 50);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stdout));
    assert!(start.elapsed() < Duration::from_secs(20), "took {:?}", start.elapsed());

    // SIGTERM while the engine works: perft stops at once (not after the
    // 60 s timeout), exits 143, writes its report and kills the engine's
    // whole group.
    let pidfile = dir.path().join("term.pid");
    let json = dir.path().join("check.json");
    let engine =
        format!("forker=uci:env FAKE_MODE=forker FAKE_PIDFILE={} {}", pidfile.display(), fake("uci-fake.sh"));
    let child = bin()
        .args(["check", "--timeout", "60", "--engine", &engine, "--json"])
        .arg(&json)
        .arg(&suite)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let grandchild = read_pid(&pidfile);
    let start = Instant::now();
    signal(&child, "TERM");
    let output = finish(child, Duration::from_secs(10));
    assert_eq!(output.status.code(), Some(143), "{}", text(&output.stdout));
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?} to stop", start.elapsed());
    assert!(gone(grandchild), "the engine's child survived SIGTERM");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
    assert_eq!(report["summary"]["errors"], 0, "the interruption is not blamed on the engine");
}

#[test]
fn a_silent_engine_is_given_up_at_once_within_its_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("ten.epd");
    std::fs::write(&suite, "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9 ;D3 54\n".repeat(10)).unwrap();
    let json = dir.path().join("check.json");
    let start = Instant::now();
    // cat answers `uci` with `uci`, never `uciok`; the handshake's limit
    // is --timeout's 3 s (the smaller of 30 s and --timeout).
    let output = run(
        bin()
            .args(["check", "--timeout", "3", "--engine", "cat=uci:/bin/cat", "--json"])
            .arg(&json)
            .arg(&suite),
        60,
    );
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    assert_eq!(stdout.matches("cat is dead, not asked again: did not finish the UCI handshake").count(), 1);
    assert!(stdout.contains("no answer within 3.0 s"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    // Every count is an error: the one asked, and the 29 never asked.
    assert_eq!(report["summary"]["checks"], 30);
    assert_eq!(report["summary"]["errors"], 31, "30 counts and the engine given up");
    assert_eq!(report["summary"]["skipped"], 0);
    let not_asked = report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["error"].as_str().is_some_and(|e| e.starts_with("not asked: the engine is dead")));
    assert_eq!(not_asked.count(), 29);
    // --handshake-timeout still sets the handshake's own limit.
    let start = Instant::now();
    let output = run(
        bin()
            .args(["check", "--handshake-timeout", "1", "--engine", "cat=uci:/bin/cat", "--no-json"])
            .arg(&suite),
        60,
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(text(&output.stdout).contains("no answer within 1.0 s"), "{}", text(&output.stdout));
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
}

#[test]
fn a_command_engine_that_exits_without_output_is_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("five.epd");
    std::fs::write(&suite, "8/8/8/8/8/8/8/K6k w - - ;D1 3\n".repeat(5)).unwrap();
    for spec in ["mute=cmd:/bin/true {depth} {fen}", "failing=cmd:/bin/false {depth} {fen}"] {
        let output = run(bin().args(["check", "--no-json", "--engine", spec]).arg(&suite), 60);
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(2), "{stdout}");
        assert_eq!(stdout.matches("is dead, not asked again").count(), 1, "{stdout}");
        assert!(
            stdout.contains("5 checks: 0 passed, 0 failed, 5 errors, 0 skipped; 1 error besides"),
            "{stdout}"
        );
    }
}

#[test]
fn signals_stop_runs_and_write_what_finished() {
    let dir = tempfile::tempdir().unwrap();
    for (name, code) in [("TERM", 143), ("HUP", 129), ("INT", 130)] {
        let json = dir.path().join(format!("run-{name}.json"));
        let child = bin()
            .args(["run", "9", "-t", "2", "--json"])
            .arg(&json)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        signal(&child, name);
        let output = finish(child, Duration::from_secs(60));
        let stdout = text(&output.stdout);
        assert_eq!(output.status.code(), Some(code), "SIG{name}: {stdout}");
        let report: RunReport = from_json(&std::fs::read_to_string(&json).unwrap()).unwrap();
        assert!(report.interrupted, "SIG{name}");
        assert!(report.divide.len() < 20, "SIG{name}: every root move finished?");
        assert_eq!(report.nodes, report.divide.iter().map(|d| d.nodes).sum::<u128>());
    }
    // A suite: the report is written, marked interrupted.
    let json = dir.path().join("suite.json");
    let suite = common::long_suite(dir.path());
    let child = bin()
        .args(["suite", "--relaxed", "--hash", "0", "-t", "2", "--json"])
        .arg(&json)
        .arg(&suite)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    signal(&child, "TERM");
    let output = finish(child, Duration::from_secs(60));
    assert_eq!(output.status.code(), Some(143), "{}", text(&output.stdout));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["interrupted"], true);
}

#[test]
fn uci_mode_ends_at_the_first_signal() {
    // A GUI or harness stops an engine with SIGTERM; `perft uci` waits on
    // its input and has nothing to write, so it ends at once.
    for (name, code) in [("TERM", 143), ("INT", 130)] {
        let mut child = bin().arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        use std::io::{BufRead, Write};
        writeln!(stdin, "isready").unwrap();
        let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.starts_with("perft "), "the greeting: {line}");
        line.clear();
        reader.read_line(&mut line).unwrap();
        assert_eq!(line.trim(), "readyok");
        signal(&child, name);
        let output = finish(child, Duration::from_secs(5));
        assert_eq!(output.status.code(), Some(code), "SIG{name}");
    }
}

#[test]
fn engine_errors_show_the_engines_last_output_in_logs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = two_position_suite(dir.path());
    let engine = format!("crash=qperft:env FAKE_MODE=crash {}", fake("cmd-fake.sh"));
    let output = run(bin().args(["check", "--no-json", "--engine", &engine]).arg(&suite), 60);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    let error =
        stdout.lines().position(|l| l.starts_with("ERROR ") && l.contains("its last output:")).unwrap();
    assert!(stdout.lines().nth(error + 1).unwrap().contains("Segmentation fault (pretend)"), "{stdout}");
}

#[test]
fn operating_system_errors_are_said_once() {
    let output = run(bin().args(["run", "3", "--checkpoint", "/nonexistent/dir/journal"]), 30);
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    // Said once, in the words every command uses for a missing file.
    assert_eq!(stderr.matches("no such file").count(), 1, "{stderr}");
    assert!(!stderr.contains("os error"), "{stderr}");
}

#[test]
fn a_flood_of_bad_suite_lines_prints_a_few_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("garbage.epd");
    std::fs::write(&suite, "garbage line\n".repeat(1_000_000)).unwrap();
    let json = dir.path().join("suite.json");
    let output = run(bin().args(["suite", "--json"]).arg(&json).arg(&suite), 60);
    let stdout = text(&output.stdout);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.len() < 10_000, "{} bytes of output", stdout.len());
    let line_errors = stdout
        .lines()
        .filter(|l| {
            l.split(".epd:").nth(1).is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    assert_eq!(line_errors, 10, "{stdout}");
    assert!(
        stdout.contains("990 more unreadable lines not shown here (listed in the JSON report)"),
        "{stdout}"
    );
    assert!(stdout.contains("999000 more unreadable lines, not listed (the first 1000 are)"), "{stdout}");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["summary"]["errors"], 1_000_000);
    assert_eq!(report["errors"].as_array().unwrap().len(), 1001);
    assert!(std::fs::metadata(&json).unwrap().len() < 1 << 20);
}

/// A FIFO as a report path that nobody reads, or whose reader never reads,
/// holds the program at most `FIFO_WAIT` (10 s) at each step, then is an
/// error (exit 2) with the counts already printed.
#[test]
fn a_fifo_nobody_reads_is_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let start = Instant::now();
    let output = run(bin().args(["run", "3", "-q", "--json"]).arg(&fifo), 60);
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert_eq!(text(&output.stdout).trim(), "8902", "the count is printed first");
    assert!(text(&output.stderr).contains("nothing read the FIFO"), "{}", text(&output.stderr));
    assert!(start.elapsed() < Duration::from_secs(30), "took {:?}", start.elapsed());

    // A reader that opens the FIFO and never reads: a report larger than
    // the pipe's buffer stops being taken.
    let stalled = Command::new("sh").arg("-c").arg("exec sleep 60 < \"$0\"").arg(&fifo).spawn().unwrap();
    let start = Instant::now();
    let output = run(
        bin().args(["suite", "positions/marcel-random.perft", "--max-depth", "1", "--json"]).arg(&fifo),
        60,
    );
    let mut stalled = stalled;
    let _ = stalled.kill();
    let _ = stalled.wait();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output.stderr));
    assert!(text(&output.stderr).contains("nothing read the FIFO"), "{}", text(&output.stderr));
    assert!(start.elapsed() < Duration::from_secs(40), "took {:?}", start.elapsed());
}

/// A second stop signal, more than a second after the first, ends a
/// command at once, even one that waits (here on a FIFO report that nobody
/// reads, for up to 10 s): the first is reported, and the exit status is
/// the second's. (One within the second repeats the first: see
/// tests/signals.rs.)
#[test]
fn a_second_signal_ends_the_program_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("report.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let child = bin()
        .args(["run", "3", "-q", "--json"])
        .arg(&fifo)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(1300));
    signal(&child, "TERM");
    let output = finish(child, Duration::from_secs(8));
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(143), "{stderr}");
    assert!(start.elapsed() < Duration::from_secs(6), "took {:?}", start.elapsed());
    assert!(stderr.contains("Ctrl-C: finishing what is running"), "{stderr}");
}

/// A one-thread run counts on the main thread and handles stop signals
/// without a thread: the process has one thread. Where the main stack may
/// not grow to 4 MiB, a worker with a stack of its own counts instead.
#[cfg(target_os = "linux")]
#[test]
fn a_one_thread_run_starts_no_thread_where_the_main_stack_suffices() {
    for (stack_kib, expected_threads) in [(8192, 1), (256, 2)] {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("ulimit -s {stack_kib} && exec \"$0\" run 7 -t 1 --hash 0 -q"))
            .arg(env!("CARGO_BIN_EXE_perft"))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let tasks = format!("/proc/{}/task", child.id());
        let mut most = 0;
        let start = Instant::now();
        // Its threads, sampled until it ends.
        while child.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(120) {
            if let Ok(entries) = std::fs::read_dir(&tasks) {
                most = most.max(entries.count());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let output = finish(child, Duration::from_secs(120));
        assert_eq!(text(&output.stdout).trim(), "3195901860", "{}", text(&output.stderr));
        assert_eq!(most, expected_threads, "threads with a {stack_kib} KiB stack limit");
    }
}
