//! Property tests of the alignment: every instruction of both sides appears exactly once, in
//! order; diffing a dump with itself reports nothing; changes point at their rows.

use proptest::prelude::*;
use specdiff_core::engine::{align_sites, AlignAlgorithm, AlignOptions};
use specdiff_core::format::DumpBuilder;
use specdiff_core::model::Dump;
use specdiff_core::cpython::{Site, SiteTag};
use specdiff_core::report::{Row, RowSide};
use specdiff_core::*;

/// Opnames (with operands) instructions are drawn from: specialized, generic, folded
/// (`EXTENDED_ARG`, `NOP`, `PUSH_NULL`, `PRECALL`), superinstruction halves and jumps.
const VOCAB: &[(&str, &str)] = &[
    ("LOAD_FAST", "a"),
    ("LOAD_FAST", "b"),
    ("STORE_FAST", "a"),
    ("LOAD_CONST", "1"),
    ("LOAD_ATTR_SLOT", "x"),
    ("LOAD_ATTR", "x"),
    ("LOAD_ATTR_INSTANCE_VALUE", "y"),
    ("BINARY_OP_ADD_INT", "+"),
    ("BINARY_OP", "*"),
    ("LOAD_GLOBAL_BUILTIN", "NULL + getattr"),
    ("LOAD_GLOBAL", "NULL + len"),
    ("CALL", ""),
    ("CALL_BUILTIN_FAST", ""),
    ("EXTENDED_ARG", ""),
    ("NOP", ""),
    ("PUSH_NULL", ""),
    ("PRECALL_NO_KW_LEN", ""),
    ("JUMP_BACKWARD", "to 4"),
    ("RETURN_VALUE", ""),
];

type Code = Vec<(usize, u16, u32)>; // (vocab index, counter word, line)

fn code_strategy() -> impl Strategy<Value = Code> {
    prop::collection::vec((0..VOCAB.len(), prop_oneof![Just(0u16), 0u16..2000], 1u32..20), 0..40)
}

fn build(version: &str, funcs: &[Code]) -> Dump {
    let mut b = DumpBuilder::new(version);
    for (fi, code) in funcs.iter().enumerate() {
        let mut c = b.code("m", &format!("f{fi}"), 1);
        for &(v, word, line) in code {
            let (op, arg) = VOCAB[v];
            c = c.ins(op, arg, line);
            if word != 0 && (op.starts_with("LOAD_ATTR") || op.starts_with("BINARY_OP")) {
                c = c.word(word);
            }
        }
        c.finish();
    }
    b.build()
}

/// Applies edits (delete, insert, change counter) to a copy of `code`.
fn mutate(code: &Code, edits: &[(u8, usize, usize, u16)]) -> Code {
    let mut out = code.clone();
    for &(what, at, v, word) in edits {
        let at = if out.is_empty() { 0 } else { at % (out.len() + 1) };
        match what % 3 {
            0 if at < out.len() => {
                out.remove(at);
            }
            1 => out.insert(at, (v % VOCAB.len(), word, 7)),
            _ if at < out.len() => out[at].1 = word,
            _ => {}
        }
    }
    out
}

fn indices(rows: &[Row], pick: fn(&Row) -> Option<&RowSide>) -> Vec<u32> {
    rows.iter().filter_map(pick).flat_map(|s| s.instructions.iter().map(|i| i.index)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn site_alignment_is_a_merge_of_both_sequences(
        base in prop::collection::vec((0u64..6, 0u64..4, 0u8..3), 0..60),
        head in prop::collection::vec((0u64..6, 0u64..4, 0u8..3), 0..60),
        alg in prop_oneof![Just(AlignAlgorithm::Myers), Just(AlignAlgorithm::Patience), Just(AlignAlgorithm::Histogram), Just(AlignAlgorithm::Lcs)],
    ) {
        let mk = |v: &[(u64, u64, u8)]| -> Vec<Site> {
            v.iter().enumerate().map(|(i, &(f, o, t))| Site {
                start: i as u32, end: i as u32 + 1, primary: i as u32, spec: i as u32,
                key: (f << 32) | o,
                tag: [SiteTag::Plain, SiteTag::AttrLoad, SiteTag::GetattrCall][t as usize],
                // Family 5 stands for calls, some of which name their callee (0: none).
                callee: if f == 5 { (i % 3) as u32 } else { 0 },
            }).collect()
        };
        let (b, h) = (mk(&base), mk(&head));
        let rows = align_sites(&b, &h, &AlignOptions { algorithm: alg, deadline_ms: None });
        let bs: Vec<u32> = rows.iter().filter_map(|r| r.base).collect();
        let hs: Vec<u32> = rows.iter().filter_map(|r| r.head).collect();
        prop_assert_eq!(bs, (0..b.len() as u32).collect::<Vec<_>>());
        prop_assert_eq!(hs, (0..h.len() as u32).collect::<Vec<_>>());
        for r in &rows {
            if let (Some(i), Some(j), specdiff_core::engine::RowKind::Same) = (r.base, r.head, r.kind) {
                prop_assert_eq!(b[i as usize].key, h[j as usize].key);
            }
        }
    }

    #[test]
    fn rows_contain_every_instruction_once_in_order(
        code in code_strategy(),
        edits in prop::collection::vec((0u8..3, 0usize..50, 0usize..50, 0u16..2000), 0..8),
        versions in prop_oneof![Just(("3.12.1", "3.12.1")), Just(("3.11.7", "3.11.7")), Just(("3.12.1", "3.13.0")), Just(("3.11.7", "3.12.1"))],
    ) {
        let head_code = mutate(&code, &edits);
        let (base, head) = (build(versions.0, std::slice::from_ref(&code)), build(versions.1, std::slice::from_ref(&head_code)));
        let fr = function_rows(&base, &head, Some(0), Some(0), &DiffOptions::default());
        prop_assert_eq!(indices(&fr.rows, |r| r.base.as_ref()), (0..code.len() as u32).collect::<Vec<_>>());
        prop_assert_eq!(indices(&fr.rows, |r| r.head.as_ref()), (0..head_code.len() as u32).collect::<Vec<_>>());
        for c in &fr.changes {
            prop_assert_eq!(fr.rows[c.row as usize].change, Some(c.kind));
        }
    }

    #[test]
    fn a_dump_diffed_with_itself_reports_nothing(
        funcs in prop::collection::vec(code_strategy(), 1..4),
        version in prop_oneof![Just("3.11.7"), Just("3.12.1"), Just("3.13.0")],
    ) {
        let d = build(version, &funcs);
        let r = diff_dumps(&d, &d, &DiffOptions::default()).unwrap();
        prop_assert!(r.is_empty(), "{:#?}", r.functions);
        prop_assert_eq!(r.summary.regressions, 0);
    }
}
