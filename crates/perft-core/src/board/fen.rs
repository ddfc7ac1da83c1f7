//! FEN, X-FEN and Shredder-FEN reading and writing.

use core::fmt;

pub use super::setup::{CastlingMode, FenOptions};
use super::setup::{CastlingToken, Setup};
use super::validate::{self, PositionError};
use super::Board;
use crate::attacks::pawn_attacks;
use crate::types::{CastlingSide, Color, File, MoveKind, Piece, PieceKind, Rank, Square};

/// A field of a FEN record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    /// Field 1: the piece placement.
    Placement,
    /// Field 2: `w` or `b`.
    SideToMove,
    /// Field 3: castling rights.
    Castling,
    /// Field 4: the en-passant square.
    EnPassant,
    /// Field 5: plies since the last capture or pawn move.
    HalfmoveClock,
    /// Field 6: the move number.
    FullmoveNumber,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
        })
    }
}

/// Why a FEN was rejected: a field that cannot be read, or a position that
/// is not acceptable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// The text is empty or only whitespace.
    #[error("empty FEN")]
    Empty,
    /// The record stops before a required field.
    #[error("missing {0} field")]
    MissingField(FenField),
    /// Text follows the sixth field.
    #[error("unexpected text after the fullmove number: {0:?}")]
    TrailingText(String),
    /// A field does not follow the syntax.
    #[error("invalid {field} field {value:?}: {reason}")]
    Field {
        /// Which field.
        field: FenField,
        /// The field as written (truncated if very long).
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The fields are well-formed but the position is not acceptable.
    #[error("illegal position: {0}")]
    Position(PositionError),
}

// Not `#[from]`: that would also make the problem the error's source, and
// error chains would print it twice.
impl From<PositionError> for FenError {
    fn from(error: PositionError) -> Self {
        FenError::Position(error)
    }
}

impl FenError {
    fn field(field: FenField, value: &str, reason: impl Into<String>) -> Self {
        FenError::Field { field, value: truncate_chars(value, 80), reason: reason.into() }
    }

    /// The field at fault, for syntax errors.
    pub fn fen_field(&self) -> Option<FenField> {
        match self {
            FenError::MissingField(field) | FenError::Field { field, .. } => Some(*field),
            _ => None,
        }
    }
}

impl Setup {
    pub(crate) fn parse(fen: &str) -> Result<Setup, FenError> {
        let mut fields = fen.split_ascii_whitespace();
        let placement = fields.next().ok_or(FenError::Empty)?;
        let side = fields.next().ok_or(FenError::MissingField(FenField::SideToMove))?;
        let castling = fields.next().ok_or(FenError::MissingField(FenField::Castling))?;
        let en_passant = fields.next().ok_or(FenError::MissingField(FenField::EnPassant))?;
        let halfmove = fields.next();
        let fullmove = fields.next();
        let rest: Vec<&str> = fields.collect();
        if !rest.is_empty() {
            return Err(FenError::TrailingText(truncate_chars(&rest.join(" "), 80)));
        }

        let placement = parse_placement(placement)?;
        let side_to_move = match side {
            "w" => Color::White,
            "b" => Color::Black,
            _ => return Err(FenError::field(FenField::SideToMove, side, "expected 'w' or 'b'")),
        };
        let castling = parse_castling(castling)?;
        let en_passant = match en_passant {
            "-" => None,
            text => Some(text.parse::<Square>().map_err(|_| {
                FenError::field(FenField::EnPassant, text, "expected '-' or a square such as e3")
            })?),
        };
        let halfmove_clock = match halfmove {
            None => 0,
            Some(text) => parse_counter(text, FenField::HalfmoveClock)?,
        };
        let fullmove_number = match fullmove {
            None => 1,
            // Move number 0 is common in the wild; read it as 1.
            Some(text) => parse_counter(text, FenField::FullmoveNumber)?.max(1),
        };
        Ok(Setup { placement, side_to_move, castling, en_passant, halfmove_clock, fullmove_number })
    }
}

fn parse_counter(text: &str, field: FenField) -> Result<u32, FenError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(FenError::field(field, text, "expected a non-negative whole number"));
    }
    text.parse::<u32>().map_err(|_| FenError::field(field, text, "number too large (at most 4294967295)"))
}

fn parse_placement(text: &str) -> Result<[Option<Piece>; 64], FenError> {
    let mut board = [None; 64];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::field(
            FenField::Placement,
            text,
            format!("{} ranks, expected 8 separated by '/'", ranks.len()),
        ));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = Rank::index(7 - i);
        let mut file = 0usize;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d as usize;
            } else if let Some(piece) = Piece::from_char(c) {
                if file < 8 {
                    board[Square::new(File::index(file), rank) as usize] = Some(piece);
                }
                file += 1;
            } else {
                return Err(FenError::field(
                    FenField::Placement,
                    text,
                    format!("unexpected character {c:?} on rank {}", rank.to_char()),
                ));
            }
            if file > 8 {
                break;
            }
        }
        if file != 8 {
            return Err(FenError::field(
                FenField::Placement,
                text,
                format!(
                    "rank {} has {} squares, expected 8",
                    rank.to_char(),
                    if file > 8 { "more than 8".to_string() } else { file.to_string() }
                ),
            ));
        }
    }
    Ok(board)
}

fn parse_castling(text: &str) -> Result<Vec<(Color, CastlingToken, char)>, FenError> {
    if text == "-" {
        return Ok(Vec::new());
    }
    let mut tokens = Vec::new();
    for c in text.chars() {
        let color = Color::from_case(c.is_ascii_uppercase());
        let token = match c.to_ascii_lowercase() {
            'k' => CastlingToken::Outermost(CastlingSide::King),
            'q' => CastlingToken::Outermost(CastlingSide::Queen),
            'a'..='h' => CastlingToken::File(File::from_char(c).expect("a..h")),
            _ => {
                return Err(FenError::field(
                    FenField::Castling,
                    text,
                    format!("unexpected character {c:?}; expected '-', KQkq or file letters"),
                ))
            }
        };
        if tokens.iter().any(|&(_, _, seen)| seen == c) {
            return Err(FenError::field(FenField::Castling, text, format!("{c:?} appears twice")));
        }
        if tokens.iter().filter(|&&(col, _, _)| col == color).count() >= 2 {
            return Err(FenError::field(
                FenField::Castling,
                text,
                format!("more than two castling rights for {color}"),
            ));
        }
        tokens.push((color, token, c));
    }
    Ok(tokens)
}

impl Board {
    /// Reads a FEN (4 to 6 fields) with strict validation, detecting
    /// Chess960 castling from the castling field.
    ///
    /// # Errors
    /// [`FenError`] naming the field that cannot be read or what is
    /// impossible about the position.
    pub fn from_fen(fen: &str) -> Result<Board, FenError> {
        Self::from_fen_with(fen, FenOptions::STRICT)
    }

    /// Reads a FEN with the given options.
    ///
    /// # Errors
    /// As [`Board::from_fen`].
    pub fn from_fen_with(fen: &str, options: FenOptions) -> Result<Board, FenError> {
        let setup = Setup::parse(fen)?;
        Ok(validate::board_from_setup(&setup, options)?)
    }

    /// The position as FEN: X-FEN `KQkq` in standard chess, Shredder-FEN
    /// file letters in Chess960. The en-passant square is written only when
    /// an en-passant capture is legal.
    pub fn fen(&self) -> String {
        self.fen_with(self.en_passant(), false)
    }

    /// The FEN handed to other engines: after a double push the en-passant
    /// square is written whenever an enemy pawn stands beside the pushed
    /// pawn, legal capture or not (a pinned capturer, say), as FEN writers
    /// that do not test legality do: an engine that wrongly plays such a
    /// capture needs the square to show its bug. Chess960 castling is
    /// written X-FEN style (`KQkq` for the outermost rooks, file letters
    /// only for inner ones), which engines that read either style accept.
    pub fn fen_keeping_en_passant(&self) -> String {
        let pseudo_legal =
            self.moves_played().last().filter(|mv| mv.kind() == MoveKind::DoublePush).and_then(|mv| {
                let square = Square::from_bits_masked((mv.from() as u32 + mv.to() as u32) / 2);
                let capturers = pawn_attacks(!self.side_to_move(), square)
                    & self.colored(self.side_to_move(), PieceKind::Pawn);
                capturers.any().then_some(square)
            });
        self.fen_with(self.en_passant().or(pseudo_legal), true)
    }

    fn fen_with(&self, en_passant: Option<Square>, xfen: bool) -> String {
        let mut fen = String::with_capacity(90);
        for rank in (0..8).rev() {
            let mut empty = 0;
            for file in 0..8 {
                match self.piece_on(Square::index(rank * 8 + file)) {
                    Some(piece) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(piece.to_char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(self.side_to_move().to_char());
        fen.push(' ');
        let before = fen.len();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if let Some(rook) = self.castling_rook(color, side) {
                    let c = if self.is_chess960() && !(xfen && self.outermost_rook(color, side) == Some(rook))
                    {
                        rook.file().to_char()
                    } else {
                        match side {
                            CastlingSide::King => 'k',
                            CastlingSide::Queen => 'q',
                        }
                    };
                    fen.push(if color == Color::White { c.to_ascii_uppercase() } else { c });
                }
            }
        }
        if fen.len() == before {
            fen.push('-');
        }
        fen.push(' ');
        match en_passant {
            Some(sq) => fen.push_str(&sq.to_string()),
            None => fen.push('-'),
        }
        fen.push_str(&format!(" {} {}", self.halfmove_clock(), self.fullmove_number()));
        fen
    }
}

impl Board {
    /// The rook an X-FEN `K`/`Q` (`k`/`q`) names: `color`'s rook on its
    /// king's rank farthest from the king on `side`, if any.
    pub(crate) fn outermost_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.king(color);
        let rooks = self.colored(color, PieceKind::Rook) & king.rank().bitboard();
        let beyond = rooks.into_iter().filter(|r| match side {
            CastlingSide::King => r.file() > king.file(),
            CastlingSide::Queen => r.file() < king.file(),
        });
        match side {
            CastlingSide::King => beyond.max(),
            CastlingSide::Queen => beyond.min(),
        }
    }
}

/// At most `max` characters of `text` (characters, not bytes: the text may
/// be any UTF-8), with `…` when something was cut.
pub fn truncate_chars(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

/// Longest a sentence [`whole_sentences`] keeps: past it, a flood of text
/// without a full stop is cut at a word.
pub const LONGEST_SENTENCE: usize = 400;

/// `text` cut after its last whole sentence within `max` characters, but
/// never inside its first sentence (kept whole up to
/// [`LONGEST_SENTENCE`] characters, then cut at a word with `…`): an
/// engine's message is never cut in the middle of what it says.
pub fn whole_sentences(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    // Byte offsets just past each sentence's end: `.`, `!` or `?` then a space.
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let ends =
        chars.windows(2).filter(|w| matches!(w[0].1, '.' | '!' | '?') && w[1].1 == ' ').map(|w| w[1].0);
    let within = |end: &usize| text[..*end].chars().count() <= max.max(LONGEST_SENTENCE);
    let ends: Vec<usize> = ends.take_while(within).collect();
    let fitting = ends.iter().rev().find(|&&end| text[..end].chars().count() <= max);
    match fitting.or(ends.first()) {
        Some(&end) => text[..end].trim_end().to_string(),
        None if text.chars().count() <= LONGEST_SENTENCE => text.to_string(),
        None => {
            let cut = truncate_chars(text, LONGEST_SENTENCE);
            match cut.rfind(' ') {
                Some(space) => format!("{}…", &cut[..space]),
                None => cut,
            }
        }
    }
}

#[cfg(test)]
mod sentence_tests {
    use super::{whole_sentences, LONGEST_SENTENCE};

    #[test]
    fn messages_are_cut_between_sentences_only() {
        assert_eq!(whole_sentences("short. text", 100), "short. text");
        let text = "The engine cannot read X-FEN. It expects KQkq castling rights only. Sorry!";
        assert_eq!(whole_sentences(text, 40), "The engine cannot read X-FEN.");
        assert_eq!(
            whole_sentences(text, 70),
            "The engine cannot read X-FEN. It expects KQkq castling rights only."
        );
        // A first sentence longer than the limit is kept whole, decimals too.
        let long = "panic: runtime error: index out of range [8] with length 8 at 0.4 s in goroutine 1. more";
        assert_eq!(whole_sentences(long, 20), long.strip_suffix(" more").unwrap());
        // A flood without a full stop is cut at a word, and says so.
        let flood = "word ".repeat(200);
        let cut = whole_sentences(&flood, 50);
        assert!(cut.ends_with("word…") && cut.chars().count() <= LONGEST_SENTENCE + 1, "{cut}");
        // Any UTF-8.
        assert_eq!(whole_sentences("é. ü", 2), "é.");
    }
}
