//! End-to-end tests of the `perft` binary: `run` and `suite`.

mod common;

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const FRC: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";

fn perft() -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    // Inside GitHub Actions the tool would add annotations to what it prints.
    cmd.env_remove("GITHUB_ACTIONS");
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

fn stdout_of(cmd: &mut Command) -> String {
    let output = cmd.output().unwrap();
    assert!(output.status.success(), "{:?} failed: {}", cmd, String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

/// Our output without the trailing timing line, as lines.
fn divide_lines(out: &str) -> Vec<String> {
    out.lines().take_while(|l| !l.starts_with("Time ")).map(str::to_string).collect()
}

fn sorted_moves(lines: &[String]) -> Vec<String> {
    let mut moves: Vec<String> =
        lines.iter().filter(|l| l.contains(": ") && !l.starts_with("Nodes")).cloned().collect();
    moves.sort();
    moves
}

#[test]
fn run_divide_matches_stockfish() {
    for (fen, moves, depth, chess960) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", vec![], 3, false),
        (KIWIPETE, vec![], 3, false),
        (KIWIPETE, vec!["e1g1", "h3g2"], 2, false),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", vec![], 4, false),
        ("rnbqkbnr/pppp1ppp/8/8/4Pp2/8/PPPP2PP/RNBQKBNR b KQkq e3 0 3", vec![], 3, false),
        (FRC, vec![], 3, true),
        // Double-Fischer-random: the two sides' kings and rooks on
        // different files (from Stockfish's tests/perft.sh).
        ("qbbnrkr1/p1pppppp/1p4n1/8/2P5/6N1/PPNPPPPP/1BRKBRQ1 b FCge - 1 3", vec![], 4, true),
        ("1rkr3b/1ppn3p/3pB1n1/6q1/R2P4/4N1P1/1P5P/2KRQ1B1 b Dbd - 0 14", vec!["b8a8"], 3, true),
    ] {
        let mut cmd = perft();
        cmd.args(["run", &depth.to_string(), "--fen", fen, "--threads", "2"]);
        if !moves.is_empty() {
            cmd.arg("--moves").args(&moves);
        }
        if chess960 {
            cmd.arg("--chess960");
        }
        let ours = divide_lines(&stdout_of(&mut cmd));
        let Some(theirs) = common::stockfish_divide(fen, &moves, depth, chess960) else { return };
        // Same format: move lines, a blank line, the total, a blank line.
        let n = ours.len();
        assert!(n >= 3 && ours[n - 3].is_empty() && ours[n - 1].is_empty(), "{ours:?}");
        assert_eq!(ours[n - 2], *theirs.last().unwrap(), "{fen}");
        assert_eq!(ours[..n - 3].len(), theirs.len() - 2, "{fen}");
        assert_eq!(sorted_moves(&ours), sorted_moves(&theirs), "{fen}");
    }
}

#[test]
fn run_order_follows_stockfish_on_the_start_position() {
    let ours = divide_lines(&stdout_of(perft().args(["run", "2"])));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let Some(theirs) = common::stockfish_divide(start, &[], 2, false) else { return };
    assert_eq!(ours, theirs.into_iter().chain([String::new()]).collect::<Vec<_>>());
}

#[test]
fn run_quiet_prints_only_the_total() {
    assert_eq!(stdout_of(perft().args(["run", "4", "--quiet"])), "197281\n");
    assert_eq!(stdout_of(perft().args(["run", "0", "-q"])), "1\n");
}

#[test]
fn run_is_identical_for_any_thread_count_and_mode() {
    let one = divide_lines(&stdout_of(perft().args(["run", "5", "--fen", KIWIPETE, "-t", "1"])));
    let two = divide_lines(&stdout_of(perft().args(["run", "5", "--fen", KIWIPETE, "-t", "2"])));
    let three = divide_lines(&stdout_of(perft().args(["run", "5", "--fen", KIWIPETE, "-t", "3"])));
    let full = stdout_of(perft().args(["run", "4", "--fen", KIWIPETE, "-t", "2", "--full"]));
    assert_eq!(one, two);
    assert_eq!(one, three);
    assert!(one.contains(&"Nodes searched: 193690690".to_string()));
    assert!(full.contains("Nodes searched: 4085603"));
    assert!(full.contains("full counting"), "{full}");
}

#[test]
fn run_json_report() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let out = stdout_of(perft().args(["run", "3", "--moves", "e2e4", "--json"]).arg(&path));
    assert!(out.contains("Report: "));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for key in [
        "tool",
        "machine",
        "fen",
        "depth",
        "mode",
        "threads",
        "nodes",
        "seconds",
        "nodes_per_second",
        "divide",
    ] {
        assert!(report.get(key).is_some(), "missing {key} in {report}");
    }
    for key in ["name", "version", "git_commit"] {
        assert!(report["tool"].get(key).is_some(), "missing tool.{key}");
    }
    for key in ["cpu", "cores", "os"] {
        assert!(report["machine"].get(key).is_some(), "missing machine.{key}");
    }
    assert_eq!(report["nodes"], 13160);
    assert_eq!(report["mode"], "bulk");
    assert_eq!(report["moves"][0], "e2e4");
    assert_eq!(report["divide"].as_array().unwrap().len(), 20);
    let sum: u64 = report["divide"].as_array().unwrap().iter().map(|d| d["nodes"].as_u64().unwrap()).sum();
    assert_eq!(sum, 13160);
    // `-` sends the report to stdout and the human output to stderr.
    let out = stdout_of(perft().args(["run", "2", "--json", "-"]));
    let report: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["nodes"], 400);
}

#[test]
fn run_rejects_bad_input_with_one_line_and_status_2() {
    for (args, needle) in [
        (vec!["run", "3", "--fen", "8/8/8/8/8/8/8/K6k w KX - 0 1"], "castling"),
        (vec!["run", "3", "--fen", "8/8/8/8/8/8/8/7k w - - 0 1"], "white has no king"),
        (
            vec!["run", "3", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"],
            "side to move",
        ),
        (vec!["run", "3", "--moves", "e2e4", "e2e4"], "e2e4"),
        (vec!["run", "3", "--moves", "e2e4", "zz99"], "zz99"),
        (vec!["run", "3", "--threads", "0"], "threads"),
        (vec!["run", "x"], "DEPTH"),
        (vec!["run", "3", "--json", "/proc/nonexistent/dir/report.json"], "report"),
    ] {
        let output = perft().args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"), "{stderr}");
    }
}

#[test]
fn broken_pipe_exits_quietly() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .args(["run", "6"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stderr.is_empty(), "{}", String::from_utf8_lossy(&output.stderr));
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn suite_passes_good_counts_and_writes_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let epd = write(
        dir.path(),
        "good.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902\r\n\
         8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ; D1 14; D2 191; D3 2812 \n\
         bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D1 21 ;D2 528",
    );
    let perft_file = write(dir.path(), "good.perft", "id kiwi\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\nperft 1 48\nperft 2 2039\n");
    let report = dir.path().join("suite.json");
    let output = perft().args(["suite", &epd, &perft_file, "--json"]).arg(&report).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    for key in ["tool", "machine", "threads", "results", "errors", "summary"] {
        assert!(json.get(key).is_some(), "missing {key}");
    }
    for key in ["file", "line", "fen", "depth", "expected", "nodes", "ok", "seconds"] {
        assert!(json["results"][0].get(key).is_some(), "missing results[].{key}");
    }
    for key in [
        "positions",
        "checks",
        "passed",
        "failed",
        "errors",
        "skipped",
        "nodes",
        "seconds",
        "nodes_per_second",
    ] {
        assert!(json["summary"].get(key).is_some(), "missing summary.{key}");
    }
    assert_eq!(json["summary"]["positions"], 4);
    assert_eq!(json["summary"]["checks"], 10);
    assert_eq!(json["summary"]["passed"], 10);
    assert_eq!(json["results"][3]["line"], 2);
    assert_eq!(json["results"][9]["file"], perft_file.as_str());
}

#[test]
fn suites_from_windows_editors_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let text =
        "# saved on Windows\r\nrnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\r\n";
    let utf16 = |marked: bool| -> Vec<u8> {
        let units = text.encode_utf16().flat_map(u16::to_le_bytes);
        if marked {
            [0xff, 0xfe].into_iter().chain(units).collect()
        } else {
            units.collect()
        }
    };
    for (name, bytes) in
        [("bom.epd", [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat()), ("utf16.epd", utf16(true))]
    {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let output = perft().args(["suite", "--no-json"]).arg(&path).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(0), "{name}: {stdout}");
        assert!(stdout.contains("2 passed, 0 failed, 0 errors"), "{name}: {stdout}");
    }
    let path = dir.path().join("unmarked.epd");
    std::fs::write(&path, utf16(false)).unwrap();
    let output = perft().args(["suite", "--no-json"]).arg(&path).output().unwrap();
    let all = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{all}");
    assert!(all.contains("looks like UTF-16 without a byte-order mark"), "{all}");
}

#[test]
fn suite_with_a_wrong_count_exits_1_and_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let epd = write(
        dir.path(),
        "wrong.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2040\n",
    );
    let output = perft().args(["suite", &epd, "--no-json"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(&format!("FAIL {epd}:2: depth 2: expected 2040, got 2039")), "{stdout}");
    assert!(stdout.contains("e1g1: "), "divide missing: {stdout}");
    assert!(stdout.contains("1 failed"), "{stdout}");
}

#[test]
fn suite_reports_malformed_lines_and_runs_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let epd = write(
        dir.path(),
        "bad.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n\
         this is not a fen ;D1 20\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 twenty\n\
         8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n\
         8/8/8/8/8/8/8/K6k w KQ - 0 1 ;D1 3\n",
    );
    let report = dir.path().join("r.json");
    let output = perft().args(["suite", &epd, "--json"]).arg(&report).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    for line in [2, 3, 5] {
        assert!(stdout.contains(&format!("ERROR {epd}:{line}: ")), "line {line}: {stdout}");
    }
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["summary"]["errors"], 3);
    assert_eq!(json["summary"]["passed"], 2);
    assert_eq!(json["errors"][0]["line"], 2);
    // A missing file and a directory are errors too; the other file still runs.
    let output = perft()
        .args(["suite", "no/such/file.epd", dir.path().to_str().unwrap(), &epd, "--no-json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout.contains("ERROR no/such/file.epd: cannot read"), "{stdout}");
    assert!(stdout.contains("is a directory"), "{stdout}");
    assert!(stdout.contains("2 passed"), "{stdout}");
}

#[test]
fn suite_limits_fail_fast_and_chess960() {
    let dir = tempfile::tempdir().unwrap();
    let epd = write(
        dir.path(),
        "s.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;D3 8902 ;D4 197281\n",
    );
    let out = stdout_of(perft().args(["suite", &epd, "--no-json", "--max-depth", "2"]));
    assert!(out.contains("2 checks: 2 passed, 0 failed, 0 errors, 2 skipped"), "{out}");
    let out = stdout_of(perft().args(["suite", &epd, "--no-json", "--max-nodes", "10000"]));
    assert!(out.contains("3 checks: 3 passed, 0 failed, 0 errors, 1 skipped"), "{out}");

    let many: String =
        (0..40).map(|_| "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8903\n").collect();
    let bad = write(dir.path(), "bad.epd", &many);
    let output = perft().args(["suite", &bad, "--no-json", "--fail-fast", "-t", "1"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout.contains("1 failed") && stdout.contains("stopped at the first failure"), "{stdout}");

    // Standard KQkq read as Chess960: same counts, castling as king-takes-rook.
    let kiwi = write(dir.path(), "k.epd", &format!("{KIWIPETE} ;D1 48 ;D2 2040\n"));
    let output = perft().args(["suite", &kiwi, "--no-json", "--chess960"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("e1h1: "), "{stdout}");
}

#[test]
fn default_suite_passes() {
    let dir = tempfile::tempdir().unwrap();
    let output = perft().current_dir(dir.path()).args(["suite"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("0 failed, 0 errors"), "{stdout}");
    // Reports only when asked: nothing is written without --json.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn run_takes_its_depth_every_way() {
    // Positional, --depth, and after --moves (which used to swallow it).
    for args in [
        &["run", "3", "--moves", "e2e4", "e7e5", "-q"][..],
        &["run", "--moves", "e2e4", "e7e5", "3", "-q"],
        &["run", "-d", "3", "--moves", "e2e4", "e7e5", "-q", "--no-json"],
    ] {
        assert_eq!(stdout_of(perft().args(args)).trim(), "24825", "{args:?}");
    }
    let output = perft().args(["run", "-q"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a depth is needed"));
    // perftree takes -d too.
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let positional = stdout_of(perft().args(["perftree", "2", start, "e2e4 e7e5"]));
    assert_eq!(stdout_of(perft().args(["perftree", "-d", "2", start, "e2e4", "e7e5"])), positional);
    assert!(positional.ends_with("\n835\n"), "{positional}");
}

#[test]
fn label_writes_a_suite_that_suite_passes() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "positions.txt",
        &format!("{KIWIPETE}\n{FRC}\n8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 10\nnot a position\n"),
    );
    let suite = dir.path().join("suite.epd");
    let output = perft().args(["label", "--depth", "3", &input, "-o"]).arg(&suite).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "the file's D2 10 is wrong: {stderr}");
    assert!(
        stderr.contains("MISMATCH") && stderr.contains(":3: the file says D2 10, perft counts 9"),
        "{stderr}"
    );
    assert!(stderr.contains(":4: "), "the bad line is named: {stderr}");
    let written = std::fs::read_to_string(&suite).unwrap();
    assert!(written.contains(&format!("{KIWIPETE} ;D1 48 ;D2 2039 ;D3 97862")), "{written}");
    // Counted independently: the labels agree with Stockfish's perft.
    if let Some(sf) = common::stockfish_divide(FRC, &[], 3, true) {
        let sf_total = sf.last().unwrap().trim_start_matches("Nodes searched: ").to_string();
        assert!(written.contains(&format!(";D3 {sf_total}")), "{written}");
    }
    let output = perft().args(["suite", "--no-json"]).arg(&suite).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    assert!(String::from_utf8_lossy(&output.stdout).contains("9 checks: 9 passed"));
    // A file of positions without counts says so and points to label.
    let bare = write(dir.path(), "bare.epd", &format!("{KIWIPETE}\n"));
    let output = perft().args(["suite", "--no-json", &bare]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stdout).contains("no perft counts"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    // An unknown EPD operation is warned about once; a count meant and not
    // read (`;d2`, a typo for D2) is an error of its line, every one.
    let unknown =
        write(dir.path(), "unknown.epd", &format!("{KIWIPETE} ;D1 48 ;xyz 2\n{KIWIPETE} ;D1 48 ;xyz 3\n"));
    let output = perft().args(["suite", "--no-json", &unknown]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert_eq!(stdout.matches("unknown EPD operation").count(), 1, "{stdout}");
    let typo =
        write(dir.path(), "typo.epd", &format!("{KIWIPETE} ;D1 48 ;d2 2039\n{KIWIPETE} ;D1 48 ;d3 97862\n"));
    let output = perft().args(["suite", "--no-json", &typo]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert_eq!(stdout.matches("looks like a perft count").count(), 2, "{stdout}");
    // A suite labelled in relaxed mode says how to read it.
    let relaxed = dir.path().join("relaxed.epd");
    let output = perft().args(["label", "-d", "1", "--relaxed", &bare, "-o"]).arg(&relaxed).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let header = std::fs::read_to_string(&relaxed).unwrap();
    assert!(header.lines().next().unwrap().ends_with("; read it with --relaxed"), "{header}");
    // Writing over an input is refused.
    let output = perft().args(["label", "-d", "1", &input, "-o", &input]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

/// `perft uci` with piped standard input and output.
fn spawn_uci() -> std::process::Child {
    std::process::Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .arg("uci")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn uci_mode_greets_helps_and_refuses_a_bad_position() {
    let mut child = spawn_uci();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "help\nposition fen not a fen\ngo perft 1\nposition startpos moves e2e5\ngo perft 1\nposition startpos\ngo perft 1\nquit").unwrap();
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let first = stdout.lines().next().unwrap();
    assert!(first.starts_with("perft ") && first.contains("by the perft developers"), "{stdout}");
    assert!(stdout.contains("go perft N"), "help lists the commands: {stdout}");
    assert_eq!(stdout.matches("not counting, the last position command failed").count(), 2, "{stdout}");
    assert_eq!(stdout.matches("Nodes searched: 20").count(), 1, "{stdout}");
}

#[test]
fn uci_mode_survives_bad_bytes_huge_lines_and_half_valid_positions() {
    let mut child = spawn_uci();
    use std::io::Write;
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: the server answers while the huge line goes in.
    let writer = std::thread::spawn(move || {
        stdin.write_all(b"position startpos moves e2e4\n\xff\xfe\xc3(\nisready\n").unwrap();
        stdin.write_all(&vec![b'x'; 3 << 20]).unwrap();
        stdin.write_all(b"\nisready\nposition startpos moves e7e5 e2e5\nd\nposition startpos moves e2e4 e7e5\nd\nquit\n").unwrap();
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.len() < 10_000, "nothing huge is echoed: {} bytes", stdout.len());
    assert!(stdout.contains("info string a line that is not UTF-8 text was ignored"), "{stdout}");
    assert!(stdout.contains("info string a line of 3145728 bytes was ignored"), "{stdout}");
    assert_eq!(stdout.matches("readyok").count(), 2, "{stdout}");
    // The failed position (e2e5 after e7e5 is illegal) leaves e2e4 whole.
    let fens: Vec<&str> = stdout.lines().filter(|l| l.starts_with("Fen: ")).collect();
    assert_eq!(
        fens,
        [
            "Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
            "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        ],
        "{stdout}"
    );
}

#[test]
fn every_bundled_file_passes_with_the_default_settings() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "epd" || e == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 11, "{files:?}");
    for file in files {
        // Capped to keep the test short; nothing else is set.
        let output =
            perft().args(["suite", "--no-json", "--max-nodes", "1000000"]).arg(&file).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}: {stdout}{}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(stdout.contains(" 0 failed, 0 errors"), "{}: {stdout}", file.display());
    }
    // --strict refuses the impossible positions the defaults count.
    let output = perft()
        .args(["suite", "--no-json", "--strict", "--max-nodes", "1000"])
        .arg(dir.join("standard.epd"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stdout).contains("standard.epd:51: illegal position"));
}

/// Depth 0 is perft(0) = 1 everywhere, and a bad count on a suite line
/// refuses that count alone.
#[test]
fn depth_zero_is_one_and_a_bad_count_refuses_only_itself() {
    let dir = tempfile::tempdir().unwrap();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let good = write(dir.path(), "d0.epd", &format!("{start} ;D0 1 ;D1 20\n"));
    let output = perft().args(["suite", &good]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1 position, 2 checks: 2 passed, 0 failed, 0 errors"), "{stdout}");
    // A wrong depth-0 count fails like any other.
    let wrong = write(dir.path(), "d0-wrong.epd", &format!("{start} ;D0 2 ;D1 20\n"));
    assert_eq!(perft().args(["suite", &wrong]).output().unwrap().status.code(), Some(1));
    // Depth 99 and a count that is not a number are refused; D0 and D1
    // of the same line are still checked.
    let mixed = write(dir.path(), "mixed.epd", &format!("{start} ;D0 1 ;D99 20 ;D1 20 ;D2 abc\n"));
    let output = perft().args(["suite", &mixed]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("mixed.epd:1: depth 99 out of range (0 to 64)"), "{stdout}");
    assert!(stdout.contains("mixed.epd:1: node count \"abc\""), "{stdout}");
    assert!(stdout.contains("1 position, 2 checks: 2 passed, 0 failed, 2 errors"), "{stdout}");
    // run and debug: depth 0 is 1, and no engine is asked.
    assert_eq!(stdout_of(perft().args(["run", "0", "-q"])).trim(), "1");
    let output = perft().args(["debug", "--engine", "x=uci:/bin/false", "--depth", "0"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("depth 0: perft(0) = 1 by definition"), "{stdout}");
    // check: depth-0 counts are not asked of engines (Stockfish reads
    // `go perft 0` as a search), and are counted as skipped.
    let engine = format!("self=uci:{} uci", env!("CARGO_BIN_EXE_perft"));
    let output = perft().args(["check", "--engine", &engine, &good]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("note: 1 depth-0 check not asked of self"), "{stdout}");
    assert!(stdout.contains("self: 1 check: 1 passed, 0 failed, 0 errors, 1 skipped"), "{stdout}");
}

/// `perft run 3 --json - | head -1`: the reader goes away, the program
/// ends quietly.
#[test]
fn a_json_report_to_a_closed_pipe_ends_quietly() {
    use std::io::BufRead;
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .args(["run", "3", "--json", "-"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
    assert_eq!(first.trim(), "{");
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Error") && !stderr.contains("Broken pipe"), "{stderr}");
}

/// A FEN the shell split for want of quotes gets a hint that shows the fix.
#[test]
fn an_unquoted_fen_gets_a_hint() {
    let output =
        perft().args(["run", "3", "--fen", "8/8/8/8/8/8/8/K6k", "w", "-", "-", "0", "1"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("hint: a FEN has spaces, so the shell splits it: quote it, as in --fen \"8/8/8/8/8/8/8/K6k w - - 0 1\""), "{stderr}");
}

/// `perft diff --help` says what it compares, compare reports included.
#[test]
fn diff_help_names_every_report_it_compares() {
    let help = stdout_of(perft().args(["diff", "--help"]));
    assert!(help.contains("bench, suite, or compare"), "{help}");
    assert!(help.contains("within noise"), "{help}");
}

/// `perft completions bash` is a script bash accepts that knows the
/// subcommands; `perft man` is a roff page; `perft man --dir` writes one
/// page per subcommand.
#[test]
fn completions_and_man_pages_come_from_the_parser() {
    let script = stdout_of(perft().args(["completions", "bash"]));
    for subcommand in ["run", "suite", "bench", "check", "split", "merge", "completions"] {
        assert!(script.contains(subcommand), "{subcommand} missing from the bash completions");
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("perft.bash");
    std::fs::write(&path, &script).unwrap();
    let bash = std::process::Command::new("bash").arg("-n").arg(&path).output().unwrap();
    assert!(bash.status.success(), "{}", String::from_utf8_lossy(&bash.stderr));
    for shell in ["zsh", "fish", "powershell", "elvish"] {
        assert!(!stdout_of(perft().args(["completions", shell])).is_empty(), "{shell}");
    }
    let output = perft().args(["completions", "tcsh"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));

    let page = stdout_of(perft().arg("man"));
    assert!(page.contains(".TH perft 1") && page.contains(".SH SUBCOMMANDS"), "{page}");
    assert!(page.contains("perft\\-suite"), "the subcommands are listed");
    let pages = dir.path().join("man1");
    stdout_of(perft().args(["man", "--dir"]).arg(&pages));
    let suite = std::fs::read_to_string(pages.join("perft-suite.1")).unwrap();
    assert!(suite.contains(".TH perft-suite 1") && suite.contains("\\-\\-max\\-nodes"), "{suite}");
    // The page is perft-suite; its synopsis is the command as typed.
    assert!(suite.contains("\\fBperft suite\\fR"), "{suite}");
    assert!(pages.join("perft.1").exists() && pages.join("perft-merge.1").exists());
    assert!(!pages.join("perft-help.1").exists());
}

/// The commands the docs show examples of show them in `--help` too, each
/// with its own exit statuses; `perft help COMMAND` is `perft COMMAND
/// --help`, and `perft help --help` helps.
#[test]
fn help_has_examples_and_each_command_its_own_exit_status() {
    for command in ["run", "suite", "bench", "compare", "check", "debug", "diff", "report"] {
        let help = stdout_of(perft().args([command, "--help"]));
        assert!(
            help.contains("Examples:") && help.contains(&format!("  perft {command} ")),
            "{command}: {help}"
        );
        assert!(help.contains("Exit status:"), "{command}: {help}");
        assert_eq!(stdout_of(perft().args(["help", command])), help, "perft help {command}");
    }
    let report = stdout_of(perft().args(["report", "--help"]));
    assert!(!report.contains("a count did not match") && report.contains("the page or picture was written"));
    let run = stdout_of(perft().args(["run", "--help"]));
    assert!(!run.contains("1  a count did not match"), "run compares no counts: {run}");
    let help = stdout_of(perft().args(["help", "--help"]));
    assert!(help.contains("Usage: perft help [COMMAND]"), "{help}");
    assert_eq!(stdout_of(perft().arg("help")), stdout_of(perft().arg("--help")));
}

/// Positions impossible in a real game but counted are one note per file,
/// not a note each that buries the summary; a file as a whole is named
/// without a line 0.
#[test]
fn impossible_positions_are_one_note_per_file() {
    let tricky = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/tricky.perft");
    let output = perft().args(["suite", "--no-json", "--max-nodes", "1000"]).arg(&tricky).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let notes: Vec<&str> = stdout.lines().filter(|l| l.starts_with("note:")).collect();
    assert_eq!(notes.len(), 1, "{stdout}");
    assert!(
        notes[0].contains("tricky.perft: 11 positions impossible in a real game, counted anyway"),
        "{stdout}"
    );
    assert!(
        notes[0].contains("lines 121, 127, 133 (impossible check: two checkers")
            && notes[0].ends_with("; and 1 more")
    );
    assert!(!stdout.contains("tricky.perft:0"), "{stdout}");
}

/// A mistyped command gets the one meant, where clap finds none; every
/// error of the program reads `error: ...`, as clap's do.
#[test]
fn mistyped_commands_get_a_tip_and_errors_one_style() {
    for (typed, meant) in [("rn", "run"), ("chek", "check"), ("sutie", "suite")] {
        let output = perft().arg(typed).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!("'{meant}'")) || stderr.contains(&format!("`perft {meant}`")),
            "{stderr}"
        );
    }
    let output = perft().args(["help", "rn"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end(), "error: no command `rn`; did you mean `run`? (`perft --help` lists them)");
    let output = perft().args(["run", "3", "--fen", "not a fen"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.starts_with("error: "), "{stderr}");
}

/// Inputs that hold nothing to do are errors, and leave nothing behind: an
/// empty suite, `label` of a missing file, a bench position with only a
/// depth-0 count.
#[test]
fn empty_inputs_are_errors_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let empty = write(dir.path(), "empty.epd", "# a header and nothing else\n");
    let output = perft().args(["suite", &empty]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("empty.epd: no positions in the file"), "{stdout}");
    let out = dir.path().join("out.epd");
    let output = perft()
        .args(["label", "--depth", "2", "/nonexistent/positions.txt", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(!out.exists(), "label wrote {} from nothing", out.display());
    let zero = write(dir.path(), "zero.epd", "8/8/8/8/8/8/8/K6k w - - 0 1 ;D0 1\n");
    let output = perft().args(["bench", "--no-json", "--positions", &zero]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("no count of depth 1 or more"), "{stderr}");
}

/// `run` makes a table by itself where one pays, says why it has that
/// size and how long it took to set up; `--hash 0` and small depths have
/// none; a size past what the process may use, or not a size, is refused.
#[test]
fn hash_auto_sizes_the_table_and_reports_why() {
    let json = |args: &[&str]| -> serde_json::Value {
        let output = perft().args(args).args(["--json", "-"]).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
        serde_json::from_slice(&output.stdout).unwrap()
    };
    let report = json(&["run", "6", "-t", "2"]);
    assert_eq!(report["nodes"], 119_060_324);
    let why = report["hash"]["auto"].as_str().unwrap();
    assert_eq!(why, "auto: enough for depth 6", "{report}");
    assert!(report["hash"]["table_setup_s"].as_f64().is_some_and(|s| s >= 0.0), "{report}");
    assert!(report["hash"]["megabytes"].as_u64().is_some_and(|mb| (1..=64).contains(&mb)), "{report}");
    // The same count with no table, and a depth too small for one.
    for args in [&["run", "6", "-t", "2", "--hash", "0"][..], &["run", "4"]] {
        let report = json(args);
        assert!(report["hash"].is_null(), "{args:?}: {report}");
    }
    let output = perft().args(["run", "4", "--hash", "auto"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("note: no hash table: perft(4) here is too small for one to pay"), "{stdout}");
    // An explicit size is kept, and printed with its set-up time.
    let output = perft().args(["run", "6", "--hash", "3"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains(", hash 3 MB: ") && stdout.contains("set up in"), "{stdout}");
    // Refused before any work.
    let output = perft().args(["run", "6", "--hash", "100000000"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if cfg!(target_os = "linux") {
        assert!(stderr.contains("--hash 100000000 MB is more than this process may use ("), "{stderr}");
    }
    let output = perft().args(["run", "6", "--hash", "lots"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("`lots` is neither a size in MB"), "{stderr}");
    let output = perft().args(["run", "4", "--hash", "0", "--verify-hash"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--verify-hash needs a hash table"));
    // Where auto chose no table there is nothing to verify.
    let output = perft().args(["run", "4", "--verify-hash"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("nothing to verify"));
}

#[test]
fn named_positions_and_san_moves_count_as_their_fen_and_uci() {
    let total = |args: &[&str]| stdout_of(perft().args(["run", "3", "-q", "-t", "1"]).args(args));
    assert_eq!(total(&["--position", "kiwipete"]), total(&["--fen", KIWIPETE]));
    assert_eq!(total(&["--position", "position2"]), total(&["--fen", KIWIPETE]));
    let san = total(&["--moves", "e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"]);
    assert_eq!(san, total(&["--moves", "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "e1g1"]));
    // The report gives the moves in UCI, however they were given.
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    perft()
        .args(["run", "2", "-q", "--position", "kiwipete", "--moves", "O-O-O", "--json"])
        .arg(&report)
        .assert()
        .success();
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["moves"], serde_json::json!(["e1c1"]));
    assert_eq!(json["start_fen"], KIWIPETE);
    // Unknown names, ambiguous and impossible moves are bad input.
    for (args, said) in [
        (&["--position", "nowhere"][..], "possible values"),
        (&["--fen", "4k3/8/8/8/8/8/4K3/R6R w - - 0 1", "--moves", "Rd1"], "ambiguous move \"Rd1\""),
        (&["--moves", "Nf6"], "illegal move \"Nf6\""),
        (&["--moves", "Zz9"], "or SAN such as e4"),
        (&["--position", "kiwipete", "--fen", KIWIPETE], "cannot be used with"),
    ] {
        let out = perft().args(["run", "2"]).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(said), "{args:?}: {stderr}");
    }
}
