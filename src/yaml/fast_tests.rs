//! The fast path against the full one.
use super::*;
use crate::yaml::compare::same;
use crate::yaml::tree::parse_tree;

fn yaml_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            yaml_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "yaml" || x == "yml" || x == "lock")
        {
            out.push(p);
        }
    }
}

/// The fast path builds exactly the tree the serde-saphyr path builds, for every
/// YAML file in the repository it accepts, address locks included (and it must accept
/// the examples and their locks, which every run reads), and counts its values.
#[test]
fn fast_and_full_paths_agree() {
    let mut files = Vec::new();
    for d in [
        "examples",
        "catalog",
        "tests/bad",
        "tests/fixtures",
        "templates",
    ] {
        yaml_files(std::path::Path::new(d), &mut files);
    }
    files.sort();
    assert!(files.len() > 50, "found {}", files.len());
    let mut accepted = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        let Ok(Some((fast, values))) = parse_or_limit(text, FileId(0), 64, usize::MAX) else {
            continue;
        };
        assert_eq!(values, fast.count(), "{}", f.display());
        let full =
            parse_tree(text, FileId(0), serde_saphyr::Options::default()).unwrap_or_else(|e| {
                panic!(
                    "{}: the fast path accepted what serde-saphyr refuses: {e}",
                    f.display()
                )
            });
        if let Err(e) = same(&fast, &full, "") {
            panic!("{}: {e}", f.display());
        }
        accepted += 1;
    }
    for f in files.iter().filter(|f| f.starts_with("examples")) {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        assert!(
            parse(&text, FileId(0), 64, usize::MAX).is_some(),
            "{} should take the fast path",
            f.display()
        );
    }
    assert!(accepted > 20, "only {accepted} files took the fast path");
}

#[test]
fn ambiguous_scalars_take_the_full_path() {
    for t in [
        "a: yes",
        "a: off",
        "a: 0x10",
        "a: 012",
        "a: 1e3",
        "a: ~",
        "a: null",
        "a: &x 1",
        "a: !!str 1",
        "a: 1\na: 2",
        "a: .inf",
        "a: |2\n  x\n",
        "a: >+\n  x\n",
        "a: >\n\n  x\n",
        "a: >\n  x\n   y\n",
        "<<: {a: 1}",
        "b: 1\n'<<': {a: 1}",
        "# only a comment",
        "a: 1\nb:\n",
        "a: b\n  c\n",
        "a: x\r\n",
        "a:\tx",
        "- - x",
        "a: [1,]",
        "a: [1,\n  2]",
        "a: \"x\\ny\"",
        "-0: a\n0: b",
    ] {
        assert!(parse(t, FileId(0), 64, usize::MAX).is_none(), "{t}");
    }
    assert!(parse("a: [1, -2, 3.5, x, \"y\", true]", FileId(0), 64, usize::MAX).is_some());
}

/// Block scalars the fast path reads build the full path's tree, spans included;
/// the rest go to the full path.
#[test]
fn block_scalars_agree_with_the_full_path() {
    let mut taken = 0;
    for t in [
        "a: >-\n  one two\n  three\nb: 1\n",
        "a: >\n  one\n  two\n",
        "a: |\n  one\n  two\n",
        "a: |-\n  one\n  two\nb: x\n",
        "a: >-\n  one\n\n  two\n\n\nb: 1\n",
        "a: |\n  one\n\n  two\n\n",
        "a: > # why\n  one # not a comment\n  two\n# a comment\nb: 1\n",
        "m:\n  s: >-\n    x\n    y\n  t: 2\nn: 3\n",
        "m:\n  s: >-\n    x\n   # c\n  t: 2\n",
        "a: >-\n  x\n",
        "a: >-\n  x",
        "a: |\n  x\n  y ",
        "a: >\n  x",
        "a: |\n  x\n  \n  y\n",
        "a: >-\nb: 1\n",
        "a: >-x\n  y\n",
        "- a: >-\n    x\n  b: 1\n",
    ] {
        if let Some(fast) = parse(t, FileId(0), 64, usize::MAX) {
            let full = parse_tree(t, FileId(0), serde_saphyr::Options::default())
                .unwrap_or_else(|e| panic!("{t:?}: the full path refuses it: {e}"));
            if let Err(e) = same(&fast, &full, "") {
                panic!("{t:?}: {e}");
            }
            taken += 1;
        }
    }
    assert!(taken >= 10, "only {taken} took the fast path");
}

/// The embedded catalog takes the fast path (a planner's every run reads it).
#[test]
fn the_catalog_takes_the_fast_path() {
    for (name, text) in crate::catalog::EMBEDDED {
        assert!(
            parse(text, FileId(0), 64, usize::MAX).is_some(),
            "{name} should take the fast path"
        );
    }
}

/// The synthetic shows the benchmarks read take the fast path, to the same tree.
#[test]
fn synthetic_shows_take_the_fast_path() {
    use crate::synth::{Params, Shape, generate};
    for shape in [Shape::Ring, Shape::LeafSpine, Shape::Booths] {
        let text = generate(&Params {
            shape,
            switches: 24,
            hosts_per_switch: 3,
            flows: 40,
            seed: 7,
            eos_only: false,
        });
        let fast = parse(&text, FileId(0), 64, usize::MAX).expect("takes the fast path");
        let full = parse_tree(&text, FileId(0), serde_saphyr::Options::default()).expect("reads");
        if let Err(e) = same(&fast, &full, "") {
            panic!("{shape:?}: {e}");
        }
    }
}

/// Deterministic document generator (xorshift), so a failure names its seed.
pub(crate) struct Gen(pub(crate) u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, pct: u64) -> bool {
        self.next() % 100 < pct
    }
    pub(crate) fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

/// Scalars a show spec holds.
const WORDS: &[&str] = &[
    "a",
    "sw-1",
    "b c",
    "1",
    "-2",
    "3.5",
    "100G",
    "4x25G",
    "10.0.0.0/9",
    "1/1",
    "dtn-[1-4]",
    "p0",
    "a:b",
    "x.y.z",
    "\"q\"",
    "'s'",
    "\"a b: c\"",
    "'#'",
    "'a\\\\b'",
    "é",
    "true",
    "false",
    "-x",
    "a,b",
    "a]b",
    "a}b",
    "0",
    "-0",
    "\"\"",
    "''",
];

/// Spellings at the edges of the subset.
const EDGES: &[&str] = &[
    "007",
    "0x1F",
    "1e3",
    "yes",
    "no",
    "~",
    "null",
    "a#b",
    "?x",
    ":x",
    "&x a",
    "*x",
    "!!str 1",
    "|",
    ">",
    "%x",
    "@x",
    "`x",
    "x: y",
    "\"a\\\"b\"",
    "'it''s'",
    "-",
    "- x",
    "\"un",
    "a\tb",
    "a ",
    "[",
    "]",
    "{",
    "}",
    ".inf",
    "1_000",
    "+1",
    "1.",
    ".5",
    "9223372036854775808",
    "",
    "x:",
    "a #b",
    "[a]",
    "{a: 1}",
    "<<",
];

fn word<'a>(g: &mut Gen) -> &'a str {
    if g.chance(8) {
        g.pick(EDGES)
    } else {
        g.pick(WORDS)
    }
}

const SEPS: &[&str] = &[", ", ",", " , ", ",  ", ", \n  "];

fn flow(g: &mut Gen, depth: usize, out: &mut String) {
    let map = g.chance(50);
    out.push(if map { '{' } else { '[' });
    if g.chance(20) {
        out.push(' ');
    }
    let n = g.below(4);
    for i in 0..n {
        if i > 0 {
            out.push_str(g.pick(SEPS));
        }
        if map {
            out.push_str(word(g));
            out.push_str(g.pick(&[": ", ":", ":  ", " : "]));
        }
        inline(g, depth + 1, out);
    }
    if n > 0 && g.chance(10) {
        out.push(',');
    }
    if g.chance(20) {
        out.push(' ');
    }
    out.push(if map { '}' } else { ']' });
}

fn inline(g: &mut Gen, depth: usize, out: &mut String) {
    if depth < 3 && g.chance(25) {
        flow(g, depth, out);
    } else {
        out.push_str(word(g));
    }
}

fn line_end(g: &mut Gen, out: &mut String) {
    out.push_str(g.pick(&["", "", "", " ", " # c", "# c", "  #c"]));
    out.push('\n');
    if g.chance(10) {
        out.push_str(g.pick(&["\n", "# note\n", "  # note\n", "   \n"]));
    }
}

/// Indentation, sometimes off by one.
fn indent(g: &mut Gen, n: usize, out: &mut String) {
    let n = match g.below(40) {
        0 => n + 1,
        1 => n.saturating_sub(1),
        _ => n,
    };
    out.extend(std::iter::repeat_n(' ', n));
}

/// What follows a key's `:` or a `-`.
fn value(g: &mut Gen, col: usize, depth: usize, out: &mut String) {
    match g.below(10) {
        0..=5 => {
            out.push(' ');
            inline(g, depth, out);
            line_end(g, out);
        }
        6 if depth < 4 => {
            line_end(g, out);
            let c = col + g.pick(&["  ", "  ", " ", "    "]).len();
            indent(g, c, out);
            map(g, c, depth + 1, out);
        }
        7 if depth < 4 => {
            line_end(g, out);
            // An indented sequence, or one at the key's own indentation.
            let c = if g.chance(50) { col } else { col + 2 };
            seq(g, c, depth + 1, out);
        }
        _ => line_end(g, out),
    }
}

fn map(g: &mut Gen, col: usize, depth: usize, out: &mut String) {
    for i in 0..1 + g.below(3) {
        if i > 0 {
            indent(g, col, out);
        }
        out.push_str(word(g));
        out.push(':');
        value(g, col, depth, out);
    }
}

fn seq(g: &mut Gen, col: usize, depth: usize, out: &mut String) {
    for _ in 0..1 + g.below(3) {
        indent(g, col, out);
        out.push('-');
        if g.chance(40) && depth < 4 {
            // A compact mapping: its first key on the `-` line.
            let pad = g.pick(&[" ", " ", "  ", "   "]);
            out.push_str(pad);
            map(g, col + 1 + pad.len(), depth + 1, out);
        } else {
            value(g, col, depth, out);
        }
    }
}

fn document(g: &mut Gen) -> String {
    let mut out = String::new();
    if g.chance(20) {
        out.push_str(g.pick(&["# head\n", "\n", "---\n", "%YAML 1.2\n---\n", "  # x\n"]));
    }
    match g.below(10) {
        0 => {
            flow(g, 0, &mut out);
            line_end(g, &mut out);
        }
        1 => seq(g, 0, 0, &mut out),
        2 => {
            out.push_str("  ");
            map(g, 2, 0, &mut out);
        }
        _ => map(g, 0, 0, &mut out),
    }
    if g.chance(5) {
        out = out.replace('\n', "\r\n");
    }
    if g.chance(5) {
        out.push_str(g.pick(&["...\n", "---\nb: 1\n", "x\n", "  y: 1\n"]));
    }
    out
}

/// Whatever the fast path accepts, the full path reads to the same tree: checked on
/// generated documents mixing the subset with what lies just outside it. The values
/// counted while reading are the tree's.
#[test]
fn generated_documents_read_alike() {
    let (mut accepted, mut refused) = (0, 0);
    for seed in 1..=100_000u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let text = document(&mut g);
        let Ok(Some((fast, values))) = parse_or_limit(&text, FileId(0), 64, usize::MAX) else {
            refused += 1;
            continue;
        };
        assert_eq!(values, fast.count(), "seed {seed}:\n{text}");
        accepted += 1;
        let full =
            parse_tree(&text, FileId(0), serde_saphyr::Options::default()).unwrap_or_else(|e| {
                panic!("seed {seed}: fast path accepted what serde-saphyr refuses ({e}):\n{text}")
            });
        if let Err(e) = same(&fast, &full, "") {
            panic!("seed {seed}: {e}\n{text}");
        }
    }
    // Both sides of the subset's edge are exercised.
    assert!(
        accepted > 12_000 && refused > 12_000,
        "{accepted} accepted, {refused} refused"
    );
}

/// The counting pass (`dry` and `bare`) against the counting pass as it was before it
/// read scalars bare (`dry` only, every scalar built): the same outcome, values counted,
/// stopping place and limit breach, for generated documents and every limit up to
/// their size.
#[test]
fn bare_counting_stops_where_building_does() {
    let run = |text: &str, limit: usize, bare: bool| {
        let mut r = Reader::new(text, FileId(0), 64, limit);
        r.dry = true;
        r.bare = bare;
        let done = r.document().is_some();
        (done, r.nodes, r.pos, r.breach)
    };
    let mut breaches = 0;
    for seed in 1..=20_000u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut text = document(&mut g);
        if seed % 7 == 0 {
            text.push_str(g.pick(&["\"<<\": 1\n", "'<<': 1\n", "x: {<<: 1}\n"]));
        }
        let (_, total, _, _) = run(&text, usize::MAX, false);
        for limit in 0..=total + 1 {
            let built = run(&text, limit, false);
            assert_eq!(
                run(&text, limit, true),
                built,
                "seed {seed}, limit {limit}:\n{text}"
            );
            breaches += usize::from(built.3.is_some());
        }
    }
    assert!(breaches > 10_000, "{breaches} breaches");
}

/// The count that lets a long text skip the counting pass is never below what the
/// reader counts, on documents it takes and on those it gives up on.
#[test]
fn most_values_bounds_the_count() {
    for seed in 1..=20_000u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut text = document(&mut g);
        if seed % 3 == 0 {
            text.push_str(g.pick(&["a b\n", "x: [1, 2\n", "- y\n", "'q' r: 1\n", "k: {a b}\n"]));
        }
        let mut r = Reader::new(&text, FileId(0), 64, usize::MAX);
        r.dry = true;
        r.bare = true;
        r.document();
        let most = most_values(text.as_bytes());
        assert!(
            r.nodes <= most,
            "seed {seed}: {} > {most}:\n{text}",
            r.nodes
        );
    }
}

/// A text longer than the values limit: what stops the fast path before the limit
/// decides, whatever follows it. Past the limit, nothing else matters: the file is
/// refused there (a duplicate key is only looked for when the values are kept).
#[test]
fn the_limit_against_what_else_sends_a_file_to_the_full_path() {
    let limit = |text: &str, max: usize| parse_or_limit(text, FileId(0), 64, max);
    let nine = "b: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n";
    // Before the limit (8 values up to the `[`).
    for (before, refused) in [
        ("a: {x: 1, x: 2}\n", true),
        ("a: {<<: 1}\n", false),
        ("a: {\"<<\": 1}\n", false),
        ("a: {'<<': 1}\n", false),
        ("a: {x: yes}\n", false),
    ] {
        let text = format!("{before}{nine}");
        let want = if refused {
            Err(text.find('[').expect("a ["))
        } else {
            Ok(false)
        };
        assert_eq!(limit(&text, 8).map(|n| n.is_some()), want, "{text}");
    }
    // After the limit (5 values up to the end of `3`).
    for after in ["a: {x: 1, x: 2}\n", "a: {<<: 1}\n", "a: yes\n", "a: [1\n"] {
        let text = format!("{nine}{after}");
        let at = text.find("3,").expect("a 3") + 1;
        assert_eq!(limit(&text, 5).map(|n| n.is_some()), Err(at), "{text}");
    }
    // A numeric key is counted, not refused, while counting.
    let text = "1: [a, b, c, d, e, f]\n";
    assert_eq!(limit(text, 4).map(|n| n.is_some()), Err(8));
    // Longer than the limit but within it in values: the keeping pass decides, and
    // builds the tree with its texts.
    assert_eq!(
        limit("a: {x: 1, x: 2}\n", 8).map(|n| n.is_some()),
        Ok(false)
    );
    let text = "a: {x: 1, \"y\": b}\n";
    let (tree, values) = limit(text, 8).expect("within").expect("taken");
    assert_eq!(values, tree.count());
    let full = parse(text, FileId(0), 64, usize::MAX).expect("taken");
    assert!(same(&tree, &full, "").is_ok());
    let Kind::Map(top) = &tree.kind else {
        panic!("a map")
    };
    let Kind::Map(inner) = &top[0].1.kind else {
        panic!("a map")
    };
    let names: Vec<&str> = inner.iter().map(|(k, _)| k.name.as_str()).collect();
    assert_eq!(names, ["x", "y"]);
    assert!(matches!(&inner[1].1.kind, Kind::Str(s) if s == "b"));
}
