//! File paths as a reader needs them: the standard library as `<stdlib>/json/decoder.py`,
//! installed packages as `<site-packages>/pyparsing/core.py`, the program's own files relative
//! to the folder it ran in. A report is read on another machine (a PR comment, a shared link):
//! one machine's install prefix is noise there, and it names the user's home folder.
//!
//! The folders come from the dump (`python.paths`, recorded by the harness). Dumps without
//! them (specdiff 0.1) are read by folder names: a `site-packages` or `dist-packages`
//! component, or `lib/pythonX.Y`.

use crate::engine::matching::absolute_path;
use crate::model::dump::Dump;

/// Shows the file paths of one dump ([`PathDisplay::show`]).
#[derive(Debug, Clone)]
pub struct PathDisplay<'d> {
    stdlib: Vec<Vec<&'d str>>,
    site_packages: Vec<Vec<&'d str>>,
    cwd: Vec<&'d str>,
    cwd_text: &'d str,
    windows: bool,
}

/// The tag of the standard library's folder.
pub const STDLIB: &str = "<stdlib>";
/// The tag of installed packages' folders.
pub const SITE_PACKAGES: &str = "<site-packages>";

impl<'d> PathDisplay<'d> {
    /// The display rules of `dump`'s interpreter and working directory.
    pub fn of(dump: &'d Dump) -> Self {
        let cwd_text = dump.run.cwd.as_str();
        let folders = |dirs: &'d [String]| dirs.iter().map(|d| absolute_path(cwd_text, d)).filter(|c| !c.is_empty()).collect();
        PathDisplay {
            stdlib: folders(&dump.python.paths.stdlib),
            site_packages: folders(&dump.python.paths.site_packages),
            cwd: absolute_path(cwd_text, ""),
            cwd_text,
            windows: dump.python.platform.starts_with("win"),
        }
    }

    /// `path` as a report shows it (see the module docs). Names that are not paths
    /// (`<frozen importlib._bootstrap>`, `<string>`) and relative paths that stay inside the
    /// working directory are returned as they are.
    pub fn show(&self, path: &str) -> String {
        if path.starts_with('<') || path.is_empty() {
            return path.to_string();
        }
        let parts = absolute_path(self.cwd_text, path);
        // Installed packages first: their folder is often inside the stdlib's (`lib/python3.12/
        // site-packages`) or inside the project (a `.venv`).
        if let Some(rest) = self.under_any(&self.site_packages, &parts) {
            return tagged(SITE_PACKAGES, rest);
        }
        if let Some(rest) = self.under_any(&self.stdlib, &parts) {
            return tagged(STDLIB, rest);
        }
        if self.site_packages.is_empty() && self.stdlib.is_empty() {
            if let Some(shown) = by_folder_names(&parts) {
                return shown;
            }
        }
        if !is_absolute(path) && !path.split(['/', '\\']).any(|c| c == "..") {
            return path.to_string();
        }
        match self.under(&self.cwd, &parts) {
            Some(rest) if !rest.is_empty() => rest.join("/"),
            _ => path.to_string(),
        }
    }

    fn under_any<'p>(&self, folders: &[Vec<&str>], parts: &'p [&'p str]) -> Option<&'p [&'p str]> {
        // The deepest folder wins (a user site inside a prefix).
        folders.iter().filter_map(|f| self.under(f, parts).map(|rest| (f.len(), rest))).max_by_key(|(n, _)| *n).map(|(_, r)| r)
    }

    fn under<'p>(&self, folder: &[&str], parts: &'p [&'p str]) -> Option<&'p [&'p str]> {
        let same = |a: &str, b: &str| if self.windows { a.eq_ignore_ascii_case(b) } else { a == b };
        (parts.len() > folder.len() && folder.iter().zip(parts).all(|(a, b)| same(a, b))).then(|| &parts[folder.len()..])
    }
}

fn tagged(tag: &str, rest: &[&str]) -> String {
    let mut out = String::from(tag);
    for part in rest {
        out.push('/');
        out.push_str(part);
    }
    out
}

fn is_absolute(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with(['/', '\\']) || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// The rules for dumps that did not record their interpreter's folders.
fn by_folder_names(parts: &[&str]) -> Option<String> {
    if let Some(i) = parts.iter().rposition(|p| *p == "site-packages" || *p == "dist-packages") {
        return (i + 1 < parts.len()).then(|| tagged(SITE_PACKAGES, &parts[i + 1..]));
    }
    let is_version = |p: &str| p.strip_prefix("python3.").is_some_and(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()));
    let i = parts.windows(2).position(|w| w[0].eq_ignore_ascii_case("lib") && is_version(w[1]))?;
    (i + 2 < parts.len()).then(|| tagged(STDLIB, &parts[i + 2..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::builder::DumpBuilder;
    use crate::model::dump::InstallPaths;

    fn dump(cwd: &str, platform: &str, paths: InstallPaths) -> Dump {
        let mut d = DumpBuilder::new("3.12.1").build();
        d.run.cwd = cwd.into();
        d.python.platform = platform.into();
        d.python.paths = paths;
        d
    }

    fn unix_paths() -> InstallPaths {
        InstallPaths {
            stdlib: vec!["/home/u/.pyenv/versions/3.12.1/lib/python3.12".into()],
            site_packages: vec![
                "/home/u/proj/.venv/lib/python3.12/site-packages".into(),
                "/home/u/.local/lib/python3.12/site-packages".into(),
            ],
        }
    }

    #[test]
    fn recorded_folders_become_tags() {
        let d = dump("/home/u/proj", "linux-x86_64", unix_paths());
        let p = PathDisplay::of(&d);
        assert_eq!(p.show("/home/u/.pyenv/versions/3.12.1/lib/python3.12/json/decoder.py"), "<stdlib>/json/decoder.py");
        assert_eq!(p.show("/home/u/proj/.venv/lib/python3.12/site-packages/pyparsing/core.py"), "<site-packages>/pyparsing/core.py");
        assert_eq!(p.show("/home/u/.local/lib/python3.12/site-packages/x.py"), "<site-packages>/x.py");
        assert_eq!(p.show("/home/u/proj/app/main.py"), "app/main.py");
        assert_eq!(p.show("app/main.py"), "app/main.py");
        assert_eq!(p.show("./app/../app/main.py"), "app/main.py");
        assert_eq!(p.show("/srv/other.py"), "/srv/other.py");
        assert_eq!(p.show("<frozen importlib._bootstrap>"), "<frozen importlib._bootstrap>");
        assert_eq!(p.show("<string>"), "<string>");
        // A folder's name alone is not under it.
        assert_eq!(p.show("/home/u/.pyenv/versions/3.12.1/lib/python3.12"), "/home/u/.pyenv/versions/3.12.1/lib/python3.12");
    }

    #[test]
    fn windows_paths_compare_without_case() {
        let paths = InstallPaths {
            stdlib: vec![r"C:\Python312\Lib".into()],
            site_packages: vec![r"C:\Python312\Lib\site-packages".into()],
        };
        let d = dump(r"C:\work\proj", "win-amd64", paths);
        let p = PathDisplay::of(&d);
        assert_eq!(p.show(r"c:\python312\lib\json\decoder.py"), "<stdlib>/json/decoder.py");
        assert_eq!(p.show(r"C:\Python312\Lib\site-packages\attr\_make.py"), "<site-packages>/attr/_make.py");
        assert_eq!(p.show(r"C:\work\proj\bench.py"), "bench.py");
    }

    #[test]
    fn old_dumps_are_read_by_folder_names() {
        let d = dump("/home/u/proj", "linux-x86_64", InstallPaths::default());
        let p = PathDisplay::of(&d);
        assert_eq!(p.show("/usr/lib/python3.12/json/decoder.py"), "<stdlib>/json/decoder.py");
        assert_eq!(p.show("/usr/lib/python3/dist-packages/yaml/x.py"), "<site-packages>/yaml/x.py");
        assert_eq!(p.show("/opt/venv/lib/python3.11/site-packages/a/b.py"), "<site-packages>/a/b.py");
        assert_eq!(p.show("/home/u/proj/lib/python3.x/y.py"), "lib/python3.x/y.py");
    }
}

#[cfg(test)]
mod run_header_tests {
    use crate::format::builder::DumpBuilder;
    use crate::model::dump::{Dump, Target};
    use crate::report::types::run_warnings;

    #[test]
    fn the_command_is_shown_as_typed() {
        let mut d = DumpBuilder::new("3.12.1").build();
        d.run.argv = vec!["/home/u/.venv/lib/python3.12/site-packages/pytest/__main__.py".into(), "-q".into(), "tests".into()];
        d.run.target = Target { kind: "module".into(), value: "pytest".into() };
        assert_eq!(d.label(), "CPython 3.12.1 · -m pytest -q tests");
        d.run.argv = vec!["bench.py".into(), "--n".into(), "3".into()];
        d.run.target = Target { kind: "script".into(), value: "bench.py".into() };
        assert_eq!(d.command(), "bench.py --n 3");
    }

    #[test]
    fn only_an_exception_says_code_did_not_run() {
        let base = DumpBuilder::new("3.12.1").build();
        let mut head = base.clone();
        head.run.exit_status = 1;
        fn failed(b: &Dump, h: &Dump) -> Vec<String> {
            run_warnings(b, h).into_iter().filter(|w| w.code == "run_failed").map(|w| w.message).collect()
        }
        assert_eq!(failed(&base, &base), Vec::<String>::new());
        assert_eq!(failed(&base, &head), ["the head run exited with status 1: compare it only with a run that did the same work"]);
        head.run.exception = Some("ValueError: boom".into());
        assert_eq!(failed(&base, &head), ["the head run stopped at an uncaught exception (ValueError: boom): code after it did not run"]);
    }
}
