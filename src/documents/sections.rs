//! What several documents show alike: the header, a party's block, how its CPF or CNPJ reads,
//! and a signature line.

use super::Party;
use super::layout::{Align, Layout, Style};
use crate::domain::document::format_document;

/// `CPF` or `CNPJ` by the length of the stored value; None for anything else.
fn document_kind(document: &str) -> Option<&'static str> {
    match document.len() {
        11 => Some("CPF"),
        14 => Some("CNPJ"),
        _ => None,
    }
}

/// The party's document as it is labelled: `CPF 529.982.247-25`, `CNPJ 11.222.333/0001-81`,
/// `Documento X` for a value that is neither; None when the party has none.
pub fn document_line(party: &Party) -> Option<(&'static str, String)> {
    let document = party.document.trim();
    if document.is_empty() {
        return None;
    }
    Some((document_kind(document).unwrap_or("Documento"), format_document(document)))
}

/// `, inscrito(a) no CPF sob o nº 529.982.247-25` to follow the party's name in a sentence,
/// or nothing when the party has no document.
pub fn registration(party: &Party) -> String {
    let document = party.document.trim();
    match document_kind(document) {
        Some(kind) => format!(", inscrito(a) no {kind} sob o nº {}", format_document(document)),
        None if document.is_empty() => String::new(),
        None => format!(", documento nº {document}"),
    }
}

/// The top of a document: its title, when it was issued (`issued`, worded by the document),
/// and both parties.
pub fn header(layout: &mut Layout, title: &str, issued: &str, creditor: &Party, debtor: &Party) {
    layout.title(title);
    layout.text(issued, Style::SMALL, Align::Center);
    party(layout, "Credor", creditor);
    party(layout, "Devedor", debtor);
}

/// A heading and the party's name, document and address.
pub fn party(layout: &mut Layout, heading: &str, party: &Party) {
    layout.heading(heading);
    let document = document_line(party);
    let address = party.address.as_ref().map(|lines| lines.join("\n")).unwrap_or_default();
    let mut fields = vec![("Nome", party.name.as_str())];
    if let Some((label, number)) = &document {
        fields.push((label, number.as_str()));
    }
    if !address.trim().is_empty() {
        fields.push(("Endereço", address.as_str()));
    }
    layout.fields(&fields);
}

/// The space above a signature line, for the signature itself.
pub const SIGNATURE_GAP: f32 = 48.0;

/// The height of a [`signature`] below its gap: the line, the name, the document and the role.
pub fn signature_height(party: &Party, role: Option<&str>) -> f32 {
    let small_line = Style::SMALL.size * 1.3;
    let document = if document_line(party).is_some() { small_line } else { 0.0 };
    let role = if role.is_some() { small_line } else { 0.0 };
    3.0 + Style::BODY.size * 1.3 + document + role + 4.0
}

/// A signature line for `party`, its name, document and `role` (`Devedor`) below, kept on one
/// page.
pub fn signature(layout: &mut Layout, party: &Party, role: Option<&str>) {
    layout.gap(SIGNATURE_GAP);
    layout.keep_together(signature_height(party, role));
    layout.rule(220.0, Align::Center);
    layout.gap(2.0);
    layout.text(party.name.trim(), Style::BODY, Align::Center);
    if let Some((label, number)) = document_line(party) {
        layout.text(&format!("{label} {number}"), Style::SMALL, Align::Center);
    }
    if let Some(role) = role {
        layout.text(role, Style::SMALL, Align::Center);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn party(document: &str) -> Party {
        Party { name: "Maria".into(), document: document.into(), address: None }
    }

    #[test]
    fn documents_read_as_cpf_or_cnpj() {
        assert_eq!(registration(&party("52998224725")), ", inscrito(a) no CPF sob o nº 529.982.247-25");
        assert_eq!(document_line(&party("11222333000181")), Some(("CNPJ", "11.222.333/0001-81".into())));
        assert_eq!(document_line(&party("123")), Some(("Documento", "123".into())));
        assert_eq!(registration(&party("123")), ", documento nº 123");
        assert_eq!(document_line(&party(" ")), None);
        assert_eq!(registration(&party("")), "");
    }
}
