//! IPv4 addresses and prefixes as the planner writes them.

use std::net::Ipv4Addr;

use super::error::PrefixError;
use crate::yaml::decode::{Decode, DecodeContext};
use crate::yaml::node::Node;

/// An IPv4 prefix `a.b.c.d/len` (host bits may be set for interface addresses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Prefix {
    pub(crate) addr: Ipv4Addr,
    pub(crate) len: u8,
}

impl Prefix {
    pub(crate) fn network(self) -> u32 {
        u32::from(self.addr) & self.mask()
    }
    pub(crate) fn mask(self) -> u32 {
        if self.len == 0 {
            0
        } else {
            u32::MAX << (32 - u32::from(self.len))
        }
    }
    #[cfg(test)]
    pub(crate) fn size(self) -> u64 {
        1u64 << (32 - u32::from(self.len))
    }
    pub(crate) fn contains(self, a: Ipv4Addr) -> bool {
        u32::from(a) & self.mask() == self.network()
    }
    pub(crate) fn overlaps(self, other: Prefix) -> bool {
        let m = self.mask() & other.mask();
        self.network() & m == other.network() & m
    }
    /// The prefix with its host bits cleared (`10.16.1.1/24` -> `10.16.1.0/24`).
    pub(crate) fn subnet(self) -> Prefix {
        Prefix {
            addr: Ipv4Addr::from(self.network()),
            len: self.len,
        }
    }
    pub(crate) fn last(self) -> u32 {
        self.network() | !self.mask()
    }
}

impl std::fmt::Display for Prefix {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}/{}", self.addr, self.len)
    }
}

pub(crate) fn parse_prefix(text: &str) -> Result<Prefix, PrefixError> {
    let (a, l) = text.split_once('/').ok_or_else(|| PrefixError::NoLength {
        text: text.to_owned(),
    })?;
    let addr: Ipv4Addr = a
        .trim()
        .parse()
        .map_err(|_| PrefixError::NotIpv4 { addr: a.to_owned() })?;
    let len: u8 = l
        .trim()
        .parse()
        .ok()
        .filter(|&l| l <= 32)
        .ok_or_else(|| PrefixError::BadLength { len: l.to_owned() })?;
    Ok(Prefix { addr, len })
}

impl Decode for Prefix {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Prefix> {
        let text = String::decode(node, cx)?;
        parse_prefix(&text)
            .map_err(|e| {
                cx.invalid(
                    node.span,
                    format!("`{text}` is not an IPv4 prefix"),
                    e.to_string(),
                )
            })
            .ok()
    }
}

impl schemars::JsonSchema for Prefix {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ipv4Prefix".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[0-9]{1,3}(\\.[0-9]{1,3}){3}/[0-9]{1,2}$" })
    }
}

/// A bare IPv4 address.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Addr(pub(crate) Ipv4Addr);

impl Decode for Addr {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Addr> {
        let text = String::decode(node, cx)?;
        match text.parse::<Ipv4Addr>() {
            Ok(a) => Some(Addr(a)),
            Err(_) => {
                cx.invalid(
                    node.span,
                    format!("`{text}` is not an IPv4 address"),
                    "write four numbers from 0 to 255: `192.168.16.11`",
                );
                None
            }
        }
    }
}

impl schemars::JsonSchema for Addr {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Ipv4Address".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[0-9]{1,3}(\\.[0-9]{1,3}){3}$" })
    }
}

/// `ip:port` of an OpenFlow controller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Controller {
    pub(crate) addr: Ipv4Addr,
    pub(crate) port: u16,
}

impl Decode for Controller {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Controller> {
        let text = String::decode(node, cx)?;
        let parsed = match text.split_once(':') {
            Some((a, p)) => a.parse().ok().zip(p.parse().ok()),
            None => text.parse().ok().map(|a| (a, 6653)),
        };
        match parsed {
            Some((addr, port)) => {
                let port = crate::yaml::decode::Located::new(port, node.span);
                use crate::spec::bounds::Bounded;
                let ok = port.within(cx, "controller", node.span, &crate::spec::bounds::TCP_PORT);
                ok.then_some(Controller {
                    addr,
                    port: port.value,
                })
            }
            None => {
                cx.invalid(
                    node.span,
                    format!("`{text}` is not a controller address"),
                    "write `ip:port`, for example `10.16.0.10:6653`",
                );
                None
            }
        }
    }
}

impl schemars::JsonSchema for Controller {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Controller".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "string", "pattern": "^[0-9]{1,3}(\\.[0-9]{1,3}){3}(:[0-9]{1,5})?$" })
    }
}
