//! Engines that read their input as real engines do (examples/
//! dialect_engine.rs): each given as a bare program, found by itself, and
//! run through `perft check` on the default suite (a small suite where the
//! fake is slow). A correct one passes with a short output; a buggy one is
//! one cause naming its bug.

use std::path::{Path, PathBuf};
use std::time::Duration;

mod common;

use common::perft_with_bin as perft;

/// The fake engines, built by `cargo test` with the other examples.
fn dialect_engine() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap().join("examples");
    let path = dir.join(format!("dialect_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is missing: run `cargo test` (it builds the examples)", path.display());
    path
}

struct Run {
    code: Option<i32>,
    stdout: String,
    /// Standard output and error, line by line.
    lines: usize,
    /// Engine processes started (from its log).
    starts: usize,
    /// The lines it read (from its log).
    said: Vec<String>,
}

/// `perft check` of the fake engine given as `flags` alone, on the
/// default suite with `extra` arguments (or a suite among them).
fn check(flags: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts.log");
    let output = perft()
        .env("DIALECT_ENGINE_LOG", &log)
        .args(["check", "--engine", &format!("{} {flags}", dialect_engine().display())])
        .args(extra)
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    Run {
        code: output.status.code(),
        lines: stdout.lines().count() + stderr.lines().count(),
        stdout: format!("{stdout}{stderr}"),
        starts: std::fs::read_to_string(&log)
            .map_or(0, |t| t.lines().filter(|l| l.starts_with("start ")).count()),
        said: std::fs::read_to_string(&log).map_or(Vec::new(), |t| {
            t.lines().filter_map(|l| l.strip_prefix("in ")).map(String::from).collect()
        }),
    }
}

fn causes(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("CAUSE ")).collect()
}

/// Two positions, for the slow fakes: the start position and Kiwipete.
fn small_suite(dir: &Path) -> PathBuf {
    let path = dir.join("small.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D3 8902\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D2 2039\n",
    )
    .unwrap();
    path
}

#[test]
fn a_six_field_console_engine_whose_perft_is_gone_in_uci_mode_passes() {
    // Its `fen` wants six fields, and its console perft is gone once it has
    // read `uci`: started again without it, and given six fields.
    let run = check("--kind console6", &["--max-nodes", "3000", "-j", "2"]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(0), "{out}");
    assert!(
        out.contains(
            "found (console, started again without `uci`): `perft {depth}` at its prompt, after `fen {fen}`"
        ),
        "{out}"
    );
    // It rejects Chess960 castling rights ("fen entered is not valid"): said
    // once, the rest skipped, not counted as another position.
    assert!(out.contains("cannot count Chess960 positions"), "{out}");
    assert!(out.contains("fen entered is not valid"), "{out}");
    assert!(run.lines < 40, "{} lines:\n{out}", run.lines);
}

#[test]
fn a_six_token_uci_engine_with_a_currmove_divide_passes_and_its_en_passant_bug_is_one_cause() {
    // Its parser reads six tokens after `fen` (four would abort it), and
    // its divide is `info currmove M currmovenumber K nodes N`.
    let run = check("--kind uci6", &["--max-nodes", "100000"]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("found (UCI): UCI `go perft`"), "{}", run.stdout);
    assert!(run.lines < 40, "{} lines:\n{}", run.lines, run.stdout);
    // Every FEN it was given had six fields, and it was never told of an
    // option it does not offer.
    let fens: Vec<&String> = run.said.iter().filter(|l| l.starts_with("position fen ")).collect();
    assert!(fens.len() > 1000, "{}", fens.len());
    for line in fens {
        let fen = line["position fen ".len()..].split(" moves ").next().unwrap();
        assert_eq!(fen.split(' ').count(), 6, "{line}");
    }
    assert!(!run.said.iter().any(|l| l.contains("UCI_Chess960")), "{:?}", run.said);
    let run = check("--kind uci6 --bug ep-pin", &["--max-nodes", "100000"]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}");
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].contains("(en passant that exposes its king)"), "{out}");
    // Named from its divide: the move itself, not candidates.
    assert!(
        out.contains("extra moves (generated, not legal): f4e3 (en passant that exposes its king"),
        "{out}"
    );
}

#[test]
fn a_uci_engine_that_drops_the_moves_is_given_fens_and_its_last_ply_bug_is_one_cause() {
    let run = check("--kind uci-drop --bug leaf-ep-pin", &["--max-nodes", "100000"]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}");
    assert!(out.contains("note: it does not apply the moves after `position fen FEN moves MOVES`"), "{out}");
    assert!(out.contains("--engine 'dialect_engine=uci,position=position fen {fen}:"), "{out}");
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].contains("likely en passant that exposes its king"), "{out}");
    // The example's first candidate is an en passant exposing the king
    // (which one depends on the example: the one singled out, if any).
    assert!(out.contains("likely en passant that exposes its king): "), "{out}");
    assert!(out.contains(" (en passant that exposes its king: "), "{out}");
    // Given as plain UCI (no probe), the bisection sees it list another
    // position's moves, and asks again with FENs: the same one cause.
    let pinned = format!("uci:{} --kind uci-drop --bug ep-pin", dialect_engine().display());
    let output = perft()
        .args(["check", "--engine", &pinned, "--max-nodes", "100000"])
        .timeout(Duration::from_secs(600))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{out}");
    let causes = crate::causes(&out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].contains("(en passant that exposes its king)"), "{out}");
    assert!(out.contains("note: the engine did not apply the moves after the FEN"), "{out}");
}

#[test]
fn a_flag_style_command_line_that_panics_on_chess960_passes_with_one_note() {
    // `-d N -f FEN`, printing its own counts when started without them (a
    // banner, not an answer); every Chess960 castling FEN panics, with an
    // address that differs each time.
    let run = check("--kind flags", &["--max-nodes", "20000"]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(0), "{out}");
    assert!(out.contains("  `uci`: it exited at once, asked nothing"), "{out}");
    assert!(out.contains("found (command lines): a command line per count"), "{out}");
    assert!(out.contains("-d '{depth}' -f '{fen}'"), "{out}");
    assert!(out.contains("cannot count Chess960 positions: it failed each of the first 3"), "{out}");
    assert!(!out.contains("ERROR"), "{out}");
    assert!(run.lines < 40, "{} lines:\n{out}", run.lines);
}

#[test]
fn engines_that_take_four_seconds_to_start_are_waited_for_and_timed() {
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path());
    let suite = suite.to_str().unwrap();
    // A UCI engine, kept running: its start-up is paid once.
    let run = check("--kind uci6 --start-delay 4000", &[suite]);
    assert_eq!(run.code, Some(0), "{}", run.stdout);
    assert!(run.stdout.contains("found (UCI): UCI `go perft`"), "{}", run.stdout);
    let timed =
        run.stdout.lines().find(|l| l.starts_with("timed: ")).unwrap_or_else(|| panic!("{}", run.stdout));
    let start: f64 = timed["timed: ".len()..].split(' ').next().unwrap().parse().unwrap();
    assert!(start >= 4.0, "{timed}");
    assert!(run.stdout.contains("expected: about "), "{}", run.stdout);
    // A command line that takes four seconds at every start: each try is
    // given that time, and the run is planned for it.
    let run = check("--kind flags --start-delay 4000", &[suite]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(0), "{out}");
    assert!(out.contains("found (command lines)"), "{out}");
    assert!(out.contains("(it is started for every count)"), "{out}");
    let expected = out.lines().find(|l| l.starts_with("expected: ")).unwrap_or_else(|| panic!("{out}"));
    assert!(expected.contains(" for 2 counts"), "{expected}");
    assert!(run.starts >= 4, "{out}");
}

#[test]
fn a_missing_suite_is_said_before_the_engine_is_probed() {
    let run = check("--kind uci6 --start-delay 4000", &["no-such-suite.epd"]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stdout.contains("no-such-suite.epd"), "{}", run.stdout);
    assert!(!run.stdout.contains("probing"), "{}", run.stdout);
    assert_eq!(run.starts, 0, "{}", run.stdout);
}

#[test]
fn an_engine_that_refuses_the_move_counters_is_given_four_fields() {
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path());
    let run = check("--kind console6 --fields 4", &[suite.to_str().unwrap()]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(0), "{out}");
    assert!(
        out.contains("note: it misreads six-field FENs (with the move counters): given four (fen4)"),
        "{out}"
    );
    assert!(out.contains("=console,fen4,position=fen {fen}:"), "{out}");
}

/// `perft check` of a shell one-liner run per count, on the start
/// position at depth 1.
#[cfg(unix)]
fn check_script(script: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("start.epd");
    std::fs::write(&suite, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20\n").unwrap();
    let spec = format!("sh=cmd:sh -c {} {{depth}}", shlex::try_quote(script).unwrap());
    let output = perft()
        .args(["check", "--engine", &spec])
        .arg(&suite)
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(unix)]
#[test]
fn lines_ended_by_a_lone_carriage_return_are_lines() {
    let moves =
        "a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4 b1a3 b1c3 g1f3 g1h3";
    let script =
        format!("for m in {moves}; do printf '%s: 1\\r' $m; done; printf '\\rNodes searched: 20\\r'");
    let (code, out) = check_script(&script);
    assert_eq!(code, Some(0), "{out}");
}

#[cfg(unix)]
#[test]
fn a_divide_longer_than_any_move_list_is_said_to_be_one() {
    // 1,100 divide lines and their sum: no position has that many moves.
    let script =
        "i=0; while [ $i -lt 1100 ]; do echo 'a2a3: 1'; i=$((i+1)); done; echo 'Nodes searched: 1100'";
    let (code, out) = check_script(script);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("lines that read as a divide, more than any position has moves"), "{out}");
}
