//! Stage timings for profiling.

/// Stage timings on stderr when `DEMOC_TIMINGS` is set (for profiling; never in outputs).
pub(crate) struct Stages {
    on: bool,
    last: std::time::Instant,
}

impl Stages {
    pub(crate) fn new() -> Stages {
        Stages {
            on: std::env::var_os("DEMOC_TIMINGS").is_some(),
            last: std::time::Instant::now(),
        }
    }

    pub(crate) fn mark(&mut self, stage: &str) {
        if self.on {
            let now = std::time::Instant::now();
            eprintln!(
                "timing: {stage:<8} {:>8.1} ms",
                (now - self.last).as_secs_f64() * 1000.0
            );
            self.last = now;
        }
    }
}
