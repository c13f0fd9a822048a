//! democ's binary is linked statically on x86_64 Linux by link/cc (.cargo/config.toml),
//! which falls back to the ordinary, dynamic link where the static one fails or its
//! binary does not start. These tests run the wrapper on a small C program (both of its
//! paths and the pass-through) and check the democ binary itself; they skip, saying
//! why, where there is no C compiler or no static glibc to link against.

#![cfg(all(target_os = "linux", target_arch = "x86_64"))]

use std::path::{Path, PathBuf};
use std::process::Command;

/// Whether the ELF executable at `path` names a program interpreter (`PT_INTERP`): a
/// dynamically linked one does, a static one does not.
fn has_interpreter(path: &Path) -> bool {
    let bytes = std::fs::read(path).expect("reads the executable");
    assert_eq!(&bytes[..4], b"\x7fELF", "{} is not ELF", path.display());
    let u16_at = |at: usize| usize::from(u16::from_le_bytes([bytes[at], bytes[at + 1]]));
    let phoff = u64::from_le_bytes(bytes[0x20..0x28].try_into().expect("8 bytes")) as usize;
    let (size, count) = (u16_at(0x36), u16_at(0x38));
    (0..count).any(|i| {
        let at = phoff + i * size;
        u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) == 3
    })
}

/// The C compiler can link a static glibc program here (`libc.a` found).
fn static_glibc() -> Option<()> {
    let out = Command::new("cc")
        .arg("-print-file-name=libc.a")
        .output()
        .ok()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    Path::new(&path).is_absolute().then_some(())
}

fn wrapper() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("link/cc")
}

/// Links `main` (a C `main` body) through link/cc with `args`; the output's path.
fn link(dir: &Path, name: &str, main: &str, args: &[&str]) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, format!("int main(void) {{ {main} }}\n")).expect("writes C");
    let out = dir.join(name);
    let status = Command::new(wrapper())
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .expect("runs link/cc");
    assert!(status.success(), "link/cc failed for {name}");
    out
}

#[test]
fn link_cc_links_the_marked_binary_statically_and_falls_back_when_it_cannot_start() {
    if static_glibc().is_none() {
        eprintln!("skipped: no C compiler with a static glibc (libc.a) here");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    // Marked and starts (`--version` exits 0): linked statically.
    let ok = link(dir.path(), "ok", "return 0;", &["--democ-static"]);
    assert!(
        !has_interpreter(&ok),
        "the marked binary was not linked statically"
    );
    assert!(Command::new(&ok).status().expect("runs").success());
    // Marked, but the static binary fails at its start: linked again, dynamically.
    let fails = link(dir.path(), "fails", "return 3;", &["--democ-static"]);
    assert!(has_interpreter(&fails), "no fall-back to the ordinary link");
    assert_eq!(Command::new(&fails).status().expect("runs").code(), Some(3));
    // Not marked (tests, build scripts): linked as cc links it.
    let plain = link(dir.path(), "plain", "return 0;", &[]);
    assert!(has_interpreter(&plain), "an unmarked link was changed");
}

#[test]
fn democ_is_a_static_binary_where_glibc_can_be_linked_statically() {
    if static_glibc().is_none() {
        eprintln!("skipped: no static glibc (libc.a) here, so democ links dynamically");
        return;
    }
    if std::env::var_os("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_some() {
        eprintln!("skipped: a linker chosen by hand replaces link/cc");
        return;
    }
    let democ = Path::new(env!("CARGO_BIN_EXE_democ"));
    assert!(
        !has_interpreter(democ),
        "{} is dynamically linked: link/cc did not link it statically",
        democ.display()
    );
    let out = Command::new(democ)
        .arg("check")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/sc16/show.yaml"))
        .arg("--no-lock")
        .output()
        .expect("runs democ");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
