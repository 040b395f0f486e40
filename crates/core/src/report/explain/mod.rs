//! Explanations: small, independent rules that recognize a common cause of a change and
//! return its [`Cause`] with one English sentence, or `None`. [`explain`] tries them in a fixed
//! order and keeps the first answer. A rule says only what the dumps prove: a wrong cause is
//! worse than none. Each rule is described (and its evidence cited) in `docs/engine.md`,
//! "Explanations".

mod callee_rules;
mod class_attr_type;
mod class_rules;
mod code_rules;
mod context;
mod passed_callee;
mod program;
mod site_rules;
mod stats_evidence;

pub(crate) use context::{ExplainContext, Facts};
pub(crate) use stats_evidence::stats_evidence;

use crate::engine::classify::Cause;

/// The first rule that recognizes the change's cause.
pub(crate) fn explain(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    code_rules::not_run(f)
        .or_else(|| code_rules::other_operation(f))
        .or_else(|| code_rules::less_work(f))
        .or_else(|| code_rules::getattr_call(f))
        .or_else(|| code_rules::call_form(f))
        .or_else(|| code_rules::method_load_for_unpacked_call(f))
        .or_else(|| code_rules::moved_into_comprehension(ctx, f))
        .or_else(|| code_rules::other_callee(f))
        .or_else(|| site_rules::version_lacks(f))
        .or_else(|| site_rules::int_float_mixing(f, || site_rules::float_evidence(ctx, f)))
        .or_else(|| code_rules::globals_written(ctx, f))
        .or_else(|| class_attr_type::class_attr_type(ctx, f))
        .or_else(|| class_attr_type::instance_dict(ctx, f))
        .or_else(|| class_rules::class_metaclass(ctx, f))
        .or_else(|| class_rules::class_hook(ctx, f))
        .or_else(|| class_rules::module_hook(ctx, f))
        .or_else(|| class_rules::slots(ctx, f))
        .or_else(|| class_rules::descriptor(ctx, f))
        .or_else(|| class_rules::inherited_descriptor(ctx, f))
        .or_else(|| class_rules::class_mutated(ctx, f))
        .or_else(|| class_rules::instance_layout(ctx, f))
        .or_else(|| callee_rules::callee_changed(ctx, f))
        .or_else(|| passed_callee::passed_callee(ctx, f))
        .or_else(|| callee_rules::arg_count(f))
        .or_else(|| site_rules::operand_type(f))
        .or_else(|| site_rules::operand_lost(f))
        .or_else(|| site_rules::site_guard(f))
}
