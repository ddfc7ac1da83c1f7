//! Children counted as sets: the quiet moves of one piece kind, whose
//! children differ only by the moved piece, counted together
//! ([`QuietChildren`]), with the other side's pawns ([`TheirPawns`]) and the
//! child made in place ([`InPlace`]).

use super::counts::{count_slider_moves, pawn_move_count, slider_sight, SplitCounter};
use super::position::{sides, Compact, Known, ANY_CASTLING, CHESS960_CASTLING, NO_CASTLING};
use crate::attacks::{pawn_attacks, pawn_set_attacks, pawn_set_attacks_by_side, pawn_set_pushes};
use crate::kernel::Isa;
use crate::movegen::{castling_candidate, generate_pieces, Counter, KingLines, Position, Sliders};
use crate::types::{Bitboard, CastlingSide, Color, PieceKind, Rank, Square};

/// What a node one ply above the leaves knows of its quiet children: those
/// after a move that captures nothing, does not promote, castle or leave an
/// en-passant square, gives no check, and cannot change the other king's
/// pins: it neither leaves nor enters a square between that king and the
/// moving side's sliders on its lines where that may change a check or pin,
/// nor a square the other side's castling needs empty; a slider's move also
/// neither leaves a square from which it pins, nor enters the king's lines
/// of its kind (`leaving` and `entering`). In such a child the other king
/// has the pins it has in the node itself and no check, and the other
/// side's knights and pinned pieces have the moves they have there, so
/// those are found once for all of them. So do its unpinned bishops, rooks
/// and queens unless the move cuts or opens one of their lines: [`InPlace`]
/// counts those again. A child that may castle by
/// Chess960 rules is counted by [`quiet_leaves`], which takes all of those
/// pieces' moves from here: for it, a move touching such a square does not
/// make a quiet child.
pub(super) struct QuietChildren {
    /// The squares a quiet child's move by each kind of piece does not
    /// leave (indexed by [`PieceKind`]).
    pub(super) leaving: [Bitboard; PieceKind::NUM],
    /// The squares it does not enter.
    pub(super) entering: [Bitboard; PieceKind::NUM],
    /// The other side's pins.
    pub(super) pins: KingLines,
    /// The number of moves of the other side's knights, bishops, rooks and
    /// queens (read by [`quiet_leaves`]).
    pub(super) piece_moves: u64,
    /// What a quiet child's moves are counted from in place, without the
    /// child being made (see [`QuietChildren::count_in_place`]).
    pub(super) in_place: InPlace,
}

/// What a node one ply above the leaves knows of the moves of its quiet
/// children, to count them in place: no move generation, no call. The
/// moves of the other side's unpinned sliders are the parent's unless the
/// move cuts or opens one of their lines (`cuts`); then they are counted
/// again, by a call that keeps that code out of the parent's loops. Where
/// none of the other side's pawns is pinned, a quiet child's pawn moves
/// follow from its occupancy (no check, no en-passant square), and its
/// king's moves and castlings from the danger on the king's zone (the
/// squares it may step to and its castling paths). That danger is the
/// moving side's pawn, knight and king attacks, handed down, and its
/// slider attacks there, which are the parent's unless the move touches
/// `zone_lines`, the lines from the zone up to the first piece on each
/// (the king lifted off; ranks and files only where that side has a rook
/// or queen, diagonals only where it has a bishop or queen), where that
/// side's sliders see it (`zone_cuts`;
/// a slider's own move, anywhere on those lines). Chess960 castling tests
/// more than the danger map, so a child that may castle that way is left
/// to [`quiet_leaves`].
pub(super) struct InPlace {
    /// The other king's zone.
    pub(super) zone: Bitboard,
    /// The other king.
    pub(super) their_king: Bitboard,
    /// The lines from the zone, zone included, of the kinds the moving
    /// side's sliders move along: a slider's move touching one of them has
    /// those sliders filled again.
    pub(super) zone_lines: Bitboard,
    /// The squares of those lines that the moving side's sliders see,
    /// blockers included: only there can another piece's move change what
    /// they attack in the zone.
    pub(super) zone_cuts: Bitboard,
    /// The moves of the other side's knights, pinned bishops, rooks and
    /// queens, and pinned pawns, the same in every quiet child.
    pub(super) fixed_moves: u64,
    /// The other side's unpinned bishops, rooks and queens.
    pub(super) sliders: Sliders,
    /// The squares they see where a piece arriving or leaving changes
    /// their number of moves (see [`slider_sight`]): a move touching one
    /// has their moves counted again.
    pub(super) cuts: Bitboard,
    /// Their moves in the parent.
    pub(super) slider_moves: u64,
    /// The other side's unpinned pawns, one step forward.
    pub(super) pawn_pushes: Bitboard,
    /// The squares they attack towards the a-file.
    pub(super) pawn_attacks_west: Bitboard,
    /// The squares they attack towards the h-file.
    pub(super) pawn_attacks_east: Bitboard,
    /// The squares next to the other king that its own pieces leave free.
    pub(super) king_targets: Bitboard,
    /// The squares of the other king's zone the moving side's sliders
    /// attack.
    pub(super) slider_danger: Bitboard,
    /// The squares a pawn push that is counted with the others (see
    /// [`QuietChildren::count_pushes_in_place`]) neither leaves nor enters:
    /// the squares of the moving side's sight of the zone where a piece
    /// changes it, and those from which a pawn attacks the zone.
    pub(super) push_apart: Bitboard,
    /// The other king's path for each castling it may try as far as its
    /// rights and the empty squares go (indexed by [`CastlingSide`]), or
    /// every square where it may not: the danger map is never empty (the
    /// moving side's king attacks are in it), so such a path is never
    /// free.
    pub(super) castling_paths: [Bitboard; 2],
}

impl InPlace {
    /// Nothing is counted in place (never read: see [`QuietChildren::NONE`]
    /// and [`QuietChildren::count_in_place`]).
    pub(super) const NONE: Self = InPlace {
        zone: Bitboard::EMPTY,
        their_king: Bitboard::EMPTY,
        zone_lines: Bitboard::FULL,
        zone_cuts: Bitboard::FULL,
        fixed_moves: 0,
        sliders: Sliders::NONE,
        cuts: Bitboard::FULL,
        slider_moves: 0,
        pawn_pushes: Bitboard::EMPTY,
        pawn_attacks_west: Bitboard::EMPTY,
        pawn_attacks_east: Bitboard::EMPTY,
        king_targets: Bitboard::EMPTY,
        slider_danger: Bitboard::EMPTY,
        push_apart: Bitboard::FULL,
        castling_paths: [Bitboard::FULL; 2],
    };
}

impl QuietChildren {
    /// Nothing known: no child is quiet.
    pub(super) const NONE: Self = QuietChildren {
        leaving: [Bitboard::FULL; PieceKind::NUM],
        entering: [Bitboard::FULL; PieceKind::NUM],
        pins: KingLines {
            checkers: Bitboard::EMPTY,
            pinned_straight: Bitboard::EMPTY,
            pinned_diagonal: Bitboard::EMPTY,
        },
        piece_moves: 0,
        in_place: InPlace::NONE,
    };

    /// What `position`, `WHITE` to move, knows of its quiet children, whose
    /// side to move may castle as `CASTLING` says (see [`Known`]).
    #[inline(always)]
    pub(super) fn of<K: Isa, const WHITE: bool, const CASTLING: u8, const ROOKS_ONLY: bool>(
        position: &Compact,
    ) -> Self {
        let them = sides::<WHITE>().1;
        let theirs = position.by_color[them as usize];
        let occupied = position.by_color[0] | position.by_color[1];
        let their_king = (position.by_kind[PieceKind::King as usize] & theirs).lsb();
        // The side not to move is never in check, so no pawn or knight of
        // ours need be looked for around its king.
        let view = Known::<K, ANY_CASTLING, true, false, true, ROOKS_ONLY>::new(position, None, None);
        let pins = view.checkers_and_pins(them, their_king);
        debug_assert!(pins.checkers.is_empty());
        let mut counter = SplitCounter { sliders: Sliders::NONE, others: Counter(0) };
        let target = !theirs;
        if WHITE {
            generate_pieces::<_, _, false>(&view, &mut counter, &pins, target);
        } else {
            generate_pieces::<_, _, true>(&view, &mut counter, &pins, target);
        }
        // The squares the unpinned sliders see: a pinned one moves along
        // its pin ray only, on the king's lines.
        let (seen, slider_moves, cuts) = slider_sight::<K>(counter.sliders, occupied, target);
        let piece_moves = slider_moves + counter.others.0;
        // Where the moving side's bishops, rooks and queens stand on the
        // other king's lines, a move that leaves or enters a square between
        // can open or close a check or pin: where a piece of the other side
        // alone stands between (a pin), any square between, and the
        // pinner's own for its move; where one of ours alone does, its
        // square (a discovered check); where one of each does, ours (its
        // leaving pins the other).
        let ours = occupied - theirs;
        let (straight, diagonal) = position.sliders::<ROOKS_ONLY>(sides::<WHITE>().0);
        let mut unsafe_squares = Bitboard::EMPTY;
        let mut pinners = Bitboard::EMPTY;
        let aligned = (crate::attacks::rook_rays(their_king) & straight)
            | (crate::attacks::bishop_rays(their_king) & diagonal);
        for slider in aligned {
            let between = crate::attacks::between(their_king, slider);
            let blockers = between & occupied;
            let our_blockers = blockers & ours;
            if our_blockers.is_empty() && !blockers.more_than_one() {
                // A pin: ended by a piece entering between, or the pinner
                // leaving.
                unsafe_squares |= between;
                pinners |= slider.bitboard();
            } else if blockers.count() <= 2 && !our_blockers.more_than_one() {
                // A lone piece of ours, alone (a discovered check if it
                // leaves) or beside one of theirs (a pin if it leaves).
                unsafe_squares |= our_blockers;
            }
        }
        // The squares that must be empty for the other side to castle.
        if CASTLING != NO_CASTLING {
            for side in CastlingSide::ALL {
                if position.castling.has(them, side) {
                    unsafe_squares |= position.config.empty[them as usize][side as usize];
                }
            }
        }
        // A child that may castle by Chess960 rules is not counted in place
        // (see `count_in_place`): `quiet_leaves` takes the pieces' moves as
        // they are here.
        let chess960 = CASTLING == CHESS960_CASTLING;
        if chess960 {
            unsafe_squares |= seen;
        }
        // A slider's move checks where it enters the king's lines of its
        // kind up to the first piece, and pins where it enters them beyond
        // a piece of the other side, up to the second.
        let straight_blockers = K::rook_attacks(their_king, occupied) & theirs;
        let diagonal_blockers = K::bishop_attacks(their_king, occupied) & theirs;
        let straight_lines = unsafe_squares | K::rook_attacks(their_king, occupied - straight_blockers);
        let diagonal_lines = unsafe_squares | K::bishop_attacks(their_king, occupied - diagonal_blockers);
        QuietChildren {
            leaving: PieceKind::ALL.map(|kind| match kind {
                PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen => unsafe_squares | pinners,
                _ => unsafe_squares,
            }),
            entering: PieceKind::ALL.map(|kind| match kind {
                PieceKind::Pawn => unsafe_squares | pawn_attacks(them, their_king),
                PieceKind::Knight => unsafe_squares | crate::attacks::knight_attacks(their_king),
                PieceKind::Bishop => diagonal_lines,
                PieceKind::Rook => straight_lines,
                PieceKind::Queen => straight_lines | diagonal_lines,
                PieceKind::King => unsafe_squares,
            }),
            pins,
            piece_moves,
            in_place: if chess960 {
                InPlace::NONE
            } else {
                InPlace::of::<K, WHITE, ROOKS_ONLY>(position, their_king, &pins, counter, cuts, slider_moves)
            },
        }
    }

    /// The number of legal moves of the quiet child after the side to move
    /// in the parent moved a piece from one square of `moved` to the other,
    /// where the moving side's pawns, knights and king attack
    /// `leaper_attacks`, if it can be counted in place (see [`InPlace`]);
    /// `kind` is the piece that moved. `CASTLING` and `PROMOTIONS` are the
    /// child's, as in [`Known`].
    #[inline(always)]
    pub(super) fn count_in_place<
        K: Isa,
        const WHITE: bool,
        const CASTLING: u8,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
    >(
        &self,
        child: &Compact,
        moved: Bitboard,
        kind: PieceKind,
        leaper_attacks: Bitboard,
    ) -> Option<u64> {
        // Chess960 castling tests more than the danger map.
        if CASTLING == CHESS960_CASTLING {
            return None;
        }
        let in_place = &self.in_place;
        let (us, them) = sides::<WHITE>();
        let occupied = child.by_color[0] | child.by_color[1];
        let ours = child.by_color[us as usize];
        // The other side's unpinned sliders: counted again if the move
        // opens or closes one of their lines.
        let slider_moves = if (moved & in_place.cuts).any() {
            count_slider_moves::<K>(in_place.sliders, occupied, !child.by_color[them as usize])
        } else {
            in_place.slider_moves
        };
        let mut moves = in_place.fixed_moves
            + slider_moves
            + pawn_move_count::<WHITE, PROMOTIONS>(
                in_place.pawn_pushes,
                in_place.pawn_attacks_west,
                in_place.pawn_attacks_east,
                occupied,
                ours,
            );
        // The king's moves and castlings: the zone's danger is the moving
        // side's slider attacks there, unchanged, and its leaper attacks.
        // A slider's own attacks move with it.
        let zone_test = match kind {
            PieceKind::Bishop | PieceKind::Rook | PieceKind::Queen => in_place.zone_lines,
            _ => in_place.zone_cuts,
        };
        let slider_danger = if (moved & zone_test).any() {
            // The move opens or closes a line to the zone: the moving
            // side's sliders are filled again.
            child.slider_attacks::<K, ROOKS_ONLY>(us, in_place.zone, occupied - in_place.their_king)
        } else {
            in_place.slider_danger
        };
        let danger = leaper_attacks | slider_danger;
        moves += u64::from((in_place.king_targets - danger).count());
        if CASTLING != NO_CASTLING {
            debug_assert!(danger.any());
            let [king_side, queen_side] = in_place.castling_paths;
            moves += u64::from((king_side & danger).is_empty()) + u64::from((queen_side & danger).is_empty());
        }
        Some(moves)
    }
}

impl QuietChildren {
    /// The legal moves of a quiet child counted together with others (see
    /// [`QuietChildren::count_pushes_in_place`]) as the occupancy of
    /// `parent`, `WHITE` to move, gives them, where the moving side's
    /// pawns, knights and king attack `leaper_attacks`: the other side's
    /// pieces' and pawns' moves there, and its king's moves and castlings
    /// with the parent's danger on its zone.
    #[inline(always)]
    pub(super) fn moves_as_in_parent<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
        &self,
        parent: &Compact,
        leaper_attacks: Bitboard,
    ) -> u64 {
        let in_place = &self.in_place;
        let us = sides::<WHITE>().0;
        let occupied = parent.by_color[0] | parent.by_color[1];
        let danger = leaper_attacks | in_place.slider_danger;
        let mut moves = in_place.fixed_moves
            + in_place.slider_moves
            + pawn_move_count::<WHITE, PROMOTIONS>(
                in_place.pawn_pushes,
                in_place.pawn_attacks_west,
                in_place.pawn_attacks_east,
                occupied,
                parent.by_color[us as usize],
            )
            + u64::from((in_place.king_targets - danger).count());
        if CASTLING != NO_CASTLING {
            let [king_side, queen_side] = in_place.castling_paths;
            moves += u64::from((king_side & danger).is_empty()) + u64::from((queen_side & danger).is_empty());
        }
        moves
    }

    /// The pawn pushes onto `targets` (their quiet children, one step of
    /// `delta` squares each) whose children can be counted together by
    /// [`QuietChildren::count_pushes_in_place`] (the other side's sliders
    /// counted again for a push that cuts or opens one of their lines).
    #[inline(always)]
    pub(super) fn pushes_together(&self, targets: Bitboard, delta: i8) -> Bitboard {
        let apart = self.in_place.push_apart;
        targets - apart - shifted(apart, delta)
    }

    /// The legal moves of all the quiet children after pawn pushes onto
    /// `targets` of `delta` squares each, summed without a loop over them,
    /// where [`QuietChildren::pushes_together`] chose `targets` and the
    /// moving side's pawns, knights and king attack `leaper_attacks` in
    /// `parent`, `WHITE` to move, the other side's sliders' moves taken as
    /// they are in the parent (the caller counts them again for a push that
    /// cuts or opens one of their lines). Such a push leaves the danger on
    /// the other king's zone as it is in the parent, so every child has the
    /// parent's moves but for the other side's pawns, whose moves differ
    /// from the parent's by what stands on the pushed pawn's two squares
    /// (see [`TheirPawns::arriving`]); and a capture of the pawn where it
    /// was is lost. A pawn's push onto the square it leaves, or over it, is
    /// never open (a pawn of the other side would stand on the target or in
    /// between); a push is never on a rank where the other side promotes.
    #[inline(always)]
    pub(super) fn count_pushes_in_place<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
        &self,
        parent: &Compact,
        targets: Bitboard,
        delta: i8,
        leaper_attacks: Bitboard,
    ) -> u64 {
        debug_assert!(CASTLING != CHESS960_CASTLING);
        let pawns = TheirPawns::of::<WHITE>(&self.in_place, parent);
        let from = shifted(targets, -delta);
        debug_assert!((from & pawns.pushes).is_empty());
        debug_assert!(((targets | from) & pawns.last_rank).is_empty());
        let moves = self.moves_as_in_parent::<WHITE, CASTLING, PROMOTIONS>(parent, leaper_attacks);
        let (gained, lost) = pawns.arriving::<PROMOTIONS>(targets);
        u64::from(targets.count()) * moves + gained - lost - pawns.captures_of::<PROMOTIONS>(from)
    }

    /// The moves of a bishop, rook or queen from `from` onto `targets`
    /// (quiet children) whose children can be counted together by
    /// [`QuietChildren::count_slider_moves_in_place`]: none if leaving
    /// `from` has the other side's sliders counted again or the moving
    /// side's sliders' attacks on the zone filled again; else those whose
    /// target has neither, and is not one of the two squares where a pawn
    /// of the other side would push onto or through `from`.
    #[inline(always)]
    pub(super) fn slider_moves_together(&self, from: Square, targets: Bitboard) -> Bitboard {
        let apart = self.in_place.cuts | self.in_place.zone_lines;
        if apart.has(from) {
            return Bitboard::EMPTY;
        }
        let from = from.bitboard();
        targets - apart - pawn_set_pushes(Color::White, from) - pawn_set_pushes(Color::Black, from)
    }

    /// The legal moves of all the quiet children after a bishop, rook or
    /// queen of `parent` (`WHITE` to move) left `from` for one of
    /// `targets`, chosen by [`QuietChildren::slider_moves_together`], where
    /// the moving side's pawns, knights and king attack `leaper_attacks`:
    /// summed without a loop over them, as in
    /// [`QuietChildren::count_pushes_in_place`]. Here every child also
    /// opens the square the piece left: a single push of the other side
    /// onto it and the double pushes from it or onto it where open, and
    /// loses the captures of the piece there.
    #[inline(always)]
    pub(super) fn count_slider_moves_in_place<
        const WHITE: bool,
        const CASTLING: u8,
        const PROMOTIONS: bool,
    >(
        &self,
        parent: &Compact,
        from: Square,
        targets: Bitboard,
        leaper_attacks: Bitboard,
    ) -> u64 {
        debug_assert!(CASTLING != CHESS960_CASTLING);
        let us = sides::<WHITE>().0;
        let pawns = TheirPawns::of::<WHITE>(&self.in_place, parent);
        let left = from.bitboard();
        let mut moves = self.moves_as_in_parent::<WHITE, CASTLING, PROMOTIONS>(parent, leaper_attacks);
        // Leaving `from` opens a single push onto it, a double push on
        // from there, and one through the square behind it onto it.
        moves += pawns.weight::<PROMOTIONS>(left & pawns.pushes)
            + u64::from((left & pawns.pushes & pawns.third_rank & pawns.empty_ahead).count())
            + u64::from((pawn_set_pushes(us, left) & pawns.single & pawns.third_rank).count());
        moves -= pawns.captures_of::<PROMOTIONS>(left);
        let (gained, lost) = pawns.arriving::<PROMOTIONS>(targets);
        u64::from(targets.count()) * moves + gained - lost
    }
}

/// The other side's unpinned pawns as the sums of quiet children read them
/// (see [`QuietChildren::count_pushes_in_place`]), in the parent's
/// occupancy.
pub(super) struct TheirPawns {
    /// The squares one step ahead of them.
    pub(super) pushes: Bitboard,
    /// Those of `pushes` that are empty: their single pushes.
    pub(super) single: Bitboard,
    /// Their third rank, where a single push may go on to a double one.
    pub(super) third_rank: Bitboard,
    /// Their last rank.
    pub(super) last_rank: Bitboard,
    /// The squares whose next square ahead of them is empty.
    pub(super) empty_ahead: Bitboard,
    /// The single pushes from which a double push is open.
    pub(super) doubles: Bitboard,
    /// Where those double pushes land.
    pub(super) double_targets: Bitboard,
    /// The squares they attack towards the a-file.
    pub(super) west: Bitboard,
    /// The squares they attack towards the h-file.
    pub(super) east: Bitboard,
}

impl TheirPawns {
    /// The other side's pawns of the node that found `in_place`, `parent`,
    /// `WHITE` to move.
    #[inline(always)]
    pub(super) fn of<const WHITE: bool>(in_place: &InPlace, parent: &Compact) -> Self {
        let (us, them) = sides::<WHITE>();
        let occupied = parent.by_color[0] | parent.by_color[1];
        let pushes = in_place.pawn_pushes;
        let single = pushes - occupied;
        let third_rank = Rank::Third.relative_to(them).bitboard();
        let empty_ahead = pawn_set_pushes(us, !occupied);
        let doubles = single & third_rank & empty_ahead;
        TheirPawns {
            pushes,
            single,
            third_rank,
            last_rank: Rank::Eighth.relative_to(them).bitboard(),
            empty_ahead,
            doubles,
            double_targets: pawn_set_pushes(them, doubles),
            west: in_place.pawn_attacks_west,
            east: in_place.pawn_attacks_east,
        }
    }

    /// The number of pawn moves onto `squares`, one each, four onto the
    /// last rank where `PROMOTIONS`.
    #[inline(always)]
    pub(super) fn weight<const PROMOTIONS: bool>(&self, squares: Bitboard) -> u64 {
        u64::from(squares.count())
            + if PROMOTIONS { 3 * u64::from((squares & self.last_rank).count()) } else { 0 }
    }

    /// Their captures of pieces on `squares`.
    #[inline(always)]
    pub(super) fn captures_of<const PROMOTIONS: bool>(&self, squares: Bitboard) -> u64 {
        self.weight::<PROMOTIONS>(squares & self.west) + self.weight::<PROMOTIONS>(squares & self.east)
    }

    /// Their moves gained and lost, summed over the children where a piece
    /// of the other side arrives on one of the empty `targets` each: a
    /// capture of it gained, the single push onto its target lost, and the
    /// double pushes through it or onto it.
    #[inline(always)]
    pub(super) fn arriving<const PROMOTIONS: bool>(&self, targets: Bitboard) -> (u64, u64) {
        let lost = self.weight::<PROMOTIONS>(targets & self.pushes)
            + u64::from((targets & self.doubles).count())
            + u64::from((targets & self.double_targets).count());
        (self.captures_of::<PROMOTIONS>(targets), lost)
    }
}

/// The square a pawn move of `delta` squares onto `to` started from.
#[inline(always)]
pub(super) fn pawn_move_origin(to: Square, delta: i8) -> Square {
    Square::from_bits_masked((to as i32 - i32::from(delta)) as u32)
}

/// `squares` moved `delta` squares towards h8 (towards a1 where negative).
#[inline(always)]
pub(super) fn shifted(squares: Bitboard, delta: i8) -> Bitboard {
    if delta > 0 {
        Bitboard(squares.0 << delta)
    } else {
        Bitboard(squares.0 >> -delta)
    }
}

impl InPlace {
    /// What `position`, `WHITE` to move, knows of its quiet children to
    /// count their moves in place, given where the other king stands, the
    /// other side's pins, its pieces' moves with the unpinned sliders kept
    /// apart (`pieces`), and what [`slider_sight`] said of those sliders.
    #[inline(always)]
    pub(super) fn of<K: Isa, const WHITE: bool, const ROOKS_ONLY: bool>(
        position: &Compact,
        their_king: Square,
        pins: &KingLines,
        pieces: SplitCounter,
        cuts: Bitboard,
        slider_moves: u64,
    ) -> Self {
        let (us, them) = sides::<WHITE>();
        let ours = position.by_color[us as usize];
        let theirs = position.by_color[them as usize];
        let their_pawns = position.by_kind[PieceKind::Pawn as usize] & theirs;
        let occupied = ours | theirs;
        // A pinned pawn keeps its moves, along its pin ray, in every quiet
        // child: they are counted once, here.
        let KingLines { pinned_straight, pinned_diagonal, .. } = *pins;
        let pinned_pawns = their_pawns & (pinned_straight | pinned_diagonal);
        let mut fixed_moves = pieces.others.0;
        if pinned_pawns.any() {
            let (west, east) = pawn_set_attacks_by_side(them, their_pawns & pinned_diagonal);
            fixed_moves += pawn_move_count::<WHITE, true>(
                pawn_set_pushes(them, their_pawns & pinned_straight) & pinned_straight,
                west & pinned_diagonal,
                east & pinned_diagonal,
                occupied,
                ours,
            );
        }
        let their_pawns = their_pawns - pinned_pawns;
        let king_targets = crate::attacks::king_attacks(their_king) - theirs;
        // The castling candidates (rights held, squares between empty), the
        // same in every quiet child.
        let mut castling_paths = [Bitboard::FULL; 2];
        let mut zone = king_targets;
        if position.castling.any_of(them) {
            let view = Known::<K, ANY_CASTLING, false>::new(position, None, None);
            for side in CastlingSide::ALL {
                if castling_candidate(&view, them, side) {
                    let path = position.config.king_path[them as usize][side as usize];
                    castling_paths[side as usize] = path;
                    zone |= path;
                }
            }
        }
        let lifted = occupied.without(their_king);
        // Only the kinds of line the moving side has sliders for.
        let (straight, diagonal) = position.sliders::<ROOKS_ONLY>(us);
        let zone_lines = zone
            | crate::attacks::line_set_attacks::<K>(
                if straight.any() { zone } else { Bitboard::EMPTY },
                if diagonal.any() { zone } else { Bitboard::EMPTY },
                lifted,
            );
        // Right on the lines, the zone included.
        let sight = position.slider_attacks::<K, ROOKS_ONLY>(us, zone_lines, lifted);
        let zone_cuts = sight & zone_lines;
        let (pawn_attacks_west, pawn_attacks_east) = pawn_set_attacks_by_side(them, their_pawns);
        InPlace {
            zone,
            their_king: their_king.bitboard(),
            zone_lines,
            zone_cuts,
            fixed_moves,
            sliders: pieces.sliders,
            cuts,
            slider_moves,
            pawn_pushes: pawn_set_pushes(them, their_pawns),
            pawn_attacks_west,
            pawn_attacks_east,
            king_targets,
            slider_danger: sight & zone,
            push_apart: zone_cuts | pawn_set_attacks(them, zone),
            castling_paths,
        }
    }
}
