//! Reading input files (dumps, stats files, raw pystats) within the readers' size limit
//! (`ReadLimits::max_bytes`, 512 MB): a regular file larger than the limit is refused from its
//! size before a byte is read, and from anything else (a device, a pipe) at most the limit
//! plus one byte is read (issue 31: a 4 GB sparse file and `/dev/zero` were read whole, 3 GB
//! and more, before the size check).

use std::path::Path;

use specdiff_core::format::read_within;
use specdiff_core::{InputError, InputErrorKind, ReadLimits};

use crate::output::{display_path, plain_io_error};

/// The bytes of `path`, at most `limit`; the error is the one-line message naming the file.
pub fn read_input(path: &Path, limit: u64) -> Result<Vec<u8>, String> {
    let name = display_path(path);
    let cannot = |e: std::io::Error| format!("{name}: cannot read: {}", plain_io_error(&e));
    let refused = |kind| InputError::new(name.as_str(), kind).to_string();
    let file = std::fs::File::open(path).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    // A regular file's size is known (a sparse one's too): refused without reading. Only a
    // hint otherwise, and for a file growing while read; the read itself stops past the limit.
    let known = meta.is_file().then_some(meta.len());
    if let Some(bytes) = known.filter(|&len| len > limit) {
        return Err(refused(InputErrorKind::TooLarge { bytes, limit }));
    }
    // A device or pipe gets a buffer of the limit at once: address space, whose pages are
    // memory only as data fills them, and never moved (doubling held the old block and the new
    // one at once: 1.5× the limit for `/dev/zero`).
    let hint = usize::try_from(known.unwrap_or(limit)).unwrap_or(usize::MAX);
    match read_within(file, hint, limit) {
        Ok(Some(bytes)) => Ok(bytes),
        Ok(None) => Err(refused(InputErrorKind::InflatedTooLarge { limit })),
        Err(e) => Err(cannot(e)),
    }
}

/// [`read_input`] with the readers' default limit.
pub fn read_input_file(path: &Path) -> Result<Vec<u8>, String> {
    read_input(path, ReadLimits::default().max_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_over_the_limit_are_refused_and_devices_read_only_to_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.json");
        std::fs::write(&path, vec![b' '; 1000]).unwrap();
        assert_eq!(read_input(&path, 1000).unwrap().len(), 1000);
        let shown = display_path(&path);
        assert_eq!(read_input(&path, 999).unwrap_err(), format!("{shown}: too large (1,000 bytes, limit 999 bytes)"));
        #[cfg(unix)]
        assert_eq!(
            read_input(Path::new("/dev/zero"), 5 << 20).unwrap_err(),
            "/dev/zero: too large (read more than 5.0 MB, limit 5.0 MB)"
        );
        let gone = dir.path().join("gone.json");
        assert!(read_input(&gone, 10).unwrap_err().ends_with("gone.json: cannot read: no such file or directory"));
    }
}
