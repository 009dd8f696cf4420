//! The generated contract: the committed tool catalogue, the catalogue's rules, the response
//! schemas, and a spec the generator must refuse.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use kobana_dunning::operations::{CATALOGUE_JSON, CONTRACT_JSON, Effect, OPERATIONS, ResponseKind};
use serde_json::Value;

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn tools() -> Vec<Value> {
    let catalogue: Value = serde_json::from_str(CATALOGUE_JSON).expect("the catalogue is JSON");
    catalogue["tools"].as_array().expect("tools").clone()
}

#[test]
fn the_committed_catalogue_is_the_generated_one() {
    let path = manifest_dir().join("tests/snapshots/tools.json");
    let committed =
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    if committed != CATALOGUE_JSON {
        let first_difference = committed
            .lines()
            .zip(CATALOGUE_JSON.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(n, (a, b))| {
                format!("first difference at line {}:\n  committed: {a}\n  generated: {b}", n + 1)
            })
            .unwrap_or_else(|| "the files differ in length or line endings".into());
        panic!(
            "tests/snapshots/tools.json is not the tool catalogue generated from openapi/v1.yaml.\n\
             If the change is intended, update it with\n\n    \
             cargo run -- spec tools > tests/snapshots/tools.json\n\n\
             and review the diff.\n{first_difference}"
        );
    }
}

/// The catalogue budget (DESIGN.md section 3): every conversation carries the whole tool list, so
/// the all-scopes catalogue, as compact JSON, averages at most 1,150 bytes per tool. A tool says
/// what a model needs to choose and call it, once; conventions every tool shares (money, dates,
/// pagination, idempotency keys) are in the server instructions, not in each argument.
#[test]
fn the_catalogue_stays_within_its_budget() {
    const BUDGET_PER_TOOL: usize = 1_150;
    let tools = tools();
    let mut sizes: Vec<(usize, &str)> = tools
        .iter()
        .map(|tool| {
            let compact = serde_json::to_string(tool).expect("a tool serializes");
            (compact.len(), tool["name"].as_str().expect("name"))
        })
        .collect();
    let total: usize = sizes.iter().map(|(size, _)| size).sum();
    let average = total as f64 / sizes.len() as f64;
    sizes.sort_by(|a, b| b.cmp(a));
    let biggest: Vec<String> =
        sizes.iter().take(5).map(|(size, name)| format!("{name} {size} bytes")).collect();
    assert!(
        total <= BUDGET_PER_TOOL * sizes.len(),
        "the tool catalogue averages {average:.0} bytes of compact JSON per tool ({total} bytes, {} tools), \
         over the budget of {BUDGET_PER_TOOL}. The biggest: {}. Shorten the descriptions in openapi/v1.yaml: \
         say what a model needs to choose and call the tool, once, and leave shared conventions to the \
         server instructions (src/mcp/instructions.rs).",
        sizes.len(),
        biggest.join(", ")
    );
}

#[test]
fn the_catalogue_follows_the_tool_rules() {
    let tools = tools();
    assert_eq!(tools.len(), 13, "{:?}", tools.iter().map(|t| &t["name"]).collect::<Vec<_>>());
    assert_eq!(tools.len(), OPERATIONS.len());

    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().expect("name")).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "the catalogue is in name order");
    assert_eq!(names.iter().collect::<BTreeSet<_>>().len(), names.len(), "names are unique");

    let mut destructive = BTreeSet::new();
    let mut read_only = BTreeSet::new();
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        assert!(name.starts_with("dunning_"), "{name}");
        assert!(name.len() <= 64, "{name} is longer than 64 characters");
        assert!(name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'), "{name}");
        assert!(tool["title"].as_str().is_some_and(|t| !t.is_empty()), "{name}: title");
        assert!(tool["description"].as_str().is_some_and(|t| t.len() > 20), "{name}: description");

        let schema = &tool["inputSchema"];
        assert_eq!(schema["type"], "object", "{name}");
        assert_eq!(schema["additionalProperties"], false, "{name}");
        assert!(schema["properties"].is_object(), "{name}");
        for combinator in ["oneOf", "anyOf", "allOf"] {
            assert!(schema.get(combinator).is_none(), "{name}: top-level {combinator}");
        }
        if let Some(required) = schema.get("required") {
            for field in required.as_array().expect("required is a list") {
                let field = field.as_str().unwrap();
                assert!(
                    schema["properties"].get(field).is_some(),
                    "{name}: required {field} is not a property"
                );
            }
        }

        let annotations = &tool["annotations"];
        assert_eq!(annotations["openWorldHint"], false, "{name}");
        for hint in ["readOnlyHint", "destructiveHint", "idempotentHint"] {
            assert!(annotations[hint].is_boolean(), "{name}: {hint}");
        }
        if annotations["destructiveHint"] == true {
            destructive.insert(name);
        }
        if annotations["readOnlyHint"] == true {
            read_only.insert(name);
            assert_eq!(annotations["destructiveHint"], false, "{name}: a read is not destructive");
            assert_eq!(annotations["idempotentHint"], true, "{name}: a read is idempotent");
        }

        let op = kobana_dunning::operations::by_tool_name(name)
            .unwrap_or_else(|| panic!("{name} has no operation"));
        assert_eq!(op.annotations.read_only, op.effect == Effect::Read, "{name}");
        assert_eq!(annotations["readOnlyHint"], op.annotations.read_only, "{name}");
        assert_eq!(annotations["destructiveHint"], op.annotations.destructive, "{name}");
        // Path parameters are required arguments.
        for param in op.path_params {
            assert!(schema["properties"].get(*param).is_some(), "{name}: path parameter {param}");
            assert!(
                schema["required"].as_array().is_some_and(|r| r.iter().any(|f| f == *param)),
                "{name}: path parameter {param} is required"
            );
        }
    }
    assert_eq!(
        destructive,
        BTreeSet::from(["dunning_charges_cancel", "dunning_debtors_archive", "dunning_debtors_delete"]),
        "the destructive tools"
    );
    assert_eq!(
        read_only,
        BTreeSet::from([
            "dunning_charges_get",
            "dunning_charges_list",
            "dunning_debtors_get",
            "dunning_debtors_list",
            "dunning_me",
        ]),
        "the read-only tools"
    );
}

#[test]
fn every_success_answer_has_a_schema() {
    let contract: HashMap<String, HashMap<String, Value>> =
        serde_json::from_str(CONTRACT_JSON).expect("the contract is JSON");
    for op in OPERATIONS {
        let statuses = contract
            .get(op.operation_id)
            .unwrap_or_else(|| panic!("{} is not in the contract", op.operation_id));
        if op.success_status == 204 {
            assert_eq!(op.response, ResponseKind::NoContent, "{}", op.operation_id);
            assert!(!statuses.contains_key("204"), "{}: a 204 has no body schema", op.operation_id);
            continue;
        }
        let schema = statuses.get(&op.success_status.to_string()).unwrap_or_else(|| {
            panic!("{}: no schema for its success status {}", op.operation_id, op.success_status)
        });
        assert!(schema.is_object(), "{}", op.operation_id);
        assert!(
            schema.to_string().contains("\"data\""),
            "{}: the success schema describes a data envelope",
            op.operation_id
        );
        // Every documented error is the error envelope.
        for (status, schema) in statuses {
            if status.starts_with('4') || status.starts_with('5') {
                assert!(schema.to_string().contains("\"error\""), "{} {status}", op.operation_id);
            }
        }
    }
    let expected: BTreeSet<&str> = OPERATIONS.iter().map(|op| op.operation_id).collect();
    let found: BTreeSet<&str> = contract.keys().map(String::as_str).collect();
    assert_eq!(found, expected, "the contract covers exactly the operations");
}

/// The spec with one more operation, `GET /v1/ping`, and `extra` lines in its operation.
fn spec_with_ping(dir: &Path, name: &str, extra: &str) -> PathBuf {
    let spec = std::fs::read_to_string(manifest_dir().join("openapi/v1.yaml")).expect("the spec");
    let ping = format!(
        "paths:\n  /v1/ping:\n    get:\n      operationId: ping\n      summary: \"Ping\"\n      \
         description: \"Answers pong.\"\n      tags: [me]\n{extra}      responses:\n        \"200\":\n          \
         description: Pong.\n"
    );
    assert_eq!(spec.matches("\npaths:\n").count(), 1, "the spec has one paths section");
    let fixture = spec.replacen("\npaths:\n", &format!("\n{ping}"), 1);
    let path = dir.join(name);
    std::fs::create_dir_all(dir).expect("fixture dir");
    std::fs::write(&path, fixture).expect("fixture spec");
    path
}

/// `cargo check` of the crate against a fixture spec, in its own target directory
/// (target/spec-fixture) so the main build is not invalidated; the first run compiles the
/// dependencies there (a few minutes on 2 cores), later runs take seconds.
fn check_with_spec(spec: &Path) -> (bool, String) {
    let target = manifest_dir().join("target/spec-fixture");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(manifest_dir())
        .args(["check", "--offline", "--lib", "--message-format", "short"])
        .env("CARGO_TARGET_DIR", &target)
        .env("KOBANA_DUNNING_SPEC", spec)
        .env("CARGO_TERM_COLOR", "never")
        .output()
        .expect("cargo runs");
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

/// An operation without a handler does not compile, and the error names it.
#[test]
fn an_operation_without_a_handler_does_not_compile() {
    let dir = manifest_dir().join("target/spec-fixture");
    let x_mcp = "      x-mcp:\n        effect: read\n        idempotent: true\n        scope: any\n";
    let spec = spec_with_ping(&dir, "v1-ping-without-handler.yaml", x_mcp);
    let (ok, stderr) = check_with_spec(&spec);
    assert!(!ok, "the build accepted an operation without a handler:\n{stderr}");
    assert!(
        stderr.contains("cannot find") && stderr.contains("`ping`") && stderr.contains("api::me"),
        "the compile error names the missing handler api::me::ping:\n{stderr}"
    );
}

/// The build refuses an operation without an x-mcp block, naming it.
#[test]
fn the_generator_refuses_an_operation_without_x_mcp() {
    let dir = manifest_dir().join("target/spec-fixture");
    let spec = spec_with_ping(&dir, "v1-ping-without-x-mcp.yaml", "");
    let started = Instant::now();
    let (ok, stderr) = check_with_spec(&spec);
    assert!(!ok, "the build accepted an operation without x-mcp:\n{stderr}");
    assert!(
        stderr.contains("operation ping") && stderr.contains("x-mcp"),
        "the build failure names the operation and the missing x-mcp block (after {:?}):\n{stderr}",
        started.elapsed()
    );
}
