//! On-demand aligned rows of one function pair, for side-by-side display (the web UI's
//! function view, `specdiff diff --rows`): every instruction of both code objects, grouped
//! into sites, with counters, churn, classification, explanations and the source lines, and
//! the loops' JIT traces side by side.

use crate::engine::classify::churn_info;
use crate::report::diff::DiffSession;
use crate::util::map::Map;
use crate::engine::matching::identity;
use crate::cpython::normalize::{Side, Site};
use crate::report::trace_view;
use crate::report::types::{FunctionRows, InstrView, Row, RowSide};

impl DiffSession<'_> {
    /// The aligned rows of one function pair.
    pub fn function_rows(&mut self, base_code: Option<u32>, head_code: Option<u32>) -> FunctionRows {
        let c = self.compare(base_code, head_code, true);
        let (side, code) = match (base_code, head_code) {
            (_, Some(h)) => (Side::Head, h),
            (Some(b), None) => (Side::Base, b),
            (None, None) => (Side::Head, u32::MAX),
        };
        let (module, qualname) = if code == u32::MAX {
            (String::new(), String::new())
        } else {
            let d = self.norm.dump(side);
            (identity(d, &d.code[code as usize]).0, self.names(side).name(d, code).to_string())
        };
        let mut out = FunctionRows {
            qualname,
            module,
            base_code,
            head_code,
            rows: Vec::with_capacity(c.rows.len()),
            changes: vec![],
            base_source: Default::default(),
            head_source: Default::default(),
            traces: Vec::new(),
        };
        let mut explanations = vec![None; c.rows.len()];
        for ch in &c.changes {
            explanations[ch.row as usize] = ch.explanation.clone();
        }
        for (ri, row) in c.rows.iter().enumerate() {
            let base = row.base.map(|i| self.row_side(Side::Base, base_code.unwrap(), c.base_sites[i as usize], i, &mut out.base_source));
            let head = row.head.map(|j| self.row_side(Side::Head, head_code.unwrap(), c.head_sites[j as usize], j, &mut out.head_source));
            out.rows.push(Row { kind: row.kind, change: c.kinds[ri], explanation: explanations[ri].take(), base, head });
        }
        let pairs = c.instruction_pairs();
        let (bc, hc) = (base_code.map(|i| &self.base.code[i as usize]), head_code.map(|i| &self.head.code[i as usize]));
        out.traces = trace_view::trace_views(self.base, bc, self.head, hc, &pairs);
        out.changes = c.changes;
        out
    }

    fn row_side(&self, side: Side, code: u32, site: Site, index: u32, sources: &mut Map<u32, String>) -> RowSide {
        let v = self.view(side, code, site);
        let rules = self.norm.rules(side);
        let instructions = (site.start..site.end)
            .map(|i| {
                let ins = &v.code.instructions[i as usize];
                let op = v.dump.op(ins);
                if let Some(line) = ins.line {
                    if let Some(text) = v.dump.source_line(v.code.file, line) {
                        sources.entry(line).or_insert_with(|| text.to_string());
                    }
                }
                InstrView {
                    index: i,
                    offset: ins.offset,
                    opname: op.name.clone(),
                    family: op.family.clone(),
                    specialized: op.specialized,
                    arg: ins.arg,
                    argrepr: v.dump.str(ins.argrepr).to_string(),
                    line: ins.line,
                    primary: i == site.primary,
                    counter: rules.read(op, ins),
                    churn: ins.churn.as_ref().map(|ch| churn_info(v.dump, ch)),
                }
            })
            .collect();
        RowSide { site: index, line: v.line(), hotness: v.hotness(), instructions }
    }
}
