//! The specdiff web viewer's entry point (built by trunk; the same binary runs the worker).

fn main() {
    specdiff_web::start();
}
