//! The `kobana-dunning` command line.

#![deny(unsafe_code)]

use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Parser, Subcommand, ValueEnum};
use kobana_dunning::auth::ServerKey;
use kobana_dunning::http::ConnectionLimits;
use kobana_dunning::limits::Limits;
use kobana_dunning::providers::{ProviderConfig, Providers};
use kobana_dunning::{admin, app::App, demo, engine, housekeeping, operations, server, spec, store::Store};
use time::Duration;

/// mimalloc instead of the system allocator (see `allocator.rs`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(name = "kobana-dunning", version, about = "Régua de Cobrança REST API and MCP server")]
struct Cli {
    /// Database URL (created on first start).
    #[arg(
        long,
        global = true,
        env = "KOBANA_DUNNING_DATABASE",
        default_value = "sqlite://./data/kobana-dunning.db"
    )]
    database: String,
    /// Seconds a request waits for a database connection or the write lock; past it the
    /// request is answered 503 UNAVAILABLE with Retry-After.
    #[arg(
        long,
        global = true,
        env = "KOBANA_DUNNING_DATABASE_WAIT",
        default_value_t = 2.0,
        value_parser = positive_seconds
    )]
    database_wait: f64,
    #[command(subcommand)]
    command: Command,
}

/// A positive, finite number of seconds.
fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= 3600.0 => Ok(s),
        _ => Err("expected a number of seconds above 0 and at most 3600".into()),
    }
}

#[derive(Subcommand)]
enum Command {
    /// Runs the server.
    Serve(ServeArgs),
    /// Manages organizations.
    Orgs {
        #[command(subcommand)]
        command: OrgsCommand,
    },
    /// Manages access tokens.
    Tokens {
        #[command(subcommand)]
        command: TokensCommand,
    },
    /// Manages the users who sign in to the authorization server.
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Manages the keys that seal confirmation states.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// The demo organization.
    Demo {
        #[command(subcommand)]
        command: DemoCommand,
    },
    /// Runs the régua's engine by hand.
    Engine {
        #[command(subcommand)]
        command: EngineCommand,
    },
    /// Payments received outside the API.
    Payments {
        #[command(subcommand)]
        command: PaymentsCommand,
    },
    /// CSV exports.
    Exports {
        #[command(subcommand)]
        command: ExportsCommand,
    },
    /// Checks stored data: lists each name, address line or description a document would
    /// print with a character its font lacks (text saved before such text was refused; it
    /// prints with a replacement mark), one a line. Fails when it finds any.
    Doctor,
    /// Inspects the generated API description.
    Spec {
        #[command(subcommand)]
        command: SpecCommand,
    },
}

#[derive(clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "KOBANA_DUNNING_BIND", default_value = "127.0.0.1:8080")]
    bind: String,
    /// The URL clients use to reach the server (default http://<bind>).
    #[arg(long, env = "KOBANA_DUNNING_PUBLIC_URL")]
    public_url: Option<String>,
    /// Creates the sandbox demo organization if needed and prints a fresh demo token.
    #[arg(long, env = "KOBANA_DUNNING_DEMO")]
    demo: bool,
    /// File holding the keys that seal confirmations, one a line, newest first (default: keys
    /// kept in the database).
    #[arg(long, env = "KOBANA_DUNNING_SECRET_KEY_FILE")]
    secret_key_file: Option<std::path::PathBuf>,
    /// Another origin under which this server itself is served (repeatable); browsers from
    /// any other origin are refused.
    #[arg(long = "allowed-origin", env = "KOBANA_DUNNING_ALLOWED_ORIGINS", value_delimiter = ',')]
    allowed_origins: Vec<String>,
    /// Requests a minute per token (REST and MCP together).
    #[arg(long, env = "KOBANA_DUNNING_RATE_LIMIT", default_value_t = 600)]
    rate_limit: u32,
    /// Burst per token: the bucket size of the rate limit.
    #[arg(long, env = "KOBANA_DUNNING_RATE_LIMIT_BURST", default_value_t = 60)]
    rate_limit_burst: u32,
    /// Requests served at once; more are answered 503 with Retry-After.
    #[arg(long, env = "KOBANA_DUNNING_MAX_IN_FLIGHT", default_value_t = 1024)]
    max_in_flight: usize,
    /// Requests a minute (and burst) per client address without a valid token.
    #[arg(long, env = "KOBANA_DUNNING_ANONYMOUS_RATE_LIMIT", default_value_t = 60)]
    anonymous_rate_limit: u32,
    /// Connections open at once; past it, new connections are closed on accept.
    #[arg(long, env = "KOBANA_DUNNING_MAX_CONNECTIONS", default_value_t = 4096)]
    max_connections: usize,
    /// Connections one client address may hold open at once.
    #[arg(long, env = "KOBANA_DUNNING_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = 256)]
    max_connections_per_address: usize,
    /// Seconds a request's head may take to arrive (408 past it).
    #[arg(long, env = "KOBANA_DUNNING_HEADER_READ_TIMEOUT", default_value_t = 10)]
    header_read_timeout: u64,
    /// Seconds a request's body may take to arrive after its head (408 past it).
    #[arg(long, env = "KOBANA_DUNNING_BODY_READ_TIMEOUT", default_value_t = 10)]
    body_read_timeout: u64,
    /// Seconds a keep-alive connection may stay idle between requests.
    #[arg(long, env = "KOBANA_DUNNING_IDLE_TIMEOUT", default_value_t = 60)]
    idle_timeout: u64,
    /// Address of a separate listener serving only /metrics (default: no /metrics at all).
    #[arg(long, env = "KOBANA_DUNNING_METRICS_BIND")]
    metrics_bind: Option<String>,
    /// Does not run the régua's engine in this process (another process runs it, or
    /// `engine run-once` does).
    #[arg(long, env = "KOBANA_DUNNING_NO_ENGINE")]
    no_engine: bool,
    /// Log format.
    #[arg(long, env = "KOBANA_DUNNING_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
    /// Where production organizations' messages go (the outbox unless configured).
    #[command(flatten)]
    providers: ProviderConfig,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

#[derive(Subcommand)]
enum OrgsCommand {
    /// Creates an organization and prints its id.
    Create {
        /// Its name.
        #[arg(long)]
        name: String,
        /// sandbox or production.
        #[arg(long, default_value = "sandbox")]
        environment: String,
        /// The IANA time zone its days, send window and business days count in.
        #[arg(long, default_value = kobana_dunning::domain::dates::DEFAULT_ZONE)]
        timezone: String,
    },
}

#[derive(Subcommand)]
enum TokensCommand {
    /// Creates an access token and prints it (it is shown only once).
    Create {
        /// Organization id.
        #[arg(long)]
        org: String,
        /// Scopes, separated by spaces or commas.
        #[arg(long)]
        scopes: String,
        /// api, mcp or all.
        #[arg(long, default_value = "all")]
        audience: String,
        /// Lifetime in seconds (default 30 days).
        #[arg(long, default_value_t = 30 * 24 * 3600)]
        expires_in: i64,
    },
    /// Lists tokens, one a line (id, organization, user, client, audience, scopes, expiry,
    /// revocation, OAuth grant), never their secret.
    List {
        /// Only this organization's.
        #[arg(long)]
        org: Option<String>,
    },
    /// Revokes a token, given as the token itself or its id; a token issued through an OAuth
    /// grant revokes the whole grant (its refresh tokens too). On PostgreSQL every running
    /// server refuses it at once; a SQLite server already running does within 5 s.
    Revoke {
        /// The token (kd_at_…), its id (tok_…), or an OAuth grant (grt_…).
        token: String,
    },
}

#[derive(Subcommand)]
enum UsersCommand {
    /// Creates a user who signs in with a password read from stdin (its first line); prints
    /// only the user's id.
    Create {
        /// Organization id.
        #[arg(long)]
        org: String,
        /// E-mail (stored case-folded; unique).
        #[arg(long)]
        email: String,
        /// admin (every scope), operator (dunning.read, dunning.write, dunning.notify) or
        /// viewer (dunning.read): caps the scopes the user can grant a client.
        #[arg(long, default_value = "operator")]
        role: String,
    },
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Adds a new newest key to the database (not to a --secret-key-file); states sealed under
    /// older keys stay good until they expire. Restart the servers to use it.
    Rotate,
}

#[derive(Subcommand)]
enum EngineCommand {
    /// Runs one pass of the engine as if it were the given instant, then exits (for tests and
    /// operators: `--at 2026-10-14T12:00:00Z`).
    RunOnce {
        /// The instant of the pass, RFC 3339 (default: now).
        #[arg(long)]
        at: Option<String>,
        /// Where messages go (the outbox unless configured).
        #[command(flatten)]
        providers: ProviderConfig,
        /// The keys `serve` seals with (default: keys kept in the database): they open the
        /// webhooks' signing secrets.
        #[arg(long, env = "KOBANA_DUNNING_SECRET_KEY_FILE")]
        secret_key_file: Option<std::path::PathBuf>,
        /// Runs the pass at the lowest CPU priority, as `serve`'s engine thread: a server on the
        /// same machine keeps the core (on a core it saturates, its writes may wait for the
        /// pass's, which nothing then hurries).
        #[arg(long)]
        background: bool,
    },
}

#[derive(Subcommand)]
enum PaymentsCommand {
    /// Settles the charges a CSV file of payments names (date, amount, and txid, line or
    /// external_id per row; UTF-8 or Latin-1, `;` or `,`), one transaction per row; a row
    /// imported before is skipped. Prints the matched, unmatched and refused rows.
    Import {
        /// The CSV file.
        file: std::path::PathBuf,
        /// The organization the payments are for (org_…).
        #[arg(long)]
        org: String,
    },
}

#[derive(Subcommand)]
enum ExportsCommand {
    /// Builds the exports waiting (and removes the files of those that expired), then exits:
    /// what `serve` does every two seconds, for operators and measurements.
    Build,
}

#[derive(Subcommand)]
enum DemoCommand {
    /// Adds N generated charges (and a debtor per ten) to the demo organization, creating it
    /// if needed: load data for measuring lists at scale.
    Generate {
        /// How many charges.
        #[arg(long)]
        charges: u64,
    },
}

#[derive(Subcommand)]
enum SpecCommand {
    /// Prints the MCP tool catalogue generated from openapi/v1.yaml.
    Tools,
    /// Classifies every change between two specs as breaking or compatible, for the tools and
    /// for /v1. Exit code 1 when a change is breaking, 2 on a usage error or a spec that cannot
    /// be read.
    Diff(DiffArgs),
}

#[derive(clap::Args)]
struct DiffArgs {
    /// OLD NEW: two spec files. With --base: at most NEW (default: the working tree's
    /// openapi/v1.yaml).
    #[arg(value_name = "SPEC", num_args = 0..=2)]
    files: Vec<std::path::PathBuf>,
    /// Compare with openapi/v1.yaml as committed at this git ref (e.g. HEAD~1). A ref that
    /// names no commit, as HEAD~1 on the first commit, is said and passes.
    #[arg(long, value_name = "GIT_REF")]
    base: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    format: DiffFormat,
}

#[derive(Clone, Copy, ValueEnum)]
enum DiffFormat {
    /// For people: breaking changes first.
    Text,
    /// A list of {kind, breaking, location: {tool, operation, path}, message}.
    Json,
}

fn main() -> ExitCode {
    kobana_dunning::allocator::configure();
    let cli = Cli::parse();
    if let Command::Spec { command } = &cli.command {
        return match command {
            SpecCommand::Tools => {
                print!("{}", operations::CATALOGUE_JSON);
                ExitCode::SUCCESS
            }
            SpecCommand::Diff(args) => {
                let args = spec::DiffArgs {
                    files: args.files.clone(),
                    base: args.base.clone(),
                    format: match args.format {
                        DiffFormat::Text => spec::Format::Text,
                        DiffFormat::Json => spec::Format::Json,
                    },
                };
                let code = spec::run(&args, &mut std::io::stdout().lock(), &mut std::io::stderr().lock());
                ExitCode::from(code)
            }
        };
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = runtime.block_on(run(cli));
    // Tasks may log while the runtime shuts down: flush after it has.
    drop(runtime);
    kobana_dunning::logs::flush();
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    let wait = std::time::Duration::from_secs_f64(cli.database_wait);
    let store = Store::open_with(&cli.database, wait).await?;
    match cli.command {
        Command::Serve(args) => serve(store, &cli.database, wait, args).await,
        Command::Orgs { command: OrgsCommand::Create { name, environment, timezone } } => {
            let id = admin::create_organization(&store, &name, &environment, None, false).await?;
            admin::set_timezone(&store, &id, &timezone).await?;
            println!("{id}");
            Ok(())
        }
        Command::Tokens { command: TokensCommand::Create { org, scopes, audience, expires_in } } => {
            let token =
                admin::create_token(&store, &org, &scopes, &audience, Duration::seconds(expires_in)).await?;
            println!("{token}");
            Ok(())
        }
        Command::Tokens { command: TokensCommand::Revoke { token } } => {
            if !admin::revoke_token(&store, &token).await? {
                anyhow::bail!("no live token (or grant) with that value or id");
            }
            println!("revoked");
            Ok(())
        }
        Command::Tokens { command: TokensCommand::List { org } } => {
            let mut out = std::io::stdout().lock();
            writeln!(out, "id\torganization\tuser\tclient\taudience\tscopes\texpires_at\trevoked_at\tgrant")?;
            for t in admin::list_tokens(&store, org.as_deref()).await? {
                writeln!(
                    out,
                    "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                    t.id,
                    t.organization_id,
                    t.user_id.as_deref().unwrap_or("-"),
                    t.client_id.as_deref().unwrap_or("-"),
                    t.audience,
                    t.scopes.replace(' ', ","),
                    t.expires_at,
                    t.revoked_at.as_deref().unwrap_or("-"),
                    t.grant_id.as_deref().unwrap_or("-"),
                )?;
            }
            Ok(())
        }
        Command::Users { command: UsersCommand::Create { org, email, role } } => {
            let mut password = String::new();
            std::io::stdin().read_line(&mut password)?;
            let password = password.trim_end_matches(['\n', '\r']);
            println!("{}", admin::create_user(&store, &org, &email, &role, password).await?);
            Ok(())
        }
        Command::Keys { command: KeysCommand::Rotate } => {
            let kept = admin::rotate_keys(&store).await?;
            println!(
                "rotated: {kept} keys open confirmation states; restart the servers to seal with the new one"
            );
            Ok(())
        }
        Command::Doctor => {
            let found = admin::unprintable(&store).await?;
            let mut out = std::io::stdout().lock();
            for finding in &found {
                writeln!(out, "unprintable {finding}")?;
            }
            if !found.is_empty() {
                anyhow::bail!("{} stored fields have a character the documents' font lacks", found.len());
            }
            writeln!(out, "documents: every stored name, address and description prints")?;
            Ok(())
        }
        Command::Exports { command: ExportsCommand::Build } => {
            let started = std::time::Instant::now();
            let report = engine::exports::run_once(&store, time::OffsetDateTime::now_utc()).await?;
            println!(
                "exports: {} built, {} failed, {} expired ({:.1} s)",
                report.built,
                report.failed,
                report.expired,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Payments { command: PaymentsCommand::Import { file, org } } => {
            let bytes = std::fs::read(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            let key = ServerKey::load(&store, None).await?;
            let app = Arc::new(App::with_limits(store, "http://127.0.0.1", key, Limits::default()));
            let report = kobana_dunning::payments_import::import(&app, &org, &bytes).await?;
            let mut out = std::io::stdout().lock();
            writeln!(out, "matched: {}", report.matched)?;
            writeln!(out, "already imported: {}", report.already_imported)?;
            writeln!(
                out,
                "unmatched: {} (payments_list?status=unmatched; assign with payments_assign)",
                report.unmatched.len()
            )?;
            for (line, reason) in &report.unmatched {
                writeln!(out, "  line {line}: {reason}")?;
            }
            writeln!(out, "refused: {}", report.refused.len())?;
            for (line, reason) in &report.refused {
                writeln!(out, "  line {line}: {reason}")?;
            }
            Ok(())
        }
        Command::Demo { command: DemoCommand::Generate { charges } } => {
            let started = std::time::Instant::now();
            let made = demo::generate::generate(&store, charges, |done| {
                eprintln!("{done}/{charges} charges ({:.0} s)", started.elapsed().as_secs_f64());
            })
            .await?;
            println!(
                "generated {} charges and {} debtors in {} ({:.1} s)",
                made.charges,
                made.debtors,
                made.organization_id,
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Engine {
            command: EngineCommand::RunOnce { at, providers, secret_key_file, background },
        } => {
            let now = match at {
                Some(text) => kobana_dunning::domain::dates::parse_timestamp(&text).map_err(|e| match e {
                    kobana_dunning::domain::DomainError::InvalidTimestamp => {
                        anyhow::anyhow!("--at must be an RFC 3339 instant, like 2026-10-14T12:00:00Z")
                    }
                    other => anyhow::anyhow!("--at {other}"),
                })?,
                None => time::OffsetDateTime::now_utc(),
            };
            let providers = Providers::new(&providers)?;
            let key = kobana_dunning::auth::ServerKey::load(&store, secret_key_file.as_deref()).await?;
            if background {
                // The pass runs on this thread (the runtime's `block_on`).
                kobana_dunning::priority::lower_current();
            }
            let started = std::time::Instant::now();
            let report = engine::run_once_reporting(&store, &providers, now, &progress_line()).await?;
            // The pass's clock ran on from `now` (its events are stamped so): what it wrote is
            // due for the sender and the builder at the instant it ended.
            let now = now + started.elapsed();
            if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
                eprint!("\r\x1b[K");
            }
            let sender = kobana_dunning::outbound::webhook_delivery::Sender {
                store: &store,
                providers: &providers,
                key: &key,
            };
            let sent = sender.send_due(now).await?;
            let exported = engine::exports::run_once(&store, now).await?;
            println!("turned {} charges overdue", report.turned_overdue);
            println!(
                "resumed {} paused charges; rescheduled {} after their policy changed",
                report.resumed, report.rescheduled
            );
            println!(
                "sent {} notifications ({} skipped, {} failed attempts)",
                report.sent, report.skipped, report.failed
            );
            println!("{} charges await a decision", report.awaiting_decision);
            println!(
                "{} messages left for the next send window; {} charges read",
                report.carried_over, report.charges_read
            );
            println!(
                "agreements: {} activated, {} completed, {} broken",
                report.agreements_activated, report.agreements_completed, report.agreements_broken
            );
            println!(
                "reports and protests filed by steps: {}; their steps simulated: {}; sent to the gateway: {}",
                report.escalations_filed, report.escalations_moved, report.escalations_submitted
            );
            println!(
                "webhook deliveries: {} delivered, {} to retry, {} failed",
                sent.delivered, sent.retrying, sent.failed
            );
            println!(
                "exports: {} built, {} failed, {} expired",
                exported.built, exported.failed, exported.expired
            );
            Ok(())
        }
        // Answered in main, without opening the database.
        Command::Spec { .. } => Ok(()),
    }
}

/// SIGINT or SIGTERM.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let mut term = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(s) => s,
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
                return;
            }
        };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn init_logs(format: LogFormat) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,sqlx=warn"));
    let builder =
        tracing_subscriber::fmt().with_env_filter(filter).with_writer(kobana_dunning::logs::Batched::start());
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => {
            builder.event_format(kobana_dunning::logs::JsonLines).init();
            kobana_dunning::logs::write_request_lines_directly();
        }
    }
}

async fn serve(
    store: Store,
    database: &str,
    wait: std::time::Duration,
    args: ServeArgs,
) -> anyhow::Result<()> {
    init_logs(args.log_format);
    let (demo_token, demo_user) = if args.demo {
        let org_id = demo::ensure(&store).await?;
        let all = kobana_dunning::auth::ALL_SCOPES.join(" ");
        let token = admin::create_token(&store, &org_id, &all, "all", Duration::hours(24)).await?;
        (Some(token), Some(admin::ensure_demo_user(&store, &org_id).await?))
    } else {
        (None, None)
    };
    let bound = server::bind(&args.bind).await?;
    let public_url = args.public_url.clone().unwrap_or_else(|| format!("http://{}", bound.addr));
    let key = ServerKey::load(&store, args.secret_key_file.as_deref()).await?;
    let limits = Limits {
        per_minute: args.rate_limit,
        burst: args.rate_limit_burst,
        max_in_flight: args.max_in_flight,
        anonymous_per_minute: args.anonymous_rate_limit,
    };
    let mut connections = ConnectionLimits {
        max_connections: args.max_connections,
        max_connections_per_address: args.max_connections_per_address,
        ..ConnectionLimits::default()
    };
    connections.gate.header_timeout = std::time::Duration::from_secs(args.header_read_timeout);
    connections.gate.body_timeout = std::time::Duration::from_secs(args.body_read_timeout);
    connections.gate.idle_timeout = std::time::Duration::from_secs(args.idle_timeout);
    let app = Arc::new(
        App::with_limits(store, &public_url, key, limits)
            .with_other_origins(args.allowed_origins.clone())
            .with_insecure_targets(args.providers.allow_insecure_targets)
            .with_providers(Arc::new(Providers::new(&args.providers)?)),
    );
    let draining = app.clone();
    let shutdown = async move {
        stop_signal().await;
        // Requests still arriving on open connections get 503 while the others finish.
        draining.load.drain();
        tracing::info!("draining");
    };
    let metrics = match &args.metrics_bind {
        Some(addr) => Some(server::bind(addr).await?.serve_metrics(app.clone(), connections.clone())),
        None => None,
    };
    let running = bound.serve_with(app.clone(), connections, shutdown);
    housekeeping::spawn(app.clone());
    if !args.no_engine {
        engine::background::start(app.clone(), database.to_string(), wait).await?;
    }
    let mut out = std::io::stdout().lock();
    // The demo user's line comes first: whatever follows the token line is a URL (scripts
    // read the banner that way).
    if let Some((email, password)) = demo_user {
        writeln!(out, "demo user: {email} {password}")?;
    }
    if let Some(token) = demo_token {
        writeln!(out, "demo token: {token}")?;
    }
    writeln!(out, "REST API:   {}/v1", app.public_url)?;
    writeln!(out, "MCP:        {}/mcp", app.public_url)?;
    writeln!(out, "sign-in:    {}/connections", app.public_url)?;
    if let Some(metrics) = &metrics {
        writeln!(out, "metrics:    http://{}/metrics", metrics.addr)?;
    }
    writeln!(out, "listening on http://{}", running.addr)?;
    out.flush()?;
    drop(out);
    tracing::info!(addr = %running.addr, public_url = %app.public_url, "listening");
    running.handle.await??;
    Ok(())
}

/// The `engine run-once` progress line: on a terminal, at most once a second, the pass's
/// counts so far on one line of standard error (cleared when the pass ends); elsewhere nothing.
fn progress_line() -> impl Fn(&engine::PassReport) + Sync {
    use std::io::IsTerminal;
    let terminal = std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    let shown = std::sync::atomic::AtomicU64::new(0);
    move |report: &engine::PassReport| {
        let second = started.elapsed().as_secs();
        if !terminal || second == 0 || shown.swap(second, std::sync::atomic::Ordering::Relaxed) == second {
            return;
        }
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[Kengine pass, {second} s: {} overdue, {} sent, {} skipped, {} awaiting a decision, {} left for the next window",
            report.turned_overdue, report.sent, report.skipped, report.awaiting_decision, report.carried_over
        );
        let _ = err.flush();
    }
}
