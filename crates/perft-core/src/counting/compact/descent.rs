//! The descent: the entry points ([`count`], [`count_on`], [`count_child_on`])
//! and the recursion over interior plies down to the last ones
//! ([`interior`], [`Descend`]).

use core::marker::PhantomData;

use super::super::U64_SAFE_DEPTH;
use super::counts::count_slider_moves;
use super::leaves::{leaves, quiet_leaves};
use super::position::{
    sides, Compact, Known, ANY_CASTLING, CHESS960_CASTLING, NO_CASTLING, STANDARD_CASTLING,
};
use super::sets::{pawn_move_origin, shifted, QuietChildren};
use crate::attacks::{pawn_attacks, pawn_set_attacks_by_side};
use crate::kernel::{outlined, Isa, Job, Kernel};
use crate::movegen::{generate_for, PawnMoves, Sink};
use crate::types::{Bitboard, Color, Move, PieceKind, Rank, Square};

/// Leaves `depth` plies below `position` (at least 1 ply), counted in a
/// `u64` on `kernel`: `depth` is at most [`U64_SAFE_DEPTH`].
pub(crate) fn count(kernel: Kernel, position: &Compact, depth: u32) -> u64 {
    debug_assert!((1..=U64_SAFE_DEPTH).contains(&depth));
    kernel.run(Count { position, depth })
}

/// [`count`], compiled per kernel.
pub(super) struct Count<'p, 'a> {
    pub(super) position: &'p Compact<'a>,
    pub(super) depth: u32,
}

impl Job for Count<'_, '_> {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        count_on::<K>(self.position, self.depth)
    }
}

/// [`count`] from code already running on `K`.
#[inline(always)]
pub(crate) fn count_on<K: Isa>(position: &Compact, depth: u32) -> u64 {
    debug_assert!((1..=U64_SAFE_DEPTH).contains(&depth));
    match position.side_to_move {
        Color::White => subtree::<K, true>(position, depth),
        Color::Black => subtree::<K, false>(position, depth),
    }
}

/// Leaves `depth` plies below the child of `parent` after its legal move
/// `mv` ([`count_on`] of the child, without a board made for it).
#[inline(always)]
pub(crate) fn count_child_on<K: Isa>(parent: &Compact, mv: Move, depth: u32) -> u64 {
    match parent.side_to_move {
        Color::White => count_on::<K>(&parent.after::<true>(mv), depth),
        Color::Black => count_on::<K>(&parent.after::<false>(mv), depth),
    }
}

/// Leaves `depth` (at least 1) plies below `position`, `WHITE` to move.
#[inline(always)]
pub(super) fn subtree<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
    if depth == 1 {
        // Only a count of one ply lands here: nothing known in advance.
        leaves::<K, WHITE, ANY_CASTLING, true, true, true, false>(position, None)
    } else {
        interior::<K, WHITE>(position, depth)
    }
}

/// Leaves `depth` (at least 2) plies below `position`: every child made
/// and counted. Outlined, so the recursion has one frame per ply.
#[inline(always)]
pub(super) fn interior<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
    outlined::<K, _>(Interior::<WHITE> { position, depth })
}

/// [`interior`], compiled per kernel.
pub(super) struct Interior<'p, 'a, const WHITE: bool> {
    pub(super) position: &'p Compact<'a>,
    pub(super) depth: u32,
}

impl<const WHITE: bool> Job for Interior<'_, '_, WHITE> {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let Interior { position, depth } = self;
        interior_body::<K, WHITE>(position, depth)
    }
}

/// The body of [`interior`].
#[inline(always)]
pub(super) fn interior_body<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
    if depth == 2 {
        // The children are counted by `leaves`: no depth test per child,
        // and no promotion code where the side to move next has no pawn on
        // its seventh rank (a move cannot put one there).
        let them = sides::<WHITE>().1;
        let their_pawns = position.by_kind[PieceKind::Pawn as usize] & position.by_color[them as usize];
        if (their_pawns & Rank::Seventh.relative_to(them).bitboard()).any() {
            last_ply::<K, WHITE, true>(position)
        } else {
            last_ply::<K, WHITE, false>(position)
        }
    } else {
        // `CASTLING` is unused above the last ply.
        children::<K, WHITE, false, ANY_CASTLING, true, false>(position, depth - 1)
    }
}

/// The legal moves of each child of `position`, summed, with no castling
/// code where the side to move next has no rights (a move cannot give them
/// back), no Chess960 castling code in a standard game, and no code for
/// knights, bishops and queens where there are none and no pawn of the
/// side to move can promote (rook and pawn endgames: the endgame
/// benchmark position 12% faster).
#[inline(always)]
pub(super) fn last_ply<K: Isa, const WHITE: bool, const PROMOTIONS: bool>(position: &Compact) -> u64 {
    let castles = position.castling.any_of(sides::<WHITE>().1);
    #[cfg(target_arch = "x86_64")]
    if K::AVX512 && batched::<WHITE>(position, castles) && super::batch::available() {
        let nodes = super::batch::last_children::<K, WHITE, NO_CASTLING, PROMOTIONS>(position);
        debug_assert_eq!(nodes, scalar_last_ply::<K, WHITE, PROMOTIONS>(position, castles));
        return nodes;
    }
    scalar_last_ply::<K, WHITE, PROMOTIONS>(position, castles)
}

/// Whether [`last_ply`] counts `position`'s children eight at a time: where
/// its side has rooks and no other piece but its king and pawns, and the
/// other side cannot castle. The batch counts every position exactly, but
/// measured against the scalar path it wins only there: with it for every
/// position, the start position counted at 0.69x the speed of the scalar
/// path (`../shared/anchors/race long`, 2026-12-03), whose leaves count
/// most children in place by mask arithmetic.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn batched<const WHITE: bool>(position: &Compact, castles: bool) -> bool {
    !castles && position.rooks_only::<WHITE>() && super::batch::fits::<WHITE>(position)
}

/// [`last_ply`] without the batch path, `castles` whether the children's
/// side has castling rights.
#[inline(always)]
fn scalar_last_ply<K: Isa, const WHITE: bool, const PROMOTIONS: bool>(
    position: &Compact,
    castles: bool,
) -> u64 {
    match (castles, position.chess960) {
        (false, _) if position.rooks_only::<WHITE>() => {
            last_children::<K, WHITE, NO_CASTLING, PROMOTIONS, true>(position)
        }
        (false, _) => last_children::<K, WHITE, NO_CASTLING, PROMOTIONS, false>(position),
        (true, false) => last_children::<K, WHITE, STANDARD_CASTLING, PROMOTIONS, false>(position),
        (true, true) => last_children::<K, WHITE, CHESS960_CASTLING, PROMOTIONS, false>(position),
    }
}

/// [`children`] one ply above the leaves, `CASTLING` and `PROMOTIONS` as
/// in [`Known`] for the children. A function of its own for each (per
/// kernel): each holds 21-30 KB of machine code, about what the hot variant
/// of a search can keep in the instruction cache, and a change in one no
/// longer moves the others (inlined into [`interior`], all six made one
/// function of about 210 KB, and the start position's speed swung with
/// every change to any of them).
#[inline(always)]
pub(super) fn last_children<
    K: Isa,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
>(
    position: &Compact,
) -> u64 {
    outlined::<K, _>(LastChildren::<WHITE, CASTLING, PROMOTIONS, ROOKS_ONLY> { position })
}

/// [`last_children`], compiled per kernel.
pub(super) struct LastChildren<
    'p,
    'a,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    pub(super) position: &'p Compact<'a>,
}

impl<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool, const ROOKS_ONLY: bool> Job
    for LastChildren<'_, '_, WHITE, CASTLING, PROMOTIONS, ROOKS_ONLY>
{
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        children::<K, WHITE, true, CASTLING, PROMOTIONS, ROOKS_ONLY>(self.position, 1)
    }
}

/// Leaves `depth` plies below each child of `position`, summed.
#[inline(always)]
pub(super) fn children<
    K: Isa,
    const WHITE: bool,
    const LAST: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
>(
    position: &Compact,
    depth: u32,
) -> u64 {
    let us = sides::<WHITE>().0;
    let ours = position.by_color[us as usize];
    let (pawn_attacks, pawn_attacks_twice, knight_attacks, king_attacks) = if LAST {
        let mut knights = Bitboard::EMPTY;
        for knight in position.pieces::<ROOKS_ONLY>(PieceKind::Knight) & ours {
            knights |= crate::attacks::knight_attacks(knight);
        }
        let pawns = position.by_kind[PieceKind::Pawn as usize] & ours;
        let (west, east) = pawn_set_attacks_by_side(us, pawns);
        (
            west | east,
            west & east,
            knights,
            crate::attacks::king_attacks((position.by_kind[PieceKind::King as usize] & ours).lsb()),
        )
    } else {
        (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY)
    };
    let quiet = if LAST {
        QuietChildren::of::<K, WHITE, CASTLING, ROOKS_ONLY>(position)
    } else {
        QuietChildren::NONE
    };
    let mut descend = Descend::<K, WHITE, LAST, CASTLING, PROMOTIONS, ROOKS_ONLY> {
        parent: position,
        depth,
        quiet,
        pawn_attacks,
        pawn_attacks_twice,
        knight_attacks,
        king_attacks,
        nodes: 0,
        isa: PhantomData,
    };
    let view = Known::<K, ANY_CASTLING, true, true, true, ROOKS_ONLY>::new(position, None, None);
    generate_for::<_, _, WHITE>(&view, &mut descend);
    descend.nodes
}

/// Makes each move it is handed and counts the child's subtree (`LAST`:
/// its legal moves, the child being one ply above the leaves; then
/// `CASTLING`: how the child's side to move may still castle, as in
/// [`Known`]).
pub(super) struct Descend<
    'p,
    'a,
    K,
    const WHITE: bool,
    const LAST: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    pub(super) parent: &'p Compact<'a>,
    /// Plies below each child.
    pub(super) depth: u32,
    /// If `LAST`, what the parent knows of its quiet children, else
    /// [`QuietChildren::NONE`].
    pub(super) quiet: QuietChildren,
    /// If `LAST`, the squares the moving side's pawns attack in the parent
    /// (a child's leaves read them, with those of its knights and king,
    /// for the danger map), else empty.
    pub(super) pawn_attacks: Bitboard,
    /// If `LAST`, the squares two of the moving side's pawns attack in the
    /// parent (one from each side), else empty.
    pub(super) pawn_attacks_twice: Bitboard,
    /// If `LAST`, the squares the moving side's knights attack in the
    /// parent, else empty.
    pub(super) knight_attacks: Bitboard,
    /// If `LAST`, the squares the moving side's king attacks in the parent,
    /// else empty.
    pub(super) king_attacks: Bitboard,
    pub(super) nodes: u64,
    pub(super) isa: PhantomData<K>,
}

impl<
        K: Isa,
        const WHITE: bool,
        const LAST: bool,
        const CASTLING: u8,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
    > Descend<'_, '_, K, WHITE, LAST, CASTLING, PROMOTIONS, ROOKS_ONLY>
{
    /// Counts below `child`, which may have an en-passant square only if
    /// `EN_PASSANT`, and a check by a pawn or knight only if `LEAPER_CHECKS`
    /// (the move was by a pawn or a knight, or promoted to a knight), and
    /// where the moving side's pawns, knights and king attack
    /// `leaper_attacks` (read only if `LAST`).
    #[inline(always)]
    pub(super) fn child<const EN_PASSANT: bool, const LEAPER_CHECKS: bool>(
        &mut self,
        child: &Compact,
        leaper_attacks: Bitboard,
    ) {
        // The other side moves next: the other instance of the recursion.
        self.nodes += match (WHITE, LAST) {
            (true, true) => leaves::<K, false, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY>(
                child,
                Some(leaper_attacks),
            ),
            (false, true) => leaves::<K, true, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY>(
                child,
                Some(leaper_attacks),
            ),
            (true, false) => subtree::<K, false>(child, self.depth),
            (false, false) => subtree::<K, true>(child, self.depth),
        };
    }

    /// Counts the moves of `child`, a quiet child (see [`QuietChildren`];
    /// `LAST` only) after a move from `from` to `to`, where the moving
    /// side's pawns, knights and king attack `leaper_attacks`: in place
    /// where it can be. `kind` is the piece that moved.
    #[inline(always)]
    pub(super) fn quiet_child(
        &mut self,
        kind: PieceKind,
        from: Square,
        to: Square,
        child: &Compact,
        leaper_attacks: Bitboard,
    ) {
        debug_assert!(LAST);
        let quiet = &self.quiet;
        let moved = from.bitboard() | to.bitboard();
        // The other side moves next.
        self.nodes += match quiet.count_in_place::<K, WHITE, CASTLING, PROMOTIONS, ROOKS_ONLY>(
            child,
            moved,
            kind,
            leaper_attacks,
        ) {
            Some(moves) => {
                debug_assert_eq!(moves, self.quiet_child_by_leaves(child, leaper_attacks));
                moves
            }
            None if WHITE => {
                quiet_leaves::<K, false, CASTLING, PROMOTIONS, ROOKS_ONLY>(child, leaper_attacks, quiet)
            }
            None => quiet_leaves::<K, true, CASTLING, PROMOTIONS, ROOKS_ONLY>(child, leaper_attacks, quiet),
        };
    }

    /// The legal moves of `child`, a quiet child, counted by the full leaf
    /// function: what every count made in place must equal (test builds).
    #[inline(always)]
    pub(super) fn quiet_child_by_leaves(&self, child: &Compact, leaper_attacks: Bitboard) -> u64 {
        if WHITE {
            leaves::<K, false, CASTLING, false, false, PROMOTIONS, ROOKS_ONLY>(child, Some(leaper_attacks))
        } else {
            leaves::<K, true, CASTLING, false, false, PROMOTIONS, ROOKS_ONLY>(child, Some(leaper_attacks))
        }
    }

    /// The legal moves of the quiet children after the pawn pushes onto
    /// `targets`, `delta` squares each, counted together (see
    /// [`QuietChildren::count_pushes_in_place`]).
    #[inline(always)]
    pub(super) fn pushes_in_place(&self, targets: Bitboard, delta: i8) -> u64 {
        let in_place = &self.quiet.in_place;
        let mut moves = self.quiet.count_pushes_in_place::<WHITE, CASTLING, PROMOTIONS>(
            self.parent,
            targets,
            delta,
            self.leaper_attacks(),
        );
        // Where a push cuts or opens a line of the other side's sliders,
        // they are counted again for that child.
        let cuts = in_place.cuts;
        let recounted = targets & (cuts | shifted(cuts, delta));
        if recounted.any() {
            let occupied = self.parent.by_color[0] | self.parent.by_color[1];
            let target = !self.parent.by_color[sides::<WHITE>().1 as usize];
            moves -= u64::from(recounted.count()) * in_place.slider_moves;
            for to in recounted {
                let moved = pawn_move_origin(to, delta).bitboard() | to.bitboard();
                moves += count_slider_moves::<K>(in_place.sliders, occupied ^ moved, target);
            }
        }
        debug_assert_eq!(
            moves,
            targets
                .into_iter()
                .map(|to| {
                    let from = pawn_move_origin(to, delta);
                    self.quiet_child_by_leaves(
                        &self.parent.pushed::<WHITE>(from, to, false),
                        self.leaper_attacks_after_pawn_move(from, Some(to)),
                    )
                })
                .sum::<u64>()
        );
        moves
    }

    /// The legal moves of the quiet children after the bishop, rook or
    /// queen on `from` moved to one of `targets`, counted together (see
    /// [`QuietChildren::count_slider_moves_in_place`]).
    #[inline(always)]
    pub(super) fn slider_moves_in_place(&self, kind: PieceKind, from: Square, targets: Bitboard) -> u64 {
        let moves = self.quiet.count_slider_moves_in_place::<WHITE, CASTLING, PROMOTIONS>(
            self.parent,
            from,
            targets,
            self.leaper_attacks(),
        );
        debug_assert_eq!(
            moves,
            targets
                .into_iter()
                .map(|to| self.quiet_child_by_leaves(
                    &self.parent.quietly_moved::<WHITE>(kind, from, to),
                    self.leaper_attacks()
                ))
                .sum::<u64>()
        );
        moves
    }

    /// The moving side's pawn, knight and king attacks in the parent,
    /// unchanged by a move of any other piece.
    #[inline(always)]
    pub(super) fn leaper_attacks(&self) -> Bitboard {
        self.pawn_attacks | self.knight_attacks | self.king_attacks
    }

    /// The moving side's pawn, knight and king attacks after a pawn left
    /// `from` for `to` (`None` for a promotion: no pawn arrives).
    #[inline(always)]
    pub(super) fn leaper_attacks_after_pawn_move(&self, from: Square, to: Option<Square>) -> Bitboard {
        let (us, _) = sides::<WHITE>();
        // The squares only the pawn on `from` attacked are no longer.
        let mut pawn_attacks = self.pawn_attacks - (pawn_attacks(us, from) - self.pawn_attacks_twice);
        if let Some(to) = to {
            pawn_attacks |= crate::attacks::pawn_attacks(us, to);
        }
        pawn_attacks | self.knight_attacks | self.king_attacks
    }

    /// Counts below the child after a pawn push from `from` to `to`, which
    /// leaves an en-passant square if `en_passant`, else is a quiet child if
    /// `QUIET` (see [`QuietChildren`]).
    #[inline(always)]
    pub(super) fn push<const QUIET: bool>(&mut self, from: Square, to: Square, en_passant: bool) {
        let child = self.parent.pushed::<WHITE>(from, to, en_passant);
        // Read only by the leaves (`LAST`).
        let leaper_attacks =
            if LAST { self.leaper_attacks_after_pawn_move(from, Some(to)) } else { Bitboard::EMPTY };
        if en_passant {
            self.child::<true, true>(&child, leaper_attacks);
        } else if QUIET {
            self.quiet_child(PieceKind::Pawn, from, to, &child, leaper_attacks);
        } else {
            self.child::<false, true>(&child, leaper_attacks);
        }
    }

    /// Counts below each child after a `kind` moved from `from` to one of
    /// `to` (`LEAPER_CHECKS` as in [`Descend::child`]).
    #[inline(always)]
    pub(super) fn each_target<const LEAPER_CHECKS: bool>(
        &mut self,
        kind: PieceKind,
        from: Square,
        to: Bitboard,
    ) {
        let theirs = self.parent.by_color[sides::<WHITE>().1 as usize];
        // The pawn, knight and king attacks of the moving side, but those of
        // the moving piece, which are added for each target.
        let staying = match kind {
            PieceKind::Knight if LAST => {
                let ours = self.parent.by_color[sides::<WHITE>().0 as usize];
                let mut staying = self.pawn_attacks | self.king_attacks;
                for knight in (self.parent.pieces::<ROOKS_ONLY>(PieceKind::Knight) & ours).without(from) {
                    staying |= crate::attacks::knight_attacks(knight);
                }
                staying
            }
            PieceKind::King => self.pawn_attacks | self.knight_attacks,
            _ => self.leaper_attacks(),
        };
        let leaper_attacks = |sq: Square| match kind {
            PieceKind::Knight => staying | crate::attacks::knight_attacks(sq),
            PieceKind::King => staying | crate::attacks::king_attacks(sq),
            _ => staying,
        };
        for sq in to & theirs {
            self.child::<false, LEAPER_CHECKS>(
                &self.parent.moved::<WHITE>(kind, from, sq),
                leaper_attacks(sq),
            );
        }
        let mut quiet_targets = Bitboard::EMPTY;
        if LAST && !self.quiet.leaving[kind as usize].has(from) {
            quiet_targets = to - theirs - self.quiet.entering[kind as usize];
            let mut one_by_one = quiet_targets;
            // Only where rooks are the only pieces: elsewhere a bishop's,
            // rook's or queen's quiet moves are fewer than a side's pushes,
            // and counting them together cost the other four benchmark
            // positions 2-17% (the endgame gained 3%).
            if ROOKS_ONLY && CASTLING != CHESS960_CASTLING && kind == PieceKind::Rook {
                let together = self.quiet.slider_moves_together(from, quiet_targets);
                if together.any() {
                    self.nodes += self.slider_moves_in_place(kind, from, together);
                    one_by_one = quiet_targets - together;
                }
            }
            for sq in one_by_one {
                self.quiet_child(
                    kind,
                    from,
                    sq,
                    &self.parent.quietly_moved::<WHITE>(kind, from, sq),
                    leaper_attacks(sq),
                );
            }
        }
        for sq in to - theirs - quiet_targets {
            self.child::<false, LEAPER_CHECKS>(
                &self.parent.quietly_moved::<WHITE>(kind, from, sq),
                leaper_attacks(sq),
            );
        }
    }
}

impl<
        K: Isa,
        const WHITE: bool,
        const LAST: bool,
        const CASTLING: u8,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
    > Sink for Descend<'_, '_, K, WHITE, LAST, CASTLING, PROMOTIONS, ROOKS_ONLY>
{
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
        // Of the pieces, only a knight gives check by itself (a slider's
        // check is found with the sliders). `kind` is a constant once
        // inlined: one of the calls remains.
        if kind == PieceKind::Knight {
            self.each_target::<true>(kind, from, to);
        } else {
            self.each_target::<false>(kind, from, to);
        }
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        let mut to = to;
        // The double pushes that leave an en-passant square, found for all
        // at once.
        let en_passant = if kind == PawnMoves::DoublePush {
            self.parent.en_passant_pushes::<WHITE>(to)
        } else {
            Bitboard::EMPTY
        };
        if LAST && matches!(kind, PawnMoves::Push | PawnMoves::DoublePush) {
            // A push leaves `sq - delta`: shifting the unsafe squares by
            // `delta` marks the targets of pawns leaving them.
            let unsafe_squares = self.quiet.leaving[PieceKind::Pawn as usize];
            let leaving = shifted(unsafe_squares, delta);
            let quiet_targets = to - self.quiet.entering[PieceKind::Pawn as usize] - leaving - en_passant;
            let mut one_by_one = quiet_targets;
            if CASTLING != CHESS960_CASTLING {
                let together = self.quiet.pushes_together(quiet_targets, delta);
                if together.any() {
                    self.nodes += self.pushes_in_place(together, delta);
                    one_by_one = quiet_targets - together;
                }
            }
            for sq in one_by_one {
                self.push::<true>(pawn_move_origin(sq, delta), sq, false);
            }
            to = to - quiet_targets;
        }
        for sq in to {
            let from = pawn_move_origin(sq, delta);
            // Read only by the leaves (`LAST`).
            let leaper_attacks = || {
                if LAST {
                    let arrives = if kind == PawnMoves::Promotion { None } else { Some(sq) };
                    self.leaper_attacks_after_pawn_move(from, arrives)
                } else {
                    Bitboard::EMPTY
                }
            };
            match kind {
                PawnMoves::Push => self.push::<false>(from, sq, false),
                PawnMoves::DoublePush => self.push::<false>(from, sq, en_passant.has(sq)),
                PawnMoves::Capture => {
                    let child = self.parent.moved::<WHITE>(PieceKind::Pawn, from, sq);
                    self.child::<false, true>(&child, leaper_attacks());
                }
                PawnMoves::Promotion => {
                    let leaper_attacks = leaper_attacks();
                    for piece in [PieceKind::Queen, PieceKind::Rook, PieceKind::Bishop] {
                        self.child::<false, false>(
                            &self.parent.promoted::<WHITE>(from, sq, piece),
                            leaper_attacks,
                        );
                    }
                    self.child::<false, true>(
                        &self.parent.promoted::<WHITE>(from, sq, PieceKind::Knight),
                        leaper_attacks | crate::attacks::knight_attacks(sq),
                    );
                }
            }
        }
    }

    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        let child = self.parent.castled::<WHITE>(king, rook);
        let our_king = child.by_kind[PieceKind::King as usize] & child.by_color[sides::<WHITE>().0 as usize];
        self.child::<false, false>(
            &child,
            self.pawn_attacks | self.knight_attacks | crate::attacks::king_attacks(our_king.lsb()),
        );
    }

    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        let child = self.parent.took_en_passant::<WHITE>(from, to);
        self.child::<false, true>(&child, self.leaper_attacks_after_pawn_move(from, Some(to)));
    }
}
