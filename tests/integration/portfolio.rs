//! `GET /v1/portfolio`: every figure of charges is the meta of the charge list filtered as the
//! figure says, ages follow each charge's days_overdue, and another organization's charges and
//! messages never count.

use std::collections::BTreeMap;

use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::common::{TestServer, cpf, date_in};
use kobana_dunning::domain::dates::{Zone, format_timestamp, parse_date, parse_timestamp};

/// The charge list's meta for a query (`per_page=1`: only the meta is read).
async fn meta(s: &TestServer, token: &str, query: &str) -> Value {
    let r = s.read(token, "charges_list", &format!("per_page=1&{query}")).await;
    assert_eq!(r.status, 200, "{query}: {}", r.body);
    r.body["meta"].clone()
}

/// (count, amount_sum, balance_sum) of a portfolio figure or a list's meta.
fn sums(v: &Value, count: &str) -> (i64, f64, f64) {
    (v[count].as_i64().unwrap(), v["amount_sum"].as_f64().unwrap(), v["balance_sum"].as_f64().unwrap())
}

/// An organization with debtors reachable by e-mail, charges due over every age, charges paid
/// this month and last month, one partly paid, messages sent and failed; its token.
async fn portfolio_of(s: &TestServer, name: &str, seed: u32) -> String {
    let (_, token) = s.tenant(name).await;
    let mut debtors = Vec::new();
    for i in 0..4 {
        let email = format!("devedor{i}@example.com");
        debtors.push(
            s.create_debtor_by_email(&token, &format!("Devedor {i} {name}"), &cpf(seed + i), &email).await,
        );
    }
    // Due dates from next month to a year ago, around every edge of the ages.
    let offsets = [
        30, 5, 1, 0, -1, -2, -3, -5, -10, -29, -30, -31, -32, -33, -45, -59, -60, -61, -62, -63, -75, -89,
        -90, -91, -92, -93, -120, -200, -365,
    ];
    let mut charges = Vec::new();
    for (i, offset) in offsets.iter().enumerate() {
        let amount = 100.0 + i as f64 * 10.25;
        let c = s.create_charge(&token, &debtors[i % debtors.len()], amount, &date_in(*offset)).await;
        charges.push(c["id"].as_str().unwrap().to_string());
    }
    // Paid in full now (this month), in full on the 15th of last month, and in part.
    let zone = Zone::default_zone();
    let today = zone.today(OffsetDateTime::now_utc());
    let last_month = (today.replace_day(1).unwrap() - Duration::days(1)).replace_day(15).unwrap();
    let at = zone.instant(last_month, time::macros::time!(12:00));
    for (charge, body) in [
        (&charges[5], json!({})),
        (&charges[12], json!({})),
        (&charges[20], json!({ "paid_at": format_timestamp(at) })),
        (&charges[25], json!({ "paid_amount": 50.0 })),
    ] {
        let r = s.write_id(&token, "charges_settle", charge, body).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let r = s.write_id(&token, "charges_cancel", &charges[7], json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Messages by e-mail (the debtors have only an address of it)…
    let mut sent = Vec::new();
    for (charge, channel) in
        [(&charges[8], "email"), (&charges[9], "email"), (&charges[10], "email"), (&charges[11], "email")]
    {
        let r =
            s.write(&token, "notifications_create", json!({ "charge_id": charge, "channel": channel })).await;
        assert_eq!(r.status, 201, "{}", r.body);
        sent.push(r.data()["id"].as_str().unwrap().to_string());
    }
    // …one failed at its provider, one sent before this week.
    s.execute_sql(
        "UPDATE notifications SET status = 'failed', failed_at = sent_at, sent_at = NULL WHERE id = $1",
        &[&sent[1]],
    )
    .await;
    let long_ago = format_timestamp(OffsetDateTime::now_utc() - Duration::days(9));
    s.execute_sql("UPDATE notifications SET sent_at = $1 WHERE id = $2", &[&long_ago, &sent[2]]).await;
    token
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn portfolio_figures_are_the_charge_lists_meta_and_stay_in_their_organization() {
    let s = TestServer::start().await;
    let token = portfolio_of(&s, "Carteira", 8100).await;
    let other = portfolio_of(&s, "Outra Carteira", 8200).await;
    // The other organization grows: nothing of it may reach the first one's figures.
    let (_, third) = s.tenant("Terceira").await;
    let d = s.create_debtor(&third, "Alguém", &cpf(8300)).await;
    s.create_charge(&third, d["id"].as_str().unwrap(), 999.99, &date_in(-40)).await;

    let r = s.read(&token, "portfolio_get", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    let p = r.data().clone();

    // Open: pending and overdue, 25 charges (29 less the three paid, the canceled one).
    let open = meta(&s, &token, "status=pending,overdue").await;
    assert_eq!(sums(&p["open"], "count"), sums(&open, "total"), "{p}");
    assert_eq!(p["open"]["count"], 25, "{p}");

    // Ages: each the list of open charges in its due-date range, and together all of them.
    let ages = p["by_age"].as_array().unwrap();
    let names: Vec<&str> = ages.iter().map(|a| a["age"].as_str().unwrap()).collect();
    assert_eq!(names, ["not_due", "days_1_30", "days_31_60", "days_61_90", "over_90"]);
    let mut counted = 0;
    for age in ages {
        let mut query = "status=pending,overdue".to_string();
        for bound in ["due_date_from", "due_date_to"] {
            if let Some(day) = age[bound].as_str() {
                query.push_str(&format!("&{bound}={day}"));
            }
        }
        let listed = meta(&s, &token, &query).await;
        assert_eq!(sums(age, "count"), sums(&listed, "total"), "{query}: {age}");
        assert!(age["count"].as_i64().unwrap() > 0, "every age holds charges: {age}");
        counted += age["count"].as_i64().unwrap();
    }
    assert_eq!(counted, 25);

    // And each open charge sits in the age its own days_overdue names.
    let r = s.read(&token, "charges_list", "status=pending,overdue&per_page=100").await;
    let mut by_days = [0i64; 5];
    for c in r.data().as_array().unwrap() {
        let days = c["days_overdue"].as_i64().unwrap();
        by_days[match days {
            0 => 0,
            1..=30 => 1,
            31..=60 => 2,
            61..=90 => 3,
            _ => 4,
        }] += 1;
    }
    let by_age: Vec<i64> = ages.iter().map(|a| a["count"].as_i64().unwrap()).collect();
    assert_eq!(by_age, by_days, "{p}");

    // Statuses and stages of the régua.
    for figure in p["by_status"].as_array().unwrap() {
        let status = figure["status"].as_str().unwrap();
        let listed = meta(&s, &token, &format!("status={status}")).await;
        assert_eq!(sums(figure, "count"), sums(&listed, "total"), "{status}");
    }
    let status =
        |name: &str| p["by_status"].as_array().unwrap().iter().find(|f| f["status"] == name).unwrap().clone();
    assert_eq!((status("paid")["count"].as_i64(), status("canceled")["count"].as_i64()), (Some(3), Some(1)));
    let mut staged = 0;
    for figure in p["by_dunning_status"].as_array().unwrap() {
        let stage = figure["dunning_status"].as_str().unwrap();
        let listed = meta(&s, &token, &format!("dunning_status={stage}")).await;
        assert_eq!(sums(figure, "count"), sums(&listed, "total"), "{stage}");
        staged += figure["count"].as_i64().unwrap();
    }
    assert_eq!(staged, 29, "every charge is at one stage");

    // Recovered: the two paid now this month, the one paid on the 15th last month; the
    // partial payment is not a recovery yet.
    let today = parse_date(p["today"].as_str().unwrap()).unwrap();
    let paid = meta(&s, &token, "status=paid").await;
    let recovered = p["recovered"].as_array().unwrap();
    assert_eq!(recovered[0]["month"], format!("{:04}-{:02}", today.year(), u8::from(today.month())), "{p}");
    assert_eq!(
        recovered[0]["from"],
        kobana_dunning::domain::dates::format_date(today.replace_day(1).unwrap())
    );
    assert_eq!((recovered[0]["count"].as_i64(), recovered[1]["count"].as_i64()), (Some(2), Some(1)), "{p}");
    let total = recovered[0]["amount_sum"].as_f64().unwrap() + recovered[1]["amount_sum"].as_f64().unwrap();
    assert!((total - paid["amount_sum"].as_f64().unwrap()).abs() < 0.005, "{p} {paid}");

    // Messages since Monday: the sent ones are notifications_list's from that day; one failed.
    let since = p["messages"]["since"].as_str().unwrap();
    assert_eq!(parse_date(since).unwrap().weekday(), time::Weekday::Monday);
    let r = s.read(&token, "notifications_list", &format!("sent_from={since}")).await;
    let by_channel = &r.body["meta"]["by_channel"];
    for figure in p["messages"]["by_channel"].as_array().unwrap() {
        let channel = figure["channel"].as_str().unwrap();
        assert_eq!(
            figure["sent"].as_i64().unwrap(),
            by_channel[channel].as_i64().unwrap_or(0),
            "{channel}: {p}"
        );
    }
    let channel = |name: &str| {
        let f = p["messages"]["by_channel"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["channel"] == name)
            .unwrap()
            .clone();
        (f["sent"].as_i64().unwrap(), f["failed"].as_i64().unwrap())
    };
    assert_eq!((channel("email"), channel("letter"), channel("sms")), ((2, 1), (0, 0), (0, 0)), "{p}");

    // Over MCP: the tool and the fixed resource answer the same figures.
    let r =
        s.mcp_2025(&token, "tools/call", json!({ "name": "dunning_portfolio_get", "arguments": {} })).await;
    let tool = r.tool_json();
    assert_eq!((&tool["data"]["open"], &tool["data"]["by_age"]), (&p["open"], &p["by_age"]), "{tool}");
    let r = s.mcp_2025(&token, "resources/read", json!({ "uri": "kobana://dunning/portfolio" })).await;
    let read: Value = serde_json::from_str(r.result()["contents"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(read["data"], p, "{}", r.body);

    // The other organization sees its own figures, equal to the first's by construction.
    let r = s.read(&other, "portfolio_get", "").await;
    assert_eq!(r.data()["by_age"], p["by_age"], "{}", r.body);
    assert_eq!(r.data()["messages"], p["messages"]);
    let r = s.read(&third, "portfolio_get", "").await;
    assert_eq!(r.data()["open"], json!({ "count": 1, "amount_sum": 999.99, "balance_sum": 999.99 }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_portfolio_has_every_figure_at_zero_and_needs_the_read_scope() {
    let s = TestServer::start().await;
    let (org, token) = s.tenant("Vazia").await;
    let r = s.read(&token, "portfolio_get", "").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["open"], json!({ "count": 0, "amount_sum": 0.0, "balance_sum": 0.0 }));
    assert_eq!(r.data()["by_age"].as_array().unwrap().len(), 5);
    assert_eq!(r.data()["recovered"].as_array().unwrap().len(), 2);
    assert_eq!(r.data()["messages"]["by_channel"].as_array().unwrap().len(), 4);
    let writer = s.token(&org, "dunning.write").await;
    let r = s.read(&writer, "portfolio_get", "").await;
    assert_eq!(r.status, 403, "{}", r.body);
}

/// Every figure against the charge list, after `when`: the metas its filters name, and the
/// steps and recoveries summed from the listed charges themselves (`amount`, `paid_amount`,
/// `paid_at`, `current_step_id`).
async fn agrees_with_the_list(s: &TestServer, token: &str, when: &str) -> Value {
    let r = s.read(token, "portfolio_get", "").await;
    assert_eq!(r.status, 200, "{when}: {}", r.body);
    let p = r.data().clone();
    let open = meta(s, token, "status=pending,overdue").await;
    assert_eq!(sums(&p["open"], "count"), sums(&open, "total"), "{when}: {p}");
    let mut aged = 0;
    for age in p["by_age"].as_array().unwrap() {
        let mut query = "status=pending,overdue".to_string();
        for bound in ["due_date_from", "due_date_to"] {
            if let Some(day) = age[bound].as_str() {
                query.push_str(&format!("&{bound}={day}"));
            }
        }
        assert_eq!(sums(age, "count"), sums(&meta(s, token, &query).await, "total"), "{when}: {query}");
        aged += age["count"].as_i64().unwrap();
    }
    assert_eq!(aged, p["open"]["count"].as_i64().unwrap(), "{when}: {p}");
    for figure in p["by_status"].as_array().unwrap() {
        let status = figure["status"].as_str().unwrap();
        let listed = meta(s, token, &format!("status={status}")).await;
        assert_eq!(sums(figure, "count"), sums(&listed, "total"), "{when}: {status}");
    }
    for figure in p["by_dunning_status"].as_array().unwrap() {
        let stage = figure["dunning_status"].as_str().unwrap();
        let listed = meta(s, token, &format!("dunning_status={stage}")).await;
        assert_eq!(sums(figure, "count"), sums(&listed, "total"), "{when}: {stage}");
    }

    // Every charge, to sum steps and recoveries as the figures should.
    let r = s.read(token, "charges_list", "per_page=100").await;
    assert_eq!(r.body["meta"]["total_pages"], 1, "{when}: one page holds them all");
    let mut steps: BTreeMap<String, (i64, i64, i64)> = BTreeMap::new();
    let mut recovered = [(0i64, 0i64); 2];
    let today = parse_date(p["today"].as_str().unwrap()).unwrap();
    let this_month = today.replace_day(1).unwrap();
    let last_month = (this_month - Duration::days(1)).replace_day(1).unwrap();
    let zone = Zone::default_zone();
    let cents = |v: &Value| (v.as_f64().unwrap() * 100.0).round() as i64;
    for c in r.data().as_array().unwrap() {
        if let (Some(step), false) = (c["current_step_id"].as_str(), c["dunning_status"] == "closed") {
            let e = steps.entry(step.to_string()).or_default();
            *e = (e.0 + 1, e.1 + cents(&c["amount"]), e.2 + cents(&c["amount"]) - cents(&c["paid_amount"]));
        }
        if c["status"] == "paid" {
            let day = zone.today(parse_timestamp(c["paid_at"].as_str().unwrap()).unwrap());
            let month = if day >= this_month { Some(0) } else { (day >= last_month).then_some(1) };
            if let Some(m) = month {
                recovered[m] = (recovered[m].0 + 1, recovered[m].1 + cents(&c["paid_amount"]));
            }
        }
    }
    let figured: BTreeMap<String, (i64, i64, i64)> = p["by_step"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let key = f["step_id"].as_str().unwrap().to_string();
            (key, (f["count"].as_i64().unwrap(), cents(&f["amount_sum"]), cents(&f["balance_sum"])))
        })
        .collect();
    assert_eq!(figured, steps, "{when}: {p}");
    let months: Vec<(i64, i64)> = p["recovered"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["count"].as_i64().unwrap(), cents(&m["amount_sum"])))
        .collect();
    assert_eq!(months, recovered, "{when}: {p}");
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_figures_stay_the_lists_through_every_kind_of_write() {
    let s = TestServer::start().await;
    let (_, token) = s.tenant("Escritas").await;
    // A neighbour with charges of its own at the same steps' offsets and due dates.
    let (_, neighbour) = s.tenant("Vizinha").await;
    let template = json!({ "subject": "Cobrança", "body": "{{debtor_name}}: {{amount}}" });
    let steps: Vec<Value> = [-3, 0, 5, 35]
        .iter()
        .map(|d| json!({ "offset_days": d, "channel": "email", "template": template }))
        .collect();
    for t in [&token, &neighbour] {
        s.create_policy(t, json!({ "name": "Régua", "steps": steps })).await;
    }
    let mut debtors = Vec::new();
    for i in 0..3 {
        let email = format!("escrita{i}@example.com");
        debtors.push(s.create_debtor_by_email(&token, &format!("Escrita {i}"), &cpf(8400 + i), &email).await);
    }
    let stranger = s.create_debtor_by_email(&neighbour, "Vizinho", &cpf(8410), "vizinho@example.com").await;

    // Generated charges: due from four months ago to next month, amounts of every size; the
    // first four on the days each step falls today.
    let mut seed: u64 = 0x5eed;
    let mut next = |below: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) % below
    };
    let mut charges = Vec::new();
    for i in 0..24 {
        let due = date_in([0, -5, 3, -35].get(i).copied().unwrap_or_else(|| next(150) as i64 - 120));
        let cents = 1_000 + next(500_000);
        let amount = cents as f64 / 100.0;
        let c = s.create_charge(&token, &debtors[i % debtors.len()], amount, &due).await;
        charges.push(c["id"].as_str().unwrap().to_string());
        s.create_charge(&neighbour, &stranger, (cents + 100) as f64 / 100.0, &due).await;
    }
    agrees_with_the_list(&s, &token, "created").await;

    // The engine, at noon of the next business day (inside the send window): late charges
    // overdue, each at the step that acted last.
    let zone = Zone::default_zone();
    let today = zone.today(OffsetDateTime::now_utc());
    let noon = zone.instant(kobana_dunning::domain::calendar::on_or_after(today), time::macros::time!(12:00));
    kobana_dunning::engine::run_once(&s.app.store, &s.app.providers, noon).await.unwrap();
    let p = agrees_with_the_list(&s, &token, "engine").await;
    assert!(!p["by_step"].as_array().unwrap().is_empty(), "the engine placed charges at steps: {p}");
    assert!(p["by_step"].as_array().unwrap().iter().all(|f| f["name"].is_string()), "{p}");

    // Edits of due date and amount.
    let r = s
        .write_id(&token, "charges_update", &charges[0], json!({ "due_date": date_in(20), "amount": 77.77 }))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    agrees_with_the_list(&s, &token, "updated").await;

    // Settled in full now, on the 15th of last month, and in part.
    let last_month = (today.replace_day(1).unwrap() - Duration::days(1)).replace_day(15).unwrap();
    let at = format_timestamp(zone.instant(last_month, time::macros::time!(12:00)));
    for (charge, body) in [
        (&charges[1], json!({})),
        (&charges[2], json!({ "paid_at": at })),
        (&charges[3], json!({ "paid_amount": 5.0 })),
    ] {
        let r = s.write_id(&token, "charges_settle", charge, body).await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    agrees_with_the_list(&s, &token, "settled").await;

    let r = s.write_id(&token, "charges_cancel", &charges[4], json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r =
        s.read(&token, "charges_list", &format!("debtor_id={}&status=overdue&per_page=1", debtors[2])).await;
    let overdue = r.data()[0]["id"].as_str().unwrap().to_string();
    let r = s.write_id(&token, "charges_write_off", &overdue, json!({ "reason": "Sem bens" })).await;
    assert_eq!(r.status, 200, "{}", r.body);
    agrees_with_the_list(&s, &token, "canceled and written off").await;

    let r = s.write_id(&token, "charges_pause", &charges[6], json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    agrees_with_the_list(&s, &token, "paused").await;
    let r = s.write_id(&token, "charges_resume", &charges[6], json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);

    // An agreement: two charges of one debtor into installments, then canceled (reopened).
    let r = s
        .read(&token, "charges_list", &format!("debtor_id={}&status=pending,overdue&per_page=2", debtors[1]))
        .await;
    let pair: Vec<Value> = r.data().as_array().unwrap().iter().map(|c| c["id"].clone()).collect();
    assert_eq!(pair.len(), 2, "{}", r.body);
    let terms = json!({ "charge_ids": pair, "down_payment_amount": 10.0, "installments_count": 3,
                        "first_due_date": date_in(30) });
    let r = s.write(&token, "agreements_create", terms).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let agreement = r.data()["id"].as_str().unwrap().to_string();
    agrees_with_the_list(&s, &token, "agreement").await;
    let r = s.write_id(&token, "agreements_cancel", &agreement, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    agrees_with_the_list(&s, &token, "agreement canceled").await;

    // The neighbour's figures never held ours.
    let theirs = agrees_with_the_list(&s, &neighbour, "the neighbour").await;
    assert_eq!(theirs["open"]["count"], 24, "{theirs}");
}
