//! The hash table a count uses, as the command line chooses it: `--hash`
//! resolved against the table's sizing ([`perft::memory`]), the table made
//! (and said while it is set up), and the most a table cut a count's time.

use std::io::Write;

use anyhow::{Context, Result};
use perft::counting::{with_threads, KeySet, PerftTable};
use perft::memory::{self, HashSize, TableSize};

/// Resolves `--hash` (`size`; where not given, `auto` if `default_auto`,
/// else none) for a count that can use `useful()` bytes of table; see
/// [`memory::resolve_table`].
pub fn choose_table(
    size: Option<HashSize>,
    default_auto: bool,
    useful: impl FnOnce() -> u64,
    what: &str,
    tables: f64,
) -> Result<Option<TableSize>> {
    let Some(size) = size.or(default_auto.then_some(HashSize::Auto)) else { return Ok(None) };
    memory::resolve_table(size, useful, what, tables, memory::memory_source).map_err(anyhow::Error::msg)
}

/// Makes the table `choice` names, zeroed by `threads` threads; an
/// automatic one that reaches slow memory is cut to fast memory
/// ([`memory::fit_to_memory_speed`]), and `choice` says so.
pub fn make_table(choice: &mut TableSize, keys: KeySet, threads: usize) -> Result<PerftTable> {
    let mut table = with_threads(threads, || PerftTable::new(choice.megabytes, keys))?.context("--hash")?;
    memory::fit_automatic(choice, &mut table);
    Ok(table)
}

/// Tables of this size or more say so while they are set up: zeroing one
/// takes about a second per GB and thread, which would otherwise pass in
/// silence.
const ANNOUNCED_TABLE_MB: u64 = 256;

/// [`make_table`], and, for a table of [`ANNOUNCED_TABLE_MB`] or more when
/// `announce`, a line on stderr with its size while it is set up and the
/// time it took (`hash table: 6210 MB (auto: enough for depth 10), setting
/// up... done in 24.1 s`).
pub fn make_table_saying(
    choice: &mut TableSize,
    keys: KeySet,
    threads: usize,
    announce: bool,
) -> Result<PerftTable> {
    let announce = announce && choice.megabytes >= ANNOUNCED_TABLE_MB;
    if announce {
        let why = choice.auto.as_deref().map_or(String::new(), |why| format!(" ({why})"));
        eprint!("hash table: {} MB{why}, setting up...", choice.megabytes);
        let _ = std::io::stderr().flush();
    }
    let asked = choice.megabytes;
    let table = make_table(choice, keys, threads)?;
    if announce {
        let cut = if choice.megabytes == asked {
            String::new()
        } else {
            format!(", cut to {} MB (memory beyond it is slow)", choice.megabytes)
        };
        eprintln!(" done in {:.1} s{cut}", table.setup_seconds());
    }
    Ok(table)
}

/// The most a hash table cut a count's time, by depth, in our own runs:
/// the start position on two cores (perft(9) 16 s, perft(10) 178 s,
/// perft(11) 36 min with the automatic table, against about 22x, 56x and
/// 140x those times without one), and 2.5x more for each ply beyond.
pub fn best_table_cut(depth: u32) -> f64 {
    match depth {
        0..=8 => 10.0,
        9 => 22.0,
        10 => 56.0,
        _ => 140.0 * 2.5f64.powi(depth as i32 - 11),
    }
}
