//! An export as the API shows it.

use crate::domain::dates::Timestamp;
use crate::domain::export::Export;
use crate::types as wire;

/// The public view of an export.
pub(crate) fn export_view(e: &Export) -> wire::Export {
    wire::Export {
        id: e.id.clone(),
        kind: e.kind,
        filters: e.filters.clone(),
        separator: e.separator,
        status: e.status,
        rows: e.rows,
        size_bytes: e.size_bytes,
        error: e.error.clone(),
        created_at: Timestamp(e.created_at),
        started_at: e.started_at.map(Timestamp),
        processed_at: e.processed_at.map(Timestamp),
        failed_at: e.failed_at.map(Timestamp),
        expires_at: e.expires_at.map(Timestamp),
    }
}
