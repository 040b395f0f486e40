//! A builder of small synthetic dumps, for tests and examples: it fills the string and op
//! tables, offsets and counters, so a test states only opnames, operands, lines and counters.
//!
//! ```
//! use specdiff_core::format::DumpBuilder;
//! let mut b = DumpBuilder::new("3.12.1");
//! b.code("__main__", "f", 1)
//!     .ins("LOAD_FAST", "p", 2)
//!     .ins("LOAD_ATTR_SLOT", "x", 2)
//!     .finish();
//! let dump = b.build();
//! assert_eq!(dump.code.len(), 1);
//! ```

use std::collections::HashMap;

use crate::cpython::counters::VersionRules;
use crate::model::dump::*;

/// Families with an adaptive counter, for inferring an opname's family.
const ADAPTIVE_FAMILIES: &[&str] = &[
    "LOAD_ATTR", "LOAD_METHOD", "LOAD_GLOBAL", "LOAD_SUPER_ATTR", "STORE_ATTR", "BINARY_OP",
    "BINARY_SUBSCR", "STORE_SUBSCR", "COMPARE_OP", "CONTAINS_OP", "UNPACK_SEQUENCE", "FOR_ITER",
    "CALL", "PRECALL", "SEND", "TO_BOOL",
];

/// Builds a [`Dump`].
#[derive(Debug)]
pub struct DumpBuilder {
    dump: Dump,
    strings: HashMap<String, u32>,
    ops: HashMap<String, u32>,
    files: HashMap<String, u32>,
    rules: VersionRules,
}

/// Builds one code object; [`CodeBuilder::finish`] adds it.
#[derive(Debug)]
pub struct CodeBuilder<'a> {
    b: &'a mut DumpBuilder,
    code: CodeInfo,
    offset: u32,
}

impl DumpBuilder {
    /// A dump of CPython `version` (e.g. `"3.12.1"`) with no code.
    pub fn new(version: &str) -> Self {
        let parts: Vec<u32> = version.split('.').map(|p| p.parse().unwrap_or(0)).collect();
        let (major, minor, micro) = (parts[0], parts.get(1).copied().unwrap_or(0), parts.get(2).copied().unwrap_or(0));
        let dump = Dump {
            format: FORMAT_NAME.into(),
            version: FORMAT_VERSION,
            generator: "specdiff-core builder".into(),
            python: PythonInfo {
                version: version.into(),
                version_info: (major, minor, micro, "final".into(), 0),
                implementation: "cpython".into(),
                executable: "python3".into(),
                platform: "linux-x86_64".into(),
                pystats_build: false,
                paths: Default::default(),
                counter_backoff_bits: None,
                jit: None,
            },
            run: RunInfo {
                argv: vec!["prog.py".into()],
                target: Target { kind: "script".into(), value: "prog.py".into() },
                cwd: "/".into(),
                started: "2026-01-01T00:00:00Z".into(),
                duration_s: 1.0,
                exit_status: 0,
                exception: None,
                sampler: SamplerInfo { mode: "thread".into(), interval_ms: 1.0, samples: 0, note: None },
                filters: Filters { include: vec![], exclude: vec![], include_unrun: false },
            },
            strings: vec![String::new()],
            ops: vec![],
            files: vec![],
            code: vec![],
            classes: None,
            pystats: None,
        };
        let mut strings = HashMap::new();
        strings.insert(String::new(), 0);
        let rules = VersionRules::new(major, minor);
        DumpBuilder { dump, strings, ops: HashMap::new(), files: HashMap::new(), rules }
    }

    /// Sets the run's total number of samples.
    pub fn samples(&mut self, n: u64) -> &mut Self {
        self.dump.run.sampler.samples = n;
        self
    }

    /// Interns a string.
    pub fn string(&mut self, s: &str) -> u32 {
        if let Some(&i) = self.strings.get(s) {
            return i;
        }
        let i = self.dump.strings.len() as u32;
        self.dump.strings.push(s.into());
        self.strings.insert(s.into(), i);
        i
    }

    /// Registers an op with an explicit family, specialization flag and counter kind.
    pub fn op_explicit(&mut self, name: &str, family: &str, specialized: bool, counter: Option<CounterKind>) -> u32 {
        if let Some(&i) = self.ops.get(name) {
            return i;
        }
        let i = self.dump.ops.len() as u32;
        self.dump.ops.push(OpInfo { name: name.into(), family: family.into(), specialized, counter });
        self.ops.insert(name.into(), i);
        i
    }

    /// Registers an op, inferring its family (longest adaptive family prefix, or the part
    /// before `__` of a 3.11/3.12 superinstruction) and whether it is specialized.
    pub fn op(&mut self, name: &str) -> u32 {
        let fam = ADAPTIVE_FAMILIES.iter().filter(|f| name == **f || name.starts_with(&format!("{f}_"))).max_by_key(|f| f.len());
        let quick = name.ends_with("_ADAPTIVE") || name.ends_with("_QUICK");
        if name == "RESUME_CHECK" {
            // 3.13's specialized RESUME (no inline cache).
            return self.op_explicit(name, "RESUME", true, None);
        }
        match fam {
            // 3.12 `CALL_KW`-like names that are their own base stay generic.
            Some(f) => self.op_explicit(name, f, name != *f && !quick, Some(CounterKind::Adaptive)),
            None => {
                let family = name.split("__").next().unwrap_or(name);
                let family = family.strip_suffix("_QUICK").unwrap_or(family);
                self.op_explicit(name, family, false, None)
            }
        }
    }

    /// Starts a code object (a function unless the qualname says otherwise).
    pub fn code(&mut self, module: &str, qualname: &str, first_line: u32) -> CodeBuilder<'_> {
        let kind = match qualname.rsplit('.').next().unwrap_or(qualname) {
            "<module>" => CodeKind::Module,
            "<lambda>" => CodeKind::Lambda,
            "<genexpr>" | "<listcomp>" | "<dictcomp>" | "<setcomp>" => CodeKind::Comprehension,
            _ => CodeKind::Function,
        };
        let path = format!("{}.py", module.replace('.', "/"));
        let file = match self.files.get(&path) {
            Some(&f) => f,
            None => {
                let f = self.dump.files.len() as u32;
                self.dump.files.push(FileInfo { path: path.clone(), module: Some(module.into()), source: vec![] });
                self.files.insert(path, f);
                f
            }
        };
        let name = qualname.rsplit('.').next().unwrap_or(qualname);
        let code = CodeInfo {
            file,
            module: self.string(module),
            qualname: self.string(qualname),
            name: self.string(name),
            first_line,
            kind,
            parent: None,
            ran: true,
            owner: None,
            made_at: None,
            body: None,
            samples: (0, 0),
            import_samples: 0,
            line_samples: vec![],
            instructions: vec![],
            executors: None,
            inlined: None,
        };
        CodeBuilder { b: self, code, offset: 0 }
    }

    /// Sets the source text of `line` of `module`'s file (lines must be added in order).
    pub fn source(&mut self, module: &str, line: u32, text: &str) -> &mut Self {
        let path = format!("{}.py", module.replace('.', "/"));
        let s = self.string(text);
        let Some(&f) = self.files.get(&path) else { return self };
        let runs = &mut self.dump.files[f as usize].source;
        match runs.last_mut() {
            Some((first, lines)) if *first + lines.len() as u32 == line => lines.push(s),
            _ => runs.push((line, vec![s])),
        }
        self
    }

    /// The dump.
    pub fn build(self) -> Dump {
        self.dump
    }
}

impl CodeBuilder<'_> {
    /// Appends an instruction with its default counter: a fresh specialization
    /// (no misses) for specialized ops, a warming counter for generic adaptive ops.
    pub fn ins(mut self, opname: &str, argrepr: &str, line: u32) -> Self {
        let op = self.b.op(opname);
        let info = self.b.dump.ops[op as usize].clone();
        let word = match (info.counter, info.specialized) {
            (Some(CounterKind::Adaptive), true) => Some(self.b.rules.specialized_start()),
            (Some(CounterKind::Adaptive), false) if self.b.rules.version <= (3, 11) => Some(0),
            (Some(CounterKind::Adaptive), false) => Some(1),
            _ => None,
        };
        // As `dis` gives them: 3.14's `LOAD_SMALL_INT` has its value as `arg` and no argrepr.
        let (argrepr, arg) = match opname {
            "LOAD_SMALL_INT" => ("", argrepr.parse().ok()),
            _ => (argrepr, (argrepr.is_empty() && opname.starts_with("CALL")).then_some(1)),
        };
        let argrepr_i = self.b.string(argrepr);
        let ins = Instruction {
            offset: self.offset,
            op,
            arg,
            argrepr: argrepr_i,
            line: Some(line),
            pos: None,
            cache: word.map(|w| vec![w]).unwrap_or_default(),
            counter: word.map(|w| self.b.rules.layout.split(w)),
            churn: None,
        };
        self.offset += 2 + 2 * ins.cache.len() as u32;
        self.code.instructions.push(ins);
        self
    }

    /// Sets the raw counter word of the last instruction.
    pub fn word(mut self, word: u16) -> Self {
        let last = self.code.instructions.last_mut().expect("an instruction first");
        last.cache = vec![word];
        last.counter = Some(self.b.rules.layout.split(word));
        self
    }

    /// Sets the last instruction's counter from misses (specialized) or failed attempts
    /// (generic), with the version's rules.
    pub fn misses(self, misses: u16) -> Self {
        let word = match self.b.rules.model {
            crate::cpython::counters::CounterModel::Py311 => 53u16.saturating_sub(misses),
            crate::cpython::counters::CounterModel::Py312 => self.b.rules.layout.join((52u16.saturating_sub(misses), 0)),
        };
        self.word(word)
    }

    /// Sets the last (generic) instruction's backoff.
    pub fn backoff(self, backoff: u8) -> Self {
        let word = self.b.rules.layout.join(((1u16 << backoff) - 1, backoff));
        self.word(word)
    }

    /// Records churn on the last instruction.
    pub fn churn(mut self, flips: u32, seen: &[&str]) -> Self {
        let seen = seen.iter().map(|n| self.b.op(n)).collect();
        self.code.instructions.last_mut().expect("an instruction first").churn = Some(Churn { flips, seen });
        self
    }

    /// Sets the code object's samples and per-line samples.
    pub fn samples(mut self, total: u64, lines: &[(u32, u64)]) -> Self {
        self.code.samples = (lines.iter().map(|l| l.1).sum(), total);
        self.code.line_samples = lines.to_vec();
        self
    }

    /// Sets the code kind.
    pub fn kind(mut self, kind: CodeKind) -> Self {
        self.code.kind = kind;
        self
    }

    /// Sets the parent code object.
    pub fn parent(mut self, parent: u32) -> Self {
        self.code.parent = Some(parent);
        self
    }

    /// Adds the code object; returns its index.
    pub fn finish(self) -> u32 {
        let i = self.b.dump.code.len() as u32;
        self.b.dump.code.push(self.code);
        i
    }
}
