//! Cumulus Linux's NVUE startup YAML for a switch, made from its IR with serde: the
//! list of one `- set:` document that `nv config replace` loads and `nv config apply`
//! applies, every key from NVUE's object model (src/nvue/tree.rs). Maps keep the IR's
//! order, so the same IR gives the same text. Which page each branch follows is in
//! templates/cumulus/vendor.yaml; `democ validate` checks the file against NVIDIA's NVUE
//! models (validators/cumulus).

mod ports;
mod routing;
mod services;
mod tree;

use serde::Serialize;

use crate::ir::Switch;
use tree::{Config, Empty, GnmiServer, Qos, Roce, Service, ServiceLldp, System};

/// The startup file: `- set: {...}`.
#[derive(Serialize)]
struct Document<'a> {
    set: &'a Config,
}

/// The switch's NVUE text: YAML, one final newline.
pub(crate) fn text(sw: &Switch) -> String {
    let config = build(sw);
    let doc = [Document { set: &config }];
    // Every value is a string, a number or a map of them: serialising cannot fail.
    serde_saphyr::to_string(&doc).expect("the NVUE tree serialises")
}

fn build(sw: &Switch) -> Config {
    let mut c = Config {
        system: System {
            hostname: sw.hostname.clone(),
            gnmi_server: gnmi(sw),
            ..System::default()
        },
        service: Service {
            lldp: ServiceLldp {
                state: if sw.lldp.enabled {
                    "enabled"
                } else {
                    "disabled"
                },
            },
            ..Service::default()
        },
        ..Config::default()
    };
    ports::write(sw, &mut c);
    routing::write(sw, &mut c);
    services::write(sw, &mut c);
    // `qos roce` is switch-wide: lossless on priority 3 with PFC and ECN (lowering
    // warns where the show asks another priority).
    if sw.qos.as_ref().is_some_and(|q| q.pfc || q.ecn) {
        c.qos = Some(Qos {
            roce: Roce {
                enable: tree::ON,
                mode: "lossless",
            },
        });
    }
    c
}

/// The gNMI server, listening on the management address, where the build enables it.
fn gnmi(sw: &Switch) -> Option<GnmiServer> {
    let g = sw.services.as_ref()?.gnmi.as_ref()?;
    let addr = &sw.management.as_ref()?.address.address;
    Some(GnmiServer {
        listening_address: [(addr.clone(), Empty {})].into_iter().collect(),
        port: g.port,
        state: "enabled",
    })
}

#[cfg(test)]
mod tests {
    /// Every switch of the render fixture, as Cumulus: one `- set:` document with a
    /// hostname, `on` quoted (YAML 1.1 readers would take it for true), and the same
    /// text twice.
    #[test]
    fn one_set_document_deterministic() {
        let (_, lab) = crate::testkit::render_fixture();
        for sw in &lab.switches {
            let text = super::text(sw);
            assert_eq!(text, super::text(sw));
            assert!(text.starts_with("- set:\n"), "{text}");
            assert!(
                text.contains(&format!("hostname: {}", sw.hostname)),
                "{text}"
            );
            assert!(!text.contains(": on\n"), "{text}");
            assert!(text.ends_with('\n'));
        }
    }
}
