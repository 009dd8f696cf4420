//! The authorization server, driven as a browser and an OAuth client would: the
//! pages over HTTP with their cookies and forms, the token endpoint with PKCE, and the tokens
//! it issues at /mcp and /v1.

use std::collections::{BTreeMap, BTreeSet};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use kobana_dunning::admin;
use kobana_dunning::operations::OPERATIONS;
use reqwest::Method;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::{Resp, TestServer, send};

const PASSWORD: &str = "correct horse battery staple";
const REDIRECT: &str = "http://127.0.0.1:43210/callback";

/// A browser: keeps cookies, follows nothing by itself.
struct Browser {
    client: reqwest::Client,
    base: String,
    cookies: BTreeMap<String, String>,
    /// Every Set-Cookie header seen, for checking their attributes.
    set_cookies: Vec<String>,
}

/// A page or redirect a browser got.
struct Page {
    status: u16,
    location: Option<String>,
    body: String,
}

/// A form of a page: its action and every input's name and value.
#[derive(Debug, Clone)]
struct Form {
    action: String,
    fields: Vec<(String, String)>,
}

impl Form {
    fn set(&mut self, name: &str, value: &str) -> &mut Self {
        self.fields.retain(|(n, _)| n != name);
        self.fields.push((name.to_string(), value.to_string()));
        self
    }

    fn without(&mut self, name: &str) -> &mut Self {
        self.fields.retain(|(n, _)| n != name);
        self
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.fields.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

fn attribute(tag: &str, name: &str) -> Option<String> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    let end = tag[start..].find('"')? + start;
    Some(unescape(&tag[start..end]))
}

impl Page {
    /// The forms of the page, in order.
    fn forms(&self) -> Vec<Form> {
        let mut forms = Vec::new();
        for chunk in self.body.split("<form ").skip(1) {
            let chunk = chunk.split("</form>").next().unwrap_or("");
            let head = chunk.split('>').next().unwrap_or("");
            let action = attribute(&format!(" {head}"), "action").unwrap_or_default();
            let mut fields = Vec::new();
            for input in chunk.split("<input ").skip(1) {
                let tag = format!(" {}", input.split('>').next().unwrap_or(""));
                if let Some(name) = attribute(&tag, "name") {
                    fields.push((name, attribute(&tag, "value").unwrap_or_default()));
                }
            }
            forms.push(Form { action, fields });
        }
        forms
    }

    fn form(&self, action: &str) -> Form {
        self.forms()
            .into_iter()
            .find(|f| f.action == action)
            .unwrap_or_else(|| panic!("no form posting to {action} ({}): {}", self.status, self.body))
    }
}

impl Browser {
    fn new(server: &TestServer) -> Self {
        let client =
            reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().expect("client");
        Self { client, base: server.base.clone(), cookies: BTreeMap::new(), set_cookies: Vec::new() }
    }

    async fn send(&mut self, req: reqwest::RequestBuilder) -> Page {
        let cookie: Vec<String> = self.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let req = if cookie.is_empty() { req } else { req.header("cookie", cookie.join("; ")) };
        let resp = req.send().await.expect("the server answers");
        for value in resp.headers().get_all("set-cookie") {
            let text = value.to_str().expect("ascii").to_string();
            let pair = text.split(';').next().unwrap_or("");
            if let Some((name, value)) = pair.split_once('=') {
                if text.contains("Max-Age=0") {
                    self.cookies.remove(name);
                } else {
                    self.cookies.insert(name.to_string(), value.to_string());
                }
            }
            self.set_cookies.push(text);
        }
        let status = resp.status().as_u16();
        let location = resp.headers().get("location").map(|v| v.to_str().expect("ascii").to_string());
        let body = resp.text().await.expect("body");
        Page { status, location, body }
    }

    fn url(&self, path: &str) -> String {
        if path.starts_with("http") { path.to_string() } else { format!("{}{path}", self.base) }
    }

    async fn get(&mut self, path: &str) -> Page {
        let req = self.client.get(self.url(path));
        self.send(req).await
    }

    async fn submit(&mut self, form: &Form) -> Page {
        let body: String =
            form_urlencoded::Serializer::new(String::new()).extend_pairs(form.fields.iter()).finish();
        let req = self
            .client
            .post(self.url(&form.action))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body);
        self.send(req).await
    }

    /// Signs in through the sign-in form of `page`, following the redirect to `next`.
    async fn sign_in(&mut self, page: &Page, email: &str, password: &str) -> Page {
        let mut form = page.form("/signin");
        form.set("email", email).set("password", password);
        let answer = self.submit(&form).await;
        assert_eq!(answer.status, 303, "sign-in: {}", answer.body);
        let next = answer.location.expect("sign-in redirects");
        assert!(next.starts_with('/'), "{next}");
        self.get(&next).await
    }
}

/// A PKCE verifier and its S256 challenge.
fn pkce() -> (String, String) {
    let verifier = format!("v{}", uuid::Uuid::now_v7().simple()).repeat(2);
    let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(verifier.as_bytes()));
    (verifier, challenge)
}

/// The query parameters of a URL.
fn query_of(url: &str) -> BTreeMap<String, String> {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

/// An organization with a user of `role`; returns (org, email).
async fn user(server: &TestServer, role: &str) -> (String, String) {
    let org = server.org("OAuth Ltda").await;
    let email = format!("Pessoa.{}@Example.com", uuid::Uuid::now_v7().simple());
    admin::create_user(&server.app.store, &org, &email, role, PASSWORD).await.expect("user");
    (org, email)
}

async fn register(server: &TestServer, redirect_uris: Value, name: &str) -> Resp {
    let req = server
        .raw(Method::POST, "/register")
        .header("content-type", "application/json")
        .body(json!({ "redirect_uris": redirect_uris, "client_name": name }).to_string());
    send(req).await
}

async fn client(server: &TestServer) -> String {
    let r = register(server, json!([REDIRECT]), "Assistente de Teste").await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["token_endpoint_auth_method"], "none");
    r.body["client_id"].as_str().expect("client_id").to_string()
}

fn authorize_path(client_id: &str, challenge: &str, extra: &[(&str, &str)]) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    query.extend_pairs([
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", REDIRECT),
        ("state", "st-123"),
        ("code_challenge", challenge),
        ("code_challenge_method", "S256"),
    ]);
    query.extend_pairs(extra.iter());
    format!("/authorize?{}", query.finish())
}

async fn token_request(server: &TestServer, fields: &[(&str, &str)]) -> Resp {
    let body: String = form_urlencoded::Serializer::new(String::new()).extend_pairs(fields.iter()).finish();
    send(
        server
            .raw(Method::POST, "/token")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body),
    )
    .await
}

async fn exchange(server: &TestServer, client_id: &str, code: &str, verifier: &str) -> Resp {
    token_request(
        server,
        &[
            ("grant_type", "authorization_code"),
            ("client_id", client_id),
            ("code", code),
            ("code_verifier", verifier),
            ("redirect_uri", REDIRECT),
        ],
    )
    .await
}

async fn refresh(server: &TestServer, client_id: &str, refresh_token: &str) -> Resp {
    token_request(
        server,
        &[("grant_type", "refresh_token"), ("client_id", client_id), ("refresh_token", refresh_token)],
    )
    .await
}

/// The whole browser part: authorize, sign in, consent; returns the code of the redirect.
async fn sign_in_and_allow(
    server: &TestServer,
    browser: &mut Browser,
    client_id: &str,
    challenge: &str,
    email: &str,
    extra: &[(&str, &str)],
) -> String {
    let page = browser.get(&authorize_path(client_id, challenge, extra)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let consent = if page.body.contains("action=\"/signin\"") {
        browser.sign_in(&page, email, PASSWORD).await
    } else {
        page
    };
    assert_eq!(consent.status, 200, "{}", consent.body);
    let mut form = consent.form("/authorize");
    form.set("decision", "allow");
    let answer = browser.submit(&form).await;
    assert_eq!(answer.status, 303, "{}", answer.body);
    let location = answer.location.expect("redirect");
    assert!(location.starts_with(REDIRECT), "{location}");
    let params = query_of(&location);
    assert_eq!(params.get("state").map(String::as_str), Some("st-123"), "{location}");
    assert_eq!(params.get("iss"), Some(&server.base), "RFC 9207 iss: {location}");
    params.get("code").cloned().unwrap_or_else(|| panic!("no code: {location}"))
}

/// The tool names tools/list shows a token.
async fn tool_names(server: &TestServer, token: &str) -> BTreeSet<String> {
    let r = server.mcp_2025(token, "tools/list", json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.result()["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .map(|t| t["name"].as_str().unwrap().to_string())
        .collect()
}

/// The tools of exactly these scopes.
fn tools_of(scopes: &[&str]) -> BTreeSet<String> {
    OPERATIONS
        .iter()
        .filter(|op| op.required_scopes().all(|s| scopes.contains(&s)))
        .map(|op| op.tool_name.to_string())
        .collect()
}

async fn mcp_status(server: &TestServer, token: &str) -> u16 {
    server.mcp_2025(token, "tools/list", json!({})).await.status
}

#[tokio::test]
async fn metadata_names_this_server_as_the_authorization_server() {
    let server = TestServer::start().await;
    let r = send(server.raw(Method::GET, "/.well-known/oauth-authorization-server")).await;
    assert_eq!(r.status, 200);
    let m = &r.body;
    assert_eq!(m["issuer"], server.base.as_str());
    assert_eq!(m["authorization_endpoint"], format!("{}/authorize", server.base));
    assert_eq!(m["token_endpoint"], format!("{}/token", server.base));
    assert_eq!(m["registration_endpoint"], format!("{}/register", server.base));
    assert_eq!(m["revocation_endpoint"], format!("{}/revoke", server.base));
    assert_eq!(m["client_id_metadata_document_supported"], true);
    assert_eq!(m["authorization_response_iss_parameter_supported"], true);
    assert_eq!(m["code_challenge_methods_supported"], json!(["S256"]));
    assert_eq!(m["response_types_supported"], json!(["code"]));
    assert_eq!(m["token_endpoint_auth_methods_supported"], json!(["none"]));
    assert_eq!(m["scopes_supported"].as_array().unwrap().len(), 6);
    for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"] {
        let prm = send(server.raw(Method::GET, path)).await;
        assert_eq!(prm.body["authorization_servers"], json!([server.base]), "{path}");
    }
}

/// The acceptance flow as a browser and a client do it: an operator asks for every scope and
/// grants what the role allows; tools/list shows exactly those tools; the refresh token
/// rotates, and replaying the old one revokes the grant with its access tokens.
#[tokio::test]
async fn a_browser_signs_in_consents_and_the_client_refreshes_until_a_replay_revokes_the_grant() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "operator").await;
    let client_id = client(&server).await;
    let (verifier, challenge) = pkce();
    let mut browser = Browser::new(&server);
    let every = "dunning.read dunning.write dunning.notify dunning.escalate dunning.webhooks dunning.exports";
    let page = browser.get(&authorize_path(&client_id, &challenge, &[("scope", every)])).await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("width=device-width, initial-scale=1"), "{}", page.body);
    assert!(page.body.contains("lang=\"pt-BR\"") && page.body.contains("Entrar"), "{}", page.body);
    let consent = browser.sign_in(&page, &email.to_uppercase(), PASSWORD).await;
    assert_eq!(consent.status, 200, "{}", consent.body);
    assert!(consent.body.contains("Assistente de Teste"), "client name shown");
    assert!(consent.body.contains("127.0.0.1:43210"), "redirect host shown");
    assert!(consent.body.contains("Enviar notificações"), "scopes in pt-BR: {}", consent.body);
    assert!(consent.body.contains("Send dunning notifications"), "and in English");
    assert!(consent.body.contains("Negativar"), "what the role does not allow is said");
    let mut form = consent.form("/authorize");
    form.set("decision", "allow");
    let answer = browser.submit(&form).await;
    assert_eq!(answer.status, 303);
    let params = query_of(answer.location.as_deref().unwrap());
    assert_eq!(params["state"], "st-123");
    assert_eq!(params["iss"], server.base);
    let r = exchange(&server, &client_id, &params["code"], &verifier).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.header("pragma"), Some("no-cache"), "RFC 6749 section 5.1");
    assert_eq!(r.body["token_type"], "Bearer");
    assert_eq!(r.body["expires_in"], 3600);
    assert_eq!(r.body["scope"], "dunning.read dunning.write dunning.notify");
    let access = r.body["access_token"].as_str().unwrap().to_string();
    let first_refresh = r.body["refresh_token"].as_str().unwrap().to_string();
    let granted = ["dunning.read", "dunning.write", "dunning.notify"];
    assert_eq!(tool_names(&server, &access).await, tools_of(&granted));

    let r = refresh(&server, &client_id, &first_refresh).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let second_access = r.body["access_token"].as_str().unwrap().to_string();
    let second_refresh = r.body["refresh_token"].as_str().unwrap().to_string();
    assert_ne!(second_refresh, first_refresh, "refresh tokens rotate");
    assert_eq!(r.header("pragma"), Some("no-cache"));
    assert_eq!(tool_names(&server, &second_access).await, tools_of(&granted));

    let replay = refresh(&server, &client_id, &first_refresh).await;
    assert_eq!(replay.status, 400);
    assert_eq!(replay.body["error"], "invalid_grant");
    assert_eq!(replay.header("pragma"), Some("no-cache"), "errors too (section 5.2)");
    assert_eq!(mcp_status(&server, &second_access).await, 401, "the grant's access tokens are revoked");
    assert_eq!(mcp_status(&server, &access).await, 401);
    let after = refresh(&server, &client_id, &second_refresh).await;
    assert_eq!(after.body["error"], "invalid_grant", "the newest refresh token went with the grant");
}

#[tokio::test]
async fn forms_without_the_right_csrf_token_are_refused_and_do_nothing() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let client_id = client(&server).await;
    let (_verifier, challenge) = pkce();
    let mut browser = Browser::new(&server);
    let page = browser.get(&authorize_path(&client_id, &challenge, &[])).await;
    let mut form = page.form("/signin");
    form.set("email", &email).set("password", PASSWORD);
    let missing = browser.submit(form.clone().without("csrf")).await;
    assert_eq!(missing.status, 403, "{}", missing.body);
    assert!(!browser.cookies.contains_key("kd_session"), "no session was started");
    let wrong = browser.submit(form.clone().set("csrf", "AAAA")).await;
    assert_eq!(wrong.status, 403);
    assert!(!browser.cookies.contains_key("kd_session"));
    // A token from another browser does not work either.
    let mut other = Browser::new(&server);
    let theirs = other.get("/signin").await.form("/signin");
    let foreign = browser.submit(form.clone().set("csrf", theirs.get("csrf").unwrap())).await;
    assert_eq!(foreign.status, 403);

    let consent = browser.sign_in(&page, &email, PASSWORD).await;
    let mut allow = consent.form("/authorize");
    allow.set("decision", "allow");
    for bad in [None, Some("wrong")] {
        let mut attempt = allow.clone();
        match bad {
            None => attempt.without("csrf"),
            Some(v) => attempt.set("csrf", v),
        };
        let r = browser.submit(&attempt).await;
        assert_eq!(r.status, 403, "{}", r.body);
        assert!(r.location.is_none(), "no code was sent anywhere");
    }
    // The sign-in form's token stops working once the browser signed in (bound to the session).
    let stale = browser.submit(&form).await;
    assert_eq!(stale.status, 403);
}

#[tokio::test]
async fn redirect_uris_are_matched_exactly_and_never_redirected_to_when_not_registered() {
    let server = TestServer::start().await;
    let client_id = client(&server).await;
    let (_verifier, challenge) = pkce();
    let mut browser = Browser::new(&server);
    for evil in [
        "https://evil.example/callback",
        "http://127.0.0.1:43210/callback/x",
        "http://127.0.0.1:43210/callback#f",
    ] {
        let path = authorize_path(&client_id, &challenge, &[]).replace(
            &form_urlencoded::byte_serialize(REDIRECT.as_bytes()).collect::<String>(),
            &form_urlencoded::byte_serialize(evil.as_bytes()).collect::<String>(),
        );
        let page = browser.get(&path).await;
        assert_eq!(page.status, 400, "{evil}: {}", page.body);
        assert!(page.location.is_none(), "{evil}: never redirected");
        assert!(page.body.contains("redirect_uri"), "{}", page.body);
    }
    // The port of a loopback IP literal may differ (RFC 8252 section 7.3).
    let other_port = authorize_path(&client_id, &challenge, &[]).replace("43210", "50001");
    assert_eq!(browser.get(&other_port).await.status, 200);
    // An unknown client: a page, not a redirect.
    let unknown = browser.get(&authorize_path("cli_nobody", &challenge, &[])).await;
    assert_eq!(unknown.status, 400);
    assert!(unknown.location.is_none());
    // Errors of a request whose redirect URI is registered are still shown on a page: nobody
    // acted yet, and anyone can register a redirect URI (RFC 9700 section 4.11.2).
    let plain = authorize_path(&client_id, &challenge, &[])
        .replace("code_challenge_method=S256", "code_challenge_method=plain");
    let no_pkce = authorize_path(&client_id, "", &[]).replace("&code_challenge_method=S256", "");
    let target = authorize_path(&client_id, &challenge, &[("resource", "https://elsewhere.example/mcp")]);
    // Unknown scopes are ignored; a request that asked only for unknown ones is refused.
    let scope = authorize_path(&client_id, &challenge, &[("scope", "admin offline_access")]);
    for (path, code) in [
        (plain, "invalid_request"),
        (no_pkce, "invalid_request"),
        (target, "invalid_target"),
        (scope, "invalid_scope"),
    ] {
        let page = browser.get(&path).await;
        assert_eq!(page.status, 400, "{path}: {}", page.body);
        assert!(page.location.is_none(), "{path}: never redirected");
        assert!(page.body.contains(code), "{path}: {}", page.body);
    }
}

/// An open redirector needs only a registration: a GET /authorize with a registered client
/// and redirect URI, and an error, must not send the browser there.
#[tokio::test]
async fn authorization_errors_before_the_user_acted_are_pages_not_redirects() {
    let server = TestServer::start().await;
    let evil = "https://evil.example/x";
    let r = register(&server, json!([evil]), "Anyone").await;
    assert_eq!(r.status, 201, "{}", r.body);
    let client_id = r.body["client_id"].as_str().unwrap().to_string();
    let (_verifier, challenge) = pkce();
    let mut browser = Browser::new(&server);
    let with_evil = |path: String| {
        path.replace(
            &form_urlencoded::byte_serialize(REDIRECT.as_bytes()).collect::<String>(),
            &form_urlencoded::byte_serialize(evil.as_bytes()).collect::<String>(),
        )
    };
    let bogus = with_evil(authorize_path(&client_id, &challenge, &[]))
        .replace("response_type=code", "response_type=bogus");
    let method = with_evil(authorize_path(&client_id, &challenge, &[]))
        .replace("code_challenge_method=S256", "code_challenge_method=S512");
    for (path, code) in [(bogus, "unsupported_response_type"), (method, "invalid_request")] {
        let page = browser.get(&path).await;
        assert_eq!(page.status, 400, "{path}: {}", page.body);
        assert!(page.location.is_none(), "{path}: no Location");
        assert!(page.body.starts_with("<!doctype html>"), "{}", page.body);
        assert!(page.body.contains(code), "{}", page.body);
        assert!(!page.body.contains(evil), "the page offers no link there: {}", page.body);
    }

    // After the user acted (signed in, consent form posted with its CSRF token), an error goes
    // back to the client with state and iss.
    let (_org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let page = browser.get(&authorize_path(&client_id, &challenge, &[])).await;
    let consent = browser.sign_in(&page, &email, PASSWORD).await;
    let mut form = consent.form("/authorize");
    form.set("decision", "allow").set("scope", "admin offline_access");
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 303, "{}", r.body);
    let location = r.location.unwrap();
    assert!(location.starts_with(REDIRECT), "{location}");
    let params = query_of(&location);
    assert_eq!(params["error"], "invalid_scope");
    assert_eq!(params["state"], "st-123");
    assert_eq!(params["iss"], server.base);
}

/// RFC 6749 section 3.3 lets the server ignore scopes: `offline_access`, which some MCP clients
/// add, is not a reason to refuse the sign-in. The token answer says what was granted.
#[tokio::test]
async fn unknown_scopes_such_as_offline_access_are_ignored() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "operator").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let asked = [("scope", "dunning.read offline_access")];
    let page = browser.get(&authorize_path(&client_id, &challenge, &asked)).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let consent = browser.sign_in(&page, &email, PASSWORD).await;
    assert_eq!(consent.status, 200, "{}", consent.body);
    assert!(consent.body.contains("<code class=\"muted\">dunning.read</code>"), "{}", consent.body);
    assert!(!consent.body.contains(">dunning.write</code>"), "not asked for: {}", consent.body);
    assert!(
        consent.body.contains("unknown here and ignored: <code>offline_access</code>"),
        "the page says what is ignored: {}",
        consent.body
    );
    let mut form = consent.form("/authorize");
    form.set("decision", "allow");
    let answer = browser.submit(&form).await;
    assert_eq!(answer.status, 303, "{}", answer.body);
    let params = query_of(answer.location.as_deref().unwrap());
    assert!(!params.contains_key("error"), "{params:?}");
    let r = exchange(&server, &client_id, &params["code"], &verifier).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["scope"], "dunning.read", "only what is known, and asked for, is granted");
    let access = r.body["access_token"].as_str().unwrap().to_string();
    assert_eq!(tool_names(&server, &access).await, tools_of(&["dunning.read"]));

    // A refresh that repeats the first request's scope is read the same way.
    let refresh_token = r.body["refresh_token"].as_str().unwrap();
    let again = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", &client_id),
            ("refresh_token", refresh_token),
            ("scope", "dunning.read offline_access"),
        ],
    )
    .await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["scope"], "dunning.read");
    let next = again.body["refresh_token"].as_str().unwrap();
    for (scope, why) in [("offline_access", "nothing known asked"), ("dunning.write", "never granted")] {
        let refused = token_request(
            &server,
            &[
                ("grant_type", "refresh_token"),
                ("client_id", &client_id),
                ("refresh_token", next),
                ("scope", scope),
            ],
        )
        .await;
        assert_eq!((refused.status, refused.body["error"].as_str()), (400, Some("invalid_scope")), "{why}");
    }
}

#[tokio::test]
async fn registration_accepts_https_and_loopback_redirects_only() {
    let server = TestServer::start().await;
    for bad in [
        json!([]),
        json!(["http://app.example/cb"]),
        json!(["https://app.example/cb#x"]),
        json!(["cb"]),
        // The answer's own parameters: the client would get two of them.
        json!(["https://app.example/cb?code=planted"]),
        json!(["https://app.example/cb?x=1&state=s"]),
        json!(["http://127.0.0.1:8000/cb?iss=https%3A%2F%2Fevil.example"]),
        json!(["https://app.example/cb?error=access_denied"]),
    ] {
        let r = register(&server, bad.clone(), "x").await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.body["error"], "invalid_redirect_uri", "{bad}");
    }
    let r = register(
        &server,
        json!(["https://app.example/cb", "http://[::1]:8000/cb", "http://localhost/cb"]),
        "App",
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert!(r.body["client_id"].as_str().unwrap().starts_with("cli_"));
    assert_eq!(r.body["client_name"], "App");
    // Invisible characters never reach the consent page: a bidi override would show another
    // app's name.
    let r = register(&server, json!([REDIRECT]), "Evil\u{202e}ppA\u{200b}\u{2028}").await;
    assert_eq!((r.status, r.body["client_name"].clone()), (201, json!("EvilppA")), "{}", r.body);
}

#[tokio::test]
async fn redirect_uris_with_controls_spaces_quotes_or_angle_brackets_are_refused() {
    // The URL parser would drop the line breaks and escape the rest: what was stored and shown
    // would not be the URL that is redirected to.
    let server = TestServer::start().await;
    for bad in [
        "https://app.example/cb\r\nX-Injected: 1",
        "https://app.example/c\tb",
        "https://app.example/cb?next=a b",
        "https://app.example/cb?x=\"onload=\"",
        "https://app.example/cb?x=<script>",
        "http://127.0.0.1:8000/cb'",
    ] {
        let r = register(&server, json!(["https://app.example/ok", bad]), "x").await;
        assert_eq!(r.status, 400, "{bad:?}: {}", r.body);
        assert_eq!(r.body["error"], "invalid_redirect_uri", "{bad:?}");
    }
}

#[tokio::test]
async fn a_wrong_verifier_burns_the_code_and_a_replayed_code_revokes_its_tokens() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);

    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let (other_verifier, _) = pkce();
    let wrong = exchange(&server, &client_id, &code, &other_verifier).await;
    assert_eq!((wrong.status, wrong.body["error"].as_str()), (400, Some("invalid_grant")), "{}", wrong.body);
    let after = exchange(&server, &client_id, &code, &verifier).await;
    assert_eq!(after.body["error"], "invalid_grant", "the code was burnt");

    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["scope"], "dunning.read", "a viewer asking for nothing gets what the role allows");
    let access = r.body["access_token"].as_str().unwrap();
    assert_eq!(mcp_status(&server, access).await, 200);
    let replay = exchange(&server, &client_id, &code, &verifier).await;
    assert_eq!(replay.body["error"], "invalid_grant");
    assert_eq!(mcp_status(&server, access).await, 401, "tokens issued from a replayed code are revoked");

    // Another client cannot use this client's code.
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let thief = client(&server).await;
    assert_eq!(exchange(&server, &thief, &code, &verifier).await.body["error"], "invalid_grant");
    let unknown_grant =
        token_request(&server, &[("grant_type", "password"), ("client_id", &client_id)]).await;
    assert_eq!(unknown_grant.body["error"], "unsupported_grant_type");
}

#[tokio::test]
async fn the_resource_sets_the_audience_and_a_v1_token_is_refused_at_mcp() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let api = format!("{}/v1", server.base);
    let code =
        sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[("resource", &api)]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let token = r.body["access_token"].as_str().unwrap().to_string();
    assert_eq!(mcp_status(&server, &token).await, 401, "an api token is not for /mcp");
    assert_eq!(server.read(&token, "me", "").await.status, 200, "it works at /v1");
    let refresh_token = r.body["refresh_token"].as_str().unwrap();
    let other = token_request(
        &server,
        &[
            ("grant_type", "refresh_token"),
            ("client_id", &client_id),
            ("refresh_token", refresh_token),
            ("resource", &format!("{}/mcp", server.base)),
        ],
    )
    .await;
    assert_eq!(other.body["error"], "invalid_target", "a refresh cannot change the audience");

    // No resource: the MCP audience, refused at /v1.
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(
        &server,
        &mut browser,
        &client_id,
        &challenge,
        &email,
        &[("scope", "dunning.read")],
    )
    .await;
    let token = exchange(&server, &client_id, &code, &verifier).await.body["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(mcp_status(&server, &token).await, 200);
    assert_eq!(server.read(&token, "me", "").await.status, 401);
}

/// A client that connects to a narrower MCP path signs in for it as its resource: the token is
/// an MCP token, good on every MCP path and refused at /v1; a path that names no toolset is no
/// resource.
#[tokio::test]
async fn a_narrower_mcp_path_is_a_resource_with_the_mcp_audience() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let resource = format!("{}/mcp/x/charges,debtors", server.base);
    let code =
        sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[("resource", &resource)])
            .await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let token = r.body["access_token"].as_str().unwrap_or_else(|| panic!("{}", r.body)).to_string();
    let list = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {} });
    for path in ["/mcp/x/charges,debtors", "/mcp/readonly", "/mcp"] {
        let r = server.mcp_raw(path, Some(&token), &list, &[]).await;
        assert_eq!(r.status, 200, "{path}: {}", r.body);
    }
    assert_eq!(server.read(&token, "me", "").await.status, 401, "an MCP token is not for /v1");

    let target =
        authorize_path(&client_id, &challenge, &[("resource", &format!("{}/mcp/x/nope", server.base))]);
    let page = browser.get(&target).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("invalid_target"), "{}", page.body);
}

#[tokio::test]
async fn a_step_up_gets_a_new_grant_with_more_scopes() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(
        &server,
        &mut browser,
        &client_id,
        &challenge,
        &email,
        &[("scope", "dunning.read")],
    )
    .await;
    let first = exchange(&server, &client_id, &code, &verifier).await;
    let read_only = first.body["access_token"].as_str().unwrap().to_string();
    assert_eq!(tool_names(&server, &read_only).await, tools_of(&["dunning.read"]));
    let (verifier, challenge) = pkce();
    let both = [("scope", "dunning.read dunning.exports")];
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &both).await;
    let second = exchange(&server, &client_id, &code, &verifier).await;
    assert_eq!(second.body["scope"], "dunning.read dunning.exports");
    let wider = second.body["access_token"].as_str().unwrap();
    assert_eq!(tool_names(&server, wider).await, tools_of(&["dunning.read", "dunning.exports"]));
    assert_eq!(mcp_status(&server, &read_only).await, 200, "the first grant lives on");
}

#[tokio::test]
async fn the_sixth_sign_in_within_fifteen_minutes_is_refused_even_with_the_right_password() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let mut browser = Browser::new(&server);
    let page = browser.get("/signin").await;
    let mut form = page.form("/signin");
    for attempt in 1..=5 {
        form.set("email", &email).set("password", "not the password");
        let r = browser.submit(&form).await;
        assert_eq!(r.status, 401, "attempt {attempt}: {}", r.body);
        assert!(r.body.contains("E-mail ou senha incorretos"), "{}", r.body);
        form = r.form("/signin");
    }
    form.set("email", &email.to_uppercase()).set("password", PASSWORD);
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert!(r.body.contains("15 minutos") && r.body.contains("15 minutes"), "{}", r.body);
    assert!(!browser.cookies.contains_key("kd_session"));
    // Another e-mail is not locked by these failures.
    let (_org, other) = user(&server, "viewer").await;
    let mut form = r.form("/signin");
    form.set("email", &other).set("password", PASSWORD);
    assert_eq!(browser.submit(&form).await.status, 303);
}

/// Guesses sent at once for one e-mail are counted one after another: exactly 5 are judged,
/// the others refused as throttled, and then the right password too.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_ins_at_once_for_one_e_mail_are_judged_at_most_five() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let mut browser = Browser::new(&server);
    let mut form = browser.get("/signin").await.form("/signin");
    form.set("email", &email).set("password", "not the password");
    let cookie: Vec<String> = browser.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let cookie = cookie.join("; ");
    let body: String =
        form_urlencoded::Serializer::new(String::new()).extend_pairs(form.fields.iter()).finish();
    let mut guesses = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let req = browser
            .client
            .post(browser.url("/signin"))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("cookie", cookie.clone())
            .body(body.clone());
        guesses.spawn(async move { req.send().await.expect("the server answers").status().as_u16() });
    }
    let statuses = guesses.join_all().await;
    let judged = statuses.iter().filter(|s| **s == 401).count();
    let throttled = statuses.iter().filter(|s| **s == 429).count();
    assert_eq!(judged, 5, "{statuses:?}");
    assert_eq!(judged + throttled, 10, "{statuses:?}");
    form.set("password", PASSWORD);
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 429, "the right password is refused too: {}", r.body);
    assert!(!browser.cookies.contains_key("kd_session"));
}

#[tokio::test]
async fn sign_in_never_leads_off_site_and_cookies_are_http_only_and_lax() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "admin").await;
    let mut browser = Browser::new(&server);
    let page = browser.get("/signin?next=https://evil.example/").await;
    assert_eq!(page.form("/signin").get("next"), Some("/connections"));
    let mut form = page.form("/signin");
    form.set("email", &email).set("password", PASSWORD).set("next", "//evil.example/x");
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 303);
    assert_eq!(r.location.as_deref(), Some("/connections"));
    assert!(!browser.set_cookies.is_empty());
    // A next that no Location header can carry goes home too (never a 303 without Location).
    let page = browser.get("/signin?next=%2Fcobran%C3%A7as").await;
    assert_eq!(page.form("/signin").get("next"), Some("/connections"));
    let mut form = page.form("/signin");
    form.set("email", &email).set("password", PASSWORD).set("next", "/cobran\u{e7}as?q=s\u{e3}o");
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(r.location.as_deref(), Some("/connections"));
    for cookie in &browser.set_cookies {
        assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
        assert!(!cookie.contains("Secure"), "the public URL is http: {cookie}");
    }
    let session = browser.cookies.get("kd_session").expect("session").clone();
    assert!(session.starts_with("kd_ss_"));
    // Signing out ends the session on the server too.
    let connections = browser.get("/connections").await;
    assert_eq!(connections.status, 200);
    let out = browser.submit(&connections.form("/signout")).await;
    assert_eq!(out.status, 303);
    let mut stolen = Browser::new(&server);
    stolen.cookies.insert("kd_session".into(), session);
    let r = stolen.get("/connections").await;
    assert_eq!(r.status, 303, "the old cookie signs nobody in");
    assert!(r.location.unwrap().starts_with("/signin?next="));
}

#[tokio::test]
async fn connected_clients_are_listed_and_disconnecting_one_revokes_its_tokens() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "operator").await;
    let r = register(&server, json!([REDIRECT]), "<script>alert(1)</script> Bot").await;
    let client_id = r.body["client_id"].as_str().unwrap().to_string();
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let token = r.body["access_token"].as_str().unwrap().to_string();
    let page = browser.get("/connections").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("&lt;script&gt;alert(1)&lt;/script&gt; Bot"), "{}", page.body);
    assert!(!page.body.contains("<script>"));
    let form = page.form("/connections/disconnect");
    let missing = browser.submit(form.clone().without("csrf")).await;
    assert_eq!(missing.status, 403);
    assert_eq!(mcp_status(&server, &token).await, 200, "nothing happened");
    let r = browser.submit(&form).await;
    assert_eq!(r.status, 303);
    assert_eq!(mcp_status(&server, &token).await, 401);
    assert!(!browser.get("/connections").await.body.contains("Bot"));
    // Another user's grant cannot be disconnected by id.
    let (_org, other) = user(&server, "operator").await;
    let mut theirs = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut theirs, &client_id, &challenge, &other, &[]).await;
    let their_token = exchange(&server, &client_id, &code, &verifier).await.body["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    let their_grant =
        theirs.get("/connections").await.form("/connections/disconnect").get("grant_id").unwrap().to_string();
    let mut attempt = browser.get("/connections").await.form("/signout");
    attempt.action = "/connections/disconnect".into();
    attempt.set("grant_id", &their_grant);
    assert_eq!(browser.submit(&attempt).await.status, 404);
    assert_eq!(mcp_status(&server, &their_token).await, 200);
}

#[tokio::test]
async fn revoking_a_refresh_token_revokes_the_grant() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let access = r.body["access_token"].as_str().unwrap().to_string();
    let refresh_token = r.body["refresh_token"].as_str().unwrap().to_string();
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([("token", refresh_token.as_str()), ("client_id", "cli_someone_else")])
        .finish();
    let post = |body: String| {
        server
            .raw(Method::POST, "/revoke")
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body)
    };
    let answer = send(post(body)).await;
    assert_eq!(answer.status, 200);
    assert_eq!(answer.header("pragma"), Some("no-cache"));
    assert_eq!(mcp_status(&server, &access).await, 200, "another client cannot revoke it");
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([("token", refresh_token.as_str()), ("client_id", client_id.as_str())])
        .finish();
    assert_eq!(send(post(body)).await.status, 200);
    assert_eq!(mcp_status(&server, &access).await, 401);
    assert_eq!(refresh(&server, &client_id, &refresh_token).await.body["error"], "invalid_grant");
}

/// `tokens revoke` of an OAuth access token (the CLI, another process) revokes its grant: the
/// refresh token no longer mints the next access token. `tokens list` shows the grant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_revoke_of_an_oauth_access_token_revokes_its_grant() {
    let server = TestServer::start().await;
    let (org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let access = r.body["access_token"].as_str().unwrap().to_string();
    let refresh_token = r.body["refresh_token"].as_str().unwrap().to_string();
    let cli = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_kobana-dunning"))
            .args(["--database", server.database_url()])
            .args(args)
            .env_remove("KOBANA_DUNNING_DATABASE")
            .output()
            .expect("runs");
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).expect("utf-8")
    };
    let listing = cli(&["tokens", "list", "--org", &org]);
    let mut lines = listing.lines();
    assert_eq!(lines.next().and_then(|h| h.split('\t').nth(8)), Some("grant"), "{listing}");
    let row: Vec<&str> = lines.next().expect("the grant's token").split('\t').collect();
    assert_eq!(row[3], client_id, "{listing}");
    assert!(row[8].starts_with("grt_"), "{listing}");

    assert_eq!(cli(&["tokens", "revoke", &access]).trim(), "revoked");
    let r = refresh(&server, &client_id, &refresh_token).await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.body["error"], "invalid_grant");
    let listing = cli(&["tokens", "list", "--org", &org]);
    let row: Vec<&str> = listing.lines().nth(1).unwrap().split('\t').collect();
    assert_ne!(row[7], "-", "the access token is revoked: {listing}");

    // A grant id revokes the grant too (and only once).
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let refresh_token = r.body["refresh_token"].as_str().unwrap().to_string();
    let listing = cli(&["tokens", "list", "--org", &org]);
    let grant = listing.lines().nth(2).unwrap().split('\t').nth(8).unwrap().to_string();
    assert!(server.app.revoke_token(&grant).await.expect("revoke"));
    assert!(!server.app.revoke_token(&grant).await.expect("revoke"), "already revoked");
    assert_eq!(refresh(&server, &client_id, &refresh_token).await.body["error"], "invalid_grant");
}

/// A one-file web server on loopback that answers every request with `document`.
async fn serve_document(document: impl Fn(&str) -> String + Send + Sync + 'static) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/oauth/client.json", listener.local_addr().unwrap());
    let body = document(&url);
    tokio::spawn(async move {
        loop {
            let Ok((mut stream, _)) = listener.accept().await else { return };
            let body = body.clone();
            tokio::spawn(async move {
                let mut buf = [0u8; 4096];
                let _ = stream.read(&mut buf).await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(answer.as_bytes()).await;
            });
        }
    });
    url
}

#[tokio::test]
async fn a_client_id_metadata_document_stands_in_for_registration() {
    let server = TestServer::start_allowing_insecure_targets().await;
    let (_org, email) = user(&server, "viewer").await;
    let url = serve_document(|url| {
        json!({ "client_id": url, "client_name": "Documented Client", "redirect_uris": [REDIRECT] })
            .to_string()
    })
    .await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &url, &challenge, &email, &[]).await;
    let r = exchange(&server, &url, &code, &verifier).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(browser.get("/connections").await.body.contains("Documented Client"));

    let liar = serve_document(|_| {
        json!({ "client_id": "https://other.example/c.json", "redirect_uris": [REDIRECT] }).to_string()
    })
    .await;
    let page = browser.get(&authorize_path(&liar, &challenge, &[])).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.location.is_none());

    // A document whose redirect URI already carries a response parameter is refused.
    let planted = format!("{REDIRECT}?code=planted");
    let planting = serve_document(move |url| {
        json!({ "client_id": url, "redirect_uris": [planted.clone()] }).to_string()
    })
    .await;
    let path = authorize_path(&planting, &challenge, &[]).replace(
        &form_urlencoded::byte_serialize(REDIRECT.as_bytes()).collect::<String>(),
        &form_urlencoded::byte_serialize(format!("{REDIRECT}?code=planted").as_bytes()).collect::<String>(),
    );
    let page = browser.get(&path).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.location.is_none());
    assert!(page.body.contains("code parameter"), "{}", page.body);

    // Without --allow-insecure-targets, a loopback http document is never fetched.
    let strict = TestServer::start().await;
    let mut browser = Browser::new(&strict);
    let page = browser.get(&authorize_path(&url, &challenge, &[])).await;
    assert_eq!(page.status, 400);
}

/// Why a document could not be fetched (a private address, a refused connection) is logged,
/// not shown: the page would otherwise tell anyone what this server can reach.
#[tokio::test]
async fn a_document_that_cannot_be_fetched_is_refused_without_saying_why() {
    let (_verifier, challenge) = pkce();
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.local_addr().unwrap().port()
    };
    let insecure = TestServer::start_allowing_insecure_targets().await;
    let strict = TestServer::start().await;
    for (server, url) in [
        (&insecure, format!("http://127.0.0.1:{closed}/oauth/client.json")),
        (&strict, "https://127.0.0.1/oauth/client.json".to_string()),
    ] {
        let page = Browser::new(server).get(&authorize_path(&url, &challenge, &[])).await;
        assert_eq!(page.status, 400, "{url}: {}", page.body);
        assert!(page.location.is_none());
        let message =
            page.body.split("<p class=\"error\">").nth(1).unwrap_or("").split("</p>").next().unwrap_or("");
        assert!(
            message.contains("the client&#39;s metadata document could not be fetched"),
            "{url}: {}",
            page.body
        );
        for detail in ["private", "loopback", "connect", "refused", "TLS", "status", "resolve"] {
            assert!(
                !message.to_lowercase().contains(&detail.to_lowercase()),
                "{url} says {detail}: {message}"
            );
        }
    }
}

/// A grant revoked on one replica stops its tokens on the others: at once on PostgreSQL (the
/// revocation is announced), within the token cache's 5 s on SQLite (one process serves there;
/// a second one on the same file is the documented bound).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_grant_revoked_on_one_replica_stops_working_on_the_others() {
    let server = TestServer::start().await;
    let replica = server.replica().await;
    let (_org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let r = exchange(&server, &client_id, &code, &verifier).await;
    let access = r.body["access_token"].as_str().unwrap().to_string();
    let first_refresh = r.body["refresh_token"].as_str().unwrap().to_string();
    assert_eq!(mcp_status(&replica, &access).await, 200, "the replica has the token cached now");
    // The refresh happens on the replica, the replay on the first server.
    let rotated = refresh(&replica, &client_id, &first_refresh).await;
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    let newest = rotated.body["access_token"].as_str().unwrap().to_string();
    assert_eq!(mcp_status(&replica, &newest).await, 200);
    assert_eq!(refresh(&server, &client_id, &first_refresh).await.body["error"], "invalid_grant");
    let bound = if TestServer::on_postgres() {
        std::time::Duration::from_secs(2)
    } else {
        kobana_dunning::auth::TOKEN_CACHE_TTL + std::time::Duration::from_secs(1)
    };
    let started = std::time::Instant::now();
    loop {
        if mcp_status(&replica, &newest).await == 401 && mcp_status(&replica, &access).await == 401 {
            break;
        }
        assert!(started.elapsed() < bound, "the replica still accepts the revoked grant's tokens");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn housekeeping_forgets_expired_codes_sessions_and_failures() {
    let server = TestServer::start().await;
    let (_org, email) = user(&server, "viewer").await;
    let client_id = client(&server).await;
    let mut browser = Browser::new(&server);
    let page = browser.get("/signin").await;
    let mut form = page.form("/signin");
    // A failure for another e-mail (the user's own would be cleared by signing in).
    form.set("email", "someone.else@example.com").set("password", "not the password");
    assert_eq!(browser.submit(&form).await.status, 401, "one failure recorded");
    let (_verifier, challenge) = pkce();
    sign_in_and_allow(&server, &mut browser, &client_id, &challenge, &email, &[]).await;
    let later = time::OffsetDateTime::now_utc() + time::Duration::days(3);
    let removed = kobana_dunning::housekeeping::run_oauth_once(&server.app, later).await.unwrap();
    assert_eq!((removed.codes, removed.sessions, removed.sign_in_failures), (1, 1, 1), "{removed:?}");
    assert_eq!(removed.clients, 1, "the client got no grant from its code: {removed:?}");
    assert_eq!(removed.total(), 4, "{removed:?}");
    assert_eq!(browser.get("/connections").await.status, 303, "the session is gone");
    let again = kobana_dunning::housekeeping::run_oauth_once(&server.app, later).await.unwrap();
    assert_eq!(again.total(), 0, "nothing twice: {again:?}");
}

/// Signs `email` in, allows `client_id` and exchanges the code: (access token, refresh token).
async fn connect(
    server: &TestServer,
    browser: &mut Browser,
    client_id: &str,
    email: &str,
) -> (String, String) {
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(server, browser, client_id, &challenge, email, &[]).await;
    let r = exchange(server, client_id, &code, &verifier).await;
    assert_eq!(r.status, 200, "{}", r.body);
    (
        r.body["access_token"].as_str().unwrap().to_string(),
        r.body["refresh_token"].as_str().unwrap().to_string(),
    )
}

/// What can no longer be used goes a day after it stopped mattering, on both databases, and
/// what can still be used stays: a live grant's refresh tokens, used ones included (a replay
/// still revokes the grant), and clients with grants. A client known by its metadata document
/// has no registration to forget; its grant follows the grant rules. CLI tokens are not the
/// authorization server's to forget.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn housekeeping_forgets_used_refresh_tokens_revoked_grants_and_unused_clients_and_keeps_the_rest() {
    use kobana_dunning::auth::hash_token;
    use kobana_dunning::housekeeping::run_oauth_once;

    let server = TestServer::start_allowing_insecure_targets().await;
    let store = &server.app.store;
    let (org, email) = user(&server, "viewer").await;
    let cli_token = server.token(&org, "dunning.read").await;
    let mut browser = Browser::new(&server);
    let grant_of = |access: String| async move {
        store
            .grant_of_token(&hash_token(&access))
            .await
            .unwrap()
            .and_then(|(_, grant)| grant)
            .expect("a grant")
    };
    // A: connected, and its refresh token rotated once (the first one is used now).
    let used = client(&server).await;
    let (access, first_refresh) = connect(&server, &mut browser, &used, &email).await;
    let used_grant = grant_of(access).await;
    let rotated = refresh(&server, &used, &first_refresh).await;
    assert_eq!(rotated.status, 200, "{}", rotated.body);
    let second_refresh = rotated.body["refresh_token"].as_str().unwrap().to_string();
    // B: registered, never used.
    let never = client(&server).await;
    // C: connected, then its grant revoked.
    let revoked = client(&server).await;
    let (access, revoked_refresh) = connect(&server, &mut browser, &revoked, &email).await;
    let revoked_grant = grant_of(access).await;
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([("token", revoked_refresh.as_str()), ("client_id", revoked.as_str())])
        .finish();
    let revoke = server
        .raw(Method::POST, "/revoke")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body);
    assert_eq!(send(revoke).await.status, 200);
    // D: a client ID metadata document, connected.
    let document = serve_document(|url| {
        json!({ "client_id": url, "client_name": "Documented", "redirect_uris": [REDIRECT] }).to_string()
    })
    .await;
    let (access, document_refresh) = connect(&server, &mut browser, &document, &email).await;
    let document_grant = grant_of(access).await;

    // Two days on: what stopped mattering more than a day ago goes.
    let now = time::OffsetDateTime::now_utc();
    let purged = run_oauth_once(&server.app, now + time::Duration::days(2)).await.unwrap();
    let expected = kobana_dunning::store::OAuthPurged {
        codes: 3,    // A's, C's and D's, exchanged a minute after they were issued
        sessions: 1, // the browser's, 12 hours
        sign_in_failures: 0,
        refresh_tokens: 1, // C's: its grant was revoked
        access_tokens: 4,  // A's two, C's and D's: an hour each
        grants: 1,         // C's
        clients: 2,        // B (never used) and C (its only grant gone)
    };
    assert_eq!(purged, expected);
    assert!(store.oauth_client(&never).await.unwrap().is_none());
    assert!(store.oauth_client(&revoked).await.unwrap().is_none());
    assert!(store.grant(&revoked_grant).await.unwrap().is_none());
    assert!(store.refresh_by_hash(&hash_token(&revoked_refresh)).await.unwrap().is_none());
    assert!(store.oauth_client(&used).await.unwrap().is_some(), "A has a live grant");
    assert!(store.grant(&used_grant).await.unwrap().is_some());
    assert!(store.grant(&document_grant).await.unwrap().is_some());
    let used_row = store.refresh_by_hash(&hash_token(&first_refresh)).await.unwrap();
    assert!(used_row.is_some_and(|r| r.used_at.is_some()), "a used refresh token stays until its expiry");
    let tokens = store.list_tokens(Some(&org)).await.unwrap();
    assert_eq!(tokens.len(), 1, "the CLI token only: {tokens:?}");
    assert!(tokens[0].grant_id.is_none());
    assert_eq!(server.read(&cli_token, "me", "").await.status, 200);

    // What stays works: the forgotten client is unknown, the others sign in and refresh.
    let (_verifier, challenge) = pkce();
    let page = Browser::new(&server).get(&authorize_path(&never, &challenge, &[])).await;
    assert_eq!(page.status, 400, "{}", page.body);
    assert!(page.body.contains("invalid_client"), "{}", page.body);
    assert_eq!(Browser::new(&server).get(&authorize_path(&used, &challenge, &[])).await.status, 200);
    assert_eq!(refresh(&server, &revoked, &revoked_refresh).await.body["error"], "invalid_grant");
    let document_rotated = refresh(&server, &document, &document_refresh).await;
    assert_eq!(document_rotated.status, 200, "{}", document_rotated.body);
    let newest = refresh(&server, &used, &second_refresh).await;
    assert_eq!(newest.status, 200, "{}", newest.body);
    let newest_refresh = newest.body["refresh_token"].as_str().unwrap().to_string();
    let newest_access = newest.body["access_token"].as_str().unwrap().to_string();
    // Reuse detection still works: the kept used token revokes the grant.
    assert_eq!(refresh(&server, &used, &first_refresh).await.body["error"], "invalid_grant");
    assert_eq!(mcp_status(&server, &newest_access).await, 401, "the replay revoked the grant");
    assert_eq!(refresh(&server, &used, &newest_refresh).await.body["error"], "invalid_grant");

    // A month and two days on, every refresh token issued today has expired a day ago: the
    // revoked grant A and the grant D nothing can renew go, and A's registration with them.
    let purged = run_oauth_once(&server.app, now + time::Duration::days(32)).await.unwrap();
    let expected = kobana_dunning::store::OAuthPurged {
        refresh_tokens: 5, // A's three, D's two
        access_tokens: 2,  // A's and D's newest
        grants: 2,
        clients: 1,
        ..Default::default()
    };
    assert_eq!(purged, expected);
    assert!(store.oauth_client(&used).await.unwrap().is_none());
    assert!(store.grant(&used_grant).await.unwrap().is_none());
    assert!(store.grant(&document_grant).await.unwrap().is_none());
    assert!(store.refresh_by_hash(&hash_token(&first_refresh)).await.unwrap().is_none());
    assert_eq!(store.list_tokens(Some(&org)).await.unwrap().len(), 1, "the CLI token stays");
}

/// A method a route does not take is 405 with `Allow`, as on /v1 (RFC 9110 section 15.5.6): RFC
/// 6749 JSON at the endpoints clients call, a page where browsers go. Not a 404, which would say
/// the endpoint is not there.
#[tokio::test]
async fn other_methods_are_405_with_the_methods_each_route_takes() {
    let server = TestServer::start().await;
    let json_routes = [
        (Method::GET, "/token", "POST"),
        (Method::GET, "/register", "POST"),
        (Method::GET, "/revoke", "POST"),
        (Method::PUT, "/token", "POST"),
        (Method::POST, "/.well-known/oauth-authorization-server", "GET, HEAD"),
    ];
    for (method, path, allow) in json_routes {
        let r = send(server.raw(method.clone(), path)).await;
        assert_eq!(r.status, 405, "{method} {path}: {}", r.body);
        assert_eq!(r.header("allow"), Some(allow), "{method} {path}");
        assert_eq!(r.body["error"], "invalid_request", "{method} {path}: {}", r.body);
        let description = r.body["error_description"].as_str().unwrap_or_default();
        assert!(description.contains(method.as_str()) && description.contains(allow), "{description}");
        assert_eq!(r.header("pragma"), Some("no-cache"), "{method} {path}");
    }
    let pages = [
        (Method::GET, "/signout", "POST"),
        (Method::GET, "/connections/disconnect", "POST"),
        (Method::DELETE, "/connections", "GET, HEAD"),
        (Method::PUT, "/authorize", "GET, HEAD, POST"),
        (Method::PATCH, "/signin", "GET, HEAD, POST"),
        (Method::DELETE, "/approvals/apr_00000000000000000000000000000000", "GET, HEAD, POST"),
    ];
    for (method, path, allow) in pages {
        let r = server.raw(method.clone(), path).send().await.expect("the server answers");
        assert_eq!(r.status(), 405, "{method} {path}");
        assert_eq!(r.headers().get("allow").and_then(|v| v.to_str().ok()), Some(allow), "{method} {path}");
        let kind = r.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default();
        assert!(kind.starts_with("text/html"), "{method} {path}: {kind}");
        let body = r.text().await.unwrap();
        assert!(body.contains(&format!("does not take the method {method}; use {allow}")), "{body}");
    }
    // HEAD of a POST-only endpoint: no GET to borrow a head from.
    let head = server.raw(Method::HEAD, "/token").send().await.expect("the server answers");
    assert_eq!(
        (head.status().as_u16(), head.headers().get("allow").map(|v| v.to_str().unwrap())),
        (405, Some("POST"))
    );
    // The methods taken still work, and a CORS preflight is not asked for the resource.
    assert_eq!(send(server.raw(Method::GET, "/.well-known/oauth-authorization-server")).await.status, 200);
    assert_eq!(token_request(&server, &[("grant_type", "password")]).await.body["error"], "invalid_request");
    let preflight = send(
        server
            .raw(Method::OPTIONS, "/token")
            .header("origin", "https://app.example")
            .header("access-control-request-method", "POST"),
    )
    .await;
    assert_eq!(preflight.status, 404, "as on /v1: {}", preflight.body);
    assert_eq!(preflight.header("allow"), None);
}

/// The tool_json of a CONFIRMATION_REQUIRED answer: its approval page's path.
fn approval_path(server: &TestServer, r: &Resp) -> String {
    assert_eq!(r.status, 200, "{}", r.body);
    let body = r.tool_json();
    assert_eq!(body["error"]["code"], "CONFIRMATION_REQUIRED", "{body}");
    let url = body["error"]["details"]["approval_url"].as_str().expect("an approval_url");
    url.strip_prefix(&server.base).expect("a page of this server").to_string()
}

/// An approval asked with an OAuth access token binds the user and the client, not the token:
/// the client's next access token (a refresh of the same grant) uses it, while another client
/// the same user connected cannot. The page says who asked in words: the client's name and the
/// person it acts for.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approval_binds_user_and_client_so_a_refresh_keeps_it_and_another_client_cannot_use_it() {
    let server = TestServer::start().await;
    let (org, email) = user(&server, "operator").await;
    let setup = server.token(&org, crate::common::ALL).await;
    let debtor = server.create_debtor(&setup, "Maria Souza", "52998224725").await;
    let charge = server
        .create_charge(&setup, debtor["id"].as_str().unwrap(), 1250.0, &crate::common::date_in(5))
        .await;
    let charge_id = charge["id"].as_str().unwrap().to_string();
    let cancel = json!({ "name": "dunning_charges_cancel", "arguments": { "id": charge_id } });
    let status = || async {
        server.read_id(&setup, "charges_get", &charge_id).await.data()["status"].as_str().unwrap().to_string()
    };

    let mut browser = Browser::new(&server);
    let assistant = client(&server).await;
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &assistant, &challenge, &email, &[]).await;
    let first = exchange(&server, &assistant, &code, &verifier).await;
    let access = first.body["access_token"].as_str().unwrap().to_string();
    let refresh_token = first.body["refresh_token"].as_str().unwrap().to_string();
    let r = register(&server, json!([REDIRECT]), "Outro Assistente").await;
    let other_client = r.body["client_id"].as_str().unwrap().to_string();
    let (verifier, challenge) = pkce();
    let code = sign_in_and_allow(&server, &mut browser, &other_client, &challenge, &email, &[]).await;
    let other_access = exchange(&server, &other_client, &code, &verifier).await.body["access_token"]
        .as_str()
        .unwrap()
        .to_string();

    let path = approval_path(&server, &server.mcp_2025(&access, "tools/call", cancel.clone()).await);
    // The user approves on the page (its words are checked at the end, once the call ran).
    let page = browser.get(&path).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let mut form = page.form(&path);
    form.set("decision", "approve");
    assert_eq!(browser.submit(&form).await.status, 303);

    // The same user through another client: not this approval, and nothing runs.
    let elsewhere = server.mcp_2025(&other_access, "tools/call", cancel.clone()).await;
    assert_ne!(approval_path(&server, &elsewhere), path, "another client gets its own approval");
    assert_eq!(status().await, "pending");

    // A refresh of the first client's grant: its new token is the same asker, and runs once.
    let refreshed = refresh(&server, &assistant, &refresh_token).await;
    assert_eq!(refreshed.status, 200, "{}", refreshed.body);
    let next_access = refreshed.body["access_token"].as_str().unwrap().to_string();
    assert_ne!(next_access, access);
    let ran = server.mcp_2025(&next_access, "tools/call", cancel.clone()).await;
    assert!(!ran.is_tool_error(), "{}", ran.body);
    assert_eq!(ran.tool_json()["data"]["status"], "canceled", "{}", ran.body);
    assert_eq!(status().await, "canceled");
    let page = browser.get(&path).await;
    assert!(page.body.contains("and done"), "{}", page.body);
    let person = email.to_lowercase();
    assert!(
        page.body.contains(&format!(
            "Asked by the assistant <strong>Assistente de Teste</strong>, on behalf of {person}"
        )),
        "{}",
        page.body
    );
    assert!(page.body.contains(&format!(
        "Pedido pelo assistente <strong>Assistente de Teste</strong>, em nome de {person}"
    )));
    assert!(!page.body.contains("user:usr_") && !page.body.contains(&assistant), "no raw ids: {}", page.body);
}
