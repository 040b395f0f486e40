#!/usr/bin/env python3
"""What the specdiff pull-request action (action.yml) runs, so the tests can run it too.

  specdiff_pr.py key                       the job key: names the artifacts and the comment
      env SPECDIFF_KEY (the `key` input; empty: GITHUB_JOB-pyPYTHON_VERSION[-WORKDIR]),
      GITHUB_JOB, SPECDIFF_PYTHON_VERSION, WORKDIR; prints it, writes key= to $GITHUB_OUTPUT
  specdiff_pr.py base HEAD_CHECKOUT BASE_REF BASE_CHECKOUT
      checks out the merge base of BASE_REF and HEAD_CHECKOUT's HEAD at BASE_CHECKOUT (a git
      worktree of the head checkout, which needs the history: fetch-depth 0); writes sha= (the
      merge base) and head= (the head commit) to $GITHUB_OUTPUT
  specdiff_pr.py dump CHECKOUT OUT.json   dump the program of one checkout
      env SPECDIFF_COMMAND  the program, as for `specdiff dump`: `bench.py ARGS` or `-m pkg.bench`
                            (split on whitespace; no shell quoting, nothing is run by a shell)
      env SPECDIFF_PYTHON   the interpreter (default python3)
      env SPECDIFF_INSTALL  a bash command run in CHECKOUT inside a new venv (OUT-venv) made from
                            SPECDIFF_PYTHON, e.g. `pip install -r requirements.txt`; the program
                            then runs with that venv's python. Empty: no venv, SPECDIFF_PYTHON.
      A failed install or a missing dump is not an error here: it is written to OUT.error and
      decided by `report` (so the comment says it); the program's own failure is in the dump.
  specdiff_pr.py report BASE.json HEAD.json OUTDIR
      writes OUTDIR/comment.md (the key's marker, the head commit and run, then why the runs are
      not comparable or `specdiff diff --format markdown`, under GitHub's 65,536-character
      limit), OUTDIR/pr-number, OUTDIR/key and OUTDIR/verdict (`pass`, `regressed` or
      `broken: WHY`; the last two only with the gate on)
      env SPECDIFF_FAIL_ON_REGRESSION  `true`: the gate: pass --fail-on-regression, and a failed
                                       run or runs that are not comparable fail the check
      env SPECDIFF_LINK_BASE           the viewer's address for --link (empty: no link)
      env PR_NUMBER                    the pull request's number (digits)
      env SPECDIFF_KEY, HEAD_SHA, RUN_URL   the job key, the head commit and the run's address
  specdiff_pr.py verdict OUTDIR            exit 1, with one line why, unless OUTDIR/verdict is `pass`

env SPECDIFF: the specdiff executable (default `specdiff`). Errors are one line, exit 2.
"""

import json
import os
import pathlib
import re
import subprocess
import sys

COMMENT_LIMIT = 65_536
KEY = re.compile(r"[A-Za-z0-9._-]{1,100}")


class Failure(Exception):
    pass


def marker(key):
    """The hidden first line that finds this job's comment again (scripts/ci/post-comment.js)."""
    return f"<!-- specdiff key={key} -->"


def specdiff():
    return os.environ.get("SPECDIFF") or "specdiff"


def output(name, value):
    if path := os.environ.get("GITHUB_OUTPUT"):
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"{name}={value}\n")


def job_key():
    given = os.environ.get("SPECDIFF_KEY", "").strip()
    if given:
        if not KEY.fullmatch(given):
            raise Failure(f"key {given!r}: use 1-100 letters, digits, '.', '_' or '-'")
        key = given
    else:
        parts = [os.environ.get("GITHUB_JOB") or "specdiff", "py" + (os.environ.get("SPECDIFF_PYTHON_VERSION") or "")]
        workdir = os.environ.get("WORKDIR", ".").strip("/")
        if workdir not in ("", "."):
            parts.append(workdir)
        key = re.sub(r"[^A-Za-z0-9._-]+", "_", "-".join(parts))[:100]
    print(key)
    output("key", key)


def git(*args, cwd):
    run = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise Failure(f"git {' '.join(args)} in {cwd}: {last}")
    return run.stdout.strip()


def base(head_checkout, base_ref, base_checkout):
    # The PR's changes are what happened since the branch left its base: compare that commit,
    # not the base branch's tip (work merged there later is not this PR's).
    if not base_ref:
        raise Failure("base-ref is empty: give the base branch's commit")
    try:
        sha = git("merge-base", base_ref, "HEAD", cwd=head_checkout)
    except Failure as e:
        raise Failure(f"no merge base of {base_ref} and the head ({e}); check out the head with fetch-depth: 0") from None
    git("worktree", "add", "--detach", str(pathlib.Path(base_checkout).resolve()), sha, cwd=head_checkout)
    print(f"specdiff_pr: base is the merge base {sha} of {base_ref} and the head")
    output("sha", sha)
    output("head", git("rev-parse", "HEAD", cwd=head_checkout))


def install(checkout, python, venv_dir, command):
    """The user's environment: a venv of its own per checkout, their install command run in it."""
    made = subprocess.run([python, "-m", "venv", "--clear", str(venv_dir)])
    if made.returncode != 0:
        return None, f"{python} -m venv {venv_dir} failed (exit status {made.returncode})"
    bin_dir = venv_dir / ("Scripts" if os.name == "nt" else "bin")
    env = dict(os.environ, VIRTUAL_ENV=str(venv_dir), PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env.pop("PYTHONHOME", None)
    ran = subprocess.run(["bash", "-c", command], cwd=checkout, env=env)
    if ran.returncode != 0:
        return None, f"the install command failed (exit status {ran.returncode}) in {checkout}"
    return str(bin_dir / "python"), None


def dump(checkout, out):
    words = os.environ.get("SPECDIFF_COMMAND", "").split()
    if not words:
        raise Failure("SPECDIFF_COMMAND is empty: give the program to run (e.g. `bench.py` or `-m pkg.bench`)")
    python = os.environ.get("SPECDIFF_PYTHON") or "python3"
    out = pathlib.Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    error = pathlib.Path(f"{out}.error")
    error.unlink(missing_ok=True)
    out.unlink(missing_ok=True)
    if not pathlib.Path(checkout).is_dir():
        raise Failure(f"{checkout}: no such checkout")
    problem = None
    if command := os.environ.get("SPECDIFF_INSTALL", "").strip():
        python, problem = install(checkout, python, out.parent / f"{out.stem}-venv", command)
    if problem is None:
        status = subprocess.run([specdiff(), "dump", "--python", python, "-o", str(out), *words], cwd=checkout).returncode
        if not out.is_file():
            problem = f"specdiff dump wrote no dump (exit status {status})"
        elif status != 0:
            # The program failed, but its specialization state is real: `report` shows it and says so.
            print(f"specdiff_pr: the program exited with status {status} in {checkout}")
    if problem:
        error.write_text(problem + "\n", encoding="utf-8")
        print(f"::error::specdiff: {problem}")


def mention_safe(text):
    # Text from the program (an exception message) must not notify people or teams.
    return text.replace("@", "&#64;")


def load(side, path):
    """The dump of one side, or why there is none."""
    error = pathlib.Path(f"{path}.error")
    if error.is_file():
        return None, f"the {side} run failed: {error.read_text(encoding='utf-8').strip()}"
    try:
        return json.loads(pathlib.Path(path).read_text(encoding="utf-8")), None
    except OSError:
        return None, f"the {side} dump is missing ({path})"
    except ValueError as e:
        return None, f"the {side} dump is not JSON ({e})"


def program(d):
    run = d.get("run", {})
    target, cwd = run.get("target", {}), run.get("cwd", "")
    value = str(target.get("value", ""))
    if cwd and value.startswith(cwd.rstrip("/") + "/"):
        value = value[len(cwd.rstrip("/")) + 1 :]  # each checkout is its own folder
    return f"{target.get('kind')} {value} {' '.join(run.get('argv', [])[1:])}".strip()


def problems(base_path, head_path):
    """Why the two runs cannot be compared, or failed: one line each; empty when they are fine."""
    dumps, why = {}, []
    for side, path in (("base", base_path), ("head", head_path)):
        dumps[side], problem = load(side, path)
        if problem:
            why.append(problem)
            continue
        run = dumps[side].get("run", {})
        if run.get("exception"):
            why.append(f"the {side} run failed: {run['exception']}")
        elif run.get("exit_status", 0) != 0:
            why.append(f"the {side} run failed: exit status {run['exit_status']}")
    if dumps["base"] and dumps["head"]:
        b, h = dumps["base"].get("python", {}), dumps["head"].get("python", {})
        if (b.get("implementation"), b.get("version_info", [])[:2]) != (h.get("implementation"), h.get("version_info", [])[:2]):
            why.append(f"not comparable: base ran {b.get('implementation')} {b.get('version')}, head {h.get('implementation')} {h.get('version')}")
        if program(dumps["base"]) != program(dumps["head"]):
            why.append(f"not comparable: base ran `{program(dumps['base'])}`, head `{program(dumps['head'])}`")
    return [mention_safe(w) for w in why], all(dumps.values())


def cut(body):
    """At most COMMENT_LIMIT characters, every `<details>` the cut opened closed again."""
    if len(body) <= COMMENT_LIMIT:
        return body
    note = "\n\n… cut at GitHub's comment limit\n"
    size = COMMENT_LIMIT - len(note)
    while True:
        kept = body[:size]
        kept = kept[: kept.rfind("\n") + 1] or kept  # never half a line (or half a tag)
        opened = len(re.findall(r"<details\b", kept)) - len(re.findall(r"</details>", kept))
        cut_body = kept + "\n</details>" * max(opened, 0) + note
        if len(cut_body) <= COMMENT_LIMIT:
            return cut_body
        size -= len(cut_body) - COMMENT_LIMIT


def report(base_path, head_path, outdir):
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    number = os.environ.get("PR_NUMBER", "")
    if not re.fullmatch(r"[1-9][0-9]{0,9}", number):
        raise Failure(f"PR_NUMBER {number!r}: not a pull-request number")
    key = os.environ.get("SPECDIFF_KEY", "") or "specdiff"
    if not KEY.fullmatch(key):
        raise Failure(f"SPECDIFF_KEY {key!r}: not a job key")
    gate = os.environ.get("SPECDIFF_FAIL_ON_REGRESSION", "false") == "true"
    why, both = problems(base_path, head_path)
    text, status = "", 0
    if both:
        markdown = outdir / "specdiff.md"
        args = [specdiff(), "diff", "--format", "markdown", "-o", str(markdown)]
        if gate:
            args.append("--fail-on-regression")
        if os.environ.get("SPECDIFF_LINK_BASE"):
            args += ["--link", os.environ["SPECDIFF_LINK_BASE"]]
        status = subprocess.run([*args, base_path, head_path]).returncode
        if status in (0, 1):
            text = markdown.read_text(encoding="utf-8")
        else:
            why.append(f"specdiff diff failed (exit status {status})")
    head = re.sub(r"[^0-9a-f]", "", os.environ.get("HEAD_SHA", ""))[:40]
    run_url = os.environ.get("RUN_URL", "")
    stamp = " · ".join(x for x in [f"job `{key}`", head and f"head {head}", run_url and f"[run]({run_url})"] if x)
    lines = [marker(key)]
    if why:
        lines += [f"## specdiff: ⚠️ {why[0]}", ""] + [f"- {w}" for w in why] + [""]
    body = cut("\n".join(lines) + f"\n<sub>{stamp}</sub>\n\n" + text)
    (outdir / "comment.md").write_text(body, encoding="utf-8")
    (outdir / "pr-number").write_text(number + "\n")
    (outdir / "key").write_text(key + "\n")
    verdict = f"broken: {why[0]}" if why and gate else "regressed" if status == 1 else "pass"
    (outdir / "verdict").write_text(verdict + "\n", encoding="utf-8")
    if summary := os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(summary, "a", encoding="utf-8") as f:
            f.write(body)
    print(f"specdiff_pr: {outdir / 'comment.md'}: {len(body)} characters, verdict {verdict}")


def verdict(outdir):
    path = pathlib.Path(outdir) / "verdict"
    try:
        value = path.read_text(encoding="utf-8").strip()
    except OSError as e:
        raise Failure(f"{path}: cannot read: {e.strerror}") from None
    if value == "regressed":
        print("specdiff_pr: a hot function regressed (--fail-on-regression); see the comment", file=sys.stderr)
        return 1
    if value.startswith("broken: "):
        print(f"specdiff_pr: {value[len('broken: '):]}", file=sys.stderr)
        return 1
    if value != "pass":
        raise Failure(f"{path}: unknown verdict {value!r}")
    return 0


def main(argv):
    commands = {"key": (job_key, 0), "base": (base, 3), "dump": (dump, 2), "report": (report, 3), "verdict": (verdict, 1)}
    if not argv or argv[0] not in commands or len(argv) - 1 != commands[argv[0]][1]:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    fn, _ = commands[argv[0]]
    try:
        return fn(*argv[1:]) or 0
    except Failure as e:
        print(f"specdiff_pr: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
