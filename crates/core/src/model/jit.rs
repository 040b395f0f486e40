//! The JIT's tier-2 executors of a code object as the dump records them (`docs/dump-format.md`,
//! "executors"), and what the interpreter says of its JIT (`python.jit`). Plain types: the
//! harness reads them from CPython (`_opcode.get_executor`), the diff compares them.

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What `sys._jit` and `_opcode` say of the interpreter's JIT; each key absent when it says
/// nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct JitInfo {
    /// `_opcode.get_executor` exists: executors attached to bytecode can be read.
    #[serde(default)]
    pub executors_readable: bool,
    /// `sys._jit.is_available()`: the interpreter was built with the JIT (3.14+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub available: Option<bool>,
    /// `sys._jit.is_enabled()`: the JIT was on for the run (`PYTHON_JIT=1`) (3.14+).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
}

/// One tier-2 executor attached to a code object's bytecode (an `ENTER_EXECUTOR` there).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Executor {
    /// Byte offset where it is attached: a loop's `JUMP_BACKWARD`, or the `EXTENDED_ARG`
    /// before it (CPython attaches it where the whole instruction starts), or where a trace
    /// that ended early resumes.
    pub offset: u32,
    /// `is_valid()` when the run ended.
    pub valid: bool,
    /// Uops in the executor, exit stubs included.
    pub length: u32,
    /// The main trace, in order (the exit stubs are [`Executor::exits`]); names only when
    /// `exits` is `None`.
    pub uops: Vec<Uop>,
    /// The exit stubs after the main trace, or `None` when the harness could not tell the
    /// stubs from the trace (a layout it does not know).
    pub exits: Option<Vec<Exit>>,
}

/// One uop of a main trace: `[name, oparg, offset, exit, error]`, trailing `null`s left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Uop {
    /// Uop name (string index), e.g. `_GUARD_TYPE_VERSION`.
    pub name: u32,
    /// Its oparg.
    pub oparg: u32,
    /// Byte offset of the instruction of this code object it came from; `None` for uops of an
    /// inlined callee's frame and for uops the optimizer adds (`_MAKE_WARM`, `_JUMP_TO_TOP`).
    pub offset: Option<u32>,
    /// Index into [`Executor::exits`] of the stub this uop jumps to when its guard fails.
    pub exit: Option<u32>,
    /// Index into [`Executor::exits`] of the stub it jumps to on an error.
    pub error: Option<u32>,
}

/// One exit stub: `[kind, name, offset]`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Exit(
    /// `"side"` (leaves for tier 1 where a side executor may start), `"deopt"` (back to tier 1),
    /// `"error"` (unwinds after an error) or `"other"`.
    pub String,
    /// The stub's uop name (string index), e.g. `_EXIT_TRACE`.
    pub u32,
    /// Byte offset of the instruction tier 1 resumes at; `None` when it is in an inlined
    /// callee's code.
    pub Option<u32>,
);

impl Serialize for Uop {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tail = [self.offset, self.exit, self.error];
        let keep = tail.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
        let mut seq = s.serialize_seq(Some(2 + keep))?;
        seq.serialize_element(&self.name)?;
        seq.serialize_element(&self.oparg)?;
        for v in &tail[..keep] {
            seq.serialize_element(v)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Uop {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(UopVisitor)
    }
}

struct UopVisitor;

impl<'de> Visitor<'de> for UopVisitor {
    type Value = Uop;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a uop array [name, oparg, offset, exit, error]")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Uop, A::Error> {
        let name = seq.next_element::<u32>()?.ok_or_else(|| de::Error::invalid_length(0, &self))?;
        let oparg = seq.next_element::<u32>()?.unwrap_or(0);
        let offset = seq.next_element::<Option<u32>>()?.flatten();
        let exit = seq.next_element::<Option<u32>>()?.flatten();
        let error = seq.next_element::<Option<u32>>()?.flatten();
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(6, &self));
        }
        Ok(Uop { name, oparg, offset, exit, error })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uops_leave_out_trailing_nulls_and_read_back() {
        let u = Uop { name: 3, oparg: 0, offset: Some(18), exit: Some(2), error: None };
        let text = serde_json::to_string(&u).unwrap();
        assert_eq!(text, "[3,0,18,2]");
        assert_eq!(serde_json::from_str::<Uop>(&text).unwrap(), u);
        let bare = Uop { name: 4, oparg: 1, offset: None, exit: None, error: None };
        assert_eq!(serde_json::to_string(&bare).unwrap(), "[4,1]");
        assert_eq!(serde_json::from_str::<Uop>("[4,1]").unwrap(), bare);
        assert!(serde_json::from_str::<Uop>("[4,1,null,null,null,7]").is_err());
    }
}
