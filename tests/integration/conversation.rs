//! Five everyday requests, made as a model makes them through MCP (fixed calls, no model): who
//! owes the most, what went out last week by channel, pausing a charge until a day, an agreement
//! from the offer to its creation, and the charges at the credit bureau. Each is answered in at
//! most three tool calls and at most 8 KB of answers: what the model reads is what it pays for.

use serde_json::{Value, json};

use crate::common::{TestServer, cpf, date_in};

const MAX_CALLS: usize = 3;
const MAX_ANSWER_BYTES: usize = 8 * 1024;

/// A 2026-07-28 client with form elicitation: the user approves what asks for approval.
fn elicitation() -> Value {
    json!({ "elicitation": { "form": {} } })
}

/// One request of the conversation: the tool calls it took and the bytes the model read.
struct Request<'a> {
    s: &'a TestServer,
    token: &'a str,
    what: &'static str,
    calls: usize,
    bytes: usize,
}

impl<'a> Request<'a> {
    fn new(s: &'a TestServer, token: &'a str, what: &'static str) -> Self {
        Self { s, token, what, calls: 0, bytes: 0 }
    }

    /// Calls a tool once, as the model does; a question for the user is answered "yes" by the
    /// host (the user's approval is not a call of the model's, and its text is the user's).
    async fn call(&mut self, name: &str, arguments: Value) -> Value {
        let params = json!({ "name": name, "arguments": arguments });
        let mut r = self.s.mcp_2026(self.token, "tools/call", params.clone(), elicitation()).await;
        if r.result()["resultType"] == "input_required" {
            let mut answered = params;
            answered["requestState"] = r.result()["requestState"].clone();
            answered["inputResponses"] =
                json!({ "confirm": { "action": "accept", "content": { "confirm": true } } });
            r = self.s.mcp_2026(self.token, "tools/call", answered, elicitation()).await;
        }
        assert!(!r.is_tool_error(), "{}: {name} failed: {}", self.what, r.body);
        let text = r.result()["content"][0]["text"].as_str().expect("a text answer").to_string();
        self.calls += 1;
        self.bytes += text.len();
        serde_json::from_str(&text).expect("the answer is JSON")
    }

    fn done(self) {
        eprintln!("{}: {} calls, {} bytes of answers", self.what, self.calls, self.bytes);
        assert!(self.calls <= MAX_CALLS, "{}: {} calls", self.what, self.calls);
        assert!(self.bytes <= MAX_ANSWER_BYTES, "{}: {} bytes of answers", self.what, self.bytes);
    }
}

/// A debtor reachable by e-mail and SMS, with an address (a report's prior notice is a letter).
async fn debtor(s: &TestServer, token: &str, name: &str, seed: u32) -> String {
    let address = json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let body = json!({ "name": name, "document": cpf(seed), "email": "pessoa@example.com",
                       "mobile": "+5511912345678", "address": address });
    let r = s.write(token, "debtors_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.data()["id"].as_str().unwrap().to_string()
}

async fn charge(s: &TestServer, token: &str, debtor: &str, amount: f64, due: &str) -> String {
    let body =
        json!({ "debtor_id": debtor, "amount": amount, "due_date": due, "description": "Mensalidade" });
    let r = s.write(token, "charges_create", body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.data()["id"].as_str().unwrap().to_string()
}

async fn notify(s: &TestServer, token: &str, charge: &str, channel: &str) {
    let r = s.write_id(token, "charges_notify", charge, json!({ "channel": channel })).await;
    assert_eq!(r.status, 201, "{}", r.body);
}

const WEEKDAYS: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_everyday_requests_take_at_most_three_calls_and_8_kb_each() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Padaria").await;
    // A portfolio of a few dozen charges, so that nothing fits by accident.
    let ana = debtor(&s, &token, "Ana Paula Ferreira", 7101).await;
    let bruno = debtor(&s, &token, "Bruno Lima", 7102).await;
    let carla = debtor(&s, &token, "Carla Nunes", 7103).await;
    let ana_old = charge(&s, &token, &ana, 400.0, &date_in(-45)).await;
    let ana_recent = charge(&s, &token, &ana, 250.5, &date_in(-10)).await;
    let bruno_overdue = charge(&s, &token, &bruno, 1800.0, &date_in(-20)).await;
    let carla_reported = charge(&s, &token, &carla, 900.0, &date_in(-60)).await;
    for n in 0..24 {
        let who = [&ana, &bruno, &carla][n % 3];
        charge(&s, &token, who, 50.0 + n as f64, &date_in(5 + n as i64)).await;
    }
    for (id, channel) in [(&ana_old, "email"), (&ana_recent, "email"), (&bruno_overdue, "sms")] {
        notify(&s, &token, id, channel).await;
    }
    notify(&s, &token, &carla_reported, "letter").await;
    let r = s.write(&token, "credit_bureau_reports_create", json!({ "charge_id": carla_reported })).await;
    assert_eq!(r.status, 201, "{}", r.body);

    // "Who owes us the most?"
    let mut ask = Request::new(&s, &token, "top debtors");
    let top = ask
        .call(
            "dunning_debtors_list",
            json!({ "sort_by": "overdue_amount", "per_page": 3, "fields": "name,summary" }),
        )
        .await;
    ask.done();
    let rows = top["data"].as_array().unwrap();
    let named: Vec<(&str, &Value, &Value)> = rows
        .iter()
        .map(|d| {
            (d["name"].as_str().unwrap(), &d["summary"]["overdue_amount"], &d["summary"]["overdue_count"])
        })
        .collect();
    assert_eq!(
        named,
        [
            ("Bruno Lima", &json!(1800.0), &json!(1)),
            ("Carla Nunes", &json!(900.0), &json!(1)),
            ("Ana Paula Ferreira", &json!(650.5), &json!(2)),
        ],
        "{top}"
    );

    // "What did we send in the last seven days, by channel? Any failures?"
    let mut ask = Request::new(&s, &token, "last week's messages");
    let me = ask.call("dunning_me", json!({})).await;
    let today = me["data"]["organization"]["today"].as_str().unwrap().to_string();
    let day = kobana_dunning::domain::dates::parse_date(&today).unwrap();
    let week_ago = kobana_dunning::domain::dates::format_date(day - time::Duration::days(6));
    let sent = ask
        .call("dunning_notifications_list", json!({ "sent_from": week_ago, "sent_to": today, "per_page": 1 }))
        .await;
    ask.done();
    assert_eq!(sent["meta"]["total"], 4, "{sent}");
    assert_eq!(sent["meta"]["by_channel"], json!({ "email": 2, "sms": 1, "letter": 1 }), "{sent}");
    let by_status = sent["meta"]["by_status"].as_object().unwrap();
    assert!(!by_status.contains_key("failed"), "nothing failed: {sent}");
    assert_eq!(by_status.values().map(|n| n.as_i64().unwrap()).sum::<i64>(), 4, "{sent}");

    // "Pause Bruno's overdue charge until next Friday."
    let mut ask = Request::new(&s, &token, "pause until a day");
    let me = ask.call("dunning_me", json!({})).await;
    let weekday = me["data"]["organization"]["weekday"].as_str().unwrap();
    let today =
        kobana_dunning::domain::dates::parse_date(me["data"]["organization"]["today"].as_str().unwrap())
            .unwrap();
    let from_friday = (4 + 7 - WEEKDAYS.iter().position(|d| *d == weekday).unwrap()) % 7;
    let friday = today + time::Duration::days(if from_friday == 0 { 7 } else { from_friday as i64 });
    let friday = kobana_dunning::domain::dates::format_date(friday);
    let found = ask
        .call(
            "dunning_charges_list",
            json!({ "q": "Bruno", "status": "overdue", "fields": "balance,due_date,dunning_status" }),
        )
        .await;
    assert_eq!(found["data"][0]["id"], json!(bruno_overdue), "{found}");
    let paused = ask.call("dunning_charges_pause", json!({ "id": bruno_overdue, "until": friday })).await;
    ask.done();
    assert_eq!(paused["data"]["dunning_status"], "paused", "{paused}");
    assert_eq!(paused["data"]["paused_until"], json!(friday), "{paused}");
    let resumes = paused["data"]["next_action_at"].as_str().unwrap();
    assert!(resumes.starts_with(&format!("{friday}T00:00:00")), "it says when it resumes: {paused}");

    // "Offer Ana an agreement: R$ 100 down and three installments from next month." Then, once
    // she accepts it, create it.
    let mut ask = Request::new(&s, &token, "an agreement from offer to creation");
    let open = ask
        .call(
            "dunning_charges_list",
            json!({ "debtor_id": ana, "status": "overdue", "fields": "balance,due_date" }),
        )
        .await;
    let charge_ids: Vec<&Value> = open["data"].as_array().unwrap().iter().map(|c| &c["id"]).collect();
    assert_eq!(charge_ids.len(), 2, "{open}");
    let terms = json!({ "charge_ids": charge_ids, "down_payment_amount": 100.0, "installments_count": 3,
                        "first_due_date": date_in(30) });
    let offer = ask.call("dunning_agreements_simulate", terms.clone()).await;
    let created = ask.call("dunning_agreements_create", terms).await;
    ask.done();
    assert_eq!(created["data"]["total_amount"], offer["data"]["total_amount"], "{offer}\n{created}");
    assert_eq!(created["data"]["status"], "awaiting_down_payment", "{created}");

    // "Which charges are at the credit bureau?"
    let mut ask = Request::new(&s, &token, "charges at the bureau");
    let at_bureau = ask
        .call(
            "dunning_charges_list",
            json!({ "credit_bureau_status": "requested,notice_sent,reported",
                    "fields": "debtor_name,balance,credit_bureau_status" }),
        )
        .await;
    ask.done();
    assert_eq!(at_bureau["meta"]["total"], 1, "{at_bureau}");
    assert_eq!(at_bureau["data"][0]["id"], json!(carla_reported), "{at_bureau}");
    assert_eq!(at_bureau["data"][0]["debtor_name"], "Carla Nunes", "{at_bureau}");
}
