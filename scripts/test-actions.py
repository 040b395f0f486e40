#!/usr/bin/env python3
"""Runs the pull-request loop of docs/ci.md end to end on a real git repository, with the local
runner of scripts/action_runner.py and a fake GitHub API: the two workflows exactly as the docs
give them (OWNER/specdiff@COMMIT is this checkout), action.yml and comment/action.yml.

The repository: main at A (bench.py, the demo's base program); a pull request branched at A
that adds a third-party dependency (idna, from requirements.txt; pip installs it offline from
.tools/real/wheels); a commit M merged to main after the branch was cut. Scenarios, each
checked for what the check says and what the API was asked:
  first push (unchanged program + idna: green, a comment is created, base = merge base A),
  second push (the demo's head program: red, the same comment is updated, the demo's functions),
  a crash in head (red, the comment says why), two matrix jobs (two comments, one per key),
  a fork pull request (its head only at refs/pull/N/head; the unprivileged run makes no API
  call, its token is read-only; the comment job posts).
env SPECDIFF_BIN: the specdiff under test (default: the release build, else built). Exit 1 on
the first failed check, with what went wrong and the run's transcript.
"""

import http.server
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import action_runner  # noqa: E402

ROOT = action_runner.ROOT
DEMO = ROOT / "examples/demo"


class Api(http.server.BaseHTTPRequestHandler):
    """GitHub's REST API, the four calls the poster makes; writes need the write token."""

    state = {"pulls": {}, "comments": [], "requests": []}

    def log_message(self, *args):
        pass

    def reply(self, code, data):
        body = json.dumps(data).encode()
        self.send_response(code)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        s, token = self.state, self.headers.get("authorization", "").removeprefix("token ")
        length = int(self.headers.get("content-length") or 0)
        data = json.loads(self.rfile.read(length) or b"{}")
        s["requests"].append((self.command, self.path.split("?")[0], token))
        parts = self.path.split("?")[0].strip("/").split("/")
        if self.command != "GET" and token != "write-token":
            return self.reply(403, {"message": "Resource not accessible by integration"})
        if parts[3:4] == ["pulls"] and self.command == "GET":
            return self.reply(200, {"head": {"sha": s["pulls"][int(parts[4])]}})
        if parts[3:4] == ["issues"] and parts[4] != "comments":
            number = int(parts[4])
            if self.command == "GET":
                return self.reply(200, [c for c in s["comments"] if c["issue"] == number])
            comment = {"id": 100 + len(s["comments"]), "issue": number, "body": data["body"], "user": {"login": "app[bot]"}}
            s["comments"].append(comment)
            return self.reply(201, comment)
        if parts[3:5] == ["issues", "comments"] and self.command == "PATCH":
            comment = next(c for c in s["comments"] if c["id"] == int(parts[5]))
            comment["body"] = data["body"]
            return self.reply(200, comment)
        return self.reply(404, {"message": "not faked"})

    do_GET = do_POST = do_PATCH = handle_any


def git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def commit(repo, files, message):
    for name, text in files.items():
        (repo / name).write_text(text)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


def with_idna(program):
    return "import idna  # the pull request's third-party dependency\n" + program


class Check:
    def __init__(self):
        self.runs = []

    def __call__(self, ok, what):
        if ok:
            print(f"ok   actions: {what}")
            return
        print(f"FAIL actions: {what}", file=sys.stderr)
        for run in self.runs[-2:]:
            for entry in run.log:
                print("  ", *[str(x)[-3000:] for x in entry], file=sys.stderr)
        sys.exit(1)


def pythons():
    found = {}
    for minor in ("3.12", "3.13"):
        for prefix in sorted(pathlib.Path.home().glob(f".pyenv/versions/{minor}.*")):
            found[minor] = str(prefix / "bin" / f"python{minor}")
    return found


def specdiff_bin():
    if given := os.environ.get("SPECDIFF_BIN"):
        return given
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    exe = target / "release/specdiff"
    if not exe.is_file():
        subprocess.run(["cargo", "build", "--release", "--locked", "-q", "-p", "specdiff-cli"], cwd=ROOT, check=True)
    return str(exe)


def main(tmp):
    check = Check()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Api)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    api_url, state = f"http://127.0.0.1:{server.server_port}", Api.state
    wheels = ROOT / ".tools/real/wheels"
    env = {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheels), "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    flows, py, exe = action_runner.recipe(), pythons(), specdiff_bin()
    check(set(flows) == {"specdiff.yml", "specdiff-comment.yml"}, "docs/ci.md has the two workflows")
    check("3.12" in py, "CPython 3.12 (pyenv) for the recipe's python-version")

    remote = tmp / "remote"
    remote.mkdir()
    git(remote, "init", "-q", "-b", "main")
    git(remote, "config", "user.email", "t@example"), git(remote, "config", "user.name", "t")
    git(remote, "config", "uploadpack.allowAnySHA1InWant", "true")
    base_py, head_py = (DEMO / "base.py").read_text(), (DEMO / "head.py").read_text()
    a = commit(remote, {"bench.py": base_py, "requirements.txt": ""}, "A")
    git(remote, "checkout", "-q", "-b", "feature")
    pushes = {
        "first": commit(remote, {"bench.py": with_idna(base_py), "requirements.txt": "idna==3.10\n"}, "PR: use idna"),
        "second": commit(remote, {"bench.py": with_idna(head_py)}, "PR: the demo's refactors"),
        "crash": commit(remote, {"bench.py": with_idna("raise SystemExit('@org/team: broken')\n")}, "PR: crash"),
    }
    git(remote, "checkout", "-q", "main")
    merged_later = commit(remote, {"bench.py": head_py.replace("def dot_sum", "def _unused(): pass\n\n\ndef dot_sum")}, "M")
    run_id = [0]

    def pr_run(number, head, *, token="read-token", workflow=None, matrix=None):
        """The `pull_request` run of specdiff.yml, then the `workflow_run` run of specdiff-comment.yml."""
        run_id[0] += 1
        state["pulls"][number] = head
        store = tmp / f"artifacts-{run_id[0]}"
        event = {"pull_request": {"number": number, "base": {"sha": merged_later}, "head": {"sha": head}}}
        before = len(state["requests"])
        runner = action_runner.Runner(remote=remote, event_name="pull_request", event=event, pythons=py, specdiff=exe,
                                      store=store, api_url=api_url, token=token, scratch=tmp, run_id=run_id[0], env=env)
        check.runs.append(runner)
        job = (workflow or flows["specdiff.yml"])["jobs"]["specdiff"]
        results = [runner.run_job("specdiff", job, m) for m in (matrix or [None])]
        unprivileged_calls = state["requests"][before:]
        conclusion = "success" if all(results) else "failure"
        wr = {"id": run_id[0], "event": "pull_request", "conclusion": conclusion, "head_sha": head,
              "html_url": f"https://github.example/o/r/actions/runs/{run_id[0]}", "pull_requests": [] if number >= 50 else [{"number": number}]}
        poster = action_runner.Runner(remote=remote, event_name="workflow_run", event={"workflow_run": wr}, pythons=py, specdiff=exe,
                                      store=store, api_url=api_url, token="write-token", scratch=tmp, run_id=run_id[0] + 1000, env=env)
        check.runs.append(poster)
        poster.run_job("comment", flows["specdiff-comment.yml"]["jobs"]["comment"])
        return conclusion, unprivileged_calls, runner

    def comments(number):
        return [c for c in state["comments"] if c["issue"] == number]

    conclusion, calls, runner = pr_run(1, pushes["first"])
    check(conclusion == "success", "first push: an unchanged program with a new dependency is green")
    check(len(comments(1)) == 1 and f"head {pushes['first']}" in comments(1)[0]["body"], "first push: one comment, naming the head commit")
    first_id = comments(1)[0]["id"]
    logs = "\n".join(str(e) for e in runner.log)
    check(f"merge base {a} of {merged_later}" in logs, "first push: the base is the merge base A, not main's tip M")

    conclusion, _, _ = pr_run(1, pushes["second"])
    body = comments(1)[0]["body"]
    check(conclusion == "failure", "second push: the demo's refactors fail the gate")
    check(len(comments(1)) == 1 and comments(1)[0]["id"] == first_id and f"head {pushes['second']}" in body, "second push: the same comment is updated")
    check(all(f in body for f in ("dot_sum", "total_area")), "second push: the comment names the demo's regressed functions")

    conclusion, _, _ = pr_run(1, pushes["crash"])
    body = comments(1)[0]["body"]
    check(conclusion == "failure" and len(comments(1)) == 1, "crash in head: red, still one comment")
    check("## specdiff: ⚠️ the head run failed" in body and "@org" not in body, f"crash in head: the comment says why, no mention: {body[:200]!r}")

    matrix_flow = json.loads(json.dumps(flows["specdiff.yml"]))
    job = matrix_flow["jobs"]["specdiff"]
    job["strategy"] = {"matrix": {"python": ["3.12", "3.13"]}}
    job["steps"][0]["with"]["python-version"] = "${{ matrix.python }}"
    if "3.13" in py:
        conclusion, _, _ = pr_run(2, pushes["first"], workflow=matrix_flow, matrix=[{"python": "3.12"}, {"python": "3.13"}])
        keys = sorted(c["body"].splitlines()[0] for c in comments(2))
        check(conclusion == "success", "two matrix jobs: no artifact conflict, green")
        check(keys == ["<!-- specdiff key=specdiff-py3.12 -->", "<!-- specdiff key=specdiff-py3.13 -->"], f"two matrix jobs: one comment per key {keys}")

    git(remote, "update-ref", "refs/pull/77/head", pushes["second"])
    git(remote, "branch", "-q", "-D", "feature")  # a fork's branch is not in this repository
    conclusion, calls, _ = pr_run(77, pushes["second"])
    check(calls == [], f"fork pull request: the unprivileged run makes no API call ({calls})")
    check(len(comments(77)) == 1 and "dot_sum" in comments(77)[0]["body"], "fork pull request: the comment job posts the result")
    writes = [r for r in state["requests"] if r[0] != "GET"]
    check(all(token == "write-token" for _, _, token in writes), "only the comment job's token wrote")
    server.shutdown()
    print(f"ok   actions: {len(state['comments'])} comments, {len(state['requests'])} API requests")


if __name__ == "__main__":
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="specdiff-actions-"))
    try:
        main(scratch)
    finally:  # every run's workspace, venvs and artifacts, and the repository
        shutil.rmtree(scratch, ignore_errors=True)
