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
    let pid = rustix::process::Pid::from_raw(i32::try_from(child.id()).expect("pid"))
        .expect("a child's pid is positive");
    // Read the pipes on threads so a large output cannot block the child.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap_or_default());
    let err = std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap_or_default());
    // The peak resident set is sampled while the child runs (a zombie has none left to
    // read); its processor time is read once it has exited and before it is reaped, so
    // /proc still holds it.
    let mut peak_kb = 0;
    let cpu = loop {
        peak_kb = peak_kb.max(proc_peak_kb(pid).unwrap_or(0));
        let exited = rustix::process::waitid(
            rustix::process::WaitId::Pid(pid),
            rustix::process::WaitIdOptions::EXITED
                | rustix::process::WaitIdOptions::NOHANG
                | rustix::process::WaitIdOptions::NOWAIT,
        )
        .expect("waitid on our own child");
        if exited.is_some() {
            break proc_cpu(pid);
        }
        if start.elapsed() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("democ {args:?} still running after {deadline:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let status = child.wait().expect("the child is reaped");
    let code = status.code().unwrap_or(-1);
    let run = Run {
        code,
        stderr: err.join().unwrap_or_default(),
        stdout: out.join().unwrap_or_default(),
        peak_mb: peak_kb / 1024,
        cpu,
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

/// The child's peak resident set so far (VmHWM), in kB.
fn proc_peak_kb(pid: rustix::process::Pid) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid.as_raw_nonzero())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// An exited, unreaped child's user and system time (fields 14 and 15 of
/// /proc/<pid>/stat, in clock ticks of 1/100 s: Linux's USER_HZ).
fn proc_cpu(pid: rustix::process::Pid) -> Duration {
    let stat =
        std::fs::read_to_string(format!("/proc/{}/stat", pid.as_raw_nonzero())).unwrap_or_default();
    // The command name (field 2) is in parentheses and may hold spaces.
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<u64> = after
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // `after` starts at field 3: utime is field 14, stime 15.
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
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

/// democ for a lab test (a deploy or a destroy takes minutes here), with the machine's
/// saturation limit pinned at 101 % (never): a sabotaged lab then fails as a design
/// failure on a busy CI machine as on an idle one.
pub fn lab_democ(args: &[&str]) -> Run {
    democ_env(
        None,
        args,
        &[("DEMOC_TWIN_SATURATED", "101")],
        Duration::from_secs(1800),
    )
}

/// Why a lab cannot be deployed here, if it cannot: `democ lab down` on no folder says.
pub fn lab_skip() -> Option<String> {
    let r = lab_democ(&["lab", "down", "/nonexistent-democ-build"]);
    (r.code == 2 && r.stderr.contains("cannot be deployed here")).then_some(r.stderr)
}

/// The root namespace's veth interfaces (a lab leaves none behind).
pub fn root_veths() -> usize {
    stdout_of(&["ip", "-o", "link", "show", "type", "veth"])
        .lines()
        .count()
}

/// What a command prints on stdout (empty when it prints nothing).
pub fn stdout_of(argv: &[&str]) -> String {
    let o = Command::new(argv[0])
        .args(&argv[1..])
        .output()
        .expect("runs");
    String::from_utf8_lossy(&o.stdout).into_owned()
}
