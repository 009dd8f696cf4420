//! The special-purpose address registries (IANA, IPv4 and IPv6, translation prefixes included),
//! multicast, and the special-use names that are local by definition: the one list every
//! outbound address and host name is checked against (`target.rs`). An address in no range here
//! is public. Ranges the registries call globally reachable (AS112, AMT, ORCHIDv2…) are refused
//! too: no webhook or provider lives there, and a smaller allowed set is easier to reason about.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// What an address in a range is, as a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Never a target.
    Refused,
    /// This host: a target only with `--allow-insecure-targets`.
    Loopback,
    /// An IPv4 address written as IPv6 (`::ffff:a.b.c.d`): the socket connects to the IPv4
    /// address itself, so it is judged as that address.
    Mapped,
    /// Reaches the IPv4 address held in the bits right of `shift` through a translator or relay
    /// (NAT64, 6to4): allowed only when that address is public. Never loopback: the loopback
    /// reached would be the translator's, not this host's.
    Embeds { shift: u8 },
}

/// One range of a registry.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Range {
    pub(super) net: IpAddr,
    pub(super) len: u8,
    /// What an address here is, as a noun phrase ("a private-use address").
    pub(super) name: &'static str,
    pub(super) kind: Kind,
}

use Kind::{Embeds, Loopback, Mapped, Refused};

const fn v4(net: [u8; 4], len: u8, name: &'static str, kind: Kind) -> Range {
    let [a, b, c, d] = net;
    Range { net: IpAddr::V4(Ipv4Addr::new(a, b, c, d)), len, name, kind }
}

const fn v6(net: [u16; 8], len: u8, name: &'static str, kind: Kind) -> Range {
    let [a, b, c, d, e, f, g, h] = net;
    Range { net: IpAddr::V6(Ipv6Addr::new(a, b, c, d, e, f, g, h)), len, name, kind }
}

/// IANA IPv4 Special-Purpose Address Registry, with multicast and limited broadcast.
pub(super) const IPV4: &[Range] = &[
    v4([0, 0, 0, 0], 8, "an unspecified (\"this network\") address", Refused),
    v4([10, 0, 0, 0], 8, "a private-use address", Refused),
    v4([100, 64, 0, 0], 10, "a shared (carrier-grade NAT) address", Refused),
    v4([127, 0, 0, 0], 8, "a loopback address", Loopback),
    v4([169, 254, 0, 0], 16, "a link-local address", Refused),
    v4([172, 16, 0, 0], 12, "a private-use address", Refused),
    v4([192, 0, 0, 0], 24, "an IETF protocol assignment address", Refused),
    v4([192, 0, 2, 0], 24, "a documentation address (TEST-NET-1)", Refused),
    v4([192, 31, 196, 0], 24, "an AS112 address", Refused),
    v4([192, 52, 193, 0], 24, "an AMT address", Refused),
    v4([192, 88, 99, 0], 24, "a deprecated 6to4 relay anycast address", Refused),
    v4([192, 168, 0, 0], 16, "a private-use address", Refused),
    v4([192, 175, 48, 0], 24, "an AS112 direct delegation address", Refused),
    v4([198, 18, 0, 0], 15, "a benchmarking address", Refused),
    v4([198, 51, 100, 0], 24, "a documentation address (TEST-NET-2)", Refused),
    v4([203, 0, 113, 0], 24, "a documentation address (TEST-NET-3)", Refused),
    v4([224, 0, 0, 0], 4, "a multicast address", Refused),
    v4([240, 0, 0, 0], 4, "a reserved address", Refused),
    v4([255, 255, 255, 255], 32, "the limited broadcast address", Refused),
];

/// IANA IPv6 Special-Purpose Address Registry, with the deprecated forms that still embed an
/// IPv4 address, site-local and multicast.
pub(super) const IPV6: &[Range] = &[
    v6([0; 8], 128, "the unspecified address", Refused),
    v6([0, 0, 0, 0, 0, 0, 0, 1], 128, "the loopback address", Loopback),
    v6([0; 8], 96, "a deprecated IPv4-compatible address", Refused),
    v6([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "an IPv4-mapped address", Mapped),
    v6([0, 0, 0, 0, 0xffff, 0, 0, 0], 96, "an IPv4-translated address", Refused),
    v6([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, "a NAT64 address", Embeds { shift: 0 }),
    v6([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "a local-use NAT64 address", Refused),
    v6([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "a discard-only address", Refused),
    v6([0x100, 0, 0, 1, 0, 0, 0, 0], 64, "a dummy-prefix address", Refused),
    v6([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, "an IETF protocol assignment address (Teredo, ORCHID…)", Refused),
    v6([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "a documentation address", Refused),
    v6([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "a 6to4 address", Embeds { shift: 80 }),
    v6([0x2620, 0x4f, 0x8000, 0, 0, 0, 0, 0], 48, "an AS112 direct delegation address", Refused),
    v6([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "a documentation address", Refused),
    v6([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, "a segment routing (SRv6 SID) address", Refused),
    v6([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "a unique-local (private) address", Refused),
    v6([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "a link-local address", Refused),
    v6([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "a deprecated site-local (private) address", Refused),
    v6([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "a multicast address", Refused),
];

impl Range {
    fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX.checked_shl(32 - u32::from(self.len)).unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX.checked_shl(128 - u32::from(self.len)).unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }

    /// The most specific range holding `ip`.
    fn of(ip: IpAddr) -> Option<&'static Range> {
        let table = if ip.is_ipv4() { IPV4 } else { IPV6 };
        table.iter().filter(|r| r.contains(ip)).max_by_key(|r| r.len)
    }
}

impl fmt::Display for Range {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}/{})", self.name, self.net, self.len)
    }
}

/// An address as a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    Public,
    /// This host's loopback, written as IPv4, IPv6 or IPv4-mapped.
    Loopback,
    /// Never a target: in `range`, or reaching through it an IPv4 address that is not public.
    Special {
        range: &'static Range,
        embeds: Option<(Ipv4Addr, &'static Range)>,
    },
}

/// Where `ip` falls in the tables.
pub(super) fn classify(ip: IpAddr) -> Class {
    let Some(range) = Range::of(ip) else { return Class::Public };
    let embedded = |shift: u8| Ipv4Addr::from((u128::from(ipv6(ip)) >> shift) as u32);
    match range.kind {
        Refused => Class::Special { range, embeds: None },
        Loopback => Class::Loopback,
        Mapped => classify(IpAddr::V4(embedded(0))),
        Embeds { shift } => {
            let v4 = embedded(shift);
            match Range::of(IpAddr::V4(v4)) {
                None => Class::Public,
                Some(inner) => Class::Special { range, embeds: Some((v4, inner)) },
            }
        }
    }
}

fn ipv6(ip: IpAddr) -> Ipv6Addr {
    match ip {
        IpAddr::V6(v6) => v6,
        IpAddr::V4(v4) => v4.to_ipv6_mapped(),
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Class::Public => f.write_str("a public address"),
            Class::Loopback => f.write_str("a loopback address"),
            Class::Special { range, embeds: None } => write!(f, "{range}"),
            Class::Special { range, embeds: Some((v4, inner)) } => {
                write!(f, "{range} that embeds {v4}, {inner}")
            }
        }
    }
}

/// A name that is local by definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LocalName {
    /// `localhost` and its subdomains (RFC 6761): this host.
    Loopback,
    /// Anything else that only a local resolver answers; says why.
    Local(&'static str),
}

/// Special-use names (RFC 6761, 6762, 8375, ICANN's `.internal`) and the top-level names RFC
/// 6762 appendix G lists as used privately, each with why it is local. `test` and `example`
/// are not here: RFC 6761 asks applications not to treat them specially.
const LOCAL_SUFFIXES: &[(&str, &str)] = &[
    ("internal", "an internal name (cloud metadata and private networks)"),
    ("local", "a multicast DNS (.local) name"),
    ("home.arpa", "a home network (.home.arpa) name"),
    ("invalid", "an invalid (.invalid) name"),
    ("intranet", "a private network name"),
    ("private", "a private network name"),
    ("corp", "a private network name"),
    ("home", "a private network name"),
    ("lan", "a private network name"),
];

/// Whether the host name `name` (lower case, as URLs give it) is local by definition. A
/// single-label name is: the resolver completes it from the local search domains.
pub(super) fn local_name(name: &str) -> Option<LocalName> {
    let name = name.strip_suffix('.').unwrap_or(name);
    if name == "localhost" || name.ends_with(".localhost") {
        return Some(LocalName::Loopback);
    }
    let within =
        |suffix: &str| name == suffix || name.strip_suffix(suffix).is_some_and(|rest| rest.ends_with('.'));
    if let Some((_, why)) = LOCAL_SUFFIXES.iter().find(|(suffix, _)| within(suffix)) {
        return Some(LocalName::Local(why));
    }
    (!name.contains('.')).then_some(LocalName::Local("a single-label name, completed by the local resolver"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class(ip: &str) -> Class {
        classify(ip.parse().unwrap())
    }

    fn special(ip: &str) -> String {
        match class(ip) {
            c @ Class::Special { .. } => c.to_string(),
            other => panic!("{ip} is {other:?}"),
        }
    }

    #[test]
    fn every_range_is_well_formed() {
        for range in IPV4.iter().chain(IPV6) {
            let (net, bits) = match range.net {
                IpAddr::V4(v4) => (u128::from(u32::from(v4)), 32),
                IpAddr::V6(v6) => (u128::from(v6), 128),
            };
            assert!(range.len <= bits, "{range}");
            assert!(range.contains(range.net), "{range}");
            let host_mask = 1u128.checked_shl(u32::from(bits - range.len)).map_or(u128::MAX, |b| b - 1);
            assert_eq!(net & host_mask, 0, "{range} has host bits set");
        }
    }

    #[test]
    fn registry_members_are_refused_and_public_addresses_are_not() {
        for ip in [
            "0.0.0.0",
            "10.1.2.3",
            "100.64.0.1",
            "169.254.169.254",
            "172.31.255.255",
            "192.0.0.9",
            "192.0.2.1",
            "192.31.196.1",
            "192.52.193.1",
            "192.88.99.1",
            "192.168.0.10",
            "192.175.48.6",
            "198.18.0.1",
            "198.19.255.255",
            "198.51.100.7",
            "203.0.113.9",
            "224.0.0.1",
            "239.255.255.250",
            "240.0.0.1",
            "255.255.255.255",
            "::",
            "::10.0.0.1",
            "100::1",
            "100:0:0:1::1",
            "2001::1",
            "2001:2::1",
            "2001:20::1",
            "2001:db8::1",
            "2620:4f:8000::1",
            "3fff::1",
            "5f00::1",
            "fd00::1",
            "fe80::1",
            "fec0::1",
            "ff02::1",
        ] {
            special(ip);
        }
        for ip in
            ["93.184.215.14", "8.8.8.8", "100.128.0.1", "198.20.0.1", "2606:4700::1111", "2001:4860::8888"]
        {
            assert_eq!(class(ip), Class::Public, "{ip}");
        }
        for ip in ["127.0.0.1", "127.10.0.1", "::1"] {
            assert_eq!(class(ip), Class::Loopback, "{ip}");
        }
    }

    #[test]
    fn ipv4_mapped_is_judged_as_the_ipv4_address() {
        assert_eq!(class("::ffff:127.0.0.1"), Class::Loopback);
        assert_eq!(class("::ffff:8.8.8.8"), Class::Public);
        assert!(special("::ffff:10.0.0.1").contains("private-use"));
        assert!(special("::ffff:169.254.169.254").contains("link-local"));
    }

    #[test]
    fn ipv4_translated_is_refused() {
        assert!(special("::ffff:0:7f00:1").contains("IPv4-translated"));
        assert!(special("::ffff:0:808:808").contains("IPv4-translated"));
    }

    #[test]
    fn ipv4_compatible_is_refused() {
        assert!(special("::7f00:1").contains("IPv4-compatible"));
        assert!(special("::808:808").contains("IPv4-compatible"));
    }

    #[test]
    fn nat64_well_known_is_judged_by_the_embedded_address() {
        assert_eq!(class("64:ff9b::808:808"), Class::Public);
        assert!(special("64:ff9b::7f00:1").contains("embeds 127.0.0.1, a loopback address"));
        assert!(special("64:ff9b::a00:1").contains("embeds 10.0.0.1, a private-use"));
        assert!(special("64:ff9b::a9fe:a9fe").contains("link-local"));
    }

    #[test]
    fn nat64_local_use_is_refused() {
        assert!(special("64:ff9b:1::7f00:1").contains("local-use NAT64"));
        assert!(special("64:ff9b:1::808:808").contains("local-use NAT64"));
    }

    #[test]
    fn six_to_four_is_judged_by_the_embedded_address() {
        assert_eq!(class("2002:808:808::1"), Class::Public);
        assert!(special("2002:7f00:1::").contains("embeds 127.0.0.1"));
        assert!(special("2002:c0a8:1::").contains("embeds 192.168.0.1"));
    }

    #[test]
    fn teredo_and_the_discard_prefix_are_refused() {
        assert!(special("2001:0:4136:e378:8000:63bf:3fff:fdd2").contains("IETF protocol assignment"));
        assert!(special("100::dead").contains("discard-only"));
    }

    #[test]
    fn local_names_are_local_by_definition() {
        for name in ["localhost", "localhost.", "api.localhost", "a.b.localhost"] {
            assert_eq!(local_name(name), Some(LocalName::Loopback), "{name}");
        }
        for name in [
            "metadata.google.internal",
            "internal",
            "printer.local",
            "nas.home.arpa",
            "x.invalid",
            "erp.corp",
            "router.lan.",
            "metadata",
        ] {
            assert!(matches!(local_name(name), Some(LocalName::Local(_))), "{name}");
        }
        for name in [
            "example.com",
            "erp.example.com.br",
            "app.example",
            "hooks.test",
            "notlocal.com",
            "localhost.com",
        ] {
            assert_eq!(local_name(name), None, "{name}");
        }
    }
}
