//! `spec_struct!` declares a spec type once and derives both its JSON Schema and its
//! located decoder from the same field list, so the schema and the parser cannot drift.
//! Fields are `req` (must be present) or `opt` (an `Option`).

macro_rules! spec_struct {
    (
        $(#[$m:meta])*
        pub struct $name:ident ($what:literal) {
            $( $(#[$fm:meta])* $field:ident $(as $key:literal)? : $ty:ty = $how:ident ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Clone, Debug, schemars::JsonSchema)]
        #[schemars(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fm])* $(#[schemars(rename = $key)])? pub(crate) $field: $ty ),*
        }

        impl $crate::yaml::decode::Decode for $name {
            fn decode(node: &$crate::yaml::node::Node, cx: &mut $crate::yaml::decode::Cx) -> Option<Self> {
                let mut f = cx.fields(node, $what)?;
                $( let $field = spec_struct!(@get $how, f, cx, spec_struct!(@key $field $($key)?)); )*
                f.finish(cx);
                Some($name { $( $field: spec_struct!(@unwrap $how, $field) ),* })
            }
        }
    };
    (@key $field:ident) => { stringify!($field) };
    (@key $field:ident $key:literal) => { $key };
    (@get req, $f:ident, $cx:ident, $key:expr) => { $f.req($cx, $key) };
    (@get opt, $f:ident, $cx:ident, $key:expr) => { $f.opt($cx, $key) };
    (@unwrap req, $field:ident) => { $field? };
    (@unwrap opt, $field:ident) => { $field };
}
pub(crate) use spec_struct;
