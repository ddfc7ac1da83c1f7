//! End-to-end tests of checking other engines: `check` and `debug` against
//! real Stockfish and against engines with planted bugs, and the
//! compatibility modes `perftree` and `uci`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use assert_cmd::Command;
use perft::board::{Board, FenOptions};
use serde_json::Value;

fn perft() -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    cmd.env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"));
    cmd
}

/// The planted-bug engine, built by `cargo test` with the other examples.
fn buggy(flags: &str) -> String {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().join("examples");
    let path = dir.join(format!("buggy_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is missing: run `cargo test` (it builds the examples)", path.display());
    format!("uci:{} {flags}", path.display())
}

fn fake(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fakes").join(name).to_string_lossy().into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Positions where en passant, promotions, castling and checks matter, with
/// published counts (standard.epd lines 1, 2, 122; sedlak-and-classic.epd
/// line 6; tricky.perft `ep-evasion`; fischer.epd line 1).
const SUITE: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902 ;D4 197281 ;D5 4865609 ;id \"start\"
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862 ;id \"kiwipete\"
8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1 ;D6 1440467 ;id \"ep-capture-gives-check\"
n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1 ;D1 24 ;D2 496 ;D3 9483 ;id \"promotions\"
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D4 43238 ;id \"endgame\"
bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D3 12189 ;id \"frc\"
8/8/8/5k2/3p4/8/4P3/4K3 w - - ;D3 343 ;D4 2810 ;id \"ep-evasion\"
";

fn run_check(engine: &str, extra: &[&str]) -> (Option<i32>, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(dir.path(), "s.epd", SUITE);
    let report = dir.path().join("check.json");
    let output = perft()
        .args(["check", "--timeout", "20", "--engine", engine])
        .arg(&suite)
        .args(extra)
        .arg("--json")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap_or(Value::Null);
    (output.status.code(), stdout, json)
}

fn failures(report: &Value) -> Vec<&Value> {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["ok"] == false && r.get("error").is_none())
        .collect()
}

/// The failures that were bisected: one per failing position. Every other
/// failure names the depth its position was bisected at, and that failure
/// is in the report.
fn bisected(report: &Value) -> Vec<&Value> {
    let failed = failures(report);
    for failure in &failed {
        if failure.get("bisection").is_none() {
            let depth = &failure["bisected_at"];
            assert!(
                failed.iter().any(|f| f["line"] == failure["line"]
                    && f["depth"] == *depth
                    && f.get("bisection").is_some()),
                "{failure} points to no bisection"
            );
        }
    }
    failed.into_iter().filter(|f| f.get("bisection").is_some()).collect()
}

fn board_at(fen: &str) -> Board {
    Board::from_fen_with(fen, FenOptions::RELAXED).unwrap()
}

#[test]
fn stockfish_passes_every_check() {
    let (code, out, report) = run_check(&format!("stockfish=uci:{}", common::stockfish_path()), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(report["summary"]["checks"], 14);
    assert_eq!(report["summary"]["passed"], 14);
    assert_eq!(report["engine"]["name"], "stockfish");
}

#[test]
fn dropped_en_passant_captures_are_found_and_tagged() {
    let (code, out, report) = run_check(&buggy("--bug ep"), &[]);
    assert_eq!(code, Some(1), "{out}");
    let failed = bisected(&report);
    assert!(failed.len() >= 3, "{out}");
    for failure in &failed {
        let bisection = &failure["bisection"];
        assert_eq!(bisection["moves_known"], true, "{failure}");
        let board = board_at(bisection["fen"].as_str().unwrap());
        let missing = bisection["missing"].as_array().unwrap();
        assert!(!missing.is_empty() && bisection["extra"].as_array().unwrap().is_empty());
        for mv in missing {
            let mv = board.parse_uci(mv.as_str().unwrap()).unwrap();
            assert!(mv.is_en_passant(), "{mv} at {} is not an en-passant capture", board.fen());
        }
        assert!(bisection["tags"].as_array().unwrap().contains(&Value::from("en_passant")), "{failure}");
        // The path leads from the test position to the faulty one.
        let mut walk = board_at(failure["fen"].as_str().unwrap());
        for mv in bisection["path"].as_array().unwrap() {
            walk.play_uci(mv.as_str().unwrap()).unwrap();
        }
        assert_eq!(walk.fen_keeping_en_passant(), bisection["fen"].as_str().unwrap());
        assert!(failure["reproduce"].as_str().unwrap().starts_with("perft debug --engine"));
    }
    assert_eq!(report["summary"]["failures_by_tag"]["en_passant"], failed.len());
    assert!(out.contains("failing positions by what they exercise: ") && out.contains("en passant"), "{out}");
    // En passant is possible at the test position itself: found there.
    let ep = failed.iter().find(|f| f["line"] == 3).expect("the en-passant position fails");
    assert_eq!(ep["bisection"]["path"].as_array().unwrap().len(), 0, "found at the test position itself");
    assert_eq!(ep["bisection"]["missing"], serde_json::json!(["c4d3"]));
}

#[test]
fn forgotten_underpromotions_are_found_and_tagged() {
    let (code, out, report) = run_check(&buggy("--bug underpromotion"), &[]);
    assert_eq!(code, Some(1), "{out}");
    let failed = bisected(&report);
    assert!(failed.iter().any(|f| f["line"] == 4), "{out}");
    for failure in failed {
        let bisection = &failure["bisection"];
        for mv in bisection["missing"].as_array().unwrap() {
            let mv = mv.as_str().unwrap();
            assert!(mv.len() == 5 && !mv.ends_with('q'), "{mv} is not an under-promotion");
        }
        assert!(bisection["tags"].as_array().unwrap().contains(&Value::from("promotion")), "{failure}");
    }
}

#[test]
fn an_engine_crashing_on_one_position_is_reported_and_the_run_goes_on() {
    let crash = "--crash-on 'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -'";
    let (code, out, report) = run_check(&buggy(crash), &[]);
    assert_eq!(code, Some(2), "{out}");
    let results = report["results"].as_array().unwrap();
    let crashed: Vec<&Value> = results.iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(crashed.len(), 3, "the three Kiwipete checks");
    for r in &crashed {
        assert_eq!(r["line"], 2);
        assert!(
            r["error"].as_str().unwrap().contains("SIGABRT")
                || r["error"].as_str().unwrap().contains("exited")
        );
    }
    assert_eq!(report["summary"]["passed"], 11, "every other check still ran, on a restarted engine");
    assert!(out.contains("ERROR"), "{out}");
}

#[test]
fn engines_without_a_divide_are_bisected_by_child_counts() {
    let (code, out, report) = run_check(&buggy("--bug ep --no-divide"), &["--max-depth", "5"]);
    assert_eq!(code, Some(1), "{out}");
    let failed = bisected(&report);
    assert!(failed.len() >= 3, "{out}");
    for failure in failed {
        let bisection = &failure["bisection"];
        assert_eq!(bisection["moves_known"], false);
        // It stops at the node whose own move list is short: there the gap
        // is exactly the subtrees of the en-passant captures it lacks.
        let mut board = board_at(bisection["fen"].as_str().unwrap());
        let depth = bisection["depth"].as_u64().unwrap() as u32;
        let last = bisection["steps"].as_array().unwrap().last().unwrap().clone();
        let mut gap = 0;
        for mv in board.legal_moves().into_iter().filter(|m| m.is_en_passant()) {
            board.make(mv);
            gap += perft::perft::perft(&mut board, depth - 1, perft::perft::Mode::Bulk);
            board.unmake();
        }
        assert!(gap > 0, "no en passant at the faulty position: {failure}");
        assert_eq!(
            u128::from(last["ours"].as_u64().unwrap() - last["theirs"].as_u64().unwrap()),
            gap,
            "{failure}"
        );
        assert!(bisection["tags"].as_array().unwrap().contains(&Value::from("en_passant")));
    }
}

#[test]
fn hanging_and_garbage_engines_are_survived() {
    for (mode, needle) in [("hang", "no answer within"), ("garbage", "not a number")] {
        let engine = format!("{mode}=uci:env FAKE_MODE={mode} {}", fake("uci-fake.sh"));
        let dir = tempfile::tempdir().unwrap();
        let suite = write(dir.path(), "s.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n8/8/8/8/8/8/8/K6k w - - ;D1 3\n");
        let output = perft()
            .args(["check", "--timeout", "2", "--no-json", "--engine", &engine])
            .arg(&suite)
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(2), "{mode}: {stdout}");
        assert!(stdout.contains(needle), "{mode}: {stdout}");
        assert!(stdout.contains("2 passed, 0 failed, 1 errors"), "{mode}: {stdout}");
    }
    // A slow start is not a failure.
    let engine = format!("slow=uci:env FAKE_MODE=slowstart {}", fake("uci-fake.sh"));
    let dir = tempfile::tempdir().unwrap();
    let suite =
        write(dir.path(), "s.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D2 400\n");
    perft().args(["check", "--timeout", "2", "--no-json", "--engine", &engine]).arg(&suite).assert().code(0);
}

#[test]
fn command_engines_and_our_depth_as_reference() {
    let dir = tempfile::tempdir().unwrap();
    let plain = write(dir.path(), "fens.epd", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -\n");
    let engine = format!("q=qperft:{}", fake("cmd-fake.sh"));
    let report = dir.path().join("r.json");
    let output = perft()
        .args(["check", "--depth", "3", "--engine", &engine])
        .arg(&plain)
        .arg("--json")
        .arg(&report)
        .env("FAKE_FORMAT", "qperft")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    assert_eq!(json["results"][0]["expected"], 97862);
    assert_eq!(json["results"][0]["expected_from"], "perft");
}

#[test]
fn debug_prints_each_step() {
    let output = perft().args(["debug", "--engine", &buggy("--bug ep"), "--depth", "5"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("root: depth 5: perft 4865609, buggy_engine 4865351 (-258), descending into"),
        "{stdout}"
    );
    assert!(stdout.contains("missing moves (legal, not generated): "), "{stdout}");
    assert!(stdout.contains("exercises: en passant"), "{stdout}");
    // An engine that agrees is said to agree.
    let output = perft().args(["debug", "--engine", &buggy(""), "--depth", "3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("agrees: 8902 nodes at depth 3"));
}

#[test]
fn perftree_interface() {
    let out = perft()
        .args(["perftree", "2", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "e2e4 e7e5"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 29 + 2);
    assert!(lines[..29]
        .iter()
        .all(|l| l.split(' ').count() == 2 && l.split(' ').nth(1).unwrap().parse::<u64>().is_ok()));
    assert_eq!(lines[29], "");
    assert_eq!(lines[30], "835");
    let sum: u64 = lines[..29].iter().map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 835);
}

/// Runs a UCI session and returns the output lines after `uciok`.
fn uci_session(program: &str, commands: &str) -> Vec<String> {
    let mut child =
        Process::new(program).arg("uci").stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(commands.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&output.stdout).lines().map(str::to_string).collect()
}

#[test]
fn uci_mode_answers_like_stockfish() {
    let ours_bin = assert_cmd::cargo::cargo_bin("perft");
    for (setup, chess960, fen, moves, depth) in [
        (
            "",
            false,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            vec!["e2e4", "c7c5", "g1f3"],
            3,
        ),
        ("", false, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", vec![], 2),
        (
            "setoption name UCI_Chess960 value true\n",
            true,
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            vec!["e1f3"],
            2,
        ),
        (
            "setoption name UCI_Chess960 value true\n",
            true,
            "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1",
            vec!["d1e1"],
            2,
        ),
    ] {
        let position = if moves.is_empty() {
            format!("position fen {fen}")
        } else {
            format!("position fen {fen} moves {}", moves.join(" "))
        };
        let session = format!("uci\n{setup}isready\n{position}\ngo perft {depth}\nquit\n");
        let ours: Vec<String> = uci_session(ours_bin.to_str().unwrap(), &session)
            .into_iter()
            .skip_while(|l| l != "readyok")
            .skip(1)
            .collect();
        let mut theirs = common::stockfish_divide(fen, &moves, depth, chess960);
        theirs.push(String::new());
        let sorted = |mut v: Vec<String>| {
            v.sort();
            v
        };
        assert_eq!(sorted(ours.clone()), sorted(theirs.clone()), "{session}");
        assert_eq!(ours[ours.len() - 2], theirs[theirs.len() - 2], "Nodes searched line last");
    }
    // Robust to unknown commands and bad positions; `d` prints the board.
    let lines = uci_session(ours_bin.to_str().unwrap(), "bogus\nposition fen nonsense\nd\nisready\nquit\n");
    assert!(lines.iter().any(|l| l.starts_with("Unknown command")));
    assert!(lines.iter().any(|l| l.starts_with("info string bad FEN")));
    assert!(lines.iter().any(|l| l.starts_with("Fen: rnbqkbnr")));
    assert_eq!(lines.last().unwrap(), "readyok");
}
