//! A hint that memory is about to be read. Writing plan.json at 100,000 flows reads
//! texts scattered over hundreds of megabytes (each limit's words, the names of each
//! link's flows) in an order no hardware prefetcher guesses, and waited on memory at
//! each: its writer asks for an element's texts a couple of elements before it writes
//! it (`plan::streamed`). flows.json gained nothing from the same (its hops' names sit
//! behind two dependent loads).

/// Asks the CPU to bring the cache line at `p` in; a hint, never a read the program
/// sees (a wrong or dangling address is ignored, never faults).
#[inline(always)]
pub(crate) fn line<T: ?Sized>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: PREFETCHT0 only hints the cache: it reads nothing into the program and
    // raises no fault for any address (Intel SDM vol. 2B, PREFETCHh), and SSE is part
    // of every x86_64 CPU.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}
