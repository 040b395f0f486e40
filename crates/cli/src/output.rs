//! Writing output files so that nothing is ever half-written (a file goes to a temporary
//! file beside the destination and is renamed into place only when complete), no node is
//! swapped for a file (a symbolic link is followed; a device or named pipe is written in
//! place, see [`PendingOutput`]) and nothing is overwritten that should not be (an input, or
//! for `dump` a file that is not a dump); and naming files in messages, whatever bytes their
//! names hold.
//!
//! Temporary files and folders carry specdiff's process id (`.specdiff-<pid>-….part`,
//! `specdiff-run-<pid>-…`): a stop request removes them (`signals`), and what a killed specdiff
//! (SIGKILL) left behind is removed by the next run that looks in the same folder
//! ([`sweep_stale`]).

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use tempfile::NamedTempFile;

use crate::platform;
use crate::signals::Litter;

/// An output file being prepared; created before any expensive work, so an unwritable
/// destination is reported before the program runs, not after.
///
/// What `-o` names decides how it is written (docs/hostile-input.md, "Outputs and the
/// program's process tree"): a regular file, or nothing yet, is replaced atomically by a
/// temporary file renamed into place; a symbolic link is followed (its target is written that
/// way; the link stays); a character device (`/dev/null`, `/dev/full`, a terminal) or a named
/// pipe is written in place, since renaming over it would swap the node itself for a file, and
/// its write errors are reported; a block device or a socket is refused.
pub struct PendingOutput {
    /// As the user named it, for messages.
    dest: PathBuf,
    sink: Sink,
}

enum Sink {
    /// Written beside `target` (`dest` with its symbolic links followed), then renamed over it.
    Replace { target: PathBuf, tmp: NamedTempFile, _litter: Litter },
    /// An existing special node, opened for writing.
    InPlace(std::fs::File),
}

/// How many symbolic links are followed before giving up, as Linux's own limit.
const MAX_LINKS: usize = 40;

impl PendingOutput {
    /// Reserves a temporary file beside the destination, or opens a special node in place.
    pub fn create(dest: &Path) -> Result<Self, String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {}", display_path(dest), plain_io_error(&e));
        // stat(2), which follows links and never opens: a named pipe must not be opened
        // blocking, here or anywhere.
        let sink = match std::fs::metadata(dest) {
            Ok(m) if m.is_dir() => return Err(format!("cannot write {}: it is a directory", display_path(dest))),
            Ok(m) => match platform::special_kind(&m.file_type()) {
                Some(kind) => Sink::InPlace(open_in_place(dest, kind)?),
                None => replace(&follow_links(dest).map_err(fail)?).map_err(fail)?,
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // Nothing there, or a link to nothing: the file is made where the link points.
                replace(&follow_links(dest).map_err(fail)?).map_err(fail)?
            }
            Err(e) => return Err(fail(e)),
        };
        Ok(PendingOutput { dest: dest.to_path_buf(), sink })
    }

    /// Writes `bytes` (gzip-compressed when the destination ends in `.gz`) and renames the
    /// file into place (or writes the special node in place). Returns the number of bytes
    /// written.
    pub fn finish(self, bytes: &[u8]) -> Result<u64, String> {
        let fail = |e: std::io::Error| format!("cannot write {}: {}", display_path(&self.dest), plain_io_error(&e));
        let gz;
        let data = if self.dest.extension().is_some_and(|e| e == "gz") {
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
            enc.write_all(bytes).map_err(fail)?;
            gz = enc.finish().map_err(fail)?;
            &gz[..]
        } else {
            bytes
        };
        match self.sink {
            Sink::Replace { target, mut tmp, _litter } => {
                tmp.write_all(data).map_err(fail)?;
                tmp.as_file().sync_all().map_err(fail)?;
                tmp.persist(&target).map_err(|e| fail(e.error))?;
            }
            Sink::InPlace(mut file) => {
                // No fsync: devices and pipes refuse it (EINVAL), and there is nothing to make
                // durable. A device's own error (ENOSPC from /dev/full) comes from write.
                file.write_all(data).map_err(fail)?;
                file.flush().map_err(fail)?;
            }
        }
        Ok(data.len() as u64)
    }
}

/// A temporary file beside `target`, to be renamed over it.
fn replace(target: &Path) -> std::io::Result<Sink> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    sweep_stale(&dir, PART_PREFIX, PART_SUFFIX);
    let prefix = own_prefix(PART_PREFIX);
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(PART_SUFFIX);
    if let Some(permissions) = platform::new_file_permissions() {
        builder.permissions(permissions);
    }
    let tmp = builder.tempfile_in(&dir)?;
    let _litter = Litter::new(tmp.path());
    Ok(Sink::Replace { target: target.to_path_buf(), tmp, _litter })
}

/// Opens special node `dest` in place, or says in one line why not.
fn open_in_place(dest: &Path, kind: platform::Special) -> Result<std::fs::File, String> {
    use platform::Special;
    let shown = display_path(dest);
    match kind {
        Special::BlockDevice => {
            return Err(format!("cannot write {shown}: it is {}; write to a file instead", kind.name()))
        }
        Special::Socket => {
            return Err(format!("cannot write {shown}: it is {}, which cannot be written as a file", kind.name()))
        }
        Special::Fifo | Special::CharDevice => {}
    }
    platform::open_in_place(dest).map_err(|e| {
        if kind == Special::Fifo && platform::no_reader(&e) {
            format!("cannot write {shown}: it is {} and nothing reads it", kind.name())
        } else {
            format!("cannot write {shown}: {}", plain_io_error(&e))
        }
    })
}

/// `path` with its symbolic links followed to the last one's target, which need not exist:
/// the file to replace (a link is followed like the shell's `>` and `cp` follow it, never
/// replaced by a file). The folders above are left as they are (the rename happens in the
/// target's own folder either way).
fn follow_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)?;
                path = match path.parent() {
                    Some(dir) => dir.join(target), // an absolute target replaces `dir`
                    None => target,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// Refuses to write `dest` when it is one of `inputs` (`(role, path)`, the role as the message
/// should call the input: `"the base dump (BASE)"`, `"the script"`): the same file by any name, through symbolic or
/// hard links (same device and inode on Unix, same volume and file index on Windows). A
/// destination that does not exist yet is no input.
pub fn refuse_inputs(dest: &Path, inputs: &[(&str, &Path)]) -> Result<(), String> {
    // `is_same_file` opens both paths to read: a named pipe would wait there for a writer. Only
    // regular files can be overwritten; a device or pipe is written in place, leaving any
    // input as it was.
    let regular = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file());
    if !regular(dest) {
        return Ok(());
    }
    for (role, input) in inputs {
        if regular(input) && same_file::is_same_file(dest, input).unwrap_or(false) {
            let what = if dest == *input { role.to_string() } else { format!("{}, {role}", display_path(input)) };
            return Err(format!("refusing to write {}: it is {what}; choose another output file", display_path(dest)));
        }
    }
    Ok(())
}

/// Refuses to overwrite an existing `dest` that is not a specdiff dump, unless `force`: a `-o`
/// slip (`dump -o prog.py prog.py`, `-o notes.json`) would otherwise replace it with JSON.
/// An old dump is replaced freely (re-running a dump is the normal case), and so is an empty
/// file (nothing to lose).
pub fn refuse_non_dump(dest: &Path, force: bool) -> Result<(), String> {
    if force {
        return Ok(());
    }
    // Only a regular file is read: opening a named pipe to read would wait for a writer.
    if !std::fs::metadata(dest).is_ok_and(|m| m.is_file()) {
        return Ok(()); // nothing there, a device or pipe (written in place), or unreadable
    }
    let Ok(file) = std::fs::File::open(dest) else {
        return Ok(()); // unreadable: the write will say so
    };
    let mut head = Vec::new();
    if file.take(HEAD_LEN).read_to_end(&mut head).is_err() || head.is_empty() || looks_like_dump(&head) {
        return Ok(());
    }
    Err(format!(
        "refusing to overwrite {}: it exists and is not a specdiff dump (pass --force to replace it)",
        display_path(dest)
    ))
}

/// How much of an existing output file is read to tell whether it is a dump.
const HEAD_LEN: u64 = 4096;

/// Whether a file starting with `head` is a specdiff dump: JSON (or gzip of it) whose first
/// key is `"format": "specdiff-dump"`, as every dump specdiff writes begins (also after a
/// pretty-printer that keeps key order, like `jq .`).
fn looks_like_dump(head: &[u8]) -> bool {
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        // A truncated gzip stream is expected here: what was inflated before the cut counts.
        let _ = flate2::read::GzDecoder::new(head).take(HEAD_LEN).read_to_end(&mut plain);
        return !plain.starts_with(&[0x1f, 0x8b]) && looks_like_dump(&plain);
    }
    let text = String::from_utf8_lossy(head);
    let rest = text.trim_start().strip_prefix('{').map(str::trim_start);
    let rest = rest.and_then(|r| r.strip_prefix("\"format\"")).map(str::trim_start);
    let rest = rest.and_then(|r| r.strip_prefix(':')).map(str::trim_start);
    rest.is_some_and(|r| r.starts_with(&format!("\"{}\"", specdiff_core::model::FORMAT_NAME)))
}

/// `path` for a message: as is when it is valid Unicode, else with each byte that is not
/// shown as `\xNN` (`caf\xe9.json`), so that two different names never look alike and
/// nothing unprintable reaches the terminal from an invalid byte. Control and bidi characters
/// in a valid name are shown inert too ([`specdiff_core::report::wording::inert`]).
pub fn display_path(path: &Path) -> String {
    display_os(path.as_os_str())
}

/// [`display_path`] of any OS string (a program argument).
pub fn display_os(s: &OsStr) -> String {
    use specdiff_core::report::wording::inert;
    if let Some(s) = s.to_str() {
        return inert(s).into_owned();
    }
    let mut out = String::new();
    // Unix: the bytes of the name; Windows: WTF-8, whose unpaired surrogates show as bytes.
    for chunk in s.as_encoded_bytes().utf8_chunks() {
        out.push_str(&inert(chunk.valid()));
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
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
    fn only_a_dump_header_counts_as_a_dump() {
        assert!(looks_like_dump(br#"{"format":"specdiff-dump","version":1}"#));
        assert!(looks_like_dump(b"{\n  \"format\": \"specdiff-dump\",\n"));
        assert!(!looks_like_dump(br#"{"format":"specdiff-diff","version":1}"#));
        assert!(!looks_like_dump(b"print('specdiff-dump')\n"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(6));
        gz.write_all(br#"{"format":"specdiff-dump","version":1,"generator":"x"}"#).unwrap();
        let gz = gz.finish().unwrap();
        assert!(looks_like_dump(&gz));
        assert!(looks_like_dump(&gz[..gz.len() - 8]), "a cut gzip stream still shows its start");
    }

    #[cfg(unix)]
    #[test]
    fn invalid_bytes_are_shown_escaped() {
        use std::os::unix::ffi::OsStrExt;
        assert_eq!(display_path(Path::new(OsStr::from_bytes(b"caf\xff/o\xfe.json"))), r"caf\xff/o\xfe.json");
        assert_eq!(display_path(Path::new("café.json")), "café.json");
    }

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
