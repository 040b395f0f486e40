//! The page says what the CLI says: on the demo pair's recorded CPython 3.12 dumps, the
//! overview's numbers and every top regression's words are found verbatim in
//! `specdiff diff`'s text and markdown outputs of the same dumps. Those outputs are the golden
//! files of `crates/cli/tests/same_output.rs`, which checks the CLI still writes them byte for
//! byte, so this compares the three outputs of one diff.

use std::rc::Rc;

use specdiff_core::model::Dump;
use specdiff_core::{read_dump, ReadLimits};

use super::one_story::{self, as_read, golden};
use super::digest::diff_summary;
use super::{code_keys, Pair};
use crate::view_model::Summary;

fn fixture(name: &str) -> Dump {
    read_dump(name, &one_story::fixture(name), ReadLimits::default()).unwrap()
}

#[test]
fn page_text_and_markdown_use_the_same_words() {
    let (base, head) = (Rc::new(fixture("demo-base-3.12")), Rc::new(fixture("demo-head-3.12")));
    let (bk, hk) = (code_keys(&base), code_keys(&head));
    let mut pair = Pair::new(base, head);
    let mut page = Summary::empty();
    let report = pair.report();
    diff_summary(&mut pair, &report, &bk, &hk, (None, &[]), &mut page);
    let text = golden("demo-3.12.txt");
    let markdown = as_read(&golden("demo-3.12.md"));
    let in_both = |what: &str, words: &str| {
        assert!(text.contains(words), "{what}: the page says {words:?}, the text output does not:\n{text}");
        assert!(markdown.contains(words), "{what}: the page says {words:?}, the markdown does not:\n{markdown}");
    };

    let share = page.overview.metrics.iter().find(|m| m.label == "specialized share").expect("a share metric");
    for side in [&share.base, &share.head] {
        in_both("specialized share", side.as_deref().unwrap());
    }

    let top: Vec<_> = page.overview.top.iter().filter(|t| t.class.is_regression()).collect();
    assert!(top.len() >= 3, "the demo pair has regressions on the page: {top:?}");
    for item in top {
        in_both("kind", item.class.label());
        let f = report.functions.iter().find(|f| f.qualname == item.title).expect("the item's function is in the report");
        let c = f.changes.iter().find(|c| c.kind.is_regression()).unwrap();
        // The page's sentence is opnames (lines): explanation; each part is in both outputs,
        // and markdown has the first two together as the page does.
        let (opnames, lines) = (specdiff_core::report::wording::opnames(c), specdiff_core::report::wording::lines(c));
        assert!(item.detail.contains(&format!("{opnames} ({lines}): ")), "{}", item.detail);
        let regressions = item.detail.split(" · ").next().unwrap();
        assert!(regressions.ends_with("regression") || regressions.ends_with("regressions"), "{}", item.detail);
        in_both("regressions of the function", regressions);
        in_both("opnames", &opnames);
        in_both("lines", &lines);
        assert!(markdown.contains(&format!("{opnames} ({lines})")), "{opnames} ({lines})");
        let why = c.explanation.as_deref().expect("the demo's regressions are explained");
        assert!(item.detail.ends_with(why), "{}", item.detail);
        assert!(text.contains(why), "explanation: the text output does not say {why:?}");
        assert!(markdown.contains(&as_read(why)), "explanation: the markdown does not say {why:?}");
    }
}
