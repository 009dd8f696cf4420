/// The operations tagged `agreements`, implemented in `src/api/agreements.rs`.
pub trait AgreementsApi {
    /// `agreements_cancel`: Cancel an agreement
    fn agreements_cancel(
        call: crate::api::Call,
        input: crate::types::AgreementsCancelInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::AgreementEnvelope>,
        >,
    > + Send;
    /// `agreements_create`: Create an agreement
    fn agreements_create(
        call: crate::api::Call,
        input: crate::types::AgreementsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::AgreementEnvelope>,
        >,
    > + Send;
    /// `agreements_get`: Get an agreement
    fn agreements_get(
        call: crate::api::Call,
        input: crate::types::AgreementsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::AgreementEnvelope>,
        >,
    > + Send;
    /// `agreements_installments`: An agreement's installments
    fn agreements_installments(
        call: crate::api::Call,
        input: crate::types::AgreementsInstallmentsInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::AgreementInstallmentList>,
        >,
    > + Send;
    /// `agreements_list`: List agreements
    fn agreements_list(
        call: crate::api::Call,
        input: crate::types::AgreementsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::AgreementList>>,
    > + Send;
    /// `agreements_simulate`: Simulate an agreement
    fn agreements_simulate(
        call: crate::api::Call,
        input: crate::types::AgreementsSimulateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::AgreementSimulationEnvelope>,
        >,
    > + Send;
    /// `agreements_term`: An agreement's term (PDF)
    fn agreements_term(
        call: crate::api::Call,
        input: crate::types::AgreementsTermInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::File>,
    > + Send;
}
/// The operations tagged `charges`, implemented in `src/api/charges.rs`.
pub trait ChargesApi {
    /// `charges_cancel`: Cancel a charge
    fn charges_cancel(
        call: crate::api::Call,
        input: crate::types::ChargesCancelInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_create`: Create a charge
    fn charges_create(
        call: crate::api::Call,
        input: crate::types::ChargesCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_decide`: Decide on a charge
    fn charges_decide(
        call: crate::api::Call,
        input: crate::types::ChargesDecideInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_get`: Get a charge
    fn charges_get(
        call: crate::api::Call,
        input: crate::types::ChargesGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_list`: List charges
    fn charges_list(
        call: crate::api::Call,
        input: crate::types::ChargesListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeList>>,
    > + Send;
    /// `charges_notify`: Send a message about a charge now
    fn charges_notify(
        call: crate::api::Call,
        input: crate::types::ChargesNotifyInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::NotificationEnvelope>,
        >,
    > + Send;
    /// `charges_pause`: Pause a charge's dunning
    fn charges_pause(
        call: crate::api::Call,
        input: crate::types::ChargesPauseInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_pix_qr`: A charge's Pix QR code (PNG)
    fn charges_pix_qr(
        call: crate::api::Call,
        input: crate::types::ChargesPixQrInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::File>,
    > + Send;
    /// `charges_resume`: Resume a charge's dunning
    fn charges_resume(
        call: crate::api::Call,
        input: crate::types::ChargesResumeInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_settle`: Settle a charge
    fn charges_settle(
        call: crate::api::Call,
        input: crate::types::ChargesSettleInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_settlement_letter`: A charge's settlement letter (PDF)
    fn charges_settlement_letter(
        call: crate::api::Call,
        input: crate::types::ChargesSettlementLetterInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::File>,
    > + Send;
    /// `charges_update`: Update a charge
    fn charges_update(
        call: crate::api::Call,
        input: crate::types::ChargesUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `charges_write_off`: Write off a charge
    fn charges_write_off(
        call: crate::api::Call,
        input: crate::types::ChargesWriteOffInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
    > + Send;
    /// `portfolio_get`: Portfolio overview
    fn portfolio_get(
        call: crate::api::Call,
        input: crate::types::PortfolioGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PortfolioEnvelope>,
        >,
    > + Send;
}
/// The operations tagged `collection_policies`, implemented in `src/api/collection_policies.rs`.
pub trait CollectionPoliciesApi {
    /// `collection_policies_archive`: Archive a collection policy
    fn collection_policies_archive(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesArchiveInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyEnvelope>,
        >,
    > + Send;
    /// `collection_policies_create`: Create a collection policy
    fn collection_policies_create(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyEnvelope>,
        >,
    > + Send;
    /// `collection_policies_delete`: Delete a collection policy
    fn collection_policies_delete(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesDeleteInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::NoContent>,
    > + Send;
    /// `collection_policies_duplicate`: Copy a collection policy
    fn collection_policies_duplicate(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesDuplicateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyEnvelope>,
        >,
    > + Send;
    /// `collection_policies_get`: Get a collection policy
    fn collection_policies_get(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyEnvelope>,
        >,
    > + Send;
    /// `collection_policies_list`: List collection policies
    fn collection_policies_list(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyList>,
        >,
    > + Send;
    /// `collection_policies_preview`: Preview a policy's schedule
    fn collection_policies_preview(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesPreviewInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PolicyPreviewEnvelope>,
        >,
    > + Send;
    /// `collection_policies_steps_create`: Add a step to a policy
    fn collection_policies_steps_create(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesStepsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::StepEnvelope>>,
    > + Send;
    /// `collection_policies_steps_delete`: Delete a step
    fn collection_policies_steps_delete(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesStepsDeleteInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::NoContent>,
    > + Send;
    /// `collection_policies_steps_get`: Get a step
    fn collection_policies_steps_get(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesStepsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::StepEnvelope>>,
    > + Send;
    /// `collection_policies_steps_list`: List a policy's steps
    fn collection_policies_steps_list(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesStepsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::StepList>>,
    > + Send;
    /// `collection_policies_steps_update`: Update a step
    fn collection_policies_steps_update(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesStepsUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::StepEnvelope>>,
    > + Send;
    /// `collection_policies_update`: Update a collection policy
    fn collection_policies_update(
        call: crate::api::Call,
        input: crate::types::CollectionPoliciesUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CollectionPolicyEnvelope>,
        >,
    > + Send;
}
/// The operations tagged `credit_bureau_reports`, implemented in `src/api/credit_bureau_reports.rs`.
pub trait CreditBureauReportsApi {
    /// `credit_bureau_reports_create`: Report a charge to a credit bureau
    fn credit_bureau_reports_create(
        call: crate::api::Call,
        input: crate::types::CreditBureauReportsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CreditBureauReportEnvelope>,
        >,
    > + Send;
    /// `credit_bureau_reports_get`: Get a credit-bureau report
    fn credit_bureau_reports_get(
        call: crate::api::Call,
        input: crate::types::CreditBureauReportsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CreditBureauReportEnvelope>,
        >,
    > + Send;
    /// `credit_bureau_reports_list`: List credit-bureau reports
    fn credit_bureau_reports_list(
        call: crate::api::Call,
        input: crate::types::CreditBureauReportsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CreditBureauReportList>,
        >,
    > + Send;
    /// `credit_bureau_reports_remove`: Remove a credit-bureau report
    fn credit_bureau_reports_remove(
        call: crate::api::Call,
        input: crate::types::CreditBureauReportsRemoveInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::CreditBureauReportEnvelope>,
        >,
    > + Send;
}
/// The operations tagged `debtors`, implemented in `src/api/debtors.rs`.
pub trait DebtorsApi {
    /// `debtors_archive`: Archive a debtor
    fn debtors_archive(
        call: crate::api::Call,
        input: crate::types::DebtorsArchiveInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::DebtorEnvelope>>,
    > + Send;
    /// `debtors_create`: Create a debtor
    fn debtors_create(
        call: crate::api::Call,
        input: crate::types::DebtorsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::DebtorEnvelope>>,
    > + Send;
    /// `debtors_delete`: Delete a debtor
    fn debtors_delete(
        call: crate::api::Call,
        input: crate::types::DebtorsDeleteInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::NoContent>,
    > + Send;
    /// `debtors_get`: Get a debtor
    fn debtors_get(
        call: crate::api::Call,
        input: crate::types::DebtorsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::DebtorEnvelope>>,
    > + Send;
    /// `debtors_list`: List debtors
    fn debtors_list(
        call: crate::api::Call,
        input: crate::types::DebtorsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::DebtorList>>,
    > + Send;
    /// `debtors_statement`: A debtor's statement (PDF)
    fn debtors_statement(
        call: crate::api::Call,
        input: crate::types::DebtorsStatementInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::File>,
    > + Send;
    /// `debtors_update`: Update a debtor
    fn debtors_update(
        call: crate::api::Call,
        input: crate::types::DebtorsUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::DebtorEnvelope>>,
    > + Send;
}
/// The operations tagged `events`, implemented in `src/api/events.rs`.
pub trait EventsApi {
    /// `events_get`: Get an event
    fn events_get(
        call: crate::api::Call,
        input: crate::types::EventsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::EventEnvelope>>,
    > + Send;
    /// `events_list`: List events
    fn events_list(
        call: crate::api::Call,
        input: crate::types::EventsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::EventList>>,
    > + Send;
}
/// The operations tagged `exports`, implemented in `src/api/exports.rs`.
pub trait ExportsApi {
    /// `exports_create`: Export data as CSV
    fn exports_create(
        call: crate::api::Call,
        input: crate::types::ExportsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ExportEnvelope>>,
    > + Send;
    /// `exports_download`: Download an export (CSV)
    fn exports_download(
        call: crate::api::Call,
        input: crate::types::ExportsDownloadInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::File>,
    > + Send;
    /// `exports_get`: Get an export
    fn exports_get(
        call: crate::api::Call,
        input: crate::types::ExportsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ExportEnvelope>>,
    > + Send;
    /// `exports_list`: List exports
    fn exports_list(
        call: crate::api::Call,
        input: crate::types::ExportsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ExportList>>,
    > + Send;
}
/// The operations tagged `me`, implemented in `src/api/me.rs`.
pub trait MeApi {
    /// `me`: Current organization and token
    fn me(
        call: crate::api::Call,
        input: crate::types::MeInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::MeEnvelope>>,
    > + Send;
    /// `organization_pix_update`: Set the Pix key
    fn organization_pix_update(
        call: crate::api::Call,
        input: crate::types::OrganizationPixUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::MeEnvelope>>,
    > + Send;
}
/// The operations tagged `notifications`, implemented in `src/api/notifications.rs`.
pub trait NotificationsApi {
    /// `notifications_cancel`: Cancel a queued notification
    fn notifications_cancel(
        call: crate::api::Call,
        input: crate::types::NotificationsCancelInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::NotificationEnvelope>,
        >,
    > + Send;
    /// `notifications_create`: Send a message to a debtor
    fn notifications_create(
        call: crate::api::Call,
        input: crate::types::NotificationsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::NotificationEnvelope>,
        >,
    > + Send;
    /// `notifications_get`: Get a notification
    fn notifications_get(
        call: crate::api::Call,
        input: crate::types::NotificationsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::NotificationEnvelope>,
        >,
    > + Send;
    /// `notifications_list`: List notifications
    fn notifications_list(
        call: crate::api::Call,
        input: crate::types::NotificationsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::NotificationList>>,
    > + Send;
    /// `notifications_resend`: Send a message again
    fn notifications_resend(
        call: crate::api::Call,
        input: crate::types::NotificationsResendInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::NotificationEnvelope>,
        >,
    > + Send;
}
/// The operations tagged `payments`, implemented in `src/api/payments.rs`.
pub trait PaymentsApi {
    /// `payment_receiver_create`: Register a payment receiver
    fn payment_receiver_create(
        call: crate::api::Call,
        input: crate::types::PaymentReceiverCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PaymentReceiverEnvelope>,
        >,
    > + Send;
    /// `payment_receivers_get`: Get a payment receiver
    fn payment_receivers_get(
        call: crate::api::Call,
        input: crate::types::PaymentReceiversGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PaymentReceiverEnvelope>,
        >,
    > + Send;
    /// `payment_receivers_list`: List payment receivers
    fn payment_receivers_list(
        call: crate::api::Call,
        input: crate::types::PaymentReceiversListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PaymentReceiverList>,
        >,
    > + Send;
    /// `payment_receivers_revoke`: Revoke a payment receiver
    fn payment_receivers_revoke(
        call: crate::api::Call,
        input: crate::types::PaymentReceiversRevokeInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::PaymentReceiverEnvelope>,
        >,
    > + Send;
    /// `payments_assign`: Assign a payment to a charge
    fn payments_assign(
        call: crate::api::Call,
        input: crate::types::PaymentsAssignInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::PaymentEnvelope>>,
    > + Send;
    /// `payments_list`: List payments received
    fn payments_list(
        call: crate::api::Call,
        input: crate::types::PaymentsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::PaymentList>>,
    > + Send;
}
/// The operations tagged `protests`, implemented in `src/api/protests.rs`.
pub trait ProtestsApi {
    /// `protests_cancel`: Cancel a protest
    fn protests_cancel(
        call: crate::api::Call,
        input: crate::types::ProtestsCancelInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ProtestEnvelope>>,
    > + Send;
    /// `protests_create`: Protest a charge
    fn protests_create(
        call: crate::api::Call,
        input: crate::types::ProtestsCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ProtestEnvelope>>,
    > + Send;
    /// `protests_get`: Get a protest
    fn protests_get(
        call: crate::api::Call,
        input: crate::types::ProtestsGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ProtestEnvelope>>,
    > + Send;
    /// `protests_list`: List protests
    fn protests_list(
        call: crate::api::Call,
        input: crate::types::ProtestsListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ProtestList>>,
    > + Send;
}
/// The operations tagged `webhooks`, implemented in `src/api/webhooks.rs`.
pub trait WebhooksApi {
    /// `webhooks_create`: Create a webhook
    fn webhooks_create(
        call: crate::api::Call,
        input: crate::types::WebhooksCreateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookSecretEnvelope>,
        >,
    > + Send;
    /// `webhooks_delete`: Delete a webhook
    fn webhooks_delete(
        call: crate::api::Call,
        input: crate::types::WebhooksDeleteInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::NoContent>,
    > + Send;
    /// `webhooks_deliveries_get`: Get a webhook delivery
    fn webhooks_deliveries_get(
        call: crate::api::Call,
        input: crate::types::WebhooksDeliveriesGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookDeliveryEnvelope>,
        >,
    > + Send;
    /// `webhooks_deliveries_list`: List a webhook's deliveries
    fn webhooks_deliveries_list(
        call: crate::api::Call,
        input: crate::types::WebhooksDeliveriesListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookDeliveryList>,
        >,
    > + Send;
    /// `webhooks_deliveries_retry`: Send a delivery again
    fn webhooks_deliveries_retry(
        call: crate::api::Call,
        input: crate::types::WebhooksDeliveriesRetryInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookDeliveryEnvelope>,
        >,
    > + Send;
    /// `webhooks_get`: Get a webhook
    fn webhooks_get(
        call: crate::api::Call,
        input: crate::types::WebhooksGetInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::WebhookEnvelope>>,
    > + Send;
    /// `webhooks_list`: List webhooks
    fn webhooks_list(
        call: crate::api::Call,
        input: crate::types::WebhooksListInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::WebhookList>>,
    > + Send;
    /// `webhooks_rotate_secret`: Rotate a webhook's secret
    fn webhooks_rotate_secret(
        call: crate::api::Call,
        input: crate::types::WebhooksRotateSecretInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookSecretEnvelope>,
        >,
    > + Send;
    /// `webhooks_test`: Ping a webhook
    fn webhooks_test(
        call: crate::api::Call,
        input: crate::types::WebhooksTestInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<
            crate::api::Reply<crate::types::WebhookDeliveryEnvelope>,
        >,
    > + Send;
    /// `webhooks_update`: Update a webhook
    fn webhooks_update(
        call: crate::api::Call,
        input: crate::types::WebhooksUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::WebhookEnvelope>>,
    > + Send;
}
