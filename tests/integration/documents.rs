//! The PDF documents a debtor receives, end to end: the statement and the settlement letter
//! over REST (`application/pdf`), their text as `pdftotext` reads it (accents, amounts in reais,
//! dates as dd/mm/yyyy, the formatted CPF), the same bytes for the same data, the guard on an
//! unpaid charge's letter, and through MCP a descriptor whose size and digest match the blob
//! that `resources/read` returns.

use std::io::Write;
use std::process::{Command, Stdio};

use base64::Engine;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{TestServer, cpf};

/// The text of a PDF, as `pdftotext` (Debian's poppler-utils) extracts it.
fn pdf_text(pdf: &[u8]) -> String {
    let mut child = Command::new("pdftotext")
        .args(["-enc", "UTF-8", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("pdftotext runs (apt-get install poppler-utils)");
    child.stdin.take().unwrap().write_all(pdf).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "pdftotext read the PDF");
    String::from_utf8(out.stdout).expect("UTF-8 text")
}

/// A GET of a PDF: its bytes, after checking the status, the media type and that it is saved
/// as a file named after what it is and its object's id (`/v1/debtors/dbt_1/statement` is
/// `statement-dbt_1.pdf`), never shown in the API's origin.
async fn pdf(server: &TestServer, token: &str, path: &str) -> Vec<u8> {
    let r = server.raw(Method::GET, path).bearer_auth(token).send().await.expect("answered");
    assert_eq!(r.status().as_u16(), 200, "{path}");
    assert_eq!(r.headers()["content-type"], "application/pdf", "{path}");
    let [_, id, what] = path.trim_start_matches("/v1/").split('/').collect::<Vec<_>>()[..] else {
        panic!("{path}: /v1/<objects>/<id>/<document>")
    };
    let disposition = format!("attachment; filename=\"{}-{id}.pdf\"", what.replace('_', "-"));
    assert_eq!(r.headers().get("content-disposition").map(|v| v.to_str().unwrap()), Some(&*disposition));
    let bytes = r.bytes().await.unwrap().to_vec();
    assert!(bytes.starts_with(b"%PDF-"), "{path}: a PDF");
    bytes
}

/// A debtor "João Conceição" with a charge of R$ 1.250,00 due on 05/10/2026.
async fn debtor_with_charge(server: &TestServer, token: &str) -> (String, String) {
    let r = server
        .write(
            token,
            "debtors_create",
            json!({ "name": "João Conceição", "document": cpf(9101), "email": "joao@example.com.br",
                    "address": { "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                                 "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" } }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let debtor = r.data()["id"].as_str().unwrap().to_string();
    let charge = server.create_charge(token, &debtor, 1250.0, "2026-10-05").await;
    (debtor, charge["id"].as_str().unwrap().to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_statement_shows_every_charge_in_portuguese_and_is_the_same_bytes_twice() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let (debtor, _) = debtor_with_charge(&server, &token).await;
    let path = format!("/v1/debtors/{debtor}/statement");
    let first = pdf(&server, &token, &path).await;
    let text = pdf_text(&first);
    for shown in ["João Conceição", "R$ 1.250,00", "05/10/2026", "Credora Ltda"] {
        assert!(text.contains(shown), "{shown} in the statement:\n{text}");
    }
    let formatted = kobana_dunning::domain::document::format_document(&cpf(9101));
    assert!(text.contains(&formatted), "{formatted} in the statement:\n{text}");
    assert_eq!(pdf(&server, &token, &path).await, first, "the same data gives the same bytes");

    // Another organization's debtor is not found.
    let (_, other) = server.tenant("Outra").await;
    let r = server.raw(Method::GET, &path).bearer_auth(&other).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 404);
}

/// A name in Latin, Greek and Cyrillic letters prints as written: the documents embed a font that
/// has them, never a "?" in its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_in_any_european_script_prints_intact() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let name = "Łukasz Żółć Ørsted Ðorđe Σωκράτης Пётр";
    let r = server.write(&token, "debtors_create", json!({ "name": name, "document": cpf(9102) })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let debtor = r.data()["id"].as_str().unwrap().to_string();
    server.create_charge(&token, &debtor, 310.0, "2026-10-05").await;

    let text = pdf_text(&pdf(&server, &token, &format!("/v1/debtors/{debtor}/statement")).await);
    assert!(text.contains(name), "{name} in the statement:\n{text}");
    assert!(!text.contains('?') && !text.contains('\u{FFFD}'), "no character replaced:\n{text}");
}

/// A character the documents' font lacks is refused when the text is saved, naming the field
/// and the character, on create and on update, so no document prints a replacement for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_character_the_documents_cannot_print_is_refused_naming_the_field() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let r =
        server.write(&token, "debtors_create", json!({ "name": "Maria 日本", "document": cpf(9103) })).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.code(), "VALIDATION_ERROR");
    let field = &r.body["error"]["details"]["fields"][0];
    assert_eq!(field["field"], "name", "{}", r.body);
    assert!(field["message"].as_str().unwrap().contains("'日' (U+65E5)"), "{}", r.body);

    let (debtor, charge) = debtor_with_charge(&server, &token).await;
    let r = server
        .write_id(
            &token,
            "debtors_update",
            &debtor,
            json!({ "address": { "zipcode": "01310100",
            "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista",
            "city": "São Paulo 東", "state": "SP" } }),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "address.city", "{}", r.body);
    let r = server.write_id(&token, "charges_update", &charge, json!({ "description": "Plano 😀" })).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(r.body["error"]["details"]["fields"][0]["field"], "description", "{}", r.body);
    assert!(
        r.body["error"]["details"]["fields"][0]["message"].as_str().unwrap().contains("U+1F600"),
        "{}",
        r.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_paid_charge_has_a_settlement_letter() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let (_, charge) = debtor_with_charge(&server, &token).await;
    let path = format!("/v1/charges/{charge}/settlement_letter");
    let r = server.raw(Method::GET, &path).bearer_auth(&token).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 409);
    let body: Value = r.json().await.unwrap();
    assert_eq!(body["error"]["code"], "INVALID_STATE", "{body}");
    assert_eq!(body["error"]["details"]["allowed"], json!(["paid"]), "{body}");

    let r = server
        .write_id(&token, "charges_settle", &charge, json!({ "paid_at": "2026-10-05T15:00:00Z" }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let letter = pdf(&server, &token, &path).await;
    let text = pdf_text(&letter);
    for shown in ["João Conceição", "R$ 1.250,00", "05/10/2026", "Credora Ltda", &charge] {
        assert!(text.contains(shown), "{shown} in the letter:\n{text}");
    }
    assert_eq!(pdf(&server, &token, &path).await, letter, "the same data gives the same bytes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tool_describes_the_pdf_that_the_resource_returns() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let (debtor, _) = debtor_with_charge(&server, &token).await;

    let call = json!({ "name": "dunning_debtors_statement", "arguments": { "id": debtor } });
    let r = server.mcp_2026(&token, "tools/call", call, json!({})).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    let descriptor = r.tool_json();
    assert_eq!(descriptor["content_type"], "application/pdf", "{descriptor}");
    assert_eq!(descriptor["download_path"], format!("/v1/debtors/{debtor}/statement"));
    let uri = descriptor["resource_uri"].as_str().expect("a resource URI").to_string();
    assert_eq!(uri, format!("kobana://dunning/debtors/{debtor}/statement.pdf"));

    let r = server.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let content = &r.result()["contents"][0];
    assert_eq!(content["mimeType"], "application/pdf", "{}", r.body);
    let blob = base64::engine::general_purpose::STANDARD.decode(content["blob"].as_str().unwrap()).unwrap();
    assert_eq!(blob.len() as u64, descriptor["byte_size"].as_u64().unwrap());
    assert_eq!(hex::encode(Sha256::digest(&blob)), descriptor["sha256"].as_str().unwrap());
    assert!(pdf_text(&blob).contains("João Conceição"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreement_term_is_described_by_its_tool_and_read_whole_as_a_resource() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Credora Ltda").await;
    let (_, charge) = debtor_with_charge(&server, &token).await;
    let terms = json!({ "charge_ids": [charge], "fine_waived": true, "interest_waived": true,
                        "installments_count": 2, "first_due_date": crate::common::date_in(30) });
    let r = server.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let agreement = r.data()["id"].as_str().unwrap().to_string();

    let term = pdf(&server, &token, &format!("/v1/agreements/{agreement}/term")).await;
    let text = pdf_text(&term);
    for shown in ["Termo de Acordo", "João Conceição", "R$ 1.250,00", "05/10/2026", "R$ 625,00", "dispensada"]
    {
        assert!(text.contains(shown), "{shown} in the term:\n{text}");
    }

    let call = json!({ "name": "dunning_agreements_term", "arguments": { "id": agreement } });
    let r = server.mcp_2026(&token, "tools/call", call, json!({})).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    let descriptor = r.tool_json();
    let uri = descriptor["resource_uri"].as_str().unwrap().to_string();
    assert_eq!(uri, format!("kobana://dunning/agreements/{agreement}/term.pdf"));
    let r = server.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let blob = base64::engine::general_purpose::STANDARD
        .decode(r.result()["contents"][0]["blob"].as_str().expect("a blob"))
        .unwrap();
    assert_eq!(blob.len() as u64, descriptor["byte_size"].as_u64().unwrap());
    assert_eq!(hex::encode(Sha256::digest(&blob)), descriptor["sha256"].as_str().unwrap());
    assert_eq!(blob, term, "the resource is the file REST serves");
}
