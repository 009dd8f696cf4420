//! /v1/credit_bureau_reports: overdue charges reported to a credit bureau (negativações).

use super::escalations::{escalated_charge, file_report, list, list_input, load, reply, take_back};
use super::{ApiResult, Call, Reply};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report, ReportDetails};
use crate::types::{self as wire, CreditBureauReportEnvelope, CreditBureauReportList};

/// The handlers of the `credit_bureau_reports` tag.
pub struct CreditBureauReports;

impl super::handlers::CreditBureauReportsApi for CreditBureauReports {
    async fn credit_bureau_reports_create(
        call: Call,
        input: wire::CreditBureauReportsCreateInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        let nature = input.nature.map_or_else(|| DEFAULT_NATURE.to_string(), Into::into);
        let bureau = input.bureau.unwrap_or(DEFAULT_BUREAU);
        let charge = escalated_charge(&call, input.charge_id.as_str()).await?;
        Ok(reply(&file_report(&call, &charge, bureau, nature).await?))
    }

    async fn credit_bureau_reports_get(
        call: Call,
        input: wire::CreditBureauReportsGetInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        Ok(reply(&load::<ReportDetails>(&call, &input.id).await?))
    }

    async fn credit_bureau_reports_list(
        call: Call,
        input: wire::CreditBureauReportsListInput,
    ) -> ApiResult<Reply<CreditBureauReportList>> {
        list::<ReportDetails>(&call, list_input!(input)).await
    }

    /// Before the inclusion the report is canceled; once reported its removal is requested.
    async fn credit_bureau_reports_remove(
        call: Call,
        input: wire::CreditBureauReportsRemoveInput,
    ) -> ApiResult<Reply<CreditBureauReportEnvelope>> {
        let today = call.today();
        let report = take_back(&call, &input.id, |r: &mut Report| r.remove(input.reason, today, call.now));
        Ok(reply(&report.await?))
    }
}
