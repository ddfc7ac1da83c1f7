//! `perft help [COMMAND]`, and "did you mean" for a command name clap
//! finds nothing close to (`perft rn`).

use std::io::Write;

use anyhow::{bail, Result};

use super::EXIT_OK;

/// The edit distance between two short words (insertions, deletions,
/// substitutions).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous + usize::from(ca != cb);
            previous = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The command name `typed` most likely meant: one it begins, or the
/// closest within a third of its length, rounded up (at least one edit).
pub fn similar<'a>(typed: &str, names: &[&'a str]) -> Option<&'a str> {
    let typed = typed.to_ascii_lowercase();
    if typed.len() >= 2 {
        if let Some(name) = names.iter().find(|name| name.starts_with(&typed)) {
            return Some(name);
        }
    }
    let within = typed.len().div_ceil(3).max(1);
    names
        .iter()
        .map(|name| (distance(&typed, name), *name))
        .filter(|(d, _)| *d <= within)
        .min()
        .map(|(_, n)| n)
}

/// The names of `command`'s subcommands.
fn names(command: &clap::Command) -> Vec<&str> {
    command.get_subcommands().map(clap::Command::get_name).collect()
}

/// A tip for an unknown command where clap's error has none of its own.
pub fn command_tip(command: &clap::Command, error: &clap::Error) -> Option<String> {
    if error.kind() != clap::error::ErrorKind::InvalidSubcommand || error.to_string().contains("tip:") {
        return None;
    }
    let typed = std::env::args().nth(1)?;
    similar(&typed, &names(command)).map(|name| format!("  tip: did you mean `perft {name}`?"))
}

/// `perft help [COMMAND]`: what `perft --help` or `perft COMMAND --help`
/// prints.
///
/// # Errors
/// For a command that does not exist (with the one likely meant), or when
/// stdout cannot be written.
pub fn help(mut command: clap::Command, name: Option<&str>) -> Result<u8> {
    let known = names(&command).into_iter().map(String::from).collect::<Vec<_>>();
    let args: Vec<&str> = match name {
        None => vec!["perft", "--help"],
        Some(name) if known.iter().any(|k| k == name) => vec!["perft", name, "--help"],
        Some(name) => {
            let names: Vec<&str> = known.iter().map(String::as_str).collect();
            let tip = similar(name, &names).map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            bail!("no command `{name}`{tip} (`perft --help` lists them)");
        }
    };
    match command.try_get_matches_from_mut(args) {
        Err(help) if !help.use_stderr() => {
            help.print()?;
            std::io::stdout().flush()?;
            Ok(EXIT_OK)
        }
        _ => bail!("cannot render the help"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mistyped_command_finds_the_one_meant() {
        let names = ["run", "suite", "bench", "compare", "check", "debug", "diff", "report", "status"];
        assert_eq!(similar("rn", &names), Some("run"));
        assert_eq!(similar("chek", &names), Some("check"));
        assert_eq!(similar("comp", &names), Some("compare"));
        assert_eq!(similar("sutie", &names), Some("suite"));
        assert_eq!(similar("xyzzy", &names), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
