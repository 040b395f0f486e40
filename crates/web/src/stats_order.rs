//! The stats tab's row order: what the user sorted by ([`StatsSort`], kept in the page state)
//! and the order of the table's rows it gives ([`order`]). Pure, so the reducer's tests use it
//! without a browser.

use std::cmp::Ordering;

use crate::view_model::{Side, StatsRow, StatsTable};

/// What the stats table is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StatsKey {
    /// The engine's order: the most executed family first.
    #[default]
    Executions,
    /// Family name.
    Name,
    /// One column's value on one side.
    Value {
        /// Index into [`StatsTable::columns`].
        column: usize,
        /// Which side's value.
        side: Side,
    },
    /// How far one column moved between base and head, either way.
    Change(usize),
}

/// The stats table's sort: a key and a direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatsSort {
    /// The key.
    pub key: StatsKey,
    /// Largest (or Z) first.
    pub descending: bool,
}

impl Default for StatsSort {
    /// The engine's order, most executed first.
    fn default() -> Self {
        StatsSort { key: StatsKey::Executions, descending: true }
    }
}

impl StatsSort {
    /// The sort after a click on `key`'s header: the same key turns the direction around; a
    /// new one starts with names A→Z and numbers largest first.
    pub fn clicked(self, key: StatsKey) -> StatsSort {
        if key == self.key {
            StatsSort { key, descending: !self.descending }
        } else {
            StatsSort { key, descending: key != StatsKey::Name }
        }
    }

    /// The direction shown on `key`'s header, when the table is sorted by it.
    pub fn arrow(self, key: StatsKey) -> &'static str {
        match (self.key == key, self.descending) {
            (false, _) => "",
            (true, true) => " ▼",
            (true, false) => " ▲",
        }
    }

    /// `aria-sort` of `key`'s header.
    pub fn aria(self, key: StatsKey) -> &'static str {
        match (self.key == key, self.descending) {
            (false, _) => "none",
            (true, true) => "descending",
            (true, false) => "ascending",
        }
    }
}

/// The rows of `table` in `sort`'s order (indices into `table.rows`). Ties, and rows without a
/// value (a family one side never ran), keep the engine's order, after those with one.
pub fn order(table: &StatsTable, sort: StatsSort) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..table.rows.len()).collect();
    if sort.key == StatsKey::Executions {
        if !sort.descending {
            // Least executed first.
            idx.reverse();
        }
        return idx;
    }
    let rows = &table.rows;
    let by = |a: usize, b: usize| -> Ordering {
        let (x, y) = (&rows[a], &rows[b]);
        let ord = match sort.key {
            StatsKey::Executions => Ordering::Equal,
            StatsKey::Name => x.name.cmp(&y.name),
            _ => match (number(x, sort.key), number(y, sort.key)) {
                (Some(p), Some(q)) => p.cmp(&q),
                (p, q) => return p.is_none().cmp(&q.is_none()),
            },
        };
        if sort.descending {
            ord.reverse()
        } else {
            ord
        }
    };
    crate::format::sort_indices(&mut idx, &by);
    idx
}

/// The number `key` sorts `row` by; None when the row has none on that side.
fn number(row: &StatsRow, key: StatsKey) -> Option<u64> {
    match key {
        StatsKey::Value { column, side: Side::Base } => row.base.get(column).copied().flatten(),
        StatsKey::Value { column, side: Side::Head } => row.head.get(column).copied().flatten(),
        StatsKey::Change(column) => {
            let (b, h) = (row.base.get(column).copied().flatten(), row.head.get(column).copied().flatten());
            Some(b.unwrap_or(0).abs_diff(h.unwrap_or(0)))
        }
        StatsKey::Executions | StatsKey::Name => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, base: Option<u64>, head: Option<u64>) -> StatsRow {
        StatsRow { name: name.into(), base: vec![base], head: vec![head], kinds: Vec::new() }
    }

    fn names(t: &StatsTable, sort: StatsSort) -> Vec<&str> {
        order(t, sort).into_iter().map(|i| t.rows[i].name.as_str()).collect()
    }

    fn table() -> StatsTable {
        StatsTable {
            columns: vec!["hit".into()],
            rows: vec![
                row("LOAD_ATTR", Some(50), Some(10)),
                row("CALL", Some(30), Some(45)),
                row("BINARY_OP", None, Some(20)),
                row("STORE_ATTR", Some(5), Some(5)),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn clicks_pick_a_key_then_turn_its_direction() {
        let s = StatsSort::default();
        let by_name = s.clicked(StatsKey::Name);
        assert_eq!(by_name, StatsSort { key: StatsKey::Name, descending: false });
        assert!(by_name.clicked(StatsKey::Name).descending);
        let hit = StatsKey::Value { column: 0, side: Side::Head };
        assert_eq!(by_name.clicked(hit), StatsSort { key: hit, descending: true });
        assert_eq!((by_name.arrow(StatsKey::Name), by_name.arrow(hit)), (" ▲", ""));
        assert_eq!(by_name.clicked(hit).aria(hit), "descending");
    }

    #[test]
    fn rows_sort_by_name_value_and_change() {
        let t = table();
        assert_eq!(names(&t, StatsSort::default()), ["LOAD_ATTR", "CALL", "BINARY_OP", "STORE_ATTR"]);
        let name = StatsSort { key: StatsKey::Name, descending: false };
        assert_eq!(names(&t, name), ["BINARY_OP", "CALL", "LOAD_ATTR", "STORE_ATTR"]);
        let head = StatsSort { key: StatsKey::Value { column: 0, side: Side::Head }, descending: true };
        assert_eq!(names(&t, head), ["CALL", "BINARY_OP", "LOAD_ATTR", "STORE_ATTR"]);
        // BINARY_OP has no base value: last in both directions.
        let base = StatsSort { key: StatsKey::Value { column: 0, side: Side::Base }, descending: false };
        assert_eq!(names(&t, base), ["STORE_ATTR", "CALL", "LOAD_ATTR", "BINARY_OP"]);
        let base_desc = StatsSort { descending: true, ..base };
        assert_eq!(names(&t, base_desc), ["LOAD_ATTR", "CALL", "STORE_ATTR", "BINARY_OP"]);
        // Moved by 40, 20 (from nothing), 15, 0.
        let change = StatsSort { key: StatsKey::Change(0), descending: true };
        assert_eq!(names(&t, change), ["LOAD_ATTR", "BINARY_OP", "CALL", "STORE_ATTR"]);
    }
}
