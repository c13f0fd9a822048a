//! `cabling.csv` and `bom.csv` from the IR's cabling (RFC 4180: comma separated, CRLF
//! line ends, a cell quoted when it holds a comma, quote or line break). Cells are spec
//! text, so they are made inert for spreadsheets: a cell starting with `=`, `+`, `-`,
//! `@`, a tab or a carriage return is a formula to Excel and LibreOffice ("CSV
//! injection"), and gets a leading `'` (OWASP's advice); so is one where such a character
//! follows leading spaces or line breaks, which spreadsheets skip before they look for a
//! formula. Numbers democ writes itself are never negative.

use std::fmt::Write as _;

use crate::ir::cabling::{CableEnd, Cabling};

/// One cell, neutralised and quoted as needed.
pub(crate) fn cell(s: &str) -> String {
    let lead = s.trim_start_matches([' ', '\n']);
    let s = if lead.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}")
    } else {
        s.to_owned()
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

fn row(out: &mut String, cells: &[&str]) {
    let cells: Vec<String> = cells.iter().map(|c| cell(c)).collect();
    let _ = write!(out, "{}\r\n", cells.join(","));
}

fn num(v: Option<f64>) -> String {
    v.map_or(String::new(), |v| {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    })
}

const CABLING_HEAD: &[&str] = &[
    "id",
    "kind",
    "wan",
    "speed",
    "media",
    "fiber",
    "length_m",
    "lag",
    "a_site",
    "a_booth",
    "a_device",
    "a_port",
    "a_subport",
    "a_optic",
    "b_site",
    "b_booth",
    "b_device",
    "b_port",
    "b_subport",
    "b_optic",
    "label",
    "notes",
];

fn end(e: &CableEnd) -> [&str; 6] {
    [
        &e.site,
        e.booth.as_deref().unwrap_or(""),
        &e.device,
        &e.port,
        e.subport.as_deref().unwrap_or(""),
        e.optic.as_deref().unwrap_or(""),
    ]
}

/// `cabling.csv`: one row per cable, both ends.
pub(crate) fn cabling(c: &Cabling) -> String {
    let mut out = String::new();
    row(&mut out, CABLING_HEAD);
    for k in &c.cables {
        let (length, lag) = (num(k.length_m), k.lag.map(|l| l.to_string()));
        let mut cells = vec![
            k.id.as_str(),
            &k.kind,
            k.wan.as_deref().unwrap_or(""),
            &k.speed,
            &k.media,
            k.fiber.as_deref().unwrap_or(""),
            &length,
            lag.as_deref().unwrap_or(""),
        ];
        cells.extend(end(&k.a));
        cells.extend(end(&k.b));
        cells.extend([k.label.as_str(), &k.notes]);
        row(&mut out, &cells);
    }
    out
}

/// `bom.csv`: parts per site and in total, with spares.
pub(crate) fn bom(c: &Cabling) -> String {
    let mut out = String::new();
    row(
        &mut out,
        &[
            "site", "category", "part", "length_m", "quantity", "spares", "order",
        ],
    );
    for l in &c.bom {
        let (q, s, o) = (
            l.quantity.to_string(),
            l.spares.to_string(),
            (l.quantity + l.spares).to_string(),
        );
        row(
            &mut out,
            &[&l.site, &l.category, &l.part, &num(l.length_m), &q, &s, &o],
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::cell;

    #[test]
    fn cells_are_quoted_and_formulas_neutralised() {
        assert_eq!(cell("plain"), "plain");
        assert_eq!(cell("a,b"), "\"a,b\"");
        assert_eq!(cell("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(cell("two\nlines"), "\"two\nlines\"");
        assert_eq!(cell("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(cell(" =1+1"), "' =1+1");
        assert_eq!(cell("\n=1+1"), "\"'\n=1+1\"");
        assert_eq!(cell("a =1"), "a =1");
        for f in ["+1", "-1+2", "@SUM(A1)", "\tx", "\rx"] {
            assert!(cell(f).trim_start_matches('"').starts_with('\''), "{f}");
        }
    }
}

/// Rows of a CSV text as [`cell`] writes it (RFC 4180: quoted cells with doubled
/// quotes, CRLF or LF line ends); a cell keeps the `'` a formula-like value was given.
pub(crate) fn parse(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut cell) = (Vec::new(), String::new());
    let (mut quoted, mut chars) = (false, text.chars().peekable());
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => cell.push(c),
            (false, '"') => quoted = true,
            (false, ',') => row.push(std::mem::take(&mut cell)),
            (false, '\r') => {}
            (false, '\n') => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            (false, c) => cell.push(c),
        }
    }
    if !cell.is_empty() || !row.is_empty() {
        row.push(cell);
        rows.push(row);
    }
    rows
}

#[cfg(test)]
mod read_tests {
    #[test]
    fn what_cell_writes_parse_reads_back() {
        let cells = ["a,b", "say \"hi\"", "two\nlines", "plain", ""];
        let line: Vec<String> = cells.iter().map(|c| super::cell(c)).collect();
        let text = format!("{}\r\nx,y\r\n", line.join(","));
        let rows = super::parse(&text);
        assert_eq!(rows[0], cells);
        assert_eq!(rows[1], ["x", "y"]);
    }
}
