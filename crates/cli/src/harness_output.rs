//! What the harness writes beside the dump itself (`OUT.extra.json`, a file of its own so that
//! the dump stays in the shape the core's fast reader takes, and each is parsed once), and what
//! this side does with it before the dump is written: the raw code whose positions and caches
//! the harness left to Rust, and the pystats files the run produced.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use specdiff_core::model::Dump;
use specdiff_core::format::{decode_hex, finish_instructions, RawCode};

/// The harness's extra file (`write_dump` in `harness/60_run.py`).
#[derive(Debug, Default, Deserialize)]
pub struct HarnessExtra {
    /// The raw pystats files this run wrote, when the harness could tell.
    #[serde(default)]
    pub pystats_raw_files: Vec<PathBuf>,
    /// `[code index, co_linetable as hex, adaptive code as hex]` for each code object whose
    /// instructions have no positions and caches yet.
    #[serde(default)]
    pub raw_code: Vec<(usize, String, String)>,
}

impl HarnessExtra {
    /// Reads the extra file the harness wrote beside `dump_path`.
    pub fn read_beside(dump_path: &Path) -> Result<Self, String> {
        let mut path = dump_path.as_os_str().to_owned();
        path.push(".extra.json");
        let bytes = std::fs::read(&path)
            .map_err(|e| format!("internal error: cannot read the harness's extra file ({e})"))?;
        Self::parse(&bytes)
    }

    fn parse(bytes: &[u8]) -> Result<Self, String> {
        serde_json::from_slice(bytes).map_err(|e| format!("internal error: the harness's extra file: {e}"))
    }
}

/// Fills line, positions, cache words and counters of the instructions the harness left
/// without them, from each code object's raw bytes, as `dis` gives them.
pub fn finish_raw_code(dump: &mut Dump, raw_code: &[(usize, String, String)]) -> Result<(), String> {
    let layout = dump.python.counter_layout();
    for (index, linetable, adaptive_code) in raw_code {
        let bad = |what: &str| format!("internal error: the harness output's code object {index}: {what}");
        let code = dump.code.get_mut(*index).ok_or_else(|| bad("not in the dump"))?;
        let linetable = decode_hex(linetable).ok_or_else(|| bad("its linetable is not hex"))?;
        let adaptive_code = decode_hex(adaptive_code).ok_or_else(|| bad("its code is not hex"))?;
        let raw = RawCode { first_line: i64::from(code.first_line), linetable: &linetable, adaptive_code: &adaptive_code };
        finish_instructions(&mut code.instructions, raw, &dump.ops, layout).map_err(|e| bad(&e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extra_keys_default_to_empty() {
        let extra = HarnessExtra::parse(br#"{}"#).unwrap();
        assert!(extra.raw_code.is_empty() && extra.pystats_raw_files.is_empty());
        let extra = HarnessExtra::parse(br#"{"raw_code":[[3,"80","9700"]]}"#).unwrap();
        assert_eq!(extra.raw_code, vec![(3, "80".to_string(), "9700".to_string())]);
    }
}
