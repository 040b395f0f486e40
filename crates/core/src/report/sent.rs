//! The sender's explanations, which a share link carries (`ShareNote::explained`). An explanation can rest on code
//! a reduced link leaves out (the class body that defines the attribute, the callee, the
//! module that writes its globals), so the receiver, explaining the kept code again, could
//! word a change differently or not explain it at all. Before a reduced link travels the
//! sender diffs the link's dumps as the receiver will, and for each change that reads
//! differently sends its own cause and sentence; the receiver's [`super::DiffSession`] puts
//! them back ([`apply`], given by [`super::DiffSession::with_sent`]), so a shared view
//! explains what the sender's did.

use serde::{Deserialize, Deserializer, Serialize};

use crate::engine::classify::{Cause, Change, ChangeKind};

/// One change whose explanation the link carries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentExplanation {
    /// The base code object's index in the link's base dump.
    #[serde(rename = "b")]
    pub base_code: u32,
    /// The head code object's index in the link's head dump.
    #[serde(rename = "h")]
    pub head_code: u32,
    /// Which change of the pair: the k-th, in row order, of those that are not `unchanged`.
    #[serde(rename = "k")]
    pub change: u32,
    /// The rule that explained it (a cause this specdiff does not know reads as none).
    #[serde(default, deserialize_with = "known_cause")]
    pub cause: Option<Cause>,
    /// The sentence, evidence included (`None`: the sender had none).
    #[serde(rename = "why", default)]
    pub explanation: Option<String>,
}

fn known_cause<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Cause>, D::Error> {
    // Read as text first (not as a `serde_json::Value`, whose reader is ~5 KB of the
    // viewer's wasm), then as one of this specdiff's causes.
    use serde::de::value::{Error, StrDeserializer};
    let name = Option::<String>::deserialize(d)?;
    Ok(name.and_then(|n| Cause::deserialize(StrDeserializer::<Error>::new(&n)).ok()))
}

/// True when `a` and `b` are the same changes, explanations aside.
pub(crate) fn read_alike(a: &[Change], b: &[Change]) -> bool {
    let bare = |c: &Change| Change { explanation: None, cause: None, ..c.clone() };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| bare(x) == bare(y))
}

/// The explanations of `sent` (the sender's changes of a pair) that `read` (the same changes
/// as the link's dumps give them, [`read_alike`]) words differently, for the pair `b`, `h`
/// of the link's dumps.
pub(crate) fn differing(sent: &[Change], read: &[Change], b: u32, h: u32) -> Vec<SentExplanation> {
    let shown = |c: &&Change| c.kind != ChangeKind::Unchanged;
    sent.iter()
        .filter(shown)
        .zip(read.iter().filter(shown))
        .enumerate()
        .filter(|(_, (s, r))| (&s.cause, &s.explanation) != (&r.cause, &r.explanation))
        .map(|(k, (s, _))| SentExplanation {
            base_code: b,
            head_code: h,
            change: k as u32,
            cause: s.cause,
            explanation: s.explanation.clone(),
        })
        .collect()
}

/// Puts the explanations `sent` for the pair `b`, `h` back into its `changes` (which may
/// include `unchanged` ones). Entries past the pair's changes are ignored.
pub(crate) fn apply(changes: &mut [Change], sent: &[SentExplanation], b: u32, h: u32) {
    let mut shown: Vec<&mut Change> = changes.iter_mut().filter(|c| c.kind != ChangeKind::Unchanged).collect();
    for s in sent.iter().filter(|s| (s.base_code, s.head_code) == (b, h)) {
        if let Some(c) = shown.get_mut(s.change as usize) {
            c.cause = s.cause;
            c.explanation.clone_from(&s.explanation);
        }
    }
}
