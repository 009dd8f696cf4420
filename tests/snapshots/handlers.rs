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
    /// `charges_pause`: Pause a charge's dunning
    fn charges_pause(
        call: crate::api::Call,
        input: crate::types::ChargesPauseInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
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
    /// `charges_update`: Update a charge
    fn charges_update(
        call: crate::api::Call,
        input: crate::types::ChargesUpdateInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::ChargeEnvelope>>,
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
/// The operations tagged `me`, implemented in `src/api/me.rs`.
pub trait MeApi {
    /// `me`: Show current organization and token
    fn me(
        call: crate::api::Call,
        input: crate::types::MeInput,
    ) -> impl std::future::Future<
        Output = crate::api::ApiResult<crate::api::Reply<crate::types::MeEnvelope>>,
    > + Send;
}
