//! Running the democ binary the way issue 14 judges its reproducers: every run ends,
//! within a second of processor time, under 300 MB of resident memory, exit code 0, 1 or
//! 2, and no panic. Time is the child's own CPU time (user + system, from wait4's
//! rusage), which a loaded CI machine does not inflate the way it inflates wall-clock
//! time; a generous wall deadline only guards against hangs (a process blocked on a FIFO
//! uses no CPU at all). Memory is the child's peak resident set (ru_maxrss).

#![cfg(unix)]
#![allow(dead_code)] // each test crate uses part of it

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of democ did.
pub struct Run {
    pub code: i32,
    pub stderr: String,
    pub stdout: String,
    /// Peak resident memory, in megabytes.
    pub peak_mb: u64,
    /// Processor time (user and system).
    pub cpu: Duration,
}

/// How much slower an unoptimized binary is than a release one, about: the time budget
/// is the second in a release build.
pub const SLOWER: u32 = if cfg!(debug_assertions) { 10 } else { 1 };

/// Processor time one reproducer may take (release build).
pub const CPU_BUDGET: Duration = Duration::from_secs(1);

/// Wall-clock time after which a run counts as hung, whatever the machine's load.
pub const HANG: Duration = Duration::from_secs(30);

/// Peak resident memory one reproducer may use.
pub const MAX_MB: u64 = 300;

/// Runs democ with `args` (in `dir` when given); kills it and fails the test past
/// `deadline`. Asserts no panic, an exit code of 0, 1 or 2, and the memory bound.
pub fn democ_in(dir: Option<&Path>, args: &[&str], deadline: Duration) -> Run {
    democ_env(dir, args, &[], deadline)
}

/// `democ_in` with extra environment variables (the test hooks).
pub fn democ_env(
    dir: Option<&Path>,
    args: &[&str],
    env: &[(&str, &str)],
    deadline: Duration,
) -> Run {
    let start = Instant::now();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_democ"));
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    cmd.envs(env.iter().copied());
    // Reaped by wait4 below (which also gives its usage), or killed and waited for.
    #[allow(clippy::zombie_processes)]
    let mut child = cmd
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("democ runs");
    let pid = i32::try_from(child.id()).expect("pid");
    // Read the pipes on threads so a large output cannot block the child.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap_or_default());
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap_or_default());
    let (status, usage) = loop {
        let mut status = 0;
        // SAFETY: an all-zero rusage is a valid value for wait4 to fill in.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `pid` is our own child; both pointers are to live locals.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            break (status, usage);
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("democ {args:?} still running after {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let run = Run {
        code,
        stderr: err.join().unwrap_or_default(),
        stdout: out.join().unwrap_or_default(),
        peak_mb: u64::try_from(usage.ru_maxrss).unwrap_or(0) / 1024,
        cpu: time(usage.ru_utime) + time(usage.ru_stime),
    };
    assert!(
        !run.stderr.contains("panicked"),
        "democ {args:?} panicked:\n{}",
        run.stderr
    );
    assert!(
        (0..=2).contains(&run.code),
        "democ {args:?} exited {} (killed by a signal?):\n{}",
        run.code,
        run.stderr
    );
    assert!(
        run.peak_mb < MAX_MB,
        "democ {args:?} used {} MB",
        run.peak_mb
    );
    run
}

/// `democ_in` with the hang deadline, and at most the processor-time budget.
pub fn democ_bounded(dir: Option<&Path>, args: &[&str]) -> Run {
    democ_bounded_env(dir, args, &[])
}

/// `democ_bounded` with extra environment variables (the test hooks).
pub fn democ_bounded_env(dir: Option<&Path>, args: &[&str], env: &[(&str, &str)]) -> Run {
    let run = democ_env(dir, args, env, HANG);
    assert!(
        run.cpu < CPU_BUDGET * SLOWER,
        "democ {args:?} took {:?} of processor time",
        run.cpu
    );
    run
}

fn time(t: libc::timeval) -> Duration {
    let secs = u64::try_from(t.tv_sec).unwrap_or(0);
    let micros = u64::try_from(t.tv_usec).unwrap_or(0);
    Duration::from_secs(secs) + Duration::from_micros(micros)
}

/// Copies a folder tree (tests edit copies of the examples, never the examples).
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dst = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), dst).unwrap();
        }
    }
}
