//! E-mail over SMTP with lettre, on rustls (ring, webpki roots).
//!
//! The URL says how: `smtps://` (TLS from the first byte, port 465), `smtp+starttls://` or
//! `smtp://…?tls=required` (STARTTLS required, port 587), or `smtp://` (plain, port 25: loopback
//! only, with `--allow-insecure-targets`). Credentials come from the URL's user and password,
//! percent-decoded; a path names the EHLO host (lettre's convention), else the sender's domain.
//!
//! Each message opens its own connection, to an address checked after resolution
//! (`target.rs`); TLS still verifies the name in the URL. The Message-ID,
//! `<ntf_…@sender-domain>`, and a header `X-Kobana-Notification-Id` carry the notification id, so
//! a retry is the same message to whoever deduplicates. 4xx replies and connection, TLS and
//! timeout errors are transient; 5xx replies are permanent.

use std::net::IpAddr;
use std::time::Duration;

use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, Message};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters, TlsParametersBuilder};
use lettre::transport::smtp::extension::ClientId;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use url::{Host, Url};

use super::target::{self, Policy};
use super::{Outgoing, ProviderError, ProviderSetupError, Sent, excerpt};

pub(super) const NAME: &str = "smtp";

/// Each read and write of the conversation.
const STEP_TIMEOUT: Duration = Duration::from_secs(30);
/// The whole delivery.
const TIMEOUT: Duration = Duration::from_secs(120);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Security {
    Plain,
    /// TLS from the first byte (`smtps://`).
    Wrapper,
    /// STARTTLS, required.
    StartTls,
}

pub(super) struct Smtp {
    host: Host<String>,
    port: u16,
    security: Security,
    /// For the name in the URL; set unless [`Security::Plain`].
    tls: Option<TlsParameters>,
    credentials: Option<Credentials>,
    from: Mailbox,
    hello: ClientId,
    policy: Policy,
    timeout: Duration,
    step_timeout: Duration,
}

impl std::fmt::Debug for Smtp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Smtp")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("from", &self.from)
            .finish_non_exhaustive()
    }
}

/// `X-Kobana-Notification-Id: ntf_…`
#[derive(Clone)]
struct NotificationId(String);

impl Header for NotificationId {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("X-Kobana-Notification-Id")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(NotificationId(s.to_owned()))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), self.0.clone())
    }
}

impl Smtp {
    pub(super) fn new(
        url: &str,
        from: &str,
        allow_insecure: bool,
        extra_roots: &[Vec<u8>],
    ) -> Result<Smtp, ProviderSetupError> {
        // Never the URL itself in an error: it holds the password.
        let bad = |why: &str| ProviderSetupError::SmtpUrl(why.to_owned());
        let url = Url::parse(url).map_err(|e| ProviderSetupError::SmtpUrl(format!("not a URL ({e})")))?;
        let tls_param = url.query_pairs().find(|(k, _)| k == "tls").map(|(_, v)| v.into_owned());
        let (security, default_port) = match (url.scheme(), tls_param.as_deref()) {
            ("smtps", None) => (Security::Wrapper, 465),
            ("smtp+starttls", None) | ("smtp", Some("required")) => (Security::StartTls, 587),
            ("smtp", None) => (Security::Plain, 25),
            ("smtp" | "smtps" | "smtp+starttls", Some(_)) => {
                return Err(bad("the only tls= accepted is tls=required on smtp:// (STARTTLS)"));
            }
            _ => return Err(bad("the scheme must be smtps, smtp+starttls, or smtp (plain)")),
        };
        let host = target::host(&url).ok_or_else(|| bad("no host"))?;
        let port = url.port().unwrap_or(default_port);
        let policy =
            Policy::new(security != Security::Plain, allow_insecure).map_err(ProviderSetupError::SmtpUrl)?;
        policy.check_host(&host).map_err(ProviderSetupError::SmtpUrl)?;

        let decode = |s: &str| percent_encoding::percent_decode_str(s).decode_utf8().map(|s| s.into_owned());
        let credentials = match (url.username(), url.password()) {
            ("", None) => None,
            (user, password) => {
                let user = decode(user).map_err(|_| bad("the user is not UTF-8"))?;
                let password =
                    decode(password.unwrap_or("")).map_err(|_| bad("the password is not UTF-8"))?;
                Some(Credentials::new(user, password))
            }
        };
        let from: Mailbox = from.parse().map_err(|_| {
            ProviderSetupError::SmtpFrom("not a sender: give `address` or `Name <address>`".to_owned())
        })?;
        let hello = match url.path().trim_matches('/') {
            "" => ClientId::Domain(from.email.domain().to_owned()),
            name => ClientId::Domain(name.to_owned()),
        };
        let tls = match security {
            Security::Plain => None,
            Security::Wrapper | Security::StartTls => Some(tls_parameters(&host, extra_roots)?),
        };
        Ok(Smtp {
            host,
            port,
            security,
            tls,
            credentials,
            from,
            hello,
            policy,
            timeout: TIMEOUT,
            step_timeout: STEP_TIMEOUT,
        })
    }

    pub(super) async fn deliver(&self, msg: &Outgoing<'_>) -> Result<Sent, ProviderError> {
        let to: Address = msg
            .to
            .parse()
            .map_err(|_| ProviderError::Permanent("smtp: the recipient is not an e-mail address".into()))?;
        let message_id = format!("<{}@{}>", msg.id, self.from.email.domain());
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(Mailbox::new(None, to))
            .message_id(Some(message_id.clone()))
            .header(NotificationId(msg.id.to_owned()))
            .header(ContentType::TEXT_PLAIN);
        if let Some(subject) = msg.subject {
            // One line: a line break in a subject would start a header of its own.
            let subject = subject.split(['\r', '\n']).collect::<Vec<_>>().join(" ");
            builder = if needs_encoding(&subject) {
                let encoded = encoded_words(&subject);
                builder.raw_header(HeaderValue::dangerous_new_pre_encoded(
                    HeaderName::new_from_ascii_str("Subject"),
                    subject,
                    encoded,
                ))
            } else {
                builder.subject(subject)
            };
        }
        let email = builder
            .body(msg.body.to_owned())
            .map_err(|e| ProviderError::Permanent(format!("smtp: cannot build the message: {e}")))?;

        let send = async {
            let addrs = target::resolve(NAME, &self.host, self.port, self.policy).await?;
            let mut last = None;
            for addr in addrs {
                match self.transport(addr.ip()).send(email.clone()).await {
                    Ok(_) => {
                        return Ok(Sent { provider: NAME, provider_message_id: Some(message_id.clone()) });
                    }
                    Err(e) => {
                        let (error, try_next) = judge(&e);
                        if !try_next {
                            return Err(error);
                        }
                        last = Some(error);
                    }
                }
            }
            Err(last.unwrap_or_else(|| ProviderError::Transient("smtp: no address".into())))
        };
        match tokio::time::timeout(self.timeout, send).await {
            Ok(outcome) => outcome,
            Err(_) => Err(ProviderError::Transient(format!(
                "smtp: not done within {} s",
                self.timeout.as_secs_f32()
            ))),
        }
    }

    /// A transport to the checked address `ip`; TLS verifies the URL's name, not the address.
    fn transport(&self, ip: IpAddr) -> AsyncSmtpTransport<Tokio1Executor> {
        let tls = match (self.security, &self.tls) {
            (Security::Wrapper, Some(params)) => Tls::Wrapper(params.clone()),
            (Security::StartTls, Some(params)) => Tls::Required(params.clone()),
            _ => Tls::None,
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(ip.to_string())
            .port(self.port)
            .tls(tls)
            .hello_name(self.hello.clone())
            .timeout(Some(self.step_timeout));
        if let Some(credentials) = &self.credentials {
            builder = builder.credentials(credentials.clone());
        }
        builder.build()
    }

    #[cfg(test)]
    pub(super) fn set_timeouts(&mut self, whole: Duration, step: Duration) {
        self.timeout = whole;
        self.step_timeout = step;
    }
}

/// The error for a failed send, and whether another address of the host is worth a try (the
/// server never answered).
/// Whether a subject goes out as RFC 2047 encoded words: text other than printable ASCII, or
/// ASCII a mail reader would decode (`=?utf-8?B?4oCu?=` is U+202E once decoded), which lettre
/// writes as it is. Encoded whole, it decodes to exactly the text that was checked and
/// rendered.
fn needs_encoding(subject: &str) -> bool {
    !subject.bytes().all(|b| (b' '..=b'~').contains(&b)) || crate::domain::message::has_encoded_word(subject)
}

/// Bytes of text per encoded word: 52 base64 characters, so `Subject: ` and one word fit a
/// 78-character line.
const WORD_BYTES: usize = 39;

/// `subject` as base64 UTF-8 encoded words, each whole characters, folded one to a line.
fn encoded_words(subject: &str) -> String {
    use base64::Engine;
    let mut out = String::new();
    let mut rest = subject;
    while !rest.is_empty() {
        let mut end = rest.len().min(WORD_BYTES);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        if !out.is_empty() {
            out.push_str("\r\n ");
        }
        out.push_str("=?utf-8?b?");
        out.push_str(&base64::engine::general_purpose::STANDARD.encode(&rest.as_bytes()[..end]));
        out.push_str("?=");
        rest = &rest[end..];
    }
    out
}

fn judge(e: &lettre::transport::smtp::Error) -> (ProviderError, bool) {
    let reason = format!("smtp: {}", excerpt(&e.to_string(), 200));
    if e.is_permanent() || e.is_client() {
        (ProviderError::Permanent(reason), false)
    } else if e.is_transient() || e.is_response() {
        (ProviderError::Transient(reason), false)
    } else {
        (ProviderError::Transient(reason), true)
    }
}

/// rustls for the host's name, trusting the webpki roots and `extra_roots` (DER; tests).
fn tls_parameters(host: &Host<String>, extra_roots: &[Vec<u8>]) -> Result<TlsParameters, ProviderSetupError> {
    let tls_error = |e: lettre::transport::smtp::Error| ProviderSetupError::Tls(e.to_string());
    let name = match host {
        Host::Domain(name) => name.clone(),
        Host::Ipv4(v4) => v4.to_string(),
        Host::Ipv6(v6) => v6.to_string(),
    };
    let mut builder = TlsParametersBuilder::new(name);
    for der in extra_roots {
        builder = builder.add_root_certificate(Certificate::from_der(der.clone()).map_err(tls_error)?);
    }
    builder.build_rustls().map_err(tls_error)
}

/// The SMTP URL with its password hidden, for `Debug`.
pub(super) fn redacted_url(url: &str) -> String {
    match Url::parse(url) {
        Ok(mut url) => {
            if url.password().is_some() {
                // Only fails for URLs that cannot have a password, and this one has one.
                let _ = url.set_password(Some("redacted"));
            }
            url.to_string()
        }
        Err(_) => "<not a URL>".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    //! The SMTP server here is a few lines on a tokio listener: it greets with 220, answers
    //! EHLO (offering 8BITMIME, SMTPUTF8, AUTH PLAIN LOGIN and, when it has a TLS acceptor and
    //! is not yet encrypted, STARTTLS), takes AUTH, MAIL, RCPT (or rejects RCPT with the reply
    //! it was given), DATA up to the lone dot (undoing dot-stuffing), RSET, NOOP and QUIT, and
    //! hands each message to the test through a channel.

    use std::net::SocketAddr;

    use base64::Engine;
    use base64::engine::general_purpose::STANDARD as BASE64;
    use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
    use tokio::net::TcpListener;
    use tokio::sync::mpsc;
    use tokio_rustls::TlsAcceptor;

    use super::super::tests::{message, test_acceptor, test_ca};
    use super::super::{Channel, ProviderConfig, Providers};
    use super::*;

    /// One message as the server received it.
    #[derive(Debug, Default)]
    struct Received {
        auth: Option<String>,
        mail_from: String,
        rcpt_to: Vec<String>,
        /// Headers and body, CRLF line ends, dot-stuffing undone.
        data: String,
        /// A line of DATA ended in a bare LF (strict servers refuse those).
        bare_lf: bool,
        encrypted: bool,
    }

    impl Received {
        /// The value of the first header `name` (unfolded).
        fn header(&self, name: &str) -> Option<String> {
            let head = self.data.split("\r\n\r\n").next()?;
            let mut value: Option<String> = None;
            for line in head.split("\r\n") {
                if let Some(v) = value.as_mut() {
                    if line.starts_with([' ', '\t']) {
                        v.push_str(line);
                        continue;
                    }
                    break;
                }
                if let Some((n, v)) = line.split_once(':')
                    && n.eq_ignore_ascii_case(name)
                {
                    value = Some(v.trim().to_owned());
                }
            }
            value
        }

        /// The body, decoded as its Content-Transfer-Encoding says.
        fn body(&self) -> String {
            let body = self.data.split_once("\r\n\r\n").map_or("", |(_, b)| b);
            match self.header("Content-Transfer-Encoding").as_deref() {
                Some("base64") => {
                    String::from_utf8(BASE64.decode(body.replace("\r\n", "")).unwrap()).unwrap()
                }
                Some("quoted-printable") => quoted_printable(body),
                _ => body.trim_end_matches("\r\n").replace("\r\n", "\n"),
            }
        }

        /// The subject, with RFC 2047 base64 words decoded (the space between two encoded
        /// words is not part of the text).
        fn subject(&self) -> String {
            let raw = self.header("Subject").unwrap_or_default();
            let mut out = Vec::new();
            let mut after_encoded = false;
            for (n, word) in raw.split_whitespace().enumerate() {
                let encoded = word
                    .get(..10)
                    .filter(|p| p.eq_ignore_ascii_case("=?utf-8?b?"))
                    .and_then(|_| word[10..].strip_suffix("?="));
                if n > 0 && !(after_encoded && encoded.is_some()) {
                    out.push(b' ');
                }
                match encoded {
                    Some(b64) => out.extend(BASE64.decode(b64).unwrap()),
                    None => out.extend(word.as_bytes()),
                }
                after_encoded = encoded.is_some();
            }
            String::from_utf8(out).unwrap()
        }
    }

    fn quoted_printable(text: &str) -> String {
        let joined = text.replace("=\r\n", "");
        let bytes = joined.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'=' && i + 2 < bytes.len() {
                out.push(u8::from_str_radix(&joined[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap().trim_end_matches("\r\n").replace("\r\n", "\n")
    }

    /// Starts the server; `rcpt_reply` replaces the 250 to RCPT (e.g. `451 4.3.0 try later`).
    async fn server(
        rcpt_reply: Option<&'static str>,
        tls: Option<(TlsAcceptor, bool)>,
    ) -> (SocketAddr, mpsc::UnboundedReceiver<Received>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let (tx, tls) = (tx.clone(), tls.clone());
                tokio::spawn(async move {
                    match tls {
                        // Implicit TLS.
                        Some((acceptor, true)) => {
                            if let Ok(stream) = acceptor.accept(stream).await {
                                session(stream, rcpt_reply, Mode::Encrypted, &tx).await;
                            }
                        }
                        // STARTTLS.
                        Some((acceptor, false)) => {
                            if let Some(stream) = session(stream, rcpt_reply, Mode::OffersStartTls, &tx).await
                                && let Ok(stream) = acceptor.accept(stream).await
                            {
                                session(stream, rcpt_reply, Mode::AfterStartTls, &tx).await;
                            }
                        }
                        None => {
                            session(stream, rcpt_reply, Mode::Plain, &tx).await;
                        }
                    }
                });
            }
        });
        (addr, rx)
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Mode {
        Plain,
        OffersStartTls,
        AfterStartTls,
        Encrypted,
    }

    /// One SMTP conversation; returns the stream when the client asked for STARTTLS.
    async fn session<S: AsyncRead + AsyncWrite + Unpin>(
        stream: S,
        rcpt_reply: Option<&str>,
        mode: Mode,
        tx: &mpsc::UnboundedSender<Received>,
    ) -> Option<S> {
        let mut stream = BufReader::new(stream);
        let encrypted = matches!(mode, Mode::AfterStartTls | Mode::Encrypted);
        let mut current = Received { encrypted, ..Default::default() };
        let mut auth = None;
        // After STARTTLS the client speaks first (EHLO again).
        if mode != Mode::AfterStartTls {
            stream.write_all(b"220 fake ESMTP\r\n").await.ok()?;
        }
        loop {
            let mut line = String::new();
            if stream.read_line(&mut line).await.ok()? == 0 {
                return None;
            }
            let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
            let reply: String = match verb.as_str() {
                "EHLO" | "HELO" => {
                    let tls = if mode == Mode::OffersStartTls { "250-STARTTLS\r\n" } else { "" };
                    format!("250-fake\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n{tls}250 AUTH PLAIN LOGIN\r\n")
                }
                "STAR" if mode == Mode::OffersStartTls => {
                    stream.write_all(b"220 2.0.0 ready\r\n").await.ok()?;
                    return Some(stream.into_inner());
                }
                "AUTH" => {
                    auth = Some(line.trim_end().to_owned());
                    "235 2.7.0 ok\r\n".into()
                }
                "MAIL" => {
                    current.mail_from = line.trim_end().to_owned();
                    "250 2.1.0 ok\r\n".into()
                }
                "RCPT" => match rcpt_reply {
                    Some(reply) => format!("{reply}\r\n"),
                    None => {
                        current.rcpt_to.push(line.trim_end().to_owned());
                        "250 2.1.5 ok\r\n".into()
                    }
                },
                "DATA" => {
                    stream.write_all(b"354 go ahead\r\n").await.ok()?;
                    let mut data = String::new();
                    loop {
                        let mut line = String::new();
                        if stream.read_line(&mut line).await.ok()? == 0 {
                            return None;
                        }
                        if line == ".\r\n" {
                            break;
                        }
                        current.bare_lf |= !line.ends_with("\r\n");
                        data.push_str(line.strip_prefix('.').unwrap_or(&line));
                    }
                    current.data = data;
                    current.auth = auth.clone();
                    tx.send(std::mem::take(&mut current)).ok()?;
                    current.encrypted = encrypted;
                    "250 2.0.0 queued as FAKE1\r\n".into()
                }
                "RSET" | "NOOP" => "250 2.0.0 ok\r\n".into(),
                "QUIT" => {
                    stream.write_all(b"221 2.0.0 bye\r\n").await.ok()?;
                    return None;
                }
                _ => "500 5.5.1 unknown\r\n".into(),
            };
            stream.write_all(reply.as_bytes()).await.ok()?;
        }
    }

    fn smtp(url: String) -> Smtp {
        Smtp::new(&url, "Cobrança Kobana <cobranca@example.com>", true, &[test_ca()]).unwrap()
    }

    #[tokio::test]
    async fn smtp_delivers_with_recipient_subject_body_and_id() {
        let (addr, mut received) = server(None, None).await;
        let config = ProviderConfig {
            smtp_url: Some(format!("smtp://{addr}")),
            smtp_from: Some("Cobrança Kobana <cobranca@example.com>".into()),
            allow_insecure_targets: true,
            ..Default::default()
        };
        let providers = Providers::new(&config).unwrap();
        let msg = message(Channel::Email, "maria.silva@example.com.br");
        let sent = providers.deliver(false, &msg).await.unwrap();
        let message_id = "<ntf_0192f1c2a0b07c3d8e9f00112233aabb@example.com>";
        assert_eq!(sent, Sent { provider: "smtp", provider_message_id: Some(message_id.into()) });

        let got = received.recv().await.unwrap();
        assert!(!got.encrypted && got.auth.is_none());
        assert_eq!(got.mail_from.split_whitespace().nth(1), Some("FROM:<cobranca@example.com>"));
        assert_eq!(got.rcpt_to, ["RCPT TO:<maria.silva@example.com.br>"]);
        assert_eq!(got.header("To").as_deref(), Some("maria.silva@example.com.br"));
        assert_eq!(got.subject(), "Sua cobrança vence em 3 dias");
        assert_eq!(got.body(), "Olá, Maria! O boleto de R$ 1.250,00 vence em 05/10/2026.");
        assert_eq!(got.header("X-Kobana-Notification-Id").as_deref(), Some(msg.id));
        assert_eq!(got.header("Message-ID").as_deref(), Some(message_id));
        assert!(got.header("Content-Type").unwrap().starts_with("text/plain; charset=utf-8"));
        assert!(got.header("Date").is_some());

        // A retry is the same message: same Message-ID, same id header.
        providers.deliver(false, &msg).await.unwrap();
        let again = received.recv().await.unwrap();
        assert_eq!(again.header("Message-ID").as_deref(), Some(message_id));

        // Encoded words in the text are sent encoded: what decodes is the text itself, never
        // the U+202E it spells.
        let long = "ã".repeat(40);
        for subject in ["Fatura =?utf-8?B?4oCu?= paga", "Aviso: é =?UTF-8?Q?=E2=80=AE?= fim", &long] {
            providers.deliver(false, &Outgoing { subject: Some(subject), ..msg }).await.unwrap();
            assert_eq!(received.recv().await.unwrap().subject(), subject);
        }

        // A subject cannot smuggle a header in.
        let sneaky = Outgoing { subject: Some("Oi\r\nBcc: evil@example.com"), ..msg };
        providers.deliver(false, &sneaky).await.unwrap();
        let got = received.recv().await.unwrap();
        assert_eq!(got.header("Bcc"), None);
        assert_eq!(got.rcpt_to.len(), 1);

        // Lines of a template (LF), a line holding only a dot, and a long line: all arrive whole,
        // with CRLF on the wire.
        let long =
            "Pix: 00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR";
        let body = format!("Olá,\n\nSegue o código:\n.\n{long}\nAtenciosamente");
        providers.deliver(false, &Outgoing { body: &body, ..msg }).await.unwrap();
        let got = received.recv().await.unwrap();
        assert!(!got.bare_lf);
        assert_eq!(got.body(), body);
    }

    #[tokio::test]
    async fn smtp_451_is_transient_and_550_is_permanent() {
        let msg = message(Channel::Email, "maria@example.com");
        let (addr, _) = server(Some("451 4.3.0 try again later"), None).await;
        let error = smtp(format!("smtp://{addr}")).deliver(&msg).await.unwrap_err();
        assert!(error.is_transient(), "{error}");
        assert!(error.reason().contains("451") && error.reason().contains("try again later"), "{error}");

        let (addr, _) = server(Some("550 5.1.1 mailbox unavailable"), None).await;
        let error = smtp(format!("smtp://{addr}")).deliver(&msg).await.unwrap_err();
        assert!(!error.is_transient(), "{error}");
        assert!(error.reason().contains("550") && error.reason().contains("mailbox unavailable"), "{error}");
    }

    #[tokio::test]
    async fn smtps_and_starttls_use_rustls_and_authenticate() {
        let msg = message(Channel::Email, "maria@example.com");
        for (implicit, scheme) in [(true, "smtps"), (false, "smtp+starttls"), (false, "smtp")] {
            let (addr, mut received) = server(None, Some((test_acceptor(), implicit))).await;
            let query = if scheme == "smtp" { "?tls=required" } else { "" };
            let url = format!("{scheme}://mailer:p%40ss%20w@localhost:{}{query}", addr.port());
            let sent = smtp(url).deliver(&msg).await.unwrap();
            assert_eq!(sent.provider, "smtp");
            let got = received.recv().await.unwrap();
            assert!(got.encrypted, "{scheme}");
            let auth = got.auth.clone().unwrap();
            let plain = BASE64.decode(auth.rsplit(' ').next().unwrap()).unwrap();
            assert_eq!(plain, b"\0mailer\0p@ss w", "{scheme}: {auth}");
            assert_eq!(got.header("X-Kobana-Notification-Id").as_deref(), Some(msg.id));
        }
        // A certificate not trusted is a transient failure, and nothing is sent in the clear.
        let (addr, mut received) = server(None, Some((test_acceptor(), false))).await;
        let url = format!("smtp+starttls://localhost:{}", addr.port());
        let untrusted = Smtp::new(&url, "cobranca@example.com", true, &[]).unwrap();
        let error = untrusted.deliver(&msg).await.unwrap_err();
        assert!(error.is_transient(), "{error}");
        assert!(received.try_recv().is_err());
    }

    #[tokio::test]
    async fn smtp_refusal_and_silence_are_transient() {
        let msg = message(Channel::Email, "maria@example.com");
        let closed = TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
        let error = smtp(format!("smtp://{closed}")).deliver(&msg).await.unwrap_err();
        assert!(error.is_transient(), "{error}");

        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let held = tokio::spawn(async move {
            let (stream, _) = listener.accept().await.unwrap();
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(stream);
        });
        let mut silent = smtp(format!("smtp://{addr}"));
        silent.set_timeouts(Duration::from_millis(400), Duration::from_millis(200));
        let error = silent.deliver(&msg).await.unwrap_err();
        assert!(error.is_transient(), "{error}");
        held.abort();
    }

    #[tokio::test]
    async fn smtp_bad_recipient_is_permanent_and_never_connects() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let sender = smtp(format!("smtp://{}", listener.local_addr().unwrap()));
        for to in ["not an address", "", "maria@", "a@b.com, c@d.com"] {
            let error = sender.deliver(&message(Channel::Email, to)).await.unwrap_err();
            assert!(!error.is_transient() && error.reason().contains("recipient"), "{to}: {error}");
            assert!(!error.reason().contains(to) || to.is_empty(), "the address is personal data");
        }
        let quiet = Duration::from_millis(100);
        assert!(tokio::time::timeout(quiet, listener.accept()).await.is_err());
    }

    #[test]
    fn the_password_stays_out_of_debug() {
        assert_eq!(
            redacted_url("smtps://mailer:hunter2@smtp.example.com"),
            "smtps://mailer:redacted@smtp.example.com"
        );
        assert_eq!(redacted_url("smtp://localhost:25"), "smtp://localhost:25");
        assert_eq!(redacted_url("::"), "<not a URL>");
    }
}
