//! A crash of the engine midway through a pass: the process is aborted right after each of the
//! pass's writes in turn, and a new pass at the same instant must leave the same state as one
//! pass that was never interrupted (charges, notifications and events, compared through the
//! API so the test runs on SQLite and PostgreSQL alike).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::process::{Command, Output};

use serde_json::{Value, json};

use crate::common::{TestServer, cpf};
use crate::regua::{address, policy};

const BIN: &str = env!("CARGO_BIN_EXE_kobana-dunning");

/// The variable that makes the engine abort the process after its N-th committed write.
const ABORT_AFTER_WRITES: &str = "KOBANA_DUNNING_ABORT_AFTER_WRITES";

/// The instant of every pass: noon in São Paulo on the Wednesday after Carnival (the 8th and
/// 9th are holidays), when the charges due on the 5th get their due-day SMS late, their
/// WhatsApp and letter on time, and the charge due on 25 January its credit-bureau step.
const PASS_AT: &str = "2027-02-10T15:00:00Z";

/// The pass over [`set_up`]'s charges makes 14 writes: one that still aborts after this many
/// aborts whatever the count.
const MAX_ABORTS: u64 = 25;

/// An organization with the régua tests' policy as its default, and charges for which one pass at
/// [`PASS_AT`] writes every kind of change: overdue turns, notifications sent on several
/// channels, notifications skipped (opt-out, missing phone) and an escalation. Each charge's
/// external_id names it, since ids differ from server to server.
async fn set_up(server: &TestServer) -> String {
    let (_, token) = server.tenant("Queda do motor").await;
    let r = server.write(&token, "collection_policies_create", policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    for (external_id, name, seed, extra, due_date) in [
        ("full", "Ana Completa", 7601, json!({}), "2027-02-05"),
        ("opted_out", "Bia Sem SMS", 7602, json!({ "opt_out": { "sms": true } }), "2027-02-05"),
        ("no_phone", "Caio Sem Celular", 7603, json!({ "mobile": null }), "2027-02-05"),
        ("escalated", "Davi Atrasado", 7604, json!({}), "2027-01-25"),
    ] {
        let mut debtor = json!({ "name": name, "document": cpf(seed), "email": format!("{seed}@example.com.br"),
                                 "mobile": "+5511987654321", "address": address() });
        for (k, v) in extra.as_object().unwrap() {
            if v.is_null() {
                debtor.as_object_mut().unwrap().remove(k);
            } else {
                debtor[k] = v.clone();
            }
        }
        let r = server.write(&token, "debtors_create", debtor).await;
        assert_eq!(r.status, 201, "{}", r.body);
        let charge = json!({ "debtor_id": r.data()["id"], "amount": 1250.0, "due_date": due_date,
                             "external_id": external_id });
        let r = server.write(&token, "charges_create", charge).await;
        assert_eq!(r.status, 201, "{}", r.body);
    }
    token
}

/// A notification as the snapshot compares it: its step named by the step's offset.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct NotificationState {
    step_offset: Option<i64>,
    channel: String,
    status: String,
    skip_reason: Option<String>,
    attempts: i64,
    /// Its event codes, sorted.
    events: Vec<String>,
}

/// A charge as the snapshot compares it.
#[derive(Debug, PartialEq, Eq)]
struct ChargeState {
    status: String,
    dunning_status: String,
    version: i64,
    /// Its event codes, sorted.
    events: Vec<String>,
    /// Sorted.
    notifications: Vec<NotificationState>,
}

/// What the organization holds, by charge external_id, without ids or timestamps.
type Snapshot = BTreeMap<String, ChargeState>;

/// Every item of a list operation, page after page.
async fn all_pages(server: &TestServer, token: &str, op_id: &str, filter: &str) -> Vec<Value> {
    let mut items = Vec::new();
    for page in 1.. {
        let paging = format!("per_page=100&page={page}");
        let query = if filter.is_empty() { paging } else { format!("{filter}&{paging}") };
        let r = server.read(token, op_id, &query).await;
        assert_eq!(r.status, 200, "{op_id}: {}", r.body);
        let batch = r.data().as_array().unwrap().clone();
        let total = r.body["meta"]["total"].as_u64().unwrap() as usize;
        let empty = batch.is_empty();
        items.extend(batch);
        if items.len() >= total || empty {
            break;
        }
    }
    items
}

/// The sorted event codes of one object.
async fn event_codes(server: &TestServer, token: &str, resource_id: &str) -> Vec<String> {
    let mut codes: Vec<String> =
        all_pages(server, token, "events_list", &format!("resource_id={resource_id}"))
            .await
            .iter()
            .map(|e| e["code"].as_str().unwrap().to_string())
            .collect();
    codes.sort();
    codes
}

fn text(value: &Value) -> String {
    value.as_str().unwrap_or_else(|| panic!("a string: {value}")).to_string()
}

async fn snapshot(server: &TestServer, token: &str) -> Snapshot {
    let mut step_offsets = HashMap::new();
    for policy in all_pages(server, token, "collection_policies_list", "").await {
        // A list row leaves the steps out; the policy itself has them.
        let id = text(&policy["id"]);
        let policy = server.call(token, "collection_policies_get", &[("cp_id", &id)], "", None).await;
        for step in policy.data()["steps"].as_array().unwrap() {
            step_offsets.insert(text(&step["id"]), step["offset_days"].as_i64().unwrap());
        }
    }
    let mut snapshot = Snapshot::new();
    for charge in all_pages(server, token, "charges_list", "").await {
        let charge_id = text(&charge["id"]);
        let mut notifications = Vec::new();
        for n in all_pages(server, token, "notifications_list", &format!("charge_id={charge_id}")).await {
            notifications.push(NotificationState {
                step_offset: n["step_id"].as_str().map(|id| step_offsets[id]),
                channel: text(&n["channel"]),
                status: text(&n["status"]),
                skip_reason: n["skip_reason"].as_str().map(str::to_string),
                attempts: n["attempts"].as_i64().unwrap(),
                events: event_codes(server, token, n["id"].as_str().unwrap()).await,
            });
        }
        notifications.sort();
        let state = ChargeState {
            status: text(&charge["status"]),
            dunning_status: text(&charge["dunning_status"]),
            version: charge["version"].as_i64().unwrap(),
            events: event_codes(server, token, &charge_id).await,
            notifications,
        };
        snapshot.insert(text(&charge["external_id"]), state);
    }
    snapshot
}

/// `engine run-once` at [`PASS_AT`] on the server's database, aborting after the given number
/// of writes when one is given.
async fn run_pass(server: &TestServer, abort_after_writes: Option<u64>) -> Output {
    let database = server.database_url().to_string();
    tokio::task::spawn_blocking(move || {
        let mut command = Command::new(BIN);
        command
            .args(["--database", &database, "engine", "run-once", "--at", PASS_AT])
            .env_remove("KOBANA_DUNNING_DATABASE")
            .env_remove(ABORT_AFTER_WRITES);
        if let Some(n) = abort_after_writes {
            command.env(ABORT_AFTER_WRITES, n.to_string());
        }
        command.output().expect("the binary runs")
    })
    .await
    .expect("the pass's thread ends")
}

/// Whether the process was ended by `abort()` (SIGABRT), not by an error of its own.
fn aborted(output: &Output) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        output.status.signal() == Some(6)
    }
    #[cfg(not(unix))]
    {
        !output.status.success()
    }
}

fn describe(output: &Output) -> String {
    format!(
        "{}\nstdout: {}\nstderr: {}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The writes an uninterrupted pass must have made, one at least per change the snapshot
/// shows: each overdue turn, each step's messages (a batch of them, with the régua's start, in
/// one transaction; this organization is smaller than a batch), each escalation.
fn least_writes(reference: &Snapshot) -> usize {
    let overdue = reference.values().filter(|c| c.status == "overdue").count();
    let steps: BTreeSet<Option<i64>> =
        reference.values().flat_map(|c| &c.notifications).map(|n| n.step_offset).collect();
    let escalations = reference.values().filter(|c| c.dunning_status == "awaiting_decision").count();
    overdue + steps.len() + escalations
}

/// The pass this test interrupts does all it is meant to: otherwise the comparison below
/// could pass with nothing to compare.
fn assert_rich(reference: &Snapshot) {
    let notifications = || reference.values().flat_map(|c| &c.notifications);
    let overdue = reference.values().filter(|c| c.status == "overdue").count();
    let sent = notifications().filter(|n| n.status == "sent").count();
    let channels_sent: BTreeSet<&str> =
        notifications().filter(|n| n.status == "sent").map(|n| n.channel.as_str()).collect();
    let skipped = notifications().filter(|n| n.status == "skipped").count();
    let awaiting = reference.values().filter(|c| c.dunning_status == "awaiting_decision").count();
    assert!(overdue >= 1, "no charge turned overdue: {reference:#?}");
    assert!(sent >= 2 && channels_sent.len() >= 2, "too few notifications sent: {reference:#?}");
    assert!(skipped >= 1, "no notification skipped: {reference:#?}");
    assert!(awaiting >= 1, "no escalation: {reference:#?}");
    assert!(
        reference.values().all(|c| c.status == "overdue"),
        "every charge is overdue after the pass: {reference:#?}"
    );
}

/// Fails naming the write after which the pass was aborted and, for each charge that differs,
/// both states in full.
fn assert_same(abort_after: u64, state: &Snapshot, reference: &Snapshot) {
    if state == reference {
        return;
    }
    let keys: BTreeSet<&String> = state.keys().chain(reference.keys()).collect();
    let differences: Vec<String> = keys
        .into_iter()
        .filter(|k| state.get(*k) != reference.get(*k))
        .map(|k| {
            format!(
                "charge {k}\n  after the abort and a new pass: {:#?}\n  uninterrupted: {:#?}",
                state.get(k),
                reference.get(k)
            )
        })
        .collect();
    panic!(
        "a pass aborted after write {abort_after}, then run again, differs from one uninterrupted:\n{}",
        differences.join("\n")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_aborted_after_any_write_is_completed_by_the_next_pass() {
    let started = std::time::Instant::now();
    let server = TestServer::start().await;
    let token = set_up(&server).await;
    let output = run_pass(&server, None).await;
    assert!(output.status.success(), "the uninterrupted pass: {}", describe(&output));
    let reference = snapshot(&server, &token).await;
    drop(server);
    assert_rich(&reference);
    let least = least_writes(&reference);

    let mut writes_before_completion = None;
    for n in 1..=MAX_ABORTS {
        let server = TestServer::start().await;
        let token = set_up(&server).await;
        let output = run_pass(&server, Some(n)).await;
        if output.status.success() {
            // The pass made fewer than n writes: every write has had its abort.
            writes_before_completion = Some(n - 1);
            break;
        }
        assert!(aborted(&output), "abort after write {n}: the pass failed otherwise: {}", describe(&output));
        let output = run_pass(&server, None).await;
        assert!(output.status.success(), "the pass after the abort after write {n}: {}", describe(&output));
        let state = snapshot(&server, &token).await;
        assert_same(n, &state, &reference);
    }
    let writes = writes_before_completion
        .unwrap_or_else(|| panic!("the pass still aborted after {MAX_ABORTS} writes"));
    assert!(
        writes as usize >= least,
        "the failpoint counted {writes} writes, fewer than the {least} the pass makes at least"
    );
    eprintln!(
        "aborted after each of {writes} writes and compared: {} ms in all",
        started.elapsed().as_millis()
    );
}
