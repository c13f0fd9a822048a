//! `cabling.csv` and `bom.csv` from the IR's cabling (RFC 4180 through the `csv` crate:
//! comma separated, CRLF line ends, a cell quoted when it needs it). Cells are spec text,
//! so they are made inert for spreadsheets: a cell starting with `=`, `+`, `-`, `@`, a
//! tab or a carriage return is a formula to Excel and LibreOffice ("CSV injection"), and
//! gets a leading `'` (OWASP's advice); so is one where such a character follows leading
//! spaces or line breaks, which spreadsheets skip before they look for a formula.
//! Numbers democ writes itself are never negative.

use crate::ir::cabling::{CableEnd, Cabling};

/// One cell's text made inert for spreadsheets (the writer quotes it).
fn inert(s: &str) -> std::borrow::Cow<'_, str> {
    let lead = s.trim_start_matches([' ', '\n']);
    if lead.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{s}").into()
    } else {
        s.into()
    }
}

/// A CSV text of these rows, each cell made inert.
fn table<'a>(rows: impl IntoIterator<Item = Vec<&'a str>>) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .flexible(true)
        .from_writer(Vec::new());
    for r in rows {
        // Writing into memory cannot fail.
        let _ = w.write_record(r.iter().map(|c| inert(c).into_owned()));
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
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
    let cells: Vec<(String, Option<String>)> = c
        .cables
        .iter()
        .map(|k| (num(k.length_m), k.lag.map(|l| l.to_string())))
        .collect();
    let rows = c.cables.iter().zip(&cells).map(|(k, (length, lag))| {
        let mut r = vec![
            k.id.as_str(),
            &k.kind,
            k.wan.as_deref().unwrap_or(""),
            &k.speed,
            &k.media,
            k.fiber.as_deref().unwrap_or(""),
            length,
            lag.as_deref().unwrap_or(""),
        ];
        r.extend(end(&k.a));
        r.extend(end(&k.b));
        r.extend([k.label.as_str(), &k.notes]);
        r
    });
    table(std::iter::once(CABLING_HEAD.to_vec()).chain(rows))
}

/// `bom.csv`: parts per site and in total, with spares.
pub(crate) fn bom(c: &Cabling) -> String {
    let cells: Vec<[String; 4]> = c
        .bom
        .iter()
        .map(|l| {
            [
                num(l.length_m),
                l.quantity.to_string(),
                l.spares.to_string(),
                (l.quantity + l.spares).to_string(),
            ]
        })
        .collect();
    let head = vec![
        "site", "category", "part", "length_m", "quantity", "spares", "order",
    ];
    let rows = c
        .bom
        .iter()
        .zip(&cells)
        .map(|(l, [len, q, s, o])| vec![l.site.as_str(), &l.category, &l.part, len, q, s, o]);
    table(std::iter::once(head).chain(rows))
}

#[cfg(test)]
mod tests {
    /// One cell as the writer puts it in a row of its own.
    fn cell(s: &str) -> String {
        super::table([vec![s]]).trim_end_matches("\r\n").to_owned()
    }

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

/// Rows of a CSV text as this module writes it (quoted cells with doubled quotes,
/// CRLF or LF line ends); a cell keeps the `'` a formula-like value was given. A row
/// that cannot be read (not UTF-8) ends the rows.
pub(crate) fn parse(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .map_while(Result::ok)
        .map(|r| r.iter().map(str::to_owned).collect())
        .collect()
}

#[cfg(test)]
mod read_tests {
    #[test]
    fn what_cell_writes_parse_reads_back() {
        let cells = ["a,b", "say \"hi\"", "two\nlines", "plain", ""];
        let text = super::table([cells.to_vec(), vec!["x", "y"]]);
        let rows = super::parse(&text);
        assert_eq!(rows[0], cells);
        assert_eq!(rows[1], ["x", "y"]);
    }
}
