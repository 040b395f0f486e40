//! How to read an instruction's adaptive counter, per CPython version.
//!
//! This module owns the empirical knowledge recorded in `docs/engine.md` ("Counter
//! semantics"): what the first inline cache word of a specializable instruction means in 3.11
//! and in 3.12+, measured on CPython 3.11.7, 3.12.1, 3.13.0, 3.14.8 and 3.15.0 (native builds;
//! `crates/cli/tests/counter_semantics.rs` measures them again on every run).
//!
//! Summary of the measurements (word = raw 16-bit cache word; `(value, backoff)` is the word
//! split by the version's [`CounterLayout`]: 12/4 bits on 3.11–3.14, 13/3 on 3.15):
//!
//! | | 3.11 | 3.12–3.14 | 3.15 |
//! |---|---|---|---|
//! | generic, never executed | word 0 (also before quickening) | word 17 = (1, 1) | word 9 = (1, 1) |
//! | freshly specialized | word 53 | word 832 = (52, 0) | word 416 = (52, 0) |
//! | one miss | word − 1 (the whole word) | value − 1 | value − 1 |
//! | after the 53rd miss | `*_ADAPTIVE`, word 501 = (31, 5) | re-specializes (or generic at (0, 1)) | the same |
//! | failed attempt | backoff + 1, value = 2^backoff − 2 | backoff + 1, value = 2^backoff − 2 | backoff + 1, value ≈ 2^(2·backoff − 1) (5, 29, 125, 507, 2051: a little jitter) |
//! | smallest backoff proving a failed attempt | 1 | 2 | 2 |
//!
//! 3.15 also gives `RESUME` a counter; a generic `RESUME` starts at word 65526 and becomes
//! `RESUME_CHECK` (specialized, (52, 0)) on its first execution: a generic one is read as cold.
//!
//! Hits never restore a miss counter (measured: 5 misses then 5 hits leave it at 5 misses).
//!
//! One more 3.11 fact: `BINARY_OP` with an operator it has no specialization for (`%`, `>>`,
//! `&`, `|`, `^`, `/`, `//`, `**`, `<<`, `@`) and `COMPARE_OP` not followed by a conditional
//! jump are turned back into the plain base instruction at their first specialization attempt
//! and never tried again (`specialize.c`, without `Py_STATS`): the counter stays 0 however
//! often they run. In quickened code that is [`CounterState::GaveUp`], not [`CounterState::Cold`]
//! (measured: a `%` site run 120,000 times keeps word 0 as plain `BINARY_OP`).

use serde::{Deserialize, Serialize};

use crate::model::dump::{CounterKind, CounterLayout, Dump, Instruction, OpInfo};

/// Which counter layout and rules a CPython version uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CounterModel {
    /// CPython 3.11: a raw miss counter on specialized forms, `*_ADAPTIVE` generic forms.
    Py311,
    /// CPython 3.12 and later: one backoff counter layout for warm-up and cool-down.
    Py312,
}

/// The counter rules of one dump's interpreter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct VersionRules {
    /// `(major, minor)` of the interpreter.
    pub version: (u32, u32),
    /// The rules that apply.
    pub model: CounterModel,
    /// True when the rules were not measured on this version but assumed (3.16+: the rules of
    /// 3.12–3.15; `tests/counter_semantics.rs` measures 3.11–3.15).
    pub assumed: bool,
    /// How the counter word splits into value and backoff.
    pub layout: CounterLayout,
}

/// The decoded meaning of one instruction's adaptive counter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CounterState {
    /// A generic instruction whose counter is at its initial value: it has not executed since
    /// quickening (or, in 3.11, the code has not been quickened yet).
    Cold,
    /// A generic instruction counting down to its next specialization attempt, with no
    /// evidence of a failed attempt.
    Warming,
    /// A generic instruction whose backoff shows failed specialization attempts.
    BackedOff {
        /// Failed attempts the backoff proves (a lower bound; in 3.11 a specialization dropped
        /// after 53 misses also shows as 5).
        failures: u8,
    },
    /// 3.11 only: a `BINARY_OP`/`COMPARE_OP` turned back into the plain base instruction in
    /// quickened code, because 3.11 has no specialization for its operator (or, for a compare,
    /// its context): it runs generic for good, and its counter says nothing about how often.
    GaveUp,
    /// A specialized instruction.
    Specialized {
        /// Misses since it was (last) specialized.
        misses: u16,
    },
}

/// One instruction's counter: the raw fields and what they mean.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counter {
    /// `word >> 4`.
    pub value: u16,
    /// `word & 15`.
    pub backoff: u8,
    /// The interpretation.
    #[serde(flatten)]
    pub state: CounterState,
}

impl Counter {
    /// Misses since specialization (0 unless specialized).
    pub fn misses(&self) -> u16 {
        match self.state {
            CounterState::Specialized { misses } => misses,
            _ => 0,
        }
    }

    /// Failed specialization attempts evidenced (0 unless backed off).
    pub fn failures(&self) -> u8 {
        match self.state {
            CounterState::BackedOff { failures } => failures,
            _ => 0,
        }
    }

    /// True when the counter shows the instruction never ran since quickening.
    pub fn is_cold(&self) -> bool {
        self.state == CounterState::Cold
    }

    /// True when the counter proves the instruction ran more than once since quickening:
    /// anything but cold, or (3.12+) warming after its one first execution.
    pub fn ran(&self) -> bool {
        !matches!(self.state, CounterState::Cold | CounterState::Warming)
    }

    /// A lower bound on the executions a generic instruction's backoff proves: each failed
    /// attempt at backoff `b` is followed by about 2^b executions before the next, so `f`
    /// failures took at least 2^f executions (3.11 and 3.12+ alike; 0 when none failed).
    pub fn executions_proven(&self) -> u64 {
        match self.failures() {
            0 => 0,
            f => 1u64 << f.min(16),
        }
    }
}

impl VersionRules {
    /// The rules for CPython `major.minor`.
    pub fn new(major: u32, minor: u32) -> Self {
        let version = (major, minor);
        let model = if version <= (3, 11) { CounterModel::Py311 } else { CounterModel::Py312 };
        let assumed = !((3, 11)..=NEWEST_MEASURED).contains(&version);
        VersionRules { version, model, assumed, layout: CounterLayout::of_version(version) }
    }

    /// The rules for the interpreter that wrote `dump`, with the counter layout the harness
    /// measured on it when the dump says.
    pub fn of(dump: &Dump) -> Self {
        let (major, minor) = dump.python.minor_version();
        VersionRules { layout: dump.python.counter_layout(), ..Self::new(major, minor) }
    }

    /// The raw word of a freshly specialized instruction ("no misses since specialized").
    pub fn specialized_start(self) -> u16 {
        match self.model {
            CounterModel::Py311 => 53,
            CounterModel::Py312 => self.layout.join((52, 0)),
        }
    }

    /// The raw word of a generic instruction that has not executed since quickening.
    pub fn initial_word(self) -> u16 {
        match self.model {
            CounterModel::Py311 => 0,
            CounterModel::Py312 => self.layout.join((1, 1)),
        }
    }

    /// The backoff of a generic instruction before any failed attempt.
    pub fn initial_backoff(self) -> u8 {
        match self.model {
            CounterModel::Py311 => 0,
            CounterModel::Py312 => 1,
        }
    }

    /// The backoff of an instruction that keeps failing (the maximum): 12 where the field has
    /// four bits, else the largest the field holds.
    pub fn max_backoff(self) -> u8 {
        12.min((1u16 << self.layout.backoff_bits) as u8 - 1)
    }

    /// Misses since specialization shown by the raw word of a specialized instruction.
    pub fn misses(self, word: u16) -> u16 {
        match self.model {
            // 3.11 decrements the whole word per miss, from 53.
            CounterModel::Py311 => 53u16.saturating_sub(word),
            // 3.12+ decrements the value field per miss, from 52.
            CounterModel::Py312 => 52u16.saturating_sub(self.layout.split(word).0),
        }
    }

    /// Failed attempts proven by the backoff of a generic instruction.
    pub fn failures(self, backoff: u8) -> u8 {
        match self.model {
            // Quickening leaves backoff 0; each failure adds one.
            CounterModel::Py311 => backoff,
            // Warm-up starts at backoff 1, and a deopt followed by one failure also lands on 1.
            CounterModel::Py312 => backoff.saturating_sub(1),
        }
    }

    /// Reads the adaptive counter of `ins` (whose op is `op`); `None` when it has none. A
    /// 3.11 instruction that may have given up (see [`CounterState::GaveUp`]) reads as cold;
    /// [`Self::read_in`] tells them apart when it knows whether the code was quickened.
    pub fn read(self, op: &OpInfo, ins: &Instruction) -> Option<Counter> {
        self.read_in(op, ins, false)
    }

    /// True when this version turns `op` back into its base instruction for good on an
    /// unspecializable operand instead of backing off (3.11 `BINARY_OP`, `COMPARE_OP`).
    pub fn gives_up(self, op: &OpInfo) -> bool {
        self.model == CounterModel::Py311
            && !op.specialized
            && op.name == op.family
            && matches!(op.family.as_str(), "BINARY_OP" | "COMPARE_OP")
    }

    /// [`Self::read`], knowing whether the instruction's code object was quickened (3.11: it
    /// holds an `*_ADAPTIVE` or specialized instruction). In quickened 3.11 code a plain
    /// `BINARY_OP`/`COMPARE_OP` at word 0 has given up, it is not cold.
    pub fn read_in(self, op: &OpInfo, ins: &Instruction, quickened: bool) -> Option<Counter> {
        if op.counter != Some(CounterKind::Adaptive) {
            return None;
        }
        let word = self.raw_word(ins)?;
        let (value, backoff) = self.layout.split(word);
        let state = if op.specialized {
            CounterState::Specialized { misses: self.misses(word) }
        } else if op.family == "RESUME" {
            // 3.15: a RESUME that has run is RESUME_CHECK; its generic counter is no backoff.
            CounterState::Cold
        } else if word == self.initial_word() && quickened && self.gives_up(op) {
            CounterState::GaveUp
        } else if word == self.initial_word() {
            CounterState::Cold
        } else {
            match self.failures(backoff) {
                0 => CounterState::Warming,
                failures => CounterState::BackedOff { failures },
            }
        };
        Some(Counter { value, backoff, state })
    }

    /// A label such as `"3.12"`.
    pub fn label(self) -> String {
        format!("{}.{}", self.version.0, self.version.1)
    }

    /// The first inline cache word of an instruction: element 6 when present, else rebuilt
    /// from the decoded counter (element 7) with this version's layout.
    pub(crate) fn raw_word(self, ins: &Instruction) -> Option<u16> {
        ins.cache.first().copied().or_else(|| ins.counter.map(|c| self.layout.join(c)))
    }
}

/// The newest CPython whose counter rules were measured (`tests/counter_semantics.rs`).
pub(crate) const NEWEST_MEASURED: (u32, u32) = (3, 15);

#[cfg(test)]
mod tests {
    use super::*;

    fn op(specialized: bool) -> OpInfo {
        OpInfo {
            name: if specialized { "LOAD_ATTR_SLOT".into() } else { "LOAD_ATTR".into() },
            family: "LOAD_ATTR".into(),
            specialized,
            counter: Some(CounterKind::Adaptive),
        }
    }

    fn ins(word: u16) -> Instruction {
        Instruction {
            offset: 0,
            op: 0,
            arg: None,
            argrepr: 0,
            line: None,
            pos: None,
            cache: vec![word],
            counter: Some((word >> 4, (word & 15) as u8)),
            churn: None,
        }
    }

    fn state(rules: VersionRules, specialized: bool, word: u16) -> CounterState {
        rules.read(&op(specialized), &ins(word)).unwrap().state
    }

    #[test]
    fn py311_measured_values() {
        let r = VersionRules::new(3, 11);
        assert_eq!(state(r, true, 53), CounterState::Specialized { misses: 0 });
        assert_eq!(state(r, true, 48), CounterState::Specialized { misses: 5 });
        assert_eq!(state(r, true, 1), CounterState::Specialized { misses: 52 });
        assert_eq!(state(r, false, 0), CounterState::Cold);
        // First failed attempt right after quickening: (0, 1); then (2, 2), (6, 3) ...
        assert_eq!(state(r, false, 1), CounterState::BackedOff { failures: 1 });
        assert_eq!(state(r, false, 34), CounterState::BackedOff { failures: 2 });
        assert_eq!(state(r, false, 65516), CounterState::BackedOff { failures: 12 });
    }

    #[test]
    fn py312_measured_values() {
        for minor in [12, 13, 14] {
            let r = VersionRules::new(3, minor);
            assert_eq!(state(r, true, 832), CounterState::Specialized { misses: 0 });
            assert_eq!(state(r, true, 752), CounterState::Specialized { misses: 5 });
            assert_eq!(state(r, true, 0), CounterState::Specialized { misses: 52 });
            assert_eq!(state(r, false, 17), CounterState::Cold);
            assert_eq!(state(r, false, 1), CounterState::Warming);
            assert_eq!(state(r, false, 34), CounterState::BackedOff { failures: 1 });
            assert_eq!(state(r, false, 7436), CounterState::BackedOff { failures: 11 });
        }
        assert!(VersionRules::new(3, 16).assumed);
        assert!(!VersionRules::new(3, 15).assumed);
        assert!(!VersionRules::new(3, 11).assumed);
    }

    #[test]
    fn py315_measured_values() {
        // crates/cli/tests/programs/counter_probe/expected-3.15.txt, on 3.15.0.
        let r = VersionRules::new(3, 15);
        let ins3 = |word: u16| Instruction { counter: Some(r.layout.split(word)), ..ins(word) };
        let state = |specialized: bool, word: u16| r.read(&op(specialized), &ins3(word)).unwrap().state;
        assert_eq!(state(true, 416), CounterState::Specialized { misses: 0 });
        assert_eq!(state(true, 408), CounterState::Specialized { misses: 1 });
        assert_eq!(state(true, 0), CounterState::Specialized { misses: 52 });
        assert_eq!(state(false, 9), CounterState::Cold);
        assert_eq!(state(false, 1), CounterState::Warming);
        assert_eq!(state(false, 42), CounterState::BackedOff { failures: 1 });
        assert_eq!(state(false, 235), CounterState::BackedOff { failures: 2 });
        assert_eq!(state(false, 16414), CounterState::BackedOff { failures: 5 });
        // Read with 3.14's 12/4 split, a fresh 3.15 specialization would show 26 misses.
        assert_eq!(VersionRules::new(3, 14).misses(416), 26);
        let mut resume = op(false);
        (resume.name, resume.family) = ("RESUME".into(), "RESUME".into());
        assert_eq!(r.read(&resume, &ins3(65526)).unwrap().state, CounterState::Cold);
    }

    #[test]
    fn py311_plain_binary_op_in_quickened_code_gave_up() {
        let r = VersionRules::new(3, 11);
        let mut o = op(false);
        (o.name, o.family) = ("BINARY_OP".into(), "BINARY_OP".into());
        assert_eq!(r.read_in(&o, &ins(0), true).unwrap().state, CounterState::GaveUp);
        assert_eq!(r.read_in(&o, &ins(0), false).unwrap().state, CounterState::Cold);
        o.name = "BINARY_OP_ADAPTIVE".into();
        assert_eq!(r.read_in(&o, &ins(0), true).unwrap().state, CounterState::Cold);
        (o.name, o.family) = ("BINARY_OP".into(), "BINARY_OP".into());
        assert_eq!(VersionRules::new(3, 12).read_in(&o, &ins(17), true).unwrap().state, CounterState::Cold);
    }

    #[test]
    fn no_counter_without_adaptive_kind() {
        let mut o = op(false);
        o.counter = Some(CounterKind::Jit);
        assert!(VersionRules::new(3, 13).read(&o, &ins(260)).is_none());
        let mut i = ins(5);
        i.cache.clear();
        i.counter = Some((3, 5));
        assert_eq!(VersionRules::new(3, 13).raw_word(&i), Some(53));
        assert_eq!(VersionRules::new(3, 15).raw_word(&i), Some(29));
    }
}
