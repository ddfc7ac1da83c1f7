use super::github::{annotations, step_summary, MAX_ANNOTATIONS};
use super::junit::to_junit;
use super::*;

fn case(name: &str, line: usize, outcome: CiOutcome) -> CiCase {
    CiCase { name: name.into(), line, seconds: 0.25, outcome, cause: None }
}

fn failed(message: &str) -> CiOutcome {
    CiOutcome::Failed { message: message.into(), details: "fen: 8/8/8/8/8/8/8/K6k w - - 0 1\n".into() }
}

fn run_of(cases: Vec<CiCase>, path: Option<&str>) -> CiRun {
    CiRun {
        title: "perft suite".into(),
        suites: vec![CiSuite { name: "a, b: c.epd".into(), path: path.map(Into::into), cases }],
        seconds: 1.5,
        timestamp: "2026-11-27T00:00:00Z".into(),
        properties: vec![("tool".into(), "perft <test> & co".into())],
        causes: Vec::new(),
    }
}

#[test]
fn junit_escapes_and_counts() {
    let run = run_of(
        vec![
            case("x:1 depth 1", 1, CiOutcome::Passed),
            case("x:1 depth 2", 1, failed("expected <1> & \"2\"\u{1b}[0m")),
            case("x:2", 2, CiOutcome::Error { message: "bad".into(), details: String::new() }),
            case("x:3 depth 9", 3, CiOutcome::Skipped { message: "deeper than --max-depth 4".into() }),
        ],
        Some("a, b: c.epd"),
    );
    let xml = to_junit(&run);
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let suites = doc.root_element();
    assert_eq!(suites.tag_name().name(), "testsuites");
    assert_eq!(suites.attribute("tests"), Some("4"));
    assert_eq!(suites.attribute("failures"), Some("1"));
    assert_eq!(suites.attribute("errors"), Some("1"));
    let suite = suites.children().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suite.attribute("skipped"), Some("1"));
    assert_eq!(suite.attribute("file"), Some("a, b: c.epd"));
    let failure = doc.descendants().find(|n| n.has_tag_name("failure")).unwrap();
    // The escape character is not XML; it is replaced, the rest kept.
    assert_eq!(failure.attribute("message"), Some("expected <1> & \"2\"?[0m"));
    assert!(failure.text().unwrap().contains("fen: 8/8/8/8/8/8/8/K6k"));
    let property = doc.descendants().find(|n| n.has_tag_name("property")).unwrap();
    assert_eq!(property.attribute("value"), Some("perft <test> & co"));
    assert!(doc.descendants().any(|n| n.has_tag_name("skipped")));
    assert!(doc.descendants().any(|n| n.has_tag_name("error") && n.attribute("message") == Some("bad")));
}

#[test]
fn annotations_escape_properties_and_messages() {
    let run =
        run_of(vec![case("x:7 depth 2", 7, failed("50% off, said: no"))], Some("/ws/suites/a, b: c.epd"));
    let lines = annotations(&run, Some("/ws/"), None);
    assert_eq!(lines.len(), 1);
    let line = &lines[0];
    assert!(
        line.starts_with(
            "::error file=suites/a%2C b%3A c.epd,line=7,title=wrong perft count%3A x%3A7 depth 2::"
        ),
        "{line}"
    );
    assert!(line.contains("::50%25 off, said: no%0Afen: 8/8/8/8/8/8/8/K6k w - - 0 1"), "{line}");
    assert!(!line.contains('\n'));
}

#[test]
fn built_in_suites_get_no_file_and_errors_without_line_no_line() {
    let run = run_of(vec![case("default.epd:3 depth 1", 3, failed("wrong"))], None);
    let line = &annotations(&run, None, None)[0];
    assert!(line.starts_with("::error title="), "{line}");
    let run = run_of(
        vec![case(
            "x",
            0,
            CiOutcome::Error { message: "no positions in the file".into(), details: String::new() },
        )],
        Some("./x.epd"),
    );
    let line = &annotations(&run, None, None)[0];
    assert!(line.starts_with("::error file=x.epd,title="), "{line}");
}

#[test]
fn annotations_are_bounded_and_put_each_cause_example_first() {
    let mut cases: Vec<CiCase> =
        (1..=MAX_ANNOTATIONS + 10).map(|n| case(&format!("x:{n} depth 1"), n, failed("wrong"))).collect();
    let last = cases.len() - 1;
    cases[last].cause = Some(0);
    let mut run = run_of(cases, Some("x.epd"));
    run.causes.push(CiCause {
        description: "promotion to a rook missing".into(),
        failures: 1,
        example: run.suites[0].cases[last].name.clone(),
        reproduce: None,
    });
    let lines = annotations(&run, None, None);
    assert_eq!(lines.len(), MAX_ANNOTATIONS + 1);
    assert!(lines[0].contains(&format!("line={}", last + 1)), "{}", lines[0]);
    assert!(lines[1].contains("line=1,"), "{}", lines[1]);
    assert!(lines[MAX_ANNOTATIONS].starts_with("::warning"), "{}", lines[MAX_ANNOTATIONS]);
    assert!(lines[MAX_ANNOTATIONS].contains("10 more"), "{}", lines[MAX_ANNOTATIONS]);
}

#[test]
fn step_summary_has_totals_causes_failures_and_the_slowest() {
    let mut run = run_of(
        vec![case("x:1 depth 1", 1, CiOutcome::Passed), case("x:2 depth 1", 2, failed("expected 3 | got 4"))],
        Some("x.epd"),
    );
    run.suites[0].cases[1].cause = Some(0);
    run.causes.push(CiCause {
        description: "en passant missing".into(),
        failures: 1,
        example: "x:2 depth 1".into(),
        reproduce: Some("perft debug --engine `x`".into()),
    });
    let md = step_summary(&run);
    assert!(md.starts_with("### perft suite: FAILED"), "{md}");
    assert!(md.contains("1 passed, 1 failed, 0 errors, 0 skipped"), "{md}");
    assert!(md.contains("1. en passant missing (1 wrong count; example `x:2 depth 1`)"), "{md}");
    assert!(md.contains("| `x:2 depth 1` | expected 3 \\| got 4 | 1 |"), "{md}");
    assert!(md.contains("**Slowest counts**"), "{md}");
}

#[test]
fn annotation_paths_are_read_from_the_current_directory() {
    let path = |given: &str, here: &str| {
        let run = run_of(vec![case("x:3 depth 1", 3, failed("wrong"))], Some(given));
        let line = annotations(&run, Some("/ws"), Some(std::path::Path::new(here))).remove(0);
        line.strip_prefix("::error file=").unwrap().split(',').next().unwrap().to_string()
    };
    assert_eq!(path("tests/a.epd", "/ws"), "tests/a.epd");
    assert_eq!(path("a.epd", "/ws/tests"), "tests/a.epd", "given from a subdirectory");
    assert_eq!(path("../suites/a.epd", "/ws/engine"), "suites/a.epd");
    assert_eq!(path("./a.epd", "/ws/t/./u"), "t/u/a.epd");
    assert_eq!(path("/ws/t/a.epd", "/elsewhere"), "t/a.epd");
    assert_eq!(path("/other/a.epd", "/ws"), "/other/a.epd", "outside the workspace: as given");
}

#[test]
fn annotation_messages_cannot_carry_commands_or_escapes() {
    let run = run_of(
        vec![case("x:3 depth 1", 3, failed("said \u{1b}]8;;http://x\u{7}##[stop-commands]t\r::add-mask::s"))],
        None,
    );
    let line = annotations(&run, None, None).remove(0);
    assert!(
        !line.contains("##[") && !line.contains('\u{1b}') && !line.contains('\u{7}') && !line.contains('\r'),
        "{line}"
    );
    assert!(line.contains("\\x1b]8;;http"), "{line}");
}

#[test]
fn one_error_said_at_every_count_is_one_annotation() {
    let dead = || CiOutcome::Error {
        message: "not asked: the engine is dead (see above)".into(),
        details: String::new(),
    };
    let mut cases: Vec<CiCase> = (2..=50).map(|n| case(&format!("x:{n} depth 1"), n, dead())).collect();
    cases.insert(
        0,
        case("x:1 depth 1", 1, CiOutcome::Error { message: "exited".into(), details: String::new() }),
    );
    let lines = annotations(&run_of(cases, Some("x.epd")), None, None);
    assert_eq!(lines.len(), 2, "{lines:#?}");
    assert!(lines[1].contains("(and the same at 48 more counts"), "{}", lines[1]);
}

#[test]
fn junit_totals_add_up_and_the_wall_time_is_a_property() {
    // Four cases of 0.25 s each, run side by side in 1.5 s of wall time
    // (`run_of`): the suite and the total say 1 s, the property 1.5 s.
    let run = run_of(vec![case("x:1 depth 1", 1, CiOutcome::Passed); 4], None);
    let xml = to_junit(&run);
    let doc = roxmltree::Document::parse(&xml).unwrap();
    let suites = doc.root_element();
    let suite = suites.children().find(|n| n.has_tag_name("testsuite")).unwrap();
    assert_eq!(suites.attribute("time"), Some("1.000"), "{xml}");
    assert_eq!(suite.attribute("time"), Some("1.000"), "{xml}");
    let wall = doc.descendants().find(|n| n.attribute("name") == Some("wall-seconds")).expect(&xml);
    assert_eq!(wall.attribute("value"), Some("1.500"));
}
