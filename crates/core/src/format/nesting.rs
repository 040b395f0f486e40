//! The nesting cap of JSON documents: how deep `[` and `{` may nest before a reader refuses the
//! text, checked by one linear scan before serde sees it.
//!
//! serde_json's own recursion limit (128) guards only the values it deserializes: the values of
//! unknown keys it skips iteratively, at any depth, so `{"format": …, "x": {"a": {"a": …}}}`
//! 200,000 levels deep reached the parse, and its error, untouched. Checking first gives every
//! such file one short error, and spares the steps after a failed parse (the error's JSON path,
//! the header check) from texts no real file resembles.

/// The deepest nesting a document may have: the top-level object is level 1. Dumps nest at
/// most 7 levels deep (an instruction's churn list, `code[i].instructions[j][8][1]`), stats
/// files 5; the cap leaves ample room and stays under serde_json's 128.
pub(crate) const MAX_DEPTH: usize = 64;

/// The deepest nesting in `json`, when it is over [`MAX_DEPTH`]; `None` otherwise. Brackets
/// inside strings do not count. Linear, and allocates nothing: the whole text is scanned, so
/// the message can say how deep it goes.
pub(crate) fn too_deep(json: &[u8]) -> Option<usize> {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let mut i = 0;
    while i < json.len() {
        match json[i] {
            b'"' => {
                i += 1;
                while i < json.len() && json[i] != b'"' {
                    i += if json[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'[' | b'{' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    (deepest > MAX_DEPTH).then_some(deepest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn depth_counts_brackets_outside_strings() {
        assert_eq!(too_deep(nested(MAX_DEPTH).as_bytes()), None);
        assert_eq!(
            too_deep(nested(MAX_DEPTH + 1).as_bytes()),
            Some(MAX_DEPTH + 1)
        );
        let quoted = format!("{{\"k\": \"{}\\\"{}\"}}", "[".repeat(100), "{".repeat(100));
        assert_eq!(too_deep(quoted.as_bytes()), None);
        // Unbalanced text (serde rejects it later) is measured all the same.
        assert_eq!(too_deep("{".repeat(70).as_bytes()), Some(70));
        assert_eq!(too_deep(b"]]]]"), None);
    }
}
