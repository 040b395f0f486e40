#!/usr/bin/env python3
"""What the specdiff pull-request action (action.yml) runs, so the tests can run it too.

  specdiff_pr.py dump CHECKOUT OUT.json   dump the program of one checkout
      env SPECDIFF_COMMAND  the program, as for `specdiff dump`: `bench.py ARGS` or `-m pkg.bench`
                            (split on whitespace; no shell quoting, nothing is run by a shell)
      env SPECDIFF_PYTHON   the interpreter (default python3)
  specdiff_pr.py report BASE.json HEAD.json OUTDIR
      writes OUTDIR/comment.md (the marker, then `specdiff diff --format markdown`, under GitHub's
      65,536-character limit), OUTDIR/pr-number and OUTDIR/verdict (`pass` or `regressed`)
      env SPECDIFF_FAIL_ON_REGRESSION  `true`: pass --fail-on-regression
      env SPECDIFF_LINK_BASE           the viewer's address for --link (empty: no link)
      env PR_NUMBER                    the pull request's number (digits)
  specdiff_pr.py verdict OUTDIR            exit 1 when OUTDIR/verdict is `regressed`

env SPECDIFF: the specdiff executable (default `specdiff`). Errors are one line, exit 2.
"""

import os
import pathlib
import re
import subprocess
import sys

MARKER = "<!-- specdiff -->"
COMMENT_LIMIT = 65_536


class Failure(Exception):
    pass


def specdiff():
    return os.environ.get("SPECDIFF") or "specdiff"


def dump(checkout, out):
    words = os.environ.get("SPECDIFF_COMMAND", "").split()
    if not words:
        raise Failure("SPECDIFF_COMMAND is empty: give the program to run (e.g. `bench.py` or `-m pkg.bench`)")
    python = os.environ.get("SPECDIFF_PYTHON") or "python3"
    out = pathlib.Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    if not pathlib.Path(checkout).is_dir():
        raise Failure(f"{checkout}: no such checkout")
    status = subprocess.run([specdiff(), "dump", "--python", python, "-o", str(out), *words], cwd=checkout).returncode
    if not out.is_file():
        raise Failure(f"{out}: specdiff dump wrote no dump (exit status {status})")
    if status != 0:
        # The program failed, but its specialization state is real: diff it anyway, and say so.
        print(f"specdiff_pr: the program exited with status {status} in {checkout}; its dump is still used")


def report(base, head, outdir):
    outdir = pathlib.Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    number = os.environ.get("PR_NUMBER", "")
    if not re.fullmatch(r"[1-9][0-9]{0,9}", number):
        raise Failure(f"PR_NUMBER {number!r}: not a pull-request number")
    markdown = outdir / "specdiff.md"
    args = [specdiff(), "diff", "--format", "markdown", "-o", str(markdown)]
    if os.environ.get("SPECDIFF_FAIL_ON_REGRESSION", "false") == "true":
        args.append("--fail-on-regression")
    if os.environ.get("SPECDIFF_LINK_BASE"):
        args += ["--link", os.environ["SPECDIFF_LINK_BASE"]]
    status = subprocess.run([*args, base, head]).returncode
    if status not in (0, 1):
        raise Failure(f"specdiff diff failed (exit status {status})")
    text = markdown.read_text(encoding="utf-8")
    body = f"{MARKER}\n{text}"
    if len(body) > COMMENT_LIMIT:  # `--format markdown` stays under the limit; the marker may not
        body = body[: COMMENT_LIMIT - 40] + "\n\n… cut at GitHub's comment limit\n"
    (outdir / "comment.md").write_text(body, encoding="utf-8")
    (outdir / "pr-number").write_text(number + "\n")
    verdict = "regressed" if status == 1 else "pass"
    (outdir / "verdict").write_text(verdict + "\n")
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        with open(summary, "a", encoding="utf-8") as f:
            f.write(text)
    print(f"specdiff_pr: {outdir / 'comment.md'}: {len(body)} characters, verdict {verdict}")


def verdict(outdir):
    path = pathlib.Path(outdir) / "verdict"
    try:
        value = path.read_text().strip()
    except OSError as e:
        raise Failure(f"{path}: cannot read: {e.strerror}")
    if value == "regressed":
        print("specdiff_pr: a hot function regressed (--fail-on-regression); see the comment", file=sys.stderr)
        return 1
    if value != "pass":
        raise Failure(f"{path}: unknown verdict {value!r}")
    return 0


def main(argv):
    commands = {"dump": (dump, 2), "report": (report, 3), "verdict": (verdict, 1)}
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
