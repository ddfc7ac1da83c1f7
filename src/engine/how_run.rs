//! How an engine counts, as far as this program knows: what a comparison
//! states of every engine so that its speeds can be read like for like.

use serde::{Deserialize, Serialize};

use super::spec::{EngineSpec, Protocol, PRESETS};
use super::{CONSOLE_PERFT, GO_PERFT};

/// How an engine counted. Each fact is `None` (`null` in a report) where it
/// is not known, and said as "not known", never guessed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HowRun {
    /// How it is asked for a count: `UCI go perft {depth}`, a console
    /// command, or a command line run for every count.
    pub protocol: String,
    /// The threads it counts on.
    pub threads: Option<usize>,
    /// The threads it was asked for (a UCI engine's `Threads` option),
    /// where it may count on others.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads_asked: Option<usize>,
    /// Its hash table: `none`, `16 MB`, `auto`.
    pub hash: Option<String>,
    /// Whether it counts the last ply in bulk (moves counted, not made).
    pub bulk: Option<bool>,
    /// Whether one call counts every depth from 1 to the one asked: its time
    /// then includes the shallower depths.
    pub all_depths: Option<bool>,
    /// What its preset turns off or leaves out, in words.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// `fact` in words, or `what not known`.
fn known<T>(fact: Option<T>, what: &str, words: impl FnOnce(T) -> String) -> String {
    fact.map_or(format!("{what} not known"), words)
}

impl HowRun {
    /// The facts in a line: threads, hash table, bulk counting, depths a
    /// call, then how it is asked and its preset's notes (`1 thread, no
    /// hash table, bulk counting, one depth a call; command line per count
    /// ...`).
    pub fn text(&self) -> String {
        let plural = |n: usize| if n == 1 { "1 thread".to_string() } else { format!("{n} threads") };
        let threads = match (self.threads, self.threads_asked) {
            (Some(n), _) => plural(n),
            (None, Some(asked)) => format!("threads not known (asked for {asked} with Threads)"),
            (None, None) => "threads not known".into(),
        };
        let hash = known(self.hash.as_deref(), "hash table", |h| match h {
            "none" => "no hash table".into(),
            size => format!("hash table {size}"),
        });
        let bulk = known(self.bulk, "bulk counting", |b| {
            if b { "bulk counting" } else { "no bulk counting" }.into()
        });
        let depths = known(self.all_depths, "depths a call", |all| {
            if all {
                "depths 1..N a call (its time includes the shallower depths)".into()
            } else {
                "one depth a call".into()
            }
        });
        let mut line = format!("{threads}, {hash}, {bulk}, {depths}; {}", self.protocol);
        for note in &self.notes {
            line.push_str("; ");
            line.push_str(note);
        }
        line
    }
}

impl EngineSpec {
    /// How an engine run from this spec counts, as far as known: for a
    /// preset what it is known to do and what the preset turns off; for
    /// UCI engines the `threads` they are asked for; everything else not
    /// known.
    pub fn how_run(&self, threads: Option<usize>) -> HowRun {
        let program = self.command.first().cloned().unwrap_or_default();
        let protocol = match self.protocol {
            Protocol::Uci => match &self.perft {
                None => format!("UCI `{GO_PERFT}`"),
                Some(perft) => format!("UCI, `{perft}` in its UCI loop"),
            },
            Protocol::Console => {
                format!("console `{}`, kept running", self.perft.as_deref().unwrap_or(CONSOLE_PERFT))
            }
            Protocol::Command => format!(
                "command line run for every count (`{}`)",
                shlex::try_join(self.command.iter().map(String::as_str)).unwrap_or(program)
            ),
            Protocol::Auto => "not known yet (to be probed)".into(),
        };
        let threads_asked = matches!(self.protocol, Protocol::Uci).then_some(threads).flatten();
        let mut how = HowRun { protocol, threads_asked, ..HowRun::default() };
        if let Some(preset) = self.preset.and_then(|name| PRESETS.iter().find(|p| p.name == name)) {
            how.threads = preset.threads;
            how.hash = preset.hash.map(str::to_string);
            how.bulk = preset.bulk;
            how.all_depths = preset.all_depths;
            how.notes = preset.notes.iter().map(|n| n.to_string()).collect();
        }
        how
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::AnswerFormat;

    #[test]
    fn presets_say_what_they_know_and_others_say_not_known() {
        let none = AnswerFormat::default();
        let q = EngineSpec::parse("qperft:./qperft", &none).unwrap().how_run(Some(4));
        assert_eq!(
            (q.threads, q.hash.as_deref(), q.bulk, q.all_depths),
            (Some(1), Some("none"), Some(true), Some(true))
        );
        assert_eq!(q.threads_asked, None, "a command line is asked for no threads");
        let text = q.text();
        assert!(text.starts_with("1 thread, no hash table, bulk counting, depths 1..N a call"), "{text}");
        assert!(text.contains("`./qperft '{depth}' '{fen}'`") && text.contains("H<bits>"), "{text}");
        let sf = EngineSpec::parse("uci:stockfish", &none).unwrap().how_run(Some(2));
        assert_eq!(
            sf.text(),
            "threads not known (asked for 2 with Threads), hash table not known, bulk counting not known, \
             depths a call not known; UCI `go perft {depth}`"
        );
        let mine = EngineSpec::parse("cmd:./mine {depth} {fen}", &none).unwrap().how_run(Some(2));
        assert!(mine.text().starts_with("threads not known, hash table not known"), "{}", mine.text());
        // It round-trips through a report, unknowns as null.
        let json = serde_json::to_string(&sf).unwrap();
        assert!(json.contains("\"hash\":null"), "{json}");
        assert_eq!(serde_json::from_str::<HowRun>(&json).unwrap(), sf);
    }
}
