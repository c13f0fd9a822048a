//! Work cut into one run per thread: runs of consecutive items, each on a thread of its
//! own (the first on the caller's), results back in the items' order, so the output is
//! what one thread would make. A thread that cannot be had runs its items here.

/// The threads worth using for `size` of work (items, bytes): one below `from`, where
/// a thread costs more than it saves, else one per core.
pub(crate) fn threads(size: usize, from: usize) -> usize {
    if size < from {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `run` over `items` cut into at most `threads` runs of consecutive items.
pub(crate) fn runs<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    run: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    if threads < 2 || items.len() < 2 {
        return vec![run(items)];
    }
    let cut: Vec<&[T]> = items.chunks(items.len().div_ceil(threads)).collect();
    std::thread::scope(|scope| {
        // The main thread's stack size: templates and lowering may nest as deep there
        // as here.
        let handles: Vec<_> = cut[1..]
            .iter()
            .map(|&items| {
                let h = std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, || run(items));
                (items, h)
            })
            .collect();
        let mut parts = vec![run(cut[0])];
        for (items, h) in handles {
            parts.push(match h {
                Ok(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                Err(_) => run(items),
            });
        }
        parts
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn runs_come_back_in_order_and_cover_every_item() {
        let items: Vec<u32> = (0..101).collect();
        for threads in [1, 2, 3, 8, 200] {
            let parts = super::runs(&items, threads, |run| run.to_vec());
            assert!(parts.len() <= threads.max(1));
            assert_eq!(parts.concat(), items);
        }
        assert_eq!(super::runs(&[] as &[u32], 2, <[u32]>::len), vec![0]);
    }
}
