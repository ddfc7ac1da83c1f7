//! Every `perft` command README.md and docs/ show runs as written in a
//! fresh copy of the repository, page by page and in order (a file one
//! example makes is there for the next), with `perft` on PATH (the release
//! build when it is this commit's, as after the README's first command)
//! and the planted-bug engine where the docs build it
//! (`target/release/examples/`). A command a page shows twice runs once.
//! Commands that cannot run here are named in [`EXEMPT`] with why: the
//! reader's own engine or files, a cluster, or a count of minutes to hours
//! that other tests and scripts run; every other command must exit 0, or 1
//! where it shows a wrong count, never 2 (bad input: a file it needs is
//! missing, an option it names does not exist).

#![cfg(unix)]

mod common;

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Commands not run here, by a part of the command, and why.
const EXEMPT: &[(&str, &str)] = &[
    ("./my-engine", "the reader's own engine"),
    ("mine=./engine", "the reader's own engine"),
    ("my-positions.txt", "the reader's own positions"),
    ("my-set.epd", "the reader's own positions"),
    ("my-suite.epd", "the reader's own suite"),
    ("tests/perft/mine.epd", "the reader's own suite"),
    ("/opt/qperft", "qperft, not installed here"),
    ("sbatch", "a Slurm cluster (scripts/slurm/ci-test.sh runs one)"),
    ("/shared/", "a cluster's shared directory"),
    (" d11", "a perft(11) plan: hours of counting (tests/distributed.rs runs small plans)"),
    (" d10", "a perft(10) plan: minutes of counting (tests/distributed.rs runs small plans)"),
    ("perft run 9", "perft(9): a minute or more (tests/deep.rs and scripts/deep.sh count deep)"),
    ("perft run 11", "perft(11): half an hour and more (scripts/deep.sh)"),
    ("perft run 12", "perft(12): days (tests/deep.rs starts and stops one)"),
    ("--max-nodes 100000000", "billions of nodes: minutes (tests/suites.rs runs every suite)"),
    ("sedlak-and-classic.epd --hash auto", "the whole suite to depth 8: minutes (tests/suites.rs)"),
    ("baseline.json", "a report the reader kept from a known-good build"),
    ("b1.json b2.json", "two reports of the reader's own bench set (my-set.epd)"),
    ("--jobs 4 --max-nodes 20000000", "Stockfish on most of standard.epd: minutes (tests/check.rs)"),
    (
        "run 6 --stats",
        "8 billion nodes each made and classified: minutes, more under the tests' debug assertions \
         (tests/deep.rs counts --stats at depth 4 against the wiki's table)",
    ),
];

/// Commands that exit with one status, by a part of the command: those
/// that show a failure, and those that must succeed outright.
const EXPECTED_STATUS: &[(&str, i32)] = &[
    ("c=uci:/bin/cat", 2),
    ("--json r.json --progress-json r.json", 2),
    // The bundled results/ (deep runs among them) chart in a fresh clone.
    ("perft report --out page.html results/*.json", 0),
];

/// Files commands make, by a part of the command: the file, and a text it
/// must hold (a speed written on a bar of a chart).
const EXPECTED_FILES: &[(&str, &str, &str)] =
    &[("perft report --out page.html", "page.html", "nps\n</text>")];

/// Per command: no example should take longer.
const TIMEOUT: Duration = Duration::from_secs(600);

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `perft` a reader runs: the release build of this very commit where
/// the README's first command made one (its `--version` names the same
/// clean commit as the tests' build), else the tests' own build (debug
/// assertions on, slower).
fn the_installed_perft() -> PathBuf {
    let tested = PathBuf::from(env!("CARGO_BIN_EXE_perft"));
    let release = repository().join("target/release/perft");
    let commit = |program: &Path| -> Option<String> {
        let output = Command::new(program).arg("--version").output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        let line = text.lines().find(|l| l.starts_with("commit "))?;
        let commit = line.split([' ', ',']).nth(1)?.to_string();
        (!commit.ends_with("-dirty") && commit != "unknown").then_some(commit)
    };
    match (commit(&release), commit(&tested)) {
        (Some(a), Some(b)) if a == b => release,
        _ => tested,
    }
}

/// A fresh copy of the repository's tracked files (a clone's work tree),
/// with `perft` on a PATH of its own, the planted-bug engine where the
/// docs build it, and a home of its own; `None` outside a git checkout.
fn fresh_copy() -> Option<(tempfile::TempDir, PathBuf)> {
    let listed = Command::new("git").arg("-C").arg(repository()).args(["ls-files", "-z"]).output().ok()?;
    if !listed.status.success() {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("perft");
    for name in listed.stdout.split(|&b| b == 0).filter(|n| !n.is_empty()) {
        let name = Path::new(std::str::from_utf8(name).unwrap());
        let (from, to) = (repository().join(name), root.join(name));
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        // A tracked file deleted in this work tree is not there to copy.
        if from.is_file() {
            std::fs::copy(&from, &to).unwrap();
        }
    }
    let bin = dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(the_installed_perft(), bin.join("perft")).unwrap();
    let examples = root.join("target/release/examples");
    std::fs::create_dir_all(&examples).unwrap();
    std::os::unix::fs::symlink(common::buggy_path(), examples.join("buggy_engine")).unwrap();
    std::os::unix::fs::symlink(the_installed_perft(), root.join("target/release/perft")).unwrap();
    std::fs::create_dir_all(dir.path().join("home")).unwrap();
    Some((dir, root))
}

/// The command lines in the code blocks of `text` that run `perft`: every
/// line of a shell block, and the `$ ` lines of a transcript, a line ending
/// in `\` joined with the next; with their line numbers.
fn commands(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let (mut fence, mut pending): (Option<String>, Option<(usize, String)>) = (None, None);
    for (number, line) in text.lines().enumerate() {
        let trimmed = line.trim();
        if let Some(info) = trimmed.strip_prefix("```") {
            fence = if fence.is_some() { None } else { Some(info.to_string()) };
            continue;
        }
        let Some(info) = &fence else { continue };
        let (start, mut joined) = match pending.take() {
            Some(started) => started,
            None if trimmed.starts_with("$ ") => (number + 1, String::new()),
            None if info == "sh" && !trimmed.starts_with('#') && !trimmed.is_empty() => {
                (number + 1, String::new())
            }
            None => continue,
        };
        joined.push_str(trimmed.strip_prefix("$ ").unwrap_or(trimmed));
        match joined.strip_suffix('\\') {
            Some(rest) => pending = Some((start, format!("{} ", rest.trim_end()))),
            None => found.push((start, joined)),
        }
    }
    let runs_perft = |c: &String| {
        c.starts_with("perft ")
            || ["&& perft ", "; perft ", "| perft ", "until perft "].iter().any(|p| c.contains(p))
    };
    found.into_iter().filter(|(_, c)| runs_perft(c)).collect()
}

/// Runs `command` with `sh` in `root`; its status (`None`: killed at the
/// timeout) and what it printed.
fn run(command: &str, root: &Path, sandbox: &Path) -> (Option<i32>, String) {
    let path = format!("{}:{}", sandbox.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let mut child = Command::new("sh")
        .args(["-c", command])
        .current_dir(root)
        .env("PATH", path)
        .env("HOME", sandbox.join("home"))
        .env_remove("PERFT_RESULTS")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("PERFT_CPU")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let pid = child.id() as i32;
    let output = std::thread::spawn(move || {
        let start = Instant::now();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > TIMEOUT {
                // SAFETY: the process group of our own child, which we
                // made its leader above.
                unsafe { libc::kill(-pid, libc::SIGKILL) };
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        child.wait_with_output().unwrap()
    })
    .join()
    .unwrap();
    let said =
        format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    (output.status.code(), said)
}

/// Runs a page's examples in order in a fresh copy; the failures, as text.
fn run_page(page: &str) -> Vec<String> {
    let Some((sandbox, root)) = fresh_copy() else {
        eprintln!("skipped: not a git checkout, so there is no list of the files a clone holds");
        return Vec::new();
    };
    let text = std::fs::read_to_string(repository().join(page)).unwrap();
    let mut failures = Vec::new();
    let mut ran = 0;
    let mut seen = std::collections::HashSet::new();
    for (line, command) in commands(&text) {
        // A command a page shows twice ran as written the first time.
        if !seen.insert(command.clone()) {
            continue;
        }
        if let Some((_, why)) = EXEMPT.iter().find(|(part, _)| command.contains(part)) {
            eprintln!("{page}:{line}: not run ({why}): {command}");
            continue;
        }
        if command.contains("/usr/games/stockfish") && common::stockfish().is_none() {
            continue;
        }
        let expected = EXPECTED_STATUS.iter().find(|(part, _)| command.contains(part)).map(|&(_, code)| code);
        let started = Instant::now();
        let (code, said) = run(&command, &root, sandbox.path());
        ran += 1;
        eprintln!("{page}:{line}: exit {code:?} in {:.1} s: {command}", started.elapsed().as_secs_f64());
        let fine = match expected {
            Some(expected) => code == Some(expected),
            None => matches!(code, Some(0 | 1)),
        };
        for (_, file, holds) in EXPECTED_FILES.iter().filter(|(part, _, _)| command.contains(part)) {
            let made = std::fs::read_to_string(root.join(file)).unwrap_or_default();
            if !made.contains(holds) {
                failures.push(format!("{page}:{line}: {command}: {file} does not hold {holds:?}"));
            }
        }
        if !fine {
            let tail: Vec<&str> = said.lines().rev().take(12).collect::<Vec<_>>().into_iter().rev().collect();
            failures.push(format!("{page}:{line}: exit {code:?}: {command}\n    {}", tail.join("\n    ")));
        }
    }
    eprintln!("{page}: {ran} examples run");
    failures
}

fn pages() -> Vec<String> {
    let mut pages = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(repository().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

#[test]
fn every_example_of_the_readme_and_the_docs_runs_as_written() {
    // Pages are independent (each in a copy of its own), so two run at once:
    // most of the time is `perft bench`, which times one thread for a while.
    let pages = pages();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures: Vec<String> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| {
                    let mut failures = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(page) = pages.get(i) else { return failures };
                        failures.extend(run_page(page));
                    }
                })
            })
            .collect();
        workers.into_iter().flat_map(|w| w.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} examples do not run as written:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

#[test]
fn the_examples_are_found_and_a_broken_one_fails() {
    let text = "```sh\n# a comment\nperft run 3 \\\n  --moves e2e4\nmkdir -p x && perft suite\nls\n```\n\
                ```text\n$ perft run 2\nNodes searched: 400\n```\n";
    let found: Vec<String> = commands(text).into_iter().map(|(_, c)| c).collect();
    assert_eq!(found, ["perft run 3 --moves e2e4", "mkdir -p x && perft suite", "perft run 2"]);
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    assert!(commands(&readme).len() >= 8, "{:?}", commands(&readme));
    // The check can fail: a file a fresh copy lacks is bad input.
    let Some((sandbox, root)) = fresh_copy() else { return };
    let (code, said) = run("perft suite no-such-suite.epd", &root, sandbox.path());
    assert_eq!(code, Some(2), "{said}");
}

/// The numbers README.md gives for the bundled default suite (its first
/// example's summary line, the install command's comment, the correctness
/// paragraph) are the suite's as bundled: a suite that grows changes the
/// front page with it.
#[test]
fn the_readme_states_the_default_suite_as_bundled() {
    use perft::suite::{bundled, parse_suite, SuiteFile, SuiteOptions, SuitePlan};
    let (_, bytes) = bundled("default.epd").expect("the default suite is bundled");
    let file = SuiteFile { name: "default.epd".into(), content: Ok(parse_suite(bytes)) };
    let plan = SuitePlan::new(vec![file], SuiteOptions::default());
    let (positions, checks) = (plan.positions(), plan.checks());
    let readme = std::fs::read_to_string(repository().join("README.md")).unwrap();
    // Line breaks and a comment's `#` are layout: compare the words.
    let words = readme.replace("\n# ", " ").split_whitespace().collect::<Vec<_>>().join(" ");
    let thousands = |n: usize| match n {
        n if n >= 1000 => format!("{},{:03}", n / 1000, n % 1000),
        n => n.to_string(),
    };
    let (p, c) = (thousands(positions), thousands(checks));
    for stated in [
        format!("{positions} positions, {checks} checks: {checks} passed, 0 failed, 0 errors, 0 skipped"),
        format!("({p} positions, {c} counts"),
        format!("the default suite's {c} checks"),
    ] {
        assert!(words.contains(&stated), "README.md should say: {stated}");
    }
}

/// Words a reader would have to replace before a command runs.
const PLACEHOLDERS: &[&str] = &["OWNER/", "<repository", "URL>", "TODO", "FIXME", "XXX", "example.com"];

/// The pages a reader follows: README.md, the docs, their example files,
/// and the crates' and folders' READMEs.
fn reader_pages() -> Vec<PathBuf> {
    let root = repository();
    let mut pages = vec![root.join("README.md"), root.join("action.yml")];
    for dir in ["docs", "docs/examples", "crates/perft-core", "crates/perft-harness", "positions", "results"]
    {
        let Ok(entries) = std::fs::read_dir(root.join(dir)) else { continue };
        for entry in entries.map(|e| e.unwrap().path()) {
            let ext = entry.extension().and_then(|e| e.to_str()).unwrap_or("");
            if entry.is_file() && matches!(ext, "md" | "yml" | "yaml") {
                pages.push(entry);
            }
        }
    }
    pages
}

/// The placeholders in `text`: each with its line number.
fn placeholders(text: &str) -> Vec<(usize, &'static str)> {
    let lines = text.lines().enumerate();
    lines
        .flat_map(|(n, line)| {
            PLACEHOLDERS.iter().filter(move |w| line.contains(**w)).map(move |w| (n + 1, *w))
        })
        .collect()
}

#[test]
fn the_docs_hold_no_placeholder_for_the_reader_to_fill() {
    let mut found = Vec::new();
    for page in reader_pages() {
        let text = std::fs::read_to_string(&page).unwrap();
        for (line, word) in placeholders(&text) {
            found.push(format!("{}:{line}: `{word}`", page.display()));
        }
    }
    assert!(found.is_empty(), "placeholders a reader cannot fill:\n{}", found.join("\n"));
    // The check can fail: the placeholders these pages once had are found.
    let old = "ok\n        uses: OWNER/perft@main\nperft-harness = { git = \"<repository URL>\" }";
    assert_eq!(placeholders(old), [(2, "OWNER/"), (3, "<repository"), (3, "URL>")]);
}
