use super::*;

#[test]
fn divide_lines_in_the_common_forms() {
    for line in [
        "e2e4: 20",
        "e2e4 20",
        "e2e4\t20",
        "e2e4\t\t20",
        "e2e4 - 20",
        "e2e4 -- 20 nodes in 1.2µs",
        "e2e4 = 20",
        "e2e4 -> 20",
        "e2e4:20",
        "e2e4: 20 nodes",
        "Move e2e4: 20",
        "move: e2e4 20",
        "move 1 : e2e4 : 20",
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
        "move 1 : 20",
        "",
    ] {
        assert_eq!(parse_divide_line(line), None, "{line:?}");
    }
}

/// The total an answer's lines give, read as an interactive engine's are:
/// the first line that gives one.
fn first_total(format: &AnswerFormat, depth: u32, text: &str) -> Option<u128> {
    let mut reader = format.reader(depth).unwrap();
    text.lines().find_map(|line| match reader.line(line) {
        Said::Total(n) => Some(n),
        _ => None,
    })
}

#[test]
fn totals_in_the_forms_engines_print() {
    let default = AnswerFormat::default();
    for (text, total) in [
        ("e2e4: 20\n\nNodes searched: 400\n", 400),
        ("perft 5: nodes = 4,865,609 in 1.2 s", 4_865_609),
        ("Nodes: 7", 7),
        ("Nodes:\t7", 7),
        ("Total: 400", 400),
        ("Perft total: 400", 400),
        ("Total nodes: 400", 400),
        ("Total nodes:      400", 400),
        ("Nodes searched  : 400", 400),
        ("Moves       197,742", 197_742),
        ("Leaves: 400", 400),
        ("Perft 5 leaf nodes: 4865609", 4_865_609),
        ("perft( 5)=     4865609 ( 0.1 sec)", 4_865_609),
        ("perft(5)=4865609, time: 12ms, nps: 1", 4_865_609),
        ("Perft 5: 4865609 (12 ms, 400 leaves/sec)", 4_865_609),
        ("perft 5 time 12 nodes 4865609 (400 Mnps)", 4_865_609),
        ("info depth 5 nodes 4865609 time 12 nps 400", 4_865_609),
        ("info nodes 4865609 nps 400 time 12", 4_865_609),
        ("4865609 nodes 400 nps", 4_865_609),
        ("4865609 nodes in 12ms - 400Mnodes/s", 4_865_609),
        ("Perft Complete : 4865609 nodes visited in 12ms", 4_865_609),
        ("total moves=4865609  time=0.1", 4_865_609),
        ("5:\t12\t4865609", 4_865_609),
        ("Total leafs: 4865609", 4_865_609),
        ("Total nodes for depth (5) : 4865609", 4_865_609),
        ("info string Info  2026-12-01 10:00:00-000: validNodes    4865609", 4_865_609),
        ("nodes: 4865609 nps: 4000", 4_865_609),
        ("Nodes: 4'865'609", 4_865_609),
    ] {
        assert_eq!(first_total(&default, 5, text), Some(total), "{text:?}");
    }
    // A table of depths is read at the depth asked.
    let table = "Perft 1: 20 (0 ms)\nPerft 2: 400 (0 ms)\nPerft 3: 8902 (1 ms)";
    assert_eq!(first_total(&default, 3, table), Some(8902));
    let infos = "info depth 1 nodes 20 time 1\ninfo depth 2 nodes 400 time 1\ninfo depth 3 nodes 8902 time 1";
    assert_eq!(first_total(&default, 3, infos), Some(8902));
    // A count of moves before the total is not it.
    assert_eq!(first_total(&default, 2, "Moves: 20\ne2e4: 20\nNodes: 400"), Some(400));
    assert_eq!(first_total(&default, 5, "e2e4: 20\ne2e3: 20\nTime: 5 ms"), None);
    let qperft = AnswerFormat { total: Some(r"perft\(\s*{depth}\)\s*=\s*(\d+)".into()), divide: None };
    assert_eq!(find_total(&qperft.total_regex(2).unwrap(), "perft( 1)= 20\nperft( 2)= 400"), Some(400));
}

#[test]
fn totals_without_a_label() {
    let default = AnswerFormat::default();
    // The perftree format: the divide, a blank line, the total.
    assert_eq!(first_total(&default, 2, "e2e4 20\nd2d4 20\n\n40"), Some(40));
    // A bare number alone (Ethereal's `perft N`).
    assert_eq!(first_total(&default, 2, "400"), Some(400));
    // A number equal to the divide's sum, in a line no pattern knows.
    assert_eq!(first_total(&default, 2, "e2e4 20\nd2d4 20\nleaves 40 in 3 ms"), Some(40));
    // A bare number right after a divide it does not add up to is not a
    // total, nor is a number in a line that differs from the sum.
    assert_eq!(first_total(&default, 2, "e2e4 20\nd2d4 20\n41"), None);
    assert_eq!(first_total(&default, 2, "e2e4 20\nd2d4 20\nleaves 41"), None);
    // A custom pattern reads totals alone.
    let custom = AnswerFormat { total: Some(r"leaves (\d+)".into()), divide: None };
    assert_eq!(first_total(&custom, 2, "e2e4 20\nd2d4 20\n\n40\nleaves 40"), Some(40));
    assert_eq!(first_total(&custom, 2, "400"), None);
}

#[test]
fn searches_are_told_from_answers() {
    let default = AnswerFormat::default();
    let mut reader = default.reader(5).unwrap();
    assert_eq!(
        reader.line("info depth 1 seldepth 1 score cp 20 nodes 20 pv e2e4"),
        Said::Search("info depth 1 seldepth 1 score cp 20 nodes 20 pv e2e4".into())
    );
    assert_eq!(reader.line("bestmove e2e4 ponder e7e5"), Said::Search("bestmove e2e4 ponder e7e5".into()));
    assert_eq!(reader.line("Nodes searched: lots"), Said::Unreadable("Nodes searched: lots".into()));
}

#[test]
fn a_divide_per_depth_keeps_the_last() {
    let default = AnswerFormat::default();
    let mut reader = default.reader(2).unwrap();
    for line in ["e2e4: 1", "d2d4: 1", "Nodes: 2", "e2e4: 20", "d2d4: 20"] {
        reader.line(line);
    }
    assert_eq!(reader.finish().0, Some(vec![("e2e4".into(), 20), ("d2d4".into(), 20)]));
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

#[test]
fn any_text_is_read_without_a_panic() {
    let default = AnswerFormat::default();
    let mut reader = default.reader(2).unwrap();
    for line in [
        "a — b",
        "mové e2e4: 20",
        "Movè: 5",
        "é",
        "\u{1F600} 400",
        "e2e4: 2\u{00A0}0",
        "Total: ٤٠٠",
        "Nodes: 40\u{200B}0",
        "move 1\u{2014}: e2e4 : 20",
        "1\u{FF0E} e2e4 20",
    ] {
        let _ = reader.line(line);
        let _ = parse_divide_line(line);
    }
    // Every prefix of a line with multi-byte characters, too.
    let text = "Move é — e2e4: 20 ñodes ∑ 400";
    for end in (0..=text.len()).filter(|&i| text.is_char_boundary(i)) {
        let _ = reader.line(&text[..end]);
        let _ = parse_divide_line(&text[..end]);
    }
}

#[test]
fn a_uci_divide_of_currmove_lines_and_info_strings_are_read() {
    let default = AnswerFormat::default();
    let mut reader = default.reader(2).unwrap();
    let mut total = None;
    for line in [
        "info depth 2 currmove e2e4 currmovenumber 1 nodes 20",
        "info currmove d2d4 currmovenumber 2 nodes 20 time 1",
        "info nodes 40 time 3 nps 13333",
    ] {
        if let Said::Total(n) = reader.line(line) {
            total = Some(n);
        }
    }
    assert_eq!(total, Some(40));
    assert_eq!(reader.finish().0, Some(vec![("e2e4".into(), 20), ("d2d4".into(), 20)]));
    let mut reader = default.reader(1).unwrap();
    assert_eq!(reader.line("info string e2e4: 1"), Said::Nothing);
    assert_eq!(reader.line("info string Nodes searched: 1"), Said::Total(1));
    assert_eq!(reader.finish().0, Some(vec![("e2e4".into(), 1)]));
    // A search's currmove line (with a score) is still a search.
    assert!(matches!(
        default.reader(1).unwrap().line("info depth 1 currmove e2e4 score cp 3 nodes 20"),
        Said::Search(_)
    ));
}

#[test]
fn divide_lines_of_real_engines_are_read() {
    // Berserk (padded), RubiChess, Serendipity, Lynx, Pedantic,
    // dragontoothmg, Carp.
    for line in [
        " e2e4: 20",
        "e2e4 : 20",
        "e2e4:\t20",
        "e2e4\t\t20",
        "e2e4 : 20 : \"fen\"",
        "e2e4   =       20",
        "e2e4 -- 20 nodes in 1.2ms",
    ] {
        assert_eq!(parse_divide_line(line), Some(("e2e4".into(), 20)), "{line:?}");
    }
}

#[test]
fn lines_that_reject_a_position_are_told_from_answers() {
    for line in [
        "fen entered is not valid",
        "Invalid fen!",
        "info string failed to parse FEN: expected halfmove clock part",
        "info string Engine failed to load position.",
        "Error: illegal position",
    ] {
        assert!(is_rejection(line), "{line:?}");
    }
    for line in
        ["e2e4: 20", "Nodes searched: 20", "info depth 1 score cp 3 pv e2e4", "Position key: 1234", "readyok"]
    {
        assert!(!is_rejection(line), "{line:?}");
    }
    let mut reader = AnswerFormat::default().reader(1).unwrap();
    assert_eq!(reader.line("fen entered is not valid"), Said::Rejected("fen entered is not valid".into()));
}
