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

#[test]
fn the_catalogue_follows_the_tool_rules() {
    let tools = tools();
    assert_eq!(tools.len(), OPERATIONS.len(), "{:?}", tools.iter().map(|t| &t["name"]).collect::<Vec<_>>());

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
        // A description only when the title does not say it all (the catalogue budget).
        assert!(tool.get("description").is_none_or(|d| d.as_str().is_some_and(|t| t.len() > 20)), "{name}");

        let schema = &tool["inputSchema"];
        assert_eq!(schema["type"], "object", "{name}");
        // Closed on the server: an unknown argument is a VALIDATION_ERROR that names it.
        let checked: Value = serde_json::from_str(
            OPERATIONS.iter().find(|op| op.tool_name == name).expect("an operation").input_schema,
        )
        .unwrap();
        assert_eq!(checked["additionalProperties"], false, "{name}");
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

        // MCP clients require a description; it says what the title cannot.
        let description = tool["description"].as_str().unwrap_or_default();
        assert!(!description.is_empty() && tool["title"] != description, "{name}: {tool}");

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
    // The destructive tools are the operations the spec marks destructive (`x-mcp.effect`).
    let marked = crate::spec_lists::destructive_tools();
    assert_eq!(destructive, marked.iter().map(String::as_str).collect(), "the destructive tools");
    // Sending a message or a delivery twice sends it twice (the spec's `x-sends`): these are
    // neither safe nor idempotent, and a destructive tool that is not idempotent sends.
    let sending = crate::spec_lists::sending_tools();
    assert!(!sending.is_empty(), "the spec marks the tools that send (x-sends)");
    for tool in &tools {
        let name = tool["name"].as_str().unwrap();
        let annotations = &tool["annotations"];
        if sending.contains(name) {
            assert_eq!(annotations["destructiveHint"], true, "{name}");
            assert_eq!(annotations["idempotentHint"], false, "{name}");
        } else if annotations["destructiveHint"] == true {
            assert_eq!(annotations["idempotentHint"], true, "{name}: not idempotent, so it sends (x-sends)");
        }
    }
    // Read-only is what the generated table says a read is (checked per tool above); every
    // read is safe to call without asking.
    assert!(read_only.is_disjoint(&destructive), "a read is never destructive");
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
        if let ResponseKind::Binary { .. } = op.response {
            // A file: its bytes are the answer, with no JSON schema to check them against.
            assert!(!statuses.contains_key(&op.success_status.to_string()), "{}", op.operation_id);
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
fn spec_with_ping(extra: &str) -> String {
    let spec = std::fs::read_to_string(manifest_dir().join("openapi/v1.yaml")).expect("the spec");
    let ping = format!(
        "paths:\n  /v1/ping:\n    get:\n      operationId: ping\n      summary: \"Ping\"\n      \
         description: \"Answers pong.\"\n      tags: [me]\n{extra}      responses:\n        \"200\":\n          \
         description: Pong.\n"
    );
    assert_eq!(spec.matches("\npaths:\n").count(), 1, "the spec has one paths section");
    spec.replacen("\npaths:\n", &format!("\n{ping}"), 1)
}

/// A copy of the crate under target/spec-fixture/<name>, with its spec replaced by `spec` and
/// `(file, from, to)` edits applied to its sources, then `cargo check` of it. The copies share
/// one target directory, so the dependencies compile once (a few minutes on 2 cores) and each
/// fixture then takes seconds.
fn check_fixture(name: &str, spec: Option<String>, edits: &[(&str, &str, &str)]) -> (bool, String) {
    // One fixture build at a time: they share a target directory and the machine's cores.
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    let root = manifest_dir();
    let fixtures = root.join("target/spec-fixture");
    let copy = fixtures.join(name);
    let _ = std::fs::remove_dir_all(&copy);
    for entry in [
        "Cargo.toml",
        "Cargo.lock",
        "build.rs",
        "src",
        "codegen",
        "templates",
        "openapi",
        "migrations",
        "ui",
        "fonts",
    ] {
        copy_tree(&root.join(entry), &copy.join(entry));
    }
    // The copy is its own package: no benches or tests to resolve.
    let manifest = std::fs::read_to_string(copy.join("Cargo.toml")).expect("manifest");
    let manifest = manifest.split("\n[[bench]]").next().unwrap_or(&manifest).to_string();
    // Its own package name, so that its build script output (OUT_DIR) is its own too: cargo
    // names that directory after the package, not after where the package lives.
    let manifest = manifest.replacen("name = \"kobana-dunning\"", &format!("name = \"fixture-{name}\""), 1);
    std::fs::write(copy.join("Cargo.toml"), manifest).expect("write manifest");
    if let Some(spec) = spec {
        std::fs::write(copy.join("openapi/v1.yaml"), spec).expect("fixture spec");
    }
    for (file, from, to) in edits {
        let path = copy.join(file);
        let text = std::fs::read_to_string(&path).expect("fixture source");
        assert!(text.contains(from), "{file} contains {from}");
        std::fs::write(&path, text.replacen(from, to, 1)).expect("edit fixture source");
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .current_dir(&copy)
        .args(["check", "--offline", "--lib", "--message-format", "short"])
        .env("CARGO_TARGET_DIR", &fixtures)
        .env("CARGO_TERM_COLOR", "never")
        .env_remove("KOBANA_DUNNING_SPEC")
        .output()
        .expect("cargo runs");
    (output.status.success(), String::from_utf8_lossy(&output.stderr).into_owned())
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("fixture dir");
        for entry in std::fs::read_dir(from).expect("read dir").flatten() {
            copy_tree(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().expect("a file has a parent")).expect("fixture dir");
        std::fs::copy(from, to).expect("copy fixture file");
    }
}

const READ_ANY: &str = "      x-mcp:\n        description: Answers pong.\n        effect: read\n        idempotent: true\n        scope: any\n";

/// An operation without a handler does not compile, and the error names it.
#[test]
fn an_operation_without_a_handler_does_not_compile() {
    let (ok, stderr) = check_fixture("missing-handler", Some(spec_with_ping(READ_ANY)), &[]);
    assert!(!ok, "the build accepted an operation without a handler:\n{stderr}");
    assert!(
        stderr.contains("not all trait items implemented") && stderr.contains("`ping`"),
        "the compile error names the missing handler ping:\n{stderr}"
    );
}

/// A handler for an operation the spec does not have does not compile, and the error names it.
#[test]
fn a_handler_without_an_operation_does_not_compile() {
    let spec = std::fs::read_to_string(manifest_dir().join("openapi/v1.yaml")).expect("the spec");
    let start = spec.find("\n  /v1/charges/{id}/settle:\n").expect("the settle path");
    let end = start + 1 + spec[start + 1..].find("\n  /v1/").expect("a path after settle");
    let without_settle = format!("{}{}", &spec[..start], &spec[end..]);
    let (ok, stderr) = check_fixture("orphan-handler", Some(without_settle), &[]);
    assert!(!ok, "the build accepted a handler without an operation:\n{stderr}");
    assert!(
        stderr.contains("`charges_settle` is not a member of trait"),
        "the compile error names the orphan handler charges_settle:\n{stderr}"
    );
}

/// A handler whose input is not its operation's does not compile, and the error names it.
#[test]
fn a_handler_with_another_input_does_not_compile() {
    let edit = ("src/api/charges.rs", "input: wire::ChargesGetInput", "input: wire::ChargesUpdateInput");
    let (ok, stderr) = check_fixture("mismatched-input", None, &[edit]);
    assert!(!ok, "the build accepted a handler with another operation's input:\n{stderr}");
    assert!(
        stderr.contains("`charges_get` has an incompatible type for trait"),
        "the compile error names the handler charges_get:\n{stderr}"
    );
}

/// The build refuses an operation without an x-mcp block, naming it.
#[test]
fn the_generator_refuses_an_operation_without_x_mcp() {
    let started = Instant::now();
    let (ok, stderr) = check_fixture("without-x-mcp", Some(spec_with_ping("")), &[]);
    assert!(!ok, "the build accepted an operation without x-mcp:\n{stderr}");
    assert!(
        stderr.contains("operation ping") && stderr.contains("x-mcp"),
        "the build failure names the operation and the missing x-mcp block (after {:?}):\n{stderr}",
        started.elapsed()
    );
}
