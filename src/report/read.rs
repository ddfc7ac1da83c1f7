//! Reading input files without ever waiting on one: what is not a regular
//! file (a FIFO, a device, a socket) is refused before it is opened, and
//! opened without blocking should one be swapped in meanwhile; what is
//! larger than its limit is refused before it is read.

use std::io::Read;
use std::path::Path;

/// The contents of the regular file at `path` (symbolic links followed), or
/// `None` if nothing is there.
///
/// # Errors
/// An I/O error; [`std::io::ErrorKind::InvalidInput`] naming what the path
/// is when it is not a regular file, or the size when it is over
/// `max_bytes`.
pub fn read_regular(path: &Path, max_bytes: u64) -> std::io::Result<Option<Vec<u8>>> {
    let metadata = match std::fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    check_regular(&metadata, max_bytes)?;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    // A FIFO put in its place since the check must not block the open.
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
    let file = match options.open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    check_regular(&file.metadata()?, max_bytes)?;
    let mut bytes = Vec::new();
    // A file that grows while read stops at its limit, and is refused.
    file.take(max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(bytes.len() as u64, max_bytes));
    }
    Ok(Some(bytes))
}

/// [`read_regular`] of a file that must be there: a missing one is a
/// [`std::io::ErrorKind::NotFound`] error that says "no such file".
///
/// # Errors
/// As [`read_regular`].
pub fn read_existing(path: &Path, max_bytes: u64) -> std::io::Result<Vec<u8>> {
    read_regular(path, max_bytes)?.ok_or_else(missing)
}

/// The error for a file that is not there, in the words every command uses.
pub fn missing() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")
}

fn check_regular(metadata: &std::fs::Metadata, max_bytes: u64) -> std::io::Result<()> {
    if !metadata.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("not a regular file but {}", kind_of(metadata)),
        ));
    }
    if metadata.len() > max_bytes {
        return Err(too_large(metadata.len(), max_bytes));
    }
    Ok(())
}

fn too_large(bytes: u64, max_bytes: u64) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{bytes} bytes, more than the {max_bytes} accepted"),
    )
}

/// What a file that is not a regular one is, in words.
fn kind_of(metadata: &std::fs::Metadata) -> &'static str {
    if metadata.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let kind = metadata.file_type();
        if kind.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    "not a file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_files_missing_files_and_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("file");
        std::fs::write(&file, b"twelve bytes").unwrap();
        assert_eq!(read_regular(&file, 12).unwrap().as_deref(), Some(&b"twelve bytes"[..]));
        let error = read_regular(&file, 11).unwrap_err().to_string();
        assert!(error.contains("12 bytes, more than the 11 accepted"), "{error}");
        assert_eq!(read_regular(&dir.path().join("missing"), 10).unwrap(), None);
        let error = read_regular(dir.path(), 10).unwrap_err().to_string();
        assert!(error.contains("a directory"), "{error}");
        #[cfg(unix)]
        {
            let fifo = dir.path().join("fifo");
            let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path; mkfifo touches nothing of ours.
            assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
            // Refused at once, never opened (which would wait for a writer).
            let error = read_regular(&fifo, 10).unwrap_err().to_string();
            assert!(error.contains("a FIFO"), "{error}");
            let error = read_regular(Path::new("/dev/null"), 10).unwrap_err().to_string();
            assert!(error.contains("a device"), "{error}");
        }
    }
}
