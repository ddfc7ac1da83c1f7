//! Counting the last ply: the legal moves of a position by set sizes
//! ([`leaves`]), and of a quiet position's children without making them
//! ([`quiet_leaves`]), from the set counts of [`super::counts`].

use super::position::{Compact, Known};
use super::sets::QuietChildren;
use crate::kernel::{outlined, Isa, Job};
use crate::movegen::{generate_for, Counter};
use crate::types::Bitboard;

/// The legal moves of `position`, counted by set sizes, given the attacks
/// of the other side's pawns, knights and king if the caller has them. A
/// function of its own (per kernel): most calls land here, and it needs
/// fewer registers saved than the recursion around it.
#[inline(always)]
pub(super) fn leaves<
    K: Isa,
    const WHITE: bool,
    const CASTLING: u8,
    const EN_PASSANT: bool,
    const LEAPER_CHECKS: bool,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
>(
    position: &Compact,
    their_leaper_attacks: Option<Bitboard>,
) -> u64 {
    // Whether the attacks are known is a type parameter, so that the job
    // is two words, passed in registers (with the `Option`, three words,
    // passed through memory).
    match their_leaper_attacks {
        Some(attacks) => outlined::<K, _>(Leaves::<
            WHITE,
            CASTLING,
            EN_PASSANT,
            LEAPER_CHECKS,
            PROMOTIONS,
            ROOKS_ONLY,
            true,
        > {
            position,
            their_leaper_attacks: attacks,
        }),
        None => outlined::<K, _>(Leaves::<
            WHITE,
            CASTLING,
            EN_PASSANT,
            LEAPER_CHECKS,
            PROMOTIONS,
            ROOKS_ONLY,
            false,
        > {
            position,
            their_leaper_attacks: Bitboard::EMPTY,
        }),
    }
}

/// [`leaves`], compiled per kernel; `their_leaper_attacks` is read only if
/// `KNOWN`.
pub(super) struct Leaves<
    'p,
    'a,
    const WHITE: bool,
    const CASTLING: u8,
    const EN_PASSANT: bool,
    const LEAPER_CHECKS: bool,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
    const KNOWN: bool,
> {
    pub(super) position: &'p Compact<'a>,
    pub(super) their_leaper_attacks: Bitboard,
}

impl<
        const WHITE: bool,
        const CASTLING: u8,
        const EN_PASSANT: bool,
        const LEAPER_CHECKS: bool,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
        const KNOWN: bool,
    > Job for Leaves<'_, '_, WHITE, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY, KNOWN>
{
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let mut counter = Counter(0);
        let known = Known::<K, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY>::new(
            self.position,
            KNOWN.then_some(self.their_leaper_attacks),
            None,
        );
        generate_for::<_, _, WHITE>(&known, &mut counter);
        counter.0
    }
}

/// The legal moves of `position`, a quiet child (see [`QuietChildren`]) of
/// the node that found `quiet`, given the attacks of the other side's
/// pawns, knights and king: only the pawn and king moves are generated.
/// For the quiet children that are not counted in place (those that may
/// castle by Chess960 rules), and in test builds as a check on those that
/// are. A function of its own (per kernel).
#[inline(always)]
pub(super) fn quiet_leaves<
    K: Isa,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
>(
    position: &Compact,
    their_leaper_attacks: Bitboard,
    quiet: &QuietChildren,
) -> u64 {
    outlined::<K, _>(QuietLeaves::<WHITE, CASTLING, PROMOTIONS, ROOKS_ONLY> {
        position,
        their_leaper_attacks,
        quiet,
    })
}

/// [`quiet_leaves`], compiled per kernel.
pub(super) struct QuietLeaves<
    'p,
    'a,
    'q,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    pub(super) position: &'p Compact<'a>,
    pub(super) their_leaper_attacks: Bitboard,
    pub(super) quiet: &'q QuietChildren,
}

impl<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool, const ROOKS_ONLY: bool> Job
    for QuietLeaves<'_, '_, '_, WHITE, CASTLING, PROMOTIONS, ROOKS_ONLY>
{
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let QuietLeaves { position, their_leaper_attacks, quiet } = self;
        let mut counter = Counter(quiet.piece_moves);
        let known = Known::<K, CASTLING, false, false, PROMOTIONS, ROOKS_ONLY>::new(
            position,
            Some(their_leaper_attacks),
            Some(quiet.pins),
        );
        generate_for::<_, _, WHITE>(&known, &mut counter);
        debug_assert_eq!(
            counter.0,
            leaves::<K, WHITE, CASTLING, false, false, PROMOTIONS, ROOKS_ONLY>(
                position,
                Some(their_leaper_attacks)
            )
        );
        counter.0
    }
}
