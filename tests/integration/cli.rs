//! The real `kobana-dunning` binary: administration commands, `serve --demo`, `spec tools` and
//! `spec diff`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use serde_json::json;

use crate::common::{FreshDatabase, Resp, cpf, date_in, envelope, fresh_database, send};

const BIN: &str = env!("CARGO_BIN_EXE_kobana-dunning");

/// A database (or a key file) removed when the test ends.
struct TempDb(PathBuf, Option<FreshDatabase>);

impl TempDb {
    /// The suite's database: PostgreSQL when the suite runs there, a SQLite file otherwise.
    async fn new() -> Self {
        let db = fresh_database().await;
        if db.url.starts_with("sqlite://") { Self::file() } else { Self(PathBuf::new(), Some(db)) }
    }

    /// A SQLite file, whatever the suite runs on.
    fn file() -> Self {
        Self(std::env::temp_dir().join(format!("kd-cli-{}.db", uuid::Uuid::now_v7().simple())), None)
    }

    fn url(&self) -> String {
        match &self.1 {
            Some(db) => db.url.clone(),
            None => format!("sqlite://{}", self.0.display()),
        }
    }
}

impl Drop for TempDb {
    fn drop(&mut self) {
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", self.0.display()));
        }
    }
}

/// A running `serve`, killed when dropped (also when an assertion fails).
struct Server {
    child: Child,
    /// `http://127.0.0.1:<port>`
    base: String,
    /// The `demo token:` line's token, with --demo.
    demo_token: Option<String>,
    /// The `metrics:` line's URL, with --metrics-bind.
    metrics_url: Option<String>,
    /// The `demo user:` line's e-mail and password, with --demo.
    demo_user: Option<(String, String)>,
    client: reqwest::Client,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// Starts `serve --bind 127.0.0.1:0` and reads its banner up to the `listening on` line.
    fn start(db: &TempDb, demo: bool) -> Self {
        Self::start_with(db, demo, &[])
    }

    /// `start`, with more `serve` flags.
    fn start_with(db: &TempDb, demo: bool, flags: &[&str]) -> Self {
        let mut cmd = Command::new(BIN);
        cmd.args(["--database", &db.url(), "serve", "--bind", "127.0.0.1:0"]);
        if demo {
            cmd.arg("--demo");
        }
        cmd.args(flags);
        let mut child = cmd
            .env_remove("KOBANA_DUNNING_DATABASE")
            .env_remove("KOBANA_DUNNING_DEMO")
            .env_remove("KOBANA_DUNNING_SECRET_KEY_FILE")
            .env_remove("KOBANA_DUNNING_METRICS_BIND")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let stdout = child.stdout.take().expect("stdout");
        // From here on the child is killed whatever happens.
        let mut server = Self {
            child,
            base: String::new(),
            demo_token: None,
            metrics_url: None,
            demo_user: None,
            client: reqwest::Client::new(),
        };
        let lines = read_banner(stdout);
        let listening =
            lines.iter().position(|l| l.starts_with("listening on http://")).unwrap_or_else(|| {
                panic!("serve printed no `listening on` line: {lines:?}");
            });
        server.base = lines[listening].trim_start_matches("listening on ").trim().to_string();
        server.metrics_url =
            lines.iter().find_map(|l| l.strip_prefix("metrics:")).map(|url| url.trim().to_string());
        // Without --public-url, the public URL names the port actually bound, not port 0.
        for (label, suffix) in [("REST API:", "/v1"), ("MCP:", "/mcp")] {
            let line = lines
                .iter()
                .find(|l| l.starts_with(label))
                .unwrap_or_else(|| panic!("no {label} line: {lines:?}"));
            assert_eq!(
                line.trim_start_matches(label).trim(),
                format!("{}{suffix}", server.base),
                "{lines:?}"
            );
        }
        if demo {
            let token_line = lines
                .iter()
                .position(|l| l.starts_with("demo token: "))
                .unwrap_or_else(|| panic!("serve --demo printed no demo token: {lines:?}"));
            assert!(token_line < listening, "{lines:?}");
            // The line right before the URL lines is the token.
            let url_lines = lines[token_line + 1..=listening].iter().all(|l| l.contains("http://"));
            assert!(url_lines, "only URL lines follow the token: {lines:?}");
            let token = lines[token_line].trim_start_matches("demo token: ").trim().to_string();
            assert!(token.starts_with("kd_at_") && token.len() > 40, "{token}");
            server.demo_token = Some(token);
            let user_line = lines
                .iter()
                .position(|l| l.starts_with("demo user: "))
                .unwrap_or_else(|| panic!("serve --demo printed no demo user: {lines:?}"));
            assert_eq!(user_line + 1, token_line, "the demo user is printed beside the token: {lines:?}");
            let mut words = lines[user_line].trim_start_matches("demo user: ").split_whitespace();
            let (email, password) = (words.next().expect("e-mail"), words.next().expect("password"));
            server.demo_user = Some((email.to_string(), password.to_string()));
        } else {
            assert!(!lines.iter().any(|l| l.contains("kd_at_")), "no token without --demo: {lines:?}");
        }
        server
    }

    async fn get(&self, token: &str, path_and_query: &str) -> Resp {
        send(self.client.get(format!("{}{path_and_query}", self.base)).bearer_auth(token)).await
    }

    async fn post(&self, token: &str, path: &str, body: Value) -> Resp {
        send(self.client.post(format!("{}{path}", self.base)).bearer_auth(token).json(&body)).await
    }

    /// `dunning_charges_cancel` from a 2026-07-28 client that can confirm, answering `state`
    /// with accept when one is given.
    async fn cancel(&self, token: &str, id: &str, state: Option<&str>) -> Resp {
        let mut params = json!({
            "name": "dunning_charges_cancel",
            "arguments": { "id": id },
            "_meta": envelope(json!({ "elicitation": { "form": {} } })),
        });
        if let Some(state) = state {
            params["requestState"] = json!(state);
            params["inputResponses"] =
                json!({ "confirm": { "action": "accept", "content": { "confirm": true } } });
        }
        let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params });
        let req = self
            .client
            .post(format!("{}/mcp", self.base))
            .bearer_auth(token)
            .header("mcp-protocol-version", "2026-07-28")
            .header("mcp-method", "tools/call")
            .header("mcp-name", "dunning_charges_cancel")
            .json(&body);
        send(req).await
    }

    /// A pending charge of a new debtor (document from `seed`); returns its id.
    async fn charge(&self, token: &str, seed: u32) -> String {
        let r =
            self.post(token, "/v1/debtors", json!({ "name": "Maria Souza", "document": cpf(seed) })).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let body = json!({ "debtor_id": r.data()["id"], "amount": 10.0, "due_date": date_in(5) });
        let r = self.post(token, "/v1/charges", body).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.data()["id"].as_str().unwrap().to_string()
    }

    /// Asks to cancel a charge and returns the sealed state of the question.
    async fn question(&self, token: &str, id: &str) -> String {
        let r = self.cancel(token, id, None).await;
        assert_eq!(r.body["result"]["resultType"], "input_required", "{}", r.body);
        r.body["result"]["requestState"].as_str().unwrap().to_string()
    }
}

/// The lines `serve` prints up to and including `listening on …` (within 60 seconds).
fn read_banner(stdout: ChildStdout) -> Vec<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let done = line.starts_with("listening on ");
            lines.push(line);
            if done {
                break;
            }
        }
        let _ = tx.send(lines);
    });
    rx.recv_timeout(Duration::from_secs(60)).expect("serve prints its banner within 60 seconds")
}

fn run(db: &TempDb, args: &[&str]) -> Output {
    let output = Command::new(BIN)
        .args(["--database", &db.url()])
        .args(args)
        .env_remove("KOBANA_DUNNING_DATABASE")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(
        output.status.success(),
        "{args:?} failed: {}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The single line a command printed.
fn only_line(output: &Output) -> String {
    let stdout = String::from_utf8(output.stdout.clone()).expect("UTF-8");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "exactly one line: {stdout:?}");
    assert_eq!(stdout, format!("{}\n", lines[0]), "nothing but the line: {stdout:?}");
    lines[0].to_string()
}

/// `doctor` reports text saved before the documents' font rule that a document could not print
/// (here an organization's name changed behind the server's back), naming the row, the field and
/// the character, and fails; it passes once every stored text prints.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_names_stored_text_the_documents_cannot_print() {
    let db = TempDb::file();
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Credora Ltda"]));
    let healthy = run(&db, &["doctor"]);
    assert!(String::from_utf8_lossy(&healthy.stdout).contains("every stored name"), "{healthy:?}");

    let conn = rusqlite::Connection::open(&db.0).expect("the test database opens");
    conn.execute("UPDATE organizations SET name = 'Credora 日本' WHERE id = ?1", [&org]).expect("renamed");
    drop(conn);
    let output = Command::new(BIN)
        .args(["--database", &db.url(), "doctor"])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(!output.status.success(), "doctor fails on an unprintable row: {stdout}");
    assert!(stdout.contains(&org) && stdout.contains("name") && stdout.contains('日'), "{stdout}");
}

/// On PostgreSQL, `demo generate` writes a batch of 100,000 charges in one transaction of
/// hundreds of statements that together take longer than one statement may: each statement is
/// waited for on its own, so the batch commits. (SQLite waits for no statement.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_generate_writes_a_batch_longer_than_one_statement_may_take() {
    let db = TempDb::new().await;
    if db.1.is_none() {
        return;
    }
    let started = Instant::now();
    let output = run(&db, &["--database-wait", "0.1", "demo", "generate", "--charges", "100000"]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.starts_with("generated 100000 charges and 10000 debtors"), "{stdout}");
    eprintln!("100,000 charges generated in {:.1} s", started.elapsed().as_secs_f64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn orgs_and_tokens_create_print_only_the_id_and_the_token() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Minha Empresa"]));
    assert!(org.starts_with("org_") && org.len() == 36, "{org}");
    assert!(org[4..].chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{org}");

    let token = only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read"]));
    assert!(token.starts_with("kd_at_"), "{token}");
    assert_eq!(token.len(), "kd_at_".len() + 43, "{token}");

    // Two tokens are never the same.
    let again =
        only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read,dunning.write"]));
    assert_ne!(token, again);

    // Bad input fails with a message and prints no token.
    let output = Command::new(BIN)
        .args(["--database", &db.url(), "tokens", "create", "--org", &org, "--scopes", "dunning.everything"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    assert!(String::from_utf8_lossy(&output.stderr).contains("dunning.everything"));
    let output = Command::new(BIN)
        .args(["--database", &db.url(), "tokens", "create", "--org", "org_nope", "--scopes", "dunning.read"])
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_from_the_cli_works_against_serve() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Minha Empresa"]));
    let token = only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read"]));

    let server = Server::start(&db, false);
    let r = server.get(&token, "/v1/me").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["organization"]["id"], org.as_str());
    assert_eq!(r.data()["organization"]["name"], "Minha Empresa");
    assert_eq!(r.data()["organization"]["environment"], "sandbox");
    assert_eq!(r.data()["token"]["scopes"], serde_json::json!(["dunning.read"]));
    let r = server.get(&token, "/v1/debtors").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 0);
    let r = server.get("kd_at_not-a-token", "/v1/me").await;
    assert_eq!(r.status, 401, "{}", r.body);
}

/// `serve` runs the engine, the webhook sender and the exports on a thread of their own at the
/// lowest CPU priority (`SCHED_IDLE`, policy 5) where it can be lifted back, so a pass leaves the
/// core to the requests; the requests' threads keep the usual policy (0).
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_runs_the_engine_on_a_thread_of_the_lowest_priority() {
    let db = TempDb::new().await;
    let server = Server::start(&db, false);
    let r = server.get("kd_at_not-a-token", "/v1/me").await;
    assert_eq!(r.status, 401, "a request's threads are running");
    let mut threads = Vec::new();
    for task in std::fs::read_dir(format!("/proc/{}/task", server.child.id())).unwrap() {
        let dir = task.unwrap().path();
        // A thread may end while the others are read.
        let (Ok(name), Ok(stat)) =
            (std::fs::read_to_string(dir.join("comm")), std::fs::read_to_string(dir.join("stat")))
        else {
            continue;
        };
        let name = name.trim().to_string();
        // Fields after the name's closing parenthesis start at the third; `policy` is the 41st.
        let policy: u32 =
            stat.rsplit_once(')').unwrap().1.split_whitespace().nth(38).unwrap().parse().unwrap();
        threads.push((name, policy));
    }
    let engine = kobana_dunning::engine::background::THREAD;
    assert!(threads.iter().any(|(name, _)| name == engine), "{threads:?}");
    // Lowered only where it can be lifted back while a request waits for it.
    let lowered = if kobana_dunning::priority::can_lift() { 5 } else { 0 };
    for (name, policy) in &threads {
        assert_eq!(*policy, if name == engine { lowered } else { 0 }, "{name}: {threads:?}");
    }
}

/// `tokens revoke` stops a token that a running server has just cached: on PostgreSQL at once
/// (the server hears the revocation), on SQLite within the cache's 5 s (the documented bound
/// for another process).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_revoke_stops_a_token_on_a_running_server() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Minha Empresa"]));
    let token = only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read"]));
    let server = Server::start(&db, false);
    assert_eq!(server.get(&token, "/v1/me").await.status, 200);

    assert_eq!(only_line(&run(&db, &["tokens", "revoke", &token])), "revoked");
    let bound =
        if db.url().starts_with("sqlite://") { Duration::from_secs(6) } else { Duration::from_secs(1) };
    let started = Instant::now();
    loop {
        let r = server.get(&token, "/v1/me").await;
        if r.status == 401 {
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(started.elapsed() < bound, "still accepted after {bound:?}");
        // Slow enough for the default rate limit (a burst of 60).
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    // Revoking again, or a token that never was: an error, nothing on stdout.
    for gone in [token.as_str(), "tok_nope"] {
        let output = Command::new(BIN)
            .args(["--database", &db.url(), "tokens", "revoke", gone])
            .env_remove("KOBANA_DUNNING_DATABASE")
            .output()
            .expect("runs");
        assert!(!output.status.success(), "{gone}");
        assert!(output.stdout.is_empty());
        assert!(String::from_utf8_lossy(&output.stderr).contains("no live token"), "{gone}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_demo_seeds_a_sandbox_organization() {
    let db = TempDb::new().await;
    let started = Instant::now();
    let server = Server::start(&db, true);
    let token = server.demo_token.clone().expect("demo token");

    let r = server.get(&token, "/v1/me").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["organization"]["environment"], "sandbox");
    assert_eq!(r.data()["token"]["scopes"].as_array().map(Vec::len), Some(6));

    let r = server.get(&token, "/v1/charges").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // 40 charges and the agreements' installments: a down payment and 4, and 3 canceled.
    assert_eq!(r.body["meta"]["total"], 48, "{}", r.body["meta"]);
    let r = server.get(&token, "/v1/debtors").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["meta"]["total"], 24, "{}", r.body["meta"]);
    let r = server.get(&token, "/v1/debtors?status=archived").await;
    assert_eq!(r.body["meta"]["total"], 1, "{}", r.body["meta"]);

    let r = server.get(&token, "/v1/charges?status=overdue&per_page=100").await;
    let overdue = r.body["meta"]["total"].as_i64().unwrap();
    assert!(overdue >= 5, "{overdue} overdue charges");
    for c in r.data().as_array().unwrap() {
        assert!(c["due_date"].as_str().unwrap() < date_in(0).as_str(), "{c}");
        assert!(c["days_overdue"].as_i64().unwrap() > 0, "{c}");
    }
    let r = server.get(&token, "/v1/charges?status=pending&per_page=100").await;
    let today = date_in(0);
    let future: Vec<&Value> = r
        .data()
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["due_date"].as_str().unwrap() > today.as_str())
        .collect();
    assert!(future.len() >= 5, "{} pending charges due after today", future.len());

    // Every answer of the demo data matches the contract (a sample: the first page of each).
    let r = server.get(&token, "/v1/charges?per_page=100").await;
    crate::common::check_contract("charges_list", &r);
    let r = server.get(&token, "/v1/debtors?per_page=100").await;
    crate::common::check_contract("debtors_list", &r);

    // The régua runs: a default policy, the messages of the last 30 days, decisions waiting.
    let r = server.get(&token, "/v1/collection_policies").await;
    crate::common::check_contract("collection_policies_list", &r);
    assert_eq!(r.body["meta"]["total"], 1, "{}", r.body);
    let policy = &r.data()[0];
    assert_eq!((policy["is_default"].as_bool(), policy["steps_count"].as_i64()), (Some(true), Some(5)));
    let r = server.get(&token, "/v1/notifications?status=sent&per_page=100").await;
    crate::common::check_contract("notifications_list", &r);
    let sent = r.body["meta"]["total"].as_i64().unwrap();
    assert!(sent >= 10, "{sent} messages sent in the last 30 days");
    // The régua's own; the letter behind the demo's credit-bureau report is older.
    let by_policy = r.data().as_array().unwrap().iter().filter(|n| n["origin"] == "policy");
    let oldest = by_policy.map(|n| n["sent_at"].as_str().unwrap()).min().unwrap();
    assert!(oldest >= date_in(-31).as_str(), "{oldest}");
    let r = server.get(&token, "/v1/charges?dunning_status=awaiting_decision").await;
    assert!(r.body["meta"]["total"].as_i64().unwrap() >= 1, "{}", r.body["meta"]);
    drop(server);

    // On each of the next ten business days, a pass of the engine sends something.
    let mut day = kobana_dunning::domain::dates::Zone::default_zone().today(time::OffsetDateTime::now_utc());
    for _ in 0..10 {
        day = kobana_dunning::domain::calendar::add_business_days(day, 1);
        let at = format!("{}T15:00:00Z", kobana_dunning::domain::dates::format_date(day));
        let output = run(&db, &["engine", "run-once", "--at", &at]);
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        let sent: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("sent ")?.split(' ').next()?.parse().ok())
            .unwrap_or_else(|| panic!("{text}"));
        assert!(sent >= 1, "nothing sent on {day}: {text}");
    }

    // A second start keeps the same demo organization and prints a new token.
    let again = Server::start(&db, true);
    let new_token = again.demo_token.clone().expect("demo token");
    assert_ne!(new_token, token);
    let r = again.get(&new_token, "/v1/charges").await;
    assert_eq!(r.body["meta"]["total"], 48, "the demo is not seeded twice");
    assert!(started.elapsed() < Duration::from_secs(120));
}

#[test]
fn spec_tools_prints_the_catalogue() {
    let output = Command::new(BIN).args(["spec", "tools"]).output().expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stdout = String::from_utf8(output.stdout).expect("UTF-8");
    assert_eq!(stdout, kobana_dunning::operations::CATALOGUE_JSON);
    let parsed: Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(parsed["tools"].as_array().map(Vec::len), Some(kobana_dunning::operations::OPERATIONS.len()));
}

/// A scratch directory, removed when the test ends.
struct Scratch(PathBuf);

impl Scratch {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("kd-spec-{}", uuid::Uuid::now_v7().simple()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        Self(dir)
    }

    fn file(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn real_spec() -> String {
    std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi/v1.yaml")).expect("the spec")
}

/// The real spec with `per_page` of `charges_list` a string rather than an integer, as JSON
/// (which is YAML). The parameter is shared (`$ref`) in the spec: this one is written inline.
fn spec_with_per_page_as_text() -> String {
    let mut spec: Value = yaml_serde::from_str(&real_spec()).expect("the spec is YAML");
    let params = spec["paths"]["/v1/charges"]["get"]["parameters"].as_array_mut().expect("parameters");
    let at = params
        .iter()
        .position(|p| p["name"] == "per_page" || p["$ref"].as_str().is_some_and(|r| r.ends_with("/PerPage")))
        .expect("charges_list takes per_page");
    params[at] = json!({ "name": "per_page", "in": "query", "schema": { "type": "string" } });
    spec.to_string()
}

/// `kobana-dunning <args>` in `dir`, whatever it answers, with git reading only `dir`.
fn spec_command(dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .current_dir(dir)
        // Scratch directories are in the temporary folder: git looks for no repository above.
        .env("GIT_CEILING_DIRECTORIES", std::env::temp_dir())
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn texts(output: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn spec_diff_exits_1_naming_the_event_whose_payload_changed() {
    let dir = Scratch::new();
    let (old, new, gone) = (dir.file("old.yaml"), dir.file("new.yaml"), dir.file("gone.yaml"));
    std::fs::write(&old, real_spec()).unwrap();
    // What a webhook receiver reads of a protest: its step id, now a number.
    let mut spec: Value = yaml_serde::from_str(&real_spec()).expect("the spec is YAML");
    spec["components"]["schemas"]["ProtestEventData"]["properties"]["step_id"] = json!({ "type": "integer" });
    std::fs::write(&new, spec.to_string()).unwrap();
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());

    let output = spec_command(&dir.0, &["spec", "diff", "--format", "json", old, new]);
    assert_eq!(output.status.code(), Some(1), "{}", texts(&output).0);
    let changes: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let changed = changes
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "type_changed" && c["location"]["tool"] == "event protest.send.requested")
        .unwrap_or_else(|| panic!("{changes:#}"));
    assert_eq!(changed["breaking"], true);
    assert_eq!(
        changed["location"]["path"],
        "/x-event-payloads/protest.send.requested/properties/step_id/type"
    );
    let output = spec_command(&dir.0, &["spec", "diff", old, new]);
    let (stdout, _) = texts(&output);
    assert!(stdout.contains("event protest.paid") && stdout.contains("step_id"), "{stdout}");

    // A code no longer written (nor offered to webhooks) breaks its receivers.
    let mut spec: Value = yaml_serde::from_str(&real_spec()).expect("the spec is YAML");
    spec["x-event-payloads"].as_object_mut().unwrap().remove("charge.overdue");
    let codes = spec["components"]["schemas"]["WebhookEventCode"]["enum"].as_array_mut().unwrap();
    codes.retain(|c| c != "charge.overdue");
    std::fs::write(&gone, spec.to_string()).unwrap();
    let output = spec_command(&dir.0, &["spec", "diff", old, gone.to_str().unwrap()]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("event charge.overdue is no longer written"), "{stdout}");
}

#[test]
fn spec_diff_exits_1_naming_the_tool_and_the_argument_of_a_breaking_change() {
    let dir = Scratch::new();
    let (old, new) = (dir.file("old.yaml"), dir.file("new.yaml"));
    std::fs::write(&old, real_spec()).unwrap();
    std::fs::write(&new, spec_with_per_page_as_text()).unwrap();
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());

    let output = spec_command(&dir.0, &["spec", "diff", old, new]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "a breaking change exits 1: {stdout}{stderr}");
    assert!(stdout.contains("dunning_charges_list"), "names the tool: {stdout}");
    assert!(stdout.contains("argument per_page (query): type integer became string"), "{stdout}");

    let output = spec_command(&dir.0, &["spec", "diff", "--format", "json", old, new]);
    assert_eq!(output.status.code(), Some(1));
    let changes: Value = serde_json::from_slice(&output.stdout).expect("--format json is JSON");
    let changed = changes
        .as_array()
        .expect("a list of changes")
        .iter()
        .find(|c| c["kind"] == "type_changed" && c["location"]["tool"] == "dunning_charges_list")
        .unwrap_or_else(|| panic!("{changes:#}"));
    assert_eq!(changed["breaking"], true);
    assert_eq!(changed["location"]["operation"], "GET /v1/charges");
    assert_eq!(changed["location"]["path"], "/inputSchema/properties/per_page/type");

    let output = spec_command(&dir.0, &["spec", "diff", old, old]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(texts(&output).0, "no changes\n");
    let output = spec_command(&dir.0, &["spec", "diff", "--format", "json", old, old]);
    assert_eq!((output.status.code(), texts(&output).0.trim().to_string()), (Some(0), "[]".to_string()));

    // Usage errors and unreadable specs exit 2.
    let missing = dir.file("missing.yaml");
    let output = spec_command(&dir.0, &["spec", "diff", old, missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(texts(&output).1.contains("cannot read"), "{}", texts(&output).1);
    assert_eq!(spec_command(&dir.0, &["spec", "diff", old]).status.code(), Some(2));
    std::fs::write(dir.file("refused.yaml"), "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\n")
        .unwrap();
    let output = spec_command(&dir.0, &["spec", "diff", old, dir.file("refused.yaml").to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", texts(&output).1);
}

#[test]
fn spec_diff_base_reads_the_committed_spec_and_passes_when_there_is_none() {
    let dir = Scratch::new();
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args([
                "-c",
                "user.name=Test",
                "-c",
                "user.email=test@example.invalid",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&dir.0)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .stdout(Stdio::null())
            .status()
            .expect("git runs");
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::create_dir_all(dir.file("openapi")).unwrap();
    std::fs::write(dir.file("openapi/v1.yaml"), real_spec()).unwrap();
    git(&["add", "openapi/v1.yaml"]);
    git(&["commit", "-q", "-m", "first"]);

    // The first commit has no parent: said, and passing.
    let output = spec_command(&dir.0, &["spec", "diff", "--base", "HEAD~1"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("no base"), "{stdout}");

    let output = spec_command(&dir.0, &["spec", "diff", "--base", "HEAD"]);
    assert_eq!((output.status.code(), texts(&output).0), (Some(0), "no changes\n".to_string()));

    // NEW defaults to the working tree's spec, from any folder of the repository.
    std::fs::write(dir.file("openapi/v1.yaml"), spec_with_per_page_as_text()).unwrap();
    let output = spec_command(&dir.file("openapi"), &["spec", "diff", "--base", "HEAD"]);
    let (stdout, stderr) = texts(&output);
    assert_eq!(output.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("dunning_charges_list") && stdout.contains("per_page"), "{stdout}");

    // Committed, the change is what HEAD~1 -> the working tree shows.
    git(&["commit", "-q", "-am", "per_page as text"]);
    let output = spec_command(&dir.0, &["spec", "diff", "--base", "HEAD~1", "--format", "json"]);
    assert_eq!(output.status.code(), Some(1));
    let changes: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert!(changes.as_array().unwrap().iter().any(|c| c["location"]["tool"] == "dunning_charges_list"));

    // Outside a repository, --base is a usage error.
    let outside = Scratch::new();
    let output = spec_command(&outside.0, &["spec", "diff", "--base", "HEAD~1"]);
    assert_eq!(output.status.code(), Some(2), "{}", texts(&output).1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_creates_a_database_only_its_owner_reads() {
    use std::os::unix::fs::PermissionsExt;
    // About the SQLite file itself, so SQLite on either run of the suite.
    let db = TempDb::file();
    assert!(!db.0.exists());
    let server = Server::start(&db, false);
    assert_eq!(send(server.client.get(format!("{}/healthz", server.base))).await.status, 200);
    for suffix in ["", "-wal", "-shm"] {
        let path = format!("{}{suffix}", db.0.display());
        let Ok(meta) = std::fs::metadata(&path) else {
            assert!(!suffix.is_empty(), "the database file exists");
            continue;
        };
        assert_eq!(meta.permissions().mode() & 0o777, 0o600, "{path}");
    }
    drop(server);
    // A database left readable by others (made before files were private) is tightened at open.
    std::fs::set_permissions(&db.0, std::fs::Permissions::from_mode(0o644)).expect("loosen");
    let server = Server::start(&db, false);
    assert_eq!(send(server.client.get(format!("{}/healthz", server.base))).await.status, 200);
    let mode = std::fs::metadata(&db.0).expect("the database file").permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "an existing database is made owner-only");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_rotate_keeps_open_questions_answerable() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Org"]));
    let token =
        only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read,dunning.write"]));
    let server = Server::start(&db, false);
    let id = server.charge(&token, 1).await;
    let before = server.question(&token, &id).await;
    drop(server);

    let output = run(&db, &["keys", "rotate"]);
    let printed = String::from_utf8_lossy(&output.stdout);
    assert!(printed.starts_with("rotated: 2 keys"), "{printed}");

    // A question asked under the old key is still answered after the restart.
    let server = Server::start(&db, false);
    let r = server.cancel(&token, &id, Some(&before)).await;
    assert_eq!(r.body["result"]["resultType"], "complete", "{}", r.body);
    assert_ne!(r.body["result"]["isError"], true, "{}", r.body);

    let r = server.get(&token, &format!("/v1/charges/{id}")).await;
    assert_eq!(r.data()["status"], "canceled");

    // A state sealed under a key the server never held is a fresh question, nothing runs.
    let other = server.charge(&token, 2).await;
    let state = server.question(&token, &other).await;
    let foreign = kobana_dunning::auth::ServerKey::from_material(&[3u8; 32]).unwrap();
    let forged = foreign.seal(&json!({ "tool": "dunning_charges_cancel" })).unwrap();
    assert_ne!(state, forged);
    let r = server.cancel(&token, &other, Some(&forged)).await;
    assert_eq!(r.body["result"]["resultType"], "input_required", "{}", r.body);
    let r = server.get(&token, &format!("/v1/charges/{other}")).await;
    assert_eq!(r.data()["status"], "pending");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_secret_key_file_rotates_newest_first() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Org"]));
    let token =
        only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read,dunning.write"]));
    let keys = TempDb(std::env::temp_dir().join(format!("kd-keys-{}", uuid::Uuid::now_v7().simple())), None);
    let old = "o".repeat(40);
    std::fs::write(&keys.0, format!("{old}\n")).unwrap();
    let key_flag = ["--secret-key-file", keys.0.to_str().unwrap()];
    // Readable by others (the usual umask), the file is refused with the command that fixes it.
    std::fs::set_permissions(&keys.0, std::os::unix::fs::PermissionsExt::from_mode(0o644)).unwrap();
    let refused = Command::new(BIN)
        .args(["--database", &db.url(), "serve", "--bind", "127.0.0.1:0", key_flag[0], key_flag[1]])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(!refused.status.success(), "{stderr}");
    assert!(stderr.contains(&format!("run: chmod 600 {}", key_flag[1])), "{stderr}");
    std::fs::set_permissions(&keys.0, std::os::unix::fs::PermissionsExt::from_mode(0o600)).unwrap();
    let server = Server::start_with(&db, false, &key_flag);
    let id = server.charge(&token, 1).await;
    let before = server.question(&token, &id).await;
    drop(server);

    std::fs::write(&keys.0, format!("{}\n{old}\n", "n".repeat(40))).unwrap();
    let server = Server::start_with(&db, false, &key_flag);
    let r = server.cancel(&token, &id, Some(&before)).await;
    assert_eq!(r.body["result"]["resultType"], "complete", "{}", r.body);
    assert_ne!(r.body["result"]["isError"], true, "{}", r.body);

    // Once the old key leaves the file, what it sealed is refused.
    let other = server.charge(&token, 2).await;
    let sealed_new = server.question(&token, &other).await;
    drop(server);
    std::fs::write(&keys.0, format!("{old}\n")).unwrap();
    let server = Server::start_with(&db, false, &key_flag);
    let r = server.cancel(&token, &other, Some(&sealed_new)).await;
    assert_eq!(r.body["result"]["resultType"], "input_required", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_bind_serves_metrics_apart() {
    let db = TempDb::new().await;
    let server = Server::start_with(&db, false, &["--metrics-bind", "127.0.0.1:0"]);
    let _ = server.get("kd_at_nope", "/v1/me").await;
    let r = send(server.client.get(format!("{}/metrics", server.base))).await;
    assert_eq!(r.status, 404, "not on the API listener");
    let url = server.metrics_url.clone().expect("a metrics: line");
    let r = send(server.client.get(&url)).await;
    assert_eq!(r.status, 200);
    assert!(r.body.as_str().unwrap().contains("kobana_dunning_http_requests_total"), "{}", r.body);
}

#[tokio::test]
async fn engine_run_once_turns_late_charges_at_the_instant_given() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Org"]));
    let token =
        only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read,dunning.write"]));
    let server = Server::start(&db, false);
    server.charge(&token, 2).await; // due in 5 days
    drop(server);

    let output = run(&db, &["engine", "run-once", "--at", &format!("{}T15:00:00Z", date_in(1))]);
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(text.lines().next(), Some("turned 0 charges overdue"), "{text}");
    assert!(text.contains("sent 0 notifications"), "{text}");
    let output = run(&db, &["engine", "run-once", "--at", &format!("{}T15:00:00Z", date_in(40))]);
    let text = String::from_utf8_lossy(&output.stdout).to_string();
    assert_eq!(text.lines().next(), Some("turned 1 charges overdue"), "{text}");

    let refused = Command::new(BIN)
        .args(["--database", &db.url(), "engine", "run-once", "--at", "amanhã"])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("the binary runs");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--at must be an RFC 3339 instant"), "{stderr}");
    // A real instant too far away for the calendar: a clear error, not a panic.
    let far = Command::new(BIN)
        .args(["--database", &db.url(), "engine", "run-once", "--at", "9999-12-31T15:00:00Z"])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&far.stderr);
    assert_eq!(far.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("--at must be a day from 1900-01-01 to 2199-12-31"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_engine_processes_at_once_send_each_step_once() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Org"]));
    let token = only_line(&run(
        &db,
        &["tokens", "create", "--org", &org, "--scopes", "dunning.read,dunning.write,dunning.notify"],
    ));
    let server = Server::start(&db, false);
    let policy = json!({ "name": "Régua", "steps": [
        { "offset_days": -3, "channel": "email", "template": { "body": "Olá, {{debtor_name}}" } },
    ] });
    assert_eq!(server.post(&token, "/v1/collection_policies", policy).await.status, 201);
    for seed in 0..8 {
        let debtor = json!({ "name": "Maria Souza", "document": cpf(7700 + seed), "email": "m@example.com" });
        let r = server.post(&token, "/v1/debtors", debtor).await;
        let body = json!({ "debtor_id": r.data()["id"], "amount": 10.0, "due_date": "2027-02-05" });
        assert_eq!(server.post(&token, "/v1/charges", body).await.status, 201);
    }
    drop(server);

    // Two processes, one database, the same instant.
    let spawn = || {
        Command::new(BIN)
            .args(["--database", &db.url(), "engine", "run-once", "--at", "2027-02-02T15:00:00Z"])
            .env_remove("KOBANA_DUNNING_DATABASE")
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs")
    };
    let (a, b) = (spawn(), spawn());
    let mut sent = 0;
    for child in [a, b] {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success());
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        sent += text
            .lines()
            .find_map(|l| l.strip_prefix("sent ")?.split(' ').next()?.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{text}"));
    }
    assert_eq!(sent, 8, "each charge's e-mail once between the two");
    let server = Server::start(&db, false);
    let r = server.get(&token, "/v1/notifications?per_page=100").await;
    assert_eq!(r.body["meta"]["total"], 8, "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn users_create_reads_the_password_from_stdin_and_tokens_list_shows_no_secret() {
    use std::io::Write;
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Usuários Ltda"]));
    let create = |email: &str, role: &str, password: &str| {
        let mut child = Command::new(BIN)
            .args([
                "--database",
                &db.url(),
                "users",
                "create",
                "--org",
                &org,
                "--email",
                email,
                "--role",
                role,
            ])
            .env_remove("KOBANA_DUNNING_DATABASE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        child.stdin.take().expect("stdin").write_all(format!("{password}\n").as_bytes()).expect("password");
        child.wait_with_output().expect("it ends")
    };
    let made = create("Ana@Example.com", "viewer", "uma senha bem longa");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let id = only_line(&made);
    assert!(id.starts_with("usr_") && id.len() == 36, "{id}");
    let again = create("ana@example.COM", "viewer", "outra senha bem longa");
    assert!(!again.status.success(), "the e-mail is unique whatever its case");
    let short = create("bia@example.com", "viewer", "curta");
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("10 characters"));
    let role = create("caio@example.com", "root", "uma senha bem longa");
    assert!(!role.status.success());

    let token = only_line(&run(&db, &["tokens", "create", "--org", &org, "--scopes", "dunning.read"]));
    let other = only_line(&run(&db, &["orgs", "create", "--name", "Outra"]));
    run(&db, &["tokens", "create", "--org", &other, "--scopes", "dunning.read"]);
    let listed = String::from_utf8(run(&db, &["tokens", "list", "--org", &org]).stdout).expect("UTF-8");
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 2, "a header and the one token: {listed}");
    assert!(lines[0].starts_with("id\torganization\tuser\tclient\taudience\tscopes"), "{listed}");
    let fields: Vec<&str> = lines[1].split('\t').collect();
    assert!(
        fields[0].starts_with("tok_") && fields[1] == org && fields[4] == "all" && fields[7] == "-",
        "{listed}"
    );
    assert_eq!(fields.get(8), Some(&"-"), "no OAuth grant: {listed}");
    assert!(!listed.contains(&token) && !listed.contains("kd_at_"), "never the secret: {listed}");
    let all = String::from_utf8(run(&db, &["tokens", "list"]).stdout).expect("UTF-8");
    assert_eq!(all.lines().count(), 3, "{all}");
    run(&db, &["tokens", "revoke", fields[0]]);
    let listed = String::from_utf8(run(&db, &["tokens", "list", "--org", &org]).stdout).expect("UTF-8");
    assert_ne!(listed.lines().nth(1).unwrap().split('\t').nth(7), Some("-"), "revoked: {listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_demo_prints_a_demo_user_who_can_sign_in() {
    let db = TempDb::new().await;
    let server = Server::start(&db, true);
    let (email, password) = server.demo_user.clone().expect("demo user");
    assert_eq!(email, "demo@kobana.example");
    let client = reqwest::Client::builder().redirect(reqwest::redirect::Policy::none()).build().unwrap();
    let page = client.get(format!("{}/signin", server.base)).send().await.unwrap();
    let cookie = page.headers()["set-cookie"].to_str().unwrap().split(';').next().unwrap().to_string();
    let html = page.text().await.unwrap();
    let csrf =
        html.split("name=\"csrf\" value=\"").nth(1).and_then(|v| v.split('"').next()).expect("csrf field");
    let body: String = form_urlencoded::Serializer::new(String::new())
        .extend_pairs([
            ("csrf", csrf),
            ("email", email.as_str()),
            ("password", password.as_str()),
            ("next", "/connections"),
        ])
        .finish();
    let signed = client
        .post(format!("{}/signin", server.base))
        .header("cookie", &cookie)
        .header("content-type", "application/x-www-form-urlencoded")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(signed.status(), 303);
    assert!(signed.headers()["set-cookie"].to_str().unwrap().starts_with("kd_session=kd_ss_"));
    drop(server);
    // A restart gives a fresh password; the old one no longer works.
    let again = Server::start(&db, true);
    assert_ne!(again.demo_user.clone().expect("demo user").1, password);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn payments_import_prints_what_became_of_each_row_and_settles_nothing_twice() {
    let db = TempDb::new().await;
    let org = only_line(&run(&db, &["orgs", "create", "--name", "Minha Empresa"]));
    let file = std::env::temp_dir().join(format!("kd-payments-{}.csv", uuid::Uuid::now_v7().simple()));
    std::fs::write(&file, "date,amount,external_id\n2026-12-01,90.00,NF-404\n2026-12-01,abc,NF-405\n")
        .unwrap();
    let path = file.to_str().unwrap();
    let first = String::from_utf8(run(&db, &["payments", "import", path, "--org", &org]).stdout).unwrap();
    for line in [
        "matched: 0",
        "unmatched: 1",
        "  line 2: no charge has this",
        "refused: 1",
        "  line 3: has the amount \"abc\"",
    ] {
        assert!(first.contains(line), "{line:?} in {first}");
    }
    let second = String::from_utf8(run(&db, &["payments", "import", path, "--org", &org]).stdout).unwrap();
    assert!(second.contains("already imported: 1") && second.contains("unmatched: 0"), "{second}");
    // A file without the columns it needs is refused whole.
    std::fs::write(&file, "when;how much\n2026-12-01;90,00\n").unwrap();
    let output = Command::new(BIN)
        .args(["--database", &db.url(), "payments", "import", path, "--org", &org])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("runs");
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("no date column"), "{output:?}");
    std::fs::remove_file(&file).unwrap();
}
