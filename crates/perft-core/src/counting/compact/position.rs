//! The compact position and making its moves: eight bitboards, the castling
//! rights, an en-passant square, copied and changed by XOR; and [`Known`],
//! the position as the generator sees it with what the caller knows fixed at
//! compile time.

use core::marker::PhantomData;

use crate::attacks::{pawn_attacks, pawn_set_attacks, pawn_set_pushes};
use crate::board::{king_destination, rook_destination, Board, CastlingConfig};
use crate::kernel::Isa;
use crate::movegen::{leaper_attacks, slider_danger, KingLines, Position};
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, PieceKind, Rank, Square};

/// A position reduced to what counting needs.
#[derive(Clone, Copy)]
pub(crate) struct Compact<'a> {
    pub(super) by_kind: [Bitboard; 6],
    pub(super) by_color: [Bitboard; 2],
    pub(super) side_to_move: Color,
    pub(super) castling: CastlingRights,
    /// Set after a double push when an enemy pawn stands beside the pushed
    /// pawn; whether the capture is legal the generator decides.
    pub(super) en_passant: Option<Square>,
    pub(super) chess960: bool,
    pub(super) config: &'a CastlingConfig,
}

/// A compact position as the generator sees it on the instruction set `K`,
/// with what the caller knows about it fixed at compile time so that the
/// code for the rest compiles away. `CASTLING` is [`NO_CASTLING`] where the side to move has no
/// castling rights (most of an endgame's nodes, one side's in many
/// middlegames), [`STANDARD_CASTLING`] or [`CHESS960_CASTLING`] where it
/// has some, and [`ANY_CASTLING`] where the caller does not know (the rights
/// and rules are then read from the position); `EN_PASSANT` is false where
/// no en-passant capture is possible (every child but a double push's);
/// `LEAPER_CHECKS` and `PROMOTIONS` are false where no pawn or knight can
/// give check and no pawn can promote, as in [`Position`]; `ROOKS_ONLY` is
/// true where no knight, bishop or queen stands on the board (one ply
/// above the leaves, where the side to move has no pawn to promote: the
/// children and their leaves have none either). The attacks of
/// the other side's pawns, knights and king, and the pins of a quiet child
/// (see [`QuietChildren`]), come from the parent where it has them.
pub(super) struct Known<
    'p,
    'a,
    K,
    const CASTLING: u8,
    const EN_PASSANT: bool,
    const LEAPER_CHECKS: bool = true,
    const PROMOTIONS: bool = true,
    const ROOKS_ONLY: bool = false,
> {
    pub(super) position: &'p Compact<'a>,
    /// [`Position::leaper_attacks`] of the side not to move, if
    /// known.
    pub(super) their_leaper_attacks: Option<Bitboard>,
    /// [`Position::known_pins`].
    pub(super) pins: Option<KingLines>,
    pub(super) isa: PhantomData<K>,
}

/// The side to move has no castling rights.
pub(super) const NO_CASTLING: u8 = 0;
/// The side to move may castle, by standard rules.
pub(super) const STANDARD_CASTLING: u8 = 1;
/// The side to move may castle, by Chess960 rules.
pub(super) const CHESS960_CASTLING: u8 = 2;
/// Whether and how the side to move may castle is read from the position.
pub(super) const ANY_CASTLING: u8 = 3;

impl<
        K: Isa,
        const CASTLING: u8,
        const EN_PASSANT: bool,
        const LEAPER_CHECKS: bool,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
    > Position for Known<'_, '_, K, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY>
{
    type Isa = K;
    const SHORTCUTS: bool = true;
    const LEAPER_CHECKS: bool = LEAPER_CHECKS;
    const PROMOTIONS: bool = PROMOTIONS;

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.position.side_to_move
    }
    #[inline(always)]
    fn pieces(&self, kind: PieceKind) -> Bitboard {
        self.position.pieces::<ROOKS_ONLY>(kind)
    }
    #[inline(always)]
    fn color(&self, color: Color) -> Bitboard {
        self.position.by_color[color as usize]
    }
    #[inline(always)]
    fn en_passant(&self) -> Option<Square> {
        if EN_PASSANT {
            self.position.en_passant
        } else {
            None
        }
    }
    #[inline(always)]
    fn castling_rights(&self) -> CastlingRights {
        if CASTLING == NO_CASTLING {
            CastlingRights::NONE
        } else {
            self.position.castling
        }
    }
    #[inline(always)]
    fn castling_config(&self) -> &CastlingConfig {
        self.position.config
    }
    #[inline(always)]
    fn is_chess960(&self) -> bool {
        match CASTLING {
            CHESS960_CASTLING => true,
            ANY_CASTLING => self.position.chess960,
            _ => false,
        }
    }
    #[inline(always)]
    fn leaper_attacks(&self, color: Color) -> Bitboard {
        match self.their_leaper_attacks {
            Some(attacks) => {
                debug_assert!(color != self.position.side_to_move && attacks == leaper_attacks(self, color));
                attacks
            }
            None => leaper_attacks(self, color),
        }
    }
    #[inline(always)]
    fn known_pins(&self) -> Option<KingLines> {
        // Never in check where known.
        self.pins.map(|pins| KingLines { checkers: Bitboard::EMPTY, ..pins })
    }
}

impl<
        'p,
        'a,
        K: Isa,
        const CASTLING: u8,
        const EN_PASSANT: bool,
        const LEAPER_CHECKS: bool,
        const PROMOTIONS: bool,
        const ROOKS_ONLY: bool,
    > Known<'p, 'a, K, CASTLING, EN_PASSANT, LEAPER_CHECKS, PROMOTIONS, ROOKS_ONLY>
{
    /// The view of `position`, with the attacks of the side not to move's
    /// pawns, knights and king if known, and the pins of the side to move
    /// if the caller counted its pieces' moves.
    #[inline(always)]
    pub(super) fn new(
        position: &'p Compact<'a>,
        their_leaper_attacks: Option<Bitboard>,
        pins: Option<KingLines>,
    ) -> Self {
        Known { position, their_leaper_attacks, pins, isa: PhantomData }
    }
}

impl<'a> Compact<'a> {
    /// The position of `board`.
    pub(crate) fn new(board: &'a Board) -> Self {
        Compact {
            by_kind: PieceKind::ALL.map(|kind| board.pieces(kind)),
            by_color: Color::ALL.map(|color| board.color(color)),
            side_to_move: board.side_to_move(),
            castling: board.castling_rights(),
            en_passant: board.en_passant(),
            chess960: board.is_chess960(),
            config: board.castling_config(),
        }
    }

    /// The pieces of `kind`, known to be none for a knight, bishop or queen
    /// if `ROOKS_ONLY` (see [`Known`]).
    #[inline(always)]
    pub(super) fn pieces<const ROOKS_ONLY: bool>(&self, kind: PieceKind) -> Bitboard {
        if ROOKS_ONLY && matches!(kind, PieceKind::Knight | PieceKind::Bishop | PieceKind::Queen) {
            debug_assert!(self.by_kind[kind as usize].is_empty());
            Bitboard::EMPTY
        } else {
            self.by_kind[kind as usize]
        }
    }

    /// `color`'s rook-like sliders (rooks and queens) and bishop-like ones
    /// (bishops and queens), as [`Compact::pieces`] sees them.
    #[inline(always)]
    pub(super) fn sliders<const ROOKS_ONLY: bool>(&self, color: Color) -> (Bitboard, Bitboard) {
        let queens = self.pieces::<ROOKS_ONLY>(PieceKind::Queen);
        let side = self.by_color[color as usize];
        (
            (self.pieces::<ROOKS_ONLY>(PieceKind::Rook) | queens) & side,
            (self.pieces::<ROOKS_ONLY>(PieceKind::Bishop) | queens) & side,
        )
    }

    /// Whether no knight, bishop or queen stands on the board and none can
    /// arrive by the next move: the side to move, `WHITE`, has no pawn on
    /// its seventh rank.
    #[inline(always)]
    pub(super) fn rooks_only<const WHITE: bool>(&self) -> bool {
        let us = sides::<WHITE>().0;
        let minors_and_queens = self.by_kind[PieceKind::Knight as usize]
            | self.by_kind[PieceKind::Bishop as usize]
            | self.by_kind[PieceKind::Queen as usize];
        let promoting = self.by_kind[PieceKind::Pawn as usize]
            & self.by_color[us as usize]
            & Rank::Seventh.relative_to(us).bitboard();
        (minors_and_queens | promoting).is_empty()
    }

    /// The child after the legal move `mv` (`WHITE` to move), made as the
    /// counting path makes its children: no board, no key, an en-passant
    /// square wherever an enemy pawn stands beside a double push.
    #[inline(always)]
    pub(super) fn after<const WHITE: bool>(&self, mv: Move) -> Self {
        let (from, to) = (mv.from(), mv.to());
        match mv.kind() {
            MoveKind::Normal => {
                // A legal move starts on a piece of the side to move.
                let kind = PieceKind::ALL.into_iter().find(|&kind| self.by_kind[kind as usize].has(from));
                self.moved::<WHITE>(kind.unwrap_or(PieceKind::King), from, to)
            }
            MoveKind::DoublePush => {
                self.pushed::<WHITE>(from, to, self.en_passant_pushes::<WHITE>(to.bitboard()).any())
            }
            MoveKind::Castle => self.castled::<WHITE>(from, to),
            MoveKind::EnPassant => self.took_en_passant::<WHITE>(from, to),
            MoveKind::PromoteKnight => self.promoted::<WHITE>(from, to, PieceKind::Knight),
            MoveKind::PromoteBishop => self.promoted::<WHITE>(from, to, PieceKind::Bishop),
            MoveKind::PromoteRook => self.promoted::<WHITE>(from, to, PieceKind::Rook),
            MoveKind::PromoteQueen => self.promoted::<WHITE>(from, to, PieceKind::Queen),
        }
    }

    /// The child after `us` moved a `kind` from `from` to `to`, capturing
    /// whatever stood on `to` (clearing `to` from every bitboard of the
    /// other side costs less than finding out what stood there).
    #[inline(always)]
    pub(super) fn moved<const WHITE: bool>(&self, kind: PieceKind, from: Square, to: Square) -> Self {
        let (_, them) = sides::<WHITE>();
        let mut child = *self;
        let keep = !to.bitboard();
        for bb in &mut child.by_kind {
            *bb &= keep;
        }
        child.by_color[them as usize] &= keep;
        child.quietly_moved::<WHITE>(kind, from, to)
    }

    /// The child after `us` moved a `kind` from `from` to the empty square
    /// `to`.
    #[inline(always)]
    pub(super) fn quietly_moved<const WHITE: bool>(&self, kind: PieceKind, from: Square, to: Square) -> Self {
        let (us, them) = sides::<WHITE>();
        let mut child = *self;
        let from_to = from.bitboard() | to.bitboard();
        child.by_kind[kind as usize] ^= from_to;
        child.by_color[us as usize] ^= from_to;
        child.lose_rights(from, to);
        child.en_passant = None;
        child.side_to_move = them;
        child
    }

    /// The child after a pawn push that cannot capture (one or two squares),
    /// with an en-passant square if `en_passant` (a double push with an
    /// enemy pawn beside the pushed pawn: see [`Compact::en_passant_pushes`]).
    #[inline(always)]
    pub(super) fn pushed<const WHITE: bool>(&self, from: Square, to: Square, en_passant: bool) -> Self {
        let (us, them) = sides::<WHITE>();
        let mut child = *self;
        let from_to = from.bitboard() | to.bitboard();
        child.by_kind[PieceKind::Pawn as usize] ^= from_to;
        child.by_color[us as usize] ^= from_to;
        child.en_passant = None;
        if en_passant {
            let ep = Square::from_bits_masked((from as u32 + to as u32) / 2);
            debug_assert!((pawn_attacks(us, ep)
                & self.by_kind[PieceKind::Pawn as usize]
                & self.by_color[them as usize])
                .any());
            child.en_passant = Some(ep);
        }
        child.side_to_move = them;
        child
    }

    /// The targets of `WHITE`'s double pushes onto `targets` that leave an
    /// en-passant square: those with an enemy pawn beside them, that is
    /// one step beyond a square the enemy pawns attack.
    #[inline(always)]
    pub(super) fn en_passant_pushes<const WHITE: bool>(&self, targets: Bitboard) -> Bitboard {
        let (us, them) = sides::<WHITE>();
        let their_pawns = self.by_kind[PieceKind::Pawn as usize] & self.by_color[them as usize];
        targets & pawn_set_pushes(us, pawn_set_attacks(them, their_pawns))
    }

    /// The child after a pawn on `from` promoted to `piece` on `to`.
    #[inline(always)]
    pub(super) fn promoted<const WHITE: bool>(&self, from: Square, to: Square, piece: PieceKind) -> Self {
        let mut child = self.moved::<WHITE>(PieceKind::Pawn, from, to);
        child.by_kind[PieceKind::Pawn as usize] ^= to.bitboard();
        child.by_kind[piece as usize] ^= to.bitboard();
        child
    }

    /// The child after an en-passant capture onto `to`.
    #[inline(always)]
    pub(super) fn took_en_passant<const WHITE: bool>(&self, from: Square, to: Square) -> Self {
        let (us, them) = sides::<WHITE>();
        let mut child = *self;
        let victim = to.xor(8).bitboard();
        let from_to = from.bitboard() | to.bitboard();
        child.by_kind[PieceKind::Pawn as usize] ^= from_to | victim;
        child.by_color[us as usize] ^= from_to;
        child.by_color[them as usize] ^= victim;
        child.en_passant = None;
        child.side_to_move = them;
        child
    }

    /// The child after castling with the rook on `rook` (Chess960 squares
    /// may overlap, so both pieces leave before either arrives).
    #[inline(always)]
    pub(super) fn castled<const WHITE: bool>(&self, king: Square, rook: Square) -> Self {
        let (us, them) = sides::<WHITE>();
        let side = if rook > king { CastlingSide::King } else { CastlingSide::Queen };
        let (king_to, rook_to) =
            (king_destination(us, side).bitboard(), rook_destination(us, side).bitboard());
        let mut child = *self;
        child.by_kind[PieceKind::King as usize] ^= king.bitboard();
        child.by_kind[PieceKind::Rook as usize] ^= rook.bitboard();
        child.by_color[us as usize] ^= king.bitboard() | rook.bitboard();
        child.by_kind[PieceKind::King as usize] |= king_to;
        child.by_kind[PieceKind::Rook as usize] |= rook_to;
        child.by_color[us as usize] |= king_to | rook_to;
        child.castling = child.castling.without(CastlingRights::of(us));
        child.en_passant = None;
        child.side_to_move = them;
        child
    }

    /// The squares of `zone` that `color`'s bishops, rooks and queens
    /// attack with `occupied` as blockers (outside `zone` the answer may say
    /// more or less, as [`slider_danger`]'s).
    #[inline(always)]
    pub(super) fn slider_attacks<K: Isa, const ROOKS_ONLY: bool>(
        &self,
        color: Color,
        zone: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let (straight, diagonal) = self.sliders::<ROOKS_ONLY>(color);
        slider_danger::<K>(straight, diagonal, zone, occupied)
    }

    #[inline(always)]
    pub(super) fn lose_rights(&mut self, from: Square, to: Square) {
        if !self.castling.is_empty() {
            let lost = self.config.lost[from as usize].union(self.config.lost[to as usize]);
            self.castling = self.castling.without(lost);
        }
    }
}

#[inline(always)]
pub(super) const fn sides<const WHITE: bool>() -> (Color, Color) {
    if WHITE {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    }
}
