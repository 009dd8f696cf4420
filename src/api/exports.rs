//! The `exports` tag: CSV files of an organization's data, queued here and built in the
//! background (`outbound/export_file.rs`, run by the engine's builder).

use super::{ApiError, ApiResult, Call, File, ListArgs, Reply, event};
use crate::domain::export::{Export, no_filters};
use crate::types::{self as wire, ExportEnvelope, ExportSeparator};
use crate::views::event_data::ObjectPayload;
use crate::views::export::export_view;

/// The handlers of the `exports` tag.
pub struct Exports;

async fn load(call: &Call, id: &str) -> ApiResult<Export> {
    call.store.export(call.org_id(), id).await?.ok_or(ApiError::NotFound("export"))
}

impl super::handlers::ExportsApi for Exports {
    async fn exports_list(call: Call, input: wire::ExportsListInput) -> ApiResult<Reply<wire::ExportList>> {
        let (window, pager) = ListArgs::plain(input.page, input.per_page, None).page(call.zone());
        let (rows, total) =
            call.store.exports(call.org_id(), input.status, window.limit, window.offset).await?;
        Ok(Reply::new(wire::ExportList {
            data: rows.iter().map(export_view).collect(),
            meta: pager.meta(total),
        }))
    }

    async fn exports_create(call: Call, input: wire::ExportsCreateInput) -> ApiResult<Reply<ExportEnvelope>> {
        let filters = input.filters.unwrap_or_else(no_filters);
        let separator = input.separator.unwrap_or(ExportSeparator::Comma);
        let mut export = Export::queue(call.org_id(), input.kind, filters, separator, call.now)?;
        // Built later, without the caller: its rows are what this token can read.
        export.scopes = Some(call.principal.scopes.clone());
        let evt = event(
            &call,
            "export.db.created",
            &export.id,
            &wire::ExportEventData::of(None, export_view(&export)),
        );
        call.store.insert_export(&export, &evt).await?;
        Ok(Reply::new(ExportEnvelope { data: export_view(&export) }))
    }

    async fn exports_get(call: Call, input: wire::ExportsGetInput) -> ApiResult<Reply<ExportEnvelope>> {
        Ok(Reply::new(ExportEnvelope { data: export_view(&load(&call, &input.id).await?) }))
    }

    async fn exports_download(call: Call, input: wire::ExportsDownloadInput) -> ApiResult<File> {
        let export = load(&call, &input.id).await?;
        export.check_downloadable()?;
        let mut bytes = Vec::with_capacity(usize::try_from(export.size_bytes.unwrap_or(0)).unwrap_or(0));
        call.store.export_chunks(&export.id, |chunk| bytes.extend_from_slice(chunk.as_bytes())).await?;
        Ok(File::named("text/csv", &export.id, "csv", bytes))
    }
}
