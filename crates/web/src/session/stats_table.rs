//! The stats tab's table: per family, the counters CPython keeps on the family head, base
//! and head side by side, with the family's failure kinds (`specdiff_core::report::diff_stats`).

use specdiff_core::report::{failure_kind_deltas, summarize, FamilySummary};

use super::{Run, Session};
use crate::view_model::*;

impl Session {
    /// The stats tab: per family, the counters CPython keeps on the family head
    /// (`specdiff_core::report::summarize`), base and head side by side.
    pub fn stats_table(&self) -> StatsTable {
        let columns = ["total", "hit", "miss", "deopt", "deferred", "success", "failure"];
        let mut table = StatsTable {
            columns: columns.iter().map(|s| s.to_string()).collect(),
            better: vec![None, Some(true), Some(false), Some(false), Some(false), Some(true), Some(false)],
            ..Default::default()
        };
        let sums: Vec<_> = Side::BOTH.iter().map(|&s| self.run(s).and_then(Run::stats).map(summarize)).collect();
        table.sides = [sums[0].is_some(), sums[1].is_some()];
        let cells = |f: Option<&FamilySummary>| -> Vec<Option<u64>> {
            match f {
                None => vec![None; columns.len()],
                Some(f) => [f.total(), f.hit, f.miss, f.deopt, f.deferred, f.success, f.failure].into_iter().map(Some).collect(),
            }
        };
        let mut names: Vec<(u64, String)> = Vec::new();
        for s in sums.iter().flatten() {
            for f in &s.families {
                match names.iter_mut().find(|(_, n)| *n == f.family) {
                    Some(e) => e.0 = e.0.max(f.total()),
                    None => names.push((f.total(), f.family.clone())),
                }
            }
        }
        crate::format::sort_dyn(&mut names, &|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        for (_, name) in names {
            let get = |i: usize| sums[i].as_ref().and_then(|s| s.family(&name));
            let kinds = failure_kinds([get(0), get(1)], table.sides);
            table.rows.push(StatsRow { name: name.clone(), base: cells(get(0)), head: cells(get(1)), kinds });
        }
        for side in Side::BOTH {
            if let Some(r) = self.run(side) {
                if !r.info.stats_files.is_empty() {
                    table.notes.push(format!("{}: {}", side.name(), r.info.stats_files.join(", ")));
                } else if r.stats().is_some() {
                    table.notes.push(format!("{}: from the dump ({})", side.name(), r.info.file));
                }
            }
        }
        table
    }
}

/// The failure kinds of one family on both sides (the core's join by label; a loaded side
/// that never saw a kind counts 0), most frequent on either side first.
fn failure_kinds(family: [Option<&FamilySummary>; 2], sides: [bool; 2]) -> Vec<StatsKind> {
    let mut kinds: Vec<StatsKind> = failure_kind_deltas(family[0], family[1])
        .into_iter()
        .map(|k| StatsKind {
            label: k.name.label,
            constant: k.name.constant.unwrap_or_default(),
            base: sides[0].then_some(k.count.base),
            head: sides[1].then_some(k.count.head),
        })
        .collect();
    let most = |k: &StatsKind| k.base.max(k.head);
    crate::format::sort_dyn(&mut kinds, &|a, b| most(b).cmp(&most(a)).then_with(|| a.label.cmp(&b.label)));
    kinds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::tests::collect;
    use crate::session::InputFile;
    use crate::protocol::Request;

    /// A real raw pystats file of the core's fixtures (CPython 3.13.5, `pystats-3.13/`).
    fn raw_pystats(name: &str) -> InputFile {
        use std::io::Read;
        let path = format!("{}/../core/tests/fixtures/pystats-3.13/{name}.txt.gz", env!("CARGO_MANIFEST_DIR"));
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_end(&mut text).unwrap();
        InputFile::new(format!("{name}.txt"), text)
    }

    #[test]
    fn stats_table_breaks_failures_down_by_kind() {
        let mut s = crate::session::tests::session();
        collect(&mut s, Request::Load { side: Some(Side::Base) }, vec![raw_pystats("raw_base")]);
        collect(&mut s, Request::Load { side: Some(Side::Head) }, vec![raw_pystats("raw_head")]);
        let t = s.stats_table();
        assert_eq!(t.sides, [true, true]);
        // The view shows kinds under the last column.
        let failure = t.columns.iter().position(|c| c == "failure").unwrap();
        assert_eq!(failure, t.columns.len() - 1);
        let with_kinds: Vec<&StatsRow> = t.rows.iter().filter(|r| !r.kinds.is_empty()).collect();
        assert!(with_kinds.len() >= 5, "{:?}", t.rows.iter().map(|r| &r.name).collect::<Vec<_>>());
        for r in &with_kinds {
            // Both runs are loaded, so every kind has a count on both sides (0 where that run
            // never failed that way); each kind once; the most frequent first.
            assert!(r.kinds.iter().all(|k| k.base.is_some() && k.head.is_some()), "{}: {:?}", r.name, r.kinds);
            assert!(r.kinds.iter().all(|k| k.base.max(k.head) > Some(0)), "{}: {:?}", r.name, r.kinds);
            let mut labels: Vec<&str> = r.kinds.iter().map(|k| k.label.as_str()).collect();
            labels.sort();
            labels.dedup();
            assert_eq!(labels.len(), r.kinds.len(), "{}: {:?}", r.name, r.kinds);
            let most = |k: &StatsKind| k.base.max(k.head);
            assert!(r.kinds.windows(2).all(|w| most(&w[0]) >= most(&w[1])), "{}: {:?}", r.name, r.kinds);
        }
        // sample_head.py gives ints() a float two times in three: BINARY_OP fails in new ways
        // in head (raw 3.13 files do not say their version, so the kinds are numbered).
        let binary_op = t.rows.iter().find(|r| r.name == "BINARY_OP").unwrap();
        let new_in_head: Vec<&str> =
            binary_op.kinds.iter().filter(|k| k.base == Some(0) && k.head > Some(0)).map(|k| k.label.as_str()).collect();
        assert_eq!(new_in_head, ["kind 23", "kind 9", "kind 21"], "{:?}", binary_op.kinds);
    }
}
