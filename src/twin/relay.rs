//! An in-band control channel in the twin (`controller_via: inband`). A switch reaching
//! its controller in band opens the connection from its own IP stack, over its data
//! ports: in the twin that stack is the switch's namespace (its SVIs, routed ports and
//! routes), but its OpenFlow bridge lives in the one Open vSwitch, whose namespace
//! reaches only the management LAN. So the bridge's controller is a Unix socket (Unix
//! sockets belong to no network namespace), and this relay, running in the switch's
//! namespace, carries each connection on it to the controller's address from there:
//! the channel comes up exactly when the switch's routed side reaches the controller
//! through the bridges, as the switch's would through its data ports.

use std::io::{Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::place::Place;
use super::switch::Dirs;
use crate::ir::Switch;

/// Whether the switch reaches its controller in band.
pub(crate) fn inband(sw: &Switch) -> bool {
    sw.openflow
        .as_ref()
        .is_some_and(|o| o.controller.via == "inband")
}

/// The Unix socket the switch's bridge connects to (beside the one Open vSwitch's own
/// sockets, named with the switch's key: a socket path has at most 107 bytes).
pub(crate) fn socket(d: &Dirs, place: &Place) -> PathBuf {
    d.run.join(format!("{}ctl.sock", place.key))
}

/// Copies one direction until it ends, then ends the other side's writing.
fn pump(mut from: impl Read, mut to: impl Write, close: impl FnOnce()) {
    let _ = std::io::copy(&mut from, &mut to);
    close();
}

fn carry(bridge: UnixStream, to: SocketAddr) {
    // Refused or unreachable: the bridge sees its connection close and tries again, as
    // a switch's agent does.
    let Ok(ctl) = TcpStream::connect_timeout(&to, Duration::from_secs(5)) else {
        return;
    };
    let (Ok(bridge_in), Ok(ctl_in)) = (bridge.try_clone(), ctl.try_clone()) else {
        return;
    };
    let up = std::thread::spawn(move || {
        pump(bridge_in, &ctl, || {
            let _ = ctl.shutdown(Shutdown::Write);
        });
    });
    pump(ctl_in, &bridge, || {
        let _ = bridge.shutdown(Shutdown::Write);
    });
    let _ = up.join();
}

/// Listens on `sock` forever, carrying each connection to `to` (the twin stops it by
/// its pidfile).
pub(crate) fn run(sock: &Path, to: &str, pidfile: &Path) -> Result<(), String> {
    let to: SocketAddr = to
        .parse()
        .map_err(|e| format!("`{to}` is no address:port: {e}"))?;
    let l = UnixListener::bind(sock).map_err(|e| format!("listen on {}: {e}", sock.display()))?;
    crate::write::file(pidfile, format!("{}\n", std::process::id()).as_bytes())?;
    for s in l.incoming().flatten() {
        std::thread::spawn(move || carry(s, to));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the bridge writes reaches the controller and the controller's answer comes
    /// back, byte for byte.
    #[test]
    fn carries_both_ways() {
        let t = tempfile::tempdir().expect("tempdir");
        let ctl = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        let to = ctl.local_addr().expect("addr").to_string();
        let sock = t.path().join("s0ctl.sock");
        let pid = t.path().join("relay.pid");
        let (s, p) = (sock.clone(), pid.clone());
        std::thread::spawn(move || run(&s, &to, &p));
        let deadline = std::time::Instant::now() + Duration::from_secs(5);
        let mut bridge = loop {
            match UnixStream::connect(&sock) {
                Ok(b) => break b,
                Err(e) if std::time::Instant::now() > deadline => panic!("relay: {e}"),
                Err(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let (mut c, _) = ctl.accept().expect("the relay connects");
        bridge.write_all(b"hello").expect("write");
        let mut got = [0u8; 5];
        c.read_exact(&mut got).expect("read");
        assert_eq!(&got, b"hello");
        c.write_all(b"echo").expect("write");
        let mut back = [0u8; 4];
        bridge.read_exact(&mut back).expect("read");
        assert_eq!(&back, b"echo");
        assert!(pid.exists());
    }
}
