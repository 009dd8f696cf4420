#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ActorType {
    #[serde(rename = "user")]
    User,
    #[serde(rename = "client")]
    Client,
    #[serde(rename = "token")]
    Token,
    #[serde(rename = "system")]
    System,
}
impl ActorType {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::User,
        Self::Client,
        Self::Token,
        Self::System,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Client => "client",
            Self::Token => "token",
            Self::System => "system",
        }
    }
}
impl std::str::FromStr for ActorType {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ActorType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum AddressCountry {
    #[serde(rename = "BR")]
    Br,
}
impl AddressCountry {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Br];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Br => "BR",
        }
    }
}
impl std::str::FromStr for AddressCountry {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for AddressCountry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum AddressState {
    #[serde(rename = "AC")]
    Ac,
    #[serde(rename = "AL")]
    Al,
    #[serde(rename = "AP")]
    Ap,
    #[serde(rename = "AM")]
    Am,
    #[serde(rename = "BA")]
    Ba,
    #[serde(rename = "CE")]
    Ce,
    #[serde(rename = "DF")]
    Df,
    #[serde(rename = "ES")]
    Es,
    #[serde(rename = "GO")]
    Go,
    #[serde(rename = "MA")]
    Ma,
    #[serde(rename = "MT")]
    Mt,
    #[serde(rename = "MS")]
    Ms,
    #[serde(rename = "MG")]
    Mg,
    #[serde(rename = "PA")]
    Pa,
    #[serde(rename = "PB")]
    Pb,
    #[serde(rename = "PR")]
    Pr,
    #[serde(rename = "PE")]
    Pe,
    #[serde(rename = "PI")]
    Pi,
    #[serde(rename = "RJ")]
    Rj,
    #[serde(rename = "RN")]
    Rn,
    #[serde(rename = "RS")]
    Rs,
    #[serde(rename = "RO")]
    Ro,
    #[serde(rename = "RR")]
    Rr,
    #[serde(rename = "SC")]
    Sc,
    #[serde(rename = "SP")]
    Sp,
    #[serde(rename = "SE")]
    Se,
    #[serde(rename = "TO")]
    To,
}
impl AddressState {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Ac,
        Self::Al,
        Self::Ap,
        Self::Am,
        Self::Ba,
        Self::Ce,
        Self::Df,
        Self::Es,
        Self::Go,
        Self::Ma,
        Self::Mt,
        Self::Ms,
        Self::Mg,
        Self::Pa,
        Self::Pb,
        Self::Pr,
        Self::Pe,
        Self::Pi,
        Self::Rj,
        Self::Rn,
        Self::Rs,
        Self::Ro,
        Self::Rr,
        Self::Sc,
        Self::Sp,
        Self::Se,
        Self::To,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ac => "AC",
            Self::Al => "AL",
            Self::Ap => "AP",
            Self::Am => "AM",
            Self::Ba => "BA",
            Self::Ce => "CE",
            Self::Df => "DF",
            Self::Es => "ES",
            Self::Go => "GO",
            Self::Ma => "MA",
            Self::Mt => "MT",
            Self::Ms => "MS",
            Self::Mg => "MG",
            Self::Pa => "PA",
            Self::Pb => "PB",
            Self::Pr => "PR",
            Self::Pe => "PE",
            Self::Pi => "PI",
            Self::Rj => "RJ",
            Self::Rn => "RN",
            Self::Rs => "RS",
            Self::Ro => "RO",
            Self::Rr => "RR",
            Self::Sc => "SC",
            Self::Sp => "SP",
            Self::Se => "SE",
            Self::To => "TO",
        }
    }
}
impl std::str::FromStr for AddressState {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for AddressState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// awaiting_down_payment (until the down payment is paid), active (installments running), completed (all paid), broken (an installment overdue past the grace days), canceled.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum AgreementStatus {
    #[serde(rename = "awaiting_down_payment")]
    AwaitingDownPayment,
    #[serde(rename = "active")]
    Active,
    #[serde(rename = "completed")]
    Completed,
    #[serde(rename = "broken")]
    Broken,
    #[serde(rename = "canceled")]
    Canceled,
}
impl AgreementStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::AwaitingDownPayment,
        Self::Active,
        Self::Completed,
        Self::Broken,
        Self::Canceled,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::AwaitingDownPayment => "awaiting_down_payment",
            Self::Active => "active",
            Self::Completed => "completed",
            Self::Broken => "broken",
            Self::Canceled => "canceled",
        }
    }
}
impl std::str::FromStr for AgreementStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for AgreementStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ApprovalEventDataDecision {
    #[serde(rename = "approve")]
    Approve,
    #[serde(rename = "decline")]
    Decline,
}
impl ApprovalEventDataDecision {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Approve, Self::Decline];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Approve => "approve",
            Self::Decline => "decline",
        }
    }
}
impl std::str::FromStr for ApprovalEventDataDecision {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ApprovalEventDataDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// How a message reaches the debtor: e-mail, SMS, WhatsApp or a mailed letter.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum Channel {
    #[serde(rename = "email")]
    Email,
    #[serde(rename = "sms")]
    Sms,
    #[serde(rename = "whatsapp")]
    Whatsapp,
    #[serde(rename = "letter")]
    Letter,
}
impl Channel {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Email,
        Self::Sms,
        Self::Whatsapp,
        Self::Letter,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Sms => "sms",
            Self::Whatsapp => "whatsapp",
            Self::Letter => "letter",
        }
    }
}
impl std::str::FromStr for Channel {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for Channel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Always BRL.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ChargeCurrency {
    #[serde(rename = "BRL")]
    Brl,
}
impl ChargeCurrency {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Brl];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Brl => "BRL",
        }
    }
}
impl std::str::FromStr for ChargeCurrency {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ChargeCurrency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// direct (created on its own: charges_create, an import), or agreement (an agreement's installment or down payment, made by agreements_create or a decision to renegotiate).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ChargeOrigin {
    #[serde(rename = "direct")]
    Direct,
    #[serde(rename = "agreement")]
    Agreement,
}
impl ChargeOrigin {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Direct, Self::Agreement];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Direct => "direct",
            Self::Agreement => "agreement",
        }
    }
}
impl std::str::FromStr for ChargeOrigin {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ChargeOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The payment state of a charge.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ChargeStatus {
    #[serde(rename = "pending")]
    Pending,
    #[serde(rename = "overdue")]
    Overdue,
    #[serde(rename = "paid")]
    Paid,
    #[serde(rename = "canceled")]
    Canceled,
    #[serde(rename = "written_off")]
    WrittenOff,
    #[serde(rename = "in_agreement")]
    InAgreement,
}
impl ChargeStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Pending,
        Self::Overdue,
        Self::Paid,
        Self::Canceled,
        Self::WrittenOff,
        Self::InAgreement,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Overdue => "overdue",
            Self::Paid => "paid",
            Self::Canceled => "canceled",
            Self::WrittenOff => "written_off",
            Self::InAgreement => "in_agreement",
        }
    }
}
impl std::str::FromStr for ChargeStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ChargeStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ChargesListSortBy {
    #[serde(rename = "created_at")]
    CreatedAt,
    #[serde(rename = "updated_at")]
    UpdatedAt,
    #[serde(rename = "due_date")]
    DueDate,
    #[serde(rename = "amount")]
    Amount,
}
impl ChargesListSortBy {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::CreatedAt,
        Self::UpdatedAt,
        Self::DueDate,
        Self::Amount,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::CreatedAt => "created_at",
            Self::UpdatedAt => "updated_at",
            Self::DueDate => "due_date",
            Self::Amount => "amount",
        }
    }
}
impl std::str::FromStr for ChargesListSortBy {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ChargesListSortBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// A draft does not run.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CollectionPoliciesCreateStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "active")]
    Active,
}
impl CollectionPoliciesCreateStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Draft, Self::Active];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Active => "active",
        }
    }
}
impl std::str::FromStr for CollectionPoliciesCreateStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CollectionPoliciesCreateStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// archive with collection_policies_archive.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CollectionPoliciesUpdateStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "active")]
    Active,
}
impl CollectionPoliciesUpdateStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Draft, Self::Active];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Active => "active",
        }
    }
}
impl std::str::FromStr for CollectionPoliciesUpdateStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CollectionPoliciesUpdateStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// A draft does not run.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CollectionPolicyCreateStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "active")]
    Active,
}
impl CollectionPolicyCreateStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Draft, Self::Active];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Active => "active",
        }
    }
}
impl std::str::FromStr for CollectionPolicyCreateStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CollectionPolicyCreateStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// archive with collection_policies_archive.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CollectionPolicyUpdateStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "active")]
    Active,
}
impl CollectionPolicyUpdateStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Draft, Self::Active];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Active => "active",
        }
    }
}
impl std::str::FromStr for CollectionPolicyUpdateStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CollectionPolicyUpdateStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The credit bureau (birô de crédito) a report goes to.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CreditBureau {
    #[serde(rename = "serasa")]
    Serasa,
    #[serde(rename = "boa_vista")]
    BoaVista,
}
impl CreditBureau {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Serasa, Self::BoaVista];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Serasa => "serasa",
            Self::BoaVista => "boa_vista",
        }
    }
}
impl std::str::FromStr for CreditBureau {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CreditBureau {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Why a report was taken back: paid, agreement (renegotiated), canceled (the charge was), contested (the debtor contested it), error, manual.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CreditBureauRemoveReason {
    #[serde(rename = "paid")]
    Paid,
    #[serde(rename = "agreement")]
    Agreement,
    #[serde(rename = "canceled")]
    Canceled,
    #[serde(rename = "contested")]
    Contested,
    #[serde(rename = "error")]
    Error,
    #[serde(rename = "manual")]
    Manual,
}
impl CreditBureauRemoveReason {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Paid,
        Self::Agreement,
        Self::Canceled,
        Self::Contested,
        Self::Error,
        Self::Manual,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Paid => "paid",
            Self::Agreement => "agreement",
            Self::Canceled => "canceled",
            Self::Contested => "contested",
            Self::Error => "error",
            Self::Manual => "manual",
        }
    }
}
impl std::str::FromStr for CreditBureauRemoveReason {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CreditBureauRemoveReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// requested (sent to the bureau), notice_sent (the bureau mailed its notice to the debtor), reported (the debtor is in the bureau's records), removal_requested (the removal was asked, due by removal_due_by), removed, canceled (taken back before the inclusion), failed (refused by the bureau; see failure_reason).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum CreditBureauReportStatus {
    #[serde(rename = "requested")]
    Requested,
    #[serde(rename = "notice_sent")]
    NoticeSent,
    #[serde(rename = "reported")]
    Reported,
    #[serde(rename = "removal_requested")]
    RemovalRequested,
    #[serde(rename = "removed")]
    Removed,
    #[serde(rename = "canceled")]
    Canceled,
    #[serde(rename = "failed")]
    Failed,
}
impl CreditBureauReportStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Requested,
        Self::NoticeSent,
        Self::Reported,
        Self::RemovalRequested,
        Self::Removed,
        Self::Canceled,
        Self::Failed,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::NoticeSent => "notice_sent",
            Self::Reported => "reported",
            Self::RemovalRequested => "removal_requested",
            Self::Removed => "removed",
            Self::Canceled => "canceled",
            Self::Failed => "failed",
        }
    }
}
impl std::str::FromStr for CreditBureauReportStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for CreditBureauReportStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The state of a debtor.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum DebtorStatus {
    #[serde(rename = "active")]
    Active,
    #[serde(rename = "archived")]
    Archived,
}
impl DebtorStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Active, Self::Archived];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Archived => "archived",
        }
    }
}
impl std::str::FromStr for DebtorStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for DebtorStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum DebtorsListSortBy {
    #[serde(rename = "created_at")]
    CreatedAt,
    #[serde(rename = "updated_at")]
    UpdatedAt,
    #[serde(rename = "name")]
    Name,
    #[serde(rename = "open_amount")]
    OpenAmount,
    #[serde(rename = "overdue_amount")]
    OverdueAmount,
}
impl DebtorsListSortBy {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::CreatedAt,
        Self::UpdatedAt,
        Self::Name,
        Self::OpenAmount,
        Self::OverdueAmount,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::CreatedAt => "created_at",
            Self::UpdatedAt => "updated_at",
            Self::Name => "name",
            Self::OpenAmount => "open_amount",
            Self::OverdueAmount => "overdue_amount",
        }
    }
}
impl std::str::FromStr for DebtorsListSortBy {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for DebtorsListSortBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// What a person decided: write_off (uncollectable), restart (the régua goes on from its next step), keep_open (it stays overdue, the régua stops), agreement (on the terms given), credit_bureau or protest (filed; the régua goes on).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum Decision {
    #[serde(rename = "write_off")]
    WriteOff,
    #[serde(rename = "restart")]
    Restart,
    #[serde(rename = "keep_open")]
    KeepOpen,
    #[serde(rename = "agreement")]
    Agreement,
    #[serde(rename = "credit_bureau")]
    CreditBureau,
    #[serde(rename = "protest")]
    Protest,
}
impl Decision {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::WriteOff,
        Self::Restart,
        Self::KeepOpen,
        Self::Agreement,
        Self::CreditBureau,
        Self::Protest,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::WriteOff => "write_off",
            Self::Restart => "restart",
            Self::KeepOpen => "keep_open",
            Self::Agreement => "agreement",
            Self::CreditBureau => "credit_bureau",
            Self::Protest => "protest",
        }
    }
}
impl std::str::FromStr for Decision {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for Decision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The state of a charge's collection process (régua).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum DunningStatus {
    #[serde(rename = "not_started")]
    NotStarted,
    #[serde(rename = "active")]
    Active,
    #[serde(rename = "paused")]
    Paused,
    #[serde(rename = "awaiting_decision")]
    AwaitingDecision,
    #[serde(rename = "closed")]
    Closed,
}
impl DunningStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::NotStarted,
        Self::Active,
        Self::Paused,
        Self::AwaitingDecision,
        Self::Closed,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotStarted => "not_started",
            Self::Active => "active",
            Self::Paused => "paused",
            Self::AwaitingDecision => "awaiting_decision",
            Self::Closed => "closed",
        }
    }
}
impl std::str::FromStr for DunningStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for DunningStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Machine-readable error code; the HTTP status follows from it (VALIDATION_ERROR 422, BAD_REQUEST 400, UNAUTHORIZED 401, INSUFFICIENT_SCOPE 403, FORBIDDEN 403, NOT_FOUND 404, INVALID_STATE 409, CONFLICT 409, PRECONDITION_FAILED 412, IDEMPOTENCY_KEY_REUSED 422, PAYLOAD_TOO_LARGE 413, RATE_LIMITED 429, UNAVAILABLE 503, INTERNAL 500, METHOD_NOT_ALLOWED 405).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ErrorErrorCode {
    #[serde(rename = "VALIDATION_ERROR")]
    ValidationError,
    #[serde(rename = "BAD_REQUEST")]
    BadRequest,
    #[serde(rename = "UNAUTHORIZED")]
    Unauthorized,
    #[serde(rename = "INSUFFICIENT_SCOPE")]
    InsufficientScope,
    #[serde(rename = "FORBIDDEN")]
    Forbidden,
    #[serde(rename = "NOT_FOUND")]
    NotFound,
    #[serde(rename = "INVALID_STATE")]
    InvalidState,
    #[serde(rename = "CONFLICT")]
    Conflict,
    #[serde(rename = "PRECONDITION_FAILED")]
    PreconditionFailed,
    #[serde(rename = "IDEMPOTENCY_KEY_REUSED")]
    IdempotencyKeyReused,
    #[serde(rename = "PAYLOAD_TOO_LARGE")]
    PayloadTooLarge,
    #[serde(rename = "RATE_LIMITED")]
    RateLimited,
    #[serde(rename = "UNAVAILABLE")]
    Unavailable,
    #[serde(rename = "INTERNAL")]
    Internal,
    #[serde(rename = "METHOD_NOT_ALLOWED")]
    MethodNotAllowed,
}
impl ErrorErrorCode {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::ValidationError,
        Self::BadRequest,
        Self::Unauthorized,
        Self::InsufficientScope,
        Self::Forbidden,
        Self::NotFound,
        Self::InvalidState,
        Self::Conflict,
        Self::PreconditionFailed,
        Self::IdempotencyKeyReused,
        Self::PayloadTooLarge,
        Self::RateLimited,
        Self::Unavailable,
        Self::Internal,
        Self::MethodNotAllowed,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ValidationError => "VALIDATION_ERROR",
            Self::BadRequest => "BAD_REQUEST",
            Self::Unauthorized => "UNAUTHORIZED",
            Self::InsufficientScope => "INSUFFICIENT_SCOPE",
            Self::Forbidden => "FORBIDDEN",
            Self::NotFound => "NOT_FOUND",
            Self::InvalidState => "INVALID_STATE",
            Self::Conflict => "CONFLICT",
            Self::PreconditionFailed => "PRECONDITION_FAILED",
            Self::IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            Self::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            Self::RateLimited => "RATE_LIMITED",
            Self::Unavailable => "UNAVAILABLE",
            Self::Internal => "INTERNAL",
            Self::MethodNotAllowed => "METHOD_NOT_ALLOWED",
        }
    }
}
impl std::str::FromStr for ErrorErrorCode {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ErrorErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// What an export holds.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ExportKind {
    #[serde(rename = "charges")]
    Charges,
    #[serde(rename = "debtors")]
    Debtors,
    #[serde(rename = "notifications")]
    Notifications,
    #[serde(rename = "agreements")]
    Agreements,
    #[serde(rename = "credit_bureau_reports")]
    CreditBureauReports,
    #[serde(rename = "protests")]
    Protests,
    #[serde(rename = "events")]
    Events,
}
impl ExportKind {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Charges,
        Self::Debtors,
        Self::Notifications,
        Self::Agreements,
        Self::CreditBureauReports,
        Self::Protests,
        Self::Events,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Charges => "charges",
            Self::Debtors => "debtors",
            Self::Notifications => "notifications",
            Self::Agreements => "agreements",
            Self::CreditBureauReports => "credit_bureau_reports",
            Self::Protests => "protests",
            Self::Events => "events",
        }
    }
}
impl std::str::FromStr for ExportKind {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ExportKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The cell separator; semicolon for spreadsheets set to Portuguese (Brazil).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ExportSeparator {
    #[serde(rename = "comma")]
    Comma,
    #[serde(rename = "semicolon")]
    Semicolon,
}
impl ExportSeparator {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Comma, Self::Semicolon];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Comma => "comma",
            Self::Semicolon => "semicolon",
        }
    }
}
impl std::str::FromStr for ExportSeparator {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ExportSeparator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// queued, then processing while the server builds it, then processed (downloadable until expires_at); failed with the error; expired once its file is removed.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ExportStatus {
    #[serde(rename = "queued")]
    Queued,
    #[serde(rename = "processing")]
    Processing,
    #[serde(rename = "processed")]
    Processed,
    #[serde(rename = "failed")]
    Failed,
    #[serde(rename = "expired")]
    Expired,
}
impl ExportStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Queued,
        Self::Processing,
        Self::Processed,
        Self::Failed,
        Self::Expired,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Queued => "queued",
            Self::Processing => "processing",
            Self::Processed => "processed",
            Self::Failed => "failed",
            Self::Expired => "expired",
        }
    }
}
impl std::str::FromStr for ExportStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ExportStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// sandbox: nothing leaves the server (messages, bureau reports and protests are simulated; webhooks are sent, marked sandbox). production: real effects.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum MeOrganizationEnvironment {
    #[serde(rename = "sandbox")]
    Sandbox,
    #[serde(rename = "production")]
    Production,
}
impl MeOrganizationEnvironment {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Sandbox, Self::Production];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Sandbox => "sandbox",
            Self::Production => "production",
        }
    }
}
impl std::str::FromStr for MeOrganizationEnvironment {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for MeOrganizationEnvironment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The day of the week of today: "next Friday" and "this Monday" count from it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum MeOrganizationWeekday {
    #[serde(rename = "monday")]
    Monday,
    #[serde(rename = "tuesday")]
    Tuesday,
    #[serde(rename = "wednesday")]
    Wednesday,
    #[serde(rename = "thursday")]
    Thursday,
    #[serde(rename = "friday")]
    Friday,
    #[serde(rename = "saturday")]
    Saturday,
    #[serde(rename = "sunday")]
    Sunday,
}
impl MeOrganizationWeekday {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Monday,
        Self::Tuesday,
        Self::Wednesday,
        Self::Thursday,
        Self::Friday,
        Self::Saturday,
        Self::Sunday,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Monday => "monday",
            Self::Tuesday => "tuesday",
            Self::Wednesday => "wednesday",
            Self::Thursday => "thursday",
            Self::Friday => "friday",
            Self::Saturday => "saturday",
            Self::Sunday => "sunday",
        }
    }
}
impl std::str::FromStr for MeOrganizationWeekday {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for MeOrganizationWeekday {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Where the token is accepted (api = /v1, mcp = the MCP endpoint, all = both).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum MeTokenAudience {
    #[serde(rename = "api")]
    Api,
    #[serde(rename = "mcp")]
    Mcp,
    #[serde(rename = "all")]
    All,
}
impl MeTokenAudience {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Api, Self::Mcp, Self::All];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Api => "api",
            Self::Mcp => "mcp",
            Self::All => "all",
        }
    }
}
impl std::str::FromStr for MeTokenAudience {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for MeTokenAudience {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Who made a notification: the régua (policy), a person (manual) or a resend.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum NotificationOrigin {
    #[serde(rename = "policy")]
    Policy,
    #[serde(rename = "manual")]
    Manual,
    #[serde(rename = "resend")]
    Resend,
}
impl NotificationOrigin {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Policy, Self::Manual, Self::Resend];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Policy => "policy",
            Self::Manual => "manual",
            Self::Resend => "resend",
        }
    }
}
impl std::str::FromStr for NotificationOrigin {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for NotificationOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Where a message stands: queued (waiting to be sent or for a retry), sent, delivered, read, clicked, failed (retries exhausted), bounced, canceled, skipped (not sent, see skip_reason), scheduled (for later).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum NotificationStatus {
    #[serde(rename = "scheduled")]
    Scheduled,
    #[serde(rename = "queued")]
    Queued,
    #[serde(rename = "sent")]
    Sent,
    #[serde(rename = "delivered")]
    Delivered,
    #[serde(rename = "read")]
    Read,
    #[serde(rename = "clicked")]
    Clicked,
    #[serde(rename = "failed")]
    Failed,
    #[serde(rename = "bounced")]
    Bounced,
    #[serde(rename = "canceled")]
    Canceled,
    #[serde(rename = "skipped")]
    Skipped,
}
impl NotificationStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Scheduled,
        Self::Queued,
        Self::Sent,
        Self::Delivered,
        Self::Read,
        Self::Clicked,
        Self::Failed,
        Self::Bounced,
        Self::Canceled,
        Self::Skipped,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Scheduled => "scheduled",
            Self::Queued => "queued",
            Self::Sent => "sent",
            Self::Delivered => "delivered",
            Self::Read => "read",
            Self::Clicked => "clicked",
            Self::Failed => "failed",
            Self::Bounced => "bounced",
            Self::Canceled => "canceled",
            Self::Skipped => "skipped",
        }
    }
}
impl std::str::FromStr for NotificationStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for NotificationStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// How a charge is paid.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PaymentMethod {
    #[serde(rename = "boleto")]
    Boleto,
    #[serde(rename = "pix")]
    Pix,
    #[serde(rename = "boleto_pix")]
    BoletoPix,
    #[serde(rename = "card")]
    Card,
    #[serde(rename = "transfer")]
    Transfer,
    #[serde(rename = "other")]
    Other,
}
impl PaymentMethod {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Boleto,
        Self::Pix,
        Self::BoletoPix,
        Self::Card,
        Self::Transfer,
        Self::Other,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Boleto => "boleto",
            Self::Pix => "pix",
            Self::BoletoPix => "boleto_pix",
            Self::Card => "card",
            Self::Transfer => "transfer",
            Self::Other => "other",
        }
    }
}
impl std::str::FromStr for PaymentMethod {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PaymentMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// active: deliveries are taken. retiring: replaced, still taken until retires_at. expired: replaced and past retires_at. revoked: stopped by payment_receivers_revoke.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PaymentReceiverStatus {
    #[serde(rename = "active")]
    Active,
    #[serde(rename = "retiring")]
    Retiring,
    #[serde(rename = "expired")]
    Expired,
    #[serde(rename = "revoked")]
    Revoked,
}
impl PaymentReceiverStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Active,
        Self::Retiring,
        Self::Expired,
        Self::Revoked,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Retiring => "retiring",
            Self::Expired => "expired",
            Self::Revoked => "revoked",
        }
    }
}
impl std::str::FromStr for PaymentReceiverStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PaymentReceiverStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Where it came from.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PaymentSource {
    #[serde(rename = "kobana")]
    Kobana,
    #[serde(rename = "import")]
    Import,
}
impl PaymentSource {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Kobana, Self::Import];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Kobana => "kobana",
            Self::Import => "import",
        }
    }
}
impl std::str::FromStr for PaymentSource {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PaymentSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// matched: it settled its charge. unmatched: no charge matched, or the amount did not fit (reason says which). assigned: a person settled a charge with it.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PaymentStatus {
    #[serde(rename = "matched")]
    Matched,
    #[serde(rename = "unmatched")]
    Unmatched,
    #[serde(rename = "assigned")]
    Assigned,
}
impl PaymentStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Matched, Self::Unmatched, Self::Assigned];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Matched => "matched",
            Self::Unmatched => "unmatched",
            Self::Assigned => "assigned",
        }
    }
}
impl std::str::FromStr for PaymentStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PaymentStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// natural (pessoa física, CPF) or legal (pessoa jurídica, CNPJ).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PersonType {
    #[serde(rename = "natural")]
    Natural,
    #[serde(rename = "legal")]
    Legal,
}
impl PersonType {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Natural, Self::Legal];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Natural => "natural",
            Self::Legal => "legal",
        }
    }
}
impl std::str::FromStr for PersonType {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PersonType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The kind of key.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PixAccountKeyType {
    #[serde(rename = "cpf")]
    Cpf,
    #[serde(rename = "cnpj")]
    Cnpj,
    #[serde(rename = "email")]
    Email,
    #[serde(rename = "phone")]
    Phone,
    #[serde(rename = "random")]
    Random,
}
impl PixAccountKeyType {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Cpf,
        Self::Cnpj,
        Self::Email,
        Self::Phone,
        Self::Random,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Cpf => "cpf",
            Self::Cnpj => "cnpj",
            Self::Email => "email",
            Self::Phone => "phone",
            Self::Random => "random",
        }
    }
}
impl std::str::FromStr for PixAccountKeyType {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PixAccountKeyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The state of a collection policy: only active policies run.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PolicyStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "active")]
    Active,
    #[serde(rename = "archived")]
    Archived,
}
impl PolicyStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Draft, Self::Active, Self::Archived];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Draft => "draft",
            Self::Active => "active",
            Self::Archived => "archived",
        }
    }
}
impl std::str::FromStr for PolicyStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PolicyStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Days overdue: not_due (0), days_1_30, days_31_60, days_61_90, over_90.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum PortfolioAgeAge {
    #[serde(rename = "not_due")]
    NotDue,
    #[serde(rename = "days_1_30")]
    Days130,
    #[serde(rename = "days_31_60")]
    Days3160,
    #[serde(rename = "days_61_90")]
    Days6190,
    #[serde(rename = "over_90")]
    Over90,
}
impl PortfolioAgeAge {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::NotDue,
        Self::Days130,
        Self::Days3160,
        Self::Days6190,
        Self::Over90,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::NotDue => "not_due",
            Self::Days130 => "days_1_30",
            Self::Days3160 => "days_31_60",
            Self::Days6190 => "days_61_90",
            Self::Over90 => "over_90",
        }
    }
}
impl std::str::FromStr for PortfolioAgeAge {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for PortfolioAgeAge {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// requested (to go to the notary), sent (the title taken in, apontado), intimated (the debtor served), paid (at the notary), protested (drawn: the debtor did not pay within 3 business days), withdrawn (the creditor's desistência), cancellation_requested (carta de anuência given), canceled, rejected (refused by the notary; see failure_reason).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ProtestStatus {
    #[serde(rename = "requested")]
    Requested,
    #[serde(rename = "sent")]
    Sent,
    #[serde(rename = "intimated")]
    Intimated,
    #[serde(rename = "paid")]
    Paid,
    #[serde(rename = "protested")]
    Protested,
    #[serde(rename = "withdrawn")]
    Withdrawn,
    #[serde(rename = "cancellation_requested")]
    CancellationRequested,
    #[serde(rename = "canceled")]
    Canceled,
    #[serde(rename = "rejected")]
    Rejected,
}
impl ProtestStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Requested,
        Self::Sent,
        Self::Intimated,
        Self::Paid,
        Self::Protested,
        Self::Withdrawn,
        Self::CancellationRequested,
        Self::Canceled,
        Self::Rejected,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Requested => "requested",
            Self::Sent => "sent",
            Self::Intimated => "intimated",
            Self::Paid => "paid",
            Self::Protested => "protested",
            Self::Withdrawn => "withdrawn",
            Self::CancellationRequested => "cancellation_requested",
            Self::Canceled => "canceled",
            Self::Rejected => "rejected",
        }
    }
}
impl std::str::FromStr for ProtestStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ProtestStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// The debt document behind the title: DM (duplicata mercantil), DS (duplicata de serviço), NP (nota promissória), CT (contrato), CD (confissão de dívida).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum ProtestTitleType {
    #[serde(rename = "DM")]
    Dm,
    #[serde(rename = "DS")]
    Ds,
    #[serde(rename = "NP")]
    Np,
    #[serde(rename = "CT")]
    Ct,
    #[serde(rename = "CD")]
    Cd,
}
impl ProtestTitleType {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Dm, Self::Ds, Self::Np, Self::Ct, Self::Cd];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Dm => "DM",
            Self::Ds => "DS",
            Self::Np => "NP",
            Self::Ct => "CT",
            Self::Cd => "CD",
        }
    }
}
impl std::str::FromStr for ProtestTitleType {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for ProtestTitleType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Sort direction: ascending or descending.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum SortOrder {
    #[serde(rename = "asc")]
    Asc,
    #[serde(rename = "desc")]
    Desc,
}
impl SortOrder {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Asc, Self::Desc];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Asc => "asc",
            Self::Desc => "desc",
        }
    }
}
impl std::str::FromStr for SortOrder {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for SortOrder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// What a step does: notify sends a message; request_decision, credit_bureau and protest stop the régua until a human decides (dunning_status awaiting_decision).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum StepAction {
    #[serde(rename = "notify")]
    Notify,
    #[serde(rename = "request_decision")]
    RequestDecision,
    #[serde(rename = "credit_bureau")]
    CreditBureau,
    #[serde(rename = "protest")]
    Protest,
}
impl StepAction {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::Notify,
        Self::RequestDecision,
        Self::CreditBureau,
        Self::Protest,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Notify => "notify",
            Self::RequestDecision => "request_decision",
            Self::CreditBureau => "credit_bureau",
            Self::Protest => "protest",
        }
    }
}
impl std::str::FromStr for StepAction {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for StepAction {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// pending: an attempt is due or being made; delivered: a 2xx answer; failed: a 4xx or 3xx answer, a refused target, or 7 attempts without success.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum WebhookDeliveryStatus {
    #[serde(rename = "pending")]
    Pending,
    #[serde(rename = "delivered")]
    Delivered,
    #[serde(rename = "failed")]
    Failed,
}
impl WebhookDeliveryStatus {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Pending, Self::Delivered, Self::Failed];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }
}
impl std::str::FromStr for WebhookDeliveryStatus {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for WebhookDeliveryStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// An event code (kobana://dunning/event_codes lists them).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum WebhookEventCode {
    #[serde(rename = "charge.db.created")]
    ChargeDbCreated,
    #[serde(rename = "charge.db.updated")]
    ChargeDbUpdated,
    #[serde(rename = "charge.paid")]
    ChargePaid,
    #[serde(rename = "charge.canceled")]
    ChargeCanceled,
    #[serde(rename = "charge.written_off")]
    ChargeWrittenOff,
    #[serde(rename = "charge.decided")]
    ChargeDecided,
    #[serde(rename = "charge.paused")]
    ChargePaused,
    #[serde(rename = "charge.resumed")]
    ChargeResumed,
    #[serde(rename = "charge.overdue")]
    ChargeOverdue,
    #[serde(rename = "charge.decision_required")]
    ChargeDecisionRequired,
    #[serde(rename = "debtor.db.created")]
    DebtorDbCreated,
    #[serde(rename = "debtor.db.updated")]
    DebtorDbUpdated,
    #[serde(rename = "debtor.archived")]
    DebtorArchived,
    #[serde(rename = "debtor.db.deleted")]
    DebtorDbDeleted,
    #[serde(rename = "collection_policy.db.created")]
    CollectionPolicyDbCreated,
    #[serde(rename = "collection_policy.db.updated")]
    CollectionPolicyDbUpdated,
    #[serde(rename = "collection_policy.archived")]
    CollectionPolicyArchived,
    #[serde(rename = "collection_policy.db.deleted")]
    CollectionPolicyDbDeleted,
    #[serde(rename = "step.db.created")]
    StepDbCreated,
    #[serde(rename = "step.db.updated")]
    StepDbUpdated,
    #[serde(rename = "step.db.deleted")]
    StepDbDeleted,
    #[serde(rename = "notification.db.created")]
    NotificationDbCreated,
    #[serde(rename = "notification.sent")]
    NotificationSent,
    #[serde(rename = "notification.failed")]
    NotificationFailed,
    #[serde(rename = "notification.retry_scheduled")]
    NotificationRetryScheduled,
    #[serde(rename = "notification.skipped")]
    NotificationSkipped,
    #[serde(rename = "notification.canceled")]
    NotificationCanceled,
    #[serde(rename = "agreement.created")]
    AgreementCreated,
    #[serde(rename = "agreement.canceled")]
    AgreementCanceled,
    #[serde(rename = "agreement.activated")]
    AgreementActivated,
    #[serde(rename = "agreement.completed")]
    AgreementCompleted,
    #[serde(rename = "agreement.broken")]
    AgreementBroken,
    #[serde(rename = "credit_bureau_report.add.requested")]
    CreditBureauReportAddRequested,
    #[serde(rename = "credit_bureau_report.notice_sent")]
    CreditBureauReportNoticeSent,
    #[serde(rename = "credit_bureau_report.add.confirmed")]
    CreditBureauReportAddConfirmed,
    #[serde(rename = "credit_bureau_report.add.failed")]
    CreditBureauReportAddFailed,
    #[serde(rename = "credit_bureau_report.canceled")]
    CreditBureauReportCanceled,
    #[serde(rename = "credit_bureau_report.remove.requested")]
    CreditBureauReportRemoveRequested,
    #[serde(rename = "credit_bureau_report.remove.confirmed")]
    CreditBureauReportRemoveConfirmed,
    #[serde(rename = "protest.send.requested")]
    ProtestSendRequested,
    #[serde(rename = "protest.send.confirmed")]
    ProtestSendConfirmed,
    #[serde(rename = "protest.send.failed")]
    ProtestSendFailed,
    #[serde(rename = "protest.intimated")]
    ProtestIntimated,
    #[serde(rename = "protest.paid")]
    ProtestPaid,
    #[serde(rename = "protest.protested")]
    ProtestProtested,
    #[serde(rename = "protest.withdrawn")]
    ProtestWithdrawn,
    #[serde(rename = "protest.cancel.requested")]
    ProtestCancelRequested,
    #[serde(rename = "protest.cancel.confirmed")]
    ProtestCancelConfirmed,
    #[serde(rename = "approval.approved")]
    ApprovalApproved,
    #[serde(rename = "approval.declined")]
    ApprovalDeclined,
    #[serde(rename = "organization.pix.updated")]
    OrganizationPixUpdated,
    #[serde(rename = "payment.received")]
    PaymentReceived,
    #[serde(rename = "payment.unmatched")]
    PaymentUnmatched,
    #[serde(rename = "payment.assigned")]
    PaymentAssigned,
    #[serde(rename = "payment_receiver.created")]
    PaymentReceiverCreated,
    #[serde(rename = "payment_receiver.revoked")]
    PaymentReceiverRevoked,
    #[serde(rename = "webhook.db.created")]
    WebhookDbCreated,
    #[serde(rename = "webhook.db.updated")]
    WebhookDbUpdated,
    #[serde(rename = "webhook.db.deleted")]
    WebhookDbDeleted,
    #[serde(rename = "export.db.created")]
    ExportDbCreated,
    #[serde(rename = "export.db.updated")]
    ExportDbUpdated,
}
impl WebhookEventCode {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[
        Self::ChargeDbCreated,
        Self::ChargeDbUpdated,
        Self::ChargePaid,
        Self::ChargeCanceled,
        Self::ChargeWrittenOff,
        Self::ChargeDecided,
        Self::ChargePaused,
        Self::ChargeResumed,
        Self::ChargeOverdue,
        Self::ChargeDecisionRequired,
        Self::DebtorDbCreated,
        Self::DebtorDbUpdated,
        Self::DebtorArchived,
        Self::DebtorDbDeleted,
        Self::CollectionPolicyDbCreated,
        Self::CollectionPolicyDbUpdated,
        Self::CollectionPolicyArchived,
        Self::CollectionPolicyDbDeleted,
        Self::StepDbCreated,
        Self::StepDbUpdated,
        Self::StepDbDeleted,
        Self::NotificationDbCreated,
        Self::NotificationSent,
        Self::NotificationFailed,
        Self::NotificationRetryScheduled,
        Self::NotificationSkipped,
        Self::NotificationCanceled,
        Self::AgreementCreated,
        Self::AgreementCanceled,
        Self::AgreementActivated,
        Self::AgreementCompleted,
        Self::AgreementBroken,
        Self::CreditBureauReportAddRequested,
        Self::CreditBureauReportNoticeSent,
        Self::CreditBureauReportAddConfirmed,
        Self::CreditBureauReportAddFailed,
        Self::CreditBureauReportCanceled,
        Self::CreditBureauReportRemoveRequested,
        Self::CreditBureauReportRemoveConfirmed,
        Self::ProtestSendRequested,
        Self::ProtestSendConfirmed,
        Self::ProtestSendFailed,
        Self::ProtestIntimated,
        Self::ProtestPaid,
        Self::ProtestProtested,
        Self::ProtestWithdrawn,
        Self::ProtestCancelRequested,
        Self::ProtestCancelConfirmed,
        Self::ApprovalApproved,
        Self::ApprovalDeclined,
        Self::OrganizationPixUpdated,
        Self::PaymentReceived,
        Self::PaymentUnmatched,
        Self::PaymentAssigned,
        Self::PaymentReceiverCreated,
        Self::PaymentReceiverRevoked,
        Self::WebhookDbCreated,
        Self::WebhookDbUpdated,
        Self::WebhookDbDeleted,
        Self::ExportDbCreated,
        Self::ExportDbUpdated,
    ];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::ChargeDbCreated => "charge.db.created",
            Self::ChargeDbUpdated => "charge.db.updated",
            Self::ChargePaid => "charge.paid",
            Self::ChargeCanceled => "charge.canceled",
            Self::ChargeWrittenOff => "charge.written_off",
            Self::ChargeDecided => "charge.decided",
            Self::ChargePaused => "charge.paused",
            Self::ChargeResumed => "charge.resumed",
            Self::ChargeOverdue => "charge.overdue",
            Self::ChargeDecisionRequired => "charge.decision_required",
            Self::DebtorDbCreated => "debtor.db.created",
            Self::DebtorDbUpdated => "debtor.db.updated",
            Self::DebtorArchived => "debtor.archived",
            Self::DebtorDbDeleted => "debtor.db.deleted",
            Self::CollectionPolicyDbCreated => "collection_policy.db.created",
            Self::CollectionPolicyDbUpdated => "collection_policy.db.updated",
            Self::CollectionPolicyArchived => "collection_policy.archived",
            Self::CollectionPolicyDbDeleted => "collection_policy.db.deleted",
            Self::StepDbCreated => "step.db.created",
            Self::StepDbUpdated => "step.db.updated",
            Self::StepDbDeleted => "step.db.deleted",
            Self::NotificationDbCreated => "notification.db.created",
            Self::NotificationSent => "notification.sent",
            Self::NotificationFailed => "notification.failed",
            Self::NotificationRetryScheduled => "notification.retry_scheduled",
            Self::NotificationSkipped => "notification.skipped",
            Self::NotificationCanceled => "notification.canceled",
            Self::AgreementCreated => "agreement.created",
            Self::AgreementCanceled => "agreement.canceled",
            Self::AgreementActivated => "agreement.activated",
            Self::AgreementCompleted => "agreement.completed",
            Self::AgreementBroken => "agreement.broken",
            Self::CreditBureauReportAddRequested => "credit_bureau_report.add.requested",
            Self::CreditBureauReportNoticeSent => "credit_bureau_report.notice_sent",
            Self::CreditBureauReportAddConfirmed => "credit_bureau_report.add.confirmed",
            Self::CreditBureauReportAddFailed => "credit_bureau_report.add.failed",
            Self::CreditBureauReportCanceled => "credit_bureau_report.canceled",
            Self::CreditBureauReportRemoveRequested => {
                "credit_bureau_report.remove.requested"
            }
            Self::CreditBureauReportRemoveConfirmed => {
                "credit_bureau_report.remove.confirmed"
            }
            Self::ProtestSendRequested => "protest.send.requested",
            Self::ProtestSendConfirmed => "protest.send.confirmed",
            Self::ProtestSendFailed => "protest.send.failed",
            Self::ProtestIntimated => "protest.intimated",
            Self::ProtestPaid => "protest.paid",
            Self::ProtestProtested => "protest.protested",
            Self::ProtestWithdrawn => "protest.withdrawn",
            Self::ProtestCancelRequested => "protest.cancel.requested",
            Self::ProtestCancelConfirmed => "protest.cancel.confirmed",
            Self::ApprovalApproved => "approval.approved",
            Self::ApprovalDeclined => "approval.declined",
            Self::OrganizationPixUpdated => "organization.pix.updated",
            Self::PaymentReceived => "payment.received",
            Self::PaymentUnmatched => "payment.unmatched",
            Self::PaymentAssigned => "payment.assigned",
            Self::PaymentReceiverCreated => "payment_receiver.created",
            Self::PaymentReceiverRevoked => "payment_receiver.revoked",
            Self::WebhookDbCreated => "webhook.db.created",
            Self::WebhookDbUpdated => "webhook.db.updated",
            Self::WebhookDbDeleted => "webhook.db.deleted",
            Self::ExportDbCreated => "export.db.created",
            Self::ExportDbUpdated => "export.db.updated",
        }
    }
}
impl std::str::FromStr for WebhookEventCode {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for WebhookEventCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum WebhookPingEventCode {
    #[serde(rename = "ping")]
    Ping,
}
impl WebhookPingEventCode {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Ping];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Ping => "ping",
        }
    }
}
impl std::str::FromStr for WebhookPingEventCode {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for WebhookPingEventCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize
)]
pub enum WebhookPingPing {
    #[serde(rename = "pong")]
    Pong,
}
impl WebhookPingPing {
    /// Every value, in the spec's order.
    pub const ALL: &'static [Self] = &[Self::Pong];
    /// The value as the spec writes it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Pong => "pong",
        }
    }
}
impl std::str::FromStr for WebhookPingPing {
    type Err = crate::types::UnknownValue;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == s)
            .ok_or(crate::types::UnknownValue)
    }
}
impl std::fmt::Display for WebhookPingPing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}
/// Who did something (user, client, token or system, and its id).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Actor {
    pub r#type: ActorType,
    pub id: String,
}
/// A Brazilian postal address, needed for letters, credit-bureau reports and protests.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Address {
    /// CEP, 8 digits (99999-999 or 99999999), not all zeros.
    pub zipcode: String,
    pub street: String,
    /// As written ("1000", "s/n").
    pub number: String,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub complement: Option<Option<String>>,
    /// Bairro.
    pub neighborhood: String,
    pub city: String,
    pub state: AddressState,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<AddressCountry>,
}
/// A renegotiation of a debtor's open charges into a down payment and installments.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Agreement {
    /// Agreement id (agr_…).
    pub id: String,
    /// The debtor (dbt_…).
    pub debtor_id: String,
    /// The charges renegotiated.
    pub charge_ids: Vec<String>,
    pub status: AgreementStatus,
    /// What was left to pay of the charges' amounts.
    pub original_amount: crate::domain::money::Hundredths,
    /// Their late fines on the day it was made, 0 when waived.
    pub fine_amount: crate::domain::money::Hundredths,
    /// Their late interest on the day it was made, 0 when waived.
    pub interest_amount: crate::domain::money::Hundredths,
    /// Taken off.
    pub discount_amount: crate::domain::money::Hundredths,
    /// What the debtor pays in all (down payment and installments).
    pub total_amount: crate::domain::money::Hundredths,
    pub fine_waived: bool,
    pub interest_waived: bool,
    /// The down payment, or null.
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// When the down payment is due, or null, in the organization's calendar.
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    pub installments_count: i64,
    /// A day of the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
    pub grace_days_before_broken: i64,
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    pub cancellation_reason: Option<String>,
    pub broken_at: Option<crate::domain::dates::Timestamp>,
    pub completed_at: Option<crate::domain::dates::Timestamp>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Optional details for canceling an agreement.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementCancel {
    /// Returned as cancellation_reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The terms of a new agreement (as agreements_simulate takes them) and when it breaks. Give at most one of discount_amount and discount_percentage.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementCreate {
    /// The pending or overdue charges renegotiated, all of one debtor (chg_…).
    pub charge_ids: Vec<String>,
    /// Taken off the updated debt, in reais.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<crate::domain::money::Hundredths>,
    /// Taken off the updated debt, as a percentage of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_percentage: Option<crate::domain::money::Hundredths>,
    /// The late fine (multa) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_waived: Option<bool>,
    /// The late interest (juros de mora) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_waived: Option<bool>,
    /// In reais, paid first, before the installments; below the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// Default today (or the next business day), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// How many monthly installments.
    pub installments_count: i64,
    /// The first installment's; the next ones fall on the same day of the following months (or the next business day), in the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
    /// Days an installment may stay overdue before the agreement breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_days_before_broken: Option<i64>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One agreement.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementEnvelope {
    pub data: Agreement,
}
/// What an agreement event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementEventData {
    pub object: Agreement,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// The down payment (number 0) or an installment, and the charge that collects it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementInstallment {
    pub number: i64,
    pub amount: crate::domain::money::Hundredths,
    /// A day of the organization's calendar.
    pub due_date: crate::domain::dates::Day,
    /// The charge that collects it (chg_…).
    pub charge_id: String,
    pub status: ChargeStatus,
    pub paid_amount: crate::domain::money::Hundredths,
}
/// An agreement's down payment and installments, in order.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementInstallmentList {
    pub data: Vec<AgreementInstallment>,
}
/// One installment of an agreement.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementInstallmentPlan {
    /// 1 for the first.
    pub number: i64,
    /// In reais.
    pub amount: crate::domain::money::Hundredths,
    /// A business day, in the organization's calendar.
    pub due_date: crate::domain::dates::Day,
}
/// One page of agreements.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementList {
    pub data: Vec<Agreement>,
    pub meta: AmountListMeta,
}
/// An agreement as it would be, worked out on today's date.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementSimulation {
    /// The debtor of the charges.
    pub debtor_id: String,
    /// The charges renegotiated.
    pub charge_ids: Vec<String>,
    /// What is left to pay of the charges' amounts.
    pub original_amount: crate::domain::money::Hundredths,
    /// Their late fines today, 0 when waived.
    pub fine_amount: crate::domain::money::Hundredths,
    /// Their late interest today, 0 when waived.
    pub interest_amount: crate::domain::money::Hundredths,
    /// Taken off.
    pub discount_amount: crate::domain::money::Hundredths,
    /// What the debtor pays in all (down payment and installments).
    pub total_amount: crate::domain::money::Hundredths,
    /// The down payment, or null.
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// When the down payment is due, or null, in the organization's calendar.
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// The installments, in order.
    pub installments: Vec<AgreementInstallmentPlan>,
}
/// A simulated agreement.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AgreementSimulationEnvelope {
    pub data: AgreementSimulation,
}
/// The terms of an agreement over open charges of one debtor. Give at most one of discount_amount and discount_percentage.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementTerms {
    /// The pending or overdue charges renegotiated, all of one debtor (chg_…).
    pub charge_ids: Vec<String>,
    /// Taken off the updated debt, in reais.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<crate::domain::money::Hundredths>,
    /// Taken off the updated debt, as a percentage of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_percentage: Option<crate::domain::money::Hundredths>,
    /// The late fine (multa) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_waived: Option<bool>,
    /// The late interest (juros de mora) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_waived: Option<bool>,
    /// In reais, paid first, before the installments; below the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// Default today (or the next business day), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// How many monthly installments.
    pub installments_count: i64,
    /// The first installment's; the next ones fall on the same day of the following months (or the next business day), in the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
}
/// The input of `agreements_cancel`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsCancelInput {
    /// Path parameter.
    pub id: String,
    /// Returned as cancellation_reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::domain::text::MultilineText>,
}
/// The input of `agreements_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsCreateInput {
    /// The pending or overdue charges renegotiated, all of one debtor (chg_…).
    pub charge_ids: Vec<crate::domain::text::Text>,
    /// Taken off the updated debt, in reais.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<crate::domain::money::Hundredths>,
    /// Taken off the updated debt, as a percentage of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_percentage: Option<crate::domain::money::Hundredths>,
    /// The late fine (multa) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_waived: Option<bool>,
    /// The late interest (juros de mora) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_waived: Option<bool>,
    /// In reais, paid first, before the installments; below the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// Default today (or the next business day), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// How many monthly installments.
    pub installments_count: i64,
    /// The first installment's; the next ones fall on the same day of the following months (or the next business day), in the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
    /// Days an installment may stay overdue before the agreement breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_days_before_broken: Option<i64>,
}
/// The input of `agreements_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `agreements_installments`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsInstallmentsInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `agreements_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
}
/// The input of `agreements_simulate`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsSimulateInput {
    /// The pending or overdue charges renegotiated, all of one debtor (chg_…).
    pub charge_ids: Vec<crate::domain::text::Text>,
    /// Taken off the updated debt, in reais.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<crate::domain::money::Hundredths>,
    /// Taken off the updated debt, as a percentage of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_percentage: Option<crate::domain::money::Hundredths>,
    /// The late fine (multa) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_waived: Option<bool>,
    /// The late interest (juros de mora) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_waived: Option<bool>,
    /// In reais, paid first, before the installments; below the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// Default today (or the next business day), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// How many monthly installments.
    pub installments_count: i64,
    /// The first installment's; the next ones fall on the same day of the following months (or the next business day), in the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
}
/// The input of `agreements_term`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AgreementsTermInput {
    /// Path parameter.
    pub id: String,
}
/// Pagination of a list of amounts, and their sum over every object the filters match (all pages).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AmountListMeta {
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
    pub total_pages: i64,
    /// Sum of amount (an agreement's total_amount), in reais.
    pub amount_sum: crate::domain::money::Hundredths,
}
/// A person's decision on an approval link.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ApprovalEventData {
    pub approval_id: String,
    /// The tool that asked.
    pub tool: String,
    /// The object it acts on.
    pub object_id: Option<String>,
    pub object_version: Option<i64>,
    /// The question the person answered.
    pub question: String,
    /// The token or client that asked.
    pub requested_by: String,
    pub decision: ApprovalEventDataDecision,
    /// The user who decided.
    pub decided_by: String,
    pub decided_at: crate::domain::dates::Timestamp,
}
/// The charge's boleto, for its amount and due date.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Boleto {
    /// The digitable line (linha digitável), as the banks group it.
    pub line: String,
    /// The 44 digits of the barcode.
    pub barcode: String,
    /// Where the debtor gets the boleto's PDF.
    pub url: Option<String>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoletoInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub barcode: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
}
/// An amount a debtor owes by a due date, and where its collection stands.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Charge {
    /// Charge id (chg_…).
    pub id: String,
    /// The debtor who owes it (dbt_…).
    pub debtor_id: String,
    /// The debtor's name, for display.
    pub debtor_name: String,
    /// The collection policy it follows (cp_…); null follows the organization's default.
    pub cp_id: Option<String>,
    /// The charge's id in the organization's own system (invoice number, contract…).
    pub external_id: Option<String>,
    /// What the charge is for, as shown to the debtor.
    pub description: Option<String>,
    /// Amount charged. BRL, at most 2 decimals.
    pub amount: crate::domain::money::Hundredths,
    /// Total paid so far (partial payments add up). BRL, at most 2 decimals.
    pub paid_amount: crate::domain::money::Hundredths,
    /// Still owed, amount − paid_amount (fine and interest not included). BRL, at most 2 decimals.
    pub balance: crate::domain::money::Hundredths,
    /// Always BRL.
    pub currency: ChargeCurrency,
    /// Date the charge was issued, in the organization's calendar.
    pub issue_date: crate::domain::dates::Day,
    /// Due date (vencimento), in the organization's calendar.
    pub due_date: crate::domain::dates::Day,
    /// While overdue, calendar days since the due date, or since the next business day when it fell on a weekend or holiday (organization's calendar); 0 otherwise.
    pub days_overdue: i64,
    /// pending (not due yet) → overdue (the day after due_date) → paid; or canceled (withdrawn), written_off (given up as a loss), in_agreement (renegotiated in an active agreement). paid, canceled and written_off are final. A partial payment keeps the charge pending or overdue with paid_amount > 0.
    pub status: ChargeStatus,
    /// State of the collection process (régua): not_started → active ⇄ paused → awaiting_decision (an escalation waits for a person) → closed (the charge was paid, canceled, written off or renegotiated).
    pub dunning_status: DunningStatus,
    /// How the debtor is expected to pay (or paid).
    pub payment_method: PaymentMethod,
    pub boleto: Option<Boleto>,
    pub pix: Option<Pix>,
    /// Late-payment fine (multa), percent of the amount, applied once after the due date.
    pub fine_percentage: crate::domain::money::Hundredths,
    /// Late-payment interest (juros de mora), percent a month, pro rata per day.
    pub interest_monthly_percentage: crate::domain::money::Hundredths,
    /// When the charge was fully paid, or null.
    pub paid_at: Option<crate::domain::dates::Timestamp>,
    /// When the charge was canceled, or null.
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    /// The reason given when canceling, or null.
    pub cancellation_reason: Option<String>,
    /// When the charge was written off, or null.
    pub written_off_at: Option<crate::domain::dates::Timestamp>,
    /// The reason given when writing off, or null.
    pub write_off_reason: Option<String>,
    /// The last decision on the charge after an escalation, or null.
    pub decision: Option<ChargeDecision>,
    /// The agreement (agr_…) that renegotiated this charge, or that this charge is an installment (or the down payment) of; null otherwise.
    pub agreement_id: Option<String>,
    pub origin: ChargeOrigin,
    /// Status of the charge's latest credit-bureau report (requested, notice_sent, reported, removal_requested, removed, canceled, failed), or null if never reported.
    pub credit_bureau_status: Option<String>,
    /// Status of the charge's latest protest (requested, sent, intimated, paid, protested, withdrawn, cancellation_requested, canceled, rejected), or null if never protested.
    pub protest_status: Option<String>,
    /// The step of its policy that acted on it last; while awaiting_decision, the escalation step that stopped the régua.
    pub current_step_id: Option<String>,
    /// What the step that stopped the régua proposes, while awaiting_decision; null otherwise.
    pub pending_decision: Option<PendingDecision>,
    /// When the next step of its policy acts, while the régua runs; while paused until a day, when the régua resumes (the start of paused_until in the organization's calendar); null otherwise (paused with no end, awaiting a decision, closed).
    pub next_action_at: Option<crate::domain::dates::Timestamp>,
    /// The day a pause ends and the régua resumes by itself, in the organization's calendar.
    pub paused_until: Option<crate::domain::dates::Day>,
    /// Free labels for filtering and grouping.
    pub tags: Vec<String>,
    /// Free key-value pairs for the organization's own use.
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    /// When the charge was created.
    pub created_at: crate::domain::dates::Timestamp,
    /// When the charge last changed.
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Optional details for canceling a charge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeCancel {
    /// Returned as cancellation_reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A new charge. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeCreate {
    /// The collection policy to follow (cp_…); by default the organization's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp_id: Option<String>,
    pub debtor_id: String,
    /// In reais, e.g. 1250.00 for R$ 1.250,00.
    pub amount: crate::domain::money::Hundredths,
    /// A day of the organization's calendar.
    pub due_date: crate::domain::dates::Day,
    /// Default today, or due_date when that is earlier; not after due_date, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue_date: Option<crate::domain::dates::Day>,
    /// Shown to the debtor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The charge's id in your own system (invoice number, contract…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boleto: Option<BoletoInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix: Option<PixInput>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<PaymentMethod>,
    /// Late fine (multa), % of the amount; at most 2 for a CPF debtor (CDC art. 52 §1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_percentage: Option<crate::domain::money::Hundredths>,
    /// Juros de mora, % a month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_monthly_percentage: Option<crate::domain::money::Hundredths>,
    /// Free labels, at most 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Free key-value pairs (string values), at most 20 keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<std::collections::BTreeMap<String, String>>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The decision on a charge awaiting one, and why.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeDecide {
    pub decision: Decision,
    /// Why; kept on the charge and in the charge.decided event.
    pub reason: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement: Option<DecisionAgreement>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau: Option<DecisionCreditBureau>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protest: Option<DecisionProtest>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The last decision taken on a charge that awaited one.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeDecision {
    pub decision: Decision,
    /// Why, as given.
    pub reason: String,
    /// When it was decided.
    pub decided_at: crate::domain::dates::Timestamp,
}
/// One charge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChargeEnvelope {
    pub data: Charge,
}
/// What a charge event carries: the charge after the change and the fields it changed, and what caused it when something did.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChargeEventData {
    pub object: Charge,
    pub changes: serde_json::Map<String, serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment: Option<EventPayment>,
    /// The agreement that renegotiated, settled or canceled the charge.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement_id: Option<String>,
    /// The protest paid at the notary (charge.paid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protest_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
    /// Why, as given (charge.decided, charge.paused).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub reason: Option<Option<String>>,
    /// The escalation step that stopped the régua (charge.decision_required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<StepAction>,
    /// The policy of that step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp_id: Option<String>,
    /// Why the step could not act on its own, when it could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<String>,
}
/// One page of charges.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChargeList {
    /// The charges on this page.
    pub data: Vec<Charge>,
    pub meta: ChargeListMeta,
}
/// Pagination of a charge list, and sums over every charge the filters match (all pages).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChargeListMeta {
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
    pub total_pages: i64,
    /// Sum of amount, in reais.
    pub amount_sum: crate::domain::money::Hundredths,
    /// Sum of balance (still owed, fine and interest not included), in reais.
    pub balance_sum: crate::domain::money::Hundredths,
}
/// A message to send now about this charge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeNotify {
    pub channel: Channel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// Optional details for pausing a charge's dunning.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargePause {
    /// Why, recorded with the charge.paused event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The régua resumes by itself on this day (after today), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<crate::domain::dates::Day>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// Optional details for resuming a charge's dunning.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeResume {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A payment received for a charge. All fields are optional.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeSettle {
    /// In reais, e.g. 1250.00. Default the whole balance; less records a partial payment, more is a VALIDATION_ERROR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_amount: Option<crate::domain::money::Hundredths>,
    /// Default now; not in the future.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_at: Option<crate::domain::dates::Timestamp>,
    /// Default the charge's payment_method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<PaymentMethod>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// Fields to change on a pending or overdue charge; those not sent are unchanged. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeUpdate {
    /// The collection policy to follow (cp_…); null returns to the organization's default.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub cp_id: Option<Option<String>>,
    /// Shown to the debtor.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub description: Option<Option<String>>,
    /// In reais, e.g. 1250.00; more than paid_amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<crate::domain::money::Hundredths>,
    /// Not before issue_date; the status follows it (overdue once past), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<crate::domain::dates::Day>,
    /// The charge's id in your own system; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub external_id: Option<Option<String>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub boleto: Option<Option<BoletoInput>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub pix: Option<Option<PixInput>>,
    /// Replaces all tags, at most 20; [] removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Replaces all metadata (string values, at most 20 keys); {} removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<std::collections::BTreeMap<String, String>>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// Why a charge is written off.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargeWriteOff {
    /// Why the debt is judged uncollectable; returned as write_off_reason.
    pub reason: String,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The input of `charges_cancel`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesCancelInput {
    /// Path parameter.
    pub id: String,
    /// Returned as cancellation_reason.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::domain::text::MultilineText>,
}
/// The input of `charges_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesCreateInput {
    /// The collection policy to follow (cp_…); by default the organization's default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cp_id: Option<crate::domain::text::Text>,
    /// Body field.
    pub debtor_id: crate::domain::text::Text,
    /// In reais, e.g. 1250.00 for R$ 1.250,00.
    pub amount: crate::domain::money::Hundredths,
    /// A day of the organization's calendar.
    pub due_date: crate::domain::dates::Day,
    /// Default today, or due_date when that is earlier; not after due_date, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issue_date: Option<crate::domain::dates::Day>,
    /// Shown to the debtor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<crate::domain::text::MultilineText>,
    /// The charge's id in your own system (invoice number, contract…).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub boleto: Option<BoletoInput>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pix: Option<PixInput>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<PaymentMethod>,
    /// Late fine (multa), % of the amount; at most 2 for a CPF debtor (CDC art. 52 §1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_percentage: Option<crate::domain::money::Hundredths>,
    /// Juros de mora, % a month.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_monthly_percentage: Option<crate::domain::money::Hundredths>,
    /// Free labels, at most 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<crate::domain::text::Text>>,
    /// Free key-value pairs (string values), at most 20 keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<
        std::collections::BTreeMap<crate::domain::text::Text, crate::domain::text::Text>,
    >,
}
/// The input of `charges_decide`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesDecideInput {
    /// Path parameter.
    pub id: String,
    /// Body field.
    pub decision: Decision,
    /// Why; kept on the charge and in the charge.decided event.
    pub reason: crate::domain::text::MultilineText,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agreement: Option<DecisionAgreement>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau: Option<DecisionCreditBureau>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protest: Option<DecisionProtest>,
}
/// The input of `charges_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `charges_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<ChargesListSortBy>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dunning_status: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<crate::domain::text::Text>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date_from: Option<crate::domain::dates::Day>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date_to: Option<crate::domain::dates::Day>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_from: Option<crate::domain::dates::Day>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_to: Option<crate::domain::dates::Day>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau_status: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protest_status: Option<crate::domain::text::Text>,
}
/// The input of `charges_notify`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesNotifyInput {
    /// Path parameter.
    pub id: String,
    /// Body field.
    pub channel: Channel,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
}
/// The input of `charges_pause`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesPauseInput {
    /// Path parameter.
    pub id: String,
    /// Why, recorded with the charge.paused event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::domain::text::MultilineText>,
    /// The régua resumes by itself on this day (after today), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<crate::domain::dates::Day>,
}
/// The input of `charges_pix_qr`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesPixQrInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `charges_resume`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesResumeInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `charges_settle`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesSettleInput {
    /// Path parameter.
    pub id: String,
    /// In reais, e.g. 1250.00. Default the whole balance; less records a partial payment, more is a VALIDATION_ERROR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_amount: Option<crate::domain::money::Hundredths>,
    /// Default now; not in the future.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paid_at: Option<crate::domain::dates::Timestamp>,
    /// Default the charge's payment_method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payment_method: Option<PaymentMethod>,
}
/// The input of `charges_settlement_letter`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesSettlementLetterInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `charges_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesUpdateInput {
    /// Path parameter.
    pub id: String,
    /// The collection policy to follow (cp_…); null returns to the organization's default.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub cp_id: Option<Option<crate::domain::text::Text>>,
    /// Shown to the debtor.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub description: Option<Option<crate::domain::text::MultilineText>>,
    /// In reais, e.g. 1250.00; more than paid_amount.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amount: Option<crate::domain::money::Hundredths>,
    /// Not before issue_date; the status follows it (overdue once past), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_date: Option<crate::domain::dates::Day>,
    /// The charge's id in your own system; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub external_id: Option<Option<crate::domain::text::Text>>,
    /// Body field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub boleto: Option<Option<BoletoInput>>,
    /// Body field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub pix: Option<Option<PixInput>>,
    /// Replaces all tags, at most 20; [] removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<crate::domain::text::Text>>,
    /// Replaces all metadata (string values, at most 20 keys); {} removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<
        std::collections::BTreeMap<crate::domain::text::Text, crate::domain::text::Text>,
    >,
}
/// The input of `charges_write_off`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChargesWriteOffInput {
    /// Path parameter.
    pub id: String,
    /// Why the debt is judged uncollectable; returned as write_off_reason.
    pub reason: crate::domain::text::MultilineText,
}
/// The input of `collection_policies_archive`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesArchiveInput {
    /// Path parameter.
    pub cp_id: String,
}
/// The input of `collection_policies_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesCreateInput {
    /// Body field.
    pub name: crate::domain::text::Text,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<crate::domain::text::MultilineText>,
    /// A draft does not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CollectionPoliciesCreateStatus>,
    /// Make it the organization's default (the first policy always is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// IANA time zone its days and send window count in, e.g. America/Manaus; absent: the organization's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_window: Option<SendWindow>,
    /// Steps to create with it, at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<PolicyStepCreate>>,
}
/// The input of `collection_policies_delete`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesDeleteInput {
    /// Path parameter.
    pub cp_id: String,
}
/// The input of `collection_policies_duplicate`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesDuplicateInput {
    /// Path parameter.
    pub cp_id: String,
    /// The copy's name; by default the original's with " (cópia)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
}
/// The input of `collection_policies_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesGetInput {
    /// Path parameter.
    pub cp_id: String,
}
/// The input of `collection_policies_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
}
/// The input of `collection_policies_preview`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesPreviewInput {
    /// Path parameter.
    pub cp_id: String,
    /// A day of the organization's calendar.
    pub due_date: crate::domain::dates::Day,
}
/// The input of `collection_policies_steps_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesStepsCreateInput {
    /// Path parameter.
    pub cp_id: String,
    /// A label for people; by default one made of the action, channel and day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
    /// Days from the due date, -90 (before) to 365 (after).
    pub offset_days: i64,
    /// Not before this time (HH:MM) on the send day; within the send window.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub send_time: Option<Option<crate::domain::text::Text>>,
    /// Order among the steps with the same offset_days; by default after them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<StepAction>,
    /// Required for notify; not allowed for escalations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// Required for notify; not allowed for escalations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Escalations wait for a human (true, the default); a credit_bureau or protest step with false files it itself, by the rules of credit_bureau_reports_create and protests_create (a protest step needs title_type; each charge's external_id is the document number); a refusal leaves the charge awaiting a decision. Messages need none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// For a protest step with requires_approval false: the type of the debt document behind each charge's title (its number is the charge's external_id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_type: Option<ProtestTitleType>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}
/// The input of `collection_policies_steps_delete`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesStepsDeleteInput {
    /// Path parameter.
    pub cp_id: String,
    /// Path parameter.
    pub step_id: String,
}
/// The input of `collection_policies_steps_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesStepsGetInput {
    /// Path parameter.
    pub cp_id: String,
    /// Path parameter.
    pub step_id: String,
}
/// The input of `collection_policies_steps_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesStepsListInput {
    /// Path parameter.
    pub cp_id: String,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
}
/// The input of `collection_policies_steps_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesStepsUpdateInput {
    /// Path parameter.
    pub cp_id: String,
    /// Path parameter.
    pub step_id: String,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_days: Option<i64>,
    /// null sends at the window's start.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub send_time: Option<Option<crate::domain::text::Text>>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// For a protest step with requires_approval false: the type of the debt document behind each charge's title (its number is the charge's external_id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_type: Option<ProtestTitleType>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}
/// The input of `collection_policies_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPoliciesUpdateInput {
    /// Path parameter.
    pub cp_id: String,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub description: Option<Option<crate::domain::text::MultilineText>>,
    /// archive with collection_policies_archive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CollectionPoliciesUpdateStatus>,
    /// true makes it the default; to change the default, set it on another policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// IANA time zone, e.g. America/Manaus; null: the organization's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub timezone: Option<Option<crate::domain::text::Text>>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_window: Option<SendWindow>,
}
/// A collection policy (régua): the steps a charge goes through, each on a day relative to its due date.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectionPolicy {
    /// The policy's id (cp_…).
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub status: PolicyStatus,
    /// Applies to every charge that names no policy; one per organization.
    pub is_default: bool,
    /// IANA time zone its days, send window and business days count in: its own, else the organization's.
    pub timezone: String,
    pub send_window: SendWindow,
    pub steps_count: i64,
    /// The steps in the order they run (offset_days, then position).
    pub steps: Vec<Step>,
    /// Increases with every change (the ETag).
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
    pub archived_at: Option<crate::domain::dates::Timestamp>,
}
/// Optional details for archiving a policy.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPolicyArchive {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A new collection policy. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPolicyCreate {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A draft does not run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CollectionPolicyCreateStatus>,
    /// Make it the organization's default (the first policy always is).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// IANA time zone its days and send window count in, e.g. America/Manaus; absent: the organization's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_window: Option<SendWindow>,
    /// Steps to create with it, at most 50.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<PolicyStepCreate>>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// Optional details for the copy.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPolicyDuplicate {
    /// The copy's name; by default the original's with " (cópia)".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One collection policy.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectionPolicyEnvelope {
    pub data: CollectionPolicy,
}
/// What a collection policy event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectionPolicyEventData {
    pub object: CollectionPolicy,
    pub changes: serde_json::Map<String, serde_json::Value>,
    /// The policy it copies (collection_policies_duplicate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duplicate_of: Option<String>,
}
/// One page of collection policies.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectionPolicyList {
    pub data: Vec<CollectionPolicySummary>,
    pub meta: PageMeta,
}
/// A collection policy as lists show it; collection_policies_get adds its steps and their messages.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CollectionPolicySummary {
    /// The policy's id (cp_…).
    pub id: String,
    pub name: String,
    pub description: Option<String>,
    pub status: PolicyStatus,
    /// Applies to every charge that names no policy; one per organization.
    pub is_default: bool,
    /// IANA time zone its days, send window and business days count in: its own, else the organization's.
    pub timezone: String,
    pub send_window: SendWindow,
    pub steps_count: i64,
    /// Increases with every change (the ETag).
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
    pub archived_at: Option<crate::domain::dates::Timestamp>,
}
/// Fields to change on a policy; those not sent are unchanged.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CollectionPolicyUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub description: Option<Option<String>>,
    /// archive with collection_policies_archive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<CollectionPolicyUpdateStatus>,
    /// true makes it the default; to change the default, set it on another policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_default: Option<bool>,
    /// IANA time zone, e.g. America/Manaus; null: the organization's.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub timezone: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send_window: Option<SendWindow>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A report of an overdue charge to a credit bureau (negativação).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReport {
    /// Report id (cbr_…).
    pub id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The debtor's name, as it is now.
    pub debtor_name: String,
    /// The charge's description, as it is now.
    pub charge_description: Option<String>,
    pub bureau: CreditBureau,
    pub status: CreditBureauReportStatus,
    /// The charge's balance when reported. BRL, at most 2 decimals.
    pub amount: crate::domain::money::Hundredths,
    pub nature: String,
    /// The letter notification (ntf_…) that gave the prior written notice.
    pub notice_notification_id: String,
    pub requested_at: crate::domain::dates::Timestamp,
    /// When the bureau mailed its notice to the debtor.
    pub notice_sent_at: Option<crate::domain::dates::Timestamp>,
    /// When the debtor was included in the bureau's records.
    pub included_at: Option<crate::domain::dates::Timestamp>,
    pub removal_requested_at: Option<crate::domain::dates::Timestamp>,
    /// The last day for the removal, 5 business days after the debt ended (STJ Súmula 548), in the organization's calendar.
    pub removal_due_by: Option<crate::domain::dates::Day>,
    pub removed_at: Option<crate::domain::dates::Timestamp>,
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    /// Why it was taken back, or null.
    pub remove_reason: Option<CreditBureauRemoveReason>,
    pub failure_reason: Option<String>,
    /// The bureau's protocol for the inclusion.
    pub external_protocol: Option<String>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// The overdue charge to report and where.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportCreate {
    /// The overdue charge (chg_…) to report.
    pub charge_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bureau: Option<CreditBureau>,
    /// The nature of the debt as the bureau records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nature: Option<String>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One credit-bureau report.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CreditBureauReportEnvelope {
    pub data: CreditBureauReport,
}
/// What a credit-bureau report event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CreditBureauReportEventData {
    pub object: CreditBureauReport,
    pub changes: serde_json::Map<String, serde_json::Value>,
    /// The policy step that filed it, when a step did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
}
/// One page of credit-bureau reports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CreditBureauReportList {
    pub data: Vec<CreditBureauReport>,
    pub meta: AmountListMeta,
}
/// Why the report is taken back.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportRemove {
    pub reason: CreditBureauRemoveReason,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The input of `credit_bureau_reports_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportsCreateInput {
    /// The overdue charge (chg_…) to report.
    pub charge_id: crate::domain::text::Text,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bureau: Option<CreditBureau>,
    /// The nature of the debt as the bureau records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nature: Option<crate::domain::text::Text>,
}
/// The input of `credit_bureau_reports_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `credit_bureau_reports_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
}
/// The input of `credit_bureau_reports_remove`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreditBureauReportsRemoveInput {
    /// Path parameter.
    pub id: String,
    /// Body field.
    pub reason: CreditBureauRemoveReason,
}
/// A person or company that owes the organization money.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Debtor {
    /// Debtor id (dbt_…).
    pub id: String,
    /// The debtor's id in the organization's own system.
    pub external_id: Option<String>,
    /// natural (pessoa física, CPF) or legal (pessoa jurídica, CNPJ); derived from the document.
    pub person_type: PersonType,
    /// Full name or company name (razão social).
    pub name: String,
    /// CPF (11 digits) or CNPJ (14 characters), without punctuation; an alphanumeric CNPJ keeps its letters, uppercase.
    pub document: String,
    /// The document with its usual punctuation (999.999.999-99 or 99.999.999/9999-99).
    pub document_formatted: String,
    /// E-mail for notifications.
    pub email: Option<String>,
    /// Phone in E.164 (+55 DDD number), e.g. a landline.
    pub phone: Option<String>,
    /// Mobile phone in E.164 (+55 DDD 9xxxxxxxx); needed for SMS and WhatsApp.
    pub mobile: Option<String>,
    /// Postal address, or null when not known.
    pub address: Option<Address>,
    /// Date of birth (natural persons), in the organization's calendar.
    pub birth_date: Option<crate::domain::dates::Day>,
    pub opt_out: OptOut,
    /// When true the debtor is never reported to a credit bureau.
    pub credit_bureau_blocked: bool,
    /// The collection policy its new charges follow when they name none.
    pub default_cp_id: Option<String>,
    /// active, or archived (kept for history; no new charges).
    pub status: DebtorStatus,
    /// When the debtor was archived, or null.
    pub archived_at: Option<crate::domain::dates::Timestamp>,
    pub summary: DebtorBalance,
    /// Free labels for filtering and grouping.
    pub tags: Vec<String>,
    /// Free key-value pairs for the organization's own use.
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    /// When the debtor was created.
    pub created_at: crate::domain::dates::Timestamp,
    /// When the debtor last changed.
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Optional details for archiving a debtor.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorArchive {
    /// Recorded in the audit event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// What the debtor owes now, over its open charges.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebtorBalance {
    /// Sum of the balances of pending and overdue charges, in reais (an agreement's installments are charges of their own).
    pub open_amount: crate::domain::money::Hundredths,
    /// Sum of the balances of overdue charges, in reais: balance_sum of charges_list with this debtor_id and status=overdue.
    pub overdue_amount: crate::domain::money::Hundredths,
    /// Number of overdue charges (total of that same list).
    pub overdue_count: i64,
    /// Number of pending and overdue charges.
    pub open_charges: i64,
}
/// A new debtor. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorCreate {
    /// Full name, or razão social for a company.
    pub name: String,
    /// CPF or CNPJ (alphanumeric accepted), punctuation optional; check digits are verified.
    pub document: String,
    /// The debtor's id in your own system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Needed for SMS and WhatsApp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// Not in the future, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<crate::domain::dates::Day>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_out: Option<OptOut>,
    /// Never report this debtor to a credit bureau.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau_blocked: Option<bool>,
    /// Policy (cp_…) for its new charges that name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_cp_id: Option<String>,
    /// Free labels, at most 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Free key-value pairs (string values), at most 20 keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<std::collections::BTreeMap<String, String>>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One debtor.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebtorEnvelope {
    pub data: Debtor,
}
/// What a debtor event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebtorEventData {
    pub object: Debtor,
    pub changes: serde_json::Map<String, serde_json::Value>,
    /// Why it was archived (debtor.archived).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub reason: Option<Option<String>>,
}
/// One page of debtors.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebtorList {
    /// The debtors on this page.
    pub data: Vec<DebtorSummary>,
    pub meta: PageMeta,
}
/// A debtor as lists show it; debtors_get adds its postal address.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DebtorSummary {
    /// Debtor id (dbt_…).
    pub id: String,
    /// The debtor's id in the organization's own system.
    pub external_id: Option<String>,
    /// natural (pessoa física, CPF) or legal (pessoa jurídica, CNPJ); derived from the document.
    pub person_type: PersonType,
    /// Full name or company name (razão social).
    pub name: String,
    /// CPF (11 digits) or CNPJ (14 characters), without punctuation; an alphanumeric CNPJ keeps its letters, uppercase.
    pub document: String,
    /// The document with its usual punctuation (999.999.999-99 or 99.999.999/9999-99).
    pub document_formatted: String,
    /// E-mail for notifications.
    pub email: Option<String>,
    /// Phone in E.164 (+55 DDD number), e.g. a landline.
    pub phone: Option<String>,
    /// Mobile phone in E.164 (+55 DDD 9xxxxxxxx); needed for SMS and WhatsApp.
    pub mobile: Option<String>,
    /// Date of birth (natural persons), in the organization's calendar.
    pub birth_date: Option<crate::domain::dates::Day>,
    pub opt_out: OptOut,
    /// When true the debtor is never reported to a credit bureau.
    pub credit_bureau_blocked: bool,
    /// The collection policy its new charges follow when they name none.
    pub default_cp_id: Option<String>,
    /// active, or archived (kept for history; no new charges).
    pub status: DebtorStatus,
    /// When the debtor was archived, or null.
    pub archived_at: Option<crate::domain::dates::Timestamp>,
    pub summary: DebtorBalance,
    /// Free labels for filtering and grouping.
    pub tags: Vec<String>,
    /// Free key-value pairs for the organization's own use.
    pub metadata: std::collections::BTreeMap<String, String>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    /// When the debtor was created.
    pub created_at: crate::domain::dates::Timestamp,
    /// When the debtor last changed.
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Fields to change on a debtor; those not sent are unchanged and null clears a nullable one. The document cannot be changed. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorUpdate {
    /// Full name, or razão social for a company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The debtor's id in your own system; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub external_id: Option<Option<String>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub email: Option<Option<String>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub phone: Option<Option<String>>,
    /// Needed for SMS and WhatsApp.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub mobile: Option<Option<String>>,
    /// Replaces the whole address; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub address: Option<Option<Address>>,
    /// Not in the future, in the organization's calendar.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub birth_date: Option<Option<crate::domain::dates::Day>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_out: Option<OptOut>,
    /// Never report this debtor to a credit bureau.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau_blocked: Option<bool>,
    /// Policy (cp_…) for its new charges that name none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub default_cp_id: Option<Option<String>>,
    /// Replaces all tags, at most 20; [] removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<String>>,
    /// Replaces all metadata (string values, at most 20 keys); {} removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<std::collections::BTreeMap<String, String>>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The input of `debtors_archive`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsArchiveInput {
    /// Path parameter.
    pub id: String,
    /// Recorded in the audit event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<crate::domain::text::MultilineText>,
}
/// The input of `debtors_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsCreateInput {
    /// Full name, or razão social for a company.
    pub name: crate::domain::text::Text,
    /// CPF or CNPJ (alphanumeric accepted), punctuation optional; check digits are verified.
    pub document: crate::domain::text::Text,
    /// The debtor's id in your own system.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external_id: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<crate::domain::text::Text>,
    /// Needed for SMS and WhatsApp.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile: Option<crate::domain::text::Text>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub address: Option<Address>,
    /// Not in the future, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub birth_date: Option<crate::domain::dates::Day>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_out: Option<OptOut>,
    /// Never report this debtor to a credit bureau.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau_blocked: Option<bool>,
    /// Policy (cp_…) for its new charges that name none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_cp_id: Option<crate::domain::text::Text>,
    /// Free labels, at most 20.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<crate::domain::text::Text>>,
    /// Free key-value pairs (string values), at most 20 keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<
        std::collections::BTreeMap<crate::domain::text::Text, crate::domain::text::Text>,
    >,
}
/// The input of `debtors_delete`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsDeleteInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `debtors_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `debtors_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_by: Option<DebtorsListSortBy>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub person_type: Option<PersonType>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_from: Option<crate::domain::dates::Day>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_to: Option<crate::domain::dates::Day>,
}
/// The input of `debtors_statement`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsStatementInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `debtors_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DebtorsUpdateInput {
    /// Path parameter.
    pub id: String,
    /// Full name, or razão social for a company.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
    /// The debtor's id in your own system; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub external_id: Option<Option<crate::domain::text::Text>>,
    /// Body field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub email: Option<Option<crate::domain::text::Text>>,
    /// Body field.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub phone: Option<Option<crate::domain::text::Text>>,
    /// Needed for SMS and WhatsApp.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub mobile: Option<Option<crate::domain::text::Text>>,
    /// Replaces the whole address; null clears it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub address: Option<Option<Address>>,
    /// Not in the future, in the organization's calendar.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub birth_date: Option<Option<crate::domain::dates::Day>>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opt_out: Option<OptOut>,
    /// Never report this debtor to a credit bureau.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit_bureau_blocked: Option<bool>,
    /// Policy (cp_…) for its new charges that name none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub default_cp_id: Option<Option<crate::domain::text::Text>>,
    /// Replaces all tags, at most 20; [] removes them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tags: Option<Vec<crate::domain::text::Text>>,
    /// Replaces all metadata (string values, at most 20 keys); {} removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metadata: Option<
        std::collections::BTreeMap<crate::domain::text::Text, crate::domain::text::Text>,
    >,
}
/// The terms of the agreement a decision makes over the charge (required with decision agreement, refused with any other): as agreements_create takes them, without charge_ids.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionAgreement {
    /// Taken off the updated debt, in reais.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_amount: Option<crate::domain::money::Hundredths>,
    /// Taken off the updated debt, as a percentage of it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discount_percentage: Option<crate::domain::money::Hundredths>,
    /// The late fine (multa) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fine_waived: Option<bool>,
    /// The late interest (juros de mora) is not charged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interest_waived: Option<bool>,
    /// In reais, paid first, before the installments; below the total.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_amount: Option<crate::domain::money::Hundredths>,
    /// Default today (or the next business day), in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub down_payment_due_date: Option<crate::domain::dates::Day>,
    /// How many monthly installments.
    pub installments_count: i64,
    /// The first installment's; the next ones fall on the same day of the following months (or the next business day), in the organization's calendar.
    pub first_due_date: crate::domain::dates::Day,
    /// Days an installment may stay overdue before the agreement breaks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grace_days_before_broken: Option<i64>,
}
/// Where the report a decision makes goes (taken with decision credit_bureau only; optional there).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionCreditBureau {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bureau: Option<CreditBureau>,
    /// The nature of the debt as the bureau records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nature: Option<String>,
}
/// The title of the protest a decision makes (required with decision protest, refused with any other).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DecisionProtest {
    pub title_type: ProtestTitleType,
    /// The number of the debt document (the duplicata, contract or note).
    pub document_number: String,
}
/// The body of every error response.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Error {
    /// What went wrong.
    pub error: ErrorError,
}
/// What went wrong.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ErrorError {
    /// Machine-readable error code; the HTTP status follows from it (VALIDATION_ERROR 422, BAD_REQUEST 400, UNAUTHORIZED 401, INSUFFICIENT_SCOPE 403, FORBIDDEN 403, NOT_FOUND 404, INVALID_STATE 409, CONFLICT 409, PRECONDITION_FAILED 412, IDEMPOTENCY_KEY_REUSED 422, PAYLOAD_TOO_LARGE 413, RATE_LIMITED 429, UNAVAILABLE 503, INTERNAL 500, METHOD_NOT_ALLOWED 405).
    pub code: ErrorErrorCode,
    /// Human-readable explanation in English; never echoes secrets or tokens.
    pub message: String,
    /// Structured detail, `{}` when there is none. VALIDATION_ERROR: `fields`, a list of `{field, message, suggestion?}` (field is the query parameter or body path, e.g. `address.zipcode`; suggestion is a "did you mean" for unknown names). INVALID_STATE: `status` (the current status) and `allowed` (the statuses that allow the action). INSUFFICIENT_SCOPE: `required` (the scope needed) and `granted` (the token's scopes). FORBIDDEN: `required_role` (the signed-in user's role does not allow it, whatever the scopes). RATE_LIMITED: `retry_after` (seconds).
    pub details: serde_json::Map<String, serde_json::Value>,
    /// The request's id, also in the X-Request-Id header; quote it to support.
    pub request_id: String,
}
/// Something that happened to one object.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// The event's id (evt_…).
    pub id: String,
    /// What happened, prefixed by the kind of object: the writes (charge.db.created, debtor.db.updated, collection_policy.db.deleted, step.db.created…), the state changes (charge.overdue, charge.paid, charge.canceled, debtor.archived, notification.sent…), and a person's decision on an approval link (approval.approved, approval.declined; data names the tool, the object, who asked, who decided and when).
    pub code: String,
    /// The kind of object (charge, debtor, collection_policy, step, notification, approval).
    pub resource_type: String,
    /// The object's id.
    pub resource_id: String,
    pub actor: EventActor,
    /// What the event carries, the schema its code names in x-event-payloads: for most codes the object after the change (object) and the changed fields as [old, new] pairs (changes), plus what else the event records. Webhook deliveries carry the same.
    pub data: serde_json::Map<String, serde_json::Value>,
    /// The request that caused it (X-Request-Id); null for the engine's changes.
    pub request_id: Option<String>,
    /// When it happened.
    pub occurred_at: crate::domain::dates::Timestamp,
}
/// Who or what caused an event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventActor {
    /// user, client (an OAuth client), token (an API token) or system (the engine).
    pub r#type: String,
    /// The user's, client's or token's id, or the system part (engine).
    pub id: String,
}
/// One event.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventEnvelope {
    pub data: Event,
}
/// One page of events.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventList {
    /// The events on this page.
    pub data: Vec<Event>,
    pub meta: PageMeta,
}
/// The payment that settled (part of) the charge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EventPayment {
    /// The amount paid, in BRL.
    pub amount: crate::domain::money::Hundredths,
    pub paid_at: crate::domain::dates::Timestamp,
}
/// The input of `events_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `events_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EventsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<crate::domain::text::Text>,
}
/// A CSV export of an organization's data.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Export {
    /// The export's id (exp_…).
    pub id: String,
    pub kind: ExportKind,
    pub filters: ExportFilters,
    pub separator: ExportSeparator,
    pub status: ExportStatus,
    /// Rows in the file (the header not counted), once processed.
    pub rows: Option<i64>,
    /// The file's size, once processed.
    pub size_bytes: Option<i64>,
    /// Why it failed.
    pub error: Option<String>,
    pub created_at: crate::domain::dates::Timestamp,
    pub started_at: Option<crate::domain::dates::Timestamp>,
    pub processed_at: Option<crate::domain::dates::Timestamp>,
    pub failed_at: Option<crate::domain::dates::Timestamp>,
    /// When the file is removed (7 days after it was built).
    pub expires_at: Option<crate::domain::dates::Timestamp>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportCreate {
    pub kind: ExportKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<ExportFilters>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separator: Option<ExportSeparator>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One export.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExportEnvelope {
    pub data: Export,
}
/// What an export event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExportEventData {
    pub object: Export,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// Which rows the export holds, as the list operations filter them; each applies to the kinds that have the field (status: all but events; debtor_id: all but debtors and events; charge_id: notifications, reports and protests; code and resource_id: events).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportFilters {
    /// Only rows created (events that happened) at or after this instant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_from: Option<crate::domain::dates::Timestamp>,
    /// Only rows created (events that happened) before this instant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_to: Option<crate::domain::dates::Timestamp>,
    /// Only rows in this status (the kind's own statuses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_id: Option<String>,
    /// Only events with this code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Only events about this object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource_id: Option<String>,
}
/// One page of exports.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExportList {
    pub data: Vec<Export>,
    pub meta: PageMeta,
}
/// The input of `exports_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsCreateInput {
    /// Body field.
    pub kind: ExportKind,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filters: Option<ExportFilters>,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub separator: Option<ExportSeparator>,
}
/// The input of `exports_download`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsDownloadInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `exports_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `exports_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExportsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ExportStatus>,
}
/// Who is calling: organization, user and token.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Me {
    /// The organization the token belongs to; every operation acts on it.
    pub organization: MeOrganization,
    /// The signed-in user, or null for a token issued to a client or service.
    pub user: Option<MeUser>,
    /// The access token used for this request.
    pub token: MeToken,
}
/// The answer of GET /v1/me.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeEnvelope {
    pub data: Me,
}
/// The input of `me`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MeInput {}
/// The organization the token belongs to; every operation acts on it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeOrganization {
    /// Organization id (org_…).
    pub id: String,
    /// Organization name.
    pub name: String,
    /// The organization's CNPJ or CPF, digits only, when registered.
    pub document: Option<String>,
    /// sandbox: nothing leaves the server (messages, bureau reports and protests are simulated; webhooks are sent, marked sandbox). production: real effects.
    pub environment: MeOrganizationEnvironment,
    /// IANA time zone used for "today", due dates and business days.
    pub timezone: String,
    /// Today in the organization's time zone: "yesterday", "in 15 days" and "this week" count from it (it can differ from today in UTC).
    pub today: crate::domain::dates::Day,
    /// The day of the week of today: "next Friday" and "this Monday" count from it.
    pub weekday: MeOrganizationWeekday,
    /// The server's current instant, in the organization's offset.
    pub now: crate::domain::dates::Timestamp,
    /// Where Pix payments go (organization_pix_update), or null.
    pub pix: Option<PixAccount>,
    /// Whether payments from Kobana reach the organization: a receiver is set up, and when it last took a delivery (its details: payment_receivers_list).
    pub payment_receiver: MeOrganizationPaymentReceiver,
}
/// Whether payments from Kobana reach the organization: a receiver is set up, and when it last took a delivery (its details: payment_receivers_list).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeOrganizationPaymentReceiver {
    /// True when an active payment receiver is registered.
    pub configured: bool,
    /// When the active receiver last took a signed delivery (a payment or a ping); null when it never did or none is configured.
    pub last_delivery_at: Option<crate::domain::dates::Timestamp>,
}
/// The access token used for this request.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeToken {
    /// Scopes granted (dunning.read, dunning.write, dunning.notify, dunning.escalate, dunning.webhooks, dunning.exports).
    pub scopes: Vec<String>,
    /// Where the token is accepted (api = /v1, mcp = the MCP endpoint, all = both).
    pub audience: MeTokenAudience,
    /// When the token expires.
    pub expires_at: crate::domain::dates::Timestamp,
    /// The OAuth client the token was issued to (cli_…), or null.
    pub client_id: Option<String>,
}
/// The signed-in user, or null for a token issued to a client or service.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct MeUser {
    /// User id (usr_…).
    pub id: String,
    /// The user's e-mail.
    pub email: String,
    /// The user's name, when known.
    pub name: Option<String>,
}
/// The protest office (tabelionato de protesto) that takes the title.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Notary {
    pub name: String,
    pub city: String,
    /// UF.
    pub state: String,
}
/// One message to a debtor about a charge, and where its delivery stands.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Notification {
    /// The notification's id (ntf_…); providers get it as the idempotency key.
    pub id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The policy whose step sent it (origin policy).
    pub cp_id: Option<String>,
    pub step_id: Option<String>,
    pub origin: NotificationOrigin,
    /// The notification this one sends again (origin resend).
    pub resend_of_id: Option<String>,
    pub channel: Channel,
    /// The address, phone or postal address used; null when there was none.
    pub to: Option<String>,
    pub subject: Option<String>,
    /// The message as rendered when it was made.
    pub body: String,
    pub status: NotificationStatus,
    /// Why it was not sent (opted_out, missing_contact, charge_closed, paused).
    pub skip_reason: Option<String>,
    /// The provider's last refusal.
    pub failure_reason: Option<String>,
    pub attempts: i64,
    /// outbox (recorded, never leaves the server), smtp or gateway.
    pub provider: Option<String>,
    pub provider_message_id: Option<String>,
    /// When it was due to go out.
    pub scheduled_for: crate::domain::dates::Timestamp,
    pub sent_at: Option<crate::domain::dates::Timestamp>,
    pub failed_at: Option<crate::domain::dates::Timestamp>,
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Optional details for a cancel.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationCancel {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A message to send now about a charge.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationCreate {
    pub charge_id: String,
    pub channel: Channel,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One notification.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotificationEnvelope {
    pub data: Notification,
}
/// What a notification event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotificationEventData {
    pub object: Notification,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// One page of notifications.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotificationList {
    pub data: Vec<NotificationSummary>,
    pub meta: NotificationListMeta,
}
/// Pagination of a notification list, and counts over every notification the filters match (all pages).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotificationListMeta {
    pub total: i64,
    pub page: i64,
    pub per_page: i64,
    pub total_pages: i64,
    /// Notifications per channel (email, sms, whatsapp, letter); a channel with none is left out.
    pub by_channel: std::collections::BTreeMap<String, i64>,
    /// Notifications per status; a status with none is left out.
    pub by_status: std::collections::BTreeMap<String, i64>,
}
/// Optional details for a resend.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationResend {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A notification as lists show it; notifications_get adds its address (to) and message (body).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct NotificationSummary {
    /// The notification's id (ntf_…); providers get it as the idempotency key.
    pub id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The policy whose step sent it (origin policy).
    pub cp_id: Option<String>,
    pub step_id: Option<String>,
    pub origin: NotificationOrigin,
    /// The notification this one sends again (origin resend).
    pub resend_of_id: Option<String>,
    pub channel: Channel,
    pub subject: Option<String>,
    pub status: NotificationStatus,
    /// Why it was not sent (opted_out, missing_contact, charge_closed, paused).
    pub skip_reason: Option<String>,
    /// The provider's last refusal.
    pub failure_reason: Option<String>,
    pub attempts: i64,
    /// outbox (recorded, never leaves the server), smtp or gateway.
    pub provider: Option<String>,
    pub provider_message_id: Option<String>,
    /// When it was due to go out.
    pub scheduled_for: crate::domain::dates::Timestamp,
    pub sent_at: Option<crate::domain::dates::Timestamp>,
    pub failed_at: Option<crate::domain::dates::Timestamp>,
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// The input of `notifications_cancel`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsCancelInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `notifications_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsCreateInput {
    /// Body field.
    pub charge_id: crate::domain::text::Text,
    /// Body field.
    pub channel: Channel,
    /// Body field.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
}
/// The input of `notifications_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `notifications_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<crate::domain::text::Text>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_from: Option<crate::domain::dates::Day>,
    /// A day of the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_to: Option<crate::domain::dates::Day>,
    /// Sent on or after this day, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_from: Option<crate::domain::dates::Day>,
    /// Sent on or before this day, in the organization's calendar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sent_to: Option<crate::domain::dates::Day>,
}
/// The input of `notifications_resend`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotificationsResendInput {
    /// Path parameter.
    pub id: String,
}
/// Channels the debtor asked not to be contacted on (true); on input, channels not sent keep their value.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptOut {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sms: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whatsapp: Option<bool>,
}
/// The organization's Pix account after the change.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OrganizationPix {
    /// Where Pix payments go, or null.
    pub pix: Option<PixAccount>,
}
/// What organization.pix.updated carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct OrganizationPixEventData {
    pub object: OrganizationPix,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// The input of `organization_pix_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrganizationPixUpdateInput {
    /// CPF or CNPJ (punctuation allowed), e-mail, phone as +55 and its digits, or a random key (UUID); null removes the account.
    pub key: Option<crate::domain::text::Text>,
    /// The name payers see, up to 25 characters (accents are dropped in the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_name: Option<crate::domain::text::Text>,
    /// The city, up to 15 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_city: Option<crate::domain::text::Text>,
}
/// Pagination of a list.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageMeta {
    /// Exact number of objects matching the filters, across all pages.
    pub total: i64,
    /// This page's number (1-based).
    pub page: i64,
    /// Page size used.
    pub per_page: i64,
    /// Number of pages, ceil(total / per_page); 0 when nothing matches.
    pub total_pages: i64,
}
/// A payment heard of, and what it settled.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Payment {
    /// The payment's id (pay_…).
    pub id: String,
    /// Where it came from.
    pub source: PaymentSource,
    pub status: PaymentStatus,
    /// Why it is unmatched.
    pub reason: Option<String>,
    /// In reais.
    pub amount: crate::domain::money::Hundredths,
    pub paid_at: crate::domain::dates::Timestamp,
    pub external_id: Option<String>,
    /// The boleto's digitable line, when paid by boleto.
    pub line: Option<String>,
    /// The Pix reference, when paid by Pix.
    pub txid: Option<String>,
    /// The charge it settled.
    pub charge_id: Option<String>,
    pub created_at: crate::domain::dates::Timestamp,
    /// When it settled its charge.
    pub resolved_at: Option<crate::domain::dates::Timestamp>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentAssign {
    /// The charge to settle with the payment (chg_…).
    pub charge_id: String,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One payment.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentEnvelope {
    pub data: Payment,
}
/// What payment.received, payment.unmatched and payment.assigned carry: the payment and what the event changed of it. payment.received comes for every payment heard (from the receiver or a file), matched or not; payment.unmatched also comes, in the same transaction, for one left for a person to assign (its reason says why); payment.assigned when a person settles a charge with one (payments_assign).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentEventData {
    pub object: Payment,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// One page of payments.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentList {
    pub data: Vec<Payment>,
    pub meta: PageMeta,
}
/// Where the organization's Kobana webhook delivers payments.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentReceiver {
    /// The receiver's id (rcv_…).
    pub id: String,
    pub status: PaymentReceiverStatus,
    /// The URL to give the Kobana webhook; shown only when registered, else null.
    pub url: Option<String>,
    pub created_at: crate::domain::dates::Timestamp,
    pub created_by: Actor,
    /// When a replaced receiver stops taking deliveries; null while active.
    pub retires_at: Option<crate::domain::dates::Timestamp>,
    pub revoked_at: Option<crate::domain::dates::Timestamp>,
    /// When it last took a signed delivery (a payment or a ping); null when it never did.
    pub last_delivery_at: Option<crate::domain::dates::Timestamp>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiverAction {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The input of `payment_receiver_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiverCreateInput {
    /// The secret key of the Kobana webhook, which signs its deliveries.
    pub secret: crate::domain::text::Text,
}
/// One receiver.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentReceiverEnvelope {
    pub data: PaymentReceiver,
}
/// What payment_receiver.created and .revoked carry: which receiver, when, and the one a new receiver replaced (the URL and the secret are never recorded).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentReceiverEventData {
    pub id: String,
    pub created_at: crate::domain::dates::Timestamp,
    /// The receiver this one replaced, which retires at retires_at.
    pub replaced_id: Option<String>,
    pub retires_at: Option<crate::domain::dates::Timestamp>,
    pub revoked_at: Option<crate::domain::dates::Timestamp>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiverInput {
    /// The secret key of the Kobana webhook, which signs its deliveries.
    pub secret: String,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One page of payment receivers.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PaymentReceiverList {
    pub data: Vec<PaymentReceiver>,
    pub meta: PageMeta,
}
/// The input of `payment_receivers_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiversGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `payment_receivers_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiversListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
}
/// The input of `payment_receivers_revoke`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentReceiversRevokeInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `payments_assign`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentsAssignInput {
    /// Path parameter.
    pub id: String,
    /// The charge to settle with the payment (chg_…).
    pub charge_id: crate::domain::text::Text,
}
/// The input of `payments_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PaymentsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<PaymentStatus>,
}
/// What the escalation step that stopped a charge's régua proposes, until a person decides (charges_decide).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PendingDecision {
    /// The step that proposed it (stp_…).
    pub step_id: String,
    /// The step's name when it proposed it.
    pub step_name: String,
    /// The collection policy the step belongs to (cp_…).
    pub cp_id: String,
    /// request_decision (a person chooses), credit_bureau (report the debt to a credit bureau) or protest (protest the title at a notary).
    pub action: StepAction,
    /// The decision that carries the step out (credit_bureau or protest); null for request_decision, where a person chooses any.
    pub proposed_decision: Option<Decision>,
    /// The title a protest step files, when it names one; null otherwise.
    pub title_type: Option<ProtestTitleType>,
    /// Why a step that needs no approval could not file on its own (a person decides instead); null when the step asks for a decision.
    pub refused: Option<String>,
    /// When the step stopped the régua.
    pub proposed_at: crate::domain::dates::Timestamp,
}
/// The charge's Pix "copia e cola".
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Pix {
    /// The BR Code, for the balance (or for any amount the payer types).
    pub emv: String,
    /// Its reference (txid), which matches a payment to the charge.
    pub txid: Option<String>,
}
/// The organization's Pix account.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PixAccount {
    /// The Pix key, as the DICT keeps it.
    pub key: String,
    /// The kind of key.
    pub key_type: PixAccountKeyType,
    /// The name the payer's bank shows.
    pub merchant_name: String,
    /// The merchant's city.
    pub merchant_city: String,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PixAccountInput {
    /// CPF or CNPJ (punctuation allowed), e-mail, phone as +55 and its digits, or a random key (UUID); null removes the account.
    pub key: Option<String>,
    /// The name payers see, up to 25 characters (accents are dropped in the code).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_name: Option<String>,
    /// The city, up to 15 characters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub merchant_city: Option<String>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PixInput {
    pub emv: String,
}
/// The schedule a policy gives a charge due on a date.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolicyPreview {
    pub cp_id: String,
    /// A day of the organization's calendar.
    pub due_date: crate::domain::dates::Day,
    /// The due date, or the next business day when it is not one, in the organization's calendar.
    pub effective_due_date: crate::domain::dates::Day,
    pub schedule: Vec<ScheduledStep>,
}
/// A policy's schedule for one due date.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PolicyPreviewEnvelope {
    pub data: PolicyPreview,
}
/// A step created with its policy (the fields of StepCreate).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyStepCreate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub offset_days: i64,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub send_time: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<StepAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// For a protest step with requires_approval false: the type of the debt document behind each charge's title (its number is the charge's external_id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_type: Option<ProtestTitleType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}
/// The organization's charges in figures, in its calendar (amounts in reais; balance is what is still owed, fine and interest not included).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Portfolio {
    /// Today in the organization's time zone; ages and periods count from it.
    pub today: crate::domain::dates::Day,
    /// Pending and overdue charges (charges_list with status=pending,overdue).
    pub open: PortfolioSums,
    /// Open charges by days overdue (as a charge's days_overdue counts them, from its due date moved to the next business day), youngest first; each is charges_list with status=pending,overdue and its due-date range.
    pub by_age: Vec<PortfolioAge>,
    /// Every charge by status (charges_list with that status).
    pub by_status: Vec<PortfolioStatus>,
    /// Every charge by the stage of its régua (charges_list with that dunning_status).
    pub by_dunning_status: Vec<PortfolioDunningStatus>,
    /// The charges whose régua is not closed, by the step that acted last on them (current_step_id), in the order of their policies' steps; charges no step has reached are not counted here.
    pub by_step: Vec<PortfolioStep>,
    /// Charges paid in full whose payment date falls in this month and in last month (this month first), with what was paid on them.
    pub recovered: Vec<PortfolioRecovered>,
    pub messages: PortfolioMessages,
}
/// Open charges of one age.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioAge {
    /// Days overdue: not_due (0), days_1_30, days_31_60, days_61_90, over_90.
    pub age: PortfolioAgeAge,
    /// The first due date of the bucket (null for the oldest).
    pub due_date_from: Option<crate::domain::dates::Day>,
    /// The last due date of the bucket (null for charges not yet due).
    pub due_date_to: Option<crate::domain::dates::Day>,
    pub count: i64,
    pub amount_sum: crate::domain::money::Hundredths,
    pub balance_sum: crate::domain::money::Hundredths,
}
/// The charges at one stage of the régua.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioDunningStatus {
    pub dunning_status: DunningStatus,
    pub count: i64,
    pub amount_sum: crate::domain::money::Hundredths,
    pub balance_sum: crate::domain::money::Hundredths,
}
/// The answer of GET /v1/portfolio.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioEnvelope {
    pub data: Portfolio,
}
/// The input of `portfolio_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PortfolioGetInput {}
/// Messages to debtors since the start of the organization's week (Monday): per channel, how many were sent (notifications_list with sent_from=since) and how many failed.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioMessages {
    /// This week's Monday.
    pub since: crate::domain::dates::Day,
    pub by_channel: Vec<PortfolioMessagesByChannelItem>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioMessagesByChannelItem {
    pub channel: Channel,
    pub sent: i64,
    pub failed: i64,
}
/// Charges paid in full in one calendar month of the organization.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioRecovered {
    /// The month, YYYY-MM.
    pub month: String,
    /// Its first day.
    pub from: crate::domain::dates::Day,
    pub count: i64,
    /// Sum of the amounts paid on them, in reais.
    pub amount_sum: crate::domain::money::Hundredths,
}
/// The charges of one status.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioStatus {
    pub status: ChargeStatus,
    pub count: i64,
    pub amount_sum: crate::domain::money::Hundredths,
    pub balance_sum: crate::domain::money::Hundredths,
}
/// The charges standing at one step of the régua.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioStep {
    /// The step (stp_…), as the charges' current_step_id.
    pub step_id: String,
    /// The step's name; null when the step was removed since.
    pub name: Option<String>,
    /// The step's days from the due date; null when the step was removed since.
    pub offset_days: Option<i64>,
    pub count: i64,
    pub amount_sum: crate::domain::money::Hundredths,
    pub balance_sum: crate::domain::money::Hundredths,
}
/// How many charges, and the sums of their amounts and balances in reais.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PortfolioSums {
    pub count: i64,
    pub amount_sum: crate::domain::money::Hundredths,
    pub balance_sum: crate::domain::money::Hundredths,
}
/// A protest of an overdue charge at a notary (protesto em cartório).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Protest {
    /// Protest id (prt_…).
    pub id: String,
    pub charge_id: String,
    pub debtor_id: String,
    /// The debtor's name, as it is now.
    pub debtor_name: String,
    /// The charge's description, as it is now.
    pub charge_description: Option<String>,
    pub status: ProtestStatus,
    /// The charge's balance when protested. BRL, at most 2 decimals.
    pub amount: crate::domain::money::Hundredths,
    pub title_type: ProtestTitleType,
    pub document_number: String,
    pub notary: Notary,
    /// The notary's protocol, once the title is taken in.
    pub protocol_number: Option<String>,
    pub requested_at: crate::domain::dates::Timestamp,
    pub sent_at: Option<crate::domain::dates::Timestamp>,
    pub intimated_at: Option<crate::domain::dates::Timestamp>,
    pub protested_at: Option<crate::domain::dates::Timestamp>,
    pub paid_at: Option<crate::domain::dates::Timestamp>,
    pub withdrawn_at: Option<crate::domain::dates::Timestamp>,
    pub cancellation_requested_at: Option<crate::domain::dates::Timestamp>,
    pub canceled_at: Option<crate::domain::dates::Timestamp>,
    /// The notary's costs, once known. BRL, at most 2 decimals.
    pub costs_amount: Option<crate::domain::money::Hundredths>,
    pub failure_reason: Option<String>,
    /// Bumped by every change; the ETag is "v<version>".
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Optional details for canceling a protest.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestCancel {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// The overdue charge to protest and the title behind it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestCreate {
    /// The overdue charge (chg_…) to protest.
    pub charge_id: String,
    pub title_type: ProtestTitleType,
    /// The number of the debt document (the duplicata, contract or note).
    pub document_number: String,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One protest.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProtestEnvelope {
    pub data: Protest,
}
/// What a protest event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProtestEventData {
    pub object: Protest,
    pub changes: serde_json::Map<String, serde_json::Value>,
    /// The policy step that filed it, when a step did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step_id: Option<String>,
}
/// One page of protests.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ProtestList {
    pub data: Vec<Protest>,
    pub meta: AmountListMeta,
}
/// The input of `protests_cancel`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestsCancelInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `protests_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestsCreateInput {
    /// The overdue charge (chg_…) to protest.
    pub charge_id: crate::domain::text::Text,
    /// Body field.
    pub title_type: ProtestTitleType,
    /// The number of the debt document (the duplicata, contract or note).
    pub document_number: crate::domain::text::Text,
}
/// The input of `protests_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestsGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `protests_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProtestsListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort_order: Option<SortOrder>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub charge_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debtor_id: Option<crate::domain::text::Text>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<crate::domain::text::Text>,
}
/// One step of a preview, on the day it would be sent.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ScheduledStep {
    pub step_id: String,
    pub name: String,
    pub offset_days: i64,
    pub action: StepAction,
    pub channel: Option<Channel>,
    /// The business day it is sent on, in the organization's calendar.
    pub send_date: crate::domain::dates::Day,
    /// Not before this time (HH:MM) that day.
    pub send_time: String,
    /// The send date is before today (the policy's calendar): steps are not sent for days gone by, so a charge made now never gets this one.
    pub past: bool,
}
/// The hours (in the organization's time zone, HH:MM, 24 h) in which the régua sends; a step due outside them waits for the next opening on a business day.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendWindow {
    /// Opens at (inclusive).
    pub start: String,
    /// Closes at (exclusive); after start.
    pub end: String,
}
/// One step of a collection policy.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The step's id (stp_…).
    pub id: String,
    /// The policy it belongs to.
    pub cp_id: String,
    /// A label for people.
    pub name: String,
    /// Days from the due date (the next business day when it is not one): negative before it, 0 on it, positive after.
    pub offset_days: i64,
    /// Not before this time (HH:MM) on the send day; null is the window's start.
    pub send_time: Option<String>,
    /// Order among the steps with the same offset_days.
    pub position: i64,
    pub action: StepAction,
    /// The channel of a notify step; null for escalations.
    pub channel: Option<Channel>,
    /// The message of a notify step; null for escalations.
    pub template: Option<Template>,
    /// Whether a human decides before it acts: true for request_decision steps; a credit_bureau step with false files the report itself, and a protest step with false the protest on its title_type (or each waits for a decision, saying why, when a rule refuses it); false for messages.
    pub requires_approval: bool,
    /// The title a protest step that needs no approval files, with the charge's external_id as the document number; null for other steps.
    pub title_type: Option<ProtestTitleType>,
    /// Inactive steps are skipped.
    pub active: bool,
    /// Increases with every change (the ETag).
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// A step to add to a policy. Unknown fields are a VALIDATION_ERROR.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepCreate {
    /// A label for people; by default one made of the action, channel and day.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Days from the due date, -90 (before) to 365 (after).
    pub offset_days: i64,
    /// Not before this time (HH:MM) on the send day; within the send window.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub send_time: Option<Option<String>>,
    /// Order among the steps with the same offset_days; by default after them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<StepAction>,
    /// Required for notify; not allowed for escalations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    /// Required for notify; not allowed for escalations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    /// Escalations wait for a human (true, the default); a credit_bureau or protest step with false files it itself, by the rules of credit_bureau_reports_create and protests_create (a protest step needs title_type; each charge's external_id is the document number); a refusal leaves the charge awaiting a decision. Messages need none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// For a protest step with requires_approval false: the type of the debt document behind each charge's title (its number is the charge's external_id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_type: Option<ProtestTitleType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One step.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepEnvelope {
    pub data: Step,
}
/// What a policy step event carries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepEventData {
    pub object: Step,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// One page of a policy's steps, in the order they run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepList {
    pub data: Vec<StepSummary>,
    pub meta: PageMeta,
}
/// A step as lists show it; collection_policies_steps_get adds its message (template).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct StepSummary {
    /// The step's id (stp_…).
    pub id: String,
    /// The policy it belongs to.
    pub cp_id: String,
    /// A label for people.
    pub name: String,
    /// Days from the due date (the next business day when it is not one): negative before it, 0 on it, positive after.
    pub offset_days: i64,
    /// Not before this time (HH:MM) on the send day; null is the window's start.
    pub send_time: Option<String>,
    /// Order among the steps with the same offset_days.
    pub position: i64,
    pub action: StepAction,
    /// The channel of a notify step; null for escalations.
    pub channel: Option<Channel>,
    /// Whether a human decides before it acts: true for request_decision steps; a credit_bureau step with false files the report itself, and a protest step with false the protest on its title_type (or each waits for a decision, saying why, when a rule refuses it); false for messages.
    pub requires_approval: bool,
    /// The title a protest step that needs no approval files, with the charge's external_id as the document number; null for other steps.
    pub title_type: Option<ProtestTitleType>,
    /// Inactive steps are skipped.
    pub active: bool,
    /// Increases with every change (the ETag).
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// Fields to change on a step; those not sent are unchanged.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StepUpdate {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset_days: Option<i64>,
    /// null sends at the window's start.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub send_time: Option<Option<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<Channel>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<Template>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires_approval: Option<bool>,
    /// For a protest step with requires_approval false: the type of the debt document behind each charge's title (its number is the charge's external_id).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title_type: Option<ProtestTitleType>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A message with {{placeholders}} (listed in the server instructions), filled in when it is sent.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Template {
    /// The e-mail's subject (e-mail only).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub subject: Option<Option<String>>,
    /// The message.
    pub body: String,
}
/// Where an organization's events are delivered.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Webhook {
    /// The webhook's id (whk_…).
    pub id: String,
    /// Its name, if one was given.
    pub name: Option<String>,
    /// Where events are POSTed.
    pub url: String,
    /// The event codes it takes.
    pub events: Vec<WebhookEventCode>,
    /// Whether events are delivered; events while inactive are never sent.
    pub active: bool,
    /// Bumped by every change (the ETag is "v<version>").
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// The webhook a delivery is made to, as every delivery's body names it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookAbout {
    /// The webhook's id (whk_…).
    pub id: String,
    /// Where this attempt was sent.
    pub url: String,
    /// Whether this is the delivery's first attempt (a receiver may have seen the others).
    pub first_try: bool,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookAction {
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookCreate {
    /// Where the events are POSTed: https, to a public address (checked again, after DNS resolution, on every delivery).
    pub url: String,
    /// The event codes this webhook takes.
    pub events: Vec<WebhookEventCode>,
    /// A name to tell webhooks apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether events are delivered (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// One event sent (or to send) to one webhook, with its last attempt.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookDelivery {
    /// The delivery's id (dlv_…, the hex of its event's id).
    pub id: String,
    /// X-Kobana-Delivery-Id, the same on every attempt; receivers deduplicate on it.
    pub uid: String,
    pub webhook_id: String,
    /// The event delivered (evt_…); null for a ping.
    pub event_id: Option<String>,
    /// The event's code, or ping.
    pub event_code: String,
    pub status: WebhookDeliveryStatus,
    /// Attempts made so far (at most 7 by the server; each retry by hand adds one).
    pub attempts: i64,
    /// When the next attempt is due (pending only).
    pub next_attempt_at: Option<crate::domain::dates::Timestamp>,
    /// The request of the last attempt, or null before the first.
    pub request: Option<WebhookRequest>,
    /// The answer to the last attempt, or null when none came.
    pub response: Option<WebhookResponse>,
    /// Why the last attempt failed (no answer, refused target, the status).
    pub error: Option<String>,
    /// How long the last attempt took.
    pub duration_ms: Option<i64>,
    pub first_try_at: Option<crate::domain::dates::Timestamp>,
    pub delivered_at: Option<crate::domain::dates::Timestamp>,
    pub failed_at: Option<crate::domain::dates::Timestamp>,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
}
/// One delivery.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookDeliveryEnvelope {
    pub data: WebhookDelivery,
}
/// One page of deliveries.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookDeliveryList {
    pub data: Vec<WebhookDelivery>,
    pub meta: PageMeta,
}
/// One webhook.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookEnvelope {
    pub data: Webhook,
}
/// What a webhook event carries (never its secret).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookEventData {
    pub object: Webhook,
    pub changes: serde_json::Map<String, serde_json::Value>,
}
/// One page of webhooks.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookList {
    pub data: Vec<Webhook>,
    pub meta: PageMeta,
}
/// The body of a test ping (webhooks_test).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookPing {
    pub ping: WebhookPingPing,
    pub event_code: WebhookPingEventCode,
    pub webhook: WebhookAbout,
}
/// The request of the last attempt, as sent.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookRequest {
    /// Where it went.
    pub url: String,
    /// Its headers (X-Kobana-Event, X-Kobana-Delivery-Id, X-Kobana-Signature…).
    pub headers: std::collections::BTreeMap<String, String>,
    /// The raw JSON body that was signed.
    pub body: String,
}
/// What the receiver answered to the last attempt.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookResponse {
    /// The HTTP status.
    pub status: i64,
    /// Its headers.
    pub headers: std::collections::BTreeMap<String, String>,
    /// Its body, at most 4 KiB of it.
    pub body: String,
}
/// One webhook with its secret.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookSecretEnvelope {
    pub data: WebhookWithSecret,
}
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhookUpdate {
    /// The new URL (same rules as on create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The event codes this webhook takes from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<WebhookEventCode>>,
    /// A name to tell webhooks apart; null removes it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub name: Option<Option<String>>,
    /// Whether events are delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Makes retries safe: the same key with the same body replays the first answer for 24 h. The Idempotency-Key header wins when both are sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotency_key: Option<String>,
}
/// A webhook and the secret that signs its deliveries, shown only once, to one token.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct WebhookWithSecret {
    /// The webhook's id (whk_…).
    pub id: String,
    /// Its name, if one was given.
    pub name: Option<String>,
    /// Where events are POSTed.
    pub url: String,
    /// The event codes it takes.
    pub events: Vec<WebhookEventCode>,
    /// Whether events are delivered.
    pub active: bool,
    /// Bumped by every change (the ETag is "v<version>").
    pub version: i64,
    pub created_at: crate::domain::dates::Timestamp,
    pub updated_at: crate::domain::dates::Timestamp,
    /// The key of the HMAC-SHA256 in X-Kobana-Signature. Keep it: it is not shown again. A replay of the request (same idempotency key) shows it only to the token that made it; to any other token it is null, with secret_note.
    pub secret: Option<String>,
    /// Present when secret is null: the secret was shown once, to another token; rotate it to get a new one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret_note: Option<String>,
}
/// The input of `webhooks_create`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksCreateInput {
    /// Where the events are POSTed: https, to a public address (checked again, after DNS resolution, on every delivery).
    pub url: crate::domain::text::Text,
    /// The event codes this webhook takes.
    pub events: Vec<WebhookEventCode>,
    /// A name to tell webhooks apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<crate::domain::text::Text>,
    /// Whether events are delivered (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}
/// The input of `webhooks_delete`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksDeleteInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `webhooks_deliveries_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksDeliveriesGetInput {
    /// Path parameter.
    pub id: String,
    /// Path parameter.
    pub delivery_id: String,
}
/// The input of `webhooks_deliveries_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksDeliveriesListInput {
    /// Path parameter.
    pub id: String,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<WebhookDeliveryStatus>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_code: Option<crate::domain::text::Text>,
}
/// The input of `webhooks_deliveries_retry`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksDeliveriesRetryInput {
    /// Path parameter.
    pub id: String,
    /// Path parameter.
    pub delivery_id: String,
}
/// The input of `webhooks_get`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksGetInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `webhooks_list`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksListInput {
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub page: Option<i64>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_page: Option<i64>,
}
/// The input of `webhooks_rotate_secret`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksRotateSecretInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `webhooks_test`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksTestInput {
    /// Path parameter.
    pub id: String,
}
/// The input of `webhooks_update`: path, query and body fields, flat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebhooksUpdateInput {
    /// Path parameter.
    pub id: String,
    /// The new URL (same rules as on create).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<crate::domain::text::Text>,
    /// The event codes this webhook takes from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub events: Option<Vec<WebhookEventCode>>,
    /// A name to tell webhooks apart; null removes it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::types::present"
    )]
    pub name: Option<Option<crate::domain::text::Text>>,
    /// Whether events are delivered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
}
