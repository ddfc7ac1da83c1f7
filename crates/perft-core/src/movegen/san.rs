//! Moves written in standard algebraic notation (`Nf3`, `exd5`, `O-O`,
//! `e8=Q+`), read by matching the legal moves of the position.

use super::MoveError;
use crate::board::Board;
use crate::types::{CastlingSide, File, Move, PieceKind, Rank, Square};

/// A SAN move taken apart: what it asks of the legal move it names.
#[derive(Debug, PartialEq, Eq)]
enum San {
    Castle(CastlingSide),
    Piece {
        kind: PieceKind,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<PieceKind>,
    },
}

impl San {
    /// Reads `text` without its check, mate and annotation marks; `None`
    /// when it is not SAN.
    fn read(text: &str) -> Option<San> {
        let text = text.trim_end_matches(['+', '#', '!', '?']);
        match text {
            "O-O" | "0-0" => return Some(San::Castle(CastlingSide::King)),
            "O-O-O" | "0-0-0" => return Some(San::Castle(CastlingSide::Queen)),
            _ => {}
        }
        let mut chars: Vec<char> = text.chars().collect();
        let promotion = match chars.as_slice() {
            [.., '=', p] | [.., '1' | '8', p] if p.is_ascii_uppercase() => {
                let kind =
                    PieceKind::from_char(*p).filter(|k| !matches!(k, PieceKind::Pawn | PieceKind::King))?;
                chars.truncate(chars.len() - if chars[chars.len() - 2] == '=' { 2 } else { 1 });
                Some(kind)
            }
            _ => None,
        };
        let kind = match chars.first() {
            Some(c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
                let kind = PieceKind::from_char(*c)?;
                chars.remove(0);
                kind
            }
            _ => PieceKind::Pawn,
        };
        if chars.len() < 2 {
            return None;
        }
        let to =
            Square::new(File::from_char(chars[chars.len() - 2])?, Rank::from_char(chars[chars.len() - 1])?);
        let mut origin: &[char] = &chars[..chars.len() - 2];
        if let [rest @ .., 'x'] = origin {
            origin = rest;
        }
        let (file, rank) = match origin {
            [] => (None, None),
            [c] if File::from_char(*c).is_some() && c.is_ascii_lowercase() => (File::from_char(*c), None),
            [c] => (None, Some(Rank::from_char(*c)?)),
            [f, r] if f.is_ascii_lowercase() => (Some(File::from_char(*f)?), Some(Rank::from_char(*r)?)),
            _ => return None,
        };
        Some(San::Piece { kind, file, rank, to, promotion })
    }

    /// Whether the legal move `mv` of `board` is this one.
    fn names(&self, board: &Board, mv: Move) -> bool {
        match *self {
            San::Castle(side) => mv.is_castle() && mv.castling_side() == side,
            San::Piece { kind, file, rank, to, promotion } => {
                let moved = board.piece_on(mv.from()).map(|p| p.kind());
                !mv.is_castle()
                    && moved == Some(kind)
                    && mv.to() == to
                    && mv.promotion() == promotion
                    && file.is_none_or(|f| mv.from().file() == f)
                    && rank.is_none_or(|r| mv.from().rank() == r)
            }
        }
    }
}

impl Board {
    /// Finds the legal move written `text` in standard algebraic notation
    /// (`e4`, `Nbd7`, `exd6`, `e8=Q`, `O-O`; check and annotation marks
    /// ignored).
    ///
    /// # Errors
    /// [`MoveError::Malformed`] if `text` is not SAN, [`MoveError::Illegal`]
    /// if no legal move matches, [`MoveError::Ambiguous`] if several do.
    pub fn parse_san(&self, text: &str) -> Result<Move, MoveError> {
        let san = San::read(text).ok_or_else(|| MoveError::Malformed(text.chars().take(16).collect()))?;
        let mut matching = self.legal_moves().into_iter().filter(|&mv| san.names(self, mv));
        match (matching.next(), matching.next()) {
            (Some(mv), None) => Ok(mv),
            (None, _) => Err(MoveError::Illegal { mv: text.to_string(), fen: self.fen() }),
            (Some(_), Some(_)) => Err(MoveError::Ambiguous { mv: text.to_string(), fen: self.fen() }),
        }
    }

    /// Finds the legal move written `text` in UCI notation or, when it is
    /// not UCI, in SAN ([`Board::parse_uci`], [`Board::parse_san`]).
    ///
    /// # Errors
    /// As [`Board::parse_san`]; [`MoveError::Illegal`] for well-formed UCI
    /// that is not legal.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        match self.parse_uci(text) {
            Err(MoveError::Malformed(_)) => self.parse_san(text).map_err(|error| match error {
                MoveError::Malformed(text) => MoveError::MalformedEither(text),
                other => other,
            }),
            answer => answer,
        }
    }

    /// Parses `text` as UCI or SAN ([`Board::parse_move`]) and plays it.
    ///
    /// # Errors
    /// As [`Board::parse_move`]; the board is unchanged on an error.
    pub fn play_move(&mut self, text: &str) -> Result<Move, MoveError> {
        let mv = self.parse_move(text)?;
        self.make(mv);
        Ok(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(fen: &str, san: &str) -> Result<String, MoveError> {
        let board = Board::from_fen(fen).unwrap();
        board.parse_san(san).map(|mv| board.uci(mv))
    }

    #[test]
    fn san_names_the_move_it_means() {
        let start = crate::board::STARTPOS_FEN;
        assert_eq!(uci(start, "e4").unwrap(), "e2e4");
        assert_eq!(uci(start, "Nf3").unwrap(), "g1f3");
        assert_eq!(uci(start, "Nc3!?").unwrap(), "b1c3");
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(uci(kiwipete, "O-O").unwrap(), "e1g1");
        assert_eq!(uci(kiwipete, "0-0-0").unwrap(), "e1c1");
        assert_eq!(uci(kiwipete, "dxe6").unwrap(), "d5e6");
        assert_eq!(uci(kiwipete, "Qxf6").unwrap(), "f3f6");
        assert_eq!(uci(kiwipete, "gxh3").unwrap(), "g2h3");
        let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(uci(rooks, "Rad1").unwrap(), "a1d1");
        assert_eq!(uci(rooks, "Rhd1").unwrap(), "h1d1");
        assert!(matches!(uci(rooks, "Rd1"), Err(MoveError::Ambiguous { .. })));
        let stacked = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
        assert_eq!(uci(stacked, "R1a3").unwrap(), "a1a3");
        assert_eq!(uci(stacked, "R5a3+").unwrap(), "a5a3");
        let promoting = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(uci(promoting, "a8=Q").unwrap(), "a7a8q");
        assert_eq!(uci(promoting, "axb8=N+").unwrap(), "a7b8n");
        assert_eq!(uci(promoting, "a8R").unwrap(), "a7a8r");
        assert!(matches!(uci(promoting, "a8"), Err(MoveError::Illegal { .. })));
        assert!(matches!(uci(promoting, "a8=K"), Err(MoveError::Malformed(_))));
        let en_passant = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
        assert_eq!(uci(en_passant, "exd6").unwrap(), "e5d6");
    }

    #[test]
    fn what_is_not_san_is_malformed() {
        let start = crate::board::STARTPOS_FEN;
        for text in ["", "x", "Nz3", "N", "e9", "Pe4x", "Kxx1", "e2e4e5", "O-O-O-O"] {
            assert!(matches!(uci(start, text), Err(MoveError::Malformed(_))), "{text}");
        }
        let board = Board::from_fen(start).unwrap();
        assert_eq!(board.parse_move("e2e4").map(|mv| board.uci(mv)).unwrap(), "e2e4");
        assert_eq!(board.parse_move("e4").map(|mv| board.uci(mv)).unwrap(), "e2e4");
        assert!(matches!(board.parse_move("e5"), Err(MoveError::Illegal { .. })));
        assert!(matches!(board.parse_move("zz"), Err(MoveError::MalformedEither(_))));
    }
}
