use super::*;
use crate::yaml::compare::same;
use crate::yaml::fast::tests::Gen;

/// A document with a long list under a top-level key, entries of many shapes (some on
/// several lines, some outside the fast subset), comments, and keys around it.
fn document(g: &mut Gen) -> String {
    let root = g.pick(&["", "", "", "  "]);
    let mut out = String::new();
    for k in 0..g.below(4) {
        let v = g.pick(&[
            "1",
            "x",
            "{a: 1, b: [2, 3]}",
            "\n  a: 1",
            "[]",
            "yes",
            "\"q\"",
        ]);
        let v = v.replace('\n', &format!("\n{root}"));
        out += &format!("{root}k{k}: {v}\n");
    }
    let col = format!("{root}{}", g.pick(&["  ", "  ", "", "    "]));
    out += &format!("{root}flows:{}\n", g.pick(&["", "", " # c", " [1]"]));
    for i in 0..g.below(40) + 2 {
        let entry = match g.below(64) {
            0 => format!("# note {i}"),
            1 => String::new(),
            2 => format!("a{i}: 1\n{col}  b: 2"),
            3 => format!("- x{i}"),
            4 => format!("{{a: 1, a: {i}}}"),
            5 => "".to_owned(),
            6 => format!("[{i}, b]"),
            7 => format!("\"q{i}\""),
            8 => format!("x{i} # c"),
            9 => format!("\n{col}  - y{i}"),
            10 => format!("{{n: f-{i}}}\n{col} bad: 1"),
            _ => format!("{{ name: f-{i}, from: h-{i}, rate: {i}00M }}"),
        };
        match g.below(64) {
            0 => out += &format!("{entry}\n"),
            1 => out += "\n",
            _ if entry.starts_with('#') || entry.is_empty() => out += &format!("{col}{entry}\n"),
            _ => out += &format!("{col}- {entry}\n"),
        }
    }
    for k in 0..g.below(3) {
        let key = g.pick(&["after", "k0", "flows", "z"]);
        out += &format!("{root}{key}{k}: {}\n", g.pick(&["1", "[a]", "{b: 2}"]));
        if g.below(8) == 0 {
            out += &format!("{root} odd: 1\n");
        }
    }
    out
}

/// Read on two threads, the tree is the one reading of the whole text builds, or there
/// is none (the caller then reads it so); and within a values limit only.
#[test]
fn documents_cut_read_as_one_reading_does() {
    let mut cut_read = 0;
    for seed in 1..=20_000u64 {
        let mut g = Gen(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let text = document(&mut g);
        let mut one = Reader::new(&text, FileId(0), 64, usize::MAX);
        one.document();
        let total = one.nodes;
        for limit in [usize::MAX, total, total.saturating_sub(1)] {
            let Some((two, values)) = read(&text, FileId(0), 64, limit, 2) else {
                continue;
            };
            cut_read += 1;
            // The values counted while reading are the tree's.
            assert_eq!(values, two.count(), "seed {seed}, limit {limit}\n{text}");
            match fast::parse_or_limit(&text, FileId(0), 64, limit) {
                Ok(Some((whole, _))) => {
                    if let Err(e) = same(&two, &whole, "") {
                        panic!("seed {seed}, limit {limit}: {e}\n{text}");
                    }
                }
                other => panic!(
                    "seed {seed}, limit {limit}: read in two, but {:?} in one\n{text}",
                    other.map(|n| n.is_some())
                ),
            }
        }
    }
    assert!(cut_read > 2_000, "{cut_read} read in two");
}

/// The largest synth shows' shape is cut, and reads alike.
#[test]
fn a_synthetic_show_is_cut() {
    use crate::synth::{Params, Shape, generate};
    let text = generate(&Params {
        shape: Shape::Booths,
        switches: 30,
        hosts_per_switch: 4,
        flows: 2000,
        seed: 3,
        eos_only: false,
    });
    let (two, values) = read(&text, FileId(0), 64, usize::MAX, 2).expect("read in two");
    assert_eq!(values, two.count());
    let whole = fast::parse(&text, FileId(0), 64, usize::MAX).expect("read in one");
    same(&two, &whole, "").expect("the same tree");
    let mut one = Reader::new(&text, FileId(0), 64, usize::MAX);
    one.document();
    // One value fewer than it has: not read in two (the one reading says where).
    assert!(read(&text, FileId(0), 64, one.nodes - 1, 2).is_none());
}
