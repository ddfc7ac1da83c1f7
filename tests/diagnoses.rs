//! The classic move-generation bugs told in their authors' words: each
//! planted in the buggy engine, checked against the bundled default suite
//! at a small `--max-nodes`, and named by its cause (castling without the
//! right and what should have removed it, castling through pieces, en
//! passant without the square, promotions to a missing piece).

mod common;

use serde_json::Value;

use common::{buggy_path, perft_with_bin as perft};

/// `perft check` of the planted-bug engine with `flags` on the default
/// suite (or `files`), counts of at most `max_nodes`: the exit status, what
/// it printed and its report.
fn check(flags: &str, max_nodes: u32, files: &[&str]) -> (Option<i32>, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("check.json");
    let engine = format!("buggy=uci:{} {flags}", buggy_path().display());
    let output = perft()
        .args(["check", "--timeout", "30", "--max-nodes", &max_nodes.to_string(), "--engine", &engine])
        .args(files)
        .arg("--json")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (output.status.code(), stdout, json)
}

/// [`check`] on one suite file whose lines are `suite`.
fn check_suite(flags: &str, max_nodes: u32, suite: &str) -> (Option<i32>, String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("suite.epd");
    std::fs::write(&path, suite).unwrap();
    check(flags, max_nodes, &[path.to_str().unwrap()])
}

/// The CAUSE lines of a check's output.
fn causes(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("CAUSE ")).collect()
}

/// The illegal moves named in every bisection of the report's first cause.
fn illegal_whys(report: &Value) -> Vec<String> {
    let indexes = report["causes"][0]["results"].as_array().unwrap();
    indexes
        .iter()
        .filter_map(|i| report["results"][i.as_u64().unwrap() as usize].get("bisection"))
        .flat_map(|b| b["illegal"].as_array().unwrap().iter().map(|m| m["why"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn a_right_kept_after_its_rook_is_captured_is_told_with_the_capture() {
    // The default suite's castling-rights positions catch it at depth 2,
    // under a thousand nodes.
    let (code, out, report) = check("--bug castling-rights", 1000, &[]);
    assert_eq!(code, Some(1), "{out}");
    let causes = causes(&out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(
        causes[0].starts_with(
            "CAUSE 1 of 1: castling without the right (the right kept after its rook was captured): "
        ),
        "{out}"
    );
    // The example names the right and the capture that should have removed
    // it, from the moves that led there.
    assert!(out.contains("right went with"), "{out}");
    assert!(out.contains("took the rook on"), "{out}");
    assert_eq!(report["causes"][0]["key"]["illegal"], serde_json::json!(["castling_right"]));
    let whys = illegal_whys(&report);
    assert!(!whys.is_empty() && whys.iter().all(|w| w == "castles_after_rook_captured"), "{whys:?}");
}

#[test]
fn a_count_only_engine_keeping_the_right_gets_the_castle_as_candidate() {
    // Without a divide one ply deep, the count one too high is explained
    // by the castle a lost right would allow. Where castling through check
    // fits as well (line 12), the engine asked with the attacker moved
    // counts right: one cause.
    let suite = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/castling-rights.epd");
    let (code, out, _) = check("--bug castling-rights --no-divide", 1000, &[suite.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
    assert!(
        causes(&out)[0].starts_with(
            "CAUSE 1 of 1: counts more moves one ply deep than there are: castling without the right \
             (likely the right kept after its rook was captured): "
        ),
        "{out}"
    );
    assert!(
        out.contains("e8c8 (the right kept after its rook was captured; black's queenside right went with")
    );
}

#[test]
fn castling_through_pieces_is_told_with_the_pieces() {
    let (code, out, report) = check("--bug castling-path", 10_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    let causes = causes(&out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(
        causes[0].starts_with("CAUSE 1 of 1: castling with pieces between the king and the rook: "),
        "{out}"
    );
    assert!(out.contains("castling needs its path empty"), "{out}");
    let whys = illegal_whys(&report);
    assert!(!whys.is_empty() && whys.iter().all(|w| w == "castles_through_pieces"), "{whys:?}");
}

#[test]
fn en_passant_onto_a_lapsed_square_is_told_with_the_double_push() {
    let (code, out, report) = check("--bug ep-lapse", 10_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    let causes = causes(&out);
    assert_eq!(causes.len(), 1, "{out}");
    assert!(
        causes[0].starts_with("CAUSE 1 of 1: en passant onto a square the position does not give: "),
        "{out}"
    );
    assert!(
        out.contains("pushed that pawn two squares") && out.contains("lapsed after the next move"),
        "{out}"
    );
    let whys = illegal_whys(&report);
    assert!(!whys.is_empty() && whys.iter().all(|w| w == "en_passant_without_square"), "{whys:?}");
}

/// `perft check` of the planted-bug engine given as a bare program (its
/// dialect probed) on the default suite: the exit status and its output.
fn check_bare(flags: &str, max_nodes: u32) -> (Option<i32>, String) {
    let engine = format!("buggy={} {flags}", buggy_path().display());
    let output = perft()
        .args(["check", "--timeout", "30", "--max-nodes", &max_nodes.to_string(), "--engine", &engine])
        .output()
        .unwrap();
    (output.status.code(), String::from_utf8_lossy(&output.stdout).into_owned())
}

#[test]
fn a_probed_engine_keeping_the_square_is_given_the_moves_and_told_the_lapsed_en_passant() {
    // It counts the probe's position reached by moves wrong, and its FEN
    // right: the moves are what it needs to show its bug, so it keeps them.
    let (code, out) = check_bare("--bug ep-lapse", 10_000);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("it carries something across the moves that a FEN does not give"), "{out}");
    assert!(!out.contains("it does not apply the moves"), "{out}");
    let found = causes(&out);
    assert_eq!(found.len(), 1, "{out}");
    assert!(found[0].contains("en passant onto a square the position does not give"), "{out}");
    // Without its divide: one cause still, the lapsed capture its likeliest,
    // and no word of moves that leave the king in check.
    let (code, out) = check_bare("--bug ep-lapse --no-divide", 10_000);
    assert_eq!(code, Some(1), "{out}");
    let found = causes(&out);
    assert_eq!(found.len(), 1, "{out}");
    assert!(found[0].contains("(likely en passant without the en-passant square)"), "{out}");
    assert!(out.contains("the square lapsed after"), "{out}");
    assert!(!out.contains("leave its king in check"), "{out}");
}

#[test]
fn promotions_to_a_missing_piece_are_told_by_the_pieces() {
    let (code, out, _) = check("--bug underpromotion", 10_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(
        causes(&out)[0]
            .contains("promotion to a rook missing (only promotions to a queen: no underpromotions): "),
        "{out}"
    );
    let (code, out, _) = check("--bug rook-promotion", 10_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(causes(&out)[0].starts_with("CAUSE 1 of 1: promotion to a rook missing: "), "{out}");
}

#[test]
fn a_divide_counting_checkmate_as_a_node_is_one_cause_that_says_so() {
    // Before the fool's mate: black's Qh4 mates, and the engine's divide
    // counts the mated position as a node, where asked there it says 0.
    let suite = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2 ;D1 30 ;D2 575 ;D3 17519\n";
    let (code, out, report) = check_suite("--bug mate-node", 100_000, suite);
    assert_eq!(code, Some(1), "{out}");
    let told = causes(&out);
    assert_eq!(told.len(), 1, "{out}");
    assert!(told[0].contains("counts a terminal position (checkmate or stalemate"), "{out}");
    assert!(out.contains("after d8h4 it is checkmate (no legal moves)"), "{out}");
    // No move is blamed: the candidates of a count one ply deep are not given.
    assert!(!out.contains("candidates"), "{out}");
    assert_eq!(report["causes"][0]["key"]["kind"], "terminal_node");
    // Without its divide, its count at the mate is 1 (0 legal), which a
    // king step into an attack fits as well: a variant still mate, where it
    // counts 1 again, tells them apart.
    let (code, out, report) = check_suite("--bug mate-node --no-divide", 100_000, suite);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
    assert_eq!(report["causes"][0]["key"]["kind"], "terminal_node", "{out}");
    assert!(out.contains("likely: it counts this position, which has no legal moves, as one node"), "{out}");
    assert!(!out.contains("leave its king in check"), "no king-safety note: {out}");
    // The same engine without the bug passes.
    let (code, out, _) = check_suite("", 100_000, suite);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_stalemate_with_one_illegal_king_step_is_the_king_step_cause_not_a_terminal_node() {
    // After a3a4 black is stalemated with one king step into an attack
    // (a1b1); the engine's count-only path counts it, so its divide gives
    // that position 1, as an engine counting terminal positions would. The
    // other position shows king steps counted: one cause, the king's.
    let suite =
        "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - ;D2 99\n8/7k/2r5/2Rr4/8/8/2K5/8 w - - 0 1 ;D3 2541\n";
    let (code, out, report) = check_suite("--bug leaf-king", 100_000, suite);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
    assert_eq!(report["causes"][0]["key"]["kind"], "count", "{out}");
    assert!(causes(&out)[0].contains("moves that leave or put their own king in check"), "{out}");
}

#[test]
fn a_total_off_where_every_child_counts_right_says_it_is_not_the_sum() {
    // Its divide three plies deep adds one to its first move: without the
    // divide, each child asked alone counts right and the total does not.
    let suite = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8902\n";
    let (code, out, report) = check_suite("--bug divide-off --no-divide", 100_000, suite);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
    assert_eq!(report["causes"][0]["key"]["kind"], "not_the_sum", "{out}");
    assert!(out.contains("its total is not the sum of its counts of the children"), "{out}");
}

#[test]
fn a_totals_only_engine_is_singled_out_by_its_own_counts_of_the_siblings() {
    // After c7c5 the en passant b5c6 exposes the white king to the rook on
    // h5, and Kb4 walks into the rook on b1: both fit one move too many.
    // The engine counted the positions after black's other moves right,
    // though the white king can walk into a rook there too: not the king,
    // the en passant.
    let suite = "8/2p5/8/KP5r/8/8/8/1r5k b - - 0 1 ;D2 65\n";
    let (code, out, report) = check_suite("--bug leaf-ep-pin --no-divide", 100_000, suite);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("singled out: its counts of the "), "{out}");
    assert!(out.contains("only en passant that exposes its king fits every answer"), "{out}");
    let result = report["results"].as_array().unwrap().iter().find(|r| r.get("bisection").is_some()).unwrap();
    let candidates = &result["bisection"]["candidates"];
    assert_eq!(candidates["moves"][0]["move"], "b5c6", "{out}");
    assert_eq!(candidates["likely"], "en passant that exposes its king", "{out}");
}

/// The first candidate of the report's bisection, its kind, and what the
/// engine was asked to single it out.
fn singled_out(report: &Value) -> (String, String, String) {
    let result = report["results"].as_array().unwrap().iter().find(|r| r.get("bisection").is_some()).unwrap();
    let candidates = &result["bisection"]["candidates"];
    let text = |v: &Value| v.as_str().unwrap_or_default().to_string();
    (text(&candidates["moves"][0]["move"]), text(&candidates["likely"]), text(&candidates["singled_out"]))
}

/// A check of the fake with `flags` on one suite line; it must fail. The
/// output, and what [`singled_out`] reads from the report.
fn check_failing_line(flags: &str, line: &str) -> (String, (String, String, String)) {
    let suite = format!("{line}\n");
    let (code, out, report) = check_suite(flags, 100_000, &suite);
    assert_eq!(code, Some(1), "{out}");
    // Without the bug it passes.
    let (code, passed, _) = check_suite("--no-divide", 100_000, &suite);
    assert_eq!(code, Some(0), "{passed}");
    let found = singled_out(&report);
    (out, found)
}

#[test]
fn a_king_stepping_into_an_attack_is_told_from_a_pinned_rook_by_moving_the_attacker() {
    // Three king steps into the rook on d5 and three moves of the rook
    // pinned on c5 both fit three too many; the pinned rook's moves are the
    // likelier kind. Asked with a rook moved one square, the
    // engine counts as the king steps predict, not as the pin does.
    let (out, (first, likely, how)) =
        check_failing_line("--bug leaf-king --no-divide", "8/7k/2r5/2Rr4/8/8/2K5/8 w - - 0 1 ;D1 8");
    assert!(first.starts_with("c2"), "{out}");
    assert_eq!(likely, "king stepping into an attack", "{out}");
    assert!(how.contains("with the rook on "), "{out}");
    assert!(out.contains("only king stepping into an attack fits every answer"), "{out}");
}

#[test]
fn a_pinned_bishop_is_told_from_castling_into_check_by_a_castling_right_less() {
    // Castling either way lands on an attacked square and the bishop pinned
    // on f2 has two moves off its line: both fit two too many, castling
    // the likelier. Asked with one right less, the engine still counts two
    // too many: the pin, not the castling.
    let (out, (first, likely, how)) =
        check_failing_line("--bug leaf-pin --no-divide", "8/8/8/1k6/8/4b1q1/5B2/R3K2R w KQ - 0 1 ;D1 23");
    assert!(first.starts_with("f2"), "{out}");
    assert_eq!(likely, "pinned piece leaving its line", "{out}");
    assert!(how.contains("without the castling right"), "{out}");
}

#[test]
fn promotions_counted_once_are_told_from_king_moves_by_the_siblings_counted_right() {
    // After the knight leaves b8, white has three king moves and three
    // underpromotions: both fit three too few. After a king move instead,
    // the engine counts the three king moves right: the underpromotions.
    let (out, (first, likely, how)) =
        check_failing_line("--bug leaf-promotion --no-divide", "1n5k/1P6/8/8/8/8/8/K7 b - - 0 1 ;D2 30");
    assert!(first.starts_with("b7b8") && first != "b7b8q", "{out}");
    assert_eq!(likely, "underpromotions", "{out}");
    assert!(how.starts_with("its counts of the "), "{out}");
    assert!(out.contains("only underpromotions fits every answer"), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
}

#[test]
fn a_missing_en_passant_is_confirmed_by_the_position_without_its_square() {
    // One move too few, and the en passant is the only kind with one move:
    // without the move list that alone is no proof. Without the square, the
    // engine counts right: the move it missed went with the square.
    let (out, (first, likely, how)) =
        check_failing_line("--bug leaf-ep --no-divide", "7k/8/8/3pP3/8/8/8/K7 w - d6 0 1 ;D1 5");
    assert_eq!(first, "e5d6", "{out}");
    assert_eq!(likely, "en passant", "{out}");
    assert!(how.contains("without the en-passant square d6"), "{out}");
    assert!(out.contains("only en passant fits every answer"), "{out}");
}

#[test]
fn an_engine_given_with_its_kind_is_told_the_size_of_a_big_check_and_how_to_cut_it() {
    // Not probed, so not timed: the counts and nodes are said all the same,
    // with a --max-nodes that keeps a big check small. It crashes at once,
    // so nothing is counted.
    let dir = tempfile::tempdir().unwrap();
    let suite = dir.path().join("big.epd");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    std::fs::write(&suite, format!("{start} ;D1 20 ;D2 400 ;D3 8902 ;D7 3195901860 ;D8 84998978956\n"))
        .unwrap();
    let engine = format!("crashing=uci:{} --crash-after 0", buggy_path().display());
    let output =
        perft().args(["check", "--timeout", "30", "--engine", &engine]).arg(&suite).output().unwrap();
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(
        out.contains(
            "expected: 5 counts (88.195 billion nodes; the engine was given with its kind, so not timed); \
             smaller: --max-nodes 1000000 (3 counts, 9,322 nodes)"
        ),
        "{out}"
    );
}

#[test]
fn an_engine_that_never_stops_a_check_but_with_its_king_is_one_cause() {
    // Its missing blocks and captures of the checker are pawn moves at some
    // positions, piece moves at others, both at more: one bug, one cause.
    let (code, out, report) = check("--bug no-block", 20_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    let told = causes(&out);
    assert_eq!(told.len(), 1, "{out}");
    assert!(told[0].starts_with("CAUSE 1 of 1: block or capture of the checking piece missing"), "{out}");
    assert_eq!(report["causes"][0]["key"]["missing"], serde_json::json!(["evasion"]), "{out}");
    // Without its divide, its counts one ply deep in check fit the blocks
    // and captures, at some positions the king moves or an en passant as
    // well: still one cause, the one its move lists name.
    let (code, out, report) = check("--bug no-block --no-divide", 5_000, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert_eq!(causes(&out).len(), 1, "{out}");
    assert_eq!(report["causes"][0]["key"]["missing"], serde_json::json!(["evasion"]), "{out}");
}
