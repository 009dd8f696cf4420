//! Two `serve` replicas on one PostgreSQL database behave as one server: idempotency keys,
//! confirmation nonces, ETags and organization isolation hold across them. Needs PostgreSQL
//! (`KOBANA_DUNNING_TEST_POSTGRES`); `.ci/run` always provides it.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{ALL, POSTGRES_VAR, TestServer, cpf, date_in};

fn id(v: &Value) -> String {
    v["id"].as_str().expect("an id").to_string()
}

/// Both replicas, or None (with a note) when the suite runs on SQLite.
async fn replicas() -> Option<(TestServer, TestServer)> {
    if !TestServer::on_postgres() {
        eprintln!(
            "note: replicas need PostgreSQL; set {POSTGRES_VAR}=postgres://user@host:port to run this test"
        );
        return None;
    }
    let a = TestServer::start().await;
    let b = a.replica().await;
    Some((a, b))
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

fn elicitation() -> Value {
    json!({ "elicitation": { "form": {} } })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idempotency_key_used_on_one_replica_replays_on_the_other() {
    let Some((a, b)) = replicas().await else { return };
    let (_, token) = a.tenant("Org").await;
    let body = json!({"name": "Maria Souza", "document": "52998224725"});
    let key = [("Idempotency-Key", "replica-key-1")];

    let first = a.call_with(&token, "debtors_create", &[], "", Some(body.clone()), &key).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let second = b.call_with(&token, "debtors_create", &[], "", Some(body), &key).await;
    assert_eq!(second.status, 201, "{}", second.body);
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.body, first.body);

    // A different body under the same key is refused on either replica.
    let other = json!({"name": "Outra Pessoa", "document": cpf(7)});
    let r = b.call_with(&token, "debtors_create", &[], "", Some(other), &key).await;
    assert_eq!((r.status, r.code()), (422, "IDEMPOTENCY_KEY_REUSED"), "{}", r.body);
    let r = b.read(&token, "debtors_list", "").await;
    assert_eq!(r.body["meta"]["total"], 1, "one debtor, whichever replica answered");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_confirmation_consumed_on_one_replica_is_refused_on_the_other() {
    let Some((a, b)) = replicas().await else { return };
    let (_, token) = a.tenant("Org").await;
    let debtor = a.create_debtor(&token, "Maria Souza", "52998224725").await;
    let charge = id(&a.create_charge(&token, &id(&debtor), 1250.0, &date_in(5)).await);

    // Asked on A, declined on A: the nonce is spent.
    let asked = a.mcp_2026(&token, "tools/call", cancel(&charge), elicitation()).await;
    let state = asked.result()["requestState"].as_str().unwrap().to_string();
    let r = a
        .mcp_2026(&token, "tools/call", answer(&cancel(&charge), &state, "decline", false), elicitation())
        .await;
    assert_eq!(r.tool_json()["error"]["code"], "CONFIRMATION_DECLINED", "{}", r.body);

    // Accepted on B with the same state: asked again, nothing runs.
    let r = b
        .mcp_2026(&token, "tools/call", answer(&cancel(&charge), &state, "accept", true), elicitation())
        .await;
    assert_eq!(r.result()["resultType"], "input_required", "{}", r.body);
    let got = b.read_id(&token, "charges_get", &charge).await;
    assert_eq!((got.data()["status"].as_str(), got.data()["version"].as_i64()), (Some("pending"), Some(1)));

    // A fresh state asked on B and accepted on A runs once; replayed on B it does not run again.
    let fresh = r.result()["requestState"].as_str().unwrap().to_string();
    let r = a
        .mcp_2026(&token, "tools/call", answer(&cancel(&charge), &fresh, "accept", true), elicitation())
        .await;
    assert_eq!(r.tool_json()["data"]["status"], "canceled", "{}", r.body);
    let r = b
        .mcp_2026(&token, "tools/call", answer(&cancel(&charge), &fresh, "accept", true), elicitation())
        .await;
    assert_eq!(r.result()["resultType"], "input_required", "{}", r.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_etag_from_one_replica_is_honoured_by_the_other() {
    let Some((a, b)) = replicas().await else { return };
    let (_, token) = a.tenant("Org").await;
    let d = id(&a.create_debtor(&token, "Maria Souza", "52998224725").await);
    let etag = a.read_id(&token, "debtors_get", &d).await.header("etag").unwrap().to_string();
    assert_eq!(etag, "\"v1\"");

    let r = b
        .call_with(
            &token,
            "debtors_update",
            &[("id", &d)],
            "",
            Some(json!({"name": "Maria S."})),
            &[("If-Match", &etag)],
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("etag"), Some("\"v2\""));

    // A's ETag is now stale, on A and on B.
    for server in [&a, &b] {
        let r = server
            .call_with(
                &token,
                "debtors_update",
                &[("id", &d)],
                "",
                Some(json!({"name": "Maria X."})),
                &[("If-Match", &etag)],
            )
            .await;
        assert_eq!(r.status, 412, "{}", r.body);
        assert_eq!(r.code(), "PRECONDITION_FAILED");
    }
    assert_eq!(a.read_id(&token, "debtors_get", &d).await.data()["name"], "Maria S.");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_organizations_ids_are_not_found_on_both_replicas() {
    let Some((a, b)) = replicas().await else { return };
    let (_, mine) = a.tenant("Mine").await;
    let other_org = b.org("Other").await;
    let theirs = b.token(&other_org, ALL).await;
    let debtor = id(&a.create_debtor(&mine, "Maria Souza", "52998224725").await);
    let charge = id(&a.create_charge(&mine, &debtor, 10.0, &date_in(5)).await);

    for server in [&a, &b] {
        let r = server.read_id(&theirs, "debtors_get", &debtor).await;
        assert_eq!((r.status, r.code()), (404, "NOT_FOUND"), "{}", r.body);
        let r = server.read_id(&theirs, "charges_get", &charge).await;
        assert_eq!((r.status, r.code()), (404, "NOT_FOUND"), "{}", r.body);
        let r = server.read(&theirs, "charges_list", &format!("q={charge}")).await;
        assert_eq!(r.body["meta"]["total"], 0, "{}", r.body);
        let r = server.read_id(&mine, "charges_get", &charge).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
}

/// Requests `me` with a token until it is refused, for at most `within`; the time it took.
async fn refused_within(server: &TestServer, token: &str, within: Duration) -> Duration {
    let started = Instant::now();
    loop {
        let r = server.read(token, "me", "").await;
        if r.status == 401 {
            return started.elapsed();
        }
        assert_eq!(r.status, 200, "{}", r.body);
        assert!(started.elapsed() < within, "still accepted after {within:?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// A token revoked through one replica, or by the CLI, is refused by every replica at once,
/// although each had it cached (for up to 5 s): the revocation is announced (NOTIFY) when it
/// commits and every replica listens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_token_revoked_anywhere_is_refused_by_every_replica_at_once() {
    let Some((a, b)) = replicas().await else { return };
    let org = a.org("Org").await;
    let (first, second, kept) =
        (a.token(&org, ALL).await, a.token(&org, ALL).await, a.token(&org, ALL).await);
    for server in [&a, &b] {
        for token in [&first, &second, &kept] {
            let r = server.read(token, "me", "").await;
            assert_eq!(r.status, 200, "{}", r.body);
        }
    }
    let soon = Duration::from_secs(1);

    // Through replica A: A forgets it before answering again, B as soon as it hears.
    assert!(a.app.revoke_token(&first).await.expect("revoke"));
    assert_eq!(a.read(&first, "me", "").await.status, 401);
    let took = refused_within(&b, &first, soon).await;
    eprintln!("replica B refused the token revoked on A after {took:?}");

    // By the CLI, another process: both replicas.
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_kobana-dunning"))
        .args(["--database", a.database_url(), "tokens", "revoke", &second])
        .env_remove("KOBANA_DUNNING_DATABASE")
        .output()
        .expect("the binary runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    for server in [&a, &b] {
        let took = refused_within(server, &second, soon).await;
        eprintln!("a replica refused the token revoked by the CLI after {took:?}");
    }

    // Only the revoked tokens: the other one still works everywhere.
    for server in [&a, &b] {
        assert_eq!(server.read(&kept, "me", "").await.status, 200);
    }

    // The listeners lose their connections and the token is revoked meanwhile: whether a
    // replica hears it after reconnecting or not, it forgot every cached token on reconnecting.
    let cut = a
        .app
        .store
        .execute_sql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            &[],
        )
        .await
        .expect("terminate");
    assert_eq!(cut, 2, "one listener a replica");
    assert!(a.app.revoke_token(&kept).await.expect("revoke"));
    for server in [&a, &b] {
        let took = refused_within(server, &kept, soon).await;
        eprintln!("a replica whose listener was cut refused the token after {took:?}");
    }
}
