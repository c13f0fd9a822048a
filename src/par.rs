//! Work on every core, results back in order, so the output is what one thread would
//! make: `runs` cuts items into one run of consecutive items per thread (the first on
//! the caller's); `tasks` hands unequal pieces of work to whichever thread is free.
//! A thread that cannot be had leaves its work to the caller's. [`Queue`] is work
//! other threads join as they come free.

mod queue;
pub(crate) use queue::Queue;

/// `value`, no longer needed, freed without the caller waiting on it: when `large`,
/// dropped on a thread of its own, whose handle is returned (dropped here, with the
/// closure, when no thread can be had); dropped here when small. Freeing the largest
/// synth show's tree and spec took 270 M instructions, on a second core the checks and
/// the parallel parts of the front end wanted too; sc16's, 0.06 M.
// Freed, not left to the process's exit: the blocks go back to the heap, where the
// stages after take them again. Left to exit, the largest show's `check` took 20,000
// more fresh pages (70 K -> 92 K page faults) and was 1.08x slower paired; sc16's took
// 47 more (667 -> 714), for 0.06 M instructions saved.
pub(crate) fn free_beside<T: Send + 'static>(
    value: T,
    large: bool,
) -> Option<std::thread::JoinHandle<()>> {
    if !large {
        drop(value);
        return None;
    }
    std::thread::Builder::new().spawn(move || drop(value)).ok()
}

/// The threads worth using for `size` of work (items, bytes): one below `from`, where
/// a thread costs more than it saves, else one per core.
pub(crate) fn threads(size: usize, from: usize) -> usize {
    if size < from {
        return 1;
    }
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// `run` over `items` cut into at most `threads` runs of consecutive items.
// Inlined: on one thread (every small show) the call is `run(items)` in place, not one
// more function's code to page in per caller.
#[inline(always)]
pub(crate) fn runs<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    run: impl Fn(&[T]) -> R + Sync,
) -> Vec<R> {
    if threads < 2 || items.len() < 2 {
        return vec![run(items)];
    }
    spread(items, threads, run)
}

/// [`runs`] on more than one thread.
#[inline(never)]
fn spread<T: Sync, R: Send>(items: &[T], threads: usize, run: impl Fn(&[T]) -> R + Sync) -> Vec<R> {
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

/// One piece of work of [`tasks`].
pub(crate) type Task<'a, R> = Box<dyn FnOnce() -> R + Send + 'a>;

/// Every task run on at most `threads` threads (the caller's among them), each thread
/// taking the next task not yet taken, so unequal tasks still keep every thread busy;
/// results in the tasks' order. List the longest first: the last one taken bounds the
/// wall time.
pub(crate) fn tasks<R: Send>(tasks: Vec<Task<'_, R>>, threads: usize) -> Vec<R> {
    let n = tasks.len();
    if threads < 2 || n < 2 {
        return tasks.into_iter().map(|t| t()).collect();
    }
    let queue: Vec<std::sync::Mutex<Option<Task<'_, R>>>> = tasks
        .into_iter()
        .map(|t| std::sync::Mutex::new(Some(t)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Each worker's results with their task numbers; merged in order below.
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(slot) = queue.get(i) else {
                return done;
            };
            // A task is taken once (the counter hands each number out once); a poisoned
            // lock means a task panicked, which the join below passes on.
            let task = slot.lock().ok().and_then(|mut t| t.take());
            if let Some(t) = task {
                done.push((i, t()));
            }
        }
    };
    let mut all: Vec<(usize, R)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads.min(n))
            .filter_map(|_| {
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, work)
                    .ok()
            })
            .collect();
        let mut all = work();
        for h in handles {
            all.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        all
    });
    all.sort_unstable_by_key(|(i, _)| *i);
    all.into_iter().map(|(_, r)| r).collect()
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

    #[test]
    fn tasks_come_back_in_order_whatever_thread_ran_them() {
        for threads in [1, 2, 3, 8] {
            let tasks: Vec<super::Task<'_, usize>> = (0..50)
                .map(|i| {
                    Box::new(move || {
                        // Unequal work, so the threads finish out of order.
                        std::thread::sleep(std::time::Duration::from_micros((50 - i) * 20));
                        i as usize
                    }) as super::Task<'_, usize>
                })
                .collect();
            assert_eq!(super::tasks(tasks, threads), (0..50).collect::<Vec<_>>());
        }
        assert!(super::tasks::<u8>(Vec::new(), 2).is_empty());
    }
}
