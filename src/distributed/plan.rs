//! Splitting a count into units of unique positions (`perft split`), and
//! reading a plan back (manifest and unit files).
//!
//! A plan directory holds `manifest.json` and `units/unit-NNNNNN.txt`. A
//! unit file is text: a header line `perft-unit 1 index I positions N`,
//! then one line per position, tab-separated: the first four FEN fields, the
//! multiplicity (how many move paths from the root reach it), and its
//! multiplicity per root move as `move:count` words.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::packed::{BuildPackedHasher, CastlingLetters, PackedPosition};
use super::{
    Checksum, Count, DistError, UnitIndex, FORMAT, MANIFEST, MAX_PLAN_FILE_BYTES, RESULTS_DIR, UNITS_DIR,
};
use crate::board::{Board, CastlingMode, FenOptions};
use crate::counting::perft_parallel;
use crate::counting::Mode;
use crate::report::ToolInfo;

/// Memory one position takes while splitting, with some margin: ply 6 of
/// the start position (9,417,681 positions) peaked at 2.46 GB, 262 bytes
/// each. The default of [`SplitRequest::max_positions`] is derived from it.
pub const BYTES_PER_POSITION: u64 = 280;

/// What to split.
pub struct SplitRequest<'a> {
    /// The root position (after any moves).
    pub root: &'a Board,
    /// Total depth of the count.
    pub depth: u32,
    /// Plies down to the unit positions: 1 to `depth - 1`.
    pub ply: u32,
    /// Number of units: 1 to the number of unique positions.
    pub units: u32,
    /// The most unique positions one ply may hold in memory; more is refused.
    pub max_positions: u64,
    /// Replace the plan files (manifest, units, results) of a directory
    /// that has them, once the new plan is written; other files stay.
    pub force: bool,
    /// Raised to stop between positions.
    pub stop: Option<&'a AtomicBool>,
}

/// One unit in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitEntry {
    /// Its number.
    pub index: UnitIndex,
    /// Its file, relative to the plan directory.
    pub file: String,
    /// Positions in it.
    pub positions: u64,
    /// Sum of its positions' multiplicities.
    pub multiplicity: Count,
    /// SHA-256 of the file.
    pub sha256: Checksum,
}

/// `manifest.json`: what the plan counts and how it is cut.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Always `"perft-plan"`.
    pub kind: String,
    /// [`FORMAT`].
    pub format: u32,
    /// The root position.
    pub fen: String,
    /// Whether castling is written the Chess960 way.
    pub chess960: bool,
    /// Total depth.
    pub depth: u32,
    /// Plies from the root to the unit positions.
    pub ply: u32,
    /// Unique positions at `ply`.
    pub unique_positions: u64,
    /// Sum of their multiplicities: perft(`ply`), checked.
    pub multiplicity_sum: Count,
    /// perft(`ply`) of the root, counted independently.
    pub perft_at_ply: Count,
    /// The root's legal moves in UCI notation, in generation order (the
    /// order of `perft run`'s divide).
    pub root_moves: Vec<String>,
    /// Number of units (the length of `units`).
    pub unit_count: u32,
    /// The program that split.
    pub tool: ToolInfo,
    /// When (UTC).
    pub created: String,
    /// The units.
    pub units: Vec<UnitEntry>,
}

impl Manifest {
    /// Plies each unit position is counted to.
    pub fn unit_depth(&self) -> u32 {
        self.depth - self.ply
    }
}

/// A plan read back: the manifest and its checksum (the plan's identity).
pub struct Plan {
    /// The plan directory.
    pub dir: PathBuf,
    /// The manifest.
    pub manifest: Manifest,
    /// SHA-256 of `manifest.json` as written.
    pub checksum: Checksum,
}

/// A position of a unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitPosition {
    /// The first four FEN fields.
    pub fen: String,
    /// Move paths from the root that reach it.
    pub multiplicity: u128,
    /// Of those, how many start with each root move: (index into
    /// [`Manifest::root_moves`], count), by index.
    pub per_root: Vec<(u16, u128)>,
}

/// What a split made.
pub struct SplitSummary {
    /// The manifest written.
    pub manifest: Manifest,
    /// Bytes of the unit files.
    pub bytes: u64,
    /// Seconds it took.
    pub seconds: f64,
}

/// Per-root multiplicities of one position while splitting: (root move
/// index, count), sorted by index.
type RootCounts = Vec<(u16, u64)>;
type Level = HashMap<PackedPosition, RootCounts, BuildPackedHasher>;

/// Splits `request.root` at `request.ply` into `request.units` units and
/// writes the plan to `dir`. Everything is enumerated and checked before
/// `dir` is touched, and the plan is written beside it first: a split that
/// fails or is interrupted leaves whatever plan `dir` held (its units and
/// results) as it was.
///
/// # Errors
/// [`DistError::BadSplit`] for a depth, ply or unit count that cannot be
/// split, [`DistError::PlanExists`], [`DistError::TooManyPositions`],
/// [`DistError::SumMismatch`], [`DistError::Interrupted`], or an I/O error.
pub fn split(request: &SplitRequest, dir: &Path) -> Result<SplitSummary, DistError> {
    let start = Instant::now();
    let (depth, ply) = (request.depth, request.ply);
    check_request(request)?;
    check_dir(dir, request.force)?;
    let positions = enumerate(request)?;
    let unique = positions.len() as u64;
    if unique == 0 {
        return Err(DistError::BadSplit(format!(
            "no position is {ply} plies below the root (the game ends before)"
        )));
    }
    if u64::from(request.units) > unique {
        return Err(DistError::BadSplit(format!(
            "--units {} is more than the {unique} unique positions at ply {ply}; use at most {unique} units",
            request.units
        )));
    }
    let sum: u128 = positions.iter().flat_map(|(_, counts)| counts.iter().map(|&(_, n)| u128::from(n))).sum();
    let perft = perft_parallel(request.root, ply, Mode::Bulk);
    if sum != perft {
        return Err(DistError::SumMismatch { ply, sum, perft });
    }
    let root_moves = root_moves(request.root);
    let letters = CastlingLetters::of(request.root);
    let staging = Staging::new(dir)?;
    let mut units = Vec::new();
    let mut bytes = 0;
    let mut rest = &positions[..];
    for index in 0..request.units {
        if request.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(DistError::Interrupted);
        }
        let take = chunk_len(positions.len(), request.units, index);
        let (chunk, tail) = rest.split_at(take);
        rest = tail;
        let (entry, size) = write_unit(&staging.path, UnitIndex(index), chunk, &letters, &root_moves)?;
        bytes += size;
        units.push(entry);
    }
    let manifest = Manifest {
        kind: "perft-plan".into(),
        format: FORMAT,
        fen: request.root.fen(),
        chess960: request.root.is_chess960(),
        depth,
        ply,
        unique_positions: unique,
        multiplicity_sum: Count(sum),
        perft_at_ply: Count(perft),
        root_moves,
        unit_count: request.units,
        tool: ToolInfo::current(),
        created: crate::report::timestamp(),
        units,
    };
    let path = staging.path.join(MANIFEST);
    crate::report::write_json_atomic(&path, &manifest).map_err(DistError::io(&path))?;
    staging.install(dir)?;
    Ok(SplitSummary { manifest, bytes, seconds: start.elapsed().as_secs_f64() })
}

/// Refuses a ply, depth or unit count that cannot be split.
fn check_request(request: &SplitRequest) -> Result<(), DistError> {
    let (depth, ply) = (request.depth, request.ply);
    if ply == 0 {
        return Err(DistError::BadSplit(
            "--ply must be at least 1: ply 0 is the root itself, a single unit (count it with perft run)"
                .into(),
        ));
    }
    if ply >= depth {
        return Err(DistError::BadSplit(format!(
            "--ply {ply} must be less than --depth {depth}: the units count depth - ply plies below each position"
        )));
    }
    if request.units == 0 {
        return Err(DistError::BadSplit("--units must be at least 1".into()));
    }
    Ok(())
}

/// Positions in unit `index` of `units` over `total` positions: equal
/// shares, the first `total % units` units one more.
fn chunk_len(total: usize, units: u32, index: u32) -> usize {
    let units = units as usize;
    total / units + usize::from((index as usize) < total % units)
}

/// The plan's own entries in a plan directory, in the order they are set
/// aside when a plan is replaced (the manifest first, so that no manifest
/// ever names units of another plan).
const PLAN_ENTRIES: [&str; 3] = [MANIFEST, UNITS_DIR, RESULTS_DIR];

/// Refuses a `dir` that holds files, unless `force`; changes nothing.
fn check_dir(dir: &Path, force: bool) -> Result<(), DistError> {
    let mut entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(DistError::io(dir)(e)),
    };
    if entries.next().is_some() && !force {
        return Err(DistError::PlanExists(dir.to_path_buf()));
    }
    Ok(())
}

/// A new plan being written: `DIR/.perft-split.SUFFIX/` (in the plan
/// directory, so on its file system), removed when dropped.
struct Staging {
    path: PathBuf,
}

impl Staging {
    /// Creates `dir` if missing and the staging directory in it.
    fn new(dir: &Path) -> Result<Staging, DistError> {
        let path = dir.join(format!(".perft-split.{}", crate::report::write::unique_suffix()));
        std::fs::create_dir_all(path.join(UNITS_DIR)).map_err(DistError::io(&path))?;
        Ok(Staging { path })
    }

    /// Swaps the new plan in: the old plan's manifest, units and results
    /// are moved aside, the new units and then the new manifest moved in,
    /// and the old ones deleted. Other files in `dir` (logs, reports) stay.
    /// If a move fails, the old plan is put back.
    fn install(self, dir: &Path) -> Result<(), DistError> {
        let old = dir.join(format!(".perft-split-old.{}", crate::report::write::unique_suffix()));
        std::fs::create_dir(&old).map_err(DistError::io(&old))?;
        let (mut aside, mut placed) = (Vec::new(), Vec::new());
        let mut result = PLAN_ENTRIES.into_iter().try_for_each(|name| {
            let from = dir.join(name);
            if std::fs::symlink_metadata(&from).is_err() {
                return Ok(());
            }
            std::fs::rename(&from, old.join(name)).map_err(DistError::io(&from))?;
            aside.push(name);
            Ok(())
        });
        if result.is_ok() {
            result = [UNITS_DIR, MANIFEST].into_iter().try_for_each(|name| {
                let from = self.path.join(name);
                std::fs::rename(&from, dir.join(name)).map_err(DistError::io(&from))?;
                placed.push(name);
                Ok(())
            });
        }
        if result.is_ok() {
            let _ = std::fs::remove_dir_all(&old);
            return Ok(());
        }
        for name in placed {
            let _ = std::fs::rename(dir.join(name), self.path.join(name));
        }
        for name in aside {
            let _ = std::fs::rename(old.join(name), dir.join(name));
        }
        let _ = std::fs::remove_dir(&old);
        result
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// The unique positions `request.ply` plies below the root with their
/// per-root multiplicities, sorted. Built ply by ply: each unique position
/// of one ply is expanded once, its multiplicities added to each child's.
fn enumerate(request: &SplitRequest) -> Result<Vec<(PackedPosition, RootCounts)>, DistError> {
    let root = request.root;
    let options = FenOptions { castling: CastlingMode::from_chess960(root.is_chess960()), relaxed: true };
    let letters = CastlingLetters::of(root);
    let mut level = Level::default();
    let mut board = root.fork();
    for (i, &mv) in root.legal_moves().iter().enumerate() {
        board.make(mv);
        let counts = level.entry(PackedPosition::of(&board)).or_default();
        add_counts(counts, &[(i as u16, 1)], 1)?;
        board.unmake();
    }
    let mut perft_before = u128::from(root.legal_moves().len() as u64);
    for next in 2..=request.ply {
        let perft_next = perft_parallel(root, next, Mode::Bulk);
        let estimate = level.len() as f64 * (perft_next as f64 / perft_before.max(1) as f64) * 0.4;
        if estimate > request.max_positions as f64 && perft_next > u128::from(request.max_positions) {
            return Err(too_many(next, format!("about {estimate:.0} (estimated)"), request.max_positions));
        }
        perft_before = perft_next;
        level = expand(&level, next, &letters, options, request)?;
    }
    let mut positions: Vec<(PackedPosition, RootCounts)> = level.into_iter().collect();
    positions.sort_unstable_by_key(|a| a.0);
    Ok(positions)
}

fn too_many(ply: u32, what: String, limit: u64) -> DistError {
    DistError::TooManyPositions { ply, what, limit, bytes_per_position: BYTES_PER_POSITION }
}

/// The positions one ply below those of `level` (which is at `ply - 1`).
fn expand(
    level: &Level,
    ply: u32,
    letters: &CastlingLetters,
    options: FenOptions,
    request: &SplitRequest,
) -> Result<Level, DistError> {
    let mut next = Level::default();
    for (i, (packed, counts)) in level.iter().enumerate() {
        if i % 4096 == 0 && request.stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
            return Err(DistError::Interrupted);
        }
        let fen = packed.fen(letters);
        let mut board = Board::from_fen_with(&fen, options).map_err(|e| {
            DistError::BadSplit(format!("cannot read back {fen:?} at ply {} (a bug): {e}", ply - 1))
        })?;
        for &mv in &board.legal_moves() {
            board.make(mv);
            let child = next.entry(PackedPosition::of(&board)).or_default();
            add_counts(child, counts, ply)?;
            board.unmake();
        }
        if next.len() as u64 > request.max_positions {
            return Err(too_many(ply, format!("more than {}", request.max_positions), request.max_positions));
        }
    }
    Ok(next)
}

/// Adds `more` into `into` (both sorted by root index).
fn add_counts(into: &mut RootCounts, more: &[(u16, u64)], ply: u32) -> Result<(), DistError> {
    for &(root, n) in more {
        match into.binary_search_by_key(&root, |&(r, _)| r) {
            Ok(at) => into[at].1 = into[at].1.checked_add(n).ok_or(DistError::MultiplicityOverflow(ply))?,
            Err(at) => into.insert(at, (root, n)),
        }
    }
    Ok(())
}

/// Writes one unit file; returns its manifest entry and size.
fn write_unit(
    dir: &Path,
    index: UnitIndex,
    chunk: &[(PackedPosition, RootCounts)],
    letters: &CastlingLetters,
    root_moves: &[String],
) -> Result<(UnitEntry, u64), DistError> {
    use std::fmt::Write;
    let mut text = format!("perft-unit {FORMAT} index {index} positions {}\n", chunk.len());
    let mut unit_sum = 0u128;
    for (packed, counts) in chunk {
        let multiplicity: u128 = counts.iter().map(|&(_, n)| u128::from(n)).sum();
        unit_sum += multiplicity;
        let _ = write!(text, "{}\t{multiplicity}\t", packed.fen(letters));
        for (k, &(root, n)) in counts.iter().enumerate() {
            let separator = if k == 0 { "" } else { " " };
            let _ = write!(text, "{separator}{}:{n}", root_moves[usize::from(root)]);
        }
        text.push('\n');
    }
    let relative = index.unit_file();
    let path = dir.join(&relative);
    crate::report::write_atomic(&path, text.as_bytes()).map_err(DistError::io(&path))?;
    let entry = UnitEntry {
        index,
        file: relative.to_string_lossy().into_owned(),
        positions: chunk.len() as u64,
        multiplicity: Count(unit_sum),
        sha256: Checksum::of(text.as_bytes()),
    };
    Ok((entry, text.len() as u64))
}

/// The contents of a plan file that must be there: a regular file, never
/// waited on (see [`crate::report::read::read_regular`]).
fn read_plan_file(path: &Path) -> Result<Vec<u8>, DistError> {
    crate::report::read::read_existing(path, MAX_PLAN_FILE_BYTES).map_err(DistError::io(path))
}

impl Plan {
    /// Checks that the plan's `results` directory, where units write, is
    /// not a symbolic link (it would make them write outside the plan).
    ///
    /// # Errors
    /// [`DistError::Io`] naming the link's target.
    pub fn check_results_dir(&self) -> Result<(), DistError> {
        let dir = self.dir.join(RESULTS_DIR);
        match std::fs::symlink_metadata(&dir) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target =
                    std::fs::read_link(&dir).map_or_else(|_| "?".into(), |t| t.display().to_string());
                Err(DistError::io(&dir)(std::io::Error::other(format!(
                    "a symbolic link (to {target}); a plan's results are written only inside the plan"
                ))))
            }
            _ => Ok(()),
        }
    }

    /// Reads `dir/manifest.json` and checks that it is consistent.
    ///
    /// # Errors
    /// [`DistError::Io`] or [`DistError::BadPlan`].
    pub fn open(dir: &Path) -> Result<Plan, DistError> {
        let path = dir.join(MANIFEST);
        let bytes = read_plan_file(&path)?;
        let bad = |reason: String| DistError::BadPlan { path: path.clone(), line: None, reason };
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|e| bad(format!("not a perft plan manifest: {e}")))?;
        if manifest.kind != "perft-plan" || manifest.format != FORMAT {
            return Err(bad(format!(
                "kind {:?} format {}: not a perft plan of format {FORMAT}",
                manifest.kind, manifest.format
            )));
        }
        check_manifest(&manifest).map_err(|reason| bad(format!("inconsistent: {reason}")))?;
        Ok(Plan { dir: dir.to_path_buf(), manifest, checksum: Checksum::of(&bytes) })
    }

    /// Checks the manifest's root against the board: its root moves are the
    /// root's legal moves in generation order, and its sum of
    /// multiplicities is perft(`ply`) of the root, counted again here
    /// (a fraction of a second up to ply 6, seconds at ply 7).
    ///
    /// # Errors
    /// [`DistError::BadPlan`] naming the manifest.
    pub fn verify_root(&self) -> Result<(), DistError> {
        let m = &self.manifest;
        let bad = |reason: String| DistError::BadPlan { path: self.dir.join(MANIFEST), line: None, reason };
        let root = Board::from_fen_with(&m.fen, self.fen_options())
            .map_err(|e| bad(format!("its root {:?} is not a position: {e}", m.fen)))?;
        let moves = root_moves(&root);
        if moves != m.root_moves {
            return Err(bad(format!(
                "its root moves [{}] are not the legal moves of its root [{}]",
                m.root_moves.join(" "),
                moves.join(" ")
            )));
        }
        let perft = perft_parallel(&root, m.ply, Mode::Bulk);
        if perft != m.multiplicity_sum.0 {
            return Err(bad(format!(
                "its multiplicities sum to {}, but perft({}) of its root is {perft}: the plan cannot add up",
                m.multiplicity_sum, m.ply
            )));
        }
        Ok(())
    }

    /// The manifest entry of unit `index`.
    ///
    /// # Errors
    /// [`DistError::IndexOutOfRange`] (naming `source_name`, where the
    /// index came from).
    pub fn unit(&self, index: u64, source_name: &str) -> Result<&UnitEntry, DistError> {
        usize::try_from(index).ok().and_then(|i| self.manifest.units.get(i)).ok_or_else(|| {
            DistError::IndexOutOfRange {
                index,
                source_name: source_name.to_string(),
                units: self.manifest.unit_count,
            }
        })
    }

    /// Reads unit `entry`'s file, checks it against the manifest's checksum
    /// and returns its positions.
    ///
    /// # Errors
    /// [`DistError::UnitChecksum`], [`DistError::BadPlan`] naming the line,
    /// or an I/O error.
    pub fn read_unit(&self, entry: &UnitEntry) -> Result<Vec<UnitPosition>, DistError> {
        let path = self.dir.join(&entry.file);
        let bytes = read_plan_file(&path)?;
        let actual = Checksum::of(&bytes);
        if actual != entry.sha256 {
            return Err(DistError::UnitChecksum {
                index: entry.index,
                path,
                expected: entry.sha256.clone(),
                actual,
            });
        }
        let moves: HashMap<&str, u16> =
            self.manifest.root_moves.iter().enumerate().map(|(i, m)| (m.as_str(), i as u16)).collect();
        let bad =
            |line: usize, reason: String| DistError::BadPlan { path: path.clone(), line: Some(line), reason };
        let text = std::str::from_utf8(&bytes).map_err(|_| bad(1, "not text".into()))?;
        let mut lines = text.lines();
        let header = format!("perft-unit {FORMAT} index {} positions {}", entry.index, entry.positions);
        if lines.next() != Some(header.as_str()) {
            return Err(bad(1, format!("the header is not `{header}`")));
        }
        let mut positions = Vec::with_capacity(entry.positions as usize);
        for (i, line) in lines.enumerate() {
            positions.push(parse_position(line, &moves).map_err(|e| bad(i + 2, e.to_string()))?);
        }
        if positions.len() as u64 != entry.positions {
            return Err(bad(
                positions.len() + 1,
                format!("{} positions, not {}", positions.len(), entry.positions),
            ));
        }
        Ok(positions)
    }

    /// The unit's FEN parsing options: Chess960 castling as the root has
    /// it; relaxed, since every position was reached by legal moves.
    pub fn fen_options(&self) -> FenOptions {
        FenOptions { castling: CastlingMode::from_chess960(self.manifest.chess960), relaxed: true }
    }
}

/// The root's legal moves in generation order, in UCI: the order per-root
/// counts and the merged divide use.
fn root_moves(root: &Board) -> Vec<String> {
    root.legal_moves().iter().map(|&mv| root.uci(mv)).collect()
}

/// Why `manifest`'s figures do not agree, if they do not: at least one
/// unit, no more units than positions, entry `i` is unit `i` with its own
/// file name and at least one position, and the sums add up.
fn check_manifest(manifest: &Manifest) -> Result<(), String> {
    let m = manifest;
    if m.depth > crate::counting::MAX_DEPTH {
        return Err(format!(
            "depth {} is beyond {}, the deepest count accepted",
            m.depth,
            crate::counting::MAX_DEPTH
        ));
    }
    if m.ply == 0 || m.ply >= m.depth {
        return Err(format!("ply {} must be from 1 to depth - 1 (depth {})", m.ply, m.depth));
    }
    if m.unit_count == 0 || m.units.is_empty() {
        return Err("it has no units".into());
    }
    if m.unit_count as usize != m.units.len() {
        return Err(format!("unit_count is {}, but {} units are listed", m.unit_count, m.units.len()));
    }
    if m.unique_positions < u64::from(m.unit_count) {
        return Err(format!("{} unique positions cannot fill {} units", m.unique_positions, m.unit_count));
    }
    let (mut positions, mut multiplicity) = (0u64, 0u128);
    for (i, entry) in m.units.iter().enumerate() {
        let index = UnitIndex(i as u32);
        if entry.index != index {
            return Err(format!("entry {i} of the unit list is unit {}, not {i}", entry.index));
        }
        let file = index.unit_file();
        if Path::new(&entry.file) != file {
            return Err(format!("unit {i}'s file is {:?}, not {}", entry.file, file.display()));
        }
        if entry.positions == 0 || entry.multiplicity.0 < u128::from(entry.positions) {
            return Err(format!(
                "unit {i} has {} positions of multiplicity {}: at least 1 each",
                entry.positions, entry.multiplicity
            ));
        }
        positions = positions.checked_add(entry.positions).ok_or("the positions pass 2^64")?;
        multiplicity =
            multiplicity.checked_add(entry.multiplicity.0).ok_or("the multiplicities pass 2^128")?;
    }
    if positions != m.unique_positions {
        return Err(format!("the units hold {positions} positions, not {}", m.unique_positions));
    }
    if multiplicity != m.multiplicity_sum.0 || m.multiplicity_sum != m.perft_at_ply {
        return Err(format!(
            "the units' multiplicities sum to {multiplicity}, multiplicity_sum is {}, perft_at_ply {}",
            m.multiplicity_sum, m.perft_at_ply
        ));
    }
    Ok(())
}

/// Why a line of a unit file is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UnitLineError {
    /// Not three tab-separated fields.
    #[error("{0} tab-separated fields, expected 3 (FEN, multiplicity, per-root counts)")]
    Fields(usize),
    /// The multiplicity is not a count.
    #[error("multiplicity field {0:?} is not a count")]
    Multiplicity(String),
    /// A per-root word is not `move:count`.
    #[error("per-root field {0:?} is not move:count")]
    NotMoveCount(String),
    /// A per-root word names a move the root does not have.
    #[error("per-root field {word:?}: {mv} is not a root move")]
    NotRootMove {
        /// The word.
        word: String,
        /// Its move.
        mv: String,
    },
    /// A per-root count is not a count.
    #[error("per-root field {word:?}: {count:?} is not a count")]
    PerRootCount {
        /// The word.
        word: String,
        /// Its count.
        count: String,
    },
    /// The per-root counts do not add up to the multiplicity.
    #[error("the per-root counts do not add up to the multiplicity {0}")]
    Sum(u128),
}

/// One unit line: `FEN<TAB>multiplicity<TAB>move:count ...`.
fn parse_position(line: &str, moves: &HashMap<&str, u16>) -> Result<UnitPosition, UnitLineError> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [fen, multiplicity, per_root] = fields[..] else {
        return Err(UnitLineError::Fields(fields.len()));
    };
    let multiplicity: u128 =
        multiplicity.parse().map_err(|_| UnitLineError::Multiplicity(multiplicity.to_string()))?;
    let mut counts = Vec::new();
    for word in per_root.split(' ') {
        let (mv, n) = word.split_once(':').ok_or_else(|| UnitLineError::NotMoveCount(word.to_string()))?;
        let root = *moves
            .get(mv)
            .ok_or_else(|| UnitLineError::NotRootMove { word: word.to_string(), mv: mv.to_string() })?;
        let n: u128 = n
            .parse()
            .map_err(|_| UnitLineError::PerRootCount { word: word.to_string(), count: n.to_string() })?;
        counts.push((root, n));
    }
    if counts.iter().try_fold(0u128, |sum, &(_, n)| sum.checked_add(n)) != Some(multiplicity) {
        return Err(UnitLineError::Sum(multiplicity));
    }
    Ok(UnitPosition { fen: fen.to_string(), multiplicity, per_root: counts })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_everything_evenly() {
        for (total, units) in [(10, 3), (5362, 8), (7, 7), (100, 1)] {
            let lens: Vec<usize> = (0..units).map(|i| chunk_len(total, units, i)).collect();
            assert_eq!(lens.iter().sum::<usize>(), total);
            assert!(lens.iter().max().unwrap() - lens.iter().min().unwrap() <= 1, "{lens:?}");
        }
    }

    #[test]
    fn unit_lines_are_checked() {
        let moves: HashMap<&str, u16> = [("e2e4", 0), ("d2d4", 1)].into_iter().collect();
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/3PP3/8/PPP2PPP/RNBQKBNR b KQkq -";
        let good = parse_position(&format!("{fen}\t2\te2e4:1 d2d4:1"), &moves).unwrap();
        assert_eq!(good.per_root, vec![(0, 1), (1, 1)]);
        let max = u128::MAX;
        for (line, expected, needle) in [
            (format!("{fen}\t3\te2e4:1 d2d4:1"), UnitLineError::Sum(3), "add up"),
            (format!("{fen}\t0\te2e4:{max} d2d4:1"), UnitLineError::Sum(0), "add up"),
            (
                format!("{fen}\t2\te2e4:1 c2c4:1"),
                UnitLineError::NotRootMove { word: "c2c4:1".into(), mv: "c2c4".into() },
                "not a root move",
            ),
            (format!("{fen}\tx\te2e4:1"), UnitLineError::Multiplicity("x".into()), "not a count"),
            (
                format!("{fen}\t1\te2e4:y"),
                UnitLineError::PerRootCount { word: "e2e4:y".into(), count: "y".into() },
                "not a count",
            ),
            (format!("{fen}\t2"), UnitLineError::Fields(2), "2 tab-separated fields"),
            (format!("{fen}\t1\te2e4=1"), UnitLineError::NotMoveCount("e2e4=1".into()), "move:count"),
        ] {
            let error = parse_position(&line, &moves).unwrap_err();
            assert_eq!(error, expected, "{line}");
            assert!(error.to_string().contains(needle), "{line}: {error}");
        }
    }

    /// Unique positions per ply from the start position are OEIS A083276,
    /// and the multiplicities add up to perft.
    #[test]
    fn unique_positions_of_the_start_position() {
        let root = Board::startpos();
        for (ply, unique, perft) in [(1, 20, 20u128), (2, 400, 400), (3, 5362, 8902), (4, 72078, 197281)] {
            let request = SplitRequest {
                root: &root,
                depth: 9,
                ply,
                units: 1,
                max_positions: 1 << 30,
                force: false,
                stop: None,
            };
            let positions = enumerate(&request).unwrap();
            assert_eq!(positions.len(), unique, "ply {ply}");
            let sum: u128 = positions.iter().flat_map(|(_, c)| c.iter().map(|&(_, n)| u128::from(n))).sum();
            assert_eq!(sum, perft, "ply {ply}");
        }
        let request = SplitRequest {
            root: &root,
            depth: 9,
            ply: 4,
            units: 1,
            max_positions: 1000,
            force: false,
            stop: None,
        };
        assert!(matches!(enumerate(&request), Err(DistError::TooManyPositions { .. })));
    }
}
