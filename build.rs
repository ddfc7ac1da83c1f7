//! Records facts about the build for reports: git commit, rustc version,
//! profile and enabled target features.

use std::path::Path;
use std::process::Command;

fn run(program: &str, args: &[&str]) -> Option<String> {
    let output = Command::new(program).args(args).output().ok()?;
    output.status.success().then(|| String::from_utf8_lossy(&output.stdout).trim().to_string())
}

fn main() {
    let commit = run("git", &["rev-parse", "--short=12", "HEAD"]).map(|commit| {
        // Without --no-optional-locks, `git status` in a fresh clone rewrites
        // .git/index (its entries are racily clean), which is watched below:
        // the next build, `cargo install --path .` after `cargo run`, would run
        // this script again and rebuild the crate for minutes.
        let dirty = run("git", &["--no-optional-locks", "status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|status| !status.is_empty());
        if dirty {
            format!("{commit}-dirty")
        } else {
            commit
        }
    });
    println!("cargo:rustc-env=PERFT_GIT_COMMIT={}", commit.as_deref().unwrap_or("unknown"));
    for path in [".git/HEAD", ".git/refs/heads", ".git/index", "src"] {
        if Path::new(path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    println!(
        "cargo:rustc-env=PERFT_RUSTC_VERSION={}",
        run(&rustc, &["--version"]).unwrap_or_else(|| "unknown".into())
    );
    println!("cargo:rustc-env=PERFT_BUILD_PROFILE={}", std::env::var("PROFILE").unwrap_or_default());
    println!(
        "cargo:rustc-env=PERFT_TARGET_FEATURES={}",
        std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default()
    );
}
