//! Stable identity of code objects (issue 14), on real dumps: `tests/programs/identity.py` (same-
//! field dataclasses, namedtuples, lambdas and generator expressions on one line, `exec`-made
//! functions, `functools.wraps` wrappers) dumped five times under every interpreter present,
//! each run with its own `PYTHONHASHSEED` (which moves the harness's memory order: before stable
//! identity, seeds 1 and 2 on 3.12 paired Point's and Size's `__init__` crosswise, "2 lost").
//! Every pair of runs must pair code objects the same way (same display name on both sides),
//! report no regression and pass the gate; the harness must fill the identity fields on every
//! version; and permuting a real dump's code array must change nothing.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use common::*;
use specdiff_core::engine::CodeNames;
use specdiff_core::model::Dump;
use specdiff_core::report::{DiffOptions, DiffSession};

const RUNS: u32 = 5;
const PROGRAM: &str = "crates/cli/tests/programs/identity.py";

fn work_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("specdiff-identity-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `identity.py` dumped [`RUNS`] times under `py`, run `n` with `PYTHONHASHSEED=n`.
fn dumps(py: &Interpreter, dir: &Path) -> Vec<(PathBuf, Dump)> {
    (1..=RUNS)
        .map(|seed| {
            let out = dir.join(format!("identity-{}-{seed}.json", py.key));
            let o = specdiff()
                .args(["dump", "--python"])
                .arg(&py.python)
                .arg("-o")
                .arg(&out)
                .arg(PROGRAM)
                .env("PYTHONHASHSEED", seed.to_string())
                .current_dir(repo_root())
                .output()
                .expect("specdiff runs");
            assert!(o.status.success(), "dump under {} failed:\n{}", py.label, String::from_utf8_lossy(&o.stderr));
            let d = read(&out);
            (out, d)
        })
        .collect()
}

/// The display name of every code object, with its module.
fn names(d: &Dump) -> Vec<(String, String)> {
    let names = CodeNames::of(d);
    (0..d.code.len() as u32)
        .map(|i| (specdiff_core::engine::identity(d, &d.code[i as usize]).0, names.name(d, i).to_string()))
        .collect()
}

/// The identity fields are filled on this version: owners of the exec'd dataclass and
/// namedtuple functions, distinct `made_at` for the lambdas on one line, a body everywhere;
/// and every code object has a name of its own.
fn check_identity_fields(py: &Interpreter, d: &Dump) {
    let owners: HashSet<&str> = d.code.iter().filter_map(|c| c.owner.map(|o| d.str(o))).collect();
    // (Not Cold's: it runs once, which 3.11 leaves no evidence of.)
    for owner in ["Point.__init__", "Size.__init__", "Pair.__init__", "Pt.__new__", "Sz.__new__"] {
        assert!(owners.contains(owner), "{}: no code object owned by {owner}; owners {owners:?}", py.label);
    }
    let line = line_of(&repo_root().join(PROGRAM), "fs = [lambda");
    let cols: Vec<_> = d
        .code
        .iter()
        .filter(|c| d.str(c.qualname) == "make.<locals>.<lambda>" && c.first_line == line)
        .map(|c| c.made_at.unwrap_or_else(|| panic!("{}: a lambda without made_at", py.label)))
        .collect();
    // (Three or four: the fourth runs once, which 3.11 leaves no evidence of.)
    assert!(cols.len() >= 3, "{}: the lambdas of line {line}: {cols:?}", py.label);
    assert_eq!(cols.iter().collect::<HashSet<_>>().len(), cols.len(), "{}: lambdas at {cols:?}", py.label);
    assert!(d.code.iter().all(|c| c.body.is_some()), "{}: a code object without body", py.label);
    // exec_made's functions run in globals without `__name__`: no module of their own, so
    // they are labelled with their pseudo-file, not as the script's.
    let exec_made: Vec<&str> = d.code.iter().filter(|c| d.str(c.qualname) == "f").map(|c| d.str(c.module)).collect();
    assert!(exec_made.len() >= 3 && exec_made.iter().all(|m| *m == "<string>"), "{}: {exec_made:?}", py.label);
    let all = names(d);
    let distinct: HashSet<_> = all.iter().collect();
    assert_eq!(distinct.len(), all.len(), "{}: two code objects share a display name", py.label);
}

#[test]
fn repeated_runs_pair_the_same_way_and_pass_the_gate() {
    let dir = work_dir("runs");
    std::thread::scope(|s| {
        for py in interpreters() {
            let dir = &dir;
            s.spawn(move || {
                let runs = dumps(py, dir);
                for (_, d) in &runs {
                    check_identity_fields(py, d);
                }
                let mut pairs = 0;
                for (i, (pa, a)) in runs.iter().enumerate() {
                    for (pb, b) in &runs[i + 1..] {
                        let session = DiffSession::new(a, b, DiffOptions::default());
                        let (an, bn) = (names(a), names(b));
                        for p in &session.matching().pairs {
                            let (x, y) = (&an[p.base as usize], &bn[p.head as usize]);
                            assert_eq!(x, y, "{}: {} paired with {} ({} / {})", py.label, x.1, y.1, pa.display(), pb.display());
                        }
                        // The program's code: its own and what it exec'd (dataclass and
                        // namedtuple functions). The standard library's own run-to-run noise
                        // (3.13: importlib's weakref callbacks, which run when gc does) is not
                        // a matter of identity.
                        let program = ["__main__", "namedtuple_*"];
                        let options = DiffOptions { modules: program.map(String::from).to_vec(), ..DiffOptions::default() };
                        let report = DiffSession::new(a, b, options).report().unwrap();
                        let lost: Vec<_> = report.functions.iter().filter(|f| f.regressions > 0).map(|f| &f.qualname).collect();
                        assert!(lost.is_empty(), "{}: regressions in {lost:?} ({} / {})", py.label, pa.display(), pb.display());
                        let o = specdiff()
                            .args(["diff", "--fail-on-regression", "--module", program[0], "--module", program[1]])
                            .arg(pa)
                            .arg(pb)
                            .output()
                            .unwrap();
                        assert_eq!(o.status.code(), Some(0), "{}: gate failed:\n{}", py.label, String::from_utf8_lossy(&o.stdout));
                        pairs += 1;
                    }
                }
                assert_eq!(pairs, RUNS * (RUNS - 1) / 2);
                ran("identity", &py.label);
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}

/// `d` with its code array reversed (parents re-pointed).
fn reversed(d: &Dump) -> Dump {
    let n = d.code.len() as u32;
    let mut r = d.clone();
    r.code.reverse();
    for c in &mut r.code {
        c.parent = c.parent.map(|p| n - 1 - p);
    }
    r
}

#[test]
fn permuting_a_real_dump_changes_nothing() {
    let dir = work_dir("permute");
    let py = &interpreters()[0];
    let (_, d) = dumps(py, &dir).swap_remove(0);
    let r = reversed(&d);
    let n = d.code.len() as u32;
    let mut session = DiffSession::new(&d, &r, DiffOptions::default());
    let m = session.matching().clone();
    assert!(m.added.is_empty() && m.removed.is_empty());
    assert_eq!(m.pairs.len(), d.code.len());
    // Each code object is paired with itself, or with a twin equal in its identity and its
    // adaptive state (the same exec'd text run twice, doing the same; only the addresses in
    // their `<code object f at 0x…>` argreprs differ): interchangeable.
    let twin = |c: &specdiff_core::model::CodeInfo| {
        let state: Vec<_> = c.instructions.iter().map(|i| (i.offset, i.op, i.cache.clone())).collect();
        (c.module, c.qualname, c.owner, c.first_line, c.made_at, c.body, state)
    };
    for p in &m.pairs {
        let (b, h) = (&d.code[p.base as usize], &r.code[p.head as usize]);
        assert!(
            p.head == n - 1 - p.base || twin(b) == twin(h),
            "{}: code {} ({}) paired with a different code object",
            py.label,
            p.base,
            d.str(b.qualname)
        );
    }
    let report = session.report().unwrap();
    assert!(report.functions.is_empty(), "{}: changes between a dump and itself reordered", py.label);
    let _ = std::fs::remove_dir_all(&dir);
}
