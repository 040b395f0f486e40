//! [`SiteView`]: one side of an aligned site, with what the classifier and the explanation
//! rules read from it (its specialization, counter, line, hotness, churn, source).

use crate::cpython::callee::called_name;
use crate::cpython::counters::{Counter, VersionRules};
use crate::cpython::normalize::{normalize_argrepr, Site};
use crate::model::dump::{CodeInfo, CounterKind, Dump, Instruction, OpInfo};

use super::change::{churn_info, ChurnInfo};

/// One side of an aligned site, with what the classifier reads from it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct SiteView<'a> {
    /// The dump.
    pub dump: &'a Dump,
    /// The code object.
    pub code: &'a CodeInfo,
    /// The site.
    pub site: Site,
    /// Counter rules of the dump's interpreter.
    pub rules: VersionRules,
}

impl<'a> SiteView<'a> {
    /// A trace ran one of the site's instructions: a uop of an executor attached to this code
    /// came from it, or a trace of another code object ran it in the frame of a call it
    /// inlined (the dump's `inlined`).
    pub(crate) fn in_trace(&self) -> bool {
        let ins = &self.code.instructions;
        let (Some(first), Some(last)) = (ins.get(self.site.start as usize), ins.get(self.site.end.saturating_sub(1) as usize)) else {
            return false;
        };
        let within = |o: u32| o >= first.offset && o <= last.offset;
        let own = self.code.executors.iter().flatten().flat_map(|e| &e.uops).filter_map(|u| u.offset);
        let inlined = self.code.inlined.iter().flatten().copied();
        own.chain(inlined).any(within)
    }
    /// The instruction standing for the site's specialization.
    pub(crate) fn spec(&self) -> &'a Instruction {
        &self.code.instructions[self.site.spec as usize]
    }
    /// The instruction the key describes.
    pub(crate) fn primary(&self) -> &'a Instruction {
        &self.code.instructions[self.site.primary as usize]
    }
    /// The op of [`Self::spec`].
    pub(crate) fn op(&self) -> &'a OpInfo {
        self.dump.op(self.spec())
    }
    /// Has an adaptive counter.
    pub(crate) fn is_site(&self) -> bool {
        self.op().counter == Some(CounterKind::Adaptive)
            || self.dump.op(self.primary()).counter == Some(CounterKind::Adaptive)
    }
    /// Is specialized.
    pub(crate) fn specialized(&self) -> bool {
        self.op().specialized
    }
    /// The counter of the specialization instruction, read with this side's version rules
    /// (3.11: a plain `BINARY_OP`/`COMPARE_OP` in quickened code has given up, not cold).
    pub(crate) fn counter(&self) -> Option<Counter> {
        let op = self.op();
        let quickened = self.rules.gives_up(op) && self.quickened();
        self.rules.read_in(op, self.spec(), quickened)
    }
    /// 3.11: the code object was quickened (holds an `*_ADAPTIVE` or specialized instruction).
    fn quickened(&self) -> bool {
        self.code.instructions.iter().any(|i| {
            let o = self.dump.op(i);
            o.specialized || o.name.ends_with("_ADAPTIVE")
        })
    }
    /// The site's family as the dump spells it (the primary's).
    pub(crate) fn family(&self) -> &'a str {
        &self.dump.op(self.primary()).family
    }
    /// Source line.
    pub(crate) fn line(&self) -> Option<u32> {
        self.spec().line.or(self.primary().line)
    }
    /// The trimmed source text of the site's line, when the dump has it.
    pub(crate) fn source_text(&self) -> Option<&'a str> {
        self.line().and_then(|l| self.dump.source_line(self.code.file, l)).map(str::trim)
    }
    /// The instruction right before the site, if any.
    pub(crate) fn before(&self) -> Option<&'a Instruction> {
        self.site.start.checked_sub(1).and_then(|i| self.code.instructions.get(i as usize))
    }
    /// The calls (of any call family) on the line of the site's specialization.
    pub(crate) fn calls_on_line(&self) -> usize {
        let line = self.spec().line;
        self.code.instructions.iter().filter(|i| i.line == line && self.is_call(i)).count()
    }
    /// `i` (an instruction of this code) is a call of any form.
    pub(crate) fn is_call(&self, i: &Instruction) -> bool {
        matches!(self.dump.op(i).family.as_str(), "CALL" | "CALL_KW" | "PRECALL" | "CALL_FUNCTION_EX")
    }
    /// Sampler hits on the site's line.
    pub(crate) fn hotness(&self) -> u64 {
        let Some(line) = self.line() else { return 0 };
        let ls = &self.code.line_samples;
        ls.binary_search_by_key(&line, |&(l, _)| l).map(|i| ls[i].1).unwrap_or(0)
    }
    /// Churn recorded on any instruction of the site (the largest).
    pub(crate) fn churn(&self) -> Option<ChurnInfo> {
        let ins = &self.code.instructions[self.site.start as usize..self.site.end as usize];
        let c = ins.iter().filter_map(|i| i.churn.as_ref()).max_by_key(|c| c.flips)?;
        Some(churn_info(self.dump, c))
    }
    /// The normalized operand.
    pub(crate) fn operand(&self) -> Option<String> {
        let p = self.primary();
        (p.argrepr != 0).then(|| normalize_argrepr(self.dump.str(p.argrepr))).filter(|s| !s.is_empty())
    }
    /// The name the site calls, for a call whose code shows one (`cpython/callee.rs`).
    pub(crate) fn callee_name(&self) -> Option<&'a str> {
        (self.site.callee != 0).then(|| called_name(self.dump, self.code, self.site.primary as usize)).flatten()
    }
    /// The source text of the site's line.
    pub(crate) fn source(&self) -> Option<String> {
        self.dump.source_line(self.code.file, self.line()?).map(str::to_string)
    }
}

/// Whether the two sites' source lines are recognisably one statement: the same text, or at
/// least half their identifiers and literals shared (Jaccard). Alignment pairs sites by their
/// keys, so in rewritten code it can pair two different statements (issue 29: packaging's
/// `canonicalize_version`, dateutil's `_parse_isotime`); rules that read a change of the line as
/// the cause need it to be the same statement. `false` without both lines.
pub(crate) fn same_statement(b: &SiteView, h: &SiteView) -> bool {
    let (Some(tb), Some(th)) = (b.source_text(), h.source_text()) else { return false };
    if tb == th {
        return true;
    }
    let words = |t: &str| -> Vec<String> {
        let mut w: Vec<String> = t.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).map(str::to_string).collect();
        w.sort();
        w.dedup();
        w
    };
    let (wb, wh) = (words(tb), words(th));
    let common = wb.iter().filter(|w| wh.contains(w)).count();
    let all = wb.len() + wh.len() - common;
    all > 0 && common * 2 >= all
}
