//! Work that threads join as they come free: the thread that made the items works
//! through them, and any other thread with nothing left to do (the checks' thread once
//! the checks are done) takes items too. Results keep the items' order whoever ran them.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

/// Items taken one at a time by whichever thread asks next.
pub(crate) struct Queue<T, R> {
    items: Vec<Mutex<Option<T>>>,
    next: AtomicUsize,
    /// Each item's result (None while running, or if it panicked) and how many items
    /// are finished.
    done: Mutex<(Vec<Option<R>>, usize)>,
    finished: Condvar,
}

impl<T, R> Queue<T, R> {
    pub(crate) fn new(items: Vec<T>) -> Self {
        let n = items.len();
        Queue {
            items: items.into_iter().map(|t| Mutex::new(Some(t))).collect(),
            next: AtomicUsize::new(0),
            done: Mutex::new(((0..n).map(|_| None).collect(), 0)),
            finished: Condvar::new(),
        }
    }

    /// Runs items not yet taken until none is left.
    pub(crate) fn work(&self, run: impl Fn(T) -> R) {
        loop {
            // Each number is handed out once, so each item is taken once.
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            let Some(slot) = self.items.get(i) else {
                return;
            };
            let item = slot.lock().unwrap_or_else(PoisonError::into_inner).take();
            let Some(item) = item else { continue };
            // Counted as finished even if `run` panics, so `results` never waits on an
            // item no thread will finish (it then reports the panic instead).
            let mut finish = Finish {
                queue: self,
                at: i,
                result: None,
            };
            finish.result = Some(run(item));
        }
    }

    /// Every result in the items' order, once each item is finished (taken by `work`
    /// on this thread or another). Call after this thread's own `work`: only items
    /// already taken can still be running.
    ///
    /// # Panics
    /// When an item's run panicked (on whichever thread ran it).
    pub(crate) fn results(&self) -> Vec<R> {
        let mut done = self.done.lock().unwrap_or_else(PoisonError::into_inner);
        while done.1 < self.items.len() {
            done = self
                .finished
                .wait(done)
                .unwrap_or_else(PoisonError::into_inner);
        }
        std::mem::take(&mut done.0)
            .into_iter()
            .map(|r| r.expect("a queued item's run panicked on another thread"))
            .collect()
    }
}

/// Records an item's result and counts it finished when dropped: at the end of its run,
/// or while a panic unwinds through it.
struct Finish<'q, T, R> {
    queue: &'q Queue<T, R>,
    at: usize,
    result: Option<R>,
}

impl<T, R> Drop for Finish<'_, T, R> {
    fn drop(&mut self) {
        let q = self.queue;
        let mut done = q.done.lock().unwrap_or_else(PoisonError::into_inner);
        done.0[self.at] = self.result.take();
        done.1 += 1;
        if done.1 == q.items.len() {
            q.finished.notify_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Queue;

    #[test]
    fn results_keep_the_items_order_whichever_thread_ran_them() {
        let q = Queue::new((0..200u64).collect());
        let run = |i: u64| {
            // Unequal work, so the threads take turns out of order.
            std::thread::sleep(std::time::Duration::from_micros((200 - i) % 7 * 30));
            i * 2
        };
        std::thread::scope(|s| {
            let helper = s.spawn(|| q.work(run));
            q.work(run);
            assert_eq!(q.results(), (0..200).map(|i| i * 2).collect::<Vec<_>>());
            helper.join().unwrap();
        });
    }

    #[test]
    fn a_thread_that_comes_late_finds_nothing_left() {
        let q = Queue::new(vec![1, 2, 3]);
        q.work(|i| i + 1);
        q.work(|_: i32| -> i32 { panic!("every item was taken") });
        assert_eq!(q.results(), vec![2, 3, 4]);
        assert!(Queue::<u8, u8>::new(Vec::new()).results().is_empty());
    }

    #[test]
    fn a_panicking_item_is_reported_not_waited_for() {
        let q = Queue::new(vec![1, 2]);
        let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            q.work(|i: i32| if i == 1 { panic!("item 1") } else { i });
        }));
        assert!(ran.is_err());
        // Item 2 is still there for another thread; item 1 counts as finished.
        q.work(|i| i);
        let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| q.results()));
        assert!(results.is_err());
    }
}
