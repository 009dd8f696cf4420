//! The engine on large organizations: a pass reads only the work that is due, messages left when
//! the send window closes go first in the next window, and two engine processes on one
//! PostgreSQL database send each due step once.

use kobana_dunning::domain::calendar;
use kobana_dunning::domain::charge::{Charge, NewCharge};
use kobana_dunning::domain::dates::Zone;
use kobana_dunning::domain::debtor::{Debtor, DebtorEdit};
use kobana_dunning::domain::money::Hundredths;
use kobana_dunning::engine::{PassReport, run_once};
use kobana_dunning::store::Store;
use serde_json::{Value, json};
use time::macros::time;
use time::{Date, Duration, OffsetDateTime, Time};

use crate::common::{POSTGRES_VAR, TestServer, cpf};

/// Charges inserted per transaction.
const BATCH: usize = 10_000;

/// One e-mail on the due day: each charge is due once, on its due date.
fn due_day_policy() -> Value {
    json!({
        "name": "No vencimento",
        "steps": [{ "offset_days": 0, "channel": "email",
                    "template": { "subject": "Vence hoje", "body": "{{debtor_name}}, vence hoje: {{amount}}." } }],
    })
}

fn zone() -> Zone {
    Zone::default_zone()
}

fn today() -> Date {
    zone().today(OffsetDateTime::now_utc())
}

/// The first business day at least `days` after `from`.
fn business_day_after(from: Date, days: i64) -> Date {
    let mut day = from + Duration::days(days);
    while !calendar::is_business_day(day) {
        day += Duration::days(1);
    }
    day
}

/// `at` on `day` in São Paulo.
fn local(day: Date, at: Time) -> OffsetDateTime {
    zone().instant(day, at)
}

/// A tenant whose default policy is [`due_day_policy`], owing a charge per due date in `dues`
/// (ten to a debtor, each with an e-mail), added in bulk and left as the API and a running
/// engine would leave them by `day`: late ones overdue, each one's next action computed. Its
/// token.
async fn organization(server: &TestServer, day: Date, dues: impl IntoIterator<Item = Date>) -> String {
    let (org, token) = server.tenant("Escala").await;
    let r = server.write(&token, "collection_policies_create", due_day_policy()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let store = &server.app.store;
    let policy = store.followed_policy(&org, None).await.unwrap().expect("the default policy");
    let (now, today) = (OffsetDateTime::now_utc(), today());
    let (mut debtors, mut charges) = (Vec::new(), Vec::with_capacity(BATCH));
    for (i, due) in dues.into_iter().enumerate() {
        if i % 10 == 0 {
            let email = Some(Some(format!("cliente{i}@example.com.br")));
            let edit = DebtorEdit { name: Some(format!("Cliente {i}")), email, ..DebtorEdit::default() };
            let serial = 900_000 + u32::try_from(i / 10).expect("a serial");
            debtors.push(Debtor::register(&org, &cpf(serial), edit, now, &zone()).expect("a valid debtor"));
        }
        let debtor = debtors.last().expect("a debtor");
        let new = NewCharge {
            issue_date: Some(due.min(today) - Duration::days(30)),
            ..NewCharge::due(Hundredths(10_000), due)
        };
        let mut charge = Charge::open(debtor, new, now, &zone()).expect("a valid charge");
        charge.turn_overdue(day, now);
        charge.next_action_at = policy.next_action_for(&charge, &zone(), now);
        charges.push(charge);
        if charges.len() == BATCH {
            store.insert_many(&debtors, &charges).await.unwrap();
            debtors.clear();
            charges.clear();
        }
    }
    store.insert_many(&debtors, &charges).await.unwrap();
    store.analyze().await.unwrap();
    // The new policy's first schedule, as `demo generate` leaves it: a pass reads due work only.
    kobana_dunning::engine::reschedule_organization(store, &org, now).await.unwrap();
    token
}

async fn pass(server: &TestServer, at: OffsetDateTime) -> PassReport {
    run_once(&server.app.store, &server.app.providers, at).await.expect("the pass runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pass_reads_only_the_due_charges_of_a_large_organization() {
    let server = TestServer::start().await;
    let today = today();
    let day = business_day_after(today, 2);
    // 99,990 charges due on other days, from ten days to a year before today (long overdue,
    // their step long gone) and after `day` (not due yet), and ten due on `day`.
    let others = (0..99_990i64).map(|i| {
        let k = 10 + i % 365;
        if i % 2 == 0 { today - Duration::days(k) } else { day + Duration::days(k) }
    });
    // And up to 20,000 due in the step's catch-up days whose send day came before today, before
    // the policy existed, so it never sends them: a pass that picked by due date would read them.
    let first = day - Duration::days(kobana_dunning::engine::CATCH_UP_DAYS);
    let span = (today - first).whole_days().max(1);
    let missed = (0..20_000i64)
        .map(|i| first + Duration::days(i % span))
        .filter(|due| calendar::send_date(*due, 0) < today);
    organization(&server, day, others.chain(missed).chain(std::iter::repeat_n(day, 10))).await;

    // The pass on connections of its own, closed after it so that PostgreSQL's statistics
    // count what they read.
    let store = Store::open(server.database_url()).await.expect("the database opens");
    let report = run_once(&store, &server.app.providers, local(day, time!(12:00))).await.unwrap();
    drop(store);
    assert_eq!(report.sent, 10, "{report:?}");
    // Each due charge is read once when found and once more as its message is recorded.
    assert!(report.charges_read <= 2 * 10, "the pass read more than the due charges: {report:?}");
    if TestServer::on_postgres() {
        let (entries, by_due_date) = index_reads(&server).await;
        assert!(entries <= 2 * 10, "{entries} entries of the next-action index read for 10 due charges");
        assert_eq!(by_due_date, 0, "the due-date index was scanned");
    }
    let again = pass(&server, local(day, time!(12:30))).await;
    assert_eq!(again, PassReport::default(), "nothing is due, nothing is read");
}

/// The entries the next-action index returned and the scans of the due-date index, as
/// PostgreSQL counts them, once the pass's connections have reported (they report as they
/// close). Nothing else reads either index here.
async fn index_reads(server: &TestServer) -> (i64, i64) {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(server.database_url()).await.expect("PostgreSQL answers");
    let query = "SELECT \
        (SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'charges_org_next_action'), \
        (SELECT idx_tup_read FROM pg_stat_user_indexes WHERE indexrelname = 'charges_org_next_action'), \
        (SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'charges_org_due')";
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        let (scans, entries, by_due_date): (i64, i64, i64) =
            sqlx::query_as(query).fetch_one(&mut conn).await.expect("statistics");
        if scans > 0 {
            return (entries, by_due_date);
        }
        assert!(std::time::Instant::now() < deadline, "the pass's statistics never came");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_left_when_the_window_closes_go_first_in_the_next_window() {
    let server = TestServer::start().await;
    let day = business_day_after(today(), 2);
    let next = business_day_after(day, 1);
    let token = organization(&server, day, [day; 5].into_iter().chain([next; 5])).await;

    // The pass starts a microsecond before the window closes (18:00): the window has closed
    // by the time the first message would go, and all five wait.
    let report = pass(&server, local(day, time!(17:59:59.999999))).await;
    assert_eq!((report.sent, report.carried_over), (0, 5), "{report:?}");
    let r = server.read(&token, "notifications_list", "per_page=100").await;
    assert_eq!(r.body["data"], json!([]), "nothing was recorded: {}", r.body);

    // The next window sends the five left over first, then the five due that day.
    let report = pass(&server, local(next, time!(09:30))).await;
    assert_eq!((report.sent, report.carried_over), (10, 0), "{report:?}");
    let r = server.read(&token, "notifications_list", "per_page=100").await;
    let mut sent: Vec<(String, String)> = r.body["data"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|n| {
            (n["created_at"].as_str().unwrap().to_string(), n["charge_id"].as_str().unwrap().to_string())
        })
        .collect();
    sent.sort();
    let mut dues = Vec::new();
    for (_, charge_id) in &sent {
        let r = server.read_id(&token, "charges_get", charge_id).await;
        dues.push(r.data()["due_date"].as_str().unwrap().to_string());
    }
    let expected: Vec<String> = [day; 5].into_iter().chain([next; 5]).map(|d| d.to_string()).collect();
    assert_eq!(dues, expected, "sent in due order");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_engine_processes_send_each_due_step_once() {
    if !TestServer::on_postgres() {
        eprintln!("note: two engine processes need PostgreSQL; set {POSTGRES_VAR} to run this test");
        return;
    }
    let server = TestServer::start().await;
    let day = business_day_after(today(), 2);
    let token = organization(&server, day, std::iter::repeat_n(day, 10_000)).await;

    let at = kobana_dunning::domain::dates::format_timestamp(local(day, time!(12:00)));
    let engine = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_kobana-dunning"))
            .args(["--database", server.database_url(), "engine", "run-once", "--at", &at])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the engine starts")
    };
    let (a, b) = (engine(), engine());
    let outputs = tokio::task::spawn_blocking(move || [a.wait_with_output(), b.wait_with_output()])
        .await
        .expect("both engines end");
    let mut sent = 0;
    for out in outputs {
        let out = out.expect("the engine's output");
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
        let line = text.lines().find(|l| l.starts_with("sent ")).expect("the sent line");
        sent += line.split(' ').nth(1).and_then(|n| n.parse::<u64>().ok()).expect("a count");
    }
    assert_eq!(sent, 10_000, "each step sent by exactly one of the two");
    let r = server.read(&token, "notifications_list", "per_page=1").await;
    assert_eq!(r.body["meta"]["total"], 10_000, "{}", r.body);
    let again = pass(&server, local(day, time!(12:30))).await;
    assert_eq!(again.sent, 0, "nothing left: {again:?}");
}
