//! What the subcommands share about their command line: `dump`'s words split from its
//! program's (as `python` splits them), the range check of numeric options, and environment
//! variables that stand in for flags.

use std::ffi::{OsStr, OsString};
use std::ops::RangeInclusive;

/// Splits `specdiff dump …` words so that everything after the program (script, `-m MOD` or
/// `-c CODE`) belongs to the program, exactly like `python` treats its command line. The
/// options come back with `-oFILE`, `-mMOD` and `-cCODE` as two words each (python reads
/// them so), and ending in `--` when a program follows, so clap never takes an option for
/// the program nor a misspelled option for a script.
pub fn split_program_words(words: &[OsString]) -> (Vec<OsString>, Vec<OsString>) {
    const VALUED: &[&str] = &["--python", "-o", "--output", "--include", "--exclude", "--interval-ms"];
    let mut opts = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_os_str();
        if w == "--" {
            opts.push(words[i].clone());
            return (opts, words[i + 1..].to_vec());
        }
        // The flag, its value, and how many words the two took.
        let (flag, value, taken) = match attached(w) {
            Some([flag, value]) => (flag, Some(value), 1),
            None => (words[i].clone(), words.get(i + 1).cloned(), 2),
        };
        if flag == "-m" || flag == "-c" {
            opts.push(flag);
            opts.extend(value);
            opts.push("--".into());
            return (opts, words[(i + taken).min(words.len())..].to_vec());
        }
        if flag.to_str().is_some_and(|f| VALUED.contains(&f)) {
            opts.push(flag);
            opts.extend(value);
            i += taken;
            continue;
        }
        if !w.as_encoded_bytes().starts_with(b"-") || w == "-" {
            opts.push("--".into());
            return (opts, words[i..].to_vec());
        }
        opts.push(words[i].clone());
        i += 1;
    }
    (opts, Vec::new())
}

/// `-oFILE`, `-mMODULE` or `-cCODE` as the flag and its value (`-o=FILE` too, as clap reads it).
fn attached(word: &OsStr) -> Option<[OsString; 2]> {
    let [b'-', flag @ (b'o' | b'm' | b'c'), rest @ ..] = word.as_encoded_bytes() else {
        return None;
    };
    let rest = match (flag, rest) {
        (_, []) => return None,
        (b'o', [b'=', file @ ..]) => file,
        _ => rest,
    };
    // SAFETY: `rest` is `word` after an ASCII prefix (two or three bytes), which std allows
    // splitting off an encoded OsStr.
    let value = unsafe { OsStr::from_encoded_bytes_unchecked(rest) };
    Some([format!("-{}", *flag as char).into(), value.to_os_string()])
}

/// `value` when it lies in `range`; else why not, in the words every numeric option uses:
/// `'inf' is not a finite number; the percentage must be from 0 to 100` (`shown` is the value
/// as the user wrote it, `what` what it measures, `unit` after the bounds).
pub fn within(value: f64, shown: &str, range: RangeInclusive<f64>, what: &str, unit: &str) -> Result<f64, String> {
    let why = if !value.is_finite() {
        "not a finite number"
    } else if !range.contains(&value) {
        "out of range"
    } else {
        return Ok(value);
    };
    Err(format!("'{shown}' is {why}; the {what} must be from {} to {}{unit}", range.start(), range.end()))
}

/// An environment variable that stands in for a flag: `None` when it is unset or empty (CI
/// set-ups export empty variables to mean "not set").
pub fn env_value(name: &str) -> Option<OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<OsString> {
        s.split_whitespace().map(Into::into).collect()
    }

    /// (the words after `dump`, the options clap gets, the program's words)
    fn check(cases: &[(&str, &str, &str)]) {
        for &(given, opts, program) in cases {
            assert_eq!(split_program_words(&words(given)), (words(opts), words(program)), "{given}");
        }
    }

    #[test]
    fn program_words_belong_to_the_program() {
        check(&[
            ("-o x.json prog.py --flag -m y", "-o x.json --", "prog.py --flag -m y"),
            ("--no-sample -m http.server --bind 1", "--no-sample -m http.server --", "--bind 1"),
            ("-c pass -o z", "-c pass --", "-o z"),
            ("--no-sample -- -weird.py a", "--no-sample --", "-weird.py a"),
            ("--no-sample", "--no-sample", ""),
        ]);
    }

    #[test]
    fn attached_values_are_read_as_python_reads_them() {
        check(&[
            ("-ox.json -o=y.json prog.py -ofoo", "-o x.json -o y.json --", "prog.py -ofoo"),
            ("-mjson.tool -x", "-m json.tool --", "-x"),
            ("-cprint(1) a", "-c print(1) --", "a"),
            ("-m", "-m --", ""),
        ]);
    }

    #[test]
    fn a_misspelled_option_is_left_to_clap() {
        check(&[("--no-samples prog.py", "--no-samples --", "prog.py")]);
    }

    #[test]
    fn numbers_outside_their_range_say_why() {
        assert_eq!(within(0.5, "0.5", 0.0..=1.0, "share", ""), Ok(0.5));
        assert_eq!(within(2.0, "2", 0.0..=1.0, "share", ""), Err("'2' is out of range; the share must be from 0 to 1".into()));
        assert_eq!(
            within(f64::NAN, "nan", 0.01..=1000.0, "interval", " ms"),
            Err("'nan' is not a finite number; the interval must be from 0.01 to 1000 ms".into())
        );
    }
}
