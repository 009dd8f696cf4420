//! CSV exports end to end: queued by a request, built by the engine's builder page by page,
//! downloaded over REST and MCP, parsed back, formulas kept as text, another organization kept
//! out, and the file removed seven days after it was built.

use kobana_dunning::engine::exports::{ExportReport, run_once};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::common::{TestServer, cpf, date_in, error_field};

async fn export(server: &TestServer, token: &str, body: Value) -> String {
    let r = server.write(token, "exports_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.data()["status"], "queued");
    r.data()["id"].as_str().unwrap().to_owned()
}

async fn download(server: &TestServer, token: &str, id: &str) -> (u16, String) {
    let r = server
        .raw(reqwest::Method::GET, &format!("/v1/exports/{id}/download"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    let header = |name: &str| r.headers().get(name).map(|v| v.to_str().unwrap().to_owned());
    let (content_type, disposition) = (header("content-type"), header("content-disposition"));
    let text = r.text().await.unwrap();
    if status == 200 {
        assert_eq!(content_type.as_deref(), Some("text/csv"));
        // Saved as a file, never shown in the API's origin.
        assert_eq!(disposition, Some(format!("attachment; filename=\"{id}.csv\"")));
    }
    (status, text)
}

fn parse(text: &str, delimiter: u8) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::ReaderBuilder::new().delimiter(delimiter).from_reader(text.as_bytes());
    let header = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let rows = reader.records().map(|r| r.unwrap().iter().map(str::to_owned).collect()).collect();
    (header, rows)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn charges_export_to_csv_that_parses_back_with_formulas_as_text() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Exportadora").await;
    let debtor = server.create_debtor(&token, "=cmd|'/C calc'!A0", &cpf(8401)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let mut ids = Vec::new();
    for (i, due) in [date_in(10), date_in(-5), date_in(20)].iter().enumerate() {
        let body = json!({ "debtor_id": debtor_id, "amount": 100.0 + i as f64, "due_date": due,
                           "description": format!("+{i} parcela; \"aspas\", vírgula") });
        let r = server.write(&token, "charges_create", body).await;
        assert_eq!(r.status, 201, "{}", r.body);
        ids.push(r.data()["id"].as_str().unwrap().to_owned());
    }
    let all = export(&server, &token, json!({ "kind": "charges", "separator": "semicolon" })).await;
    let overdue =
        export(&server, &token, json!({ "kind": "charges", "filters": { "status": "overdue" } })).await;
    let debtors = export(&server, &token, json!({ "kind": "debtors" })).await;
    let (status, body) = download(&server, &token, &all).await;
    assert_eq!(status, 409, "not built yet: {body}");
    assert!(body.contains("INVALID_STATE") && body.contains("queued"), "{body}");

    let report = run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap();
    assert_eq!(report, ExportReport { built: 3, failed: 0, expired: 0 });
    let r = server.read_id(&token, "exports_get", &all).await;
    assert_eq!(
        (r.data()["status"].as_str(), r.data()["rows"].as_i64()),
        (Some("processed"), Some(3)),
        "{}",
        r.body
    );
    assert!(r.data()["expires_at"].is_string());

    let (status, text) = download(&server, &token, &all).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(r.data()["size_bytes"].as_u64(), Some(text.len() as u64));
    let (header, rows) = parse(&text, b';');
    assert_eq!(&header[..3], ["id", "external_id", "debtor_id"]);
    let at = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.iter().map(|r| r[at("id")].clone()).collect::<Vec<_>>(), ids, "oldest first");
    assert_eq!(rows[0][at("description")], "'+0 parcela; \"aspas\", vírgula", "a formula is text");
    assert_eq!(rows[0][at("debtor_name")], "'=cmd|'/C calc'!A0");
    assert_eq!(rows[1][at("status")], "overdue");
    assert_eq!(rows[1][at("amount")], "101,00", "a decimal comma with semicolons");

    let (_, text) = download(&server, &token, &overdue).await;
    let (_, rows) = parse(&text, b',');
    assert_eq!(rows.len(), 1, "the filter: {text}");
    let (_, text) = download(&server, &token, &debtors).await;
    let (header, rows) = parse(&text, b',');
    assert_eq!((rows.len(), rows[0][0].as_str()), (1, debtor_id));
    assert!(header.contains(&"summary.open_amount".to_string()));

    // Another organization cannot see it or download it.
    let (_, other) = server.tenant("Curiosa").await;
    assert_eq!(download(&server, &other, &all).await.0, 404);
    let r = server.read(&other, "exports_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0);

    // Seven days after it was built, the file goes.
    let later = OffsetDateTime::now_utc() + Duration::days(7) + Duration::minutes(1);
    assert_eq!(run_once(&server.app.store, later).await.unwrap().expired, 3);
    let (status, body) = download(&server, &token, &all).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.contains("expired"), "{body}");
    let r = server.read(&token, "events_list", &format!("resource_id={all}")).await;
    let codes: Vec<&str> = r.data().as_array().unwrap().iter().map(|e| e["code"].as_str().unwrap()).collect();
    assert_eq!(codes, ["export.db.updated", "export.db.updated", "export.db.created"], "newest first");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filters_must_fit_the_kind_and_mcp_reads_the_file_as_text() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Filtros").await;
    let r = server
        .write(&token, "exports_create", json!({ "kind": "debtors", "filters": { "charge_id": "chg_1" } }))
        .await;
    assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    assert!(error_field(&r, "filters.charge_id").is_some(), "{}", r.body);
    let r = server
        .write(&token, "exports_create", json!({ "kind": "protests", "filters": { "status": "paid_off" } }))
        .await;
    assert!(error_field(&r, "filters.status").is_some(), "{}", r.body);

    server.create_debtor(&token, "Úrsula Eventos", &cpf(8402)).await;
    let id = export(&server, &token, json!({ "kind": "events", "filters": { "code": "debtor.db.created" } }))
        .await;
    run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap();
    let uri = format!("kobana://dunning/exports/{id}/download.csv");
    let r = server.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let contents = &r.result()["contents"][0];
    assert_eq!(contents["mimeType"], "text/csv", "{}", r.body);
    let (header, rows) = parse(contents["text"].as_str().unwrap(), b',');
    assert_eq!(header[..2], ["id", "code"]);
    assert_eq!((rows.len(), rows[0][1].as_str()), (1, "debtor.db.created"));
    let data: Value =
        serde_json::from_str(&rows[0][header.iter().position(|h| h == "data").unwrap()]).unwrap();
    assert_eq!(data["object"]["name"], "Úrsula Eventos");

    let params = json!({ "name": "dunning_exports_download", "arguments": { "id": id } });
    let r = server.mcp_2026(&token, "tools/call", params, json!({})).await;
    let described = r.tool_json();
    assert_eq!(described["content_type"], "text/csv", "{}", r.body);
    assert_eq!(described["resource_uri"], uri);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_of_thousands_of_rows_reads_every_page_once_in_order() {
    let server = TestServer::start().await;
    let made = kobana_dunning::demo::generate::generate(&server.app.store, 2_500, |_| {}).await.unwrap();
    let token = server.token(&made.organization_id, crate::common::ALL).await;
    let total =
        server.read(&token, "charges_list", "per_page=1").await.body["meta"]["total"].as_u64().unwrap();
    assert!(total > 2_000, "more than two pages of the builder: {total}");
    let id = export(&server, &token, json!({ "kind": "charges" })).await;
    assert_eq!(run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap().built, 1);
    let (status, text) = download(&server, &token, &id).await;
    assert_eq!(status, 200);
    let (header, rows) = parse(&text, b',');
    assert_eq!(rows.len() as u64, total, "every charge once");
    let created = header.iter().position(|h| h == "created_at").unwrap();
    let keys: Vec<(&str, &str)> = rows.iter().map(|r| (r[created].as_str(), r[0].as_str())).collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "in (created_at, id) order, no repeat");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_export_whose_builds_keep_failing_ends_failed_with_its_reason() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    server.create_debtor(&token, "Ana Tentativa", &cpf(8501)).await;
    // Two builders died on one export: the third attempt is still made, and builds it.
    let retried = export(&server, &token, json!({ "kind": "debtors" })).await;
    server.execute_sql("UPDATE exports SET attempts = 2 WHERE id = $1", &[&retried]).await;
    // Three attempts were spent on another (builders that died, builds the database failed).
    let spent = export(&server, &token, json!({ "kind": "debtors" })).await;
    server.execute_sql("UPDATE exports SET attempts = 3 WHERE id = $1", &[&spent]).await;

    let report = run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap();
    assert_eq!((report.built, report.failed), (1, 1), "{report:?}");
    let r = server.read_id(&token, "exports_get", &retried).await;
    assert_eq!(r.data()["status"], "processed", "{}", r.body);
    let r = server.read_id(&token, "exports_get", &spent).await;
    assert_eq!(r.data()["status"], "failed", "{}", r.body);
    assert_eq!(
        r.data()["error"],
        "the file could not be built after 3 attempts; create a new export",
        "the reason, without the database's words"
    );
    let events = server.read(&token, "events_list", &format!("resource_id={spent}")).await;
    assert!(
        events.data().as_array().unwrap().iter().any(|e| e["data"]["object"]["status"] == "failed"),
        "{}",
        events.body
    );
    // Nothing is taken again.
    assert_eq!(
        run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap(),
        ExportReport::default()
    );
}
