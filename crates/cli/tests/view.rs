//! `specdiff view` without a browser: the real binary serving real dumps (the demo pair) on
//! 127.0.0.1, spoken to over raw TCP so every request goes out exactly as written. It answers
//! only with its token in the path (issue 31: not to another user of the machine either), only
//! its own `Host`, refuses `..`, serves only the page and the two dumps (byte for byte), and
//! the page names them; the browser gets the token in a file only its user reads. Built without
//! the viewer, it says how to get it in one line. Its limits: tests/view_limits.rs. The page
//! itself is opened in Chromium by tests/e2e/view.mjs.

mod common;
mod view_server;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::*;
use view_server::*;

#[test]
fn view_serves_only_the_viewer_and_the_dumps_to_its_own_host() {
    let Some(view) = view_demo() else { return };
    let (base, head, key) = demo();
    let (port, ours, root) = (view.port, view.host(), view.root.clone());
    let (status, page) = get(port, &root, &ours);
    let page = String::from_utf8(page).unwrap();
    let base_url = format!("dumps/base-base-{key}.json");
    let head_url = format!("dumps/head-head-{key}.json");
    assert_eq!(status, 200);
    assert!(
        page.contains(&format!(
            "globalThis.specdiffDemo = [\"{base_url}\",\"{head_url}\"];"
        )),
        "the page names the dumps, relative to its own URL"
    );
    assert!(
        page.contains("connect-src 'self' "),
        "the page may fetch from its server"
    );
    for (url, path) in [(&base_url, base), (&head_url, head)] {
        let (status, body) = get(port, &format!("{root}{url}"), &ours);
        assert_eq!(status, 200, "{url}");
        assert!(
            body == std::fs::read(path).unwrap(),
            "{url}: not the file's bytes ({} bytes)",
            body.len()
        );
    }
    assert_eq!(get(port, &root, &format!("localhost:{port}")).0, 200);

    // DNS rebinding: another name (or no port, or another port) for this address.
    for host in [
        "attacker.example",
        &format!("attacker.example:{port}"),
        "127.0.0.1",
        "127.0.0.1:1",
        &format!("127.0.0.1.nip.io:{port}"),
    ] {
        let (status, body) = get(port, &root, host);
        assert_eq!(status, 403, "Host: {host}");
        assert!(
            !String::from_utf8_lossy(&body).contains("specdiffDemo"),
            "Host: {host}"
        );
    }
    for path in [
        format!("{root}dumps/../{base_url}"),
        format!("{root}../../../etc/passwd"),
        format!("{root}%2e%2e/%2e%2e/etc/passwd"),
        format!("{root}dumps/..%2f..%2fetc%2fpasswd"),
    ] {
        assert_eq!(get(port, &path, &ours).0, 400, "{path}");
    }
    let file = base.file_name().unwrap().to_str().unwrap();
    for path in [
        "dumps/",
        "dumps",
        "index.html",
        "specdiff-offline.html",
        file,
        &format!("dumps/{file}"),
        "etc/passwd",
    ] {
        assert_eq!(get(port, &format!("{root}{path}"), &ours).0, 404, "{path}");
    }
}

#[test]
fn nothing_is_served_without_the_token() {
    let Some(view) = view_demo() else { return };
    let (_, _, key) = demo();
    let (port, ours) = (view.port, view.host());
    let dump = format!("dumps/base-base-{key}.json");
    // What the server used to answer anyone who found the port.
    for path in [
        "/".to_string(),
        format!("/{dump}"),
        "/t/".into(),
        "/index.html".into(),
    ] {
        let (status, body) = get(port, &path, &ours);
        assert_eq!(
            (status, body.len()),
            (403, 0),
            "GET {path} without the token: {}",
            view.line
        );
    }
    let token = view
        .root
        .strip_prefix("/t/")
        .and_then(|t| t.strip_suffix('/'))
        .unwrap_or("");
    assert!(
        token.len() == 64 && token.bytes().all(|c| c.is_ascii_hexdigit()),
        "the printed URL carries 32 random bytes in hex: {}",
        view.line
    );
    // One character off, at the start or the end; one short; one long.
    let flip = |c: char| if c == '0' { '1' } else { '0' };
    let first = format!("{}{}", flip(token.chars().next().unwrap()), &token[1..]);
    let last = format!("{}{}", &token[..63], flip(token.chars().last().unwrap()));
    for wrong in [
        first.as_str(),
        &last,
        &token[..63],
        &format!("{token}0"),
        &token.to_ascii_uppercase(),
    ] {
        for path in ["", &dump] {
            let (status, body) = get(port, &format!("/t/{wrong}/{path}"), &ours);
            assert_eq!(
                (status, body.len()),
                (403, 0),
                "a wrong token: /t/{wrong}/{path}"
            );
        }
    }
    assert_eq!(
        get(port, &format!("{}{dump}", view.root), &ours).0,
        200,
        "the token opens it"
    );
    // The token is not on the command line, which every user may read.
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", view.child.id())).unwrap_or_default();
    assert!(
        !String::from_utf8_lossy(&cmdline).contains(token),
        "the token is in /proc/PID/cmdline"
    );
    let again = view_demo().unwrap();
    assert_ne!(again.root, view.root, "each run makes its own token");
}

/// Runs `cmd args` as the user `nobody` (a second user of the machine); its stdout, or why not.
fn as_nobody(cmd: &str, args: &[&str]) -> Result<String, String> {
    let o = Command::new("setpriv")
        .args(["--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"])
        .arg(cmd)
        .args(args)
        .output()
        .map_err(|e| format!("setpriv: {e}"))?;
    if !o.status.success() {
        return Err(format!(
            "{cmd} as nobody: {:?}: {}",
            o.status,
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Why this machine cannot run a second user's client, if it cannot.
fn no_second_user() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return Some("not Linux".into());
    }
    let me = Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if me.as_deref() != Some("0") {
        return Some("not running as root, so no other user can be taken".into());
    }
    as_nobody("curl", &["--version"]).err()
}

#[test]
fn another_user_of_the_machine_cannot_read_the_dumps() {
    if let Some(why) = no_second_user() {
        println!("SKIPPED the second-user check: {why}");
        return;
    }
    // The case: the dump is 0600 in a 0700 folder, unreadable by the other user.
    let (base, head, _) = demo();
    let dir = tempfile::tempdir().unwrap();
    let private = dir.path().join("private.json");
    std::fs::copy(base, &private).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o600)).unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    assert!(
        as_nobody("cat", &[private.to_str().unwrap()]).is_err(),
        "nobody can read the file itself"
    );
    let Some(view) = start(specdiff(), &[&private, head]) else {
        return;
    };
    let at = |path: &str| format!("http://127.0.0.1:{}{path}", view.port);
    let status = |url: &str| {
        as_nobody(
            "curl",
            &["-s", "-o", "/dev/null", "-w", "%{http_code}", url],
        )
        .unwrap()
    };
    let dump = "dumps/base-private.json";
    for path in [
        "/".to_string(),
        format!("/{dump}"),
        format!("/t/{}/{dump}", "0".repeat(64)),
    ] {
        assert_eq!(status(&at(&path)), "403", "nobody fetched {path}");
    }
    // What another user can learn of the process: not the token.
    let token = view.root.trim_start_matches("/t/").trim_end_matches('/');
    let pid = view.child.id().to_string();
    let cmdline = as_nobody("cat", &[&format!("/proc/{pid}/cmdline")]).unwrap();
    assert!(
        !cmdline.contains(token) && cmdline.contains("view"),
        "{cmdline:?}"
    );
    assert!(
        as_nobody("cat", &[&format!("/proc/{pid}/environ")]).is_err(),
        "nobody reads the environment"
    );
    // The port is open to nobody: the token alone is what keeps the dump.
    assert_eq!(
        status(&at(&format!("{}{dump}", view.root))),
        "200",
        "nobody, given the token"
    );
}

/// Linux: `specdiff view` without `--no-open` runs `xdg-open`; a stand-in records what it got.
#[cfg(target_os = "linux")]
#[test]
fn the_browser_is_handed_the_url_in_a_private_file_not_on_its_command_line() {
    use std::os::unix::fs::PermissionsExt;
    let (base, head, _) = demo();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("opened");
    let opener = dir.path().join("xdg-open");
    // Records its arguments, the mode and the text of the file it was given.
    let script = format!(
        "#!/bin/sh\n{{ printf '%s\\n' \"$@\"; stat -c %a \"$1\"; cat \"$1\"; }} > {0}.part; mv {0}.part {0}\n",
        log.display()
    );
    std::fs::write(&opener, script).unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = specdiff();
    cmd.env("PATH", path);
    let Some(mut view) = start(cmd, &[base, head]) else {
        return;
    };
    let started = Instant::now();
    while !log.exists() && started.elapsed() < HANG {
        std::thread::sleep(Duration::from_millis(50));
    }
    let got = std::fs::read_to_string(&log).expect("xdg-open was run");
    let mut lines = got.lines();
    let arg = lines.next().unwrap().to_string();
    let url = format!("http://127.0.0.1:{}{}", view.port, view.root);
    assert!(
        !arg.contains(&view.root) && !arg.contains("127.0.0.1"),
        "the opener's argument shows the token: {arg}"
    );
    assert_eq!(lines.next(), Some("600"), "{arg} is readable by others");
    assert!(
        got.contains(&format!("url={url}\"")),
        "{arg} does not lead to {url}:\n{got}"
    );
    // Ctrl-C: the file goes with the server.
    sigint(view.child.id());
    let status = view.child.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    assert!(!Path::new(&arg).exists(), "{arg} left behind");
}

/// SIGINT to `pid`, with the system's `kill` (no `libc` in the tests).
#[cfg(target_os = "linux")]
fn sigint(pid: u32) {
    let ok = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap()
        .success();
    assert!(ok);
}
