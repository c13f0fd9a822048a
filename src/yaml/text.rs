//! The text of a scalar or key in the located tree. Nearly every one a show spec holds
//! is a short name, keyword or figure (`dtn-288-4`, `protocol`, `400M`): kept inside the
//! value, not in an allocation of its own. The largest synth show's million keys and
//! strings were a million allocations to make on the reading threads and as many to
//! free on the thread that drops the tree. Only std here: build.rs compiles this file
//! too (yaml::packed).

use std::fmt;
use std::ops::Deref;

/// Texts up to this many bytes are kept inline: with the length and the variant's tag
/// the value is as large as a `String`.
const INLINE: usize = 22;

/// An immutable string, inline when short.
#[derive(Clone)]
pub(crate) struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Inline { len: u8, bytes: [u8; INLINE] },
    Heap(Box<str>),
}

impl Text {
    pub(crate) fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => {
                let b = &bytes[..usize::from(*len)];
                // `bytes[..len]` is only ever written from a whole `&str` (in
                // `From<&str>`), so it is valid UTF-8.
                std::str::from_utf8(b).expect("written from a &str")
            }
            Repr::Heap(s) => s,
        }
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        if s.len() <= INLINE {
            let mut bytes = [0; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            // `s.len() <= INLINE` fits a u8.
            Text(Repr::Inline {
                len: s.len() as u8,
                bytes,
            })
        } else {
            Text(Repr::Heap(s.into()))
        }
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        if s.len() <= INLINE {
            Text::from(s.as_str())
        } else {
            Text(Repr::Heap(s.into_boxed_str()))
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::from("")
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_every_text_as_given_inline_or_not() {
        let long = "a-name-longer-than-twenty-two-bytes";
        for s in [
            "",
            "a",
            "dtn-288-4",
            "ü-and-π",
            "exactly-twenty-two-by",
            "exactly-twenty-two-byt",
            long,
        ] {
            let t = Text::from(s);
            assert_eq!(t.as_str(), s);
            let owned = Text::from(s.to_owned());
            assert_eq!(owned.as_str(), s);
            assert_eq!(t.len(), s.len());
            assert_eq!(format!("{t}|{t:?}"), format!("{s}|{s:?}"));
            assert!(t == s && t == owned);
        }
        assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<String>());
        assert!(matches!(Text::from(long).0, Repr::Heap(_)));
        assert!(matches!(
            Text::from("exactly-twenty-two-byt").0,
            Repr::Inline { .. }
        ));
    }
}
