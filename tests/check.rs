//! End-to-end tests of checking other engines: `check` and `debug` against
//! real Stockfish and against engines with planted bugs, and the
//! compatibility modes `perftree` and `uci`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Stdio};

use perft::board::{Board, FenOptions};
use serde_json::Value;

use common::{buggy_path, perft_with_bin as perft};

/// The planted-bug engine as a UCI engine spec.
fn buggy(flags: &str) -> String {
    format!("uci:{} {flags}", buggy_path().display())
}

/// The planted-bug engine run once per count (`--perft`), as a `cmd:` spec.
fn buggy_cmd(flags: &str, arguments: &str) -> String {
    format!("cmd:{} {flags} --perft {arguments}", buggy_path().display())
}

/// Runs a printed `reproduce:` command (a `perft debug ...` line) and
/// returns its status and output.
fn rerun(command: &str) -> (Option<i32>, String) {
    let words = shlex::split(command).expect("a shell command");
    assert_eq!(words[..2], ["perft", "debug"], "{command}");
    let output = perft().args(&words[1..]).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
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
    let Some(stockfish) = common::stockfish() else { return };
    let (code, out, report) = run_check(&format!("stockfish=uci:{stockfish}"), &[]);
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

/// The bundled suite file `name`.
fn bundled(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("positions").join(name)
}

/// One planted bug met at many positions of large suites is one cause: named
/// once with its smallest example in well under 100 lines; every wrong count
/// stays in the report, and `--verbose` prints them all. (The first 150
/// positions of ferdy-enpassant.epd alone gave 108 FAIL blocks, 856 lines.)
#[test]
fn one_bug_is_one_cause_however_many_counts_it_spoils() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("check.json");
    let ferdy = std::fs::read_to_string(bundled("ferdy-enpassant.epd")).unwrap();
    let first_150: Vec<&str> = ferdy.lines().filter(|l| !l.starts_with('#')).take(150).collect();
    let en_passant = write(dir.path(), "ep150.epd", &first_150.join("\n"));
    let run = |extra: &[&str]| {
        let output = perft()
            .args(["check", "--timeout", "60", "--max-depth", "3", "--depth", "3"])
            .args(["--engine", &buggy("--bug ep")])
            .arg(bundled("standard.epd"))
            .arg(bundled("sedlak-and-classic.epd"))
            .arg(&en_passant)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let out = run(&["--json", report.to_str().unwrap()]);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let failed = failures(&json).len();
    assert!(failed >= 50, "a bug met often enough to flood: {failed} wrong counts\n{out}");
    assert!(out.lines().count() < 100, "{} lines:\n{out}", out.lines().count());
    let causes: Vec<&str> = out.lines().filter(|l| l.starts_with("CAUSE ")).collect();
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].starts_with("CAUSE 1 of 1: en passant missing: "), "{out}");
    assert!(causes[0].contains(&format!("{failed} wrong counts")), "{out}");
    assert!(out.contains("missing moves (legal, not generated): "), "{out}");
    assert!(out.contains("reproduce: perft debug"), "{out}");
    assert!(!out.contains("FAIL "), "{out}");
    // The report keeps every wrong count, and the cause lists them all.
    assert_eq!(json["causes"].as_array().unwrap().len(), 1);
    assert_eq!(json["causes"][0]["failures"], failed);
    assert_eq!(json["causes"][0]["results"].as_array().unwrap().len(), failed);
    assert_eq!(json["causes"][0]["key"]["kind"], "moves");
    // --verbose: a FAIL block per failing position as well.
    let verbose = run(&["--verbose"]);
    let positions = json["causes"][0]["positions"].as_u64().unwrap() as usize;
    assert_eq!(verbose.lines().filter(|l| l.starts_with("FAIL ")).count(), positions);
}

/// Different faults are different causes, the one with more wrong counts
/// first: here forgotten underpromotions, and a count the file gets wrong
/// (the engine agrees with our count, so nothing is bisected).
#[test]
fn different_faults_are_different_causes() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "two.epd",
        "4k3/1P6/8/8/8/8/K7/8 w - - 0 1 ;D1 9 ;D2 40\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 21\n",
    );
    let output =
        perft().args(["check", "--engine", &buggy("--bug underpromotion")]).arg(&suite).output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    let causes: Vec<&str> = out.lines().filter(|l| l.starts_with("CAUSE ")).collect();
    assert_eq!(causes.len(), 2, "{out}");
    assert!(
        causes[0].starts_with(
            "CAUSE 1 of 2: promotion to a knight, promotion to a bishop, promotion to a rook missing (only \
             promotions to a queen: no underpromotions): 2 wrong counts at 1 position"
        ),
        "{out}"
    );
    assert!(causes[1].starts_with("CAUSE 2 of 2: not bisected: "), "{out}");
    assert!(causes[1].ends_with(": 1 wrong count at 1 position"), "{out}");
}

/// An engine that prints only totals, run once per count (`cmd:`): `debug`
/// narrows down with one count per child position all the same.
#[test]
fn debug_narrows_down_with_totals_alone() {
    let engine = buggy_cmd("--bug ep --no-divide", "{depth} {fen} {moves}");
    let output = perft()
        .args(["debug", "--engine", &engine, "--fen", "k7/7p/8/8/8/8/6P1/K7 w - - 0 1", "--depth", "5"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("g2g4 a8a7 g4g5 h7h5: depth 1: perft 5, buggy_engine 4 (-1)"), "{stdout}");
    assert!(stdout.contains("position: 8/k7/8/6Pp/8/8/8/K7 w - h6 0 3"), "{stdout}");
    assert!(stdout.contains("counts 4 moves where there are 5"), "{stdout}");
    // With no move list, only the en passant of the kinds engines drop
    // numbers the difference (the king has three moves), and the counts of
    // the siblings already given agree.
    assert!(
        stdout.contains(
            "candidates (legal, of the kinds most often dropped; likely en passant): g5h6 (en passant)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("only en passant fits every answer"), "{stdout}");
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
            gap += perft::counting::perft(&mut board, depth - 1, perft::counting::Mode::Bulk);
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
    for (mode, needle) in
        [("hang", "no answer within"), ("midhang", "a2a3: 380\n    b2b3: 420"), ("garbage", "not a number")]
    {
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
        assert!(stdout.contains("2 passed, 0 failed, 1 error,"), "{mode}: {stdout}");
    }
    // A slow start within the handshake's own limit is not a failure
    // (by default that limit is --timeout's, here 2 s: too short).
    let engine = format!("slow=uci:env FAKE_MODE=slowstart {}", fake("uci-fake.sh"));
    let dir = tempfile::tempdir().unwrap();
    let suite =
        write(dir.path(), "s.epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D2 400\n");
    perft()
        .args(["check", "--timeout", "2", "--handshake-timeout", "10", "--no-json", "--engine", &engine])
        .arg(&suite)
        .assert()
        .code(0);
    perft().args(["check", "--timeout", "2", "--no-json", "--engine", &engine]).arg(&suite).assert().code(2);
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
        let Some(mut theirs) = common::stockfish_divide(fen, &moves, depth, chess960) else { return };
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

const ENDGAME: &str = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

#[test]
fn pinned_en_passant_captures_are_named_through_a_fen_only_engine() {
    // The most common real bug: an en-passant capture made without the
    // king-safety test. The engine takes a FEN only (no {moves}): the FEN
    // it gets must keep the en-passant square, legal capture or not.
    for engine in [buggy_cmd("--bug ep-pin", "{depth} {fen}"), buggy("--bug ep-pin")] {
        let output =
            perft().args(["debug", "--engine", &engine, "--fen", ENDGAME, "--depth", "4"]).output().unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{engine}: {stdout}");
        assert!(stdout.contains("extra moves (generated, not legal): f4e3"), "{engine}: {stdout}");
        assert!(stdout.contains("exercises: en passant"), "{stdout}");
        // The reproduce command starts from the given FEN and plays the
        // path, so it shows the fault again.
        let command = stdout.lines().find_map(|l| l.trim().strip_prefix("reproduce: ")).unwrap();
        assert!(command.contains(&format!("--fen '{ENDGAME}'")) && command.contains("--moves"), "{command}");
        let (code, again) = rerun(command);
        assert_eq!(code, Some(1), "{command}: {again}");
        assert!(again.contains("f4e3"), "{again}");
    }
    // Through `check`, every printed reproduce command reproduces.
    let dir = tempfile::tempdir().unwrap();
    let suite = write(dir.path(), "ep.epd", &format!("{ENDGAME} ;D4 43238 ;D5 674624\n"));
    let report = dir.path().join("r.json");
    let engine = buggy_cmd("--bug ep-pin", "{depth} {fen}");
    let output =
        perft().args(["check", "--engine", &engine, "--json"]).arg(&report).arg(&suite).output().unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", String::from_utf8_lossy(&output.stdout));
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    let commands: Vec<&str> = failures(&report).iter().filter_map(|f| f["reproduce"].as_str()).collect();
    assert!(!commands.is_empty());
    for command in commands {
        assert_eq!(rerun(command).0, Some(1), "{command}");
    }
}

#[test]
fn hobby_engine_output_formats_are_read() {
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    for format in ["dash", "space", "nodes", "move"] {
        for engine in [
            buggy_cmd(&format!("--bug ep --format {format}"), "{depth} {fen} {moves}"),
            buggy(&format!("--bug ep --format {format}")),
        ] {
            let output = perft()
                .args(["debug", "--engine", &engine, "--fen", kiwipete, "--depth", "3"])
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert_eq!(output.status.code(), Some(1), "{engine}: {stdout}");
            assert!(stdout.contains("missing moves (legal, not generated): "), "{engine}: {stdout}");
        }
    }
    // A format only patterns can read: UCI and command engines alike, the
    // same option syntax (REGEX, or NAME=REGEX), and the reproduce command
    // carries the patterns.
    for spec in [buggy_cmd("--bug ep --format odd", "{depth} {fen} {moves}"), buggy("--bug ep --format odd")]
    {
        let engine = format!("odd={spec}");
        let output = perft()
            .args(["debug", "--engine", &engine, "--fen", kiwipete, "--depth", "3", "--timeout", "10"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stdout}");
        if spec.starts_with("cmd:") {
            assert!(stderr.contains("say which with --total-regex"), "{stderr}");
        }
        let output = perft()
            .args(["debug", "--engine", &engine, "--fen", kiwipete, "--depth", "3"])
            .args([
                "--total-regex",
                r"odd=^leaves (\d+)$",
                "--divide-regex",
                r"(?P<count>\d+) <- (?P<move>\w+)",
            ])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(1), "{stdout}");
        assert!(stdout.contains("missing moves (legal, not generated): "), "{stdout}");
        let command = stdout.lines().find_map(|l| l.trim().strip_prefix("reproduce: ")).unwrap();
        assert!(command.contains("--total-regex") && command.contains("--divide-regex"), "{command}");
        assert_eq!(rerun(command).0, Some(1), "{command}");
        // A NAME= that names no engine is pointed out.
        let output = perft()
            .args(["debug", "--engine", &engine, "--fen", kiwipete, "--depth", "1", "--timeout", "10"])
            .args(["--total-regex", r"ood=^leaves (\d+)$"])
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.contains(r#""ood" is not an engine here (odd)"#), "{stdout}");
    }
}

/// An engine that takes commands at a prompt (`> `), named as a console
/// engine: one process for every count of the bisection.
#[test]
fn engines_at_a_prompt_are_kept_running() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let engine = format!("prompt=console:{} --bug ep --format dash --interactive", buggy_path().display());
    let output = perft()
        .env("BUGGY_ENGINE_LOG", &log)
        .args(["debug", "--engine", &engine, "--depth", "4"])
        .args(["--fen", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("missing moves (legal, not generated): b4a3"), "{stdout}");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 1, "{stdout}");
}

#[test]
fn missing_engines_fail_once_and_jobs_split_the_work() {
    // A program that is not there is said before anything is started.
    let output = perft().args(["check", "--engine", "gone=uci:/nonexistent/engine"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim(), "error: engine gone: /nonexistent/engine: no such file");
    assert!(!String::from_utf8_lossy(&output.stdout).contains("checking"));
    // One that dies at once is told once, and the rest never asked.
    let (code, out, report) = run_check("gone=uci:/bin/false", &[]);
    assert_eq!(code, Some(2), "{out}");
    assert_eq!(
        out.matches("did not finish the UCI handshake").count(),
        2,
        "the one check and the give-up: {out}"
    );
    assert!(out.contains("gone is dead, not asked again: did not finish the UCI handshake"), "{out}");
    // The one asked and the 13 never asked are all errors.
    assert_eq!(report["summary"]["checks"], 14);
    assert_eq!(report["summary"]["errors"], 15);
    // Four engine processes share the checks and find the same faults.
    let (code, out, report) = run_check(&buggy("--bug ep"), &["--jobs", "4"]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("4 engine processes at once"), "{out}");
    let (_, _, serial) = run_check(&buggy("--bug ep"), &[]);
    let summary = |r: &Value| (r["summary"]["passed"].clone(), r["summary"]["failed"].clone());
    assert_eq!(summary(&report), summary(&serial));
}

/// A `cmd:` engine without Chess960 fails every Chess960 position with
/// castling and is told how to say so; declared (`cmd,no960:`), those
/// positions are skipped; told by a `{chess960}` placeholder, it plays them.
#[test]
fn engines_declare_what_they_lack_and_are_told_when_they_seem_to() {
    let dir = tempfile::tempdir().unwrap();
    let suite = write(
        dir.path(),
        "960.epd",
        "r2k3r/8/8/8/8/8/8/R2K3R w HAha - 0 1\n\
         1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
    );
    let fake = fake("cmd-fake.sh");
    let check = |spec: String| {
        let qperft_total = ["--total-regex", r"perft\(\s*{depth}\)\s*=\s*(\d+)"];
        let output = perft()
            .args(["check", "--depth", "2", "--engine", &spec])
            .args(if spec.starts_with("hobby=") { &qperft_total[..] } else { &[] })
            .arg(&suite)
            .output()
            .unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
    };
    let (code, out) = check(format!("hobby=cmd:env FAKE_MODE=no960 {fake} {{depth}} {{fen}}"));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains("hint: hobby failed every Chess960 position with castling rights (2 positions)"),
        "{out}"
    );
    // Most but not all (castling blocked at these depths in the third).
    let most = write(
        dir.path(),
        "most.epd",
        &format!(
            "{}1rn1kbr1/pppppppp/8/8/8/8/PPPPPPPP/1RN1KBR1 w GBgb - 0 1\n",
            std::fs::read_to_string(&suite).unwrap()
        ),
    );
    let output = perft()
        .args(["check", "--depth", "2", "--total-regex", r"perft\(\s*{depth}\)\s*=\s*(\d+)", "--engine"])
        .arg(format!("hobby=cmd:env FAKE_MODE=no960 {fake} {{depth}} {{fen}}"))
        .arg(&most)
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("hint: hobby failed 2 of the 3 Chess960 positions with castling rights"), "{out}");
    assert!(out.contains("--engine 'hobby=cmd,no960:...'"), "{out}");
    let (code, out) = check(format!("hobby=cmd,no960:env FAKE_MODE=no960 {fake} {{depth}} {{fen}}"));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("hobby: 1 check: 1 passed, 0 failed, 0 errors, 2 skipped"), "{out}");
    assert!(!out.contains("hint:"), "{out}");
    let (code, out) =
        check(format!("hobby=cmd:env FAKE_MODE=no960 FAKE_CHESS960={{chess960}} {fake} {{depth}} {{fen}}"));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("hobby: 3 checks: 3 passed"), "{out}");
    // A UCI engine can declare it too.
    let Some(stockfish) = common::stockfish() else { return };
    let (code, out) = check(format!("sf=uci,no960:{stockfish}"));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("2 skipped"), "{out}");
}

#[test]
fn engines_without_chess960_skip_those_positions() {
    // A UCI engine that does not offer UCI_Chess960 is not asked the
    // Chess960 line: skipped, not failed or broken.
    let (code, out, report) = run_check(&buggy("--no-chess960"), &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("cannot count a Chess960 position"), "{out}");
    assert_eq!(report["summary"]["skipped"], 1);
    // The qperft preset knows qperft cannot; --skip-chess960 skips them for
    // any engine.
    let engine = format!("q=qperft:{}", fake("cmd-fake.sh"));
    let (code, out, report) = run_check(&engine, &["--max-depth", "3"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("does not read Chess960 castling: 1 Chess960 checks skipped"), "{out}");
    assert!(report["results"].as_array().unwrap().iter().all(|r| r["id"] != "frc"));
    let Some(stockfish) = common::stockfish() else { return };
    let (_, _, report) = run_check(&format!("stockfish=uci:{stockfish}"), &["--skip-chess960"]);
    assert_eq!(report["summary"]["passed"], 13);
    assert_eq!(report["summary"]["skipped"], 1);
}

#[test]
fn the_perftree_debugger_drives_our_modes() {
    let (Some(perftree), Some(stockfish)) = (common::perftree_path(), common::stockfish()) else { return };
    let dir = tempfile::tempdir().unwrap();
    let perft_bin = assert_cmd::cargo::cargo_bin("perft");
    let script = |name: &str, body: &str| -> PathBuf {
        let path = dir.path().join(name);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
        std::fs::set_permissions(&path, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
        path
    };
    let session = |stockfish_dir: &Path, script: &Path, commands: &str| -> String {
        let path = format!("{}:{}", stockfish_dir.display(), std::env::var("PATH").unwrap_or_default());
        let mut child = Process::new(&perftree)
            .arg(script)
            .env("PATH", path)
            .env("TERM", "dumb")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(commands.as_bytes()).unwrap();
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        // Colour codes, should it write any.
        String::from_utf8_lossy(&output.stdout).replace("\x1b[0m", "")
    };
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let commands = format!("fen {kiwipete}\ndepth 3\ndiff\nquit\n");
    let total = |out: &str| -> (String, String) {
        let words: Vec<String> = out
            .lines()
            .find(|l| l.starts_with("total"))
            .unwrap()
            .split_whitespace()
            .map(String::from)
            .collect();
        (words[1].clone(), words[2].clone())
    };

    // 1. perftree checks our `perftree` mode against the real Stockfish.
    let real = dir.path().join("real");
    std::fs::create_dir(&real).unwrap();
    std::os::unix::fs::symlink(stockfish, real.join("stockfish")).unwrap();
    let ours = script("ours.sh", &format!("exec {} perftree \"$@\"", perft_bin.display()));
    let out = session(&real, &ours, &commands);
    assert_eq!(total(&out), ("97862".into(), "97862".into()), "{out}");

    // 2. Our `uci` mode stands in for Stockfish, perftree checks a buggy
    // engine against it, and the difference shows.
    let stand_in = dir.path().join("stand-in");
    std::fs::create_dir(&stand_in).unwrap();
    script("stand-in/stockfish", &format!("exec {} uci", perft_bin.display()));
    let buggy = script(
        "buggy.sh",
        &format!("exec {} --bug ep --format perftree --perft \"$@\"", buggy_path().display()),
    );
    let out = session(&stand_in, &buggy, &commands);
    let (theirs, ours) = total(&out);
    assert_eq!(ours, "97862", "{out}");
    assert!(theirs.parse::<u64>().unwrap() < 97862, "{out}");
}
