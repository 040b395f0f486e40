//! The harness is kept as parts (`src/harness/NN_name.py`, one section each) that build.rs joins
//! into the one file `specdiff dump` runs. Checked here: the binary runs exactly the parts
//! joined; the joined file compiles, and imports only the standard library, under every
//! interpreter present; each part opens with the comment saying what it owns and stays short.

mod common;

use std::path::PathBuf;

use common::*;

include!("../harness_join.rs");

/// What build.rs wrote and the binary embeds (`dump_cmd::HARNESS`).
const EMBEDDED: &str = include_str!(concat!(env!("OUT_DIR"), "/harness.py"));

/// A part this long or longer is a section to split.
const MAX_PART_LINES: usize = 600;

/// Modules the harness imports that are not in `sys.stdlib_module_names`, and who provides them.
const NOT_STDLIB: [(&str, &str); 1] = [("_specdiff_ticks", "scripts/python-pyodide's timer ticks")];

fn parts_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/harness")
}

/// The parts as they are now, joined by the code build.rs joins them with.
fn joined() -> String {
    join_harness(&harness_parts(&parts_dir()).unwrap_or_else(|e| panic!("{e}")))
}

#[test]
fn the_binary_runs_the_parts_joined() {
    let joined = joined();
    assert!(EMBEDDED == joined, "OUT_DIR/harness.py, which the binary embeds, is not src/harness/*.py joined");
    // The file `specdiff dump` ran, copied by the program from the bottom frame of its stack
    // (the harness's module body).
    let py = any_native();
    let work = tempfile::tempdir().expect("a temporary folder");
    let copy = work.path().join("ran.py");
    let program = "import shutil, sys\n\
                   f = sys._getframe()\n\
                   while f.f_back is not None:\n    f = f.f_back\n\
                   shutil.copyfile(f.f_code.co_filename, sys.argv[1])\n";
    let o = dump_with(py, &work.path().join("d.json"), &["--no-sample", "-c", program, copy.to_str().unwrap()]);
    assert!(o.status.success(), "specdiff dump failed:\n{}", String::from_utf8_lossy(&o.stderr));
    let ran = std::fs::read_to_string(&copy).expect("the program copied the harness");
    assert!(ran == joined, "specdiff dump ran a harness that is not src/harness/*.py joined");
}

/// Compiles the file and lists every import in it (`import`, `from`, `__import__`,
/// `import_module`) whose top-level module is neither in `sys.stdlib_module_names` nor among
/// the names after the path; exits 1 if there is one.
const CHECK_IMPORTS: &str = r#"
import ast, sys
path, allowed = sys.argv[1], set(sys.argv[2:])
with open(path, encoding="utf-8") as f:
    src = f.read()
compile(src, path, "exec")
bad, n = [], 0
for node in ast.walk(ast.parse(src, path)):
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names]
    elif isinstance(node, ast.ImportFrom):
        names = ["." * node.level + (node.module or "")]
    elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", None)) in ("__import__", "import_module"):
        names = ["<dynamic import>"]
    else:
        continue
    for name in names:
        n += 1
        top = name.split(".")[0]
        if top not in sys.stdlib_module_names and top not in allowed:
            bad.append("line %d: %s" % (node.lineno, name))
print("%d imports, not in the standard library: %s" % (n, bad or "none"))
sys.exit(1 if bad else 0)
"#;

#[test]
fn joined_harness_compiles_and_imports_only_the_stdlib_under_every_interpreter() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let path = work.path().join("specdiff_harness.py");
    std::fs::write(&path, joined()).expect("a temporary file");
    let mut failures = Vec::new();
    for py in interpreters() {
        let o = std::process::Command::new(&py.python)
            .arg("-c")
            .arg(CHECK_IMPORTS)
            .arg(&path)
            .args(NOT_STDLIB.map(|(name, _)| name))
            .output()
            .expect("the interpreter runs");
        let out = String::from_utf8_lossy(&o.stdout);
        eprintln!("CPython {}: {}", py.label, out.trim());
        if !o.status.success() || !out.contains(" imports, ") {
            failures.push(format!("CPython {}: {out}{}", py.label, String::from_utf8_lossy(&o.stderr)));
        }
    }
    assert!(failures.is_empty(), "the joined harness:\n{}", failures.join("\n"));
}

/// One section's banner in a part: its number and title, and whether an `Owns:` paragraph
/// follows it.
struct Banner {
    line: usize,
    number: usize,
    title: String,
    owns: bool,
}

fn banners(text: &str) -> Vec<Banner> {
    let lines: Vec<&str> = text.lines().collect();
    let rule = |l: &str| l.len() > 20 && l.starts_with("# ") && l[2..].bytes().all(|b| b == b'-');
    (0..lines.len())
        .filter(|&i| rule(lines[i]))
        .map(|i| {
            let heading = lines.get(i + 1).and_then(|l| l.strip_prefix("# ")).unwrap_or("");
            let (number, title) = heading.split_once(". ").unwrap_or(("", heading));
            Banner {
                line: i + 1,
                number: number.parse().unwrap_or(0),
                title: title.to_string(),
                owns: lines.get(i + 2) == Some(&"#") && lines.get(i + 3).is_some_and(|l| l.starts_with("# Owns: ")),
            }
        })
        .collect()
}

#[test]
fn every_part_opens_with_what_it_owns_and_stays_short() {
    let parts = harness_parts(&parts_dir()).unwrap_or_else(|e| panic!("{e}"));
    let docstring = parts[0].1.split("\"\"\"").nth(1).unwrap_or("");
    let mut problems = Vec::new();
    for (n, (name, text)) in parts.iter().enumerate() {
        let lines = text.lines().count();
        if lines >= MAX_PART_LINES {
            problems.push(format!("{name}: {lines} lines, not under {MAX_PART_LINES}: split the section"));
        }
        // The first part is the module's docstring (nothing may come before it), then section 1.
        if n == 0 && !text.starts_with("\"\"\"specdiff harness: ") {
            problems.push(format!("{name}: does not open with the module docstring"));
        }
        let found = banners(text);
        let [banner] = found.as_slice() else {
            problems.push(format!("{name}: {} section banners, one wanted", found.len()));
            continue;
        };
        if n > 0 && banner.line != 1 {
            problems.push(format!("{name}: opens with line {}, not its section's banner", banner.line));
        }
        if banner.number != n + 1 || !banner.owns {
            problems.push(format!("{name}: its banner is not `# {}. Title`, `#`, `# Owns: what it owns`", n + 1));
        }
        // The docstring's table of contents names the section: "    N. Title   what it holds".
        let listed = docstring.lines().find_map(|l| l.trim_start().strip_prefix(&format!("{}. ", n + 1)));
        let listed = listed.map(|l| l.split("  ").next().unwrap_or("").trim());
        if !listed.is_some_and(|t| !t.is_empty() && banner.title.starts_with(t)) {
            problems.push(format!(
                "{name}: section {} \"{}\" is not in the docstring's list of sections",
                n + 1,
                banner.title
            ));
        }
    }
    assert!(problems.is_empty(), "harness parts:\n{}", problems.join("\n"));
}

#[test]
fn parts_the_join_cannot_place_are_refused() {
    let cases: [(&[(&str, &str)], &str); 5] = [
        (&[("10_a.py", "a = 1\n"), ("20_b.py", "b = 2\n")], ""),
        (&[("10_a.py", "a = 1\n"), ("b.py", "b = 2\n")], "named NN_name.py"),
        (&[("10_a.py", "a = 1\n"), ("10_b.py", "b = 2\n")], "share a number"),
        (&[("10_a.py", "a = 1")], "ends with a newline"),
        (&[("notes.txt", "not a part\n")], "no harness parts"),
    ];
    for (files, refusal) in cases {
        let dir = tempfile::tempdir().expect("a temporary folder");
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).expect("a temporary file");
        }
        match harness_parts(dir.path()) {
            Ok(parts) => {
                assert!(refusal.is_empty(), "{files:?}: joined, but should be refused ({refusal})");
                assert_eq!(join_harness(&parts), "a = 1\nb = 2\n");
            }
            Err(e) => assert!(!refusal.is_empty() && e.contains(refusal), "{files:?}: {e}"),
        }
    }
}
