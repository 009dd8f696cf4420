//! Protests: the table's own columns. The life they share with credit-bureau reports is stored
//! by `escalations.rs`.

use super::StoreResult;
use super::columns::enumeration;
use super::escalations::{Queries, Stored, queries};
use super::value::{Param, Row, args};
use crate::domain::money::Hundredths;
use crate::domain::protest::{Notary, ProtestDetails};

impl Stored for ProtestDetails {
    const SQL: Queries = queries!(
        "protests",
        live: "'requested', 'sent', 'intimated', 'protested', 'cancellation_requested'",
        moving: "'requested', 'sent', 'intimated', 'cancellation_requested'",
        owed: "'requested', 'withdrawn', 'cancellation_requested'",
        insert: "INSERT INTO protests (status, failure_reason, version, updated_at, sent_at, intimated_at, \
            protested_at, paid_at, withdrawn_at, cancellation_requested_at, canceled_at, protocol_number, costs_cents, \
            id, organization_id, charge_id, debtor_id, amount_cents, requested_at, created_at, title_type, \
            document_number, notary_name, notary_city, notary_state) \
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, \
            $22, $23, $24, $25)",
        update: "UPDATE protests SET status = $1, failure_reason = $2, version = $3, updated_at = $4, sent_at = $5, \
            intimated_at = $6, protested_at = $7, paid_at = $8, withdrawn_at = $9, cancellation_requested_at = $10, \
            canceled_at = $11, protocol_number = $12, costs_cents = $13 \
            WHERE id = $14 AND organization_id = $15 AND version = $16",
    );
    const MIRROR: &'static str = "protest_status";
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
            protocol_number: row.opt_text("protocol_number")?,
            costs_amount: row.opt_int("costs_cents")?.map(Hundredths),
        })
    }

    fn changing(&self) -> Vec<Param> {
        Vec::from(args![&self.protocol_number, self.costs_amount.map(|c| c.0)])
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
