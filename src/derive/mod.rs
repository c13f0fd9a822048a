//! Pass 3: what the spec implies but does not say: addresses, paths, latencies.
pub(crate) mod addressing;
