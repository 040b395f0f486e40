//! What a link carries of a dump: [`reduce`] keeps the code objects worth showing and only
//! the strings, ops, files and source lines they use (and the JIT's executors, their uop
//! names re-indexed), and drops what no view reads (the
//! inline cache words after the counter: type versions and pointers; column positions);
//! [`redact`] leaves out source text and shortens paths (`--redact`, the share box's switch).

use litemap::LiteMap;

use super::trim::Masks;
use crate::cpython::spelling::strip_null_marks;
use crate::model::dump::{ClassInfo, CodeInfo, Dump, FileInfo, FORMAT_NAME, FORMAT_VERSION};

/// A copy of `dump` with only the code objects for which `keep(index, code)` is true, and only
/// the strings, ops, files and source lines they use. Parents that are dropped become `None`.
pub fn reduce(dump: &Dump, keep: impl FnMut(usize, &CodeInfo) -> bool) -> Dump {
    reduce_masked(dump, keep, &Vec::new())
}

/// [`reduce`], keeping of each code object that `masks` trims only the instructions its mask
/// marks, and of its source only those instructions' lines and its first line.
pub(crate) fn reduce_masked(dump: &Dump, mut keep: impl FnMut(usize, &CodeInfo) -> bool, masks: &Masks) -> Dump {
    let kept: Vec<usize> = (0..dump.code.len()).filter(|&i| keep(i, &dump.code[i])).collect();
    let mask = |i: usize| masks.get(i).and_then(Option::as_deref);
    // Old index → new index, for code objects, ops and files (vectors: the indices are dense).
    let new_index = new_indices(dump.code.len(), &kept);

    let mut strings = Interner::new(dump);
    let mut ops: Vec<_> = Vec::new();
    let mut op_map: Vec<Option<u32>> = vec![None; dump.ops.len()];
    let mut map_op = |op: u32, ops: &mut Vec<_>| -> u32 {
        *op_map[op as usize].get_or_insert_with(|| {
            ops.push(dump.ops[op as usize].clone());
            (ops.len() - 1) as u32
        })
    };

    // Lines each file must keep: the span of every kept code object.
    let mut spans: LiteMap<u32, Vec<(u32, u32)>> = LiteMap::new();
    for &i in &kept {
        let c = &dump.code[i];
        let file_spans = spans.entry(c.file).or_default();
        if let Some(m) = mask(i) {
            let lines = c.instructions.iter().zip(m).filter(|(_, &k)| k).filter_map(|(x, _)| x.line);
            file_spans.extend(std::iter::once(c.first_line).chain(lines).map(|l| (l, l)));
            continue;
        }
        let last = c.instructions.iter().filter_map(|x| x.line).max().unwrap_or(c.first_line);
        file_spans.push((c.first_line.min(last), c.first_line.max(last)));
    }
    let mut files = Vec::new();
    let mut file_map: Vec<Option<u32>> = vec![None; dump.files.len()];
    for (&f, ranges) in &spans {
        let src = &dump.files[f as usize];
        let mut source = Vec::new();
        for (first, lines) in &src.source {
            // Split each run into the pieces inside some range.
            let mut current: Option<(u32, Vec<u32>)> = None;
            for (k, &s) in lines.iter().enumerate() {
                let line = first + k as u32;
                if ranges.iter().any(|&(a, b)| a <= line && line <= b) {
                    let idx = strings.get(dump, s);
                    match &mut current {
                        Some((_, v)) => v.push(idx),
                        None => current = Some((line, vec![idx])),
                    }
                } else if let Some(run) = current.take() {
                    source.push(run);
                }
            }
            if let Some(run) = current.take() {
                source.push(run);
            }
        }
        file_map[f as usize] = Some(files.len() as u32);
        files.push(FileInfo { path: src.path.clone(), module: src.module.clone(), source });
    }

    let mut code = Vec::with_capacity(kept.len());
    for &i in &kept {
        let c = &dump.code[i];
        let mut n = c.clone();
        if let Some(m) = mask(i) {
            let mut keep = m.iter();
            n.instructions.retain(|_| keep.next().copied().unwrap_or(true));
            // A trace's uops point into the whole body: a trimmed one carries none (links do
            // not trim code with executors, `pick.rs`).
            if n.instructions.len() < c.instructions.len() {
                n.executors = None;
            }
        }
        for e in n.executors.iter_mut().flatten() {
            for u in &mut e.uops {
                u.name = strings.get(dump, u.name);
            }
            for x in e.exits.iter_mut().flatten() {
                x.1 = strings.get(dump, x.1);
            }
        }
        n.file = file_map[c.file as usize].expect("the file of every kept code object is kept");
        n.module = strings.get(dump, c.module);
        n.qualname = strings.get(dump, c.qualname);
        n.name = strings.get(dump, c.name);
        n.owner = c.owner.map(|o| strings.get(dump, o));
        n.parent = c.parent.and_then(|p| new_index.get(p as usize).copied().flatten());
        for ins in &mut n.instructions {
            ins.op = map_op(ins.op, &mut ops);
            ins.argrepr = strings.get(dump, ins.argrepr);
            // Only the first cache word (the counter) and the cache's length are read (by
            // the classifier and the explainer); the rest is noise that does not compress.
            for w in ins.cache.iter_mut().skip(1) {
                *w = 0;
            }
            ins.pos = None;
            if let Some(ch) = &mut ins.churn {
                for s in &mut ch.seen {
                    *s = map_op(*s, &mut ops);
                }
            }
        }
        code.push(n);
    }

    let classes = dump.classes.as_ref().map(|all| loaded_only(all, &code, &strings.table));
    Dump {
        format: FORMAT_NAME.to_string(),
        version: FORMAT_VERSION,
        generator: dump.generator.clone(),
        python: dump.python.clone(),
        run: dump.run.clone(),
        strings: strings.table,
        ops,
        files,
        code,
        classes,
        pystats: dump.pystats.clone(),
    }
}

/// Of the `classes` table, the attributes that some kept instruction names (the only ones an
/// explanation looks up), and the classes left with any or with a dict without values.
fn loaded_only(classes: &[ClassInfo], code: &[CodeInfo], strings: &[String]) -> Vec<ClassInfo> {
    let mut named: Vec<&str> = code.iter().flat_map(|c| &c.instructions).map(|i| strip_null_marks(&strings[i.argrepr as usize])).collect();
    named.sort_unstable();
    named.dedup();
    classes
        .iter()
        .filter_map(|c| {
            let mutable: Vec<_> = c.mutable.iter().filter(|m| named.binary_search(&m.0.as_str()).is_ok()).cloned().collect();
            (!mutable.is_empty() || c.dict_without_values).then(|| ClassInfo { mutable, ..c.clone() })
        })
        .collect()
}

/// Old index → new index of the code objects of a dump of `len` that a reduction keeps
/// (`kept`, in order).
pub(crate) fn new_indices(len: usize, kept: &[usize]) -> Vec<Option<u32>> {
    let mut index = vec![None; len];
    for (n, &i) in kept.iter().enumerate() {
        index[i] = Some(n as u32);
    }
    index
}

/// The reduced dump's string table: each string of the original that is used, once, in the
/// order first used (index 0 stays the empty string).
struct Interner {
    table: Vec<String>,
    /// Original string index → new one.
    index: Vec<Option<u32>>,
}

impl Interner {
    fn new(dump: &Dump) -> Self {
        let mut index = vec![None; dump.strings.len()];
        if let Some(first) = index.first_mut() {
            *first = Some(0);
        }
        Interner { table: vec![String::new()], index }
    }

    fn get(&mut self, dump: &Dump, s: u32) -> u32 {
        let table = &mut self.table;
        *self.index[s as usize].get_or_insert_with(|| {
            table.push(dump.str(s).to_string());
            (table.len() - 1) as u32
        })
    }
}


/// `dump` without source text and with paths cut to their package-relative part
/// (`site-packages/pyparsing/core.py` → `pyparsing/core.py`, a script → its file name), also
/// where operands name them; the run's working directory, exception and interpreter path
/// are left out. Code, sites and counters stay, so the view is the same but for source lines.
pub fn redact(dump: &Dump) -> Dump {
    let mut d = dump.clone();
    let mut renames: Vec<(String, String)> = Vec::new();
    for f in &mut d.files {
        f.source.clear();
        let short = short_path(&f.path, f.module.as_deref());
        if short != f.path {
            renames.push((std::mem::replace(&mut f.path, short.clone()), short));
        }
    }
    // Longest first, so a path is not cut by a shorter one it starts with.
    renames.sort_by_key(|r| std::cmp::Reverse(r.0.len()));
    for s in &mut d.strings {
        for (long, short) in &renames {
            if s.contains(long.as_str()) {
                *s = s.replace(long.as_str(), short);
            }
        }
    }
    let base = |p: &str| short_path(p, None);
    d.python.executable = base(&d.python.executable);
    d.run.argv = d.run.argv.iter().map(|a| base(a)).collect();
    d.run.target.value = base(&d.run.target.value);
    d.run.cwd = String::new();
    d.run.exception = d.run.exception.as_ref().map(|_| "(left out of a redacted link)".to_string());
    d
}

/// The package-relative part of `path`: as many trailing components as `module` has dotted
/// parts (one more for a package's `__init__.py`), else the file name.
pub fn short_path(path: &str, module: Option<&str>) -> String {
    let parts: Vec<&str> = path.split(['/', '\\']).filter(|p| !p.is_empty()).collect();
    let mut keep = module.map_or(1, |m| m.split('.').count());
    if parts.last() == Some(&"__init__.py") {
        keep += 1;
    }
    let keep = keep.clamp(1, parts.len().max(1));
    parts[parts.len().saturating_sub(keep)..].join("/")
}
