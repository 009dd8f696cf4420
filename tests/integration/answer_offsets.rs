//! Every instant written for an organization is in its zone's offset at that instant: REST and
//! MCP answers, event payloads, webhook bodies and exports alike, while storage stays in UTC
//! and the instant itself never moves. `me` names today's weekday beside today's date.

use kobana_dunning::admin;
use kobana_dunning::domain::dates::{Zone, parse_timestamp};
use kobana_dunning::outbound::webhook_delivery::Sender;
use kobana_dunning::providers::{ProviderConfig, Providers, signed_by};
use serde_json::{Value, json};
use time::OffsetDateTime;
use time::format_description::FormatItem;
use time::macros::format_description;

use crate::common::{ALL, TestServer, cpf, date_in};
use crate::webhooks::receiver;

/// RFC 3339 with microseconds and a `±hh:mm` offset, written by the `time` crate rather than by
/// the server's own formatter, to check it against.
const WITH_OFFSET: &[FormatItem<'_>] = format_description!(
    "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6][offset_hour sign:mandatory]:[offset_minute]"
);

/// Manaus: a zone other than the default one, four hours behind UTC all year.
const ZONE: &str = "America/Manaus";

/// `at` as the organization's answers must write it: at the zone's offset at that instant.
fn local(at: OffsetDateTime) -> String {
    let offset = Zone::named(ZONE).unwrap().offset_at(at);
    at.to_offset(offset).format(WITH_OFFSET).unwrap()
}

/// An instant of an answer: written in the zone's offset, and the same instant as `stored`.
#[track_caller]
fn assert_local(shown: &Value, stored: OffsetDateTime) {
    let text = shown.as_str().unwrap_or_else(|| panic!("an instant, not {shown}"));
    assert_eq!(text, local(stored), "written at the organization's offset");
    assert_eq!(parse_timestamp(text), Ok(stored), "the instant stored");
}

/// An organization in [`ZONE`], its id and an all-scopes token.
async fn tenant(server: &TestServer, name: &str) -> (String, String) {
    let org = server.org(name).await;
    admin::set_timezone(&server.app.store, &org, ZONE).await.expect("timezone");
    let token = server.token(&org, ALL).await;
    (org, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_on_both_surfaces_write_instants_in_the_organizations_offset() {
    let server = TestServer::start().await;
    let (org, token) = tenant(&server, "Manaus Cobranças").await;
    let debtor = server.create_debtor(&token, "Raimundo Nonato Souza", &cpf(9301)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 150.0, &date_in(10)).await;
    let id = charge["id"].as_str().unwrap();
    let stored = server.app.store.charge(&org, id).await.unwrap().expect("the charge");

    // REST: the create's answer, a read, a list.
    assert_local(&charge["created_at"], stored.created_at);
    let rest = server.read_id(&token, "charges_get", id).await;
    assert_eq!(rest.status, 200, "{}", rest.body);
    assert_local(&rest.data()["created_at"], stored.created_at);
    assert_local(&rest.data()["updated_at"], stored.updated_at);
    let list = server.read(&token, "charges_list", "").await;
    assert_local(&list.data()[0]["created_at"], stored.created_at);

    // MCP: a tool's answer and a resource's are the same text.
    let call = json!({ "name": "dunning_charges_get", "arguments": { "id": id } });
    let tool = server.mcp_2026(&token, "tools/call", call, json!({})).await.tool_json();
    assert_eq!(tool["data"]["created_at"], rest.data()["created_at"], "{tool}");
    let uri = format!("kobana://dunning/charges/{id}");
    let r = server.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let resource: Value = serde_json::from_str(r.result()["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(resource["data"]["created_at"], rest.data()["created_at"], "{resource}");

    // `me`: its clock and its token's expiry.
    let before = OffsetDateTime::now_utc();
    let me = server.read(&token, "me", "").await;
    let after = OffsetDateTime::now_utc();
    let now = parse_timestamp(me.data()["organization"]["now"].as_str().unwrap()).unwrap();
    assert!(before - time::Duration::seconds(1) <= now && now <= after, "{}", me.body);
    assert_local(&me.data()["organization"]["now"], now);
    let expires = parse_timestamp(me.data()["token"]["expires_at"].as_str().unwrap()).unwrap();
    assert_local(&me.data()["token"]["expires_at"], expires);

    // Inputs still take any offset, and `Z`: the same instant either way.
    let paid_at = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap() - time::Duration::hours(1);
    let r = server
        .write_id(&token, "charges_settle", id, json!({ "paid_at": paid_at.format(WITH_OFFSET).unwrap() }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_local(&r.data()["paid_at"], paid_at);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn events_webhooks_and_exports_write_instants_in_the_organizations_offset() {
    let providers =
        Providers::new(&ProviderConfig { allow_insecure_targets: true, ..ProviderConfig::default() });
    let server = TestServer::start_with_providers(providers.unwrap()).await;
    let (org, token) = tenant(&server, "Manaus Eventos").await;
    let (url, mut rx) = receiver(&[]).await;
    let hook = json!({ "url": url, "events": ["debtor.db.created"], "name": "ERP" });
    let r = server.write(&token, "webhooks_create", hook).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let secret = r.data()["secret"].as_str().unwrap().to_owned();
    let debtor = server.create_debtor(&token, "Francisca das Chagas Lima", &cpf(9302)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let stored = server.app.store.debtor(&org, debtor_id).await.unwrap().expect("the debtor");
    let events = server.read(&token, "events_list", "code=debtor.db.created").await;
    let event = &events.data()[0];
    let occurred_at = parse_timestamp(event["occurred_at"].as_str().unwrap()).unwrap();

    // The event's envelope and its payload.
    assert_local(&event["occurred_at"], occurred_at);
    assert_local(&event["data"]["object"]["created_at"], stored.created_at);
    let one = server.read_id(&token, "events_get", event["id"].as_str().unwrap()).await;
    assert_eq!(one.data(), event, "one event as listed");

    // The webhook's body, signed as sent and kept as sent.
    let app = &server.app;
    let sender = Sender { store: &app.store, providers: &app.providers, key: &app.key };
    assert_eq!(
        sender.send_due(OffsetDateTime::now_utc() + time::Duration::seconds(1)).await.unwrap().delivered,
        1
    );
    let sent = rx.recv().await.expect("a delivery");
    assert!(signed_by(secret.as_bytes(), &sent.body, sent.header("x-kobana-signature")), "{sent:?}");
    crate::webhooks::check_delivery(&sent);
    let body = sent.json();
    assert_local(&body["occurred_at"], occurred_at);
    assert_local(&body["object"]["created_at"], stored.created_at);
    assert_eq!(body["object"], event["data"]["object"], "the webhook carries what the event shows");

    // An export of the events: its cells are the API's.
    let r = server.write(&token, "exports_create", json!({ "kind": "events" })).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let export = r.data()["id"].as_str().unwrap().to_owned();
    kobana_dunning::engine::exports::run_once(&server.app.store, OffsetDateTime::now_utc()).await.unwrap();
    let uri = format!("kobana://dunning/exports/{export}/download.csv");
    let r = server.mcp_2026(&token, "resources/read", json!({ "uri": uri }), json!({})).await;
    let text = r.result()["contents"][0]["text"].as_str().unwrap().to_owned();
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_owned).collect();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let row = reader
        .records()
        .map(Result::unwrap)
        .find(|row| row[column("id")] == *event["id"].as_str().unwrap())
        .expect("the event's row");
    assert_local(&json!(row[column("occurred_at")]), occurred_at);
    let data: Value = serde_json::from_str(&row[column("data")]).unwrap();
    assert_local(&data["object"]["created_at"], stored.created_at);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_names_the_weekday_of_today_where_the_organization_is() {
    let server = TestServer::start().await;
    for zone in ["America/Noronha", "America/Rio_Branco", "Asia/Tokyo"] {
        let org = server.org(zone).await;
        admin::set_timezone(&server.app.store, &org, zone).await.expect("timezone");
        let token = server.token(&org, ALL).await;
        let local = Zone::named(zone).unwrap();
        let before = OffsetDateTime::now_utc();
        let rest = server.read(&token, "me", "").await;
        let call = json!({ "name": "dunning_me", "arguments": {} });
        let tool = server.mcp_2026(&token, "tools/call", call, json!({})).await.tool_json();
        let after = OffsetDateTime::now_utc();
        for organization in [&rest.data()["organization"], &tool["data"]["organization"]] {
            // The day and its weekday agree, and are today's there (before or after midnight).
            let expected: Vec<Value> = [before, after]
                .iter()
                .map(|at| {
                    let today = local.today(*at);
                    json!([today.to_string(), today.weekday().to_string().to_lowercase()])
                })
                .collect();
            let got = json!([organization["today"], organization["weekday"]]);
            assert!(expected.contains(&got), "{zone}: {organization}");
        }
    }
}
