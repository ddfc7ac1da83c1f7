//! Candidates for a count that differs where the engine's move list
//! agrees with ours (or cannot be read): the path that counts the last
//! ply (bulk counting, often a separate function) differs from the one
//! that lists moves. An extra count comes from moves that are illegal
//! there; a missing one from legal moves of the kinds most often dropped.
//! The kind whose moves number exactly the difference is the likeliest.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::classify::{MoveClass, PromotionPiece};
use super::illegal::{illegal_moves, Family, NamedMove, Why};
use super::Fault;
use crate::board::Board;

/// Moves that may explain a count that differs one ply deep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidates {
    /// `extra`: the engine counts more moves than there are; `missing`:
    /// fewer.
    pub fault: Fault,
    /// By how many.
    pub difference: u128,
    /// The engine's count one ply deep.
    pub counted: u128,
    /// The legal moves there.
    pub legal: u128,
    /// Whether the engine's move list (read from its divide one ply
    /// deeper) agrees with ours; `false` when it printed none.
    pub move_list_agrees: bool,
    /// The count came from the engine's divide one ply up: asked here
    /// directly, it counts right (the divide's last ply is counted another
    /// way).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seen_from_parent: bool,
    /// The candidates, the likeliest first.
    pub moves: Vec<NamedMove>,
    /// The kind of the likeliest, in words: the first kind (rarest first)
    /// whose moves here number exactly the difference.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub likely: Option<String>,
    /// How the engine itself singled out the first candidate: what it was
    /// asked (a variant of the position) and how it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub singled_out: Option<String>,
    /// The kinds that fit every count the engine gave (its count here, and
    /// any sibling or variant it was asked), where they were weighed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fits: Vec<String>,
}

impl Candidates {
    /// What the candidates of a count too high come down to: the family of
    /// the likeliest kind, else the one family all of them share (the
    /// grouping of causes: a count-only path without a king-safety test is
    /// one cause whichever kind fits where).
    pub fn family(&self) -> Option<Family> {
        if self.fault != Fault::Extra {
            return None;
        }
        let families = |moves: Vec<&NamedMove>| {
            let mut families = moves.iter().map(|m| m.why.unwrap_or(Why::NotPseudoLegal).family());
            let first = families.next()?;
            families.all(|f| f == first).then_some(first)
        };
        if self.likely.as_deref() == Some(NO_LEGALITY_TEST) {
            // Every king-safety kind at once (castling with a right taken
            // away is not in it).
            return Some(Family::KingSafety);
        }
        let likeliest = self.likeliest();
        if self.likely.is_some() && !likeliest.is_empty() {
            return families(likeliest);
        }
        families(self.moves.iter().collect())
    }

    /// The families of the illegal kinds that fit every count the engine
    /// gave, where they were weighed (see [`Candidates::fits`]).
    pub fn fitting_families(&self) -> BTreeSet<Family> {
        let family = |name: &String| {
            if name == NO_LEGALITY_TEST {
                return Some(Family::KingSafety);
            }
            Why::BY_LIKELIHOOD.iter().find(|why| why.to_string() == *name).map(|why| why.family())
        };
        self.fits.iter().filter_map(family).collect()
    }

    /// The candidates of the likeliest kind, or all of them; none where
    /// the likeliest is a terminal position counted as a node.
    pub fn likeliest(&self) -> Vec<&NamedMove> {
        if self.likely.as_deref() == Some(TERMINAL_NODE) {
            return Vec::new();
        }
        let likely: Vec<&NamedMove> = match &self.likely {
            Some(kind) => self.moves.iter().filter(|m| kind_of(m) == *kind).collect(),
            None => Vec::new(),
        };
        if likely.is_empty() {
            self.moves.iter().collect()
        } else {
            likely
        }
    }
}

/// A candidate's kind in words: why it is illegal, or what it is.
fn kind_of(named: &NamedMove) -> String {
    named.why.map_or_else(|| named.class.to_string(), |why| why.to_string())
}

/// The likeliest kind where every illegal move here fits the difference:
/// the path makes no legality test at all.
pub(super) const NO_LEGALITY_TEST: &str = "every illegal move (no legality test)";

/// The likeliest kind where the node has no legal moves and is counted as
/// one node (a leaf), and every answer elsewhere is right.
pub const TERMINAL_NODE: &str = "terminal position (no legal moves) counted as a node";

/// Kinds of legal moves engines drop, in the order they are tried: each a
/// name and the classes it takes in.
pub(super) const DROPPED: &[(&str, &[MoveClass])] = &[
    ("en passant", &[MoveClass::EnPassant]),
    ("castling", &[MoveClass::Castling]),
    ("promotion to a knight", &[MoveClass::Promotion(PromotionPiece::Knight)]),
    ("promotion to a bishop", &[MoveClass::Promotion(PromotionPiece::Bishop)]),
    ("promotion to a rook", &[MoveClass::Promotion(PromotionPiece::Rook)]),
    (
        "underpromotions",
        &[
            MoveClass::Promotion(PromotionPiece::Knight),
            MoveClass::Promotion(PromotionPiece::Bishop),
            MoveClass::Promotion(PromotionPiece::Rook),
        ],
    ),
    (
        "promotions",
        &[
            MoveClass::Promotion(PromotionPiece::Knight),
            MoveClass::Promotion(PromotionPiece::Bishop),
            MoveClass::Promotion(PromotionPiece::Rook),
            MoveClass::Promotion(PromotionPiece::Queen),
        ],
    ),
    ("pawn double push", &[MoveClass::DoublePush]),
    ("king move", &[MoveClass::King]),
    ("block or capture of the checking piece", &[MoveClass::Evasion]),
];

/// The candidates at `board` (written `fen`, its en-passant square as
/// given) for a count of `theirs` one ply deep where we count `ours`.
pub fn candidates(board: &Board, fen: &str, ours: u128, theirs: u128, move_list_agrees: bool) -> Candidates {
    let fault = if theirs > ours { Fault::Extra } else { Fault::Missing };
    let difference = theirs.abs_diff(ours);
    let (moves, likely) = match fault {
        Fault::Extra => extra_candidates(board, fen, difference),
        Fault::Missing => missing_candidates(board, difference),
    };
    // Without the engine's move list, one move too many or too few fits
    // any kind with one move here: no kind is claimed on that alone.
    let likely = likely.filter(|_| move_list_agrees || difference > 1);
    Candidates {
        fault,
        difference,
        counted: theirs,
        legal: ours,
        move_list_agrees,
        seen_from_parent: false,
        moves,
        likely,
        singled_out: None,
        fits: Vec::new(),
    }
}

/// The illegal pseudo-legal moves, the likeliest kind first.
fn extra_candidates(board: &Board, fen: &str, difference: u128) -> (Vec<NamedMove>, Option<String>) {
    let mut moves = illegal_moves(board, fen);
    let count = |why: Why| moves.iter().filter(|m| m.why == Some(why)).count() as u128;
    // A path without a legality test makes every pseudo-legal move: the
    // king-safety kinds, not castling with a right taken away.
    let unsafe_kinds = |why: &&Why| why.family() == Family::KingSafety && count(**why) > 0;
    let kinds = Why::BY_LIKELIHOOD.iter().filter(unsafe_kinds).count();
    let pseudo: u128 = Why::BY_LIKELIHOOD.iter().filter(unsafe_kinds).map(|&why| count(why)).sum();
    let likely = if kinds > 1 && pseudo == difference {
        // Every one of them: no legality test at all on that path.
        Some(NO_LEGALITY_TEST.to_string())
    } else {
        Why::BY_LIKELIHOOD.iter().find(|&&why| count(why) == difference).map(ToString::to_string)
    };
    let rank = |m: &NamedMove| {
        let why = m.why.unwrap_or(Why::NotPseudoLegal);
        let fits = likely.as_deref() == Some(why.to_string().as_str());
        (!fits, Why::BY_LIKELIHOOD.iter().position(|&w| w == why))
    };
    moves.sort_by_key(rank);
    (moves, likely)
}

/// The legal moves of the kinds most often dropped: those of the kinds
/// that number exactly the difference, else every one of a rare kind.
fn missing_candidates(board: &Board, difference: u128) -> (Vec<NamedMove>, Option<String>) {
    let named = legal_named(board);
    let of = |classes: &[MoveClass]| {
        let of_kind = |m: &&NamedMove| classes.iter().any(|&kind| is_of(board, m.class, kind));
        named.iter().filter(of_kind).cloned().collect::<Vec<_>>()
    };
    // A kind is claimed only where no other fits as well.
    let fitting: Vec<&(&str, &[MoveClass])> =
        DROPPED.iter().filter(|(_, classes)| of(classes).len() as u128 == difference).collect();
    if let [(name, classes)] = fitting[..] {
        return (of(classes), Some(name.to_string()));
    }
    let classes: Vec<MoveClass> = match fitting[..] {
        [] => DROPPED.iter().take(7).flat_map(|(_, classes)| classes.iter().copied()).collect(),
        _ => fitting.iter().flat_map(|(_, classes)| classes.iter().copied()).collect(),
    };
    (of(&classes), None)
}

/// The classes of legal moves a kind engines drop (by its name in
/// [`Candidates::likely`]) stands for.
pub fn dropped_classes(name: &str) -> Option<&'static [MoveClass]> {
    DROPPED.iter().find(|(kind, _)| *kind == name).map(|(_, classes)| *classes)
}

/// The legal moves at `board`, named by their class.
pub(super) fn legal_named(board: &Board) -> Vec<NamedMove> {
    board
        .legal_moves()
        .iter()
        .map(|&mv| {
            let uci = board.uci(mv);
            NamedMove {
                class: super::classify(board, &uci),
                uci,
                why: None,
                attackers: Vec::new(),
                detail: None,
            }
        })
        .collect()
}

/// Whether a legal move of `class` at `board` is of the kind `kind`
/// stands for: the class itself, or, in check, [`MoveClass::Evasion`] for
/// any move but the king's.
pub(super) fn is_of(board: &Board, class: MoveClass, kind: MoveClass) -> bool {
    match kind {
        MoveClass::Evasion => board.is_check() && !matches!(class, MoveClass::King | MoveClass::Castling),
        _ => class == kind,
    }
}
