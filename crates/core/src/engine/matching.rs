//! Matching code objects across two dumps.
//!
//! Code objects are grouped by identity, `(module, qualname)`, never by line number: line
//! shifts do not break a match. When a key is shared by several code objects on a side
//! (lambdas in one function, `<genexpr>`s, redefined functions, `exec`'d `<string>` code such
//! as every dataclass's `__create_fn__.<locals>.__init__`), the candidates are paired by what
//! is stable about them, never by their place in the dump (which followed the interpreter's
//! memory order and changed from run to run, issue 14). Each candidate has a stable key (the
//! identity fields of `docs/dump-format.md`: `owner`, `first_line`, `made_at`, `body`, and its
//! content, a hash of its normalized site keys, plus its adaptive state as a last tie-break);
//! the candidates are paired in tiers, each tier pairing only candidates equal on its fields:
//!
//! 1. owner, first line, `made_at`, `body` and content: the same code object in an unchanged
//!    program; ties within it (indistinguishable code) pair by the most similar adaptive state;
//! 2. owner and content: moved code;
//! 3. owner: edited code of one function (`Point.__init__` stays `Point.__init__`);
//! 4. whatever is left: an order-preserving alignment in stable order that maximizes
//!    `1 + similarity` per pair (as many as possible are paired, in source order, and the
//!    most similar ones win when the counts differ). Similarity is the Dice coefficient of the
//!    normalized key multisets. Past 4,194,304 candidate pairs in one bucket (two sides of
//!    2,048) the alignment's table would cost quadratic time and memory: such a bucket pairs
//!    in stable order.
//!
//! Every order used is a function of the candidates' contents, so permuting a dump's code
//! array does not change which code objects are paired.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::util::fnv::{fnv, FNV_OFFSET};
use crate::util::sort::{sort_by, sort_by_key};
use crate::model::dump::{CodeInfo, Dump};
use crate::cpython::normalize::{Key, Normalizer, Side};

/// A code object present in both dumps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct CodePair {
    /// Index into the base dump's `code`.
    pub base: u32,
    /// Index into the head dump's `code`.
    pub head: u32,
}

/// The result of matching two dumps' code objects.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Matching {
    /// Matched pairs, ordered by base index.
    pub pairs: Vec<CodePair>,
    /// Head code objects with no base counterpart (added), ascending.
    pub added: Vec<u32>,
    /// Base code objects with no head counterpart (removed), ascending.
    pub removed: Vec<u32>,
}

/// The identity of a code object: `(module, qualname)`. Code with no module name is
/// identified by its file path instead.
pub fn identity(dump: &Dump, c: &CodeInfo) -> (String, String) {
    let (module, qualname) = identity_ref(dump, c);
    (module.to_string(), qualname.to_string())
}

/// [`identity`], borrowed from the dump.
pub(crate) fn identity_ref<'d>(dump: &'d Dump, c: &CodeInfo) -> (&'d str, &'d str) {
    let module = dump.str(c.module);
    let module = if module.is_empty() { dump.files[c.file as usize].path.as_str() } else { module };
    (module, dump.str(c.qualname))
}

/// The owner of a code object: the `__qualname__` its functions carry (`owner` in the dump),
/// else its `co_qualname`.
pub(crate) fn owner_ref<'d>(dump: &'d Dump, c: &CodeInfo) -> &'d str {
    dump.str(c.owner.unwrap_or(c.qualname))
}

/// Matches the code objects of the two dumps behind `norm` by name (module docs); renamed
/// functions are paired afterwards ([`super::match_code`]).
pub(crate) fn match_by_name(norm: &mut Normalizer) -> Matching {
    let (base, head) = (norm.dump(Side::Base), norm.dump(Side::Head));
    // Iteration order does not matter: the results are sorted at the end.
    type Candidates = (Vec<u32>, Vec<u32>);
    let mut groups: HashMap<(&str, &str), Candidates> = HashMap::with_capacity(base.code.len());
    for (i, c) in base.code.iter().enumerate() {
        groups.entry(identity_ref(base, c)).or_default().0.push(i as u32);
    }
    for (i, c) in head.code.iter().enumerate() {
        groups.entry(identity_ref(head, c)).or_default().1.push(i as u32);
    }
    let mut m = Matching::default();
    for (_, (b, h)) in groups {
        let pairs = if b.len() == 1 && h.len() == 1 {
            vec![(0, 0)]
        } else if b.is_empty() || h.is_empty() {
            vec![]
        } else {
            let bc: Vec<Candidate> = b.iter().map(|&i| Candidate::new(norm, Side::Base, i)).collect();
            let hc: Vec<Candidate> = h.iter().map(|&i| Candidate::new(norm, Side::Head, i)).collect();
            pair_candidates(&bc, &hc)
        };
        let (mut bused, mut hused) = (vec![false; b.len()], vec![false; h.len()]);
        for (x, y) in pairs {
            bused[x] = true;
            hused[y] = true;
            m.pairs.push(CodePair { base: b[x], head: h[y] });
        }
        m.removed.extend(b.iter().zip(&bused).filter(|(_, &u)| !u).map(|(&i, _)| i));
        m.added.extend(h.iter().zip(&hused).filter(|(_, &u)| !u).map(|(&i, _)| i));
    }
    sort_by(&mut m.pairs, Ord::cmp);
    sort_by(&mut m.added, Ord::cmp);
    sort_by(&mut m.removed, Ord::cmp);
    m
}

/// `made_at` of a code object: `(line, column)` where its enclosing code makes it.
type MadeAt = Option<(u32, u32)>;

/// One of several code objects of a side sharing an identity, with what is stable about it.
struct Candidate<'d> {
    owner: &'d str,
    first_line: u32,
    made_at: MadeAt,
    /// The harness's CRC-32 of the code (`body`), when the dump has it.
    body: Option<u32>,
    /// Hash of the normalized site keys in order: the same code gives the same hash on both
    /// sides, across CPython versions too.
    content: u64,
    /// The normalized site keys, sorted (for [`similarity`]).
    keys: Vec<Key>,
    /// `(offset, opname, cache words)` of every instruction, hashed and sorted: the adaptive
    /// state, which is all that tells apart code objects equal in everything else.
    state: Vec<u64>,
}

impl<'d> Candidate<'d> {
    fn new(norm: &mut Normalizer<'d>, side: Side, code: u32) -> Self {
        let dump = norm.dump(side);
        let c = &dump.code[code as usize];
        let keys = norm.keys(side, code);
        // Hash the keys' text: their ids are interned lazily, in the order code objects
        // happen to be normalized (here: `groups`' HashMap order), so they differ per process.
        let it = norm.interner();
        let content = keys.iter().fold(FNV_OFFSET, |h, &k| {
            let h = fnv(fnv(h, it.name((k >> 32) as u32).as_bytes()), &[0]);
            fnv(fnv(h, it.name(k as u32).as_bytes()), &[0])
        });
        let mut keys = keys;
        sort_by(&mut keys, Ord::cmp);
        let mut state: Vec<u64> = c
            .instructions
            .iter()
            .map(|ins| {
                let h = fnv(fnv(FNV_OFFSET, &ins.offset.to_le_bytes()), dump.op(ins).name.as_bytes());
                ins.cache.iter().fold(h, |h, w| fnv(h, &w.to_le_bytes()))
            })
            .collect();
        sort_by(&mut state, Ord::cmp);
        let (owner, first_line, made_at, body) = (owner_ref(dump, c), c.first_line, c.made_at, c.body);
        Candidate { owner, first_line, made_at, body, content, keys, state }
    }

    /// The stable order of candidates: source order (first line, then where it is made), then
    /// a hash of owner, body, content and state. Plain integers: cheap to compare, and no
    /// new comparison code in the viewer's wasm.
    fn order(&self) -> (u32, u32, u32, u64) {
        let (line, col) = self.made_at.map_or((0, 0), |(line, col)| (line, col.saturating_add(1)));
        (self.first_line, line, col, self.tier_hash(0) ^ self.state.iter().fold(FNV_OFFSET, |h, s| fnv(h, &s.to_le_bytes())))
    }

    /// A hash of the fields tier `tier` compares (module docs); equal fields, equal hashes.
    fn tier_hash(&self, tier: usize) -> u64 {
        let mut h = FNV_OFFSET;
        if tier < 3 {
            h = fnv(fnv(h, self.owner.as_bytes()), &[0xff]);
        }
        if tier == 0 {
            let (line, col) = self.made_at.unwrap_or((u32::MAX, u32::MAX));
            for v in [self.first_line, line, col, self.body.unwrap_or(u32::MAX)] {
                h = fnv(h, &v.to_le_bytes());
            }
            h = fnv(h, &[u8::from(self.made_at.is_some()), u8::from(self.body.is_some())]);
        }
        if tier < 2 {
            h = fnv(h, &self.content.to_le_bytes());
        }
        h
    }
}

const TIERS: usize = 4;

/// Pairs the candidates of one identity (module docs): indices into `b` and `h`.
fn pair_candidates(b: &[Candidate], h: &[Candidate]) -> Vec<(usize, usize)> {
    let mut bo: Vec<usize> = (0..b.len()).collect();
    let mut ho: Vec<usize> = (0..h.len()).collect();
    let (bkeys, hkeys): (Vec<_>, Vec<_>) = (b.iter().map(Candidate::order).collect(), h.iter().map(Candidate::order).collect());
    sort_by_key(&mut bo, |&x| bkeys[x]);
    sort_by_key(&mut ho, |&y| hkeys[y]);
    let (mut bused, mut hused) = (vec![false; b.len()], vec![false; h.len()]);
    let mut out = vec![];
    for tier in 0..TIERS {
        // Buckets of equal tier fields, by their hash (a collision only merges two buckets,
        // whose candidates the tier then pairs by similarity): a stable sort keeps each
        // side's candidates in stable order.
        let mut entries: Vec<(u64, bool, usize)> = bo
            .iter()
            .filter(|&&x| !bused[x])
            .map(|&x| (b[x].tier_hash(tier), false, x))
            .chain(ho.iter().filter(|&&y| !hused[y]).map(|&y| (h[y].tier_hash(tier), true, y)))
            .collect();
        sort_by_key(&mut entries, |e| (e.0, e.1));
        for bucket in entries.chunk_by(|p, q| p.0 == q.0) {
            let bx: Vec<usize> = bucket.iter().filter(|e| !e.1).map(|e| e.2).collect();
            let hy: Vec<usize> = bucket.iter().filter(|e| e.1).map(|e| e.2).collect();
            if bx.is_empty() || hy.is_empty() {
                continue;
            }
            let pairs = if tier == 0 {
                pair_by_state(&bx.iter().map(|&x| &b[x].state[..]).collect::<Vec<_>>(), &hy.iter().map(|&y| &h[y].state[..]).collect::<Vec<_>>())
            } else {
                let bk: Vec<&[Key]> = bx.iter().map(|&x| &b[x].keys[..]).collect();
                let hk: Vec<&[Key]> = hy.iter().map(|&y| &h[y].keys[..]).collect();
                let cells = bk.len() * hk.len();
                if tier >= 2 && cells <= GREEDY_MAX_KEYS {
                    greedy(&bk, &hk, usize::MAX)
                } else if cells <= BEST_PAIRING_MAX {
                    best_pairing(&bk, &hk)
                } else {
                    // Its table would be quadratic in time and memory (30,000 same-named
                    // `exec`'d functions whose bodies all changed: 7.2 GB): stable order.
                    (0..bx.len().min(hy.len())).map(|i| (i, i)).collect()
                }
            };
            for (i, j) in pairs {
                bused[bx[i]] = true;
                hused[hy[j]] = true;
                out.push((bx[i], hy[j]));
            }
        }
    }
    out
}

/// Candidates equal in everything but their adaptive state: greedily the most similar states
/// first (ties towards the earlier candidates), so two indistinguishable code objects that
/// did different things keep their own counterparts. Large ties (more than [`GREEDY_MAX`]
/// pairs to weigh) pair in order.
fn pair_by_state(b: &[&[u64]], h: &[&[u64]]) -> Vec<(usize, usize)> {
    greedy(b, h, GREEDY_MAX)
}

/// Most similar pairs first (ties: earlier candidates in stable order); past `max` pairs to
/// weigh, in order.
fn greedy(b: &[&[u64]], h: &[&[u64]], max: usize) -> Vec<(usize, usize)> {
    if b.len() == 1 && h.len() == 1 {
        return vec![(0, 0)];
    }
    if b.len() * h.len() > max {
        return (0..b.len().min(h.len())).map(|i| (i, i)).collect();
    }
    // Dissimilarity in millionths, so that pairs sort as plain integers.
    let mut all: Vec<(u64, usize, usize)> = vec![];
    for (i, x) in b.iter().enumerate() {
        for (j, y) in h.iter().enumerate() {
            all.push((((1.0 - similarity(x, y)) * 1e6) as u64, i, j));
        }
    }
    sort_by_key(&mut all, |&p| p);
    let (mut bused, mut hused) = (vec![false; b.len()], vec![false; h.len()]);
    let mut out = vec![];
    for (_, i, j) in all {
        if !bused[i] && !hused[j] {
            bused[i] = true;
            hused[j] = true;
            out.push((i, j));
        }
    }
    out
}

/// Most candidate pairs [`pair_by_state`] weighs one by one.
const GREEDY_MAX: usize = 4096;

/// Most candidate pairs the owner-only and leftover tiers weigh by similarity (past it: the
/// order-preserving [`best_pairing`]).
const GREEDY_MAX_KEYS: usize = 1 << 18;

/// Most cells of [`best_pairing`]'s table (8 bytes each, one similarity each: 32 MB); a
/// larger bucket pairs in stable order. Tier 1's buckets pair in order all the same (equal
/// content: every similarity is 1).
const BEST_PAIRING_MAX: usize = 1 << 22;

/// Which code objects of `dump` are the program's own code, as opposed to the standard library
/// and installed packages it loaded: code of module `__main__`, and code from files under the
/// directory of the run's target script (for `-m`, code of the target's top-level package).
/// Files in a `site-packages` or `dist-packages` directory are never the program's own (a
/// virtual environment inside the project), nor `<frozen …>` modules. Relative file paths
/// are taken relative to the run's working directory.
#[inline(never)] // two callers; one copy in the viewer's wasm
pub(crate) fn program_code(dump: &Dump) -> Vec<bool> {
    let target = &dump.run.target;
    let cwd = dump.run.cwd.as_str();
    let script_dir = (target.kind == "script").then(|| {
        let mut path = absolute_path(cwd, &target.value);
        path.pop();
        path
    });
    let package = (target.kind == "module").then(|| target.value.split('.').next().unwrap_or_default());
    let files: Vec<bool> = dump
        .files
        .iter()
        .map(|f| {
            let Some(dir) = &script_dir else { return false };
            let path = absolute_path(cwd, &f.path);
            !f.path.starts_with('<')
                && path.len() > dir.len()
                && path.starts_with(dir)
                && !path.iter().any(|c| *c == "site-packages" || *c == "dist-packages")
        })
        .collect();
    dump.code
        .iter()
        .map(|c| {
            let module = dump.str(c.module);
            module == "__main__"
                || files[c.file as usize]
                || package.is_some_and(|p| {
                    !p.is_empty() && module.strip_prefix(p).is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
                })
        })
        .collect()
}

/// `path` (relative to `cwd` unless absolute) as normalized components: `.` and empty
/// components dropped, `..` applied. `/` and `\` both separate components.
pub(crate) fn absolute_path<'p>(cwd: &'p str, path: &'p str) -> Vec<&'p str> {
    let absolute = path.starts_with(['/', '\\']) || path.as_bytes().get(1) == Some(&b':');
    let mut out: Vec<&str> = vec![];
    let joined = if absolute { None } else { Some(cwd) };
    for part in joined.into_iter().chain([path]) {
        for c in part.split(['/', '\\']) {
            match c {
                "" | "." => {}
                ".." => {
                    out.pop();
                }
                c => out.push(c),
            }
        }
    }
    out
}

/// Dice similarity of two sorted key multisets, in `[0, 1]`.
pub(crate) fn similarity(a: &[u64], b: &[u64]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
}

/// Order-preserving pairing maximizing the sum of `1 + similarity` (a weighted LCS).
fn best_pairing(b: &[&[Key]], h: &[&[Key]]) -> Vec<(usize, usize)> {
    let (n, m) = (b.len(), h.len());
    let mut score = vec![vec![0.0f64; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let pair = 1.0 + similarity(b[i], h[j]) + score[i + 1][j + 1];
            score[i][j] = pair.max(score[i + 1][j]).max(score[i][j + 1]);
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        let pair = 1.0 + similarity(b[i], h[j]) + score[i + 1][j + 1];
        if pair >= score[i][j] - 1e-12 {
            out.push((i, j));
            i += 1;
            j += 1;
        } else if score[i + 1][j] >= score[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_code_is_main_and_files_next_to_the_script() {
        use crate::format::builder::DumpBuilder;
        let mut b = DumpBuilder::new("3.12.1");
        for m in ["__main__", "helpers", "json", "pkg.sub", "pkgx", "lib"] {
            b.code(m, "f", 1).ins("RETURN_CONST", "None", 1).finish();
        }
        let mut d = b.build();
        d.run.cwd = "/home/u/proj".into();
        d.run.target.value = "./app/../app/main.py".into();
        let path = |d: &mut Dump, i: usize, p: &str| d.files[i].path = p.into();
        path(&mut d, 0, "app/main.py");
        path(&mut d, 1, "/home/u/proj/app/util/helpers.py");
        path(&mut d, 2, "/usr/lib/python3.12/json/__init__.py");
        path(&mut d, 3, "/home/u/proj/app/.venv/lib/python3.12/site-packages/pkg/sub.py");
        path(&mut d, 4, "/home/u/proj/application.py");
        path(&mut d, 5, "<frozen lib>");
        assert_eq!(program_code(&d), [true, true, false, false, false, false]);
        d.run.target.kind = "module".into();
        d.run.target.value = "pkg.sub".into();
        assert_eq!(program_code(&d), [true, false, false, true, false, false]);
        d.run.target.kind = "code".into();
        assert_eq!(program_code(&d), [true, false, false, false, false, false]);
    }

    /// Code objects sharing `(module, qualname)` the way issue 14 found them: dataclass
    /// `__init__`s told apart only by `owner` (one specialized, one cold), lambdas on one line
    /// told apart by `made_at`, and `exec`'d functions equal in everything but their state.
    fn duplicates(owners: bool, made_at: bool) -> Dump {
        use crate::format::builder::DumpBuilder;
        let mut b = DumpBuilder::new("3.12.1");
        let init = "__create_fn__.<locals>.__init__";
        b.code("m", init, 2).ins("STORE_ATTR_INSTANCE_VALUE", "x", 3).finish();
        b.code("m", init, 2).ins("STORE_ATTR", "x", 3).finish();
        b.code("m", init, 2).ins("STORE_ATTR_SLOT", "x", 3).finish();
        b.code("m", "make.<locals>.<lambda>", 7).ins("BINARY_OP_ADD_INT", "+", 7).finish();
        b.code("m", "make.<locals>.<lambda>", 7).ins("BINARY_OP", "+", 7).finish();
        b.code("m", "make.<locals>.<lambda>", 7).ins("BINARY_OP_MULTIPLY_FLOAT", "*", 7).finish();
        b.code("m", "f", 1).ins("BINARY_OP_ADD_INT", "+", 1).finish();
        b.code("m", "f", 1).ins("BINARY_OP", "+", 1).finish();
        b.code("m", "g", 4).ins("RETURN_CONST", "None", 4).finish();
        let mut d = b.build();
        for (i, o) in ["Point.__init__", "Cold.__init__", "Size.__init__"].into_iter().enumerate() {
            d.strings.push(o.into());
            if owners {
                d.code[i].owner = Some(d.strings.len() as u32 - 1);
            }
        }
        if made_at {
            for (i, col) in [(3, 10), (4, 30), (5, 50)] {
                d.code[i].made_at = Some((7, col));
            }
        }
        d
    }

    /// `d` with its code array in the order `perm` (new index k holds old `perm[k]`).
    fn permuted(d: &Dump, perm: &[usize]) -> Dump {
        let mut p = d.clone();
        p.code = perm.iter().map(|&i| d.code[i].clone()).collect();
        p
    }

    /// The pairs of matching `base` with `head`, as indices of the unpermuted dumps.
    fn pairs(base: &Dump, bperm: &[usize], head: &Dump, hperm: &[usize]) -> Vec<(usize, usize)> {
        let (b, h) = (permuted(base, bperm), permuted(head, hperm));
        let m = match_by_name(&mut Normalizer::new(&b, &h));
        assert!(m.added.is_empty() && m.removed.is_empty());
        let mut out: Vec<_> = m.pairs.iter().map(|p| (bperm[p.base as usize], hperm[p.head as usize])).collect();
        out.sort();
        out
    }

    #[test]
    fn permuting_the_code_order_does_not_change_the_matching() {
        let same: Vec<(usize, usize)> = (0..9).map(|i| (i, i)).collect();
        let id: Vec<usize> = (0..9).collect();
        let perms: [Vec<usize>; 4] = [
            id.clone(),
            (0..9).rev().collect(),
            vec![2, 0, 1, 5, 3, 4, 7, 6, 8],
            vec![1, 2, 0, 4, 5, 3, 8, 7, 6],
        ];
        // With the identity fields, and without (dumps written before them): the adaptive
        // state then tells the candidates apart.
        for (owners, made_at) in [(true, true), (false, false), (true, false), (false, true)] {
            let d = duplicates(owners, made_at);
            for bp in &perms {
                for hp in &perms {
                    assert_eq!(pairs(&d, bp, &d, hp), same, "owners {owners}, made_at {made_at}, {bp:?} / {hp:?}");
                }
            }
        }
    }

    /// Functions named alike whose bodies differ (exec'd templates, each a `root`): base
    /// bodies 0..n, head the same bodies in reverse order with one instruction added to each.
    fn templates(n: usize, head: bool) -> Dump {
        use crate::format::builder::DumpBuilder;
        let mut b = DumpBuilder::new("3.12.1");
        let forms = ["BINARY_OP_ADD_INT", "LOAD_ATTR_SLOT", "CALL_PY_EXACT_ARGS", "FOR_ITER_LIST", "COMPARE_OP_INT"];
        for k in 0..n {
            let k = if head { n - 1 - k } else { k };
            let mut c = b.code("__main__", "root", 1);
            for (j, form) in forms.iter().enumerate().filter(|(j, _)| (k >> j) & 1 == 1 || *j == k % 5) {
                c = c.ins(form, &format!("x{}", j + k), 2 + j as u32);
            }
            c = c.ins("LOAD_GLOBAL_MODULE", "escape", 9);
            if head {
                c = c.ins("LOAD_ATTR_MODULE", "markup", 10);
            }
            c.finish();
        }
        b.build()
    }

    #[test]
    fn the_order_code_is_first_normalized_in_does_not_change_the_matching() {
        // Site keys are interned as code is normalized; the pairing must depend on what the
        // keys say, not on the numbers they got (issue 29: Jinja's `root`s paired differently
        // in every process, as a HashMap's order decided which group was normalized first).
        let (base, head) = (templates(24, false), templates(24, true));
        let fresh = match_by_name(&mut Normalizer::new(&base, &head)).pairs;
        for order in [(0..24).rev().collect::<Vec<u32>>(), (0..24).map(|i| (i * 7) % 24).collect()] {
            let mut norm = Normalizer::new(&base, &head);
            for &i in &order {
                norm.keys(Side::Head, i);
                norm.keys(Side::Base, 23 - i);
            }
            assert_eq!(match_by_name(&mut norm).pairs, fresh, "{order:?}");
        }
        // And each base template pairs with its own body, now last-to-first in head.
        let expected: Vec<CodePair> = (0..24).map(|k| CodePair { base: k, head: 23 - k }).collect();
        let mut got = fresh.clone();
        sort_by(&mut got, |a, b| a.base.cmp(&b.base));
        assert_eq!(got, expected);
    }

    #[test]
    fn owners_pair_even_when_the_state_changed() {
        // Head: Point's `__init__` lost its specialization and Cold's gained one; owners pair
        // each with itself although the states now suggest the opposite.
        let base = duplicates(true, true);
        let mut head = base.clone();
        let (s0, s1) = (head.code[0].instructions[0].op, head.code[1].instructions[0].op);
        head.code[0].instructions[0].op = s1;
        head.code[1].instructions[0].op = s0;
        let id: Vec<usize> = (0..9).collect();
        let rev: Vec<usize> = (0..9).rev().collect();
        assert_eq!(pairs(&base, &id, &head, &rev), (0..9).map(|i| (i, i)).collect::<Vec<_>>());
    }

    #[test]
    fn similarity_is_dice() {
        assert_eq!(similarity(&[1, 2, 3], &[1, 2, 3]), 1.0);
        assert_eq!(similarity(&[1, 2], &[3, 4]), 0.0);
        assert!((similarity(&[1, 1, 2], &[1, 2, 2]) - 2.0 * 2.0 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn pairing_prefers_similar_then_order() {
        // Base has two lambdas, head has three: the middle head one is new.
        let b: Vec<&[Key]> = vec![&[1, 2, 3], &[7, 8, 9]];
        let h: Vec<&[Key]> = vec![&[1, 2, 3], &[4, 5, 6], &[7, 8, 9]];
        assert_eq!(best_pairing(&b, &h), vec![(0, 0), (1, 2)]);
        // Equal counts pair in order even when nothing is similar.
        let b: Vec<&[Key]> = vec![&[1], &[2]];
        let h: Vec<&[Key]> = vec![&[3], &[4]];
        assert_eq!(best_pairing(&b, &h), vec![(0, 0), (1, 1)]);
    }
}
