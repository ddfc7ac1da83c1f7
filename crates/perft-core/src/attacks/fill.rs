//! The attacks of many sliders at once, by Kogge-Stone fills.
//!
//! With AVX2 the eight directions run as two vectors of four lanes (one
//! lane per direction): the union of many sliders' attacks, or the number
//! of their moves, costs a few dozen vector instructions, no table read and
//! no branch per slider. Compiled on every x86-64 build, and called only
//! where the CPU has AVX2 (see [`crate::kernel`]); without it the callers
//! look each slider up. Where the kernel may use AVX-512 (`v4`), each step
//! of a fill ORs in the shifted, masked generator with one ternary-logic
//! instruction instead of an AND and an OR (a shorter dependency chain),
//! and a count takes each lane's popcount in one instruction instead of by
//! nibble lookups.

use crate::kernel::Isa;
use crate::types::Bitboard;
use core::arch::asm;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi64, _mm256_add_epi8, _mm256_and_si256, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_or_si256, _mm256_sad_epu8, _mm256_set1_epi64x, _mm256_set1_epi8,
    _mm256_set_epi64x, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_sllv_epi64,
    _mm256_srli_epi16, _mm256_srlv_epi64, _mm_add_epi64, _mm_cvtsi128_si64, _mm_or_si128, _mm_unpackhi_epi64,
};

const NOT_FILE_A: i64 = 0xfefe_fefe_fefe_fefe_u64 as i64;
const NOT_FILE_H: i64 = 0x7f7f_7f7f_7f7f_7f7f_u64 as i64;

/// The squares attacked by the rook-like sliders on `straight` and the
/// bishop-like ones on `diagonal` (queens in both), with `occupied` as
/// blockers.
///
/// # Safety
/// The CPU must have AVX2, and AVX-512VL and AVX512-VPOPCNTDQ if
/// `K::AVX512`.
#[inline(always)]
pub(crate) unsafe fn slider_attacks<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    occupied: Bitboard,
) -> Bitboard {
    // SAFETY: passed on to the caller.
    unsafe {
        let (up, down) = by_direction::<K>(straight, diagonal, occupied);
        union(up, down)
    }
}

/// The number of moves the sliders on `straight` and `diagonal` (queens in
/// both) have onto `target`, with `occupied` as blockers: the sum over the
/// sliders of their targets, not the size of the union. One direction's
/// attacks of different sliders never overlap (the nearer slider blocks the
/// farther), so counting each direction's union gives that sum.
///
/// # Safety
/// As [`slider_attacks`].
#[inline(always)]
pub(crate) unsafe fn slider_move_count<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    occupied: Bitboard,
    target: Bitboard,
) -> u64 {
    // SAFETY: passed on to the caller.
    unsafe {
        let (up, down) = by_direction::<K>(straight, diagonal, occupied);
        count_on_target::<K>(up, down, target)
    }
}

/// [`slider_attacks`] and [`slider_move_count`] at once, from one fill,
/// and the squares of those attacks where a piece that arrives or leaves
/// changes the count: those whose next square in the attack's direction is
/// on the board and in `target`.
/// Elsewhere (the last square before the edge, or before a piece not in
/// `target`) a blocker arriving cuts off nothing that was counted, and one
/// leaving opens nothing that would be.
///
/// # Safety
/// As [`slider_attacks`].
#[inline(always)]
pub(crate) unsafe fn slider_attacks_move_count_and_cuts<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    occupied: Bitboard,
    target: Bitboard,
) -> (Bitboard, u64, Bitboard) {
    // SAFETY: passed on to the caller.
    unsafe {
        let (up, down) = by_direction::<K>(straight, diagonal, occupied);
        let targets = _mm256_set1_epi64x(target.0 as i64);
        // The squares one step back from a target the step lands on.
        let up_cuts = _mm256_and_si256(up, _mm256_srlv_epi64(_mm256_and_si256(targets, up_edges()), steps()));
        let down_cuts =
            _mm256_and_si256(down, _mm256_sllv_epi64(_mm256_and_si256(targets, down_edges()), steps()));
        (union(up, down), count_on_target::<K>(up, down, target), union(up_cuts, down_cuts))
    }
}

/// The step of each lane's direction, as [`by_direction`] orders them:
/// north (8), east (1), north-east (9) and north-west (7) up, south, west,
/// south-west and south-east down (`_mm256_set_epi64x` takes the lanes
/// high to low).
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn steps() -> __m256i {
    // SAFETY: the caller promises AVX2.
    unsafe { _mm256_set_epi64x(7, 9, 1, 8) }
}

/// The squares a step towards higher squares may land on, per lane: a step
/// east lands off file a, a step west off file h (the square it reached
/// wrapped to the other edge).
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn up_edges() -> __m256i {
    // SAFETY: the caller promises AVX2.
    unsafe { _mm256_set_epi64x(NOT_FILE_H, NOT_FILE_A, NOT_FILE_A, -1) }
}

/// The squares a step towards lower squares may land on, per lane.
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn down_edges() -> __m256i {
    // SAFETY: the caller promises AVX2.
    unsafe { _mm256_set_epi64x(NOT_FILE_A, NOT_FILE_H, NOT_FILE_H, -1) }
}

/// The union of all lanes of `up` and `down`.
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn union(up: __m256i, down: __m256i) -> Bitboard {
    // SAFETY: the caller promises AVX2.
    unsafe {
        let both = _mm256_or_si256(up, down);
        let half = _mm_or_si128(_mm256_castsi256_si128(both), _mm256_extracti128_si256::<1>(both));
        Bitboard(_mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64)
    }
}

/// The number of set bits of `up` and `down` on `target`, all lanes.
/// # Safety
/// As [`slider_attacks`].
#[inline(always)]
unsafe fn count_on_target<K: Isa>(up: __m256i, down: __m256i, target: Bitboard) -> u64 {
    // SAFETY: the caller promises AVX2, and VPOPCNTDQ with `K::AVX512`.
    unsafe {
        let target = _mm256_set1_epi64x(target.0 as i64);
        let up = _mm256_and_si256(up, target);
        let down = _mm256_and_si256(down, target);
        let lanes = if K::AVX512 {
            // Measured: start 2%, Kiwipete 2.5%, endgame 1%, mirrored 3.5%,
            // talkchess 3% faster than the nibble lookups (AMD Zen 4).
            _mm256_add_epi64(lane_popcounts(up), lane_popcounts(down))
        } else {
            nibble_popcounts(up, down)
        };
        let half = _mm_add_epi64(_mm256_castsi256_si128(lanes), _mm256_extracti128_si256::<1>(lanes));
        _mm_cvtsi128_si64(_mm_add_epi64(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

/// The number of set bits of each 64-bit lane of `a` and `b`, summed lane by
/// lane: per byte by nibble lookups, per lane by SAD.
/// # Safety
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn nibble_popcounts(a: __m256i, b: __m256i) -> __m256i {
    // SAFETY: the caller promises AVX2.
    unsafe {
        let nibbles = _mm256_set1_epi8(0x0f);
        let table = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        );
        let byte_counts = |v: __m256i| {
            let low = _mm256_and_si256(v, nibbles);
            let high = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibbles);
            _mm256_add_epi8(_mm256_shuffle_epi8(table, low), _mm256_shuffle_epi8(table, high))
        };
        // At most 8 + 8 per byte: no overflow.
        _mm256_sad_epu8(_mm256_add_epi8(byte_counts(a), byte_counts(b)), _mm256_setzero_si256())
    }
}

/// The attacks of the sliders in each of the eight directions, one lane per
/// direction: north, east, north-east and north-west in the first vector,
/// south, west, south-west and south-east in the second.
/// # Safety
/// As [`slider_attacks`].
#[inline(always)]
unsafe fn by_direction<K: Isa>(
    straight: Bitboard,
    diagonal: Bitboard,
    occupied: Bitboard,
) -> (__m256i, __m256i) {
    // SAFETY: the caller promises AVX2; none of these instructions reads or
    // writes memory.
    unsafe {
        // Lanes 0-1 carry the straight sliders, lanes 2-3 the diagonal ones
        // (`_mm256_set_epi64x` takes the lanes high to low).
        let sliders =
            _mm256_set_epi64x(diagonal.0 as i64, diagonal.0 as i64, straight.0 as i64, straight.0 as i64);
        let empty = _mm256_set1_epi64x(!occupied.0 as i64);
        let up = occluded::<K, true>(sliders, empty, steps(), up_edges());
        let down = occluded::<K, false>(sliders, empty, steps(), down_edges());
        (up, down)
    }
}

/// Each lane's attacks in its own direction: the sliders in `generator`
/// stepped `step` squares at a time (towards higher squares if `UP`) across
/// `empty` squares, landing only on `edge_mask`.
/// # Safety
/// As [`slider_attacks`].
#[inline(always)]
unsafe fn occluded<K: Isa, const UP: bool>(
    mut generator: __m256i,
    empty: __m256i,
    step: __m256i,
    edge_mask: __m256i,
) -> __m256i {
    // SAFETY: the caller promises AVX2 (and AVX-512VL for `or_and`).
    unsafe {
        let or_and = |generator, propagator, shifted| or_and::<K>(generator, propagator, shifted);
        let shift = |v: __m256i, by: __m256i| {
            if UP {
                _mm256_sllv_epi64(v, by)
            } else {
                _mm256_srlv_epi64(v, by)
            }
        };
        let step2 = _mm256_add_epi64(step, step);
        let step4 = _mm256_add_epi64(step2, step2);
        let mut propagator = _mm256_and_si256(empty, edge_mask);
        generator = or_and(generator, propagator, shift(generator, step));
        propagator = _mm256_and_si256(propagator, shift(propagator, step));
        generator = or_and(generator, propagator, shift(generator, step2));
        propagator = _mm256_and_si256(propagator, shift(propagator, step2));
        generator = or_and(generator, propagator, shift(generator, step4));
        _mm256_and_si256(shift(generator, step), edge_mask)
    }
}

/// The number of set bits of each 64-bit lane of `v` (AVX512-VPOPCNTDQ).
///
/// # Safety
/// The CPU must have AVX-512VL and AVX512-VPOPCNTDQ. (AVX2 is enabled here
/// for the assembly's registers; inlined into a kernel's code, which has
/// it.)
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn lane_popcounts(v: __m256i) -> __m256i {
    let mut counts = v;
    // SAFETY: the caller promises the instruction; as assembly for the
    // same reason as `or_and`'s.
    unsafe {
        asm!(
            "vpopcntq {v}, {v}",
            v = inout(ymm_reg) counts,
            options(pure, nomem, nostack, preserves_flags),
        );
    }
    counts
}

/// `a | (b & c)`: with `K::AVX512`, one AVX-512VL `vpternlogq`.
///
/// # Safety
/// As [`slider_attacks`]. (AVX2 is enabled here for the assembly's
/// registers; inlined into a kernel's code, which has it.)
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn or_and<K: Isa>(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
    if K::AVX512 {
        let mut result = a;
        // SAFETY: the caller promises AVX-512VL. Written as assembly so that
        // the kernel needs no AVX-512 target feature, with which the
        // compiler would also copy structures in 64-byte registers (slower
        // here: stores of single fields do not forward to 64-byte loads).
        // Truth table 0xf8: bit (a << 2 | b << 1 | c) is a | (b & c).
        unsafe {
            asm!(
                "vpternlogq {a}, {b}, {c}, 0xf8",
                a = inout(ymm_reg) result,
                b = in(ymm_reg) b,
                c = in(ymm_reg) c,
                options(pure, nomem, nostack, preserves_flags),
            );
        }
        result
    } else {
        _mm256_or_si256(a, _mm256_and_si256(b, c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attacks::tests::xorshift as next;
    use crate::attacks::{bishop_attacks, rook_attacks};
    use crate::kernel::{Avx2, Isa, Level};

    /// On each kernel with fills that this CPU runs (what a kernel needs is
    /// decided in one place, [`Level::is_supported`]).
    #[test]
    fn fills_agree_with_lookups_in_union_and_in_sum() {
        if Level::V3.is_supported() {
            fills_agree::<Avx2<false, false>>();
        }
        if Level::V4.is_supported() {
            fills_agree::<Avx2<false, true>>();
        }
    }

    fn fills_agree<K: Isa>() {
        let mut state = 0x9e37_79b9_7f4a_7c15;
        for round in 0..20_000 {
            // Sparse and dense boards alike.
            let density = round % 4;
            let mut occupied = next(&mut state);
            for _ in 0..density {
                occupied &= next(&mut state);
            }
            let straight = Bitboard(occupied & next(&mut state) & next(&mut state));
            let diagonal = Bitboard(occupied & next(&mut state) & next(&mut state));
            let occupied = Bitboard(occupied);
            let mut expected = Bitboard::EMPTY;
            for sq in straight {
                expected |= rook_attacks(sq, occupied);
            }
            for sq in diagonal {
                expected |= bishop_attacks(sq, occupied);
            }
            let target = Bitboard(next(&mut state) | next(&mut state));
            let moves: u32 = straight
                .into_iter()
                .map(|sq| (rook_attacks(sq, occupied) & target).count())
                .sum::<u32>()
                + diagonal.into_iter().map(|sq| (bishop_attacks(sq, occupied) & target).count()).sum::<u32>();
            // SAFETY (here and below): the caller checked that the CPU runs `K`.
            assert_eq!(
                unsafe { slider_move_count::<K>(straight, diagonal, occupied, target) },
                u64::from(moves)
            );
            let (seen, count, _) =
                unsafe { slider_attacks_move_count_and_cuts::<K>(straight, diagonal, occupied, target) };
            assert_eq!((seen, count), (expected, u64::from(moves)));
            assert_eq!(
                unsafe { slider_attacks::<K>(straight, diagonal, occupied) },
                expected,
                "straight {straight:?} diagonal {diagonal:?} occupied {occupied:?}"
            );
            // With the targets of real moves (every empty square, some
            // pieces, none of the sliders' side), the cuts are exactly the
            // targets where a piece arriving or leaving changes the count.
            let target = (target | !occupied) - straight - diagonal;
            let (seen, count, cuts) =
                unsafe { slider_attacks_move_count_and_cuts::<K>(straight, diagonal, occupied, target) };
            assert_eq!(seen, expected);
            assert_eq!(count, unsafe { slider_move_count::<K>(straight, diagonal, occupied, target) });
            assert!((cuts - seen).is_empty());
            for square in target {
                let toggled = occupied ^ square.bitboard();
                let changed = unsafe { slider_move_count::<K>(straight, diagonal, toggled, target) }
                    != unsafe { slider_move_count::<K>(straight, diagonal, occupied, target) };
                assert_eq!(changed, cuts.has(square), "{square:?}: straight {straight:?} diagonal {diagonal:?} occupied {occupied:?} target {target:?}");
            }
        }
    }
}
