//! Hotness as an estimate: the share of a run's samples with a function on the stack, outside
//! imports, with its 95 % Wilson interval. Every output shows hotness through
//! [`HotnessEstimate`], so the terminal, the PR comment, the JSON gate and the page give one
//! figure for one function.
//!
//! A sampled share is an estimate: a short run's one sample in 49 (2 %) says only that the
//! function ran at least once. The figure shown is the sampled run where the function is the
//! hottest; what the samples *prove* ([`hotness_floor_percent`]) is the larger of the sampled
//! runs' interval lower ends, which is what the gate compares. Only runs that were sampled
//! count: with none, nothing is known and every function gets `None`.

use crate::report::wording::{count, percent};
use crate::report::{DiffReport, FunctionDiff, Hotness};

/// A sampled hotness with its 95 % interval, in percent.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct HotnessEstimate {
    /// The measured share of the run's samples, outside imports.
    pub percent: f64,
    /// The Wilson interval's lower end.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
    /// The run's samples.
    pub samples: u64,
}

impl HotnessEstimate {
    /// The estimate of a function with hotness `h` in runs of `(base, head)` samples, from the
    /// sampled run where it is the hottest; `None` when no run was sampled.
    pub fn of(runs: (u64, u64), h: &Hotness) -> Option<Self> {
        sampled_sides(runs, h).max_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))).map(|(samples, share)| {
            let (low, high) = share_interval(share, samples);
            HotnessEstimate { percent: share * 100.0, low: low * 100.0, high: high * 100.0, samples }
        })
    }

    /// The estimate as a share of samples, 0–1.
    pub fn share(&self) -> f64 {
        self.percent / 100.0
    }

    /// `12.0% (95% CI 6.1–21.9%, 49 samples)`: the figure, its interval and the samples behind it.
    pub fn with_interval(&self) -> String {
        format!(
            "{} (95% CI {}–{}, {})",
            percent(self.percent / 100.0),
            percent_number(self.low / 100.0),
            percent(self.high / 100.0),
            count(self.samples, "sample", "samples")
        )
    }
}

/// A share as [`percent`] writes it, without the `%` (the first end of a range).
fn percent_number(share: f64) -> String {
    let text = percent(share);
    text.strip_suffix('%').map(str::to_string).unwrap_or(text)
}

/// What the samples say about `f`'s hotness: `None` when no run was sampled.
pub fn hotness_estimate(report: &DiffReport, f: &FunctionDiff) -> Option<HotnessEstimate> {
    HotnessEstimate::of((report.base.samples, report.head.samples), &f.hotness)
}

/// Hotness of `f` in percent over the sampled runs, outside imports; `None` when no run was
/// sampled.
pub fn hotness_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    hotness_estimate(report, f).map(|e| e.percent)
}

/// The hotness of `f` that its samples prove with 95 % confidence, in percent: the larger of
/// the sampled runs' [`share_floor`]s; `None` when no run was sampled.
pub fn hotness_floor_percent(report: &DiffReport, f: &FunctionDiff) -> Option<f64> {
    sampled_sides((report.base.samples, report.head.samples), &f.hotness)
        .map(|(samples, share)| share_floor(share, samples) * 100.0)
        .reduce(f64::max)
}

/// `(run samples, runtime share)` of each sampled run.
fn sampled_sides((base, head): (u64, u64), h: &Hotness) -> impl Iterator<Item = (u64, f64)> {
    [(base, h.base_runtime_share), (head, h.head_runtime_share)].into_iter().filter(|(samples, _)| *samples > 0)
}

/// The lower end of the 95 % Wilson score interval of a share measured as `share` of
/// `samples` samples (see [`share_interval`]).
pub fn share_floor(share: f64, samples: u64) -> f64 {
    share_interval(share, samples).0
}

/// The 95 % Wilson score interval of a share measured as `share` of `samples` samples. Each
/// sample sees the function on the stack or not, so the count is binomial; Wilson's interval
/// stays inside 0–1 and is sound at the small counts of a short run, where the normal
/// approximation claims a single sample proves a share above zero. No samples: `(0, 1)`.
pub fn share_interval(share: f64, samples: u64) -> (f64, f64) {
    const Z: f64 = 1.959_963_984_540_054; // two-sided 95 %
    if samples == 0 {
        return (0.0, 1.0);
    }
    let n = samples as f64;
    // The count, recovered from the rounded share; a share is a count over `samples`.
    let p = (share * n).round().clamp(0.0, n) / n;
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let scale = 1.0 + z2 / n;
    (((centre - spread) / scale).max(0.0), ((centre + spread) / scale).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_floor_is_the_wilson_lower_bound() {
        // Reference values of the 95 % Wilson score interval (z = 1.96).
        for (k, n, floor) in [(1, 49, 0.00361), (2, 49, 0.01126), (5, 49, 0.04434), (20, 20, 0.83887), (0, 100, 0.0)] {
            let got = share_floor(k as f64 / n as f64, n);
            assert!((got - floor).abs() < 1e-4, "{k}/{n}: {got}");
        }
        assert_eq!(share_floor(0.5, 0), 0.0);
        assert_eq!(share_interval(0.5, 0), (0.0, 1.0));
        // More samples of the same share prove more.
        assert!(share_floor(0.02, 49) < share_floor(0.02, 500));
        assert!(share_floor(0.02, 5000) > 0.015);
    }

    #[test]
    fn share_interval_is_the_wilson_interval() {
        // Reference values (z = 1.96): a short run's 25 % is anything from 5 % to 70 %.
        for (k, n, low, high) in [(1, 4, 0.04559, 0.69936), (0, 4, 0.0, 0.48989), (20, 20, 0.83887, 1.0), (49, 98, 0.40289, 0.59711), (12, 340, 0.02030, 0.06067)] {
            let (l, h) = share_interval(k as f64 / n as f64, n);
            assert!((l - low).abs() < 1e-4 && (h - high).abs() < 1e-4, "{k}/{n}: {l}–{h}");
        }
    }

    #[test]
    fn the_estimate_shown_is_the_hotter_sampled_run() {
        let h = Hotness { base_runtime_share: 0.25, head_runtime_share: 0.10, ..Hotness::default() };
        let e = HotnessEstimate::of((4, 400), &h).unwrap();
        assert_eq!((e.percent, e.samples), (25.0, 4));
        assert!((e.low - 4.559).abs() < 1e-2 && (e.high - 69.936).abs() < 1e-2, "{e:?}");
        assert_eq!(e.with_interval(), "25.0% (95% CI 4.6–69.9%, 4 samples)");
        let e = HotnessEstimate::of((0, 400), &h).unwrap();
        assert_eq!((e.percent, e.samples), (10.0, 400));
        assert_eq!(HotnessEstimate::of((0, 0), &h), None);
    }

    #[test]
    fn samples_inside_imports_do_not_make_a_function_hot() {
        // 5 % of which 2 % outside imports: 2 % hot.
        let h = Hotness { base_samples: 5, head_samples: 5, base_share: 0.05, head_share: 0.05, head_runtime_share: 0.02, ..Hotness::default() };
        assert_eq!(HotnessEstimate::of((100, 100), &h).map(|e| e.percent), Some(2.0));
    }
}
