//! The spec text `democ init` writes: each section with a comment on what it holds and
//! what to change, the next commands at the top.

use std::fmt::Write as _;

use crate::catalog::Catalog;
use crate::spec::units::Rate;

use super::choices::{Choices, WanKind};
use super::layout::{self, Refusal, SitePorts};

/// The spec's address pools (a show's own choice; these are private ranges).
const ADDRESSING: &str = "{ dtn: 10.40.0.0/16, p2p: 10.255.40.0/24, mgmt: 192.168.40.0/24 }";
const MGMT_GATEWAY: &str = "192.168.40.1";

/// A flow asks for this share of the slowest port on its way: headroom a planner keeps.
const FLOW_SHARE: f64 = 0.75;

/// The switch of a site, and the name of its DTN `i` (from 1).
fn switch_of(site: &str) -> String {
    format!("{site}-sw")
}
fn dtn(site: &str, i: u32) -> String {
    format!("{site}-dtn-{i}")
}

/// The link (or WAN) from a site to the first booth: its two ports and speed.
struct Uplink {
    site: usize,
    here: String,
    hub: String,
    speed: Rate,
    say_speed: bool,
    /// The WAN entry's fields after `a:`/`b:` (None: a floor link).
    wan: Option<String>,
}

fn refusal(flag: &'static str, value: &str, message: String, help: String) -> Refusal {
    Refusal {
        flag,
        value: value.to_owned(),
        message,
        help,
    }
}

pub(super) fn text(c: &Choices, db: &Catalog, schema: Option<&str>) -> Result<String, Refusal> {
    let n = usize::try_from(c.dtns).unwrap_or(usize::MAX);
    let mut ports: Vec<SitePorts> = Vec::new();
    for s in &c.sites {
        ports.push(layout::site_ports(s.switch, c.nic.1, n).map_err(|why| {
            refusal(
                "--switch",
                s.model,
                format!(
                    "switch model `{}` cannot take {} `{}` DTN(s) at site `{}`: {why}",
                    s.model, c.dtns, c.nic.0, s.name
                ),
                "a switch model with ports at the NIC's speed (`democ catalog` lists them), fewer `--dtns`, or another `--nic`".to_owned(),
            )
        })?);
    }
    let uplinks = uplinks(c, db, &mut ports)?;
    let slot = layout::slot(c).ok_or_else(|| {
        refusal(
            "--chassis",
            c.chassis.0,
            format!("chassis `{}` has no PCIe slot", c.chassis.0),
            "another chassis (`democ catalog` lists them)".to_owned(),
        )
    })?;

    let mut out = String::new();
    header(&mut out, c, schema);
    sites(&mut out, c);
    switches(&mut out, c, &ports);
    hosts(&mut out, c, slot);
    links(&mut out, c, &ports, &uplinks);
    wan(&mut out, c, &uplinks);
    flows(&mut out, c, &ports, &uplinks);
    Ok(out)
}

fn header(out: &mut String, c: &Choices, schema: Option<&str>) {
    if let Some(s) = schema {
        let _ = writeln!(out, "# yaml-language-server: $schema={s}");
    }
    let _ = writeln!(
        out,
        "# {}: a show spec written by `democ init`. Every model below is a catalog entry
# (`democ catalog NAME` shows its figures and their sources).
#
# Next: `democ check` here checks it (exit 0: clean); `democ plan` predicts what every
# flow reaches and why; `democ build -o out --hosts` writes the switch configs, the
# cabling plan and a script per DTN; `democ report -o report` draws the show.
# docs/tutorial.md walks through all of it, docs/spec.md is the tour of the format.

show:
  name: {}
  defaults: {{ host_mtu: 9000 }}
  addressing: {ADDRESSING}
  management: {{ gateway: {MGMT_GATEWAY} }}   # switches are managed out of band",
        c.name, c.name
    );
}

fn sites(out: &mut String, c: &Choices) {
    out.push_str(
        "\n# Booths on the show floor; remote sites (reached over the WAN) are managed on a\n\
         # network of their own.\nsites:\n",
    );
    let mut remote = 0;
    for s in &c.sites {
        if s.remote {
            remote += 1;
            let _ = writeln!(
                out,
                "  {}: {{ kind: remote, mgmt: {{ subnet: 172.16.{remote}.0/24, gateway: 172.16.{remote}.1 }} }}",
                s.name
            );
        } else {
            let _ = writeln!(out, "  {}: {{ kind: booth }}", s.name);
        }
    }
}

fn switches(out: &mut String, c: &Choices, ports: &[SitePorts]) {
    out.push_str(
        "\n# A switch per site, on the model's first confirmed OS (`democ catalog MODEL` lists\n\
         # the others). DTNs take the first ports, links to other sites the last ones.\nswitches:\n",
    );
    for (s, p) in c.sites.iter().zip(ports) {
        let unconfirmed = s.switch.os_unconfirmed.as_deref().unwrap_or_default();
        let os = s
            .switch
            .os
            .iter()
            .map(|o| o.value)
            .find(|o| !unconfirmed.contains(o))
            .or_else(|| s.switch.os.first().map(|o| o.value));
        let _ = writeln!(out, "  {}:\n    site: {}", switch_of(&s.name), s.name);
        let _ = writeln!(out, "    model: {}", s.model);
        if let Some(os) = os {
            let _ = writeln!(out, "    os: {}", os.as_str());
        }
        if !p.breakouts.is_empty() {
            out.push_str("    ports:\n");
            for (parent, mode) in &p.breakouts {
                let _ = writeln!(out, "      \"{parent}\": {{ breakout: {mode} }}");
            }
        }
    }
}

fn hosts(out: &mut String, c: &Choices, slot: &str) {
    let _ = writeln!(
        out,
        "\n# The DTNs: chassis, CPU and NIC from the catalog; slot \"{slot}\" is the chassis' fastest\n\
         # for the NIC (`democ check` says when a card is beyond its slot).\nhosts:"
    );
    let (cpu, _, guessed) = c.cpu;
    for s in &c.sites {
        let name = if c.dtns == 1 {
            dtn(&s.name, 1)
        } else {
            format!("{}-dtn-[1-{}]", s.name, c.dtns)
        };
        let guess = if guessed {
            "   # democ init's guess for this chassis: write the CPU it has"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "  {name}:\n    site: {}\n    chassis: {}\n    cpu: {cpu}{guess}\n    nics: [{{ model: {}, slot: \"{slot}\", ports: [p0] }}]",
            s.name, c.chassis.0, c.nic.0
        );
    }
}

/// Each site but the first booth reaches it: booths over a floor link, remote sites over
/// the WAN.
fn uplinks(c: &Choices, db: &Catalog, ports: &mut [SitePorts]) -> Result<Vec<Uplink>, Refusal> {
    let mut out = Vec::new();
    let no_port = |site: &str| {
        refusal(
            "--dtns",
            &c.dtns.to_string(),
            format!("the switch at `{site}` has no port left for a link to another site"),
            "fewer `--dtns`, or fewer sites".to_owned(),
        )
    };
    for i in 1..c.sites.len() {
        let (hub_ports, rest) = ports.split_at_mut(1);
        let (hub, here) = (&mut hub_ports[0], &mut rest[i - 1]);
        let site = &c.sites[i];
        let (speed, wan) = if site.remote {
            let (speed, fields) = wan_fields(c, db, hub, here)?;
            (speed, Some(fields))
        } else {
            let speed = *layout::common_speeds(hub, here).first().ok_or_else(|| {
                refusal(
                    "--switch",
                    site.model,
                    format!(
                        "`{}` at `{}` and `{}` at `{}` have no uplink speed in common",
                        site.model, site.name, c.sites[0].model, c.sites[0].name
                    ),
                    "the same switch model at every booth".to_owned(),
                )
            })?;
            (speed, None)
        };
        let say_speed = layout::say_uplink_speed(hub, here, speed);
        out.push(Uplink {
            site: i,
            here: here.take().ok_or_else(|| no_port(&site.name))?,
            hub: hub.take().ok_or_else(|| no_port(&c.sites[0].name))?,
            speed,
            say_speed,
            wan,
        });
    }
    Ok(out)
}

/// A WAN entry's fields after its endpoints, and its speed.
fn wan_fields(
    c: &Choices,
    db: &Catalog,
    hub: &SitePorts,
    here: &SitePorts,
) -> Result<(Rate, String), Refusal> {
    let km = c.wan_km;
    let kind = c.wan.keyword();
    let refuse = |why: String| {
        refusal(
            "--wan",
            kind,
            format!("no `{kind}` WAN of {km} km fits these switches: {why}"),
            layout::wan_help(c.wan).to_owned(),
        )
    };
    match c.wan {
        WanKind::DarkFiber => {
            let (speed, optic) = layout::dark_fiber(db, hub, here, km).map_err(|why| {
                refusal(
                    "--wan-km",
                    &c.wan_km.to_string(),
                    format!(
                        "no catalog optic carries {km} km of dark fiber between these switches"
                    ),
                    format!("{why}; {}", layout::wan_help(c.wan)),
                )
            })?;
            Ok((
                speed,
                format!(
                    "optic: {optic}\n    fiber: smf\n    length_km: {km}\n    connectors: {}",
                    layout::SPAN_CONNECTORS
                ),
            ))
        }
        WanKind::Otn => {
            let (speed, client, optic) = layout::otn_client(db, hub, here)
                .ok_or_else(|| refuse("no OTN client both switches run".to_owned()))?;
            Ok((
                speed,
                format!(
                    "client: {client}\n    optic: {optic}\n    length_km: {km}\n    client_a: {{ length_m: 30 }}\n    client_b: {{ length_m: 30 }}"
                ),
            ))
        }
        WanKind::Circuit => {
            let speed = *layout::common_speeds(hub, here)
                .first()
                .ok_or_else(|| refuse("the two switches run no speed in common".to_owned()))?;
            let physics = db.physics.as_ref();
            let us_per_km = physics.map_or(5.0, |p| p.fiber_us_per_km);
            // Light's round trip over the fiber, at least a tenth of a millisecond.
            let rtt_ms = (2.0 * km * us_per_km / 1000.0).max(0.1);
            Ok((
                speed,
                format!(
                    "capacity: {speed}\n    vlan: 2000\n    rtt_ms: {}\n    mtu: 9000",
                    crate::check::optics::num(rtt_ms)
                ),
            ))
        }
    }
}

/// A link's `speed:` field, when it must be written.
fn speed_field(say: bool, speed: Rate) -> String {
    if say {
        format!(", speed: {speed}")
    } else {
        String::new()
    }
}

fn links(out: &mut String, c: &Choices, ports: &[SitePorts], uplinks: &[Uplink]) {
    out.push_str(
        "\n# Cabling. No cable or optic is named on the floor: add `media:` and `optic:` for the\n\
         # optical checks and the bill of materials (docs/cabling.md).\nlinks:\n",
    );
    for (s, p) in c.sites.iter().zip(ports) {
        for (i, port) in p.dtn.iter().enumerate() {
            let speed = speed_field(p.say_speed, p.dtn_speed);
            let _ = writeln!(
                out,
                "  - {{ a: \"{}:p0\", b: \"{}:{port}\"{speed} }}",
                dtn(&s.name, u32::try_from(i + 1).unwrap_or(u32::MAX)),
                switch_of(&s.name)
            );
        }
    }
    let hub = switch_of(&c.sites[0].name);
    for u in uplinks.iter().filter(|u| u.wan.is_none()) {
        let speed = speed_field(u.say_speed, u.speed);
        let _ = writeln!(
            out,
            "  - {{ a: \"{}:{}\", b: \"{hub}:{}\"{speed}, description: floor link to {} }}",
            switch_of(&c.sites[u.site].name),
            u.here,
            u.hub,
            c.sites[0].name
        );
    }
}

fn wan(out: &mut String, c: &Choices, uplinks: &[Uplink]) {
    let remote: Vec<&Uplink> = uplinks.iter().filter(|u| u.wan.is_some()).collect();
    if remote.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\n# Off the floor: a {} from the first booth to each remote site. Set the real\n\
         # length, splices and connectors (or the circuit's measured RTT) when you have them.\nwan:",
        c.wan.words()
    );
    let hub = &c.sites[0].name;
    for u in remote {
        let site = &c.sites[u.site].name;
        let _ = writeln!(
            out,
            "  - name: {hub}-{site}\n    kind: {}\n    a: \"{}:{}\"\n    b: \"{}:{}\"\n    {}",
            c.wan.keyword(),
            switch_of(hub),
            u.hub,
            switch_of(site),
            u.here,
            u.wan.as_deref().unwrap_or_default()
        );
    }
}

/// A flow from each site's first DTN to the next site's: at the show's headroom of the
/// slowest port on the way, with the streams the CPU needs to carry it.
fn flows(out: &mut String, c: &Choices, ports: &[SitePorts], uplinks: &[Uplink]) {
    if c.sites.len() < 2 {
        out.push_str(
            "\n# Add flows once there is a second site: `flows: [{ name, from, to, rate, protocol }]`.\n",
        );
        return;
    }
    out.push_str(
        "\n# The transfers the demo must carry: `democ plan` predicts each and names its\n\
         # bottleneck. Change the rates to what the demo promises.\nflows:\n",
    );
    let uplink_speed = |site: usize| {
        uplinks
            .iter()
            .find(|u| u.site == site)
            .map(|u| u.speed.gbps())
    };
    let per_stream = c.cpu.1.tcp_stream_gbps;
    for i in 0..c.sites.len() - 1 {
        let (a, b) = (&c.sites[i], &c.sites[i + 1]);
        let slowest = [
            Some(ports[i].dtn_speed.gbps()),
            Some(ports[i + 1].dtn_speed.gbps()),
            uplink_speed(i),
            uplink_speed(i + 1),
        ]
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min);
        let rate = c
            .rate
            .unwrap_or_else(|| Rate::from_gbps((slowest * FLOW_SHARE).floor().max(1.0)));
        // One more stream than the CPU's per-stream rate needs: a stream short of it
        // is a stream the plan would call short.
        let streams = (rate.gbps() / per_stream).ceil().max(0.0) as u64 + 1;
        let _ = writeln!(
            out,
            "  - {{ name: {}-to-{}, from: {}, to: {}, rate: {rate}, protocol: tcp, streams: {streams} }}",
            a.name,
            b.name,
            dtn(&a.name, 1),
            dtn(&b.name, 1)
        );
    }
}
