//! The physical floor of `democ build`: writes the files a build wrote (same relative
//! paths, same sizes, same folders) into a staging folder beside DIR and renames it to
//! DIR, as democ does, and does nothing else: no parsing, no checking, no rendering.
//! democ's build time over this program's is how far democ is from the floor.
//!
//! usage: democ-floor LIST DIR [THREADS]
//!   LIST: one file per line, `<bytes> <relative path>` (bench/floor.sh makes it from a
//!         build's manifest.json); DIR must not exist (the benchmark removes it first).
//!   THREADS: writer threads (default 1; democ writes on every core from 256 files up,
//!         so the floor on every core is the one to compare with; the script reports both).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: democ-floor LIST DIR [THREADS]");
        std::process::exit(2);
    }
    let list = fs::read_to_string(&args[1]).unwrap_or_else(|e| fail(&args[1], e));
    let files: Vec<(usize, &str)> = list
        .lines()
        .filter_map(|l| {
            let (n, p) = l.split_once(' ')?;
            Some((n.parse().ok()?, p))
        })
        .collect();
    let threads: usize = args.get(3).and_then(|t| t.parse().ok()).unwrap_or(1).max(1);
    let dir = PathBuf::from(&args[2]);
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let staging = dir.with_file_name(format!(".{name}.floor-new-{}", std::process::id()));
    fs::create_dir(&staging).unwrap_or_else(|e| fail(&staging.to_string_lossy(), e));
    // Folders first (democ creates each file's parent as it goes; creating them once
    // here is the cheaper way, as a floor should be).
    let mut dirs: Vec<&Path> = files.iter().filter_map(|(_, p)| Path::new(p).parent()).collect();
    dirs.sort();
    dirs.dedup();
    for d in dirs.iter().filter(|d| !d.as_os_str().is_empty()) {
        let at = staging.join(d);
        fs::create_dir_all(&at).unwrap_or_else(|e| fail(&at.to_string_lossy(), e));
    }
    let biggest = files.iter().map(|(n, _)| *n).max().unwrap_or(0);
    let chunk = files.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for part in files.chunks(chunk) {
            let staging = &staging;
            s.spawn(move || {
                // Text-like bytes, one buffer reused: the floor allocates once.
                let buf = vec![b'x'; biggest];
                for (n, p) in part {
                    let at = staging.join(p);
                    let mut f = fs::File::options()
                        .write(true)
                        .create_new(true)
                        .open(&at)
                        .unwrap_or_else(|e| fail(p, e));
                    f.write_all(&buf[..*n]).unwrap_or_else(|e| fail(p, e));
                }
            });
        }
    });
    fs::rename(&staging, &dir).unwrap_or_else(|e| fail(&args[2], e));
}

fn fail(what: &str, e: std::io::Error) -> ! {
    eprintln!("democ-floor: {what}: {e}");
    std::process::exit(1);
}
