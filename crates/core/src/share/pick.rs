//! Which code objects a link carries, for a diff report: both dumps whole when that stays
//! within [`TYPICAL_CHARS`], otherwise the changed functions in the report's order (worst
//! first), trimmed to their changes (`trim.rs`), as many as fit the cap; the rest are counted
//! in [`ShareNote::left_out`]. [`LinkBuilder`] makes the payloads, [`Fitting`] searches the
//! count; both the CLI ([`link_payload`]) and the viewer's share button (whose compressor is
//! asynchronous) drive them.

use super::reduce::{new_indices, reduce_masked};
use super::trim::{
    readable_changes, trim, trimmed_wire, whole, Masks, Trim, TrimmedFunction, CONTEXT_ROWS,
};
#[cfg(feature = "share-flate")]
use super::{encode, TYPICAL_CHARS};
use super::{redact, ShareNote, SharePayload, SharedSummary};
use crate::engine::classify::Change;
use crate::model::dump::Dump;
use crate::report::sent::{differing, read_alike};
use crate::report::diff::{DiffOptions, DiffSession};
use crate::report::DiffReport;
#[cfg(doc)]
use crate::report::FunctionDiff;

/// How [`link_payload`] packs a diff.
#[derive(Debug, Clone, Copy)]
pub struct LinkOptions {
    /// Longest payload wanted (characters); changed functions past it are left out.
    pub cap: usize,
    /// Leave out source text and shorten paths ([`redact`]).
    pub redact: bool,
}

/// The `(base, head)` code objects of the functions a link of `report` should show, most
/// important first: those whose specialization changed ([`FunctionDiff::specialization_changed`];
/// sites added or removed by a code edit alone do not count).
pub fn wanted(report: &DiffReport) -> Vec<(u32, u32)> {
    report
        .functions
        .iter()
        .filter(|f| f.specialization_changed())
        .map(|f| (f.base_code, f.head_code))
        .collect()
}

/// The sender's run-level numbers of `report`, for [`ShareNote::summary`].
pub fn shared_summary(report: &DiffReport) -> SharedSummary {
    SharedSummary {
        base: report.base.clone(),
        head: report.head.clone(),
        summary: report.summary.clone(),
    }
}

/// Makes the payloads of one diff: whole, or the first `n` changed functions trimmed.
pub struct LinkBuilder<'a> {
    session: DiffSession<'a>,
    report: &'a DiffReport,
    wanted: Vec<(u32, u32)>,
    /// The trim of each wanted function, once worked out (each count tried reuses them).
    trims: Vec<Option<Trim>>,
}

impl<'a> LinkBuilder<'a> {
    /// A builder for the diff `report` of `base` and `head`, made with `options`.
    pub fn new(
        base: &'a Dump,
        head: &'a Dump,
        report: &'a DiffReport,
        options: &DiffOptions,
    ) -> Self {
        let session = DiffSession::new(
            base,
            head,
            DiffOptions {
                allow_unrelated: true,
                ..options.clone()
            },
        );
        let wanted = wanted(report);
        let trims = wanted.iter().map(|_| None).collect();
        LinkBuilder {
            session,
            report,
            wanted,
            trims,
        }
    }

    /// How many changed functions the report has for a link (see [`wanted`]).
    pub fn wanted(&self) -> usize {
        self.wanted.len()
    }

    fn note(&self, reduced: bool, kept: usize) -> ShareNote {
        ShareNote {
            base_code_total: self.session.base.code.len(),
            head_code_total: self.session.head.code.len(),
            reduced,
            comment: None,
            summary: Some(shared_summary(self.report)),
            left_out: self.wanted.len() - kept.min(self.wanted.len()),
            redacted: false,
            trimmed: Vec::new(),
            explained: Vec::new(),
        }
    }

    fn finish(&self, base: Dump, head: Dump, note: ShareNote) -> SharePayload {
        SharePayload {
            base: Some(base),
            head: Some(head),
            note,
        }
    }

    /// Both dumps whole (through [`super::reduce`]: what no view reads is left out).
    pub fn whole(&self) -> SharePayload {
        let (base, head) = (self.session.base, self.session.head);
        let no_masks = Vec::new();
        let all = |_: usize, _: &_| true;
        self.finish(
            reduce_masked(base, all, &no_masks),
            reduce_masked(head, all, &no_masks),
            self.note(false, self.wanted.len()),
        )
    }

    /// The first `n` changed functions, trimmed, and the pairs of `also` (e.g. the function
    /// the sender is looking at) whole.
    pub fn trimmed(&mut self, n: usize, also: &[(u32, u32)]) -> SharePayload {
        let kept: Vec<(u32, u32)> = self.wanted[..n.min(self.wanted.len())].to_vec();
        for (slot, &(b, h)) in self.trims.iter_mut().zip(&kept) {
            if slot.is_none() {
                *slot = Some(trim(&mut self.session, b, h, CONTEXT_ROWS));
            }
        }
        let trims: Vec<&Trim> = self.trims[..kept.len()].iter().flatten().collect();
        let (base, head) = (self.session.base, self.session.head);
        let (mut mb, mut mh): (Masks, Masks) =
            (vec![None; base.code.len()], vec![None; head.code.len()]);
        for (&(b, h), t) in kept.iter().zip(&trims) {
            // Code with JIT executors travels whole: its traces point into the whole body.
            if base.code[b as usize].executors.is_some() || head.code[h as usize].executors.is_some() {
                continue;
            }
            mb[b as usize] = Some(t.base.clone());
            mh[h as usize] = Some(t.head.clone());
        }
        for &(b, h) in also {
            if let (Some(b), Some(h)) = (mb.get_mut(b as usize), mh.get_mut(h as usize)) {
                (*b, *h) = (None, None);
            }
        }
        // The code objects carried, in order, and where each lands in the link's dumps.
        let carried = |side: fn(&(u32, u32)) -> u32, len: usize| {
            let mut carry = vec![false; len];
            for p in kept.iter().chain(also) {
                if let Some(c) = carry.get_mut(side(p) as usize) {
                    *c = true;
                }
            }
            let codes: Vec<usize> = (0..len).filter(|&i| carry[i]).collect();
            new_indices(len, &codes)
        };
        let index_b = carried(|p| p.0, base.code.len());
        let index_h = carried(|p| p.1, head.code.len());
        // What the sender reads of each carried pair: trimmed ones' changes were worked out
        // with their trims; those shown whole (`also`) are read now.
        let also_read: Vec<((u32, u32), Vec<Change>)> = also
            .iter()
            .filter(|p| !kept.contains(p))
            .map(|&(b, h)| ((b, h), readable_changes(&mut self.session, b, h)))
            .collect();
        let sent: Vec<((u32, u32), &[Change])> = kept
            .iter()
            .zip(&trims)
            .map(|(&p, t)| (p, t.changes.as_slice()))
            .chain(also_read.iter().map(|(p, c)| (*p, c.as_slice())))
            .collect();
        // A trim that changes what the reader sees (besides explanations, which travel in the
        // note) is undone; the second round only carries whole what the first found wrong, so
        // two rounds settle it.
        let (rb, rh, explained) = loop {
            let rb = reduce_masked(base, |i, _| index_b[i].is_some(), &mb);
            let rh = reduce_masked(head, |i, _| index_h[i].is_some(), &mh);
            let mut wrong = Vec::new();
            let mut explained = Vec::new();
            {
                let mut check = DiffSession::new(&rb, &rh, self.session.options.clone());
                for &((b, h), changes) in &sent {
                    let (Some(nb), Some(nh)) = (index_b[b as usize], index_h[h as usize]) else {
                        continue;
                    };
                    let paired = check.matching().pairs.iter().any(|p| p.base == nb && p.head == nh);
                    let read = paired.then(|| readable_changes(&mut check, nb, nh));
                    match read {
                        Some(read) if read_alike(&read, changes) => {
                            explained.extend(differing(changes, &read, nb, nh));
                        }
                        _ if !(whole(&mb, b as usize, base) && whole(&mh, h as usize, head)) => {
                            wrong.push((b, h));
                        }
                        _ => {}
                    }
                }
            }
            if wrong.is_empty() {
                break (rb, rh, explained);
            }
            for (b, h) in wrong {
                mb[b as usize] = None;
                mh[h as usize] = None;
            }
        };
        let mut note = self.note(true, kept.len());
        let trimmed: Vec<TrimmedFunction> = self
            .report
            .functions
            .iter()
            .filter(|f| {
                !(whole(&mb, f.base_code as usize, base) && whole(&mh, f.head_code as usize, head))
            })
            .filter_map(|f| {
                Some(TrimmedFunction {
                    base_code: index_b.get(f.base_code as usize).copied().flatten()?,
                    head_code: index_h.get(f.head_code as usize).copied().flatten()?,
                    before: f.specialized_before,
                    after: f.specialized_after,
                })
            })
            .collect();
        note.trimmed = trimmed_wire(&trimmed);
        note.explained = explained;
        self.finish(rb, rh, note)
    }
}

/// The search for the most changed functions a link can keep under a cap: links grow with
/// every function kept, so all of them are tried first, then the count is bisected. Callers
/// encode the payload of [`Fitting::next`] and report its length with [`Fitting::tried`].
#[derive(Debug, Clone)]
pub struct Fitting {
    lo: usize,
    hi: usize,
    all: usize,
    cap: usize,
    started: bool,
}

impl Fitting {
    /// A search over 0..=`all` functions for payloads of at most `cap` characters.
    pub fn new(all: usize, cap: usize) -> Self {
        Fitting {
            lo: 0,
            hi: all,
            all,
            cap,
            started: false,
        }
    }

    /// The next count to try, or `None` when [`Fitting::best`] is the answer.
    pub fn next(&self) -> Option<usize> {
        if !self.started {
            return Some(self.all);
        }
        (self.lo + 1 < self.hi).then(|| (self.lo + self.hi) / 2)
    }

    /// Records that `n` functions made a payload of `len` characters.
    pub fn tried(&mut self, n: usize, len: usize) {
        let fits = len <= self.cap;
        if !self.started {
            self.started = true;
            if fits {
                (self.lo, self.hi) = (n, n);
            }
            return;
        }
        if fits {
            self.lo = n;
        } else {
            self.hi = n;
        }
    }

    /// The most functions found to fit (0 when none does).
    pub fn best(&self) -> usize {
        self.lo
    }
}

/// The link payload of the diff `report` of `base` and `head` (see the module docs), and the
/// note it carries.
#[cfg(feature = "share-flate")]
pub fn link_payload(
    base: &Dump,
    head: &Dump,
    report: &DiffReport,
    options: LinkOptions,
) -> (String, ShareNote) {
    // Redaction changes no code, so the trims are worked out and checked on the runs as they
    // are and only the payloads are redacted.
    let finish = |p: SharePayload| if options.redact { redacted(p) } else { p };
    let mut builder = LinkBuilder::new(base, head, report, &DiffOptions::default());
    let full = finish(builder.whole());
    let encoded = encode(&full);
    if encoded.len() <= TYPICAL_CHARS.min(options.cap) {
        return (encoded, full.note);
    }
    let mut fitting = Fitting::new(builder.wanted(), options.cap);
    let mut best: Option<(usize, String, ShareNote)> = None;
    while let Some(n) = fitting.next() {
        let p = finish(builder.trimmed(n, &[]));
        let encoded = encode(&p);
        fitting.tried(n, encoded.len());
        if encoded.len() <= options.cap {
            best = Some((n, encoded, p.note));
        }
    }
    match best {
        Some((n, encoded, note)) if n == fitting.best() => (encoded, note),
        _ => {
            let p = finish(builder.trimmed(fitting.best(), &[]));
            (encode(&p), p.note)
        }
    }
}

/// `payload` with its runs through [`redact`], and said so in its note.
pub fn redacted(mut payload: SharePayload) -> SharePayload {
    payload.base = payload.base.as_ref().map(redact);
    payload.head = payload.head.as_ref().map(redact);
    payload.note.redacted = true;
    payload
}

/// What a link with `note` leaves out, as a phrase after "the link" ("leaves out 3 functions
/// whose specialization changed (the least important, …); carries no source text …"), or `None`.
pub fn left_out_sentence(note: &ShareNote) -> Option<String> {
    let mut parts = Vec::new();
    if note.left_out > 0 {
        let n = note.left_out;
        parts.push(format!(
            "leaves out {n} function{} whose specialization changed (the least important, to stay short)",
            if n == 1 { "" } else { "s" }
        ));
    }
    if note.redacted {
        parts.push("carries no source text and short paths (redacted)".to_string());
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}
