//! Approval links: clients that cannot confirm a destructive tool in-band are sent to a page where
//! a signed-in user decides; the retried identical call runs once when approved. These tests drive
//! the real server over HTTP. The page tests sign in and press the page's buttons as a browser
//! would; the MCP rules (binding, expiry, one use, races, replicas) are tested with `decide`, which
//! records a decision through the same function the page calls.

use std::collections::BTreeMap;

use kobana_dunning::admin;
use kobana_dunning::auth::{Decided, decide_approval, find_approval};
use kobana_dunning::domain::approval::Decision;
use serde_json::{Value, json};

use crate::common::{Resp, TestServer, date_in};

const PASSWORD: &str = "correct horse battery staple";

const CANCEL: &str = "dunning_charges_cancel";

fn call(tool: &str, arguments: Value) -> Value {
    json!({ "name": tool, "arguments": arguments })
}

fn cancel(id: &str) -> Value {
    call(CANCEL, json!({ "id": id }))
}

async fn charge(s: &TestServer, token: &str, name: &str, document: &str) -> String {
    let debtor = s.create_debtor(token, name, document).await;
    let charge = s.create_charge(token, debtor["id"].as_str().unwrap(), 1250.0, &date_in(5)).await;
    charge["id"].as_str().unwrap().to_string()
}

async fn charge_status(s: &TestServer, token: &str, id: &str) -> (String, i64) {
    let r = s.read_id(token, "charges_get", id).await;
    (r.data()["status"].as_str().unwrap().to_string(), r.data()["version"].as_i64().unwrap())
}

/// The approval_url of a CONFIRMATION_REQUIRED refusal (asserted to be one).
fn approval_url(s: &TestServer, r: &Resp) -> String {
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.is_tool_error(), "{}", r.body);
    let body = r.tool_json();
    assert_eq!(body["error"]["code"], "CONFIRMATION_REQUIRED", "{body}");
    let url = body["error"]["details"]["approval_url"].as_str().expect("an approval_url").to_string();
    assert!(url.starts_with(&format!("{}/approvals/apr_", s.base)), "{url}");
    url
}

fn approval_id(url: &str) -> &str {
    url.rsplit('/').next().unwrap()
}

/// Whether a tool result ran the cancel (the charge it answers is canceled).
fn ran(r: &Resp) -> bool {
    !r.is_tool_error() && r.tool_json()["data"]["status"] == "canceled"
}

fn declined(r: &Resp) -> bool {
    r.is_tool_error() && r.tool_json()["error"]["code"] == "CONFIRMATION_DECLINED"
}

/// A user's decision, recorded as the page records it.
async fn decide(s: &TestServer, url: &str, decision: Decision) -> Decided {
    let approval = find_approval(&*s.app, approval_id(url)).await.unwrap().expect("the approval exists");
    decide_approval(&*s.app, &approval, "usr_0192f1c2000070008000000000000001", decision, None, now())
        .await
        .unwrap()
}

fn now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_cannot_confirm_get_a_link_that_retries_reuse() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;

    let r2025 = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    let url = approval_url(&s, &r2025);
    let body = r2025.tool_json();
    assert_eq!(body["error"]["details"]["required_capability"], json!({ "elicitation": { "form": {} } }));
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains(&url), "the model is given the link: {message}");
    assert!(message.contains("same arguments"), "and told to call again: {message}");
    assert!(message.contains("Cancelar a cobrança"), "the page's question: {message}");
    assert!(!message.contains("stateless") && !message.contains("elicitation"), "plain words: {message}");

    // A retry before anyone decides, in either era, gets the same link: one approval per call.
    let again = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_eq!(approval_url(&s, &again), url);
    let r2026 = s.mcp_2026(&token, "tools/call", cancel(&id), json!({})).await;
    assert_eq!(approval_url(&s, &r2026), url, "the 2026-07-28 era binds the same call");
    let message = r2026.tool_json()["error"]["message"].as_str().unwrap().to_string();
    assert!(!message.contains("elicitation") && !message.contains("2025"), "plain words: {message}");

    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(approval.binding.tool, CANCEL);
    assert_eq!(approval.object_id.as_deref(), Some(id.as_str()));
    assert_eq!(approval.binding.object_version, Some(1));
    assert!(approval.binding.principal.starts_with("token:"), "{:?}", approval.binding);
    assert!(approval.question.starts_with("Cancelar a cobrança"), "{}", approval.question);
    let lifetime = approval.expires_at - approval.created_at;
    assert_eq!(lifetime, time::Duration::minutes(10));
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1), "nothing ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_call_runs_once_and_is_consumed() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::Recorded);
    assert_eq!(decide(&s, &url, Decision::Decline).await, Decided::TooLate, "decided once");

    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert!(ran(&retry), "{}", retry.body);
    assert_eq!(charge_status(&s, &token, &id).await, ("canceled".into(), 2));

    // Used: the same call again is refused with a new link, and does not run again.
    let twice = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    let second = approval_url(&s, &twice);
    assert_ne!(second, url, "a used approval is not handed out again");
    assert_eq!(charge_status(&s, &token, &id).await, ("canceled".into(), 2));
    let canceled = s.app.store.events_of(&org, &id).await.unwrap();
    assert_eq!(canceled.iter().filter(|(code, _)| code == "charge.canceled").count(), 1, "{canceled:?}");
    let used = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(used.status.as_str(), "consumed");
    assert!(used.consumed_at.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_declined_approval_answers_declined_once() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    assert_eq!(decide(&s, &url, Decision::Decline).await, Decided::Recorded);
    assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::TooLate, "a decline is final");

    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert!(declined(&retry), "{}", retry.body);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1), "nothing ran");
    // Told once: asking again is a new question, with a new link.
    let again = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &again), url);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_is_for_one_principal_one_set_of_arguments_and_one_version() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let other_token = s.token(&org, crate::common::ALL).await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::Recorded);

    // Another principal of the same organization.
    let r = s.mcp_2025(&other_token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &r), url);
    // Other arguments.
    let r = s
        .mcp_2025(&token, "tools/call", call(CANCEL, json!({ "id": id, "reason": "Pago em dinheiro" })))
        .await;
    assert_ne!(approval_url(&s, &r), url);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1), "nothing ran");
    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(approval.status.as_str(), "approved", "refused presentations do not use it");

    // The object changed after the approval.
    let r =
        s.write_id(&token, "charges_update", &id, json!({ "description": "Mensalidade de outubro" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &r), url);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 2), "nothing ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_approval_never_runs() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::Recorded);
    // Ten minutes pass.
    s.execute_sql(
        "UPDATE approvals SET expires_at = $1 WHERE id = $2",
        &["2020-01-01T00:00:00.000000Z", approval_id(&url)],
    )
    .await;
    let r = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &r), url);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1), "nothing ran");
    // Nor can a user decide one that expired.
    let fresh = approval_url(&s, &r);
    s.execute_sql(
        "UPDATE approvals SET expires_at = $1 WHERE id = $2",
        &["2020-01-01T00:00:00.000000Z", approval_id(&fresh)],
    )
    .await;
    assert_eq!(decide(&s, &fresh, Decision::Approve).await, Decided::TooLate);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_retries_on_two_replicas_run_once() {
    let s = TestServer::start().await;
    let replica = s.replica().await;
    let (_, token) = s.tenant("Org").await;
    for round in 0..3 {
        let id = charge(&s, &token, "Maria Souza", &crate::common::cpf(round)).await;
        let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
        assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::Recorded);
        let (a, b) = tokio::join!(
            s.mcp_2025(&token, "tools/call", cancel(&id)),
            replica.mcp_2025(&token, "tools/call", cancel(&id)),
        );
        let runs = [&a, &b].iter().filter(|r| ran(r)).count();
        assert_eq!(runs, 1, "exactly one retry runs:\n{}\n{}", a.body, b.body);
        // The other is asked afresh, by its own public URL.
        let (server, loser) = if ran(&a) { (&replica, &b) } else { (&s, &a) };
        assert_ne!(approval_id(&approval_url(server, loser)), approval_id(&url), "{}", loser.body);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_with_only_url_elicitation_is_sent_to_the_page() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let url_only = json!({ "elicitation": { "url": {} } });
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;

    let first = s.mcp_2026(&token, "tools/call", cancel(&id), url_only.clone()).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let result = first.result();
    assert_eq!(result["resultType"], "input_required", "{}", first.body);
    assert!(result.get("isError").is_none() && result.get("ttlMs").is_none(), "{result}");
    let request = &result["inputRequests"]["confirm"];
    assert_eq!(request["method"], "elicitation/create");
    let params = &request["params"];
    assert_eq!(params["mode"], "url");
    let url = params["url"].as_str().unwrap().to_string();
    assert!(url.starts_with(&format!("{}/approvals/apr_", s.base)), "{url}");
    assert_eq!(params["elicitationId"], approval_id(&url));
    let message = params["message"].as_str().unwrap();
    assert!(message.contains("Cancelar a cobrança") && message.contains("aprove"), "{message}");
    assert!(params.get("requestedSchema").is_none(), "URL mode carries no schema: {params}");

    // The user opened the page (accept) but has not decided yet: asked again, same page.
    let mut retry = cancel(&id);
    retry["inputResponses"] = json!({ "confirm": { "action": "accept" } });
    let r = s.mcp_2026(&token, "tools/call", retry.clone(), url_only.clone()).await;
    assert_eq!(r.result()["inputRequests"]["confirm"]["params"]["url"], url.as_str(), "{}", r.body);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1));

    assert_eq!(decide(&s, &url, Decision::Approve).await, Decided::Recorded);
    let r = s.mcp_2026(&token, "tools/call", retry.clone(), url_only.clone()).await;
    assert!(ran(&r), "{}", r.body);
    assert_eq!(r.result()["resultType"], "complete");
    assert_eq!(charge_status(&s, &token, &id).await, ("canceled".into(), 2));

    // Declining to open the page, or a decline on it, runs nothing.
    let other = charge(&s, &token, "João Lima", "11144477735").await;
    let first = s.mcp_2026(&token, "tools/call", cancel(&other), url_only.clone()).await;
    let other_url = first.result()["inputRequests"]["confirm"]["params"]["url"].as_str().unwrap().to_string();
    let mut no = cancel(&other);
    no["inputResponses"] = json!({ "confirm": { "action": "decline" } });
    let r = s.mcp_2026(&token, "tools/call", no, url_only.clone()).await;
    assert!(declined(&r), "{}", r.body);
    assert_eq!(decide(&s, &other_url, Decision::Decline).await, Decided::Recorded);
    let mut yes = cancel(&other);
    yes["inputResponses"] = json!({ "confirm": { "action": "accept" } });
    let r = s.mcp_2026(&token, "tools/call", yes, url_only).await;
    assert!(declined(&r), "{}", r.body);
    assert_eq!(charge_status(&s, &token, &other).await, ("pending".into(), 1), "nothing ran");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_decision_is_an_event() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Org").await;
    let user = "usr_0192f1c2000070008000000000000001";
    for (name, document, decision) in
        [("Maria Souza", "52998224725", Decision::Approve), ("João Lima", "11144477735", Decision::Decline)]
    {
        let id = charge(&s, &token, name, document).await;
        let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
        let before = now();
        assert_eq!(decide(&s, &url, decision).await, Decided::Recorded);
        let apr = approval_id(&url);
        let r = s.read(&token, "events_list", &format!("resource_id={apr}")).await;
        assert_eq!(r.status, 200, "{}", r.body);
        let events = r.data().as_array().unwrap();
        assert_eq!(events.len(), 1, "{}", r.body);
        let event = &events[0];
        let expected = if decision == Decision::Approve { "approval.approved" } else { "approval.declined" };
        assert_eq!(event["code"], expected);
        assert_eq!(event["resource_type"], "approval");
        assert_eq!(event["actor"], json!({ "type": "user", "id": user }));
        let data = &event["data"];
        assert_eq!(data["approval_id"], apr);
        assert_eq!(data["tool"], CANCEL);
        assert_eq!(data["object_id"], id.as_str());
        assert_eq!(data["decided_by"], user);
        assert_eq!(data["decision"], decision.as_str());
        let decided_at =
            kobana_dunning::domain::dates::parse_timestamp(data["decided_at"].as_str().unwrap()).unwrap();
        assert!(decided_at >= before - time::Duration::seconds(1) && decided_at <= now(), "{data}");
        assert_eq!(data["decided_at"], event["occurred_at"]);
    }
}

// ---- The page, as a browser sees it ----------------------------------------------------------

/// A browser without JavaScript: keeps cookies, follows no redirect by itself.
struct Browser {
    client: reqwest::Client,
    base: String,
    cookies: BTreeMap<String, String>,
}

/// What a browser got.
struct Page {
    status: u16,
    location: Option<String>,
    body: String,
}

impl Page {
    /// The hidden `csrf` field of the page's form posting to `action`.
    fn csrf(&self, action: &str) -> String {
        let form = self
            .body
            .split("<form ")
            .find(|f| f.contains(&format!("action=\"{action}\"")))
            .unwrap_or_else(|| panic!("no form posting to {action} ({}): {}", self.status, self.body));
        let marker = "name=\"csrf\" value=\"";
        let start = form.find(marker).expect("a csrf field") + marker.len();
        form[start..start + form[start..].find('"').unwrap()].to_string()
    }
}

impl Browser {
    fn new(server: &TestServer) -> Self {
        let client =
            reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        Self { client, base: server.base.clone(), cookies: BTreeMap::new() }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> Page {
        let cookie: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let req = if cookie.is_empty() { req } else { req.header("cookie", cookie.join("; ")) };
        let resp = req.send().await.expect("the server answers");
        for value in resp.headers().get_all("set-cookie") {
            let text = value.to_str().expect("ascii");
            if let Some((name, value)) = text.split(';').next().and_then(|p| p.split_once('=')) {
                if text.contains("Max-Age=0") {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value.to_string());
                }
            }
        }
        let status = resp.status().as_u16();
        let location = resp.headers().get("location").map(|v| v.to_str().expect("ascii").to_string());
        Page { status, location, body: resp.text().await.expect("body") }
    }

    async fn get(&mut self, path_or_url: &str) -> Page {
        let url = if path_or_url.starts_with("http") {
            path_or_url.to_string()
        } else {
            format!("{}{path_or_url}", self.base)
        };
        let req = self.client.get(url);
        self.send(req).await
    }

    async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let body = form_urlencoded::Serializer::new(String::new()).extend_pairs(fields).finish();
        let req = self
            .client
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        self.send(req).await
    }

    /// Opens an approval link signed out: sent to the sign-in page, signs in, and comes back.
    async fn open_signing_in(&mut self, url: &str, email: &str) -> Page {
        let path = url.strip_prefix(&self.base).expect("a link to this server").to_string();
        let page = self.get(url).await;
        assert_eq!(page.status, 303, "{}", page.body);
        let location = page.location.expect("a redirect");
        // Same origin, a path: nothing here can send the browser elsewhere.
        let next: String = form_urlencoded::byte_serialize(path.as_bytes()).collect();
        assert_eq!(location, format!("/signin?next={next}"));
        let signin = self.get(&location).await;
        assert_eq!(signin.status, 200, "{}", signin.body);
        let csrf = signin.csrf("/signin");
        let answer = self
            .post("/signin", &[("csrf", &csrf), ("email", email), ("password", PASSWORD), ("next", &path)])
            .await;
        assert_eq!(
            (answer.status, answer.location.as_deref()),
            (303, Some(path.as_str())),
            "{}",
            answer.body
        );
        self.get(&path).await
    }

    /// Presses Approve or Decline on an approval page.
    async fn press(&mut self, page: &Page, url: &str, decision: &str) -> Page {
        let path = url.strip_prefix(&self.base).unwrap().to_string();
        let csrf = page.csrf(&path);
        self.post(&path, &[("csrf", &csrf), ("decision", decision)]).await
    }
}

/// A user of `org` with `role`; returns (user id, e-mail).
async fn person(s: &TestServer, org: &str, role: &str) -> (String, String) {
    let email = format!("pessoa.{}@example.com", uuid::Uuid::now_v7().simple());
    let id = admin::create_user(&s.app.store, org, &email, role, PASSWORD).await.expect("user");
    (id, email)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_approves_on_the_page_and_the_retry_runs_once() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let (user_id, email) = person(&s, &org, "operator").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);

    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &email).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("name=\"viewport\""), "readable on a phone");
    assert!(!page.body.to_lowercase().contains("<script"), "no JavaScript needed");
    // The same pt-BR question the sealed confirmation asks.
    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert!(page.body.contains(&approval.question), "{}", page.body);
    assert!(page.body.contains(&format!("Cancelar a cobrança “{id}” de R$ 1.250,00")), "{}", page.body);
    // Who asked, in words: this token is the CLI's, named by its id.
    let token_id = approval.binding.principal.strip_prefix("token:").expect("a CLI token asked");
    assert!(
        page.body.contains(&format!("Asked with a command-line access token (<code>{token_id}</code>)")),
        "{}",
        page.body
    );
    assert!(page.body.contains("value=\"approve\"") && page.body.contains("value=\"decline\""));

    let answer = browser.press(&page, &url, "approve").await;
    assert_eq!(answer.status, 303, "{}", answer.body);
    let page = browser.get(&url).await;
    assert!(page.body.contains("Aprovado por você"), "{}", page.body);
    assert!(!page.body.contains("value=\"approve\""), "decided: no buttons");

    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert!(ran(&retry), "{}", retry.body);
    let again = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &again), url, "ran once");
    assert_eq!(charge_status(&s, &token, &id).await, ("canceled".into(), 2));
    let page = browser.get(&url).await;
    assert!(page.body.contains("executado"), "{}", page.body);

    // The event names the person who decided.
    let r = s.read(&token, "events_list", &format!("resource_id={}", approval_id(&url))).await;
    let event = &r.data()[0];
    assert_eq!(event["code"], "approval.approved");
    assert_eq!(event["actor"], json!({ "type": "user", "id": user_id }));
    assert_eq!(event["data"]["decided_by"], user_id.as_str());
    assert!(event["request_id"].as_str().is_some_and(|r| r.starts_with("req_")), "{event}");
}

/// The page shows the very question the form elicitation asks: for an agreement, the debtor,
/// the charges, the down payment, the installments and the total.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_asks_what_the_elicitation_asks() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let (_, email) = person(&s, &org, "operator").await;
    let debtor = s.create_debtor(&token, "Maria Souza", "52998224725").await;
    let id = debtor["id"].as_str().unwrap();
    let late = s.create_charge(&token, id, 1250.0, &date_in(-10)).await;
    let older = s.create_charge(&token, id, 300.0, &date_in(-40)).await;
    let terms = json!({ "charge_ids": [late["id"], older["id"]], "installments_count": 6,
                        "first_due_date": date_in(31), "down_payment_amount": 150.0 });
    let params = call("dunning_agreements_create", terms);
    let form = json!({ "elicitation": { "form": {} } });
    let r = s.mcp_2026(&token, "tools/call", params.clone(), form).await;
    let asked = r.result()["inputRequests"]["confirm"]["params"]["message"].as_str().unwrap().to_string();
    for shown in ["“Maria Souza” (“529.982.247-25”)", "entrada de R$ 150,00", "6 parcelas", "total de R$"]
    {
        assert!(asked.contains(shown), "{shown}: {asked}");
    }
    assert!(
        asked.contains(late["id"].as_str().unwrap()) && asked.contains(older["id"].as_str().unwrap()),
        "{asked}"
    );

    // A client that cannot elicit is sent to the page: the same text, stored, told and shown.
    let r = s.mcp_2025(&token, "tools/call", params).await;
    let url = approval_url(&s, &r);
    assert!(r.tool_json()["error"]["message"].as_str().unwrap().contains(&asked), "{}", r.body);
    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(approval.question, asked);
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &email).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains(&kobana_dunning::oauth::pages::esc(&asked)), "{}", page.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_declines_on_the_page_and_nothing_runs() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let (_, email) = person(&s, &org, "admin").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &email).await;
    assert_eq!(browser.press(&page, &url, "decline").await.status, 303);
    assert!(browser.get(&url).await.body.contains("Recusado por você"));
    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert!(declined(&retry), "{}", retry.body);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_a_signed_in_user_of_the_organization_with_the_scope_decides() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let other_org = s.org("Outra").await;
    let (_, viewer) = person(&s, &org, "viewer").await;
    let (_, stranger) = person(&s, &other_org, "admin").await;
    let (_, operator) = person(&s, &org, "operator").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    let path = url.strip_prefix(&s.base).unwrap().to_string();

    // A viewer's role cannot write: a refusal page, and a forged decision does nothing.
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &viewer).await;
    assert_eq!(page.status, 403, "{}", page.body);
    assert!(page.body.contains("dunning.write") && !page.body.contains("value=\"approve\""), "{}", page.body);
    let form_page = browser.get("/connections").await;
    let csrf = form_page.csrf("/signout");
    let forged = browser.post(&path, &[("csrf", &csrf), ("decision", "approve")]).await;
    assert_eq!(forged.status, 403, "{}", forged.body);

    // Another organization's admin does not even learn it exists.
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &stranger).await;
    assert_eq!(page.status, 404, "{}", page.body);

    // The right person, but a form without the page's csrf token (another site's form).
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &operator).await;
    assert_eq!(page.status, 200, "{}", page.body);
    for csrf in [None, Some("forged")] {
        let mut fields = vec![("decision", "approve")];
        if let Some(csrf) = csrf {
            fields.push(("csrf", csrf));
        }
        let answer = browser.post(&path, &fields).await;
        assert_eq!(answer.status, 403, "{}", answer.body);
    }
    // The page's own form, tampered with: a decision given twice, or neither of the two.
    let csrf = page.csrf(&path);
    let twice =
        browser.post(&path, &[("csrf", &csrf), ("decision", "decline"), ("decision", "approve")]).await;
    assert_eq!(twice.status, 400, "{}", twice.body);
    let other = browser.post(&path, &[("csrf", &csrf), ("decision", "maybe")]).await;
    assert_eq!(other.status, 400, "{}", other.body);
    // Signed out, a decision goes nowhere either.
    let mut anonymous = Browser::new(&s);
    assert_eq!(anonymous.post(&path, &[("decision", "approve")]).await.status, 403);

    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(approval.status.as_str(), "pending", "nobody decided");
    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_eq!(approval_url(&s, &retry), url, "still waiting");
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1));

    // Unknown and malformed ids are not found.
    for bad in ["/approvals/apr_00000000000000000000000000000000", "/approvals/..%2F..%2Fetc", "/approvals/x"]
    {
        assert_eq!(browser.get(bad).await.status, 404, "{bad}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_approvals_show_their_state_and_take_no_decision() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Org").await;
    let (_, email) = person(&s, &org, "operator").await;
    let id = charge(&s, &token, "Maria Souza", "52998224725").await;
    let url = approval_url(&s, &s.mcp_2025(&token, "tools/call", cancel(&id)).await);
    let mut browser = Browser::new(&s);
    let page = browser.open_signing_in(&url, &email).await;
    s.execute_sql(
        "UPDATE approvals SET expires_at = $1 WHERE id = $2",
        &["2020-01-01T00:00:00.000000Z", approval_id(&url)],
    )
    .await;
    // The page was open when it expired: the press records nothing and the page says so.
    let answer = browser.press(&page, &url, "approve").await;
    assert_eq!(answer.status, 303);
    let page = browser.get(&url).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("expirou") && !page.body.contains("value=\"approve\""), "{}", page.body);
    let approval = find_approval(&*s.app, approval_id(&url)).await.unwrap().unwrap();
    assert_eq!(approval.status.as_str(), "pending");
    let retry = s.mcp_2025(&token, "tools/call", cancel(&id)).await;
    assert_ne!(approval_url(&s, &retry), url);
    assert_eq!(charge_status(&s, &token, &id).await, ("pending".into(), 1));
}
