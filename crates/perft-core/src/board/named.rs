//! The usual test positions, by name: the chessprogramming wiki's "Perft
//! Results" positions and the Chess960 position of the benchmark set.

/// A test position known by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedPosition {
    /// Its name, as `--position` takes it.
    pub name: &'static str,
    /// Other names it goes by (the wiki's numbering).
    pub aliases: &'static [&'static str],
    /// Its FEN.
    pub fen: &'static str,
    /// What it is, in a few words.
    pub about: &'static str,
}

/// The named positions, the start position first.
pub const NAMED_POSITIONS: &[NamedPosition] = &[
    NamedPosition {
        name: "start",
        aliases: &["startpos", "position1"],
        fen: super::STARTPOS_FEN,
        about: "the standard starting position",
    },
    NamedPosition {
        name: "kiwipete",
        aliases: &["position2"],
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        about: "Peter McKenzie's castling, pins and en passant test (the wiki's position 2)",
    },
    NamedPosition {
        name: "endgame",
        aliases: &["position3"],
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        about: "a rook endgame with en-passant pins (the wiki's position 3)",
    },
    NamedPosition {
        name: "mirrored",
        aliases: &["position4"],
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        about: "promotions and checks (the wiki's position 4, whose colour-flipped twin counts the same)",
    },
    NamedPosition {
        name: "mirrored-flipped",
        aliases: &["position4-mirrored"],
        fen: "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        about: "the wiki's position 4 with the colours flipped",
    },
    NamedPosition {
        name: "talkchess",
        aliases: &["position5"],
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        about: "the position that caught bugs discussed on TalkChess (the wiki's position 5)",
    },
    NamedPosition {
        name: "edwards",
        aliases: &["position6"],
        fen: "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        about: "Steven Edwards' alternative perft position (the wiki's position 6)",
    },
    NamedPosition {
        name: "chess960",
        aliases: &[],
        fen: "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
        about: "a Chess960 position of the benchmark set (Shredder-FEN castling)",
    },
];

/// The position named `name` (or one of its aliases), ignoring case.
pub fn named_position(name: &str) -> Option<&'static NamedPosition> {
    NAMED_POSITIONS
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name) || p.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;

    #[test]
    fn every_named_position_reads_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for position in NAMED_POSITIONS {
            Board::from_fen(position.fen).unwrap_or_else(|e| panic!("{}: {e}", position.name));
            for name in std::iter::once(&position.name).chain(position.aliases) {
                assert!(names.insert(name.to_ascii_lowercase()), "{name} twice");
            }
        }
        assert_eq!(named_position("KiwiPete").map(|p| p.name), Some("kiwipete"));
        assert_eq!(named_position("position3").map(|p| p.name), Some("endgame"));
        assert_eq!(named_position("nowhere"), None);
    }
}
