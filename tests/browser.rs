//! The browser tests, against the real `kobana-dunning serve --demo` on a fresh SQLite database:
//!
//! - the sign-in: a person signs in through the real pages in headless Chromium, approves a
//!   destructive MCP call through its `approval_url`, allows an OAuth client on the consent page
//!   and disconnects it on the connections page (tests/browser/sign_in_and_approve.mjs);
//! - the MCP App views: a host page built on the pinned ext-apps AppBridge shows each view in a
//!   sandboxed iframe under the extension's default CSP, with the tools' real results, and the
//!   views' buttons call tools through the host (tests/browser/views.mjs).
//!
//! Screenshots of the pages (also at 360 px wide) and of each view (light and dark, 1024 and
//! 360 px) are written under the repository's `target/screenshots/` for people to look at.
//!
//! The browser is Debian's `chromium`, driven by the pinned `playwright-core` (never a browser
//! of its own): tests/browser/setup.sh installs both, once per test binary. Like the interop
//! tests, this one fails when it cannot set up: a browser test without a browser tested nothing.
//! This file starts the server, runs a scenario, and checks what it claims against the server's
//! own records (/v1) and the files it wrote.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_kobana-dunning");
/// A first install fetches Chromium (~100 MB) and playwright-core.
const SETUP_TIMEOUT: Duration = Duration::from_secs(900);
/// The scenario takes seconds; this only bounds a hang.
const SCRIPT_TIMEOUT: Duration = Duration::from_secs(300);
const STARTUP_TIMEOUT: Duration = Duration::from_secs(60);

/// The pages' screenshots, as the script names them: the person's browser (1024 px wide) and a
/// 360 px phone at twice the pixel density (720 px).
const SCREENSHOTS: [(&str, u32); 9] = [
    ("sign-in", 1024),
    ("sign-in-360", 720),
    ("approval", 1024),
    ("approval-360", 720),
    ("approved", 1024),
    ("consent", 1024),
    ("consent-360", 720),
    ("connections", 1024),
    ("connections-360", 720),
];

/// The views, as the server names them (`ui://kobana-dunning/<name>`), and how each is shot.
const VIEWS: [&str; 4] = ["charge-timeline", "debtor-overview", "agreement-simulator", "portfolio"];
const VIEW_THEMES: [&str; 2] = ["light", "dark"];
const VIEW_WIDTHS: [u32; 2] = [1024, 360];

fn browser_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser")
}

/// Where the screenshots go: the repository's target/ directory, which people look in.
fn screenshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screenshots")
}

#[path = "support/process.rs"]
mod process;

use process::{Process, Scratch, printed_lines, run_logged};

/// Installs Chromium and playwright-core if missing; fails loudly if it cannot.
fn setup(scratch: &Scratch) {
    let log = scratch.0.join("setup.log");
    let (status, output) =
        run_logged(Command::new("bash").arg(browser_dir().join("setup.sh")), &log, SETUP_TIMEOUT);
    match status {
        Some(s) if s.success() => print!("{output}"),
        Some(s) => panic!(
            "tests/browser/setup.sh could not install Debian's chromium and the pinned playwright-core \
             (Debian's and npm's package registries must be reachable the first time), so the browser \
             test cannot run: exited with {s}:\n{output}"
        ),
        None => panic!("tests/browser/setup.sh did not finish within {SETUP_TIMEOUT:?}:\n{output}"),
    }
}

/// `kobana-dunning serve --demo` on a fresh database and a free port.
struct Server {
    /// Killed when the server is dropped: declared after the `Scratch`, so it stops before its
    /// database is removed.
    _process: Process,
    /// Where it listens (also its public URL, the OAuth issuer): `http://127.0.0.1:<port>`.
    url: String,
    token: String,
    /// The demo user's e-mail and password it printed.
    demo_user: (String, String),
    log: PathBuf,
}

impl Server {
    fn start(scratch: &Scratch) -> Self {
        let database = format!("sqlite://{}", scratch.0.join("kobana-dunning.db").display());
        let log = scratch.0.join("server.log");
        let mut cmd = Command::new(BIN);
        cmd.args(["--database", &database, "serve", "--demo", "--bind", "127.0.0.1:0"])
            .env("RUST_LOG", "info,sqlx=warn")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(File::create(&log).expect("create the server log"));
        let mut process = Process::spawn(&mut cmd, false);

        let banner = printed_lines(process.child.stdout.take().expect("piped stdout"));
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        let (mut token, mut demo_user) = (None, None);
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
                return Self {
                    _process: process,
                    url: url.trim().to_string(),
                    token: token.expect("`demo token:` comes before `listening on`"),
                    demo_user: demo_user.expect("serve --demo prints `demo user: <e-mail> <password>`"),
                    log,
                };
            }
        }
    }

    /// GET a /v1 path with the demo token; the JSON body (asserted 200).
    fn get(&self, path: &str) -> Value {
        let url = format!("{}{path}", self.url);
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async {
            let response =
                reqwest::Client::new().get(&url).bearer_auth(&self.token).send().await.expect("GET");
            assert_eq!(response.status().as_u16(), 200, "GET {url}");
            response.json().await.expect("a JSON body")
        })
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| format!("({}: {e})", path.display()))
}

/// The width of a PNG, from its IHDR chunk; panics if the file is not a PNG.
fn png_width(path: &Path) -> u32 {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        bytes.len() > 24 && bytes.starts_with(b"\x89PNG\r\n\x1a\n") && &bytes[12..16] == b"IHDR",
        "{} is not a PNG",
        path.display()
    );
    u32::from_be_bytes(bytes[16..20].try_into().unwrap())
}

/// The value of the script's `<prefix>: <value>` lines.
fn lines_of<'a>(output: &'a str, prefix: &str) -> Vec<&'a str> {
    output.lines().filter_map(|l| l.strip_prefix(prefix)).map(str::trim).collect()
}

#[test]
fn signs_in_approves_through_the_link_and_consents_in_headless_chromium() {
    let scratch = Scratch::new("browser", "pages");
    setup(&scratch);
    let server = Server::start(&scratch);
    let (email, password) = server.demo_user.clone();

    // Yesterday's screenshots must not pass for today's.
    let shots = screenshot_dir();
    for (name, _) in SCREENSHOTS {
        let _ = std::fs::remove_file(shots.join(format!("{name}.png")));
    }

    let log = scratch.0.join("sign_in_and_approve.log");
    let started = Instant::now();
    let (status, output) = run_logged(
        Command::new("node")
            .arg("sign_in_and_approve.mjs")
            .arg(&server.url)
            .arg(&shots)
            .current_dir(browser_dir())
            .env("KOBANA_DUNNING_TOKEN", &server.token)
            .env("KOBANA_DUNNING_DEMO_EMAIL", &email)
            .env("KOBANA_DUNNING_DEMO_PASSWORD", &password),
        &log,
        SCRIPT_TIMEOUT,
    );
    println!("---- sign_in_and_approve.mjs ({:.1}s) ----\n{output}", started.elapsed().as_secs_f64());
    match status {
        Some(s) if s.success() => {}
        Some(s) => panic!(
            "sign_in_and_approve.mjs failed ({s}); its output is above. Server log:\n{}",
            read(&server.log)
        ),
        None => {
            panic!("sign_in_and_approve.mjs did not finish within {SCRIPT_TIMEOUT:?}; its output is above")
        }
    }
    assert!(output.contains("sign_in_and_approve: all checks passed"), "{output}");

    // The screenshots are there, fresh, and the size the script says.
    let written = lines_of(&output, "screenshot:");
    for (name, width) in SCREENSHOTS {
        let path = shots.join(format!("{name}.png"));
        assert!(written.contains(&path.to_str().unwrap()), "the script did not report {}", path.display());
        assert_eq!(png_width(&path), width, "{}", path.display());
        println!("checked screenshot ({width} px wide): {}", path.display());
    }

    // What the browser did, as the server recorded it: the charge canceled once, by the
    // assistant's token, after one approval decided by the demo user.
    let charge = *lines_of(&output, "charge:").first().expect("the script names the charge");
    let approval_url = *lines_of(&output, "approval:").first().expect("the script names the approval_url");
    let approval = approval_url.rsplit('/').next().unwrap();
    assert_eq!(server.get(&format!("/v1/charges/{charge}"))["data"]["status"], "canceled");
    let events = |query: &str| -> Vec<Value> {
        server.get(&format!("/v1/events?{query}&per_page=100"))["data"].as_array().expect("events").clone()
    };
    let canceled = events(&format!("resource_id={charge}&code=charge.canceled"));
    assert_eq!(canceled.len(), 1, "the charge was canceled once: {canceled:?}");
    assert_eq!(canceled[0]["actor"]["type"], "token", "{:?}", canceled[0]);
    let decided = events(&format!("resource_id={approval}"));
    assert_eq!(decided.len(), 1, "one decision on {approval}: {decided:?}");
    assert_eq!(decided[0]["code"], "approval.approved", "{:?}", decided[0]);
    assert_eq!(decided[0]["actor"]["type"], "user", "decided by the signed-in user: {:?}", decided[0]);
    assert_eq!(decided[0]["data"]["object_id"], charge, "{:?}", decided[0]);
}

#[test]
fn shows_the_views_in_a_sandboxed_host_with_real_results_in_headless_chromium() {
    let scratch = Scratch::new("browser", "views");
    setup(&scratch);
    let server = Server::start(&scratch);

    let shots = screenshot_dir();
    let expected: Vec<(PathBuf, u32)> = VIEWS
        .iter()
        .flat_map(|view| {
            VIEW_THEMES.iter().flat_map(move |theme| {
                VIEW_WIDTHS.iter().map(move |width| (format!("view-{view}-{theme}-{width}.png"), *width))
            })
        })
        .map(|(name, width)| (shots.join(name), width))
        .collect();
    // Yesterday's screenshots must not pass for today's.
    for (path, _) in &expected {
        let _ = std::fs::remove_file(path);
    }

    let log = scratch.0.join("views.log");
    let started = Instant::now();
    let (status, output) = run_logged(
        Command::new("node")
            .arg("views.mjs")
            .arg(&server.url)
            .arg(&shots)
            .current_dir(browser_dir())
            .env("KOBANA_DUNNING_TOKEN", &server.token),
        &log,
        SCRIPT_TIMEOUT,
    );
    println!("---- views.mjs ({:.1}s) ----\n{output}", started.elapsed().as_secs_f64());
    match status {
        Some(s) if s.success() => {}
        Some(s) => panic!("views.mjs failed ({s}); its output is above. Server log:\n{}", read(&server.log)),
        None => panic!("views.mjs did not finish within {SCRIPT_TIMEOUT:?}; its output is above"),
    }
    assert!(output.contains("views: all checks passed"), "{output}");

    let written = lines_of(&output, "screenshot:");
    for (path, width) in &expected {
        assert!(written.contains(&path.to_str().unwrap()), "the script did not report {}", path.display());
        assert_eq!(png_width(path), *width, "{}", path.display());
        println!("checked screenshot ({width} px wide): {}", path.display());
    }

    // What the views' buttons did, as the server recorded it. "Pausar régua" paused its charge,
    // once, by the token the host called with.
    let paused = *lines_of(&output, "paused:").first().expect("the script names the paused charge");
    assert_eq!(server.get(&format!("/v1/charges/{paused}"))["data"]["dunning_status"], "paused");
    let events = |query: &str| -> Vec<Value> {
        server.get(&format!("/v1/events?{query}&per_page=100"))["data"].as_array().expect("events").clone()
    };
    let pauses = events(&format!("resource_id={paused}&code=charge.paused"));
    assert_eq!(pauses.len(), 1, "the charge was paused once: {pauses:?}");
    assert_eq!(pauses[0]["actor"]["type"], "token", "{:?}", pauses[0]);

    // "Notificar devedor" only asked for an approval: nothing was sent to the debtor.
    let confirming = *lines_of(&output, "confirming:").first().expect("the script names the charge");
    let approval_url = *lines_of(&output, "approval:").first().expect("the script names the approval_url");
    assert!(approval_url.starts_with(&format!("{}/approvals/", server.url)), "{approval_url}");
    let notifications = server.get(&format!("/v1/notifications?charge_id={confirming}&per_page=100"));
    let manual: Vec<&Value> = notifications["data"]
        .as_array()
        .expect("notifications")
        .iter()
        .filter(|n| n["origin"] == "manual")
        .collect();
    assert!(manual.is_empty(), "no message went out before the approval: {manual:?}");
}
