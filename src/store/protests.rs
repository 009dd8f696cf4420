//! Protests: the table's own columns. The life they share with credit-bureau reports is stored
//! by `escalations.rs`.

use super::StoreResult;
use super::columns::enumeration;
use super::escalations::{Stored, queries};
use super::value::{Param, Row, args};
use crate::domain::money::Hundredths;
use crate::domain::protest::{Notary, ProtestDetails};

impl Stored for ProtestDetails {
    queries!(
        "protests",
        live: "'requested', 'sent', 'intimated', 'protested', 'cancellation_requested'",
        moving: "'requested', 'sent', 'intimated', 'cancellation_requested'",
        owed: "'requested', 'withdrawn', 'cancellation_requested'",
        mirror: "protest_status",
        protocol: "protocol_number",
        changing: ["costs_cents"],
        fixed: ["title_type", "document_number", "notary_name", "notary_city", "notary_state"],
    );
    const NAME: &'static str = "protest";

    fn details(row: &Row) -> StoreResult<Self> {
        Ok(Self {
            title_type: enumeration(row, "title_type")?,
            document_number: row.text("document_number")?,
            notary: Notary {
                name: row.text("notary_name")?,
                city: row.text("notary_city")?,
                state: row.text("notary_state")?,
            },
            costs_amount: row.opt_int("costs_cents")?.map(Hundredths),
        })
    }

    fn changing(&self) -> Vec<Param> {
        Vec::from(args![self.costs_amount.map(|c| c.0)])
    }

    fn fixed(&self) -> Vec<Param> {
        Vec::from(args![
            self.title_type.as_str(),
            &self.document_number,
            &self.notary.name,
            &self.notary.city,
            &self.notary.state,
        ])
    }
}
