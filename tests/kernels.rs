//! The CPU kernel chosen at run time: `PERFT_CPU` forces one, a kernel
//! this CPU cannot run (or an unknown name) is refused before any work,
//! `--version` and the reports name the kernel that counted.

use assert_cmd::Command;
use perft::kernel::{Kernel, Level};
use serde_json::Value;

fn perft(kernel: Option<&str>) -> Command {
    let mut cmd = Command::cargo_bin("perft").unwrap();
    match kernel {
        Some(name) => cmd.env("PERFT_CPU", name),
        None => cmd.env_remove("PERFT_CPU"),
    };
    cmd
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn every_level_counts_exactly_or_is_refused_with_what_the_cpu_supports() {
    let supported = Level::supported();
    let names = supported.iter().map(|level| level.name()).collect::<Vec<_>>().join(", ");
    for level in Level::ALL {
        let run = perft(Some(level.name())).args(["run", "5", "-q", "-t", "1"]).output().unwrap();
        let version = perft(Some(level.name())).arg("--version").output().unwrap();
        if supported.contains(&level) {
            assert_eq!(run.status.code(), Some(0), "{level}: {}", text(&run.stderr));
            assert_eq!(text(&run.stdout).trim(), "4865609", "{level}");
            let kernel = Kernel::for_level(level).unwrap();
            assert!(text(&version.stdout).contains(&format!("kernel {kernel}")), "{}", text(&version.stdout));
            assert!(text(&version.stdout).contains("forced by PERFT_CPU"), "{}", text(&version.stdout));
        } else {
            for output in [&run, &version] {
                assert_eq!(output.status.code(), Some(2), "{level}");
                assert!(output.stdout.is_empty(), "{level}: {}", text(&output.stdout));
                let stderr = text(&output.stderr);
                assert!(
                    stderr.contains(&format!("PERFT_CPU={level}: this CPU cannot run the {level} kernel"))
                );
                assert!(stderr.contains(&format!("(it supports {names})")), "{stderr}");
            }
        }
    }
}

#[test]
fn an_unknown_kernel_is_refused_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    for (value, shown) in [("bogus", "\"bogus\""), ("v5", "\"v5\""), ("avx2", "\"avx2\"")] {
        // `suite` writes a report into ./results unless refused first.
        let output =
            perft(Some(value)).current_dir(dir.path()).args(["suite", "--max-depth", "1"]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{value}");
        assert!(output.stdout.is_empty(), "{}", text(&output.stdout));
        let stderr = text(&output.stderr);
        assert!(stderr.contains(&format!("PERFT_CPU={value}: unknown CPU kernel {shown}")), "{stderr}");
        assert!(stderr.contains("expected baseline, v2, v3 or v4 (this CPU supports baseline"), "{stderr}");
        assert!(std::fs::read_dir(dir.path()).unwrap().next().is_none(), "work was done for {value}");
    }
    // Empty means unset.
    let output = perft(Some("")).args(["run", "2", "-q"]).output().unwrap();
    assert_eq!(text(&output.stdout).trim(), "400");
}

#[test]
fn the_default_is_the_best_kernel_this_cpu_runs() {
    let output = perft(None).arg("--version").output().unwrap();
    let version = text(&output.stdout);
    let best = Kernel::detect();
    assert!(
        version.starts_with(&format!("perft {}, kernel {best}\n", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    assert!(version.contains("the best this CPU supports"), "{version}");
    assert_eq!(Some(best.level()), Level::supported().last().copied());
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("bmi2") {
        assert!(best.level() >= Level::V3, "{best}");
    }
    let short = perft(None).arg("-V").output().unwrap();
    assert_eq!(text(&short.stdout).trim(), format!("perft {}, kernel {best}", env!("CARGO_PKG_VERSION")));
}

#[test]
fn reports_name_the_kernel_that_counted() {
    let dir = tempfile::tempdir().unwrap();
    for level in Level::supported() {
        let kernel = Kernel::for_level(level).unwrap();
        let path = dir.path().join(format!("{level}.json"));
        let output =
            perft(Some(level.name())).args(["run", "3", "-q", "--json"]).arg(&path).output().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(report["machine"]["kernel"], level.name());
        assert_eq!(report["machine"]["slider_backend"], kernel.sliders().name());
    }
}
