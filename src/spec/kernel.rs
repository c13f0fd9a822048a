//! A host's Linux kernel version (`kernel: "6.8"`): what host tuning and the prediction
//! may use depends on it (BIG TCP, the per-stream gains of newer kernels).

use crate::yaml::decode::{Decode, DecodeContext, text};
use crate::yaml::node::Node;

/// A kernel release, major and minor; the rest of a release string (`6.8.0-45-generic`)
/// does not change what democ uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Kernel {
    pub(crate) major: u32,
    pub(crate) minor: u32,
}

impl Kernel {
    /// `MAJOR.MINOR`, optionally followed by `.PATCH` and a `-` suffix (what `uname -r`
    /// prints); None for anything else.
    pub(crate) fn parse(s: &str) -> Option<Kernel> {
        let release = s.split_once('-').map_or(s, |(r, _)| r);
        let mut parts = release.split('.');
        let number = |p: Option<&str>| -> Option<u32> {
            let p = p?;
            (!p.is_empty() && p.len() <= 4 && p.bytes().all(|b| b.is_ascii_digit()))
                .then(|| p.parse().ok())
                .flatten()
        };
        let major = number(parts.next())?;
        let minor = number(parts.next())?;
        if let Some(patch) = parts.next() {
            number(Some(patch))?;
        }
        (parts.next().is_none() && major > 0).then_some(Kernel { major, minor })
    }
}

impl Kernel {
    /// Whether this release is `[major, minor]` or later.
    pub(crate) fn at_least(self, [major, minor]: [u32; 2]) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl std::fmt::Display for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

impl Decode for Kernel {
    fn decode(node: &Node, cx: &mut DecodeContext) -> Option<Kernel> {
        let t = text(node, cx)?;
        let k = Kernel::parse(&t);
        if k.is_none() {
            cx.invalid(
                node.span,
                format!("`{t}` is not a Linux kernel release"),
                "write the release `uname -r` prints, or its major and minor: `\"6.8\"`, `\"5.15.0-105-generic\"`",
            );
        }
        k
    }
}

impl schemars::JsonSchema for Kernel {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Kernel".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": ["string", "number"],
            "pattern": "^[1-9][0-9]{0,3}\\.[0-9]{1,4}(\\.[0-9]{1,4})?(-.*)?$",
            "description": "Linux kernel release: `\"6.8\"` or what `uname -r` prints"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Kernel;

    #[test]
    fn releases_parse_to_major_and_minor() {
        let k = |s| Kernel::parse(s).map(|k| (k.major, k.minor));
        assert_eq!(k("6.8"), Some((6, 8)));
        assert_eq!(k("6.10"), Some((6, 10)));
        assert_eq!(k("5.15.0-105-generic"), Some((5, 15)));
        assert_eq!(k("6.18.44-fc-v669"), Some((6, 18)));
        for bad in [
            "",
            "6",
            "six.eight",
            "6.x",
            "6.8.1.2",
            "0.1",
            "6..8",
            "-6.8",
        ] {
            assert_eq!(k(bad), None, "{bad}");
        }
        assert!(Kernel::parse("6.8").unwrap() > Kernel::parse("5.19").unwrap());
    }
}
