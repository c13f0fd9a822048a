//! The cabling plan and bill of materials of sc16 (issue 12 §2): `cabling.csv` has a
//! row per link of the spec, and `bom.csv` counts every optic plugged in (what the IR
//! records per switch port, plus the hosts' ends) and every copper cable.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// A minimal RFC 4180 reader (quoted cells, doubled quotes, CRLF).
fn parse(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let (mut row, mut cell, mut quoted) = (Vec::new(), String::new(), false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                cell.push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => row.push(std::mem::take(&mut cell)),
            ('\r', false) => {}
            ('\n', false) => {
                row.push(std::mem::take(&mut cell));
                rows.push(std::mem::take(&mut row));
            }
            _ => cell.push(c),
        }
    }
    rows
}

fn table(text: &str) -> Vec<BTreeMap<String, String>> {
    let rows = parse(text);
    let head = rows[0].clone();
    rows[1..]
        .iter()
        .map(|r| {
            assert_eq!(r.len(), head.len(), "{r:?}");
            head.iter().cloned().zip(r.iter().cloned()).collect()
        })
        .collect()
}

fn democ(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_democ"))
        .args(args)
        .output()
        .expect("democ runs")
}

#[test]
fn sc16_cabling_and_bom_sum_to_the_spec() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sc16");
    let b = democ(&[
        "build",
        "examples/sc16/show.yaml",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let cabling = std::fs::read_to_string(out.join("cabling.csv")).unwrap();
    let bom = table(&std::fs::read_to_string(out.join("bom.csv")).unwrap());
    let cables = table(&cabling);

    // One row per link: `check` counts the spec's links (LAN and WAN, ranges expanded).
    let c = democ(&["check", "examples/sc16/show.yaml"]);
    let ok = String::from_utf8_lossy(&c.stderr);
    let links: usize = ok
        .lines()
        .find(|l| l.starts_with("ok: "))
        .unwrap_or_else(|| panic!("{ok}"))
        .split(" links")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{ok}"));
    let ids: BTreeSet<&String> = cables.iter().map(|c| &c["id"]).collect();
    assert_eq!(ids.len(), cables.len(), "ids are unique");
    // Management patches come last, one per management port (issue 34): the data
    // cables keep their ids.
    let (mgmt, cables): (Vec<_>, Vec<_>) = cables.into_iter().partition(|c| c["kind"] == "mgmt");
    assert_eq!(cables.len(), links, "{cabling}");

    // Optics: the IR says which optic sits in which switch port; hosts' ends come from
    // the cabling plan. A breakout's lanes share their parent port's optic.
    let ir = democ(&["ir", "examples/sc16/show.yaml"]);
    let ir: serde_json::Value = serde_json::from_slice(&ir.stdout).unwrap();
    let mut want: BTreeMap<String, u32> = BTreeMap::new();
    let mut parents = BTreeSet::new();
    for sw in ir["switches"].as_array().unwrap() {
        for i in sw["interfaces"].as_array().unwrap() {
            if let Some(o) = i["optic"].as_str() {
                let port = i["parent"].as_str().unwrap_or(i["port"].as_str().unwrap());
                if parents.insert((sw["hostname"].to_string(), port.to_owned())) {
                    *want.entry(o.to_owned()).or_default() += 1;
                }
            }
        }
    }
    let switches: BTreeSet<String> = ir["switches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["hostname"].as_str().unwrap().to_owned())
        .collect();
    for c in &cables {
        for end in ["a", "b"] {
            let optic = &c[&format!("{end}_optic")];
            if !optic.is_empty() && !switches.contains(&c[&format!("{end}_device")]) {
                *want.entry(optic.clone()).or_default() += 1;
            }
        }
    }
    // Every OTN hand-off has an optic at both ends, in the switch port and in the
    // transponder's client port: sc16's 20 names none, so both are the catalog's
    // default client optic, in the plan and in the BOM (issue 34).
    let hand_offs: Vec<_> = cables.iter().filter(|c| c["kind"] == "otn").collect();
    assert_eq!(hand_offs.len(), 20);
    for c in &hand_offs {
        for end in ["a", "b"] {
            assert_eq!(c[&format!("{end}_optic")], "100gbase-lr4", "{c:?}");
            *want.entry("100gbase-lr4".to_owned()).or_default() += 2;
        }
    }
    assert!(!want.is_empty(), "sc16 has optics");
    let total = |category: &str| -> BTreeMap<String, u32> {
        let mut m = BTreeMap::new();
        for l in bom
            .iter()
            .filter(|l| l["site"] == "total" && l["category"] == category)
        {
            *m.entry(l["part"].clone()).or_default() += l["quantity"].parse::<u32>().unwrap();
        }
        m
    };
    assert_eq!(total("optic"), want);
    // Per site lines add up to the totals, and spares are 10 % rounded up per line.
    let mut per_site: BTreeMap<(String, String, String), u32> = BTreeMap::new();
    for l in &bom {
        let q: u32 = l["quantity"].parse().unwrap();
        let s: u32 = l["spares"].parse().unwrap();
        if l["site"] != "total" {
            assert_eq!(s, (q * 10).div_ceil(100), "{l:?}");
        }
        assert_eq!(l["order"].parse::<u32>().unwrap(), q + s);
        let key = (
            l["category"].clone(),
            l["part"].clone(),
            l["length_m"].clone(),
        );
        if l["site"] != "total" {
            *per_site.entry(key).or_default() += q;
        } else {
            assert_eq!(per_site.get(&key), Some(&q), "{l:?}");
        }
    }
    // Copper: a DAC per plain DAC link, one breakout cable per split parent port.
    let dac_links = cables
        .iter()
        .filter(|c| c["media"] == "dac" && c["a_subport"].is_empty() && c["b_subport"].is_empty())
        .count() as u32;
    assert_eq!(total("dac").values().sum::<u32>(), dac_links);
    let split: BTreeSet<(String, String)> = cables
        .iter()
        .filter(|c| c["media"] == "dac")
        .flat_map(|c| {
            ["a", "b"]
                .into_iter()
                .filter(move |e| !c[&format!("{e}_subport")].is_empty())
                .map(move |e| {
                    (
                        c[&format!("{e}_device")].clone(),
                        c[&format!("{e}_port")].clone(),
                    )
                })
        })
        .collect();
    assert_eq!(
        total("breakout-cable").values().sum::<u32>(),
        split.len() as u32
    );
    // A copper patch per management port: every switch with a management address and
    // the controller's host (`mgmt:`), each to its site's management switch.
    let mut managed: BTreeSet<String> = ir["switches"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| !s["management"].is_null())
        .map(|s| s["hostname"].as_str().unwrap().to_owned())
        .collect();
    managed.insert("cit-odl".into());
    let patched: BTreeSet<String> = mgmt.iter().map(|c| c["a_device"].clone()).collect();
    assert_eq!(patched, managed);
    assert_eq!(mgmt.len(), managed.len());
    for c in &mgmt {
        assert_eq!(
            (c["a_port"].as_str(), c["media"].as_str()),
            ("mgmt", "copper"),
            "{c:?}"
        );
        assert_eq!(
            c["b_device"],
            format!("{}-mgmt-switch", c["a_site"]),
            "{c:?}"
        );
    }
    assert_eq!(
        total("copper-patch"),
        BTreeMap::from([(
            "copper patch cord (RJ45, Cat6)".to_owned(),
            managed.len() as u32
        )])
    );
}

#[test]
fn csv_cells_cannot_inject_formulas() {
    let spec = std::fs::read_to_string("tests/fixtures/infeasible/show.yaml")
        .unwrap()
        .replace("BIG", "10G")
        .replace("EXPECT", "")
        .replace(
            "ALLOW",
            ", description: \"=HYPERLINK(\\\"http://x\\\",\\\"a,b\\\")\"",
        );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("show.yaml"), spec).unwrap();
    let b = Command::new(env!("CARGO_BIN_EXE_democ"))
        .current_dir(dir.path())
        .args(["build", "show.yaml", "-o", "out"])
        .output()
        .unwrap();
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let text = std::fs::read_to_string(dir.path().join("out/cabling.csv")).unwrap();
    let rows = parse(&text);
    let notes = rows
        .iter()
        .map(|r| r.last().unwrap())
        .find(|n| n.contains("HYPERLINK"))
        .unwrap();
    // Inside the notes, after other text, or neutralised with a quote: never a cell
    // starting with `=`.
    for r in &rows {
        for c in r {
            assert!(!c.starts_with(['=', '+', '-', '@']), "{c:?}");
        }
    }
    assert!(
        notes.contains("=HYPERLINK(\"http://x\",\"a,b\")"),
        "{notes}"
    );
}

#[test]
fn otn_client_runs_are_cabled_and_ordered() {
    // Two OTN members, each with a client run at both ends: an LR4 run of 300 m in the
    // booth (the WAN's `optic:`), an SR4 run of 40 m at the point of presence. Each run is
    // a cabling row from the switch port to the transponder's client port, and the bill
    // of materials orders the transponder's optic and the patch cord of every run.
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("otnc.yaml");
    std::fs::write(
        &spec,
        r#"
show:
  name: otnc
  addressing: { p2p: 10.255.0.0/24 }
sites:
  booth: { kind: booth }
  pop: { kind: remote }
switches:
  sw1: { site: booth, model: dell-z9100-on }
  sw2: { site: pop, model: dell-z9100-on }
wan:
  - name: chi
    kind: otn
    client: 100GE
    a: "sw1:1/[1-2]"
    b: "sw2:1/[1-2]"
    optic: 100gbase-lr4
    client_a: { length_m: 300, fiber: smf }
    client_b: { optic: 100gbase-sr4, length_m: 40, fiber: mmf }
"#,
    )
    .unwrap();
    let out = dir.path().join("out");
    let b = democ(&["build", spec.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let cables = table(&std::fs::read_to_string(out.join("cabling.csv")).unwrap());
    let runs: Vec<_> = cables
        .iter()
        .filter(|c| c["kind"] == "otn-client")
        .collect();
    let row = |c: &BTreeMap<String, String>| {
        [
            "a_site", "a_device", "a_port", "a_optic", "b_device", "b_port", "b_optic", "fiber",
            "length_m",
        ]
        .map(|k| c[k].clone())
        .join(" ")
    };
    let got: Vec<String> = runs.iter().map(|c| row(c)).collect();
    // The hand-offs keep the ids of their links; the runs come after them.
    let ids: Vec<&str> = runs.iter().map(|c| c["id"].as_str()).collect();
    assert_eq!(ids, ["otnc-003", "otnc-004", "otnc-005", "otnc-006"]);
    assert_eq!(
        got,
        [
            "booth sw1 1/1 100gbase-lr4 chi-transponder-a client-1 100gbase-lr4 smf 300",
            "pop sw2 1/1 100gbase-sr4 chi-transponder-b client-1 100gbase-sr4 mmf 40",
            "booth sw1 1/2 100gbase-lr4 chi-transponder-a client-2 100gbase-lr4 smf 300",
            "pop sw2 1/2 100gbase-sr4 chi-transponder-b client-2 100gbase-sr4 mmf 40",
        ]
    );
    let ids: BTreeSet<&String> = cables.iter().map(|c| &c["id"]).collect();
    assert_eq!(
        ids.len(),
        6,
        "two hand-offs and four runs, each with its own id"
    );

    let bom = table(&std::fs::read_to_string(out.join("bom.csv")).unwrap());
    let lines: BTreeSet<String> = bom
        .iter()
        .filter(|l| l["site"] != "total")
        .map(|l| {
            ["site", "category", "part", "length_m", "quantity"]
                .map(|k| l[k].clone())
                .join(" ")
        })
        .collect();
    let want: BTreeSet<String> = [
        "booth optic 100gbase-lr4  4",
        "booth fiber-patch smf duplex patch cord 300 2",
        "pop optic 100gbase-sr4  4",
        // 100GBASE-SR4 is a parallel optic: MPO-12 cords.
        "pop fiber-patch mmf MPO-12 patch cord 40 2",
    ]
    .map(str::to_owned)
    .into();
    assert_eq!(lines, want);
}

/// The BOM lines of a build of `spec` at site `total`: (category, part, length) ->
/// quantity.
fn totals(spec: &str) -> BTreeMap<(String, String, String), u32> {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let b = democ(&["build", spec, "-o", out.to_str().unwrap(), "--no-lock"]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    table(&std::fs::read_to_string(out.join("bom.csv")).unwrap())
        .into_iter()
        .filter(|l| l["site"] == "total")
        .map(|l| {
            let q = l["quantity"].parse().unwrap();
            (
                (
                    l["category"].clone(),
                    l["part"].clone(),
                    l["length_m"].clone(),
                ),
                q,
            )
        })
        .collect()
}

/// Issue 34: the SN5600's cages split 2x400G hold one twin-port 2 x 400G DR4 module
/// each (`800g-dr8`), and each subport is its own MPO-12 run to its own booth (the
/// second run of a cage is ordered too, no fan-out); a run through patch panels is one
/// cord per segment.
#[test]
fn twin_port_splits_and_segments_are_ordered_run_by_run() {
    let t = totals("examples/sc25-400g/show.yaml");
    let q = |category: &str, part: &str, length: &str| {
        t.get(&(category.to_owned(), part.to_owned(), length.to_owned()))
            .copied()
            .unwrap_or(0)
    };
    // Three split cages (1/1, 1/2, 1/3): three twin-port modules, no 400G QSFP-DD
    // optic and no fan-out in them.
    assert_eq!(q("optic", "800g-dr8", ""), 3, "{t:?}");
    assert!(t.keys().all(|(c, _, _)| c != "breakout-fiber"), "{t:?}");
    // 1/1:1 runs 180 m to Caltech, 1/1:2 220 m to StarLight, 1/2:1 240 m, 1/2:2 160 m:
    // each through 4 connectors, so 5 MPO-12 cords of a fifth of its length.
    for len in ["36", "44", "48", "32"] {
        assert_eq!(
            q("fiber-patch", "smf MPO-12 patch cord", len),
            5,
            "{len} m: {t:?}"
        );
    }
    // The 400G DTNs on 100G-lane cages: a DR4 made for each cage at each end.
    assert_eq!(q("optic", "400gbase-dr4-osfp", ""), 4, "{t:?}");
    assert_eq!(q("optic", "400gbase-dr4-qsfp112", ""), 1, "{t:?}");
    assert_eq!(q("optic", "400gbase-dr4", ""), 10, "{t:?}");
    // sc16's booth-to-booth LAG: 10 runs of 400 m through 4 connectors (a panel at
    // each booth, two in SCinet's distribution) are 50 cords of 80 m, not 10 of 400 m.
    let t16 = totals("examples/sc16/show.yaml");
    let key = |len: &str| {
        (
            "fiber-patch".to_owned(),
            "smf duplex patch cord".to_owned(),
            len.to_owned(),
        )
    };
    assert_eq!(t16.get(&key("80")), Some(&50), "{t16:?}");
    assert_eq!(t16.get(&key("400")), None, "{t16:?}");
}
