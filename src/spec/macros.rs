//! `spec_struct!` declares a spec type once and derives both its JSON Schema and its
//! located decoder from the same field list, so the schema and the parser cannot drift.
//! Fields are `req` (must be present) or `opt` (an `Option`). `opt in BOUND` also checks
//! the value (a number or a list of numbers) against `crate::spec::bounds::BOUND` and
//! gives the schema its minimum and maximum (on the items, for a list).

macro_rules! spec_struct {
    (
        $(#[$m:meta])*
        pub struct $name:ident ($what:literal) {
            $( $(#[$fm:meta])* $field:ident $(as $key:literal)? : $ty:ty = $how:ident $(in $bound:ident)? ),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Clone, Debug, schemars::JsonSchema)]
        #[schemars(deny_unknown_fields)]
        pub struct $name {
            $( $(#[$fm])* $(#[schemars(rename = $key)])? $(#[schemars(
                range(min = $crate::spec::bounds::$bound.min_json(), max = $crate::spec::bounds::$bound.max_json()),
                inner(range(min = $crate::spec::bounds::$bound.min_json(), max = $crate::spec::bounds::$bound.max_json())),
            )])? pub(crate) $field: $ty ),*
        }

        impl $crate::yaml::decode::Decode for $name {
            fn decode(node: &$crate::yaml::node::Node, cx: &mut $crate::yaml::decode::DecodeContext) -> Option<Self> {
                let mut f = cx.fields(node, $what)?;
                $(
                    let _key = spec_struct!(@key $field $($key)?);
                    let $field = spec_struct!(@get $how, f, cx, _key);
                    $( let $field = $crate::spec::bounds::keep($field, cx, _key, f.span_of(_key), &$crate::spec::bounds::$bound); )?
                )*
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
