//! Reading an engine's answer: its total and, where it prints one, its
//! divide (one line per root move), in the formats engines actually use.

use regex::Regex;

/// The default total pattern, for UCI and command engines alike (the first
/// group is the number; commas allowed): `Nodes searched: N`
/// (Stockfish), `nodes = N`, `Nodes: N`, `Total: N`, `Perft total: N`,
/// `Total nodes: N`.
pub const DEFAULT_TOTAL_PATTERN: &str =
    r"(?i)(?:\bnodes(?:\s+searched)?|^\s*(?:perft\s+)?total(?:\s+nodes)?)\s*[:=]\s*([\d,]+)";

/// More divide lines than this in one answer is not a divide (no position
/// has more than 682 legal moves); the lines are then ignored.
pub(crate) const MAX_DIVIDE_LINES: usize = 1024;

/// How to read one engine's answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFormat {
    /// Pattern whose first group is the total (`{depth}` stands for the
    /// depth); the last match wins. `None`: [`DEFAULT_TOTAL_PATTERN`].
    pub total: Option<String>,
    /// Pattern for one divide line, with groups for the move and the count
    /// (named `move` and `count`, or the first two). `None`: the common
    /// forms (`e2e4: 20`, `e2e4 20`, `e2e4 - 20`, `e2e4: 20 nodes`,
    /// `Move e2e4: 20`, `1. e2e4: 20`).
    pub divide: Option<String>,
}

/// Why a pattern cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatternError {
    /// Not a regular expression.
    #[error("bad {which} pattern: {reason}")]
    Syntax {
        /// `total` or `divide`.
        which: &'static str,
        /// The parser's message.
        reason: String,
    },
    /// Too few groups.
    #[error("the {which} pattern needs {needed}")]
    Groups {
        /// `total` or `divide`.
        which: &'static str,
        /// What it needs.
        needed: &'static str,
    },
}

impl AnswerFormat {
    /// Checks that the patterns compile and have their groups.
    ///
    /// # Errors
    /// [`PatternError`] naming the pattern.
    pub fn validate(&self) -> Result<(), PatternError> {
        self.total_regex(1)?;
        self.divide_regex()?;
        Ok(())
    }

    /// The total pattern for `depth`, multi-line (`^` and `$` match at
    /// line ends).
    pub(crate) fn total_regex(&self, depth: u32) -> Result<Regex, PatternError> {
        let pattern = self.total.as_deref().unwrap_or(DEFAULT_TOTAL_PATTERN);
        let pattern = pattern.replace("{depth}", &regex::escape(&depth.to_string()));
        let regex = Regex::new(&format!("(?m){pattern}"))
            .map_err(|e| PatternError::Syntax { which: "total", reason: e.to_string() })?;
        if regex.captures_len() < 2 {
            return Err(PatternError::Groups { which: "total", needed: "a group around the number" });
        }
        Ok(regex)
    }

    /// Both patterns for an answer at `depth`: the total, and the custom
    /// divide pattern if any.
    pub(crate) fn regexes(&self, depth: u32) -> Result<(Regex, Option<Regex>), PatternError> {
        Ok((self.total_regex(depth)?, self.divide_regex()?))
    }

    /// The custom divide pattern, if any.
    pub(crate) fn divide_regex(&self) -> Result<Option<Regex>, PatternError> {
        let Some(pattern) = &self.divide else { return Ok(None) };
        let regex = Regex::new(pattern)
            .map_err(|e| PatternError::Syntax { which: "divide", reason: e.to_string() })?;
        let named = regex.capture_names().flatten().filter(|n| *n == "move" || *n == "count").count() == 2;
        if !named && regex.captures_len() < 3 {
            return Err(PatternError::Groups {
                which: "divide",
                needed: "groups for the move and the count (named `move` and `count`, or the first two)",
            });
        }
        Ok(Some(regex))
    }
}

/// The total in `text` by `regex`: the first group of the last match,
/// commas removed.
pub(crate) fn find_total(regex: &Regex, text: &str) -> Option<u128> {
    let captures = regex.captures_iter(text).last()?;
    captures.get(1)?.as_str().replace(',', "").parse().ok()
}

/// Collects the divide lines of one answer.
pub(crate) struct DivideReader {
    custom: Option<Regex>,
    entries: Vec<(String, u128)>,
    lines: usize,
}

impl DivideReader {
    pub(crate) fn new(custom: Option<Regex>) -> Self {
        DivideReader { custom, entries: Vec::new(), lines: 0 }
    }

    /// Looks at one line of output.
    pub(crate) fn line(&mut self, line: &str) {
        let entry = match &self.custom {
            Some(regex) => custom_divide_line(regex, line),
            None => parse_divide_line(line),
        };
        if let Some(entry) = entry {
            self.lines += 1;
            if self.lines <= MAX_DIVIDE_LINES {
                self.entries.push(entry);
            }
        }
    }

    /// The divide, if one was printed (and was not absurdly long).
    pub(crate) fn finish(self) -> Option<Vec<(String, u128)>> {
        (!self.entries.is_empty() && self.lines <= MAX_DIVIDE_LINES).then_some(self.entries)
    }
}

fn custom_divide_line(regex: &Regex, line: &str) -> Option<(String, u128)> {
    let captures = regex.captures(line)?;
    let mv = captures.name("move").or_else(|| captures.get(1))?.as_str();
    let count = captures.name("count").or_else(|| captures.get(2))?.as_str();
    Some((normalize_move(mv)?, count.replace(',', "").parse().ok()?))
}

/// A move in UCI coordinates (`e2e4`, `e7e8q`; a capital promotion letter
/// is accepted), lower-cased; `None` for anything else.
fn normalize_move(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let square =
        |i: usize| matches!(bytes.get(i), Some(b'a'..=b'h')) && matches!(bytes.get(i + 1), Some(b'1'..=b'8'));
    let promotion = match bytes.len() {
        4 => true,
        5 => matches!(bytes[4].to_ascii_lowercase(), b'q' | b'r' | b'b' | b'n'),
        _ => false,
    };
    (promotion && square(0) && square(2)).then(|| text.to_ascii_lowercase())
}

/// Reads a divide line in the common forms: `e2e4: 20` (Stockfish),
/// `e2e4 20`, `e2e4 - 20`, `e2e4 = 20`, `e2e4: 20 nodes`, `Move e2e4: 20`,
/// `1. e2e4: 20`, `e2e4: 1,234`, after a prompt (`> e2e4 20`). Text after
/// the number is allowed when a space or bracket separates it
/// (`e2e4: 20 (0.1 s)`).
pub(crate) fn parse_divide_line(line: &str) -> Option<(String, u128)> {
    // A prompt (`> `) an interactive engine printed before its answer.
    let mut rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace()).trim_end();
    // A numbering: `12.` or `12)`.
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(rest.as_bytes().get(digits), Some(b'.' | b')')) {
        rest = rest[digits + 1..].trim_start();
    }
    // A `Move` label.
    if rest.len() > 4 && rest[..4].eq_ignore_ascii_case("move") && !rest.as_bytes()[4].is_ascii_alphanumeric()
    {
        rest = rest[4..].trim_start_matches([' ', '\t', ':']);
    }
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    let (mv, tail) = rest.split_at(end);
    let mv = normalize_move(mv)?;
    let tail = tail.trim_start();
    let tail =
        ["->", ":", "-", "="].iter().find_map(|sep| tail.strip_prefix(sep)).unwrap_or(tail).trim_start();
    let number_end = tail.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(tail.len());
    let (number, after) = tail.split_at(number_end);
    if !number.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if !(after.is_empty() || after.starts_with([' ', '\t', '('])) {
        return None;
    }
    Some((mv, number.replace(',', "").parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn divide_lines_in_the_common_forms() {
        for line in [
            "e2e4: 20",
            "e2e4 20",
            "e2e4 - 20",
            "e2e4 = 20",
            "e2e4 -> 20",
            "e2e4:20",
            "e2e4: 20 nodes",
            "Move e2e4: 20",
            "move: e2e4 20",
            "1. e2e4: 20",
            "12) e2e4 20",
            "  e2e4: 20 (0.01 s)",
            "> > e2e4 - 20",
        ] {
            assert_eq!(parse_divide_line(line), Some(("e2e4".into(), 20)), "{line:?}");
        }
        assert_eq!(parse_divide_line("a7a8Q: 1,234"), Some(("a7a8q".into(), 1234)));
        assert_eq!(parse_divide_line("e1h1 9"), Some(("e1h1".into(), 9)));
        for line in [
            "Nodes searched: 20",
            "info depth 1",
            "e2e4: x",
            "e2e4: 20x",
            "e2e9: 20",
            "e2e4q5: 3",
            "Total: 20",
            "Move: 20",
            "",
        ] {
            assert_eq!(parse_divide_line(line), None, "{line:?}");
        }
    }

    #[test]
    fn totals_in_the_common_forms() {
        let regex = AnswerFormat::default().total_regex(5).unwrap();
        for (text, total) in [
            ("e2e4: 20\n\nNodes searched: 400\n", 400),
            ("perft 5: nodes = 4,865,609 in 1.2 s", 4_865_609),
            ("Nodes: 7", 7),
            ("Total: 400", 400),
            ("Perft total: 400", 400),
            ("Total nodes: 400", 400),
        ] {
            assert_eq!(find_total(&regex, text), Some(total), "{text:?}");
        }
        assert_eq!(find_total(&regex, "e2e4: 20\ne2e3: 20"), None);
        let qperft = AnswerFormat { total: Some(r"perft\(\s*{depth}\)\s*=\s*(\d+)".into()), divide: None };
        assert_eq!(find_total(&qperft.total_regex(2).unwrap(), "perft( 1)= 20\nperft( 2)= 400"), Some(400));
    }

    #[test]
    fn custom_divide_patterns() {
        let format = AnswerFormat { total: None, divide: Some(r"^(\S+) => (\d+)$".into()) };
        let mut reader = DivideReader::new(format.divide_regex().unwrap());
        reader.line("e2e4 => 20");
        reader.line("e7e8Q => 3");
        reader.line("Nf3 => 20");
        assert_eq!(reader.finish(), Some(vec![("e2e4".into(), 20), ("e7e8q".into(), 3)]));
        let named = AnswerFormat { total: None, divide: Some(r"(?P<count>\d+) for (?P<move>\w+)".into()) };
        let mut reader = DivideReader::new(named.divide_regex().unwrap());
        reader.line("20 for g1f3");
        assert_eq!(reader.finish(), Some(vec![("g1f3".into(), 20)]));
        let one_group = AnswerFormat { total: None, divide: Some(r"(\d+)".into()) };
        assert!(one_group.validate().is_err());
        let no_group = AnswerFormat { total: Some("total".into()), divide: None };
        assert!(no_group.validate().is_err());
    }
}
