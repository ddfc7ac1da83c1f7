//! Templates of what an engine is sent or run with: `{depth}`, `{fen}`,
//! `{moves}` and `{chess960}` filled in for one count.

use super::{EngineError, EnginePosition};
use crate::board::{Board, CastlingMode, FenOptions};

/// The placeholders a template may hold.
pub const PLACEHOLDERS: [&str; 4] = ["{depth}", "{fen}", "{moves}", "{chess960}"];

/// How many fields the FENs an engine is given have.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FenFields {
    /// All six: an EPD's four completed with `0 1` (a FEN that has its
    /// counters keeps them). Engines whose parser wants six fields (many
    /// do) read these, and so does every other (the default).
    #[default]
    Six,
    /// The first four (EPD's form), for an engine that rejects counters
    /// (spec option `fen4`).
    Four,
}

impl FenFields {
    /// `fen` written with this many fields (whitespace normalised).
    pub fn write(self, fen: &str) -> String {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        match self {
            FenFields::Six => {
                if fields.len() == 4 {
                    fields.push("0");
                }
                if fields.len() == 5 {
                    fields.push("1");
                }
            }
            FenFields::Four => fields.truncate(4),
        }
        fields.join(" ")
    }
}

/// What one count fills a template with.
pub(crate) struct Values {
    depth: String,
    fen: String,
    moves: String,
    chess960: &'static str,
}

impl Values {
    /// The values for `position` at `depth`; `uses_moves` says whether the
    /// template passes the moves (`{moves}`): if not, `{fen}` is the
    /// position reached ([`EnginePosition::fen_only`]). The FEN is written
    /// with `fields` fields.
    pub(crate) fn new(
        position: &EnginePosition,
        depth: u32,
        uses_moves: bool,
        fields: FenFields,
    ) -> Result<Values, EngineError> {
        Ok(Values {
            depth: depth.to_string(),
            fen: fields.write(&fen_for(position, uses_moves)?),
            moves: position.moves.join(" "),
            chess960: if position.chess960 { "true" } else { "false" },
        })
    }

    /// `text` with its placeholders filled in.
    pub(crate) fn fill(&self, text: &str) -> String {
        text.replace("{depth}", &self.depth)
            .replace("{fen}", &self.fen)
            .replace("{moves}", &self.moves)
            .replace("{chess960}", self.chess960)
    }

    /// A command's words filled in; a word that is just `{moves}` is left
    /// out when there are no moves, as the perftree debugger calls its
    /// scripts (`SCRIPT DEPTH FEN [MOVES]`).
    pub(crate) fn fill_words(&self, words: &[String]) -> Vec<String> {
        words
            .iter()
            .filter(|w| !(w.as_str() == "{moves}" && self.moves.is_empty()))
            .map(|w| self.fill(w))
            .collect()
    }

    /// A line to send filled in; ` moves {moves}` is left out when there
    /// are no moves (`position fen {fen} moves {moves}` becomes
    /// `position fen FEN`).
    pub(crate) fn fill_line(&self, line: &str) -> String {
        if self.moves.is_empty() {
            self.fill(&line.replace(" moves {moves}", "")).trim_end().to_string()
        } else {
            self.fill(line)
        }
    }
}

/// Whether a template passes the moves.
pub(crate) fn uses_moves<'a>(mut parts: impl Iterator<Item = &'a str>) -> bool {
    parts.any(|p| p.contains("{moves}"))
}

/// The FEN for `{fen}`: the root as written when the template passes the
/// moves (or there are none), else [`EnginePosition::fen_only`].
fn fen_for(position: &EnginePosition, uses_moves: bool) -> Result<String, EngineError> {
    if position.moves.is_empty() || uses_moves {
        return Ok(position.fen.clone());
    }
    let options = FenOptions { castling: CastlingMode::from_chess960(position.chess960), relaxed: true };
    let mut board =
        Board::from_fen_with(&position.fen, options).map_err(|e| EngineError::Position(e.to_string()))?;
    for mv in &position.moves {
        board.play_uci(mv).map_err(|e| EngineError::Position(e.to_string()))?;
    }
    Ok(position.fen_only(&board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_filled_and_empty_moves_left_out() {
        let start = EnginePosition::new(crate::board::STARTPOS_FEN, false);
        let values = Values::new(&start, 3, true, FenFields::Six).unwrap();
        let words: Vec<String> = ["./e", "{depth}", "{fen}", "{moves}"].map(String::from).to_vec();
        assert_eq!(values.fill_words(&words), ["./e", "3", crate::board::STARTPOS_FEN]);
        assert_eq!(
            values.fill_line("position fen {fen} moves {moves}"),
            format!("position fen {}", start.fen)
        );
        let mut moved = start.clone();
        moved.moves = vec!["e2e4".into(), "c7c5".into()];
        let values = Values::new(&moved, 2, true, FenFields::Six).unwrap();
        assert_eq!(values.fill_words(&words)[3], "e2e4 c7c5");
        assert!(values.fill_line("position fen {fen} moves {moves}").ends_with(" moves e2e4 c7c5"));
        // Without {moves}, the position reached.
        let values = Values::new(&moved, 2, false, FenFields::Six).unwrap();
        assert_eq!(
            values.fill_line("setboard {fen}"),
            "setboard rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        let values = Values::new(&moved, 2, false, FenFields::Four).unwrap();
        assert_eq!(
            values.fill_line("fen {fen}"),
            "fen rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -"
        );
    }

    #[test]
    fn fens_are_completed_to_six_fields_or_cut_to_four() {
        let epd = "3k4/3p4/8/K1P4r/8/8/8/8 b - -";
        assert_eq!(FenFields::Six.write(epd), format!("{epd} 0 1"));
        assert_eq!(FenFields::Six.write(&format!("{epd} 7")), format!("{epd} 7 1"));
        assert_eq!(FenFields::Six.write(&format!("{epd}  12 40")), format!("{epd} 12 40"));
        assert_eq!(FenFields::Four.write(&format!("{epd} 12 40")), epd);
        assert_eq!(FenFields::Four.write(epd), epd);
    }
}
