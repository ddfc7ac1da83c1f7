//! A Rust engine checked in process: an engine over the cozy-chess crate
//! with planted bugs, found and named as `perft check` names them.

use cozy_chess::util::{display_uci_move, parse_uci_move};
use cozy_chess::{Board, Move, Piece};
use perft_harness::bisect::BisectError;
use perft_harness::rust::{assert_suite, check_suite, debug, Limits, MoveGenerator, Suite, SuiteError};

#[derive(Clone, Copy, PartialEq)]
enum Bug {
    None,
    /// Never promotes to a rook.
    RookPromotions,
    /// Never captures en passant.
    EnPassant,
    /// Panics when asked a position with a queen on h5.
    PanicOnQueenH5,
    /// Its own perft counts one ply deep with a count-only path that
    /// forgets en passant (its move list is right).
    LeafEnPassant,
}

struct Cozy {
    boards: Vec<Board>,
    chess960: bool,
    bug: Bug,
    plays_chess960: bool,
}

impl Cozy {
    fn new(bug: Bug) -> Self {
        Cozy { boards: Vec::new(), chess960: false, bug, plays_chess960: true }
    }

    fn board(&self) -> &Board {
        self.boards.last().expect("a position is set")
    }

    fn moves(&self, drop_en_passant: bool) -> Vec<String> {
        let board = self.board();
        let mut moves = Vec::new();
        board.generate_moves(|set| {
            for mv in set {
                let en_passant = set.piece == Piece::Pawn
                    && mv.from.file() != mv.to.file()
                    && board.piece_on(mv.to).is_none();
                if (self.bug == Bug::RookPromotions && mv.promotion == Some(Piece::Rook))
                    || (drop_en_passant && en_passant)
                {
                    continue;
                }
                let text =
                    if self.chess960 { mv.to_string() } else { display_uci_move(board, mv).to_string() };
                moves.push(text);
            }
            false
        });
        moves
    }
}

impl MoveGenerator for Cozy {
    fn set_fen(&mut self, fen: &str, chess960: bool) -> Result<(), String> {
        let board = Board::from_fen(fen, false).or_else(|_| Board::from_fen(fen, true));
        self.boards = vec![board.map_err(|e| format!("{e:?}"))?];
        self.chess960 = chess960;
        if self.bug == Bug::PanicOnQueenH5 && fen.split('/').nth(3).is_some_and(|rank| rank.ends_with("Q")) {
            panic!("planted panic");
        }
        Ok(())
    }

    fn legal_moves(&mut self) -> Vec<String> {
        self.moves(self.bug == Bug::EnPassant)
    }

    fn make(&mut self, uci: &str) {
        let board = self.board();
        let mv = if self.chess960 { uci.parse::<Move>().ok() } else { parse_uci_move(board, uci).ok() };
        let mut next = board.clone();
        next.play_unchecked(mv.expect("a move in UCI notation"));
        self.boards.push(next);
    }

    fn unmake(&mut self) {
        self.boards.pop();
    }

    fn perft(&mut self, depth: u32) -> u64 {
        match depth {
            0 => 1,
            1 => self.moves(matches!(self.bug, Bug::EnPassant | Bug::LeafEnPassant)).len() as u64,
            _ => {
                let mut nodes = 0;
                for mv in self.legal_moves() {
                    self.make(&mv);
                    nodes += self.perft(depth - 1);
                    self.unmake();
                }
                nodes
            }
        }
    }

    fn plays_chess960(&self) -> bool {
        self.plays_chess960
    }
}

const LIMITS: Limits = Limits { max_depth: None, max_nodes: Some(200_000) };

#[test]
fn a_planted_bug_is_one_cause_with_its_position_moves_and_a_call_that_shows_it_again() {
    let mut engine = Cozy::new(Bug::RookPromotions);
    let check = check_suite(&mut engine, Suite::Bundled("standard"), LIMITS).unwrap();
    assert!(!check.passed());
    assert_eq!(check.causes.len(), 1, "{check}");
    let report = check.to_string();
    assert!(report.starts_with("CAUSE 1 of 1: promotion to a rook missing: "), "{report}");
    assert!(report.contains("missing moves (legal, not generated): "), "{report}");
    assert!(report.contains("standard.epd:"), "{report}");
    assert!(report.lines().last().unwrap().starts_with("standard.epd: "), "{report}");
    // The reproduce line is a call of `debug`, which finds it again.
    let failure = check.failures().find(|r| r.bisection.is_some()).unwrap();
    let call = failure.reproduce.as_deref().unwrap();
    assert!(call.starts_with("perft_harness::rust::debug(&mut engine, "), "{call}");
    let bisection = failure.bisection.as_ref().unwrap();
    let (path, depth) = bisection.reproduce_at();
    let moves: Vec<&str> = path.iter().map(String::as_str).collect();
    let found = debug(&mut engine, &failure.fen, &moves, depth).unwrap();
    assert!(found.to_string().contains("missing moves (legal, not generated): "), "{found}");
    assert!(found.0.missing.iter().all(|m| m.ends_with('r')), "{found}");
    // Fixed, it passes; asked a position it agrees on, debug says so.
    engine.bug = Bug::None;
    assert!(check_suite(&mut engine, Suite::Bundled("standard"), LIMITS).unwrap().passed());
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(matches!(
        debug(&mut engine, start, &["e2e4"], 3),
        Err(BisectError::NoDifference { nodes: 13160, .. })
    ));
}

#[test]
fn a_count_only_path_is_told_from_the_move_list() {
    let mut engine = Cozy::new(Bug::LeafEnPassant);
    let check = check_suite(
        &mut engine,
        Suite::Bundled("ferdy-enpassant"),
        Limits { max_nodes: Some(20_000), ..LIMITS },
    )
    .unwrap();
    assert_eq!(check.causes.len(), 1, "{check}");
    assert!(
        check.causes[0]
            .description
            .starts_with("counts fewer moves one ply deep than there are: likely en passant"),
        "{check}"
    );
    let bisection = check.failures().find_map(|r| r.bisection.as_ref()).unwrap();
    let candidates = bisection.candidates.as_ref().unwrap();
    assert!(candidates.move_list_agrees, "{check}");
}

#[test]
fn a_panic_is_an_error_of_its_count_and_the_check_goes_on() {
    let mut engine = Cozy::new(Bug::PanicOnQueenH5);
    let text = "k7/8/8/7Q/8/8/8/4K3 w - - 0 1 ;D1 26\n4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\n";
    let check = check_suite(&mut engine, Suite::Text { name: "mine.epd", text }, LIMITS).unwrap();
    assert!(!check.passed());
    assert_eq!(check.results.len(), 3);
    assert!(check.results[0].error.as_deref().unwrap().contains("panicked: planted panic"), "{check}");
    assert!(check.results[1..].iter().all(|r| r.ok), "{check}");
    assert!(
        check.to_string().contains("ERROR mine.epd:1: depth 1: exited (panicked: planted panic)"),
        "{check}"
    );
}

#[test]
#[should_panic(expected = "CAUSE 1 of 1: en passant missing")]
fn assert_suite_panics_with_the_report() {
    assert_suite(
        &mut Cozy::new(Bug::EnPassant),
        Suite::Bundled("ferdy-enpassant"),
        Limits { max_nodes: Some(5_000), ..LIMITS },
    );
}

/// A failing `assert_suite` points at the test that called it, not at the
/// harness's own source.
#[test]
fn assert_suite_failure_points_at_the_calling_test() {
    use std::cell::RefCell;
    type Place = Option<(String, u32)>;
    thread_local! {
        /// `Some` while this thread's panic place is wanted: then it holds it.
        static PLACE: RefCell<Option<Place>> = const { RefCell::new(None) };
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let wanted = PLACE.with(|place| {
            let mut place = place.borrow_mut();
            let wanted = place.is_some();
            if wanted {
                *place = Some(info.location().map(|l| (l.file().to_string(), l.line())));
            }
            wanted
        });
        if !wanted {
            previous(info);
        }
    }));
    PLACE.with(|place| *place.borrow_mut() = Some(None));
    let line = line!() + 2;
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        assert_suite(
            &mut Cozy::new(Bug::EnPassant),
            Suite::Bundled("ferdy-enpassant"),
            Limits { max_nodes: Some(5_000), ..LIMITS },
        )
    }));
    let place = PLACE.with(|place| place.borrow_mut().take()).flatten();
    assert!(failed.is_err(), "the buggy engine passed");
    assert_eq!(place, Some((file!().to_string(), line)));
}

#[test]
fn suites_by_name_file_and_text_and_what_is_skipped() {
    let mut engine = Cozy::new(Bug::None);
    assert!(matches!(
        check_suite(&mut engine, Suite::Bundled("nonesuch"), LIMITS),
        Err(SuiteError::UnknownSuite(_))
    ));
    let dir = std::env::temp_dir().join(format!("perft-harness-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.epd");
    std::fs::write(&file, "8/8/8/8/8/8/8/K6k w - - 0 1 ;D1 3 ;D2 9\nnot a fen ;D1 1\n").unwrap();
    let check = check_suite(&mut engine, Suite::File(&file), LIMITS).unwrap();
    assert_eq!((check.results.len(), check.line_errors.len()), (2, 1), "{check}");
    assert!(!check.passed(), "a bad line fails the check");
    std::fs::remove_dir_all(&dir).unwrap();
    // An engine without Chess960 has those positions skipped, not failed.
    engine.plays_chess960 = false;
    let check =
        check_suite(&mut engine, Suite::Bundled("fischer"), Limits { max_nodes: Some(1_000), ..LIMITS })
            .unwrap();
    let chess960 = |r: &&perft_harness::check::CheckResult| {
        r.fen
            .split(' ')
            .nth(2)
            .is_some_and(|c| c.chars().any(|c| c.is_ascii_alphabetic() && !"KQkq".contains(c)))
    };
    assert!(check.skipped > 0 && !check.results.iter().any(|r| chess960(&r)), "{check}");
    assert!(check.passed());
}
