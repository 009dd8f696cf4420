//! Which addresses a provider may connect to: over TLS, public addresses only (none in the
//! special-purpose table, `special.rs`), checked after DNS resolution and connected to as
//! checked, so that a name cannot point the server at its own network; names that are local by
//! definition are refused before any lookup. `--allow-insecure-targets` (development) adds loopback, and lets unencrypted schemes
//! (`http://`, plain `smtp://`) through to loopback only.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use url::{Host, Url};

use super::http1::{authority_and_target, server_name};
use super::special::{self, Class, LocalName};
use super::{ProviderError, excerpt};

/// An HTTP URL a provider calls (the gateway, a webhook, a client's metadata document), checked
/// against the rules above when it is read: `https://` (`http://` only to loopback, with the
/// flag), no credentials in it, a host that is not a refused address. A name is checked again
/// each time it is resolved, so what it points to at send time is what counts.
#[derive(Clone, Debug)]
pub(super) struct Endpoint {
    host: Host<String>,
    port: u16,
    /// The `Host` header: the URL's host and any explicit port.
    pub(super) authority: String,
    /// Path and query.
    pub(super) target: String,
    /// The name the certificate must carry, for `https://`.
    tls_name: Option<ServerName<'static>>,
    policy: Policy,
}

/// A connection, encrypted or not.
pub(super) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

impl Endpoint {
    /// Reads `url`; the error says what is wrong with it, fit to show whoever gave it.
    pub(super) fn parse(url: &str, allow_insecure: bool) -> Result<Endpoint, String> {
        let url = Url::parse(url).map_err(|e| format!("not a URL ({e})"))?;
        let encrypted = match url.scheme() {
            "https" => true,
            "http" => false,
            _ => return Err("the scheme must be https (or http on loopback, for development)".into()),
        };
        if !url.username().is_empty() || url.password().is_some() {
            return Err("put no credentials in the URL".into());
        }
        let host = host(&url).ok_or("the URL has no host")?;
        let port = url.port_or_known_default().ok_or("the URL has no port")?;
        let policy = Policy::new(encrypted, allow_insecure)?;
        policy.check_host(&host)?;
        let (authority, target) = authority_and_target(&url, &host);
        let tls_name = match encrypted {
            true => Some(server_name(&host).ok_or("the host is not a valid TLS server name")?),
            false => None,
        };
        Ok(Endpoint { host, port, authority, target, tls_name, policy })
    }

    /// A connection to the first allowed address of the host that answers, through `tls` for
    /// `https://`. `who` (the provider) starts the error texts; every failure is transient but
    /// a refused address.
    pub(super) async fn connect(&self, who: &str, tls: &TlsConnector) -> Result<Box<dyn Io>, ProviderError> {
        let addrs = resolve(who, &self.host, self.port, self.policy).await?;
        let stream = connect(who, &addrs).await?;
        match &self.tls_name {
            None => Ok(Box::new(stream)),
            Some(name) => {
                let stream = tls.connect(name.clone(), stream).await.map_err(|e| {
                    ProviderError::Transient(format!("{who}: TLS: {}", excerpt(&e.to_string(), 160)))
                })?;
                Ok(Box::new(stream))
            }
        }
    }
}

/// The addresses a target may have.
#[derive(Clone, Copy, Debug)]
pub(super) struct Policy {
    /// Loopback is allowed (`--allow-insecure-targets`).
    allow_loopback: bool,
    /// Loopback only: the scheme is not encrypted.
    loopback_only: bool,
}

/// Why an address may not be connected to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// In the special-purpose table, or reaching a non-public IPv4 address through it.
    Special(Class),
    /// This host, without the flag.
    Loopback,
    /// Public, but the scheme is not encrypted.
    Unencrypted,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Special(class) => write!(f, "{class}"),
            Refusal::Loopback => {
                f.write_str("a loopback address (allowed only with --allow-insecure-targets)")
            }
            Refusal::Unencrypted => {
                f.write_str("not a loopback address, and the connection would not be encrypted")
            }
        }
    }
}

impl Policy {
    /// The policy for a scheme that is `encrypted` or not; unencrypted needs the flag.
    pub(super) fn new(encrypted: bool, allow_insecure: bool) -> Result<Policy, String> {
        if !encrypted && !allow_insecure {
            return Err(
                "an unencrypted target needs --allow-insecure-targets (development, loopback only); \
                        use TLS"
                    .into(),
            );
        }
        Ok(Policy { allow_loopback: allow_insecure, loopback_only: !encrypted })
    }

    /// Why `ip` may not be connected to, if it may not.
    pub(super) fn refusal(self, ip: IpAddr) -> Option<Refusal> {
        match special::classify(ip) {
            Class::Loopback if self.allow_loopback => None,
            Class::Loopback => Some(Refusal::Loopback),
            _ if self.loopback_only => Some(Refusal::Unencrypted),
            Class::Public => None,
            special @ Class::Special { .. } => Some(Refusal::Special(special)),
        }
    }

    /// Checks a host when the settings are read: an address against the table, a name against
    /// the names that are local by definition. What a name resolves to is checked when it is
    /// resolved.
    pub(super) fn check_host(self, host: &Host<String>) -> Result<(), String> {
        let ip = match host {
            Host::Domain(name) => return self.check_name(name),
            Host::Ipv4(v4) => IpAddr::V4(*v4),
            Host::Ipv6(v6) => IpAddr::V6(*v6),
        };
        match self.refusal(ip) {
            Some(why) => Err(format!("{host} is {why}")),
            None => Ok(()),
        }
    }

    fn check_name(self, name: &str) -> Result<(), String> {
        match special::local_name(name) {
            None => Ok(()),
            Some(LocalName::Loopback) if self.allow_loopback => Ok(()),
            Some(LocalName::Loopback) => {
                Err(format!("{name} is a loopback name (allowed only with --allow-insecure-targets)"))
            }
            Some(LocalName::Local(why)) => Err(format!("{name} is {why}, not a public host name")),
        }
    }
}

/// How long a check at create or update waits for DNS before leaving the name to delivery.
const CHECK_LOOKUP: Duration = Duration::from_secs(2);

/// Checks `url` as a target when someone gives it (a webhook's URL on create or update): the
/// rules of [`Endpoint::parse`], then what a name resolves to now. Any refused address among
/// them refuses the URL; a name that does not resolve yet is left to the check at delivery,
/// except over http, which must be seen to reach loopback only.
pub(super) async fn check_given(url: &str, allow_insecure: bool) -> Result<(), String> {
    let endpoint = Endpoint::parse(url, allow_insecure)?;
    let Host::Domain(name) = &endpoint.host else { return Ok(()) };
    let found =
        tokio::time::timeout(CHECK_LOOKUP, tokio::net::lookup_host((name.as_str(), endpoint.port))).await;
    let addrs: Vec<IpAddr> = match found {
        Ok(Ok(addrs)) => addrs.map(|a| a.ip()).collect(),
        Ok(Err(_)) | Err(_) => Vec::new(),
    };
    judge_resolved(endpoint.policy, name, &addrs)
}

/// The check of a name that resolved to `addrs` (none: not resolved).
fn judge_resolved(policy: Policy, name: &str, addrs: &[IpAddr]) -> Result<(), String> {
    if addrs.is_empty() {
        return match policy.loopback_only {
            true => Err(format!("{name} does not resolve, and http is allowed only to loopback")),
            false => Ok(()),
        };
    }
    match addrs.iter().find_map(|ip| policy.refusal(*ip).map(|why| (ip, why))) {
        Some((ip, why)) => Err(format!("{name} resolves to {ip}, {why}")),
        None => Ok(()),
    }
}

/// A URL's host, with an address written in a non-special scheme (`smtp://127.0.0.1`, which the
/// URL standard leaves as an opaque name) read as the address it is.
pub(super) fn host(url: &url::Url) -> Option<Host<String>> {
    match url.host()? {
        Host::Domain(name) => Some(match name.parse::<Ipv4Addr>() {
            Ok(v4) => Host::Ipv4(v4),
            Err(_) => Host::Domain(name.to_ascii_lowercase()),
        }),
        Host::Ipv4(v4) => Some(Host::Ipv4(v4)),
        Host::Ipv6(v6) => Some(Host::Ipv6(v6)),
    }
}

/// The addresses of `host` that `policy` allows, in the resolver's order.
/// `who` names the provider in the error text.
pub(super) async fn resolve(
    who: &str,
    host: &Host<String>,
    port: u16,
    policy: Policy,
) -> Result<Vec<SocketAddr>, ProviderError> {
    let found: Vec<SocketAddr> = match host {
        Host::Ipv4(v4) => vec![SocketAddr::new(IpAddr::V4(*v4), port)],
        Host::Ipv6(v6) => vec![SocketAddr::new(IpAddr::V6(*v6), port)],
        Host::Domain(name) => tokio::net::lookup_host((name.as_str(), port))
            .await
            .map_err(|e| {
                ProviderError::Transient(format!(
                    "{who}: cannot resolve {name}: {}",
                    excerpt(&e.to_string(), 120)
                ))
            })?
            .collect(),
    };
    let mut refused = None;
    let allowed: Vec<SocketAddr> = found
        .into_iter()
        .filter(|addr| match policy.refusal(addr.ip()) {
            None => true,
            Some(why) => {
                refused.get_or_insert(why);
                false
            }
        })
        .collect();
    match refused {
        _ if !allowed.is_empty() => Ok(allowed),
        Some(why) => Err(ProviderError::Permanent(format!("{who}: {host} resolves to {why}: refused"))),
        None => Err(ProviderError::Transient(format!("{who}: {host} has no address"))),
    }
}

/// A connection to the first of `addrs` that answers.
pub(super) async fn connect(who: &str, addrs: &[SocketAddr]) -> Result<TcpStream, ProviderError> {
    let mut last = None;
    for addr in addrs {
        match TcpStream::connect(addr).await {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    let why = last.map_or_else(|| "no address".to_owned(), |e| excerpt(&e.to_string(), 120));
    Err(ProviderError::Transient(format!("{who}: cannot connect: {why}")))
}

#[cfg(test)]
mod tests {
    use std::net::Ipv6Addr;

    use super::*;

    fn refused(policy: Policy, ip: &str) -> Option<String> {
        policy.refusal(ip.parse().unwrap()).map(|why| why.to_string())
    }

    #[test]
    fn only_public_addresses_over_tls() {
        let strict = Policy::new(true, false).unwrap();
        for ip in ["93.184.215.14", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.215.14", "64:ff9b::808:808"]
        {
            assert_eq!(refused(strict, ip), None, "{ip}");
        }
        for (ip, why) in [
            ("127.0.0.1", "loopback"),
            ("127.10.0.1", "loopback"),
            ("::1", "loopback"),
            ("::ffff:127.0.0.1", "loopback"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("192.168.0.10", "private"),
            ("100.64.0.1", "shared"),
            ("fd00::1", "private"),
            ("fec0::1", "private"),
            ("::ffff:192.168.0.1", "private"),
            ("169.254.169.254", "link-local"),
            ("fe80::1", "link-local"),
            ("0.0.0.0", "unspecified"),
            ("::", "unspecified"),
            ("224.0.0.1", "multicast"),
            ("255.255.255.255", "broadcast"),
            ("ff02::1", "multicast"),
            ("192.0.2.1", "documentation"),
            ("198.18.0.1", "benchmarking"),
            ("240.0.0.1", "reserved"),
            ("2001:db8::1", "documentation"),
            ("::10.0.0.1", "IPv4-compatible"),
            ("64:ff9b::a00:1", "embeds"),
            ("2002:7f00:1::", "embeds"),
            ("64:ff9b::7f00:1", "embeds 127.0.0.1"),
            ("::ffff:0:7f00:1", "IPv4-translated"),
            ("64:ff9b:1::7f00:1", "local-use NAT64"),
        ] {
            let said = refused(strict, ip).unwrap_or_else(|| panic!("{ip} allowed"));
            assert!(said.contains(why), "{ip}: {said}");
        }
    }

    #[test]
    fn the_flag_opens_loopback_and_plaintext_to_loopback_only() {
        assert!(Policy::new(false, false).is_err());
        let tls = Policy::new(true, true).unwrap();
        assert_eq!(refused(tls, "127.0.0.1"), None);
        assert_eq!(refused(tls, "::1"), None);
        assert!(refused(tls, "10.0.0.1").is_some());
        let plain = Policy::new(false, true).unwrap();
        assert_eq!(refused(plain, "127.0.0.1"), None);
        assert!(refused(plain, "93.184.215.14").unwrap().contains("not be encrypted"));
    }

    #[test]
    fn local_names_are_refused_when_read() {
        for url in [
            "https://localhost/",
            "https://api.localhost/",
            "https://metadata.google.internal/x",
            "https://printer.local/",
            "https://nas.home.arpa/",
            "https://metadata/",
        ] {
            assert!(Endpoint::parse(url, false).is_err(), "{url}");
        }
        assert!(Endpoint::parse("https://localhost:8443/", true).is_ok(), "the flag opens loopback");
        assert!(Endpoint::parse("http://localhost:9000/", true).is_ok());
        assert!(Endpoint::parse("https://metadata.google.internal/", true).is_err(), "not loopback");
        assert!(Endpoint::parse("https://erp.example.com/hook", false).is_ok());
    }

    #[tokio::test]
    async fn a_given_url_is_checked_against_what_its_name_resolves_to_now() {
        assert!(check_given("http://localhost:9000/hook", true).await.is_ok());
        assert!(check_given("http://127.0.0.1:9000/hook", true).await.is_ok());
        // http is for loopback only: a name not seen to resolve to it is refused.
        let why = check_given("http://erp.example.com/hook", true).await.unwrap_err();
        assert!(why.contains("loopback"), "{why}");
        assert!(check_given("http://93.184.215.14/hook", true).await.is_err());
        // A name that does not resolve now is left to delivery.
        assert!(check_given("https://no-such-host.invalid-tld-for-tests/hook", false).await.is_ok());
    }

    #[test]
    fn a_name_is_refused_for_any_refused_address_it_resolves_to() {
        let strict = Policy::new(true, false).unwrap();
        let ips = |list: &[&str]| list.iter().map(|ip| ip.parse().unwrap()).collect::<Vec<IpAddr>>();
        assert!(judge_resolved(strict, "erp.example.com", &ips(&["93.184.215.14"])).is_ok());
        assert!(judge_resolved(strict, "erp.example.com", &[]).is_ok(), "left to delivery");
        for found in [
            &["10.0.0.5"][..],
            &["93.184.215.14", "169.254.169.254"],
            &["::ffff:127.0.0.1"],
            &["64:ff9b:1::a00:1"],
        ] {
            let why = judge_resolved(strict, "rebind.example.com", &ips(found)).unwrap_err();
            assert!(why.starts_with("rebind.example.com resolves to"), "{why}");
        }
        let plain = Policy::new(false, true).unwrap();
        assert!(judge_resolved(plain, "dev.example.com", &ips(&["127.0.0.1", "::1"])).is_ok());
        assert!(judge_resolved(plain, "dev.example.com", &ips(&["127.0.0.1", "93.184.215.14"])).is_err());
        assert!(
            judge_resolved(plain, "dev.example.com", &[]).is_err(),
            "http must be seen to reach loopback"
        );
    }

    #[tokio::test]
    async fn names_are_checked_after_resolution() {
        let strict = Policy::new(true, false).unwrap();
        let localhost = Host::Domain("localhost".to_owned());
        let error = resolve("gateway", &localhost, 443, strict).await.unwrap_err();
        assert!(!error.is_transient() && error.reason().contains("loopback"), "{error}");
        let open = Policy::new(true, true).unwrap();
        let addrs = resolve("gateway", &localhost, 443, open).await.unwrap();
        assert!(addrs.iter().all(|a| a.ip().is_loopback() && a.port() == 443), "{addrs:?}");
    }

    #[test]
    fn addresses_in_smtp_urls_are_addresses() {
        let url = url::Url::parse("smtp://127.0.0.1:25").unwrap();
        assert_eq!(host(&url), Some(Host::Ipv4(Ipv4Addr::LOCALHOST)));
        let url = url::Url::parse("smtps://[::1]:465").unwrap();
        assert_eq!(host(&url), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
        let url = url::Url::parse("smtps://SMTP.Example.com").unwrap();
        assert_eq!(host(&url), Some(Host::Domain("smtp.example.com".to_owned())));
    }
}
