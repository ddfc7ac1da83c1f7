//! The probe's steps: UCI, console, command lines (see the module above).

use std::time::Instant;

use super::prober::{carried_state_note, expected, last_line, Prober, Reply, SECOND_FEN, SECOND_MOVES};
use super::{Found, COMMAND_LINES, PERFT_COMMANDS, POSITION_COMMANDS};
use crate::board::STARTPOS_FEN;
use crate::engine::build::concrete_engine;
use crate::engine::spec::{EngineSpec, Protocol};
use crate::engine::template::FenFields;
use crate::engine::uci::{GO_PERFT, UCI_POSITION};
use crate::engine::{EngineError, EngineOptions, EngineRun};

/// How the program took its first start.
enum Started {
    /// It answered `uci` with `uciok`.
    Uci,
    /// It runs, and does not speak UCI.
    Console,
    /// It exited before it was sent anything.
    ExitedAtOnce,
    /// It exited on `uci`; `read_it` when its last words name it (it read
    /// its input: "unknown command: uci").
    ExitedOnUci { read_it: bool },
}

impl Prober {
    /// The steps in order; the first that counts wins, named. Command
    /// lines come last for any program the other steps found nothing in
    /// (first for one that exited on `uci` without reading it): one that
    /// runs a count of its own when started alone, and never reads its
    /// input, is found there.
    pub(super) fn find(&mut self) -> Option<(String, Found)> {
        let found = match self.first_start()? {
            Started::Uci => {
                if let Some(found) = self.uci_dialects() {
                    return Some(("UCI".into(), found));
                }
                // Its console perft may be gone in UCI mode: started again
                // and never sent `uci`.
                self.uci = false;
                self.session.restart();
                self.start_program(false)
                    .is_ok()
                    .then(|| self.console_dialects())
                    .flatten()
                    .map(|f| ("console, started again without `uci`".into(), f))
            }
            Started::Console => self.console_dialects().map(|f| ("console".into(), f)),
            Started::ExitedAtOnce => None,
            // One that quits on a command it does not know (it said so: it
            // reads its input); else a program that wants its work on its
            // command line, tried there first.
            Started::ExitedOnUci { read_it: true } => self.console_dialects().map(|f| ("console".into(), f)),
            Started::ExitedOnUci { read_it: false } => {
                if let Some(found) = self.command_lines() {
                    return Some(("command lines".into(), found));
                }
                return self.console_dialects().map(|f| ("console".into(), f));
            }
        };
        found.or_else(|| self.command_lines().map(|f| ("command lines".into(), f)))
    }

    /// Starts the program the first time, and says how it took it.
    fn first_start(&mut self) -> Option<Started> {
        let began = Instant::now();
        let started = self.start_program(true);
        let seconds = began.elapsed().as_secs_f64();
        match started {
            Ok(true) => {
                self.uci = true;
                self.tried("`uci`", "uciok: a UCI engine");
                Some(Started::Uci)
            }
            Ok(false) => {
                let outcome = format!("no uciok in {:.0} s: not a UCI engine", self.wait.as_secs_f64());
                self.tried("`uci`", outcome);
                Some(Started::Console)
            }
            Err(EngineError::Exited { output, .. }) => {
                self.startup = began.elapsed();
                let last = last_line(&output);
                let said = if last.is_empty() { String::new() } else { format!(": {last}") };
                // An exit while its banner was read, before it was sent
                // anything: a program that wants no input.
                let read_it = last.to_ascii_lowercase().contains("uci");
                let (what, started) = if self.asked {
                    ("it exited on it", Started::ExitedOnUci { read_it })
                } else {
                    ("it exited at once, asked nothing", Started::ExitedAtOnce)
                };
                self.tried("`uci`", format!("{what} ({seconds:.1} s){said}"));
                Some(started)
            }
            Err(error) => {
                self.tried("start it", error.summary());
                None
            }
        }
    }

    /// A UCI engine: `go perft`, then perft commands of its own in its UCI
    /// loop, each required to read the position set with `position fen`.
    fn uci_dialects(&mut self) -> Option<Found> {
        let second = expected(SECOND_FEN, &[], 1);
        for &perft in std::iter::once(&GO_PERFT).chain(PERFT_COMMANDS) {
            if !self.counts_at_start(Some(UCI_POSITION), perft)
                || self.check(Some(UCI_POSITION), perft, &second).is_err()
            {
                continue;
            }
            let position = self.moves_form(UCI_POSITION, perft);
            return Some(Found {
                protocol: Protocol::Uci,
                command: self.session.command().to_vec(),
                perft: (perft != GO_PERFT).then(|| perft.to_string()),
                position: Some(position),
                fen: self.fen,
            });
        }
        None
    }

    /// A console engine without UCI: perft commands of its own at the
    /// start position, then the position commands that make it count
    /// another position.
    fn console_dialects(&mut self) -> Option<Found> {
        let second = expected(SECOND_FEN, &[], 1);
        for &perft in PERFT_COMMANDS {
            if !self.counts_at_start(None, perft) {
                continue;
            }
            if perft.contains("{fen}") {
                if self.check(None, perft, &second).is_ok() {
                    return Some(self.console_found(perft, None));
                }
                continue;
            }
            let mut asked: Vec<String> = Vec::new();
            for &position in POSITION_COMMANDS {
                // Templates that read the same without moves are one try.
                let bare = position.replace(" moves {moves}", "");
                if asked.contains(&bare) {
                    continue;
                }
                asked.push(bare);
                if self.check(Some(position), perft, &second).is_err() {
                    continue;
                }
                let position = self.moves_form(position, perft);
                return Some(self.console_found(perft, Some(position)));
            }
        }
        None
    }

    fn console_found(&self, perft: &str, position: Option<String>) -> Found {
        Found {
            protocol: Protocol::Console,
            command: self.session.command().to_vec(),
            perft: Some(perft.into()),
            position,
            fen: self.fen,
        }
    }

    /// A program that exits at once: command lines, one run per count.
    /// Until one has counted right, a run that is still going is waited
    /// for as long as a slow start may take ([`Prober::start`], on top of
    /// the wait): its quick exit on input it cannot read says nothing of
    /// how long it loads before a real count. After that, three times the
    /// longest right count, on top of the wait.
    fn command_lines(&mut self) -> Option<Found> {
        let program = self.session.command().to_vec();
        for &line in COMMAND_LINES {
            let mut template = program.clone();
            template.extend(line.split(' ').map(str::to_string));
            if !self.command_line_counts(&template, line) {
                continue;
            }
            let template = self.command_line_moves(template, line);
            return Some(Found {
                protocol: Protocol::Command,
                command: template,
                perft: None,
                position: None,
                fen: self.fen,
            });
        }
        None
    }

    /// Whether `template` counts the start position at depths 1 and 2 and
    /// Kiwipete at depth 1 (with six FEN fields, else four).
    fn command_line_counts(&mut self, template: &[String], line: &str) -> bool {
        for fen in [FenFields::Six, FenFields::Four] {
            let mut counts = true;
            for expect in
                [expected(STARTPOS_FEN, &[], 1), expected(STARTPOS_FEN, &[], 2), expected(SECOND_FEN, &[], 1)]
            {
                let outcome = self.run_command_line(template, fen, &expect.position, expect.depth);
                let right = outcome == Reply::Count(expect.nodes);
                let fields = if fen == FenFields::Four { " (four FEN fields)" } else { "" };
                self.tried(
                    format!("{}{fields}", shown_line(line, &expect)),
                    outcome_text(&outcome, expect.nodes),
                );
                if !right {
                    counts = false;
                    // Only a misread FEN is worth asking again with four.
                    if fen == FenFields::Four || !outcome.may_be_the_fen(template) {
                        return false;
                    }
                    break;
                }
            }
            if counts {
                if fen == FenFields::Four {
                    self.fen = FenFields::Four;
                    self.notes.push(
                        "it misreads six-field FENs (with the move counters): given four (fen4)".into(),
                    );
                }
                return true;
            }
        }
        false
    }

    /// The template to use, given that it counts: with `{moves}` if the
    /// program applies them, else without (the position reached).
    fn command_line_moves(&mut self, template: Vec<String>, line: &str) -> Vec<String> {
        if !line.contains("{moves}") {
            return template;
        }
        let moved = expected(STARTPOS_FEN, &SECOND_MOVES, 1);
        let outcome = self.run_command_line(&template, self.fen, &moved.position, 1);
        self.tried(shown_line(line, &moved), outcome_text(&outcome, moved.nodes));
        if outcome == Reply::Count(moved.nodes) {
            return template;
        }
        let bare: Vec<String> = template.iter().filter(|w| *w != "{moves}").cloned().collect();
        let again = self.run_command_line(&bare, self.fen, &moved.position, 1);
        self.tried(shown_line(&line.replace(" {moves}", ""), &moved), outcome_text(&again, moved.nodes));
        let root = expected(STARTPOS_FEN, &[], 1).nodes;
        if again != Reply::Count(moved.nodes) && outcome != Reply::Count(root) {
            return template;
        }
        match outcome {
            // It applies them and counts otherwise: for the check to see.
            Reply::Count(n) if n != root => {
                self.notes.push(carried_state_note(&shown_line(line, &moved), n, moved.nodes));
                return template;
            }
            _ => {}
        }
        self.notes.push(
            "it does not apply the moves after the FEN: it is given the position reached as a FEN".into(),
        );
        bare
    }

    /// One run of a command-line template, bounded as [`Self::command_lines`]
    /// says; a right count's time is kept for the next bound.
    fn run_command_line(
        &mut self,
        template: &[String],
        fen: FenFields,
        position: &crate::engine::EnginePosition,
        depth: u32,
    ) -> Reply {
        let timeout = match self.real_count {
            Some(took) => self.wait + took * 3,
            None => self.wait + self.start.max(self.startup * 2),
        };
        let spec = EngineSpec {
            protocol: Protocol::Command,
            command: template.to_vec(),
            format: self.format.clone(),
            chess960: None,
            perft: None,
            position: None,
            fen,
            preset: None,
        };
        let mut engine =
            concrete_engine(&spec, "probe", &EngineOptions { stop: self.stop, ..EngineOptions::default() });
        let began = Instant::now();
        match engine.perft(position, depth, timeout) {
            Ok(EngineRun { nodes, .. }) => {
                let took = began.elapsed();
                self.real_count = Some(self.real_count.map_or(took, |before| before.max(took)));
                Reply::Count(nodes)
            }
            Err(EngineError::Exited { status, output }) => {
                Reply::Not { what: format!("exited ({status})"), exited: true, last: last_line(&output) }
            }
            Err(error) => Reply::Not { what: error.summary(), exited: false, last: String::new() },
        }
    }
}

/// A command-line try as shown: `PROGRAM 1 <start FEN>`.
fn shown_line(line: &str, expect: &super::prober::Expected) -> String {
    let moves = expect.position.moves.join(" ");
    let reached = format!("<FEN after {moves}>");
    let fen = match (expect.position.fen.as_str(), moves.is_empty()) {
        (_, false) if !line.contains("{moves}") => reached.as_str(),
        (STARTPOS_FEN, _) => "<start FEN>",
        _ => "<Kiwipete FEN>",
    };
    let shown =
        format!("`PROGRAM {line}`").replace("{depth}", &expect.depth.to_string()).replace("{fen}", fen);
    if moves.is_empty() {
        shown.replace(" {moves}", "")
    } else {
        shown.replace("{moves}", &moves)
    }
}

/// A reply in the words of a try.
fn outcome_text(reply: &Reply, nodes: u128) -> String {
    match reply {
        Reply::Count(n) if *n == nodes => n.to_string(),
        Reply::Count(n) => format!("{n} (we count {nodes})"),
        Reply::Not { what, last, .. } if !last.is_empty() && !what.contains(last.as_str()) => {
            format!("{what}: {last}")
        }
        Reply::Not { what, .. } => what.clone(),
    }
}
