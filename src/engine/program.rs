//! Whether an engine's program can be started, told before it is: a path
//! that names nothing, a directory, a file without execute permission, or
//! a bare name found nowhere on `PATH`.

use std::path::{Path, PathBuf};

/// Why an engine's program cannot be started.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProgramError {
    /// The spec names no program.
    #[error("no program given")]
    Empty,
    /// A path to nothing.
    #[error("{0}: no such file")]
    Missing(String),
    /// A name without a directory that no directory of `PATH` holds.
    #[error("{0}: no such program on PATH (give its path, ./{0} for one in this directory)")]
    NotOnPath(String),
    /// A directory.
    #[error("{0}: a directory, not a program")]
    Directory(String),
    /// A file without an execute permission bit.
    #[error("{0}: not executable (chmod +x {0})")]
    NotExecutable(String),
}

/// The file `program` starts, as the engine's start would find it: a name
/// with a directory in it is a path from the current directory, a bare
/// name is looked for on `PATH`.
///
/// # Errors
/// [`ProgramError`] saying what is wrong. Where it cannot be told without
/// starting the program (a bare name on Windows, whose search also looks
/// in system directories), nothing is refused: the path is `program` itself.
pub fn find_program(program: &str) -> Result<PathBuf, ProgramError> {
    if program.is_empty() {
        return Err(ProgramError::Empty);
    }
    let path = Path::new(program);
    if path.components().count() > 1 || path.is_absolute() {
        return runnable(path, program).map(|()| path.to_path_buf());
    }
    if cfg!(not(unix)) {
        return Ok(path.to_path_buf());
    }
    let searched = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&searched)
        .map(|dir| dir.join(program))
        .find(|candidate| runnable(candidate, program).is_ok())
        .ok_or_else(|| ProgramError::NotOnPath(program.to_string()))
}

/// Whether `path` (named `program` in errors) is a file someone may
/// execute.
fn runnable(path: &Path, program: &str) -> Result<(), ProgramError> {
    let metadata = std::fs::metadata(path).map_err(|_| ProgramError::Missing(program.to_string()))?;
    if metadata.is_dir() {
        return Err(ProgramError::Directory(program.to_string()));
    }
    if !has_execute_bit(&metadata) {
        return Err(ProgramError::NotExecutable(program.to_string()));
    }
    Ok(())
}

#[cfg(unix)]
fn has_execute_bit(metadata: &std::fs::Metadata) -> bool {
    std::os::unix::fs::PermissionsExt::mode(&metadata.permissions()) & 0o111 != 0
}

/// Windows has no execute permission: a file is a program if it starts.
#[cfg(not(unix))]
fn has_execute_bit(_metadata: &std::fs::Metadata) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_found_or_told_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nosuch-engine");
        let missing = missing.to_str().unwrap();
        assert_eq!(find_program(missing), Err(ProgramError::Missing(missing.into())));
        assert_eq!(find_program(""), Err(ProgramError::Empty));
        let here = dir.path().to_str().unwrap();
        assert_eq!(find_program(here), Err(ProgramError::Directory(here.into())));
        assert!(find_program("perft-no-such-program-anywhere").is_err());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let file = dir.path().join("engine");
            std::fs::write(&file, "#!/bin/sh\n").unwrap();
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
            let name = file.to_str().unwrap();
            assert_eq!(find_program(name), Err(ProgramError::NotExecutable(name.into())));
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
            assert_eq!(find_program(name), Ok(file.clone()));
            assert!(find_program("sh").is_ok(), "sh is on every PATH a test runs with");
            assert_eq!(
                find_program("perft-no-such-program-anywhere"),
                Err(ProgramError::NotOnPath("perft-no-such-program-anywhere".into()))
            );
        }
    }
}
