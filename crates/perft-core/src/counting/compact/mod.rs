//! The counting hot path: the last plies of a bulk count run on a compact
//! copy-make position instead of the [`Board`].
//!
//! A [`Compact`] holds what move generation reads and nothing else: eight
//! bitboards, the castling rights, a possible en-passant square and a
//! pointer to the castling geometry. A move is made by copying it (about
//! 80 bytes) and changing a few bitboards by XOR: no mailbox, no Zobrist
//! key, no rule-50 clock, no history to push and pop. No move list is built
//! either: the generator hands each set of moves to a sink that makes every
//! child at once and recurses, the side to move fixed at compile time. The
//! leaves are counted by set sizes, as everywhere in bulk counting.
//!
//! One file per idea: [`position`] (the compact position and its moves),
//! [`counts`] (moves counted as sets), [`leaves`] (the last ply), [`sets`] (children
//! counted as sets), [`descent`] (the entry points and the recursion).

#[cfg(target_arch = "x86_64")]
mod batch;
mod counts;
mod descent;
mod leaves;
mod position;
mod sets;

pub(crate) use descent::{count, count_child_on, count_on};
pub(crate) use position::Compact;

#[cfg(test)]
mod tests;
