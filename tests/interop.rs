//! Interop tests: the real `kobana-dunning` binary, each on a fresh demo database, driven by
//! the official MCP clients and the official conformance suite (scripts in tests/interop/).
//!
//! Its own test binary, apart from tests/integration, because it runs other programs: the
//! pinned clients that tests/interop/setup.sh installs into the repository (a Python venv and
//! node_modules). Setup runs once per test binary. Without the package registries it fails, and
//! so do these tests: an interop test that cannot reach its clients has tested nothing.

use std::fs::File;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_kobana-dunning");
/// A first install downloads ~60 MB (Node 22 is most of it).
const SETUP_TIMEOUT: Duration = Duration::from_secs(600);
/// Each script takes seconds; this only bounds a hang.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

fn interop_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop")
}

#[path = "support/process.rs"]
mod process;

use process::{Process, Scratch, printed_lines, run_logged};

/// Installs the pinned clients, once per test binary; every test fails loudly if it cannot.
fn setup() {
    static SETUP: OnceLock<Result<(), String>> = OnceLock::new();
    let result = SETUP.get_or_init(|| {
        let log = std::env::temp_dir().join(format!("kd-interop-setup-{}.log", std::process::id()));
        let (status, output) =
            run_logged(Command::new("bash").arg(interop_dir().join("setup.sh")), &log, SETUP_TIMEOUT);
        let _ = std::fs::remove_file(&log);
        match status {
            Some(s) if s.success() => {
                print!("{output}");
                Ok(())
            }
            Some(s) => Err(format!("exited with {s}:\n{output}")),
            None => Err(format!("did not finish within {SETUP_TIMEOUT:?}:\n{output}")),
        }
    });
    if let Err(why) = result {
        panic!(
            "tests/interop/setup.sh could not install the pinned MCP clients (PyPI and npm must be \
             reachable the first time), so the interop tests cannot run: {why}"
        );
    }
}

/// `kobana-dunning serve --demo` on a fresh database and a free port.
struct Server {
    /// Killed when the server is dropped: tests declare it after their `Scratch`, so it stops
    /// before its database is removed.
    _process: Process,
    /// Where it listens: `http://127.0.0.1:<port>`.
    url: String,
    /// The demo token it printed.
    token: String,
    /// The demo user's e-mail and password it printed (the sign-in pages').
    demo_user: Option<(String, String)>,
    log: PathBuf,
}

impl Server {
    /// Starts the server; `public_url` when clients reach it through another address.
    fn start(scratch: &Scratch, public_url: Option<&str>) -> Self {
        let database = format!("sqlite://{}", scratch.0.join("kobana-dunning.db").display());
        let log = scratch.0.join("server.log");
        let mut cmd = Command::new(BIN);
        cmd.args(["--database", &database, "serve", "--demo", "--bind", "127.0.0.1:0"]);
        // One token sends everything here, the conformance suite hundreds of requests within
        // seconds: far past the default burst of 60. Rate limits have their own tests.
        cmd.args(["--rate-limit", "1000000", "--rate-limit-burst", "100000"]);
        if let Some(public_url) = public_url {
            cmd.args(["--public-url", public_url]);
        }
        cmd.env("RUST_LOG", "info,sqlx=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(File::create(&log).expect("create the server log"));
        let mut process = Process::spawn(&mut cmd, false);

        let banner = printed_lines(process.child.stdout.take().expect("piped stdout"));
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let mut token = None;
        let mut demo_user = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = banner
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("the server did not say it was listening:\n{}", read(&log)));
            if let Some(t) = line.strip_prefix("demo token: ") {
                token = Some(t.trim().to_string());
            } else if let Some((email, password)) =
                line.strip_prefix("demo user: ").and_then(|u| u.trim().split_once(' '))
            {
                demo_user = Some((email.to_string(), password.to_string()));
            } else if let Some(url) = line.strip_prefix("listening on ") {
                let token = token.expect("`demo token:` comes before `listening on`");
                return Self { _process: process, url: url.trim().to_string(), token, demo_user, log };
            }
        }
    }

    /// Runs an interop script against this server and asserts it passed, printing its output
    /// (shown by the test harness on failure, or always with --nocapture).
    fn check_script(&self, name: &str, scratch: &Scratch, cmd: &mut Command) {
        let log = scratch.0.join(format!("{name}.log"));
        let started = Instant::now();
        cmd.current_dir(interop_dir()).env("KOBANA_DUNNING_TOKEN", &self.token);
        let (status, output) = run_logged(cmd, &log, SCRIPT_TIMEOUT);
        println!("---- {name} ({:.1}s) ----\n{output}", started.elapsed().as_secs_f64());
        match status {
            Some(s) if s.success() => {}
            Some(s) => panic!("{name} failed ({s}); its output is above. Server log:\n{}", read(&self.log)),
            None => panic!("{name} did not finish within {SCRIPT_TIMEOUT:?}; its output is above"),
        }
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

/// A port nothing listens on now, for the auth proxy: the server must know the proxy's URL
/// (its public URL) before the proxy, which needs the server's, can start.
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port()
}

/// The official Python SDK (`mcp` 2.3.0) in its three modes: legacy, auto and 2026-07-28 with
/// confirmation through elicitation (accepted and declined).
#[test]
fn python_sdk_client() {
    setup();
    let scratch = Scratch::new("interop", "python");
    let server = Server::start(&scratch, None);
    let python = interop_dir().join(".venv/bin/python");
    server.check_script(
        "python_client.py",
        &scratch,
        Command::new(python).arg("python_client.py").arg(format!("{}/mcp", server.url)),
    );
}

/// Runs the binary on a test's database (before its server starts) with `stdin` as input;
/// returns its one line of output.
fn admin_command(scratch: &Scratch, args: &[&str], stdin: &str) -> String {
    use std::io::Write;
    let database = format!("sqlite://{}", scratch.0.join("kobana-dunning.db").display());
    let mut child = Command::new(BIN)
        .args(["--database", &database])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("write stdin");
    let output = child.wait_with_output().expect("it ends");
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).expect("UTF-8").trim().to_string()
}

/// The acceptance test of the sign-in, with the official Python SDK's OAuth client
/// (`mcp` 2.3.0, `OAuthClientProvider`): discovery from the 401, registration, the sign-in and
/// consent pages submitted as a browser would, the code exchange with PKCE, a refresh, then
/// tools/list shows exactly the tools of the scopes an operator can grant; a token for /v1 is
/// refused at /mcp, and a replayed refresh token revokes the grant.
#[test]
fn python_sdk_oauth_sign_in() {
    setup();
    let scratch = Scratch::new("interop", "python-oauth");
    let org = admin_command(&scratch, &["orgs", "create", "--name", "Interop OAuth"], "");
    let email = "operadora@interop.example";
    let password = "uma senha longa de teste";
    let user = admin_command(
        &scratch,
        &["users", "create", "--org", &org, "--email", email, "--role", "operator"],
        &format!("{password}\n"),
    );
    assert!(user.starts_with("usr_"), "{user}");
    let granted = kobana_dunning::auth::Role::Operator.scopes();
    let expected: Vec<&str> = kobana_dunning::operations::OPERATIONS
        .iter()
        .filter(|op| op.required_scopes().all(|s| granted.contains(&s)))
        .map(|op| op.tool_name)
        .collect();
    let expected_file = scratch.0.join("expected-tools.json");
    std::fs::write(&expected_file, serde_json::to_string(&expected).expect("JSON")).expect("write");
    let server = Server::start(&scratch, None);
    let python = interop_dir().join(".venv/bin/python");
    server.check_script(
        "python_oauth.py",
        &scratch,
        Command::new(python)
            .arg("python_oauth.py")
            .arg(format!("{}/mcp", server.url))
            .arg(email)
            .arg(password)
            .arg(&expected_file),
    );
}

/// The official TypeScript SDK client (`@modelcontextprotocol/client` 2.4.0), legacy and auto,
/// on `POST /`, the alias of /mcp (the Python client covers /mcp).
#[test]
fn typescript_sdk_client() {
    setup();
    let scratch = Scratch::new("interop", "typescript");
    let server = Server::start(&scratch, None);
    let node = interop_dir().join("node_modules/.bin/node");
    server.check_script(
        "ts_client.mjs",
        &scratch,
        Command::new(node).arg("ts_client.mjs").arg(format!("{}/", server.url)),
    );
}

/// The toolsets with the official TypeScript SDK client (`@modelcontextprotocol/client` 2.4.0),
/// legacy and auto: `/mcp/x/charges,debtors` and `/mcp/readonly` list exactly the tools the
/// operation table puts there (for the demo token, which has every scope), and answer a tool
/// outside them as an unknown tool.
#[test]
fn typescript_sdk_client_on_the_toolset_paths() {
    use kobana_dunning::operations::{Effect, OPERATIONS};
    setup();
    let scratch = Scratch::new("interop", "typescript-toolsets");
    let server = Server::start(&scratch, None);
    let names = |on_path: &dyn Fn(&kobana_dunning::operations::Operation) -> bool| -> Vec<&str> {
        OPERATIONS.iter().filter(|op| on_path(op)).map(|op| op.tool_name).collect()
    };
    let expected = serde_json::json!({
        "/mcp/x/charges,debtors": names(&|op| ["charges", "debtors"].contains(&op.toolset) || op.operation_id == "me"),
        "/mcp/readonly": names(&|op| op.effect == Effect::Read),
    });
    let node = interop_dir().join("node_modules/.bin/node");
    server.check_script(
        "ts_toolsets.mjs",
        &scratch,
        Command::new(node)
            .arg("ts_toolsets.mjs")
            .arg(&server.url)
            .env("KOBANA_DUNNING_EXPECTED", expected.to_string()),
    );
}

/// The approval's acceptance: the TypeScript SDK 1.32.2 client (`@modelcontextprotocol/sdk`, the v1
/// line), speaking 2025-06-18, cannot cancel a charge without approval and cancels it after the
/// demo user approves through the link, signing in and submitting the pages' forms over HTTP.
#[test]
fn typescript_sdk_v1_client_cancels_after_approval_through_the_link() {
    setup();
    let scratch = Scratch::new("interop", "typescript-v1-approval");
    let server = Server::start(&scratch, None);
    let (email, password) =
        server.demo_user.clone().expect("serve --demo prints `demo user: <e-mail> <password>`");
    let node = interop_dir().join("node_modules/.bin/node");
    server.check_script(
        "ts_sdk_v1_approval.mjs",
        &scratch,
        Command::new(node)
            .arg("ts_sdk_v1_approval.mjs")
            .arg(format!("{}/mcp", server.url))
            .env("KOBANA_DUNNING_DEMO_EMAIL", email)
            .env("KOBANA_DUNNING_DEMO_PASSWORD", password),
    );
}

/// The demo's Pix codes, decoded by an independent parser from the npm registry (pix-utils):
/// CRC, key, amount and txid agree with the organization and each charge.
#[test]
fn pix_codes_decode_with_an_independent_parser() {
    setup();
    let scratch = Scratch::new("interop", "pix-decode");
    let server = Server::start(&scratch, None);
    let node = interop_dir().join("node_modules/.bin/node");
    server.check_script(
        "pix_decode.mjs",
        &scratch,
        Command::new(node).arg("pix_decode.mjs").arg(&server.url),
    );
}

/// The official conformance suite, through the auth proxy, against expected-failures.yml.
#[test]
fn conformance_suite() {
    setup();
    let scratch = Scratch::new("interop", "conformance");
    let public_url = format!("http://127.0.0.1:{}", free_port());
    let server = Server::start(&scratch, Some(&public_url));
    server.check_script(
        "conformance.sh",
        &scratch,
        Command::new("bash")
            .arg("conformance.sh")
            .arg(&server.url)
            .arg(&public_url)
            .arg(scratch.0.join("results")),
    );
}
