//! How a rendered notification leaves the server ("Providers").
//!
//! The engine hands each notification, already rendered, to [`Providers::deliver`]. Sandbox
//! organizations always use the outbox, which records and sends nothing.
//! In production, e-mail goes over SMTP when `--smtp-url` is set and sms, whatsapp and letters go
//! to the HTTP gateway when `--gateway-url` is set; any channel without a provider falls back to
//! the outbox.
//!
//! Delivery is at least once: a retry of the same notification carries the same idempotency key
//! (the notification's id) so that a provider can deduplicate. [`ProviderError::Transient`] asks
//! for a retry (the notification's retry policy says when), [`ProviderError::Permanent`] for giving up now. Error
//! texts are stored as the notification's failure reason and may be logged: they never carry a
//! secret, a recipient address or more than a short excerpt of what a provider answered.
//!
//! Outbound addresses follow `target.rs`: TLS only, to public addresses checked after DNS
//! resolution; `--allow-insecure-targets` (development) also lets `http://` and plain `smtp://`
//! reach loopback.

mod counts;
mod fetch;
mod gateway;
pub use gateway::signed_by;
mod http1;
mod outbox;
mod smtp;
mod special;
mod target;
mod webhook;

use std::fmt;
use std::path::PathBuf;

pub use counts::DeliveryCounts;
pub use fetch::fetch_document;
use gateway::Gateway;
use smtp::Smtp;
pub use webhook::{KEPT_BODY, WebhookAnswer, WebhookExchange, WebhookPost, check_url as check_webhook_url};

/// The channels, as the spec names them.
pub use crate::types::Channel;

/// One rendered message to deliver.
#[derive(Clone, Copy)]
pub struct Outgoing<'a> {
    /// The notification's id (`ntf_…`): the idempotency key providers deduplicate on.
    pub id: &'a str,
    pub organization_id: &'a str,
    pub charge_id: &'a str,
    pub channel: Channel,
    /// An e-mail address, an E.164 phone number, or a postal address on one line (letters).
    pub to: &'a str,
    pub subject: Option<&'a str>,
    pub body: &'a str,
}

/// Leaves the recipient and the message out: they are personal data.
impl fmt::Debug for Outgoing<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Outgoing")
            .field("id", &self.id)
            .field("organization_id", &self.organization_id)
            .field("charge_id", &self.charge_id)
            .field("channel", &self.channel)
            .finish_non_exhaustive()
    }
}

/// A delivery a provider accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// `"outbox"`, `"smtp"` or `"gateway"`.
    pub provider: &'static str,
    /// The provider's own id for the message, when it gave one.
    pub provider_message_id: Option<String>,
}

/// Why a delivery failed. The text is fit to store as the notification's failure reason.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ProviderError {
    /// Worth another attempt later: connection errors, timeouts, 4xx SMTP replies, HTTP 5xx,
    /// 408 and 429.
    #[error("{0}")]
    Transient(String),
    /// Another attempt would fail the same way: 5xx SMTP replies, other HTTP 4xx, a recipient
    /// that is not an address, a target the outbound policy refuses.
    #[error("{0}")]
    Permanent(String),
}

impl ProviderError {
    pub fn is_transient(&self) -> bool {
        matches!(self, ProviderError::Transient(_))
    }

    /// The reason, without saying which kind.
    pub fn reason(&self) -> &str {
        match self {
            ProviderError::Transient(reason) | ProviderError::Permanent(reason) => reason,
        }
    }
}

/// A provider setting that cannot work; `serve` and `engine run-once` stop on it at start.
/// The texts never repeat the SMTP URL (it holds a password) or the gateway secret.
#[derive(Debug, thiserror::Error)]
pub enum ProviderSetupError {
    #[error("--smtp-url: {0}")]
    SmtpUrl(String),
    #[error("--smtp-from is required with --smtp-url")]
    SmtpFromMissing,
    #[error("--smtp-from: {0}")]
    SmtpFrom(String),
    #[error("--gateway-url: {0}")]
    GatewayUrl(String),
    #[error(
        "--gateway-url needs a secret to sign with: --gateway-secret-file or \
         KOBANA_DUNNING_GATEWAY_SECRET"
    )]
    GatewaySecretMissing,
    #[error("give the gateway secret once: --gateway-secret-file or KOBANA_DUNNING_GATEWAY_SECRET, not both")]
    GatewaySecretTwice,
    #[error("--gateway-secret-file {path}: {source}")]
    GatewaySecretFile { path: PathBuf, source: std::io::Error },
    #[error("the gateway secret is empty")]
    GatewaySecretEmpty,
    #[error("TLS setup: {0}")]
    Tls(String),
}

/// Where messages go (`serve` and `engine run-once` flatten these into their flags).
#[derive(clap::Args, Clone, Default)]
pub struct ProviderConfig {
    /// SMTP relay for e-mail: smtps://user:pass@host:465 (TLS), smtp+starttls://user:pass@host:587
    /// (STARTTLS required), or smtp://host:25 (plain, loopback only, with
    /// --allow-insecure-targets). Without it, e-mail goes to the outbox.
    #[arg(long, env = "KOBANA_DUNNING_SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender of the e-mail, `cobranca@example.com` or `Cobrança <cobranca@example.com>`.
    #[arg(long, env = "KOBANA_DUNNING_SMTP_FROM")]
    pub smtp_from: Option<String>,
    /// HTTP gateway for sms, whatsapp and letters: each message is a signed JSON POST to this
    /// https:// URL. Without it, those channels go to the outbox.
    #[arg(long, env = "KOBANA_DUNNING_GATEWAY_URL")]
    pub gateway_url: Option<String>,
    /// File holding the secret that signs gateway requests (or put the secret itself in
    /// KOBANA_DUNNING_GATEWAY_SECRET).
    #[arg(long, env = "KOBANA_DUNNING_GATEWAY_SECRET_FILE")]
    pub gateway_secret_file: Option<PathBuf>,
    /// The secret itself, from the environment only: a flag would show it in the process list.
    #[arg(skip = std::env::var("KOBANA_DUNNING_GATEWAY_SECRET").ok())]
    pub gateway_secret: Option<String>,
    /// Development only: lets http:// and plain smtp:// targets on loopback through, and any
    /// target on loopback.
    #[arg(long, env = "KOBANA_DUNNING_ALLOW_INSECURE_TARGETS")]
    pub allow_insecure_targets: bool,
}

/// Shows which settings are present, never the SMTP password or the gateway secret.
impl fmt::Debug for ProviderConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderConfig")
            .field("smtp_url", &self.smtp_url.as_deref().map(smtp::redacted_url))
            .field("smtp_from", &self.smtp_from)
            .field("gateway_url", &self.gateway_url)
            .field("gateway_secret_file", &self.gateway_secret_file)
            .field("gateway_secret", &self.gateway_secret.as_ref().map(|_| "<redacted>"))
            .field("allow_insecure_targets", &self.allow_insecure_targets)
            .finish()
    }
}

/// The providers, built once at start and shared (`Arc`) by every engine task. The default
/// has none configured: everything goes to the outbox.
#[derive(Debug, Default)]
pub struct Providers {
    smtp: Option<Smtp>,
    gateway: Option<Gateway>,
    webhooks: Webhooks,
    deliveries: DeliveryCounts,
}

/// What webhook deliveries need: TLS (built on first use) and whether loopback is open.
#[derive(Default)]
struct Webhooks {
    allow_insecure: bool,
    extra_roots: Vec<Vec<u8>>,
    tls: std::sync::OnceLock<Option<tokio_rustls::TlsConnector>>,
}

impl fmt::Debug for Webhooks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Webhooks").field("allow_insecure", &self.allow_insecure).finish_non_exhaustive()
    }
}

impl Providers {
    /// Checks the settings and prepares TLS; makes no connection.
    pub fn new(config: &ProviderConfig) -> Result<Self, ProviderSetupError> {
        Self::with_roots(config, &[])
    }

    /// [`Providers::new`], also trusting the DER certificates in `extra_roots` (tests).
    pub(crate) fn with_roots(
        config: &ProviderConfig,
        extra_roots: &[Vec<u8>],
    ) -> Result<Self, ProviderSetupError> {
        let insecure = config.allow_insecure_targets;
        let smtp = match &config.smtp_url {
            Some(url) => {
                let from = config.smtp_from.as_deref().ok_or(ProviderSetupError::SmtpFromMissing)?;
                Some(Smtp::new(url, from, insecure, extra_roots)?)
            }
            None => None,
        };
        let gateway = match &config.gateway_url {
            Some(url) => Some(Gateway::new(url, gateway_secret(config)?, insecure, extra_roots)?),
            None => None,
        };
        let webhooks =
            Webhooks { allow_insecure: insecure, extra_roots: extra_roots.to_vec(), ..Webhooks::default() };
        Ok(Providers { smtp, gateway, webhooks, deliveries: DeliveryCounts::default() })
    }

    /// Whether targets on loopback (and plain http to them) are allowed
    /// (`--allow-insecure-targets`).
    pub fn allows_insecure_targets(&self) -> bool {
        self.webhooks.allow_insecure
    }

    /// One attempt of a webhook delivery.
    pub async fn post_webhook(&self, post: &WebhookPost<'_>) -> WebhookExchange {
        let tls = self.webhooks.tls.get_or_init(|| {
            gateway::client_config(&self.webhooks.extra_roots).ok().map(tokio_rustls::TlsConnector::from)
        });
        let exchange = match tls {
            Some(tls) => webhook::post(post, tls, self.webhooks.allow_insecure).await,
            None => WebhookExchange {
                request_headers: Vec::new(),
                answer: Err(ProviderError::Transient("webhook: TLS could not be set up".into())),
                duration: std::time::Duration::ZERO,
            },
        };
        let sent = exchange.answer.as_ref().is_ok_and(|a| (200..300).contains(&a.status));
        self.deliveries.count("webhook", sent);
        exchange
    }

    /// Deliveries so far, by provider and outcome.
    pub fn deliveries(&self) -> &DeliveryCounts {
        &self.deliveries
    }

    /// The provider [`Providers::deliver`] would use.
    pub fn route(&self, sandbox: bool, channel: Channel) -> &'static str {
        self.pick(sandbox, channel).name()
    }

    /// Whether a message on `channel` only goes to the outbox: a record, no outside call.
    pub fn records_only(&self, sandbox: bool, channel: Channel) -> bool {
        matches!(self.pick(sandbox, channel), Route::Outbox)
    }

    /// Sandbox organizations always use the outbox (record only, no external call).
    /// Production: e-mail via SMTP when configured, sms/whatsapp/letter via the HTTP gateway
    /// when configured, otherwise the outbox.
    pub async fn deliver(&self, sandbox: bool, msg: &Outgoing<'_>) -> Result<Sent, ProviderError> {
        check_id(msg.id)?;
        let route = self.pick(sandbox, msg.channel);
        let sent = match route {
            Route::Outbox => Ok(outbox::deliver(sandbox, msg)),
            Route::Smtp(smtp) => smtp.deliver(msg).await,
            Route::Gateway(gateway) => gateway.deliver(msg).await,
        };
        self.deliveries.count(route.name(), sent.is_ok());
        sent
    }

    /// The outbox's answer when `msg` goes there (a sandbox, or no provider for its channel):
    /// delivering it is then only a record, with no outside call. `None` when an outside
    /// provider takes it.
    pub fn local(&self, sandbox: bool, msg: &Outgoing<'_>) -> Option<Result<Sent, ProviderError>> {
        match self.pick(sandbox, msg.channel) {
            Route::Outbox => {
                let sent = check_id(msg.id).map(|()| outbox::deliver(sandbox, msg));
                self.deliveries.count(outbox::NAME, sent.is_ok());
                Some(sent)
            }
            Route::Smtp(_) | Route::Gateway(_) => None,
        }
    }

    /// Whether a gateway is configured: production credit-bureau reports and protests need
    /// one (they go nowhere else).
    pub fn has_gateway(&self) -> bool {
        self.gateway.is_some()
    }

    /// Sends one request about a credit-bureau report or protest to the gateway: `body`, the
    /// event `kind` (`credit_bureau_report.add`…) in `X-Kobana-Event`, and `key` (the object's
    /// id and the kind) as `Idempotency-Key`, so a retry can be deduplicated.
    pub async fn escalate(
        &self,
        kind: &str,
        key: &str,
        body: &serde_json::Value,
    ) -> Result<Sent, ProviderError> {
        let Some(gateway) = &self.gateway else {
            return Err(ProviderError::Permanent("no gateway is configured (--gateway-url)".into()));
        };
        let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':');
        if !kind.chars().all(plain) || !key.chars().all(plain) || key.len() > 200 {
            return Err(ProviderError::Permanent("the request's kind or key is not a plain token".into()));
        }
        let body = serde_json::to_vec(body)
            .map_err(|e| ProviderError::Permanent(format!("gateway: cannot encode the request: {e}")))?;
        gateway.post(&[("X-Kobana-Event", kind), ("Idempotency-Key", key)], body).await
    }

    /// Whether a status callback's `X-Kobana-Signature` is the gateway's signature of its raw
    /// body; false when no gateway is configured.
    pub fn verify_callback(&self, body: &[u8], signature: &str) -> bool {
        self.gateway.as_ref().is_some_and(|g| g.verify(body, signature))
    }

    fn pick(&self, sandbox: bool, channel: Channel) -> Route<'_> {
        if sandbox {
            return Route::Outbox;
        }
        let route = match channel {
            Channel::Email => self.smtp.as_ref().map(Route::Smtp),
            Channel::Sms | Channel::Whatsapp | Channel::Letter => self.gateway.as_ref().map(Route::Gateway),
        };
        route.unwrap_or(Route::Outbox)
    }
}

enum Route<'a> {
    Outbox,
    Smtp(&'a Smtp),
    Gateway(&'a Gateway),
}

impl Route<'_> {
    fn name(&self) -> &'static str {
        match self {
            Route::Outbox => outbox::NAME,
            Route::Smtp(_) => smtp::NAME,
            Route::Gateway(_) => gateway::NAME,
        }
    }
}

/// The gateway's signing secret, from its file or the environment, with the file's final line
/// break dropped.
fn gateway_secret(config: &ProviderConfig) -> Result<Vec<u8>, ProviderSetupError> {
    let secret = match (&config.gateway_secret_file, &config.gateway_secret) {
        (Some(_), Some(_)) => return Err(ProviderSetupError::GatewaySecretTwice),
        (None, None) => return Err(ProviderSetupError::GatewaySecretMissing),
        (None, Some(secret)) => secret.clone().into_bytes(),
        (Some(path), None) => std::fs::read(path)
            .map_err(|source| ProviderSetupError::GatewaySecretFile { path: path.clone(), source })?,
    };
    let end = secret.iter().rposition(|b| !b.is_ascii_whitespace()).map_or(0, |i| i + 1);
    let start = secret[..end].iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(end);
    if start == end {
        return Err(ProviderSetupError::GatewaySecretEmpty);
    }
    Ok(secret[start..end].to_vec())
}

/// The id goes into headers: it must be a plain token (`ntf_` and hex, in practice).
fn check_id(id: &str) -> Result<(), ProviderError> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if id.is_empty() || id.len() > 100 || !id.chars().all(plain) {
        return Err(ProviderError::Permanent("the notification id is not a plain token".into()));
    }
    Ok(())
}

/// At most `max` characters of what a peer said, on one line, for an error text.
fn excerpt(text: &str, max: usize) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut chars = line.chars();
    let mut out: String = chars.by_ref().take(max).map(|c| if c.is_control() { ' ' } else { c }).collect();
    if chars.next().is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use std::sync::Arc;

    use clap::{CommandFactory, Parser};
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::{CertificateDer, PrivateKeyDer};
    use tokio::net::TcpListener;
    use tokio_rustls::TlsAcceptor;

    use super::*;

    pub(crate) fn message(channel: Channel, to: &'static str) -> Outgoing<'static> {
        Outgoing {
            id: "ntf_0192f1c2a0b07c3d8e9f00112233aabb",
            organization_id: "org_0192f1c2a0b07c3d8e9f00112233aabb",
            charge_id: "chg_0192f1c2a0b07c3d8e9f00112233aabb",
            channel,
            to,
            subject: Some("Sua cobrança vence em 3 dias"),
            body: "Olá, Maria! O boleto de R$ 1.250,00 vence em 05/10/2026.",
        }
    }

    /// The test CA (`testdata/`: a CA, and a certificate it signed for localhost and 127.0.0.1,
    /// valid until 2126, made with openssl for these tests only), in DER.
    pub(crate) fn test_ca() -> Vec<u8> {
        CertificateDer::from_pem_slice(include_bytes!("testdata/ca.pem")).unwrap().to_vec()
    }

    pub(crate) fn test_acceptor() -> TlsAcceptor {
        let leaf = CertificateDer::from_pem_slice(include_bytes!("testdata/leaf.pem")).unwrap();
        let key = PrivateKeyDer::from_pem_slice(include_bytes!("testdata/leaf.key")).unwrap();
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let config = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![leaf], key)
            .unwrap();
        TlsAcceptor::from(Arc::new(config))
    }

    #[tokio::test]
    async fn sandbox_never_connects() {
        // Both providers point at live listeners: a sandbox delivery must reach neither.
        let smtp = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let http = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let config = ProviderConfig {
            smtp_url: Some(format!("smtp://{}", smtp.local_addr().unwrap())),
            smtp_from: Some("cobranca@example.com".into()),
            gateway_url: Some(format!("http://{}/send", http.local_addr().unwrap())),
            gateway_secret: Some("s3cret".into()),
            allow_insecure_targets: true,
            ..Default::default()
        };
        let providers = Providers::new(&config).unwrap();
        for (channel, to) in [
            (Channel::Email, "maria@example.com"),
            (Channel::Sms, "+5511988887777"),
            (Channel::Whatsapp, "+5511988887777"),
            (Channel::Letter, "Rua das Flores, 10, São Paulo - SP, 01001-000"),
        ] {
            assert_eq!(providers.route(true, channel), "outbox");
            let sent = providers.deliver(true, &message(channel, to)).await.unwrap();
            assert_eq!(sent, Sent { provider: "outbox", provider_message_id: None });
        }
        assert_eq!(providers.route(false, Channel::Email), "smtp");
        assert_eq!(providers.route(false, Channel::Sms), "gateway");
        let quiet = Duration::from_millis(200);
        assert!(tokio::time::timeout(quiet, smtp.accept()).await.is_err(), "SMTP was reached");
        assert!(tokio::time::timeout(quiet, http.accept()).await.is_err(), "the gateway was reached");
    }

    #[tokio::test]
    async fn channels_without_a_provider_go_to_the_outbox() {
        let none = Providers::new(&ProviderConfig::default()).unwrap();
        for channel in [Channel::Email, Channel::Sms, Channel::Whatsapp, Channel::Letter] {
            assert_eq!(none.route(false, channel), "outbox");
        }
        let sent = none.deliver(false, &message(Channel::Sms, "+5511988887777")).await.unwrap();
        assert_eq!(sent.provider, "outbox");

        let gateway_only = Providers::new(&ProviderConfig {
            gateway_url: Some("https://gateway.example.com/v1/messages".into()),
            gateway_secret: Some("s3cret".into()),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(gateway_only.route(false, Channel::Email), "outbox");
        assert_eq!(gateway_only.route(false, Channel::Letter), "gateway");

        let smtp_only = Providers::new(&ProviderConfig {
            smtp_url: Some("smtps://user:pass@smtp.example.com".into()),
            smtp_from: Some("Cobrança <cobranca@example.com>".into()),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(smtp_only.route(false, Channel::Email), "smtp");
        assert_eq!(smtp_only.route(false, Channel::Whatsapp), "outbox");
    }

    #[test]
    fn setup_refuses_what_cannot_work() {
        let smtp = |url: &str| ProviderConfig {
            smtp_url: Some(url.into()),
            smtp_from: Some("cobranca@example.com".into()),
            ..Default::default()
        };
        let gateway = |url: &str| ProviderConfig {
            gateway_url: Some(url.into()),
            gateway_secret: Some("s3cret".into()),
            ..Default::default()
        };
        let refused = |config: ProviderConfig| Providers::new(&config).err().map(|e| e.to_string());

        assert!(refused(smtp("smtps://user:pass@smtp.example.com")).is_none());
        assert!(refused(smtp("smtp+starttls://smtp.example.com:2525")).is_none());
        assert!(refused(smtp("smtp://smtp.example.com?tls=required")).is_none());
        assert!(refused(gateway("https://gateway.example.com/v1/messages?x=1")).is_none());

        for (config, says) in [
            (smtp("smtp://127.0.0.1:25"), "--allow-insecure-targets"),
            (smtp("smtp://smtp.example.com?tls=opportunistic"), "tls="),
            (smtp("imap://mail.example.com"), "scheme"),
            (smtp("smtps://user:pass@10.0.0.5"), "private"),
            (smtp("not a url"), "--smtp-url"),
            (ProviderConfig { smtp_from: None, ..smtp("smtps://smtp.example.com") }, "--smtp-from"),
            (ProviderConfig { smtp_from: Some("nobody".into()), ..smtp("smtps://h.example.com") }, "from"),
            (gateway("http://127.0.0.1:9000/send"), "--allow-insecure-targets"),
            (gateway("http://gateway.example.com/send"), "--allow-insecure-targets"),
            (gateway("https://192.168.1.10/send"), "private"),
            (gateway("https://[fe80::1]/send"), "link-local"),
            (gateway("https://127.0.0.1/send"), "loopback"),
            (gateway("https://user:pw@gateway.example.com/send"), "credentials"),
            (gateway("ftp://gateway.example.com/send"), "scheme"),
            (ProviderConfig { gateway_secret: None, ..gateway("https://g.example.com") }, "secret"),
            (
                ProviderConfig { gateway_secret: Some(" \n".into()), ..gateway("https://g.example.com") },
                "empty",
            ),
            (
                ProviderConfig {
                    gateway_secret_file: Some("/nonexistent/secret".into()),
                    ..gateway("https://g.example.com")
                },
                "not both",
            ),
        ] {
            let debug = format!("{config:?}");
            let said = refused(config).unwrap_or_else(|| panic!("accepted {debug}"));
            assert!(said.contains(says), "{said:?} does not say {says:?}");
            assert!(!said.contains("pass@") && !said.contains("s3cret"), "{said}");
        }
        // http:// and plain smtp:// on loopback, for development.
        let insecure =
            ProviderConfig { allow_insecure_targets: true, ..gateway("http://127.0.0.1:9000/send") };
        assert!(Providers::new(&insecure).is_ok());
        let insecure = ProviderConfig { allow_insecure_targets: true, ..smtp("smtp://localhost:2525") };
        assert!(Providers::new(&insecure).is_ok());
    }

    #[test]
    fn the_secret_file_is_read_and_trimmed() {
        let dir = std::env::temp_dir().join(format!("kd-providers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("gateway-secret");
        std::fs::write(&path, "  s3cret\n").unwrap();
        let config = ProviderConfig { gateway_secret_file: Some(path.clone()), ..Default::default() };
        assert_eq!(gateway_secret(&config).unwrap(), b"s3cret");
        std::fs::write(&path, "\n").unwrap();
        assert!(matches!(gateway_secret(&config), Err(ProviderSetupError::GatewaySecretEmpty)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn debug_shows_no_secret() {
        let config = ProviderConfig {
            smtp_url: Some("smtps://mailer:hunter2@smtp.example.com:465".into()),
            gateway_secret: Some("s3cret".into()),
            ..Default::default()
        };
        let debug = format!("{config:?}");
        assert!(!debug.contains("hunter2") && !debug.contains("s3cret"), "{debug}");
        assert!(debug.contains("smtp.example.com"), "{debug}");
        let msg = message(Channel::Email, "maria@example.com");
        let debug = format!("{msg:?}");
        assert!(!debug.contains("maria") && !debug.contains("1.250"), "{debug}");
    }

    #[test]
    fn flags_parse() {
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            providers: ProviderConfig,
        }
        Cli::command().debug_assert();
        let cli = Cli::try_parse_from([
            "kd",
            "--smtp-url",
            "smtps://u:p@smtp.example.com",
            "--smtp-from",
            "cobranca@example.com",
            "--gateway-url",
            "https://gateway.example.com/send",
            "--gateway-secret-file",
            "/run/secrets/gateway",
        ])
        .unwrap();
        assert_eq!(cli.providers.smtp_from.as_deref(), Some("cobranca@example.com"));
        assert_eq!(cli.providers.gateway_secret_file, Some(PathBuf::from("/run/secrets/gateway")));
        assert!(!cli.providers.allow_insecure_targets);
    }

    #[tokio::test]
    async fn a_bad_id_is_permanent() {
        let providers = Providers::new(&ProviderConfig::default()).unwrap();
        for id in ["", "ntf_1\r\nX-Evil: 1", "ntf 1", &"a".repeat(101)] {
            let msg = Outgoing { id, ..message(Channel::Sms, "+5511988887777") };
            let error = providers.deliver(false, &msg).await.unwrap_err();
            assert!(!error.is_transient(), "{error}");
        }
    }

    /// The engine shares one `Providers` between tasks and may spawn a delivery.
    #[test]
    fn providers_can_be_shared_and_deliveries_spawned() {
        fn shared<T: Send + Sync + 'static>() {}
        fn spawnable<T: std::future::Future + Send>(_: T) {}
        shared::<Providers>();
        let providers = Providers::new(&ProviderConfig::default()).unwrap();
        spawnable(providers.deliver(false, &message(Channel::Email, "maria@example.com")));
    }

    #[test]
    fn excerpts_are_short_and_on_one_line() {
        assert_eq!(excerpt("  bad\r\n request \t", 200), "bad request");
        assert_eq!(excerpt("abcdef", 3), "abc…");
        assert_eq!(excerpt("ação", 4), "ação");
        assert_eq!(excerpt("", 10), "");
    }
}
