//! serde_json's pretty printing, started some levels deep: the plan writes its large
//! arrays one element at a time, each straight into the output at its depth, and the
//! bytes must be those `serde_json::to_string_pretty` gives for the whole document.

use std::io::{self, Write};

use serde_json::ser::Formatter;

/// `PrettyFormatter` (two spaces a level) whose first value sits `depth` levels deep.
pub(crate) struct Indented {
    level: usize,
    has_value: bool,
}

impl Indented {
    pub(crate) fn at(depth: usize) -> Indented {
        Indented {
            level: depth,
            has_value: false,
        }
    }

    fn indent<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
        for _ in 0..self.level {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn open<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            w.write_all(b"\n")?;
            self.indent(w)?;
        }
        w.write_all(bracket)
    }

    fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        w.write_all(if first { b"\n" } else { b",\n" })?;
        self.indent(w)
    }
}

impl Formatter for Indented {
    fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _w: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Any value, at any depth, prints as `to_string_pretty` nested that deep: its lines
    /// after the first indented two spaces a level.
    #[test]
    fn prints_as_pretty_nested() {
        let values = [
            serde_json::json!(null),
            serde_json::json!([]),
            serde_json::json!({}),
            serde_json::json!({"a": [], "b": {}, "c": [1, [2, []], {"d": "e\nf"}]}),
            serde_json::json!([{"x": 1.5, "y": [true, false]}, "s", -3]),
        ];
        for v in &values {
            for depth in 0..4 {
                let mut out = Vec::new();
                let mut ser = serde_json::Serializer::with_formatter(&mut out, Indented::at(depth));
                serde::Serialize::serialize(v, &mut ser).unwrap();
                let pad = "  ".repeat(depth);
                let want = serde_json::to_string_pretty(v)
                    .unwrap()
                    .replace('\n', &format!("\n{pad}"));
                assert_eq!(String::from_utf8(out).unwrap(), want, "{v} at {depth}");
            }
        }
    }
}
