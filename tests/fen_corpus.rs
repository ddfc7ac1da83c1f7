//! The malformed and impossible FENs of `tests/data/fen-corpus.txt`, each
//! with its documented decision, through the library and through the CLI.

use std::path::PathBuf;

use perft::board::{Board, CastlingMode, FenError, FenField, FenOptions, Problem};

#[derive(Debug)]
enum Decision {
    Syntax(String),
    Error(String),
    Relaxed(String),
    Chess960(String),
    Accept,
}

fn corpus() -> Vec<(Decision, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/fen-corpus.txt");
    let text = std::fs::read_to_string(path).unwrap();
    let mut entries = Vec::new();
    for line in text.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let (decision, fen) = line.split_once(" | ").unwrap_or_else(|| panic!("bad corpus line {line:?}"));
        let mut words = decision.split_whitespace();
        let kind = words.next().unwrap();
        let arg = words.next().unwrap_or("").to_string();
        let decision = match kind {
            "syntax" => Decision::Syntax(arg),
            "error" => Decision::Error(arg),
            "relaxed" => Decision::Relaxed(arg),
            "chess960" => Decision::Chess960(arg),
            "accept" => Decision::Accept,
            _ => panic!("unknown decision {decision:?}"),
        };
        entries.push((decision, fen.to_string()));
    }
    entries
}

fn field_name(field: Option<FenField>) -> &'static str {
    match field {
        None => "none",
        Some(FenField::Placement) => "placement",
        Some(FenField::SideToMove) => "side",
        Some(FenField::Castling) => "castling",
        Some(FenField::EnPassant) => "en-passant",
        Some(FenField::HalfmoveClock) => "halfmove",
        Some(FenField::FullmoveNumber) => "fullmove",
    }
}

fn problem_name(problem: &Problem) -> &'static str {
    match problem {
        Problem::MissingKing(_) => "missing-king",
        Problem::TooManyKings(_) => "too-many-kings",
        Problem::PawnOnBackRank(_) => "pawn-on-back-rank",
        Problem::OppositeCheck(_) => "opposite-check",
        Problem::InvalidEnPassant { .. } => "invalid-en-passant",
        Problem::InvalidCastling { .. } => "invalid-castling",
        Problem::ImpossibleCastling(_) => "impossible-castling",
        Problem::ImpossibleCheck(_) => "impossible-check",
        Problem::TooMuchMaterial(_) => "too-much-material",
    }
}

/// The problems an error lists, by name; empty for a syntax error.
fn problems(error: &FenError) -> Vec<&'static str> {
    match error {
        FenError::Position(e) => e.problems().iter().map(problem_name).collect(),
        _ => Vec::new(),
    }
}

fn syntax_kind(error: &FenError) -> String {
    match error {
        FenError::Empty => "empty".into(),
        FenError::TrailingText(_) => "trailing".into(),
        other => field_name(other.fen_field()).into(),
    }
}

const STRICT: FenOptions = FenOptions { castling: CastlingMode::Detect, relaxed: false };
const STANDARD: FenOptions = FenOptions { castling: CastlingMode::Standard, relaxed: false };

#[test]
fn every_entry_gets_its_documented_decision_from_the_library() {
    let entries = corpus();
    assert!(entries.len() >= 80, "only {} entries", entries.len());
    for (decision, fen) in &entries {
        let strict = Board::from_fen_with(fen, STRICT);
        let relaxed = Board::from_fen_with(fen, FenOptions::RELAXED);
        match decision {
            Decision::Syntax(field) => {
                for result in [&strict, &relaxed] {
                    let error = result.as_ref().expect_err(fen);
                    assert_eq!(&syntax_kind(error), field, "{fen:?}: {error}");
                    assert!(problems(error).is_empty(), "{fen:?}: {error}");
                }
            }
            Decision::Error(problem) => {
                for result in [&strict, &relaxed] {
                    let error = result.as_ref().expect_err(fen);
                    assert!(problems(error).contains(&problem.as_str()), "{fen:?}: {error}");
                }
            }
            Decision::Relaxed(problem) => {
                let error = strict.as_ref().expect_err(fen);
                assert_eq!(problems(error), [problem.as_str()], "{fen:?}: {error}");
                assert!(error.to_string().contains("accepted in relaxed mode"), "{fen:?}: {error}");
                let board = relaxed.as_ref().unwrap_or_else(|e| panic!("{fen:?}: {e}"));
                board.check_consistency().unwrap();
            }
            Decision::Chess960(problem) => {
                let board = strict.as_ref().unwrap_or_else(|e| panic!("{fen:?}: {e}"));
                assert!(board.is_chess960(), "{fen:?} not read as Chess960");
                let error = Board::from_fen_with(fen, STANDARD).expect_err(fen);
                assert!(problems(&error).contains(&problem.as_str()), "{fen:?}: {error}");
            }
            Decision::Accept => {
                let board = strict.as_ref().unwrap_or_else(|e| panic!("{fen:?}: {e}"));
                board.check_consistency().unwrap();
                // What we accept we can write and read back.
                let again = Board::from_fen_with(&board.fen(), STRICT).unwrap();
                assert_eq!(again.fen(), board.fen());
            }
        }
    }
}

#[test]
fn every_entry_gets_a_one_line_error_or_a_count_from_the_cli() {
    for (decision, fen) in corpus() {
        for relaxed in [false, true] {
            let mut cmd = assert_cmd::Command::cargo_bin("perft").unwrap();
            cmd.env("RUST_BACKTRACE", "1").args(["run", "1", "-q", "--fen", &fen]);
            if relaxed {
                cmd.arg("--relaxed");
            }
            let output = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            let stdout = String::from_utf8_lossy(&output.stdout);
            assert!(!stderr.contains("panicked") && !stderr.contains("backtrace"), "{fen:?}: {stderr}");
            let accepted = match &decision {
                Decision::Accept | Decision::Chess960(_) => true,
                Decision::Relaxed(_) => relaxed,
                Decision::Syntax(_) | Decision::Error(_) => false,
            };
            if accepted {
                assert!(output.status.success(), "{fen:?} (relaxed {relaxed}): {stderr}");
                assert!(stdout.trim().parse::<u64>().is_ok(), "{fen:?}: {stdout}");
                continue;
            }
            assert_eq!(output.status.code(), Some(2), "{fen:?} (relaxed {relaxed}): {stdout}{stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{fen:?}: {stderr}");
            assert!(stderr.starts_with("error: "), "{fen:?}: {stderr}");
            let named = match &decision {
                Decision::Syntax(field) => match field.as_str() {
                    "empty" => "empty".to_string(),
                    "trailing" => "after the fullmove number".to_string(),
                    "side" => "side to move".to_string(),
                    "en-passant" => "en passant".to_string(),
                    "halfmove" => "halfmove clock".to_string(),
                    "fullmove" => "fullmove number".to_string(),
                    "placement" => "piece placement".to_string(),
                    other => other.to_string(),
                },
                _ => "illegal position".to_string(),
            };
            assert!(stderr.contains(&named), "{fen:?}: {stderr} does not name {named:?}");
            // Each problem is stated once.
            let message = stderr.trim_end().split(": illegal position: ").nth(1).unwrap_or("");
            for part in message.split("; ") {
                assert_eq!(message.matches(part).count(), 1, "{fen:?}: repeated in {stderr}");
            }
        }
    }
}

/// Found by `cargo fuzz run fen`: trailing text cut in the middle of a
/// multi-byte character.
#[test]
fn long_non_ascii_trailing_text_is_an_error_not_a_panic() {
    let fen = format!("8/8/8/8/8/8/8/K6k w - - 0 1 {}", "é".repeat(100));
    let error = Board::from_fen(&fen).unwrap_err();
    assert_eq!(syntax_kind(&error), "trailing");
}

/// A suite file of hostile lines through the CLI: each is reported with its
/// line number, and the good lines around them still run and pass.
#[test]
fn hostile_suite_lines_are_reported_and_the_rest_runs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hostile.epd");
    let good = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400";
    let mut bytes = Vec::new();
    let lines: Vec<Vec<u8>> = vec![
        good.into(),                                                                           // 1
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 five".to_vec(),                                    // 2
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D0 1".to_vec(), // 3: perft(0) = 1, fine
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1000 1".to_vec(), // 4
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 340282366920938463463374607431768211456".to_vec(), // 5: 2^128
        b"\xff\xfe\x00garbage\x01\x02".to_vec(),         // 6
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5\0".to_vec(), // 7: NUL at end, fine
        [b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 ;D1 5 ;c0 \"".as_slice(), &[b'x'; 100_000]].concat(), // 8
        b"4k3/8/8/8/8/8/8/4K3 w - - 0 1 D1 5 D2".to_vec(), // 9
        b"4k3/9/8/8/8/8/8/4K3 w - - 0 1 ;D1 5".to_vec(), // 10
        good.into(),                                     // 11
    ];
    for line in &lines {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    std::fs::write(&path, bytes).unwrap();
    let empty = dir.path().join("empty.epd");
    std::fs::write(&empty, "").unwrap();
    let output = assert_cmd::Command::cargo_bin("perft")
        .unwrap()
        .args(["suite", "--no-json"])
        .arg(&path)
        .arg(&empty)
        .arg(dir.path())
        .arg(dir.path().join("missing.epd"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    let name = path.display().to_string();
    for line in [2, 4, 5, 6, 8, 9, 10] {
        assert!(stdout.contains(&format!("ERROR {name}:{line}: ")), "line {line} not reported:\n{stdout}");
    }
    assert!(!stdout.contains(&format!("{name}:7:")) && !stdout.contains(&format!("{name}:3:")), "{stdout}");
    assert!(stdout.contains("is a directory") && stdout.contains("missing.epd"), "{stdout}");
    // Lines 1, 3 (depth 0), 7 and 11: six checks, all passed.
    assert!(stdout.contains("6 checks: 6 passed, 0 failed"), "{stdout}");
}
