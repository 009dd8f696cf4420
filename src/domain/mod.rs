//! Brazilian value types and validation: CPF/CNPJ, CEP/UF, phones, e-mail, money, dates.
//!
//! The aggregates (`Charge`, `Debtor`) enforce the legal rules of their transitions; their
//! statuses are the spec's enums (`crate::types`).
//!
//! This layer knows nothing of HTTP or storage: it turns raw input (strings, JSON numbers)
//! into normalised values or a [`DomainError`] whose message can be shown to API users, and
//! formats stored values for people. Each module states its rules: the Brazilian validation
//! rules Kobana's own API enforces, and this API's wire conventions for money and dates.

pub mod address;
pub mod agreement;
pub mod approval;
pub mod boleto;
pub mod calendar;
pub mod charge;
pub mod credit_bureau;
pub mod dates;
pub mod debtor;
pub mod document;
pub mod email;
pub mod error;
pub mod escalation;
pub mod export;
pub mod ids;
pub mod json_numbers;
pub mod json_shape;
pub mod message;
pub mod money;
pub mod notification;
pub mod payment_codes;
pub mod payment_receiver;
pub mod phone;
pub mod pix;
pub mod pix_account;
pub mod policy;
pub mod portfolio;
pub mod protest;
pub mod received_payment;
pub mod rules;
pub mod text;
pub mod webhook;

pub use address::{UFS, format_cep, parse_cep, parse_uf};
pub use charge::Charge;
pub use dates::{
    format_date, format_date_br, format_timestamp, parse_date, parse_timestamp, truncate_to_micros,
};
pub use debtor::Debtor;
pub use document::{Document, PersonType, format_document, parse_document};
pub use email::{MAX_EMAIL_LEN, parse_email};
pub use error::DomainError;
pub use money::{
    MAX_CENTS, MAX_JSON_CENTS, cents_from_json, cents_to_json, format_brl, percentage_from_json,
    percentage_to_json, positive_cents_from_json,
};
pub use phone::{format_phone, is_mobile, parse_mobile, parse_phone};
pub use rules::{RuleError, Violation};
pub use text::{MultilineText, Text};
