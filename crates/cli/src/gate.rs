//! `--min-hotness` and `--min-cost`, the options of the regression gate the CLI reads itself. The gate
//! (hotness statistics, import-time code counted apart, the verdict) is the core's
//! [`specdiff_core::view::gate`]: the CLI applies it and exits 1 when it trips.

use specdiff_core::report::wording::inert;

/// Parses `--min-hotness`: a percentage from 0 to 100. Above 100 no function could ever be
/// hot, a gate that silently never trips, so it is refused like any other impossible value.
pub fn parse_min_hotness(text: &str) -> Result<f64, String> {
    let shown = inert(text);
    let value: f64 =
        text.trim().trim_end_matches('%').parse().map_err(|_| format!("'{shown}' is not a percentage like 1 or 0.5"))?;
    crate::command_line::within(value, &shown, 0.0..=100.0, "percentage", "")
}

/// Parses `--min-cost`: a share of run time in percent, `1%` or `1`, from 0 to 100, read as
/// `--min-hotness` is (above 100 % no estimate could reach it).
pub fn parse_min_cost(text: &str) -> Result<f64, String> {
    parse_min_hotness(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn min_hotness_parses_percentages() {
        assert_eq!(parse_min_hotness("1"), Ok(1.0));
        assert_eq!(parse_min_hotness("0.5%"), Ok(0.5));
        assert_eq!(parse_min_hotness("0"), Ok(0.0));
        assert_eq!(parse_min_hotness("100%"), Ok(100.0));
        for (text, reason) in [
            ("101", "out of range"),
            ("1000", "out of range"),
            ("-1", "out of range"),
            ("inf", "not a finite number"),
            ("-inf", "not a finite number"),
            ("NaN", "not a finite number"),
            ("lots", "not a percentage like 1 or 0.5"),
            ("", "not a percentage like 1 or 0.5"),
        ] {
            let e = parse_min_hotness(text).unwrap_err();
            assert!(e.starts_with(&format!("'{text}' ")) && e.contains(reason), "{text}: {e}");
        }
    }
}
