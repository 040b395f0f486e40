//! Which opnames each function of the list holds, so that a search for an opname
//! (`BINARY_OP_ADD_INT`, as `dis` and the listing print it) finds the functions whose
//! instructions carry it, on either run: one table of the runs' opnames on the summary, and per
//! row the indices into it.

use std::collections::BTreeMap;

use specdiff_core::model::Dump;

use super::Entries;
use crate::view_model::Summary;

/// Fills [`Summary::opnames`] and every row's `ops` from the code objects `entries` maps its
/// key to (base's in `dumps.0`, head's in `dumps.1`; one run is the same dump twice).
pub fn index(summary: &mut Summary, entries: &Entries, dumps: (&Dump, &Dump)) {
    let names: BTreeMap<&str, u32> = {
        let mut all: Vec<&str> = dumps.0.ops.iter().chain(&dumps.1.ops).map(|op| op.name.as_str()).collect();
        all.sort_unstable();
        all.dedup();
        all.into_iter().enumerate().map(|(i, n)| (n, i as u32)).collect()
    };
    // Each dump's op table → the summary's indices.
    let table = |d: &Dump| -> Vec<u32> { d.ops.iter().map(|op| names[op.name.as_str()]).collect() };
    let (base_ops, head_ops) = (table(dumps.0), table(dumps.1));
    for row in &mut summary.rows {
        let Some(&(base, head)) = entries.get(&row.key) else { continue };
        let mut ops = Vec::new();
        for (code, dump, table) in [(base, dumps.0, &base_ops), (head, dumps.1, &head_ops)] {
            let Some(code) = code.and_then(|c| dump.code.get(c as usize)) else { continue };
            ops.extend(code.instructions.iter().filter_map(|i| table.get(i.op as usize).copied()));
        }
        ops.sort_unstable();
        ops.dedup();
        row.ops = ops;
    }
    summary.opnames = names.into_keys().map(str::to_string).collect();
}
