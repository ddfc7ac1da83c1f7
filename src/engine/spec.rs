//! Engine specs as given on the command line: `uci:PROGRAM`,
//! `console:PROGRAM`, `cmd:TEMPLATE`, the presets of known programs, and a
//! bare program (`auto:`), whose dialect is found by probing it.

use std::fmt;

use super::answer::AnswerFormat;
use super::console::{CONSOLE_PERFT, CONSOLE_POSITION};
use super::template::{FenFields, PLACEHOLDERS};
use super::uci::UCI_POSITION;

/// How an engine is talked to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// A UCI engine, started once and driven with `position` and
    /// `go perft N` (or a perft command of its own).
    Uci,
    /// A program run once per count from a template with `{depth}`,
    /// `{fen}` and `{moves}` placeholders.
    Command,
    /// A program started once that counts with a perft command of its own,
    /// without the UCI handshake.
    Console,
    /// Not known yet: the program is probed for how it counts.
    Auto,
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
    /// The threads it counts on, when known.
    pub threads: Option<usize>,
    /// Its hash table as run by the preset (`none`), when known.
    pub hash: Option<&'static str>,
    /// Whether it counts the last ply in bulk, when known.
    pub bulk: Option<bool>,
    /// Whether one call counts every depth from 1 to the one asked, when
    /// known.
    pub all_depths: Option<bool>,
    /// What the preset turns off or leaves out, in words.
    pub notes: &'static [&'static str],
}

/// Programs with a known output format. Neither reads Chess960 castling.
///
/// qperft (H.G. Muller's `perft.c`) is read from its source: `perft
/// <depth> [H<hash bits>] [-<split depth>] [<FEN>]`, one thread, a hash
/// table only when given `H<bits>`, bulk counting at the last ply, and
/// every depth from 1 to `<depth>` counted (and printed) in one call. Of
/// Gigantua only its command line (`FEN DEPTH`) is known here.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "qperft",
        arguments: "{depth} {fen}",
        total: r"perft\(\s*{depth}\)\s*=\s*(\d+)",
        chess960: false,
        threads: Some(1),
        hash: Some("none"),
        bulk: Some(true),
        all_depths: Some(true),
        notes: &["the preset turns off qperft's hash table (it passes no H<bits> argument)"],
    },
    Preset {
        name: "gigantua",
        arguments: "{fen} {depth}",
        total: r"Perft {depth}:\s*(\d+)",
        chess960: false,
        threads: None,
        hash: None,
        bulk: None,
        all_depths: None,
        notes: &[],
    },
];

/// The kinds a spec may start with.
const KINDS: &str = "uci, console, cmd, auto, qperft or gigantua";

/// How to run an engine, as given on the command line (`NAME=SPEC`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// UCI, console, a command per count, or not known yet.
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
    /// The command that asks for a count (`perft=`): for UCI engines
    /// instead of `go perft {depth}`, for console engines instead of
    /// `perft {depth}`.
    pub perft: Option<String>,
    /// The command that sets the position (`position=`), instead of
    /// `position fen {fen} moves {moves}`: for console engines, and for a
    /// UCI engine that drops the moves (`position fen {fen}`: it is given
    /// the position reached).
    pub position: Option<String>,
    /// How many fields its FENs have (`fen4`: four).
    pub fen: FenFields,
    /// The preset it was given as (`qperft`), whose facts
    /// [`EngineSpec::how_run`] states; not part of its text form.
    pub preset: Option<&'static str>,
}

/// Why an engine spec could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad engine spec {spec:?}: {reason}")]
pub struct SpecError {
    spec: String,
    reason: String,
}

/// Splits `NAME=SPEC` into its name, if any, and its spec. The name is the
/// text before the first `=` when that text has no `:`, `,`, slash or
/// space, so an `=` inside the command (`uci:sf --hash=16`) or the kind's
/// options (`uci,perft=perft {depth}:sf`) is not taken for one.
pub fn split_name(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, rest))
            if !name.contains([':', ',', '/', '\\']) && !name.contains(char::is_whitespace) =>
        {
            (Some(name), rest)
        }
        _ => (None, text),
    }
}

/// The kind part of a spec and the rest: `uci,no960` and `./x` for
/// `uci,no960:./x`; no kind for a bare program (`./engine`, or
/// `C:\engine.exe`).
fn split_kind(spec: &str) -> Result<(Option<&str>, &str), String> {
    let Some((kind, rest)) = spec.split_once(':') else { return Ok((None, spec)) };
    let word = kind.split(',').next().unwrap_or_default().trim();
    let known = ["uci", "cmd", "console", "auto"].contains(&word) || PRESETS.iter().any(|p| p.name == word);
    if known {
        return Ok((Some(kind), rest));
    }
    // A word of letters before the colon is a kind misspelt; a drive
    // letter or a path is part of the program.
    if word.len() > 1 && word.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(format!("unknown kind {word:?}; expected {KINDS}, or a program alone to probe"));
    }
    Ok((None, spec))
}

/// The options after the kind (`no960`, `fen4`, `perft=...`,
/// `position=...`).
#[derive(Default)]
struct KindOptions {
    no960: bool,
    fen4: bool,
    perft: Option<String>,
    position: Option<String>,
}

impl KindOptions {
    fn parse<'a>(words: impl Iterator<Item = &'a str>) -> Result<KindOptions, String> {
        let mut options = KindOptions::default();
        for option in words {
            match option.trim().split_once('=') {
                None if option.trim() == "no960" => options.no960 = true,
                None if option.trim() == "fen4" => options.fen4 = true,
                Some(("perft", template)) => options.perft = Some(template.trim().to_string()),
                Some(("position", template)) => options.position = Some(template.trim().to_string()),
                _ => {
                    return Err(format!(
                        "unknown option {:?} after the kind; known: no960, fen4, perft=COMMAND, \
                         position=COMMAND",
                        option.trim()
                    ))
                }
            }
        }
        Ok(options)
    }
}

impl EngineSpec {
    /// Reads `uci:...`, `console:...`, `cmd:...`, `qperft:...`,
    /// `gigantua:...`, or a program alone (`auto:` is the same): options
    /// follow the kind, comma-separated (`no960`, `fen4`, and for `uci`
    /// and `console` `perft=COMMAND` and `position=COMMAND`).
    /// `format` overrides the total and divide patterns (a preset's total
    /// pattern is its own unless overridden).
    ///
    /// # Errors
    /// [`SpecError`] for an unknown kind or option, an empty command, a
    /// template without `{depth}` (or a position command without `{fen}`),
    /// or a pattern that is not a regular expression with its groups.
    pub fn parse(spec: &str, format: &AnswerFormat) -> Result<EngineSpec, SpecError> {
        let error = |reason: &str| SpecError { spec: spec.to_string(), reason: reason.to_string() };
        let (kind, rest) = split_kind(spec).map_err(|e| error(&e))?;
        let mut command = shlex::split(rest).ok_or_else(|| error("unbalanced quotes"))?;
        if command.is_empty() {
            return Err(error("no program given"));
        }
        let mut words = kind.unwrap_or("auto").split(',');
        let kind = words.next().unwrap_or_default().trim();
        let options = KindOptions::parse(words).map_err(|e| error(&e))?;
        let mut format = format.clone();
        let mut preset_name = None;
        let (protocol, chess960) = match kind {
            "uci" => (Protocol::Uci, None),
            "cmd" => (Protocol::Command, None),
            "console" => (Protocol::Console, None),
            "auto" => (Protocol::Auto, None),
            name => {
                let preset = PRESETS.iter().find(|p| p.name == name).ok_or_else(|| error("unknown kind"))?;
                if !command.iter().any(|w| w.contains('{')) {
                    command.extend(preset.arguments.split(' ').map(str::to_string));
                }
                format.total.get_or_insert_with(|| preset.total.to_string());
                preset_name = Some(preset.name);
                (Protocol::Command, Some(preset.chess960))
            }
        };
        let chess960 = check_templates(protocol, &command, &options, chess960).map_err(|e| error(&e))?;
        format.validate().map_err(|e| error(&e.to_string()))?;
        let position = match protocol {
            Protocol::Console => options.position.filter(|p| p != CONSOLE_POSITION),
            Protocol::Uci => options.position.filter(|p| p != UCI_POSITION),
            _ => None,
        };
        let perft = options.perft.filter(|p| protocol != Protocol::Console || p != CONSOLE_PERFT);
        let fen = if options.fen4 { FenFields::Four } else { FenFields::Six };
        Ok(EngineSpec { protocol, command, format, chess960, perft, position, fen, preset: preset_name })
    }

    /// The position command of a console engine: `None` when its perft
    /// command carries the position (`{fen}`).
    pub fn console_position(&self) -> Option<String> {
        match (&self.position, &self.perft) {
            (Some(position), _) if position == "none" => None,
            (Some(position), _) => Some(position.clone()),
            (None, Some(perft)) if perft.contains("{fen}") => None,
            (None, _) => Some(CONSOLE_POSITION.to_string()),
        }
    }
}

/// Checks the templates of a spec and returns its Chess960 ability: a
/// command template told whether the position is Chess960 plays it.
fn check_templates(
    protocol: Protocol,
    command: &[String],
    options: &KindOptions,
    chess960: Option<bool>,
) -> Result<Option<bool>, String> {
    let unknown_placeholder = |text: &str| {
        let mut rest = text;
        while let Some(open) = rest.find('{') {
            let close = rest[open..].find('}').map_or(rest.len(), |c| open + c + 1);
            if !PLACEHOLDERS.contains(&&rest[open..close]) {
                return Some(rest[open..close].to_string());
            }
            rest = &rest[close..];
        }
        None
    };
    if protocol == Protocol::Command && !command.iter().any(|w| w.contains("{depth}")) {
        return Err("the command template has no {depth} placeholder".into());
    }
    if let Some(perft) = &options.perft {
        if !matches!(protocol, Protocol::Uci | Protocol::Console) {
            return Err("perft=COMMAND is for uci and console engines".into());
        }
        if !perft.contains("{depth}") {
            return Err(format!("the perft command {perft:?} has no {{depth}} placeholder"));
        }
    }
    if let Some(position) = &options.position {
        if !matches!(protocol, Protocol::Uci | Protocol::Console) {
            return Err("position=COMMAND is for uci and console engines".into());
        }
        if protocol == Protocol::Uci && !position.starts_with("position ") {
            return Err(format!(
                "a UCI engine's position command starts with `position ` (`position fen {{fen}}` gives it \
                 the position reached without moves), not {position:?}"
            ));
        }
        if position != "none" && !position.contains("{fen}") {
            return Err(format!("the position command {position:?} has no {{fen}} placeholder"));
        }
        let perft = options.perft.as_deref().unwrap_or(super::CONSOLE_PERFT);
        if position == "none" && !perft.contains("{fen}") {
            return Err(format!(
                "position=none needs a perft command that carries the position ({{fen}}), not {perft:?}"
            ));
        }
    }
    let templates = options.perft.iter().chain(&options.position);
    if let Some(bad) = templates.filter_map(|t| unknown_placeholder(t)).next() {
        return Err(format!("unknown placeholder {bad}; known: {}", PLACEHOLDERS.join(", ")));
    }
    let told_chess960 = protocol == Protocol::Command && command.iter().any(|w| w.contains("{chess960}"));
    if options.no960 && told_chess960 {
        return Err("no960 and a {chess960} placeholder contradict each other".into());
    }
    Ok(if options.no960 {
        Some(false)
    } else if told_chess960 {
        Some(true)
    } else {
        chess960
    })
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let kind = match self.protocol {
            Protocol::Uci => "uci",
            Protocol::Command => "cmd",
            Protocol::Console => "console",
            Protocol::Auto => "auto",
        };
        f.write_str(kind)?;
        if self.chess960 == Some(false) {
            f.write_str(",no960")?;
        }
        if self.fen == FenFields::Four {
            f.write_str(",fen4")?;
        }
        if let Some(perft) = &self.perft {
            write!(f, ",perft={perft}")?;
        }
        if let Some(position) = &self.position {
            write!(f, ",position={position}")?;
        }
        write!(f, ":{}", shlex::try_join(self.command.iter().map(String::as_str)).unwrap_or_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::CONSOLE_POSITION;

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
        for bad in ["uci:", "foo:bar", "cmd:./x {fen}", "cmd:'unbalanced", ""] {
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
    fn a_program_alone_is_probed_and_dialects_are_pinned() {
        let none = AnswerFormat::default();
        for alone in ["stockfish", "./engine --threads 2", "auto:./engine", r"C:\engines\e.exe"] {
            let spec = EngineSpec::parse(alone, &none).unwrap();
            assert_eq!(spec.protocol, Protocol::Auto, "{alone}");
        }
        assert!(EngineSpec::parse("uic:./engine", &none).unwrap_err().to_string().contains("unknown kind"));
        let uci = EngineSpec::parse("uci,perft=perft {depth}:./e -x", &none).unwrap();
        assert_eq!((uci.protocol, uci.perft.as_deref()), (Protocol::Uci, Some("perft {depth}")));
        assert_eq!(uci.to_string(), "uci,perft=perft {depth}:./e -x");
        let console =
            EngineSpec::parse("console,perft=perft depth {depth},position=setboard {fen}:./e", &none)
                .unwrap();
        assert_eq!(console.console_position().as_deref(), Some("setboard {fen}"));
        assert_eq!(EngineSpec::parse(&console.to_string(), &none).unwrap(), console);
        // Defaults are left out; a perft command with the FEN needs no
        // position command.
        let plain = EngineSpec::parse("console,perft=perft {depth}:./e", &none).unwrap();
        assert_eq!(plain.to_string(), "console:./e");
        assert_eq!(plain.console_position().as_deref(), Some(CONSOLE_POSITION));
        let with_fen = EngineSpec::parse("console,perft=perft {depth} {fen}:./e", &none).unwrap();
        assert_eq!(with_fen.console_position(), None);
        // A UCI engine that drops the moves is given the position reached;
        // one that rejects counters, four fields.
        let reached = EngineSpec::parse("uci,fen4,position=position fen {fen}:./e", &none).unwrap();
        assert_eq!((reached.position.as_deref(), reached.fen), (Some("position fen {fen}"), FenFields::Four));
        assert_eq!(EngineSpec::parse(&reached.to_string(), &none).unwrap(), reached);
        let plain = EngineSpec::parse("uci,position=position fen {fen} moves {moves}:./e", &none).unwrap();
        assert_eq!((plain.position, plain.fen), (None, FenFields::Six));
        for bad in [
            "uci,perft=perft:./e",
            "console,position=setboard:./e",
            "cmd,perft=perft {depth}:./e {depth}",
            "uci,position=setboard {fen}:./e",
            "uci,position=none:./e",
            "cmd,position=position fen {fen}:./e {depth}",
            "console,perft=perft {depht}:./e",
            "console,fast:./e",
            "console,position=none:./e",
        ] {
            assert!(EngineSpec::parse(bad, &none).is_err(), "{bad}");
        }
    }

    #[test]
    fn names_end_before_the_command() {
        assert_eq!(split_name("sf=uci:stockfish"), (Some("sf"), "uci:stockfish"));
        assert_eq!(split_name("uci:sf --hash=16"), (None, "uci:sf --hash=16"));
        assert_eq!(split_name("a=b=uci:x"), (Some("a"), "b=uci:x"));
        assert_eq!(split_name("=uci:x"), (Some(""), "uci:x"));
        assert_eq!(split_name("mine=./engine"), (Some("mine"), "./engine"));
        assert_eq!(split_name("uci,perft=perft {depth}:./e"), (None, "uci,perft=perft {depth}:./e"));
        assert_eq!(split_name("./engine --hash=16"), (None, "./engine --hash=16"));
    }
}
