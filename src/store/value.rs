//! The backend-neutral row and parameter: both databases store only text, integers and NULL
//! (dates, instants, enums and JSON are text; money and flags are integers), so one row mapping
//! serves both.

use std::sync::Arc;

use super::{StoreError, StoreResult};

/// A parameter of a statement. NULLs carry their type: PostgreSQL types every parameter.
#[derive(Debug, Clone, PartialEq)]
pub enum Param {
    /// TEXT (or NULL).
    Text(Option<String>),
    /// BIGINT (or NULL).
    Int(Option<i64>),
}

impl From<&str> for Param {
    fn from(v: &str) -> Self {
        Param::Text(Some(v.to_string()))
    }
}
impl From<String> for Param {
    fn from(v: String) -> Self {
        Param::Text(Some(v))
    }
}
impl From<&String> for Param {
    fn from(v: &String) -> Self {
        Param::Text(Some(v.clone()))
    }
}
impl From<Option<String>> for Param {
    fn from(v: Option<String>) -> Self {
        Param::Text(v)
    }
}
impl From<&Option<String>> for Param {
    fn from(v: &Option<String>) -> Self {
        Param::Text(v.clone())
    }
}
impl From<i64> for Param {
    fn from(v: i64) -> Self {
        Param::Int(Some(v))
    }
}
impl From<Option<i64>> for Param {
    fn from(v: Option<i64>) -> Self {
        Param::Int(v)
    }
}
impl From<bool> for Param {
    fn from(v: bool) -> Self {
        Param::Int(Some(i64::from(v)))
    }
}

/// `args![a, b, …]`: the parameters `$1, $2, …` of a statement.
macro_rules! args {
    ($($value:expr),* $(,)?) => {
        [$($crate::store::value::Param::from($value)),*]
    };
}
pub(crate) use args;

/// One value read back; text lives in its row's buffer.
#[derive(Debug, Clone, PartialEq)]
enum Cell {
    /// NULL.
    Null,
    /// An integer.
    Int(i64),
    /// Text: this range of the row's `text`.
    Text(std::ops::Range<usize>),
}

/// One row read back, its cells looked up by column name. All its text is kept in one buffer:
/// a charge has a dozen and a half text columns, and a `String` each was most of a lookup's
/// allocations.
#[derive(Debug, Clone)]
pub struct Row {
    names: Arc<[String]>,
    cells: Vec<Cell>,
    text: String,
    /// Where the next lookup starts: mappings read columns mostly in the table's order, so
    /// the next name is usually right after the last one found.
    next: std::cell::Cell<usize>,
}

impl Row {
    /// An empty row, to be filled with one cell per name of `names`, in their order.
    pub fn with_names(names: Arc<[String]>) -> Self {
        let width = names.len();
        // About what a charge's text needs, so that filling it rarely grows the buffer.
        let text = String::with_capacity(width * 24);
        Self { names, cells: Vec::with_capacity(width), text, next: std::cell::Cell::new(0) }
    }

    /// Appends a NULL cell.
    pub fn push_null(&mut self) {
        self.cells.push(Cell::Null);
    }

    /// Appends an integer cell.
    pub fn push_int(&mut self, value: i64) {
        self.cells.push(Cell::Int(value));
    }

    /// Appends a text cell.
    pub fn push_text(&mut self, value: &str) {
        let start = self.text.len();
        self.text.push_str(value);
        self.cells.push(Cell::Text(start..self.text.len()));
    }

    fn cell(&self, column: &str) -> StoreResult<&Cell> {
        let width = self.names.len();
        let start = self.next.get();
        // Mappings read the columns in the order selected: the hint is almost always right.
        let hinted = self.names.get(start).is_some_and(|name| name == column);
        let found = if hinted {
            Some(start)
        } else {
            (0..width).map(|k| (start + k) % width).find(|&i| self.names[i] == column)
        };
        match found.and_then(|i| Some((i, self.cells.get(i)?))) {
            Some((i, cell)) => {
                self.next.set(i + 1);
                Ok(cell)
            }
            None => Err(StoreError::CorruptColumn(column.to_string())),
        }
    }

    /// A NOT NULL text column.
    pub fn text(&self, column: &str) -> StoreResult<String> {
        self.str(column).map(str::to_string)
    }

    /// A nullable text column.
    pub fn opt_text(&self, column: &str) -> StoreResult<Option<String>> {
        Ok(self.opt_str(column)?.map(str::to_string))
    }

    /// A NOT NULL text column, borrowed: for values parsed into something else (no copy).
    pub fn str(&self, column: &str) -> StoreResult<&str> {
        self.opt_str(column)?.ok_or_else(|| StoreError::CorruptColumn(column.to_string()))
    }

    /// A nullable text column, borrowed.
    pub fn opt_str(&self, column: &str) -> StoreResult<Option<&str>> {
        match self.cell(column)? {
            Cell::Null => Ok(None),
            Cell::Text(range) => Ok(self.text.get(range.clone())),
            Cell::Int(_) => Err(StoreError::CorruptColumn(column.to_string())),
        }
    }

    /// A NOT NULL integer column.
    pub fn int(&self, column: &str) -> StoreResult<i64> {
        match self.cell(column)? {
            Cell::Int(n) => Ok(*n),
            _ => Err(StoreError::CorruptColumn(column.to_string())),
        }
    }

    /// A nullable integer column.
    pub fn opt_int(&self, column: &str) -> StoreResult<Option<i64>> {
        match self.cell(column)? {
            Cell::Null => Ok(None),
            Cell::Int(n) => Ok(Some(*n)),
            Cell::Text(_) => Err(StoreError::CorruptColumn(column.to_string())),
        }
    }

    /// A 0/1 flag column.
    pub fn flag(&self, column: &str) -> StoreResult<bool> {
        Ok(self.int(column)? != 0)
    }

    /// The first cell as an integer (`SELECT COUNT(*) …`).
    pub fn first_int(&self) -> StoreResult<i64> {
        match self.cells.first() {
            Some(Cell::Int(n)) => Ok(*n),
            _ => Err(StoreError::CorruptColumn("(first column)".into())),
        }
    }
}

/// A row read from a driver that hands text over as bytes (SQLite): its text is checked as
/// UTF-8 once, when the row is finished, instead of once per column (a dozen and a half checks
/// a charge).
pub struct RowBytes {
    names: Arc<[String]>,
    cells: Vec<Cell>,
    text: Vec<u8>,
}

impl RowBytes {
    /// An empty row, to be filled with one cell per name of `names`, in their order.
    pub fn with_names(names: Arc<[String]>) -> Self {
        let width = names.len();
        Self { names, cells: Vec::with_capacity(width), text: Vec::with_capacity(width * 24) }
    }

    /// How many cells the row has when filled: one per name.
    pub fn width(&self) -> usize {
        self.names.len()
    }

    /// The name of the `index`th column.
    pub fn name(&self, index: usize) -> &str {
        self.names.get(index).map_or("", String::as_str)
    }

    /// Appends a NULL cell.
    pub fn push_null(&mut self) {
        self.cells.push(Cell::Null);
    }

    /// Appends an integer cell.
    pub fn push_int(&mut self, value: i64) {
        self.cells.push(Cell::Int(value));
    }

    /// Appends a text cell, not yet checked.
    pub fn push_text(&mut self, value: &[u8]) {
        let start = self.text.len();
        self.text.extend_from_slice(value);
        self.cells.push(Cell::Text(start..self.text.len()));
    }

    /// The row, its text checked; a cell that is not UTF-8 is read with replacement
    /// characters, each cell on its own. Every cell is UTF-8 exactly when all the text is and
    /// each cell starts and ends on a character boundary (two cells can split one character).
    pub fn finish(self) -> Row {
        let on_boundaries = |text: &str| {
            self.cells.iter().all(|cell| match cell {
                Cell::Text(range) => text.is_char_boundary(range.start) && text.is_char_boundary(range.end),
                Cell::Null | Cell::Int(_) => true,
            })
        };
        match String::from_utf8(self.text) {
            Ok(text) if on_boundaries(&text) => {
                Row { names: self.names, cells: self.cells, text, next: std::cell::Cell::new(0) }
            }
            checked => {
                let bytes = checked.map_or_else(|err| err.into_bytes(), String::into_bytes);
                let mut row = Row::with_names(self.names);
                for cell in self.cells {
                    match cell {
                        Cell::Null => row.push_null(),
                        Cell::Int(n) => row.push_int(n),
                        Cell::Text(range) => row.push_text(&String::from_utf8_lossy(&bytes[range])),
                    }
                }
                row
            }
        }
    }
}

/// A statement assembled piece by piece, numbering its parameters `$1, $2, …`.
#[derive(Debug, Default, Clone)]
pub struct Sql {
    /// The text so far.
    pub text: String,
    /// Its parameters.
    pub params: Vec<Param>,
}

impl Sql {
    /// Starts with `text`.
    pub fn new(text: &str) -> Self {
        Self { text: text.to_string(), params: Vec::new() }
    }

    /// Appends text.
    pub fn push(&mut self, text: &str) -> &mut Self {
        self.text.push_str(text);
        self
    }

    /// Adds a parameter and returns its placeholder (to use once or several times).
    pub fn param(&mut self, value: impl Into<Param>) -> String {
        self.params.push(value.into());
        format!("${}", self.params.len())
    }

    /// Appends a new parameter's placeholder.
    pub fn bind(&mut self, value: impl Into<Param>) -> &mut Self {
        let placeholder = self.param(value);
        self.text.push_str(&placeholder);
        self
    }
}

/// `$first, $first+1, …` (`count` of them): the VALUES of an insert.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count).map(|n| format!("${n}")).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_read_as_bytes_is_checked_once_and_bad_cells_replaced_alone() {
        let names: Arc<[String]> = ["a", "b", "c", "d"].map(String::from).into();
        let mut good = RowBytes::with_names(names.clone());
        good.push_text("José".as_bytes());
        good.push_null();
        good.push_int(7);
        good.push_text(b"");
        let good = good.finish();
        assert_eq!(good.str("a").unwrap(), "José");
        assert_eq!(good.opt_str("b").unwrap(), None);
        assert_eq!(good.int("c").unwrap(), 7);
        assert_eq!(good.str("d").unwrap(), "");

        // A cell ending inside a character and the next one starting with its continuation:
        // each is replaced on its own, as a check per cell did, though together they are UTF-8.
        let mut bad = RowBytes::with_names(names);
        bad.push_text(b"x\xc3");
        bad.push_text(b"\xa9y");
        bad.push_int(1);
        bad.push_text(b"ok");
        let bad = bad.finish();
        assert_eq!(bad.str("a").unwrap(), "x\u{fffd}");
        assert_eq!(bad.str("b").unwrap(), "\u{fffd}y");
        assert_eq!(bad.int("c").unwrap(), 1);
        assert_eq!(bad.str("d").unwrap(), "ok");

        let mut invalid = RowBytes::with_names(["a", "b"].map(String::from).into());
        invalid.push_text(b"\xff\xfe");
        invalid.push_text("ção".as_bytes());
        let invalid = invalid.finish();
        assert_eq!(invalid.str("a").unwrap(), "\u{fffd}\u{fffd}");
        assert_eq!(invalid.str("b").unwrap(), "ção");
    }
}
