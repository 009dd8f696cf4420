//! /v1/credit_bureau_reports: overdue charges reported to a credit bureau (negativações).

use super::escalations::{escalated_charge, file_report, list_filter, list_input, report_view, save_report};
use super::{ApiError, ApiResult, Call, Reply};
use crate::domain::charge::Outcome;
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report};
use crate::types::{self as wire, CreditBureauReportEnvelope, CreditBureauReportList};

/// The handlers of the `credit_bureau_reports` tag.
pub struct CreditBureauReports;

fn reply(r: &Report) -> Reply<CreditBureauReportEnvelope> {
    Reply::versioned(CreditBureauReportEnvelope { data: report_view(r) }, r.version)
}

async fn load(call: &Call, id: &str) -> ApiResult<Report> {
    call.store
        .credit_bureau_report(call.org_id(), id)
        .await?
        .ok_or(ApiError::NotFound("credit-bureau report"))
}

impl super::handlers::CreditBureauReportsApi for CreditBureauReports {
    async fn credit_bureau_reports_create(
        call: Call,
        input: wire::CreditBureauReportsCreateInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        let charge = escalated_charge(&call, input.charge_id.as_str()).await?;
        let nature = input.nature.map_or_else(|| DEFAULT_NATURE.to_string(), Into::into);
        let bureau = input.bureau.unwrap_or(DEFAULT_BUREAU);
        Ok(reply(&file_report(&call, &charge, bureau, nature).await?))
    }

    async fn credit_bureau_reports_get(
        call: Call,
        input: wire::CreditBureauReportsGetInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        Ok(reply(&load(&call, &input.id).await?))
    }

    async fn credit_bureau_reports_list(
        call: Call,
        input: wire::CreditBureauReportsListInput,
    ) -> ApiResult<Reply<CreditBureauReportList>> {
        let (filter, meta) = list_filter(list_input!(input), call.zone());
        let (reports, total, amount) = call.store.credit_bureau_reports(call.org_id(), &filter).await?;
        Ok(Reply::new(CreditBureauReportList {
            data: reports.iter().map(report_view).collect(),
            meta: meta(total, amount),
        }))
    }

    /// Before the inclusion the report is canceled; once reported its removal is requested.
    async fn credit_bureau_reports_remove(
        call: Call,
        input: wire::CreditBureauReportsRemoveInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        let before = load(&call, &input.id).await?;
        call.check_if_match(before.version)?;
        let mut after = before.clone();
        if after.remove(input.reason, call.today(), call.now)? == Outcome::Unchanged {
            return Ok(reply(&before));
        }
        save_report(&call, &before, &after).await?;
        Ok(reply(&after))
    }
}
