//! Property test of every output format on dumps whose every untrusted string is odd: control
//! characters, bidi overrides and isolates, zero-width characters, mentions, URLs, backticks,
//! pipes, HTML, line breaks, and now and then a name of 70,000 characters. Through the real
//! engine (`diff_dumps`, `View::of` with the gate) into text, Markdown, JSON and the HTML
//! report, none may panic, and each must be bounded and inert as docs/hostile-input.md says
//! ("Outputs bounded and inert").

use proptest::prelude::*;
use specdiff_core::format::DumpBuilder;
use specdiff_core::view::{GateOptions, View};
use specdiff_core::{diff_dumps, DiffOptions, Dump};

use super::markdown::GITHUB_COMMENT_LIMIT;
use super::{json, markdown, text, RenderInput, NAME_CAP, SENTENCE_CAP};

/// Pieces the strings are made of.
const PIECES: &[&str] = &[
    "f",
    "Klass.meth",
    "<locals>",
    "é",
    "👩‍💻",
    "\x1b[2J",
    "\x07",
    "\x1b]0;t\x07",
    "\r",
    "\n",
    "\t",
    "\u{9b}",
    "\u{202e}",
    "\u{2066}",
    "\u{2069}",
    "\u{200b}",
    "\u{200d}",
    "\u{200e}",
    "\u{feff}",
    "@octocat",
    "@github/security-team",
    "cc @x",
    "https://evil.example/x",
    "http://a",
    "WWW.b.c",
    "www.",
    "`",
    "``",
    "|",
    "<script>",
    "</code>",
    "</summary>",
    "*",
    "_",
    "[x](y)",
    "&amp;",
    "\\",
    " ",
    "#",
    "$",
    "~",
];

/// An odd string: up to 8 pieces, or (one in 64) one piece and 70,000 characters.
fn odd() -> impl Strategy<Value = String> {
    prop_oneof![
        63 => prop::collection::vec(prop::sample::select(PIECES), 0..8).prop_map(|p| p.concat()),
        1 => prop::sample::select(PIECES).prop_map(|p| format!("{p}{}{p}", "Q".repeat(70_000))),
    ]
}

#[derive(Debug, Clone)]
struct Strings {
    module: String,
    qualnames: Vec<String>,
    family: String,
    attr: String,
    source: String,
    argv: String,
    exception: String,
}

fn strings() -> impl Strategy<Value = Strings> {
    (odd(), prop::collection::vec(odd(), 1..4), odd(), odd(), odd(), odd(), odd()).prop_map(
        |(module, qualnames, family, attr, source, argv, exception)| Strings {
            module,
            qualnames,
            family,
            attr,
            source,
            argv,
            exception,
        },
    )
}

/// Base: every function's attribute load specialized; head: backed off (a regression), and
/// the head run ended with `exception`. A family and opnames of the odd family's name.
fn dump(s: &Strings, head: bool) -> Dump {
    let mut b = DumpBuilder::new("3.12.1");
    let generic = format!("X{}", s.family);
    let special = format!("{generic}_S");
    b.op_explicit(&generic, &generic, false, Some(specdiff_core::model::CounterKind::Adaptive));
    b.op_explicit(&special, &generic, true, Some(specdiff_core::model::CounterKind::Adaptive));
    for (i, q) in s.qualnames.iter().enumerate() {
        let line = 1 + 2 * i as u32;
        let c = b.code(&s.module, q, line).ins("LOAD_FAST", "self", line);
        let c = if head {
            c.ins("LOAD_ATTR", &s.attr, line + 1).backoff(3)
        } else {
            c.ins("LOAD_ATTR_SLOT", &s.attr, line + 1)
        };
        let c = if head { c.ins(&generic, "x", line + 1) } else { c.ins(&special, "x", line + 1) };
        c.finish();
        b.source(&s.module, line + 1, &s.source);
    }
    let side = if head { "head_only" } else { "base_only" };
    b.code(&s.module, &format!("{side}{}", s.qualnames[0]), 90).ins("LOAD_FAST", "x", 91).finish();
    let mut d = b.build();
    d.run.argv = vec![s.argv.clone()];
    d.run.exception = head.then(|| s.exception.clone());
    d
}

/// Characters a terminal or a bidi-aware viewer acts on (written out, not taken from the code
/// under test).
fn acted_on(c: char) -> bool {
    c != '\n'
        && (c.is_control()
            || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'))
}

/// `line` without its code spans (a run of N backticks up to the next run of exactly N) and
/// `<code>…</code>`, and without backslash escapes: the parts GitHub mentions and links in.
fn outside_code(line: &str) -> String {
    let line = line.replace("<code>", "\u{1}").replace("</code>", "\u{2}");
    let c: Vec<char> = line.chars().collect();
    let (mut out, mut i, mut in_html_code) = (String::new(), 0, false);
    let run = |i: usize| c[i..].iter().take_while(|&&x| x == '`').count();
    while i < c.len() {
        match c[i] {
            '\u{1}' => in_html_code = true,
            '\u{2}' => in_html_code = false,
            _ if in_html_code => {}
            '\\' => i += 1,
            '`' => {
                let n = run(i);
                let mut j = i + n;
                let close = loop {
                    match c[j..].iter().position(|&x| x == '`') {
                        None => break None,
                        Some(p) => {
                            let m = run(j + p);
                            if m == n {
                                break Some(j + p);
                            }
                            j += p + m;
                        }
                    }
                };
                match close {
                    Some(k) => i = k + n - 1,
                    None => i += n - 1,
                }
            }
            ch => out.push(ch),
        }
        i += 1;
    }
    out
}

fn check_markdown(md: &str) {
    let mut fenced = false;
    for line in md.lines() {
        // A fence line is backticks alone, or followed by the block's language (`diff`).
        let t = line.trim_start();
        if t.starts_with("```") && t.trim_start_matches('`').chars().all(|c| c.is_ascii_alphabetic()) {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let out = outside_code(line).to_lowercase();
        let mention = out.match_indices('@').any(|(i, _)| !out[i + 1..].starts_with("&#8203;"));
        assert!(!mention, "a mention outside code: {line:?}");
        assert!(!out.contains("://") && !out.contains("www."), "a link outside code: {line:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn every_output_is_bounded_and_inert(s in strings(), gate in any::<bool>()) {
        let (base, head) = (dump(&s, false), dump(&s, true));
        let options = DiffOptions { allow_unrelated: true, include_unchanged: true, ..Default::default() };
        let report = diff_dumps(&base, &head, &options).expect("allowed");
        let view = View::of(&report, gate.then_some(GateOptions { min_hotness: 1.0, import_time: true, traces: false, min_cost: None }));
        let input = RenderInput { report: &report, base: &base, head: &head, stats: None, stats_note: None, view: &view, link: None };

        // Text: no raw control or bidi character; every line bounded by the caps, whatever the
        // names (at most 6 characters of escape for one).
        for color in [false, true] {
            let out = text::render(&input, color, true);
            if !color {
                prop_assert!(!out.chars().any(acted_on), "text: {out:?}");
            }
            let longest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            prop_assert!(longest <= 6 * (3 * NAME_CAP + 2 * SENTENCE_CAP), "a text line of {longest} chars");
        }
        // Markdown: under GitHub's limit, inert, no mention or bare URL outside code.
        let md = markdown::render(&input, GITHUB_COMMENT_LIMIT);
        prop_assert!(md.chars().count() < GITHUB_COMMENT_LIMIT);
        prop_assert!(!md.chars().any(acted_on), "markdown: {md:?}");
        check_markdown(&md);
        // JSON: valid, and the names whole.
        let json = json::render(&input);
        let value: serde_json::Value = serde_json::from_slice(&json).expect("valid JSON");
        let first = value["report"]["functions"][0]["qualname"].as_str().or(value["functions"][0]["qualname"].as_str());
        if let Some(q) = first {
            // (The engine may add `@LINE` to tell apart functions sharing a name.)
            prop_assert!(s.qualnames.iter().any(|n| q.starts_with(n.as_str())), "JSON keeps names whole");
        }
        // The HTML report: the runs travel as a share payload in the page's hash (base64url),
        // so no program text, no raw control character and no `<` of its own reach the file.
        let page = "<html><body><script>\nglobalThis.specdiffDemo = [];\n</script></body></html>";
        let html = crate::viewer::with_runs(page, crate::viewer::Runs::Share(&crate::link::report_payload(&base, &head, &report)), false, None);
        prop_assert!(!html.chars().any(acted_on));
        prop_assert_eq!(html.matches('<').count(), page.matches('<').count() + 2, "only the page's and its script's tags");
    }
}

#[test]
fn the_code_span_reader_of_this_test() {
    assert_eq!(outside_code("a `@x` b ``c`@d`` e \\`@f"), "a  b  e @f");
    assert_eq!(outside_code("<code>@x</code> y"), " y");
    assert_eq!(outside_code("unclosed ` @x"), "unclosed  @x");
}
