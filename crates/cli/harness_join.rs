// Joins the harness's parts, `src/harness/NN_name.py`, into the one file `specdiff dump` runs.
// One definition of which files are parts and in what order they come, included (`include!`)
// by build.rs, which writes the joined file to OUT_DIR/harness.py, and by tests/harness_parts.rs,
// which checks that file against the parts.
//
// Run time needs one file: importing a second .py would run importlib's path finder and source
// loader first, and their specialization would show in the program's dump (harness docstring).

/// The harness's parts, in the order they are joined: (file name, text) of every `.py` file in
/// `dir`, sorted by name. A part is named `NN_name.py` (NN two digits, each number used once,
/// the name lowercase letters, digits and `_`), is UTF-8 and ends with a newline; any other
/// `.py` file there is an error, so that no part is left out unseen or glued to the next one's
/// first line. Other files (editor back-ups, `__pycache__`) are not parts.
fn harness_parts(dir: &std::path::Path) -> Result<Vec<(String, String)>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut parts = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".py") || !entry.path().is_file() {
            continue;
        }
        if !is_part_name(&name) {
            return Err(format!(
                "{}: a harness part is named NN_name.py (two digits, lowercase letters, digits, _)",
                entry.path().display()
            ));
        }
        let text = std::fs::read_to_string(entry.path())
            .map_err(|e| format!("cannot read {} as UTF-8: {e}", entry.path().display()))?;
        if !text.ends_with('\n') {
            return Err(format!("{}: a harness part ends with a newline", entry.path().display()));
        }
        parts.push((name, text));
    }
    parts.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(w) = parts.windows(2).find(|w| w[0].0[..2] == w[1].0[..2]) {
        return Err(format!("{}: {} and {} share a number", dir.display(), w[0].0, w[1].0));
    }
    if parts.is_empty() {
        return Err(format!("{}: no harness parts (NN_name.py)", dir.display()));
    }
    Ok(parts)
}

fn is_part_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".py") else { return false };
    let b = stem.as_bytes();
    b.len() > 3
        && b[0].is_ascii_digit()
        && b[1].is_ascii_digit()
        && b[2] == b'_'
        && b[3..].iter().all(|&c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'_')
}

/// The harness file: the parts' texts one after the other, nothing added.
fn join_harness(parts: &[(String, String)]) -> String {
    parts.iter().map(|(_, text)| text.as_str()).collect()
}
