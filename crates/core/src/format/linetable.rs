//! CPython's location table (`co_linetable`, 3.11+): the source positions of a code object's
//! code units, decoded the way `code.co_positions()` decodes them (`Objects/locations.md`,
//! `advance_with_locations` in `Objects/codeobject.c`).
//!
//! `specdiff dump` fills the `line` and `pos` of most instructions from here
//! ([`crate::format::capture`]): its Python harness hands over each code object's raw table instead of
//! decoding it an entry at a time in Python.
//!
//! The table is a run of entries, each a header byte `1cccclll` (form `c`, covering `l + 1`
//! code units) and the form's own bytes:
//!
//! | form | bytes after the header | line | columns |
//! |---|---|---|---|
//! | 0–9 (short) | `0hhhhwww`: column `c·8 + h`, width `w` | unchanged | yes |
//! | 10–12 (one line) | column, end column | `+ (c − 10)` | yes |
//! | 13 (no columns) | signed varint line delta | `+ delta` | none |
//! | 14 (long) | signed line delta, end-line delta, column + 1, end column + 1 (varints) | `+ delta` | yes (0: none) |
//! | 15 (no location) | — | none (the running line is kept) | none |
//!
//! Varints hold 6 bits a byte, bit 6 meaning "more"; a signed varint keeps its sign in bit 0.
//! As in `co_positions()`, a value of −1 reads as "none". The dump cannot hold a negative line
//! (only hand-made tables have one), so any negative value reads as "none" here.

use crate::model::dump::Instruction;

/// The source position of a run of code units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Location {
    /// First line.
    pub line: Option<u32>,
    /// Last line.
    pub end_line: Option<u32>,
    /// First column (0-based, in UTF-8 bytes).
    pub col: Option<u32>,
    /// Column after the last (0-based, in UTF-8 bytes).
    pub end_col: Option<u32>,
}

/// One entry of a location table: code units `start..end` (in code units, not bytes) and
/// their location.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Entry {
    /// First code unit covered.
    pub start: u32,
    /// Code unit after the last one covered.
    pub end: u32,
    /// Where those code units come from.
    pub location: Location,
}

/// The entries of a location table, in order. Stops at the end of the table, or at an entry
/// the table ends inside of (only hand-made tables have one); code units past the last entry
/// have no location, as with `co_positions()`.
#[derive(Debug, Clone)]
pub(crate) struct Entries<'a> {
    table: &'a [u8],
    at: usize,
    line: i64,
    unit: u32,
}

/// The entries of `linetable`, the `co_linetable` of a code object whose `co_firstlineno` is
/// `first_line`.
pub(crate) fn entries(linetable: &[u8], first_line: i64) -> Entries<'_> {
    Entries { table: linetable, at: 0, line: first_line, unit: 0 }
}

impl Entries<'_> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.table.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    fn varint(&mut self) -> Option<i64> {
        let mut b = self.byte()?;
        let mut value = i64::from(b & 63);
        let mut shift = 6;
        while b & 64 != 0 {
            b = self.byte()?;
            // A varint longer than any i64 is garbage: stop rather than overflow.
            if shift > 56 {
                return None;
            }
            value |= i64::from(b & 63) << shift;
            shift += 6;
        }
        Some(value)
    }

    fn signed_varint(&mut self) -> Option<i64> {
        let v = self.varint()?;
        Some(if v & 1 != 0 { -(v >> 1) } else { v >> 1 })
    }

    fn read_entry(&mut self) -> Option<Entry> {
        let header = self.byte()?;
        let form = (header >> 3) & 15;
        let start = self.unit;
        let end = start.saturating_add(u32::from(header & 7) + 1);
        let (line, end_line, col, end_col) = match form {
            15 => (-1, -1, -1, -1),
            14 => {
                self.line = self.line.saturating_add(self.signed_varint()?);
                let end_line = self.line.saturating_add(self.varint()?);
                let col = self.varint()? - 1;
                let end_col = self.varint()? - 1;
                (self.line, end_line, col, end_col)
            }
            13 => {
                self.line = self.line.saturating_add(self.signed_varint()?);
                (self.line, self.line, -1, -1)
            }
            10..=12 => {
                self.line += i64::from(form) - 10;
                let col = i64::from(self.byte()?);
                let end_col = i64::from(self.byte()?);
                (self.line, self.line, col, end_col)
            }
            _ => {
                let second = self.byte()?;
                let col = i64::from(form) << 3 | i64::from(second >> 4);
                (self.line, self.line, col, col + i64::from(second & 15))
            }
        };
        self.unit = end;
        Some(Entry {
            start,
            end,
            location: Location {
                line: non_negative(line),
                end_line: non_negative(end_line),
                col: non_negative(col),
                end_col: non_negative(end_col),
            },
        })
    }
}

fn non_negative(v: i64) -> Option<u32> {
    u32::try_from(v).ok()
}

impl Iterator for Entries<'_> {
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        let entry = self.read_entry();
        if entry.is_none() {
            self.at = self.table.len(); // a cut-off entry ends the table
        }
        entry
    }
}

/// Sets `line` and `pos` of each instruction (sorted by offset, as in a dump) from the location
/// table of its code object, as `dis` gives them: the location of the instruction's first code
/// unit, `line` none and `pos` none when that has no line.
pub(crate) fn fill_positions(instructions: &mut [Instruction], linetable: &[u8], first_line: i64) {
    let mut table = entries(linetable, first_line);
    let mut current: Option<Entry> = None;
    for ins in instructions {
        let unit = ins.offset / 2;
        loop {
            if current.is_some_and(|e| e.end > unit) {
                break;
            }
            current = table.next();
            if current.is_none() {
                break;
            }
        }
        let location = current.filter(|e| e.start <= unit).map(|e| e.location).unwrap_or_default();
        ins.line = location.line;
        ins.pos = location.line.map(|_| (location.end_line, location.col, location.end_col));
    }
}

/// The bytes of a table written as lowercase hex (`bytes.hex()`, how the harness hands tables
/// over in its JSON); `None` when `hex` is not that.
pub fn decode_hex(hex: &str) -> Option<Vec<u8>> {
    let bytes = hex.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() / 2);
    for pair in bytes.chunks_exact(2) {
        let (high, low) = (HEX_DIGIT[usize::from(pair[0])], HEX_DIGIT[usize::from(pair[1])]);
        if (high | low) > 15 {
            return None;
        }
        out.push(high << 4 | low);
    }
    Some(out)
}

/// The value of each lowercase hex digit; 255 for every other byte.
const HEX_DIGIT: [u8; 256] = {
    let mut table = [255u8; 256];
    let mut i = 0;
    while i < 16 {
        table[b"0123456789abcdef"[i] as usize] = i as u8;
        i += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn instruction(offset: u32) -> Instruction {
        Instruction { offset, line: Some(999), ..Default::default() }
    }

    /// An instruction's `(line, pos)`.
    type Position = (Option<u32>, Option<(Option<u32>, Option<u32>, Option<u32>)>);

    fn positions(table: &[u8], first_line: i64, offsets: &[u32]) -> Vec<Position> {
        let mut ins: Vec<_> = offsets.iter().map(|&o| instruction(o)).collect();
        fill_positions(&mut ins, table, first_line);
        ins.into_iter().map(|i| (i.line, i.pos)).collect()
    }

    // `def f(): return x` on line 2, compiled by CPython 3.11.7: RESUME, LOAD_GLOBAL x and its
    // 5 cache units, RETURN_VALUE.
    const F_311: &[u8] = &[0x80, 0x00, 0x95, 0x01, 0x88, 0x18];

    #[test]
    fn reads_short_forms_and_code_units_inside_entries() {
        // 0x80 0x00: short form 0, 1 unit, column 0 width 0. 0x95 0x01: short form 2, 6 units,
        // column 2·8 + 0 width 1. 0x88 0x18: short form 1, 1 unit, column 8 + 1 width 8.
        // Expected values are what co_positions() gave.
        let got = positions(F_311, 2, &[0, 2, 6, 14, 16]);
        assert_eq!(got[0], (Some(2), Some((Some(2), Some(0), Some(0)))));
        assert_eq!(got[1], (Some(2), Some((Some(2), Some(16), Some(17)))));
        assert_eq!(got[2], (Some(2), Some((Some(2), Some(16), Some(17)))), "inside a 6-unit entry");
        assert_eq!(got[3], (Some(2), Some((Some(2), Some(9), Some(17)))));
        assert_eq!(got[4], (None, None), "past the table's end: no location");
    }

    #[test]
    fn one_line_form_moves_the_line() {
        // 0xd8 = form 11 (line + 1), 1 unit, columns 11..12.
        assert_eq!(positions(&[0xd8, 0x0b, 0x0c], 4, &[0]), vec![(Some(5), Some((Some(5), Some(11), Some(12))))]);
    }

    #[test]
    fn long_and_no_column_forms_with_multi_byte_varints() {
        // Long form (14), 1 unit: line delta +100 (signed 200 = 0b11_001000 → 0x48|64, 0x03),
        // end line +2, column 69 + 1 = 70 (0x46 | 64, 0x01), end column 0 (none).
        let long = [0xf0, 0x48 | 64, 0x03, 0x02, 0x46 | 64, 0x01, 0x00];
        assert_eq!(positions(&long, 10, &[0]), vec![(Some(110), Some((Some(112), Some(69), None)))]);
        // No-column form (13), 2 units, line delta −3 (signed 7).
        let no_columns = [0xe9, 0x07];
        assert_eq!(positions(&no_columns, 10, &[0, 2]), vec![(Some(7), Some((Some(7), None, None))); 2]);
    }

    #[test]
    fn no_location_keeps_the_running_line() {
        // No location (15), then short form: the line is still the first line.
        let table = [0xf8, 0x80, 0x13];
        assert_eq!(
            positions(&table, 5, &[0, 2]),
            vec![(None, None), (Some(5), Some((Some(5), Some(1), Some(4))))]
        );
    }

    #[test]
    fn negative_lines_and_cut_off_tables_read_as_no_location() {
        // Long form taking line 1 to −1 (signed delta −2 = 5): none; then short form on line −1.
        let table = [0xf0, 0x05, 0x00, 0x01, 0x01, 0x80, 0x00];
        assert_eq!(positions(&table, 1, &[0, 2]), vec![(None, None), (None, None)]);
        // A long entry the table ends inside of, after a good one.
        let cut = [0x80, 0x00, 0xf0, 0x02];
        assert_eq!(positions(&cut, 3, &[0, 2]), vec![(Some(3), Some((Some(3), Some(0), Some(0)))), (None, None)]);
        assert_eq!(entries(&cut, 3).count(), 1);
    }

    #[test]
    fn hex_as_python_writes_it() {
        assert_eq!(decode_hex("800095018818").as_deref(), Some(F_311));
        assert_eq!(decode_hex(""), Some(vec![]));
        assert_eq!(decode_hex("8"), None);
        assert_eq!(decode_hex("zz"), None);
        assert_eq!(decode_hex("AB"), None, "bytes.hex() writes lowercase");
    }

    #[test]
    fn huge_line_deltas_saturate() {
        // Long-form entries, each adding a line delta of ~2^59 (the longest varint read): 20 of
        // them pass i64::MAX. A garbage table, which must read as garbage, not overflow.
        let mut table = Vec::new();
        for _ in 0..20 {
            table.extend([0xf0, 0x7e, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x3f, 0x00, 0x01, 0x01]);
        }
        let offsets: Vec<u32> = (0..20).map(|i| i * 2).collect();
        assert!(positions(&table, 1, &offsets).iter().all(|p| *p == (None, None)));
        assert_eq!(entries(&table, 1).count(), 20);
    }

    #[test]
    fn garbage_never_panics() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for len in 0..200 {
            let table: Vec<u8> = (0..len)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed as u8
                })
                .collect();
            let offsets: Vec<u32> = (0..64).map(|i| i * 2).collect();
            let _ = positions(&table, i64::from(len as u8), &offsets);
            let _ = positions(&table, -5, &offsets);
        }
    }
}
