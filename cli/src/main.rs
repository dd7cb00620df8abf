//! The `kiln` binary: see `kiln_cli` for everything it does.

fn main() {
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let code = kiln_cli::run(std::env::args_os().collect(), &mut stdout.lock(), &mut stderr.lock());
    std::process::exit(code);
}
