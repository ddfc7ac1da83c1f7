//! Rays, between and line tables, and the slow ray-walking slider attacks the
//! lookup tables are built (and tested) from.

use crate::types::Bitboard;

/// The four rook directions as (file, rank) steps.
pub(crate) const ROOK_DIRECTIONS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// The four bishop directions as (file, rank) steps.
pub(crate) const BISHOP_DIRECTIONS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares a slider on `sq` attacks along `directions`, stopping at (and
/// including) the first square in `occupied`.
pub(crate) const fn slider_attacks_slow(sq: usize, occupied: u64, directions: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (sq % 8) as i8 + df;
        let mut rank = (sq / 8) as i8 + dr;
        while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
            let bit = 1u64 << (rank * 8 + file);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            file += df;
            rank += dr;
        }
        d += 1;
    }
    attacks
}

/// Squares whose occupancy matters for a slider on `sq`: its rays without
/// the last square of each (a blocker on the edge changes nothing).
pub(crate) const fn relevant_blockers(sq: usize, directions: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = directions[d];
        let mut file = (sq % 8) as i8 + df;
        let mut rank = (sq / 8) as i8 + dr;
        while file + df >= 0 && file + df < 8 && rank + dr >= 0 && rank + dr < 8 {
            mask |= 1u64 << (rank * 8 + file);
            file += df;
            rank += dr;
        }
        d += 1;
    }
    mask
}

const fn between_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let directions = [
        ROOK_DIRECTIONS[0],
        ROOK_DIRECTIONS[1],
        ROOK_DIRECTIONS[2],
        ROOK_DIRECTIONS[3],
        BISHOP_DIRECTIONS[0],
        BISHOP_DIRECTIONS[1],
        BISHOP_DIRECTIONS[2],
        BISHOP_DIRECTIONS[3],
    ];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = directions[d];
            let mut file = (a % 8) as i8 + df;
            let mut rank = (a / 8) as i8 + dr;
            let mut passed = 0u64;
            while file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                let b = (rank * 8 + file) as usize;
                table[a][b] = Bitboard(passed);
                passed |= 1u64 << b;
                file += df;
                rank += dr;
            }
            d += 1;
        }
        a += 1;
    }
    table
}

const fn line_table() -> [[Bitboard; 64]; 64] {
    let mut table = [[Bitboard::EMPTY; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let rook = slider_attacks_slow(a, 0, &ROOK_DIRECTIONS);
        let bishop = slider_attacks_slow(a, 0, &BISHOP_DIRECTIONS);
        let mut b = 0;
        while b < 64 {
            let bit_a = 1u64 << a;
            let bit_b = 1u64 << b;
            if rook & bit_b != 0 {
                table[a][b] = Bitboard((rook & slider_attacks_slow(b, 0, &ROOK_DIRECTIONS)) | bit_a | bit_b);
            } else if bishop & bit_b != 0 {
                table[a][b] =
                    Bitboard((bishop & slider_attacks_slow(b, 0, &BISHOP_DIRECTIONS)) | bit_a | bit_b);
            }
            b += 1;
        }
        a += 1;
    }
    table
}

/// `BETWEEN[a][b]`: squares strictly between `a` and `b` on a line, or empty.
pub(crate) static BETWEEN: [[Bitboard; 64]; 64] = between_table();

/// `LINE[a][b]`: the whole line through `a` and `b`, edge to edge, or empty
/// if they share no line.
pub(crate) static LINE: [[Bitboard; 64]; 64] = line_table();
