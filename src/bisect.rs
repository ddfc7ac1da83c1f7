//! Finding where another engine's wrong count comes from: compare its
//! divide with ours, descend into a root move whose count differs, and
//! repeat until the position where a move is missing or extra.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::counting::{divide_with_progress, CountOptions, Mode};
use crate::engine::{Engine, EngineError, EnginePosition};
use crate::types::{Move, PieceKind, Square};

/// What a faulty position exercises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tag {
    /// An en-passant capture is possible or involved.
    EnPassant,
    /// Castling is possible or involved.
    Castling,
    /// Castling in Chess960.
    Chess960Castling,
    /// A promotion is possible or involved.
    Promotion,
    /// The side to move is in check.
    Check,
    /// The side to move is in double check.
    DoubleCheck,
    /// The side to move has a pinned piece.
    Pin,
    /// A Chess960 position (castling written king-takes-rook).
    Chess960,
}

impl Tag {
    /// All tags, in report order.
    pub const ALL: [Tag; 8] = [
        Tag::EnPassant,
        Tag::Castling,
        Tag::Chess960Castling,
        Tag::Promotion,
        Tag::Check,
        Tag::DoubleCheck,
        Tag::Pin,
        Tag::Chess960,
    ];

    /// The tag's name in reports (`en_passant`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Tag::EnPassant => "en_passant",
            Tag::Castling => "castling",
            Tag::Chess960Castling => "chess960_castling",
            Tag::Promotion => "promotion",
            Tag::Check => "check",
            Tag::DoubleCheck => "double_check",
            Tag::Pin => "pin",
            Tag::Chess960 => "chess960",
        }
    }
}

impl fmt::Display for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name().replace('_', " "))
    }
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
    /// Whether missing and extra moves are known: engines that do not print
    /// a divide are bisected with per-child counts, which find the position
    /// but cannot name an extra move.
    pub moves_known: bool,
    /// What the faulty position exercises.
    pub tags: Vec<Tag>,
    /// Every level of the descent.
    pub steps: Vec<BisectStep>,
}

/// Why a bisection stopped without an answer.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BisectError {
    /// The engine failed while being asked.
    #[error("the engine failed during bisection: {0}")]
    Engine(EngineError),
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

/// What kind of move a missing or extra move is, in the position where it
/// was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveClass {
    /// A pawn capturing en passant.
    EnPassant,
    /// Castling, either side.
    Castling,
    /// A promotion to this piece.
    Promotion(PromotionPiece),
    /// A pawn's two-square first move.
    DoublePush,
    /// Another pawn move.
    Pawn,
    /// Another king move.
    King,
    /// A knight, bishop, rook or queen move.
    Piece,
    /// Move text that does not name a piece's move in the position.
    Unreadable,
}

/// The piece a promotion makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PromotionPiece {
    /// To a knight.
    Knight,
    /// To a bishop.
    Bishop,
    /// To a rook.
    Rook,
    /// To a queen.
    Queen,
}

impl std::fmt::Display for MoveClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            MoveClass::EnPassant => "en passant",
            MoveClass::Castling => "castling",
            MoveClass::Promotion(PromotionPiece::Knight) => "promotion to a knight",
            MoveClass::Promotion(PromotionPiece::Bishop) => "promotion to a bishop",
            MoveClass::Promotion(PromotionPiece::Rook) => "promotion to a rook",
            MoveClass::Promotion(PromotionPiece::Queen) => "promotion to a queen",
            MoveClass::DoublePush => "pawn double push",
            MoveClass::Pawn => "pawn move",
            MoveClass::King => "king move",
            MoveClass::Piece => "piece move",
            MoveClass::Unreadable => "unreadable move",
        };
        f.write_str(text)
    }
}

/// Classifies `uci` (as an engine wrote it) in `board`: a legal move by
/// what it is, any other (an extra move is illegal by definition) by its
/// shape.
pub fn classify(board: &Board, uci: &str) -> MoveClass {
    if let Ok(mv) = board.parse_uci(uci) {
        if mv.is_castle() {
            return MoveClass::Castling;
        }
        if mv.is_en_passant() {
            return MoveClass::EnPassant;
        }
    }
    let square = |text: Option<&str>| text.and_then(|t| t.parse::<Square>().ok());
    let (Some(from), Some(to)) = (square(uci.get(0..2)), square(uci.get(2..4))) else {
        return MoveClass::Unreadable;
    };
    let Some(piece) = board.piece_on(from).filter(|p| p.color() == board.side_to_move()) else {
        return MoveClass::Unreadable;
    };
    let promotion = match uci.get(4..).map(|rest| rest.to_ascii_lowercase()).as_deref() {
        None | Some("") => None,
        Some("n") => Some(PromotionPiece::Knight),
        Some("b") => Some(PromotionPiece::Bishop),
        Some("r") => Some(PromotionPiece::Rook),
        Some("q") => Some(PromotionPiece::Queen),
        Some(_) => return MoveClass::Unreadable,
    };
    let files_apart = (from.file() as u8).abs_diff(to.file() as u8);
    match piece.kind() {
        _ if promotion.is_some() => MoveClass::Promotion(promotion.unwrap_or(PromotionPiece::Queen)),
        // A pawn's diagonal step onto an empty square: en passant, whether
        // or not the FEN (or the board, which keeps only a capturable
        // square) names the square.
        PieceKind::Pawn if files_apart != 0 && board.piece_on(to).is_none() => MoveClass::EnPassant,
        PieceKind::Pawn if (from.rank() as u8).abs_diff(to.rank() as u8) == 2 => MoveClass::DoublePush,
        PieceKind::Pawn => MoveClass::Pawn,
        // Two files or more, or onto its own rook: castling as some engine
        // writes it.
        PieceKind::King
            if files_apart >= 2
                || board
                    .piece_on(to)
                    .is_some_and(|p| p.color() == piece.color() && p.kind() == PieceKind::Rook) =>
        {
            MoveClass::Castling
        }
        PieceKind::King => MoveClass::King,
        _ => MoveClass::Piece,
    }
}

/// Tags for a faulty node: what its position offers and what the differing
/// moves are.
pub fn tags_for(board: &Board, moves: &[String]) -> Vec<Tag> {
    let mut tags = Vec::new();
    let checkers = board.checkers().count();
    let mut add = |tag| {
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    };
    let legal = board.legal_moves();
    let castles = legal.iter().any(|m| m.is_castle());
    if board.en_passant().is_some() || legal.iter().any(|m| m.is_en_passant()) {
        add(Tag::EnPassant);
    }
    if castles {
        add(Tag::Castling);
        if board.is_chess960() {
            add(Tag::Chess960Castling);
        }
    }
    if legal.iter().any(|m| m.promotion().is_some()) {
        add(Tag::Promotion);
    }
    for text in moves {
        match classify(board, text) {
            MoveClass::Castling => {
                add(Tag::Castling);
                if board.is_chess960() {
                    add(Tag::Chess960Castling);
                }
            }
            MoveClass::EnPassant => add(Tag::EnPassant),
            MoveClass::Promotion(_) => add(Tag::Promotion),
            _ => {}
        }
    }
    if checkers >= 1 {
        add(Tag::Check);
    }
    if checkers >= 2 {
        add(Tag::DoubleCheck);
    }
    if board.pinned().any() {
        add(Tag::Pin);
    }
    if board.is_chess960() {
        add(Tag::Chess960);
    }
    tags.sort();
    tags
}

fn position(start: &EnginePosition, path: &[String]) -> EnginePosition {
    let mut moves = start.moves.clone();
    moves.extend(path.iter().cloned());
    EnginePosition { fen: start.fen.clone(), moves, chess960: start.chess960 }
}

/// Our divide keyed by this board's UCI notation.
/// Our count per move, by its UCI text.
type OurDivide = BTreeMap<String, (Move, u128)>;

/// Our divide, or `Err(Interrupted)` when `stop` cut it short.
fn our_divide(board: &Board, depth: u32, stop: Option<&AtomicBool>) -> Result<OurDivide, BisectError> {
    divide_with_progress(board, depth, &CountOptions { stop, ..CountOptions::new(Mode::Bulk) }, &|_, _| {})
        .into_iter()
        .map(|(mv, nodes)| Ok((board.uci(mv), (mv, nodes.ok_or(BisectError::Interrupted)?))))
        .collect()
}

/// Differing children examined one level ahead before descending, so the
/// path found is the shortest among them.
const LOOK_AHEAD: usize = 6;

/// The engine's divide at a node, keyed by this board's notation, when the
/// engine printed one that adds up. A count of 0 one ply deep is an empty
/// divide, printed or not: the engine generates no move there.
fn engine_divide(node: &Board, depth: u32, run: &crate::engine::EngineRun) -> Option<BTreeMap<String, u128>> {
    if depth == 1 && run.nodes == 0 {
        return Some(BTreeMap::new());
    }
    // A sum that overflows even u128 is garbage, not a divide.
    let sum = run.divide.as_ref()?.iter().try_fold(0u128, |sum, (_, n)| sum.checked_add(*n));
    let divide = run.divide.as_ref().filter(|_| sum == Some(run.nodes))?;
    let mut theirs: BTreeMap<String, u128> = BTreeMap::new();
    for (text, nodes) in divide {
        let key = node.parse_uci(text).map(|mv| node.uci(mv)).unwrap_or_else(|_| text.clone());
        let entry = theirs.entry(key).or_insert(0);
        *entry = entry.saturating_add(*nodes);
    }
    Some(theirs)
}

/// Moves in one divide and not the other: (missing, extra).
fn set_difference(
    ours: &BTreeMap<String, (Move, u128)>,
    theirs: &BTreeMap<String, u128>,
) -> (Vec<String>, Vec<String>) {
    let missing = ours.keys().filter(|k| !theirs.contains_key(*k)).cloned().collect();
    let extra = theirs.keys().filter(|k| !ours.contains_key(*k)).cloned().collect();
    (missing, extra)
}

/// The child to descend into, its move, and the engine's answer and our
/// divide there when already asked.
type Next = Option<(String, Move, Option<(crate::engine::EngineRun, Option<OurDivide>)>)>;

/// What choosing the next child needs to ask the engine.
struct Asker<'a> {
    engine: &'a mut dyn Engine,
    start: &'a EnginePosition,
    timeout: Duration,
    stop: Option<&'a AtomicBool>,
}

impl Asker<'_> {
    /// With the engine's divide: the smallest child whose count differs,
    /// preferring (one level ahead, among the first [`LOOK_AHEAD`]) one
    /// whose move list differs.
    fn next_by_divide(
        self,
        node: &Board,
        path: &[String],
        depth: u32,
        ours: &OurDivide,
        theirs: &BTreeMap<String, u128>,
    ) -> Result<Next, BisectError> {
        let mut differing: Vec<(&String, Move, u128)> = ours
            .iter()
            .filter(|(k, &(_, n))| theirs.get(*k) != Some(&n))
            .map(|(k, &(mv, n))| (k, mv, n))
            .collect();
        differing.sort_by_key(|&(_, _, n)| n);
        let mut chosen = None;
        if depth > 1 {
            for &(text, mv, _) in differing.iter().take(LOOK_AHEAD) {
                let mut child = node.fork();
                child.make(mv);
                let child_path = [path, std::slice::from_ref(text)].concat();
                let child_run =
                    self.engine.perft(&position(self.start, &child_path), depth - 1, self.timeout)?;
                let child_ours = our_divide(&child, depth - 1, self.stop)?;
                let differs = engine_divide(&child, depth - 1, &child_run).is_some_and(|theirs| {
                    let (missing, extra) = set_difference(&child_ours, &theirs);
                    !missing.is_empty() || !extra.is_empty()
                });
                if differs || chosen.is_none() {
                    chosen = Some((text.clone(), mv, Some((child_run, Some(child_ours)))));
                }
                if differs {
                    break;
                }
            }
        }
        Ok(chosen.or_else(|| differing.first().map(|&(text, mv, _)| (text.clone(), mv, None))))
    }

    /// Without a divide: each child's count asked, smallest first, until
    /// one differs.
    fn next_by_counts(self, path: &[String], depth: u32, ours: &OurDivide) -> Result<Next, BisectError> {
        if depth <= 1 {
            return Ok(None);
        }
        let mut children: Vec<(&String, &(Move, u128))> = ours.iter().collect();
        children.sort_by_key(|(_, &(_, n))| n);
        for (text, &(mv, nodes)) in children {
            let child_path = [path, std::slice::from_ref(text)].concat();
            let child = self.engine.perft(&position(self.start, &child_path), depth - 1, self.timeout)?;
            if child.nodes != nodes {
                return Ok(Some((text.clone(), mv, Some((child, None)))));
            }
        }
        Ok(None)
    }
}

/// Bisects a count difference of `engine` at `depth` below `board` (which
/// the engine knows as `start`, a FEN and moves). At each level it compares
/// the engine's divide with ours; where the move lists differ, that is the
/// answer. Otherwise it looks one level ahead among the cheapest differing
/// moves for a position whose move list differs, and else descends into the
/// cheapest. Engines without a divide are asked for each child's count.
/// `on_step` sees each level as it is examined. Our counts run on the
/// current rayon pool and give up (`Interrupted`) once `stop` is raised.
///
/// # Errors
/// [`BisectError`] if the engine fails or stops disagreeing.
pub fn bisect(
    engine: &mut dyn Engine,
    board: &Board,
    start: &EnginePosition,
    depth: u32,
    timeout: Duration,
    stop: Option<&AtomicBool>,
    on_step: &mut dyn FnMut(&BisectStep),
) -> Result<Bisection, BisectError> {
    // A clone, not a fork: the moves that led to `board` are kept, so the
    // FEN of a node keeps an en-passant square made by the last of them.
    let mut node = board.clone();
    // The FEN of a node as the engine was given it: the root as written
    // when no moves led there (it may hold an en-passant square our board
    // drops), else ours, keeping a pseudo-legal en-passant square.
    let node_fen = |node: &Board, path: &[String]| position(start, path).fen_only(node);
    let mut path: Vec<String> = Vec::new();
    let mut steps: Vec<BisectStep> = Vec::new();
    let mut depth = depth.max(1);
    // The engine's answer for the next node, and our divide there, when
    // the look-ahead already has them.
    let mut known: Option<(crate::engine::EngineRun, Option<OurDivide>)> = None;
    let found = |node: &Board,
                 path: Vec<String>,
                 depth,
                 missing: Vec<String>,
                 extra: Vec<String>,
                 known_moves,
                 steps| {
        let mut differing = missing.clone();
        differing.extend(extra.iter().cloned());
        Bisection {
            fen: node_fen(node, &path),
            path,
            depth,
            tags: tags_for(node, &differing),
            missing,
            extra,
            moves_known: known_moves,
            steps,
        }
    };
    loop {
        let (run, ours) = match known.take() {
            Some((run, ours)) => (run, ours),
            None => (engine.perft(&position(start, &path), depth, timeout)?, None),
        };
        let ours = match ours {
            Some(ours) => ours,
            None => our_divide(&node, depth, stop)?,
        };
        let our_total: u128 = ours.values().map(|&(_, n)| n).sum();
        let mut step = BisectStep {
            path: path.clone(),
            fen: node_fen(&node, &path),
            depth,
            ours: our_total,
            theirs: run.nodes,
            next: None,
        };
        // Move lists that differ are the answer, even where a missing and an
        // extra move happen to leave the total right.
        let their_divide = engine_divide(&node, depth, &run);
        if let Some(theirs) = &their_divide {
            let (missing, extra) = set_difference(&ours, theirs);
            if !missing.is_empty() || !extra.is_empty() {
                on_step(&step);
                steps.push(step);
                return Ok(found(&node, path, depth, missing, extra, true, steps));
            }
        }
        if run.nodes == our_total {
            if steps.is_empty() {
                return Err(BisectError::NoDifference { depth, nodes: run.nodes });
            }
            // A child that disagreed in its parent's divide agrees on its
            // own: the engine's divide was wrong at the parent.
            on_step(&step);
            steps.push(step);
            let parent = steps[steps.len() - 2].clone();
            let mut parent_board = board.clone();
            for mv in &parent.path {
                parent_board.play_uci(mv).expect("our own path");
            }
            return Ok(found(&parent_board, parent.path, parent.depth, Vec::new(), Vec::new(), false, steps));
        }
        let ask = Asker { engine: &mut *engine, start, timeout, stop };
        let next = match &their_divide {
            Some(theirs) => ask.next_by_divide(&node, &path, depth, &ours, theirs)?,
            None => ask.next_by_counts(&path, depth, &ours)?,
        };
        let next = next.map(|(text, mv, ahead)| {
            known = ahead;
            (text, mv)
        });
        let Some((text, mv)) = next else {
            on_step(&step);
            steps.push(step);
            if depth > 1 && their_divide.is_none() {
                // Every child agrees: the engine generates a different set
                // of moves here. Asked one ply deep, its count may name
                // them (0: it generates none).
                depth = 1;
                continue;
            }
            // This is depth 1: the engine generates a different set of
            // moves here, which it does not name.
            return Ok(found(&node, path, depth, Vec::new(), Vec::new(), false, steps));
        };
        step.next = Some(text.clone());
        on_step(&step);
        steps.push(step);
        node.make(mv);
        path.push(text);
        depth -= 1;
    }
}
