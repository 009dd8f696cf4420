//! Organizations never see each other's data: another organization's id is NOT_FOUND for every
//! operation that takes one, lists are per organization, and nothing is changed across.

use kobana_dunning::domain::money::Hundredths;
use kobana_dunning::domain::received_payment::{PaymentFacts, ReceivedPayment};
use kobana_dunning::operations::OPERATIONS;
use kobana_dunning::types::PaymentSource;
use serde_json::{Value, json};

use crate::common::{TestServer, date_in, error_fields, ids};

/// A body for calling `op` on another organization's object: the spec's example request (valid,
/// and one that would change the object if the call got through), or `{}` when it has none.
fn body_for(op: &str) -> Value {
    crate::spec_lists::body_example(op).unwrap_or_else(|| json!({}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_organizations_ids_are_not_found() {
    let server = TestServer::start().await;
    let (org_a, a) = server.tenant("Organização A").await;
    let (_, b) = server.tenant("Organização B").await;
    let r = server
        .write(
            &a,
            "debtors_create",
            json!({"name": "Maria Souza", "document": "52998224725", "email": "maria@example.com"}),
        )
        .await;
    let debtor = r.data().clone();
    let charge = server.create_charge(&a, debtor["id"].as_str().unwrap(), 100.0, &date_in(5)).await;
    let debtor_id = debtor["id"].as_str().unwrap().to_string();
    let charge_id = charge["id"].as_str().unwrap().to_string();
    let events = server.read(&a, "events_list", &format!("resource_id={charge_id}")).await;
    let event_id = events.data()[0]["id"].as_str().unwrap().to_string();
    let r = server.write_id(&a, "charges_notify", &charge_id, json!({"channel": "email"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let notification_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server
        .write(
            &a,
            "collection_policies_create",
            json!({"name": "Régua A", "steps": [{"offset_days": 0, "channel": "email", "template": {"body": "A"}}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let policy_id = r.data()["id"].as_str().unwrap().to_string();
    let step_id = r.data()["steps"][0]["id"].as_str().unwrap().to_string();
    // An agreement of another of A's debtors.
    let renegotiating = server.create_debtor(&a, "João Conceição", "11144477735").await;
    let late = server.create_charge(&a, renegotiating["id"].as_str().unwrap(), 80.0, &date_in(-10)).await;
    let r = server
        .write(
            &a,
            "agreements_create",
            json!({"charge_ids": [late["id"]], "installments_count": 2, "first_due_date": date_in(20)}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let agreement_id = r.data()["id"].as_str().unwrap().to_string();
    // A report and a protest of an overdue charge of a debtor with an address, after its letter.
    let address = json!({ "zipcode": "01310100", "street": "Av. Paulista", "number": "1000",
                          "neighborhood": "Bela Vista", "city": "São Paulo", "state": "SP" });
    let reported = server.create_debtor(&a, "Ana Lima", "39053344705").await;
    let r = server
        .write_id(&a, "debtors_update", reported["id"].as_str().unwrap(), json!({"address": address}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let escalated = server.create_charge(&a, reported["id"].as_str().unwrap(), 90.0, &date_in(-20)).await;
    let escalated = escalated["id"].as_str().unwrap().to_string();
    let r = server.write_id(&a, "charges_notify", &escalated, json!({"channel": "letter"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let r = server.write(&a, "credit_bureau_reports_create", json!({"charge_id": escalated})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let report_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server
        .write(
            &a,
            "protests_create",
            json!({"charge_id": escalated, "title_type": "DS", "document_number": "NF-1"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let protest_id = r.data()["id"].as_str().unwrap().to_string();
    // B has data of its own, with the same document.
    let b_debtor = server.create_debtor(&b, "Maria Souza", "52998224725").await;
    let b_charge = server.create_charge(&b, b_debtor["id"].as_str().unwrap(), 7.0, &date_in(5)).await;
    // A payment A heard of that matched nothing.
    let now = time::OffsetDateTime::now_utc();
    let heard = ReceivedPayment::heard(
        &org_a,
        PaymentSource::Kobana,
        "delivery-a".into(),
        PaymentFacts { amount: Hundredths(700), ..PaymentFacts::default() },
        now,
        now,
    );
    assert!(server.app.store.insert_payment(&heard).await.unwrap());
    let payment_id = heard.id;
    // A webhook of A's with a delivery (of the debtor created after it).
    let hook = json!({"url": "https://erp.example.com/hooks", "events": ["debtor.db.created"]});
    let r = server.write(&a, "webhooks_create", hook).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let webhook_id = r.data()["id"].as_str().unwrap().to_string();
    server.create_debtor(&a, "Gancho Souza", &crate::common::cpf(8301)).await;
    let r = server.call(&a, "webhooks_deliveries_list", &[("id", &webhook_id)], "", None).await;
    let delivery_id = r.data()[0]["id"].as_str().unwrap().to_string();
    let r = server.write(&a, "exports_create", json!({"kind": "charges"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let export_id = r.data()["id"].as_str().unwrap().to_string();
    let r = server.write(&a, "payment_receiver_create", json!({"secret": "kobana-secret-0123456789"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let receiver_id = r.data()["id"].as_str().unwrap().to_string();

    let with_ids: Vec<_> = OPERATIONS.iter().filter(|op| !op.path_params.is_empty()).collect();
    assert!(with_ids.len() >= 8, "the operations with ids: {}", with_ids.len());
    for op in with_ids {
        let path: Vec<(&str, &str)> = op
            .path_params
            .iter()
            .map(|name| {
                // The collection the parameter names an object of: the path up to it.
                let placeholder = format!("/{{{name}}}");
                let collection = &op.path[..op.path.find(&placeholder).expect("a path parameter")];
                let value = match collection {
                    "/v1/debtors" => debtor_id.as_str(),
                    "/v1/charges" => charge_id.as_str(),
                    "/v1/events" => event_id.as_str(),
                    "/v1/agreements" => agreement_id.as_str(),
                    "/v1/credit_bureau_reports" => report_id.as_str(),
                    "/v1/protests" => protest_id.as_str(),
                    "/v1/notifications" => notification_id.as_str(),
                    "/v1/payment_receivers" => receiver_id.as_str(),
                    "/v1/payments" => payment_id.as_str(),
                    "/v1/webhooks" => webhook_id.as_str(),
                    "/v1/webhooks/{id}/deliveries" => delivery_id.as_str(),
                    "/v1/exports" => export_id.as_str(),
                    "/v1/collection_policies" => policy_id.as_str(),
                    "/v1/collection_policies/{cp_id}/steps" => step_id.as_str(),
                    other => panic!(
                        "{}: no fixture for an object of {other}; add one of its objects to this test",
                        op.operation_id
                    ),
                };
                (*name, value)
            })
            .collect();
        let body = op.body.map(|_| body_for(op.operation_id));
        let query = crate::spec_lists::required_query_example(op.operation_id);
        let r = server.call(&b, op.operation_id, &path, &query, body).await;
        // A 422 here is a body the operation refuses: give its request body an example in the spec.
        assert_eq!(r.status, 404, "{}: B reached A's object: {}", op.operation_id, r.body);
        assert_eq!(r.code(), "NOT_FOUND", "{}", op.operation_id);
    }

    // Ids in bodies are looked up in B's organization only.
    let r = server
        .write(
            &b,
            "charges_create",
            json!({"debtor_id": b_debtor["id"], "amount": 5.0, "due_date": date_in(5), "cp_id": policy_id}),
        )
        .await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["cp_id".to_string()]), "{}", r.body);
    let r =
        server.write(&b, "notifications_create", json!({"charge_id": charge_id, "channel": "email"})).await;
    assert_eq!((r.status, error_fields(&r)), (422, vec!["charge_id".to_string()]), "{}", r.body);
    let r = server.read(&b, "notifications_list", &format!("charge_id={charge_id}")).await;
    assert_eq!(r.body["meta"]["total"], 0);
    let escalations = [
        ("credit_bureau_reports_create", json!({"charge_id": escalated})),
        ("protests_create", json!({"charge_id": escalated, "title_type": "DS", "document_number": "NF-2"})),
    ];
    for (op, body) in escalations {
        let r = server.write(&b, op, body).await;
        assert_eq!((r.status, error_fields(&r)), (422, vec!["charge_id".to_string()]), "{op}: {}", r.body);
    }
    for op in ["credit_bureau_reports_list", "protests_list"] {
        let r = server.read(&b, op, &format!("charge_id={escalated}")).await;
        assert_eq!(r.body["meta"]["total"], 0, "{op}");
    }
    let r = server.read(&b, "collection_policies_list", "").await;
    assert_eq!(r.body["meta"]["total"], 0);

    // B's lists hold only B's objects, whatever the filters.
    let r = server.read(&b, "debtors_list", "").await;
    assert_eq!(ids(&r), [b_debtor["id"].as_str().unwrap()]);
    assert_eq!(r.body["meta"]["total"], 1);
    let r = server.read(&b, "debtors_list", &format!("q={debtor_id}")).await;
    assert_eq!(r.body["meta"]["total"], 0);
    let r = server.read(&b, "charges_list", "").await;
    assert_eq!(ids(&r), [b_charge["id"].as_str().unwrap()]);
    let r = server.read(&b, "charges_list", &format!("debtor_id={debtor_id}")).await;
    assert_eq!(r.body["meta"]["total"], 0);
    assert_eq!(r.data(), &json!([]));
    let r = server.read(&b, "charges_list", &format!("q={charge_id}")).await;
    assert_eq!(r.body["meta"]["total"], 0);

    // B cannot create a charge on A's debtor: to B it does not exist.
    let r = server
        .write(&b, "charges_create", json!({"debtor_id": debtor_id, "amount": 10.0, "due_date": date_in(5)}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_fields(&r), ["debtor_id"]);

    // A's objects are as they were.
    let r = server.read_id(&a, "debtors_get", &debtor_id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["version"], 1);
    assert_eq!(r.data()["status"], "active");
    assert_eq!(r.data()["name"], "Maria Souza");
    assert_eq!(r.data()["summary"]["open_charges"], 1);
    let r = server.read_id(&a, "charges_get", &charge_id).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.data()["version"], 1);
    assert_eq!(r.data()["status"], "pending");
    assert_eq!(r.data()["amount"], 100.0);
    let r = server.read(&a, "charges_list", &format!("debtor_id={debtor_id}")).await;
    assert_eq!(ids(&r), [charge_id.as_str()]);
    let r = server.call(&a, "collection_policies_get", &[("cp_id", &policy_id)], "", None).await;
    assert_eq!((r.data()["version"].as_i64(), r.data()["name"].as_str()), (Some(1), Some("Régua A")));
    assert_eq!(r.data()["steps_count"], 1);
    let r = server.read_id(&a, "notifications_get", &notification_id).await;
    assert_eq!((r.data()["version"].as_i64(), r.data()["status"].as_str()), (Some(2), Some("sent")));
    for object in [&debtor_id, &charge_id] {
        let events = server.app.store.events_of(&org_a, object).await.expect("events");
        assert_eq!(events.len(), 1, "only the creation of {object}: {events:?}");
    }
}
