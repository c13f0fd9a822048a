//! How busy the machine is while the twin is tested. A row that fails while the CPUs
//! were saturated says nothing about the design (every probe of a 50-switch show once
//! failed on two cores that its own daemons kept busy), so `twin test` samples the
//! machine in the background and judges each failed row by the figures of its own
//! time: the kernel's CPU pressure (`/proc/pressure/cpu`, the share of time some task
//! waited for a CPU: contention, which a test's own iperf3 on an idle core does not
//! cause), the CPU busy share (`/proc/stat`) and the load average (`/proc/loadavg`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

/// One reading of the kernel's counters.
#[derive(Debug, Clone, Copy)]
struct Reading {
    at: Instant,
    /// `/proc/stat` `cpu` line: idle (idle + iowait) and total jiffies.
    idle: u64,
    total: u64,
    /// `/proc/pressure/cpu` `some total=` microseconds (None: no PSI in this kernel).
    stalled_us: Option<u64>,
    load1: f64,
}

fn read() -> Option<Reading> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let cpu: Vec<u64> = stat
        .lines()
        .next()?
        .split_whitespace()
        .skip(1)
        .filter_map(|w| w.parse().ok())
        .collect();
    let idle = cpu.get(3)? + cpu.get(4).unwrap_or(&0);
    // guest time is already counted in user: the first eight fields are the whole.
    let total = cpu.iter().take(8).sum();
    let stalled_us = std::fs::read_to_string("/proc/pressure/cpu")
        .ok()
        .and_then(|t| {
            let some = t.lines().find(|l| l.starts_with("some"))?;
            some.split_whitespace()
                .find_map(|w| w.strip_prefix("total="))?
                .parse()
                .ok()
        });
    let load1 = std::fs::read_to_string("/proc/loadavg")
        .ok()?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(Reading {
        at: Instant::now(),
        idle,
        total,
        stalled_us,
        load1,
    })
}

/// The machine over a stretch of time.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub(crate) struct Figures {
    /// The highest 1-minute load average seen.
    pub(crate) load1: f64,
    /// Percent of all CPUs' time busy.
    pub(crate) cpu_busy_pct: f64,
    /// Percent of the time some task waited for a CPU (None: the kernel has no PSI).
    pub(crate) cpu_stalled_pct: Option<f64>,
    pub(crate) cpus: usize,
}

impl Figures {
    fn between(a: &Reading, b: &Reading, load1: f64) -> Figures {
        let total = b.total.saturating_sub(a.total).max(1) as f64;
        let idle = b.idle.saturating_sub(a.idle) as f64;
        let wall_us = b.at.duration_since(a.at).as_micros().max(1) as f64;
        let round = |x: f64| (x * 10.0).round() / 10.0;
        Figures {
            load1,
            cpu_busy_pct: round(100.0 * (1.0 - idle / total).clamp(0.0, 1.0)),
            cpu_stalled_pct: a
                .stalled_us
                .zip(b.stalled_us)
                .map(|(x, y)| round((100.0 * y.saturating_sub(x) as f64 / wall_us).min(100.0))),
            cpus: cpus(),
        }
    }

    /// Whether these figures are a saturated machine: CPU pressure at or above `limit`
    /// percent (without PSI: the CPUs that busy and more runnable work than CPUs).
    pub(crate) fn saturated(&self, limit: f64) -> bool {
        match self.cpu_stalled_pct {
            Some(s) => s >= limit,
            None => self.cpu_busy_pct >= limit && self.load1 > self.cpus as f64,
        }
    }

    /// `load 6.3, CPU 97 % busy, 85 % stalled (2 CPUs)`.
    pub(crate) fn text(&self) -> String {
        let stalled = self
            .cpu_stalled_pct
            .map_or(String::new(), |s| format!(", {s:.0} % stalled"));
        format!(
            "load {:.1}, CPU {:.0} % busy{stalled} ({} CPUs)",
            self.load1, self.cpu_busy_pct, self.cpus
        )
    }
}

pub(crate) fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The pressure (percent) at which the machine counts as saturated: 80, or
/// `DEMOC_TWIN_SATURATED` (0 to 101; the tests pin it: 0 makes every moment saturated,
/// 101 none, so a sabotaged row fails the same way on a busy CI machine as on an idle
/// one).
pub(crate) fn limit() -> Result<f64, String> {
    match std::env::var("DEMOC_TWIN_SATURATED") {
        Err(_) => Ok(80.0),
        Ok(v) => v
            .trim()
            .parse::<f64>()
            .ok()
            .filter(|x| (0.0..=101.0).contains(x))
            .ok_or_else(|| {
                format!(
                    "DEMOC_TWIN_SATURATED is `{}`: a percentage from 0 to 101 is expected",
                    crate::escape::line(&v)
                )
            }),
    }
}

/// Samples the machine in the background (every 250 ms) until dropped.
pub(crate) struct Meter {
    readings: Arc<Mutex<Vec<Reading>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Meter {
    pub(crate) fn start() -> Meter {
        let readings = Arc::new(Mutex::new(read().into_iter().collect::<Vec<_>>()));
        let stop = Arc::new(AtomicBool::new(false));
        let (r, s) = (Arc::clone(&readings), Arc::clone(&stop));
        let thread = std::thread::spawn(move || {
            while !s.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(250));
                if let (Some(x), Ok(mut v)) = (read(), r.lock()) {
                    v.push(x);
                }
            }
        });
        Meter {
            readings,
            stop,
            thread: Some(thread),
        }
    }

    /// The machine from `from` until now (at least the last reading before `from` and
    /// a fresh one).
    pub(crate) fn since(&self, from: Instant) -> Option<Figures> {
        let now = read()?;
        let v = self.readings.lock().ok()?;
        let first = v.iter().rev().find(|r| r.at <= from).or(v.first())?;
        let load1 = v
            .iter()
            .filter(|r| r.at >= first.at)
            .map(|r| r.load1)
            .fold(now.load1, f64::max);
        Some(Figures::between(first, &now, load1))
    }

    /// The last second or so: the machine as it is now.
    pub(crate) fn now(&self) -> Option<Figures> {
        self.since(Instant::now() - Duration::from_secs(1))
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(idle: u64, total: u64, stalled: Option<u64>, secs: u64, t0: Instant) -> Reading {
        Reading {
            at: t0 + Duration::from_secs(secs),
            idle,
            total,
            stalled_us: stalled,
            load1: 1.0,
        }
    }

    #[test]
    fn figures_of_two_readings() {
        let t0 = Instant::now();
        let f = Figures::between(
            &at(100, 1000, Some(0), 0, t0),
            &at(150, 1200, Some(1_800_000), 2, t0),
            3.5,
        );
        assert_eq!(f.cpu_busy_pct, 75.0);
        assert_eq!(f.cpu_stalled_pct, Some(90.0));
        assert!(f.saturated(80.0));
        assert!(!f.saturated(101.0));
        let no_psi = Figures::between(&at(0, 100, None, 0, t0), &at(1, 300, None, 1, t0), 9.0);
        assert_eq!(no_psi.cpu_stalled_pct, None);
        assert_eq!(no_psi.saturated(90.0), 9.0 > cpus() as f64);
    }

    #[test]
    fn the_machine_reads() {
        let m = Meter::start();
        std::thread::sleep(Duration::from_millis(300));
        let f = m.now().expect("/proc is readable");
        assert!((0.0..=100.0).contains(&f.cpu_busy_pct), "{f:?}");
    }
}
