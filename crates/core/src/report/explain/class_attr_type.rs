//! The rule for an attribute load that lost its specialization because the class attribute it
//! finds now holds a value of a mutable type: an instance of a Python class (a
//! `weakref.WeakValueDictionary` where base had a `dict`), or a class made by a Python
//! metaclass (where base's was made by `type`). CPython's specializer refuses every load that
//! finds such a class attribute, on an instance or on a class, on 3.11 to 3.15: the value's
//! type could gain a `__get__` later (`analyze_descriptor`/`classify_descriptor`: `MUTABLE`;
//! pystats' "mutable class").
//!
//! And, on 3.13 ([`instance_dict`]), a class attribute read through an instance that lost its
//! `LOAD_ATTR_NONDESCRIPTOR_*` form where head has new classes the receiver can be whose
//! instances have a `__dict__` but no inline values (a subclass that dropped its base's
//! `__slots__`): 3.13 refuses such a load on such an instance.
//!
//! The evidence is the dumps' `classes` table (`docs/dump-format.md`), which the harness
//! reads from the live classes at the end of the run, and the receiver on the site's source
//! line, resolved as the callee rules resolve one: `self`/`cls` in a method of class `C` (`C`,
//! its subclasses, and the classes `C` makes when `C` is a metaclass), or a plain name that
//! the module defines or imports as a class. Both runs must have the table and resolve the
//! receiver to the same class; head must have such a value and base none; and head's load must
//! be one that an immutable value would have let specialize ([`specialized_if_immutable`]):
//! otherwise the value's type is not what stopped it.

use crate::engine::classify::{Cause, ChangeKind, SiteView};
use crate::model::dump::ClassInfo;

use super::callee_rules::global;
use super::class_rules::receiver_of;
use super::context::{ExplainContext, Facts};
use super::program::{DefKind, ProgramFacts};

/// Which classes a load's receiver can be: `self`/`cls` in a method of a class (and its
/// subclasses), or one class named by its `module:qualname`.
#[derive(Debug, PartialEq, Eq)]
enum Receiver {
    MethodOf(String),
    Class(String),
}

impl Receiver {
    fn reaches(&self, c: &ClassInfo) -> bool {
        match self {
            Receiver::MethodOf(k) => c.class == *k || c.mro.contains(k) || c.meta.contains(k),
            Receiver::Class(k) => c.class == *k,
        }
    }
}

/// The receiver of `.attr` at site `v`, resolved in its program's `facts`, and whether it is
/// written `cls`.
fn receiver(facts: &ProgramFacts, v: &SiteView, attr: &str) -> Option<(Receiver, bool)> {
    let module = v.dump.str(v.code.module);
    let line = v.source_text()?;
    // A private name is mangled in the bytecode (`_Factory__instances`), not in the source.
    let written = attr.strip_prefix('_').and_then(|a| a.split_once("__")).map(|(_, rest)| format!("__{rest}"));
    let name = receiver_of(line, attr).or_else(|| receiver_of(line, written.as_deref()?))?;
    if matches!(name, "self" | "cls") {
        let qualname = v.dump.str(v.code.qualname);
        let class = qualname.rsplit_once('.')?.0;
        // A method's own class: not a nested function's (`C.m.<locals>`).
        if class.ends_with('>') || class.contains(".<locals>") {
            return None;
        }
        return Some((Receiver::MethodOf(format!("{module}:{class}")), name == "cls"));
    }
    let ((m, q), def) = global(facts, module, name)?;
    matches!(def.kind, DefKind::Class { .. }).then(|| (Receiver::Class(format!("{m}:{q}")), false))
}

/// Whether head's load would have been specialized had the class attribute it finds been of
/// an immutable type, so that its type is what stopped it. Measured with `dis` on 3.11.7,
/// 3.12.1, 3.13.0, 3.14.8 and 3.15.0 (a class attribute holding `set`, `int`, a class made by
/// `type`, and one made by `abc.ABCMeta`):
/// - on a class (`C.x`, `cls.x`, `C.x()`): `LOAD_ATTR_CLASS` from 3.12; never on 3.11;
/// - on an instance, a plain load (`o.x`): `LOAD_ATTR_NONDESCRIPTOR_*` from 3.13; never on 3.11
///   or 3.12;
/// - on an instance, a method call's load (`o.x()`, the load's oparg with its low bit set): never,
///   whatever the value's type (marshmallow 3.21's `set_class = OrderedSet`, called as
///   `self.set_class()`, was explained by its metaclass on 3.12: false).
fn specialized_if_immutable(h: &SiteView, (receiver, written_cls): (&Receiver, bool)) -> bool {
    let minor = h.dump.python.minor_version();
    let on_class = match receiver {
        Receiver::Class(_) => true,
        // `cls` in a classmethod; `self` in a method of a metaclass is a class too.
        Receiver::MethodOf(k) => written_cls || h.dump.classes.iter().flatten().any(|c| c.meta.contains(k)),
    };
    if on_class {
        return minor >= (3, 12);
    }
    let method_call = h.spec().arg.is_some_and(|a| a & 1 == 1);
    minor >= (3, 13) && !method_call
}

/// The classes `receiver` can be whose lookup of `attr` finds a mutable-typed value, with
/// that type and whether the value is itself a class (made by that type, a metaclass); `None` when the dump has no class table.
fn mutable_values<'d>(classes: Option<&'d Vec<ClassInfo>>, receiver: &Receiver, attr: &str) -> Option<Vec<(&'d str, &'d str, bool)>> {
    Some(
        classes?
            .iter()
            .filter(|c| receiver.reaches(c))
            .filter_map(|c| c.mutable.iter().find(|m| m.0 == attr).map(|m| (c.class.as_str(), m.1.as_str(), m.2)))
            .collect(),
    )
}

/// `module:qualname` as the reader knows it: `qualname` in `__main__`, else `module.qualname`.
fn shown(name: &str) -> String {
    match name.split_once(':') {
        Some(("__main__", q)) => q.to_string(),
        Some((m, q)) => format!("{m}.{q}"),
        None => name.to_string(),
    }
}

/// `class`'s qualname, and its module as the sentences add it (nothing for `__main__`).
fn qualname_and_place(class: &str) -> Option<(&str, String)> {
    let (module, qualname) = class.split_once(':')?;
    Some((qualname, if module == "__main__" { String::new() } else { format!(" ({module})") }))
}

/// " (so do 3 more classes the receiver can be)" for `n` more `what`s; nothing for none.
fn others(n: usize, what: &str) -> String {
    match n {
        0 => String::new(),
        1 => format!(" (so does 1 more {what} the receiver can be)"),
        n => format!(" (so do {n} more {what}es the receiver can be)"),
    }
}

/// A lost attribute load whose class attribute holds a mutable-typed value in head only.
pub(super) fn class_attr_type(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost]) || f.change.family != "LOAD_ATTR" {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != h.rules.version || !b.specialized() {
        return None;
    }
    let attr = f.change.operand.as_deref()?;
    let ((rb, _), (rh, cls)) = (receiver(ctx.base_facts(), &b, attr)?, receiver(ctx.head_facts(), &h, attr)?);
    if rb != rh {
        return None;
    }
    if !specialized_if_immutable(&h, (&rh, cls)) {
        return None;
    }
    let then = mutable_values(b.dump.classes.as_ref(), &rb, attr)?;
    let now = mutable_values(h.dump.classes.as_ref(), &rh, attr)?;
    // The receiver's own class when it has one, else the first of its subclasses.
    let own = |c: &&(&str, &str, bool)| matches!(&rh, Receiver::MethodOf(k) | Receiver::Class(k) if c.0 == k);
    let (&(class, ty, is_class), more) = (now.iter().find(own).or(now.first())?, now.len() - 1);
    if !then.is_empty() {
        return None;
    }
    let others = others(more, "class");
    let (qualname, place) = qualname_and_place(class)?;
    let what = if is_class {
        format!("is a class made by the metaclass `{}`", shown(ty))
    } else {
        format!("holds a `{}`", shown(ty))
    };
    Some((
        Cause::ClassAttrType,
        format!(
            "in head, `{qualname}.{attr}`{place} {what}{others}: CPython never specializes a load that finds a class attribute whose type is a Python class (the type could gain `__get__`); base's was not of such a type"
        ),
    ))
}

/// The classes of `classes` `receiver` can be whose instances have a dict without inline
/// values, with the slotted class they extend, if any.
fn without_values<'d>(classes: Option<&'d Vec<ClassInfo>>, receiver: &Receiver) -> Option<Vec<&'d ClassInfo>> {
    Some(classes?.iter().filter(|c| c.dict_without_values && receiver.reaches(c)).collect())
}

/// 3.13: a class attribute read through `self` lost its specialization (`LOAD_ATTR_NONDESCRIPTOR_*`)
/// where head has classes the receiver can be, new in head, whose instances have a dict without
/// inline values. Measured (`tests/real/repro/sqlglot_dialect_subclass.py`, and a `dict`
/// subclass and a `__slots__ = ("__dict__", …)` class alike): 3.13 gives such instances no inline
/// values and refuses the load; 3.14 and 3.15 give them inline values
/// (`LOAD_ATTR_NONDESCRIPTOR_WITH_VALUES`).
pub(super) fn instance_dict(ctx: &ExplainContext, f: &Facts) -> Option<(Cause, String)> {
    if !f.kind_is(&[ChangeKind::Lost]) || f.change.family != "LOAD_ATTR" {
        return None;
    }
    let (b, h) = (f.base?, f.head?);
    if b.rules.version != (3, 13) || h.rules.version != (3, 13) || !b.op().name.starts_with("LOAD_ATTR_NONDESCRIPTOR") {
        return None;
    }
    let attr = f.change.operand.as_deref()?;
    let ((rb, _), (rh, cls)) = (receiver(ctx.base_facts(), &b, attr)?, receiver(ctx.head_facts(), &h, attr)?);
    // Through an instance: `self`, not `cls`.
    if rb != rh || cls || !matches!(rh, Receiver::MethodOf(_)) {
        return None;
    }
    let then = without_values(b.dump.classes.as_ref(), &rb)?;
    let new: Vec<&ClassInfo> =
        without_values(h.dump.classes.as_ref(), &rh)?.into_iter().filter(|c| !then.iter().any(|t| t.class == c.class)).collect();
    // A class named like the receiver's own first (a subclass made at run time with its
    // base's name, as sqlglot 25's dialects make theirs), else the first by name.
    let Receiver::MethodOf(own) = &rh else { return None };
    let first = new.iter().find(|c| c.class == *own).or(new.first())?;
    let (qualname, place) = qualname_and_place(&first.class)?;
    let another = if first.class == *own { "another class named " } else { "" };
    let slots = first.slots_in.as_deref().map_or(String::new(), |s| format!(", a subclass without the `__slots__` of `{}`,", shown(s)));
    let others = others(new.len() - 1, "new class");
    Some((
        Cause::InstanceLayout,
        format!(
            "head has {another}`{qualname}`{place}{slots} whose instances have a `__dict__` but no inline values{others}: CPython 3.13 reads a class attribute like `.{attr}` through an instance specialized only when the instance has no `__dict__` or has inline values"
        ),
    ))
}
