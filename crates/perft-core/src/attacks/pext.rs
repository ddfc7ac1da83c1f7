//! PEXT slider lookups (x86-64 with BMI2): `TABLE[offset + pext(occupied, mask)]`.
//! Compiled on every x86-64 build; called only where the CPU has BMI2 (see
//! [`crate::kernel`]).
//!
//! Walking the subsets of a mask in Carry-Rippler order visits them in
//! increasing numeric order, which is exactly the order of their PEXT
//! indices, so the table is filled by that walk at compile time.

use core::arch::x86_64::_pext_u64;

use super::rays::{relevant_blockers, slider_attacks_slow, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::types::{Bitboard, Square};

#[derive(Clone, Copy)]
struct Entry {
    mask: u64,
    offset: u32,
}

const fn layout(directions: &[(i8, i8); 4]) -> ([Entry; 64], usize) {
    let mut entries = [Entry { mask: 0, offset: 0 }; 64];
    let mut offset = 0usize;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_blockers(sq, directions);
        entries[sq] = Entry { mask, offset: offset as u32 };
        offset += 1 << mask.count_ones();
        sq += 1;
    }
    (entries, offset)
}

const fn table<const N: usize>(entries: &[Entry; 64], directions: &[(i8, i8); 4]) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut sq = 0;
    while sq < 64 {
        let entry = entries[sq];
        let mut index = entry.offset as usize;
        let mut subset = 0u64;
        loop {
            table[index] = Bitboard(slider_attacks_slow(sq, subset, directions));
            index += 1;
            subset = subset.wrapping_sub(entry.mask) & entry.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

const ROOK_LAYOUT: ([Entry; 64], usize) = layout(&ROOK_DIRECTIONS);
const BISHOP_LAYOUT: ([Entry; 64], usize) = layout(&BISHOP_DIRECTIONS);

static ROOK_ENTRIES: [Entry; 64] = ROOK_LAYOUT.0;
static BISHOP_ENTRIES: [Entry; 64] = BISHOP_LAYOUT.0;
static ROOK_TABLE: [Bitboard; ROOK_LAYOUT.1] = table(&ROOK_LAYOUT.0, &ROOK_DIRECTIONS);
static BISHOP_TABLE: [Bitboard; BISHOP_LAYOUT.1] = table(&BISHOP_LAYOUT.0, &BISHOP_DIRECTIONS);

/// Whether every square's slice `offset .. offset + 2^popcount(mask)` lies
/// inside a table of `len` entries.
const fn slices_fit(entries: &[Entry; 64], len: usize) -> bool {
    let mut sq = 0;
    while sq < 64 {
        if entries[sq].offset as usize + (1usize << entries[sq].mask.count_ones()) > len {
            return false;
        }
        sq += 1;
    }
    true
}

const _: () =
    assert!(slices_fit(&ROOK_LAYOUT.0, ROOK_LAYOUT.1) && slices_fit(&BISHOP_LAYOUT.0, BISHOP_LAYOUT.1));

/// # Safety
/// The CPU must have BMI2.
#[inline(always)]
unsafe fn lookup(table: &[Bitboard], entry: &Entry, occupied: Bitboard) -> Bitboard {
    // SAFETY: the caller promises BMI2.
    let index = unsafe { _pext_u64(occupied.0, entry.mask) };
    // PEXT gathers the bits of `occupied` under `mask`, so `index` is below
    // 2^popcount(mask), and the assertion above puts every square's slice
    // inside its table.
    debug_assert!((entry.offset as usize + index as usize) < table.len());
    // SAFETY: in bounds, as just argued. Skipping the bounds check removes
    // a compare and branch from every slider lookup (measured in README).
    unsafe { *table.get_unchecked(entry.offset as usize + index as usize) }
}

/// Rook attacks from `sq` with blockers `occupied`, by PEXT lookup.
///
/// # Safety
/// The CPU must have BMI2.
#[inline(always)]
pub(crate) unsafe fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    // SAFETY: passed on to the caller.
    unsafe { lookup(&ROOK_TABLE, &ROOK_ENTRIES[sq as usize], occupied) }
}

/// Bishop attacks from `sq` with blockers `occupied`, by PEXT lookup.
///
/// # Safety
/// The CPU must have BMI2.
#[inline(always)]
pub(crate) unsafe fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    // SAFETY: passed on to the caller.
    unsafe { lookup(&BISHOP_TABLE, &BISHOP_ENTRIES[sq as usize], occupied) }
}
