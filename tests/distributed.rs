//! `perft split`, `perft unit` and `perft merge` without a scheduler: the
//! binary end to end (and the library to forge results). Totals are checked
//! against published perft counts and unique-position counts (OEIS
//! A083276), divides against `perft run`.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use perft::distributed::journal::this_build;
use perft::distributed::plan::Plan;
use perft::distributed::unit::{ResultError, UnitResult};
use perft::distributed::{Checksum, Count, Keys, UnitIndex};
use serde_json::Value;

const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// positions/fischer.epd line 1: D5 8146062.
const FRC: &str = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
const INDEX_VARIABLES: [&str; 3] =
    ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"];

fn perft() -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    // Inside GitHub Actions the tool would add annotations to what it prints.
    cmd.env_remove("GITHUB_ACTIONS");
    cmd.env_remove("RUST_BACKTRACE");
    for name in INDEX_VARIABLES {
        cmd.env_remove(name);
    }
    cmd.env_remove("PERFT_INDEX_OFFSET");
    cmd
}

fn run(args: &[&str]) -> Output {
    perft().args(args).output().unwrap()
}

fn text(output: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

fn ok(args: &[&str]) -> String {
    let output = run(args);
    assert!(output.status.success(), "perft {args:?} failed: {}", text(&output));
    String::from_utf8(output.stdout).unwrap()
}

fn status(output: &Output) -> i32 {
    output.status.code().unwrap_or(-1)
}

fn split(dir: &Path, fen: &str, depth: u32, ply: u32, units: u32, extra: &[&str]) -> Value {
    let (d, p, n) = (depth.to_string(), ply.to_string(), units.to_string());
    let mut args = vec!["split", "--fen", fen, "--depth", &d, "--ply", &p, "--units", &n, "--out"];
    let out = dir.to_str().unwrap();
    args.push(out);
    args.extend_from_slice(extra);
    ok(&args);
    manifest(dir)
}

fn manifest(dir: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap()
}

fn units_of(dir: &Path) -> u32 {
    manifest(dir)["unit_count"].as_u64().unwrap() as u32
}

/// Runs every unit of the plan under key set `keys`.
fn run_all(dir: &Path, keys: u8) {
    for i in 0..units_of(dir) {
        let (index, keys) = (i.to_string(), keys.to_string());
        ok(&["unit", dir.to_str().unwrap(), "--index", &index, "--keys", &keys, "--hash", "4", "-t", "2"]);
    }
}

fn merge(dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["merge", dir.to_str().unwrap()];
    args.extend_from_slice(extra);
    run(&args)
}

/// The divide and total lines (up to `Nodes searched`).
fn divide_lines(out: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for line in out.lines() {
        lines.push(line.to_string());
        if line.starts_with("Nodes searched") {
            return lines;
        }
    }
    panic!("no `Nodes searched` line in:\n{out}");
}

fn result_path(dir: &Path, index: u32, keys: u8) -> PathBuf {
    dir.join(UnitIndex(index).result_file(Keys::new(keys).unwrap()))
}

fn read_result(dir: &Path, index: u32, keys: u8) -> UnitResult {
    serde_json::from_str(&std::fs::read_to_string(result_path(dir, index, keys)).unwrap()).unwrap()
}

fn write_result(dir: &Path, index: u32, keys: u8, result: &UnitResult) {
    std::fs::write(result_path(dir, index, keys), serde_json::to_string_pretty(result).unwrap()).unwrap();
}

#[test]
fn unique_positions_match_oeis_and_multiplicities_sum_to_perft() {
    let tmp = tempfile::tempdir().unwrap();
    // OEIS A083276 (unique positions) and perft(P) of the start position.
    for (ply, unique, perft) in [(3, 5362u64, "8902"), (4, 72078, "197281")] {
        let dir = tmp.path().join(format!("ply{ply}"));
        let m = split(&dir, STARTPOS, ply + 1, ply, 5, &[]);
        assert_eq!(m["unique_positions"].as_u64(), Some(unique));
        assert_eq!(m["multiplicity_sum"].as_str(), Some(perft));
        assert_eq!(m["perft_at_ply"].as_str(), Some(perft));
        let units = m["units"].as_array().unwrap();
        assert_eq!(units.iter().map(|u| u["positions"].as_u64().unwrap()).sum::<u64>(), unique);
        // The unit files hold every position once, each line's
        // per-root counts adding up to its multiplicity.
        let mut fens = std::collections::HashSet::new();
        let mut sum = 0u64;
        for u in units {
            let body = std::fs::read_to_string(dir.join(u["file"].as_str().unwrap())).unwrap();
            for line in body.lines().skip(1) {
                let fields: Vec<&str> = line.split('\t').collect();
                assert!(fens.insert(fields[0].to_string()), "{} twice", fields[0]);
                let multiplicity: u64 = fields[1].parse().unwrap();
                let per_root: u64 =
                    fields[2].split(' ').map(|w| w.split_once(':').unwrap().1.parse::<u64>().unwrap()).sum();
                assert_eq!(per_root, multiplicity, "{line}");
                sum += multiplicity;
            }
        }
        assert_eq!(fens.len() as u64, unique);
        assert_eq!(sum.to_string(), perft);
    }
}

#[test]
fn split_unit_merge_gives_published_totals_and_runs_divide() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, fen, depth, ply, units, nodes, chess960) in [
        ("start-d5", STARTPOS, 5, 2, 7, "4865609", false),
        ("start-d6", STARTPOS, 6, 3, 8, "119060324", false),
        // From ply 4 on, one root move reaches a position by several paths
        // (1.Nf3 Nf6 2.Nc3 Nc6 and 1.Nf3 Nc6 2.Nc3 Nf6).
        ("start-d6-p4", STARTPOS, 6, 4, 4, "119060324", false),
        ("kiwipete", KIWIPETE, 4, 2, 5, "4085603", false),
        ("kiwipete-d5", KIWIPETE, 5, 1, 48, "193690690", false),
        ("chess960", FRC, 5, 2, 6, "8146062", true),
    ] {
        let dir = tmp.path().join(name);
        let extra: &[&str] = if chess960 { &["--chess960"] } else { &[] };
        split(&dir, fen, depth, ply, units, extra);
        run_all(&dir, 1);
        let merged = ok(&["merge", dir.to_str().unwrap()]);
        let lines = divide_lines(&merged);
        assert_eq!(lines.last().unwrap(), &format!("Nodes searched: {nodes}"), "{name}");
        let mut args =
            vec!["run".to_string(), depth.to_string(), "--fen".into(), fen.into(), "-t".into(), "2".into()];
        if chess960 {
            args.push("--chess960".into());
        }
        let ran = ok(&args.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(lines, divide_lines(&ran), "{name}: merge's divide is run's");
    }
}

/// Kiwipete at ply 3 has positions that differ only in castling rights (a
/// king or rook that moved and came back): they must stay apart. Merged
/// together, the total was 193,692,151.
#[test]
fn castling_rights_keep_transpositions_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, KIWIPETE, 5, 3, 6, &[]);
    run_all(&dir, 1);
    let merged = ok(&["merge", dir.to_str().unwrap()]);
    let lines = divide_lines(&merged);
    assert_eq!(lines.last().unwrap(), "Nodes searched: 193690690");
    assert_eq!(lines, divide_lines(&ok(&["run", "5", "--fen", KIWIPETE, "-t", "2"])));
    // The plan really holds such pairs: same placement, side and en
    // passant, different castling rights.
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    let mut pairs = 0;
    for i in 0..units_of(&dir) {
        let body = std::fs::read_to_string(dir.join(UnitIndex(i).unit_file())).unwrap();
        for line in body.lines().skip(1) {
            let fen: Vec<&str> = line.split('\t').next().unwrap().split(' ').collect();
            let key = format!("{} {} {}", fen[0], fen[1], fen[3]);
            match seen.get(&key) {
                Some(rights) if rights != fen[2] => pairs += 1,
                _ => {
                    seen.insert(key, fen[2].to_string());
                }
            }
        }
    }
    assert!(pairs > 0, "no positions differing only in castling rights at ply 3");
}

#[test]
fn a_root_reached_by_moves() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    let plan = dir.to_str().unwrap();
    ok(&[
        "split",
        "--startpos",
        "--moves",
        "e2e4",
        "e7e5",
        "--depth",
        "4",
        "--ply",
        "2",
        "--units",
        "3",
        "--out",
        plan,
    ]);
    assert_eq!(
        manifest(&dir)["fen"].as_str().unwrap(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    run_all(&dir, 1);
    let merged = ok(&["merge", plan]);
    assert_eq!(divide_lines(&merged), divide_lines(&ok(&["run", "4", "--moves", "e2e4", "e7e5"])));
    // Not a plan: one clear error, status 2.
    let output = run(&["merge", tmp.path().join("nothing").to_str().unwrap()]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(text(&output).contains("manifest.json"), "{}", text(&output));
    std::fs::write(dir.join("manifest.json"), "{\"kind\": \"perft-plan\"}").unwrap();
    let output = run(&["unit", plan, "--index", "0"]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(text(&output).contains("not a perft plan manifest"), "{}", text(&output));
}

#[test]
fn positions_that_end_the_game_before_the_ply_contribute_nothing() {
    // Black mates at once (d8h4); other lines go on. Split below the mate.
    let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("mate");
    let m = split(&dir, fen, 4, 2, 3, &[]);
    let perft2 = ok(&["run", "2", "--fen", fen, "-q"]);
    assert_eq!(m["multiplicity_sum"].as_str().unwrap(), perft2.trim());
    run_all(&dir, 1);
    let merged = ok(&["merge", dir.to_str().unwrap()]);
    assert!(merged.contains("d8h4: 0\n"), "{merged}");
    assert_eq!(divide_lines(&merged), divide_lines(&ok(&["run", "4", "--fen", fen])));
}

#[test]
fn unit_index_from_option_and_each_environment_variable() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 5, &[]);
    let plan = dir.to_str().unwrap();
    let out = ok(&["unit", plan, "--index", "0", "--hash", "1"]);
    assert!(out.contains("unit 0 (keys 1): 80 positions"), "{out}");
    for (i, name) in INDEX_VARIABLES.iter().enumerate() {
        let index = (i + 1).to_string();
        let output = perft().args(["unit", plan, "--hash", "1"]).env(name, &index).output().unwrap();
        assert!(output.status.success(), "{name}: {}", text(&output));
        assert!(text(&output).contains(&format!("unit {index} (keys 1)")), "{name}: {}", text(&output));
        assert!(result_path(&dir, i as u32 + 1, 1).exists());
    }
    // --index wins over the environment.
    let output = perft()
        .args(["unit", plan, "--index", "4", "--hash", "1"])
        .env("SLURM_ARRAY_TASK_ID", "0")
        .output()
        .unwrap();
    assert!(text(&output).contains("unit 4 (keys 1)"), "{}", text(&output));
    // An offset added to the index, from PERFT_INDEX_OFFSET or
    // --index-offset (Slurm arrays past MaxArraySize).
    let output = perft()
        .args(["unit", plan, "--hash", "1"])
        .env("SLURM_ARRAY_TASK_ID", "1")
        .env("PERFT_INDEX_OFFSET", "2")
        .output()
        .unwrap();
    assert!(text(&output).contains("unit 3 (keys 1): already done"), "{}", text(&output));
    let out = ok(&["unit", plan, "--index", "0", "--index-offset", "4", "--hash", "1"]);
    assert!(out.contains("unit 4 (keys 1): already done"), "{out}");
    // A variable set but empty counts as unset: the next one is read.
    let output = perft()
        .args(["unit", plan, "--hash", "1"])
        .env("SLURM_ARRAY_TASK_ID", "")
        .env("JOB_COMPLETION_INDEX", "2")
        .output()
        .unwrap();
    assert!(text(&output).contains("unit 2 (keys 1): already done"), "{}", text(&output));
    assert_eq!(divide_lines(&ok(&["merge", plan])).last().unwrap(), "Nodes searched: 197281");
    // No index, not a number, out of range: one clear error, status 2.
    let none: &[(&str, &str)] = &[];
    for (args, env, needle) in [
        (vec!["unit", plan], none, "no unit index: give --index"),
        (vec!["unit", plan, "--index", "x"], none, "--index=\"x\" is not a unit index"),
        (
            vec!["unit", plan],
            &[("JOB_COMPLETION_INDEX", "-3")],
            "JOB_COMPLETION_INDEX=\"-3\" is not a unit index",
        ),
        (
            vec!["unit", plan, "--index", "5"],
            none,
            "unit 5 (from --index) does not exist: the plan has 5 units, 0 to 4",
        ),
        (
            vec!["unit", plan],
            &[("AWS_BATCH_JOB_ARRAY_INDEX", "9")],
            "unit 9 (from AWS_BATCH_JOB_ARRAY_INDEX) does not exist",
        ),
        (
            vec!["unit", plan],
            &[("JOB_COMPLETION_INDEX", "2"), ("PERFT_INDEX_OFFSET", "3")],
            "unit 5 (from JOB_COMPLETION_INDEX 2 + PERFT_INDEX_OFFSET 3) does not exist",
        ),
        (
            vec!["unit", plan, "--index", "1", "--index-offset", "x"],
            none,
            "--index-offset=\"x\" is not a unit index",
        ),
        (
            vec!["unit", plan, "--index", "0", "--keys", "3"],
            none,
            "key set \"3\": there are key sets 1 and 2",
        ),
    ] {
        let mut cmd = perft();
        cmd.args(&args).envs(env.iter().copied());
        let output = cmd.output().unwrap();
        assert_eq!(status(&output), 2, "{args:?}: {}", text(&output));
        assert!(text(&output).contains(needle), "{args:?}: {}", text(&output));
        assert!(!text(&output).contains("panicked"), "{}", text(&output));
        assert!(text(&output).matches("(from ").count() <= 1, "said once: {}", text(&output));
    }
}

#[test]
fn split_refuses_what_it_cannot_do() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    let plan = dir.to_str().unwrap();
    for (args, needle) in [
        (vec!["--depth", "4", "--ply", "0", "--units", "1"], "--ply must be at least 1"),
        (vec!["--depth", "4", "--ply", "4", "--units", "1"], "--ply 4 must be less than --depth 4"),
        (vec!["--depth", "4", "--ply", "5", "--units", "1"], "must be less than --depth"),
        (
            vec!["--depth", "4", "--ply", "2", "--units", "401"],
            "--units 401 is more than the 400 unique positions at ply 2",
        ),
        (vec!["--depth", "4", "--ply", "2", "--units", "0"], "--units must be at least 1"),
        (
            vec!["--depth", "8", "--ply", "4", "--units", "9", "--max-positions", "10000"],
            "unique positions, more than the limit of 10000",
        ),
    ] {
        let mut all = vec!["split", "--out", plan];
        all.extend_from_slice(&args);
        let output = run(&all);
        assert_eq!(status(&output), 2, "{args:?}: {}", text(&output));
        assert!(text(&output).contains(needle), "{args:?}: {}", text(&output));
        assert!(!dir.join("manifest.json").exists());
    }
    split(&dir, STARTPOS, 4, 2, 400, &[]);
    let output = run(&["split", "--out", plan, "--depth", "4", "--ply", "2", "--units", "3"]);
    assert_eq!(status(&output), 2);
    assert!(
        text(&output).contains("is not empty; choose a new directory, or give --force"),
        "{}",
        text(&output)
    );
    ok(&["unit", plan, "--index", "7", "--hash", "1"]);
    let m = split(&dir, STARTPOS, 5, 2, 3, &["--force"]);
    assert_eq!(m["unit_count"].as_u64(), Some(3));
    assert!(
        !dir.join("units/unit-000003.txt").exists() && !dir.join("results").exists(),
        "old plan files removed"
    );
}

/// Every file under `dir` with its contents, by path.
fn snapshot(dir: &Path) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
    let mut files = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(at) = stack.pop() {
        for entry in std::fs::read_dir(&at).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.insert(path.strip_prefix(dir).unwrap().to_path_buf(), std::fs::read(&path).unwrap());
            }
        }
    }
    files
}

/// A `--force` split that fails (too many positions, too many units)
/// leaves the old plan and its results as they were; one that succeeds
/// replaces them and keeps other files.
#[test]
fn a_failed_forced_split_leaves_the_old_plan_and_its_results() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    let plan = dir.to_str().unwrap();
    split(&dir, STARTPOS, 4, 2, 4, &[]);
    ok(&["unit", plan, "--index", "1", "--hash", "1"]);
    std::fs::create_dir(dir.join("logs")).unwrap();
    std::fs::write(dir.join("logs/unit-1.k1.out"), "log").unwrap();
    let before = snapshot(&dir);
    assert!(before.contains_key(Path::new("results/unit-000001.k1.json")));
    for (args, needle) in [
        (
            vec!["--depth", "8", "--ply", "4", "--units", "9", "--max-positions", "10000"],
            "more than the limit",
        ),
        (vec!["--depth", "5", "--ply", "2", "--units", "401"], "--units 401 is more than the 400"),
    ] {
        let mut all = vec!["split", "--startpos", "--force", "--out", plan];
        all.extend_from_slice(&args);
        let output = run(&all);
        assert_eq!(status(&output), 2, "{args:?}: {}", text(&output));
        assert!(text(&output).contains(needle), "{args:?}: {}", text(&output));
        assert!(snapshot(&dir) == before, "{args:?}: the old plan changed");
    }
    let out = ok(&["unit", plan, "--index", "1", "--hash", "1"]);
    assert!(out.contains("already done"), "{out}");
    // A forced split that succeeds: new plan, old results gone, logs kept,
    // nothing left beside.
    split(&dir, STARTPOS, 5, 2, 3, &["--force"]);
    let after = snapshot(&dir);
    assert!(!after.keys().any(|p| p.starts_with("results")), "{:?}", after.keys());
    assert!(!dir.join("units/unit-000003.txt").exists());
    assert_eq!(after.get(Path::new("logs/unit-1.k1.out")).map(Vec::as_slice), Some(&b"log"[..]));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.iter().any(|n| n.starts_with('.')), "{names:?}");
    run_all(&dir, 1);
    assert!(ok(&["merge", plan]).contains("Nodes searched: 4865609\n"));
}

#[test]
fn missing_invalid_foreign_and_wrong_key_set_results_are_named() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    let other = tmp.path().join("other");
    split(&dir, STARTPOS, 4, 2, 20, &[]);
    split(&other, STARTPOS, 5, 2, 20, &[]);
    let plan = dir.to_str().unwrap();
    for i in [0, 1, 2, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18] {
        ok(&["unit", plan, "--index", &i.to_string(), "--hash", "1"]);
    }
    ok(&["unit", other.to_str().unwrap(), "--index", "2", "--hash", "1"]);
    let output = merge(&dir, &[]);
    assert_eq!(status(&output), 3, "{}", text(&output));
    assert!(text(&output).contains("missing: 3-5,7-8,19\n"), "{}", text(&output));
    assert!(!text(&output).contains("Nodes searched"));

    // An edited count (the file stays valid JSON): corrupt.
    let path = result_path(&dir, 0, 1);
    let body = std::fs::read_to_string(&path).unwrap();
    let first = read_result(&dir, 0, 1).counts[0].0;
    std::fs::write(&path, body.replacen(&format!("\"{first}\""), &format!("\"{}\"", first + 1), 1)).unwrap();
    // A result of another plan copied in: foreign.
    std::fs::copy(result_path(&other, 2, 1), result_path(&dir, 2, 1)).unwrap();
    // Key set 2's result under key set 1's name: wrong key set.
    ok(&["unit", plan, "--index", "6", "--keys", "2", "--hash", "1"]);
    std::fs::copy(result_path(&dir, 6, 2), result_path(&dir, 6, 1)).unwrap();
    // Not JSON at all.
    std::fs::write(result_path(&dir, 9, 1), "{ truncated").unwrap();
    let output = merge(&dir, &[]);
    let out = text(&output);
    assert_eq!(status(&output), 3, "{out}");
    assert!(out.contains("missing: 0,2-9,19\n"), "{out}");
    for needle in [
        "invalid: unit 0 (keys 1): ",
        "corrupt: its seal does not match its counts",
        "invalid: unit 2 (keys 1): ",
        "foreign: it is a result of another plan",
        "invalid: unit 6 (keys 1): ",
        "wrong key set: it was counted with key set 2, not 1",
        "invalid: unit 9 (keys 1): ",
        "not a unit result (corrupt)",
    ] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    // The unit command replaces an invalid result, then merge is complete.
    let out = ok(&["unit", plan, "--index", "0", "--hash", "1"]);
    assert!(out.contains("is not valid (corrupt: its seal does not match its counts"), "{out}");
    for i in [2, 3, 4, 5, 6, 7, 8, 9, 19] {
        ok(&["unit", plan, "--index", &i.to_string(), "--hash", "1"]);
    }
    let merged = ok(&["merge", plan, "--json", dir.join("merge.json").to_str().unwrap()]);
    assert!(merged.contains("Nodes searched: 197281\n"), "{merged}");
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("merge.json")).unwrap()).unwrap();
    assert_eq!(report["kind"], "merge");
    assert_eq!(report["nodes"], "197281");
    assert_eq!(report["complete"], true);
    assert_eq!(report["divide"].as_array().unwrap().len(), 20);

    // A unit file changed after the split: unit and merge refuse (status 2).
    let unit_file = dir.join("units/unit-000001.txt");
    let body = std::fs::read_to_string(&unit_file).unwrap();
    std::fs::write(&unit_file, body.replacen("\t1\t", "\t2\t", 1)).unwrap();
    for output in [merge(&dir, &[]), run(&["unit", plan, "--index", "1", "--keys", "2"])] {
        assert_eq!(status(&output), 2, "{}", text(&output));
        assert!(text(&output).contains("does not match the manifest's"), "{}", text(&output));
    }
}

/// A checksum that is not 64 lower-case hex digits (here one that a byte
/// slice would cut inside a character) is refused when the manifest or a
/// result is read: a clear error, never a panic.
#[test]
fn checksums_that_are_not_hex_digits_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 3, &[]);
    let plan = dir.to_str().unwrap();
    ok(&["unit", plan, "--index", "0", "--hash", "1"]);
    let bad = format!("a{}", "\u{e9}".repeat(20));
    // In a result: invalid, named, counted again by `unit`.
    let path = result_path(&dir, 0, 1);
    let mut result: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    result["unit_checksum"] = Value::String(bad.clone());
    std::fs::write(&path, serde_json::to_string_pretty(&result).unwrap()).unwrap();
    let output = merge(&dir, &[]);
    assert_eq!(status(&output), 3, "{}", text(&output));
    assert!(text(&output).contains("invalid: unit 0 (keys 1)"), "{}", text(&output));
    assert!(text(&output).contains("is not a SHA-256 checksum"), "{}", text(&output));
    let out = ok(&["unit", plan, "--index", "0", "--hash", "1"]);
    assert!(out.contains("is not valid (not a unit result (corrupt)"), "{out}");
    // In the manifest: the plan is refused.
    let mut m = manifest(&dir);
    m["units"][1]["sha256"] = Value::String(bad);
    std::fs::write(dir.join("manifest.json"), serde_json::to_string_pretty(&m).unwrap()).unwrap();
    for output in [run(&["unit", plan, "--index", "1"]), merge(&dir, &[])] {
        assert_eq!(status(&output), 2, "{}", text(&output));
        assert!(text(&output).contains("is not a SHA-256 checksum"), "{}", text(&output));
        assert!(!text(&output).contains("panicked"), "{}", text(&output));
    }
}

/// A change to a manifest.
type ManifestEdit = fn(&mut Value);

/// Hand-edited manifests whose figures still add up are refused: no units,
/// fewer positions than units, a unit file outside `units/`, a unit list
/// out of order; and merge counts perft(ply) of the root again, so a sum
/// of multiplicities or root moves that do not belong to the root are
/// refused too.
#[test]
fn hand_edited_manifests_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 3, &[]);
    run_all(&dir, 1);
    let plan = dir.to_str().unwrap();
    let good = manifest(&dir);
    let edits: Vec<(&str, ManifestEdit)> = vec![
        ("it has no units", |m: &mut Value| {
            m["units"] = Value::Array(Vec::new());
            m["unit_count"] = 0.into();
            m["unique_positions"] = 0.into();
            for key in ["multiplicity_sum", "perft_at_ply"] {
                m[key] = "0".into();
            }
        }),
        ("2 unique positions cannot fill 3 units", |m: &mut Value| {
            m["unique_positions"] = 2.into();
            for (i, positions) in [1, 1, 0].into_iter().enumerate() {
                m["units"][i]["positions"] = positions.into();
            }
        }),
        ("unit 1's file is \"../x\", not units/unit-000001.txt", |m: &mut Value| {
            m["units"][1]["file"] = "../x".into()
        }),
        ("unit 2's file is \"units/unit-000000.txt\"", |m: &mut Value| {
            m["units"][2]["file"] = "units/unit-000000.txt".into()
        }),
        ("entry 0 of the unit list is unit 1, not 0", |m: &mut Value| {
            let units = m["units"].as_array_mut().unwrap();
            units.swap(0, 1);
        }),
    ];
    for (needle, edit) in &edits {
        let mut m = good.clone();
        edit(&mut m);
        std::fs::write(dir.join("manifest.json"), serde_json::to_string_pretty(&m).unwrap()).unwrap();
        for output in [merge(&dir, &[]), run(&["unit", plan, "--index", "0"])] {
            assert_eq!(status(&output), 2, "{needle}: {}", text(&output));
            assert!(text(&output).contains(needle), "{needle}: {}", text(&output));
            assert!(!text(&output).contains("Nodes searched"), "{}", text(&output));
        }
    }
    // Figures that agree with each other but not with the root: merge
    // refuses (perft(2) of the start position is 400).
    let mut m = good.clone();
    m["units"][0]["multiplicity"] =
        (good["units"][0]["multiplicity"].as_str().unwrap().parse::<u64>().unwrap() + 1).to_string().into();
    for key in ["multiplicity_sum", "perft_at_ply"] {
        m[key] = "401".into();
    }
    let mut swapped = good.clone();
    swapped["root_moves"].as_array_mut().unwrap().swap(0, 1);
    for (m, needle) in [
        (m, "its multiplicities sum to 401, but perft(2) of its root is 400"),
        (swapped, "are not the legal moves of its root"),
    ] {
        std::fs::write(dir.join("manifest.json"), serde_json::to_string_pretty(&m).unwrap()).unwrap();
        let output = merge(&dir, &[]);
        assert_eq!(status(&output), 2, "{needle}: {}", text(&output));
        assert!(text(&output).contains(needle), "{needle}: {}", text(&output));
    }
    std::fs::write(dir.join("manifest.json"), serde_json::to_string_pretty(&good).unwrap()).unwrap();
    // The manifest's bytes changed, so the results are foreign now; the
    // plan itself is good again.
    assert_eq!(status(&merge(&dir, &[])), 3);
}

/// A result re-sealed with one count too few (only the count check can
/// catch it), and unit 1's result copied under unit 3's name: both
/// refused and named.
#[test]
fn short_and_misplaced_results_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 4, &[]);
    run_all(&dir, 1);
    let plan = Plan::open(&dir).unwrap();
    let mut short = read_result(&dir, 0, 1);
    assert_eq!(short.counts.len(), 100);
    short.counts.pop();
    short.total = Count(short.counts.iter().map(|c| c.0).sum());
    short.seal();
    write_result(&dir, 0, 1, &short);
    std::fs::copy(result_path(&dir, 1, 1), result_path(&dir, 3, 1)).unwrap();
    let load = |i: usize| {
        UnitResult::load(&result_path(&dir, i as u32, 1), &plan, &plan.manifest.units[i], Keys::PRIMARY)
    };
    assert!(matches!(load(0), Err(ResultError::ShortCounts { counts: 99, positions: 100 })), "{:?}", load(0));
    assert!(
        matches!(load(3), Err(ResultError::WrongIndex { found: UnitIndex(1), expected: UnitIndex(3) })),
        "{:?}",
        load(3)
    );
    let output = merge(&dir, &[]);
    let out = text(&output);
    assert_eq!(status(&output), 3, "{out}");
    assert!(out.contains("missing: 0,3\n"), "{out}");
    assert!(
        out.contains("invalid: unit 0 (keys 1): ")
            && out.contains("it has 99 counts for the unit's 100 positions"),
        "{out}"
    );
    assert!(
        out.contains("invalid: unit 3 (keys 1): ")
            && out.contains("foreign: it is the result of unit 1, not 3"),
        "{out}"
    );
    assert!(!out.contains("Nodes searched"), "{out}");
}

#[test]
fn duplicate_runs_are_harmless() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, KIWIPETE, 4, 2, 4, &[]);
    let plan = dir.to_str().unwrap();
    run_all(&dir, 1);
    let before = std::fs::read(result_path(&dir, 2, 1)).unwrap();
    let start = Instant::now();
    let out = ok(&["unit", plan, "--index", "2", "--hash", "1024"]);
    assert!(out.contains("already done"), "{out}");
    assert!(start.elapsed() < Duration::from_secs(2));
    assert_eq!(std::fs::read(result_path(&dir, 2, 1)).unwrap(), before, "left as it was");
    assert!(ok(&["merge", plan]).contains("Nodes searched: 4085603\n"));
}

#[test]
fn two_key_sets_must_agree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 5, 2, 6, &[]);
    run_all(&dir, 1);
    for i in [0, 1, 2, 4, 5] {
        ok(&["unit", dir.to_str().unwrap(), "--index", &i.to_string(), "--keys", "2", "--hash", "2"]);
    }
    let output = merge(&dir, &["--keys", "1,2"]);
    assert_eq!(status(&output), 3, "{}", text(&output));
    assert!(text(&output).contains("missing: 3\n  keys 2: 3\n"), "{}", text(&output));
    ok(&["unit", dir.to_str().unwrap(), "--index", "3", "--keys", "2", "--hash", "2"]);
    let merged = ok(&["merge", dir.to_str().unwrap(), "--keys", "1,2"]);
    assert!(merged.contains("Nodes searched: 4865609\n"), "{merged}");
    assert!(merged.contains("key sets 1,2 agree"), "{merged}");
    // A key set named twice is refused, wherever the repeat is: `1,1` may
    // have meant `1,2`, and would verify nothing.
    for keys in ["1,2,1", "2,2"] {
        let output = run(&["merge", dir.to_str().unwrap(), "--keys", keys]);
        assert_eq!(status(&output), 2, "{keys}: {}", text(&output));
    }
    assert!(ok(&["merge", dir.to_str().unwrap(), "--keys", "2"]).contains("Nodes searched: 4865609\n"));

    // A key-set-2 result that passes every check but counts one position
    // differently (as a hash collision would): named, status 1.
    let mut forged = read_result(&dir, 4, 2);
    forged.counts[7].0 += 1;
    forged.total.0 += 1;
    forged.seal();
    write_result(&dir, 4, 2, &forged);
    let output = merge(&dir, &["--keys", "1,2"]);
    let out = text(&output);
    assert_eq!(status(&output), 1, "{out}");
    let total = read_result(&dir, 4, 1).total.0;
    assert!(
        out.contains(&format!(
            "DISAGREEMENT: unit 4: key set 1 counts {total}, key set 2 counts {}; first different position: line 9",
            total + 1
        )),
        "{out}"
    );
    assert!(!out.contains("Nodes searched"));
    // Key set 1 alone still merges.
    assert!(ok(&["merge", dir.to_str().unwrap()]).contains("Nodes searched: 4865609\n"));
}

#[test]
fn merge_sums_past_two_to_the_64_exactly() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 5, 4, 3, &[]);
    run_all(&dir, 1);
    // Synthetic counts near 2^62 for every position, resealed: the merged
    // total is the sum of multiplicity x count, far past 2^64.
    let plan = Plan::open(&dir).unwrap();
    let mut expected = 0u128;
    let mut divide = vec![0u128; plan.manifest.root_moves.len()];
    for entry in &plan.manifest.units {
        let mut result = read_result(&dir, entry.index.0, 1);
        let positions = plan.read_unit(entry).unwrap();
        for (i, (count, position)) in result.counts.iter_mut().zip(&positions).enumerate() {
            *count = Count((1u128 << 62) + i as u128 * 1_000_003 + u128::from(entry.index.0));
            expected += position.multiplicity * count.0;
            for &(root, n) in &position.per_root {
                divide[usize::from(root)] += n * count.0;
            }
        }
        result.total = Count(result.counts.iter().map(|c| c.0).sum());
        result.seal();
        write_result(&dir, entry.index.0, 1, &result);
    }
    assert!(expected > u128::from(u64::MAX) * 1000);
    let several_paths = plan
        .read_unit(&plan.manifest.units[0])
        .unwrap()
        .iter()
        .any(|p| p.per_root.iter().any(|&(_, n)| n > 1));
    assert!(several_paths, "a position reached by several paths from one root move");
    let merged = ok(&["merge", dir.to_str().unwrap()]);
    assert!(merged.contains(&format!("\nNodes searched: {expected}\n")), "{merged}");
    for (mv, n) in plan.manifest.root_moves.iter().zip(&divide) {
        assert!(merged.contains(&format!("{mv}: {n}\n")), "{mv}");
    }
}

/// Results whose counts would take the merged sum past 2^128 (forged:
/// no perft count is that large) are refused with a clear error, not
/// wrapped around: in a multiplicity times a count, and in the total.
#[test]
fn merge_refuses_sums_past_two_to_the_128() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 5, 4, 3, &[]);
    run_all(&dir, 1);
    let plan = Plan::open(&dir).unwrap();
    let units: Vec<_> = plan.manifest.units.iter().map(|e| plan.read_unit(e).unwrap()).collect();
    let forge = |unit: usize, position: usize, count: u128| {
        let mut result = read_result(&dir, unit as u32, 1);
        result.counts[position] = Count(count);
        result.total = Count(result.counts.iter().map(|c| c.0).sum());
        result.seal();
        write_result(&dir, unit as u32, 1, &result);
    };
    // A position reached by two paths from one root move, counted 2^127.
    let (unit, position) = units
        .iter()
        .enumerate()
        .find_map(|(u, positions)| {
            positions.iter().position(|p| p.per_root.iter().any(|&(_, n)| n > 1)).map(|i| (u, i))
        })
        .unwrap();
    let original = read_result(&dir, unit as u32, 1);
    forge(unit, position, 1 << 127);
    let output = merge(&dir, &[]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(
        text(&output).contains(&format!("the merged count passes 2^128 at unit {unit}")),
        "{}",
        text(&output)
    );
    write_result(&dir, unit as u32, 1, &original);
    assert!(ok(&["merge", dir.to_str().unwrap()]).contains("Nodes searched: 4865609\n"));
    // Two positions of other root moves, each 2^127: the total passes.
    let single =
        |u: usize| units[u].iter().position(|p| p.per_root.len() == 1 && p.multiplicity == 1).unwrap();
    let (a, b) = (single(0), single(2));
    assert_ne!(units[0][a].per_root[0].0, units[2][b].per_root[0].0);
    forge(0, a, 1 << 127);
    forge(2, b, 1 << 127);
    let output = merge(&dir, &[]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(text(&output).contains("the merged count passes 2^128: "), "{}", text(&output));
    assert!(!text(&output).contains("Nodes searched"), "{}", text(&output));
}

/// Runs scripts/slurm/submit.sh on `plan` with `args` against the fake
/// Slurm of tests/fakes/slurm-fake.sh (its tasks run at once, in order),
/// with `env` set; returns the output and the sbatch calls recorded.
fn submit(plan: &Path, args: &[&str], env: &[(&str, &str)]) -> (Output, Vec<String>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bin = plan.parent().unwrap().join("fake-slurm-bin");
    if !bin.exists() {
        std::fs::create_dir(&bin).unwrap();
        for name in ["sbatch", "scontrol"] {
            std::os::unix::fs::symlink(root.join("tests/fakes/slurm-fake.sh"), bin.join(name)).unwrap();
        }
    }
    let log = plan.parent().unwrap().join("sbatch.log");
    let _ = std::fs::remove_file(&log);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut cmd = std::process::Command::new("bash");
    cmd.arg(root.join("scripts/slurm/submit.sh")).arg(plan).args(args);
    for name in ["PERFT_MAX_ARRAY", "PERFT_INDEX_OFFSET", "FAKE_MAX_ARRAY_SIZE", "SLURM_CPUS_PER_TASK"] {
        cmd.env_remove(name);
    }
    for name in INDEX_VARIABLES {
        cmd.env_remove(name);
    }
    cmd.env("PATH", path).env("FAKE_SLURM_LOG", &log).env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"));
    let output = cmd.envs(env.iter().copied()).output().unwrap();
    let calls = std::fs::read_to_string(&log).unwrap_or_default().lines().map(str::to_string).collect();
    (output, calls)
}

/// submit.sh cuts the units into arrays whose indexes stay below the
/// cluster's MaxArraySize (from scontrol, or PERFT_MAX_ARRAY), each with
/// its PERFT_INDEX_OFFSET, and the merge job waits for every array.
#[test]
fn submit_sh_keeps_array_indexes_below_max_array_size() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 8, &[]);
    let (output, calls) = submit(&dir, &["--hash", "1"], &[("FAKE_MAX_ARRAY_SIZE", "3")]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(calls.len(), 4, "{calls:#?}");
    for (call, (offset, array)) in calls.iter().zip([("0", "0-2"), ("3", "0-2"), ("6", "0-1")]) {
        assert!(call.starts_with(&format!("offset={offset} ")), "{call}");
        assert!(call.contains(&format!(" --array={array} ")), "{call}");
    }
    assert!(calls[3].contains("--dependency=afterok:101:102:103 "), "{}", calls[3]);
    assert!(
        text(&output).contains("array job: 102 (units 3-5 of 8 as array 0-2 + offset 3"),
        "{}",
        text(&output)
    );
    assert!(ok(&["merge", dir.to_str().unwrap()]).contains("Nodes searched: 197281\n"));
    // Lost results resubmitted by the list merge prints: one array per
    // chunk they fall in.
    for i in [4, 5, 7] {
        std::fs::remove_file(result_path(&dir, i, 1)).unwrap();
    }
    let lost = text(&merge(&dir, &[]));
    assert!(lost.contains("missing: 4-5,7\n"), "{lost}");
    let (output, calls) = submit(&dir, &["--array", "4-5,7%2", "--hash", "1"], &[("PERFT_MAX_ARRAY", "3")]);
    assert!(output.status.success(), "{}", text(&output));
    assert_eq!(calls.len(), 3, "{calls:#?}");
    assert!(calls[0].starts_with("offset=3 ") && calls[0].contains(" --array=1-2%2 "), "{}", calls[0]);
    assert!(calls[1].starts_with("offset=6 ") && calls[1].contains(" --array=1%2 "), "{}", calls[1]);
    assert!(calls[2].contains("--dependency=afterok:101:102 "), "{}", calls[2]);
    assert!(ok(&["merge", dir.to_str().unwrap()]).contains("Nodes searched: 197281\n"));
    // PERFT_MAX_ARRAY wins over scontrol; one array when the plan fits.
    let (output, calls) =
        submit(&dir, &["--hash", "1"], &[("PERFT_MAX_ARRAY", "1000"), ("FAKE_MAX_ARRAY_SIZE", "3")]);
    assert!(output.status.success(), "{}", text(&output));
    assert!(calls[0].starts_with("offset=0 ") && calls[0].contains(" --array=0-7 "), "{calls:#?}");
    assert!(calls[1].contains("--dependency=afterok:101 "), "{calls:#?}");
    // A unit past the plan, or a bad chunk size: refused before sbatch.
    for (args, env, needle) in [
        (vec!["--array", "3,8"], ("PERFT_MAX_ARRAY", "3"), "--array 8: the plan has 8 units, 0 to 7"),
        (vec![], ("PERFT_MAX_ARRAY", "0"), "must be a whole number from 1"),
    ] {
        let (output, calls) = submit(&dir, &args, &[env]);
        assert_eq!(status(&output), 2, "{}", text(&output));
        assert!(text(&output).contains(needle), "{}", text(&output));
        assert!(calls.is_empty(), "{calls:#?}");
    }
}

#[test]
fn a_preseeded_journal_is_trusted_and_its_damage_recounted() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 5, 2, 4, &[]);
    let plan = dir.to_str().unwrap();
    ok(&["unit", plan, "--index", "1", "--hash", "1"]);
    let truth = read_result(&dir, 1, 1);
    std::fs::remove_file(result_path(&dir, 1, 1)).unwrap();
    // The journal a preempted run leaves: positions 0-4 done, position 2
    // with a count off by 1000 (a journaled count is taken as it is, which
    // shows it was skipped), position 3 with a damaged check, a torn line.
    let manifest_bytes = std::fs::read(dir.join("manifest.json")).unwrap();
    let unit_sum = manifest(&dir)["units"][1]["sha256"].as_str().unwrap().to_string();
    let header = format!(
        "perft-unit-journal 2 plan {} unit {unit_sum} index 1 keys 1 depth 3 build {}",
        Checksum::of(&manifest_bytes),
        this_build()
    );
    // Each record names its journal: the first 16 hex digits of the
    // SHA-256 of the header line.
    let tag = Checksum::of(header.as_bytes()).0[..16].to_string();
    let mut journal = format!("{header}\n");
    for position in 0..5 {
        let count = truth.counts[position].0 + if position == 2 { 1000 } else { 0 };
        let body = format!("{position} {count} {tag}");
        let mut check = Checksum::of(body.as_bytes()).0[..16].to_string();
        if position == 3 {
            check = check.replace(|c: char| c.is_ascii_digit(), "x");
        }
        journal.push_str(&format!("{body} {check}\n"));
    }
    journal.push_str("7 12");
    std::fs::write(dir.join(UnitIndex(1).journal_file(Keys::PRIMARY)), &journal).unwrap();
    let out = ok(&["unit", plan, "--index", "1", "--hash", "1"]);
    assert!(out.contains("4 taken from the journal"), "{out}");
    assert!(out.contains("journal line 5: damaged record skipped"), "{out}");
    assert!(out.contains("journal line 7: incomplete last record dropped"), "{out}");
    let resumed = read_result(&dir, 1, 1);
    assert_eq!(resumed.total.0, truth.total.0 + 1000);
    assert_eq!(resumed.resumed_positions, 4);
    assert!(
        !dir.join(UnitIndex(1).journal_file(Keys::PRIMARY)).exists(),
        "journal removed once the result is written"
    );
    // The same journal written by another build: set aside, not trusted.
    std::fs::remove_file(result_path(&dir, 1, 1)).unwrap();
    let other_build =
        journal.replacen(&format!(" build {}\n", this_build()), " build 0.0.9+0123456789ab\n", 1);
    assert_ne!(other_build, journal);
    std::fs::write(dir.join(UnitIndex(1).journal_file(Keys::PRIMARY)), other_build).unwrap();
    let out = ok(&["unit", plan, "--index", "1", "--hash", "1"]);
    assert!(out.contains("was written by another build of perft (0.0.9+0123456789ab; this is"), "{out}");
    assert!(!out.contains("taken from the journal"), "{out}");
    assert_eq!(read_result(&dir, 1, 1).total, truth.total);
}

#[test]
fn sigterm_stops_a_unit_and_the_rerun_resumes_to_the_exact_total() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 7, 2, 1, &[]);
    let plan = dir.to_str().unwrap();
    let journal = dir.join(UnitIndex(0).journal_file(Keys::PRIMARY));
    let records = || std::fs::read_to_string(&journal).map_or(0, |t| t.lines().count().saturating_sub(1));
    let child = std::process::Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .args(["unit", plan, "--index", "0", "--hash", "16", "-t", "1"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while records() < 5 {
        assert!(Instant::now() < deadline, "no journal records");
        std::thread::sleep(Duration::from_millis(5));
    }
    let killed =
        std::process::Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(143), "{}", text(&output));
    let done = records();
    assert!((5..400).contains(&done), "{done} records");
    assert!(text(&output).contains("of 400 positions finished, journaled in"), "{}", text(&output));
    assert!(!result_path(&dir, 0, 1).exists());
    let out = ok(&["unit", plan, "--index", "0", "--hash", "16", "-t", "2"]);
    assert!(out.contains(&format!("{done} taken from the journal")), "{out}");
    assert!(ok(&["merge", plan]).contains("Nodes searched: 3195901860\n"));
}

/// Makes a FIFO at `path`.
#[cfg(unix)]
fn mkfifo(path: &Path) {
    let status = std::process::Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success(), "mkfifo {}", path.display());
}

#[cfg(unix)]
#[test]
fn fifos_and_links_in_a_plan_never_block_nor_redirect_a_unit() {
    let base = tempfile::tempdir().unwrap();
    let dir = base.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 2, &[]);
    let plan = dir.to_str().unwrap();
    let results = dir.join("results");
    std::fs::create_dir_all(&results).unwrap();

    // A FIFO as a result or as a journal: refused at once, nothing counted;
    // merge calls that unit invalid and ends (it used to wait forever).
    let fifo = results.join("unit-000000.k1.json");
    mkfifo(&fifo);
    mkfifo(&results.join("unit-000001.k1.journal"));
    for index in ["0", "1"] {
        let start = Instant::now();
        let output = perft()
            .args(["unit", plan, "--index", index, "-t", "1"])
            .timeout(Duration::from_secs(30))
            .output()
            .unwrap();
        assert_eq!(status(&output), 2, "{}", text(&output));
        assert!(text(&output).contains("not a regular file"), "{}", text(&output));
        assert!(start.elapsed() < Duration::from_secs(10), "took {:?}", start.elapsed());
    }
    let output = perft().args(["merge", plan]).timeout(Duration::from_secs(30)).output().unwrap();
    assert_eq!(status(&output), 3, "{}", text(&output));
    assert!(text(&output).contains("not a regular file but a FIFO"), "{}", text(&output));
    std::fs::remove_file(&fifo).unwrap();
    std::fs::remove_file(results.join("unit-000001.k1.journal")).unwrap();

    // A link planted as a result: the link is replaced, its target kept.
    let precious = base.path().join("precious");
    std::fs::write(&precious, "keep me\n").unwrap();
    std::os::unix::fs::symlink(&precious, &fifo).unwrap();
    ok(&["unit", plan, "--index", "0", "-t", "1"]);
    assert_eq!(std::fs::read_to_string(&precious).unwrap(), "keep me\n");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().is_file(), "the link itself was replaced");

    // The results directory itself a link out of the plan: refused.
    let elsewhere = base.path().join("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    std::fs::remove_dir_all(&results).unwrap();
    std::os::unix::fs::symlink(&elsewhere, &results).unwrap();
    let output = run(&["unit", plan, "--index", "1", "-t", "1"]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(text(&output).contains("a symbolic link (to "), "{}", text(&output));
    assert!(std::fs::read_dir(&elsewhere).unwrap().next().is_none(), "nothing written outside the plan");
}

#[test]
fn a_manifest_too_deep_and_a_key_set_named_twice_are_refused() {
    let base = tempfile::tempdir().unwrap();
    let dir = base.path().join("plan");
    split(&dir, STARTPOS, 4, 2, 2, &[]);
    let plan = dir.to_str().unwrap();
    let output = run(&["merge", plan, "--keys", "1,1"]);
    assert_eq!(status(&output), 2, "{}", text(&output));
    assert!(text(&output).contains("--keys names a key set twice"), "{}", text(&output));
    let mut edited = manifest(&dir);
    edited["depth"] = 200.into();
    std::fs::write(dir.join("manifest.json"), serde_json::to_string(&edited).unwrap()).unwrap();
    for args in [vec!["unit", plan, "--index", "0"], vec!["merge", plan]] {
        let output = run(&args);
        assert_eq!(status(&output), 2, "{args:?}: {}", text(&output));
        assert!(text(&output).contains("depth 200 is beyond 64"), "{}", text(&output));
    }
}

/// `perft status` of a plan with two of four units counted says 2 done and
/// 2 missing; a fresh heartbeat is a running unit, a stale one a dead unit;
/// the plan is not changed; the exit status says whether all are done.
#[test]
fn status_counts_done_running_and_missing_units_and_writes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 5, 2, 4, &[]);
    let plan = dir.to_str().unwrap();
    for index in ["0", "2"] {
        let out = ok(&["unit", plan, "--index", index, "--hash", "auto", "-t", "1"]);
        assert!(out.contains("no hash table (auto: this unit is too small to pay)"), "{out}");
    }
    let json = tmp.path().join("status.json");
    let before = snapshot(&dir);
    let output = run(&["status", plan, "--json", json.to_str().unwrap()]);
    assert_eq!(status(&output), 3, "{}", text(&output));
    assert_eq!(snapshot(&dir), before, "status writes nothing into the plan");
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["kind"], "perft-status");
    assert_eq!(report["counts"], serde_json::json!({"done": 2, "running": 0, "missing": 2}));
    assert_eq!(report["done"], serde_json::json!([0, 2]));
    let missing: Vec<&Value> = report["missing"].as_array().unwrap().iter().map(|m| &m["index"]).collect();
    assert_eq!(missing, [1, 3]);
    assert_eq!(report["missing"][0]["reason"], "never started");
    // The done units' share: their positions' counts times multiplicities.
    let shares: u128 = [0u32, 2]
        .iter()
        .map(|&i| {
            let result = read_result(&dir, i, 1);
            let plan = Plan::open(&dir).unwrap();
            let positions = plan.read_unit(&plan.manifest.units[i as usize]).unwrap();
            positions.iter().zip(&result.counts).map(|(p, n)| p.multiplicity * n.0).sum::<u128>()
        })
        .sum();
    assert_eq!(report["nodes_done"], shares.to_string(), "counts are strings, as in every plan file");
    assert!(report["seconds_left"].as_f64().is_some_and(|s| s >= 0.0), "{report}");

    // A fresh heartbeat: running; one ten minutes old: died.
    let beat = |index: u32| dir.join("results").join(format!("unit-{index:06}.k1.running"));
    std::fs::write(beat(1), r#"{"host":"node7","pid":1,"started":"","updated":""}"#).unwrap();
    std::fs::write(beat(3), "{}").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_secs(600);
    std::fs::File::options().write(true).open(beat(3)).unwrap().set_modified(old).unwrap();
    let output = run(&["status", plan, "--json", "-"]);
    assert_eq!(status(&output), 3);
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["counts"], serde_json::json!({"done": 2, "running": 1, "missing": 1}));
    assert_eq!(report["running"][0]["host"], "node7");
    assert!(
        report["missing"][0]["reason"].as_str().unwrap().starts_with("died (heartbeat 600 s old)"),
        "{report}"
    );
    let people = text(&output);
    assert!(people.contains("missing: unit 3: died"), "{people}");

    // A unit counted removes its heartbeat; all done: exit 0, quiet.
    std::fs::remove_file(beat(1)).unwrap();
    for index in ["1", "3"] {
        ok(&["unit", plan, "--index", index, "--hash", "1", "-t", "1"]);
    }
    assert!(!beat(1).exists() && !beat(3).exists(), "a finished unit leaves no heartbeat");
    let output = run(&["status", plan, "-q"]);
    assert_eq!(status(&output), 0, "{}", text(&output));
    assert!(output.stdout.is_empty());
    let merged = ok(&["merge", plan]);
    assert!(merged.contains("4865609"), "{merged}");
}

/// A unit keeps a heartbeat while it counts: `status` sees it running.
#[test]
fn a_counting_unit_is_seen_running() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("plan");
    split(&dir, STARTPOS, 8, 1, 1, &[]);
    let plan = dir.to_str().unwrap();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("perft"))
        .args(["unit", plan, "--index", "0", "--hash", "0", "-t", "1"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let beat = dir.join("results/unit-000000.k1.running");
    let deadline = Instant::now() + Duration::from_secs(60);
    while !beat.exists() && Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(20));
    }
    // Until the first position is journaled (a perft(7) on one thread).
    let journal = dir.join("results/unit-000000.k1.journal");
    let journaled = || std::fs::read_to_string(&journal).is_ok_and(|text| text.lines().count() >= 2);
    while !journaled() && Instant::now() < deadline && child.try_wait().unwrap().is_none() {
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = run(&["status", plan, "--json", "-"]);
    child.kill().unwrap();
    child.wait().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["counts"], serde_json::json!({"done": 0, "running": 1, "missing": 0}), "{report}");
    assert_eq!(report["running"][0]["host"].as_str().map(str::is_empty), Some(false));
    assert!(report["running"][0]["positions_done"].as_u64().is_some_and(|n| n >= 1), "{report}");
    assert_eq!(report["running"][0]["positions"], 20);
    // No unit done, but the running one's pace gives the time left.
    assert!(report["running"][0]["seconds_running"].as_f64().is_some_and(|s| s >= 0.0), "{report}");
    assert!(report["seconds_left"].as_f64().is_some_and(|s| s > 0.0), "{report}");
}

/// scripts/deep-units.sh splits, runs the units on local workers with
/// `perft status` beside them, merges, checks the published total and
/// writes its summary; the plan is removed once the count is exact.
#[test]
fn deep_units_sh_counts_a_plan_on_local_workers() {
    let tmp = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output = std::process::Command::new("bash")
        .arg(root.join("scripts/deep-units.sh"))
        .arg("6")
        .envs([("WORKERS", "2"), ("HASH", "1"), ("UNITS", "5"), ("PLY", "2"), ("STATUS_EVERY", "1")])
        .env("RESULTS", tmp.path())
        .env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"))
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let files: Vec<PathBuf> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().path()).collect();
    let summary =
        files.iter().find(|p| p.file_name().unwrap().to_str().unwrap().starts_with("units-2")).unwrap();
    let summary: Value = serde_json::from_str(&std::fs::read_to_string(summary).unwrap()).unwrap();
    assert_eq!(summary["nodes"], "119060324", "{summary}");
    assert_eq!(
        (&summary["exact"], &summary["units"], &summary["workers"]),
        (&Value::Bool(true), &5.into(), &2.into())
    );
    let read = |key: &str| std::fs::read_to_string(summary[key].as_str().unwrap()).unwrap();
    let report: Value = serde_json::from_str(&read("report")).unwrap();
    assert_eq!(report["kind"], "merge");
    assert!(read("status_log").contains("every unit is done"), "{}", read("status_log"));
    assert!(!tmp.path().join("units-d6").exists(), "the plan of an exact count is removed");
}
