//! /v1/credit_bureau_reports: overdue charges reported to a credit bureau (negativações).

use super::escalations::{Shown, escalated_charge, file_report, list, list_input, load, take_back};
use super::{ApiResult, Call, Reply};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report, ReportDetails};
use crate::domain::dates::{Day, Timestamp};
use crate::types::{self as wire, CreditBureauReportEnvelope, CreditBureauReportList};

/// The handlers of the `credit_bureau_reports` tag.
pub struct CreditBureauReports;

impl Shown for ReportDetails {
    type View = wire::CreditBureauReport;
    type Payload = wire::CreditBureauReportEventData;
    const REACHED: &'static str = "credit-bureau";
    const VIEW: fn(&Report) -> wire::CreditBureauReport = report_view;
}

/// The public view of a report.
pub(crate) fn report_view(r: &Report) -> wire::CreditBureauReport {
    wire::CreditBureauReport {
        id: r.id.clone(),
        charge_id: r.charge_id.clone(),
        debtor_id: r.debtor_id.clone(),
        debtor_name: r.debtor_name.clone(),
        charge_description: r.charge_description.clone(),
        bureau: r.bureau,
        status: r.status,
        amount: r.amount,
        nature: r.nature.clone(),
        notice_notification_id: r.notice_notification_id.clone(),
        requested_at: Timestamp(r.requested_at),
        notice_sent_at: r.notice_sent_at.map(Timestamp),
        included_at: r.included_at.map(Timestamp),
        removal_requested_at: r.removal_requested_at.map(Timestamp),
        removal_due_by: r.removal_due_by.map(Day),
        removed_at: r.removed_at.map(Timestamp),
        canceled_at: r.canceled_at.map(Timestamp),
        remove_reason: r.remove_reason,
        failure_reason: r.failure_reason.clone(),
        external_protocol: r.external_protocol.clone(),
        version: r.version,
        created_at: Timestamp(r.created_at),
        updated_at: Timestamp(r.updated_at),
    }
}

fn reply(r: &Report) -> Reply<CreditBureauReportEnvelope> {
    Reply::versioned(CreditBureauReportEnvelope { data: report_view(r) }, r.version)
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
        let (data, meta) = list::<ReportDetails>(&call, list_input!(input)).await?;
        Ok(Reply::new(CreditBureauReportList { data, meta }))
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
