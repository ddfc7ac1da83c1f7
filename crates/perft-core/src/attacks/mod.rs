//! Attack tables, all built at compile time.
//!
//! Slider lookups use PEXT or magic multiplication, as the counting kernel
//! chose (see [`crate::kernel`]); the public functions here run on the
//! baseline kernel: magic multiplication unless the build itself targets
//! BMI2 (and the `magic` cargo feature is off).

#[cfg(target_arch = "x86_64")]
pub(crate) mod fill;
mod leapers;
pub mod magic;
#[cfg(target_arch = "x86_64")]
pub(crate) mod pext;
mod rays;

use crate::kernel::{Baseline, Isa};
use crate::types::{Bitboard, Color, Square};

/// Squares a knight on `sq` attacks.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    leapers::KNIGHT[sq as usize]
}

/// Squares a king on `sq` attacks.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    leapers::KING[sq as usize]
}

/// Squares a pawn of `color` on `sq` attacks (captures onto).
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    leapers::PAWN[color as usize][sq as usize]
}

/// The squares one rank ahead of the pawns of `color` on `pawns`.
#[inline(always)]
pub fn pawn_set_pushes(color: Color, pawns: Bitboard) -> Bitboard {
    match color {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    }
}

/// Squares the pawns of `color` on `pawns` attack, together.
#[inline(always)]
pub fn pawn_set_attacks(color: Color, pawns: Bitboard) -> Bitboard {
    let (towards_a, towards_h) = pawn_set_attacks_by_side(color, pawns);
    towards_a | towards_h
}

/// Squares the pawns of `color` on `pawns` attack towards the a-file, and
/// those they attack towards the h-file.
#[inline(always)]
pub fn pawn_set_attacks_by_side(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    const NOT_FILE_A: u64 = !0x0101_0101_0101_0101;
    const NOT_FILE_H: u64 = !0x8080_8080_8080_8080;
    let (west, east) = (pawns.0 & NOT_FILE_A, pawns.0 & NOT_FILE_H);
    match color {
        Color::White => (Bitboard(west << 7), Bitboard(east << 9)),
        Color::Black => (Bitboard(west >> 9), Bitboard(east >> 7)),
    }
}

/// Squares a rook on `sq` attacks when `occupied` holds the blockers.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Baseline::rook_attacks(sq, occupied)
}

/// Squares a bishop on `sq` attacks when `occupied` holds the blockers.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    Baseline::bishop_attacks(sq, occupied)
}

/// Squares a queen on `sq` attacks when `occupied` holds the blockers.
#[inline(always)]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// The squares seen along a rank or file from any square of `straight` and
/// along a diagonal from any square of `diagonal`, up to and including the
/// first square of `occupied` on each line (as if a rook stood on each of
/// the first and a bishop on each of the second). With AVX2 fills, by one
/// fill for all; otherwise by a lookup per square and kind of line.
#[inline(always)]
pub(crate) fn line_set_attacks<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    #[cfg(target_arch = "x86_64")]
    if K::FILL {
        // SAFETY: `K` runs here, and `FILL` is only set for instruction sets
        // with AVX2 (`AVX512` for those with AVX-512VL and VPOPCNTDQ).
        return unsafe { fill::slider_attacks::<K>(straight, diagonal, occupied) };
    }
    let mut seen = Bitboard::EMPTY;
    for sq in straight {
        seen |= K::rook_attacks(sq, occupied);
    }
    for sq in diagonal {
        seen |= K::bishop_attacks(sq, occupied);
    }
    seen
}

/// Squares a rook on `sq` attacks on an empty board (its four rays).
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    ROOK_RAYS[sq as usize]
}

/// Squares a bishop on `sq` attacks on an empty board (its four rays).
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    BISHOP_RAYS[sq as usize]
}

/// Squares strictly between `a` and `b` if they share a rank, file or
/// diagonal; empty otherwise.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    rays::BETWEEN[a as usize][b as usize]
}

/// The full line (edge to edge) through `a` and `b` if they share a rank,
/// file or diagonal; empty otherwise (and for `a == b`).
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    rays::LINE[a as usize][b as usize]
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).has(c)
}

static ROOK_RAYS: [Bitboard; 64] = empty_board_rays(&rays::ROOK_DIRECTIONS);
static BISHOP_RAYS: [Bitboard; 64] = empty_board_rays(&rays::BISHOP_DIRECTIONS);

const fn empty_board_rays(directions: &[(i8, i8); 4]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = Bitboard(rays::slider_attacks_slow(sq, 0, directions));
        sq += 1;
    }
    table
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A small deterministic generator for random boards and games (xorshift).
    pub(crate) fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn slider_lookups_match_ray_walks() {
        let mut rng = 0x1234_5678_9abc_def1u64;
        for _ in 0..20_000 {
            let occupied = Bitboard(xorshift(&mut rng) & xorshift(&mut rng));
            for sq in Square::ALL {
                let rook =
                    Bitboard(rays::slider_attacks_slow(sq as usize, occupied.0, &rays::ROOK_DIRECTIONS));
                let bishop =
                    Bitboard(rays::slider_attacks_slow(sq as usize, occupied.0, &rays::BISHOP_DIRECTIONS));
                assert_eq!(rook_attacks(sq, occupied), rook, "rook {sq} {occupied:?}");
                assert_eq!(bishop_attacks(sq, occupied), bishop, "bishop {sq} {occupied:?}");
                assert_eq!(magic::rook_attacks(sq, occupied), rook);
                assert_eq!(magic::bishop_attacks(sq, occupied), bishop);
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("bmi2") {
                    // SAFETY: the CPU has BMI2.
                    unsafe {
                        assert_eq!(pext::rook_attacks(sq, occupied), rook);
                        assert_eq!(pext::bishop_attacks(sq, occupied), bishop);
                    }
                }
            }
        }
    }

    #[test]
    fn leaper_tables() {
        assert_eq!(knight_attacks(Square::A1), Square::B3.bitboard() | Square::C2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8), Square::G8.bitboard() | Square::G7 | Square::H7);
        assert_eq!(pawn_attacks(Color::White, Square::E4), Square::D5.bitboard() | Square::F5);
        assert_eq!(pawn_attacks(Color::Black, Square::A5), Square::B4.bitboard());
        assert!(pawn_attacks(Color::White, Square::H8).is_empty());
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(Square::A1, Square::D4), Square::B2.bitboard() | Square::C3);
        assert_eq!(between(Square::D4, Square::A1), Square::B2.bitboard() | Square::C3);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert!(between(Square::E1, Square::E2).is_empty());
        assert_eq!(line(Square::E1, Square::E5), crate::types::File::E.bitboard());
        assert_eq!(line(Square::A1, Square::C3).count(), 8);
        assert!(line(Square::A1, Square::B3).is_empty());
        assert!(aligned(Square::A1, Square::H8, Square::D4));
        assert!(!aligned(Square::A1, Square::H8, Square::D5));
        for a in Square::ALL {
            for b in Square::ALL {
                assert_eq!(between(a, b), between(b, a));
                assert_eq!(line(a, b), line(b, a));
                if line(a, b).any() {
                    assert!((between(a, b) - line(a, b)).is_empty());
                    assert!(line(a, b).has(a) && line(a, b).has(b));
                }
            }
        }
    }
}
