//! /v1/credit_bureau_reports: overdue charges reported to a credit bureau (negativações).

use super::escalation_view::escalation_view;
use super::escalations::{Shown, escalated_charge, file_report, list, list_input, load, take_back};
use super::{ApiResult, Call, Reply};
use crate::domain::credit_bureau::{DEFAULT_BUREAU, DEFAULT_NATURE, Report, ReportDetails};
use crate::domain::dates::{Day, Timestamp};
use crate::types::{
    self as wire, CreditBureauReportEnvelope, CreditBureauReportList, CreditBureauReportStatus as Status,
};

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
    escalation_view!(
        wire::CreditBureauReport,
        r {
            bureau: r.bureau,
            nature: r.nature.clone(),
            notice_notification_id: r.notice_notification_id.clone(),
            notice_sent_at: r.at(Status::NoticeSent).map(Timestamp),
            included_at: r.at(Status::Reported).map(Timestamp),
            removal_requested_at: r.at(Status::RemovalRequested).map(Timestamp),
            removal_due_by: r.removal_due_by.map(Day),
            removed_at: r.at(Status::Removed).map(Timestamp),
            canceled_at: r.at(Status::Canceled).map(Timestamp),
            remove_reason: r.remove_reason,
            external_protocol: r.external_protocol.clone(),
        }
    )
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
