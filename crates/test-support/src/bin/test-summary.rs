//! `test-summary [RECORD]`: prints the one-line summary of the tests' interpreter record
//! (default: `specdiff_test_support::record_path()`); scripts/test.sh runs it last.

fn main() {
    let path =
        std::env::args_os().nth(1).map(std::path::PathBuf::from).unwrap_or_else(specdiff_test_support::record_path);
    match std::fs::read_to_string(&path) {
        Ok(text) => println!("{}", specdiff_test_support::summary(&text)),
        Err(e) => println!("interpreters: no record ({}: {e}): no test that needs an interpreter ran", path.display()),
    }
}
