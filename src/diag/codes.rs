//! Every diagnostic code democ can emit, with its default severity and the text
//! `democ explain CODE` prints. Codes are stable: never renumber, only add.

use super::Severity;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Code {
    pub(crate) id: &'static str,
    pub(crate) name: &'static str,
    severity: Severity,
    pub(crate) explain: &'static str,
}

impl Code {
    pub(crate) fn severity(self) -> Severity {
        self.severity
    }
}

macro_rules! codes {
    ($($konst:ident = $id:literal $name:literal $sev:ident $explain:literal;)*) => {
        $(pub(crate) const $konst: Code = Code { id: $id, name: $name, severity: Severity::$sev, explain: $explain };)*
        /// All codes, in numeric order.
        pub(crate) const ALL: &[Code] = &[$($konst),*];
    };
}

codes! {
    // ---- input: files and YAML -------------------------------------------------------
    IO = "E0001" "io" Error
        "A file the spec names (the spec itself, an include or a catalog file) could not be read.";
    YAML_SYNTAX = "E0002" "yaml-syntax" Error
        "The text is not valid YAML: an unclosed bracket or quote, a tab used for indentation, a key \
         without a value, bad indentation. The location points at where the YAML parser gave up.";
    DUPLICATE_KEY = "E0003" "duplicate-key" Error
        "The same key appears twice in one mapping. YAML parsers disagree on which one wins, so \
         democ refuses both. Remove one of them.";
    WRONG_TYPE = "E0004" "wrong-type" Error
        "A value has the wrong shape: a list where a mapping is expected, text where a number is \
         expected, and so on.";
    UNKNOWN_FIELD = "E0005" "unknown-field" Error
        "A key is not part of the spec format at this place. This is usually a typo; the help line \
         names the closest known field. `democ schema` prints every field.";
    MISSING_FIELD = "E0006" "missing-field" Error
        "A required key is absent.";
    INVALID_VALUE = "E0007" "invalid-value" Error
        "A value has the right type but is not allowed: an unknown keyword, a malformed rate or \
         length, an address that does not parse, a negative or zero quantity.";
    INCLUDE_CYCLE = "E0008" "include-cycle" Error
        "A file includes itself, directly or through other files.";
    LIMIT = "E0009" "limit-exceeded" Error
        "The input is beyond one of democ's safety limits (file size, YAML nesting depth, alias \
         expansion, number or depth of includes, size of a name range). The limits exist so that \
         a malformed or hostile spec cannot make democ hang or exhaust memory.";
    BAD_NAME = "E0010" "invalid-name" Error
        "Names of sites, switches, hosts, links, flows and fabrics end up in device configs and \
         shell scripts, so they are restricted to letters, digits, `-`, `_` and `.`, starting \
         with a letter or digit, at most 63 characters.";
    BAD_ENCODING = "E0011" "encoding" Error
        "A spec file must be UTF-8 text. A UTF-8 byte-order mark is accepted and ignored; other \
         encodings (UTF-16, Latin-1 bytes) are refused.";
    // ---- references and names -------------------------------------------------------------
    UNKNOWN_REF = "E0101" "unknown-reference" Error
        "A name refers to a site, switch, host, port owner or fabric that is not declared. The \
         help line suggests the closest declared name.";
    DUPLICATE_NAME = "E0102" "duplicate-name" Error
        "Two things of the same namespace share a name. Switches and hosts share one namespace \
         (both are link endpoints), so a switch and a host may not have the same name.";
    UNKNOWN_MODEL = "E0103" "unknown-model" Error
        "A hardware model is not in the catalog. `democ catalog` lists the embedded catalog; add \
         your own entries under `catalog:` in the spec or with `--catalog DIR`.";
    UNKNOWN_PORT = "E0104" "unknown-port" Error
        "A port does not exist on the device's model (or, after breakout, the subport does not \
         exist). Port names follow the model's catalog entry: `1/1`..`1/32` on a 32-port switch, \
         `1/17:1`..`1/17:4` once `1/17` is broken out into four; NIC ports are named in the host.";
    PORT_REUSED = "E0105" "port-reused" Error
        "A port is cabled twice (by two links, or by a link and a WAN connection). Each physical \
         port carries exactly one cable.";
    PORT_SPEED = "E0106" "port-speed" Error
        "A port is asked to run at a speed or breakout mode its model does not support.";
    LINK_SPEED_MISMATCH = "E0107" "link-speed-mismatch" Error
        "The two ends of a link run at different speeds, so the link would not come up.";
    POOL_OVERLAP = "E0108" "pool-overlap" Error
        "Two address pools overlap, so the same address could be handed out twice.";
    POOL_EXHAUSTED = "E0109" "pool-exhausted" Error
        "An address pool is too small for everything that draws from it.";
    ADDRESS_OUTSIDE_POOL = "E0110" "address-outside-pool" Error
        "A static address is outside the pool it belongs to.";
    DUPLICATE_ADDRESS = "E0111" "duplicate-address" Error
        "The same address is given to two interfaces.";
    SELF_LINK = "E0112" "self-link" Error
        "A link or flow has the same endpoint on both sides.";
    CAPABILITY = "E0113" "unsupported" Error
        "The spec asks a device for something its model or OS cannot do (an OS the model does not \
         run, an OpenFlow mode the OS lacks, an MTU above the model's maximum).";
    // ---- feasibility ----------------------------------------------------------------------
    NO_PATH = "E0201" "no-path" Error
        "A flow pair cannot be routed: the hosts are not connected, or an explicit `path:` names \
         switches that are not cabled to each other.";
}

/// Looks a code up by id (`E0101`, case-insensitive) or name (`unknown-reference`).
pub(crate) fn find(query: &str) -> Option<Code> {
    ALL.iter().copied().find(|c| c.id.eq_ignore_ascii_case(query) || c.name == query)
}
