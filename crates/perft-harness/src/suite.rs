//! Reading perft suites: EPD with `;D1 20 ;D2 400` counts, and the `.perft`
//! format (`id`, `epd`, `perft N count` lines).

use std::borrow::Cow;
use std::fmt;

use crate::board::truncate_chars;

/// Deepest depth a suite line may ask for.
pub const MAX_SUITE_DEPTH: u32 = crate::counting::MAX_DEPTH;
/// Longest line accepted, in bytes.
pub const MAX_LINE_BYTES: usize = 16 * 1024;
/// At most this many unreadable lines are listed per file; the others are
/// only counted (a file of garbage must not become a flood of messages).
pub const MAX_LISTED_ERRORS: usize = 1000;

/// One position of a suite and the counts it expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// 1-based line of the FEN (the `epd` line in `.perft` files).
    pub line: usize,
    /// The record's name, if the file gives one.
    pub id: Option<String>,
    /// The FEN as written (4 to 6 fields).
    pub fen: String,
    /// Expected counts as (depth, nodes), in file order, depths distinct.
    pub counts: Vec<(u32, u128)>,
}

/// A line that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

/// A suite file read into entries and line errors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedSuite {
    /// Positions, in file order.
    pub entries: Vec<SuiteEntry>,
    /// Lines that could not be read, the first [`MAX_LISTED_ERRORS`]; the
    /// other lines are still used.
    pub errors: Vec<LineError>,
    /// Further unreadable lines, counted but not listed.
    pub unlisted_errors: usize,
    /// The first EPD operation that is neither a perft count nor a known
    /// EPD opcode (a typo such as `d1 20` for `D1 20`): ignored, but worth
    /// a warning.
    pub unknown_operation: Option<LineError>,
}

/// Reads suite text in either format (they may even be mixed). Never fails:
/// each bad line becomes a [`LineError`] and the rest is still read.
/// Accepts LF or CRLF, a missing final newline, trailing spaces or NUL
/// bytes (one public suite ends every line with NUL), a UTF-8 byte-order
/// mark, and UTF-16 with a byte-order mark (what Windows editors and
/// PowerShell's `>` write); UTF-16 without one is refused, by name.
pub fn parse_suite(bytes: &[u8]) -> ParsedSuite {
    let bytes = match decode(bytes) {
        Ok(bytes) => bytes,
        Err(message) => {
            return ParsedSuite { errors: vec![LineError { line: 1, message }], ..ParsedSuite::default() };
        }
    };
    let mut reader = Reader::default();
    for (index, raw) in bytes.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        if let Err(message) = reader.line(line, raw) {
            if reader.parsed.errors.len() < MAX_LISTED_ERRORS {
                reader.parsed.errors.push(LineError { line, message });
            } else {
                reader.parsed.unlisted_errors += 1;
            }
        }
    }
    let mut parsed = reader.parsed;
    parsed.entries.extend(reader.current.take());
    parsed.entries.sort_by_key(|e| e.line);
    parsed
}

/// The text of a suite file as UTF-8 (up to its validation line by line):
/// without a UTF-8 byte-order mark, and decoded from UTF-16 if it starts
/// with a UTF-16 one (an unpaired surrogate becomes U+FFFD, which no FEN
/// accepts).
///
/// # Errors
/// A message naming UTF-16 for what looks like UTF-16 without a mark.
fn decode(bytes: &[u8]) -> Result<Cow<'_, [u8]>, String> {
    let utf16 = |rest: &[u8], unit: fn([u8; 2]) -> u16| {
        let units = rest.chunks(2).map(|pair| unit([pair[0], *pair.get(1).unwrap_or(&0)]));
        let text: String =
            char::decode_utf16(units).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect();
        Cow::Owned(text.into_bytes())
    };
    match bytes {
        [0xef, 0xbb, 0xbf, rest @ ..] => Ok(Cow::Borrowed(rest)),
        [0xff, 0xfe, rest @ ..] => Ok(utf16(rest, u16::from_le_bytes)),
        [0xfe, 0xff, rest @ ..] => Ok(utf16(rest, u16::from_be_bytes)),
        _ if looks_like_utf16(bytes) => {
            Err("the file looks like UTF-16 without a byte-order mark: save it as \
             UTF-8 (or UTF-16 with a byte-order mark; in PowerShell, `Out-File -Encoding utf8`)"
                .to_string())
        }
        _ => Ok(Cow::Borrowed(bytes)),
    }
}

/// Whether the start of `bytes` has the NUL in every other byte that ASCII
/// text in UTF-16 has (a NUL at the end of each line, as one public suite
/// writes them, does not look so).
fn looks_like_utf16(bytes: &[u8]) -> bool {
    let start = &bytes[..bytes.len().min(256)];
    let nul_at = |parity: usize| start.iter().skip(parity).step_by(2).filter(|&&b| b == 0).count();
    start.len() >= 8 && (nul_at(0) * 4 >= start.len() || nul_at(1) * 4 >= start.len())
}

#[derive(Default)]
struct Reader {
    parsed: ParsedSuite,
    pending_id: Option<String>,
    /// The `.perft` record still collecting `perft` lines.
    current: Option<SuiteEntry>,
}

impl Reader {
    fn line(&mut self, line: usize, raw: &[u8]) -> Result<(), String> {
        if raw.len() > MAX_LINE_BYTES {
            return Err(format!("line too long ({} bytes, limit {MAX_LINE_BYTES})", raw.len()));
        }
        let text = std::str::from_utf8(raw).map_err(|_| "not valid UTF-8 text".to_string())?;
        let text = text.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        if text.is_empty() || text.starts_with('#') {
            return Ok(());
        }
        if text.contains('\0') {
            return Err("NUL byte inside the line".to_string());
        }
        let (keyword, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
        let rest = rest.trim();
        match keyword {
            "id" => self.pending_id = Some(rest.to_string()),
            "epd" => {
                self.parsed.entries.extend(self.current.take());
                if rest.is_empty() {
                    return Err("epd line without a FEN".to_string());
                }
                let id = self.pending_id.take();
                self.current = Some(SuiteEntry { line, id, fen: rest.to_string(), counts: Vec::new() });
            }
            "perft" => {
                let entry = self
                    .current
                    .as_mut()
                    .ok_or_else(|| "perft line without a preceding epd line".to_string())?;
                let (depth, nodes) = parse_perft_line(rest)?;
                add_count(&mut entry.counts, depth, nodes)?;
            }
            _ => {
                self.parsed.entries.extend(self.current.take());
                let (fen, id, counts, unknown, count_errors) = parse_epd_line(text)?;
                if let Some(op) = unknown.filter(|_| self.parsed.unknown_operation.is_none()) {
                    let message =
                        format!("unknown EPD operation {op:?}, ignored (perft counts are written ;D1 20)");
                    self.parsed.unknown_operation = Some(LineError { line, message });
                }
                // A bad count refuses that count alone: the line's others
                // are still checked.
                for message in count_errors {
                    self.parsed.errors.push(LineError {
                        line,
                        message: format!("{message} (the line's other counts are checked)"),
                    });
                }
                self.parsed.entries.push(SuiteEntry { line, id, fen, counts });
            }
        }
        Ok(())
    }
}

fn add_count(counts: &mut Vec<(u32, u128)>, depth: u32, nodes: u128) -> Result<(), String> {
    match counts.iter().find(|&&(d, _)| d == depth) {
        Some(&(_, existing)) if existing != nodes => {
            Err(format!("depth {depth} given twice with different counts ({existing} and {nodes})"))
        }
        Some(_) => Ok(()),
        None => {
            counts.push((depth, nodes));
            Ok(())
        }
    }
}

fn parse_depth(text: &str) -> Result<u32, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("depth {text:?} is not a number"));
    }
    match text.parse::<u32>() {
        Ok(depth) if depth <= MAX_SUITE_DEPTH => Ok(depth),
        _ => Err(format!("depth {text} out of range (0 to {MAX_SUITE_DEPTH})")),
    }
}

fn parse_count(text: &str) -> Result<u128, String> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("node count {:?} is not a non-negative whole number", truncate_chars(text, 60)));
    }
    text.parse::<u128>()
        .map_err(|_| format!("node count {} is too large (the limit is 2^128 - 1)", truncate_chars(text, 60)))
}

/// One `D<depth> <nodes>` operation (`depth_text` is what follows the D).
fn parse_count_operation(op: &str, depth_text: &str) -> Result<(u32, u128), String> {
    let (depth, count) = depth_text
        .split_once(char::is_whitespace)
        .ok_or_else(|| format!("operation {:?} has no node count", truncate_chars(op, 40)))?;
    let count = count.trim();
    if count.contains(char::is_whitespace) {
        return Err(format!("operation {:?}: expected \"D<depth> <nodes>\"", truncate_chars(op, 40)));
    }
    Ok((parse_depth(depth)?, parse_count(count)?))
}

fn parse_perft_line(rest: &str) -> Result<(u32, u128), String> {
    let mut parts = rest.split_ascii_whitespace();
    match (parts.next(), parts.next(), parts.next()) {
        (Some(depth), Some(count), None) => Ok((parse_depth(depth)?, parse_count(count)?)),
        _ => Err(format!("expected \"perft <depth> <nodes>\", found \"perft {rest}\"")),
    }
}

/// A FEN, its id, its counts, the first operation not understood, and why
/// each count that could not be read was refused.
type EpdRecord = (String, Option<String>, Vec<(u32, u128)>, Option<String>, Vec<String>);

fn parse_epd_line(text: &str) -> Result<EpdRecord, String> {
    let parts = split_outside_quotes(text);
    let (head, operations) = (parts[0], &parts[1..]);
    let tokens: Vec<&str> = head.split_ascii_whitespace().collect();
    if tokens.len() < 4 {
        return Err(format!(
            "expected a FEN of at least 4 fields before the first ';', found {:?}",
            truncate_chars(head, 60)
        ));
    }
    // Up to two move counters may follow the four EPD fields; anything after
    // them is the first operation written without a leading ';'.
    let mut fen_len = 4;
    while fen_len < tokens.len().min(6) && tokens[fen_len].bytes().all(|b| b.is_ascii_digit()) {
        fen_len += 1;
    }
    let fen = tokens[..fen_len].join(" ");
    let first_op = tokens[fen_len..].join(" ");

    let mut id = None;
    let mut counts = Vec::new();
    let mut unknown = None;
    let mut count_errors = Vec::new();
    for op in std::iter::once(first_op.as_str()).chain(operations.iter().copied()) {
        let op = op.trim();
        if op.is_empty() {
            continue;
        }
        if let Some(depth_text) = op.strip_prefix('D').filter(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        {
            if let Err(message) = parse_count_operation(op, depth_text)
                .and_then(|(depth, nodes)| add_count(&mut counts, depth, nodes))
            {
                count_errors.push(message);
            }
        } else if op == "D" || (op.starts_with('D') && op[1..].starts_with(char::is_whitespace)) {
            count_errors.push(format!("operation {:?} has no depth after 'D'", truncate_chars(op, 40)));
        } else if looks_like_a_count(op) {
            // `;D-1 5`, `;d2 9`, `;D１ 20` (a full-width digit): a count
            // meant and not read must not leave the line unchecked.
            count_errors.push(format!(
                "operation {:?} looks like a perft count but is not one (write ;D1 20: 'D', the depth in \
                 ASCII digits, a space, the count)",
                truncate_chars(op, 40)
            ));
        } else if let Some(name) = op.strip_prefix("id ") {
            id = Some(name.trim().trim_matches('"').to_string());
        } else if !is_known_operation(op) {
            unknown.get_or_insert_with(|| truncate_chars(op, 40));
        }
        // Other EPD operations (bm, c0, ...) are not about perft; ignore them.
    }
    Ok((fen, id, counts, unknown, count_errors))
}

/// Whether an operation that is not a count was meant as one: `D` or `d`
/// followed by something other than a letter (`D-1`, `d2`, `D１`), unlike
/// the EPD operations that start with the letter (`dm`, `draw_offer`).
fn looks_like_a_count(op: &str) -> bool {
    let mut chars = op.chars();
    matches!(chars.next(), Some('D' | 'd')) && chars.next().is_some_and(|c| !c.is_alphabetic() && c != '_')
}

/// `text` split at every `;` that is not inside double quotes (an EPD
/// operand such as `c0 "Smith vs. Jones; Moscow"` may hold one).
fn split_outside_quotes(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for (i, c) in text.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The opcodes of the EPD standard (and the `perft` extension some files
/// use): not perft counts, but not typos either.
fn is_known_operation(op: &str) -> bool {
    const OPCODES: &[&str] = &[
        "acd",
        "acn",
        "acs",
        "am",
        "bm",
        "ce",
        "dm",
        "draw_accept",
        "draw_claim",
        "draw_offer",
        "draw_reject",
        "eco",
        "fmvn",
        "hmvc",
        "id",
        "nic",
        "noop",
        "pm",
        "pv",
        "rc",
        "resign",
        "sm",
        "tcgs",
        "tcri",
        "tcsi",
        "perft",
    ];
    let opcode = op.split_whitespace().next().unwrap_or_default();
    OPCODES.contains(&opcode)
        || ((opcode.starts_with('c') || opcode.starts_with('v'))
            && opcode.len() == 2
            && opcode.as_bytes()[1].is_ascii_digit())
}

/// The suites bundled with perft (the files of `positions/`), by file
/// name: the default suite (1,116 positions) and the suites it is drawn
/// from. See `positions/README.md` for where each comes from.
pub const BUNDLED: &[(&str, &[u8])] = &[
    ("default.epd", include_bytes!("../../../positions/default.epd")),
    ("standard.epd", include_bytes!("../../../positions/standard.epd")),
    ("fischer.epd", include_bytes!("../../../positions/fischer.epd")),
    ("tricky.perft", include_bytes!("../../../positions/tricky.perft")),
    ("tricky-python-chess.perft", include_bytes!("../../../positions/tricky-python-chess.perft")),
    ("sedlak-and-classic.epd", include_bytes!("../../../positions/sedlak-and-classic.epd")),
    ("stockfish-perft-sh.epd", include_bytes!("../../../positions/stockfish-perft-sh.epd")),
    ("ferdy-enpassant.epd", include_bytes!("../../../positions/ferdy-enpassant.epd")),
    ("ferdy-double-checks.epd", include_bytes!("../../../positions/ferdy-double-checks.epd")),
    ("marcel-random.perft", include_bytes!("../../../positions/marcel-random.perft")),
    ("castling-rights.epd", include_bytes!("../../../positions/castling-rights.epd")),
    ("bench.epd", include_bytes!("../../../positions/bench.epd")),
];

/// A bundled suite by name, with or without its extension (`standard`,
/// `standard.epd`): its file name and contents.
pub fn bundled(name: &str) -> Option<(&'static str, &'static [u8])> {
    BUNDLED
        .iter()
        .copied()
        .find(|(file, _)| *file == name || file.rsplit_once('.').is_some_and(|(stem, _)| stem == name))
}

/// Whether `file` is the name of a bundled suite (as its lines are named).
pub fn is_bundled(file: &str) -> bool {
    BUNDLED.iter().any(|(name, _)| *name == file)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_order_marks_and_utf16() {
        let text = "# a suite\r\n8/8/8/8/8/8/8/K6k w - - 0 1; D1 3; D2 9\r\n";
        let expected = parse_suite(text.as_bytes());
        assert_eq!(expected.errors, vec![]);
        assert_eq!(expected.entries.len(), 1);
        let utf8 = [&[0xef, 0xbb, 0xbf][..], text.as_bytes()].concat();
        let le: Vec<u8> =
            [0xff, 0xfe].into_iter().chain(text.encode_utf16().flat_map(u16::to_le_bytes)).collect();
        let be: Vec<u8> =
            [0xfe, 0xff].into_iter().chain(text.encode_utf16().flat_map(u16::to_be_bytes)).collect();
        for bytes in [&utf8, &le, &be] {
            assert_eq!(parse_suite(bytes), expected);
        }
        let unmarked: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let parsed = parse_suite(&unmarked);
        assert!(parsed.entries.is_empty());
        assert_eq!(parsed.errors.len(), 1);
        assert!(parsed.errors[0].message.contains("UTF-16 without a byte-order mark"), "{:?}", parsed.errors);
        // An unpaired surrogate or an odd last byte: the line is refused,
        // the others read.
        let mut broken = le.clone();
        broken.extend([0x00, 0xd8, b'\n', 0x00, b'x']);
        let parsed = parse_suite(&broken);
        assert_eq!(parsed.entries, expected.entries);
        assert!(!parsed.errors.is_empty());
        // A NUL ending each line is not UTF-16.
        let nul_ended = "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\0\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D2 9\0\n";
        assert_eq!(parse_suite(nul_ended.as_bytes()).errors, vec![]);
    }

    #[test]
    fn epd_spacings_and_line_endings() {
        let text = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400\r\n\
            8/8/8/8/8/8/8/K6k w - - 0 1; D1 3; D2 9 \r\n\
            4k3/8/8/8/8/8/8/4K2R w K -  0 1; D4 7059\0\n\
            4k3/8/8/8/8/8/8/4K2R w K - ;D1 15";
        let parsed = parse_suite(text);
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.entries.len(), 4);
        assert_eq!(parsed.entries[0].counts, vec![(1, 20), (2, 400)]);
        assert_eq!(parsed.entries[1].fen, "8/8/8/8/8/8/8/K6k w - - 0 1");
        assert_eq!(parsed.entries[1].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(parsed.entries[2].fen, "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
        assert_eq!(parsed.entries[2].counts, vec![(4, 7059)]);
        assert_eq!(parsed.entries[3].fen, "4k3/8/8/8/8/8/8/4K2R w K -");
        assert_eq!(parsed.entries[3].line, 4);
    }

    #[test]
    fn quoted_operands_may_hold_semicolons() {
        let parsed = parse_suite(
            b"8/8/8/8/8/8/8/K6k w - - ;D1 3 ;c0 \"Smith vs. Jones; Moscow 1985\" ;id \"a;b\" ;D2 9",
        );
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.unknown_operation, None);
        assert_eq!(parsed.entries[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(parsed.entries[0].id.as_deref(), Some("a;b"));
        let typo = parse_suite(b"8/8/8/8/8/8/8/K6k w - - ;D1 3 ;dm 9\n8/8/8/8/8/8/8/K6k w - - ;D1 3 ;x 1\n8/8/8/8/8/8/8/K6k w - - ;y 2");
        assert_eq!(typo.unknown_operation.map(|w| w.line), Some(2), "the first one only");
        // Counts meant and not read are errors of their own lines, each.
        let meant = "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;d2 9\n8/8/8/8/8/8/8/K6k w - - ;D-1 5\n8/8/8/8/8/8/8/K6k w - - ;D\u{ff11} 3\n8/8/8/8/8/8/8/K6k w - - ;D-1 5\n";
        let parsed = parse_suite(meant.as_bytes());
        assert_eq!(parsed.errors.iter().map(|e| e.line).collect::<Vec<_>>(), [1, 2, 3, 4]);
        assert!(parsed.errors[1].message.contains("looks like a perft count"), "{:?}", parsed.errors);
        assert_eq!(parsed.entries[0].counts, vec![(1, 3)], "the line's other counts are kept");
    }

    #[test]
    fn epd_operations_without_leading_semicolon() {
        let parsed = parse_suite(b"8/8/8/8/8/8/8/K6k w - - D1 3; D2 9; id \"corner\"; bm Kb1");
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.entries[0].fen, "8/8/8/8/8/8/8/K6k w - -");
        assert_eq!(parsed.entries[0].counts, vec![(1, 3), (2, 9)]);
        assert_eq!(parsed.entries[0].id.as_deref(), Some("corner"));
    }

    #[test]
    fn perft_format() {
        let text = b"# comment\nid pos-2\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n\
            perft 1 48\nperft 2 2039\n\nid prison\nepd 2b5/kpPp4/1p1P4/1P6/6p1/4p1P1/4PpPK/5B2 w - -\nperft 32 1\n";
        let parsed = parse_suite(text);
        assert_eq!(parsed.errors, vec![]);
        assert_eq!(parsed.entries.len(), 2);
        assert_eq!(parsed.entries[0].id.as_deref(), Some("pos-2"));
        assert_eq!(parsed.entries[0].line, 3);
        assert_eq!(parsed.entries[0].counts, vec![(1, 48), (2, 2039)]);
        assert_eq!(parsed.entries[1].counts, vec![(32, 1)]);
    }

    #[test]
    fn bad_lines_are_reported_and_the_rest_is_read() {
        let text = "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 x\n\
            8/8/8/8/8/8/8/K6k w - - 0 1 ;D0 1\n\
            8/8/8/8/8/8/8/K6k w - - 0 1 ;D1000 1\n\
            8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 340282366920938463463374607431768211456\n\
            8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D1 4\n\
            8/8/8/8/8/8/8/K6k w ;D1 3\n\
            perft 1 20\n\
            8/8/8/8/8/8/8/K6k w - - 0\x001 ;D1 3\n\
            8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3\n";
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(b"\xff\xfe garbage\n");
        let parsed = parse_suite(&bytes);
        let lines: Vec<usize> = parsed.errors.iter().map(|e| e.line).collect();
        // Depth 0 is a count (perft(0) = 1); a bad count refuses itself,
        // not its line, whose other counts are read.
        assert_eq!(lines, vec![1, 3, 4, 5, 6, 7, 8, 10], "{:#?}", parsed.errors);
        let entries: Vec<(usize, Vec<(u32, u128)>)> =
            parsed.entries.iter().map(|e| (e.line, e.counts.clone())).collect();
        assert_eq!(
            entries,
            vec![
                (1, vec![]),
                (2, vec![(0, 1)]),
                (3, vec![]),
                (4, vec![]),
                (5, vec![(1, 3)]),
                (9, vec![(1, 3)])
            ]
        );
    }

    #[test]
    fn empty_and_enormous_input() {
        assert_eq!(parse_suite(b""), ParsedSuite::default());
        let long = vec![b'8'; MAX_LINE_BYTES + 1];
        let parsed = parse_suite(&long);
        assert_eq!(parsed.errors.len(), 1);
        assert!(parsed.errors[0].message.contains("too long"));
    }
}
