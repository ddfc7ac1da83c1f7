//! The docs checked against the program: every `perft ...` command shown in
//! a code block of README.md and docs/, and in `--help`, is accepted by the
//! parser; every relative link and `#anchor` in them resolves.

use std::collections::{BTreeSet, HashMap};
use std::path::PathBuf;

use clap::{CommandFactory, Parser};

use super::args::Cli;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// README.md, CHANGELOG.md and every page under docs/.
fn pages() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Lines inside fenced code blocks, with their line numbers; a line ending
/// in `\` is joined with the next.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut fenced = false;
    let mut pending: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            continue;
        }
        let (start, mut joined) = pending.take().unwrap_or((number + 1, String::new()));
        joined.push_str(line.trim());
        match joined.strip_suffix('\\') {
            Some(rest) => pending = Some((start, format!("{} ", rest.trim_end()))),
            None => lines.push((start, joined)),
        }
    }
    lines
}

/// The command in `text` from `perft ` on, cut at a pipe, `&&`, a
/// redirection or a comment outside quotes.
fn command_at(text: &str) -> String {
    let (mut single, mut double, mut escaped) = (false, false, false);
    let mut end = text.len();
    for (at, c) in text.char_indices() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if !single => escaped = true,
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            // Unquoted, these end the command wherever they stand (as in
            // the shell); `#` starts a comment only at a word's start.
            '|' | '>' | '&' | ';' if !single && !double => {
                end = at;
                break;
            }
            '#' if !single && !double && text[..at].ends_with(' ') => {
                end = at;
                break;
            }
            _ => {}
        }
    }
    text[..end].trim().to_string()
}

/// Every `perft ...` command shown in code blocks of `text`: at the start
/// of a line, or where the shell starts a command within one (after `;`,
/// `&&`, `|`, `(`, or `until`, `while`, `if`, `then`, `do`, `time`).
fn commands_in_markdown(text: &str) -> Vec<(usize, String)> {
    const KEYWORDS: [&str; 6] = ["until", "while", "if", "then", "do", "time"];
    let mut commands = Vec::new();
    for (number, line) in code_lines(text) {
        let line = line.strip_prefix("$ ").unwrap_or(&line);
        for (at, _) in line.match_indices("perft ") {
            let before = line[..at].trim_end();
            let last_word = before.rsplit([' ', ';']).next().unwrap_or_default();
            let starts_command =
                before.is_empty() || before.ends_with([';', '&', '|', '(']) || KEYWORDS.contains(&last_word);
            if starts_command && (at == 0 || line[..at].ends_with([' ', '('])) {
                commands.push((number, command_at(&line[at..])));
            }
        }
    }
    commands
}

/// Every `perft SUBCOMMAND ...` in the long help of the program and its
/// subcommands, up to the end of the line, a backtick or a parenthesis.
fn commands_in_help() -> Vec<(String, String)> {
    let mut command = Cli::command();
    let names: BTreeSet<String> = command.get_subcommands().map(|s| s.get_name().to_string()).collect();
    let mut helps = vec![("perft".to_string(), command.render_long_help().to_string())];
    for sub in command.get_subcommands_mut() {
        let name = sub.get_name().to_string();
        helps.push((name, sub.render_long_help().to_string()));
    }
    let mut found = Vec::new();
    for (page, help) in helps {
        for line in help.lines() {
            for (at, _) in line.match_indices("perft ") {
                let rest = &line[at..];
                let word = rest["perft ".len()..].split_whitespace().next().unwrap_or_default();
                if !names.contains(word) {
                    continue;
                }
                let end = rest.find(['`', '(', ')']).unwrap_or(rest.len());
                found.push((page.clone(), command_at(&rest[..end])));
            }
        }
    }
    found
}

/// Whether clap accepts `command` (`perft ...`); its error otherwise.
fn parses(command: &str) -> Result<(), String> {
    let words = shlex::split(command).ok_or("unbalanced quotes")?;
    match Cli::try_parse_from(&words) {
        Ok(_) => Ok(()),
        Err(e) if !e.use_stderr() => Ok(()), // --help, --version
        Err(e) => Err(e.to_string()),
    }
}

#[test]
fn every_command_shown_in_the_docs_and_help_parses() {
    let mut shown = 0;
    let mut failures = Vec::new();
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, command) in commands_in_markdown(&text) {
            shown += 1;
            if let Err(e) = parses(&command) {
                failures.push(format!("{}:{line}: {command}\n{e}", page.display()));
            }
        }
    }
    let from_help = commands_in_help();
    assert!(from_help.len() >= 3, "the help's examples were not found: {from_help:?}");
    for (page, command) in from_help {
        if let Err(e) = parses(&command) {
            failures.push(format!("`perft {page} --help`: {command}\n{e}"));
        }
    }
    assert!(shown >= 30, "only {shown} commands found in the docs");
    assert!(failures.is_empty(), "{} commands are refused:\n\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn the_parser_check_refuses_what_the_program_refuses() {
    // The test above can fail: the form the README once showed and the
    // parser refused would be caught.
    assert!(parses("perft run 5 --json").is_ok());
    assert!(parses("perft run 5 --jsn").is_err());
    assert!(parses("perft suite --max-nodes").is_err());
    assert_eq!(
        commands_in_markdown("```sh\n$ perft run 3 \\\n    --json - | head\n```\nperft outside\n"),
        vec![(2, "perft run 3 --json -".to_string())]
    );
    // Commands the shell starts within a line; not words that only
    // contain or follow `perft`.
    let line = "```sh\nuntil perft status d --quiet; do sleep 9; done && time perft run 2 | x; echo perft run 1; myperft run 4\n```\n";
    assert_eq!(
        commands_in_markdown(line),
        vec![(2, "perft status d --quiet".to_string()), (2, "perft run 2".to_string())]
    );
}

/// GitHub's anchor for a heading: lower case, punctuation other than `-`
/// and `_` dropped, spaces as `-`.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (a repeated one gets `-1`, `-2`, ...).
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut anchors = BTreeSet::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let base = anchor(line.trim_start_matches('#'));
        let count = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *count == 0 { base.clone() } else { format!("{base}-{count}") });
        *count += 1;
    }
    anchors
}

/// Relative link targets in `text`, outside code: `[text](target)`.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut fenced = false;
    for (number, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced {
            continue;
        }
        // Inline code is not a link.
        let prose: String = line.split('`').step_by(2).collect::<Vec<_>>().join(" ");
        for (at, _) in prose.match_indices("](") {
            let rest = &prose[at + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = rest[..end].split_whitespace().next().unwrap_or_default();
            if !target.contains("://") && !target.starts_with("mailto:") && !target.is_empty() {
                found.push((number + 1, target.to_string()));
            }
        }
    }
    found
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, target) in links(&text) {
            checked += 1;
            let (path, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() { page.clone() } else { page.parent().unwrap().join(path) };
            if !file.exists() {
                broken.push(format!("{}:{line}: {target}: no such file", page.display()));
                continue;
            }
            if !fragment.is_empty() {
                let is_markdown = file.extension().is_some_and(|e| e == "md");
                let target_text = std::fs::read_to_string(&file).unwrap_or_default();
                if !is_markdown || !anchors(&target_text).contains(fragment) {
                    broken.push(format!("{}:{line}: {target}: no such anchor", page.display()));
                }
            }
        }
    }
    assert!(checked >= 20, "only {checked} links found");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn anchors_follow_github() {
    assert_eq!(anchor(" `perft check`: another engine"), "perft-check-another-engine");
    assert_eq!(anchor("Deep counts: `--hash`, `--checkpoint`"), "deep-counts---hash---checkpoint");
    let text = "# A\n## A\n```\n# not a heading\n```\n";
    assert_eq!(anchors(text), ["a", "a-1"].map(String::from).into_iter().collect());
    assert_eq!(links("see [x](docs/a.md#b) and `[y](no.md)`"), vec![(1, "docs/a.md#b".to_string())]);
}
