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

use core::marker::PhantomData;

use super::U64_SAFE_DEPTH;
use crate::attacks::{pawn_attacks, pawn_set_attacks, pawn_set_attacks_by_side, pawn_set_pushes};
use crate::board::{king_destination, rook_destination, Board, CastlingConfig};
use crate::kernel::{outlined, Isa, Job, Kernel};
use crate::movegen::{
    castling_candidate, generate_for, generate_pieces, leaper_attacks, slider_danger, Counter, KingLines,
    PawnMoves, Position, Sink, Sliders,
};
use crate::types::{Bitboard, CastlingRights, CastlingSide, Color, Move, MoveKind, PieceKind, Rank, Square};

/// A position reduced to what counting needs.
#[derive(Clone, Copy)]
pub(crate) struct Compact<'a> {
    by_kind: [Bitboard; 6],
    by_color: [Bitboard; 2],
    side_to_move: Color,
    castling: CastlingRights,
    /// Set after a double push when an enemy pawn stands beside the pushed
    /// pawn; whether the capture is legal the generator decides.
    en_passant: Option<Square>,
    chess960: bool,
    config: &'a CastlingConfig,
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
struct Known<
    'p,
    'a,
    K,
    const CASTLING: u8,
    const EN_PASSANT: bool,
    const LEAPER_CHECKS: bool = true,
    const PROMOTIONS: bool = true,
    const ROOKS_ONLY: bool = false,
> {
    position: &'p Compact<'a>,
    /// [`Position::leaper_attacks`] of the side not to move, if
    /// known.
    their_leaper_attacks: Option<Bitboard>,
    /// [`Position::known_pins`].
    pins: Option<KingLines>,
    isa: PhantomData<K>,
}

/// The side to move has no castling rights.
const NO_CASTLING: u8 = 0;
/// The side to move may castle, by standard rules.
const STANDARD_CASTLING: u8 = 1;
/// The side to move may castle, by Chess960 rules.
const CHESS960_CASTLING: u8 = 2;
/// Whether and how the side to move may castle is read from the position.
const ANY_CASTLING: u8 = 3;

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
    fn new(
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
    fn pieces<const ROOKS_ONLY: bool>(&self, kind: PieceKind) -> Bitboard {
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
    fn sliders<const ROOKS_ONLY: bool>(&self, color: Color) -> (Bitboard, Bitboard) {
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
    fn rooks_only<const WHITE: bool>(&self) -> bool {
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
    fn after<const WHITE: bool>(&self, mv: Move) -> Self {
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
    fn moved<const WHITE: bool>(&self, kind: PieceKind, from: Square, to: Square) -> Self {
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
    fn quietly_moved<const WHITE: bool>(&self, kind: PieceKind, from: Square, to: Square) -> Self {
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
    fn pushed<const WHITE: bool>(&self, from: Square, to: Square, en_passant: bool) -> Self {
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
    fn en_passant_pushes<const WHITE: bool>(&self, targets: Bitboard) -> Bitboard {
        let (us, them) = sides::<WHITE>();
        let their_pawns = self.by_kind[PieceKind::Pawn as usize] & self.by_color[them as usize];
        targets & pawn_set_pushes(us, pawn_set_attacks(them, their_pawns))
    }

    /// The child after a pawn on `from` promoted to `piece` on `to`.
    #[inline(always)]
    fn promoted<const WHITE: bool>(&self, from: Square, to: Square, piece: PieceKind) -> Self {
        let mut child = self.moved::<WHITE>(PieceKind::Pawn, from, to);
        child.by_kind[PieceKind::Pawn as usize] ^= to.bitboard();
        child.by_kind[piece as usize] ^= to.bitboard();
        child
    }

    /// The child after an en-passant capture onto `to`.
    #[inline(always)]
    fn took_en_passant<const WHITE: bool>(&self, from: Square, to: Square) -> Self {
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
    fn castled<const WHITE: bool>(&self, king: Square, rook: Square) -> Self {
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
    fn slider_attacks<K: Isa, const ROOKS_ONLY: bool>(
        &self,
        color: Color,
        zone: Bitboard,
        occupied: Bitboard,
    ) -> Bitboard {
        let (straight, diagonal) = self.sliders::<ROOKS_ONLY>(color);
        slider_danger::<K>(straight, diagonal, zone, occupied)
    }

    #[inline(always)]
    fn lose_rights(&mut self, from: Square, to: Square) {
        if !self.castling.is_empty() {
            let lost = self.config.lost[from as usize].union(self.config.lost[to as usize]);
            self.castling = self.castling.without(lost);
        }
    }
}

/// The number of moves of the side not to move's pawns when `WHITE` is to
/// move, given the squares one step ahead of them (`pushes`), those they
/// attack towards the a-file and the h-file, the occupied squares, and
/// their targets for captures (`WHITE`'s pieces): pushes onto empty
/// squares, two steps from their third rank, captures, four moves for each
/// target on the last rank if `PROMOTIONS`.
#[inline(always)]
fn pawn_move_count<const WHITE: bool, const PROMOTIONS: bool>(
    pushes: Bitboard,
    west: Bitboard,
    east: Bitboard,
    occupied: Bitboard,
    targets: Bitboard,
) -> u64 {
    let them = sides::<WHITE>().1;
    let single = pushes - occupied;
    let double = pawn_set_pushes(them, single & Rank::Third.relative_to(them).bitboard()) - occupied;
    let (west, east) = (west & targets, east & targets);
    let mut moves = u64::from(single.count() + double.count() + west.count() + east.count());
    if PROMOTIONS {
        let last_rank = Rank::Eighth.relative_to(them).bitboard();
        moves += 3 * u64::from(
            (single & last_rank).count() + (west & last_rank).count() + (east & last_rank).count(),
        );
    }
    moves
}

/// The moves of `sliders` onto `target`, `occupied` holding the blockers.
/// Outlined: inlined at each quiet child, the same count cost 1-2% fewer
/// instructions but 27% more time on the start position.
#[inline(always)]
fn count_slider_moves<K: Isa>(sliders: Sliders, occupied: Bitboard, target: Bitboard) -> u64 {
    outlined::<K, _>(SliderMoves { sliders, occupied, target })
}

/// [`count_slider_moves`], compiled per kernel.
struct SliderMoves {
    sliders: Sliders,
    occupied: Bitboard,
    target: Bitboard,
}

impl Job for SliderMoves {
    type Output = u64;

    #[inline(always)]
    fn run<K: Isa>(self) -> u64 {
        let mut counter = Counter(0);
        counter.sliders::<K>(self.sliders, self.occupied, self.target);
        counter.0
    }
}

#[inline(always)]
const fn sides<const WHITE: bool>() -> (Color, Color) {
    if WHITE {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    }
}

/// Leaves `depth` plies below `position` (at least 1 ply), counted in a
/// `u64` on `kernel`: `depth` is at most [`U64_SAFE_DEPTH`].
pub(crate) fn count(kernel: Kernel, position: &Compact, depth: u32) -> u64 {
    debug_assert!((1..=U64_SAFE_DEPTH).contains(&depth));
    kernel.run(Count { position, depth })
}

/// [`count`], compiled per kernel.
struct Count<'p, 'a> {
    position: &'p Compact<'a>,
    depth: u32,
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
fn subtree<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
    if depth == 1 {
        // Only a count of one ply lands here: nothing known in advance.
        leaves::<K, WHITE, ANY_CASTLING, true, true, true, false>(position, None)
    } else {
        interior::<K, WHITE>(position, depth)
    }
}

/// The legal moves of `position`, counted by set sizes, given the attacks
/// of the other side's pawns, knights and king if the caller has them. A
/// function of its own (per kernel): most calls land here, and it needs
/// fewer registers saved than the recursion around it.
#[inline(always)]
fn leaves<
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
struct Leaves<
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
    position: &'p Compact<'a>,
    their_leaper_attacks: Bitboard,
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
fn quiet_leaves<
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
struct QuietLeaves<
    'p,
    'a,
    'q,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    position: &'p Compact<'a>,
    their_leaper_attacks: Bitboard,
    quiet: &'q QuietChildren,
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

/// Counts moves but those of the unpinned bishops, rooks and queens, which
/// it keeps for [`slider_sight`].
struct SplitCounter {
    sliders: Sliders,
    others: Counter,
}

impl Sink for SplitCounter {
    #[inline(always)]
    fn piece(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
        self.others.piece(kind, from, to);
    }
    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, delta: i8, kind: PawnMoves) {
        self.others.pawns(to, delta, kind);
    }
    #[inline(always)]
    fn castle(&mut self, king: Square, rook: Square) {
        self.others.castle(king, rook);
    }
    #[inline(always)]
    fn en_passant(&mut self, from: Square, to: Square) {
        self.others.en_passant(from, to);
    }
    #[inline(always)]
    fn sliders<K: Isa>(&mut self, sliders: Sliders, _: Bitboard, _: Bitboard) {
        self.sliders = sliders;
    }
}

/// The squares `sliders` see, blockers included, the number of their moves
/// onto `target`, `occupied` holding the blockers, and the squares they see
/// where a piece arriving or leaving changes that number (see
/// [`crate::attacks::fill::slider_attacks_move_count_and_cuts`]): with
/// `K`'s AVX2 fills, one fill for all three where there are two or more
/// sliders; otherwise a lookup per slider, and every square seen counts as
/// one that changes the number.
#[inline(always)]
fn slider_sight<K: Isa>(sliders: Sliders, occupied: Bitboard, target: Bitboard) -> (Bitboard, u64, Bitboard) {
    let Sliders { bishops, rooks, queens } = sliders;
    #[cfg(target_arch = "x86_64")]
    if K::FILL && (bishops | rooks | queens).more_than_one() {
        // SAFETY: `K` runs here, and `FILL` is only set for instruction sets
        // with AVX2 (`AVX512` for those with AVX-512VL and VPOPCNTDQ).
        return unsafe {
            crate::attacks::fill::slider_attacks_move_count_and_cuts::<K>(
                rooks | queens,
                bishops | queens,
                occupied,
                target,
            )
        };
    }
    let mut seen = Bitboard::EMPTY;
    let mut moves = 0;
    let mut add = |attacks: Bitboard| {
        seen |= attacks;
        moves += u64::from((attacks & target).count());
    };
    for from in bishops {
        add(K::bishop_attacks(from, occupied));
    }
    for from in rooks {
        add(K::rook_attacks(from, occupied));
    }
    for from in queens {
        add(K::queen_attacks(from, occupied));
    }
    (seen, moves, seen)
}

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
struct QuietChildren {
    /// The squares a quiet child's move by each kind of piece does not
    /// leave (indexed by [`PieceKind`]).
    leaving: [Bitboard; PieceKind::NUM],
    /// The squares it does not enter.
    entering: [Bitboard; PieceKind::NUM],
    /// The other side's pins.
    pins: KingLines,
    /// The number of moves of the other side's knights, bishops, rooks and
    /// queens (read by [`quiet_leaves`]).
    piece_moves: u64,
    /// What a quiet child's moves are counted from in place, without the
    /// child being made (see [`QuietChildren::count_in_place`]).
    in_place: InPlace,
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
struct InPlace {
    /// The other king's zone.
    zone: Bitboard,
    /// The other king.
    their_king: Bitboard,
    /// The lines from the zone, zone included, of the kinds the moving
    /// side's sliders move along: a slider's move touching one of them has
    /// those sliders filled again.
    zone_lines: Bitboard,
    /// The squares of those lines that the moving side's sliders see,
    /// blockers included: only there can another piece's move change what
    /// they attack in the zone.
    zone_cuts: Bitboard,
    /// The moves of the other side's knights, pinned bishops, rooks and
    /// queens, and pinned pawns, the same in every quiet child.
    fixed_moves: u64,
    /// The other side's unpinned bishops, rooks and queens.
    sliders: Sliders,
    /// The squares they see where a piece arriving or leaving changes
    /// their number of moves (see [`slider_sight`]): a move touching one
    /// has their moves counted again.
    cuts: Bitboard,
    /// Their moves in the parent.
    slider_moves: u64,
    /// The other side's unpinned pawns, one step forward.
    pawn_pushes: Bitboard,
    /// The squares they attack towards the a-file.
    pawn_attacks_west: Bitboard,
    /// The squares they attack towards the h-file.
    pawn_attacks_east: Bitboard,
    /// The squares next to the other king that its own pieces leave free.
    king_targets: Bitboard,
    /// The squares of the other king's zone the moving side's sliders
    /// attack.
    slider_danger: Bitboard,
    /// The squares a pawn push that is counted with the others (see
    /// [`QuietChildren::count_pushes_in_place`]) neither leaves nor enters:
    /// the squares of the moving side's sight of the zone where a piece
    /// changes it, and those from which a pawn attacks the zone.
    push_apart: Bitboard,
    /// The other king's path for each castling it may try as far as its
    /// rights and the empty squares go (indexed by [`CastlingSide`]), or
    /// every square where it may not: the danger map is never empty (the
    /// moving side's king attacks are in it), so such a path is never
    /// free.
    castling_paths: [Bitboard; 2],
}

impl InPlace {
    /// Nothing is counted in place (never read: see [`QuietChildren::NONE`]
    /// and [`QuietChildren::count_in_place`]).
    const NONE: Self = InPlace {
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
    const NONE: Self = QuietChildren {
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
    fn of<K: Isa, const WHITE: bool, const CASTLING: u8, const ROOKS_ONLY: bool>(position: &Compact) -> Self {
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
    fn count_in_place<
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
    fn moves_as_in_parent<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
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
    fn pushes_together(&self, targets: Bitboard, delta: i8) -> Bitboard {
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
    fn count_pushes_in_place<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
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
    fn slider_moves_together(&self, from: Square, targets: Bitboard) -> Bitboard {
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
    fn count_slider_moves_in_place<const WHITE: bool, const CASTLING: u8, const PROMOTIONS: bool>(
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
struct TheirPawns {
    /// The squares one step ahead of them.
    pushes: Bitboard,
    /// Those of `pushes` that are empty: their single pushes.
    single: Bitboard,
    /// Their third rank, where a single push may go on to a double one.
    third_rank: Bitboard,
    /// Their last rank.
    last_rank: Bitboard,
    /// The squares whose next square ahead of them is empty.
    empty_ahead: Bitboard,
    /// The single pushes from which a double push is open.
    doubles: Bitboard,
    /// Where those double pushes land.
    double_targets: Bitboard,
    /// The squares they attack towards the a-file.
    west: Bitboard,
    /// The squares they attack towards the h-file.
    east: Bitboard,
}

impl TheirPawns {
    /// The other side's pawns of the node that found `in_place`, `parent`,
    /// `WHITE` to move.
    #[inline(always)]
    fn of<const WHITE: bool>(in_place: &InPlace, parent: &Compact) -> Self {
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
    fn weight<const PROMOTIONS: bool>(&self, squares: Bitboard) -> u64 {
        u64::from(squares.count())
            + if PROMOTIONS { 3 * u64::from((squares & self.last_rank).count()) } else { 0 }
    }

    /// Their captures of pieces on `squares`.
    #[inline(always)]
    fn captures_of<const PROMOTIONS: bool>(&self, squares: Bitboard) -> u64 {
        self.weight::<PROMOTIONS>(squares & self.west) + self.weight::<PROMOTIONS>(squares & self.east)
    }

    /// Their moves gained and lost, summed over the children where a piece
    /// of the other side arrives on one of the empty `targets` each: a
    /// capture of it gained, the single push onto its target lost, and the
    /// double pushes through it or onto it.
    #[inline(always)]
    fn arriving<const PROMOTIONS: bool>(&self, targets: Bitboard) -> (u64, u64) {
        let lost = self.weight::<PROMOTIONS>(targets & self.pushes)
            + u64::from((targets & self.doubles).count())
            + u64::from((targets & self.double_targets).count());
        (self.captures_of::<PROMOTIONS>(targets), lost)
    }
}

/// The square a pawn move of `delta` squares onto `to` started from.
#[inline(always)]
fn pawn_move_origin(to: Square, delta: i8) -> Square {
    Square::from_bits_masked((to as i32 - i32::from(delta)) as u32)
}

/// `squares` moved `delta` squares towards h8 (towards a1 where negative).
#[inline(always)]
fn shifted(squares: Bitboard, delta: i8) -> Bitboard {
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
    fn of<K: Isa, const WHITE: bool, const ROOKS_ONLY: bool>(
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

/// Leaves `depth` (at least 2) plies below `position`: every child made
/// and counted. Outlined, so the recursion has one frame per ply.
#[inline(always)]
fn interior<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
    outlined::<K, _>(Interior::<WHITE> { position, depth })
}

/// [`interior`], compiled per kernel.
struct Interior<'p, 'a, const WHITE: bool> {
    position: &'p Compact<'a>,
    depth: u32,
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
fn interior_body<K: Isa, const WHITE: bool>(position: &Compact, depth: u32) -> u64 {
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
fn last_ply<K: Isa, const WHITE: bool, const PROMOTIONS: bool>(position: &Compact) -> u64 {
    match (position.castling.any_of(sides::<WHITE>().1), position.chess960) {
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
fn last_children<
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
struct LastChildren<
    'p,
    'a,
    const WHITE: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    position: &'p Compact<'a>,
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
fn children<
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
struct Descend<
    'p,
    'a,
    K,
    const WHITE: bool,
    const LAST: bool,
    const CASTLING: u8,
    const PROMOTIONS: bool,
    const ROOKS_ONLY: bool,
> {
    parent: &'p Compact<'a>,
    /// Plies below each child.
    depth: u32,
    /// If `LAST`, what the parent knows of its quiet children, else
    /// [`QuietChildren::NONE`].
    quiet: QuietChildren,
    /// If `LAST`, the squares the moving side's pawns attack in the parent
    /// (a child's leaves read them, with those of its knights and king,
    /// for the danger map), else empty.
    pawn_attacks: Bitboard,
    /// If `LAST`, the squares two of the moving side's pawns attack in the
    /// parent (one from each side), else empty.
    pawn_attacks_twice: Bitboard,
    /// If `LAST`, the squares the moving side's knights attack in the
    /// parent, else empty.
    knight_attacks: Bitboard,
    /// If `LAST`, the squares the moving side's king attacks in the parent,
    /// else empty.
    king_attacks: Bitboard,
    nodes: u64,
    isa: PhantomData<K>,
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
    fn child<const EN_PASSANT: bool, const LEAPER_CHECKS: bool>(
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
    fn quiet_child(
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
    fn quiet_child_by_leaves(&self, child: &Compact, leaper_attacks: Bitboard) -> u64 {
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
    fn pushes_in_place(&self, targets: Bitboard, delta: i8) -> u64 {
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
    fn slider_moves_in_place(&self, kind: PieceKind, from: Square, targets: Bitboard) -> u64 {
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
    fn leaper_attacks(&self) -> Bitboard {
        self.pawn_attacks | self.knight_attacks | self.king_attacks
    }

    /// The moving side's pawn, knight and king attacks after a pawn left
    /// `from` for `to` (`None` for a promotion: no pawn arrives).
    #[inline(always)]
    fn leaper_attacks_after_pawn_move(&self, from: Square, to: Option<Square>) -> Bitboard {
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
    fn push<const QUIET: bool>(&mut self, from: Square, to: Square, en_passant: bool) {
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
    fn each_target<const LEAPER_CHECKS: bool>(&mut self, kind: PieceKind, from: Square, to: Bitboard) {
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

#[cfg(test)]
mod tests {
    use super::super::full;
    use super::*;
    use crate::kernel::Baseline;

    /// The counting path's shortcuts (see [`Position::SHORTCUTS`]) find the
    /// same checks and pins as the board's plain lookups, and the same
    /// counts one and two plies deep as the board's move lists, at every
    /// node of random games from positions rich in pins, checks and sliders
    /// (two of them Chess960), and from endgames where rooks are the only
    /// pieces, or bishops are, with pawns about to promote.
    #[test]
    fn shortcuts_agree_with_the_board() {
        const {
            assert!(
                <Known<Baseline, ANY_CASTLING, true> as Position>::SHORTCUTS
                    && !<Board as Position>::SHORTCUTS
            )
        };
        let kernels = Kernel::supported();
        let fens = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "3k4/8/8/1q6/8/3B4/8/1K1R3r w - - 0 1",
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "2r1k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgc - 0 1",
            "8/1P4k1/2r5/8/8/5R2/1K4p1/8 w - - 0 1",
            "r3k2r/1p4P1/8/3R4/8/8/1P4p1/R3K3 b Qkq - 0 1",
            "8/2k5/1p3b2/2p5/2P1P3/3B4/5K2/8 w - - 0 1",
        ];
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut compared = 0;
        let mut with_pins = 0;
        for fen in fens {
            for _ in 0..60 {
                let mut board = Board::from_fen(fen).unwrap();
                for _ in 0..80 {
                    let us = board.side_to_move();
                    let king = board.king(us);
                    let compact = Compact::new(&board);
                    let expected = board.checkers_and_pins(us, king);
                    let found = Known::<Baseline, ANY_CASTLING, true>::new(&compact, None, None)
                        .checkers_and_pins(us, king);
                    assert_eq!(
                        (found.checkers, found.pinned_straight, found.pinned_diagonal),
                        (expected.checkers, expected.pinned_straight, expected.pinned_diagonal),
                        "{}",
                        board.fen()
                    );
                    let (moves, children) =
                        (board.legal_moves().len() as u64, full::<Baseline>(&mut board.fork(), 2));
                    for &kernel in &kernels {
                        assert_eq!(count(kernel, &compact, 1), moves, "{kernel}: {}", board.fen());
                        assert_eq!(count(kernel, &compact, 2), children, "{kernel}: {}", board.fen());
                    }
                    compared += 1;
                    with_pins += usize::from((expected.pinned_straight | expected.pinned_diagonal).any());
                    let moves = board.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    let pick = crate::attacks::tests::xorshift(&mut state) % moves.len() as u64;
                    board.make(moves[pick as usize]);
                }
            }
        }
        assert!(compared > 10_000 && with_pins > 500, "{compared} nodes, {with_pins} with pins");
    }
}
