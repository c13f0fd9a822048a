//! The maps on hot paths (ids, and the names of a show: resolving 100,000 flows looks
//! names up hundreds of thousands of times) use rustc's Fx hash, from the `rustc-hash`
//! crate: SipHash's resistance to chosen collisions buys nothing in a compiler run by the
//! spec's own author. Iteration order is never relied upon.

pub(crate) type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;
pub(crate) type FxSet<K> = rustc_hash::FxHashSet<K>;
