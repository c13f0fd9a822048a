fn main() {
    std::process::exit(democ::run(std::env::args_os()));
}
