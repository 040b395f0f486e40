//! Matching code objects across two dumps.
//!
//! Code objects are matched by identity, `(module, qualname)`, never by line number: line
//! shifts do not break a match. When a key is shared by several code objects on a side
//! (lambdas in one function, `<genexpr>`s, redefined functions, `exec`'d `<string>` code),
//! each side's candidates are ordered by `(first_line, index)` and paired by an
//! order-preserving alignment that maximizes `1 + similarity` per pair (so as many as
//! possible are paired, in source order, and the most similar ones win when the counts
//! differ). Similarity is the Dice coefficient of the normalized key multisets. Ties are
//! broken towards the earlier candidates, so the result is deterministic.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

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

/// Matches the code objects of the two dumps behind `norm`.
pub(crate) fn match_code(norm: &mut Normalizer) -> Matching {
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
    for (_, (mut b, mut h)) in groups {
        sort_by_key(&mut b, |&i| (base.code[i as usize].first_line, i));
        sort_by_key(&mut h, |&i| (head.code[i as usize].first_line, i));
        let pairs = if b.len() == 1 && h.len() == 1 {
            vec![(0, 0)]
        } else if b.is_empty() || h.is_empty() {
            vec![]
        } else {
            let bk: Vec<Vec<Key>> = b.iter().map(|&i| sorted_keys(norm, Side::Base, i)).collect();
            let hk: Vec<Vec<Key>> = h.iter().map(|&i| sorted_keys(norm, Side::Head, i)).collect();
            best_pairing(&bk, &hk)
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

/// Which code objects of `dump` are the program's own code, as opposed to the standard library
/// and installed packages it loaded: code of module `__main__`, and code from files under the
/// directory of the run's target script (for `-m`, code of the target's top-level package).
/// Files in a `site-packages` or `dist-packages` directory are never the program's own (a
/// virtual environment inside the project), nor `<frozen …>` modules. Relative file paths
/// are taken relative to the run's working directory.
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

fn sorted_keys(norm: &mut Normalizer, side: Side, code: u32) -> Vec<Key> {
    let mut k = norm.keys(side, code);
    sort_by(&mut k, Ord::cmp);
    k
}

/// Dice similarity of two sorted key multisets, in `[0, 1]`.
pub(crate) fn similarity(a: &[Key], b: &[Key]) -> f64 {
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
fn best_pairing(b: &[Vec<Key>], h: &[Vec<Key>]) -> Vec<(usize, usize)> {
    let (n, m) = (b.len(), h.len());
    let mut score = vec![vec![0.0f64; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let pair = 1.0 + similarity(&b[i], &h[j]) + score[i + 1][j + 1];
            score[i][j] = pair.max(score[i + 1][j]).max(score[i][j + 1]);
        }
    }
    let (mut i, mut j, mut out) = (0, 0, Vec::new());
    while i < n && j < m {
        let pair = 1.0 + similarity(&b[i], &h[j]) + score[i + 1][j + 1];
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

    #[test]
    fn similarity_is_dice() {
        assert_eq!(similarity(&[1, 2, 3], &[1, 2, 3]), 1.0);
        assert_eq!(similarity(&[1, 2], &[3, 4]), 0.0);
        assert!((similarity(&[1, 1, 2], &[1, 2, 2]) - 2.0 * 2.0 / 6.0).abs() < 1e-9);
    }

    #[test]
    fn pairing_prefers_similar_then_order() {
        // Base has two lambdas, head has three: the middle head one is new.
        let b = vec![vec![1, 2, 3], vec![7, 8, 9]];
        let h = vec![vec![1, 2, 3], vec![4, 5, 6], vec![7, 8, 9]];
        assert_eq!(best_pairing(&b, &h), vec![(0, 0), (1, 2)]);
        // Equal counts pair in order even when nothing is similar.
        let b = vec![vec![1], vec![2]];
        let h = vec![vec![3], vec![4]];
        assert_eq!(best_pairing(&b, &h), vec![(0, 0), (1, 1)]);
    }
}
