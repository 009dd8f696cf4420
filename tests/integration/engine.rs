//! The régua's engine: a pass turns late pending charges overdue, once, on the organization's
//! business-day calendar, even with two engines at the same time.

use kobana_dunning::domain::calendar::overdue_from;
use kobana_dunning::domain::dates::parse_date;
use kobana_dunning::engine::run_once;
use time::OffsetDateTime;
use time::macros::time;

use crate::common::{TestServer, cpf, date_in};

/// Noon in São Paulo on a day, as the engine's instant.
fn noon(day: time::Date) -> OffsetDateTime {
    day.with_time(time!(15:00)).assume_utc()
}

#[tokio::test]
async fn a_pass_turns_charges_overdue_from_the_day_after_their_effective_due_date() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Engine").await;
    let debtor = server.create_debtor(&token, "Maria Engine", &cpf(7101)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let due_text = date_in(20);
    let charge = server.create_charge(&token, debtor_id, 150.0, &due_text).await;
    let id = charge["id"].as_str().unwrap();
    assert_eq!(charge["status"], "pending");

    let late = overdue_from(parse_date(&due_text).unwrap());
    let eve = late.previous_day().unwrap();
    let report = run_once(&server.app.store, &server.app.providers, noon(eve)).await.unwrap();
    assert_eq!(report.turned_overdue, 0, "not late yet on {eve}");
    let r = server.read_id(&token, "charges_get", id).await;
    assert_eq!((r.data()["status"].as_str(), r.data()["version"].as_i64()), (Some("pending"), Some(1)));

    let report = run_once(&server.app.store, &server.app.providers, noon(late)).await.unwrap();
    assert_eq!(report.turned_overdue, 1, "late on {late}");
    let r = server.read_id(&token, "charges_get", id).await;
    assert_eq!(r.data()["status"], "overdue", "{}", r.body);
    assert_eq!(r.data()["version"], 2);
    assert_eq!(r.header("etag"), Some("\"v2\""));

    // A second pass has nothing left to do.
    let report = run_once(&server.app.store, &server.app.providers, noon(late)).await.unwrap();
    assert_eq!(report.turned_overdue, 0);
}

#[tokio::test]
async fn two_engines_at_once_turn_each_charge_once() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Two engines").await;
    let debtor = server.create_debtor(&token, "João Concorrente", &cpf(7102)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let mut ids = Vec::new();
    for days in [3, 4, 5, 6, 7] {
        let c = server.create_charge(&token, debtor_id, 10.0 + days as f64, &date_in(days)).await;
        ids.push(c["id"].as_str().unwrap().to_string());
    }
    let later = noon(parse_date(&date_in(30)).unwrap());
    let replica = server.replica().await;
    let (a, b) = tokio::join!(
        run_once(&server.app.store, &server.app.providers, later),
        run_once(&replica.app.store, &replica.app.providers, later)
    );
    assert_eq!(a.unwrap().turned_overdue + b.unwrap().turned_overdue, 5);
    for id in &ids {
        let r = server.read_id(&token, "charges_get", id).await;
        assert_eq!(r.data()["status"], "overdue");
        assert_eq!(r.data()["version"], 2, "turned exactly once: {}", r.body);
    }
}

#[tokio::test]
async fn paid_and_canceled_charges_are_left_alone() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Closed charges").await;
    let debtor = server.create_debtor(&token, "Ana Quitada", &cpf(7103)).await;
    let debtor_id = debtor["id"].as_str().unwrap();
    let paid = server.create_charge(&token, debtor_id, 20.0, &date_in(2)).await;
    let paid_id = paid["id"].as_str().unwrap();
    let r = server.write_id(&token, "charges_settle", paid_id, serde_json::json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let canceled = server.create_charge(&token, debtor_id, 30.0, &date_in(2)).await;
    let canceled_id = canceled["id"].as_str().unwrap();
    let r = server.write_id(&token, "charges_cancel", canceled_id, serde_json::json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);

    let later = noon(parse_date(&date_in(30)).unwrap());
    assert_eq!(run_once(&server.app.store, &server.app.providers, later).await.unwrap().turned_overdue, 0);
    let r = server.read_id(&token, "charges_get", paid_id).await;
    assert_eq!(r.data()["status"], "paid");
    let r = server.read_id(&token, "charges_get", canceled_id).await;
    assert_eq!(r.data()["status"], "canceled");
}

#[tokio::test]
async fn a_change_is_never_stamped_before_the_charges_last_change() {
    let server = TestServer::start().await;
    let (_, token) = server.tenant("Stamps").await;
    let debtor = server.create_debtor(&token, "Rita Relógio", &cpf(7104)).await;
    let charge = server.create_charge(&token, debtor["id"].as_str().unwrap(), 12.0, &date_in(2)).await;
    let id = charge["id"].as_str().unwrap();
    // Changed (say, by a user) after the instant the pass runs as.
    let later = "2099-01-01T00:00:00.000000Z";
    server.execute_sql("UPDATE charges SET updated_at = $1 WHERE id = $2", &[later, id]).await;
    let pass = noon(parse_date(&date_in(30)).unwrap());
    assert_eq!(run_once(&server.app.store, &server.app.providers, pass).await.unwrap().turned_overdue, 1);
    let r = server.read_id(&token, "charges_get", id).await;
    assert_eq!(r.data()["status"], "overdue");
    // Compared as instants: the answer writes it at the organization's offset.
    let stamped = kobana_dunning::domain::dates::parse_timestamp(r.data()["updated_at"].as_str().unwrap());
    assert!(stamped.unwrap() >= kobana_dunning::domain::dates::parse_timestamp(later).unwrap(), "{}", r.body);
}
