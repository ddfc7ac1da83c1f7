//! Text from engines and suites is data: it can never start a GitHub
//! Actions workflow command nor reach the terminal as an escape. The
//! runner's command parser is ported here (actions/runner,
//! `ActionCommand.TryParseV2` for `::name props::data` at a trimmed line
//! start, `ActionCommand.TryParse` for the legacy `##[name props]data`
//! anywhere in a line, lines split as .NET's `ReadLine` splits them, and
//! `::stop-commands::TOKEN` honoured), and every line a hostile engine or
//! suite makes perft print is fed to it.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::process::{Command, Stdio};

/// The commands the runner knows (`ActionCommandManager` registers these).
const REGISTERED: [&str; 15] = [
    "add-mask",
    "add-matcher",
    "add-path",
    "debug",
    "echo",
    "endgroup",
    "error",
    "group",
    "notice",
    "remove-matcher",
    "save-state",
    "set-env",
    "set-output",
    "stop-commands",
    "warning",
];

/// A workflow command as the runner reads it.
#[derive(Debug, Clone, PartialEq)]
struct ActionCommand {
    name: String,
    properties: Vec<(String, String)>,
    data: String,
}

/// .NET's `char.IsWhiteSpace`, which `string.TrimStart()` trims.
fn dotnet_whitespace(c: char) -> bool {
    c.is_whitespace() || c == '\u{85}' || c == '\u{a0}'
}

/// `ActionCommand.TryParseV2`: `::` after leading white space, the command
/// and its properties up to the next `::`, the data after it.
fn try_parse_v2(line: &str) -> Option<ActionCommand> {
    let message = line.trim_start_matches(dotnet_whitespace);
    let rest = message.strip_prefix("::")?;
    let end = rest.find("::")?;
    let info = &rest[..end];
    let (name, props) = info.split_once(' ').unwrap_or((info, ""));
    if !REGISTERED.contains(&name) {
        return None;
    }
    let properties = props
        .split(',')
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    Some(ActionCommand { name: name.to_string(), properties, data: rest[end + 2..].to_string() })
}

/// `ActionCommand.TryParse`: the legacy `##[name props]data`, anywhere in
/// the line.
fn try_parse_legacy(line: &str) -> Option<ActionCommand> {
    let at = line.find("##[")?;
    let rest = &line[at + 3..];
    let close = rest.find(']')?;
    let info = &rest[..close];
    let (name, props) = info.split_once(' ').unwrap_or((info, ""));
    if !REGISTERED.contains(&name) {
        return None;
    }
    let properties = props
        .split(';')
        .filter(|p| !p.is_empty())
        .filter_map(|p| p.split_once('=').map(|(k, v)| (k.to_string(), v.to_string())))
        .collect();
    Some(ActionCommand { name: name.to_string(), properties, data: rest[close + 1..].to_string() })
}

/// Every command the runner would run on `output`: lines split on CR, LF
/// and CRLF; the v2 form tried first, then the legacy one; while commands
/// are stopped, only `::TOKEN::` (the resume) is read.
fn runner_commands(output: &str) -> Vec<ActionCommand> {
    let mut commands = Vec::new();
    let mut stopped: Option<String> = None;
    for line in output.split("\r\n").flat_map(|l| l.split(['\r', '\n'])) {
        if let Some(token) = &stopped {
            if line.trim_start_matches(dotnet_whitespace) == format!("::{token}::") {
                stopped = None;
            }
            continue;
        }
        let Some(command) = try_parse_v2(line).or_else(|| try_parse_legacy(line)) else { continue };
        if command.name == "stop-commands" {
            stopped = Some(command.data.clone());
        }
        commands.push(command);
    }
    commands
}

#[test]
fn the_ported_parser_reads_both_forms() {
    let found = runner_commands(
        "x\n  \t::add-mask::s3cret\r##[stop-commands]tok\n::error::hidden\n::tok::\nsay ##[warning]w\n",
    );
    let names: Vec<&str> = found.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["add-mask", "stop-commands", "warning"], "{found:?}");
    assert_eq!(found[0].data, "s3cret");
    assert_eq!(try_parse_v2("::error file=a.epd,line=3::x").unwrap().properties.len(), 2);
    assert!(try_parse_v2("::nonsense::x").is_none() && try_parse_v2("x ::error::y").is_none());
}

/// What a hostile engine prints: workflow commands in both forms, a line
/// split by a bare CR, terminal escapes (OSC 8 link, clear screen, bell).
const HOSTILE: &str = "::add-mask::s3cret\n  ::error title=forged::all is well\n\t::stop-commands::pwned\n\
                       ##[stop-commands]pwned2\nsaid ##[add-mask]s3cret\nfine\r::warning::split by CR\n\
                       \u{1b}]8;;http://evil.example\u{7}link\u{1b}]8;;\u{7} \u{1b}[2J\u{1b}[H\u{7}\u{9b}31m\n";

fn hostile_engine(dir: &Path) -> String {
    let script = dir.join("hostile.sh");
    let payload = dir.join("payload.txt");
    std::fs::write(&payload, HOSTILE).unwrap();
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n  uci) echo uciok ;;\n  isready) echo readyok ;;\n  \
             \"go perft\"*) cat '{}'; exit 3 ;;\nesac; done\n",
            payload.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    format!("evil=uci:{}", script.display())
}

/// What `perft ARGS` prints on stdout and stderr, in GitHub mode.
fn in_github_mode(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .args(args)
        .current_dir(dir)
        .env("GITHUB_ACTIONS", "true")
        .env("GITHUB_WORKSPACE", dir)
        .env("GITHUB_STEP_SUMMARY", dir.join("summary.md"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let all = [output.stdout, output.stderr].concat();
    (output.status.code(), String::from_utf8_lossy(&all).into_owned())
}

/// No command but perft's own annotations (`error` or `warning`, with a
/// title perft gives), and no raw escape, bell or CSI.
fn assert_only_own_commands(output: &str, titles: &[&str]) {
    for command in runner_commands(output) {
        assert!(["error", "warning"].contains(&command.name.as_str()), "{command:?} in:\n{output}");
        let title = command.properties.iter().find(|(k, _)| k == "title").map(|(_, v)| v.as_str());
        assert!(
            title.is_some_and(|t| titles.iter().any(|own| t.starts_with(own))),
            "a command perft did not write: {command:?} in:\n{output}"
        );
    }
    for raw in ['\u{1b}', '\u{7}', '\u{9b}'] {
        assert!(!output.contains(raw), "raw {raw:?} in:\n{output}");
    }
}

#[test]
fn engine_text_steers_no_runner_and_no_terminal() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("s.epd"),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\n",
    )
    .unwrap();
    let engine = hostile_engine(dir.path());
    let (code, output) = in_github_mode(
        dir.path(),
        &["check", "--engine", &engine, "--timeout", "20", "--junit", "j.xml", "s.epd"],
    );
    assert_eq!(code, Some(2), "{output}");
    assert!(output.contains("all is well"), "the engine's lines are shown: {output}");
    assert!(output.contains("\\x1b]8;;http://evil.example\\x07link"), "escaped, not dropped: {output}");
    assert_only_own_commands(&output, &["no perft count", "wrong perft count", "perft "]);
    // One engine, dead after its first count: one annotation, not one per count.
    let annotations = runner_commands(&output).into_iter().filter(|c| c.name == "error").count();
    assert!(annotations <= 2, "{annotations} annotations:\n{output}");
    // The debugger prints the same lines.
    let (_, output) =
        in_github_mode(dir.path(), &["debug", "--engine", &engine, "--depth", "2", "--timeout", "20"]);
    assert_only_own_commands(&output, &[]);
}

#[test]
fn suite_text_steers_no_runner_and_no_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let hostile_suite = "bad ##[stop-commands]pwned ;D1 20\n::add-mask::s3cret ;D1 1\n\
                         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 21 ;id \"##[add-mask]x \u{1b}[2J\"\n\
                         \u{1b}]8;;http://evil.example\u{7}x\u{1b}]8;;\u{7} ;D1 3\n";
    std::fs::write(dir.path().join("bad.epd"), hostile_suite).unwrap();
    for args in
        [&["suite", "bad.epd", "--junit", "j.xml"][..], &["suite", "--annotations", "github", "bad.epd"]]
    {
        let (code, output) = in_github_mode(dir.path(), args);
        assert!(matches!(code, Some(1 | 2)), "{output}");
        assert!(output.contains("bad.epd:1"), "the bad lines are named: {output}");
        assert_only_own_commands(&output, &["wrong perft count", "no perft count", "perft "]);
    }
}
