//! Engine specs as given on the command line: `uci:PROGRAM`,
//! `cmd:TEMPLATE` and the presets of known programs.

use std::fmt;

use super::answer::AnswerFormat;
use super::{CommandEngine, Engine, EngineOptions, UciEngine};

/// How an engine is talked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// A UCI engine, started once and driven with `position` and
    /// `go perft N`.
    Uci,
    /// A program run once per count from a template with `{depth}`,
    /// `{fen}` and `{moves}` placeholders.
    Command,
}

/// A known command-line perft: its arguments, total format and abilities.
#[derive(Clone, Copy, Debug)]
pub struct Preset {
    /// The spec prefix (`qperft:PATH`).
    pub name: &'static str,
    /// The arguments after the program, unless the spec gives its own.
    pub arguments: &'static str,
    /// Its total pattern.
    pub total: &'static str,
    /// Whether it can count Chess960 positions.
    pub chess960: bool,
}

/// Programs with a known output format. Neither reads Chess960 castling.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "qperft",
        arguments: "{depth} {fen}",
        total: r"perft\(\s*{depth}\)\s*=\s*(\d+)",
        chess960: false,
    },
    Preset {
        name: "gigantua",
        arguments: "{fen} {depth}",
        total: r"Perft {depth}:\s*(\d+)",
        chess960: false,
    },
];

/// How to run an engine, as given on the command line (`NAME=SPEC`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// UCI or a command per count.
    pub protocol: Protocol,
    /// The program and its arguments (a template for command engines).
    pub command: Vec<String>,
    /// How its answers are read.
    pub format: AnswerFormat,
    /// `Some(false)` for programs known or declared (`no960`) not to read
    /// Chess960 castling, `Some(true)` for templates given `{chess960}`;
    /// `None` when unknown (a UCI engine tells at its handshake whether it
    /// offers `UCI_Chess960`).
    pub chess960: Option<bool>,
}

/// Why an engine spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine spec {spec:?}: {reason}")]
pub struct SpecError {
    spec: String,
    reason: String,
}

/// Splits `NAME=SPEC` into its name, if any, and its spec. The name ends at
/// the first `=` before the first `:`, so an `=` inside the command
/// (`uci:sf --hash=16`) is not taken for one.
pub fn split_name(text: &str) -> (Option<&str>, &str) {
    let colon = text.find(':').unwrap_or(text.len());
    match text[..colon].split_once('=') {
        Some((name, _)) => (Some(name), &text[name.len() + 1..]),
        None => (None, text),
    }
}

impl EngineSpec {
    /// Reads `uci:...`, `cmd:...`, `qperft:...` or `gigantua:...`;
    /// `format` overrides the total and divide patterns (a preset's total
    /// pattern is its own unless overridden).
    ///
    /// # Errors
    /// [`SpecError`] for an unknown kind, an empty command, a template
    /// without `{depth}`, or a pattern that is not a regular expression
    /// with its groups.
    pub fn parse(spec: &str, format: &AnswerFormat) -> Result<EngineSpec, SpecError> {
        let error = |reason: &str| SpecError { spec: spec.to_string(), reason: reason.to_string() };
        let (kind, rest) = spec
            .split_once(':')
            .ok_or_else(|| error("expected uci:COMMAND, cmd:TEMPLATE, qperft:PATH or gigantua:PATH"))?;
        let mut command = shlex::split(rest).ok_or_else(|| error("unbalanced quotes"))?;
        if command.is_empty() {
            return Err(error("no program given"));
        }
        // Options after the kind: `cmd,no960:...` declares no Chess960.
        let mut words = kind.split(',');
        let kind = words.next().unwrap_or_default();
        let mut no960 = false;
        for option in words {
            match option.trim() {
                "no960" => no960 = true,
                other => {
                    return Err(error(&format!("unknown option {other:?} after the kind; known: no960")));
                }
            }
        }
        let mut format = format.clone();
        let (protocol, chess960) = match kind {
            "uci" => (Protocol::Uci, None),
            "cmd" => (Protocol::Command, None),
            name => {
                let preset = PRESETS
                    .iter()
                    .find(|p| p.name == name)
                    .ok_or_else(|| error("unknown kind; expected uci, cmd, qperft or gigantua"))?;
                if !command.iter().any(|w| w.contains('{')) {
                    command.extend(preset.arguments.split(' ').map(str::to_string));
                }
                format.total.get_or_insert_with(|| preset.total.to_string());
                (Protocol::Command, Some(preset.chess960))
            }
        };
        if protocol == Protocol::Command && !command.iter().any(|w| w.contains("{depth}")) {
            return Err(error("the command template has no {depth} placeholder"));
        }
        let told_chess960 = protocol == Protocol::Command && command.iter().any(|w| w.contains("{chess960}"));
        if no960 && told_chess960 {
            return Err(error("no960 and a {chess960} placeholder contradict each other"));
        }
        // A template told whether the position is Chess960 plays it.
        let chess960 = if no960 {
            Some(false)
        } else if told_chess960 {
            Some(true)
        } else {
            chess960
        };
        format.validate().map_err(|e| error(&e.to_string()))?;
        Ok(EngineSpec { protocol, command, format, chess960 })
    }

    /// An engine for this spec, set up as `options` say.
    pub fn build(&self, name: &str, options: &EngineOptions) -> Box<dyn Engine> {
        match self.protocol {
            Protocol::Uci => {
                let mut engine = UciEngine::new(name, self.command.clone())
                    .with_format(self.format.clone())
                    .with_stop(options.stop)
                    .with_handshake_timeout(options.handshake);
                if self.chess960 == Some(false) {
                    engine = engine.without_chess960();
                }
                if let Some(threads) = options.threads {
                    engine.set_option("Threads", &threads.to_string());
                }
                Box::new(engine)
            }
            Protocol::Command => Box::new(
                CommandEngine::new(name, self.command.clone(), self.format.clone())
                    .with_chess960(self.chess960 != Some(false))
                    .with_stop(options.stop),
            ),
        }
    }
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.protocol {
            Protocol::Uci => "uci",
            Protocol::Command => "cmd",
        };
        let options = if self.chess960 == Some(false) { ",no960" } else { "" };
        write!(
            f,
            "{kind}{options}:{}",
            shlex::try_join(self.command.iter().map(String::as_str)).unwrap_or_default()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let none = AnswerFormat::default();
        let stockfish = EngineSpec::parse("uci:/usr/games/stockfish", &none).unwrap();
        assert_eq!(
            (stockfish.protocol, stockfish.command.clone()),
            (Protocol::Uci, vec!["/usr/games/stockfish".into()])
        );
        assert_eq!(stockfish.to_string(), "uci:/usr/games/stockfish");
        let q = EngineSpec::parse("qperft:./qperft", &none).unwrap();
        assert_eq!(q.command, ["./qperft", "{depth}", "{fen}"]);
        assert_eq!(q.format.total.as_deref(), Some(PRESETS[0].total));
        assert_eq!(q.chess960, Some(false));
        let g = EngineSpec::parse("gigantua:'/opt/gig antua'", &none).unwrap();
        assert_eq!(g.command[..2], ["/opt/gig antua".to_string(), "{fen}".to_string()]);
        let custom = AnswerFormat { total: Some(r"total (\d+)".into()), divide: None };
        assert_eq!(EngineSpec::parse("qperft:./q", &custom).unwrap().format.total, custom.total);
        assert!(EngineSpec::parse("cmd:./x {depth} {fen}", &custom).is_ok());
        assert!(EngineSpec::parse("uci:./x", &custom).is_ok());
        for bad in ["stockfish", "uci:", "foo:bar", "cmd:./x {fen}", "cmd:'unbalanced"] {
            assert!(EngineSpec::parse(bad, &none).is_err(), "{bad}");
        }
        // Declared abilities: no960 after the kind, or a {chess960}
        // placeholder that tells the program.
        assert_eq!(EngineSpec::parse("cmd,no960:./x {depth} {fen}", &none).unwrap().chess960, Some(false));
        assert_eq!(EngineSpec::parse("uci,no960:./x", &none).unwrap().chess960, Some(false));
        assert_eq!(EngineSpec::parse("uci,no960:./x", &none).unwrap().to_string(), "uci,no960:./x");
        assert_eq!(
            EngineSpec::parse("cmd:./x --frc={chess960} {depth} {fen}", &none).unwrap().chess960,
            Some(true)
        );
        assert_eq!(EngineSpec::parse("cmd:./x {depth} {fen}", &none).unwrap().chess960, None);
        for bad in ["cmd,fast:./x {depth}", "cmd,no960:./x {chess960} {depth}"] {
            assert!(EngineSpec::parse(bad, &none).is_err(), "{bad}");
        }
        let no_group = AnswerFormat { total: Some("no group".into()), divide: None };
        assert!(EngineSpec::parse("cmd:./x {depth}", &no_group).is_err());
        let unclosed = AnswerFormat { total: None, divide: Some("(unclosed".into()) };
        assert!(EngineSpec::parse("uci:./x", &unclosed).is_err());
    }

    #[test]
    fn names_end_before_the_command() {
        assert_eq!(split_name("sf=uci:stockfish"), (Some("sf"), "uci:stockfish"));
        assert_eq!(split_name("uci:sf --hash=16"), (None, "uci:sf --hash=16"));
        assert_eq!(split_name("a=b=uci:x"), (Some("a"), "b=uci:x"));
        assert_eq!(split_name("=uci:x"), (Some(""), "uci:x"));
    }
}
