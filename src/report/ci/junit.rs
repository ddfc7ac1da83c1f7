//! JUnit XML, as Jenkins, GitLab, Azure Pipelines and the JUnit reporters
//! of GitHub Actions read it: one `testsuite` per suite file, one
//! `testcase` per count, with `failure`, `error` or `skipped` (the Jenkins
//! JUnit schema, `junit-10.xsd`, accepts it).

use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;

use super::{CiOutcome, CiRun, CiSuite, Tally};

/// Text as XML 1.0 allows it: control characters (an engine's escape
/// codes) become `?`.
fn xml_text(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c < ' ' && !matches!(c, '\t' | '\n' | '\r') || matches!(c, '\u{FFFE}' | '\u{FFFF}') {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// Seconds as the schema's times: at most three decimals.
fn time(seconds: f64) -> String {
    format!("{:.3}", if seconds.is_finite() && seconds > 0.0 { seconds } else { 0.0 })
}

fn write_suite(writer: &mut Writer<Vec<u8>>, run: &CiRun, suite: &CiSuite) -> std::io::Result<()> {
    let tally = suite.tally();
    let counts = counts(tally);
    let mut element =
        writer.create_element("testsuite").with_attribute(("name", xml_text(&suite.name).as_str()));
    for (name, value) in &counts {
        element = element.with_attribute((*name, value.as_str()));
    }
    element = element
        .with_attribute(("skipped", tally.skipped.to_string().as_str()))
        .with_attribute(("time", time(suite.seconds()).as_str()))
        .with_attribute(("timestamp", run.timestamp.as_str()));
    if let Some(path) = &suite.path {
        element = element.with_attribute(("file", xml_text(path).as_str()));
    }
    element.write_inner_content(|writer| {
        writer.create_element("properties").write_inner_content(|writer| {
            let wall = ("wall-seconds".to_string(), time(run.seconds));
            for (name, value) in run.properties.iter().chain([&wall]) {
                writer
                    .create_element("property")
                    .with_attribute(("name", xml_text(name).as_str()))
                    .with_attribute(("value", xml_text(value).as_str()))
                    .write_empty()?;
            }
            Ok(())
        })?;
        for case in &suite.cases {
            let element = writer
                .create_element("testcase")
                .with_attribute(("name", xml_text(&case.name).as_str()))
                .with_attribute(("classname", xml_text(&suite.name).as_str()))
                .with_attribute(("time", time(case.seconds).as_str()));
            let (tag, kind, message, details) = match &case.outcome {
                CiOutcome::Passed => {
                    element.write_empty()?;
                    continue;
                }
                CiOutcome::Failed { message, details } => {
                    ("failure", "wrong count", message, details.as_str())
                }
                CiOutcome::Error { message, details } => ("error", "no count", message, details.as_str()),
                CiOutcome::Skipped { message } => ("skipped", "skipped", message, ""),
            };
            element.write_inner_content(|writer| {
                let inner = writer
                    .create_element(tag)
                    .with_attribute(("type", kind))
                    .with_attribute(("message", xml_text(message).as_str()));
                if details.is_empty() {
                    inner.write_empty()?;
                } else {
                    inner.write_text_content(BytesText::new(&xml_text(details)))?;
                }
                Ok(())
            })?;
        }
        Ok(())
    })?;
    Ok(())
}

/// `tests`, `failures` and `errors`, the counts both levels carry.
fn counts(tally: Tally) -> [(&'static str, String); 3] {
    [
        ("tests", tally.tests.to_string()),
        ("failures", tally.failures.to_string()),
        ("errors", tally.errors.to_string()),
    ]
}

/// The run as a JUnit XML document.
pub fn to_junit(run: &CiRun) -> String {
    let mut writer = Writer::new_with_indent(Vec::new(), b' ', 2);
    let written: std::io::Result<()> = (|| {
        writer.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        let mut element =
            writer.create_element("testsuites").with_attribute(("name", xml_text(&run.title).as_str()));
        for (name, value) in &counts(run.tally()) {
            element = element.with_attribute((*name, value.as_str()));
        }
        // The total is the sum of the suites', as readers add them up; with
        // counts run side by side (`-j`) that is more than the wall time,
        // which each suite's `wall-seconds` property gives.
        let total: f64 = run.suites.iter().map(|suite| suite.seconds()).sum();
        element.with_attribute(("time", time(total).as_str())).write_inner_content(|writer| {
            for suite in &run.suites {
                write_suite(writer, run, suite)?;
            }
            Ok(())
        })?;
        Ok(())
    })();
    // Writing into a Vec cannot fail.
    debug_assert!(written.is_ok());
    let mut xml = String::from_utf8(writer.into_inner()).unwrap_or_default();
    xml.push('\n');
    xml
}
