//! Reading an engine's answer: its total and, where it prints one, its
//! divide (one line per root move), in the formats engines actually use.
//!
//! Totals are read by a pattern (the built-in forms, or `--total-regex`);
//! without a custom pattern, two more rules find the total of engines whose
//! label no pattern knows: a bare number (the perftree format: the divide,
//! a blank line, the total), and, once a divide was printed, a number that
//! equals the divide's sum.

use std::sync::LazyLock;

use regex::Regex;

/// The built-in total patterns, tried in this order on each line (case
/// does not matter; `{depth}` stands for the depth asked; `NUM` is a
/// number, with thousands separators allowed):
pub const DEFAULT_TOTAL_PATTERNS: &[&str] = &[
    // `Nodes searched: N` (Stockfish), `Nodes: N`, `nodes = N`, `Total: N`,
    // `Total nodes: N`, `Perft total: N`, `Leaves: N`, `leaf nodes: N`,
    // `Total leafs: N` (Cosette).
    r"(?:\bnodes(?:\s+searched)?|^\s*(?:perft\s+)?total(?:\s+(?:nodes|moves|leafs))?|\bleaves|\bleafs|\bleaf\s+nodes)\s*[:=]\s*NUM",
    // `Total nodes for depth (5) : N` (Pedantic).
    r"^\s*total\s+nodes\s+for\s+depth\s*\(?\s*{depth}\s*\)?\s*[:=]\s*NUM",
    // `validNodes    N` (Minic's log line).
    r"\bvalidnodes\s+NUM",
    // `Moves       197,742` (a `Moves: 20` header is a count of moves).
    r"^\s*moves\s+NUM\s*$",
    // `total moves=N` (Crafty).
    r"\btotal\s+moves\s*=\s*NUM",
    // `perft(5)= N`, `Perft 5: N (...)`, `perft 5 = N`, `Perft 5 leaf nodes: N`.
    r"^\s*perft\s*\(?\s*{depth}\s*\)?\s*(?:[:=]|leaf\s+nodes\s*:)\s*NUM",
    // `perft 5 time 12 nodes N` (Akimbo).
    r"^\s*perft\s+{depth}\b.*\bnodes\s+NUM",
    // `info depth 5 nodes N time ...` at the depth asked (an engine that
    // prints one per depth is read at the right one), `info nodes N nps
    // ...` (a search's info line, with a score or a variation, is not
    // read).
    r"^\s*info\s+depth\s+{depth}\b.*\bnodes\s+NUM",
    r"^\s*info\s+nodes\s+NUM",
    // `N nodes ...` (Seer, Carp).
    r"^\s*NUM\s+nodes\b",
    // `Perft Complete : N nodes visited` (VICE and its kin).
    r"\bcomplete\s*:\s*NUM\s+nodes",
    // `5:  12  N`: a table of depth, time and count (CPW).
    r"^\s*{depth}\s*:\s*(?:\d+\s+)?NUM\s*$",
];

/// A count as engines print it: digits, with `,`, `'` or `_` between
/// groups of three.
const NUM: &str = r"(\d{1,3}(?:[,'_]\d{3})+|\d+)";

pub(crate) use super::MAX_DIVIDE_LINES;

/// How to read one engine's answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerFormat {
    /// Pattern whose first group is the total (`{depth}` stands for the
    /// depth); the last match wins. `None`: [`DEFAULT_TOTAL_PATTERNS`] and
    /// the bare-number and divide-sum rules.
    pub total: Option<String>,
    /// Pattern for one divide line, with groups for the move and the count
    /// (named `move` and `count`, or the first two). `None`: the common
    /// forms (`e2e4: 20`, `e2e4 20`, `e2e4 - 20`, `e2e4: 20 nodes`,
    /// `Move e2e4: 20`, `1. e2e4: 20`, `move 1 : e2e4 : 20`).
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
    /// line ends): the custom one, or the built-in ones as alternatives.
    pub(crate) fn total_regex(&self, depth: u32) -> Result<Regex, PatternError> {
        let depth = regex::escape(&depth.to_string());
        let pattern = match &self.total {
            Some(custom) => format!("(?m){}", custom.replace("{depth}", &depth)),
            None => {
                let alternatives: Vec<String> = DEFAULT_TOTAL_PATTERNS
                    .iter()
                    .map(|p| format!("(?:{})", p.replace("{depth}", &depth).replace("NUM", NUM)))
                    .collect();
                format!("(?mi){}", alternatives.join("|"))
            }
        };
        let regex = Regex::new(&pattern)
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

    /// A reader for one answer at `depth`.
    pub(crate) fn reader(&self, depth: u32) -> Result<AnswerReader, PatternError> {
        let (total, divide) = self.regexes(depth)?;
        Ok(AnswerReader::new(total, self.total.is_some(), divide))
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

/// A number as printed, separators removed.
fn parse_count(text: &str) -> Option<u128> {
    text.chars().filter(|c| c.is_ascii_digit()).collect::<String>().parse().ok()
}

/// The total in `text` by `regex`: the first group that took part in the
/// last match, separators removed.
pub(crate) fn find_total(regex: &Regex, text: &str) -> Option<u128> {
    let captures = regex.captures_iter(text).last()?;
    let group = captures.iter().skip(1).flatten().next()?;
    parse_count(group.as_str())
}

/// Whether a line says the engine could not set the position it was
/// given (`fen entered is not valid`, `Invalid FEN!`, `info string failed
/// to parse FEN: ...`, `Engine failed to load position.`).
pub(crate) fn is_rejection(line: &str) -> bool {
    static REJECTION: LazyLock<Regex> = LazyLock::new(|| {
        let fault = r"(?:invalid|illegal|bad|error|not\s+valid|cannot|can't|failed|unable|wrong|rejected)";
        let what = r"(?:fen|position|castling)";
        Regex::new(&format!(r"(?i)\b{fault}\b.*\b{what}\b|\b{what}\b.*\b{fault}")).expect("a valid pattern")
    });
    let line = info_string(line).unwrap_or(line);
    // A divide or a total never says so; a search's info line is a search.
    !is_search(line) && parse_divide_line(line).is_none() && REJECTION.is_match(line)
}

/// What one line of an answer says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Said {
    /// Nothing that ends the answer (a divide line, a log line).
    Nothing,
    /// The total.
    Total(u128),
    /// A total label with something unreadable after it (the line).
    Unreadable(String),
    /// A search's answer (`bestmove ...`, `info ... score ... pv ...`):
    /// the engine took the command for a search.
    Search(String),
    /// Before any total, the engine said it could not set the position
    /// (see [`is_rejection`]).
    Rejected(String),
}

/// Reads one answer line by line: its divide, and its total once a line
/// gives it.
pub(crate) struct AnswerReader {
    total: Regex,
    /// A custom total pattern: only it reads totals.
    custom: bool,
    divide: DivideReader,
    /// The previous line was blank (the perftree format's total follows
    /// one).
    after_blank: bool,
    /// A total was read; a divide line after it starts a new divide (an
    /// engine that prints one per depth).
    total_seen: bool,
}

impl AnswerReader {
    fn new(total: Regex, custom: bool, divide: Option<Regex>) -> Self {
        AnswerReader {
            total,
            custom,
            divide: DivideReader::new(divide),
            after_blank: false,
            total_seen: false,
        }
    }

    /// Looks at one line of output. A UCI engine's `info string TEXT` is
    /// read as TEXT.
    pub(crate) fn line(&mut self, line: &str) -> Said {
        let line = info_string(line).unwrap_or(line);
        let said = self.read(line);
        self.after_blank = line.trim().is_empty();
        if matches!(said, Said::Total(_)) {
            self.total_seen = true;
        }
        said
    }

    fn read(&mut self, line: &str) -> Said {
        if is_search(line) {
            return Said::Search(line.trim().to_string());
        }
        if !self.total_seen && self.divide.is_empty() && is_rejection(line) {
            return Said::Rejected(line.trim().to_string());
        }
        // `info currmove e2e4 currmovenumber 1 nodes 20` is a divide line,
        // whatever the total pattern makes of its `nodes`.
        if self.divide.custom.is_none() && info_currmove(line).is_some() {
            if self.total_seen {
                self.divide = DivideReader::new(None);
                self.total_seen = false;
            }
            self.divide.line(line);
            return Said::Nothing;
        }
        if self.total.is_match(line) {
            return match find_total(&self.total, line) {
                Some(total) => Said::Total(total),
                None => Said::Unreadable(line.trim().to_string()),
            };
        }
        // Stockfish's label with something unreadable after it is an
        // answer too, a bad one.
        if line.trim_start().starts_with("Nodes searched:") {
            return Said::Unreadable(line.trim().to_string());
        }
        if self.total_seen && self.divide.is_divide_line(line) {
            self.divide = DivideReader::new(self.divide.custom.take());
            self.total_seen = false;
        }
        if self.divide.line(line) || self.custom {
            return Said::Nothing;
        }
        self.by_value(line).map_or(Said::Nothing, Said::Total)
    }

    /// A total no pattern names: a bare number (after a blank line, or
    /// with no divide, or equal to the divide's sum), or a number in the
    /// line that equals the divide's sum.
    fn by_value(&self, line: &str) -> Option<u128> {
        let text = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace()).trim_end();
        let sum = self.divide.sum();
        let bare = !text.is_empty()
            && text.starts_with(|c: char| c.is_ascii_digit())
            && text.chars().all(|c| c.is_ascii_digit() || ",'_".contains(c));
        if bare {
            let number = parse_count(text)?;
            let fits = self.after_blank || self.divide.is_empty() || Some(number) == sum;
            return fits.then_some(number);
        }
        let sum = sum.filter(|_| !self.divide.is_empty())?;
        static NUMBERS: LazyLock<Regex> = LazyLock::new(|| Regex::new(NUM).expect("a valid pattern"));
        NUMBERS.find_iter(text).filter_map(|m| parse_count(m.as_str())).find(|&n| n == sum)
    }

    /// The divide, if one was printed (and was not absurdly long), and
    /// how many lines read as divide lines.
    pub(crate) fn finish(self) -> (Option<Vec<(String, u128)>>, usize) {
        let lines = self.divide.lines;
        (self.divide.finish(), lines)
    }
}

/// Whether a line is a search's (`bestmove`, or an `info` line with a
/// score or a principal variation), which a perft answer never is.
pub(crate) fn is_search(line: &str) -> bool {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("bestmove") => true,
        Some("info") => words.any(|w| w == "score" || w == "pv"),
        _ => false,
    }
}

/// The text of a UCI `info string TEXT` line (some engines print their
/// perft that way).
fn info_string(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix("info")?;
    let rest = rest.trim_start().strip_prefix("string")?;
    rest.starts_with(char::is_whitespace).then_some(rest)
}

/// A UCI engine's divide line: `info currmove e2e4 currmovenumber 1 nodes
/// 20` (the words in any order after `info`).
fn info_currmove(line: &str) -> Option<(String, u128)> {
    let mut words = line.split_whitespace();
    if words.next()? != "info" {
        return None;
    }
    let (mut mv, mut nodes) = (None, None);
    while let Some(word) = words.next() {
        match word {
            "currmove" => mv = words.next(),
            "nodes" => nodes = words.next(),
            _ => {}
        }
    }
    Some((normalize_move(mv?)?, parse_count(nodes?)?))
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

    fn parse(&self, line: &str) -> Option<(String, u128)> {
        match &self.custom {
            Some(regex) => custom_divide_line(regex, line),
            None => parse_divide_line(line).or_else(|| info_currmove(line)),
        }
    }

    fn is_divide_line(&self, line: &str) -> bool {
        self.parse(line).is_some()
    }

    /// Looks at one line of output; true when it is a divide line.
    pub(crate) fn line(&mut self, line: &str) -> bool {
        let Some(entry) = self.parse(line) else { return false };
        self.lines += 1;
        if self.lines <= MAX_DIVIDE_LINES {
            self.entries.push(entry);
        }
        true
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The sum of the counts so far; `None` past u128.
    fn sum(&self) -> Option<u128> {
        self.entries.iter().try_fold(0u128, |sum, (_, n)| sum.checked_add(*n))
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
    Some((normalize_move(mv)?, parse_count(count)?))
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

/// Strips a numbering (`12.`, `12)`) or a `Move` label (`Move`, `move 3 :`)
/// before a divide line's move.
fn strip_move_label(mut rest: &str) -> &str {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && matches!(rest.as_bytes().get(digits), Some(b'.' | b')')) {
        return rest[digits + 1..].trim_start();
    }
    // Byte slices only at ASCII positions: the line may hold any text.
    let labelled = rest.get(..4).is_some_and(|word| word.eq_ignore_ascii_case("move"))
        && rest.as_bytes().get(4).is_some_and(|b| !b.is_ascii_alphanumeric());
    if labelled {
        rest = rest[4..].trim_start_matches([' ', '\t', ':']);
        // `move 3 : e2e4 : 20` (VICE and its kin).
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            let after = rest[digits..].trim_start();
            if let Some(after) = after.strip_prefix(':') {
                rest = after.trim_start();
            }
        }
    }
    rest
}

/// Reads a divide line in the common forms: `e2e4: 20` (Stockfish),
/// `e2e4 20`, `e2e4\t20`, `e2e4 - 20`, `e2e4 -- 20`, `e2e4 = 20`,
/// `e2e4: 20 nodes`, `Move e2e4: 20`, `move 1 : e2e4 : 20`, `1. e2e4: 20`,
/// `e2e4: 1,234`, after a prompt (`> e2e4 20`). Text after the number is
/// allowed when a space or bracket separates it (`e2e4: 20 (0.1 s)`).
pub(crate) fn parse_divide_line(line: &str) -> Option<(String, u128)> {
    // A prompt (`> `) an interactive engine printed before its answer.
    let rest = line.trim_start_matches(|c: char| c == '>' || c.is_whitespace()).trim_end();
    let rest = strip_move_label(rest);
    let end = rest.find(|c: char| !c.is_ascii_alphanumeric()).unwrap_or(rest.len());
    let (mv, tail) = rest.split_at(end);
    let mv = normalize_move(mv)?;
    let tail = tail.trim_start();
    let tail = ["->", "--", ":", "-", "="]
        .iter()
        .find_map(|sep| tail.strip_prefix(sep))
        .unwrap_or(tail)
        .trim_start();
    let number_end = tail.find(|c: char| !(c.is_ascii_digit() || c == ',')).unwrap_or(tail.len());
    let (number, after) = tail.split_at(number_end);
    if !number.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    if !(after.is_empty() || after.starts_with([' ', '\t', '('])) {
        return None;
    }
    Some((mv, parse_count(number)?))
}

#[cfg(test)]
mod tests;
