//! Columns to and from domain values: dates as `YYYY-MM-DD`, instants as RFC 3339 text, money
//! as integer hundredths, enums as the spec writes them, lists and maps as JSON. A stored value
//! that does not read back is corruption, never a default. Written once, over the
//! backend-neutral [`Row`].

use serde::de::DeserializeOwned;
use time::{Date, OffsetDateTime};

use super::value::Row;
use super::{StoreError, StoreResult};
use crate::domain::dates::{format_date, format_timestamp, parse_date, parse_timestamp};
use crate::domain::money::Hundredths;

fn corrupt(column: &str) -> StoreError {
    StoreError::CorruptColumn(column.to_string())
}

/// A `YYYY-MM-DD` column.
pub fn date(row: &Row, column: &str) -> StoreResult<Date> {
    parse_date(row.str(column)?).map_err(|_| corrupt(column))
}

/// A nullable `YYYY-MM-DD` column.
pub fn optional_date(row: &Row, column: &str) -> StoreResult<Option<Date>> {
    row.opt_str(column)?.map(|text| parse_date(text).map_err(|_| corrupt(column))).transpose()
}

/// An RFC 3339 column.
pub fn timestamp(row: &Row, column: &str) -> StoreResult<OffsetDateTime> {
    parse_timestamp(row.str(column)?).map_err(|_| corrupt(column))
}

/// A nullable RFC 3339 column.
pub fn optional_timestamp(row: &Row, column: &str) -> StoreResult<Option<OffsetDateTime>> {
    row.opt_str(column)?.map(|text| parse_timestamp(text).map_err(|_| corrupt(column))).transpose()
}

/// An integer column of hundredths (centavos, hundredths of a percent).
pub fn money(row: &Row, column: &str) -> StoreResult<Hundredths> {
    Ok(Hundredths(row.int(column)?))
}

/// A text column holding one of an enum's values.
pub fn enumeration<T: std::str::FromStr>(row: &Row, column: &str) -> StoreResult<T> {
    row.str(column)?.parse().map_err(|_| corrupt(column))
}

/// A nullable text column holding one of an enum's values.
pub fn optional_enumeration<T: std::str::FromStr>(row: &Row, column: &str) -> StoreResult<Option<T>> {
    row.opt_text(column)?.map(|v| v.parse().map_err(|_| corrupt(column))).transpose()
}

/// A JSON text column.
pub fn json<T: DeserializeOwned>(row: &Row, column: &str) -> StoreResult<T> {
    Ok(serde_json::from_str(row.str(column)?)?)
}

/// A date as stored.
pub fn date_text(day: Date) -> String {
    format_date(day)
}

/// An instant as stored.
pub fn timestamp_text(at: &OffsetDateTime) -> String {
    format_timestamp(*at)
}

/// A list or map as stored (serialising plain data cannot fail; an empty value never stored).
pub fn json_text<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    Ok(serde_json::to_string(value)?)
}
