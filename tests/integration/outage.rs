//! The database going away under a running server. While PostgreSQL cannot be reached (its
//! connections closed, refused or gone silent) or takes no writes, requests answer 503
//! `UNAVAILABLE` with the reason and a `Retry-After` within 3 s, and `/readyz` answers 503
//! within a second; when the database is back, both recover without restarting the server, and
//! a keyed write refused during the outage runs once on its retry. A proxy in front of
//! PostgreSQL stops and starts in its place, since the other tests share the real server.
//! Needs PostgreSQL (`KOBANA_DUNNING_TEST_POSTGRES`); `.ci/run` always provides it.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use kobana_dunning::store::Outage;
use reqwest::Method;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

use crate::common::{ALL, POSTGRES_VAR, Resp, TestServer, cpf, date_in, fresh_database, ids, send};

/// The longest a request may take to answer while the database is out.
const REQUEST_LIMIT: Duration = Duration::from_secs(3);
/// The longest `/readyz` may take to answer.
const READYZ_LIMIT: Duration = Duration::from_secs(1);
/// How long `/readyz` keeps a probe's answer: a probe older than this is run again.
const READYZ_KEPT: Duration = Duration::from_secs(1);
/// How long the server has to recover once the database is back.
const RECOVERY_LIMIT: Duration = Duration::from_secs(10);

/// True on PostgreSQL; on SQLite, prints a note and answers false.
fn on_postgres(test: &str) -> bool {
    if TestServer::on_postgres() {
        return true;
    }
    eprintln!("note: {test} needs PostgreSQL; set {POSTGRES_VAR}=postgres://user@host:port to run it");
    false
}

fn id(v: &Value) -> String {
    v["id"].as_str().expect("an id").to_string()
}

/// The `details.reason` of an error envelope.
fn reason(r: &Resp) -> &str {
    r.body["error"]["details"]["reason"].as_str().unwrap_or_default()
}

/// What a stopped [`Proxy`] does with the connections made to it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stopped {
    /// Accepts each and closes it at once: the database's port answers, the database does not.
    Closes,
    /// Refuses them (nothing listens on the port), as a stopped PostgreSQL on a running host
    /// does: a client then retries connecting until it stops waiting.
    Refuses,
    /// Accepts each and answers nothing, and the open ones fall silent, as when the network to
    /// the database or its host stops: a client waits for answers that never come. Until the
    /// proxy starts again; then they close.
    Hangs,
}

/// A TCP proxy in front of the PostgreSQL server that can be stopped and started again, so the
/// server under test sees its database go away and come back while the shared PostgreSQL
/// server keeps serving the other tests.
struct Proxy {
    addr: SocketAddr,
    /// `None` while forwarding.
    stopped: watch::Sender<Option<Stopped>>,
    accepting: tokio::task::JoinHandle<()>,
}

impl Proxy {
    /// A running proxy to `target` (`host:port`).
    async fn start(target: String) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("the proxy binds");
        let addr = listener.local_addr().expect("the proxy's address");
        let (stopped, watching) = watch::channel(None);
        let accepting = tokio::spawn(async move {
            let mut listener = Some(listener);
            loop {
                let Some(listening) = &listener else {
                    // Refusing: nothing listens until the proxy starts again, on the same port.
                    let mut refusing = watching.clone();
                    let _ = refusing.wait_for(|s| *s != Some(Stopped::Refuses)).await;
                    listener = Some(TcpListener::bind(addr).await.expect("the proxy binds its port again"));
                    continue;
                };
                let mut refusing = watching.clone();
                let client = tokio::select! {
                    accepted = listening.accept() => match accepted {
                        Ok((client, _)) => client,
                        Err(_) => continue,
                    },
                    _ = refusing.wait_for(|s| *s == Some(Stopped::Refuses)) => {
                        listener = None;
                        continue;
                    }
                };
                let stopped = *watching.borrow();
                if stopped == Some(Stopped::Hangs) {
                    let mut hanging = watching.clone();
                    tokio::spawn(async move {
                        let _silent = client;
                        let _ = hanging.wait_for(Option::is_none).await;
                    });
                    continue;
                }
                if stopped.is_some() {
                    // Stopped: the connection closes at once.
                    drop(client);
                    continue;
                }
                let mut stopping = watching.clone();
                let target = target.clone();
                tokio::spawn(async move {
                    let Ok(mut server) = TcpStream::connect(&target).await else { return };
                    let mut client = client;
                    // Whichever comes first: either side closing, or the proxy stopping (then
                    // both sockets drop, closing the connection, at once or, when the proxy
                    // hangs, once it starts again).
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => return,
                        _ = stopping.wait_for(Option::is_some) => {}
                    }
                    if *stopping.borrow() == Some(Stopped::Hangs) {
                        let _ = stopping.wait_for(Option::is_none).await;
                    }
                });
            }
        });
        Self { addr, stopped, accepting }
    }

    /// Stops forwarding: closes (or silences) every open connection and, until
    /// [`Proxy::resume`], does with new ones what `how` says.
    fn stop(&self, how: Stopped) {
        self.stopped.send_replace(Some(how));
    }

    /// Forwards new connections again.
    fn resume(&self) {
        self.stopped.send_replace(None);
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

/// The `host:port` a PostgreSQL URL names.
fn host_port(database_url: &str) -> String {
    let url = url::Url::parse(database_url).expect("the database URL parses");
    let host = url.host_str().expect("the database URL names a host");
    format!("{host}:{}", url.port().unwrap_or(5432))
}

/// A PostgreSQL URL with its host and port replaced by `proxy`'s.
fn through(database_url: &str, proxy: SocketAddr) -> String {
    let mut url = url::Url::parse(database_url).expect("the database URL parses");
    url.set_host(Some(&proxy.ip().to_string())).expect("a host");
    url.set_port(Some(proxy.port())).expect("a port");
    url.to_string()
}

/// GET /readyz, with how long it took.
async fn readyz(server: &TestServer) -> (u16, Duration) {
    let started = Instant::now();
    let r = send(server.raw(Method::GET, "/readyz")).await;
    (r.status, started.elapsed())
}

/// Polls /readyz until it answers 200, within [`RECOVERY_LIMIT`].
async fn wait_until_ready(case: &str, server: &TestServer) {
    let started = Instant::now();
    loop {
        let (status, took) = readyz(server).await;
        assert!(took < READYZ_LIMIT, "{case}: /readyz answered {status} in {took:?}");
        if status == 200 {
            eprintln!("{case}: /readyz answered 200 {:?} after the database was back", started.elapsed());
            return;
        }
        assert!(
            started.elapsed() < RECOVERY_LIMIT,
            "{case}: /readyz still answers {status} {:?} after the database was back",
            started.elapsed()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Asserts that `/readyz` answers 503 within a second, twice: first once the last ready answer
/// is older than what the server keeps (so a new probe runs), then again at once (the kept
/// answer).
async fn assert_not_ready(case: &str, server: &TestServer, last_ready: Instant) {
    if let Some(rest) = READYZ_KEPT.checked_sub(last_ready.elapsed()) {
        tokio::time::sleep(rest + Duration::from_millis(50)).await;
    }
    for asked in ["first", "again"] {
        let (status, took) = readyz(server).await;
        eprintln!("{case}: /readyz ({asked}) with the database out: {status} in {took:?}");
        assert_eq!(status, 503, "{case}: /readyz ({asked}) with the database out");
        assert!(took < READYZ_LIMIT, "{case}: /readyz ({asked}) answered in {took:?}");
    }
}

/// Sends a request, asserts it answers 503 UNAVAILABLE within [`REQUEST_LIMIT`] with a reason
/// and a `Retry-After` of its seconds, and answers the outage the reason names.
async fn unavailable(case: &str, what: &str, request: impl Future<Output = Resp>) -> Outage {
    let started = Instant::now();
    let r = request.await;
    let took = started.elapsed();
    eprintln!("{case}: {what} with the database out: {} {} in {took:?}", r.status, reason(&r));
    assert_eq!((r.status, r.code()), (503, "UNAVAILABLE"), "{case}: {what}: {}", r.body);
    assert!(took < REQUEST_LIMIT, "{case}: {what} answered in {took:?}");
    let outage = [Outage::Unreachable, Outage::Busy, Outage::DiskFull, Outage::ReadOnly]
        .into_iter()
        .find(|o| o.reason() == reason(&r))
        .unwrap_or_else(|| panic!("{case}: {what}: no known reason in {}", r.body));
    let retry_after = outage.retry_after().to_string();
    assert_eq!(r.header("retry-after"), Some(retry_after.as_str()), "{case}: {what}");
    outage
}

/// [`unavailable`] for a database that cannot be reached.
async fn unreachable(case: &str, what: &str, request: impl Future<Output = Resp>) {
    assert_eq!(unavailable(case, what, request).await, Outage::Unreachable, "{case}: {what}");
}

/// The acceptance of bounded waits, for a database whose port closes connections: with
/// PostgreSQL stopped, writes and reads answer 503 with Retry-After within 3 s and /readyz 503
/// within 1 s; once it starts again both recover without a restart, and the keyed write refused
/// during the outage runs once on its retry.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_database_that_closes_connections_answers_503_in_time_and_recovers() {
    stop_and_start_the_database(Stopped::Closes).await;
}

/// The same for a database whose port refuses connections, the way a stopped PostgreSQL's
/// does: the server must stop retrying its connection within its wait.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_database_that_refuses_connections_answers_503_in_time_and_recovers() {
    stop_and_start_the_database(Stopped::Refuses).await;
}

/// The same for a database that stops answering without closing anything (the network to it
/// gone): waits for a connection and its check end at the server's wait, not TCP's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_that_stops_answering_answers_503_in_time_and_recovers() {
    stop_and_start_the_database(Stopped::Hangs).await;
}

/// Runs requests against a server whose database stops (as `how` says) and starts again.
async fn stop_and_start_the_database(how: Stopped) {
    let case = &format!("stopped, {how:?}");
    if !on_postgres("the outage test") {
        return;
    }
    let database = fresh_database().await;
    let proxy = Proxy::start(host_port(&database.url)).await;
    let server = TestServer::on_database(&through(&database.url, proxy.addr)).await;

    let (org, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    // A token the server has not looked up yet: its lookup meets the outage, which is no
    // reason to call the caller unauthorized.
    let unseen = server.token(&org, ALL).await;
    let (status, _) = readyz(&server).await;
    assert_eq!(status, 200, "/readyz with the database up");
    let last_ready = Instant::now();

    let charge = json!({ "debtor_id": debtor, "amount": 1250.0, "due_date": date_in(10) });
    let key = [("Idempotency-Key", "k1")];
    let keyed = || server.call_with(&token, "charges_create", &[], "", Some(charge.clone()), &key);
    let of_debtor = format!("debtor_id={debtor}");

    proxy.stop(how);
    unreachable(case, "a keyed charges_create", keyed()).await;
    let unkeyed = server.write(&token, "charges_create", charge.clone());
    unreachable(case, "an unkeyed charges_create", unkeyed).await;
    let other = json!({ "name": "Outra Pessoa", "document": cpf(7) });
    unreachable(case, "an unkeyed debtors_create", server.write(&token, "debtors_create", other)).await;
    unreachable(case, "a debtors_get", server.read_id(&token, "debtors_get", &debtor)).await;
    unreachable(case, "a charges_list", server.read(&token, "charges_list", &of_debtor)).await;
    unreachable(case, "a debtors_list with an unseen token", server.read(&unseen, "debtors_list", "")).await;
    assert_not_ready(case, &server, last_ready).await;

    proxy.resume();
    wait_until_ready(case, &server).await;

    // Nothing committed during the outage: the retry runs the request for the first time, and
    // the next one replays its answer.
    let first = keyed().await;
    assert_eq!(first.status, 201, "the keyed retry after the outage: {}", first.body);
    assert_eq!(first.header("idempotent-replayed"), None, "the keyed retry ran for the first time");
    let replayed = keyed().await;
    assert_eq!(replayed.status, 201, "{}", replayed.body);
    assert_eq!(replayed.header("idempotent-replayed"), Some("true"));
    assert_eq!(id(replayed.data()), id(first.data()), "the replay answers the same charge");

    let r = server.read(&token, "charges_list", &of_debtor).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(ids(&r), vec![id(first.data())], "one charge: none from the outage, no duplicate");
}

/// Runs one statement on the PostgreSQL server's admin database.
async fn as_admin(sql: String) {
    use sqlx::Connection;
    let admin_url = std::env::var(POSTGRES_VAR).expect("the PostgreSQL admin URL");
    let mut conn = sqlx::PgConnection::connect(&admin_url).await.expect("PostgreSQL answers");
    sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut conn).await.expect("the admin statement runs");
    let _ = conn.close().await;
}

/// Closes every connection to `database` but the admin's own, so the server's next ones open
/// under the database's current settings.
async fn terminate_connections(database: &str) {
    as_admin(format!(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE datname = '{database}' AND pid <> pg_backend_pid()"
    ))
    .await;
}

/// A database that answers but takes no writes (a standby, or one set read-only by its
/// operator) is an outage too: its own probe makes /readyz 503, writes answer 503 `read_only`,
/// and both recover when it takes writes again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_database_answers_503_and_recovers_when_it_takes_writes() {
    let case = "read-only";
    if !on_postgres("the read-only outage test") {
        return;
    }
    let server = TestServer::start().await;
    let database = url::Url::parse(server.database_url()).expect("the database URL parses");
    let database = database.path().trim_start_matches('/').to_string();

    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let (status, _) = readyz(&server).await;
    assert_eq!(status, 200, "/readyz with the database taking writes");
    let last_ready = Instant::now();
    let charge = json!({ "debtor_id": debtor, "amount": 1250.0, "due_date": date_in(10) });

    as_admin(format!("ALTER DATABASE {database} SET default_transaction_read_only = on")).await;
    terminate_connections(&database).await;
    // Before any request meets it: the probe alone finds the database takes no writes.
    assert_not_ready(case, &server, last_ready).await;

    // A write may meet a connection the server has not yet seen terminated (503
    // database_unreachable); the ones after it run on new, read-only connections.
    let started = Instant::now();
    loop {
        let write = server.write(&token, "charges_create", charge.clone());
        match unavailable(case, "a charges_create", write).await {
            Outage::ReadOnly => break,
            Outage::Unreachable => {}
            other => panic!("{case}: a charges_create answered {}", other.reason()),
        }
        assert!(started.elapsed() < REQUEST_LIMIT, "{case}: no read_only answer in {:?}", started.elapsed());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    as_admin(format!("ALTER DATABASE {database} RESET default_transaction_read_only")).await;
    terminate_connections(&database).await;
    wait_until_ready(case, &server).await;

    let r = server.write(&token, "charges_create", charge).await;
    assert_eq!(r.status, 201, "a write once the database takes writes again: {}", r.body);
    let r = server.read(&token, "charges_list", &format!("debtor_id={debtor}")).await;
    assert_eq!(ids(&r).len(), 1, "one charge: none from the read-only time: {}", r.body);
}

/// A row held by another transaction (an operator's session, a stuck migration) makes a write
/// wait no longer than for a connection: 503 `database_busy` within 3 s, not a hang; once it is
/// released the same write goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_blocked_on_a_held_row_answers_503_busy_in_time() {
    let case = "row lock";
    if !on_postgres("the row-lock test") {
        return;
    }
    use sqlx::Connection;
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let charge = json!({ "debtor_id": debtor, "amount": 1250.0, "due_date": date_in(10) });

    let mut holder = sqlx::PgConnection::connect(server.database_url()).await.expect("PostgreSQL answers");
    let mut tx = holder.begin().await.expect("a transaction");
    sqlx::query("SELECT id FROM debtors WHERE id = $1 FOR UPDATE")
        .bind(&debtor)
        .execute(&mut *tx)
        .await
        .expect("the debtor's row is held");
    let write = server.write(&token, "charges_create", charge.clone());
    assert_eq!(unavailable(case, "a charges_create", write).await, Outage::Busy);
    tx.rollback().await.expect("released");
    let _ = holder.close().await;

    let r = server.write(&token, "charges_create", charge).await;
    assert_eq!(r.status, 201, "the write once the row is free: {}", r.body);
}

/// What a [`Tripwire`] does once a client sends its marker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trip {
    /// Passes the marker on, keeps the server's answer back, then closes the connection: the
    /// statement ran (a COMMIT committed) while the client hears only that the connection ended.
    Cuts,
    /// Passes the marker on, then nothing more either way, as a frozen (SIGSTOP) server does.
    Freezes,
}

/// The marker a [`Tripwire`] waits for, and what it does then.
type Armed = std::sync::Arc<std::sync::Mutex<Option<(&'static [u8], Trip)>>>;

/// A proxy in front of PostgreSQL that forwards everything until, once armed, a client sends
/// the marker; then does with that one connection what the [`Trip`] says (once).
struct Tripwire {
    addr: SocketAddr,
    armed: Armed,
    accepting: tokio::task::JoinHandle<()>,
}

impl Tripwire {
    async fn start(target: String) -> Self {
        use std::sync::atomic::{AtomicBool, Ordering};
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("the tripwire binds");
        let addr = listener.local_addr().expect("the tripwire's address");
        let armed: Armed = Default::default();
        let arming = armed.clone();
        let accepting = tokio::spawn(async move {
            while let Ok((client, _)) = listener.accept().await {
                let Ok(server) = TcpStream::connect(&target).await else { continue };
                let armed = arming.clone();
                tokio::spawn(async move {
                    let (mut from_client, mut to_client) = client.into_split();
                    let (mut from_server, mut to_server) = server.into_split();
                    let held = std::sync::Arc::new(AtomicBool::new(false));
                    let holding = held.clone();
                    let down = tokio::spawn(async move {
                        let mut buf = vec![0_u8; 64 * 1024];
                        loop {
                            let n = from_server.read(&mut buf).await.unwrap_or(0);
                            if n == 0 {
                                return;
                            }
                            if holding.load(Ordering::SeqCst) {
                                // Kept back, the connection left open.
                                return std::future::pending().await;
                            }
                            if to_client.write_all(&buf[..n]).await.is_err() {
                                return;
                            }
                        }
                    });
                    let mut buf = vec![0_u8; 64 * 1024];
                    loop {
                        let n = from_client.read(&mut buf).await.unwrap_or(0);
                        if n == 0 {
                            down.abort();
                            return;
                        }
                        let chunk = &buf[..n];
                        let trip = {
                            let mut armed = armed.lock().unwrap();
                            match *armed {
                                Some((marker, trip)) if chunk.windows(marker.len()).any(|w| w == marker) => {
                                    *armed = None;
                                    Some(trip)
                                }
                                _ => None,
                            }
                        };
                        if trip.is_some() {
                            held.store(true, Ordering::SeqCst);
                        }
                        if to_server.write_all(chunk).await.is_err() {
                            down.abort();
                            return;
                        }
                        match trip {
                            None => {}
                            Some(Trip::Cuts) => {
                                // Time for the server to run it; then both sides close.
                                tokio::time::sleep(Duration::from_millis(300)).await;
                                down.abort();
                                return;
                            }
                            Some(Trip::Freezes) => {
                                let _frozen = (from_client, to_server, down);
                                return std::future::pending().await;
                            }
                        }
                    }
                });
            }
        });
        Self { addr, armed, accepting }
    }

    /// Trips on the next connection that sends `marker`.
    fn arm(&self, marker: &'static [u8], trip: Trip) {
        *self.armed.lock().unwrap() = Some((marker, trip));
    }
}

impl Drop for Tripwire {
    fn drop(&mut self) {
        self.accepting.abort();
    }
}

/// A keyed write whose connection fails once its COMMIT was sent (the commit done) answers 503
/// saying the outcome is unknown and to retry with the same key, never "nothing was done"; the
/// retry with that key answers the charge that committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_lost_after_commit_says_the_outcome_is_unknown() {
    if !on_postgres("the unknown-outcome test") {
        return;
    }
    let database = fresh_database().await;
    let wire = Tripwire::start(host_port(&database.url)).await;
    let server = TestServer::on_database(&through(&database.url, wire.addr)).await;
    let (_, token) = server.tenant("Org").await;
    let debtor = id(&server.create_debtor(&token, "Maria Souza", "52998224725").await);
    let charge = json!({ "debtor_id": debtor, "amount": 1250.0, "due_date": date_in(10) });
    let key = [("Idempotency-Key", "after-commit")];
    let keyed = || server.call_with(&token, "charges_create", &[], "", Some(charge.clone()), &key);

    // sqlx ends a transaction with the simple query "COMMIT".
    wire.arm(b"COMMIT\0", Trip::Cuts);
    let r = keyed().await;
    assert_eq!((r.status, r.code()), (503, "UNAVAILABLE"), "{}", r.body);
    let message = r.body["error"]["message"].as_str().unwrap_or_default();
    assert!(!message.contains("nothing was done"), "a commit was sent: {message}");
    assert!(message.contains("same Idempotency-Key"), "{message}");
    assert_eq!(r.body["error"]["details"]["outcome"], "unknown", "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("2"));

    tokio::time::sleep(Duration::from_millis(500)).await;
    let retried = keyed().await;
    assert_eq!(retried.status, 201, "{}", retried.body);
    assert_eq!(retried.header("idempotent-replayed"), Some("true"), "the first request had committed");
    let r = server.read(&token, "charges_list", &format!("debtor_id={debtor}")).await;
    assert_eq!(ids(&r), vec![id(retried.data())], "one charge");
}

/// A database that freezes (SIGSTOP, a hung host) once a request's statement was sent: the
/// request answers 503 within the statement limit plus the wait, instead of waiting for ever
/// on a connection TCP keeps open.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_frozen_mid_statement_answers_503_within_its_bound() {
    if !on_postgres("the frozen-statement test") {
        return;
    }
    let database = fresh_database().await;
    let wire = Tripwire::start(host_port(&database.url)).await;
    let server = TestServer::on_database(&through(&database.url, wire.addr)).await;
    let (_, token) = server.tenant("Org").await;
    let bound = kobana_dunning::store::STATEMENT_LIMIT + kobana_dunning::store::DEFAULT_WAIT;

    // The name travels in the INSERT's parameters.
    wire.arm(b"Congelada Tripwire", Trip::Freezes);
    let started = Instant::now();
    let body = json!({ "name": "Congelada Tripwire", "document": cpf(11) });
    let answered =
        tokio::time::timeout(bound + Duration::from_secs(5), server.write(&token, "debtors_create", body))
            .await;
    let took = started.elapsed();
    let r = answered.unwrap_or_else(|_| panic!("no answer {took:?} after the database froze"));
    eprintln!("frozen mid-statement: {} {} in {took:?}", r.status, reason(&r));
    assert_eq!((r.status, r.code()), (503, "UNAVAILABLE"), "{}", r.body);
    assert_eq!(reason(&r), "database_unreachable");
    assert!(took < bound + Duration::from_secs(1), "answered in {took:?}");
    // Nothing committed: the words say so, and the server serves on.
    assert!(r.body["error"]["message"].as_str().unwrap_or_default().contains("nothing was done"));
    let other = json!({ "name": "Outra Pessoa", "document": cpf(12) });
    let r = server.write(&token, "debtors_create", other).await;
    assert_eq!(r.status, 201, "{}", r.body);
}
