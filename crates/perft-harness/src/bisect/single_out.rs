//! Singling out the move among the candidates of a count that differs one
//! ply deep. Each kind of candidate is a hypothesis: "the path that counts
//! the last ply counts every move of this kind" (an illegal kind, for a
//! count too high) or "drops every move of this kind" (a legal kind, for
//! a count too low). Each predicts the engine's count one ply deep at any
//! position: the legal moves there plus, or less, that position's moves of
//! the kind. The evidence is the engine's own answers: its count here, its
//! counts of the sibling positions it already gave, and its counts at
//! small legal variants of the position (no en-passant square, one
//! castling right less, an attacking piece moved one square), each chosen
//! to split the kinds still standing; only positions in check as the node
//! is (or not, as it is not) count, as engines count evasions another way.
//! The kind that fits every answer is named; where several do, they are;
//! where none does, nothing is claimed.

use std::collections::{BTreeMap, BTreeSet};

use super::candidates::{is_of, legal_named, DROPPED, NO_LEGALITY_TEST, TERMINAL_NODE};
use super::classify::MoveClass;
use super::illegal::{illegal_by_kind, Family, Why};
use super::{BisectError, Candidates, Fault, Walk};
use crate::board::{Board, CastlingMode, FenOptions};
use crate::engine::{EngineError, EnginePosition};

/// At most this many variants are asked of the engine per bisection.
const MAX_VARIANTS: usize = 3;

/// A position and the engine's count one ply deep there.
pub(super) struct Answer {
    pub(super) board: Board,
    pub(super) fen: String,
    pub(super) theirs: u128,
}

/// What a position has for the hypotheses: its legal moves, by kind, and
/// its illegal pseudo-legal ones by why.
struct Tally {
    legal: u128,
    by_class: BTreeMap<MoveClass, u128>,
    by_kind: BTreeMap<Why, u128>,
}

impl Tally {
    fn of(board: &Board, fen: &str) -> Tally {
        let by_kind = illegal_by_kind(board, fen);
        let mut by_class = BTreeMap::new();
        let kinds: BTreeSet<MoveClass> =
            DROPPED.iter().flat_map(|(_, classes)| classes.iter().copied()).collect();
        let legal = legal_named(board);
        for named in &legal {
            for &kind in kinds.iter().filter(|&&kind| is_of(board, named.class, kind)) {
                *by_class.entry(kind).or_insert(0) += 1;
            }
        }
        Tally { legal: legal.len() as u128, by_class, by_kind }
    }
}

/// "The engine counts every move of these illegal kinds, and none of
/// these legal ones" (and `shift` moves more, for the one that stands
/// against them all); or, `terminal`, "it counts a position without legal
/// moves as one node, and any other right".
struct Hypothesis {
    adds: Vec<Why>,
    drops: Vec<MoveClass>,
    shift: i128,
    terminal: bool,
    name: String,
}

impl Hypothesis {
    fn of_kinds(adds: Vec<Why>, drops: Vec<MoveClass>, name: &str) -> Hypothesis {
        Hypothesis { adds, drops, shift: 0, terminal: false, name: name.to_string() }
    }

    fn terminal() -> Hypothesis {
        Hypothesis { terminal: true, ..Hypothesis::of_kinds(Vec::new(), Vec::new(), TERMINAL_NODE) }
    }

    /// What stands against a lone kind that fits: for a count too high,
    /// "it counts right" (the node was a one-off); for one too low, "it
    /// misses as many moves anywhere" (moves of some other kind, which a
    /// variant without the kind's moves still lacks).
    fn against(candidates: &Candidates) -> Hypothesis {
        let shift = match candidates.fault {
            Fault::Extra => 0,
            Fault::Missing => -i128::try_from(candidates.difference).unwrap_or(i128::MAX),
        };
        Hypothesis { shift, ..Hypothesis::of_kinds(Vec::new(), Vec::new(), "") }
    }

    fn predicts(&self, tally: &Tally) -> u128 {
        if self.terminal && tally.legal == 0 {
            return 1;
        }
        let added: u128 = self.adds.iter().map(|w| tally.by_kind.get(w).copied().unwrap_or(0)).sum();
        let dropped: u128 = self.drops.iter().map(|c| tally.by_class.get(c).copied().unwrap_or(0)).sum();
        let counted = (tally.legal + added).saturating_sub(dropped);
        u128::try_from(i128::try_from(counted).unwrap_or(i128::MAX).saturating_add(self.shift)).unwrap_or(0)
    }
}

/// A variant of the position, as a FEN, and what was changed, in words.
struct Variant {
    fen: String,
    change: String,
    tally: Tally,
    in_check: bool,
}

/// Asks the engine what is needed to tell the candidates' kinds apart
/// (see the module's doc) and, where the answers rule some out, puts the
/// moves of the kinds left first and says what was asked; where they rule
/// out every kind, the likeliest is no longer claimed. A kind that alone
/// fits the count here is put to one test where it predicts a wrong
/// count. Variants are asked (as FENs, Chess960 or not as `variants_960`
/// says; none when it is `None`) only where the engine counts the node
/// itself the way it counted it wrong.
pub(super) fn single_out(
    walk: &mut Walk,
    node: &Board,
    fen: &str,
    siblings: &[Answer],
    variants_960: Option<bool>,
    candidates: &mut Candidates,
) -> Result<(), BisectError> {
    let here = Tally::of(node, fen);
    let hypotheses = hypotheses(candidates, &here);
    let mut alive: Vec<&Hypothesis> =
        hypotheses.iter().filter(|h| h.predicts(&here) == candidates.counted).collect();
    if alive.is_empty() {
        return Ok(());
    }
    // Engines count in check another way (evasions): only positions in
    // check as the node is, or not as it is not, are evidence.
    let in_check = node.is_check();
    let mut answers: Vec<(Tally, u128)> = siblings
        .iter()
        .filter(|s| s.board.is_check() == in_check)
        .map(|s| (Tally::of(&s.board, &s.fen), s.theirs))
        .collect();
    let mut said = Vec::new();
    let standing = alive.len();
    alive.retain(|h| answers.iter().all(|(tally, theirs)| h.predicts(tally) == *theirs));
    let against = Hypothesis::against(candidates);
    // The siblings tell where they rule a kind out, or confirm the one left.
    if alive.len() < standing || matches!(alive[..], [one] if confirmed(one, &against, &answers)) {
        let positions = if answers.len() == 1 { "position" } else { "positions" };
        said.push(format!("its counts of the {} sibling {positions} it already gave", answers.len()));
    }
    if let Some(chess960) = variants_960 {
        let mut variants = variants(fen, candidates, chess960);
        variants.retain(|v| v.in_check == in_check);
        ask_variants(walk, chess960, variants, &against, &mut alive, &mut answers, &mut said)?;
    }
    candidates.fits = alive.iter().map(|h| h.name.clone()).collect();
    if matches!(alive[..], [one] if one.terminal) {
        // Only it fits the count here, as a kind numbering the difference
        // does.
        candidates.likely = Some(TERMINAL_NODE.to_string());
    }
    if !said.is_empty() {
        conclude(node, &alive, &said, candidates);
    }
    Ok(())
}

/// Asks variants, each the one that splits the kinds left the most, until
/// one kind is left and has fitted an answer somewhere besides the node
/// that `against` does not (or nothing is left to ask).
fn ask_variants(
    walk: &mut Walk,
    chess960: bool,
    mut variants: Vec<Variant>,
    against: &Hypothesis,
    alive: &mut Vec<&Hypothesis>,
    answers: &mut Vec<(Tally, u128)>,
    said: &mut Vec<String>,
) -> Result<(), BisectError> {
    for _ in 0..MAX_VARIANTS {
        let refuted = answers.iter().any(|(tally, theirs)| against.predicts(tally) != *theirs);
        let contenders: Vec<&Hypothesis> = match alive[..] {
            [] => break,
            [one] if confirmed(one, against, answers) => break,
            [one] => vec![one, against],
            // Kinds no variant tells apart are still put to one test together.
            _ if refuted => alive.clone(),
            _ => alive.iter().copied().chain([against]).collect(),
        };
        let Some(index) = best_split(&variants, &contenders) else { break };
        let variant = variants.remove(index);
        let asked = EnginePosition::new(variant.fen.clone(), chess960);
        let theirs = match walk.engine.perft(&asked, 1, walk.timeout) {
            Ok(run) => run.nodes,
            Err(EngineError::Interrupted) => return Err(BisectError::Interrupted),
            Err(_) => break,
        };
        alive.retain(|h| h.predicts(&variant.tally) == theirs);
        let count = if theirs == variant.tally.legal {
            format!("it counts right: {theirs}")
        } else {
            format!("it counts {theirs} ({} legal)", variant.tally.legal)
        };
        said.push(format!("asked {} ({}), {count}", variant.change, variant.fen));
        answers.push((variant.tally, theirs));
    }
    Ok(())
}

/// Whether some answer fits `h` and not `against`.
fn confirmed(h: &Hypothesis, against: &Hypothesis, answers: &[(Tally, u128)]) -> bool {
    answers.iter().any(|(tally, theirs)| h.predicts(tally) == *theirs && against.predicts(tally) != *theirs)
}

/// The candidates as the answers left them: the moves of the kinds that
/// fit every answer first (for a count too low, every legal move of them
/// at `node`), and what was asked.
fn conclude(node: &Board, alive: &[&Hypothesis], said: &[String], candidates: &mut Candidates) {
    let names: Vec<&str> = alive.iter().map(|h| h.name.as_str()).collect();
    let added: BTreeSet<Why> = alive.iter().flat_map(|h| h.adds.iter().copied()).collect();
    let dropped: BTreeSet<MoveClass> = alive.iter().flat_map(|h| h.drops.iter().copied()).collect();
    if candidates.fault == Fault::Extra {
        candidates.moves.sort_by_key(|m| !m.why.is_some_and(|w| added.contains(&w)));
    } else if !dropped.is_empty() {
        let of_kind = |class: MoveClass| dropped.iter().any(|&kind| is_of(node, class, kind));
        let mut moves: Vec<_> = legal_named(node).into_iter().filter(|m| of_kind(m.class)).collect();
        moves.extend(candidates.moves.drain(..).filter(|m| !of_kind(m.class)));
        candidates.moves = moves;
    }
    let verdict = match names[..] {
        [] => {
            candidates.likely = None;
            "no one kind of candidate fits every answer".to_string()
        }
        [one] => {
            candidates.likely = Some(one.to_string());
            format!("only {one} fits every answer")
        }
        _ => {
            candidates.likely = candidates.likely.take().filter(|l| names.contains(&l.as_str()));
            format!("of the kinds, {} fit every answer", names.join(", "))
        }
    };
    candidates.singled_out = Some(format!("{}: {verdict}", said.join("; ")));
}

/// For a count too high, a hypothesis per kind among the candidates, one
/// for every king-safety kind at once where there are several, and at a
/// node without legal moves counted as one, one that counts such nodes;
/// for a count too low, one per kind of legal move engines drop that the
/// node (tallied in `here`) has.
fn hypotheses(candidates: &Candidates, here: &Tally) -> Vec<Hypothesis> {
    if candidates.fault == Fault::Missing {
        let present =
            |classes: &[MoveClass]| classes.iter().any(|c| here.by_class.get(c).is_some_and(|&n| n > 0));
        return DROPPED
            .iter()
            .filter(|(_, classes)| present(classes))
            .map(|(name, classes)| Hypothesis::of_kinds(Vec::new(), classes.to_vec(), name))
            .collect();
    }
    let kinds: BTreeSet<Why> = candidates.moves.iter().filter_map(|m| m.why).collect();
    let ordered: Vec<Why> = Why::BY_LIKELIHOOD.iter().copied().filter(|w| kinds.contains(w)).collect();
    let mut hypotheses: Vec<Hypothesis> =
        ordered.iter().map(|&why| Hypothesis::of_kinds(vec![why], Vec::new(), &why.to_string())).collect();
    let unsafe_kinds: Vec<Why> = ordered.into_iter().filter(|w| w.family() == Family::KingSafety).collect();
    if unsafe_kinds.len() > 1 {
        hypotheses.push(Hypothesis::of_kinds(unsafe_kinds, Vec::new(), NO_LEGALITY_TEST));
    }
    if here.legal == 0 && candidates.counted == 1 {
        hypotheses.push(Hypothesis::terminal());
    }
    hypotheses
}

/// The variant whose predictions split the hypotheses left into the most
/// groups (the first such), if any splits them at all.
fn best_split(variants: &[Variant], alive: &[&Hypothesis]) -> Option<usize> {
    let groups = |v: &Variant| alive.iter().map(|h| h.predicts(&v.tally)).collect::<BTreeSet<u128>>().len();
    let mut best: Option<(usize, usize)> = None;
    for (index, variant) in variants.iter().enumerate() {
        let split = groups(variant);
        if split > 1 && best.is_none_or(|(most, _)| split > most) {
            best = Some((split, index));
        }
    }
    best.map(|(_, index)| index)
}

/// The legal variants of `fen`: without its en-passant square, without
/// each castling right of the side to move in turn, and with each piece the candidates name
/// as an attacker moved one square to an empty one.
fn variants(fen: &str, candidates: &Candidates, chess960: bool) -> Vec<Variant> {
    let fields: Vec<&str> = fen.split(' ').collect();
    let with = |index: usize, value: &str| {
        let mut changed = fields.clone();
        changed[index] = value;
        changed.join(" ")
    };
    let mut made: Vec<(String, String)> = Vec::new();
    if let Some(square) = fields.get(3).filter(|s| **s != "-") {
        made.push((with(3, "-"), format!("without the en-passant square {square}")));
    }
    if let Some(rights) = fields.get(2).filter(|s| **s != "-") {
        // The other side's rights change nothing one ply deep.
        let white = fields.get(1) == Some(&"w");
        for (index, right) in rights.char_indices().filter(|(_, c)| c.is_ascii_uppercase() == white) {
            let rest = format!("{}{}", &rights[..index], &rights[index + right.len_utf8()..]);
            let rest = if rest.is_empty() { "-".to_string() } else { rest };
            made.push((with(2, &rest), format!("without the castling right {right}")));
        }
    }
    let attackers: BTreeSet<&String> = candidates.moves.iter().flat_map(|m| &m.attackers).collect();
    for attacker in attackers {
        let Some((piece, square)) = attacker.rsplit_once(" on ") else { continue };
        for (to, placement) in moved_one_square(fields[0], square) {
            made.push((with(0, &placement), format!("with the {piece} on {square} moved to {to}")));
        }
    }
    let castling = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Detect };
    let options = FenOptions { castling, relaxed: false };
    made.into_iter()
        .filter_map(|(fen, change)| {
            let board = Board::from_fen_with(&fen, options).ok()?;
            Some(Variant { tally: Tally::of(&board, &fen), in_check: board.is_check(), fen, change })
        })
        .collect()
}

/// The placements with the piece on `square` moved to each empty square
/// next to it, with the square it went to.
fn moved_one_square(placement: &str, square: &str) -> Vec<(String, String)> {
    let mut board = [[None::<char>; 8]; 8];
    for (row, rank) in placement.split('/').enumerate().take(8) {
        let mut file = 0;
        for c in rank.chars() {
            match c.to_digit(10) {
                Some(skip) => file += skip as usize,
                None if file < 8 => {
                    board[row][file] = Some(c);
                    file += 1;
                }
                None => {}
            }
        }
    }
    let bytes = square.as_bytes();
    let (Some(&f), Some(&r)) = (bytes.first(), bytes.get(1)) else { return Vec::new() };
    if bytes.len() != 2 || !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
        return Vec::new();
    }
    let (file, row) = (i32::from(f - b'a'), i32::from(b'8' - r));
    let Some(piece) = board[row as usize][file as usize] else { return Vec::new() };
    let mut moved = Vec::new();
    for (df, dr) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
        let (to_file, to_row) = (file + df, row + dr);
        if !(0..8).contains(&to_file) || !(0..8).contains(&to_row) {
            continue;
        }
        if board[to_row as usize][to_file as usize].is_some() {
            continue;
        }
        let mut changed = board;
        changed[row as usize][file as usize] = None;
        changed[to_row as usize][to_file as usize] = Some(piece);
        let to = format!("{}{}", char::from(b'a' + to_file as u8), char::from(b'8' - to_row as u8));
        moved.push((to, placement_of(&changed)));
    }
    moved
}

/// A FEN placement field from rows, rank 8 first.
fn placement_of(board: &[[Option<char>; 8]; 8]) -> String {
    let rows: Vec<String> = board
        .iter()
        .map(|row| {
            let mut text = String::new();
            let mut empty = 0;
            for square in row {
                match square {
                    Some(c) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(*c);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_moves_one_square_to_each_empty_neighbour() {
        let moved = moved_one_square("4k3/8/8/8/8/8/4B3/4K3", "e2");
        let squares: Vec<&str> = moved.iter().map(|(to, _)| to.as_str()).collect();
        assert_eq!(squares, ["d3", "e3", "f3", "d2", "f2", "d1", "f1"]);
        assert_eq!(moved[0].1, "4k3/8/8/8/8/3B4/8/4K3");
        assert!(moved_one_square("4k3/8/8/8/8/8/4B3/4K3", "e4").is_empty(), "no piece there");
        assert!(moved_one_square("4k3/8/8/8/8/8/4B3/4K3", "z9").is_empty());
    }

    #[test]
    fn variants_take_away_the_square_a_right_of_the_side_to_move_or_move_an_attacker() {
        let fen = "r3k2r/8/8/3pP3/8/8/8/R3K2R w KQkq d6 0 2";
        let board = Board::from_fen(fen).unwrap();
        let candidates = super::super::candidates(&board, fen, 20, 21, false);
        let made: Vec<String> = variants(fen, &candidates, false).into_iter().map(|v| v.change).collect();
        assert!(made.contains(&"without the en-passant square d6".to_string()), "{made:?}");
        assert!(made.contains(&"without the castling right K".to_string()), "{made:?}");
        assert!(made.contains(&"without the castling right Q".to_string()), "{made:?}");
        assert!(!made.iter().any(|m| m.ends_with("right k") || m.ends_with("right q")), "{made:?}");
        // The bishop pinning the knight moves off the diagonal, or along it.
        let fen = "4k3/8/8/1b6/8/3N4/8/5K2 w - - 0 1";
        let board = Board::from_fen(fen).unwrap();
        let candidates = super::super::candidates(&board, fen, 0, 8, false);
        let made: Vec<String> = variants(fen, &candidates, false).into_iter().map(|v| v.change).collect();
        assert!(made.contains(&"with the bishop on b5 moved to a6".to_string()), "{made:?}");
    }
}
