//! Engines as they are: the example engine in each perft dialect real
//! engines speak (UCI `go perft`; `go perft` a search or silence and a
//! console command of their own; no UCI at all; a command line per count),
//! probed and checked without wrappers or patterns, each planted bug named
//! as one cause.

use std::path::Path;
use std::time::{Duration, Instant};

mod common;

use common::{buggy_path, perft_with_bin as perft};
use serde_json::Value;

/// The example engine given alone, with `flags`.
fn alone(flags: &str) -> String {
    format!("mine={} {flags}", buggy_path().display())
}

/// Positions where en passant, promotions, castling, checks and pins
/// matter (standard.epd lines 1, 2, 3, 122 and 4).
const SUITE: &str = "\
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902 ;id \"start\"
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D1 48 ;D2 2039 ;D3 97862 ;id \"kiwipete\"
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1 ;D4 43238 ;id \"endgame\"
n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1 ;D1 24 ;D2 496 ;D3 9483 ;id \"promotions\"
r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1 ;D1 6 ;D2 264 ;D3 9467 ;id \"mirrored\"
";

struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    report: Value,
    seconds: f64,
    /// Engine processes started (from its log).
    starts: usize,
}

/// `perft check` of `engine` on SUITE, with `extra` arguments; probes wait
/// a second per try.
fn check(engine: &str, extra: &[&str]) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.epd");
    std::fs::write(&suite, SUITE).unwrap();
    let report = dir.path().join("check.json");
    let log = dir.path().join("starts.log");
    let began = Instant::now();
    let output = perft()
        .env("BUGGY_ENGINE_LOG", &log)
        .args(["check", "--handshake-timeout", "1", "--engine", engine])
        .args(if extra.contains(&"--timeout") { &[][..] } else { &["--timeout", "30"][..] })
        .arg(&suite)
        .args(extra)
        .arg("--json")
        .arg(&report)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    Run {
        code: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        report: std::fs::read_to_string(&report)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or(Value::Null),
        seconds: began.elapsed().as_secs_f64(),
        starts: std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()),
    }
}

/// The spec the probe found, as printed (`--engine 'NAME=SPEC'`).
fn pinned(stdout: &str) -> String {
    let line = stdout.lines().find(|l| l.starts_with("found (")).unwrap_or_else(|| panic!("{stdout}"));
    let quoted = line.split("--engine ").nth(1).unwrap();
    shlex::split(quoted).unwrap().remove(0)
}

fn causes(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("CAUSE ")).collect()
}

/// Runs a printed `reproduce:` command and returns its status and output.
fn rerun(stdout: &str) -> (Option<i32>, String) {
    let line = stdout.lines().find_map(|l| l.trim().strip_prefix("reproduce: ")).unwrap();
    let words = shlex::split(line).unwrap();
    assert_eq!(words[..2], ["perft", "debug"], "{line}");
    let output = perft().args(&words[1..]).timeout(Duration::from_secs(120)).output().unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn a_perft_command_in_the_uci_loop_is_found_and_a_missing_king_safety_test_is_one_cause() {
    let run = check(&alone("--go-perft search --bug no-king-safety"), &[]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}{}", run.stderr);
    assert!(out.contains("  `go perft 1`: a search (info depth 1"), "{out}");
    assert!(out.contains("found (UCI): `perft {depth}` in its UCI loop"), "{out}");
    assert_eq!(
        pinned(out),
        format!(
            "mine=uci,perft=perft {{depth}}:{} --go-perft search --bug no-king-safety",
            buggy_path().display()
        )
    );
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(
        causes[0]
            .starts_with("CAUSE 1 of 1: extra (illegal) moves that leave or put their own king in check ("),
        "{out}"
    );
    assert!(out.contains("(king stepping into an attack: "), "{out}");
    assert!(out.contains("exercises: ") && out.contains("king safety"), "{out}");
    assert!(out.lines().count() < 40, "{} lines:\n{out}", out.lines().count());
    assert_eq!(run.report["causes"].as_array().unwrap().len(), 1);
    assert_eq!(run.report["causes"][0]["key"]["illegal"][0], "king_safety");
    // The pinned spec skips probing, and finds the same.
    let again = check(&pinned(out), &[]);
    assert!(!again.stdout.contains("probing"), "{}", again.stdout);
    assert_eq!(crate::causes(&again.stdout), causes, "{}", again.stdout);
    assert_eq!(again.starts, 1);
}

#[test]
fn perft_depth_behind_a_silent_go_perft_names_an_illegal_en_passant_capture() {
    let run =
        check(&alone("--go-perft silent --perft-command 'perft depth' --bug ep-pin --format dash"), &[]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}{}", run.stderr);
    assert!(out.contains("  `go perft 1`, `perft 1`, `perft 1 <start FEN>`: no count"), "{out}");
    assert!(out.contains("found (UCI): `perft depth {depth}` in its UCI loop"), "{out}");
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].contains("king in check (en passant that exposes its king)"), "{out}");
    assert!(out.contains("f4e3 (en passant that exposes its king: rook on b4)"), "{out}");
    assert!(out.lines().count() < 40, "{out}");
    assert!(run.seconds < 60.0, "{} s", run.seconds);
    let (code, rerun) = rerun(out);
    assert_eq!(code, Some(1), "{rerun}");
    assert!(rerun.contains("f4e3 (en passant that exposes its king"), "{rerun}");
    assert!(!rerun.contains("probing"), "{rerun}");
}

#[test]
fn a_console_engine_without_uci_is_kept_running() {
    let run = check(&alone("--no-uci --setboard --perft-command divide --bug rook-promotion"), &[]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}{}", run.stderr);
    assert!(out.contains("  `uci`: no uciok in 1 s: not a UCI engine"), "{out}");
    assert!(out.contains("found (console): `divide {depth}` at its prompt, after `setboard {fen}`"), "{out}");
    assert!(pinned(out).starts_with("mine=console,perft=divide {depth},position=setboard {fen}:"), "{out}");
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(causes[0].starts_with("CAUSE 1 of 1: promotion to a rook missing: "), "{out}");
    // Probing restarts it after silent tries; the check itself runs one.
    let again = check(&pinned(out), &[]);
    assert_eq!(again.starts, 1, "{}", again.stdout);
    assert_eq!(crate::causes(&again.stdout), causes);
}

#[test]
fn a_program_that_exits_at_once_is_run_per_count_perftree_style() {
    let run = check(&alone("--format perftree --bug underpromotion --cli"), &[]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}{}", run.stderr);
    assert!(
        out.contains("  `uci`: it exited at once, asked nothing (")
            && out.contains("s): usage: buggy_engine"),
        "{out}"
    );
    assert!(out.contains("found (command lines): a command line per count"), "{out}");
    assert!(pinned(out).ends_with("--cli '{depth}' '{fen}' '{moves}'"), "{out}");
    let causes = causes(out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(
        causes[0].contains("promotion to a knight, promotion to a bishop, promotion to a rook missing"),
        "{out}"
    );
    assert!(out.lines().count() < 40, "{out}");
}

#[test]
fn totals_in_the_forms_engines_print_need_no_pattern() {
    for format in ["moves", "perftree", "bare"] {
        for spec in [
            format!("uci:{} --format {format}", buggy_path().display()),
            format!("cmd:{} --format {format} --perft {{depth}} {{fen}} {{moves}}", buggy_path().display()),
        ] {
            let run = check(&spec, &[]);
            assert_eq!(run.code, Some(0), "{spec}: {}{}", run.stdout, run.stderr);
        }
    }
}

#[test]
fn a_program_that_counts_no_way_known_says_what_was_tried() {
    let run = check("echo=cat", &[]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    // Tries in a row that came to the same are one line.
    assert!(run.stdout.contains("  `uci`: no uciok in 1 s"), "{}", run.stdout);
    let console = run.stdout.lines().find(|l| l.starts_with("  `perft 1`, ")).unwrap_or_default();
    assert!(console.contains("`divide 1`") && console.ends_with(": no count"), "{}", run.stdout);
    assert!(run.stdout.contains("`PROGRAM -d 1 -f <start FEN>`"), "{}", run.stdout);
    assert!(run.stderr.contains("echo (cat): no way to count perft found"), "{}", run.stderr);
    assert!(run.stderr.contains("--engine 'echo=uci,perft=perft {depth}:cat'"), "{}", run.stderr);
    assert!(run.seconds < 60.0, "{} s", run.seconds);
}

#[cfg(unix)]
#[test]
fn a_perft_that_counts_wrong_is_named_when_nothing_else_counts() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("zero");
    let body = "#!/bin/sh\nwhile read -r line; do case \"$line\" in perft*) echo 'Nodes searched: 0';; \
                quit) exit 0;; esac; done\n";
    std::fs::write(&script, body).unwrap();
    std::fs::set_permissions(
        &script,
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
    )
    .unwrap();
    let run = check(&format!("zero={}", script.display()), &[]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(run.stderr.contains("no way to count perft found"), "{}", run.stderr);
    assert!(run.stderr.contains("`perft 1` answers 0 where we count 20"), "{}", run.stderr);
}

#[test]
fn a_program_that_cannot_be_started_is_said_first_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("engine");
    std::fs::write(&plain, "#!/bin/sh\n").unwrap();
    let plain = plain.display().to_string();
    let missing = dir.path().join("nosuch-engine").display().to_string();
    let suite = dir.path().join("s.epd");
    std::fs::write(&suite, SUITE).unwrap();
    let suite = suite.display().to_string();
    let cases = [
        (format!("mine={missing}"), format!("engine mine: {missing}: no such file")),
        (format!("mine=uci:{missing}"), format!("engine mine: {missing}: no such file")),
        (format!("mine={plain}"), format!("engine mine: {plain}: not executable (chmod +x {plain})")),
        (
            "mine=perft-no-such-engine-anywhere".into(),
            "perft-no-such-engine-anywhere: no such program on PATH".into(),
        ),
        (format!("mine=cmd:{} {{depth}} {{fen}}", dir.path().display()), "a directory, not a program".into()),
    ];
    for (engine, said) in &cases {
        for command in [
            vec!["check", "--engine", engine, &suite],
            vec!["compare", "--engine", engine, "--positions", &suite],
            vec!["debug", "--engine", engine, "--depth", "2"],
        ] {
            let output = perft().args(&command).timeout(Duration::from_secs(60)).output().unwrap();
            let (stdout, stderr) =
                (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
            assert_eq!(output.status.code(), Some(2), "{command:?}: {stdout}{stderr}");
            assert!(!stdout.contains("probing"), "{command:?} probed first: {stdout}");
            assert_eq!(stderr.lines().count(), 1, "{command:?}: one line: {stderr}");
            assert!(stderr.starts_with("error: ") && stderr.contains(said.as_str()), "{command:?}: {stderr}");
        }
    }
}

#[test]
fn an_explicit_uci_engine_whose_go_perft_is_a_search_is_given_up_at_once() {
    for (mode, said) in [("search", "it took it for a search"), ("silent", "it printed nothing in")] {
        let engine = format!("uci:{} --go-perft {mode}", buggy_path().display());
        let began = Instant::now();
        let run = check(&engine, &["--timeout", "3"]);
        assert_eq!(run.code, Some(2), "{}", run.stdout);
        assert!(run.stdout.contains(said), "{}", run.stdout);
        assert_eq!(run.stdout.matches("hint: give the program alone").count(), 1, "{}", run.stdout);
        assert_eq!(run.stdout.matches("is dead, not asked again").count(), 1, "{}", run.stdout);
        assert!(began.elapsed() < Duration::from_secs(20), "{:?}", began.elapsed());
    }
}

/// The candidates named in the bisection of the example of a report's
/// first cause.
fn candidate_moves(report: &Value) -> Vec<(String, String, String)> {
    let example = report["causes"][0]["example"].as_u64().unwrap() as usize;
    let bisection = &report["results"][example]["bisection"];
    bisection["candidates"]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["move"].as_str().unwrap().into(),
                m["class"].as_str().unwrap().into(),
                m["why"].as_str().unwrap_or("").into(),
            )
        })
        .collect()
}

#[test]
fn a_count_only_path_that_counts_a_pinned_en_passant_capture_is_one_cause_with_candidates() {
    // With its divide one ply deep (read through the divide one ply up),
    // and without (its move list read from its divide one ply deeper).
    for flags in ["--bug leaf-ep-pin", "--bug leaf-ep-pin --divide-from 2"] {
        let run = check(&format!("uci:{} {flags}", buggy_path().display()), &[]);
        let out = &run.stdout;
        assert_eq!(run.code, Some(1), "{out}");
        let causes = causes(out);
        assert_eq!(causes.len(), 1, "{out}");
        assert!(
            causes[0].contains("counts more moves one ply deep than there are: moves that leave"),
            "{out}"
        );
        assert!(causes[0].contains("(likely en passant that exposes its king)"), "{out}");
        assert!(out.contains("the engine lists the same moves as we do"), "{out}");
        // The example's first candidate is the en passant (which one
        // depends on the example chosen: the one singled out, if any).
        let candidates = candidate_moves(&run.report);
        let (first, class, why) = &candidates[0];
        assert_eq!(
            (class.as_str(), why.as_str()),
            ("en_passant", "en_passant_exposes_king"),
            "{candidates:?}"
        );
        assert_eq!(run.report["causes"][0]["key"]["kind"], "count");
        // The command printed shows the same again.
        let (code, again) = rerun(out);
        assert_eq!(code, Some(1), "{again}");
        assert!(again.contains(&format!("likely en passant that exposes its king): {first}")), "{again}");
    }
}

#[test]
fn a_move_list_read_one_ply_deeper_names_the_missing_move() {
    let run = check(&format!("uci:{} --bug rook-promotion --divide-from 2", buggy_path().display()), &[]);
    let out = &run.stdout;
    assert_eq!(run.code, Some(1), "{out}");
    assert!(out.contains("missing moves (legal, not generated): "), "{out}");
    assert!(
        out.contains("(its move list read from its divide at depth 2: it prints none at depth 1)"),
        "{out}"
    );
    assert_eq!(causes(out).len(), 1, "{out}");
    assert!(causes(out)[0].starts_with("CAUSE 1 of 1: promotion to a rook missing"), "{out}");
    let (code, again) = rerun(out);
    assert_eq!(code, Some(1), "{again}");
    assert!(again.contains("missing moves (legal, not generated): "), "{again}");
}

#[test]
fn a_duplicated_move_is_named_where_it_is_listed_twice() {
    let run = check(&format!("uci:{} --bug duplicate", buggy_path().display()), &[]);
    let found = causes(&run.stdout);
    assert_eq!(found.len(), 1, "{}", run.stdout);
    assert!(found[0].starts_with("CAUSE 1 of 1: a move listed twice: "), "{}", run.stdout);
    // Asked one ply deep, it is named there, not looked for at depth 0.
    let output = perft()
        .args([
            "debug",
            "--engine",
            &format!("uci:{} --bug duplicate", buggy_path().display()),
            "--depth",
            "1",
        ])
        .args(["--fen", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("root: depth 1: perft 14, buggy_engine 15 (+1)"), "{stdout}");
    assert!(stdout.contains("listed twice: e2e4"), "{stdout}");
    assert!(!stdout.contains("depth 0"), "{stdout}");
}

#[test]
fn an_engine_that_answers_one_question_two_ways_is_inconsistent_once() {
    let run = check(&format!("uci:{} --bug first-answer", buggy_path().display()), &[]);
    assert_eq!(causes(&run.stdout), ["CAUSE 1 of 1: inconsistent: the engine answered the same question two ways: 1 wrong count at 1 position"], "{}", run.stdout);
    assert!(
        run.stdout
            .contains("inconsistent: it counted 8903 at depth 3, then 8902 asked again (we count 8902)"),
        "{}",
        run.stdout
    );
    let run = check(&format!("uci:{} --bug divide-off", buggy_path().display()), &[]);
    let out = &run.stdout;
    assert_eq!(causes(out).len(), 1, "{out}");
    assert!(causes(out)[0].starts_with("CAUSE 1 of 1: inconsistent"), "{out}");
    assert!(!out.contains(" where we count "), "{out}");
    // Its reproduce command starts where the divide gave the first answer.
    let (code, again) = rerun(out);
    assert_eq!(code, Some(1), "{again}");
    assert!(again.contains("inconsistent: its divide one ply up gives "), "{again}");
}

#[test]
fn a_crash_at_the_first_question_of_a_bisection_is_a_short_cause() {
    let run =
        check(&format!("uci:{} --bug ep --crash-after 1", buggy_path().display()), &["--max-depth", "3"]);
    let out = &run.stdout;
    let causes = causes(out);
    assert!(!causes.is_empty(), "{out}");
    let title = causes[0];
    assert!(
        title.contains(
            "not bisected: the engine failed at the first question (the test position itself): exited"
        ),
        "{out}"
    );
    assert!(!title.contains("its last output") && title.len() < 220, "{title}");
}

#[test]
fn debug_help_describes_debug() {
    let output = perft().args(["debug", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("the cheapest move whose count"), "{help}");
    assert!(help.contains("0  the engine agrees"), "{help}");
    assert!(!help.contains("the engine matched every count"), "{help}");
}

/// The `text` block that follows `marker` in `page`, run as shown (its
/// first two lines are the command): the output it shows, line for line.
fn runs_as_shown(page: &str, marker: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(page)).unwrap();
    let block = text.split(marker).nth(1).unwrap_or_else(|| panic!("{marker:?} is not in {page}"));
    let block = block.split("```text\n").nth(1).unwrap().split("```").next().unwrap();
    let mut lines = block.lines();
    let first = lines.next().unwrap().trim_start_matches("$ ").trim_end_matches('\\');
    let command = format!("{first} {}", lines.next().unwrap().trim());
    let expected: Vec<&str> = lines.collect();
    let built = buggy_path().display().to_string();
    let shown = "target/release/examples/buggy_engine";
    let words: Vec<String> =
        shlex::split(&command).unwrap().iter().map(|w| w.replace(shown, &built)).collect();
    let output =
        perft().current_dir(root).args(&words[1..]).timeout(Duration::from_secs(240)).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).replace(&built, shown);
    // What probing timed, and the time it expects, vary from run to run.
    let timings = |lines: Vec<&str>| -> Vec<String> {
        lines
            .into_iter()
            .map(|l| match l.split_once(' ') {
                Some((word @ ("timed:" | "expected:"), _)) => format!("{word} ..."),
                _ => l.to_string(),
            })
            .collect()
    };
    assert_eq!(timings(stdout.lines().collect()), timings(expected), "{page}: {command}");
}

#[test]
fn the_examples_of_the_docs_print_what_they_show() {
    runs_as_shown("docs/engines.md", "A console engine without UCI, whose bulk-counting path");
    runs_as_shown("docs/engines.md", "Give the program as it is, without a kind");
    runs_as_shown("README.md", "command of its own such as `perft 5`");
}

#[test]
fn compare_races_a_probed_engine() {
    let dir = tempfile::tempdir().unwrap();
    let positions = dir.path().join("p.epd");
    std::fs::write(
        &positions,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D4 197281 ;id \"start\"\n",
    )
    .unwrap();
    let output = perft()
        .args(["compare", "--repeat", "1", "--handshake-timeout", "1", "--positions"])
        .arg(&positions)
        .args(["--engine", &alone("--go-perft search")])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("found (UCI): `perft {depth}` in its UCI loop"), "{stdout}");
    assert!(stdout.lines().any(|l| l.contains("mine") && l.contains("197281")), "{stdout}");
    // Its start-up is one figure, measured by the race and said once: the
    // probe does not time it too.
    assert!(!stdout.contains("timed:"), "{stdout}");
    assert_eq!(stdout.lines().filter(|l| l.starts_with("mine: start-up ")).count(), 1, "{stdout}");
}

/// `perft check` of the example engine as `spec`, in the dialect its
/// `flags` give, on SUITE.
fn check_quirk(spec: &str, flags: &str, extra: &[&str]) -> Run {
    check(&format!("{spec}{} {flags}", buggy_path().display()), extra)
}

#[test]
fn answers_in_the_forms_engines_give_are_read_right() {
    // Non-ASCII text, a count of moves before the total, a total said again
    // late, one total per depth, the answer on standard error, a count made
    // on a thread after `readyok`: each read right, no wrong count.
    for (spec, flags) in [
        ("console:", "--no-uci --quirk utf8"),
        ("uci:", "--quirk utf8"),
        ("console:", "--no-uci --quirk moves-header"),
        ("console:", "--no-uci --quirk late-total=20"),
        ("uci:", "--quirk per-depth-info"),
        ("uci:", "--quirk stderr"),
        ("uci,perft=perft {depth}:", "--quirk threaded=300"),
    ] {
        let run = check_quirk(spec, flags, &[]);
        assert_eq!(run.code, Some(0), "{spec} {flags}: {}{}", run.stdout, run.stderr);
    }
}

#[test]
fn an_engine_that_does_not_know_the_perft_command_is_given_up_at_once() {
    // Its UCI loop answers `perft 3` with "Unknown command" and `readyok`.
    let began = Instant::now();
    let run = check_quirk("uci,perft=perft {depth}:", "--perft-command divide", &["--timeout", "30"]);
    assert_eq!(run.code, Some(2), "{}", run.stdout);
    assert!(
        run.stdout.contains("does not count perft with `perft 3`: it answered without a count"),
        "{}",
        run.stdout
    );
    assert!(began.elapsed() < Duration::from_secs(15), "{:?}", began.elapsed());
    assert!(run.stdout.contains("besides the checks"), "{}", run.stdout);
}

#[test]
fn probing_finds_engines_that_are_slow_odd_or_quit_on_what_they_do_not_know() {
    // Its `position` reads the FEN but not the moves after it: given the
    // position reached as a FEN.
    let run = check(&alone("--no-uci --quirk ignore-moves --bug rook-promotion"), &[]);
    assert!(
        run.stdout.contains("found (console): `perft {depth}` at its prompt, after `position fen {fen}`"),
        "{}",
        run.stdout
    );
    assert!(
        causes(&run.stdout)[0].starts_with("CAUSE 1 of 1: promotion to a rook missing"),
        "{}",
        run.stdout
    );
    // It quits on a command it does not know (`uci`, `isready`, `position`).
    let run = check(&alone("--no-uci --setboard --quirk exit-on-unknown"), &[]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("after `setboard {fen}`"), "{}", run.stdout);
    // It takes four seconds to start (and answers `go perft` on stderr).
    let output = perft()
        .args(["check", "--engine", &alone("--start-delay 4000 --quirk stderr")])
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/bench.epd"))
        .args(["--max-depth", "3"])
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("found (UCI): UCI `go perft`"), "{stdout}");
}

#[test]
fn an_engine_without_divide_or_king_safety_is_one_cause() {
    let run = check_quirk("uci:", "--bug no-king-safety --no-divide", &["--max-nodes", "20000"]);
    let causes = causes(&run.stdout);
    assert_eq!(causes.len(), 1, "{}", run.stdout);
    assert!(causes[0].contains("moves that leave or put their own king in check"), "{}", run.stdout);
    assert!(run.stdout.contains("king safety"), "{}", run.stdout);
}

#[test]
fn a_divide_that_does_not_add_up_is_said_and_a_one_off_answer_is_inconsistent() {
    let run = check_quirk("uci:", "--quirk divide-sum-off", &[]);
    assert!(run.stdout.contains("note: its divide there sums to "), "{}", run.stdout);
    // `perft debug`, which has no earlier answer, asks again before it
    // blames a count-only path.
    let output = perft()
        .args([
            "debug",
            "--engine",
            &format!("uci:{} --bug first-answer", buggy_path().display()),
            "--depth",
            "3",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("inconsistent: "), "{stdout}");
    assert!(!stdout.contains("candidates: none found"), "{stdout}");
}

#[test]
fn a_hopelessly_deep_count_is_not_asked_of_an_engine_that_counts_illegal_moves() {
    // The default suite's prison position, 32 plies deep: one legal move a
    // ply, but an engine without a king-safety test would never finish.
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("prison.epd");
    std::fs::write(
        &suite,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - ;D2 2039\n\
         2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - - ;D1 1 ;D32 1\n",
    )
    .unwrap();
    let began = Instant::now();
    let output = perft()
        .args(["check", "--engine", &format!("uci:{} --bug no-king-safety", buggy_path().display())])
        .arg(&suite)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{out}");
    assert!(
        out.contains(
            "note: 1 check deeper than 9 plies skipped: the engine counts moves that leave its king"
        ),
        "{out}"
    );
    assert!(
        out.contains("3 checks: 1 passed, 1 failed, 0 errors, 1 skipped") || out.contains("checks: "),
        "{out}"
    );
    // Not the 300-s default timeout.
    assert!(began.elapsed() < Duration::from_secs(120), "{:?}", began.elapsed());
}

#[test]
fn a_slow_command_line_that_exits_fast_on_bad_arguments_is_found_and_passes() {
    // It prints its usage at once on arguments it cannot read (the probe's
    // `uci`), but loads for 4.5 s before every real count: longer than a
    // probe's wait (3 s by default), so its fast exit must not bound the
    // counts.
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.epd");
    std::fs::write(&suite, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D2 400\n").unwrap();
    let output = perft()
        .args(["check", "--engine", &alone("--count-delay 4500 --cli")])
        .arg(&suite)
        .timeout(Duration::from_secs(240))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{out}{}", String::from_utf8_lossy(&output.stderr));
    assert!(out.contains("found (command lines): a command line per count"), "{out}");
    assert!(!out.contains("could not be started again") && !out.contains("timed out"), "{out}");
}
