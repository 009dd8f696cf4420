//! A debtor as the API shows it, whole and in lists.

use crate::domain::dates::{Day, Timestamp};
use crate::domain::debtor::Debtor;
use crate::domain::format_document;
use crate::types as wire;

/// The public view of a debtor.
pub(crate) fn debtor_view(d: &Debtor) -> wire::Debtor {
    let row = debtor_summary(d);
    wire::Debtor {
        id: row.id,
        external_id: row.external_id,
        person_type: row.person_type,
        name: row.name,
        document: row.document,
        document_formatted: row.document_formatted,
        email: row.email,
        phone: row.phone,
        mobile: row.mobile,
        address: d.address.clone(),
        birth_date: row.birth_date,
        opt_out: row.opt_out,
        credit_bureau_blocked: row.credit_bureau_blocked,
        default_cp_id: row.default_cp_id,
        status: row.status,
        archived_at: row.archived_at,
        summary: row.summary,
        tags: row.tags,
        metadata: row.metadata,
        version: row.version,
        created_at: row.created_at,
        updated_at: row.updated_at,
    }
}

/// A debtor as lists show it: without the postal address.
pub(crate) fn debtor_summary(d: &Debtor) -> wire::DebtorSummary {
    wire::DebtorSummary {
        id: d.id.clone(),
        external_id: d.external_id.clone(),
        person_type: d.person_type,
        name: d.name.clone(),
        document: d.document.clone(),
        document_formatted: format_document(&d.document),
        email: d.email.clone(),
        phone: d.phone.clone(),
        mobile: d.mobile.clone(),
        birth_date: d.birth_date.map(Day),
        opt_out: wire::OptOut {
            email: Some(d.opt_out.email),
            sms: Some(d.opt_out.sms),
            whatsapp: Some(d.opt_out.whatsapp),
        },
        credit_bureau_blocked: d.credit_bureau_blocked,
        default_cp_id: d.default_cp_id.clone(),
        status: d.status,
        archived_at: d.archived_at.map(Timestamp),
        summary: wire::DebtorBalance {
            open_amount: d.balance.open,
            overdue_amount: d.balance.overdue,
            open_charges: d.balance.open_charges,
            overdue_count: d.balance.overdue_charges,
        },
        tags: d.tags.clone(),
        metadata: d.metadata.clone(),
        version: d.version,
        created_at: Timestamp(d.created_at),
        updated_at: Timestamp(d.updated_at),
    }
}
