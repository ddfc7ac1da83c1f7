//! The formats CI systems read: JUnit XML from `suite`, `check` and `diff`
//! (validated against the Jenkins JUnit schema and read back with the
//! `junitparser` package), GitHub Actions annotations and step summary.

mod common;

use std::path::Path;
use std::process::Command as StdCommand;

use assert_cmd::Command;
use common::{buggy_path, perft_with_bin};

fn perft() -> Command {
    perft_with_bin()
}

/// A suite with a wrong count (line 1, depth 2), an unreadable line (2), a
/// right count (3) and a count over `--max-depth 3` (line 1, depth 4).
fn broken_suite(dir: &Path) -> std::path::PathBuf {
    let path = dir.join("broken.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 401 ;D4 197281\n\
         not a fen ;D1 3\n\
         8/8/8/8/8/8/6k1/4K2R w K - 0 1 ;D1 12\n",
    )
    .unwrap();
    path
}

/// Validates `xml` with Python: against tests/data/junit-10.xsd (the
/// Jenkins JUnit schema, via `xmlschema`), then read with `junitparser`;
/// prints `tests failures errors skipped` and each failing case's name.
/// `None` when Python or the packages are missing, unless
/// `PERFT_REQUIRE_PYTHON=1` (CI sets it) makes that a failure.
fn python_junit(xml: &Path) -> Option<String> {
    let script = r#"
import sys, xmlschema, junitparser
xmlschema.XMLSchema(sys.argv[1]).validate(sys.argv[2])
xml = junitparser.JUnitXml.fromfile(sys.argv[2])
t = f = e = s = 0
names = []
for suite in xml:
    for case in suite:
        t += 1
        for r in case.result:
            if isinstance(r, junitparser.Failure): f += 1; names.append("FAILURE " + case.name + " | " + (r.message or ""))
            elif isinstance(r, junitparser.Error): e += 1; names.append("ERROR " + case.name)
            elif isinstance(r, junitparser.Skipped): s += 1
print(t, f, e, s)
print("\n".join(names))
"#;
    let xsd = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/junit-10.xsd");
    let output = StdCommand::new("python3").arg("-c").arg(script).arg(&xsd).arg(xml).output();
    let required = std::env::var("PERFT_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    match output {
        Ok(out) if out.status.success() => Some(String::from_utf8(out.stdout).unwrap()),
        Ok(out) if String::from_utf8_lossy(&out.stderr).contains("ModuleNotFoundError") && !required => {
            eprintln!("skipped the schema check: pip install xmlschema junitparser");
            None
        }
        Ok(out) => panic!("the JUnit report does not validate:\n{}", String::from_utf8_lossy(&out.stderr)),
        Err(e) if !required => {
            eprintln!("skipped the schema check: no python3 ({e})");
            None
        }
        Err(e) => panic!("python3: {e}"),
    }
}

#[test]
fn suite_writes_junit_that_the_schema_accepts() {
    let dir = tempfile::tempdir().unwrap();
    let suite = broken_suite(dir.path());
    let junit = dir.path().join("j.xml");
    let out =
        perft().arg("suite").arg(&suite).args(["--max-depth", "3", "--junit"]).arg(&junit).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("JUnit report: {}", junit.display())));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let name = format!("{}:1 depth 2", suite.display());
    let failing = doc.descendants().find(|n| n.attribute("name") == Some(name.as_str())).expect(&name);
    let failure = failing.children().find(|n| n.has_tag_name("failure")).unwrap();
    assert_eq!(failure.attribute("message"), Some("depth 2: expected 401, got 400 (-1)"));
    assert_eq!(failing.attribute("classname"), Some(suite.display().to_string().as_str()));
    if let Some(read) = python_junit(&junit) {
        let mut lines = read.lines();
        // Counts at depths 1 and 2 of line 1, line 3; the bad line 2; the skipped depth 4.
        assert_eq!(lines.next(), Some("5 1 1 1"), "{read}");
        assert!(read.contains(&format!("FAILURE {name} | depth 2: expected 401")), "{read}");
        assert!(read.contains(&format!("ERROR {}:2", suite.display())), "{read}");
    }
}

#[test]
fn check_junit_names_the_cause_the_bisected_position_and_the_command() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("promo.epd");
    std::fs::write(
        &suite,
        "8/Pk6/8/8/8/8/6Kp/8 w - - 0 1 ;D1 11 ;D2 97\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n",
    )
    .unwrap();
    let junit = dir.path().join("check.xml");
    let engine = format!("mine={} --bug rook-promotion", buggy_path().display());
    let out =
        perft().args(["check", "--engine", &engine]).arg(&suite).arg("--junit").arg(&junit).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failures: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("failure")).collect();
    assert_eq!(failures.len(), 2, "{xml}");
    let first = failures[0];
    assert_eq!(
        first.parent().unwrap().attribute("name"),
        Some(format!("{}:1 depth 1", suite.display()).as_str())
    );
    assert_eq!(first.attribute("message"), Some("depth 1: expected 11, mine says 10"));
    let text = first.text().unwrap();
    for needle in [
        "cause: promotion to a rook missing",
        "position: 8/Pk6/8/8/8/8/6Kp/8 w - - 0 1",
        "a7a8r",
        "reproduce: perft debug",
    ] {
        assert!(text.contains(needle), "{needle:?} not in {text}");
    }
    let suite_element = doc.descendants().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suite_element.attribute("tests"), Some("3"));
    if let Some(read) = python_junit(&junit) {
        assert!(read.starts_with("3 2 0 0"), "{read}");
    }
}

#[test]
fn github_actions_get_annotations_and_a_step_summary() {
    let dir = tempfile::tempdir().unwrap();
    let suite = broken_suite(dir.path());
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let out = perft()
        .current_dir(dir.path())
        .args(["suite", "broken.epd", "--max-depth", "3"])
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_STEP_SUMMARY", &summary)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("::error file=broken.epd,line=1,title=wrong perft count%3A broken.epd%3A1 depth 2::depth 2: expected 401, got 400 (-1)%0A"),
        "{stdout}"
    );
    assert!(
        stdout.contains("::error file=broken.epd,line=2,title=no perft count%3A broken.epd%3A2::"),
        "{stdout}"
    );
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("earlier step\n### perft suite: FAILED"), "{md}");
    assert!(md.contains("| broken.epd | 2 | 1 | 1 | 1 |"), "{md}");
    drop(suite);

    // Outside GitHub Actions, nothing; `--annotations github` asks anyway.
    let plain =
        perft().current_dir(dir.path()).args(["suite", "broken.epd", "--max-depth", "3"]).output().unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("::error"));
    let asked = perft()
        .current_dir(dir.path())
        .args(["suite", "broken.epd", "--max-depth", "3", "--annotations", "github"])
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&asked.stdout).contains("::error file=broken.epd,line=1,"));
}

#[test]
fn junit_to_stdout_moves_people_to_stderr_and_cannot_share_it_with_json() {
    let dir = tempfile::tempdir().unwrap();
    let suite = broken_suite(dir.path());
    let out = perft().arg("suite").arg(&suite).args(["--max-depth", "3", "--junit", "-"]).output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("<?xml"), "{stdout}");
    roxmltree::Document::parse(&stdout).unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("FAIL "));
    let both = perft().arg("suite").arg(&suite).args(["--json", "-", "--junit", "-"]).output().unwrap();
    assert_eq!(both.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&both.stderr).contains("both want standard output"));
    let over = perft().arg("suite").arg(&suite).arg("--junit").arg(&suite).output().unwrap();
    assert_eq!(over.status.code(), Some(2));
    assert!(std::fs::read_to_string(&suite).unwrap().contains(";D2 401"), "the suite was replaced");
}

#[test]
fn diff_junit_fails_a_changed_count() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.epd");
    std::fs::write(&suite, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902\n").unwrap();
    let (old, new) = (dir.path().join("old.json"), dir.path().join("new.json"));
    perft().arg("suite").arg(&suite).arg("--json").arg(&old).assert().success();
    // The same run, with the count the tool found changed, as a regression would.
    let report = std::fs::read_to_string(&old).unwrap().replace("\"nodes\": 8902", "\"nodes\": 8903");
    std::fs::write(&new, report).unwrap();
    let junit = dir.path().join("diff.xml");
    let out = perft().arg("diff").arg(&old).arg(&new).arg("--junit").arg(&junit).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stdout));
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let failure = doc.descendants().find(|n| n.has_tag_name("failure")).expect(&xml);
    assert!(failure.attribute("message").unwrap().starts_with("count changed"), "{xml}");
    if let Some(read) = python_junit(&junit) {
        assert!(read.lines().next().unwrap().split(' ').nth(1) == Some("1"), "{read}");
    }
}

/// A count that changes to the suite's expected one is a fix: said as such,
/// exit 0, and its JUnit case passes; a count that leaves it fails.
#[test]
fn diff_of_a_fixed_count_says_so_and_passes() {
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("s.epd");
    std::fs::write(&suite, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902\n").unwrap();
    let (right, wrong) = (dir.path().join("right.json"), dir.path().join("wrong.json"));
    perft().arg("suite").arg(&suite).arg("--json").arg(&right).assert().success();
    // The report of a build that counted one too many.
    let report = std::fs::read_to_string(&right).unwrap().replace("\"nodes\": 8902", "\"nodes\": 8903");
    std::fs::write(&wrong, report).unwrap();
    let junit = dir.path().join("diff.xml");
    let out = perft().arg("diff").arg(&wrong).arg(&right).arg("--junit").arg(&junit).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("COUNT FIXED: "), "{stdout}");
    assert!(stdout.contains("depth 3: 8903 -> 8902 (now the expected 8902)"), "{stdout}");
    assert!(stdout.contains("1 count changed (1 fixed: now as expected), 0 regressions"), "{stdout}");
    assert!(!stdout.contains("COUNT CHANGED"), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    assert!(!doc.descendants().any(|n| n.has_tag_name("failure")), "{xml}");
    assert!(
        doc.descendants().any(|n| n.attribute("name").is_some_and(|name| name.contains("8903 -> 8902"))),
        "{xml}"
    );
    // Back again: the count leaves the expected one.
    let out = perft().arg("diff").arg(&right).arg(&wrong).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("COUNT CHANGED: ") && stdout.contains("8902 -> 8903 (expected 8902)"),
        "{stdout}"
    );
}

fn repository() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn docs_show_the_example_workflows_as_they_are() {
    let page = std::fs::read_to_string(repository().join("docs/ci.md")).unwrap();
    for example in ["docs/examples/github-workflow.yml", "docs/examples/gitlab-ci.yml"] {
        let text = std::fs::read_to_string(repository().join(example)).unwrap();
        assert!(page.contains(&format!("```yaml\n{text}```")), "docs/ci.md does not show {example} as it is");
    }
}

/// `check-jsonschema` (SchemaStore's schemas, offline) accepts the action and
/// the documented workflows; skipped without it unless
/// `PERFT_REQUIRE_PYTHON=1`.
#[test]
fn the_action_and_the_workflows_pass_their_schemas() {
    let required = std::env::var("PERFT_REQUIRE_PYTHON").is_ok_and(|v| v == "1");
    for (schema, file) in [
        ("vendor.github-actions", "action.yml"),
        ("vendor.github-workflows", "docs/examples/github-workflow.yml"),
        ("vendor.gitlab-ci", "docs/examples/gitlab-ci.yml"),
    ] {
        let run = StdCommand::new("check-jsonschema")
            .args(["--builtin-schema", schema])
            .arg(repository().join(file))
            .output();
        match run {
            Ok(out) => assert!(
                out.status.success(),
                "{file} fails {schema}:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ),
            Err(e) if !required => {
                eprintln!("skipped: no check-jsonschema ({e}); pip install check-jsonschema");
                return;
            }
            Err(e) => panic!("check-jsonschema: {e}"),
        }
    }
}

/// The shell of the action's `perft check` step, as GitHub runs it: the
/// `run: |` block under `- name: perft check`, dedented.
fn action_check_script() -> String {
    let action = std::fs::read_to_string(repository().join("action.yml")).unwrap();
    let step = action.split("    - name: perft check\n").nth(1).expect("a `perft check` step");
    let run = step.split("      run: |\n").nth(1).expect("its run block");
    run.lines()
        .take_while(|line| line.is_empty() || line.starts_with("        "))
        .map(|line| line.get(8..).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_action_runs_perft_check_with_its_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = broken_suite(dir.path());
    std::fs::write(&suite, "8/Pk6/8/8/8/8/6Kp/8 w - - 0 1 ;D1 11 ;D2 97 ;D5 1000000\n").unwrap();
    let perft_dir = assert_cmd::cargo::cargo_bin("perft").parent().unwrap().to_path_buf();
    let path = format!("{}:{}", perft_dir.display(), std::env::var("PATH").unwrap_or_default());
    let engine = format!("mine={} --bug rook-promotion", buggy_path().display());
    let out = StdCommand::new("bash")
        .args(["-eo", "pipefail", "-c", &action_check_script()])
        .current_dir(dir.path())
        .env("PATH", path)
        .env("INPUT_ENGINE", &engine)
        .env("INPUT_SUITES", "broken.epd")
        .env("INPUT_MAX_NODES", "10000")
        .env("INPUT_MAX_DEPTH", "")
        .env("INPUT_TIMEOUT", "30")
        .env("INPUT_JUNIT", "perft-junit.xml")
        .env("INPUT_ARGS", "--jobs 1")
        .env_remove("GITHUB_STEP_SUMMARY")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        stdout.contains("::error file=broken.epd,line=1,title=wrong perft count%3A broken.epd%3A1 depth 1::"),
        "{stdout}"
    );
    let xml = std::fs::read_to_string(dir.path().join("perft-junit.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap();
    // depth 5 is over max-nodes: skipped, with the reason.
    let skipped = doc.descendants().find(|n| n.has_tag_name("skipped")).expect(&xml);
    assert_eq!(skipped.attribute("message"), Some("more nodes than --max-nodes 10000"));
}

/// The action's step keeps every input: suites on several lines (a
/// `suites: |` block) and separated by spaces all run, and `args` is split
/// with its quotes honoured (a report name with a space).
#[test]
fn the_action_checks_every_suite_of_a_multi_line_input() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("good.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("also good.epd"), "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n").unwrap();
    std::fs::write(dir.path().join("second.epd"), "8/Pk6/8/8/8/8/6Kp/8 w - - 0 1 ;D1 11\n").unwrap();
    let perft_dir = assert_cmd::cargo::cargo_bin("perft").parent().unwrap().to_path_buf();
    let path = format!("{}:{}", perft_dir.display(), std::env::var("PATH").unwrap_or_default());
    let engine = format!("mine={} --bug rook-promotion", buggy_path().display());
    let run = |suites: &str| {
        StdCommand::new("bash")
            .args(["-eo", "pipefail", "-c", &action_check_script()])
            .current_dir(dir.path())
            .env("PATH", &path)
            .env("INPUT_ENGINE", &engine)
            .env("INPUT_SUITES", suites)
            .env("INPUT_MAX_NODES", "10000")
            .env("INPUT_MAX_DEPTH", "")
            .env("INPUT_TIMEOUT", "30")
            .env("INPUT_JUNIT", "")
            .env("INPUT_ARGS", "--jobs 1\n--json \"my report.json\"")
            .env_remove("GITHUB_STEP_SUMMARY")
            .output()
            .unwrap()
    };
    for suites in
        ["good.epd\nsecond.epd\n", "good.epd second.epd", "\"also good.epd\"\n  good.epd   second.epd"]
    {
        let out = run(suites);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{suites:?}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            stdout.contains("::error file=second.epd,line=1,title=wrong perft count"),
            "{suites:?}: {stdout}"
        );
        let report: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.path().join("my report.json")).unwrap())
                .unwrap();
        let files: std::collections::BTreeSet<&str> =
            report["results"].as_array().unwrap().iter().map(|r| r["file"].as_str().unwrap()).collect();
        let expected = suites.matches(".epd").count();
        assert_eq!(files.len(), expected, "{suites:?}: {files:?}");
    }
    // An unmatched quote is refused, not half read.
    let out = run("good.epd \"second.epd");
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
}
