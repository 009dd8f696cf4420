//! tools/list and tools/call: scope filtering, strict reads, in-process dispatch, the step-up,
//! and the confirmation of destructive tools, including every way a state can be refused.

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{ALL, TestServer, date_in};

fn elicitation() -> Value {
    json!({ "elicitation": { "form": {} } })
}

fn names(r: &crate::common::Resp) -> Vec<String> {
    r.result()["tools"].as_array().unwrap().iter().map(|t| t["name"].as_str().unwrap().to_string()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_list_is_filtered_by_scope_and_matches_the_catalogue() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let all = s.token(&org, ALL).await;
    let read_only = s.token(&org, "dunning.read").await;

    let r = s.mcp_2026(&all, "tools/list", json!({}), json!({})).await;
    let catalogue: Value = serde_json::from_str(kobana_dunning::operations::CATALOGUE_JSON).unwrap();
    assert_eq!(r.result()["tools"], catalogue["tools"], "tools/list is the committed catalogue");
    let mut sorted = names(&r);
    sorted.sort();
    assert_eq!(names(&r), sorted, "deterministic order");

    let r = s.mcp_2025(&read_only, "tools/list", json!({})).await;
    let visible = names(&r);
    assert!(
        visible.contains(&"dunning_charges_list".to_string()) && visible.contains(&"dunning_me".to_string())
    );
    assert!(!visible.iter().any(|n| n.contains("create") || n.contains("cancel")), "{visible:?}");
    for tool in r.result()["tools"].as_array().unwrap() {
        assert_eq!(tool["annotations"]["readOnlyHint"], true);
        assert_eq!(tool["annotations"]["openWorldHint"], false);
    }
    // The instructions explain what is hidden and which scope unlocks it.
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18" } });
    let r = s.mcp_raw("/mcp", Some(&read_only), &body, &[]).await;
    let instructions = r.result()["instructions"].as_str().unwrap();
    assert!(
        instructions.contains("dunning.write unlocks: ") && instructions.contains("dunning_charges_cancel"),
        "{instructions}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_dispatch_to_the_endpoint() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let id = debtor["id"].as_str().unwrap();

    let r = s
        .mcp_2025(&token, "tools/call", json!({ "name": "dunning_debtors_get", "arguments": { "id": id } }))
        .await;
    assert!(!r.is_tool_error());
    let text = r.result()["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("{\n  \"data\": {\n    \"id\""), "indented with 2 spaces: {text}");
    assert_eq!(r.tool_json()["data"]["name"], "Maria Souza");
    assert!(r.result().get("structuredContent").is_none());

    // A read is strict: an unknown argument is named, with a suggestion.
    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_charges_list", "arguments": { "statuss": "overdue" } }),
        )
        .await;
    assert!(r.is_tool_error());
    let body = r.tool_json();
    assert_eq!(body["error"]["code"], "VALIDATION_ERROR");
    assert_eq!(body["error"]["details"]["fields"][0]["field"], "statuss");
    assert_eq!(body["error"]["details"]["fields"][0]["suggestion"], "status");

    // A write passes extra fields to the endpoint, which names them.
    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_charges_create", "arguments": {
            "debtor_id": id, "amount": 100.5, "due_date": date_in(10), "colour": "blue" } }),
        )
        .await;
    assert!(r.is_tool_error());
    assert_eq!(r.tool_json()["error"]["details"]["fields"][0]["field"], "colour");

    // Endpoint errors the caller can act on come back as isError, with the endpoint's body.
    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_charges_create", "arguments": {
            "debtor_id": id, "amount": 10.005, "due_date": date_in(10) } }),
        )
        .await;
    assert!(r.is_tool_error());
    assert_eq!(r.tool_json()["error"]["details"]["fields"][0]["field"], "amount");

    let r = s
        .mcp_2025(
            &token,
            "tools/call",
            json!({ "name": "dunning_charges_create", "arguments": {
            "debtor_id": id, "amount": 100.5, "due_date": date_in(10), "idempotency_key": "k-1" } }),
        )
        .await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["data"]["amount"], 100.5);

    let r = s.mcp_2025(&token, "tools/call", json!({ "name": "dunning_nothing", "arguments": {} })).await;
    assert_eq!((r.status, r.rpc_code()), (200, -32602));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_beyond_the_scopes_are_a_step_up() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let read_only = s.token(&org, "dunning.read").await;
    // Even with an invalid body: the scope is checked first.
    let r = s
        .mcp_2025(
            &read_only,
            "tools/call",
            json!({ "name": "dunning_charges_create", "arguments": { "amount": "x" } }),
        )
        .await;
    assert_eq!((r.status, r.rpc_code()), (403, -32602));
    assert_eq!(r.body["error"]["data"]["required"], "dunning.write");
    assert_eq!(r.body["error"]["data"]["granted"], json!(["dunning.read"]));
    let challenge = r.header("www-authenticate").unwrap();
    assert!(
        challenge.contains("error=\"insufficient_scope\"")
            && challenge.contains("scope=\"dunning.read dunning.write\""),
        "{challenge}"
    );
    assert!(
        challenge
            .contains(&format!("resource_metadata=\"{}/.well-known/oauth-protected-resource/mcp\"", s.base))
    );
}

/// A pending charge of a new debtor.
async fn charge(s: &TestServer, token: &str, name: &str, document: &str) -> String {
    let debtor = s.create_debtor(token, name, document).await;
    let charge = s.create_charge(token, debtor["id"].as_str().unwrap(), 1250.0, &date_in(5)).await;
    charge["id"].as_str().unwrap().to_string()
}

async fn charge_status(s: &TestServer, token: &str, id: &str) -> (String, i64) {
    let r = s.read_id(token, "charges_get", id).await;
    (r.data()["status"].as_str().unwrap().to_string(), r.data()["version"].as_i64().unwrap())
}

fn cancel(id: &str) -> Value {
    json!({ "name": "dunning_charges_cancel", "arguments": { "id": id } })
}

fn answer(params: &Value, state: &str, action: &str, confirm: bool) -> Value {
    let mut p = params.clone();
    p["requestState"] = json!(state);
    p["inputResponses"] = json!({ "confirm": { "action": action, "content": { "confirm": confirm } } });
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_cannot_confirm_are_refused() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let r2025 = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    let r2026 = s.mcp_2026(&token, "tools/call", cancel(&id), json!({})).await;
    for r in [r2025, r2026] {
        assert!(r.is_tool_error(), "{}", r.body);
        let body = r.tool_json();
        assert_eq!(body["error"]["code"], "CONFIRMATION_REQUIRED");
        assert_eq!(body["error"]["details"]["required_capability"], json!({ "elicitation": { "form": {} } }));
        // The way out: a page where a signed-in user approves (tests/integration/approvals.rs).
        let url = body["error"]["details"]["approval_url"].as_str().unwrap();
        assert!(url.starts_with(&format!("{}/approvals/apr_", s.base)), "{url}");
    }
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".to_string(), 1), "nothing ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confirmation_accept_decline_and_replay() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;

    let first = s.mcp_2026(&token, "tools/call", cancel(&id), elicitation()).await;
    let result = first.result();
    assert_eq!(result["resultType"], "input_required", "{}", first.body);
    assert!(result.get("ttlMs").is_none() && result.get("cacheScope").is_none());
    let request = &result["inputRequests"]["confirm"];
    assert_eq!(request["method"], "elicitation/create");
    assert_eq!(request["params"]["mode"], "form");
    assert_eq!(request["params"]["requestedSchema"]["properties"]["confirm"]["type"], "boolean");
    let message = request["params"]["message"].as_str().unwrap();
    assert!(message.starts_with("Cancelar a cobrança") && message.contains(&id), "{message}");
    assert!(message.contains("R$ 1.250,00") && message.contains("“Maria Souza”"), "{message}");
    let state = result["requestState"].as_str().unwrap().to_string();
    assert_eq!(charge_status(&s, &token, &id).await.0, "pending", "asking changes nothing");

    // Declined: nothing changes, and the state is spent.
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &state, "decline", false), elicitation()).await;
    assert!(r.is_tool_error());
    assert_eq!(r.tool_json()["error"]["code"], "CONFIRMATION_DECLINED");
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".to_string(), 1));
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &state, "accept", true), elicitation()).await;
    assert_eq!(r.result()["resultType"], "input_required", "a consumed state is asked again");
    assert_eq!(charge_status(&s, &token, &id).await.0, "pending");

    // Accepted: runs once.
    let fresh = r.result()["requestState"].as_str().unwrap().to_string();
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &fresh, "accept", true), elicitation()).await;
    assert!(!r.is_tool_error(), "{}", r.body);
    assert_eq!(r.result()["resultType"], "complete");
    assert_eq!(r.tool_json()["data"]["status"], "canceled");
    let (_, version) = charge_status(&s, &token, &id).await;
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &fresh, "accept", true), elicitation()).await;
    assert_eq!(r.result()["resultType"], "input_required", "a replayed state never runs the tool");
    assert_eq!(charge_status(&s, &token, &id).await.1, version);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tampered_retargeted_stale_and_foreign_states_never_run() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let token = s.token(&org, ALL).await;
    let other_token = s.token(&org, ALL).await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let other = charge(&s, &token, "João Lima", "11144477735").await;
    let first = s.mcp_2026(&token, "tools/call", cancel(&id), elicitation()).await;
    let state = first.result()["requestState"].as_str().unwrap().to_string();

    // The state is opaque: encrypted, so nothing it binds can be read from it.
    let decoded = base64::Engine::decode(&base64::engine::general_purpose::URL_SAFE_NO_PAD, &state).unwrap();
    let readable = String::from_utf8_lossy(&decoded);
    for field in ["org_", "\"exp\"", "\"org\"", "dunning_charges_cancel", "token:", &org] {
        assert!(!readable.contains(field), "{field} readable in the state");
    }

    let mut tampered = state.clone().into_bytes();
    let i = tampered.len() / 3;
    tampered[i] = if tampered[i] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(tampered).unwrap();
    let cases = [
        ("tampered", &token, cancel(&id), tampered),
        ("re-targeted at another charge", &token, cancel(&other), state.clone()),
        (
            "other arguments",
            &token,
            json!({ "name": "dunning_charges_cancel", "arguments": { "id": id, "reason": "x" } }),
            state.clone(),
        ),
        ("another principal", &other_token, cancel(&id), state.clone()),
        ("garbage", &token, cancel(&id), "not-a-state".to_string()),
    ];
    for (case, who, params, presented) in cases {
        let r =
            s.mcp_2026(who, "tools/call", answer(&params, &presented, "accept", true), elicitation()).await;
        assert_eq!(r.result()["resultType"], "input_required", "{case}: {}", r.body);
    }
    assert_eq!(charge_status(&s, &token, &id).await.0, "pending");
    assert_eq!(charge_status(&s, &token, &other).await.0, "pending");

    // The object changed after the question: the answer no longer applies.
    let r = s.write_id(&token, "charges_update", &id, json!({ "description": "changed" })).await;
    assert_eq!(r.status, 200);
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &state, "accept", true), elicitation()).await;
    assert_eq!(r.result()["resultType"], "input_required", "stale version");
    assert_eq!(charge_status(&s, &token, &id).await.0, "pending");

    // Expired: a state sealed with the server's own key but past its expiry.
    let (_, version) = charge_status(&s, &token, &id).await;
    let principal = first_token_principal(&s, &token).await;
    let mut sorted = std::collections::BTreeMap::new();
    sorted.insert("id".to_string(), json!(id));
    let digest: String = Sha256::digest(format!("dunning_charges_cancel\n{}", json!(sorted)).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let expired = s
        .app
        .key
        .seal(&json!({
            "org": org, "principal": principal, "tool": "dunning_charges_cancel", "args": digest,
            "version": version, "exp": time::OffsetDateTime::now_utc().unix_timestamp() - 1, "nonce": "00",
        }))
        .expect("sealed");
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &expired, "accept", true), elicitation()).await;
    assert_eq!(r.result()["resultType"], "input_required", "expired");
    // The same state, unexpired, sealed under a key the server does not hold: refused.
    let payload = json!({
        "org": org, "principal": principal, "tool": "dunning_charges_cancel", "args": digest,
        "version": version, "exp": time::OffsetDateTime::now_utc().unix_timestamp() + 60, "nonce": "01",
    });
    let unknown = kobana_dunning::auth::ServerKey::from_material(&[9u8; 32]).unwrap().seal(&payload).unwrap();
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &unknown, "accept", true), elicitation()).await;
    assert_eq!(r.result()["resultType"], "input_required", "unknown key");
    assert_eq!(charge_status(&s, &token, &id).await.0, "pending");
    // Under the server's key it does run: the expiry, then the key, were the only differences.
    let valid = s.app.key.seal(&payload).expect("sealed");
    let r =
        s.mcp_2026(&token, "tools/call", answer(&cancel(&id), &valid, "accept", true), elicitation()).await;
    assert_eq!(r.tool_json()["data"]["status"], "canceled", "{}", r.body);
}

async fn first_token_principal(s: &TestServer, token: &str) -> String {
    let hash = kobana_dunning::auth::hash_token(token);
    let row = s.app.store.token_by_hash(&hash).await.unwrap().unwrap();
    let p = kobana_dunning::auth::Principal::from(row);
    let (kind, id) = p.actor();
    format!("{kind}:{id}")
}

/// Everything of an event but what differs by nature between two runs.
fn comparable(events: Vec<(String, Value)>) -> Vec<(String, Value)> {
    events
        .into_iter()
        .map(|(code, mut data)| {
            for key in ["id", "debtor_id", "created_at", "updated_at", "canceled_at", "issue_date"] {
                data["object"].as_object_mut().map(|o| o.remove(key));
            }
            if let Some(changes) = data["changes"].as_object_mut() {
                changes.remove("canceled_at");
            }
            (code, data)
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mcp_and_rest_make_the_same_change() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let via_mcp = charge(&s, &token, "Maria Souza", "52998224725").await;
    let via_rest = charge(&s, &token, "João Lima", "11144477735").await;

    let first = s.mcp_2026(&token, "tools/call", cancel(&via_mcp), elicitation()).await;
    let state = first.result()["requestState"].as_str().unwrap().to_string();
    let r = s
        .mcp_2026(&token, "tools/call", answer(&cancel(&via_mcp), &state, "accept", true), elicitation())
        .await;
    let mcp_request_id = r.header("x-request-id").unwrap().to_string();
    let mcp_object = r.tool_json()["data"].clone();
    let r = s.write_id(&token, "charges_cancel", &via_rest, json!({})).await;
    let rest_object = r.data().clone();

    let strip = |mut v: Value| {
        for key in ["id", "debtor_id", "debtor_name", "created_at", "updated_at", "canceled_at", "issue_date"]
        {
            v.as_object_mut().unwrap().remove(key);
        }
        v
    };
    assert_eq!(strip(mcp_object), strip(rest_object));
    let mcp_events = s.app.store.events_of(&org, &via_mcp).await.unwrap();
    let rest_events = s.app.store.events_of(&org, &via_rest).await.unwrap();
    let codes: Vec<&str> = mcp_events.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(codes, ["charge.db.created", "charge.canceled"]);
    let mut mcp_cmp = comparable(mcp_events);
    let mut rest_cmp = comparable(rest_events);
    for cmp in [&mut mcp_cmp, &mut rest_cmp] {
        for (_, data) in cmp.iter_mut() {
            data["object"].as_object_mut().map(|o| o.remove("debtor_name"));
        }
    }
    assert_eq!(mcp_cmp, rest_cmp);
    // The in-process call carries the MCP request's id into the event it causes.
    assert!(!mcp_request_id.is_empty());
    let request_ids = s.app.store.event_request_ids(&org, &via_mcp).await.unwrap();
    assert!(request_ids.contains(&mcp_request_id), "{request_ids:?} vs {mcp_request_id}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_write_token_can_confirm_and_bodies_are_checked_before_asking() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let token = s.token(&org, ALL).await;
    // The least a cancel needs: dunning.write, and dunning.read because the question shows the charge.
    let write_only = s.token(&org, "dunning.read dunning.write").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;

    // An unknown field is refused before the user is asked anything.
    let bad = json!({ "name": "dunning_charges_cancel", "arguments": { "id": id, "reasn": "x" } });
    let r = s.mcp_2026(&write_only, "tools/call", bad, elicitation()).await;
    assert!(r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["error"]["details"]["fields"][0]["suggestion"], "reason");

    // The question reads the charge through dunning_charges_get, which the token may run.
    let first = s.mcp_2026(&write_only, "tools/call", cancel(&id), elicitation()).await;
    assert_eq!(first.result()["resultType"], "input_required", "{}", first.body);
    let message = first.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap();
    assert!(message.contains("R$ 1.250,00"), "{message}");
    let state = first.result()["requestState"].as_str().unwrap();
    let r = s
        .mcp_2026(&write_only, "tools/call", answer(&cancel(&id), state, "accept", true), elicitation())
        .await;
    assert_eq!(r.tool_json()["data"]["status"], "canceled", "{}", r.body);
}

/// A day as the questions write it (`07/01/2027`).
fn br(day: &str) -> String {
    kobana_dunning::domain::dates::format_date_br(
        kobana_dunning::domain::dates::parse_date(&day[..10]).unwrap(),
    )
}

/// An amount as the questions write it (`R$ 1.250,00`).
fn brl(amount: &Value) -> String {
    kobana_dunning::domain::money::format_brl(kobana_dunning::domain::money::cents_from_json(amount).unwrap())
}

/// Quoted, as a question quotes what third parties wrote.
fn q(text: &Value) -> String {
    format!("“{}”", text.as_str().unwrap())
}

/// A send window that `now` (in São Paulo) is outside of, whatever the hour the test runs.
fn closed_window() -> (&'static str, &'static str) {
    let hour = (time::OffsetDateTime::now_utc() - time::Duration::hours(3)).hour();
    if hour < 12 { ("20:00", "21:00") } else { ("06:00", "07:00") }
}

/// What an agreement's question must show, from the simulation of the same terms (the numbers
/// `agreements_simulate` answers): down payment, each installment amount, first due date, total.
fn agreement_shows(simulation: &Value) -> Vec<String> {
    let mut shown = vec![format!("total de {}", brl(&simulation["total_amount"]))];
    let installments = simulation["installments"].as_array().unwrap();
    shown.push(format!("{} parcelas", installments.len()));
    for installment in installments {
        shown.push(brl(&installment["amount"]));
    }
    shown.push(format!("a primeira em {}", br(installments[0]["due_date"].as_str().unwrap())));
    if !simulation["down_payment_amount"].is_null() {
        shown.push(format!(
            "entrada de {} em {}",
            brl(&simulation["down_payment_amount"]),
            br(simulation["down_payment_due_date"].as_str().unwrap())
        ));
    }
    for (field, word) in
        [("fine_amount", "multa"), ("interest_amount", "juros"), ("discount_amount", "desconto")]
    {
        if simulation[field].as_f64().unwrap() > 0.0 {
            shown.push(format!("{word} de {}", brl(&simulation[field])));
        }
    }
    shown
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_destructive_tool_asks_about_its_real_object() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let address = json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let mut asked = 0;
    for op in kobana_dunning::operations::OPERATIONS.iter().filter(|op| op.confirm.is_some()) {
        // A fresh object of the kind the tool acts on (a debtor without charges can be deleted),
        // and everything the question must show of it: the object, each amount and date it changes.
        let r = s
            .write(
                &token,
                "debtors_create",
                json!({ "name": "Maria Souza", "document": crate::common::cpf(asked), "email": "maria@example.com" }),
            )
            .await;
        let debtor = r.data().clone();
        let debtor_id = debtor["id"].as_str().unwrap().to_string();
        let who = vec!["“Maria Souza”".to_string(), q(&debtor["document_formatted"])];
        let due = date_in(5);
        let charge = || async { s.create_charge(&token, &debtor_id, 1250.0, &due).await };
        // A charge and all a question about it shows: id, debtor, balance, due date.
        let about = |c: &Value| {
            vec![
                q(&c["id"]),
                "“Maria Souza”".to_string(),
                "R$ 1.250,00".to_string(),
                br(c["due_date"].as_str().unwrap()),
            ]
        };
        let policy = |window: Option<(&str, &str)>| {
            let mut body = json!({ "name": "Janela", "steps": [
                { "name": "Lembrete", "offset_days": 0, "channel": "email", "template": { "body": "Oi" } }
            ] });
            if let Some((start, end)) = window {
                body["send_window"] = json!({ "start": start, "end": end });
            }
            let s = &s;
            let token = &token;
            async move {
                let r = s.write(token, "collection_policies_create", body).await;
                assert_eq!(r.status, 201, "{}", r.body);
                r.data().clone()
            }
        };
        let with_address = || async {
            let r = s.write_id(&token, "debtors_update", &debtor_id, json!({ "address": address })).await;
            assert_eq!(r.status, 200, "{}", r.body);
        };
        let (arguments, shown): (Value, Vec<String>) = match op.operation_id {
            "charges_notify" | "notifications_create" => {
                // The charge follows a policy whose window is closed now: the message still leaves now.
                let (start, end) = closed_window();
                let p = policy(Some((start, end))).await;
                let body =
                    json!({ "debtor_id": debtor_id, "amount": 1250.0, "due_date": due, "cp_id": p["id"] });
                let r = s.write(&token, "charges_create", body).await;
                assert_eq!(r.status, 201, "{}", r.body);
                let c = r.data().clone();
                let mut shown = about(&c);
                shown.push("por e-mail".into());
                shown.push("para “maria@example.com”".into());
                shown.push(format!(
                    "está fora da janela de envio da régua “Janela” (dias úteis, {start}–{end})"
                ));
                shown.push("sai agora mesmo".into());
                let arguments = if op.operation_id == "charges_notify" {
                    json!({ "id": c["id"], "channel": "email" })
                } else {
                    json!({ "charge_id": c["id"], "channel": "email" })
                };
                (arguments, shown)
            }
            "notifications_resend" => {
                let c = charge().await;
                let r = s
                    .write_id(
                        &token,
                        "charges_notify",
                        c["id"].as_str().unwrap(),
                        json!({ "channel": "email" }),
                    )
                    .await;
                let n = r.data().clone();
                let mut shown =
                    vec![q(&n["id"]), "por e-mail".into(), "“maria@example.com”".into(), q(&c["id"])];
                shown.extend(about(&c));
                // The words sent again.
                shown.push(format!("Mensagem: “{}", n["body"].as_str().unwrap().lines().next().unwrap()));
                (json!({ "id": n["id"] }), shown)
            }
            "collection_policies_archive" | "collection_policies_delete" => {
                let p = policy(None).await;
                (json!({ "cp_id": p["id"] }), vec!["“Janela”".into(), "sua etapa".into()])
            }
            "collection_policies_steps_delete" => {
                let p = policy(None).await;
                let shown = vec!["“Lembrete”".into(), "e-mail, 0 dias".into(), "da régua “Janela”".into()];
                (json!({ "cp_id": p["id"], "step_id": p["steps"][0]["id"] }), shown)
            }
            "agreements_create" => {
                let late = s.create_charge(&token, &debtor_id, 1250.0, &date_in(-10)).await;
                let other = s.create_charge(&token, &debtor_id, 300.0, &date_in(-40)).await;
                let terms = json!({ "charge_ids": [late["id"], other["id"]], "installments_count": 3,
                                    "first_due_date": date_in(30), "down_payment_amount": 100.0,
                                    "discount_percentage": 5 });
                let simulation = s.write(&token, "agreements_simulate", terms.clone()).await;
                assert_eq!(simulation.status, 200, "{}", simulation.body);
                let mut shown = who.clone();
                shown.extend(agreement_shows(simulation.data()));
                shown.push(format!("{} (saldo de R$ 1.250,00)", q(&late["id"])));
                shown.push(format!("{} (saldo de R$ 300,00)", q(&other["id"])));
                (terms, shown)
            }
            "agreements_cancel" => {
                let late = s.create_charge(&token, &debtor_id, 1250.0, &date_in(-10)).await;
                let args = json!({ "charge_ids": [late["id"]], "installments_count": 3, "first_due_date": date_in(30) });
                let r = s.write(&token, "agreements_create", args).await;
                let a = r.data().clone();
                let mut shown = who.clone();
                shown.extend([q(&a["id"]), brl(&a["total_amount"]), "3 parcelas".into(), q(&late["id"])]);
                (json!({ "id": a["id"] }), shown)
            }
            "charges_decide" => {
                // The richest decision: an agreement over the charge, on terms the question spells out.
                let c = charge().await;
                let agreement = json!({ "installments_count": 2, "first_due_date": date_in(30), "down_payment_amount": 250.0 });
                let mut terms = agreement.clone();
                terms["charge_ids"] = json!([c["id"]]);
                let simulation = s.write(&token, "agreements_simulate", terms).await;
                assert_eq!(simulation.status, 200, "{}", simulation.body);
                let mut shown = about(&c);
                shown.extend(who.clone());
                shown.extend(agreement_shows(simulation.data()));
                let arguments = json!({ "id": c["id"], "decision": "agreement", "reason": "Proposta aceita.",
                                        "agreement": agreement });
                (arguments, shown)
            }
            "credit_bureau_reports_create" => {
                let c = charge().await;
                let mut shown = about(&c);
                shown.extend(who.clone());
                shown.push("no Boa Vista".into());
                (json!({ "charge_id": c["id"], "bureau": "boa_vista" }), shown)
            }
            "protests_create" => {
                with_address().await;
                let c = charge().await;
                let mut shown = about(&c);
                shown.extend(who.clone());
                shown.extend([
                    "“DS”".into(),
                    "“NF-77”".into(),
                    "Tabelionato de Protesto de “São Paulo”/“SP”".into(),
                ]);
                (json!({ "charge_id": c["id"], "title_type": "DS", "document_number": "NF-77" }), shown)
            }
            "payment_receivers_revoke" => {
                let r = s
                    .write(&token, "payment_receiver_create", json!({ "secret": "kobana-secret-0123456789" }))
                    .await;
                assert_eq!(r.status, 201, "{}", r.body);
                // Written at the organization's offset: its first ten characters are its day there.
                let created = br(r.data()["created_at"].as_str().unwrap());
                let shown = vec![q(&r.data()["id"]), format!("criado em {created}")];
                (json!({ "id": r.data()["id"] }), shown)
            }
            "webhooks_delete" | "webhooks_deliveries_retry" => {
                let hook = json!({ "url": "https://erp.example.com/hooks", "events": ["debtor.db.created"] });
                let r = s.write(&token, "webhooks_create", hook).await;
                assert_eq!(r.status, 201, "{}", r.body);
                let id = r.data()["id"].as_str().unwrap().to_owned();
                let url = "“https://erp.example.com/hooks”".to_string();
                if op.operation_id == "webhooks_deliveries_retry" {
                    s.create_debtor(&token, "Rita Gancho", &crate::common::cpf(100 + asked)).await;
                    let r = s.call(&token, "webhooks_deliveries_list", &[("id", &id)], "", None).await;
                    let delivery = &r.data()[0];
                    let shown = vec![q(&delivery["id"]), q(&delivery["event_code"]), url];
                    (json!({ "id": id, "delivery_id": delivery["id"] }), shown)
                } else {
                    (json!({ "id": id }), vec![url, "O tipo de evento que ele assina".into()])
                }
            }
            "credit_bureau_reports_remove" | "protests_cancel" => {
                // A report or protest needs an overdue charge, an address and a letter sent.
                with_address().await;
                let late = s.create_charge(&token, &debtor_id, 1250.0, &date_in(-10)).await;
                let late_id = late["id"].as_str().unwrap();
                let r = s.write_id(&token, "charges_notify", late_id, json!({ "channel": "letter" })).await;
                assert_eq!(r.status, 201, "{}", r.body);
                let (create, body, mut arguments, mut shown) = if op.operation_id == "protests_cancel" {
                    let body = json!({ "charge_id": late_id, "title_type": "DS", "document_number": "NF-1" });
                    (
                        "protests_create",
                        body,
                        json!({}),
                        vec!["“Tabelionato de Protesto de São Paulo”".to_string()],
                    )
                } else {
                    (
                        "credit_bureau_reports_create",
                        json!({ "charge_id": late_id }),
                        json!({ "reason": "contested" }),
                        vec!["no Serasa".to_string()],
                    )
                };
                let r = s.write(&token, create, body).await;
                assert_eq!(r.status, 201, "{}", r.body);
                arguments["id"] = r.data()["id"].clone();
                shown.extend(who.clone());
                shown.extend([q(&r.data()["id"]), q(&late["id"]), brl(&r.data()["amount"])]);
                (arguments, shown)
            }
            "debtors_delete" => {
                let mut shown = who.clone();
                shown.push("“maria@example.com”".into());
                (json!({ "id": debtor_id }), shown)
            }
            "debtors_archive" => {
                let c = charge().await;
                let mut shown = who.clone();
                shown.push("sua cobrança em aberto (R$ 1.250,00) continua".into());
                let _ = c;
                (json!({ "id": debtor_id }), shown)
            }
            _ => {
                // A tool with nothing more to show than its object: a fresh object of its target
                // (one fixture per target, whatever the tool), the spec's example arguments, and
                // what every question about that object shows.
                let confirm = op.confirm.expect("a destructive tool confirms");
                let target = confirm.target.unwrap_or_else(|| {
                    panic!("{}: no target to show; say here what its question must show", op.operation_id)
                });
                let (parameter, id, shown) = match target {
                    "debtors_get" => ("id", json!(debtor_id), who.clone()),
                    "charges_get" => {
                        let c = charge().await;
                        ("id", c["id"].clone(), about(&c))
                    }
                    "notifications_get" => {
                        let c = charge().await;
                        let r = s
                            .write_id(
                                &token,
                                "charges_notify",
                                c["id"].as_str().unwrap(),
                                json!({ "channel": "email" }),
                            )
                            .await;
                        assert_eq!(r.status, 201, "{}", r.body);
                        let n = r.data().clone();
                        let shown =
                            vec![q(&n["id"]), "por e-mail".into(), "“maria@example.com”".into(), q(&c["id"])];
                        ("id", n["id"].clone(), shown)
                    }
                    "collection_policies_get" => {
                        let p = policy(None).await;
                        ("cp_id", p["id"].clone(), vec!["“Janela”".into()])
                    }
                    "webhooks_get" => {
                        let hook = json!({ "url": "https://erp.example.com/hooks", "events": ["debtor.db.created"] });
                        let r = s.write(&token, "webhooks_create", hook).await;
                        assert_eq!(r.status, 201, "{}", r.body);
                        ("id", r.data()["id"].clone(), vec!["“https://erp.example.com/hooks”".into()])
                    }
                    other => panic!(
                        "{}: no fixture for an object of {other}, its target; add one to this test",
                        op.operation_id
                    ),
                };
                let mut arguments =
                    crate::spec_lists::body_example(op.operation_id).unwrap_or_else(|| json!({}));
                arguments[confirm.target_id.unwrap_or(parameter)] = id;
                (arguments, shown)
            }
        };
        let params = json!({ "name": op.tool_name, "arguments": arguments });
        let r = s.mcp_2026(&token, "tools/call", params, elicitation()).await;
        let message = r.result()["inputRequests"]["confirm"]["params"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(
            !message.starts_with("Confirmar dunning_"),
            "{}: the template did not render: {message} {}",
            op.tool_name,
            r.body
        );
        assert!(!message.contains("“”"), "{}: {message}", op.tool_name);
        for shown in &shown {
            assert!(message.contains(shown.as_str()), "{}: {shown} is not in: {message}", op.tool_name);
        }
        asked += 1;
    }
    assert_eq!(
        asked as usize,
        crate::spec_lists::destructive_tools().len(),
        "every destructive tool was asked"
    );
}

/// A question stays short whatever the call: an agreement over many charges names the first ten
/// and counts the rest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreement_over_many_charges_names_the_first_ten_and_counts_the_rest() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let id = debtor["id"].as_str().unwrap();
    let mut ids = Vec::new();
    for day in 0..25 {
        ids.push(s.create_charge(&token, id, 100.0, &date_in(-5 - day)).await["id"].clone());
    }
    let params = json!({ "name": "dunning_agreements_create",
                         "arguments": { "charge_ids": ids, "installments_count": 12, "first_due_date": date_in(30) } });
    let r = s.mcp_2026(&token, "tools/call", params, elicitation()).await;
    let message = r.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("as 25 cobranças") && message.contains(" e mais 15:"), "{message}");
    for (i, id) in ids.iter().enumerate() {
        assert_eq!(message.contains(id.as_str().unwrap()), i < 10, "charge {i}: {message}");
    }
    assert!(message.len() < 2_000, "{} bytes: {message}", message.len());
}

/// Terms that cannot make an agreement are refused before anyone is asked, naming the fields as
/// the call named them (a decision's terms sit under `agreement`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn terms_the_simulation_refuses_are_refused_before_asking() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let charge = s.create_charge(&token, debtor["id"].as_str().unwrap(), 100.0, &date_in(-5)).await;
    let terms =
        json!({ "installments_count": 2, "first_due_date": date_in(30), "down_payment_amount": 5000.0 });
    let decide = json!({ "name": "dunning_charges_decide", "arguments": {
        "id": charge["id"], "decision": "agreement", "reason": "Proposta.", "agreement": terms } });
    let r = s.mcp_2026(&token, "tools/call", decide, elicitation()).await;
    assert!(r.is_tool_error(), "{}", r.body);
    let fields = r.tool_json()["error"]["details"]["fields"].clone();
    assert_eq!(fields[0]["field"], "agreement.down_payment_amount", "{fields}");
    let mut create = terms.clone();
    create["charge_ids"] = json!([charge["id"]]);
    let create = json!({ "name": "dunning_agreements_create", "arguments": create });
    let r = s.mcp_2026(&token, "tools/call", create, elicitation()).await;
    assert!(r.is_tool_error(), "{}", r.body);
    assert_eq!(r.tool_json()["error"]["details"]["fields"][0]["field"], "down_payment_amount", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_only_token_never_sees_a_debtor() {
    let s = TestServer::start().await;
    let org = s.org("Org").await;
    let token = s.token(&org, ALL).await;
    let write_only = s.token(&org, "dunning.write").await;
    let r = s
        .write(
            &token,
            "debtors_create",
            json!({ "name": "Maria Souza", "document": "52998224725", "email": "maria@example.com" }),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.data()["id"].as_str().unwrap().to_string();
    let personal = ["Maria", "52998224725", "529.982.247-25", "maria@example.com"];
    let shows_nothing = |what: &str, body: &Value| {
        let text = body.to_string();
        for data in personal {
            assert!(!text.contains(data), "{what} shows {data}: {text}");
        }
    };

    // REST: a write answers the object, so it needs dunning.read too; even an empty PATCH.
    for (op, body) in
        [("debtors_update", Some(json!({}))), ("debtors_delete", None), ("debtors_archive", None)]
    {
        let r = s.call(&write_only, op, &[("id", &id)], "", body).await;
        assert_eq!(r.status, 403, "{op}: {}", r.body);
        assert_eq!(r.code(), "INSUFFICIENT_SCOPE");
        assert_eq!(r.body["error"]["details"]["required"], "dunning.read", "{op}");
        let challenge = r.header("www-authenticate").unwrap();
        assert!(challenge.contains("scope=\"dunning.read dunning.write\""), "{challenge}");
        shows_nothing(op, &r.body);
    }

    // MCP: the step-up (-32602, the missing scope), before any question is asked.
    for tool in ["dunning_debtors_delete", "dunning_debtors_update", "dunning_debtors_archive"] {
        let params = json!({ "name": tool, "arguments": { "id": id } });
        let r = s.mcp_2026(&write_only, "tools/call", params, elicitation()).await;
        assert_eq!((r.status, r.rpc_code()), (403, -32602), "{tool}: {}", r.body);
        assert_eq!(r.body["error"]["data"]["required"], "dunning.read", "{tool}");
        let challenge = r.header("www-authenticate").unwrap();
        assert!(challenge.contains("scope=\"dunning.read dunning.write\""), "{challenge}");
        shows_nothing(tool, &r.body);
    }

    // Nothing but dunning_me is listed, and the instructions say which scope unlocks the rest.
    let r = s.mcp_2025(&write_only, "tools/list", json!({})).await;
    assert_eq!(names(&r), ["dunning_me"]);
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "protocolVersion": "2025-06-18" } });
    let r = s.mcp_raw("/mcp", Some(&write_only), &body, &[]).await;
    let instructions = r.result()["instructions"].as_str().unwrap();
    let line = instructions.lines().find(|l| l.contains("dunning.read unlocks: ")).expect(instructions);
    assert!(line.contains("dunning_debtors_delete") && line.contains("dunning_debtors_get"), "{line}");

    // A token missing both scopes is told of both.
    let notify_only = s.token(&org, "dunning.notify").await;
    let r = s.call(&notify_only, "debtors_update", &[("id", &id)], "", Some(json!({}))).await;
    assert_eq!(r.status, 403, "{}", r.body);
    assert_eq!(r.body["error"]["details"]["required"], "dunning.read dunning.write");
    assert!(r.header("www-authenticate").unwrap().contains("scope=\"dunning.read dunning.write\""));

    let r = s.read_id(&token, "debtors_get", &id).await;
    assert_eq!((r.status, r.data()["version"].clone()), (200, json!(1)), "nothing changed");
}
