//! Which addresses a provider may connect to: over TLS, public addresses only, checked after DNS
//! resolution and connected to as checked, so that a name cannot point the server at its own
//! network. `--allow-insecure-targets` (development) adds loopback, and lets unencrypted schemes
//! (`http://`, plain `smtp://`) through to loopback only.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use rustls::pki_types::ServerName;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use url::{Host, Url};

use super::http1::{authority_and_target, server_name};
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
    pub(super) fn refusal(self, ip: IpAddr) -> Option<&'static str> {
        let ip = match ip {
            IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
            IpAddr::V4(_) => ip,
        };
        if ip.is_loopback() {
            return (!self.allow_loopback)
                .then_some("a loopback address (allowed only with --allow-insecure-targets)");
        }
        if self.loopback_only {
            return Some("not a loopback address, and the connection would not be encrypted");
        }
        match ip {
            IpAddr::V4(v4) => v4_refusal(v4),
            IpAddr::V6(v6) => v6_refusal(v6),
        }
    }

    /// Checks a host given as an address when the settings are read; names are checked when
    /// they are resolved.
    pub(super) fn check_host(self, host: &Host<String>) -> Result<(), String> {
        let ip = match host {
            Host::Domain(_) => return Ok(()),
            Host::Ipv4(v4) => IpAddr::V4(*v4),
            Host::Ipv6(v6) => IpAddr::V6(*v6),
        };
        match self.refusal(ip) {
            Some(why) => Err(format!("{host} is {why}")),
            None => Ok(()),
        }
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

fn v4_refusal(ip: Ipv4Addr) -> Option<&'static str> {
    let [a, b, c, _] = ip.octets();
    if a == 0 {
        Some("an unspecified address")
    } else if ip.is_private() || (a == 100 && (64..128).contains(&b)) {
        Some("a private address")
    } else if ip.is_link_local() {
        Some("a link-local address")
    } else if ip.is_multicast() || ip.is_broadcast() {
        Some("a multicast or broadcast address")
    } else if ip.is_documentation()
        || (a == 198 && (b == 18 || b == 19))
        || (a, b, c) == (192, 0, 0)
        || a >= 240
    {
        Some("a reserved address")
    } else {
        None
    }
}

fn v6_refusal(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    // An IPv4 address inside NAT64 (64:ff9b::/96) or 6to4 (2002::/16) reaches what it embeds.
    let embedded = match s {
        [0x64, 0xff9b, 0, 0, 0, 0, hi, lo] => Some((hi, lo)),
        [0x2002, hi, lo, ..] => Some((hi, lo)),
        _ => None,
    };
    if let Some((hi, lo)) = embedded {
        let v4 = Ipv4Addr::from((u32::from(hi) << 16) | u32::from(lo));
        return (v4.is_loopback() || v4_refusal(v4).is_some())
            .then_some("an address that embeds a non-public IPv4 address");
    }
    if ip.is_unspecified() {
        Some("an unspecified address")
    } else if ip.is_unique_local() || (s[0] & 0xffc0) == 0xfec0 {
        Some("a private address")
    } else if ip.is_unicast_link_local() {
        Some("a link-local address")
    } else if ip.is_multicast() {
        Some("a multicast or broadcast address")
    } else if (s[0], s[1]) == (0x2001, 0xdb8) || (s[0], s[1]) == (0x2001, 0) || s[..6] == [0; 6] {
        // Documentation, Teredo, and the deprecated IPv4-compatible ::/96.
        Some("a reserved address")
    } else {
        None
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
    use super::*;

    fn refused(policy: Policy, ip: &str) -> Option<&'static str> {
        policy.refusal(ip.parse().unwrap())
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
            ("100.64.0.1", "private"),
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
            ("192.0.2.1", "reserved"),
            ("198.18.0.1", "reserved"),
            ("240.0.0.1", "reserved"),
            ("2001:db8::1", "reserved"),
            ("::10.0.0.1", "reserved"),
            ("64:ff9b::a00:1", "embeds"),
            ("2002:7f00:1::", "embeds"),
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
