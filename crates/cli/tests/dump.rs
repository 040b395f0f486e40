//! `specdiff dump` on real programs under every interpreter present: the facts a user relies
//! on (the demo's slot load, module and class bodies, decoded counters) and the error paths.

mod common;

use common::*;

fn demo(name: &str) -> std::path::PathBuf {
    repo_root().join("examples/demo").join(name)
}

#[test]
fn demo_base_has_slot_load_and_head_lost_it() {
    let tmp = tempfile::tempdir().unwrap();
    let base_line = line_of(&demo("base.py"), "total += p.x * p.y");
    let head_line = line_of(&demo("head.py"), "total += getattr(p, key) * p.y");
    for py in interpreters() {
        let base = dump_ok(py, tmp.path(), "base", &["examples/demo/base.py", "30"]);
        let head = dump_ok(py, tmp.path(), "head", &["examples/demo/head.py", "30"]);
        let at = |d: &specdiff_core::Dump, line: u32| -> Vec<(String, String)> {
            let c = code(d, "demo/base.py", "dot_sum");
            listing(d, c).into_iter().filter(|(_, _, l)| *l == Some(line)).map(|(o, a, _)| (o, a)).collect()
        };
        let base_ops = at(&base, base_line);
        assert!(
            base_ops.iter().any(|(op, arg)| op == "LOAD_ATTR_SLOT" && arg.ends_with('x')),
            "{}: base hot loop should load p.x with LOAD_ATTR_SLOT, got {base_ops:?}",
            py.minor
        );
        let slot = base.code.iter().flat_map(|c| &c.instructions).find(|i| base.op(i).name == "LOAD_ATTR_SLOT").unwrap();
        assert_eq!(base.op(slot).family, "LOAD_ATTR");
        assert!(base.op(slot).specialized);

        let head_dot = code(&head, "demo/head.py", "dot_sum");
        let head_ops: Vec<_> =
            listing(&head, head_dot).into_iter().filter(|(_, _, l)| *l == Some(head_line)).collect();
        assert!(
            !head_ops.iter().any(|(op, arg, _)| op == "LOAD_ATTR_SLOT" && arg.ends_with('x')),
            "{}: head must not load x with LOAD_ATTR_SLOT: {head_ops:?}",
            py.minor
        );
        assert!(head_ops.iter().any(|(_, arg, _)| arg.contains("getattr")), "{}: {head_ops:?}", py.minor);
    }
}

/// The sampler counts a site's re-specializations in place (3.12+ re-specializes a
/// specialized site after its 53rd miss, often to the same opname: only its miss counter going
/// back up shows it) and never invents one for a site that held.
#[test]
fn the_sampler_sees_a_site_re_specialize_in_place() {
    let tmp = tempfile::tempdir().unwrap();
    let script = "crates/cli/tests/programs/respecialize.py";
    // Pyodide (3.14) has no threads: its sampler runs on timer ticks (mode "signal").
    for py in interpreters() {
        let d = dump_ok(py, tmp.path(), "respecialize", &[script]);
        let mode = if py.pyodide { "signal" } else { "thread" };
        assert_eq!(d.run.sampler.mode, mode, "{}", py.minor);
        assert!(d.run.sampler.samples > 0, "{}: {:?}", py.minor, d.run.sampler);
        let churn = |qualname: &str| {
            let c = code(&d, "respecialize.py", qualname);
            let ins = c.instructions.iter().find(|i| d.op(i).family == "LOAD_ATTR" && d.str(i.argrepr) == "x");
            ins.unwrap_or_else(|| panic!("{}: no LOAD_ATTR x in {qualname}", py.minor)).churn.clone()
        };
        assert_eq!(churn("read_one"), None, "{}: a monomorphic site that held", py.minor);
        let mixed = churn("read_mixed").unwrap_or_else(|| panic!("{}: no re-specialization seen", py.minor));
        assert!(mixed.flips >= 2, "{}: {mixed:?}", py.minor);
        let seen: Vec<_> = mixed.seen.iter().map(|&o| d.ops[o as usize].name.as_str()).collect();
        if py.minor != "3.11" {
            assert_eq!(seen, ["LOAD_ATTR_INSTANCE_VALUE"], "{}: re-specialized in place", py.minor);
        }
    }
}

/// 3.11: a site the sampler first finds deoptimized (`*_ADAPTIVE` with the counter a 53rd
/// miss leaves) and then specialized again has re-specialized once; it is not warming up.
#[test]
fn the_sampler_tells_a_deoptimized_site_from_one_warming_up() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(py) = interpreters().iter().find(|py| py.minor == "3.11") else { return };
    let d = dump_ok(py, tmp.path(), "deopt", &["crates/cli/tests/programs/deopt_then_respecialize.py"]);
    let c = code(&d, "deopt_then_respecialize.py", "read");
    let site = c.instructions.iter().find(|i| d.op(i).family == "LOAD_ATTR" && d.str(i.argrepr) == "x").expect("the o.x load");
    let churn = site.churn.as_ref().unwrap_or_else(|| panic!("no flip seen: {site:?}"));
    let seen: Vec<_> = churn.seen.iter().map(|&o| d.ops[o as usize].name.as_str()).collect();
    assert!(seen.ends_with(&["LOAD_ATTR_INSTANCE_VALUE"]) && seen.contains(&"LOAD_ATTR_ADAPTIVE"), "{seen:?}");
    // Flips after warm-up (the generic forms seen before the first specialized one, as the
    // classifier counts them): the specialization its first look proved lost makes one. (In
    // the rare run where the sampler looked during the first microseconds, it saw the site
    // specialized first, and counts the deoptimization itself.)
    let warm_up = seen.iter().position(|o| *o == "LOAD_ATTR_INSTANCE_VALUE").unwrap() as u32;
    assert!(churn.flips.saturating_sub(warm_up) >= 1, "{churn:?} {seen:?}");
}

#[test]
fn module_and_class_bodies_are_present_and_counters_decode() {
    let tmp = tempfile::tempdir().unwrap();
    for py in interpreters() {
        let d = dump_ok(py, tmp.path(), "bodies", &["examples/demo/base.py", "5"]);
        let module = code(&d, "demo/base.py", "<module>");
        assert_eq!(module.kind, specdiff_core::model::CodeKind::Module, "{}", py.minor);
        assert_eq!(d.str(module.module), "__main__");
        for class in ["Point", "Square", "Circle"] {
            let c = code(&d, "demo/base.py", class);
            assert_eq!(c.kind, specdiff_core::model::CodeKind::Class, "{} {class}", py.minor);
        }
        let init = code(&d, "demo/base.py", "Point.__init__");
        assert_eq!(init.kind, specdiff_core::model::CodeKind::Function);
        // Adaptive counters are decoded from the first cache word on every version.
        let with_counter = d
            .code
            .iter()
            .flat_map(|c| &c.instructions)
            .filter(|i| d.op(i).counter == Some(specdiff_core::model::CounterKind::Adaptive))
            .filter(|i| {
                let (value, backoff) = i.counter.expect("adaptive instructions carry a decoded counter");
                value == i.cache[0] >> 4 && u16::from(backoff) == i.cache[0] & 15
            })
            .count();
        assert!(with_counter > 20, "{}: only {with_counter} decoded counters", py.minor);
        assert_eq!(d.python.version_info.1.to_string(), py.minor[2..], "dump says {}", d.python.version);
        assert_eq!(d.run.exit_status, 0);
        assert_eq!(d.run.argv, vec!["examples/demo/base.py".to_string(), "5".into()]);
    }
}

#[test]
fn module_and_code_targets_get_their_own_argv() {
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let d = dump_ok(py, tmp.path(), "m", &["-m", "json.tool", "--help"]);
    assert_eq!(d.run.target.kind, "module");
    assert_eq!(d.run.argv[1], "--help");
    let d = dump_ok(py, tmp.path(), "c", &["-c", "import sys\nsys.exit(0 if sys.argv[1:] == ['-x'] else 5)", "-x"]);
    assert_eq!(d.run.target.kind, "code");
    assert_eq!(d.run.argv, vec!["-c".to_string(), "-x".into()]);
}

#[test]
fn stdin_and_stdout_belong_to_the_program() {
    use std::io::Write;
    use std::process::Stdio;
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let mut child = specdiff()
        .args(["dump", "--python"])
        .arg(&py.python)
        .arg("-o")
        .arg(tmp.path().join("echo.json"))
        .args(["-c", "import sys; print(sys.stdin.read().upper(), end='')"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"hello").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "HELLO");
}

#[test]
fn python_style_words_are_read_as_python_reads_them() {
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let run = |args: &[std::ffi::OsString], envs: &[(&str, std::ffi::OsString)]| {
        let mut cmd = specdiff();
        cmd.arg("dump").args(args).current_dir(tmp.path()).env_remove("SPECDIFF_PYTHON");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        cmd.output().unwrap()
    };
    let python = || vec!["--python".into(), py.python.clone().into_os_string()];
    // `-oFILE`, `-cCODE` and `-mMODULE`, their values attached, as python and clap take them.
    let out = tmp.path().join("attached.json");
    let mut args = python();
    args.extend([format!("-o{}", out.display()).into(), "--no-sample".into(), "-cprint(6 * 7)".into()]);
    let o = run(&args, &[]);
    assert!(o.status.success(), "{}", stderr_of(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "42\n");
    assert!(read(&out).code.iter().any(|c| c.kind == specdiff_core::model::CodeKind::Module));
    let out = tmp.path().join("module.json");
    let mut args = python();
    args.extend(["--no-sample".into(), "-o".into(), out.clone().into_os_string(), "-mplatform".into(), "--terse".into()]);
    let o = run(&args, &[]);
    assert!(o.status.success() && !o.stdout.is_empty(), "{}", stderr_of(&o));
    assert!(out.exists());
    // A misspelled option is an unknown option, not a script name, and runs nothing.
    let mut args = python();
    args.extend(["--no-samples".into(), repo_root().join("examples/demo/base.py").into_os_string()]);
    let o = run(&args, &[]);
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("unexpected argument '--no-samples'") && err.contains("'--no-sample'"), "{err}");
    assert!(!tmp.path().join("base.specdiff.json").exists());
    // An empty SPECDIFF_PYTHON is not set: the default interpreter runs (here a python3 on PATH).
    let bin = tmp.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(&py.python, bin.join("python3")).unwrap();
    #[cfg(unix)]
    {
        let out = tmp.path().join("env.json");
        let o = run(
            &["--no-sample".into(), "-o".into(), out.clone().into_os_string(), "-c".into(), "pass".into()],
            &[("SPECDIFF_PYTHON", "".into()), ("PATH", bin.into_os_string())],
        );
        assert!(o.status.success(), "{}", stderr_of(&o));
        assert!(out.exists());
    }
}

#[test]
fn gzip_output_is_read_back() {
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let out = tmp.path().join("d.json.gz");
    let o = dump_with(py, &out, &["examples/demo/base.py", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(&std::fs::read(&out).unwrap()[..2], &[0x1f, 0x8b]);
    let d = read(&out);
    assert!(d.code.len() > 10);
}

fn stderr_of(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn the_program_failing_still_writes_the_dump_and_keeps_its_status() {
    let tmp = tempfile::tempdir().unwrap();
    let py = &interpreters()[0];
    let out = tmp.path().join("raise.json");
    let o = dump_with(py, &out, &["-c", "def f(x):\n    return x.a\nf(1)\n"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr_of(&o));
    let err = stderr_of(&o);
    assert!(err.contains("AttributeError"), "{err}");
    assert!(err.contains("dump written anyway"), "{err}");
    let d = read(&out);
    assert!(d.run.exception.as_deref().unwrap().starts_with("AttributeError"));

    let out = tmp.path().join("exit.json");
    let o = dump_with(py, &out, &["-c", "import sys; sys.exit(7)"]);
    assert_eq!(o.status.code(), Some(7), "{}", stderr_of(&o));
    assert!(stderr_of(&o).contains("exited with status 7"), "{}", stderr_of(&o));
    assert_eq!(read(&out).run.exit_status, 7);
}

#[test]
fn environment_errors_are_one_line_and_write_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("never.json");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--python".into(), "/nonexistent/python3.99".into(), "examples/demo/base.py".into()], "python not found"),
        (vec!["--python".into(), interpreters()[0].python.display().to_string(), "no/such/script.py".into()], "script not found: no/such/script.py"),
        (vec!["--python".into(), interpreters()[0].python.display().to_string(), "-m".into(), "no_such_module_xyz".into()], "module not found: 'no_such_module_xyz'"),
        (vec!["--python".into(), "/bin/echo".into(), "examples/demo/base.py".into()], "does not behave like a Python interpreter"),
    ];
    // Intervals the sampler cannot use are refused before the program runs (`inf` used to
    // reach the harness, which then wrote an invalid dump at the end of the run).
    let py = interpreters()[0].python.display().to_string();
    let mut cases = cases;
    for (ms, why) in [("inf", "not a finite number"), ("nan", "not a finite number"), ("0", "out of range"), ("2000", "out of range")] {
        let args = vec!["--python".into(), py.clone(), "--interval-ms".into(), ms.into(), "examples/demo/base.py".into()];
        cases.push((args, if why == "out of range" { "is out of range; the interval must be from 0.01 to 1000 milliseconds" } else { "is not a finite number; the interval must be from 0.01 to 1000 milliseconds" }));
    }
    for (args, expected) in cases {
        let o = specdiff().arg("dump").arg("-o").arg(&out).args(&args).current_dir(repo_root()).output().unwrap();
        let err = stderr_of(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: expected {expected:?} in {err:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: not one line: {err:?}");
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
}

#[test]
fn old_python_is_refused_with_the_reason() {
    const TEST: &str = "old_python_is_refused_with_the_reason";
    let Some((version, old)) = ["3.10", "3.9", "3.8"].iter().find_map(|v| specdiff_test_support::pyenv_newest(v)) else {
        skip_or_fail(TEST, &Need::optional("CPython<3.11"), "no CPython 3.8-3.10 in pyenv");
        return;
    };
    ran(TEST, &format!("{version}(refusal)"));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("old.json");
    let o = specdiff().arg("dump").arg("--python").arg(&old).arg("-o").arg(&out).arg("examples/demo/base.py").current_dir(repo_root()).output().unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("adaptive bytecode needs CPython 3.11+"), "{err}");
    assert!(!out.exists());
}

#[test]
fn unwritable_output_fails_before_the_program_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("ran");
    let out = tmp.path().join("missing-dir/out.json");
    let code = format!("open({:?}, 'w').write('x')", marker.display().to_string());
    let o = dump_with(&interpreters()[0], &out, &["-c", &code]);
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("cannot write") && err.contains("missing-dir/out.json"), "{err}");
    assert!(!marker.exists(), "the program ran although the output could not be written");
}

#[test]
fn ctrl_c_writes_the_state_at_interruption() {
    use std::os::unix::process::CommandExt;
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("int.json");
    let ready = tmp.path().join("ready");
    let code = format!(
        "import time\ndef spin():\n    t = 0\n    while True:\n        t += 1\n        if t == 100000:\n            open({:?}, 'w').close()\nspin()\n",
        ready.display().to_string()
    );
    let native = any_native();
    // Its own process group, so the SIGINT below reaches specdiff and python like a terminal's.
    let child = specdiff()
        .arg("dump")
        .arg("--python")
        .arg(&native.python)
        .arg("-o")
        .arg(&out)
        .args(["-c", &code])
        .stderr(std::process::Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while !ready.exists() {
        assert!(start.elapsed().as_secs() < 60, "the program never started");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe { libc::kill(-(child.id() as i32), libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(err.contains("interrupted (Ctrl-C)"), "{err}");
    let d = read(&out);
    assert_eq!(d.run.exception.as_deref(), Some("KeyboardInterrupt"));
    assert!(code_named(&d, "spin"));
}

fn code_named(d: &specdiff_core::Dump, q: &str) -> bool {
    d.code.iter().any(|c| d.str(c.qualname) == q)
}

#[test]
fn pypy_is_refused_as_not_cpython() {
    const TEST: &str = "pypy_is_refused_as_not_cpython";
    let Ok(o) = std::process::Command::new("pypy3").arg("--version").output() else {
        skip_or_fail(TEST, &Need::pypy3(), "no pypy3 on PATH");
        return;
    };
    ran(TEST, "pypy3");
    assert!(o.status.success());
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("pypy.json");
    let o = specdiff().args(["dump", "--python", "pypy3", "-o"]).arg(&out).arg("examples/demo/base.py").current_dir(repo_root()).output().unwrap();
    let err = stderr_of(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("is PyPy") && err.contains("not CPython"), "{err}");
    assert!(!out.exists());
}

#[test]
fn real_dumps_validate_against_the_checked_in_schema() {
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(repo_root().join("docs/dump.schema.json")).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema itself is valid");
    let tmp = tempfile::tempdir().unwrap();
    for py in interpreters() {
        let out = tmp.path().join(format!("schema-{}.json", py.key));
        let o = dump_with(py, &out, &["examples/demo/head.py", "3"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&doc).take(5).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{}: dump does not match docs/dump.schema.json:\n{}", py.minor, errors.join("\n"));
        // And the schema is not vacuous: a broken instruction is rejected.
        let mut broken = doc.clone();
        broken["code"][0]["instructions"][0][1] = serde_json::json!("LOAD_ATTR");
        assert!(!validator.is_valid(&broken));
    }
}
