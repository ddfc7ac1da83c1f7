//! Writing reports so that no reader or crash sees half of one, and
//! checking before a long run that the write will succeed.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;

/// `results/<kind>-<UTC timestamp>.json`: where reports go when no path is
/// given.
pub fn default_report_path(results_dir: &Path, kind: &str) -> PathBuf {
    let stamp = chrono::Utc::now().format("%Y%m%dT%H%M%S%.3fZ");
    results_dir.join(format!("{kind}-{stamp}.json"))
}

/// Where a write to `path` lands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Destination {
    /// A regular file or a new path (symbolic links followed): written
    /// beside it, then renamed over it.
    Replace(PathBuf),
    /// Something that exists and is not a regular file (a device such as
    /// `/dev/null`, a FIFO, a terminal): written in place.
    InPlace,
    /// A regular file reached through a descriptor link (`/dev/stdout`,
    /// `/proc/self/fd/N`): appended to, as a shell's `>>` would, since
    /// replacing it would detach it from whoever holds it open.
    Append,
}

/// At most this many symbolic links are followed, as Linux does.
const MAX_SYMLINKS: usize = 40;

/// Links into these lead to open file descriptors, not to files.
fn is_descriptor_link(path: &Path) -> bool {
    path.starts_with("/proc") || path.starts_with("/dev/fd") || path.starts_with("/dev/std")
}

fn destination(path: &Path) -> std::io::Result<Destination> {
    match std::fs::metadata(path) {
        Ok(metadata) if metadata.is_dir() => {
            return Err(std::io::Error::other(format!("{} is a directory", path.display())));
        }
        Ok(metadata) if !metadata.is_file() => return Ok(Destination::InPlace),
        _ => {}
    }
    // A regular file or nothing yet: find the file the links lead to (a
    // dangling link's target is created).
    let mut resolved = path.to_path_buf();
    for _ in 0..MAX_SYMLINKS {
        if is_descriptor_link(&resolved) {
            return Ok(Destination::Append);
        }
        match std::fs::symlink_metadata(&resolved) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&resolved)?;
                resolved = match resolved.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            // A dangling link's target is created, but not the directories
            // leading to it: a link must not make this program build paths
            // elsewhere.
            _ if resolved != path && !parent_dir(&resolved).is_dir() => {
                return Err(std::io::Error::other(format!(
                    "{} is a symbolic link to {}, whose directory does not exist",
                    path.display(),
                    resolved.display()
                )));
            }
            _ => return Ok(Destination::Replace(resolved)),
        }
    }
    Err(std::io::Error::other(format!("{}: too many levels of symbolic links", path.display())))
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `bytes` to `path` so that a reader (or a crash) never sees a
/// half-written report: a regular file is written as a temporary file in
/// the same directory (with the old file's permissions), flushed to disk,
/// then renamed over it; missing parent directories are created. A
/// symbolic link is followed and its target replaced. Anything else that
/// exists (a character device such as `/dev/null`, a FIFO) is written in
/// place, never replaced; a regular file behind a descriptor link
/// (`/dev/stdout`, `/proc/self/fd/N`) is appended to.
///
/// # Errors
/// Any I/O error; the temporary file is removed on failure.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace => return write_in_place(path, bytes),
        Destination::Append => {
            let mut file = std::fs::OpenOptions::new().append(true).open(path)?;
            return file.write_all(bytes).and_then(|()| file.flush());
        }
        Destination::Replace(target) => target,
    };
    write_then_rename(&target, bytes)
}

/// How long a write into a FIFO waits for a reader to open it and to take
/// what is written: a FIFO nobody reads must not hold the program forever.
pub const FIFO_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Writes `bytes` into what exists at `path` and is not a regular file: a
/// device is written as it is; a FIFO is opened without blocking, waiting
/// at most [`FIFO_WAIT`] for a reader to appear and at most that long again
/// each time it stops taking what is written.
fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if std::fs::metadata(path)?.file_type().is_fifo() {
            return write_fifo(path, bytes);
        }
    }
    let mut file = std::fs::OpenOptions::new().write(true).open(path)?;
    file.write_all(bytes).and_then(|()| file.flush())
}

#[cfg(unix)]
fn write_fifo(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::OpenOptionsExt;
    let no_reader = || {
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            format!("nothing read the FIFO {} within {} s", path.display(), FIFO_WAIT.as_secs()),
        )
    };
    // Opening a FIFO for writing without blocking fails (ENXIO) until a
    // reader has it open.
    let deadline = std::time::Instant::now() + FIFO_WAIT;
    let mut file = loop {
        match std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(path) {
            Ok(file) => break file,
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) && std::time::Instant::now() < deadline => {
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            Err(e) if e.raw_os_error() == Some(libc::ENXIO) => return Err(no_reader()),
            Err(e) => return Err(e),
        }
    };
    let mut rest = bytes;
    while !rest.is_empty() {
        match file.write(rest) {
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                let mut poll = libc::pollfd { fd: file.as_raw_fd(), events: libc::POLLOUT, revents: 0 };
                let millis = FIFO_WAIT.as_millis() as i32;
                // SAFETY: `poll` reads and writes only the one pollfd we
                // pass, for a descriptor `file` keeps open. It buys a write
                // that waits for the reader at most FIFO_WAIT.
                if unsafe { libc::poll(&mut poll, 1, millis) } == 0 {
                    return Err(no_reader());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically as [`write_atomic`] writes a regular
/// file, but replaces what is at `path` itself: a symbolic link there is
/// replaced by the file, never followed (files inside a shared directory,
/// such as a plan's results, must not let a planted link redirect them),
/// and anything else that is not a regular file is refused.
///
/// # Errors
/// Any I/O error; [`std::io::ErrorKind::InvalidInput`] for a FIFO, device
/// or directory at `path`.
pub fn replace_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    check_replaceable(path)?;
    write_then_rename(path, bytes)
}

/// Whether [`replace_atomic`] may replace what is at `path` (nothing, a
/// regular file or a symbolic link), checked before a long run.
///
/// # Errors
/// As [`replace_atomic`]'s refusal.
pub fn check_replaceable(path: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) if metadata.is_file() || metadata.file_type().is_symlink() => {}
        Ok(_) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                "not a regular file (a FIFO, device or directory); refusing to replace it",
            ))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    Ok(())
}

/// Writes `bytes` to a new temporary file beside `target` (with the
/// permissions of the regular file there, if any), flushes it to disk and
/// renames it over `target`; missing parent directories are created.
fn write_then_rename(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = parent_dir(target);
    std::fs::create_dir_all(&dir)?;
    let name = target.file_name().map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let (mut file, temp) = create_unique(&dir, &name)?;
    let result = (|| {
        file.write_all(bytes)?;
        if let Ok(old) = std::fs::symlink_metadata(target) {
            if old.is_file() {
                file.set_permissions(old.permissions())?;
            }
        }
        file.sync_all()?;
        std::fs::rename(&temp, target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// A suffix no other writer picks at the same time: this host's name, the
/// process id, a per-process counter and a random number. The process id
/// alone is not enough: in containers every pod's program is PID 1, and
/// pods on several hosts may share one directory.
pub(crate) fn unique_suffix() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let count = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(count);
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH);
    hasher.write_u128(now.map_or(0, |d| d.as_nanos()));
    let host: String = crate::report::host_name()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(32)
        .collect();
    format!("{host}.{}.{count}.{:016x}", std::process::id(), hasher.finish())
}

/// Creates a new temporary file for `name` in `dir` (`.NAME.SUFFIX.tmp`,
/// see [`unique_suffix`]), never opening one that exists: a name already
/// taken is passed over for a fresh one.
///
/// # Errors
/// Any I/O error other than a name already taken, or eight names taken.
fn create_unique(dir: &Path, name: &str) -> std::io::Result<(std::fs::File, PathBuf)> {
    // Room for the suffix within the usual 255-byte limit on a name.
    let mut end = name.len().min(150);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let stem = &name[..end];
    let mut last = None;
    for _ in 0..8 {
        let temp = dir.join(format!(".{stem}.{}.tmp", unique_suffix()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Writes `bytes` atomically to a file that did not exist: `path`, or if
/// that name is taken (another run wrote it in the same millisecond),
/// `STEM-2.EXT`, `STEM-3.EXT`, ...; returns the path written. The file is
/// written beside, then linked to its name, which fails rather than
/// replace a file (a file system without links gets the name created
/// exclusively and written in place).
///
/// # Errors
/// Any I/O error, or a thousand names taken.
pub fn write_new_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    let dir = parent_dir(path);
    std::fs::create_dir_all(&dir)?;
    let name = path.file_name().map_or_else(|| "report".into(), |n| n.to_string_lossy().into_owned());
    let (mut file, temp) = create_unique(&dir, &name)?;
    let written = file.write_all(bytes).and_then(|()| file.sync_all());
    drop(file);
    let result = written.and_then(|()| link_to_free_name(&temp, path, bytes));
    let _ = std::fs::remove_file(&temp);
    result
}

/// Writes a set of files so that each is whole and either all are in place
/// or none changed: every file is first written beside its name (and
/// flushed), then each is renamed over its name. A symbolic link at a
/// name is replaced, not written through; what is at a name and is not a
/// regular file or a link (a directory, a FIFO) is refused before anything
/// is written.
///
/// # Errors
/// Any I/O error; the files already staged are removed.
pub fn replace_all_atomic(files: &[(PathBuf, Vec<u8>)]) -> std::io::Result<()> {
    for (path, _) in files {
        check_replaceable(path)?;
    }
    let mut staged: Vec<(PathBuf, &Path)> = Vec::new();
    let staging = files.iter().try_for_each(|(path, bytes)| {
        let dir = parent_dir(path);
        std::fs::create_dir_all(&dir)?;
        let name = path.file_name().map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
        let (mut file, temp) = create_unique(&dir, &name)?;
        staged.push((temp, path));
        file.write_all(bytes)?;
        file.sync_all()
    });
    let result =
        staging.and_then(|()| staged.iter().try_for_each(|(temp, path)| std::fs::rename(temp, path)));
    for (temp, _) in &staged {
        let _ = std::fs::remove_file(temp);
    }
    result
}

/// `path` with `-N` before its extension (`run-...Z-2.json`).
fn numbered(path: &Path, n: u32) -> PathBuf {
    if n == 1 {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{n}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{n}"),
    };
    path.with_file_name(name)
}

/// Gives the written file `temp` the first free name of `path`'s series.
fn link_to_free_name(temp: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<PathBuf> {
    for n in 1..=1000 {
        let target = numbered(path, n);
        match std::fs::hard_link(temp, &target) {
            Ok(()) => return Ok(target),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            // No links here: the name created exclusively, written in place.
            Err(_) => match std::fs::OpenOptions::new().write(true).create_new(true).open(&target) {
                Ok(mut file) => {
                    file.write_all(bytes)?;
                    file.sync_all()?;
                    return Ok(target);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            },
        }
    }
    Err(std::io::Error::new(
        std::io::ErrorKind::AlreadyExists,
        format!("{} and 999 more names are taken", path.display()),
    ))
}

/// Writes `value` as pretty JSON to `path` atomically (see
/// [`write_atomic`]).
///
/// # Errors
/// Any I/O or serialisation error.
pub fn write_json_atomic(path: &Path, value: &impl Serialize) -> std::io::Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).map_err(std::io::Error::other)?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

/// Checks, before a long run, that a report can be written to `path`: for
/// a file to be replaced, that a file can be created in its directory or,
/// when that does not exist yet, in the nearest directory above it (nothing
/// is created); for a device, FIFO or descriptor link,
/// that this program may write it (nothing is opened: opening a FIFO would
/// wait for a reader).
///
/// # Errors
/// The I/O error that writing would meet.
pub fn check_writable(path: &Path) -> std::io::Result<()> {
    let target = match destination(path)? {
        Destination::InPlace | Destination::Append => return may_write(path),
        Destination::Replace(target) => target,
    };
    // The nearest directory that exists: the report's own directory is
    // created only when the report is written, never as a side effect of a
    // run that fails first.
    let mut dir = parent_dir(&target);
    while !dir.is_dir() {
        if std::fs::symlink_metadata(&dir).is_ok() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::NotADirectory,
                format!("{} is not a directory", dir.display()),
            ));
        }
        match dir.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => dir = parent.to_path_buf(),
            _ => {
                dir = PathBuf::from(".");
                break;
            }
        }
    }
    let (_, probe) = create_unique(&dir, "perft-write-test")?;
    std::fs::remove_file(&probe)
}

/// Whether this process may write `path` (`access(W_OK)`), without opening
/// it.
fn may_write(path: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c_path = std::ffi::CString::new(path.as_os_str().as_bytes())
            .map_err(|_| std::io::Error::other("a NUL byte in the path"))?;
        // SAFETY: `access` reads the NUL-terminated path we own and touches
        // no other memory.
        if unsafe { libc::access(c_path.as_ptr(), libc::W_OK) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        Ok(())
    }
    #[cfg(not(unix))]
    std::fs::metadata(path).map(drop)
}

/// Whether an I/O error is a fault of the moment, worth trying again as
/// it was (a full disk or quota, an I/O error of the device or the file
/// server, a resource busy or a lock held, an interrupted call, a system
/// call timed out, a stale network file handle, no memory), rather than
/// bad input (a missing file, a permission, a path that is a directory, a
/// FIFO nobody reads).
pub fn is_transient(error: &std::io::Error) -> bool {
    use std::io::ErrorKind;
    #[cfg(unix)]
    if let Some(code) = error.raw_os_error() {
        return [
            libc::EIO,
            libc::ENOSPC,
            libc::EDQUOT,
            libc::EAGAIN,
            libc::EBUSY,
            libc::EINTR,
            libc::ETIMEDOUT,
            libc::ESTALE,
            libc::ENOLCK,
            libc::ENOMEM,
            libc::ENOBUFS,
        ]
        .contains(&code);
    }
    matches!(
        error.kind(),
        ErrorKind::StorageFull
            | ErrorKind::QuotaExceeded
            | ErrorKind::ResourceBusy
            | ErrorKind::WouldBlock
            | ErrorKind::Interrupted
            | ErrorKind::StaleNetworkFileHandle
            | ErrorKind::OutOfMemory
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Another writer's temporary file at the name a process id alone would
    /// give (in containers every pod is PID 1) is neither used nor harmed.
    #[test]
    fn another_writers_temporary_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("unit-000003.k1.json");
        let theirs = dir.path().join(format!(".unit-000003.k1.json.{}.tmp", std::process::id()));
        std::fs::create_dir(&theirs).unwrap();
        std::fs::write(theirs.join("inside"), "theirs").unwrap();
        write_atomic(&path, b"ours").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"ours");
        assert_eq!(std::fs::read(theirs.join("inside")).unwrap(), b"theirs");
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(left.len(), 2, "no temporary file left: {left:?}");
        check_writable(&path).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_are_followed_only_into_existing_directories_and_replaced_where_asked() {
        let dir = tempfile::tempdir().unwrap();
        // A dangling link into a directory that exists: its target is made.
        let link = dir.path().join("report.json");
        std::os::unix::fs::symlink(dir.path().join("target.json"), &link).unwrap();
        write_atomic(&link, b"one").unwrap();
        assert_eq!(std::fs::read(dir.path().join("target.json")).unwrap(), b"one");
        // Into one that does not: refused, nothing made.
        let far = dir.path().join("far.json");
        std::os::unix::fs::symlink(dir.path().join("no/such/dir/x.json"), &far).unwrap();
        let error = write_atomic(&far, b"two").unwrap_err().to_string();
        assert!(error.contains("whose directory does not exist"), "{error}");
        assert!(check_writable(&far).is_err());
        assert!(!dir.path().join("no").exists());
        // replace_atomic replaces the link itself and keeps its target.
        replace_atomic(&link, b"three").unwrap();
        assert_eq!(std::fs::read(dir.path().join("target.json")).unwrap(), b"one");
        assert_eq!(std::fs::read(&link).unwrap(), b"three");
        assert!(std::fs::symlink_metadata(&link).unwrap().is_file());
        assert!(replace_atomic(dir.path(), b"x").is_err(), "a directory is refused");
    }

    #[test]
    fn temporary_names_differ_and_name_the_host() {
        let dir = tempfile::tempdir().unwrap();
        let long = "x".repeat(250);
        let (_, a) = create_unique(dir.path(), &long).unwrap();
        let (_, b) = create_unique(dir.path(), &long).unwrap();
        assert_ne!(a, b);
        let host: String = crate::report::host_name()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
            .take(8)
            .collect();
        let name = a.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.contains(&host), "{name} names the host {host}");
        assert!(name.contains(&format!(".{}.", std::process::id())), "{name}");
        assert!(name.len() < 255, "{name}");
    }
}
