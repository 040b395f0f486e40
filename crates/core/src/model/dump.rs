//! The dump format (version 1, described in `docs/dump-format.md`) as Rust types. The reader
//! and writer are in [`crate::format::dump`]; reading checks everything a later stage relies on
//! (types, table indices), so the rest of the crate can index the tables without re-checking.

use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::model::stats::Stats;

/// The value of the top-level `format` key.
pub const FORMAT_NAME: &str = "specdiff-dump";
/// The newest format version this crate reads and the one it writes.
pub const FORMAT_VERSION: u64 = 1;

/// One run's adaptive bytecode: the whole dump file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Dump {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// Format version, at most [`FORMAT_VERSION`].
    pub version: u64,
    /// The program that wrote the dump, e.g. `"specdiff 0.1.0"`.
    pub generator: String,
    /// The interpreter.
    pub python: PythonInfo,
    /// The run.
    pub run: RunInfo,
    /// The string table; index 0 is `""`.
    pub strings: Vec<String>,
    /// The opname table.
    pub ops: Vec<OpInfo>,
    /// Source files.
    pub files: Vec<FileInfo>,
    /// Code objects.
    pub code: Vec<CodeInfo>,
    /// The program's classes whose attribute lookup finds a value of a mutable type
    /// (`docs/dump-format.md`, "classes"); `None` in dumps written before the table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub classes: Option<Vec<ClassInfo>>,
    /// Specialization statistics, when the interpreter collected them.
    #[serde(default)]
    pub pystats: Option<Stats>,
}

/// A class of the program some of whose attributes, found through its MRO, hold a value of a
/// mutable type (an instance of a Python class, or a class made by a Python metaclass), which
/// CPython never specializes an attribute load of; or (3.13+) whose instances have a dict
/// without inline values. Classes are named `module:qualname`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassInfo {
    /// The class.
    pub class: String,
    /// Its MRO after itself, without `object`.
    #[serde(default)]
    pub mro: Vec<String>,
    /// Its metaclass's MRO when the metaclass is not `type`, without `type` and `object`.
    #[serde(default)]
    pub meta: Vec<String>,
    /// `(attribute, the type of its value, whether the value is a class)`, by attribute: a
    /// class attribute holding a class made by a Python metaclass has that metaclass as type.
    #[serde(default)]
    pub mutable: Vec<(String, String, bool)>,
    /// 3.13+: its instances have a `__dict__` but no inline values.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub dict_without_values: bool,
    /// With `dict_without_values`: the first class of its MRO that defines `__slots__`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slots_in: Option<String>,
}

/// The interpreter that produced a dump.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PythonInfo {
    /// `platform.python_version()`, e.g. `"3.12.1"`.
    pub version: String,
    /// `sys.version_info` as `[major, minor, micro, releaselevel, serial]`.
    pub version_info: (u32, u32, u32, String, u32),
    /// `sys.implementation.name`.
    pub implementation: String,
    /// `sys.executable`.
    pub executable: String,
    /// `sysconfig.get_platform()`.
    pub platform: String,
    /// Configured with `--enable-pystats`.
    pub pystats_build: bool,
    /// Where the interpreter keeps the standard library and installed packages (absent in
    /// dumps of specdiff 0.1, which reports then recognize by their folder names).
    #[serde(default, skip_serializing_if = "InstallPaths::is_empty")]
    pub paths: InstallPaths,
    /// How many low bits of an adaptive counter word are its backoff, as the harness measured
    /// it on the interpreter at start-up (absent in older dumps: see
    /// [`CounterLayout::of_version`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_backoff_bits: Option<u8>,
    /// What the interpreter says of its JIT (3.13+ with `ENTER_EXECUTOR`); `None` in older
    /// dumps and on interpreters without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jit: Option<crate::model::jit::JitInfo>,
}

/// How an adaptive counter's 16-bit word splits into a countdown `value` (high bits) and a
/// `backoff` exponent (low bits): 12/4 on CPython 3.11–3.14, 13/3 on 3.15 (measured:
/// `crates/cli/tests/programs/counter_probe`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CounterLayout {
    /// Low bits holding the backoff (1–8).
    pub backoff_bits: u8,
}

impl CounterLayout {
    /// The 12/4 split of CPython 3.11–3.14.
    pub const SPLIT_12_4: CounterLayout = CounterLayout { backoff_bits: 4 };

    /// The split CPython `major.minor` uses when the dump does not say: 13/3 from 3.15 on.
    pub fn of_version(version: (u32, u32)) -> CounterLayout {
        if version >= (3, 15) {
            CounterLayout { backoff_bits: 3 }
        } else {
            Self::SPLIT_12_4
        }
    }

    /// A recorded number of backoff bits, if it is one a 16-bit word can hold with a value.
    pub fn from_bits(bits: u8) -> Option<CounterLayout> {
        (1..=8).contains(&bits).then_some(CounterLayout { backoff_bits: bits })
    }

    fn mask(self) -> u16 {
        (1u16 << self.backoff_bits) - 1
    }

    /// `(value, backoff)` of a counter word.
    pub fn split(self, word: u16) -> (u16, u8) {
        (word >> self.backoff_bits, (word & self.mask()) as u8)
    }

    /// The word of `(value, backoff)`: the inverse of [`Self::split`] (bits that do not fit
    /// are dropped).
    pub fn join(self, (value, backoff): (u16, u8)) -> u16 {
        value << self.backoff_bits | (u16::from(backoff) & self.mask())
    }
}

/// The folders of an interpreter's installation, as absolute paths.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InstallPaths {
    /// `sysconfig`'s `stdlib` and `platstdlib`.
    #[serde(default)]
    pub stdlib: Vec<String>,
    /// `sysconfig`'s `purelib` and `platlib`, `site.getsitepackages()` and the user site.
    #[serde(default)]
    pub site_packages: Vec<String>,
}

impl InstallPaths {
    /// True when the dump recorded no folders.
    pub fn is_empty(&self) -> bool {
        self.stdlib.is_empty() && self.site_packages.is_empty()
    }
}

impl PythonInfo {
    /// `(major, minor)`, e.g. `(3, 12)`.
    pub fn minor_version(&self) -> (u32, u32) {
        (self.version_info.0, self.version_info.1)
    }

    /// The counter layout: as recorded by the harness, else by version.
    pub fn counter_layout(&self) -> CounterLayout {
        self.counter_backoff_bits
            .and_then(CounterLayout::from_bits)
            .unwrap_or_else(|| CounterLayout::of_version(self.minor_version()))
    }
}

/// How the program was run and how it ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunInfo {
    /// The program's `sys.argv`.
    pub argv: Vec<String>,
    /// What was run.
    pub target: Target,
    /// Working directory.
    pub cwd: String,
    /// Start time, RFC 3339 UTC.
    pub started: String,
    /// Wall time of the program in seconds.
    pub duration_s: f64,
    /// The program's exit status.
    pub exit_status: i32,
    /// `"Type: message"` when the program raised.
    #[serde(default)]
    pub exception: Option<String>,
    /// How hotness was sampled.
    pub sampler: SamplerInfo,
    /// The code filters in force.
    pub filters: Filters,
}

/// What `specdiff dump` ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Target {
    /// `"script"`, `"module"` or `"code"`.
    pub kind: String,
    /// The script path, module name or code text.
    pub value: String,
}

/// The hotness sampler's settings and outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SamplerInfo {
    /// `"thread"`, `"signal"` (pyodide: timer ticks), `"off"` or `"unavailable"`.
    pub mode: String,
    /// Interval between samples in milliseconds.
    pub interval_ms: f64,
    /// Number of samples taken.
    pub samples: u64,
    /// Why the sampler is unavailable, or other remarks.
    #[serde(default)]
    pub note: Option<String>,
}

/// Which code the dump includes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Filters {
    /// Include globs (module or file name); empty means everything.
    pub include: Vec<String>,
    /// Exclude globs; these win over includes.
    pub exclude: Vec<String>,
    /// Code with no evidence of execution is included.
    pub include_unrun: bool,
}

/// What the first inline cache word of an instruction means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CounterKind {
    /// An adaptive (backoff) counter: warm-up before specializing, misses after.
    Adaptive,
    /// 3.13+ `POP_JUMP_IF_*`: a 16-bit history of taken branches.
    Branch,
    /// 3.13+ `JUMP_BACKWARD`: a tier-2 (JIT) warm-up counter.
    Jit,
}

/// One entry of the opname table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpInfo {
    /// Opname as `dis` shows it with `adaptive=True`.
    pub name: String,
    /// The base instruction it deoptimizes to.
    pub family: String,
    /// A type specialization (not a base, adaptive, quickened or superinstruction form).
    pub specialized: bool,
    /// What the first cache word means, if there is one.
    pub counter: Option<CounterKind>,
}

impl Serialize for OpInfo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (&self.name, &self.family, self.specialized, self.counter).serialize(s)
    }
}

impl<'de> Deserialize<'de> for OpInfo {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let (name, family, specialized, counter) =
            <(String, String, bool, Option<CounterKind>)>::deserialize(d)?;
        Ok(OpInfo { name, family, specialized, counter })
    }
}

/// A source file and the lines of it that the dump keeps.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileInfo {
    /// `co_filename`.
    pub path: String,
    /// The module loaded from it, when known.
    #[serde(default)]
    pub module: Option<String>,
    /// Runs of consecutive lines: `(first_line, string indices)`.
    pub source: Vec<(u32, Vec<u32>)>,
}

/// One code object.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CodeInfo {
    /// Index into [`Dump::files`].
    pub file: u32,
    /// Module name (string index).
    pub module: u32,
    /// `co_qualname` (string index).
    pub qualname: u32,
    /// `co_name` (string index).
    pub name: u32,
    /// `co_firstlineno`.
    pub first_line: u32,
    /// What kind of code this is.
    pub kind: CodeKind,
    /// Index into [`Dump::code`] of the enclosing code object.
    #[serde(default)]
    pub parent: Option<u32>,
    /// Evidence that it executed.
    pub ran: bool,
    /// The `__qualname__` the live functions using this code agree on, when it differs from
    /// `co_qualname` (string index): `Point.__init__` for a dataclass's exec'd
    /// `__create_fn__.<locals>.__init__`. Identity, see `docs/dump-format.md`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<u32>,
    /// `(line, column)` of the instruction of the enclosing code that loads this code object:
    /// where its `def`, `lambda`, class or comprehension is. Identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub made_at: Option<(u32, u32)>,
    /// CRC-32 of what the code is (bytecode, names, constants), the same in every run of the
    /// same source. Identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<u32>,
    /// Sampler hits: `(on top of the stack, anywhere on it)`.
    pub samples: (u64, u64),
    /// Of the samples with this code anywhere on the stack, those taken while a module was
    /// being imported (the import machinery on the stack too).
    #[serde(default, skip_serializing_if = "crate::model::stats::is_zero")]
    pub import_samples: u64,
    /// `(line, self samples)`, ascending by line.
    pub line_samples: Vec<(u32, u64)>,
    /// The adaptive instructions.
    pub instructions: Vec<Instruction>,
    /// The JIT's tier-2 executors attached to this code when the run ended, by offset; `None`
    /// when it had none (and in dumps written before the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub executors: Option<Vec<crate::model::jit::Executor>>,
    /// Byte offsets of this code's instructions that a trace attached to another code object
    /// ran, in the frame of a call the trace inlined (ascending); `None` when none (always
    /// without the JIT, and in dumps written before the field).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inlined: Option<Vec<u32>>,
}

/// The kind of a code object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CodeKind {
    /// A module body.
    Module,
    /// A class body.
    Class,
    /// A function or method.
    Function,
    /// A lambda.
    Lambda,
    /// A generator function.
    Generator,
    /// An `async def` function.
    Coroutine,
    /// An async generator function.
    AsyncGenerator,
    /// A comprehension or generator expression with its own code object.
    Comprehension,
}

impl CodeKind {
    /// Every kind, in declaration order (the dump scanner looks names up in it; the packed
    /// dumps of share links number kinds by it, so its order is part of that format).
    pub const ALL: [CodeKind; 8] = [
        CodeKind::Module,
        CodeKind::Class,
        CodeKind::Function,
        CodeKind::Lambda,
        CodeKind::Generator,
        CodeKind::Coroutine,
        CodeKind::AsyncGenerator,
        CodeKind::Comprehension,
    ];

    /// The name used in the dump format.
    pub fn as_str(self) -> &'static str {
        match self {
            CodeKind::Module => "module",
            CodeKind::Class => "class",
            CodeKind::Function => "function",
            CodeKind::Lambda => "lambda",
            CodeKind::Generator => "generator",
            CodeKind::Coroutine => "coroutine",
            CodeKind::AsyncGenerator => "async_generator",
            CodeKind::Comprehension => "comprehension",
        }
    }
}

/// How often a site's opname changed while the program ran.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Churn {
    /// Number of changes the sampler saw.
    pub flips: u32,
    /// Every op (index into [`Dump::ops`]) seen at the site, in order of first sight.
    pub seen: Vec<u32>,
}

/// One adaptive instruction (see the table in `docs/dump-format.md`). The default is offset 0,
/// op 0 and nothing else known.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Instruction {
    /// Offset in bytes.
    pub offset: u32,
    /// Index into [`Dump::ops`].
    pub op: u32,
    /// `arg` as `dis` gives it.
    pub arg: Option<u32>,
    /// `argrepr` (string index).
    pub argrepr: u32,
    /// Source line.
    pub line: Option<u32>,
    /// `(end_line, col, end_col)`.
    pub pos: Option<(Option<u32>, Option<u32>, Option<u32>)>,
    /// Raw inline cache words.
    pub cache: Vec<u16>,
    /// First cache word decoded as `(value, backoff)`.
    pub counter: Option<(u16, u8)>,
    /// Opname changes seen during the run.
    pub churn: Option<Churn>,
}

impl Instruction {
    /// The first cache word decoded as a counter with the 12/4 split of 3.11–3.14
    /// (`docs/dump-format.md`, instruction element 7); [`CounterLayout::split`] for others.
    pub fn decode_counter(word: u16) -> (u16, u8) {
        CounterLayout::SPLIT_12_4.split(word)
    }

    /// The cache word a decoded 12/4 counter comes from: the inverse of
    /// [`Instruction::decode_counter`] (a backoff above 15 keeps its low four bits).
    pub fn counter_word(counter: (u16, u8)) -> u16 {
        CounterLayout::SPLIT_12_4.join(counter)
    }
}

impl Serialize for Instruction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let len = if self.churn.is_some() { 9 } else if self.counter.is_some() { 8 } else { 7 };
        let mut seq = s.serialize_seq(Some(len))?;
        seq.serialize_element(&self.offset)?;
        seq.serialize_element(&self.op)?;
        seq.serialize_element(&self.arg)?;
        seq.serialize_element(&self.argrepr)?;
        seq.serialize_element(&self.line)?;
        seq.serialize_element(&self.pos)?;
        seq.serialize_element(&self.cache)?;
        if len >= 8 {
            seq.serialize_element(&self.counter)?;
        }
        if let Some(c) = &self.churn {
            seq.serialize_element(&(c.flips, &c.seen))?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Instruction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_seq(InstructionVisitor)
    }
}

struct InstructionVisitor;

impl<'de> Visitor<'de> for InstructionVisitor {
    type Value = Instruction;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an instruction array of 7 to 9 elements")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Instruction, A::Error> {
        fn required<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(
            seq: &mut A,
            i: usize,
        ) -> Result<T, A::Error> {
            seq.next_element()?
                .ok_or_else(|| de::Error::invalid_length(i, &"an instruction array of 7 to 9 elements"))
        }
        let offset = required(&mut seq, 0)?;
        let op = required(&mut seq, 1)?;
        let arg = required(&mut seq, 2)?;
        let argrepr = required(&mut seq, 3)?;
        let line = required(&mut seq, 4)?;
        let pos = required(&mut seq, 5)?;
        let cache = required(&mut seq, 6)?;
        let counter = seq.next_element::<Option<(u16, u8)>>()?.flatten();
        let churn = seq
            .next_element::<Option<(u32, Vec<u32>)>>()?
            .flatten()
            .map(|(flips, seen)| Churn { flips, seen });
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            return Err(de::Error::invalid_length(10, &"an instruction array of 7 to 9 elements"));
        }
        Ok(Instruction { offset, op, arg, argrepr, line, pos, cache, counter, churn })
    }
}

impl Dump {
    /// The string at `index` of the string table.
    pub fn str(&self, index: u32) -> &str {
        &self.strings[index as usize]
    }

    /// The opname-table entry of an instruction.
    pub fn op(&self, instruction: &Instruction) -> &OpInfo {
        &self.ops[instruction.op as usize]
    }

    /// The source text of `line` in file `file`, when the dump kept it.
    pub fn source_line(&self, file: u32, line: u32) -> Option<&str> {
        let runs = &self.files.get(file as usize)?.source;
        // Runs are ascending; find the last run starting at or before `line`.
        let i = runs.partition_point(|(first, _)| *first <= line).checked_sub(1)?;
        let (first, lines) = &runs[i];
        lines.get((line - first) as usize).map(|&s| self.str(s))
    }

    /// A short label for the run: `"CPython 3.12.1 · script.py args"`.
    pub fn label(&self) -> String {
        format!("CPython {} · {}", self.python.version, self.command())
    }

    /// The command as the user typed it after `specdiff dump`: `bench.py --n 3`,
    /// `-m pytest -q` (not the `sys.argv[0]` that `-m` sets: the module's absolute path).
    pub fn command(&self) -> String {
        let args = self.run.argv.iter().skip(1).map(String::as_str);
        let words: Vec<&str> = match self.run.target.kind.as_str() {
            "module" => ["-m", self.run.target.value.as_str()].into_iter().chain(args).collect(),
            _ => self.run.argv.iter().map(String::as_str).collect(),
        };
        words.join(" ")
    }
}
