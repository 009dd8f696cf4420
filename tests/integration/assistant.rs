//! What an assistant needs, tried from the model's side through MCP alone: search that finds a
//! person by any word of her name, ids completed from their first characters, the sums a person
//! asks for in one call, confirmations that say plainly what happens and what will be sent, and
//! a scripted conversation over all of it.

use serde_json::{Value, json};

use crate::common::{TestServer, cpf, date_in};

/// A tool's answer (the JSON of its text), through a 2026-07-28 client without elicitation.
async fn tool(s: &TestServer, token: &str, name: &str, arguments: Value) -> Value {
    let r = s.mcp_2026(token, "tools/call", json!({ "name": name, "arguments": arguments }), json!({})).await;
    r.tool_json()
}

fn ids(answer: &Value) -> Vec<String> {
    answer["data"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap().to_string()).collect()
}

/// Maria Souza, reachable by e-mail; her id.
async fn maria_with_email(s: &TestServer, token: &str, seed: u32) -> String {
    let body = json!({ "name": "Maria Souza", "document": cpf(seed), "email": "maria@example.com" });
    let r = s.write(token, "debtors_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.data()["id"].as_str().unwrap().to_string()
}

fn complete(uri: &str, value: &str) -> Value {
    json!({ "ref": { "type": "ref/resource", "uri": uri }, "argument": { "name": "id", "value": value } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_finds_a_person_by_any_word_of_her_name() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let mariana = s.create_debtor(&token, "Mariana Costa Ribeiro", &cpf(9101)).await;
    s.create_debtor(&token, "Ribamar Souza", &cpf(9102)).await;
    let id = mariana["id"].as_str().unwrap().to_string();
    let charge = s.create_charge(&token, &id, 180.0, &date_in(-5)).await;

    for q in [
        "Ribeiro",
        "ribei",
        "RIBEIRO",
        "costa rib",
        "Mariana",
        mariana["document_formatted"].as_str().unwrap(),
    ] {
        let found = tool(&s, &token, "dunning_debtors_list", json!({ "q": q })).await;
        assert_eq!(ids(&found), std::slice::from_ref(&id), "q={q}: {found}");
        assert_eq!(found["meta"]["total"], 1, "q={q}: {found}");
    }
    // A debtor found by two words, or by her first word and a later one, counts once.
    s.create_debtor(&token, "Rita Souza Souza", &cpf(9103)).await;
    for (q, total) in [("souza", 2), ("ri", 3)] {
        for arguments in [json!({ "q": q }), json!({ "q": q, "status": "active" })] {
            let found = tool(&s, &token, "dunning_debtors_list", arguments.clone()).await;
            assert_eq!(found["meta"]["total"], total, "{arguments}: {found}");
            assert_eq!(found["data"].as_array().unwrap().len(), total, "{arguments}: {found}");
        }
    }
    let found = tool(&s, &token, "dunning_charges_list", json!({ "q": "Ribeiro" })).await;
    assert_eq!(ids(&found), [charge["id"].as_str().unwrap()], "{found}");
    // Word starts, not substrings; and the words follow a rename.
    let none = tool(&s, &token, "dunning_debtors_list", json!({ "q": "beiro" })).await;
    assert_eq!(none["meta"]["total"], 0, "{none}");
    let r = s.write_id(&token, "debtors_update", &id, json!({ "name": "Mariana Costa Lima" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let renamed = tool(&s, &token, "dunning_debtors_list", json!({ "q": "Ribeiro" })).await;
    assert_eq!(renamed["meta"]["total"], 0, "{renamed}");
    let renamed = tool(&s, &token, "dunning_charges_list", json!({ "q": "lima" })).await;
    assert_eq!(renamed["meta"]["total"], 1, "{renamed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ids_complete_from_their_first_characters() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Carla Nunes", &cpf(9201)).await;
    let charge = s.create_charge(&token, debtor["id"].as_str().unwrap(), 50.0, &date_in(3)).await;
    let id = charge["id"].as_str().unwrap();
    let uri = "kobana://dunning/charges/{id}";
    for value in ["c", "chg_", &id[..11]] {
        let r = s.mcp_2025(&token, "completion/complete", complete(uri, value)).await;
        let values = r.result()["completion"]["values"].as_array().unwrap().clone();
        assert!(values.contains(&json!(id)), "{value}: {}", r.body);
    }
    // By name still.
    let r = s.mcp_2025(&token, "completion/complete", complete(uri, "Carla")).await;
    assert_eq!(r.result()["completion"]["values"], json!([id]), "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_list_says_its_sums_over_every_page() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let ana = s.create_debtor(&token, "Ana Ribeiro", &cpf(9301)).await;
    let bia = s.create_debtor(&token, "Bia Torres", &cpf(9302)).await;
    let (ana, bia) = (ana["id"].as_str().unwrap(), bia["id"].as_str().unwrap());
    s.create_charge(&token, ana, 100.0, &date_in(-10)).await;
    let partly = s.create_charge(&token, ana, 250.5, &date_in(-20)).await;
    s.create_charge(&token, bia, 1000.0, &date_in(-30)).await;
    s.create_charge(&token, bia, 40.0, &date_in(10)).await;
    let r = s
        .write_id(&token, "charges_settle", partly["id"].as_str().unwrap(), json!({ "paid_amount": 50.5 }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // "ana" starts a later word of Caio's name, and the external id of a charge of Ana's: that
    // charge is in two of the search's ranges and counts once.
    let caio = s.create_debtor(&token, "Caio Anastácio", &cpf(9303)).await;
    s.create_charge(&token, caio["id"].as_str().unwrap(), 7.0, &date_in(-5)).await;
    let both = json!({ "debtor_id": ana, "amount": 3.0, "due_date": date_in(5), "external_id": "ANA-7" });
    tool(&s, &token, "dunning_charges_create", both).await;

    // Status only (kept counts), another filter (summed) and a search: one page, every page's sums.
    for (arguments, amount, balance) in [
        (json!({ "status": "overdue", "per_page": 1 }), 1357.5, 1307.0),
        (json!({ "status": "overdue", "debtor_id": ana, "per_page": 1 }), 350.5, 300.0),
        (json!({ "q": "ribeiro", "per_page": 1 }), 353.5, 303.0),
        (json!({ "q": "ribeiro", "status": "overdue", "per_page": 1 }), 350.5, 300.0),
        (json!({ "q": "ribeiro", "due_date_from": date_in(-15), "per_page": 1 }), 103.0, 103.0),
        (json!({ "q": "ana", "per_page": 1 }), 360.5, 310.0),
        (json!({ "q": "ana", "status": "overdue", "per_page": 1 }), 357.5, 307.0),
        (json!({ "per_page": 1 }), 1400.5, 1350.0),
    ] {
        let answer = tool(&s, &token, "dunning_charges_list", arguments.clone()).await;
        assert_eq!(answer["data"].as_array().unwrap().len(), 1, "{answer}");
        assert_eq!(answer["meta"]["amount_sum"], json!(amount), "{arguments}: {answer}");
        assert_eq!(answer["meta"]["balance_sum"], json!(balance), "{arguments}: {answer}");
    }
    // Paid in full, the charge leaves the overdue sums of its debtor's search.
    let r = s
        .write_id(&token, "charges_settle", partly["id"].as_str().unwrap(), json!({ "paid_amount": 200.0 }))
        .await;
    assert_eq!((r.status, r.data()["status"].clone()), (200, json!("paid")), "{}", r.body);
    let answer =
        tool(&s, &token, "dunning_charges_list", json!({ "q": "ribeiro", "status": "overdue" })).await;
    assert_eq!(
        (answer["meta"]["total"].clone(), answer["meta"]["amount_sum"].clone()),
        (json!(1), json!(100.0))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_destructive_tool_says_beforehand_and_afterwards_in_plain_words_that_the_user_approves() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    // Said once, where every conversation reads it: the instructions say that a tool marked
    // destructive needs the user's approval, and each such tool is marked (the catalogue budget
    // leaves the sentence out of every description).
    let r = s.mcp_2025(&token, "initialize", json!({ "protocolVersion": "2025-06-18" })).await;
    let instructions = r.result()["instructions"].as_str().unwrap().to_string();
    assert!(instructions.contains("Tools marked destructive need the user's approval"), "{instructions}");
    let tools = s.mcp_2026(&token, "tools/list", json!({}), json!({})).await;
    let marked = tools.result()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["annotations"]["destructiveHint"] == true)
        .count();
    let confirmed = kobana_dunning::operations::OPERATIONS.iter().filter(|op| op.confirm.is_some()).count();
    assert_eq!(marked, confirmed, "every tool that asks the user is marked destructive");

    let debtor = s.create_debtor(&token, "Maria Souza", &cpf(9401)).await;
    let charge = s.create_charge(&token, debtor["id"].as_str().unwrap(), 80.0, &date_in(20)).await;
    let call = json!({ "name": "dunning_charges_cancel", "arguments": { "id": charge["id"] } });
    for r in [
        s.mcp_2025(&token, "tools/call", call.clone()).await,
        s.mcp_2026(&token, "tools/call", call.clone(), json!({})).await,
    ] {
        let error = &r.tool_json()["error"];
        assert_eq!(error["code"], "CONFIRMATION_REQUIRED", "{}", r.body);
        let message = error["message"].as_str().unwrap();
        for word in ["session", "stateless", "elicitation", "capability", "protocol"] {
            assert!(!message.to_lowercase().contains(word), "{word} in: {message}");
        }
        let url = error["details"]["approval_url"].as_str().unwrap();
        assert!(message.contains(url), "{message}");
        assert!(
            message.contains("call dunning_charges_cancel again with exactly the same arguments"),
            "{message}"
        );
        assert!(message.contains("10 minutes") && message.contains("Nothing was changed"), "{message}");
        // A charge that falls due in 20 days "vence", it has not "vencida".
        assert!(message.contains(&format!("que vence em {}", br(&date_in(20)))), "{message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approving_a_message_shows_what_the_debtor_will_read() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = maria_with_email(&s, &token, 9501).await;
    let overdue = s.create_charge(&token, &debtor, 320.0, &date_in(-4)).await;
    let call = json!({ "name": "dunning_charges_notify", "arguments": { "id": overdue["id"], "channel": "email",
        "template": { "subject": "Lembrete de {{amount}}", "body": "Olá {{debtor_name}}, a cobrança venceu em {{due_date}}." } } });
    let r = s.mcp_2026(&token, "tools/call", call, json!({ "elicitation": { "form": {} } })).await;
    let message = r.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap().to_string();
    assert!(message.contains(&format!("que venceu em {}", br(&date_in(-4)))), "{message}");
    assert!(message.contains("Assunto: “Lembrete de R$ 320,00”"), "{message}");
    assert!(
        message.contains(&format!("Olá Maria Souza, a cobrança venceu em {}.", br(&date_in(-4)))),
        "{message}"
    );

    // The same message sent with notifications_create, which names the charge in its arguments.
    let call = json!({ "name": "dunning_notifications_create", "arguments": { "charge_id": overdue["id"], "channel": "sms" } });
    let r = s.mcp_2026(&token, "tools/call", call, json!({ "elicitation": { "form": {} } })).await;
    let message = r.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap().to_string();
    assert!(message.contains("a “Maria Souza”") && message.contains("R$ 320,00"), "{message}");
    assert!(
        message.contains("Mensagem: “") && !message.contains("Assunto:"),
        "an SMS has no subject: {message}"
    );
}

/// A conversation an assistant holds with a person, each answer from one call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scripted_conversation_needs_one_call_per_question() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let mariana = s.create_debtor(&token, "Mariana Costa Ribeiro", &cpf(9601)).await;
    let joao = s.create_debtor(&token, "João Pereira", &cpf(9602)).await;
    let (mariana, joao) = (mariana["id"].as_str().unwrap(), joao["id"].as_str().unwrap());
    let this_week = s.create_charge(&token, mariana, 90.0, &date_in(2)).await;
    s.create_charge(&token, joao, 45.0, &date_in(12)).await;
    s.create_charge(&token, joao, 300.0, &date_in(-15)).await;
    s.create_charge(&token, mariana, 120.25, &date_in(-40)).await;

    // "What day is it?" — the organization's today.
    let me = tool(&s, &token, "dunning_me", json!({})).await;
    let today = me["data"]["organization"]["today"].as_str().unwrap().to_string();
    let day = kobana_dunning::domain::dates::parse_date(&today).unwrap();
    let week_end = kobana_dunning::domain::dates::format_date(day + time::Duration::days(6));

    // "Which charges fall due this week?" — one call.
    let due =
        tool(&s, &token, "dunning_charges_list", json!({ "due_date_from": today, "due_date_to": week_end }))
            .await;
    assert_eq!(ids(&due), [this_week["id"].as_str().unwrap()], "{due}");

    // "How much is overdue in total?" — one call, whatever the page size.
    let overdue =
        tool(&s, &token, "dunning_charges_list", json!({ "status": "overdue", "per_page": 1 })).await;
    assert_eq!(overdue["meta"]["balance_sum"], json!(420.25), "{overdue}");

    // "Find Ribeiro."
    let found = tool(&s, &token, "dunning_debtors_list", json!({ "q": "Ribeiro" })).await;
    assert_eq!(ids(&found), [mariana], "{found}");

    // "Cancel João's overdue charge." — the refusal is for a person, not a protocol.
    let charge =
        tool(&s, &token, "dunning_charges_list", json!({ "debtor_id": joao, "status": "overdue" })).await;
    let call = json!({ "name": "dunning_charges_cancel", "arguments": { "id": charge["data"][0]["id"] } });
    let r = s.mcp_2025(&token, "tools/call", call).await;
    let text = r.result()["content"][0]["text"].as_str().unwrap().to_string();
    let error: Value = serde_json::from_str(&text).unwrap();
    let message = error["error"]["message"].as_str().unwrap().to_lowercase();
    for word in ["session", "stateless", "elicitation", "capability"] {
        assert!(!message.contains(word), "{word}: {message}");
    }
}

/// `YYYY-MM-DD` as `DD/MM/YYYY`.
/// The fields an error answer names, sorted.
fn fields_named(answer: &Value) -> Vec<String> {
    let fields = answer["error"]["details"]["fields"].as_array().unwrap();
    let mut named: Vec<String> = fields.iter().map(|f| f["field"].as_str().unwrap().to_string()).collect();
    named.sort();
    named
}

fn br(day: &str) -> String {
    format!("{}/{}/{}", &day[8..10], &day[5..7], &day[..4])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_mistake_of_a_call_comes_in_one_answer_with_the_form_wanted() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = s.create_debtor(&token, "Maria Souza", &cpf(9701)).await;

    // Money as a person writes it, a date as a person writes it, and an unknown argument.
    let answer = tool(
        &s,
        &token,
        "dunning_charges_create",
        json!({ "debtor_id": debtor["id"], "amount": "R$ 1.250,00", "due_date": "17/12/2026", "descripton": "x" }),
    )
    .await;
    let fields = answer["error"]["details"]["fields"].as_array().unwrap().clone();
    let message = |name: &str| {
        fields.iter().find(|f| f["field"] == name).map(|f| f["message"].as_str().unwrap().to_string())
    };
    assert_eq!(fields.len(), 3, "{answer}");
    assert!(message("amount").unwrap().contains("e.g. 1250.00"), "{answer}");
    assert!(message("amount").unwrap().contains("reais"), "{answer}");
    assert!(message("due_date").unwrap().contains("e.g. 2026-12-17"), "{answer}");
    assert_eq!(message("descripton").as_deref(), Some("is not a known field"), "{answer}");

    // A wrong type beside a wrong check digit and a wrong e-mail: all three at once.
    let answer = tool(
        &s,
        &token,
        "dunning_debtors_create",
        json!({ "name": 42, "document": "529.982.247-26", "email": "maria@" }),
    )
    .await;
    let named = fields_named(&answer);
    assert_eq!(named, ["document", "email", "name"], "{answer}");

    // Money in centavos as text, an issue date after the due date and a mistyped boleto line:
    // the rules between fields and inside a code come beside the schema's, not a call later.
    let answer = tool(
        &s,
        &token,
        "dunning_charges_create",
        json!({
            "debtor_id": debtor["id"],
            "amount": "125000",
            "issue_date": "2026-12-20",
            "due_date": "2026-12-17",
            "boleto": { "line": "00190.00009 01234.567004 00000.000018 1 10000000125000" },
        }),
    )
    .await;
    let named = fields_named(&answer);
    assert_eq!(named, ["amount", "boleto.line", "issue_date"], "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notification_rows_are_small_and_filter_by_day_status_and_channel() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let debtor = maria_with_email(&s, &token, 9801).await;
    let charge = s.create_charge(&token, &debtor, 75.0, &date_in(-3)).await;
    for _ in 0..2 {
        let body = json!({ "charge_id": charge["id"], "channel": "email" });
        assert_eq!(s.write(&token, "notifications_create", body).await.status, 201);
    }
    let me = tool(&s, &token, "dunning_me", json!({})).await;
    let today = me["data"]["organization"]["today"].as_str().unwrap().to_string();
    let tomorrow = kobana_dunning::domain::dates::format_date(
        kobana_dunning::domain::dates::parse_date(&today).unwrap() + time::Duration::days(1),
    );

    let all = tool(&s, &token, "dunning_notifications_list", json!({})).await;
    assert_eq!(all["meta"]["total"], 2, "{all}");
    for row in all["data"].as_array().unwrap() {
        assert!(row.get("body").is_none() && row.get("to").is_none(), "no message nor address: {row}");
        assert!(row["subject"].is_string(), "{row}");
    }
    let one = tool(&s, &token, "dunning_notifications_get", json!({ "id": all["data"][0]["id"] })).await;
    assert!(one["data"]["body"].as_str().unwrap().contains("Maria Souza"), "{one}");

    for (arguments, total) in [
        (json!({ "created_from": today, "created_to": today }), 2),
        (json!({ "created_from": tomorrow }), 0),
        (json!({ "sent_from": today, "sent_to": today, "status": "sent", "channel": "email" }), 2),
        (json!({ "sent_to": &today[..10], "channel": "sms" }), 0),
    ] {
        let found = tool(&s, &token, "dunning_notifications_list", arguments.clone()).await;
        assert_eq!(found["meta"]["total"], total, "{arguments}: {found}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn debtors_sort_by_what_they_owe() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let mut ids_by_debt = Vec::new();
    for (n, (open, overdue)) in [(300.0, 1.0), (50.0, 500.0), (10.0, 20.0)].into_iter().enumerate() {
        let debtor = s.create_debtor(&token, &format!("Pessoa {n}"), &cpf(9900 + n as u32)).await;
        let id = debtor["id"].as_str().unwrap().to_string();
        s.create_charge(&token, &id, open, &date_in(5)).await;
        s.create_charge(&token, &id, overdue, &date_in(-5)).await;
        ids_by_debt.push(id);
    }
    let by_overdue = tool(
        &s,
        &token,
        "dunning_debtors_list",
        json!({ "sort_by": "overdue_amount", "sort_order": "desc" }),
    )
    .await;
    assert_eq!(
        ids(&by_overdue),
        [ids_by_debt[1].clone(), ids_by_debt[2].clone(), ids_by_debt[0].clone()],
        "{by_overdue}"
    );
    let by_open =
        tool(&s, &token, "dunning_debtors_list", json!({ "sort_by": "open_amount", "sort_order": "desc" }))
            .await;
    assert_eq!(
        ids(&by_open),
        [ids_by_debt[1].clone(), ids_by_debt[0].clone(), ids_by_debt[2].clone()],
        "{by_open}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn list_rows_leave_addresses_and_messages_to_the_get_operations() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let address = json!({ "zipcode": "01310-100", "street": "Av. Paulista", "number": "1000",
        "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let body = json!({ "name": "Maria Souza", "document": cpf(9401), "address": address });
    let r = s.write(&token, "debtors_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let debtor = r.data()["id"].as_str().unwrap().to_string();
    let policy = json!({ "name": "Régua", "steps": [
        { "offset_days": 0, "channel": "email", "template": { "subject": "Hoje", "body": "Vence hoje." } } ] });
    let r = s.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let cp = r.data()["id"].as_str().unwrap().to_string();

    let rows = tool(&s, &token, "dunning_debtors_list", json!({})).await;
    assert_eq!(rows["data"][0]["id"], debtor.as_str(), "{rows}");
    assert!(rows["data"][0].get("address").is_none(), "{rows}");
    let one = tool(&s, &token, "dunning_debtors_get", json!({ "id": debtor })).await;
    assert_eq!(one["data"]["address"]["city"], "São Paulo", "{one}");

    let rows = tool(&s, &token, "dunning_collection_policies_list", json!({})).await;
    assert!(rows["data"][0].get("steps").is_none(), "{rows}");
    assert_eq!(rows["data"][0]["steps_count"], 1, "{rows}");
    let rows = tool(&s, &token, "dunning_collection_policies_steps_list", json!({ "cp_id": cp })).await;
    assert_eq!(rows["data"][0]["offset_days"], 0, "{rows}");
    assert!(rows["data"][0].get("template").is_none(), "{rows}");
    let one = tool(&s, &token, "dunning_collection_policies_get", json!({ "cp_id": cp })).await;
    assert_eq!(one["data"]["steps"][0]["template"]["body"], "Vence hoje.", "{one}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_preview_marks_the_days_already_gone() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let policy = json!({ "name": "Régua", "steps": [
        { "offset_days": 0, "channel": "email", "template": { "subject": "Hoje", "body": "Vence hoje." } },
        { "offset_days": 30, "channel": "email", "template": { "subject": "Atraso", "body": "Venceu." } } ] });
    let r = s.write(&token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let cp = r.data()["id"].clone();
    let preview = tool(
        &s,
        &token,
        "dunning_collection_policies_preview",
        json!({ "cp_id": cp, "due_date": date_in(-10) }),
    )
    .await;
    let past: Vec<Value> =
        preview["data"]["schedule"].as_array().unwrap().iter().map(|s| s["past"].clone()).collect();
    assert_eq!(past, [json!(true), json!(false)], "{preview}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn far_dates_are_a_clear_error_everywhere() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let (cp, _) = two_step_policy(&s, &token).await;
    let debtor = maria_with_email(&s, &token, 9971).await;
    for far in ["9999-12-31", "0001-01-01"] {
        let r = s
            .call(&token, "collection_policies_preview", &[("cp_id", &cp)], &format!("due_date={far}"), None)
            .await;
        assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
        assert!(r.body.to_string().contains("from 1900-01-01 to 2199-12-31"), "{}", r.body);
        let body = json!({ "debtor_id": debtor, "amount": 10.0, "due_date": far });
        let r = s.write(&token, "charges_create", body).await;
        assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
        let r = s.read(&token, "charges_list", &format!("due_date_from={far}")).await;
        assert_eq!((r.status, r.code()), (422, "VALIDATION_ERROR"), "{}", r.body);
    }
}

/// The instant a preview row says a step acts, as the API writes instants: at the
/// organization's offset (São Paulo's, the default zone).
fn preview_instant(row: &Value) -> String {
    let day = kobana_dunning::domain::dates::parse_date(row["send_date"].as_str().unwrap()).unwrap();
    let (h, m) = row["send_time"].as_str().unwrap().split_once(':').unwrap();
    let time = time::Time::from_hms(h.parse().unwrap(), m.parse().unwrap(), 0).unwrap();
    let zone = kobana_dunning::domain::dates::Zone::default_zone();
    in_the_organization_offset(zone.instant(day, time))
}

/// An instant as answers write it: at the (default) organization zone's offset.
fn in_the_organization_offset(at: time::OffsetDateTime) -> String {
    let zone = kobana_dunning::domain::dates::Zone::default_zone();
    let rfc3339 = time::macros::format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6][offset_hour sign:mandatory]:[offset_minute]"
    );
    at.to_offset(zone.offset_at(at)).format(rfc3339).unwrap()
}

/// A policy that e-mails three days before the due date and on it; its id and its steps' ids.
async fn two_step_policy(s: &TestServer, token: &str) -> (String, Vec<String>) {
    let policy = json!({ "name": "Régua", "steps": [
        { "offset_days": -3, "channel": "email", "template": { "subject": "Logo", "body": "Vence logo." } },
        { "offset_days": 0, "channel": "email", "template": { "subject": "Hoje", "body": "Vence hoje." } } ] });
    let r = s.write(token, "collection_policies_create", policy).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let steps = r.data()["steps"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap().to_string());
    (r.data()["id"].as_str().unwrap().to_string(), steps.collect())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_charge_says_what_it_waits_for() {
    use kobana_dunning::engine::run_once;
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let (cp, steps) = two_step_policy(&s, &token).await;
    let debtor = maria_with_email(&s, &token, 9951).await;
    let due = date_in(20);
    let charge = tool(
        &s,
        &token,
        "dunning_charges_create",
        json!({ "debtor_id": debtor, "amount": 99.0, "due_date": due }),
    )
    .await;
    let id = charge["data"]["id"].as_str().unwrap().to_string();
    let preview =
        tool(&s, &token, "dunning_collection_policies_preview", json!({ "cp_id": cp, "due_date": due }))
            .await;
    let schedule = preview["data"]["schedule"].as_array().unwrap().clone();
    assert_eq!(charge["data"]["current_step_id"], Value::Null, "{charge}");
    assert_eq!(charge["data"]["next_action_at"], json!(preview_instant(&schedule[0])), "{charge}");

    // The engine sends the first step: it is the current one, and the next is due next.
    let at = kobana_dunning::domain::dates::parse_timestamp(&preview_instant(&schedule[0])).unwrap()
        + time::Duration::hours(1);
    run_once(&s.app.store, &s.app.providers, at).await.unwrap();
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(got["data"]["current_step_id"], json!(steps[0]), "{got}");
    assert_eq!(got["data"]["next_action_at"], json!(preview_instant(&schedule[1])), "{got}");

    // Paused with no end: nothing says when the régua acts again.
    let r = s.write_id(&token, "charges_pause", &id, json!({})).await;
    assert_eq!(
        (r.data()["paused_until"].clone(), r.data()["next_action_at"].clone()),
        (Value::Null, Value::Null),
        "{}",
        r.body
    );
    // Paused until a day: nothing is due meanwhile, and the engine resumes it that day, which
    // is the charge's next action (the day's start in the organization's calendar).
    use kobana_dunning::domain::dates::{Zone, format_date};
    let resumes = at.date() + time::Duration::days(2);
    let until = format_date(resumes);
    let r = s.write_id(&token, "charges_pause", &id, json!({ "until": until })).await;
    let resumes_at = json!(in_the_organization_offset(Zone::default_zone().day_start(resumes)));
    assert_eq!(
        (r.data()["paused_until"].clone(), r.data()["next_action_at"].clone()),
        (json!(until), resumes_at.clone()),
        "{}",
        r.body
    );
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(got["data"]["next_action_at"], resumes_at, "{got}");
    // A pass before that day leaves it as it is.
    run_once(&s.app.store, &s.app.providers, at + time::Duration::hours(2)).await.unwrap();
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(
        (&got["data"]["dunning_status"], &got["data"]["next_action_at"]),
        (&json!("paused"), &resumes_at)
    );
    let r = s.write_id(&token, "charges_pause", &id, json!({ "until": date_in(0) })).await;
    assert_eq!(r.status, 422, "a pause ends after today: {}", r.body);
    // Just after midnight in São Paulo on that day, before the next step's time.
    let early = (at.date() + time::Duration::days(2)).with_time(time::macros::time!(03:30)).assume_utc();
    run_once(&s.app.store, &s.app.providers, early).await.unwrap();
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(
        (got["data"]["dunning_status"].clone(), got["data"]["paused_until"].clone()),
        (json!("active"), Value::Null),
        "{got}"
    );
    assert_eq!(got["data"]["next_action_at"], json!(preview_instant(&schedule[1])), "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_policy_change_moves_its_charges_next_action_on_the_next_pass() {
    use kobana_dunning::engine::run_once;
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let (cp, steps) = two_step_policy(&s, &token).await;
    let first = steps[0].clone();
    let debtor = maria_with_email(&s, &token, 9961).await;
    let due = date_in(20);
    let body = json!({ "debtor_id": debtor, "amount": 99.0, "due_date": due, "cp_id": cp });
    let charge = tool(&s, &token, "dunning_charges_create", body).await;
    let id = charge["data"]["id"].as_str().unwrap().to_string();
    let next = |preview: &Value| json!(preview_instant(&preview["data"]["schedule"][0]));
    let before =
        tool(&s, &token, "dunning_collection_policies_preview", json!({ "cp_id": cp, "due_date": due }))
            .await;
    assert_eq!(charge["data"]["next_action_at"], next(&before), "{charge}");

    // The first step moves a week earlier (its send day moves whatever weekday the due date
    // falls on): the next pass moves the charge's next action.
    let path = [("cp_id", cp.as_str()), ("step_id", first.as_str())];
    let r = s
        .call(&token, "collection_policies_steps_update", &path, "", Some(json!({ "offset_days": -10 })))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let after =
        tool(&s, &token, "dunning_collection_policies_preview", json!({ "cp_id": cp, "due_date": due }))
            .await;
    assert_ne!(next(&after), next(&before), "{after}");
    let report = run_once(&s.app.store, &s.app.providers, time::OffsetDateTime::now_utc()).await.unwrap();
    assert_eq!(report.rescheduled, 1, "{report:?}");
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(got["data"]["next_action_at"], next(&after), "{got}");
    assert_eq!(
        got["data"]["version"], charge["data"]["version"],
        "the schedule is the engine's, not a change: {got}"
    );
    // Nothing changed since: the next pass leaves it.
    let report = run_once(&s.app.store, &s.app.providers, time::OffsetDateTime::now_utc()).await.unwrap();
    assert_eq!(report.rescheduled, 0, "{report:?}");

    // The first step is switched off: the charge waits for the second.
    let r =
        s.call(&token, "collection_policies_steps_update", &path, "", Some(json!({ "active": false }))).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let only =
        tool(&s, &token, "dunning_collection_policies_preview", json!({ "cp_id": cp, "due_date": due }))
            .await;
    assert_eq!(only["data"]["schedule"].as_array().unwrap().len(), 1, "{only}");
    run_once(&s.app.store, &s.app.providers, time::OffsetDateTime::now_utc()).await.unwrap();
    let got = tool(&s, &token, "dunning_charges_get", json!({ "id": id })).await;
    assert_eq!(got["data"]["next_action_at"], next(&only), "{got}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debtor_names_the_policy_its_new_charges_follow() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    s.write(&token, "collection_policies_create", json!({ "name": "Padrão" })).await;
    let r = s.write(&token, "collection_policies_create", json!({ "name": "Empresas" })).await;
    let companies = r.data()["id"].as_str().unwrap().to_string();
    let debtor = s.create_debtor(&token, "Mercado Central", &cpf(9961)).await;
    let id = debtor["id"].as_str().unwrap();
    let r = s
        .write_id(
            &token,
            "debtors_update",
            id,
            json!({ "default_cp_id": "cp_0192f1df9c8b7a6d5e4f3a2b1c0d9e8f" }),
        )
        .await;
    assert_eq!(
        (r.status, r.body["error"]["details"]["fields"][0]["field"].clone()),
        (422, json!("default_cp_id")),
        "{}",
        r.body
    );
    let r = s.write_id(&token, "debtors_update", id, json!({ "default_cp_id": companies })).await;
    assert_eq!(r.data()["default_cp_id"], json!(companies), "{}", r.body);
    let charge = s.create_charge(&token, id, 10.0, &date_in(5)).await;
    assert_eq!(charge["cp_id"], json!(companies), "{charge}");
}
