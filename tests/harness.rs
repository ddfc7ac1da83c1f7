//! End-to-end tests of the comparison harness: bench, compare (with real
//! Stockfish and with misbehaving fake engines), diff and report.

mod common;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

fn perft() -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    // Inside GitHub Actions the tool would add annotations to what it prints.
    cmd.env_remove("GITHUB_ACTIONS");
    cmd.env("PERFT_BIN", assert_cmd::cargo::cargo_bin("perft"));
    cmd
}

fn fake(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fakes").join(name).to_string_lossy().into_owned()
}

/// A small positions file with counts, deep enough to time.
fn positions(dir: &Path) -> PathBuf {
    let path = dir.join("small.epd");
    std::fs::write(
        &path,
        "# perft bench set test-1\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D4 197281 ;id \"start\"\n\
         r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 ;D3 97862 ;id \"kiwipete\"\n\
         bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9 ;D3 12189 ;id \"chess960\"\n",
    )
    .unwrap();
    path
}

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn result<'a>(report: &'a Value, engine: &str, position: &str) -> &'a Value {
    report["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["engine"] == engine && r["position"] == position)
        .unwrap_or_else(|| panic!("no result for {engine} on {position}"))
}

#[test]
fn bench_reports_statistics_and_verifies_counts() {
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("bench.json");
    let output = perft()
        .args(["bench", "--repeat", "3", "--sample-time", "0.05", "--positions"])
        .arg(&set)
        .arg("--json")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("bulk counting, hash off, 1 thread, 3 samples of at least 0.05 s"), "{stdout}");
    let r = json(&report);
    assert_eq!(r["kind"], "bench");
    assert_eq!(r["bench_set_version"], "test-1");
    for key in ["cpu", "cores", "os", "cpu_features", "compiled_features", "kernel", "slider_backend"] {
        assert!(r["machine"].get(key).is_some(), "machine.{key}");
    }
    for key in ["git_commit", "rustc", "build_profile"] {
        assert!(r["tool"].get(key).is_some(), "tool.{key}");
    }
    let start = &r["positions"][0];
    assert_eq!(start["nodes"], 197281);
    assert_eq!(start["ok"], true);
    assert_eq!(start["samples"].as_array().unwrap().len(), 3);
    let (min, median, max) = (
        start["seconds"]["min"].as_f64().unwrap(),
        start["seconds"]["median"].as_f64().unwrap(),
        start["seconds"]["max"].as_f64().unwrap(),
    );
    assert!(min <= median && median <= max && min > 0.0);
    assert_eq!(r["total"]["nodes"], 197281 + 97862 + 12189);
    assert_eq!(r["sample_time"], 0.05);
    // Each sample repeats the count until it has lasted the sample time;
    // its time is per count, with its spread.
    for position in r["positions"].as_array().unwrap() {
        let samples = position["samples"].as_array().unwrap();
        let runs = position["runs"].as_array().unwrap();
        assert_eq!(samples.len(), runs.len());
        for (seconds, runs) in samples.iter().zip(runs) {
            assert!(seconds.as_f64().unwrap() * runs.as_f64().unwrap() >= 0.05, "{position}");
        }
        let spread = &position["spread"];
        assert!(spread["mean"].as_f64().unwrap() > 0.0, "{position}");
        assert!(spread["ci95_percent"].as_f64().unwrap() >= 0.0, "{position}");
    }
    assert!(r["positions"][2]["runs"][0].as_u64().unwrap() > 1, "the small chess960 count repeats");
    assert_eq!(r["total"]["samples"].as_array().unwrap().len(), 3);

    // A wrong expected count fails the bench.
    let wrong = dir.path().join("wrong.epd");
    std::fs::write(&wrong, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D3 8903\n").unwrap();
    let output = perft()
        .args(["bench", "--repeat", "1", "--sample-time", "0", "--no-json", "--positions"])
        .arg(&wrong)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stdout).contains("FAIL"));
}

#[test]
fn compare_against_stockfish_and_preset_formats() {
    let Some(stockfish) = common::stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("compare.json");
    let output = perft()
        .args(["compare", "--repeat", "2", "--engine"])
        .arg(format!("stockfish=uci:{stockfish}"))
        .arg("--engine")
        .arg(format!("q=qperft:{}", fake("cmd-fake.sh")))
        .arg("--engine")
        .arg(format!("g=gigantua:{}", fake("cmd-fake.sh")))
        .arg("--positions")
        .arg(&set)
        .arg("--json")
        .arg(&report)
        .env("FAKE_FORMAT", "qperft")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // The gigantua fake reads its arguments the qperft way here, so it
    // fails to start; the others must still be compared.
    let r = json(&report);
    assert_eq!(r["kind"], "compare");
    assert_eq!(r["engines"][0]["name"], "perft");
    for engine in ["perft", "stockfish", "q"] {
        for position in ["start", "kiwipete", "chess960"] {
            let res = result(&r, engine, position);
            if engine == "q" && position == "chess960" {
                // The qperft preset knows qperft cannot read Chess960
                // castling: skipped, not an error.
                assert!(res["problem"].as_str().unwrap().starts_with("skipped"), "{res}");
                assert!(res["samples"].as_array().unwrap().is_empty());
                continue;
            }
            assert_eq!(res["agrees"], true, "{engine} {position}: {res}\n{stdout}");
            assert_eq!(res["samples"].as_array().unwrap().len(), 2);
        }
    }
    let q = r["engines"].as_array().unwrap().iter().find(|e| e["name"] == "q").unwrap();
    assert!(q.get("errors").is_none(), "a skipped position is no error: {q}");
    assert!(
        r["engines"][3]["errors"][0].as_str().unwrap().contains("failed to start"),
        "{}",
        r["engines"][3]
    );
    assert_eq!(output.status.code(), Some(2), "an engine failed: {stdout}");
    assert!(stdout.contains("start-up"), "{stdout}");

    // With the gigantua format, the gigantua preset reads the fake.
    let output = perft()
        .args(["compare", "--repeat", "1", "--no-json", "--engine"])
        .arg(format!("g=gigantua:{}", fake("cmd-fake.sh")))
        .arg("--positions")
        .arg(&set)
        .env("FAKE_FORMAT", "gigantua")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
}

#[test]
fn compare_reports_each_faulty_engine_and_loses_nothing_else() {
    let Some(stockfish) = common::stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("compare.json");
    let mut cmd = perft();
    cmd.args(["compare", "--repeat", "1", "--timeout", "3", "--positions"])
        .arg(&set)
        .arg("--json")
        .arg(&report);
    for mode in ["crash", "hang", "liar", "garbage"] {
        // Each fake reads its mode from its own environment, via `env`.
        cmd.arg("--engine").arg(format!("{mode}=uci:env FAKE_MODE={mode} {}", fake("uci-fake.sh")));
    }
    cmd.arg("--engine")
        .arg(format!("crashcmd=qperft:env FAKE_MODE=crash {} {{depth}} {{fen}}", fake("cmd-fake.sh")));
    cmd.arg("--engine").arg(format!("stockfish=uci:{stockfish}"));
    // A program that is there but cannot be started (its interpreter is
    // not): a missing program is refused before the race.
    let unstartable = dir.path().join("unstartable");
    std::fs::write(&unstartable, "#!/nonexistent/interpreter\n").unwrap();
    #[cfg(unix)]
    std::fs::set_permissions(&unstartable, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    cmd.arg("--engine").arg(format!("missing=uci:{}", unstartable.display()));
    let output = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "the liar disagrees: {stdout}");
    let r = json(&report);
    let errors = |name: &str| -> String {
        r["engines"].as_array().unwrap().iter().find(|e| e["name"] == name).unwrap()["errors"].to_string()
    };
    assert!(errors("crash").contains("exited"), "{}", errors("crash"));
    assert!(errors("hang").contains("no answer within 3.0 s"), "{}", errors("hang"));
    assert!(errors("garbage").contains("not a number"), "{}", errors("garbage"));
    assert!(errors("crashcmd").contains("Segmentation fault (pretend)"), "{}", errors("crashcmd"));
    assert!(errors("missing").contains("failed to start"), "{}", errors("missing"));
    // The table keeps its columns; why is said under it, in full.
    assert!(stdout.lines().any(|l| l.starts_with("  missing on start: failed to start")), "{stdout}");
    assert!(!stdout.lines().any(|l| l.starts_with('│') && l.contains("failed to start")), "{stdout}");
    assert!(stdout.contains("DISAGREEMENT: liar on start"), "{stdout}");
    let lie = result(&r, "liar", "start");
    assert_eq!(lie["agrees"], false);
    assert_eq!(lie["nodes"], 197282);
    assert!(lie.get("nodes_per_second").is_none(), "a disagreeing engine is not ranked");
    // Everything else still ran: ours and Stockfish on every position, and a
    // crashed or hung UCI engine was restarted for the next position.
    for position in ["start", "kiwipete", "chess960"] {
        assert_eq!(result(&r, "perft", position)["agrees"], true);
        assert_eq!(result(&r, "stockfish", position)["agrees"], true);
        assert!(result(&r, "crash", position).get("problem").is_some());
    }
    assert_eq!(errors("hang").matches("no answer").count(), 3, "restarted after each hang");
}

fn bench_report(dir: &Path, name: &str, edit: impl FnOnce(&mut Value)) -> PathBuf {
    let mut r: Value = serde_json::from_str(include_str!("data/bench-report.json")).unwrap();
    edit(&mut r);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(&r).unwrap()).unwrap();
    path
}

/// Every timed entry of a bench report: the positions and the total.
fn timed_entries(r: &mut Value) -> Vec<&mut Value> {
    let obj = r.as_object_mut().unwrap();
    let mut entries = Vec::new();
    for (key, value) in obj.iter_mut() {
        match key.as_str() {
            "positions" => entries.extend(value.as_array_mut().unwrap().iter_mut()),
            "total" => entries.push(value),
            _ => {}
        }
    }
    entries
}

fn scale_times(r: &mut Value, factor: f64) {
    for p in timed_entries(r) {
        for key in ["min", "median", "max"] {
            let v = p["seconds"][key].as_f64().unwrap();
            p["seconds"][key] = (v * factor).into();
        }
        if let Some(samples) = p.get_mut("samples").and_then(Value::as_array_mut) {
            for sample in samples {
                *sample = (sample.as_f64().unwrap() * factor).into();
            }
        }
        let nps = p["nodes_per_second"].as_f64().unwrap();
        p["nodes_per_second"] = (nps / factor).into();
    }
}

#[test]
fn diff_flags_count_changes_and_regressions_and_refuses_other_machines() {
    let dir = tempfile::tempdir().unwrap();
    let old = bench_report(dir.path(), "old.json", |_| {});
    let run = |new: &Path, extra: &[&str]| {
        let output = perft().arg("diff").arg(&old).arg(new).args(extra).output().unwrap();
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr),
        )
    };
    let same = bench_report(dir.path(), "same.json", |_| {});
    let (code, out) = run(&same, &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("0 counts changed, 0 regressions"), "{out}");

    let slower = bench_report(dir.path(), "slower.json", |r| scale_times(r, 1.5));
    let (code, out) = run(&slower, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REGRESSION"), "{out}");

    // 1% slower is under the 2% threshold; 3% slower with samples 1% apart
    // is past both threshold and noise; 20% under a 25% threshold is not.
    let (code, out) = run(&bench_report(dir.path(), "s1.json", |r| scale_times(r, 1.01)), &[]);
    assert_eq!(code, Some(0), "{out}");
    let (code, out) = run(&bench_report(dir.path(), "s3.json", |r| scale_times(r, 1.03)), &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REGRESSION"), "{out}");
    let (code, out) =
        run(&bench_report(dir.path(), "s20.json", |r| scale_times(r, 1.2)), &["--threshold", "25"]);
    assert_eq!(code, Some(0), "{out}");

    // 20% slower medians amid samples that vary by half are noise.
    let noisy = bench_report(dir.path(), "noisy.json", |r| {
        scale_times(r, 1.2);
        for p in timed_entries(r) {
            let median = p["seconds"]["median"].as_f64().unwrap();
            p["samples"] = serde_json::json!([median * 0.5, median, median * 1.5]);
            p["seconds"]["min"] = (median * 0.5).into();
        }
    });
    let (code, out) = run(&noisy, &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("within noise"), "{out}");
    // With one sample (`--repeat 1`) the min-max ranges decide.
    let one_sample = bench_report(dir.path(), "one-sample.json", |r| {
        scale_times(r, 1.5);
        for p in timed_entries(r) {
            p["samples"] = serde_json::json!([p["seconds"]["median"]]);
        }
    });
    let (code, out) = run(&one_sample, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("REGRESSION"), "{out}");

    let miscount = bench_report(dir.path(), "miscount.json", |r| r["positions"][1]["nodes"] = 12345.into());
    let (code, out) = run(&miscount, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("COUNT CHANGED: kiwipete"), "{out}");

    let elsewhere = bench_report(dir.path(), "other.json", |r| r["machine"]["cpu"] = "Some Other CPU".into());
    let (code, out) = run(&elsewhere, &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("differ in machine"), "{out}");
    let (code, out) = run(&elsewhere, &["--force"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("warning"), "{out}");

    // Another CPU kernel, or a report that does not name one, is another
    // program as far as speed goes.
    let baseline = bench_report(dir.path(), "baseline.json", |r| r["machine"]["kernel"] = "baseline".into());
    let (code, out) = run(&baseline, &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("differ in CPU kernel (v3 (pext) vs baseline (pext))"), "{out}");
    let unnamed = bench_report(dir.path(), "unnamed.json", |r| {
        r["machine"].as_object_mut().unwrap().remove("kernel");
    });
    let (code, out) = run(&unnamed, &[]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.contains("differ in CPU kernel (v3 (pext) vs unknown)"), "{out}");
    let (code, out) = run(&baseline, &["--force"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("warning: the reports differ in CPU kernel"), "{out}");

    let full = bench_report(dir.path(), "full.json", |r| r["mode"] = "full".into());
    let (code, out) = run(&full, &[]);
    assert_eq!(code, Some(2));
    assert!(out.contains("differ in mode"), "{out}");

    std::fs::write(dir.path().join("junk.json"), "{ not json").unwrap();
    let (code, out) = run(&dir.path().join("junk.json"), &[]);
    assert_eq!(code, Some(2));
    assert!(out.contains("not JSON"), "{out}");
}

#[test]
fn report_renders_charts() {
    let dir = tempfile::tempdir().unwrap();
    let compare = dir.path().join("compare.json");
    std::fs::write(&compare, include_str!("data/compare-report.json")).unwrap();
    let first = bench_report(dir.path(), "b1.json", |r| r["timestamp"] = "2026-11-20T10:00:00Z".into());
    let second = bench_report(dir.path(), "b2.json", |r| {
        r["timestamp"] = "2026-11-21T10:00:00Z".into();
        scale_times(r, 0.9);
    });
    let html = dir.path().join("out/report.html");
    let output = perft()
        .arg("report")
        .arg(&compare)
        .arg(&first)
        .arg(&second)
        .arg("--out")
        .arg(&html)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert_eq!(page.matches("<svg").count(), 2, "a bar chart and a line chart");
    for name in ["perft", "stockfish", "cozy-chess"] {
        assert!(
            page.contains(&format!(">{name}<")) || page.contains(&format!(">\n{name}\n<")),
            "{name} missing"
        );
    }
    // Each embedded chart is well-formed XML.
    for svg in page.split("<svg").skip(1) {
        let svg = format!("<svg{}", &svg[..svg.find("</svg>").unwrap() + 6]);
        roxmltree::Document::parse(&svg).expect("well-formed SVG");
    }
    let svg_path = dir.path().join("charts.svg");
    perft().arg("report").arg(&compare).arg("--out").arg(&svg_path).assert().success();
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts: String = doc.descendants().filter_map(|n| n.text()).collect();
    for name in ["perft", "stockfish", "cozy-chess", "start", "kiwipete"] {
        assert!(texts.contains(name), "{name} missing from the SVG");
    }
    // Other report kinds and output types are refused clearly.
    let out =
        perft().arg("report").arg(&compare).arg("--out").arg(dir.path().join("x.png")).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(".html or .svg"));
    // A suite report among them (as `results/*.json` after the quick start
    // holds) is skipped with a note; the others are charted.
    let suite = dir.path().join("suite.json");
    perft().args(["suite", "--max-nodes", "1000", "--json"]).arg(&suite).assert().success();
    let out = perft().arg("report").arg(&compare).arg(&suite).arg("--out").arg(&html).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("a suite report; skipped"));
    // perft's own merge report (as results/ holds in a fresh clone) is
    // named as such, not as a kind perft does not know.
    let merge = dir.path().join("merge.json");
    std::fs::write(&merge, r#"{"kind": "merge", "nodes": 20}"#).unwrap();
    let out = perft().arg("report").arg(&compare).arg(&merge).arg("--out").arg(&html).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("merge.json: a merge report; skipped"), "{stdout}");
    // Nothing chartable at all is an error.
    let out = perft().arg("report").arg(&suite).arg("--out").arg(&html).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    // The page has a depth column, per-engine totals and which way ratios go.
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("<th>depth</th>") && page.contains("vs perft (geomean)"), "{page}");
    assert!(page.contains("above 1 is faster than perft"));
}

#[test]
fn diff_refuses_different_suites_and_compares_compare_reports() {
    let dir = tempfile::tempdir().unwrap();
    let report = |name: &str, args: &[&str]| -> PathBuf {
        let path = dir.path().join(name);
        perft().args(["suite", "--json"]).arg(&path).args(args).assert().success();
        path
    };
    let whole = report("whole.json", &["--max-nodes", "10000"]);
    let small = report("small.json", &["--max-nodes", "1000"]);
    let output = perft().arg("diff").arg(&whole).arg(&small).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("differ in the checks they ran"));
    let output = perft().arg("diff").arg(&whole).arg(&small).arg("--force").output().unwrap();
    assert!(String::from_utf8_lossy(&output.stdout).contains("checks in both reports are compared"));

    // Two compare reports: per engine and position, same noise rule.
    let old = dir.path().join("old.json");
    std::fs::write(&old, include_str!("data/compare-report.json")).unwrap();
    let mut slower: Value = serde_json::from_str(include_str!("data/compare-report.json")).unwrap();
    for r in slower["results"].as_array_mut().unwrap().iter_mut().filter(|r| r["engine"] == "stockfish") {
        for key in ["min", "median", "max"] {
            let v = r["seconds"][key].as_f64().unwrap();
            r["seconds"][key] = (v * 2.0).into();
        }
        for sample in r["samples"].as_array_mut().unwrap() {
            *sample = (sample.as_f64().unwrap() * 2.0).into();
        }
        if let Some(nps) = r["nodes_per_second"].as_f64() {
            r["nodes_per_second"] = (nps / 2.0).into();
        }
    }
    let new = dir.path().join("new.json");
    std::fs::write(&new, serde_json::to_string(&slower).unwrap()).unwrap();
    let output = perft().arg("diff").arg(&old).arg(&new).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("stockfish: start") && stdout.contains("REGRESSION"), "{stdout}");
    assert!(!stdout.lines().any(|l| l.contains("perft: start") && l.contains("REGRESSION")), "{stdout}");
    let output = perft().arg("diff").arg(&old).arg(&old).output().unwrap();
    assert_eq!(output.status.code(), Some(0));

    // A slow engine's speeds are shown in one unit that fits both sides.
    let slow = |name: &str, nps: f64| -> PathBuf {
        let mut report: Value = serde_json::from_str(include_str!("data/compare-report.json")).unwrap();
        for r in report["results"].as_array_mut().unwrap().iter_mut().filter(|r| r["engine"] == "stockfish") {
            r["nodes_per_second"] = nps.into();
        }
        let path = dir.path().join(name);
        std::fs::write(&path, serde_json::to_string(&report).unwrap()).unwrap();
        path
    };
    let (before, after) = (slow("slow-old.json", 180_000.0), slow("slow-new.json", 210_000.0));
    let output = perft().arg("diff").arg(&before).arg(&after).output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let line = stdout.lines().find(|l| l.contains("stockfish: start")).expect(&stdout);
    assert!(line.contains("180.0 knps") && line.contains("210.0 knps"), "{stdout}");
    assert!(stdout.lines().any(|l| l.contains("perft: start") && l.contains(" Mnps")), "{stdout}");
}

#[test]
fn compare_reports_per_engine_totals() {
    let Some(stockfish) = common::stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("compare.json");
    let output = perft()
        .args(["compare", "--repeat", "1", "--engine"])
        .arg(format!("stockfish=uci:{stockfish}"))
        .arg("--positions")
        .arg(&set)
        .arg("--json")
        .arg(&report)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("vs perft (geomean)"), "{stdout}");
    // Like for like: perft without its table, as the others count, and
    // said so; off a terminal, what happens is printed as it happens,
    // before the table.
    let said = |text: &str| stdout.find(text).unwrap_or_else(|| panic!("{text:?} not said:\n{stdout}"));
    assert!(
        said("perft: 1 thread, no hash table, bulk counting, one depth a call") < said("perft: start-up")
    );
    assert!(said("stockfish: threads not known (asked for 1 with Threads)") < said("round 1 of 1 done"));
    assert!(said("round 1 of 1 done") < said("┌"), "{stdout}");
    assert!(!stdout.contains("(hash table)") && !stdout.contains("not like for like"), "{stdout}");
    let r = json(&report);
    assert!(r["engines"][0]["run_as"]
        .as_str()
        .unwrap()
        .starts_with("1 thread, no hash table, bulk counting"));
    assert!(r["engines"][0]["spec"].as_str().unwrap().ends_with("--hash 0"), "{}", r["engines"][0]);
    assert!(r["engines"][0].get("hashed").is_none(), "{}", r["engines"][0]);
    let summary = r["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 2);
    let ours = &summary[0];
    assert_eq!(ours["engine"], "perft");
    let timed: u64 = r["results"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["engine"] == "perft" && x.get("nodes_per_second").is_some())
        .map(|x| x["nodes"].as_u64().unwrap())
        .sum();
    assert_eq!(ours["nodes"].as_u64().unwrap(), timed);
}

#[test]
fn compare_gives_perft_a_table_only_when_asked_and_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("compare.json");
    let output = perft()
        .args(["compare", "--repeat", "1", "--hash", "16", "--skip-chess960", "--engine"])
        .arg(format!("q=qperft:{}", fake("cmd-fake.sh")))
        .arg("--positions")
        .arg(&set)
        .arg("--json")
        .arg(&report)
        .env("FAKE_FORMAT", "qperft")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("perft: 1 thread, hash table 16 MB, bulk counting"), "{stdout}");
    assert!(stdout.contains("--hash gave it a table: not like for like"), "{stdout}");
    assert!(stdout.contains("│ perft (hash table) ┆"), "the table marks it: {stdout}");
    assert!(stdout.contains("perft counted with a hash table (--hash)"), "{stdout}");
    let r = json(&report);
    assert_eq!(r["engines"][0]["hashed"], true);
    assert!(r["engines"][0]["spec"].as_str().unwrap().ends_with("--hash 16"), "{}", r["engines"][0]);
    assert_eq!(r["engines"][0]["how"]["hash"], "16 MB");
    let run_as = r["engines"][1]["run_as"].as_str().unwrap();
    assert!(run_as.starts_with("1 thread, no hash table, bulk counting, depths 1..N a call"), "{run_as}");
    // Ratios between the others where perft was too fast to time.
    for res in r["results"].as_array().unwrap() {
        let ours = result(&r, "perft", res["position"].as_str().unwrap());
        match (ours.get("nodes_per_second"), res.get("nodes_per_second")) {
            (None, Some(_)) => assert!(res["ratio_to_other"]["engine"].is_string(), "{res}"),
            _ => assert!(res.get("ratio_to_other").is_none(), "{res}"),
        }
    }
    let html = dir.path().join("page.html");
    perft().arg("report").arg(&report).arg("--out").arg(&html).assert().success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("perft (hash table)"), "the chart and table mark it");
}

#[test]
fn compare_says_how_each_engine_counts_notes_chess960_skips_and_times_start_up_once() {
    let dir = tempfile::tempdir().unwrap();
    let set = positions(dir.path());
    let report = dir.path().join("compare.json");
    let output = perft()
        .args(["compare", "--repeat", "1", "--threads", "2", "--engine"])
        .arg(format!("q=qperft:{}", fake("cmd-fake.sh")))
        .arg("--engine")
        .arg(format!("u=uci,no960:{}", fake("uci-fake.sh")))
        .arg("--positions")
        .arg(&set)
        .arg("--json")
        .arg(&report)
        .env("FAKE_FORMAT", "qperft")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    // Neither can count the Chess960 position: each skip is a note, no
    // error, and the exit is a success.
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("ERROR"), "{stdout}");
    for engine in ["q", "u"] {
        assert!(stdout.contains(&format!("note: {engine} skips chess960: it cannot count")), "{stdout}");
        // One start-up figure, said once.
        let start_ups = stdout.lines().filter(|l| l.starts_with(&format!("{engine}: start-up "))).count();
        assert_eq!(start_ups, 1, "{stdout}");
    }
    // Each engine's line says how it counts, as far as known.
    assert!(stdout.contains("perft: 2 threads, no hash table, bulk counting, one depth a call;"), "{stdout}");
    assert!(stdout.contains("q: 1 thread, no hash table, bulk counting, depths 1..N a call"), "{stdout}");
    assert!(stdout.contains("turns off qperft's hash table"), "{stdout}");
    assert!(
        stdout.contains("u: threads not known (asked for 2 with Threads), hash table not known"),
        "{stdout}"
    );
    let r = json(&report);
    let how = |i: usize| &r["engines"][i]["how"];
    assert_eq!((how(0)["threads"].as_u64(), how(0)["hash"].as_str()), (Some(2), Some("none")));
    assert_eq!((how(0)["bulk"].as_bool(), how(0)["all_depths"].as_bool()), (Some(true), Some(false)));
    assert_eq!((how(1)["threads"].as_u64(), how(1)["all_depths"].as_bool()), (Some(1), Some(true)));
    assert!(how(1)["protocol"].as_str().unwrap().starts_with("command line run for every count"));
    assert!(how(2)["threads"].is_null() && how(2)["hash"].is_null() && how(2)["bulk"].is_null());
    assert_eq!(how(2)["threads_asked"], 2);
    assert_eq!(how(2)["protocol"], "UCI `go perft {depth}`");
    for i in 0..3 {
        let engine = &r["engines"][i];
        assert!(engine.get("errors").is_none(), "a skip is no error: {engine}");
        // The figure printed is the one in the report.
        let printed = format!(
            "{}: start-up {:.2} s to start",
            engine["name"].as_str().unwrap(),
            engine["startup_seconds"].as_f64().unwrap()
        );
        assert!(stdout.contains(&printed), "{printed:?} in {stdout}");
        assert!(engine["count_overhead_seconds"].as_f64().unwrap() > 0.0, "{engine}");
    }
    for engine in ["q", "u"] {
        let skipped = result(&r, engine, "chess960");
        assert!(skipped["problem"].as_str().unwrap().starts_with("skipped"), "{skipped}");
    }
    // The report reads back with the same facts, and the page says them.
    let html = dir.path().join("page.html");
    perft().arg("report").arg(&report).arg("--out").arg(&html).assert().success();
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.contains("depths 1..N a call"), "the page says how qperft counts");
}

#[test]
fn compare_wants_a_name_before_the_command() {
    // An `=` inside the command is not a name.
    let output =
        perft().args(["compare", "--no-json", "--engine", "uci:/bin/true --hash=16"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("expected NAME=SPEC"), "{stderr}");
    let output = perft().args(["compare", "--no-json", "--engine", "perft=uci:/bin/true"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("already taken"), "{stderr}");
}
