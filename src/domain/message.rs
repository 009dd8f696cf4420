//! The messages of the régua: a step's template with `{{placeholder}}`s, checked when
//! the policy is saved and rendered when the notification is sent, in the Brazilian forms a
//! debtor reads (`R$ 1.250,00`, `05/10/2026`).

use std::fmt;

use time::Date;

use super::dates::format_date_br;
use super::money::format_brl;

/// What a template may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placeholder {
    /// The debtor's name.
    DebtorName,
    /// The charge's balance, `R$ 1.250,00`.
    Amount,
    /// The due date, `05/10/2026`.
    DueDate,
    /// Days past the effective due date (0 before it).
    DaysOverdue,
    /// The charge's description.
    Description,
    /// The boleto's digitable line, when the charge has one.
    PaymentLine,
    /// The Pix copy-and-paste code, when the charge has one.
    PixCode,
}

impl Placeholder {
    /// Every placeholder, as templates write them.
    pub const ALL: [(&'static str, Placeholder); 7] = [
        ("debtor_name", Placeholder::DebtorName),
        ("amount", Placeholder::Amount),
        ("due_date", Placeholder::DueDate),
        ("days_overdue", Placeholder::DaysOverdue),
        ("description", Placeholder::Description),
        ("payment_line", Placeholder::PaymentLine),
        ("pix_code", Placeholder::PixCode),
    ];

    fn named(name: &str) -> Option<Self> {
        Self::ALL.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }
}

/// Why a template cannot be saved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `{{something}}` that is not a placeholder.
    #[error(
        "unknown placeholder {{{{{0}}}}}; known: debtor_name, amount, due_date, days_overdue, description, payment_line, pix_code"
    )]
    Unknown(String),
    /// `{{` without its `}}`.
    #[error("a placeholder opened with {{{{ is not closed with }}}}")]
    Unclosed,
}

/// Whether `text` holds what a mail reader decodes as an RFC 2047 encoded word
/// (`=?charset?encoding?text?=`): in a subject it would show, once decoded, characters the
/// text rule never saw (a bidi override, a line break), so a subject may not hold one.
pub fn has_encoded_word(text: &str) -> bool {
    text.match_indices("=?").any(|(start, _)| text[start + 2..].contains("?="))
}

/// One piece of a template.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Piece {
    Text(String),
    Value(Placeholder),
}

/// A template read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

/// The values of one charge, at send time.
#[derive(Debug, Clone)]
pub struct MessageValues<'a> {
    /// The debtor's name.
    pub debtor_name: &'a str,
    /// The balance in centavos.
    pub balance_cents: i64,
    /// The due date as agreed.
    pub due_date: Date,
    /// Days past the effective due date.
    pub days_overdue: i64,
    /// The description, if any.
    pub description: Option<&'a str>,
    /// The digitable line, if any.
    pub payment_line: Option<&'a str>,
    /// The Pix code, if any.
    pub pix_code: Option<&'a str>,
}

impl Template {
    /// Reads a template: text with `{{name}}` placeholders (spaces inside the braces allowed).
    pub fn parse(text: &str) -> Result<Self, TemplateError> {
        let mut pieces = Vec::new();
        let mut rest = text;
        while let Some(open) = rest.find("{{") {
            if open > 0 {
                pieces.push(Piece::Text(rest[..open].to_string()));
            }
            let after = &rest[open + 2..];
            let close = after.find("}}").ok_or(TemplateError::Unclosed)?;
            let name = after[..close].trim();
            let placeholder =
                Placeholder::named(name).ok_or_else(|| TemplateError::Unknown(name.to_string()))?;
            pieces.push(Piece::Value(placeholder));
            rest = &after[close + 2..];
        }
        if !rest.is_empty() {
            pieces.push(Piece::Text(rest.to_string()));
        }
        Ok(Self { pieces })
    }

    /// Whether it shows `placeholder`.
    pub fn names(&self, placeholder: Placeholder) -> bool {
        self.pieces.contains(&Piece::Value(placeholder))
    }

    /// The message for one charge. A value the charge does not have renders as nothing.
    pub fn render(&self, values: &MessageValues<'_>) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Value(placeholder) => out.push_str(&value(*placeholder, values)),
            }
        }
        out
    }
}

fn value(placeholder: Placeholder, v: &MessageValues<'_>) -> String {
    match placeholder {
        Placeholder::DebtorName => v.debtor_name.to_string(),
        Placeholder::Amount => format_brl(v.balance_cents),
        Placeholder::DueDate => format_date_br(v.due_date),
        Placeholder::DaysOverdue => v.days_overdue.max(0).to_string(),
        Placeholder::Description => v.description.unwrap_or_default().to_string(),
        Placeholder::PaymentLine => v.payment_line.unwrap_or_default().to_string(),
        Placeholder::PixCode => v.pix_code.unwrap_or_default().to_string(),
    }
}

impl fmt::Display for Template {
    /// The template as written, placeholders in their canonical spelling.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => f.write_str(text)?,
                Piece::Value(p) => {
                    let name = Placeholder::ALL.iter().find(|(_, q)| q == p).map_or("", |(n, _)| n);
                    write!(f, "{{{{{name}}}}}")?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;

    fn values() -> MessageValues<'static> {
        MessageValues {
            debtor_name: "Maria da Conceição",
            balance_cents: 125_000,
            due_date: date!(2026 - 10 - 05),
            days_overdue: 3,
            description: Some("Mensalidade outubro/2026"),
            payment_line: Some("23790.50400 41991.001234 56000.123456 1 12340000125000"),
            pix_code: None,
        }
    }

    #[test]
    fn placeholders_render_the_brazilian_way() {
        let t = Template::parse(
            "Olá, {{debtor_name}}! A cobrança de {{ amount }} venceu em {{due_date}} \
             ({{days_overdue}} dias). Linha: {{payment_line}}. Pix: {{pix_code}}.",
        )
        .unwrap();
        assert_eq!(
            t.render(&values()),
            "Olá, Maria da Conceição! A cobrança de R$ 1.250,00 venceu em 05/10/2026 (3 dias). \
             Linha: 23790.50400 41991.001234 56000.123456 1 12340000125000. Pix: ."
        );
    }

    #[test]
    fn days_overdue_is_never_negative() {
        let t = Template::parse("{{days_overdue}}").unwrap();
        assert_eq!(t.render(&MessageValues { days_overdue: -3, ..values() }), "0");
    }

    #[test]
    fn unknown_and_unclosed_placeholders_are_refused_with_the_name() {
        assert_eq!(Template::parse("Olá {{nome}}"), Err(TemplateError::Unknown("nome".into())));
        assert_eq!(Template::parse("Olá {{debtor_name"), Err(TemplateError::Unclosed));
        let message = TemplateError::Unknown("nome".into()).to_string();
        assert!(message.starts_with("unknown placeholder {{nome}}"), "{message}");
    }

    #[test]
    fn encoded_words_are_found_wherever_they_are() {
        for text in ["=?utf-8?B?4oCu?=", "Oi =?UTF-8?Q?=E2=80=AE?= fim", "a=?x?q?y?=b"] {
            assert!(has_encoded_word(text), "{text}");
        }
        for text in ["Pague até sexta", "2 + 2 =? 4", "?= antes =?", "Cobrança {{amount}}"] {
            assert!(!has_encoded_word(text), "{text}");
        }
    }

    #[test]
    fn text_without_placeholders_and_single_braces_stay_as_written() {
        for text in ["", "Pague até sexta.", "{ chave } e }} soltas"] {
            let t = Template::parse(text).unwrap();
            assert_eq!(t.render(&values()), text);
            assert_eq!(t.to_string(), text);
        }
        assert_eq!(Template::parse("a {{ amount }} b").unwrap().to_string(), "a {{amount}} b");
    }
}
