//! Knight, king and pawn attack tables.

use crate::types::Bitboard;

const fn leaper_table(deltas: &[(i8, i8)]) -> [Bitboard; 64] {
    let mut table = [Bitboard::EMPTY; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut bits = 0u64;
        let mut i = 0;
        while i < deltas.len() {
            let file = (sq % 8) as i8 + deltas[i].0;
            let rank = (sq / 8) as i8 + deltas[i].1;
            if file >= 0 && file < 8 && rank >= 0 && rank < 8 {
                bits |= 1 << (rank * 8 + file);
            }
            i += 1;
        }
        table[sq] = Bitboard(bits);
        sq += 1;
    }
    table
}

/// Squares a knight attacks, by square.
pub(crate) static KNIGHT: [Bitboard; 64] =
    leaper_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);

/// Squares a king attacks, by square.
pub(crate) static KING: [Bitboard; 64] =
    leaper_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);

/// Squares a pawn attacks, by color then square.
pub(crate) static PAWN: [[Bitboard; 64]; 2] =
    [leaper_table(&[(-1, 1), (1, 1)]), leaper_table(&[(-1, -1), (1, -1)])];
