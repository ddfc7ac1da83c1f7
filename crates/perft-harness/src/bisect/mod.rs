//! Finding where another engine's wrong count comes from: compare its
//! divide with ours, descend into a root move whose count differs, and
//! repeat until the position where a move is missing, extra or listed
//! twice; there, say why each extra move is illegal. Where the engine
//! prints no divide, its move list is read one ply deeper, and where that
//! list agrees but the count does not, the moves that may explain it are
//! named as candidates. An engine that answers the same question two ways
//! is reported as inconsistent.

mod candidates;
mod classify;
mod divide;
mod illegal;
mod single_out;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use candidates::{candidates, dropped_classes, Candidates, TERMINAL_NODE};
pub use classify::{classify, tags_for, MoveClass, PromotionPiece, Tag};
use divide::{engine_divide, our_divide, Asker, ListDifference, Next, OurDivide};
pub use illegal::{
    fen_en_passant, illegal_by_kind, illegal_move, illegal_moves, pseudo_legal_moves, Family, NamedMove, Why,
};

use crate::board::Board;
use crate::engine::{Engine, EngineError, EnginePosition, EngineRun};

/// Which way a move is wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// Legal, not generated.
    Missing,
    /// Generated, not legal.
    Extra,
}

/// One level of the descent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BisectStep {
    /// Moves from the test position to this node.
    pub path: Vec<String>,
    /// The node.
    pub fen: String,
    /// Plies counted from it.
    pub depth: u32,
    /// Our count.
    pub ours: u128,
    /// The engine's count.
    pub theirs: u128,
    /// The move descended into next, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
}

/// Which two answers of the engine contradict each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Contradiction {
    /// The same question, asked twice.
    AskedAgain,
    /// A child's count in its parent's divide, and the child asked
    /// directly.
    DivideAndDirect,
}

/// The engine gave two answers to one question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inconsistency {
    /// Which answers.
    pub kind: Contradiction,
    /// Moves from the test position to the position asked.
    pub path: Vec<String>,
    /// Plies counted.
    pub depth: u32,
    /// Its first answer: the check's count (`path` empty), or its count of
    /// the last move of `path` in its divide one ply up.
    pub first: u128,
    /// Its answer asked (again) directly.
    pub then: u128,
    /// Our count.
    pub ours: u128,
    /// The position asked has no legal moves: a divide one ply up that
    /// counts it as a node (while asked directly the engine counts it
    /// right) counts terminal positions as nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminal: Option<Terminal>,
}

/// A position without legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Terminal {
    /// The side to move is in check.
    Checkmate,
    /// It is not.
    Stalemate,
}

impl Terminal {
    /// Whether `board` is one, and which.
    pub fn of(board: &Board) -> Option<Terminal> {
        if !board.legal_moves().is_empty() {
            return None;
        }
        Some(if board.is_check() { Terminal::Checkmate } else { Terminal::Stalemate })
    }
}

impl fmt::Display for Terminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Terminal::Checkmate => "checkmate",
            Terminal::Stalemate => "stalemate",
        })
    }
}

/// Where a wrong count comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bisection {
    /// Moves from the test position to the faulty position, shortest found.
    pub path: Vec<String>,
    /// The faulty position.
    pub fen: String,
    /// Plies counted from it when the difference showed.
    pub depth: u32,
    /// Moves we generate there that the engine does not.
    pub missing: Vec<String>,
    /// Moves the engine generates there that we do not (as it wrote them).
    pub extra: Vec<String>,
    /// Whether the engine's move list there is known (from a divide), so
    /// `missing`, `extra` and `duplicates` are the whole difference.
    pub moves_known: bool,
    /// What the faulty position exercises, and what its differing moves
    /// involve.
    pub tags: Vec<Tag>,
    /// Every level of the descent.
    pub steps: Vec<BisectStep>,
    /// Why each extra move is illegal (in the order of `extra`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub illegal: Vec<NamedMove>,
    /// Moves the engine lists more than once there.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub duplicates: Vec<String>,
    /// The depth of the engine's answer whose divide gave its move list
    /// there (one more than `depth` when it printed no divide at `depth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub listed_at: Option<u32>,
    /// Where the move lists agree (or are unknown) but the count differs:
    /// the moves that may explain it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Candidates>,
    /// The engine answered one question two ways.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inconsistent: Option<Inconsistency>,
    /// The sum of the engine's divide there, when it did not add up to its
    /// total (so its move list was not read from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divide_sum: Option<u128>,
    /// The engine was seen not to apply the moves after the FEN, and was
    /// asked again with the positions reached as FENs.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub asked_by_fen: bool,
    /// The most lines that read as a divide in one of its answers, when
    /// that was more than any position has moves (so not read as one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub oversized_divide: Option<usize>,
}

impl Bisection {
    /// Where a `perft debug` should start (moves from the test position)
    /// and at which depth to show the fault again: one ply deep where the
    /// engine's move list differs in one direction only (asked there, the
    /// difference shows in its count, and `debug` reads its move list one
    /// ply deeper if it prints none), else the depth whose divide named
    /// the moves; for a count seen in a divide one ply up (or answers that
    /// contradict each other there), from that position.
    pub fn reproduce_at(&self) -> (&[String], u32) {
        let from_parent = self.candidates.as_ref().is_some_and(|c| c.seen_from_parent)
            || self.inconsistent.as_ref().is_some_and(|i| !i.path.is_empty());
        if let (true, Some((_, parent))) = (from_parent, self.path.split_last()) {
            return (parent, self.depth + 1);
        }
        let adds = !(self.extra.is_empty() && self.duplicates.is_empty());
        let cancels = !self.missing.is_empty() && adds;
        match self.listed_at {
            Some(listed) if cancels => (&self.path, listed),
            Some(_) => (&self.path, 1),
            None => (&self.path, self.depth),
        }
    }
}

/// Why a bisection stopped without an answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BisectError {
    /// The engine failed at the first question (the position and depth to
    /// bisect).
    #[error("the engine failed at the first question (the test position itself): {0}")]
    FirstQuestion(EngineError),
    /// The engine failed while being asked.
    #[error("the engine failed during bisection: {0}")]
    Engine(EngineError),
    /// Asked a position reached by moves, the engine listed the moves of
    /// a position before them (or the other side's): it does not apply
    /// the moves it is given, and cannot be given FENs instead.
    #[error(
        "the engine did not apply the moves: asked after {path}, it listed {listed}; give it the \
         positions reached as FENs (for a UCI engine, position=position fen {{fen}})"
    )]
    MovesNotApplied {
        /// The moves it was given, in words.
        path: String,
        /// Whose moves it listed.
        listed: String,
    },
    /// The caller's stop flag was raised, during our own counts or while
    /// the engine counted.
    #[error("stopped by an interrupt")]
    Interrupted,
    /// The engine's count agreed with ours when asked again.
    #[error("the engine now agrees ({nodes} nodes at depth {depth}): the difference does not reproduce")]
    NoDifference {
        /// Depth asked.
        depth: u32,
        /// Count both gave.
        nodes: u128,
    },
}

// Not `#[from]`, which would also make it the source and print it twice in
// error chains.
impl From<EngineError> for BisectError {
    fn from(error: EngineError) -> Self {
        match error {
            EngineError::Interrupted => BisectError::Interrupted,
            error => BisectError::Engine(error),
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::Missing => "missing",
            Fault::Extra => "extra",
        })
    }
}

pub(crate) fn position(start: &EnginePosition, path: &[String]) -> EnginePosition {
    let mut moves = start.moves.clone();
    moves.extend(path.iter().cloned());
    EnginePosition { fen: start.fen.clone(), moves, chess960: start.chess960 }
}

/// What to bisect: a count difference of the engine at `depth` below
/// `board`, which the engine knows as `start` (a FEN and moves).
#[derive(Clone, Copy)]
pub struct Target<'a> {
    /// The position.
    pub board: &'a Board,
    /// The position as the engine is given it.
    pub start: &'a EnginePosition,
    /// Plies.
    pub depth: u32,
    /// The engine's answer to this question already (a check's count):
    /// asked again and answered otherwise, the engine is inconsistent.
    pub answered: Option<u128>,
}

/// The descent's state: the engine and what it was asked.
struct Walk<'a, 'b> {
    engine: &'a mut dyn Engine,
    target: &'a Target<'b>,
    timeout: Duration,
    on_step: &'a mut dyn FnMut(&BisectStep),
    steps: Vec<BisectStep>,
    /// The longest oversized divide met (see [`Bisection::oversized_divide`]).
    oversized: Option<usize>,
}

impl Walk<'_, '_> {
    fn ask(&mut self, path: &[String], depth: u32) -> Result<EngineRun, BisectError> {
        let first = self.steps.is_empty() && path.is_empty() && depth == self.target.depth;
        let run = self.engine.perft(&position(self.target.start, path), depth, self.timeout).map_err(
            |e| match e {
                EngineError::Interrupted => BisectError::Interrupted,
                e if first => BisectError::FirstQuestion(e),
                e => BisectError::Engine(e),
            },
        )?;
        if run.divide.is_none() && run.divide_lines > crate::engine::MAX_DIVIDE_LINES {
            self.oversized = self.oversized.max(Some(run.divide_lines));
        }
        Ok(run)
    }

    fn push(&mut self, step: BisectStep) {
        (self.on_step)(&step);
        self.steps.push(step);
    }

    /// The FEN of a node as the engine was given it: the root as written
    /// when no moves led there (it may hold an en-passant square our board
    /// drops), else ours, keeping a pseudo-legal en-passant square.
    fn fen(&self, node: &Board, path: &[String]) -> String {
        position(self.target.start, path).fen_only(node)
    }

    /// The answer: the faulty node, what differs there, and the steps.
    fn found(&mut self, node: &Board, path: Vec<String>, depth: u32, finding: Finding) -> Bisection {
        let fen = self.fen(node, &path);
        let (difference, listed_at) = finding.list.unwrap_or((ListDifference::default(), None));
        let illegal: Vec<NamedMove> = difference.extra.iter().map(|m| illegal_move(node, &fen, m)).collect();
        let mut named: Vec<String> = difference.missing.iter().chain(&difference.extra).cloned().collect();
        named.extend(difference.duplicates.iter().cloned());
        named
            .extend(finding.candidates.iter().flat_map(|c| c.likeliest().into_iter().map(|m| m.uci.clone())));
        let mut tags = tags_for(node, &named);
        let king_safety = |m: &NamedMove| m.why.is_some_and(|w| w.family() == Family::KingSafety);
        let candidate_moves: Vec<&NamedMove> =
            finding.candidates.iter().flat_map(|c| c.likeliest()).collect();
        if illegal.iter().any(king_safety) || candidate_moves.into_iter().any(king_safety) {
            tags.push(Tag::KingSafety);
        }
        tags.sort();
        tags.dedup();
        Bisection {
            fen,
            path,
            depth,
            moves_known: listed_at.is_some(),
            missing: difference.missing,
            extra: difference.extra,
            duplicates: difference.duplicates,
            illegal,
            tags,
            listed_at,
            candidates: finding.candidates,
            inconsistent: finding.inconsistent,
            divide_sum: finding.divide_sum,
            steps: std::mem::take(&mut self.steps),
            asked_by_fen: false,
            oversized_divide: self.oversized,
        }
    }
}

/// What a bisection found at its node.
#[derive(Default)]
struct Finding {
    /// The move lists' difference, and the depth of the divide that gave
    /// the engine's.
    list: Option<(ListDifference, Option<u32>)>,
    candidates: Option<Candidates>,
    inconsistent: Option<Inconsistency>,
    /// The sum of a divide there that did not add up to the total.
    divide_sum: Option<u128>,
}

impl Finding {
    fn listed(difference: ListDifference, depth: u32) -> Finding {
        Finding { list: Some((difference, Some(depth))), ..Finding::default() }
    }
}

/// Bisects a count difference of `engine` (see [`Target`]). At each level
/// it compares the engine's divide with ours; where the move lists differ
/// (a move missing, extra or listed twice), that is the answer. Otherwise
/// it looks one level ahead among the cheapest differing moves for a
/// position whose move list differs, and else descends into the cheapest.
/// Engines without a divide are asked for each child's count; one ply deep,
/// their move list is read from their divide one ply deeper, and a count
/// that differs where the lists agree gets candidates. It never asks
/// depth 0. `on_step` sees each level as it is examined. Our counts run on
/// the current rayon pool and give up (`Interrupted`) once `stop` is
/// raised.
///
/// # Errors
/// [`BisectError`] if the engine fails or agrees when asked again (and
/// had not answered otherwise before).
pub fn bisect(
    engine: &mut dyn Engine,
    target: &Target,
    timeout: Duration,
    stop: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(&BisectStep),
) -> Result<Bisection, BisectError> {
    match descend(engine, target, timeout, stop, on_step) {
        // It drops the moves after the FEN: once more, given FENs.
        Err(BisectError::MovesNotApplied { .. }) if engine.give_positions_as_fens() => {
            let mut bisection = descend(engine, target, timeout, stop, on_step)?;
            bisection.asked_by_fen = true;
            Ok(bisection)
        }
        other => other,
    }
}

/// One descent (see [`bisect`]).
fn descend(
    engine: &mut dyn Engine,
    target: &Target,
    timeout: Duration,
    stop: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(&BisectStep),
) -> Result<Bisection, BisectError> {
    let mut walk = Walk { engine, target, timeout, on_step, steps: Vec::new(), oversized: None };
    let mut at = Node {
        // A clone, not a fork: the moves that led to `board` are kept, so
        // the FEN of a node keeps an en-passant square made by the last.
        board: target.board.clone(),
        path: Vec::new(),
        depth: target.depth.max(1),
        known: None,
        in_parent: target.answered,
        children_agree: false,
        siblings: Vec::new(),
    };
    loop {
        if let Some(done) = at.examine(&mut walk, stop)? {
            return Ok(done);
        }
    }
}

/// Where the descent is.
struct Node {
    board: Board,
    path: Vec<String>,
    depth: u32,
    /// The engine's answer here and our divide, when the look-ahead
    /// already has them.
    known: Option<(EngineRun, Option<OurDivide>)>,
    /// The engine's count of this node in its parent's divide (or the
    /// check's count, at the root).
    in_parent: Option<u128>,
    /// Every child agreed one level up, so the node is asked one ply deep.
    children_agree: bool,
    /// The engine's counts one ply deep of the node's siblings (see
    /// [`divide::Next::siblings`]).
    siblings: Vec<(String, u128)>,
}

impl Node {
    /// Examines the node: the answer, or `None` having moved to the next.
    fn examine(
        &mut self,
        walk: &mut Walk,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Bisection>, BisectError> {
        let (run, ours) = match self.known.take() {
            Some((run, Some(ours))) => (run, ours),
            Some((run, None)) => (run, our_divide(&self.board, self.depth, stop)?),
            None => (walk.ask(&self.path, self.depth)?, our_divide(&self.board, self.depth, stop)?),
        };
        let our_total: u128 = ours.values().map(|&(_, n)| n).sum();
        let mut step = BisectStep {
            path: self.path.clone(),
            fen: walk.fen(&self.board, &self.path),
            depth: self.depth,
            ours: our_total,
            theirs: run.nodes,
            next: None,
        };
        // Move lists that differ are the answer, even where a missing and an
        // extra move happen to leave the total right.
        let theirs = engine_divide(&self.board, self.depth, &run);
        let divide_sum = divide_sum(&run).filter(|_| theirs.is_none());
        if let Some(theirs) = &theirs {
            let difference = ListDifference::of(ours.keys(), theirs);
            if difference.any() {
                if let Some(listed) = not_this_node(&self.board, self.path.len(), theirs) {
                    return Err(BisectError::MovesNotApplied { path: self.path.join(" "), listed });
                }
                walk.push(step);
                return Ok(Some(self.found(walk, Finding::listed(difference, self.depth))));
            }
        }
        if run.nodes == our_total {
            walk.push(step);
            return self.agrees_here(walk, &run, our_total, theirs.is_some()).map(Some);
        }
        let ask = Asker { engine: &mut *walk.engine, start: walk.target.start, timeout: walk.timeout, stop };
        let next = match &theirs {
            Some(theirs) => ask.next_by_divide(&self.board, &self.path, self.depth, &ours, theirs)?,
            None => ask.next_by_counts(&self.path, self.depth, &ours)?,
        };
        let Some(Next { text, mv, in_divide, known, siblings }) = next else {
            walk.push(step);
            if self.depth > 1 && theirs.is_none() {
                // Every child agrees: the engine generates a different set
                // of moves here. Asked one ply deep, its count may name
                // them (0: it generates none).
                (self.depth, self.in_parent, self.children_agree) = (1, None, true);
                self.siblings.clear();
                return Ok(None);
            }
            let siblings = self.sibling_answers(walk);
            let mut finding = name_without_divide(walk, &self.board, &self.path, &run, our_total, &siblings)?;
            finding.divide_sum = divide_sum;
            return Ok(Some(self.found(walk, finding)));
        };
        step.next = Some(text.clone());
        walk.push(step);
        self.board.make(mv);
        self.path.push(text);
        self.depth -= 1;
        (self.known, self.in_parent, self.siblings) = (known, in_divide, siblings);
        Ok(None)
    }

    /// The engine's count here agrees with ours, where it did not in the
    /// question that led here.
    fn agrees_here(
        &mut self,
        walk: &mut Walk,
        run: &EngineRun,
        our_total: u128,
        listed: bool,
    ) -> Result<Bisection, BisectError> {
        if self.children_agree {
            // Its children and its move count agree: its move list differs
            // in moves that cancel out, or its total is not their sum.
            let finding = name_without_divide(walk, &self.board, &self.path, run, our_total, &[])?;
            return Ok(self.found(walk, finding));
        }
        let Some(first) = self.in_parent.filter(|&first| first != run.nodes) else {
            return Err(BisectError::NoDifference { depth: self.depth, nodes: run.nodes });
        };
        let kind =
            if self.path.is_empty() { Contradiction::AskedAgain } else { Contradiction::DivideAndDirect };
        // A terminal position counted as one node; more than one is moves
        // counted where there are none (illegal ones, bisected below).
        let terminal = Terminal::of(&self.board).filter(|_| !self.path.is_empty() && first == 1);
        if self.depth == 1 && !self.path.is_empty() && terminal.is_none() {
            // One ply deep, its divide one ply up counted this node one way
            // (a count-only path for the last ply) and asked here it lists
            // and counts the moves right.
            let fen = walk.fen(&self.board, &self.path);
            let mut candidates = candidates(&self.board, &fen, our_total, first, listed);
            candidates.seen_from_parent = true;
            // Asked directly the engine counts right here, so only the
            // siblings in the same divide are evidence.
            let siblings = self.sibling_answers(walk);
            single_out::single_out(walk, &self.board, &fen, &siblings, None, &mut candidates)?;
            if !candidates.moves.is_empty() || !self.parent_answers_again(walk, first)? {
                return Ok(self.found(walk, Finding { candidates: Some(candidates), ..Finding::default() }));
            }
        }
        let path = self.path.clone();
        let inconsistent = Inconsistency {
            kind,
            path,
            depth: self.depth,
            first,
            then: run.nodes,
            ours: our_total,
            terminal,
        };
        Ok(self.found(walk, Finding { inconsistent: Some(inconsistent), ..Finding::default() }))
    }

    /// Whether the parent's divide, asked again, now gives this node
    /// another count than `first`: the first answer was a one-off.
    fn parent_answers_again(&self, walk: &mut Walk, first: u128) -> Result<bool, BisectError> {
        let Some((last, parent_path)) = self.path.split_last() else { return Ok(false) };
        let mut parent = self.board.clone();
        parent.unmake();
        let again = walk.ask(parent_path, self.depth + 1)?;
        let count = engine_divide(&parent, self.depth + 1, &again).and_then(|d| d.counts.get(last).copied());
        Ok(count.is_some_and(|count| count != first))
    }

    /// The node's siblings with the engine's counts of them.
    fn sibling_answers(&self, walk: &Walk) -> Vec<single_out::Answer> {
        let Some((_, parent_path)) = self.path.split_last() else { return Vec::new() };
        let mut parent = self.board.clone();
        parent.unmake();
        self.siblings
            .iter()
            .filter_map(|(text, theirs)| {
                let mut board = parent.clone();
                board.make(parent.parse_uci(text).ok()?);
                let path = [parent_path, std::slice::from_ref(text)].concat();
                Some(single_out::Answer { fen: walk.fen(&board, &path), board, theirs: *theirs })
            })
            .collect()
    }

    fn found(&self, walk: &mut Walk, finding: Finding) -> Bisection {
        walk.found(&self.board, self.path.clone(), self.depth, finding)
    }
}

/// Whose moves an engine's divide at a node `plies` moves from the test
/// position lists, when they are not the node's: an earlier position's on
/// the path (the moves were not applied, or not all), or the other side's.
fn not_this_node(node: &Board, plies: usize, theirs: &divide::TheirDivide) -> Option<String> {
    let listed: BTreeSet<&String> = theirs.counts.keys().collect();
    if plies == 0 || listed.is_empty() {
        return None;
    }
    let mut earlier = node.clone();
    for back in 1..=plies {
        earlier.unmake();
        let moves: BTreeSet<String> = earlier.legal_moves().iter().map(|&mv| earlier.uci(mv)).collect();
        if moves.len() == listed.len() && listed.iter().all(|m| moves.contains(*m)) {
            let when = match back {
                _ if back == plies => "before all of them".to_string(),
                1 => "one ply back".to_string(),
                _ => format!("{back} plies back"),
            };
            return Some(format!("the moves of the position {when}"));
        }
    }
    // Most of its moves start from the other side's pieces.
    let theirs_side = listed
        .iter()
        .filter(|m| {
            let from = m.get(..2).and_then(|sq| sq.parse::<crate::types::Square>().ok());
            from.and_then(|sq| node.piece_on(sq)).is_some_and(|p| p.color() != node.side_to_move())
        })
        .count();
    (theirs_side * 2 > listed.len()).then(|| "the other side's moves".to_string())
}

/// The sum of an engine's divide, when it printed one (whether or not it
/// adds up to its total).
fn divide_sum(run: &EngineRun) -> Option<u128> {
    run.divide.as_ref()?.iter().try_fold(0u128, |sum, (_, n)| sum.checked_add(*n))
}

/// At a node one ply deep whose count differs and whose divide there
/// named nothing: the engine's move list read from its divide one ply
/// deeper; where that agrees with ours (or cannot be read), candidates.
fn name_without_divide(
    walk: &mut Walk,
    node: &Board,
    path: &[String],
    run: &EngineRun,
    our_total: u128,
    siblings: &[single_out::Answer],
) -> Result<Finding, BisectError> {
    let deeper = match walk.ask(path, 2) {
        Ok(deeper) => engine_divide(node, 2, &deeper),
        Err(BisectError::Interrupted) => return Err(BisectError::Interrupted),
        // A failure one ply deeper leaves the candidates.
        Err(_) => None,
    };
    let legal: Vec<String> = node.legal_moves().iter().map(|&mv| node.uci(mv)).collect();
    if let Some(theirs) = &deeper {
        let difference = ListDifference::of(legal.iter(), theirs);
        if difference.any() {
            return Ok(Finding::listed(difference, 2));
        }
    }
    if run.nodes == our_total {
        // Moves that cancel out, or a total that is not the sum of its
        // children's counts: it prints no move list to tell.
        return Ok(Finding::default());
    }
    let fen = walk.fen(node, path);
    let mut candidates = candidates(node, &fen, our_total, run.nodes, deeper.is_some());
    let chess960 = walk.target.start.chess960;
    single_out::single_out(walk, node, &fen, siblings, Some(chess960), &mut candidates)?;
    Ok(Finding { candidates: Some(candidates), ..Finding::default() })
}
