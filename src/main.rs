// Large shows allocate millions of small values; see the reason in Cargo.toml.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(democ::run(std::env::args_os()));
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
