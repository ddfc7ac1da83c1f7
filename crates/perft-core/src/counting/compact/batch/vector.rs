//! The vector steps of a batch: eight positions at once, one per 64-bit
//! lane of a 512-bit vector. Slider attacks of pieces that differ per
//! lane by Kogge-Stone fills ([`fill`]); rays from a square that is the
//! same in every lane cut at their first blocker by two bit tricks
//! ([`cut_rays`]); leaper attacks by shifts.
//!
//! Every function here is `unsafe` and `#[inline(always)]`: it is inlined
//! into a function compiled with AVX-512 F, BW, CD, DQ, VL and VPOPCNTDQ
//! (see [`super::count_moves`]), which its caller must be.

use core::arch::x86_64::{
    __m512i, _mm512_and_si512, _mm512_andnot_si512, _mm512_lzcnt_epi64, _mm512_or_si512, _mm512_popcnt_epi64,
    _mm512_set1_epi64, _mm512_setzero_si512, _mm512_slli_epi64, _mm512_sllv_epi64, _mm512_srli_epi64,
    _mm512_sub_epi64, _mm512_ternarylogic_epi64,
};

use crate::types::Square;

pub(super) const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
pub(super) const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const NOT_FILES_AB: u64 = 0xfcfc_fcfc_fcfc_fcfc;
const NOT_FILES_GH: u64 = 0x3f3f_3f3f_3f3f_3f3f;

/// The eight directions, as (file, rank) steps: the four towards higher
/// squares first (north, east, north-east, north-west), then the four
/// towards lower ones (south, west, south-west, south-east). Straight
/// ones are 0, 1, 4 and 5, diagonal ones 2, 3, 6 and 7.
const DIRECTIONS: [(i8, i8); 8] = [(0, 1), (1, 0), (1, 1), (-1, 1), (0, -1), (-1, 0), (-1, -1), (1, -1)];

/// The straight directions of [`DIRECTIONS`], then the diagonal ones: two
/// up and two down each.
pub(super) const STRAIGHT: [usize; 4] = [0, 1, 4, 5];
pub(super) const DIAGONAL: [usize; 4] = [2, 3, 6, 7];

/// The empty-board ray from each square in each of [`DIRECTIONS`].
static RAYS: [[u64; 64]; 8] = {
    let mut rays = [[0; 64]; 8];
    let mut d = 0;
    while d < 8 {
        let (df, dr) = DIRECTIONS[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut file, mut rank) = ((sq % 8) as i8 + df, (sq / 8) as i8 + dr);
            while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                rays[d][sq] |= 1 << (rank * 8 + file);
                file += df;
                rank += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    rays
};

/// The empty-board ray from `sq` in direction `d` of [`DIRECTIONS`].
#[inline(always)]
pub(super) fn ray(d: usize, sq: Square) -> u64 {
    RAYS[d][sq as usize]
}

/// `x` in every lane.
#[inline(always)]
pub(super) unsafe fn splat(x: u64) -> __m512i {
    // SAFETY: see the module.
    unsafe { _mm512_set1_epi64(x as i64) }
}

/// `a | b | c`.
#[inline(always)]
pub(super) unsafe fn or3(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe { _mm512_ternarylogic_epi64::<0xfe>(a, b, c) }
}

/// The number of set bits of each lane.
#[inline(always)]
pub(super) unsafe fn popcnt(v: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe { _mm512_popcnt_epi64(v) }
}

/// `v` moved `N` squares towards h8 if `UP`, else towards a1.
#[inline(always)]
unsafe fn step<const UP: bool, const N: u32>(v: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        if UP {
            _mm512_slli_epi64::<N>(v)
        } else {
            _mm512_srli_epi64::<N>(v)
        }
    }
}

/// A Kogge-Stone fill of the sliders on `sliders` through `empty`, `S`
/// squares a step (towards h8 if `UP`; `S2` and `S4` are twice and four
/// times `S`), the squares a step wraps to kept out by `edge`: the squares
/// they attack in that direction.
#[inline(always)]
unsafe fn fill<const UP: bool, const S: u32, const S2: u32, const S4: u32>(
    sliders: __m512i,
    empty: __m512i,
    edge: __m512i,
) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let mut g = sliders;
        let mut p = _mm512_and_si512(empty, edge);
        // g |= p & (g << s): ternary logic 0xf8 is a | (b & c).
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S>(g));
        p = _mm512_and_si512(p, step::<UP, S>(p));
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S2>(g));
        p = _mm512_and_si512(p, step::<UP, S2>(p));
        g = _mm512_ternarylogic_epi64::<0xf8>(g, p, step::<UP, S4>(g));
        _mm512_and_si512(step::<UP, S>(g), edge)
    }
}

/// The squares the rook-like sliders on `sliders` attack through `empty`.
#[inline(always)]
pub(super) unsafe fn straight_attacks(sliders: __m512i, empty: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let (all, not_a, not_h) = (splat(!0), splat(NOT_FILE_A), splat(NOT_FILE_H));
        _mm512_or_si512(
            or3(
                fill::<true, 8, 16, 32>(sliders, empty, all),
                fill::<false, 8, 16, 32>(sliders, empty, all),
                fill::<true, 1, 2, 4>(sliders, empty, not_a),
            ),
            fill::<false, 1, 2, 4>(sliders, empty, not_h),
        )
    }
}

/// The squares the bishop-like sliders on `sliders` attack through
/// `empty`.
#[inline(always)]
pub(super) unsafe fn diagonal_attacks(sliders: __m512i, empty: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let (not_a, not_h) = (splat(NOT_FILE_A), splat(NOT_FILE_H));
        _mm512_or_si512(
            or3(
                fill::<true, 9, 18, 36>(sliders, empty, not_a),
                fill::<true, 7, 14, 28>(sliders, empty, not_h),
                fill::<false, 7, 14, 28>(sliders, empty, not_a),
            ),
            fill::<false, 9, 18, 36>(sliders, empty, not_h),
        )
    }
}

/// The squares the knights on `knights` attack.
#[inline(always)]
pub(super) unsafe fn knight_attacks(knights: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        // 0x80: a & b & c; 0xf8: a | (b & c).
        let one = _mm512_ternarylogic_epi64::<0xf8>(
            _mm512_and_si512(_mm512_slli_epi64::<1>(knights), splat(NOT_FILE_A)),
            _mm512_srli_epi64::<1>(knights),
            splat(NOT_FILE_H),
        );
        let two = _mm512_ternarylogic_epi64::<0xf8>(
            _mm512_and_si512(_mm512_slli_epi64::<2>(knights), splat(NOT_FILES_AB)),
            _mm512_srli_epi64::<2>(knights),
            splat(NOT_FILES_GH),
        );
        _mm512_or_si512(
            or3(_mm512_slli_epi64::<16>(one), _mm512_srli_epi64::<16>(one), _mm512_slli_epi64::<8>(two)),
            _mm512_srli_epi64::<8>(two),
        )
    }
}

/// The squares the king on `king` attacks.
#[inline(always)]
pub(super) unsafe fn king_attacks(king: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let sideways = _mm512_ternarylogic_epi64::<0xf8>(
            _mm512_and_si512(_mm512_slli_epi64::<1>(king), splat(NOT_FILE_A)),
            _mm512_srli_epi64::<1>(king),
            splat(NOT_FILE_H),
        );
        let row = _mm512_or_si512(sideways, king);
        or3(sideways, _mm512_slli_epi64::<8>(row), _mm512_srli_epi64::<8>(row))
    }
}

/// The squares the pawns on `pawns` attack, white ones if `white`.
#[inline(always)]
pub(super) unsafe fn pawn_attacks(white: bool, pawns: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let (west, east) = pawn_attacks_by_side(white, pawns);
        _mm512_or_si512(west, east)
    }
}

/// The squares the pawns on `pawns` (white ones if `white`) attack
/// towards the a-file, and those they attack towards the h-file.
#[inline(always)]
pub(super) unsafe fn pawn_attacks_by_side(white: bool, pawns: __m512i) -> (__m512i, __m512i) {
    // SAFETY: see the module.
    unsafe {
        let (west, east) = if white {
            (_mm512_slli_epi64::<7>(pawns), _mm512_slli_epi64::<9>(pawns))
        } else {
            (_mm512_srli_epi64::<9>(pawns), _mm512_srli_epi64::<7>(pawns))
        };
        (_mm512_and_si512(west, splat(NOT_FILE_H)), _mm512_and_si512(east, splat(NOT_FILE_A)))
    }
}

/// The squares of `ray` (an empty-board ray from a square towards higher
/// squares) up to the first of `blockers` on it, that one included.
#[inline(always)]
unsafe fn ray_up(ray: __m512i, blockers: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let on = _mm512_and_si512(ray, blockers);
        let lowest = _mm512_and_si512(on, _mm512_sub_epi64(_mm512_setzero_si512(), on));
        let below = _mm512_sub_epi64(lowest, splat(1));
        // ray & (lowest ^ below): 0x60 is a & (b ^ c). No blocker: all of it.
        _mm512_ternarylogic_epi64::<0x60>(ray, lowest, below)
    }
}

/// The squares of `ray` (towards lower squares) down to the first of
/// `blockers` on it, that one included.
#[inline(always)]
unsafe fn ray_down(ray: __m512i, blockers: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        // Square a1 stands in for a blocker where there is none: the ray
        // then runs to its end (a1 is never beyond it).
        let on = _mm512_or_si512(_mm512_and_si512(ray, blockers), splat(1));
        let highest = _mm512_sllv_epi64(splat(1), _mm512_sub_epi64(splat(63), _mm512_lzcnt_epi64(on)));
        _mm512_andnot_si512(_mm512_sub_epi64(highest, splat(1)), ray)
    }
}

/// The rays from `sq` in the directions `ds` (of [`DIRECTIONS`]: two up,
/// then two down, as [`STRAIGHT`] and [`DIAGONAL`] list them), each up to
/// its first blocker, that one included.
#[inline(always)]
pub(super) unsafe fn cut_rays(sq: Square, ds: [usize; 4], blockers: __m512i) -> [__m512i; 4] {
    // SAFETY: see the module.
    unsafe {
        let ray = |i: usize| splat(ray(ds[i], sq));
        [
            ray_up(ray(0), blockers),
            ray_up(ray(1), blockers),
            ray_down(ray(2), blockers),
            ray_down(ray(3), blockers),
        ]
    }
}

/// The squares a slider on `sq` moving in the directions `ds` attacks,
/// `occupied` holding the blockers.
#[inline(always)]
pub(super) unsafe fn slider_from(sq: Square, ds: [usize; 4], occupied: __m512i) -> __m512i {
    // SAFETY: see the module.
    unsafe {
        let [a, b, c, d] = cut_rays(sq, ds, occupied);
        _mm512_or_si512(or3(a, b, c), d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::Bitboard;

    #[test]
    fn rays_are_the_slider_attacks_on_an_empty_board() {
        for sq in Square::ALL {
            let straight = STRAIGHT.iter().fold(0, |all, &d| all | ray(d, sq));
            let diagonal = DIAGONAL.iter().fold(0, |all, &d| all | ray(d, sq));
            assert_eq!(Bitboard(straight), crate::attacks::rook_attacks(sq, Bitboard::EMPTY), "{sq:?}");
            assert_eq!(Bitboard(diagonal), crate::attacks::bishop_attacks(sq, Bitboard::EMPTY), "{sq:?}");
        }
    }
}
