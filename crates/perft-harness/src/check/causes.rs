//! Wrong counts grouped by cause: one engine bug usually shows as hundreds
//! of wrong counts, all bisected to the same kind of fault. A cause is what
//! the faults come down to: missing moves by kind, extra moves by why they
//! are illegal (so a perft that never tests king safety is one cause,
//! whatever pieces move), moves listed twice, a count that differs where
//! the move list agrees (by its likeliest candidates), or answers that
//! contradict each other. Each cause is named once, with its smallest
//! example.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};

use super::CheckResult;
use crate::bisect::{
    classify, dropped_classes, illegal_by_kind, Bisection, Family, MoveClass, Tag, Why, TERMINAL_NODE,
};
use crate::board::{Board, CastlingMode, FenOptions};
use crate::types::PieceKind;

pub use crate::bisect::Fault;

/// What a wrong count comes down to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum CauseKey {
    /// The engine's move list differs from ours.
    Moves {
        /// Kinds of legal moves it does not generate.
        missing: BTreeSet<MoveClass>,
        /// What the illegal moves it generates come down to.
        illegal: BTreeSet<Family>,
        /// It lists a move more than once.
        duplicated: bool,
    },
    /// Its move list agrees (or cannot be read) but its count one ply deep
    /// does not.
    Count {
        /// Whether it counts more or fewer.
        fault: Fault,
        /// What the candidates come down to: for a count too high, the
        /// family of the illegal moves that may explain it; for one too
        /// low, the kind of legal move whose number fits, if one does.
        likely: Option<String>,
    },
    /// It answered one question two ways.
    Inconsistent,
    /// It counts a position without legal moves (checkmate or stalemate)
    /// as a node: its divide does, where asked directly it counts it
    /// right, or its counts here, at siblings and variants say so.
    TerminalNode,
    /// Each child of a position, asked alone, counts right, and so does
    /// the position one ply deep, yet its total there is off: it adds its
    /// counts up wrong, or carries state from move to move that a FEN of
    /// the child does not give.
    NotTheSum,
    /// Bisected to a position, but no move named there: grouped by the
    /// first thing (in report order) that position exercises.
    Position {
        /// That tag, as named in reports (none when it exercises nothing
        /// special).
        exercises: Vec<String>,
    },
    /// Not bisected: why.
    NotBisected {
        /// The reason, in a short line.
        reason: String,
    },
    /// Several causes, each met only at Chess960 positions with castling
    /// rights: one inability to read Chess960 castling, told once (the
    /// causes it joins, in words).
    Chess960 {
        /// The causes joined.
        joined: BTreeSet<String>,
    },
}

fn list(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(", ")
}

/// The kinds of legal moves an engine does not generate, in its author's
/// words: `promotion to a rook missing`; where the pieces left out say
/// more, that too (`... missing (only promotions to a queen: no
/// underpromotions)`).
fn missing_text(missing: &BTreeSet<MoveClass>) -> String {
    use crate::bisect::PromotionPiece::{Bishop, Knight, Queen, Rook};
    let promotions: Vec<_> = [Knight, Bishop, Rook, Queen]
        .into_iter()
        .filter(|&piece| missing.contains(&MoveClass::Promotion(piece)))
        .collect();
    let text = format!("{} missing", list(missing.iter().map(ToString::to_string)));
    match promotions.as_slice() {
        [Knight, Bishop, Rook] => format!("{text} (only promotions to a queen: no underpromotions)"),
        [Knight, Bishop, Rook, Queen] => format!("{text} (no promotions at all)"),
        _ => text,
    }
}

impl std::fmt::Display for CauseKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CauseKey::Moves { missing, illegal, duplicated } => {
                let mut parts = Vec::new();
                if !missing.is_empty() {
                    parts.push(missing_text(missing));
                }
                // The classic bugs are named as such; the broad families
                // as what the extra moves are.
                let (named, broad): (Vec<&Family>, Vec<&Family>) =
                    illegal.iter().partition(|f| !matches!(f, Family::KingSafety | Family::NotPseudoLegal));
                parts.extend(named.iter().map(ToString::to_string));
                if !broad.is_empty() {
                    parts.push(format!("extra (illegal) {}", list(broad.iter().map(ToString::to_string))));
                }
                if *duplicated {
                    parts.push("a move listed twice".into());
                }
                f.write_str(&parts.join("; "))
            }
            CauseKey::Count { fault, likely } => {
                let how = match fault {
                    Fault::Extra => "counts more moves one ply deep than there are",
                    Fault::Missing => "counts fewer moves one ply deep than there are",
                };
                match (fault, likely) {
                    (Fault::Extra, Some(family)) => write!(f, "{how}: {family}"),
                    (Fault::Missing, Some(kind)) => write!(f, "{how}: likely {kind}"),
                    (_, None) => f.write_str(how),
                }
            }
            CauseKey::Inconsistent => {
                f.write_str("inconsistent: the engine answered the same question two ways")
            }
            CauseKey::TerminalNode => {
                f.write_str("counts a terminal position (checkmate or stalemate: no legal moves) as a node")
            }
            CauseKey::NotTheSum => f.write_str(
                "its total is not the sum of its counts of the children, each asked alone: it adds its \
                 counts up wrong, or carries state from move to move that a FEN does not give (an \
                 en-passant square or castling right kept too long, say)",
            ),
            CauseKey::Position { exercises } if exercises.is_empty() => {
                f.write_str("wrong count (no divide to name the moves)")
            }
            CauseKey::Position { exercises } => write!(
                f,
                "wrong count at positions exercising {} (no divide to name the moves)",
                exercises.join(", ")
            ),
            CauseKey::NotBisected { reason } => write!(f, "not bisected: {reason}"),
            CauseKey::Chess960 { joined } => write!(
                f,
                "wrong counts only at Chess960 positions with castling rights, {} ways: it may not read \
                 Chess960 castling (X-FEN or Shredder-FEN); if it does not play Chess960, say so with no960",
                joined.len()
            ),
        }
    }
}

/// One cause and the wrong counts it explains.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cause {
    /// What the counts come down to.
    pub key: CauseKey,
    /// `key` in words, with the kinds of move seen (`... (king stepping
    /// into an attack, pinned piece leaving its line)`).
    pub description: String,
    /// Wrong counts it explains.
    pub failures: usize,
    /// Test positions (file and line) they are at.
    pub positions: usize,
    /// Index in the results of the smallest example: the one bisected to
    /// the fewest pieces at the least depth.
    pub example: usize,
    /// Indexes in the results of every wrong count of this cause.
    pub results: Vec<usize>,
}

/// The result that was bisected for a failing result: itself, or the same
/// position's count at its bisected depth.
pub fn bisected_result(results: &[CheckResult], index: usize) -> &CheckResult {
    let result = &results[index];
    result
        .bisected_at
        .filter(|_| result.bisection.is_none())
        .and_then(|depth| {
            results.iter().find(|r| r.file == result.file && r.line == result.line && r.depth == depth)
        })
        .unwrap_or(result)
}

/// The bisection of a failing result: its own, or that of the same
/// position's bisected depth.
pub fn bisection_of(results: &[CheckResult], index: usize) -> Option<&Bisection> {
    bisected_result(results, index).bisection.as_ref()
}

/// The first line of an error, without the engine's output.
fn short_reason(error: &str) -> String {
    let first = error.lines().next().unwrap_or("no bisection");
    let first = first.strip_suffix("; its last output:").unwrap_or(first);
    crate::board::whole_sentences(first, 100)
}

/// The key of one failing result.
fn key_of(results: &[CheckResult], index: usize) -> CauseKey {
    let Some(bisection) = bisection_of(results, index) else {
        let reason = results[index].bisection_error.as_deref().map_or("no bisection".into(), short_reason);
        return CauseKey::NotBisected { reason };
    };
    if let Some(inconsistent) = &bisection.inconsistent {
        if inconsistent.terminal.is_some() {
            return CauseKey::TerminalNode;
        }
        return CauseKey::Inconsistent;
    }
    if let Some(candidates) = &bisection.candidates {
        if candidates.likely.as_deref() == Some(TERMINAL_NODE) {
            return CauseKey::TerminalNode;
        }
        let likely = match candidates.fault {
            Fault::Extra => candidates.family().map(|family| family.to_string()),
            Fault::Missing => candidates.likely.clone(),
        };
        return CauseKey::Count { fault: candidates.fault, likely };
    }
    if !bisection.moves_known && children_sum_right(bisection) {
        return CauseKey::NotTheSum;
    }
    if !bisection.moves_known {
        // Grouped by the first of its tags in report order (en passant,
        // castling, ...: the rarer features first), so one bug met in
        // positions that also exercise other things stays one cause.
        let first = Tag::ALL.iter().find(|tag| bisection.tags.contains(tag));
        return CauseKey::Position { exercises: first.map(ToString::to_string).into_iter().collect() };
    }
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let Ok(board) = Board::from_fen_with(&bisection.fen, options) else {
        return CauseKey::NotBisected { reason: format!("unreadable bisected position {}", bisection.fen) };
    };
    CauseKey::Moves {
        missing: missing_by_mechanism(&board, &bisection.missing),
        illegal: bisection.illegal.iter().map(|m| m.why.unwrap_or(Why::NotPseudoLegal).family()).collect(),
        duplicated: !bisection.duplicates.is_empty(),
    }
}

/// Whether the bisection ended where the children's counts, and the count
/// one ply deep, agree with ours but the total over them does not.
fn children_sum_right(bisection: &Bisection) -> bool {
    let mut steps = bisection.steps.iter().rev();
    match (steps.next(), steps.next()) {
        (Some(last), Some(parent)) => last.theirs == last.ours && parent.theirs != parent.ours,
        _ => false,
    }
}

/// The kinds of the legal moves an engine misses at `board`, by why it
/// misses them: in check, when they are all plain pawn and piece moves,
/// they are the moves that stop the check by a block or a capture, one kind whatever moves
/// (an engine that does not stop checks that way misses pawn and piece
/// moves alike, and is one cause).
fn missing_by_mechanism(board: &Board, missing: &[String]) -> BTreeSet<MoveClass> {
    let classes: BTreeSet<MoveClass> = missing.iter().map(|m| classify(board, m)).collect();
    // Promotions, en passant and castling keep their kinds: an engine
    // missing those misses them in check or not.
    let evasion =
        |class: &MoveClass| matches!(class, MoveClass::Pawn | MoveClass::Piece | MoveClass::DoublePush);
    if board.is_check() && !classes.is_empty() && classes.iter().all(evasion) {
        return BTreeSet::from([MoveClass::Evasion]);
    }
    classes
}

/// Whether the engine, at the position in check where `index`'s bisection
/// ended, misses every legal move but the king's (and nothing else).
fn only_the_king_moves(results: &[CheckResult], index: usize) -> bool {
    let Some(bisection) = bisection_of(results, index) else { return false };
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let Ok(board) = Board::from_fen_with(&bisection.fen, options) else { return false };
    let king =
        |mv: &crate::types::Move| board.piece_on(mv.from()).is_some_and(|p| p.kind() == PieceKind::King);
    let others: BTreeSet<String> =
        board.legal_moves().iter().filter(|mv| !king(mv)).map(|&mv| board.uci(mv)).collect();
    let missing: BTreeSet<String> = bisection.missing.iter().cloned().collect();
    board.is_check() && !missing.is_empty() && missing == others
}

/// How good an example is, best first: bisected (and not to an
/// inconsistency, where the cause is another: see
/// [`join_terminal_counts`]), then the fewest moves it leaves in doubt
/// (none where the moves are named, one where the engine singled one out,
/// else one more than its likeliest candidates) and kinds of move that
/// fit its counts, then pieces on the board where the bisection ended, the
/// depth counted there and the plies to reach it.
fn size(result: &CheckResult) -> (u32, usize, usize, u32, usize, u32) {
    match &result.bisection {
        Some(b) => {
            let pieces =
                b.fen.split(' ').next().map_or(0, |p| p.chars().filter(char::is_ascii_alphabetic).count());
            let in_doubt = b.candidates.as_ref().map_or(0, |c| match c.singled_out {
                Some(_) if c.likely.is_some() => 1,
                _ => c.likeliest().len().max(1) + 1,
            });
            let kinds = b.candidates.as_ref().map_or(0, |c| c.fits.len().max(1));
            (u32::from(b.inconsistent.is_some()), in_doubt, kinds, pieces as u32, b.path.len(), b.depth)
        }
        None => (2, usize::MAX, usize::MAX, u32::MAX, usize::MAX, result.depth),
    }
}

/// The kinds of illegal move a cause's bisections met, rarest first, in
/// words.
fn illegal_kinds(results: &[CheckResult], indexes: &[usize]) -> Vec<String> {
    let seen: BTreeSet<Why> = indexes
        .iter()
        .filter_map(|&i| bisection_of(results, i))
        .flat_map(|b| b.illegal.iter().filter_map(|m| m.why))
        .collect();
    // A family with one kind says it all already.
    let said = |why: &Why| matches!(why.family(), Family::CastlingPath | Family::EnPassantSquare);
    Why::BY_LIKELIHOOD.iter().filter(|w| seen.contains(w) && !said(w)).map(ToString::to_string).collect()
}

/// The likeliest kinds of candidates a cause's bisections named, in words:
/// those a variant or sibling singled out, or, where none was, every kind
/// that alone numbered the difference.
fn likely_kinds(results: &[CheckResult], indexes: &[usize]) -> Vec<String> {
    let named: Vec<(bool, String)> = indexes
        .iter()
        .filter_map(|&i| bisection_of(results, i)?.candidates.as_ref())
        .filter_map(|c| Some((c.singled_out.is_some(), c.likely.clone()?)))
        .collect();
    let any_singled_out = named.iter().any(|(singled_out, _)| *singled_out);
    let mut kinds: Vec<String> = Vec::new();
    for (_, likely) in named.into_iter().filter(|(singled_out, _)| *singled_out || !any_singled_out) {
        if !kinds.contains(&likely) {
            kinds.push(likely);
        }
    }
    kinds.iter().map(|kind| format!("likely {kind}")).collect()
}

/// Counts too low one ply deep, by the kind of move they lack: one that
/// several kinds fit (say an en passant that is also the only capture of
/// the checker) is the kind most other counts single out; and a kind that
/// a move list names missing elsewhere is that cause (one bug, seen by its
/// counts at some positions and by its divide at others).
fn join_missing_counts(results: &[CheckResult], failing: &[usize], keys: &mut [CauseKey]) {
    let mut claimed: BTreeMap<String, usize> = BTreeMap::new();
    for key in keys.iter() {
        if let CauseKey::Count { fault: Fault::Missing, likely: Some(kind) } = key {
            *claimed.entry(kind.clone()).or_insert(0) += 1;
        }
    }
    for (key, &index) in keys.iter_mut().zip(failing) {
        let CauseKey::Count { fault: Fault::Missing, likely: likely @ None } = key else { continue };
        let fits = bisection_of(results, index).and_then(|b| b.candidates.as_ref()).map(|c| c.fits.clone());
        *likely = fits
            .unwrap_or_default()
            .into_iter()
            .filter(|k| claimed.contains_key(k))
            .max_by_key(|k| claimed[k]);
    }
    let named: Vec<BTreeSet<MoveClass>> = keys
        .iter()
        .filter_map(|key| match key {
            CauseKey::Moves { missing, illegal, duplicated: false } if illegal.is_empty() => {
                Some(missing.clone())
            }
            _ => None,
        })
        .collect();
    for key in keys.iter_mut() {
        let CauseKey::Count { fault: Fault::Missing, likely: Some(kind) } = key else { continue };
        let Some(classes) = dropped_classes(kind) else { continue };
        let classes: BTreeSet<MoveClass> = classes.iter().copied().collect();
        if named.contains(&classes) {
            *key = CauseKey::Moves { missing: classes, illegal: BTreeSet::new(), duplicated: false };
        }
    }
}

/// Counts too high one ply deep that no family claims (several fit, or
/// one move too many with no move list to tell): where the kinds that fit
/// every count it gave are of one family that other counts claim, that
/// cause (one bug, singled out at some positions and not at others).
fn join_extra_counts(results: &[CheckResult], failing: &[usize], keys: &mut [CauseKey]) {
    let mut claimed: BTreeMap<String, usize> = BTreeMap::new();
    for key in keys.iter() {
        if let CauseKey::Count { fault: Fault::Extra, likely: Some(family) } = key {
            *claimed.entry(family.clone()).or_insert(0) += 1;
        }
    }
    for (key, &index) in keys.iter_mut().zip(failing) {
        let CauseKey::Count { fault: Fault::Extra, likely: likely @ None } = key else { continue };
        let Some(candidates) = bisection_of(results, index).and_then(|b| b.candidates.as_ref()) else {
            continue;
        };
        let families: Vec<String> = candidates.fitting_families().iter().map(ToString::to_string).collect();
        if let [family] = &families[..] {
            *likely = claimed.contains_key(family).then(|| family.clone());
        }
    }
}

/// Terminal positions a divide counted as one node, where that one node is
/// another cause met at a position that happens to have no legal moves:
/// a divide off elsewhere too, at positions with moves (the one is its
/// error, not the terminal's), or moves that leave the king in check
/// counted elsewhere, where the terminal position has that one such move.
fn join_terminal_counts(results: &[CheckResult], failing: &[usize], keys: &mut [CauseKey]) {
    let inconsistent = keys.contains(&CauseKey::Inconsistent);
    let unsafe_key = |key: &CauseKey| {
        matches!(key, CauseKey::Count { fault: Fault::Extra, likely: Some(family) }
            if *family == Family::KingSafety.to_string())
    };
    let king_safety = keys.iter().find(|key| unsafe_key(key)).cloned();
    for (key, &index) in keys.iter_mut().zip(failing) {
        if *key != CauseKey::TerminalNode {
            continue;
        }
        if inconsistent {
            *key = CauseKey::Inconsistent;
        } else if let Some(king_safety) = king_safety.as_ref().filter(|_| one_unsafe_move(results, index)) {
            *key = king_safety.clone();
        }
    }
}

/// Whether the terminal position where `index`'s bisection ended has
/// exactly as many pseudo-legal moves of one kind that leave the king in
/// check (king steps into an attack, say) as the engine counted there.
fn one_unsafe_move(results: &[CheckResult], index: usize) -> bool {
    let Some(bisection) = bisection_of(results, index) else { return false };
    let Some(inconsistent) = &bisection.inconsistent else { return false };
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    let Ok(board) = Board::from_fen_with(&bisection.fen, options) else { return false };
    illegal_by_kind(&board, &bisection.fen)
        .into_iter()
        .any(|(why, moves)| why.family() == Family::KingSafety && moves == inconsistent.first)
}

/// The wrong counts in `results` (not the engine errors), grouped by cause,
/// the cause with the most wrong counts first.
pub fn group_by_cause(results: &[CheckResult]) -> Vec<Cause> {
    let mut causes: Vec<Cause> = Vec::new();
    let failing: Vec<usize> =
        (0..results.len()).filter(|&i| !results[i].ok && results[i].error.is_none()).collect();
    let mut keys: Vec<CauseKey> = failing.iter().map(|&i| key_of(results, i)).collect();
    // An engine seen to miss plain blocks and captures of a checker misses
    // its en-passant and promotion evasions for the same reason: where a
    // position in check lacks every move but the king's, that is the cause.
    let evasion = BTreeSet::from([MoveClass::Evasion]);
    let evades = |key: &CauseKey| matches!(key, CauseKey::Moves { missing, .. } if *missing == evasion);
    if keys.iter().any(evades) {
        for (key, &index) in keys.iter_mut().zip(&failing) {
            if let CauseKey::Moves { missing, .. } = key {
                if only_the_king_moves(results, index) {
                    *missing = evasion.clone();
                }
            }
        }
    }
    join_missing_counts(results, &failing, &mut keys);
    join_extra_counts(results, &failing, &mut keys);
    join_terminal_counts(results, &failing, &mut keys);
    for (key, index) in keys.into_iter().zip(failing) {
        match causes.iter_mut().find(|c| c.key == key) {
            Some(cause) => cause.results.push(index),
            None => causes.push(Cause {
                description: key.to_string(),
                key,
                failures: 0,
                positions: 0,
                example: index,
                results: vec![index],
            }),
        }
    }
    for cause in &mut causes {
        cause.failures = cause.results.len();
        let places: BTreeSet<(&str, usize)> =
            cause.results.iter().map(|&i| (results[i].file.as_str(), results[i].line)).collect();
        cause.positions = places.len();
        cause.example =
            cause.results.iter().copied().min_by_key(|&i| size(&results[i])).unwrap_or(cause.example);
        let kinds = match &cause.key {
            CauseKey::Count { fault: Fault::Extra, .. } => likely_kinds(results, &cause.results),
            _ => illegal_kinds(results, &cause.results),
        };
        if !kinds.is_empty() {
            cause.description = format!("{} ({})", cause.description, kinds.join(", "));
        }
    }
    let mut causes = join_chess960(results, causes);
    causes.sort_by(|a, b| b.failures.cmp(&a.failures).then(a.results[0].cmp(&b.results[0])));
    causes
}

/// Whether a result's test position is Chess960 with castling rights.
fn castles_chess960(result: &CheckResult) -> bool {
    let options = FenOptions { castling: CastlingMode::Detect, relaxed: true };
    Board::from_fen_with(&result.fen, options)
        .is_ok_and(|b| b.is_chess960() && b.castling_rights() != crate::types::CastlingRights::NONE)
}

/// Two or more causes met only at Chess960 positions with castling rights
/// are one: the engine does not read Chess960 castling (a bug in it shows
/// in many ways), told once.
fn join_chess960(results: &[CheckResult], causes: Vec<Cause>) -> Vec<Cause> {
    let (only_960, mut rest): (Vec<Cause>, Vec<Cause>) =
        causes.into_iter().partition(|c| c.results.iter().all(|&i| castles_chess960(&results[i])));
    if only_960.len() < 2 {
        rest.extend(only_960);
        return rest;
    }
    let joined: BTreeSet<String> = only_960.iter().map(|c| c.description.clone()).collect();
    let mut indexes: Vec<usize> = only_960.iter().flat_map(|c| c.results.iter().copied()).collect();
    indexes.sort_unstable();
    let places: BTreeSet<(&str, usize)> =
        indexes.iter().map(|&i| (results[i].file.as_str(), results[i].line)).collect();
    let key = CauseKey::Chess960 { joined };
    rest.push(Cause {
        description: key.to_string(),
        failures: indexes.len(),
        positions: places.len(),
        example: indexes.iter().copied().min_by_key(|&i| size(&results[i])).unwrap_or(indexes[0]),
        results: indexes,
        key,
    });
    rest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bisect::PromotionPiece;

    #[test]
    fn moves_are_classified_in_their_position() {
        let board = |fen: &str| {
            Board::from_fen_with(fen, FenOptions { castling: CastlingMode::Detect, relaxed: true }).unwrap()
        };
        let ep = board("8/k7/8/6Pp/8/8/8/K7 w - h6 0 3");
        assert_eq!(classify(&ep, "g5h6"), MoveClass::EnPassant);
        assert_eq!(classify(&ep, "g5g6"), MoveClass::Pawn);
        assert_eq!(classify(&ep, "a1b1"), MoveClass::King);
        assert_eq!(classify(&ep, "h5h4"), MoveClass::Unreadable, "not the side to move's piece");
        assert_eq!(classify(&ep, "zz"), MoveClass::Unreadable);
        // An illegal en-passant capture (the king on the rank): the board
        // drops the square, the move is still en passant.
        let pinned = board("3k4/8/8/K1Pp3r/8/8/8/8 w - d6 0 2");
        assert_eq!(classify(&pinned, "c5d6"), MoveClass::EnPassant);
        let castle = board("r3k2r/8/8/8/8/8/1p6/R3K2R w KQkq - 0 1");
        assert_eq!(classify(&castle, "e1g1"), MoveClass::Castling);
        assert_eq!(classify(&castle, "e1h1"), MoveClass::Castling, "king takes own rook");
        assert_eq!(classify(&castle, "e1f1"), MoveClass::King);
        assert_eq!(classify(&castle, "a1a2"), MoveClass::Piece);
        let promote = board("4k3/1P6/8/8/8/8/P7/4K3 w - - 0 1");
        assert_eq!(classify(&promote, "b7b8n"), MoveClass::Promotion(PromotionPiece::Knight));
        assert_eq!(classify(&promote, "b7b8q"), MoveClass::Promotion(PromotionPiece::Queen));
        assert_eq!(classify(&promote, "b7b8x"), MoveClass::Unreadable);
        assert_eq!(classify(&promote, "a2a4"), MoveClass::DoublePush);
    }

    #[test]
    fn classic_bugs_are_named_in_the_authors_words() {
        use PromotionPiece::{Bishop, Knight, Rook};
        let key = |missing: &[MoveClass], illegal: &[Family]| {
            let missing = missing.iter().copied().collect();
            let illegal = illegal.iter().copied().collect();
            CauseKey::Moves { missing, illegal, duplicated: false }.to_string()
        };
        let under = [MoveClass::Promotion(Knight), MoveClass::Promotion(Bishop), MoveClass::Promotion(Rook)];
        assert_eq!(
            key(&under, &[]),
            "promotion to a knight, promotion to a bishop, promotion to a rook missing (only promotions to \
             a queen: no underpromotions)"
        );
        assert_eq!(key(&under[2..], &[]), "promotion to a rook missing");
        assert_eq!(key(&[MoveClass::EnPassant, MoveClass::Castling], &[]), "en passant, castling missing");
        assert_eq!(key(&[], &[Family::CastlingRight]), "castling without the right");
        assert_eq!(
            key(&[], &[Family::EnPassantSquare, Family::NotPseudoLegal]),
            "en passant onto a square the position does not give; extra (illegal) moves that are not even \
             pseudo-legal"
        );
    }

    #[test]
    fn causes_read_as_sentences() {
        let key = CauseKey::Moves {
            missing: [MoveClass::EnPassant].into_iter().collect(),
            illegal: [Family::KingSafety].into_iter().collect(),
            duplicated: true,
        };
        assert_eq!(
            key.to_string(),
            "en passant missing; extra (illegal) moves that leave or put their own king in check; a move \
             listed twice"
        );
        let count = CauseKey::Count { fault: Fault::Extra, likely: Some(Family::KingSafety.to_string()) };
        assert_eq!(
            count.to_string(),
            "counts more moves one ply deep than there are: moves that leave or put their own king in check"
        );
        assert_eq!(
            short_reason("exited (signal: 6) before answering; its last output:\nboom"),
            "exited (signal: 6) before answering"
        );
    }

    fn wrong(fen: &str, line: usize) -> CheckResult {
        CheckResult {
            file: "s.epd".into(),
            line,
            id: None,
            fen: fen.into(),
            depth: 2,
            expected: 400,
            expected_from: crate::check::ExpectedFrom::File,
            engine_nodes: Some(399),
            ok: false,
            seconds: 0.0,
            error: None,
            bisection: None,
            bisection_error: None,
            bisected_at: None,
            reproduce: None,
        }
    }

    fn cause(reason: &str, results: Vec<usize>) -> Cause {
        let key = CauseKey::NotBisected { reason: reason.into() };
        Cause {
            description: key.to_string(),
            key,
            failures: results.len(),
            positions: results.len(),
            example: results[0],
            results,
        }
    }

    #[test]
    fn causes_met_only_where_chess960_castling_is_are_one() {
        let results = vec![
            wrong("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 1),
            wrong("2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 2),
            wrong("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
        ];
        // Two causes, each only at Chess960 castling positions, and one elsewhere.
        let causes = vec![cause("a", vec![0]), cause("b", vec![1]), cause("c", vec![2])];
        let joined = join_chess960(&results, causes);
        assert_eq!(joined.len(), 2, "{joined:?}");
        let chess960 = joined.iter().find(|c| matches!(c.key, CauseKey::Chess960 { .. })).unwrap();
        assert_eq!((chess960.failures, chess960.positions, chess960.results.clone()), (2, 2, vec![0, 1]));
        assert!(chess960.description.contains("2 ways"), "{}", chess960.description);
        // One such cause alone is kept as it is.
        let alone = join_chess960(&results, vec![cause("a", vec![0]), cause("c", vec![2])]);
        assert!(alone.iter().all(|c| matches!(c.key, CauseKey::NotBisected { .. })), "{alone:?}");
        // A cause met at a standard position as well is not Chess960's.
        let mixed = join_chess960(&results, vec![cause("a", vec![0, 2]), cause("b", vec![1])]);
        assert!(mixed.iter().all(|c| matches!(c.key, CauseKey::NotBisected { .. })), "{mixed:?}");
    }
}
