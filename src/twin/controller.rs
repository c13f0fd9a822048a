//! The test controller: accepts OpenFlow connections, says HELLO and answers ECHO, and
//! changes nothing (so the switches keep exactly the ruleset the build wrote). It shows
//! that a switch's control channel reaches the controller's address; it is not a
//! controller that programs anything.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};

const HELLO: u8 = 0;
const ECHO_REQUEST: u8 = 2;
const ECHO_REPLY: u8 = 3;

fn serve(mut s: TcpStream) {
    let mut head = [0u8; 8];
    while s.read_exact(&mut head).is_ok() {
        let len = usize::from(u16::from_be_bytes([head[2], head[3]]));
        let mut body = vec![0u8; len.saturating_sub(8)];
        if s.read_exact(&mut body).is_err() {
            return;
        }
        // HELLO in the switch's own version: each emulated switch speaks only its OS's
        // (1.0 for EOS, 1.4 for a PicOS bridge), and the lower of the two is agreed.
        if head[1] == HELLO && s.write_all(&[head[0], HELLO, 0, 8, 0, 0, 0, 1]).is_err() {
            return;
        }
        if head[1] == ECHO_REQUEST {
            let mut reply = head;
            reply[1] = ECHO_REPLY;
            if s.write_all(&reply)
                .and_then(|()| s.write_all(&body))
                .is_err()
            {
                return;
            }
        }
    }
}

/// Listens on `addr` forever (the twin stops it by its pidfile).
pub(crate) fn run(addr: &str, pidfile: &std::path::Path) -> Result<(), String> {
    let l = TcpListener::bind(addr).map_err(|e| format!("listen on {addr}: {e}"))?;
    crate::write::file(pidfile, format!("{}\n", std::process::id()).as_bytes())?;
    for s in l.incoming().flatten() {
        std::thread::spawn(move || serve(s));
    }
    Ok(())
}
