//! The one rule for JSON reports: written only when asked with `--json`
//! (`bench` always writes one), in every form the docs show, in any order
//! with the positional arguments, and never for a run that counted
//! nothing.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn perft_bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("perft")
}

/// `perft` run in `dir`, with `$PERFT_RESULTS` unset.
fn perft_in(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    cmd.current_dir(dir).env_remove("PERFT_RESULTS").env_remove("RUST_BACKTRACE");
    cmd
}

/// A suite of two cheap checks.
fn small_suite(dir: &Path) -> String {
    let path = dir.join("small.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400 ;id \"start\"\n",
    )
    .unwrap();
    path.to_string_lossy().into_owned()
}

/// This program as a UCI engine (`perft uci`).
fn engine() -> String {
    format!("self=uci:{} uci", perft_bin().display())
}

/// The arguments of one cheap run of `kind`; `{suite}` and `{engine}` are
/// filled in.
fn cheap_args(kind: &str, suite: &str) -> Vec<String> {
    let args: Vec<&str> = match kind {
        "run" => vec!["run", "2"],
        "suite" => vec!["suite", suite],
        "bench" => vec!["bench", "--repeat", "1", "--sample-time", "0.01", "--positions", suite],
        "compare" => vec!["compare", "--repeat", "1", "--positions", suite, "--engine", "{engine}"],
        "check" => vec!["check", "--engine", "{engine}", suite],
        _ => unreachable!(),
    };
    let engine = engine();
    args.into_iter().map(|a| if a == "{engine}" { engine.clone() } else { a.to_string() }).collect()
}

/// Files under `dir/results`, or none when it does not exist.
fn reports_in(dir: &Path) -> Vec<String> {
    match std::fs::read_dir(dir.join("results")) {
        Ok(entries) => entries.map(|e| e.unwrap().file_name().into_string().unwrap()).collect(),
        Err(_) => Vec::new(),
    }
}

fn parse_report(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

#[test]
fn every_json_form_works_for_every_subcommand() {
    for kind in ["run", "suite", "bench", "compare", "check"] {
        let dir = tempfile::tempdir().unwrap();
        let suite = small_suite(dir.path());
        let args = cheap_args(kind, &suite);
        let ok = |cmd: &mut Command| {
            let output = cmd.output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            assert_eq!(output.status.code(), Some(0), "{cmd:?}: {stderr}");
            String::from_utf8(output.stdout).unwrap()
        };

        // No flag: only bench writes a report, into results/.
        ok(perft_in(dir.path()).args(&args));
        let written = reports_in(dir.path());
        if kind == "bench" {
            assert_eq!(written.len(), 1, "{kind}: {written:?}");
            std::fs::remove_dir_all(dir.path().join("results")).unwrap();
        } else {
            assert!(!dir.path().join("results").exists(), "{kind} wrote {written:?} unasked");
        }

        // `--json` alone, after and before the positionals: results/KIND-*.json.
        for before in [false, true] {
            let mut cmd = perft_in(dir.path());
            if before {
                cmd.arg(&args[0]).arg("--json").args(&args[1..]);
            } else {
                cmd.args(&args).arg("--json");
            }
            let out = ok(&mut cmd);
            let written = reports_in(dir.path());
            assert_eq!(written.len(), 1, "{cmd:?}: {written:?}");
            assert!(
                written[0].starts_with(&format!("{kind}-")) && written[0].ends_with(".json"),
                "{written:?}"
            );
            assert!(out.contains(&format!("Report: results/{}", written[0])), "{out}");
            parse_report(&dir.path().join("results").join(&written[0]));
            std::fs::remove_dir_all(dir.path().join("results")).unwrap();
        }

        // `$PERFT_RESULTS` moves the default place.
        let elsewhere = dir.path().join("elsewhere");
        ok(perft_in(dir.path()).env("PERFT_RESULTS", &elsewhere).args(&args).arg("--json"));
        assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 1, "{kind}");

        // `--json FILE` before and after, and `--json=FILE`.
        type Form<'a> = Box<dyn Fn(&mut Command, &str) + 'a>;
        let forms: [(&str, Form); 3] = [
            (
                "after",
                Box::new(|cmd: &mut Command, file: &str| {
                    cmd.args(&args).args(["--json", file]);
                }),
            ),
            (
                "before",
                Box::new(|cmd: &mut Command, file: &str| {
                    cmd.arg(&args[0]).args(["--json", file]).args(&args[1..]);
                }),
            ),
            (
                "equals",
                Box::new(|cmd: &mut Command, file: &str| {
                    cmd.args(&args).arg(format!("--json={file}"));
                }),
            ),
        ];
        for (form, build) in &forms {
            let file = format!("{kind}-{form}.json");
            let mut cmd = perft_in(dir.path());
            build(&mut cmd, &file);
            ok(&mut cmd);
            let report = parse_report(&dir.path().join(&file));
            assert!(report.get("tool").is_some(), "{kind} {form}: {report}");
        }

        // `--json -`: the report alone on stdout.
        let out = ok(perft_in(dir.path()).args(&args).args(["--json", "-"]));
        let report: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{kind}: {e}: {out}"));
        assert!(report.get("tool").is_some());
        assert!(!dir.path().join("results").exists(), "{kind}");
    }
}

#[test]
fn run_takes_a_number_after_a_bare_json_as_the_depth() {
    let dir = tempfile::tempdir().unwrap();
    let output = perft_in(dir.path()).args(["run", "--json", "3"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stdout).contains("Nodes searched: 8902"));
    let written = reports_in(dir.path());
    assert_eq!(written.len(), 1, "{written:?}");
    assert_eq!(parse_report(&dir.path().join("results").join(&written[0]))["depth"], 3);
    assert!(!dir.path().join("3").exists());
}

#[test]
fn a_run_that_counts_nothing_leaves_nothing_behind() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        &["suite", "/nonexistent/suite.epd"][..],
        &["suite", "/nonexistent/suite.epd", "--json"],
        &["suite", "--json", "/nonexistent/suite.epd"],
        &["check", "--engine", "x=uci:/nonexistent/engine", "/nonexistent/suite.epd", "--json"],
        &["run", "3", "--fen", "not a fen", "--json"],
        &["run", "3", "--json", "deeper/still/report.json", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
        &["bench", "--positions", "/nonexistent/bench.epd"],
    ] {
        let output = perft_in(dir.path()).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().path()).collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
}

#[test]
fn a_report_in_a_new_directory_is_written_there() {
    let dir = tempfile::tempdir().unwrap();
    let output = perft_in(dir.path()).args(["run", "2", "--json", "new/dir/run.json"]).output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(parse_report(&dir.path().join("new/dir/run.json"))["nodes"], 400);
}
