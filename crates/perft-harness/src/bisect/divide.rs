//! The two divides a bisection compares at each node, ours and the
//! engine's, and the choice of the child to descend into.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{position, BisectError};
use crate::board::Board;
use crate::counting::{divide_with_progress, CountOptions, Mode};
use crate::engine::{Engine, EnginePosition, EngineRun};
use crate::types::Move;

/// Our count per move, by its UCI text.
pub(super) type OurDivide = BTreeMap<String, (Move, u128)>;

/// Our divide, or `Err(Interrupted)` when `stop` cut it short.
pub(super) fn our_divide(
    board: &Board,
    depth: u32,
    stop: Option<&AtomicBool>,
) -> Result<OurDivide, BisectError> {
    divide_with_progress(board, depth, &CountOptions { stop, ..CountOptions::new(Mode::Bulk) }, &|_, _| {})
        .into_iter()
        .map(|(mv, nodes)| Ok((board.uci(mv), (mv, nodes.ok_or(BisectError::Interrupted)?))))
        .collect()
}

/// The engine's divide at a node, keyed by this board's notation.
pub(super) struct TheirDivide {
    /// Count per move (a move listed twice: the sum).
    pub(super) counts: BTreeMap<String, u128>,
    /// Moves listed more than once.
    pub(super) duplicates: Vec<String>,
}

/// The engine's divide at a node, when it printed one that adds up. A
/// count of 0 one ply deep is an empty divide, printed or not: the engine
/// generates no move there.
pub(super) fn engine_divide(node: &Board, depth: u32, run: &EngineRun) -> Option<TheirDivide> {
    if depth == 1 && run.nodes == 0 {
        return Some(TheirDivide { counts: BTreeMap::new(), duplicates: Vec::new() });
    }
    // A sum that overflows even u128 is garbage, not a divide.
    let sum = run.divide.as_ref()?.iter().try_fold(0u128, |sum, (_, n)| sum.checked_add(*n));
    let divide = run.divide.as_ref().filter(|_| sum == Some(run.nodes))?;
    // Promotions written without their piece (`e7e8` four times): which
    // count is which piece's cannot be told, so the children are asked one
    // by one, as for an engine without a divide.
    if divide.iter().any(|(text, _)| {
        text.len() == 4 && node.parse_uci(text).is_err() && node.parse_uci(&format!("{text}q")).is_ok()
    }) {
        return None;
    }
    let mut counts: BTreeMap<String, u128> = BTreeMap::new();
    let mut duplicates = Vec::new();
    for (text, nodes) in divide {
        let key = node.parse_uci(text).map(|mv| node.uci(mv)).unwrap_or_else(|_| text.clone());
        if counts.contains_key(&key) && !duplicates.contains(&key) {
            duplicates.push(key.clone());
        }
        let entry = counts.entry(key).or_insert(0);
        *entry = entry.saturating_add(*nodes);
    }
    Some(TheirDivide { counts, duplicates })
}

/// How two move lists differ.
#[derive(Default)]
pub(super) struct ListDifference {
    /// Ours, not theirs.
    pub(super) missing: Vec<String>,
    /// Theirs, not ours.
    pub(super) extra: Vec<String>,
    /// Theirs more than once.
    pub(super) duplicates: Vec<String>,
}

impl ListDifference {
    pub(super) fn of<'a>(ours: impl Iterator<Item = &'a String> + Clone, theirs: &TheirDivide) -> Self {
        ListDifference {
            missing: ours.clone().filter(|k| !theirs.counts.contains_key(*k)).cloned().collect(),
            extra: theirs.counts.keys().filter(|k| !ours.clone().any(|o| o == *k)).cloned().collect(),
            duplicates: theirs.duplicates.clone(),
        }
    }

    pub(super) fn any(&self) -> bool {
        !(self.missing.is_empty() && self.extra.is_empty() && self.duplicates.is_empty())
    }
}

/// Differing children examined one level ahead before descending, so the
/// path found is the shortest among them.
const LOOK_AHEAD: usize = 6;

/// The child to descend into: its move, the engine's count of it in the
/// node's divide (when it printed one), and the engine's answer and our
/// divide there when already asked.
pub(super) struct Next {
    pub(super) text: String,
    pub(super) mv: Move,
    pub(super) in_divide: Option<u128>,
    pub(super) known: Option<(EngineRun, Option<OurDivide>)>,
    /// The engine's counts of the other children, where they are one ply
    /// deep and known without asking again: evidence for singling out a
    /// move there.
    pub(super) siblings: Vec<(String, u128)>,
}

/// What choosing the next child needs to ask the engine.
pub(super) struct Asker<'a> {
    pub(super) engine: &'a mut dyn Engine,
    pub(super) start: &'a EnginePosition,
    pub(super) timeout: Duration,
    pub(super) stop: Option<&'a AtomicBool>,
}

impl Asker<'_> {
    /// With the engine's divide: the smallest child whose count differs,
    /// preferring (one level ahead, among the first [`LOOK_AHEAD`]) one
    /// whose move list differs.
    pub(super) fn next_by_divide(
        self,
        node: &Board,
        path: &[String],
        depth: u32,
        ours: &OurDivide,
        theirs: &TheirDivide,
    ) -> Result<Option<Next>, BisectError> {
        let mut differing: Vec<(&String, Move, u128)> = ours
            .iter()
            .filter(|(k, &(_, n))| theirs.counts.get(*k) != Some(&n))
            .map(|(k, &(mv, n))| (k, mv, n))
            .collect();
        differing.sort_by_key(|&(_, _, n)| n);
        let siblings = |text: &String| -> Vec<(String, u128)> {
            if depth != 2 {
                return Vec::new();
            }
            let others = ours.keys().filter(|k| *k != text);
            others.filter_map(|k| Some((k.clone(), *theirs.counts.get(k)?))).collect()
        };
        let next = |text: &String, mv, known| Next {
            text: text.clone(),
            mv,
            in_divide: theirs.counts.get(text).copied(),
            known,
            siblings: siblings(text),
        };
        let mut chosen = None;
        // Whether the chosen child, asked directly, agrees with us after
        // all (the engine's divide was wrong about it): any other is better.
        let mut chosen_agrees = false;
        if depth > 1 {
            for &(text, mv, nodes) in differing.iter().take(LOOK_AHEAD) {
                let mut child = node.fork();
                child.make(mv);
                let child_path = [path, std::slice::from_ref(text)].concat();
                let child_run =
                    self.engine.perft(&position(self.start, &child_path), depth - 1, self.timeout)?;
                let child_ours = our_divide(&child, depth - 1, self.stop)?;
                let differs = engine_divide(&child, depth - 1, &child_run)
                    .is_some_and(|theirs| ListDifference::of(child_ours.keys(), &theirs).any());
                let agrees = child_run.nodes == nodes;
                if differs || chosen.is_none() || (chosen_agrees && !agrees) {
                    chosen_agrees = agrees;
                    chosen = Some(next(text, mv, Some((child_run, Some(child_ours)))));
                }
                if differs {
                    break;
                }
            }
        }
        Ok(chosen.or_else(|| differing.first().map(|&(text, mv, _)| next(text, mv, None))))
    }

    /// Without a divide: each child's count asked, smallest first, until
    /// one differs.
    pub(super) fn next_by_counts(
        self,
        path: &[String],
        depth: u32,
        ours: &OurDivide,
    ) -> Result<Option<Next>, BisectError> {
        if depth <= 1 {
            return Ok(None);
        }
        let mut children: Vec<(&String, &(Move, u128))> = ours.iter().collect();
        children.sort_by_key(|(_, &(_, n))| n);
        let mut agreed = Vec::new();
        for (text, &(mv, nodes)) in children {
            let child_path = [path, std::slice::from_ref(text)].concat();
            let child = self.engine.perft(&position(self.start, &child_path), depth - 1, self.timeout)?;
            if child.nodes != nodes {
                return Ok(Some(Next {
                    text: text.clone(),
                    mv,
                    in_divide: None,
                    known: Some((child, None)),
                    siblings: if depth == 2 { agreed } else { Vec::new() },
                }));
            }
            agreed.push((text.clone(), child.nodes));
        }
        Ok(None)
    }
}
