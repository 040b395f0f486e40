//! Every crate's modules form the layers ARCHITECTURE.md documents: a module may use only
//! modules of its own layer or of the layers below it, and no two modules use each other,
//! round any cycle. This test reads the `src/` of every crate of the workspace (`core`, `cli`,
//! `web`, `test-support`), collects the `crate::…` (and `super::…`) paths of every file outside
//! comments, string literals and `#[cfg(test)]` items, and checks two levels: the top-level
//! modules of each crate against its layers in [`LAYERS`] (every module must have one), and
//! the files of each folder against cycles. The crate roots (`lib.rs`, `main.rs`, the binaries
//! in `src/bin/`) only declare, re-export and start, so they may use anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Graph = BTreeMap<String, BTreeSet<String>>;

/// The source with comments, string and char literals blanked (newlines kept), so that only
/// code is searched and braces can be counted.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let blank = |out: &mut String, text: &[u8]| {
        for &c in text {
            out.push(if c == b'\n' { '\n' } else { ' ' });
        }
    };
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"//") {
            let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest.starts_with(b"/*") {
            // Block comments nest in Rust.
            let (mut depth, mut j) = (0, 0);
            while j < rest.len() {
                if rest[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if rest[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    j += 1;
                }
            }
            blank(&mut out, &rest[..j]);
            i += j;
        } else if let Some(len) = raw_string_len(rest) {
            blank(&mut out, &rest[..len]);
            i += len;
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            let end = (j + 1).min(rest.len());
            blank(&mut out, &rest[..end]);
            i += end;
        } else if rest[0] == b'\'' {
            // A char literal ('x', '\n', '\u{1F600}', '"'), or a lifetime ('a), left as it is.
            let len = if rest.get(1) == Some(&b'\\') {
                rest[2..].iter().position(|&c| c == b'\'').map(|p| p + 3)
            } else {
                let c = src[i + 1..].chars().next();
                c.and_then(|c| (rest.get(1 + c.len_utf8()) == Some(&b'\'')).then(|| 2 + c.len_utf8()))
            };
            let len = len.unwrap_or(1);
            if len > 1 {
                blank(&mut out, &rest[..len]);
            } else {
                out.push('\'');
            }
            i += len;
        } else {
            let ch = src[i..].chars().next().unwrap();
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

/// The length of a raw (byte) string literal starting at `rest`: `r"…"`, `r#"…"#`, `br"…"`.
fn raw_string_len(rest: &[u8]) -> Option<usize> {
    let start = if rest.starts_with(b"br") { 2 } else if rest.starts_with(b"r") { 1 } else { return None };
    let hashes = rest[start..].iter().take_while(|&&c| c == b'#').count();
    if rest.get(start + hashes) != Some(&b'"') {
        return None;
    }
    let close: Vec<u8> = std::iter::once(b'"').chain(std::iter::repeat_n(b'#', hashes)).collect();
    let body = start + hashes + 1;
    let end = rest[body..].windows(close.len()).position(|w| w == close.as_slice())?;
    Some(body + end + close.len())
}

/// `code` without the items marked `#[cfg(test)]` (a `mod tests { … }`, a test helper).
fn without_test_items(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let bytes = out.as_bytes();
        let mut j = at + "#[cfg(test)]".len();
        // The item ends at its first `;` outside braces, or at the brace closing its body.
        let mut depth = 0usize;
        while j < bytes.len() {
            match bytes[j] {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        j += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    j += 1;
                    break;
                }
                _ => {}
            }
            j += 1;
        }
        let removed: String = out[at..j].chars().map(|c| if c == '\n' { '\n' } else { ' ' }).collect();
        out.replace_range(at..j, &removed);
    }
    out
}

/// Every path a use tree or an expression names after `crate::` or `super::`, as segments:
/// `crate::a::{b::C, d}` gives `[a, b, C]` and `[a, d]`.
fn paths(code: &str, root: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let needle = format!("{root}::");
    let mut from = 0;
    while let Some(found) = code[from..].find(&needle) {
        let at = from + found;
        from = at + needle.len();
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
            continue;
        }
        tree(&code[from..], Vec::new(), &mut out);
    }
    out
}

/// Parses one use tree at the start of `text` (after `prefix::`) into `out`.
fn tree(text: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let text = text.trim_start();
    if let Some(group) = text.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    tree(&group[start..k], prefix.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    tree(&group[start..k], prefix.clone(), out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    if end == 0 {
        if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    let mut path = prefix;
    if &text[..end] == "self" {
        out.push(path);
        return;
    }
    path.push(text[..end].to_string());
    match text[end..].trim_start().strip_prefix("::") {
        Some(rest) => tree(rest, path, out),
        None => out.push(path),
    }
}

/// A file of the crate: its top-level module, and its file module inside that (`None` for a
/// top-level file such as `share.rs`, or a folder's `mod.rs`).
struct SourceFile {
    top: String,
    file: Option<String>,
    code: String,
}

fn source_files(src: &Path) -> Vec<SourceFile> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(src, &mut files);
    files.sort();
    let tests: BTreeSet<PathBuf> = files.iter().flat_map(|p| test_modules(p)).collect();
    let mut out = Vec::new();
    for path in files.into_iter().filter(|p| !tests.contains(p)) {
        let rel: Vec<String> = path
            .strip_prefix(src)
            .unwrap()
            .iter()
            .map(|s| s.to_string_lossy().trim_end_matches(".rs").to_string())
            .collect();
        if rel == ["lib"] || rel == ["main"] || rel[0] == "bin" {
            continue; // Crate roots declare, re-export and start.
        }
        let top = rel[0].clone();
        let file = rel.get(1).filter(|f| *f != "mod").cloned();
        let code = without_test_items(&code_only(&std::fs::read_to_string(&path).unwrap()));
        out.push(SourceFile { top, file, code });
    }
    out
}

/// The files of the modules `path` declares under `#[cfg(test)]` (`#[cfg(test)] mod one_story;`):
/// test code, like a `mod tests { … }` inside a file.
fn test_modules(path: &Path) -> Vec<PathBuf> {
    let code = code_only(&std::fs::read_to_string(path).unwrap());
    let stem = path.file_stem().unwrap().to_string_lossy();
    // A folder's `mod.rs` and a crate root declare files beside them; `a.rs` declares `a/…`.
    let dir = match stem.as_ref() {
        "mod" | "lib" | "main" => path.parent().unwrap().to_path_buf(),
        _ => path.with_extension(""),
    };
    let mut out = Vec::new();
    for (at, _) in code.match_indices("#[cfg(test)]") {
        let rest = code[at + "#[cfg(test)]".len()..].trim_start();
        let rest = rest.strip_prefix("pub(crate) ").or_else(|| rest.strip_prefix("pub ")).unwrap_or(rest);
        let Some(rest) = rest.strip_prefix("mod ") else { continue };
        let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        if rest[end..].trim_start().starts_with(';') {
            out.push(dir.join(format!("{}.rs", &rest[..end])));
            out.push(dir.join(&rest[..end]).join("mod.rs"));
        }
    }
    out
}

/// The top-level module graph and, per folder, the graph of its files.
fn graphs(src: &Path) -> (Graph, BTreeMap<String, Graph>) {
    let files = source_files(src);
    let tops: BTreeSet<&str> = files.iter().map(|f| f.top.as_str()).collect();
    let mut top_graph = Graph::new();
    let mut folders: BTreeMap<String, Graph> = BTreeMap::new();
    for f in &files {
        top_graph.entry(f.top.clone()).or_default();
        let mut targets: Vec<(String, Option<String>)> = Vec::new();
        for p in paths(&f.code, "crate") {
            if tops.contains(p[0].as_str()) {
                targets.push((p[0].clone(), p.get(1).cloned()));
            }
        }
        for p in paths(&f.code, "super") {
            // `super::x` in a folder's file is its sibling `x`; deeper files (a file module's
            // own submodule) refer to their parent, which is the same node.
            if f.file.is_some() && p[0] != "super" {
                targets.push((f.top.clone(), Some(p[0].clone())));
            }
        }
        for (top, file) in targets {
            if top != f.top {
                top_graph.entry(f.top.clone()).or_default().insert(top);
            } else if let (Some(from), Some(to)) = (&f.file, file) {
                let graph = folders.entry(top).or_default();
                graph.entry(from.clone()).or_default();
                // Only files of the folder are nodes (not items its `mod.rs` re-exports).
                if to != *from && files.iter().any(|g| g.top == f.top && g.file.as_deref() == Some(to.as_str())) {
                    graph.entry(from.clone()).or_default().insert(to);
                }
            }
        }
    }
    (top_graph, folders)
}

/// The first cycle found (as `a → b → … → a`), visiting nodes in name order.
fn find_cycle(graph: &Graph) -> Option<Vec<String>> {
    type State = BTreeMap<String, u8>;
    fn visit(node: &str, graph: &Graph, state: &mut State, stack: &mut Vec<String>) -> Option<Vec<String>> {
        state.insert(node.to_string(), 1);
        stack.push(node.to_string());
        for next in graph.get(node).into_iter().flatten() {
            match state.get(next.as_str()) {
                Some(1) => {
                    let start = stack.iter().position(|n| n == next).unwrap();
                    let mut cycle = stack[start..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(next, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_string(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in graph.keys() {
        if !state.contains_key(node.as_str()) {
            if let Some(c) = visit(node, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The layers of each crate's top-level modules, lowest first (ARCHITECTURE.md lists the same).
const LAYERS: &[(&str, &[&[&str]])] = &[
    ("core", &[&["util"], &["model"], &["cpython"], &["format"], &["engine"], &["report"], &["share"], &["view"]]),
    (
        "cli",
        &[
            &["platform"],
            &["signals", "harness_output", "command_line"],
            &["output", "input"],
            &["python", "render", "gate", "link", "serve"],
            &["viewer", "stats_cmd"],
            &["dump_cmd", "diff_cmd", "view_cmd", "calibrate_cmd"],
        ],
    ),
    (
        "web",
        &[
            &["wire", "format", "route"],
            &["view_model"],
            &["protocol", "stats_order"],
            &["analysis"],
            &["session"],
            &["state"],
            &["bridge"],
            &["browser"],
            &["hooks"],
            &["components"],
        ],
    ),
    ("test-support", &[&["find", "record"]]),
];

fn src_dir(krate: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src")
}

fn show(graph: &Graph) -> String {
    graph.iter().map(|(k, v)| format!("  {k} → {}\n", v.iter().cloned().collect::<Vec<_>>().join(", "))).collect()
}

/// The uses of `graph` that go against `layers` (a module using one of a higher layer), and
/// the modules with no layer.
fn against_the_order(graph: &Graph, layers: &[&[&str]]) -> Vec<String> {
    let layer = |m: &str| layers.iter().position(|l| l.contains(&m));
    let mut wrong = Vec::new();
    for (from, targets) in graph {
        let Some(low) = layer(from) else {
            wrong.push(format!("{from} has no layer"));
            continue;
        };
        for to in targets {
            match layer(to) {
                Some(high) if high > low => wrong.push(format!("{from} (layer {}) uses {to} (layer {})", low + 1, high + 1)),
                Some(_) => {}
                None => wrong.push(format!("{to} has no layer")),
            }
        }
    }
    wrong
}

#[test]
fn every_crate_follows_its_layer_order() {
    let (core, _) = graphs(&src_dir("core"));
    // The scan must see the real dependencies, or it would pass on anything.
    for (from, to) in [("format", "model"), ("engine", "cpython"), ("report", "engine"), ("share", "format"), ("view", "report")] {
        assert!(core[from].contains(to), "expected {from} → {to} in\n{}", show(&core));
    }
    let (cli, _) = graphs(&src_dir("cli"));
    assert!(cli["diff_cmd"].contains("render"), "{}", show(&cli));
    for (krate, layers) in LAYERS {
        let (top, _) = graphs(&src_dir(krate));
        let wrong = against_the_order(&top, layers);
        assert!(wrong.is_empty(), "{krate}: {}\nthe module graph:\n{}", wrong.join("; "), show(&top));
        if let Some(cycle) = find_cycle(&top) {
            panic!("{krate}: module cycle: {}\nthe module graph:\n{}", cycle.join(" → "), show(&top));
        }
    }
}

#[test]
fn files_of_each_folder_form_no_cycle() {
    let (_, folders) = graphs(&src_dir("core"));
    assert!(folders["format"]["dump"].contains("document"), "{}", show(&folders["format"]));
    for (krate, _) in LAYERS {
        let (_, folders) = graphs(&src_dir(krate));
        for (folder, graph) in &folders {
            if let Some(cycle) = find_cycle(graph) {
                panic!("{krate}: cycle between the files of {folder}/: {}\nits file graph:\n{}", cycle.join(" → "), show(graph));
            }
        }
    }
}

#[test]
fn uses_against_the_order_are_found() {
    let mut g = Graph::new();
    g.entry("low".into()).or_default().insert("high".into());
    g.entry("high".into()).or_default().insert("low".into());
    g.entry("odd".into()).or_default();
    let wrong = against_the_order(&g, &[&["low"], &["high"]]);
    assert_eq!(wrong, ["low (layer 1) uses high (layer 2)", "odd has no layer"]);
}

#[test]
fn the_cycle_finder_finds_cycles() {
    let graph = |edges: &[(&str, &str)]| {
        let mut g = Graph::new();
        for (a, b) in edges {
            g.entry(a.to_string()).or_default().insert(b.to_string());
            g.entry(b.to_string()).or_default();
        }
        g
    };
    let dag = graph(&[("a", "b"), ("b", "c"), ("a", "c"), ("d", "a")]);
    assert_eq!(find_cycle(&dag), None);
    let cyclic = graph(&[("a", "b"), ("b", "c"), ("c", "d"), ("d", "b")]);
    assert_eq!(find_cycle(&cyclic).unwrap().join(" → "), "b → c → d → b");
    assert_eq!(find_cycle(&graph(&[("x", "x")])).unwrap().join(" → "), "x → x");
}

#[test]
fn paths_are_read_from_code_only() {
    let src = r##"
        //! See [`crate::report`] for more.
        use crate::model::{dump::Dump, stats::{self, Stats}};
        use crate::util::sort;
        fn f() { let s = "crate::engine"; let c = '"'; let r = r#"crate::share "quoted""#; crate::format::read(); }
        /* crate::share /* nested */ still a comment crate::engine */
        #[cfg(test)]
        mod tests { use crate::report::x; fn g() { if true { crate::engine::y(); } } }
        fn h<'a>(x: &'a str) -> &'a str { crate::cpython::z(x) }
    "##;
    let code = without_test_items(&code_only(src));
    let mut found: Vec<String> = paths(&code, "crate").into_iter().map(|p| p.join("::")).collect();
    found.sort();
    assert_eq!(
        found,
        ["cpython::z", "format::read", "model::dump::Dump", "model::stats", "model::stats::Stats", "util::sort"]
    );
}
