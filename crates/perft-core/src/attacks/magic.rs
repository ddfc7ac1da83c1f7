//! Fancy magic bitboards: `attacks = TABLE[offset + ((occupied & mask) * magic) >> shift]`.
//!
//! The magic numbers were found by a random search (a sparse xorshift
//! generator, seed `0x9E3779B97F4A7C15`) for the plain "fancy" layout, one
//! table slot per relevant-blocker subset. The table is built at compile time
//! and the build fails if any magic maps two subsets with different attacks
//! to the same slot, so a wrong number here cannot produce a wrong attack set.

use super::rays::{relevant_blockers, slider_attacks_slow, BISHOP_DIRECTIONS, ROOK_DIRECTIONS};
use crate::types::{Bitboard, Square};

/// One square's magic lookup parameters.
#[derive(Clone, Copy)]
pub(crate) struct Magic {
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

const ROOK_MAGIC_NUMBERS: [u64; 64] = [
    0x1080004008801020,
    0x0840092002c03000,
    0x1900200010400900,
    0x0880100008000480,
    0x4200100420080200,
    0x8100020100080400,
    0x0200040110886200,
    0x0200008040220411,
    0x0404800084400220,
    0x0000401000402000,
    0x0086001081220440,
    0x0408800800100280,
    0x000a001201040820,
    0x8848800200840080,
    0x4001000100040200,
    0x0442000102105084,
    0x9080010020804100,
    0x0040404000201009,
    0x0000808010002009,
    0x2200090021d00100,
    0x0008008008040080,
    0x0004004002010040,
    0x0011040008015042,
    0x00000a0001768104,
    0x0000800080204009,
    0x2010004140002001,
    0x9800200280100080,
    0x1000100080080080,
    0x0442000a00049020,
    0x2100040080020080,
    0x0800120400900148,
    0x0010040a00128541,
    0x2800804000800030,
    0x1010002000400041,
    0x4000200011004100,
    0x0610008410800800,
    0x0400802402800800,
    0xc100020080800400,
    0x0002000802000401,
    0x0182085882000401,
    0x0220204000808000,
    0x2860100040024022,
    0x0001002004110040,
    0x99101042000a0020,
    0x0004080004008080,
    0x0010040002008080,
    0x2012004881020004,
    0x8300842444820011,
    0x0088403882010200,
    0x0820400080210100,
    0x0110910040a00300,
    0x0801100280080480,
    0x0242009008200600,
    0x1002000489500200,
    0x0040800200010080,
    0x0091800041000080,
    0x0000209300488001,
    0x04c1002414824001,
    0x020020000b001041,
    0x7000100004200901,
    0x8002002004100802,
    0x30010002084c0007,
    0x0888221800813004,
    0x4000002840840112,
];

const BISHOP_MAGIC_NUMBERS: [u64; 64] = [
    0xa010041108003100,
    0x006082020a002900,
    0x6810010619200000,
    0x08281a0520000408,
    0x0001104001000400,
    0x0018901008048400,
    0x00040a0210245280,
    0x000200210808a402,
    0x9140048410821200,
    0x0800091010820041,
    0x20504804832202c0,
    0x0100091401081000,
    0x8021011140000012,
    0x0810020804450400,
    0x208b0542109008a2,
    0x0080084a08040204,
    0x0040e2a80811244c,
    0x2505022008008108,
    0x0430220100420040,
    0x010a040420220040,
    0x1105000290400000,
    0x0093001200822120,
    0x4000a62048043004,
    0x280120048a015004,
    0x006090002a020814,
    0x44042000240800d0,
    0x01102800040a4400,
    0x1004080080220040,
    0x0001001011004024,
    0x0010044000805040,
    0x0914041200820100,
    0x0004821012821480,
    0x0024040500c05021,
    0x0088611002080200,
    0x0116080a00040020,
    0x4000020080080080,
    0x2450450140840040,
    0x0000880201484100,
    0x0222020404020092,
    0x8081110600002e00,
    0x2842101105000801,
    0x1100809008001025,
    0x00020202221c0400,
    0x0422014022009020,
    0x0210046102100c00,
    0xc004008082029102,
    0x00aa461801101200,
    0x0404080080201108,
    0x020542108c205002,
    0x0410544804100100,
    0x0040910841100000,
    0x0400200042021100,
    0x00004204850400c0,
    0x0200100410a42102,
    0x1040020801210102,
    0x0805040410420000,
    0x2884804130100200,
    0x800c262201242000,
    0x1058000194108800,
    0x0014221054420204,
    0x0104000012a02200,
    0x0200881003300100,
    0x0140400202840100,
    0x0402020801010201,
];

const fn entries(numbers: &[u64; 64], directions: &[(i8, i8); 4]) -> ([Magic; 64], usize) {
    let mut entries = [Magic { mask: 0, magic: 0, offset: 0, shift: 0 }; 64];
    let mut offset = 0usize;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_blockers(sq, directions);
        let bits = mask.count_ones();
        entries[sq] = Magic { mask, magic: numbers[sq], offset: offset as u32, shift: 64 - bits };
        offset += 1 << bits;
        sq += 1;
    }
    (entries, offset)
}

const fn table<const N: usize>(entries: &[Magic; 64], directions: &[(i8, i8); 4]) -> [Bitboard; N] {
    let mut table = [Bitboard::EMPTY; N];
    let mut sq = 0;
    while sq < 64 {
        let entry = entries[sq];
        // Carry-Rippler walk over every subset of the mask.
        let mut subset = 0u64;
        loop {
            let attacks = slider_attacks_slow(sq, subset, directions);
            let index = entry.offset as usize + (subset.wrapping_mul(entry.magic) >> entry.shift) as usize;
            // A slider always attacks something, so 0 marks an unused slot.
            if table[index].0 != 0 && table[index].0 != attacks {
                panic!("magic number collision");
            }
            table[index] = Bitboard(attacks);
            subset = subset.wrapping_sub(entry.mask) & entry.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

const ROOK_LAYOUT: ([Magic; 64], usize) = entries(&ROOK_MAGIC_NUMBERS, &ROOK_DIRECTIONS);
const BISHOP_LAYOUT: ([Magic; 64], usize) = entries(&BISHOP_MAGIC_NUMBERS, &BISHOP_DIRECTIONS);
const ROOK_TABLE_SIZE: usize = ROOK_LAYOUT.1;
const BISHOP_TABLE_SIZE: usize = BISHOP_LAYOUT.1;

static ROOK_MAGICS: [Magic; 64] = ROOK_LAYOUT.0;
static BISHOP_MAGICS: [Magic; 64] = BISHOP_LAYOUT.0;
static ROOK_TABLE: [Bitboard; ROOK_TABLE_SIZE] = table(&ROOK_LAYOUT.0, &ROOK_DIRECTIONS);
static BISHOP_TABLE: [Bitboard; BISHOP_TABLE_SIZE] = table(&BISHOP_LAYOUT.0, &BISHOP_DIRECTIONS);

#[inline(always)]
fn lookup(table: &[Bitboard], entry: &Magic, occupied: Bitboard) -> Bitboard {
    // The shift leaves `64 - shift` = popcount(mask) bits, so the index
    // stays inside the square's slice, which the assertion below puts
    // inside the table.
    let index =
        entry.offset as usize + ((occupied.0 & entry.mask).wrapping_mul(entry.magic) >> entry.shift) as usize;
    debug_assert!(index < table.len());
    // SAFETY: in bounds, as just argued. Skipping the bounds check removes
    // a compare and branch from every slider lookup (measured in README).
    unsafe { *table.get_unchecked(index) }
}

/// Whether every square keeps `64 - shift` index bits, at least one, and
/// its slice `offset .. offset + 2^(64 - shift)` lies inside a table of
/// `len` entries.
const fn slices_fit(entries: &[Magic; 64], len: usize) -> bool {
    let mut sq = 0;
    while sq < 64 {
        let bits = entries[sq].mask.count_ones();
        if entries[sq].shift != 64 - bits || bits == 0 || entries[sq].offset as usize + (1usize << bits) > len
        {
            return false;
        }
        sq += 1;
    }
    true
}

const _: () =
    assert!(slices_fit(&ROOK_LAYOUT.0, ROOK_TABLE_SIZE) && slices_fit(&BISHOP_LAYOUT.0, BISHOP_TABLE_SIZE));

/// Rook attacks from `sq` with blockers `occupied`, by magic lookup.
#[inline(always)]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&ROOK_TABLE, &ROOK_MAGICS[sq as usize], occupied)
}

/// Bishop attacks from `sq` with blockers `occupied`, by magic lookup.
#[inline(always)]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    lookup(&BISHOP_TABLE, &BISHOP_MAGICS[sq as usize], occupied)
}
