//! Writing output files so that nothing is ever half-written: everything goes to a temporary
//! file beside the destination and is renamed into place only when complete. Temporary files
//! and folders carry specdiff's process id (`.specdiff-<pid>-….part`, `specdiff-run-<pid>-…`):
//! a stop request removes them (`signals`), and what a killed specdiff (SIGKILL) left behind
//! is removed by the next run that looks in the same folder ([`sweep_stale`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::platform;
use crate::signals::Litter;

/// An output file being prepared; created before any expensive work, so an unwritable
/// destination is reported before the program runs, not after.
pub struct PendingOutput {
    dest: PathBuf,
    tmp: NamedTempFile,
    _litter: Litter,
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
        sweep_stale(&dir, PART_PREFIX, PART_SUFFIX);
        let tmp = tempfile::Builder::new()
            .prefix(&own_prefix(PART_PREFIX))
            .suffix(PART_SUFFIX)
            .tempfile_in(&dir)
            .map_err(|e| format!("cannot write {}: {}", dest.display(), plain_io_error(&e)))?;
        let _litter = Litter::new(tmp.path());
        Ok(PendingOutput {
            dest: dest.to_path_buf(),
            tmp,
            _litter,
        })
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

const PART_PREFIX: &str = ".specdiff-";
const PART_SUFFIX: &str = ".part";

/// `prefix` followed by this process's id and a dash: the start of its temporary names.
pub fn own_prefix(prefix: &str) -> String {
    format!("{prefix}{}-", std::process::id())
}

/// Removes the entries of `dir` named `<prefix><pid>-…<suffix>` whose process no longer runs:
/// what a specdiff killed outright left behind. Best effort; anything else is left alone.
pub fn sweep_stale(dir: &Path, prefix: &str, suffix: &str) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| stale_pid(n, prefix, suffix)) else {
            continue;
        };
        if platform::process_alive(pid) {
            continue;
        }
        let path = entry.path();
        let _ = match entry.file_type() {
            Ok(t) if t.is_dir() => std::fs::remove_dir_all(&path),
            _ => std::fs::remove_file(&path),
        };
    }
}

/// The process id in a name made by [`own_prefix`] (`<prefix><pid>-<random><suffix>`).
fn stale_pid(name: &str, prefix: &str, suffix: &str) -> Option<u32> {
    let rest = name.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let (pid, random) = rest.split_once('-')?;
    if random.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_with_a_pid_are_stale_candidates() {
        assert_eq!(
            stale_pid(".specdiff-123-abC9.part", ".specdiff-", ".part"),
            Some(123)
        );
        assert_eq!(
            stale_pid("specdiff-run-77-x1", "specdiff-run-", ""),
            Some(77)
        );
        // Names of older specdiffs (no pid) and other files are never taken.
        assert_eq!(
            stale_pid(".specdiff-abC9.part", ".specdiff-", ".part"),
            None
        );
        assert_eq!(
            stale_pid(".specdiff-123-.part", ".specdiff-", ".part"),
            None
        );
        assert_eq!(stale_pid("out.json", ".specdiff-", ".part"), None);
    }

    #[cfg(unix)]
    #[test]
    fn sweeping_removes_a_dead_processs_files_and_keeps_a_live_ones() {
        let dir = tempfile::tempdir().unwrap();
        // A process that has certainly ended: spawned and reaped.
        let mut gone = std::process::Command::new("true").spawn().unwrap();
        gone.wait().unwrap();
        let dead = dir.path().join(format!(".specdiff-{}-abc.part", gone.id()));
        let live = dir
            .path()
            .join(format!(".specdiff-{}-abc.part", std::process::id()));
        let dead_dir = dir.path().join(format!("specdiff-run-{}-xyz", gone.id()));
        std::fs::write(&dead, "x").unwrap();
        std::fs::write(&live, "x").unwrap();
        std::fs::create_dir(&dead_dir).unwrap();
        std::fs::write(dead_dir.join("dump.json"), "x").unwrap();
        sweep_stale(dir.path(), PART_PREFIX, PART_SUFFIX);
        sweep_stale(dir.path(), "specdiff-run-", "");
        assert!(!dead.exists() && !dead_dir.exists());
        assert!(live.exists());
    }
}
