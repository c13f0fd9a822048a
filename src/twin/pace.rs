//! How hard `twin test` may push the machine, and how long it waits for an answer, from
//! how busy the machine is before each flow: a pair's probes keep about one CPU busy
//! (iperf3 and the datapath), so as many pairs run at once as CPUs are idle, and on a
//! loaded machine every timeout stretches with the load.

use super::load::Figures;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pace {
    /// Pairs of one flow probed at once.
    pub(crate) parallel: usize,
    /// Every timeout is multiplied by this (1 on an idle machine, at most 4).
    pub(crate) slow: u32,
}

impl Pace {
    pub(crate) fn of(f: Option<&Figures>) -> Pace {
        let Some(f) = f else {
            return Pace {
                parallel: 1,
                slow: 2,
            };
        };
        let cpus = f.cpus.max(1) as f64;
        let idle = cpus * (100.0 - f.cpu_busy_pct).max(0.0) / 100.0;
        Pace {
            parallel: (idle.round() as usize).clamp(1, 2 * f.cpus.max(1)),
            slow: ((f.load1 / cpus).ceil() as u32).clamp(1, 4),
        }
    }

    /// `secs` seconds, stretched.
    pub(crate) fn secs(&self, secs: u64) -> u64 {
        secs * u64::from(self.slow)
    }

    pub(crate) fn text(&self) -> String {
        format!("{} pair(s) at once, timeouts x{}", self.parallel, self.slow)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(load1: f64, busy: f64) -> Figures {
        Figures {
            load1,
            cpu_busy_pct: busy,
            cpu_stalled_pct: None,
            cpus: 2,
        }
    }

    #[test]
    fn an_idle_machine_runs_pairs_side_by_side_a_loaded_one_waits_longer() {
        assert_eq!(
            Pace::of(Some(&f(0.2, 5.0))),
            Pace {
                parallel: 2,
                slow: 1
            }
        );
        assert_eq!(
            Pace::of(Some(&f(7.0, 100.0))),
            Pace {
                parallel: 1,
                slow: 4
            }
        );
        assert_eq!(Pace::of(Some(&f(3.0, 60.0))).slow, 2);
    }
}
