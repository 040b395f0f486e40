//! Which code objects a link carries, for a diff report: both dumps whole when that stays
//! within [`TYPICAL_CHARS`], otherwise the changed functions in the report's order (worst
//! first), as many as fit the cap; the rest are counted in [`ShareNote::left_out`].

#[cfg(feature = "share-flate")]
use std::collections::HashSet;

use super::{ShareNote, SharedSummary};
#[cfg(feature = "share-flate")]
use super::{encode, redact, reduce, SharePayload, TYPICAL_CHARS};
#[cfg(feature = "share-flate")]
use crate::model::dump::Dump;
use crate::report::DiffReport;

/// How [`link_payload`] packs a diff.
#[cfg(feature = "share-flate")]
#[derive(Debug, Clone, Copy)]
pub struct LinkOptions {
    /// Longest payload wanted (characters); changed functions past it are left out.
    pub cap: usize,
    /// Leave out source text and shorten paths ([`redact`]).
    pub redact: bool,
}

/// The `(base, head)` code objects of the functions a link of `report` should show, most
/// important first: those whose specialization changed (sites added or removed by a code
/// edit alone do not count).
pub fn wanted(report: &DiffReport) -> Vec<(u32, u32)> {
    report
        .functions
        .iter()
        .filter(|f| f.counts.changed_sites() > f.counts.added + f.counts.removed)
        .map(|f| (f.base_code, f.head_code))
        .collect()
}

/// The sender's run-level numbers of `report`, for [`ShareNote::summary`].
pub fn shared_summary(report: &DiffReport) -> SharedSummary {
    SharedSummary { base: report.base.clone(), head: report.head.clone(), summary: report.summary.clone() }
}

/// The link payload of the diff `report` of `base` and `head` (see the module docs), and the
/// note it carries.
#[cfg(feature = "share-flate")]
pub fn link_payload(base: &Dump, head: &Dump, report: &DiffReport, options: LinkOptions) -> (String, ShareNote) {
    let prepare = |d: &Dump| if options.redact { redact(d) } else { d.clone() };
    let (base, head) = (prepare(base), prepare(head));
    let wanted = wanted(report);
    let note = |reduced: bool, kept: usize| ShareNote {
        base_code_total: base.code.len(),
        head_code_total: head.code.len(),
        reduced,
        comment: None,
        summary: Some(shared_summary(report)),
        left_out: wanted.len() - kept,
        redacted: options.redact,
    };
    let whole = |d: &Dump| reduce(d, |_, _| true);
    let full_note = note(false, wanted.len());
    let full = encode(&SharePayload { base: Some(whole(&base)), head: Some(whole(&head)), note: full_note.clone() });
    if full.len() <= TYPICAL_CHARS.min(options.cap) {
        return (full, full_note);
    }
    let make = |n: usize| {
        let (kb, kh): (HashSet<usize>, HashSet<usize>) = wanted[..n].iter().map(|&(b, h)| (b as usize, h as usize)).unzip();
        let n_note = note(true, n);
        let p = SharePayload {
            base: Some(reduce(&base, |i, _| kb.contains(&i))),
            head: Some(reduce(&head, |i, _| kh.contains(&i))),
            note: n_note.clone(),
        };
        (encode(&p), n_note)
    };
    let all = make(wanted.len());
    if all.0.len() <= options.cap {
        return all;
    }
    // The most functions that fit: links grow with every function kept, so bisect.
    let (mut lo, mut hi) = (0, wanted.len());
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if make(mid).0.len() <= options.cap {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    make(lo)
}

/// What a link with `note` leaves out, as a phrase after "the link" ("leaves out 3 of 40
/// changed functions (the least important); carries no source text"), or `None`.
pub fn left_out_sentence(note: &ShareNote) -> Option<String> {
    let mut parts = Vec::new();
    if note.left_out > 0 {
        let n = note.left_out;
        parts.push(format!(
            "leaves out {n} changed function{} (the least important, to stay short)",
            if n == 1 { "" } else { "s" }
        ));
    }
    if note.redacted {
        parts.push("carries no source text and short paths (redacted)".to_string());
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}
