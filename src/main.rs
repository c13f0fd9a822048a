#![forbid(unsafe_code)]

// Large shows allocate millions of small values; see the reason in Cargo.toml.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(democ::run(std::env::args_os()))
}
