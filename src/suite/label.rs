//! Making suites: positions from any suite format (or bare FENs), counted
//! to a depth and written back as EPD lines with `;D1 ... ;Dn` counts.

use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use crate::board::{Board, FenOptions};
use crate::counting::{perft_with, CountOptions, Mode};
use perft_harness::suite::{LineError, ParsedSuite};

/// A position with our counts at depths 1 to n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelledPosition {
    /// 1-based line of the position in its file.
    pub line: usize,
    /// Its name, if the file gives one.
    pub id: Option<String>,
    /// The FEN as written.
    pub fen: String,
    /// Our count at depth 1, 2, ...
    pub counts: Vec<u128>,
    /// Counts the file already gave that differ from ours: (depth, the
    /// file's count).
    pub disagreements: Vec<(u32, u128)>,
}

impl LabelledPosition {
    /// The position as an EPD line: `FEN ;D1 20 ;D2 400 ;id "name"`.
    pub fn epd_line(&self) -> String {
        let mut line = self.fen.clone();
        for (depth, nodes) in (1..).zip(&self.counts) {
            line.push_str(&format!(" ;D{depth} {nodes}"));
        }
        if let Some(id) = &self.id {
            line.push_str(&format!(" ;id \"{}\"", id.replace('"', "'")));
        }
        line
    }
}

/// Counts every readable position of `parsed` at depths 1 to `depth`,
/// positions in parallel on the current rayon pool; `progress` is called
/// after each position. Positions that cannot be set up become errors;
/// `None` if `stop` was raised first.
pub fn label(
    parsed: &ParsedSuite,
    depth: u32,
    options: FenOptions,
    stop: Option<&AtomicBool>,
    progress: &(dyn Fn(&LabelledPosition) + Sync),
) -> Option<(Vec<LabelledPosition>, Vec<LineError>)> {
    let mut errors = Vec::new();
    let mut boards = Vec::new();
    for entry in &parsed.entries {
        match Board::from_fen_with(&entry.fen, options) {
            Ok(board) => boards.push((entry, board)),
            Err(e) => errors.push(LineError { line: entry.line, message: e.to_string() }),
        }
    }
    let search = CountOptions { stop, ..CountOptions::new(Mode::Bulk) };
    let labelled: Option<Vec<LabelledPosition>> = boards
        .par_iter()
        .map(|(entry, board)| {
            let counts = (1..=depth).map(|d| perft_with(board, d, &search)).collect::<Option<Vec<u128>>>()?;
            let disagreements = entry
                .counts
                .iter()
                // perft(0) is 1: a depth-0 count is checked against that.
                .filter(|&&(d, n)| match d {
                    0 => n != 1,
                    d => d <= depth && counts[d as usize - 1] != n,
                })
                .copied()
                .collect();
            let position = LabelledPosition {
                line: entry.line,
                id: entry.id.clone(),
                fen: entry.fen.clone(),
                counts,
                disagreements,
            };
            progress(&position);
            Some(position)
        })
        .collect();
    errors.sort_by_key(|e| e.line);
    Some((labelled?, errors))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::parse_suite;

    #[test]
    fn bare_fens_epd_and_perft_records_are_labelled() {
        let text = b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
            8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 999 ;id \"corner\"\n\
            not a fen at all\n\
            id kiwi\nepd r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -\n";
        let parsed = parse_suite(text);
        let (labelled, errors) = label(&parsed, 2, FenOptions::default(), None, &|_| {}).unwrap();
        assert_eq!(errors.iter().map(|e| e.line).collect::<Vec<_>>(), vec![3], "{errors:?}");
        assert_eq!(labelled.len(), 3);
        assert_eq!(
            labelled[0].epd_line(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D2 400"
        );
        assert_eq!(labelled[1].disagreements, vec![(2, 999)]);
        assert_eq!(labelled[1].epd_line(), "8/8/8/8/8/8/8/K6k w - - ;D1 3 ;D2 9 ;id \"corner\"");
        assert_eq!(labelled[2].counts, vec![48, 2039]);
        // What it writes reads back as a suite with the same counts.
        let again = parse_suite(labelled[2].epd_line().as_bytes());
        assert_eq!(again.entries[0].counts, vec![(1, 48), (2, 2039)]);
        assert_eq!(again.entries[0].id.as_deref(), Some("kiwi"));
        // Depth 0 is perft(0) = 1.
        let parsed = crate::suite::parse_suite(
            b"8/8/8/8/8/8/8/K6k w - - 0 1 ;D0 1\n8/8/8/8/8/8/8/K6k w - - 0 1 ;D0 2\n",
        );
        let labelled = label(&parsed, 1, FenOptions::default(), None, &|_| {}).unwrap().0;
        assert_eq!(labelled[0].disagreements, vec![]);
        assert_eq!(labelled[1].disagreements, vec![(0, 2)]);
    }
}
