//! Helpers shared by the end-to-end tests.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// xorshift64*: deterministic, seedable, good enough to pick moves and
/// mutations.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The CPU kernels a test counts under: the level `PERFT_CPU` names (both
/// slider lookups where it has two), else every kernel this CPU runs.
/// Panics on a value the CPU cannot run, as the binary refuses it.
pub fn kernels() -> Vec<perft::kernel::Kernel> {
    use perft::kernel::{Kernel, Level};
    match std::env::var("PERFT_CPU") {
        Ok(name) if !name.is_empty() => {
            let kernel = name.parse::<Level>().and_then(Kernel::for_level).unwrap_or_else(|e| panic!("{e}"));
            std::iter::once(kernel).chain(kernel.other_sliders()).collect()
        }
        _ => Kernel::supported(),
    }
}

/// The `perft` binary, with `PERFT_BIN` naming it for the fake engines
/// that count with it.
pub fn perft_with_bin() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("perft").unwrap();
    // Inside GitHub Actions the tool would add annotations to what it prints.
    cmd.env_remove("GITHUB_ACTIONS");
    cmd.env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"));
    cmd
}

/// The planted-bug engine, built by `cargo test` with the other examples.
pub fn buggy_path() -> std::path::PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(std::path::Path::parent).unwrap().join("examples");
    let path = dir.join(format!("buggy_engine{}", std::env::consts::EXE_SUFFIX));
    assert!(path.exists(), "{} is missing: run `cargo test` (it builds the examples)", path.display());
    path
}

/// Whether a missing oracle (Stockfish, the perftree debugger) fails the
/// tests that need it instead of skipping them: `PERFT_REQUIRE_ORACLES=1`
/// (CI sets it).
fn oracles_required() -> bool {
    std::env::var("PERFT_REQUIRE_ORACLES").is_ok_and(|v| v == "1")
}

/// A test that needs `what` and cannot have it: one line on stderr and the
/// test is skipped (`None`), or, where oracles are required, one clear
/// failure.
fn missing_oracle<T>(what: &str) -> Option<T> {
    assert!(!oracles_required(), "{what} (PERFT_REQUIRE_ORACLES=1: a failure, not a skip)");
    eprintln!("skipped: {what}");
    None
}

/// Path of Stockfish: `$STOCKFISH`, or Debian's `/usr/games/stockfish`.
pub fn stockfish_path() -> String {
    std::env::var("STOCKFISH").unwrap_or_else(|_| "/usr/games/stockfish".to_string())
}

/// Stockfish, for the tests that check against it: its path if it runs,
/// else `None` (the test is skipped, with one line saying how to install
/// it or point the tests at it), or a failure where oracles are required.
pub fn stockfish() -> Option<String> {
    let path = stockfish_path();
    let runs =
        Command::new(&path).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok();
    if runs {
        return Some(path);
    }
    missing_oracle(&format!(
        "Stockfish not found at {path}: install it (Debian/Ubuntu: apt-get install stockfish; macOS: brew \
         install stockfish) or set STOCKFISH=/path/to/stockfish"
    ))
}

/// Stockfish's `go perft` output lines for a position (after `uci`
/// options), up to and including `Nodes searched`; `None` where Stockfish
/// is missing ([`stockfish`]: the test is skipped).
pub fn stockfish_divide(fen: &str, moves: &[&str], depth: u32, chess960: bool) -> Option<Vec<String>> {
    let path = stockfish()?;
    let mut child = Command::new(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start Stockfish at {path} ({e})"));
    let mut stdin = child.stdin.take().unwrap();
    let position = if moves.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", moves.join(" "))
    };
    writeln!(stdin, "setoption name UCI_Chess960 value {chess960}\n{position}\ngo perft {depth}").unwrap();
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 0 {
        let text = line.trim_end().to_string();
        line.clear();
        if text.starts_with("Stockfish") || text.starts_with("info") {
            continue;
        }
        let done = text.starts_with("Nodes searched");
        lines.push(text);
        if done {
            break;
        }
    }
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    Some(lines)
}

/// Path of the perftree debugger (`cargo install perftree-cli`):
/// `$PERFTREE`, else `perftree` on PATH, else in Cargo's bin directory;
/// `None` where it is not installed (the test is skipped, saying how to
/// install it), or a failure where oracles are required.
pub fn perftree_path() -> Option<std::path::PathBuf> {
    if let Ok(path) = std::env::var("PERFTREE") {
        return Some(path.into());
    }
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("perftree"))
        .find(|path| path.is_file());
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| std::path::PathBuf::from(home).join(".cargo")));
    on_path
        .or_else(|| cargo_home.map(|home| home.join("bin/perftree")).filter(|path| path.is_file()))
        .or_else(|| missing_oracle("the perftree debugger is not installed: cargo install --locked perftree-cli (or set PERFTREE=/path/to/perftree)"))
}

/// Writes to `dir/long.epd` the bundled `standard.epd` and then the start
/// position's perft(8), which takes many seconds with `--hash 0`: a suite
/// that an interrupt or kill after a second or two always finds mid-run,
/// however fast the machine (`standard.epd` alone takes under a second on
/// two fast cores).
pub fn long_suite(dir: &std::path::Path) -> std::path::PathBuf {
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("positions/standard.epd");
    let mut lines = std::fs::read_to_string(bundled).unwrap();
    if !lines.ends_with('\n') {
        lines.push('\n');
    }
    lines.push_str("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D8 84998978956\n");
    let path = dir.join("long.epd");
    std::fs::write(&path, lines).unwrap();
    path
}
