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
/// allocations (issue 8).
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
        let found = (0..width).map(|k| (start + k) % width).find(|&i| self.names[i] == column);
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
