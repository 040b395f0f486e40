//! Engine tests on small synthetic dumps (see `specdiff_core::builder`): one scenario per
//! change kind, matching, normalization across versions, filters, ranking and the JSON contract.

use specdiff_core::format::DumpBuilder;
use specdiff_core::model::Dump;
use specdiff_core::report::RowKind;
use specdiff_core::*;

fn diff(base: &Dump, head: &Dump) -> DiffReport {
    diff_dumps(base, head, &DiffOptions::default()).expect("related dumps")
}

/// One function `f` whose body is `body` (run on a fresh builder of `version`).
fn one(version: &str, body: impl FnOnce(specdiff_core::format::CodeBuilder) -> specdiff_core::format::CodeBuilder) -> Dump {
    sampled(version, 0, body)
}

/// [`one`] in a run of 100 samples, `hits` of them on `f`'s line 4.
fn sampled(
    version: &str,
    hits: u64,
    body: impl FnOnce(specdiff_core::format::CodeBuilder) -> specdiff_core::format::CodeBuilder,
) -> Dump {
    let mut b = DumpBuilder::new(version);
    b.samples(100);
    b.code("m", "<module>", 1).ins("RESUME", "", 1).ins("LOAD_CONST", "<code object f>", 1).ins("RETURN_VALUE", "", 1).finish();
    let c = b.code("m", "f", 3).ins("RESUME", "", 3).ins("LOAD_FAST", "p", 4);
    body(c).ins("RETURN_VALUE", "", 5).samples(hits, &[(4, hits)]).finish();
    // The site's line, the same text in every dump: "what reaches it changed" needs it.
    b.source("m", 4, "    return f(p)");
    b.build()
}

fn only_change(r: &DiffReport) -> &Change {
    assert_eq!(r.functions.len(), 1, "{:#?}", r.functions);
    assert_eq!(r.functions[0].changes.len(), 1, "{:#?}", r.functions[0].changes);
    &r.functions[0].changes[0]
}

#[test]
fn lost_gained_changed() {
    let slot = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let generic = one("3.12.1", |c| c.ins("LOAD_ATTR", "x", 4).backoff(4));
    let prop = one("3.12.1", |c| c.ins("LOAD_ATTR_PROPERTY", "x", 4));

    let r = diff(&slot, &generic);
    let c = only_change(&r);
    assert_eq!((c.kind, c.family.as_str()), (ChangeKind::Lost, "LOAD_ATTR"));
    assert_eq!((c.base.as_deref(), c.head.as_deref()), (Some("LOAD_ATTR_SLOT"), Some("LOAD_ATTR")));
    assert_eq!((c.base_line, c.head_line), (Some(4), Some(4)));
    assert_eq!(c.head_counter.unwrap().failures(), 3);
    assert_eq!(r.functions[0].regressions, 1);
    assert_eq!(r.functions[0].qualname, "f");
    assert_eq!(r.summary.regressions, 1);

    assert_eq!(only_change(&diff(&generic, &slot)).kind, ChangeKind::Gained);
    assert_eq!(diff(&generic, &slot).functions[0].regressions, 0);
    let c = diff(&slot, &prop);
    assert_eq!(only_change(&c).kind, ChangeKind::Changed);
    assert_eq!(only_change(&c).head.as_deref(), Some("LOAD_ATTR_PROPERTY"));
}

/// [`one`] in a run that was not sampled (`--no-sample`, pyodide).
fn unsampled(version: &str, body: impl FnOnce(specdiff_core::format::CodeBuilder) -> specdiff_core::format::CodeBuilder) -> Dump {
    let mut d = one(version, body);
    d.run.sampler.samples = 0;
    d
}

#[test]
fn missing_needs_more_misses_than_base() {
    for version in ["3.11.7", "3.12.1", "3.13.0"] {
        let fresh = unsampled(version, |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
        let missed = unsampled(version, |c| c.ins("LOAD_ATTR_SLOT", "x", 4).misses(10));
        let c = diff(&fresh, &missed);
        assert_eq!(only_change(&c).kind, ChangeKind::Missing, "{version}");
        assert_eq!(only_change(&c).head_counter.unwrap().misses(), 10, "{version}");
        // Sampled runs where the sampler could have looked at `f` often enough (10 samples)
        // and never saw head re-specialize: the snapshot alone does not prove that the misses
        // go on.
        let fresh_s = sampled(version, 10, |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
        let missed_s = sampled(version, 10, |c| c.ins("LOAD_ATTR_SLOT", "x", 4).misses(10));
        assert_eq!(only_change(&diff(&fresh_s, &missed_s)).kind, ChangeKind::Minor, "{version}");
        // Sampled, but the runs took 2 samples: too few looks to prove anything either way.
        let (mut fresh_2, mut missed_2) = (fresh_s.clone(), missed_s.clone());
        fresh_2.run.sampler.samples = 2;
        missed_2.run.sampler.samples = 2;
        assert_eq!(only_change(&diff(&fresh_2, &missed_2)).kind, ChangeKind::Missing, "{version}");
        assert!(diff(&missed, &missed).is_empty(), "{version}");
        assert!(diff(&missed, &fresh).is_empty(), "fewer misses is not a regression ({version})");
    }
}

#[test]
fn backed_off_only_when_head_fails_more() {
    // Base ran the site (warming, word 1) and its line was sampled as often as head's: head's 5
    // proven failures are comparable.
    let warm = sampled("3.12.1", 10, |c| c.ins("BINARY_OP", "+", 4).word(1));
    let failing = sampled("3.12.1", 10, |c| c.ins("BINARY_OP", "+", 4).backoff(6));
    assert_eq!(only_change(&diff(&warm, &failing)).kind, ChangeKind::BackedOff);
    // Unsampled, or sampled in head 4× as often: head only ran the generic site more.
    let busier = sampled("3.12.1", 40, |c| c.ins("BINARY_OP", "+", 4).backoff(6));
    assert_eq!(only_change(&diff(&warm, &busier)).kind, ChangeKind::Minor);
    let unsampled = one("3.12.1", |c| c.ins("BINARY_OP", "+", 4).word(1));
    assert_eq!(only_change(&diff(&unsampled, &failing)).kind, ChangeKind::Minor);
    // Base never ran it (cold): a workload change, `minor`.
    let cold = one("3.12.1", |c| c.ins("BINARY_OP", "+", 4).word(17));
    assert_eq!(only_change(&diff(&cold, &failing)).kind, ChangeKind::Minor);
    assert!(diff(&failing, &failing).is_empty());
    // 3.12: backoff 1 is the warm-up value (also after one deopt): no failure proven.
    let deopted = one("3.12.1", |c| c.ins("BINARY_OP", "+", 4).word(1));
    assert!(diff(&warm, &deopted).is_empty());
    // 3.11: backoff 1 is already one failed attempt.
    let w11 = sampled("3.11.7", 10, |c| c.ins("BINARY_OP_ADAPTIVE", "+", 4).word(5 << 4));
    let f11 = sampled("3.11.7", 10, |c| c.ins("BINARY_OP_ADAPTIVE", "+", 4).word(1));
    assert_eq!(only_change(&diff(&w11, &f11)).kind, ChangeKind::Minor, "one failed attempt is under min_failures");
    let f11 = sampled("3.11.7", 10, |c| c.ins("BINARY_OP_ADAPTIVE", "+", 4).word((2 << 4) | 2));
    assert_eq!(only_change(&diff(&w11, &f11)).kind, ChangeKind::BackedOff);
}

#[test]
fn churning_ignores_warm_up() {
    let calm = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let churn = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4).churn(6, &["LOAD_ATTR", "LOAD_ATTR_INSTANCE_VALUE", "LOAD_ATTR_SLOT"]));
    let c = diff(&calm, &churn);
    assert_eq!(only_change(&c).kind, ChangeKind::Churning);
    assert_eq!(only_change(&c).head_churn.as_ref().unwrap().effective_flips, 5);
    assert!(only_change(&c).explanation.as_deref().unwrap().contains("what reaches this site varies"));
    assert_eq!(only_change(&c).cause, Some(specdiff_core::engine::Cause::Churning));
    let warmup = one("3.11.7", |c| c.ins("LOAD_GLOBAL_BUILTIN", "print", 4).churn(2, &["LOAD_GLOBAL", "LOAD_GLOBAL_ADAPTIVE", "LOAD_GLOBAL_BUILTIN"]));
    let plain = one("3.11.7", |c| c.ins("LOAD_GLOBAL_BUILTIN", "print", 4));
    assert!(diff(&plain, &warmup).is_empty(), "warm-up transitions are not churn");
}

#[test]
fn added_and_removed_sites_and_edits() {
    let base = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let head = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4).ins("LOAD_ATTR_SLOT", "y", 4).ins("LOAD_FAST", "q", 4));
    let r = diff(&base, &head);
    let c = only_change(&r);
    assert_eq!((c.kind, c.base.as_deref(), c.head.as_deref()), (ChangeKind::Added, None, Some("LOAD_ATTR_SLOT")));
    assert_eq!(c.operand.as_deref(), Some("y"));
    assert_eq!(r.functions[0].edits, 1, "the LOAD_FAST is an edit, not a change");
    assert_eq!(only_change(&diff(&head, &base)).kind, ChangeKind::Removed);
}

#[test]
fn line_shifts_do_not_break_matching() {
    let base = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let mut b = DumpBuilder::new("3.12.1");
    b.code("m", "<module>", 1).ins("RESUME", "", 1).ins("LOAD_CONST", "<code object f>", 1).ins("RETURN_VALUE", "", 1).finish();
    b.code("m", "f", 30).ins("RESUME", "", 30).ins("LOAD_FAST", "p", 40).ins("LOAD_ATTR_SLOT", "x", 40).ins("RETURN_VALUE", "", 50).finish();
    let r = diff(&base, &b.build());
    assert!(r.is_empty(), "{:#?}", r.functions);
    assert_eq!(r.summary.matched, 2);
}

#[test]
fn duplicate_qualnames_pair_by_order_and_similarity() {
    let lambda = |b: &mut DumpBuilder, line: u32, attr: &str| {
        b.code("m", "g.<locals>.<lambda>", line).ins("RESUME", "", line).ins("LOAD_FAST", "o", line).ins("LOAD_ATTR_SLOT", attr, line).ins("RETURN_VALUE", "", line).finish()
    };
    let mut b = DumpBuilder::new("3.12.1");
    b.code("m", "<module>", 1).ins("RESUME", "", 1).finish();
    lambda(&mut b, 5, "a");
    lambda(&mut b, 9, "c");
    let mut h = DumpBuilder::new("3.12.1");
    h.code("m", "<module>", 1).ins("RESUME", "", 1).finish();
    lambda(&mut h, 6, "a");
    let new = lambda(&mut h, 8, "zzz_new");
    lambda(&mut h, 12, "c");
    let (base, head) = (b.build(), h.build());
    let r = diff(&base, &head);
    assert!(r.functions.is_empty(), "{:#?}", r.functions);
    assert_eq!(r.added_functions.len(), 1);
    assert_eq!(r.added_functions[0].code, new);
    // Three lambdas share the qualname in head: each is shown with where it is (no `made_at`
    // in these dumps: its first line).
    assert_eq!(r.added_functions[0].qualname, "g.<locals>.<lambda>@8");
    assert!(r.removed_functions.is_empty());
}

#[test]
fn self_diff_reports_nothing() {
    let d = one("3.13.0", |c| c.ins("LOAD_ATTR_SLOT", "x", 4).misses(3).ins("BINARY_OP", "+", 4).backoff(7));
    let r = diff(&d, &d);
    assert!(r.is_empty());
    assert!(r.functions.is_empty() && r.warnings.iter().all(|w| w.code != "version_mismatch"));
    assert_eq!(r.summary.similarity, 1.0);
    let all = diff_dumps(&d, &d, &DiffOptions { include_unchanged: true, ..Default::default() }).unwrap();
    assert_eq!(all.functions.len(), 2);
    assert!(all.functions.iter().flat_map(|f| &f.changes).all(|c| c.kind == ChangeKind::Unchanged));
}

#[test]
fn different_programs_are_refused_unless_allowed() {
    let a = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let mut b = DumpBuilder::new("3.12.1");
    b.code("other", "parse", 1).ins("RESUME", "", 1).ins("LOAD_GLOBAL", "json", 2).finish();
    let other = b.build();
    let err = diff_dumps(&a, &other, &DiffOptions::default()).unwrap_err();
    assert!(err.to_string().starts_with("these dumps are from different programs"), "{err}");
    assert!(matches!(err, DiffError::DifferentPrograms { matched: 0, .. }));
    let r = diff_dumps(&a, &other, &DiffOptions { allow_unrelated: true, ..Default::default() }).unwrap();
    assert!(r.warnings.iter().any(|w| w.code == "unrelated"));
    // `a`'s module body has no specializable site: nothing to list (only `f` is removed).
    assert_eq!((r.added_functions.len(), r.removed_functions.len()), (1, 1));
    assert_eq!(r.removed_functions[0].qualname, "f");
}

#[test]
fn cross_version_spellings_align() {
    // 3.11 LOAD_METHOD + PRECALL/CALL, quickened superinstruction, jump "to N".
    let mut b = DumpBuilder::new("3.11.7");
    b.code("m", "f", 1)
        .ins("RESUME_QUICK", "", 1)
        .ins("LOAD_FAST__LOAD_FAST", "a", 2)
        .ins("LOAD_FAST", "b", 2)
        .ins("LOAD_METHOD_WITH_VALUES", "meth", 2)
        .ins("PRECALL_PYFUNC", "", 2)
        .ins("CALL_PY_EXACT_ARGS", "", 2)
        .ins("PRECALL_NO_KW_LEN", "", 3)
        .ins("CALL_ADAPTIVE", "", 3)
        .ins("JUMP_BACKWARD_QUICK", "to 2", 3)
        .finish();
    // 3.13: LOAD_ATTR with method flag, compile-time superinstruction, labels.
    let mut h = DumpBuilder::new("3.13.0");
    h.code("m", "f", 1)
        .ins("RESUME_CHECK", "", 1)
        .ins("LOAD_FAST_LOAD_FAST", "a, b", 2)
        .ins("LOAD_ATTR_METHOD_WITH_VALUES", "meth + NULL|self", 2)
        .ins("CALL_PY_EXACT_ARGS", "", 2)
        .ins("CALL_LEN", "", 3)
        .ins("JUMP_BACKWARD", "to L1", 3)
        .finish();
    let (base, head) = (b.build(), h.build());
    let r = diff(&base, &head);
    assert!(r.is_empty(), "{:#?}", r.functions);
    assert!(r.warnings.iter().any(|w| w.message == "the dumps are from different CPython versions: 3.11.7 vs 3.13.0"));
    let rows = function_rows(&base, &head, Some(0), Some(0), &DiffOptions::default());
    assert!(rows.rows.iter().all(|r| r.kind == RowKind::Same), "{:#?}", rows.rows);
}

#[test]
fn precall_carries_the_3_11_call_specialization() {
    let spec = one("3.11.7", |c| c.ins("PRECALL_NO_KW_LEN", "", 4).ins("CALL_ADAPTIVE", "", 4));
    // Once PRECALL is generic the CALL after it runs (and here fails): head ran the site.
    let lost = one("3.11.7", |c| c.ins("PRECALL_ADAPTIVE", "", 4).backoff(3).ins("CALL_ADAPTIVE", "", 4).backoff(2));
    let c = diff(&spec, &lost);
    let c = only_change(&c);
    assert_eq!((c.kind, c.family.as_str()), (ChangeKind::Lost, "CALL"));
    assert_eq!(c.base.as_deref(), Some("PRECALL_NO_KW_LEN"));
}

#[test]
fn filters_and_ranking() {
    let body = |b: &mut DumpBuilder, name: &str, slot: bool, samples: u64| {
        let c = b.code("m", name, 1).ins("LOAD_FAST", "p", 2);
        // Head's generic load ran and failed (backoff 3): a `lost` site, whatever its hotness.
        let c = if slot { c.ins("LOAD_ATTR_SLOT", "x", 2) } else { c.ins("LOAD_ATTR", "x", 2).backoff(3) };
        c.samples(samples, &[(2, samples)]).finish();
    };
    let (mut b, mut h) = (DumpBuilder::new("3.12.1"), DumpBuilder::new("3.12.1"));
    b.samples(100);
    h.samples(100);
    for (name, hot) in [("cold_b", 0), ("cold_a", 0), ("hot", 50), ("warm", 10)] {
        body(&mut b, name, true, hot);
        body(&mut h, name, false, hot);
    }
    let (base, head) = (b.build(), h.build());
    let r = diff(&base, &head);
    let order: Vec<&str> = r.functions.iter().map(|f| f.qualname.as_str()).collect();
    assert_eq!(order, ["hot", "warm", "cold_a", "cold_b"]);
    assert_eq!(r.functions[0].hotness.head_share, 0.5);
    assert_eq!(r.functions[0].changes[0].hotness, 50);
    let only = diff_dumps(&base, &head, &DiffOptions { functions: vec!["cold_*".into()], ..Default::default() }).unwrap();
    assert_eq!(only.functions.len(), 2);
    let by_module = diff_dumps(&base, &head, &DiffOptions { functions: vec!["m.hot".into()], ..Default::default() }).unwrap();
    assert_eq!(by_module.functions.len(), 1);
    let none = diff_dumps(&base, &head, &DiffOptions { modules: vec!["nope".into()], ..Default::default() }).unwrap();
    assert!(none.warnings.iter().any(|w| w.code == "no_match_for_filters"));
}

#[test]
fn json_contract_names() {
    let r = diff(&one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4)), &one("3.12.1", |c| c.ins("LOAD_ATTR", "x", 4).backoff(3)));
    let v = serde_json::to_value(&r).unwrap();
    assert_eq!(v["format"], "specdiff-diff");
    let f = &v["functions"][0];
    for key in ["qualname", "module", "regressions", "changes"] {
        assert!(f.get(key).is_some(), "function key {key}");
    }
    let c = &f["changes"][0];
    for key in ["kind", "family", "base", "head", "base_line", "head_line", "explanation"] {
        assert!(c.get(key).is_some(), "change key {key}");
    }
    assert_eq!(c["kind"], "lost");
    assert_eq!(c["head_counter"]["state"], "backed_off");
    let back: DiffReport = serde_json::from_value(v).unwrap();
    assert_eq!(back, r);
}

#[test]
fn rows_cover_every_instruction_and_link_changes() {
    let base = one("3.12.1", |c| c.ins("LOAD_ATTR_SLOT", "x", 4).ins("EXTENDED_ARG", "", 4).ins("LOAD_ATTR_SLOT", "y", 4));
    let head = one("3.12.1", |c| c.ins("LOAD_ATTR", "x", 4).backoff(2).ins("LOAD_FAST", "k", 4).ins("LOAD_ATTR_SLOT", "y", 4));
    let r = diff(&base, &head);
    let f = &r.functions[0];
    let rows = function_rows(&base, &head, Some(f.base_code), Some(f.head_code), &DiffOptions::default());
    let seen = |pick: fn(&specdiff_core::report::Row) -> Option<&specdiff_core::report::RowSide>| -> Vec<u32> {
        rows.rows.iter().filter_map(pick).flat_map(|s| s.instructions.iter().map(|i| i.index)).collect()
    };
    let n = |d: &Dump| d.code[1].instructions.len() as u32;
    assert_eq!(seen(|r| r.base.as_ref()), (0..n(&base)).collect::<Vec<_>>());
    assert_eq!(seen(|r| r.head.as_ref()), (0..n(&head)).collect::<Vec<_>>());
    for c in &rows.changes {
        assert_eq!(rows.rows[c.row as usize].change, Some(c.kind));
    }
    assert_eq!(rows.changes.iter().filter(|c| c.kind != ChangeKind::Unchanged).count(), f.changes.len());
}

#[test]
fn a_form_the_other_interpreter_lacks_is_named_and_nothing_is_guessed() {
    // 3.13 specializes `Point(x, y)` as CALL_ALLOC_AND_ENTER_INIT; 3.12 has no such form.
    let new = one("3.13.0", |c| c.ins("CALL_ALLOC_AND_ENTER_INIT", "2", 4));
    let old = one("3.12.1", |c| c.ins("CALL", "2", 4).backoff(4));
    let opts = DiffOptions { allow_unrelated: true, ..DiffOptions::default() };
    let r = diff_dumps(&new, &old, &opts).unwrap();
    let c = only_change(&r);
    assert_eq!((c.kind, c.cause), (ChangeKind::Lost, Some(specdiff_core::engine::Cause::VersionLacks)), "{c:#?}");
    assert!(c.explanation.as_deref().unwrap().contains("CPython 3.12 has no CALL_ALLOC_AND_ENTER_INIT"), "{c:#?}");
    // The same loss within one interpreter is no version's doing. The line is unchanged, but
    // a call's callee can be defined differently all the same (issue 29: pyparsing's `as_list`
    // gained a keyword-only parameter), so no cause is claimed: the counters speak alone.
    let same = one("3.13.0", |c| c.ins("CALL", "2", 4).backoff(4));
    let r = diff(&new, &same);
    let c = only_change(&r);
    assert_eq!(c.cause, None, "{c:#?}");
    assert!(c.explanation.as_deref().unwrap().starts_with("generic for at least"), "{c:#?}");
    // A non-call site that lost its specialization on the same line still says what changed.
    let slot = one("3.13.0", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let generic = one("3.13.0", |c| c.ins("LOAD_ATTR", "x", 4).backoff(4));
    let r = diff(&slot, &generic);
    assert_eq!(only_change(&r).cause, Some(specdiff_core::engine::Cause::InputsChanged), "{:#?}", only_change(&r));
}

#[test]
fn a_site_a_callers_trace_ran_proves_no_regression() {
    // With the JIT on, a trace of a caller's loop that inlines `f` runs its site in tier 2:
    // its tier-1 form stopped where the trace began, in either run (issue 35's rule, for
    // callees: the dump's `inlined`).
    let slot = one("3.15.0", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let generic = one("3.15.0", |c| c.ins("LOAD_ATTR", "x", 4).backoff(4));
    assert_eq!(only_change(&diff(&slot, &generic)).kind, ChangeKind::Lost);
    let traced = |mut d: Dump| {
        let f = d.code.iter().position(|c| d.str(c.qualname) == "f").unwrap();
        let at = d.code[f].instructions.iter().find(|i| d.op(i).name.starts_with("LOAD_ATTR")).unwrap().offset;
        d.code[f].inlined = Some(vec![at]);
        d
    };
    for (base, head) in [(traced(slot.clone()), generic.clone()), (slot.clone(), traced(generic.clone()))] {
        let r = diff(&base, &head);
        assert_eq!(only_change(&r).kind, ChangeKind::Minor);
        assert_eq!(r.summary.regressions, 0);
    }
    // Another instruction of `f` traced says nothing of this site.
    let mut other = generic.clone();
    let f = other.code.iter().position(|c| other.str(c.qualname) == "f").unwrap();
    other.code[f].inlined = Some(vec![0]);
    assert_eq!(only_change(&diff(&slot, &other)).kind, ChangeKind::Lost);
}

#[test]
fn with_the_jit_on_counters_prove_only_what_timing_cannot_explain() {
    // Traces the dump cannot show stop tier-1 counters too, and 3.15's trace recording leaves
    // the counters it records at 0: which phase a snapshot caught is timing.
    let jit = |mut d: Dump| {
        d.python.jit = Some(specdiff_core::model::JitInfo { executors_readable: true, available: Some(true), enabled: Some(true) });
        d
    };
    let clean = one("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4));
    let missed = one("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4).misses(2));
    let generic = one("3.15.0", |c| c.ins("TO_BOOL", "", 4).backoff(5));
    // Head seen holding base's specialization after its warm-up, then losing it.
    let cycled = one("3.15.0", |c| c.ins("TO_BOOL", "", 4).backoff(5).churn(2, &["TO_BOOL_NONE", "TO_BOOL"]));
    assert_eq!(only_change(&diff(&missed, &cycled)).kind, ChangeKind::Lost, "JIT off: counters are evidence");
    for (base, head) in [(jit(missed.clone()), jit(cycled.clone())), (missed.clone(), jit(cycled.clone()))] {
        assert_eq!(only_change(&diff(&base, &head)).kind, ChangeKind::Minor, "both runs met both kinds of value");
    }
    // A loss from a base that never missed, or that head never held, still counts.
    assert_eq!(only_change(&diff(&jit(clean.clone()), &jit(cycled.clone()))).kind, ChangeKind::Lost);
    assert_eq!(only_change(&diff(&jit(missed.clone()), &jit(generic))).kind, ChangeKind::Lost);
    // A base counter at 0 is what 3.15's recording leaves: no evidence that base missed.
    let zeroed = one("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4).misses(52));
    assert_eq!(only_change(&diff(&jit(zeroed), &jit(cycled.clone()))).kind, ChangeKind::Lost);
    // A statement that changed keeps its regression: the edit explains it, not timing.
    let mut edited = jit(cycled);
    edited.strings.push("    return f(q)".into());
    let text = (edited.strings.len() - 1) as u32;
    let run = edited.files.iter_mut().flat_map(|f| f.source.iter_mut()).find(|(first, lines)| *first <= 4 && 4 < first + lines.len() as u32).unwrap();
    run.1[(4 - run.0) as usize] = text;
    assert_eq!(only_change(&diff(&jit(missed), &edited)).kind, ChangeKind::Lost);
    // The same specialization with other counters proves nothing: not even `minor`.
    let held = unsampled("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4));
    let many = unsampled("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4).misses(40));
    assert_eq!(only_change(&diff(&held, &many)).kind, ChangeKind::Missing, "JIT off");
    assert!(diff(&jit(held), &jit(many)).is_empty());
    // Nor do more failed attempts of a generic site (tier 1 ran it for a while, not all along).
    let (few, more) = (one("3.15.0", |c| c.ins("TO_BOOL", "", 4).backoff(2)), one("3.15.0", |c| c.ins("TO_BOOL", "", 4).backoff(6)));
    assert_eq!(only_change(&diff(&few, &more)).kind, ChangeKind::Minor, "JIT off");
    assert!(diff(&jit(few), &jit(more)).is_empty());
}

#[test]
fn a_site_seen_with_both_forms_gets_no_story_of_a_new_type() {
    // pycparser 2.20 → 2.22, unchanged `if n.declname`: str and `None` reach it in both
    // versions, and each snapshot caught the form of its last re-specialization.
    let why = |base: &Dump, head: &Dump| only_change(&diff(base, head)).explanation.clone().unwrap_or_default();
    let none = one("3.14.8", |c| c.ins("TO_BOOL_NONE", "", 4));
    let str_ = one("3.14.8", |c| c.ins("TO_BOOL_STR", "", 4));
    assert!(why(&none, &str_).contains("is now a str where it was `None`"), "{}", why(&none, &str_));
    let str_after_none = one("3.14.8", |c| c.ins("TO_BOOL_STR", "", 4).churn(1, &["TO_BOOL_NONE", "TO_BOOL_STR"]));
    let none_after_str = one("3.14.8", |c| c.ins("TO_BOOL_NONE", "", 4).churn(1, &["TO_BOOL_STR", "TO_BOOL_NONE"]));
    for (base, head) in [(&none_after_str, &str_), (&none_after_str, &str_after_none)] {
        assert_eq!(only_change(&diff(base, head)).kind, ChangeKind::Changed);
        assert!(!why(base, head).contains("where it was"), "{}", why(base, head));
    }
    // Head seen turning from base's form to its own: a change seen happening.
    assert!(why(&none, &str_after_none).contains("is now a str where it was `None`"), "{}", why(&none, &str_after_none));
    // Two sites that both miss met what their own forms refuse.
    let (none_missed, str_missed) = (one("3.15.0", |c| c.ins("TO_BOOL_NONE", "", 4).misses(49)), one("3.15.0", |c| c.ins("TO_BOOL_STR", "", 4).misses(28)));
    assert!(!why(&none_missed, &str_missed).contains("where it was"), "{}", why(&none_missed, &str_missed));
    let str_clean = one("3.15.0", |c| c.ins("TO_BOOL_STR", "", 4));
    assert!(why(&none_missed, &str_clean).contains("where it was"), "one side clean still tells");
    // An attribute's form says what the attribute is, which misses on other classes leave true.
    let (slot, prop) = (one("3.12.1", |c| c.ins("LOAD_ATTR_INSTANCE_VALUE", "x", 4).misses(9)), one("3.12.1", |c| c.ins("LOAD_ATTR_PROPERTY", "x", 4).misses(7)));
    assert!(why(&slot, &prop).contains("is now a property where it was"), "{}", why(&slot, &prop));
}

#[test]
fn a_site_seen_changing_in_head_ran_there_whatever_its_counter_reads() {
    // A deopt resets the counter: pycparser 2.22's `RESUME_CHECK` → `RESUME` on 3.15, read as
    // "did not run in head" though the sampler saw the site specialized first (a counter
    // reset to its start reads "ran too few times").
    let why = |base: &Dump, head: &Dump| only_change(&diff(base, head)).explanation.clone().unwrap_or_default();
    let slot = one("3.14.8", |c| c.ins("LOAD_ATTR_SLOT", "x", 4));
    let cold = one("3.14.8", |c| c.ins("LOAD_ATTR", "x", 4));
    let unrun = |why: &str| why.contains("did not run in head") || why.contains("ran too few times in head");
    assert!(unrun(&why(&slot, &cold)), "{}", why(&slot, &cold));
    let deopted = one("3.14.8", |c| c.ins("LOAD_ATTR", "x", 4).churn(1, &["LOAD_ATTR_SLOT", "LOAD_ATTR"]));
    assert!(!unrun(&why(&slot, &deopted)), "{}", why(&slot, &deopted));
}

#[test]
fn a_generic_head_site_a_trace_ran_did_run() {
    // 3.15's trace recording resets the counters it records: a generic head site a trace ran
    // reads "too few runs", which would make a real loss `minor` (markdown-it-py 3.0's
    // `first_ch not in ("|", "-", ":")`, a tuple where 2.2 tested a set).
    let set = one("3.15.0", |c| c.ins("CONTAINS_OP_SET", "not in", 4));
    let idle = one("3.15.0", |c| c.ins("CONTAINS_OP", "not in", 4));
    assert_eq!(only_change(&diff(&set, &idle)).kind, ChangeKind::Minor, "no trace: an idle head site");
    let traced = |mut d: Dump| {
        let f = d.code.iter().position(|c| d.str(c.qualname) == "f").unwrap();
        let at = d.code[f].instructions.iter().find(|i| d.op(i).name.starts_with("CONTAINS_OP")).unwrap().offset;
        d.code[f].inlined = Some(vec![at]);
        d
    };
    // The same statement: a trace ran it, so timing may explain the form (issue 35's rule).
    assert_eq!(only_change(&diff(&set, &traced(idle.clone()))).kind, ChangeKind::Minor);
    // An edited statement: the edit explains the loss, and no sentence says the site sat idle.
    let mut edited = traced(idle);
    edited.strings.push("    return f(q)".into());
    let text = (edited.strings.len() - 1) as u32;
    let run = edited.files.iter_mut().flat_map(|f| f.source.iter_mut()).find(|(first, lines)| *first <= 4 && 4 < first + lines.len() as u32).unwrap();
    run.1[(4 - run.0) as usize] = text;
    let r = diff(&set, &edited);
    let c = only_change(&r);
    assert_eq!(c.kind, ChangeKind::Lost);
    let why = c.explanation.clone().unwrap_or_default();
    assert!(!why.contains("too few times") && !why.contains("did not run"), "{why}");
}
