//! Exactly once: a keyed create, whatever befalls its first request (a client that drops the
//! connection while it runs, the server killed outright), leaves one charge, and every retry
//! with the key gets that charge, or creates it when nothing had committed.

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::io::AsyncWriteExt;

use crate::common::{TestServer, cpf, date_in, fresh_database};

const BIN: &str = env!("CARGO_BIN_EXE_kobana-dunning");

/// The body of the keyed create for `key`: the key is also its description, so the charges
/// can be counted per key.
fn charge_body(debtor_id: &str, key: &str) -> Value {
    json!({ "debtor_id": debtor_id, "amount": 99.9, "due_date": date_in(30), "description": key })
}

/// A spread of small delays from a seed (splitmix64): no two neighbours alike.
fn delay_micros(seed: u64, max: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % max
}

/// What a retry of a key answered.
struct Retried {
    id: String,
    replayed: bool,
    waited: Duration,
}

/// Sends the keyed create until it is answered 201 (a 409 means the key's first request is
/// still running: wait its Retry-After), within a bound.
async fn retry_to_completion(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    key: &str,
    body: &Value,
) -> Retried {
    let started = Instant::now();
    for _ in 0..50 {
        let resp = client
            .post(format!("{base}/v1/charges"))
            .bearer_auth(token)
            .header("Idempotency-Key", key)
            .json(body)
            .send()
            .await
            .expect("the server answers");
        let status = resp.status().as_u16();
        let replayed = resp.headers().get("idempotent-replayed").is_some_and(|v| v == "true");
        let retry_after =
            resp.headers().get("retry-after").and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
        let answer: Value = resp.json().await.expect("JSON");
        match status {
            201 => {
                let id = answer["data"]["id"].as_str().expect("an id").to_string();
                return Retried { id, replayed, waited: started.elapsed() };
            }
            409 => {
                assert_eq!(answer["error"]["code"], "CONFLICT", "{answer}");
                let wait = retry_after.expect("a 409 in flight says when to retry");
                tokio::time::sleep(Duration::from_millis(wait * 1000 / 4)).await;
            }
            other => panic!("key {key}: {other} {answer}"),
        }
    }
    panic!("key {key} never completed");
}

/// The descriptions of the debtor's charges, each with the ids bearing it.
async fn charges_by_description(
    client: &reqwest::Client,
    base: &str,
    token: &str,
    debtor_id: &str,
) -> BTreeMap<String, Vec<String>> {
    let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for page in 1.. {
        let list: Value = client
            .get(format!("{base}/v1/charges?debtor_id={debtor_id}&per_page=100&page={page}"))
            .bearer_auth(token)
            .send()
            .await
            .expect("list")
            .json()
            .await
            .expect("JSON");
        let data = list["data"].as_array().expect("a list");
        for c in data {
            let description = c["description"].as_str().unwrap_or_default().to_string();
            found.entry(description).or_default().push(c["id"].as_str().unwrap().to_string());
        }
        if data.len() < 100 {
            break;
        }
    }
    found
}

/// Every key maps to exactly one charge, the one its retry answered.
fn assert_one_charge_per_key(found: &BTreeMap<String, Vec<String>>, retried: &HashMap<String, Retried>) {
    let doubled: Vec<_> = found.iter().filter(|(_, ids)| ids.len() > 1).collect();
    assert!(doubled.is_empty(), "keys with more than one charge: {doubled:?}");
    for (key, r) in retried {
        assert_eq!(found.get(key), Some(&vec![r.id.clone()]), "key {key}");
    }
    assert_eq!(found.len(), retried.len(), "no charge without a key");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_that_drop_the_connection_never_leave_a_key_with_two_charges() {
    const KEYS: u64 = 300;
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Conexões perdidas").await;
    let debtor = server.create_debtor(&token, "Mariana Costa Ribeiro", &cpf(8801)).await;
    let debtor_id = debtor["id"].as_str().unwrap().to_string();
    let addr = server.base.trim_start_matches("http://").to_string();

    // Each first request is sent whole, then its connection reset (SO_LINGER 0) at a moment
    // spread over the first 5 ms: before, during or after the handler's commit.
    let gate = Arc::new(tokio::sync::Semaphore::new(16));
    let mut sends = Vec::new();
    for i in 0..KEYS {
        let (addr, token, debtor_id, gate) = (addr.clone(), token.clone(), debtor_id.clone(), gate.clone());
        sends.push(tokio::spawn(async move {
            let _slot = gate.acquire().await.unwrap();
            let key = format!("drop-{i}");
            let body = charge_body(&debtor_id, &key).to_string();
            let request = format!(
                "POST /v1/charges HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\n\
                 Idempotency-Key: {key}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            );
            let mut stream = tokio::net::TcpStream::connect(&addr).await.expect("connects");
            stream.set_nodelay(true).unwrap();
            stream.write_all(request.as_bytes()).await.expect("sent");
            tokio::time::sleep(Duration::from_micros(delay_micros(i, 5_000))).await;
            stream.set_zero_linger().unwrap();
            drop(stream);
        }));
    }
    for send in sends {
        send.await.unwrap();
    }

    let client = reqwest::Client::new();
    let mut retried = HashMap::new();
    for i in 0..KEYS {
        let key = format!("drop-{i}");
        let r =
            retry_to_completion(&client, &server.base, &token, &key, &charge_body(&debtor_id, &key)).await;
        retried.insert(key, r);
    }
    let replays = retried.values().filter(|r| r.replayed).count();
    println!("{replays} of {KEYS} first requests had committed before their connection went");

    let found = charges_by_description(&client, &server.base, &token, &debtor_id).await;
    assert_one_charge_per_key(&found, &retried);
}

/// A `serve` process, killed outright when dropped.
pub struct Served {
    child: Child,
    pub base: String,
    pub token: String,
}

impl Served {
    /// Starts `serve --demo --no-engine` on `database` and reads its address and demo token.
    fn start(database: &str) -> Self {
        Self::start_with(database, &["--no-engine"])
    }

    /// Starts `serve --demo` with `extra` arguments on `database` and reads its address and
    /// demo token.
    pub fn start_with(database: &str, extra: &[&str]) -> Self {
        let mut child = Command::new(BIN)
            .args(["--database", database, "serve", "--bind", "127.0.0.1:0", "--demo"])
            .args(extra)
            .args(["--rate-limit", "1000000", "--rate-limit-burst", "1000000"])
            .env_remove("KOBANA_DUNNING_DATABASE")
            .env_remove("KOBANA_DUNNING_SECRET_KEY_FILE")
            .env_remove("KOBANA_DUNNING_METRICS_BIND")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (mut base, mut token) = (None, None);
        for line in stdout.lines() {
            let line = line.expect("banner line");
            if let Some(t) = line.strip_prefix("demo token: ") {
                token = Some(t.trim().to_string());
            }
            if let Some(url) = line.strip_prefix("listening on ") {
                base = Some(url.trim().to_string());
                break;
            }
        }
        let (Some(base), Some(token)) = (base, token) else {
            let _ = child.kill();
            panic!("serve printed no address or token");
        };
        Self { child, base, token }
    }

    /// SIGKILL: no shutdown, no last write.
    pub fn kill(mut self) {
        self.child.kill().expect("killed");
        self.child.wait().expect("reaped");
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What the first request of a key heard before the server died.
enum Heard {
    /// 201 with this charge id.
    Created(String),
    /// Nothing (the connection broke) or an error.
    Unknown,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_under_keyed_load_keeps_one_charge_per_key_and_every_acknowledged_one() {
    let db = fresh_database().await;
    let server = Served::start(&db.url);
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let debtor: Value = client
        .post(format!("{}/v1/debtors", server.base))
        .bearer_auth(&server.token)
        .json(
            &json!({ "name": "Bruno Interrompido", "document": cpf(8802), "email": "bruno@example.com.br" }),
        )
        .send()
        .await
        .expect("debtor")
        .json()
        .await
        .expect("JSON");
    let debtor_id = debtor["data"]["id"].as_str().expect("debtor id").to_string();

    // Eight clients create keyed charges as fast as they are answered, until the server dies.
    let dead = Arc::new(AtomicBool::new(false));
    let mut clients = Vec::new();
    for c in 0..8 {
        let (client, base, token, debtor_id, dead) =
            (client.clone(), server.base.clone(), server.token.clone(), debtor_id.clone(), dead.clone());
        clients.push(tokio::spawn(async move {
            let mut heard = Vec::new();
            for n in 0.. {
                if dead.load(Ordering::SeqCst) {
                    break;
                }
                let key = format!("kill-{c}-{n}");
                let sent = client
                    .post(format!("{base}/v1/charges"))
                    .bearer_auth(&token)
                    .header("Idempotency-Key", &key)
                    .json(&charge_body(&debtor_id, &key))
                    .send()
                    .await;
                let outcome = match sent {
                    Ok(resp) if resp.status().as_u16() == 201 => match resp.json::<Value>().await {
                        Ok(v) => Heard::Created(v["data"]["id"].as_str().unwrap().to_string()),
                        Err(_) => Heard::Unknown,
                    },
                    _ => Heard::Unknown,
                };
                let broke = matches!(outcome, Heard::Unknown);
                heard.push((key, outcome));
                if broke {
                    break;
                }
            }
            heard
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    dead.store(true, Ordering::SeqCst);
    server.kill();
    let mut heard = Vec::new();
    for c in clients {
        heard.extend(c.await.unwrap());
    }
    let acknowledged = heard.iter().filter(|(_, h)| matches!(h, Heard::Created(_))).count();
    assert!(acknowledged > 20, "the load ran before the kill: {acknowledged} acknowledged");

    // The same database, a new process: every key retried at once.
    let server = Served::start(&db.url);
    let mut retried = HashMap::new();
    for (key, first) in &heard {
        let r = retry_to_completion(&client, &server.base, &server.token, key, &charge_body(&debtor_id, key))
            .await;
        assert!(r.waited < Duration::from_secs(2), "key {key} waited {:?} after the restart", r.waited);
        if let Heard::Created(id) = first {
            assert_eq!(&r.id, id, "an acknowledged key answers its charge again");
            assert!(r.replayed, "key {key} was acknowledged, so its retry is a replay");
        }
        retried.insert(key.clone(), r);
    }
    println!(
        "{} keys, {acknowledged} acknowledged before the kill, {} first created by their retry",
        heard.len(),
        retried.values().filter(|r| !r.replayed).count()
    );
    let found = charges_by_description(&client, &server.base, &server.token, &debtor_id).await;
    assert_one_charge_per_key(&found, &retried);
}

/// The `charge.db.created` events of a charge.
async fn created_events(client: &reqwest::Client, base: &str, token: &str, charge_id: &str) -> usize {
    let events: Value = client
        .get(format!("{base}/v1/events?resource_id={charge_id}&code=charge.db.created"))
        .bearer_auth(token)
        .send()
        .await
        .expect("events")
        .json()
        .await
        .expect("JSON");
    events["data"].as_array().expect("a list").len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_while_group_commits_hold_several_units_leaves_each_key_whole_or_absent() {
    // SQLite's writer commits the units that queued behind one another together: with 32
    // clients the kill finds batches of several released units not yet durable.
    let db = fresh_database().await;
    let server = Served::start(&db.url);
    let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let debtor: Value = client
        .post(format!("{}/v1/debtors", server.base))
        .bearer_auth(&server.token)
        .json(&json!({ "name": "Carla Agrupada", "document": cpf(8803), "email": "carla@example.com.br" }))
        .send()
        .await
        .expect("debtor")
        .json()
        .await
        .expect("JSON");
    let debtor_id = debtor["data"]["id"].as_str().expect("debtor id").to_string();

    let dead = Arc::new(AtomicBool::new(false));
    let mut clients = Vec::new();
    for c in 0..32 {
        let (client, base, token, debtor_id, dead) =
            (client.clone(), server.base.clone(), server.token.clone(), debtor_id.clone(), dead.clone());
        clients.push(tokio::spawn(async move {
            let mut heard = Vec::new();
            for n in 0.. {
                if dead.load(Ordering::SeqCst) {
                    break;
                }
                let key = format!("group-{c}-{n}");
                let sent = client
                    .post(format!("{base}/v1/charges"))
                    .bearer_auth(&token)
                    .header("Idempotency-Key", &key)
                    .json(&charge_body(&debtor_id, &key))
                    .send()
                    .await;
                let outcome = match sent {
                    Ok(resp) if resp.status().as_u16() == 201 => match resp.json::<Value>().await {
                        Ok(v) => Heard::Created(v["data"]["id"].as_str().unwrap().to_string()),
                        Err(_) => Heard::Unknown,
                    },
                    _ => Heard::Unknown,
                };
                let broke = matches!(outcome, Heard::Unknown);
                heard.push((key, outcome));
                if broke {
                    break;
                }
            }
            heard
        }));
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    dead.store(true, Ordering::SeqCst);
    server.kill();
    let mut heard = Vec::new();
    for c in clients {
        heard.extend(c.await.unwrap());
    }
    let acknowledged = heard.iter().filter(|(_, h)| matches!(h, Heard::Created(_))).count();
    assert!(acknowledged > 20, "the load ran before the kill: {acknowledged} acknowledged");
    let in_flight = heard.len() - acknowledged;
    assert!(in_flight > 1, "the kill caught several units in flight: {in_flight}");

    // What the database kept, before any retry: a key's charge with its event, or nothing.
    let server = Served::start(&db.url);
    let kept = charges_by_description(&client, &server.base, &server.token, &debtor_id).await;
    for ids in kept.values() {
        for id in ids {
            assert_eq!(created_events(&client, &server.base, &server.token, id).await, 1, "charge {id}");
        }
    }
    let (mut whole, mut absent) = (0, 0);
    let mut retried = HashMap::new();
    for (key, first) in &heard {
        let before = kept.get(key).cloned();
        let r = retry_to_completion(&client, &server.base, &server.token, key, &charge_body(&debtor_id, key))
            .await;
        match before {
            // Fully there: the retry replays the charge the key committed with.
            Some(ids) => {
                assert_eq!(ids, vec![r.id.clone()], "key {key}");
                assert!(r.replayed, "key {key} committed, so its retry is a replay");
                whole += 1;
            }
            // Fully absent: no charge, no key; the retry runs it for the first time.
            None => {
                assert!(!r.replayed, "key {key} had no charge, yet its retry replayed {}", r.id);
                assert!(matches!(first, Heard::Unknown), "key {key} was acknowledged and lost");
                absent += 1;
            }
        }
        retried.insert(key.clone(), r);
    }
    println!(
        "{} keys: {acknowledged} acknowledged, {whole} whole after the kill, {absent} absent",
        heard.len()
    );
    let found = charges_by_description(&client, &server.base, &server.token, &debtor_id).await;
    assert_one_charge_per_key(&found, &retried);
}
