//! Number and date formatting for display, and a size-conscious sort.

/// Sorts indices with a comparator behind `dyn`: the only copy of the sort algorithm in this
/// crate (each monomorphized copy costs kilobytes of wasm).
pub fn sort_indices(v: &mut [usize], cmp: &dyn Fn(usize, usize) -> std::cmp::Ordering) {
    // The core's copy: the core sorts through it in wasm as well, so the two share one.
    specdiff_core::util::sort_indices(v, cmp);
}

/// Sorts `v` stably by `cmp`, through the core's sort (in wasm, one shared index sort).
pub fn sort_dyn<T>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> std::cmp::Ordering) {
    specdiff_core::util::sort_by(v, cmp);
}

/// `s` in lower case, for the case-insensitive function search. Python names may be
/// non-ASCII; in the browser those go through JavaScript's `toLowerCase`, so the wasm carries
/// no Unicode case tables of its own (~5 KB gzipped).
pub fn lowercase(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    #[cfg(target_arch = "wasm32")]
    return js_sys::JsString::from(s).to_lower_case().into();
    #[cfg(not(target_arch = "wasm32"))]
    return s.to_lowercase();
}

/// Untrusted text (from a dump or the pull request) as the page shows it: inert, through the
/// CLI's own function (control and bidi characters as visible escapes). Not capped as the
/// CLI caps it (`report::display`): that code costs the page ~480 bytes of gzipped wasm,
/// past its budget (docs/hostile-input.md, "Outputs bounded and inert").
pub fn shown(s: &str) -> String {
    specdiff_core::report::wording::inert(s).into_owned()
}

// Numbers and plurals are worded once, in the core, so the page says what the CLI says.
pub use specdiff_core::report::wording::{count, grouped, percent, percent_compact, signed};

/// Seconds, short: `"0.52 s"`, `"12 s"`, `"3 min 4 s"`.
pub fn seconds(s: f64) -> String {
    if s < 10.0 {
        format!("{s:.2} s")
    } else if s < 60.0 {
        format!("{s:.0} s")
    } else {
        format!("{} min {:.0} s", (s / 60.0).floor(), s % 60.0)
    }
}

/// RFC 3339 UTC (`2026-12-02T13:00:21.794Z`) → `"2026-12-02 13:00 UTC"`; anything else unchanged.
pub fn date(rfc3339: &str) -> String {
    let b = rfc3339.as_bytes();
    if b.len() >= 16 && b[4] == b'-' && b[10] == b'T' && b[13] == b':' {
        let zone = if rfc3339.ends_with('Z') || rfc3339.ends_with("+00:00") { " UTC" } else { "" };
        format!("{} {}{}", &rfc3339[..10], &rfc3339[11..16], zone)
    } else {
        rfc3339.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(grouped(999), "999");
        assert_eq!(percent_compact(0.1234), "12%");
        assert_eq!(percent_compact(0.01234), "1.2%");
        assert_eq!(signed(-1204.0, false), "−1,204");
        assert_eq!(signed(0.025, true), "+2.5 pp");
        assert_eq!(date("2026-12-02T13:00:21.794Z"), "2026-12-02 13:00 UTC");
        assert_eq!(date("yesterday"), "yesterday");
        assert_eq!(seconds(0.5), "0.50 s");
    }

    #[test]
    fn lowercase_is_unicode_aware() {
        assert_eq!(lowercase("Dot_Sum"), "dot_sum");
        assert_eq!(lowercase("ÄRGER.Größe"), "ärger.größe");
    }
}
