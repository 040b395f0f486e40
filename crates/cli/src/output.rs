//! Writing output files so that nothing is ever half-written: everything goes to a temporary
//! file beside the destination and is renamed into place only when complete.

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

/// An output file being prepared; created before any expensive work, so an unwritable
/// destination is reported before the program runs, not after.
pub struct PendingOutput {
    dest: PathBuf,
    tmp: NamedTempFile,
}

impl PendingOutput {
    /// Reserves a temporary file in `dest`'s folder.
    pub fn create(dest: &Path) -> Result<Self, String> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        if dest.is_dir() {
            return Err(format!("cannot write {}: it is a directory", dest.display()));
        }
        let tmp = tempfile::Builder::new()
            .prefix(".specdiff-")
            .suffix(".part")
            .tempfile_in(&dir)
            .map_err(|e| format!("cannot write {}: {}", dest.display(), plain_io_error(&e)))?;
        Ok(PendingOutput { dest: dest.to_path_buf(), tmp })
    }

    /// Writes `bytes` (gzip-compressed when the destination ends in `.gz`) and renames the
    /// file into place. Returns the number of bytes written.
    pub fn finish(mut self, bytes: &[u8]) -> Result<u64, String> {
        let gz = self.dest.extension().is_some_and(|e| e == "gz");
        let fail = |e: std::io::Error| format!("cannot write {}: {}", self.dest.display(), plain_io_error(&e));
        let written = if gz {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
            enc.write_all(bytes).map_err(fail)?;
            let data = enc.finish().map_err(fail)?;
            self.tmp.write_all(&data).map_err(fail)?;
            data.len() as u64
        } else {
            self.tmp.write_all(bytes).map_err(fail)?;
            bytes.len() as u64
        };
        self.tmp.as_file().sync_all().map_err(fail)?;
        let dest = self.dest.clone();
        self.tmp
            .persist(&dest)
            .map_err(|e| format!("cannot write {}: {}", dest.display(), plain_io_error(&e.error)))?;
        Ok(written)
    }
}

/// `"permission denied"` rather than `"Permission denied (os error 13)"`.
pub fn plain_io_error(e: &std::io::Error) -> String {
    let s = e.to_string();
    let s = match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    };
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().collect::<String>() + c.as_str(),
        None => s,
    }
}

/// `1.2 MB`, `340 KB`.
pub fn human_size(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.1} MB", bytes as f64 / (1024.0 * 1024.0))
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}
