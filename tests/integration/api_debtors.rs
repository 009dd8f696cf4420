//! /v1/me and /v1/debtors over HTTP: every operation's success path, the events they write,
//! lists (pagination, bounds, sorting, filters, search) and the debtor guards.

use serde_json::{Value, json};

use crate::common::{TestServer, cnpj, cpf, date_in, error_fields, ids};

/// The event codes written for an object, oldest first.
async fn event_codes(server: &TestServer, org: &str, id: &str) -> Vec<String> {
    server.app.store.events_of(org, id).await.expect("events").into_iter().map(|(code, _)| code).collect()
}

/// The data of the one event with `code` written for an object.
async fn event_data(server: &TestServer, org: &str, id: &str, code: &str) -> Value {
    let events = server.app.store.events_of(org, id).await.expect("events");
    let matching: Vec<&Value> = events.iter().filter(|(c, _)| c == code).map(|(_, d)| d).collect();
    assert_eq!(matching.len(), 1, "exactly one {code} event for {id}: {events:?}");
    matching[0].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_shows_the_organization_and_the_token() {
    let server = TestServer::start().await;
    let org = server.org("Academia Corpo em Forma").await;
    let token = server.token(&org, "dunning.read dunning.write").await;

    let r = server.read(&token, "me", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let me = r.data();
    assert_eq!(me["organization"]["id"], org.as_str());
    assert_eq!(me["organization"]["name"], "Academia Corpo em Forma");
    assert_eq!(me["organization"]["environment"], "sandbox");
    assert_eq!(me["organization"]["timezone"], "America/Sao_Paulo");
    assert_eq!(me["user"], Value::Null);
    assert_eq!(me["token"]["scopes"], json!(["dunning.read", "dunning.write"]));
    assert_eq!(me["token"]["audience"], "all");
    assert_eq!(me["token"]["client_id"], Value::Null);
    assert!(me["token"]["expires_at"].as_str().is_some_and(|t| !t.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtor_create_get_update_archive() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;

    // Create: 201, ETag "v1", the document normalised and person_type derived from it.
    let r = server
        .write(&token, "debtors_create", json!({ "name": "Maria Souza", "document": "529.982.247-25", "email": "maria.souza@example.com.br", "mobile": "+5511912345678", "address": { "zipcode": "01310-100", "street": "Av. Paulista", "number": "1000", "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" }, "tags": ["academia"], "metadata": {"crm_id": "84721"} }))
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v1\""));
    let d = r.data().clone();
    let id = d["id"].as_str().expect("id").to_string();
    assert!(id.starts_with("dbt_") && id.len() == 36, "{id}");
    assert_eq!(d["document"], "52998224725");
    assert_eq!(d["document_formatted"], "529.982.247-25");
    assert_eq!(d["person_type"], "natural");
    assert_eq!(d["status"], "active");
    assert_eq!(d["address"]["zipcode"], "01310100");
    assert_eq!(d["address"]["country"], "BR");
    assert_eq!(d["version"], 1);
    assert_eq!(
        d["summary"],
        json!({"open_amount": 0.0, "overdue_amount": 0.0, "overdue_count": 0, "open_charges": 0})
    );
    let created = event_data(&server, &org, &id, "debtor.db.created").await;
    assert!(created.get("changes").is_some(), "{created}");
    assert_eq!(created["object"]["id"], id.as_str());

    // Get: 200 and the same ETag.
    let r = server.read_id(&token, "debtors_get", &id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v1\""));
    assert_eq!(r.data(), &d);

    // Update: only the fields sent change; the version and the ETag move on.
    let r = server
        .write_id(&token, "debtors_update", &id, json!({"name": "Maria Souza Lima", "phone": null}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));
    assert_eq!(r.data()["name"], "Maria Souza Lima");
    assert_eq!(r.data()["email"], "maria.souza@example.com.br");
    assert_eq!(r.data()["version"], 2);
    let updated = event_data(&server, &org, &id, "debtor.db.updated").await;
    assert_eq!(updated["changes"], json!({"name": ["Maria Souza", "Maria Souza Lima"]}));

    // An update that changes nothing writes nothing.
    let r = server.write_id(&token, "debtors_update", &id, json!({"name": "Maria Souza Lima"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));

    // Archive: status archived with a timestamp; a second archive is a no-op.
    let r = server.write_id(&token, "debtors_archive", &id, json!({"reason": "contrato encerrado"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v3\""));
    assert_eq!(r.data()["status"], "archived");
    assert!(r.data()["archived_at"].is_string(), "{}", r.body);
    let archived = event_data(&server, &org, &id, "debtor.archived").await;
    assert_eq!(archived["changes"]["status"], json!(["active", "archived"]));
    assert_eq!(archived["reason"], "contrato encerrado");

    let r = server.write_id(&token, "debtors_archive", &id, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v3\""));
    assert_eq!(r.data()["version"], 3);

    assert_eq!(
        event_codes(&server, &org, &id).await,
        ["debtor.db.created", "debtor.db.updated", "debtor.archived"],
        "no event for the no-ops"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtor_delete_answers_204_with_no_body() {
    let server = TestServer::start().await;
    let (org, token) = server.tenant("Org").await;
    let d = server.create_debtor(&token, "Padaria Pão Quente Ltda", "11.222.333/0001-81").await;
    let id = d["id"].as_str().unwrap();
    assert_eq!(d["person_type"], "legal");

    let r = server.read_id(&token, "debtors_delete", id).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert!(r.body.is_null(), "204 with a body: {}", r.body);
    assert_eq!(r.header("content-length").unwrap_or("0"), "0");

    let r = server.read_id(&token, "debtors_get", id).await;
    assert_eq!(r.status, 404, "{}", r.body);
    assert_eq!(r.code(), "NOT_FOUND");
    let deleted = event_data(&server, &org, id, "debtor.db.deleted").await;
    assert!(deleted.get("changes").is_some(), "{deleted}");

    // Deleting it again: it is gone.
    let r = server.read_id(&token, "debtors_delete", id).await;
    assert_eq!(r.status, 404, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debtor_with_charges_cannot_be_deleted() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let d = server.create_debtor(&token, "João Pereira", &cpf(1)).await;
    let id = d["id"].as_str().unwrap();
    let c = server.create_charge(&token, id, 150.0, &crate::common::date_in(10)).await;
    // Any status counts: even a canceled charge keeps the debtor.
    let r = server.write_id(&token, "charges_cancel", c["id"].as_str().unwrap(), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let r = server.read_id(&token, "debtors_delete", id).await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.code(), "CONFLICT");

    let r = server.read_id(&token, "debtors_get", id).await;
    assert_eq!(r.status, 200, "the debtor is still there: {}", r.body);
    assert_eq!(r.data()["version"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_duplicate_document_is_a_conflict() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    server.create_debtor(&token, "Maria Souza", "52998224725").await;

    // The same CPF, punctuated: still the same document.
    let r = server
        .write(&token, "debtors_create", json!({"name": "Outra Maria", "document": "529.982.247-25"}))
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.code(), "CONFLICT");

    let r = server.read(&token, "debtors_list", "").await;
    assert_eq!(r.body["meta"]["total"], 1);

    // Another organization may register the same document.
    let (_, other) = server.tenant("Other").await;
    server.create_debtor(&other, "Maria Souza", "52998224725").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtor_list_pagination_and_bounds() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let mut created = Vec::new();
    for i in 0..5 {
        let d = server.create_debtor(&token, &format!("Devedor {i}"), &cpf(100 + i)).await;
        created.push(d["id"].as_str().unwrap().to_string());
    }

    // Defaults: page 1, 25 per page, newest first.
    let r = server.read(&token, "debtors_list", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"], json!({"total": 5, "page": 1, "per_page": 25, "total_pages": 1}));
    let newest_first: Vec<String> = created.iter().rev().cloned().collect();
    assert_eq!(ids(&r), newest_first);

    let r = server.read(&token, "debtors_list", "per_page=2").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"], json!({"total": 5, "page": 1, "per_page": 2, "total_pages": 3}));
    assert_eq!(ids(&r), newest_first[0..2]);

    let r = server.read(&token, "debtors_list", "per_page=2&page=3").await;
    assert_eq!(r.body["meta"], json!({"total": 5, "page": 3, "per_page": 2, "total_pages": 3}));
    assert_eq!(ids(&r), newest_first[4..5]);

    // Past the end: no data, the same total.
    let r = server.read(&token, "debtors_list", "per_page=2&page=4").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data(), &json!([]));
    assert_eq!(r.body["meta"], json!({"total": 5, "page": 4, "per_page": 2, "total_pages": 3}));

    let r = server.read(&token, "debtors_list", "per_page=100").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"]["per_page"], 100);

    // Out of bounds: a VALIDATION_ERROR naming the parameter, never clamped.
    for (query, field) in [("per_page=101", "per_page"), ("per_page=0", "per_page"), ("page=0", "page")] {
        let r = server.read(&token, "debtors_list", query).await;
        assert_eq!(r.status, 422, "{query}: {}", r.body);
        assert_eq!(r.code(), "VALIDATION_ERROR");
        assert_eq!(error_fields(&r), [field], "{query}: {}", r.body);
    }
    let r = server.read(&token, "debtors_list", "page=abc").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["page"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtor_list_sorting_filters_and_search() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let bruno = server.create_debtor(&token, "Bruno Costa", &cpf(201)).await;
    let ana = server.create_debtor(&token, "Ana Lima", &cpf(202)).await;
    let carla = server.create_debtor(&token, "Carla Dias", &cpf(203)).await;
    let empresa = server.create_debtor(&token, "Mercado Central Ltda", &cnpj(204)).await;
    let id = |v: &Value| v["id"].as_str().unwrap().to_string();
    let r = server.read_id(&token, "debtors_archive", &id(&carla)).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let r = server.read(&token, "debtors_list", "sort_by=name&sort_order=asc").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(ids(&r), [id(&ana), id(&bruno), id(&carla), id(&empresa)]);
    let r = server.read(&token, "debtors_list", "sort_by=name&sort_order=desc").await;
    assert_eq!(ids(&r), [id(&empresa), id(&carla), id(&bruno), id(&ana)]);
    let r = server.read(&token, "debtors_list", "sort_by=document").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["sort_by"]);

    // CSV status filter.
    let r = server.read(&token, "debtors_list", "status=archived").await;
    assert_eq!(ids(&r), [id(&carla)]);
    assert_eq!(r.body["meta"]["total"], 1);
    let r = server.read(&token, "debtors_list", "status=active").await;
    assert_eq!(r.body["meta"]["total"], 3);
    let r = server.read(&token, "debtors_list", "status=active,archived").await;
    assert_eq!(r.body["meta"]["total"], 4);
    let r = server.read(&token, "debtors_list", "status=deleted").await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["status"]);

    let r = server.read(&token, "debtors_list", "person_type=legal").await;
    assert_eq!(ids(&r), [id(&empresa)]);

    // q: a case-insensitive prefix of the name, the document or the id.
    let r = server.read(&token, "debtors_list", "q=bru").await;
    assert_eq!(ids(&r), [id(&bruno)]);
    assert_eq!(r.body["meta"]["total"], 1);
    let r = server.read(&token, "debtors_list", "q=Costa").await;
    assert_eq!(ids(&r), [id(&bruno)], "the start of any word of the name");
    let r = server.read(&token, "debtors_list", "q=osta").await;
    assert_eq!(r.body["meta"]["total"], 0, "a word's start, not a substring: {}", r.body);
    let doc = ana["document"].as_str().unwrap();
    let r = server.read(&token, "debtors_list", &format!("q={}", &doc[..10])).await;
    assert_eq!(ids(&r), [id(&ana)]);
    let r = server.read(&token, "debtors_list", &format!("q={}", &id(&empresa)[..30])).await;
    assert_eq!(ids(&r), [id(&empresa)]);
    let r = server.read(&token, "debtors_list", "q=%25").await;
    assert_eq!(r.body["meta"]["total"], 0, "LIKE wildcards match literally: {}", r.body);

    // Filters combine.
    // "c" starts Carla (archived), Costa and Central.
    let r = server.read(&token, "debtors_list", "q=c&status=active").await;
    let mut found = ids(&r);
    found.sort();
    let mut expected = vec![id(&bruno), id(&empresa)];
    expected.sort();
    assert_eq!(found, expected, "{}", r.body);
    let r = server.read(&token, "debtors_list", "q=c&status=archived").await;
    assert_eq!(ids(&r), [id(&carla)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtor_fields_are_validated() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let r = server
        .write(
            &token,
            "debtors_create",
            json!({"name": "Maria", "document": cpf(7), "email": "not-an-email", "mobile": "+551133334444"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let fields = error_fields(&r);
    assert!(fields.contains(&"email".to_string()), "{}", r.body);
    assert!(fields.contains(&"mobile".to_string()), "{}", r.body);

    let r = server.write(&token, "debtors_create", json!({"name": "Maria"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["document"]);

    let r = server.read(&token, "debtors_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0, "nothing was created");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_ignores_accents_case_and_document_punctuation() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let id = |v: &Value| v["id"].as_str().unwrap().to_string();
    let angela = server.create_debtor(&token, "Ângela Conceição", "52998224725").await;
    let other = server.create_debtor(&token, "Angélica Souza", &cpf(301)).await;
    let debtor_ids = |q: &'static str| {
        let server = &server;
        let token = &token;
        async move {
            ids(&server.read(token, "debtors_list", &format!("q={q}&sort_by=name&sort_order=asc")).await)
        }
    };
    assert_eq!(debtor_ids("%C3%A2ngela").await, [id(&angela)], "q=ângela");
    assert_eq!(debtor_ids("ANGELA%20CONC").await, [id(&angela)]);
    assert_eq!(
        debtor_ids("ang").await,
        [id(&angela), id(&other)],
        "names sort by their folded form on both databases: angela < angelica"
    );
    assert_eq!(debtor_ids("529.982").await, [id(&angela)], "a document with its punctuation");
    assert_eq!(debtor_ids("529982247").await, [id(&angela)]);
    assert_eq!(debtor_ids("conceicao").await, [id(&angela)], "the start of a later word");
    assert_eq!(debtor_ids("onceicao").await.len(), 0, "not the middle of a word");

    let charge = server.create_charge(&token, &id(&angela), 10.0, &date_in(5)).await;
    let r = server.read(&token, "charges_list", "q=%C3%A2ngela").await;
    assert_eq!(ids(&r), [id(&charge)]);
    assert_eq!(r.body["meta"]["total"], 1);
    let r = server.read(&token, "charges_list", "q=529.982").await;
    assert_eq!(ids(&r), [id(&charge)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sort_by_name_ignores_accents_and_case() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let id = |v: &Value| v["id"].as_str().unwrap().to_string();
    let yara = server.create_debtor(&token, "Yara Nunes", &cpf(401)).await;
    let angela = server.create_debtor(&token, "Ângela Conceição", &cpf(402)).await;
    let bruno = server.create_debtor(&token, "bruno costa", &cpf(403)).await;
    let eder = server.create_debtor(&token, "Éder Lima", &cpf(404)).await;
    let carla = server.create_debtor(&token, "CARLA DIAS", &cpf(405)).await;

    let r = server.read(&token, "debtors_list", "sort_by=name&sort_order=asc").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(ids(&r), [id(&angela), id(&bruno), id(&carla), id(&eder), id(&yara)], "{}", r.body);
    let r = server.read(&token, "debtors_list", "sort_by=name&sort_order=desc&per_page=2&page=2").await;
    assert_eq!(ids(&r), [id(&carla), id(&bruno)], "{}", r.body);
    // The answer keeps the name as written.
    let r = server.read(&token, "debtors_list", "sort_by=name&sort_order=asc&per_page=1").await;
    assert_eq!(r.data()[0]["name"], "Ângela Conceição");
}
