// Large shows allocate millions of small values; see the reason in Cargo.toml.
#[global_allocator]
static GLOBAL: mi::Mi = mi::Mi;

fn main() {
    let code = democ::run(std::env::args_os());
    leave::now(code)
}

/// The process ended once democ has said everything: its outputs are written, renamed
/// and closed, and no thread is left (all are scoped).
mod leave {
    use std::io::Write as _;

    // libc's `_exit` (unistd.h: `void _exit(int)`): ends the process at once, without
    // the `atexit` handlers `exit` runs. Declared `safe`: ending the process is safe, as
    // `std::process::exit` is; it takes a number and returns nothing.
    #[cfg(unix)]
    unsafe extern "C" {
        safe fn _exit(status: std::ffi::c_int) -> !;
    }

    /// Standard output flushed, as `std::process::exit` would (democ's own writes flush
    /// already; a failure now has nobody left to tell), then gone. Past `exit`'s handlers
    /// because the one registered is mimalloc's, which hands every freed page back to the
    /// kernel one `madvise` at a time (13 calls, 3.9 MiB, for `democ check` on sc16) just
    /// before the kernel takes the whole address space back anyway.
    pub(crate) fn now(code: i32) -> ! {
        let _ = std::io::stdout().flush();
        #[cfg(unix)]
        _exit(code);
        #[cfg(not(unix))]
        std::process::exit(code)
    }
}

/// mimalloc's first arena made small, before anything allocates.
#[cfg(target_os = "linux")]
mod first_arena {
    // mimalloc's C API (linked through the `mimalloc` crate), whose Rust bindings leave
    // this option out. `unsafe` is Rust 2024's marker on a foreign declaration: the
    // signature is mimalloc.h's `void mi_option_set_default(mi_option_t, long)`, which
    // stores a number in mimalloc's option table (no pointers; callable at any time).
    unsafe extern "C" {
        safe fn mi_option_set_default(option: std::ffi::c_int, value: std::ffi::c_long);
    }

    /// `mi_option_arena_reserve` in mimalloc.h's `mi_option_e` (v3).
    const ARENA_RESERVE: std::ffi::c_int = 23;

    /// std allocates before `main` (the main thread's stack-guard record), and that
    /// first allocation reserves mimalloc's first arena, 1 GiB by default, and clears
    /// bitmaps sized to it: 42 page faults (of ~230 for `democ --version` and ~800 for
    /// `democ check` on sc16) before democ stores a byte. 64 MiB (in KiB here) costs 5;
    /// larger shows take further arenas, which mimalloc doubles every eight (the
    /// 100-switch build: same page faults and time). MIMALLOC_ARENA_RESERVE still
    /// overrides it (this sets the default).
    extern "C" fn small() {
        mi_option_set_default(ARENA_RESERVE, 64 * 1024);
    }

    // A constructor, as C's `__attribute__((constructor))` makes: the one hook that runs
    // before std's first allocation. `unsafe` marks that the loader, not Rust, calls it;
    // it takes no arguments and touches no Rust state.
    #[used]
    #[unsafe(link_section = ".init_array")]
    static SMALL: extern "C" fn() = small;
}

/// mimalloc as the global allocator, asked through its plain entry points for what
/// needs no more than word alignment (nearly every allocation: strings, vectors of
/// numbers and pointers, nodes). The `mimalloc` crate's own allocator asks for every
/// block through `mi_malloc_aligned`, whose checks cost ~60 instructions a call against
/// ~20: 118 M of the largest show's `check` on its main thread, 1.9 M calls.
mod mi {
    use std::alloc::{GlobalAlloc, Layout};
    use std::ffi::c_void;

    // The crate that builds and links mimalloc's C library, whose allocator type this
    // module replaces: named so that it is linked.
    use mimalloc as _;

    // mimalloc.h's entry points (linked through the `mimalloc` crate). `unsafe` is Rust
    // 2024's marker on a foreign declaration; each is called below under the contract
    // GlobalAlloc's caller keeps (a live block of this allocator, a valid layout).
    unsafe extern "C" {
        fn mi_malloc(size: usize) -> *mut c_void;
        fn mi_zalloc(size: usize) -> *mut c_void;
        fn mi_realloc(p: *mut c_void, newsize: usize) -> *mut c_void;
        fn mi_malloc_aligned(size: usize, alignment: usize) -> *mut c_void;
        fn mi_zalloc_aligned(size: usize, alignment: usize) -> *mut c_void;
        fn mi_realloc_aligned(p: *mut c_void, newsize: usize, alignment: usize) -> *mut c_void;
        fn mi_free(p: *mut c_void);
    }

    /// Alignments mimalloc's plain calls meet: every block is a whole number of words
    /// from a page start aligned further. Each result is still checked (below) and
    /// redone the aligned way if it were not, so the rule is a speed bet, not a premise.
    const WORD: usize = std::mem::size_of::<usize>();

    fn aligned(p: *mut c_void, align: usize) -> bool {
        p.addr() & (align - 1) == 0
    }

    /// A new block by `plain` when the layout needs no more than a word's alignment and
    /// the block it gives meets it, else by `aligned`.
    #[inline(always)]
    unsafe fn word_first(
        layout: Layout,
        plain: unsafe extern "C" fn(usize) -> *mut c_void,
        aligned_by: unsafe extern "C" fn(usize, usize) -> *mut c_void,
    ) -> *mut u8 {
        let (size, align) = (layout.size(), layout.align());
        unsafe {
            if align <= WORD {
                let p = plain(size);
                if aligned(p, align) {
                    return p.cast();
                }
                mi_free(p);
            }
            aligned_by(size, align).cast()
        }
    }

    pub(crate) struct Mi;

    // SAFETY: every block comes from mimalloc and goes back to it (`mi_free` takes
    // blocks from any of its entry points); results are aligned to `layout.align()`,
    // checked where the plain calls are used.
    unsafe impl GlobalAlloc for Mi {
        #[inline]
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            unsafe { word_first(layout, mi_malloc, mi_malloc_aligned) }
        }

        #[inline]
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            unsafe { word_first(layout, mi_zalloc, mi_zalloc_aligned) }
        }

        #[inline]
        unsafe fn dealloc(&self, ptr: *mut u8, _layout: Layout) {
            unsafe { mi_free(ptr.cast()) }
        }

        #[inline]
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let align = layout.align();
            unsafe {
                if align > WORD {
                    return mi_realloc_aligned(ptr.cast(), new_size, align).cast();
                }
                let p = mi_realloc(ptr.cast(), new_size);
                if p.is_null() || aligned(p, align) {
                    return p.cast();
                }
                // Moved to a block not aligned enough: into one that is, with the
                // contents (the old block's, up to the smaller size). The old block is
                // gone, so a null here could not mean "left as it was", as realloc's
                // null must: out of memory then ends the process, as std would. The
                // layout is valid: GlobalAlloc's caller promises it of `new_size`.
                let q = mi_malloc_aligned(new_size, align);
                if q.is_null() {
                    std::alloc::handle_alloc_error(Layout::from_size_align_unchecked(
                        new_size, align,
                    ));
                }
                std::ptr::copy_nonoverlapping(
                    p.cast::<u8>(),
                    q.cast::<u8>(),
                    new_size.min(layout.size()),
                );
                mi_free(p);
                q.cast()
            }
        }
    }
}
