"""A local stand-in for GitHub Actions, enough to run action.yml and comment/action.yml as the
workflows of docs/ci.md use them (GitHub cannot run here): scripts/test-actions.py drives it.

What is real: the workflow files (the two blocks of docs/ci.md), the composite actions'
`run:` steps, run by bash in order with GitHub's environment files ($GITHUB_OUTPUT, $GITHUB_ENV,
$GITHUB_PATH, $GITHUB_STEP_SUMMARY), their `${{ }}` expressions (inputs, steps.*.outputs,
github.*, runner.*, matrix.*), `if:` conditions, and git.
What is emulated, minimally: `actions/checkout` (a clone of the local "remote" repository;
fetch-depth 0 keeps the history, any other depth only the commit), `actions/setup-python` (the
interpreter the runner is given for that version), `actions/upload-artifact` /
`actions/download-artifact` (folders under the run's artifact store; a second upload of one
name fails, as GitHub's does), `actions/github-script` (node with an Octokit-shaped client
talking to the fake API of scripts/test-actions.py), and the action's "Install specdiff" step
(replaced by the specdiff binary under test; scripts/test-packaging.sh runs that step itself).
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile

try:
    import yaml
except ImportError:
    raise SystemExit("action_runner: PyYAML is missing (python3 -m pip install pyyaml); it reads the workflow files") from None

ROOT = pathlib.Path(__file__).resolve().parent.parent


class RunFailed(Exception):
    pass


# ---- expressions: the subset the workflows use -------------------------------------------------

TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<op>==|!=|&&|\|\||!|\(|\)|,)|(?P<name>[A-Za-z_][\w.\-]*(?:\(\))?))")


def evaluate(expr, ctx):
    tokens, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m:
            raise RunFailed(f"expression {expr!r}: cannot read at {pos}")
        tokens.append(m)
        pos = m.end()
    stream = list(tokens)

    def atom():
        m = stream.pop(0)
        if m.group("str") is not None:
            return m.group("str")[1:-1].replace("''", "'")
        if m.group("op") == "!":
            return not truthy(atom())
        if m.group("op") == "(":
            v = disjunction()
            stream.pop(0)
            return v
        name = m.group("name")
        if name in ("always()", "success()", "failure()", "cancelled()"):
            return {"always()": True, "success()": not ctx["failed"], "failure()": ctx["failed"], "cancelled()": False}[name]
        if name in ("true", "false"):
            return name == "true"
        value = ctx
        for part in name.split("."):
            value = value.get(part, "") if isinstance(value, dict) else ""
        return value

    def comparison():
        left = atom()
        while stream and stream[0].group("op") in ("==", "!="):
            op = stream.pop(0).group("op")
            right = atom()
            left = (str(left) == str(right)) == (op == "==")
        return left

    def chain(op, operand, combine):
        left = operand()
        while stream and stream[0].group("op") == op:
            stream.pop(0)
            left = combine(left, operand())
        return left

    def conjunction():
        return chain("&&", comparison, lambda left, right: right if truthy(left) else left)

    def disjunction():
        return chain("||", conjunction, lambda left, right: left if truthy(left) else right)

    return disjunction()


def truthy(v):
    return v not in (False, "", 0, None)


def text(value, ctx):
    """A `with:`/`env:` value with every `${{ }}` replaced, as GitHub does (no shell involved)."""
    if not isinstance(value, str):
        return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)

    def one(m):
        v = evaluate(m.group(1), ctx)
        return str(v).lower() if isinstance(v, bool) else str(v)

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def condition(value, ctx):
    if value is None:
        return not ctx["failed"]
    expr = value.strip()
    if expr.startswith("${{") and expr.endswith("}}"):
        expr = expr[3:-2]
    if not re.search(r"\b(always|success|failure|cancelled)\(\)", expr):
        expr = f"success() && ({expr})"
    return truthy(evaluate(expr, ctx))


# ---- environment files ---------------------------------------------------------------------------

def read_env_file(path):
    values, lines = {}, pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if m := re.fullmatch(r"([^=<]+)<<(.+)", line):
            end = lines.index(m.group(2), i + 1)
            values[m.group(1)] = "\n".join(lines[i + 1 : end])
            i = end + 1
            continue
        if "=" in line:
            k, v = line.split("=", 1)
            values[k] = v
        i += 1
    return values


# ---- the runner ----------------------------------------------------------------------------------

class Runner:
    """One workflow run: a workspace, GitHub's contexts, an artifact store, a log."""

    def __init__(self, *, remote, event_name, event, pythons, specdiff, store, api_url, token, scratch, repo="o/r", run_id=1, env=None):
        self.remote, self.pythons, self.specdiff, self.store = remote, pythons, specdiff, pathlib.Path(store)
        self.api_url, self.token, self.repo, self.run_id = api_url, token, repo, run_id
        self.tmp = pathlib.Path(tempfile.mkdtemp(prefix="run-", dir=scratch))
        self.event_name, self.event, self.extra_env = event_name, event, env or {}
        self.log = []

    def github(self, job):
        return {
            "event_name": self.event_name, "event": self.event, "repository": self.repo, "run_id": str(self.run_id),
            "server_url": "https://github.example", "job": job, "token": self.token,
            "repository_owner": self.repo.split("/")[0], "workspace": "", "action_path": "",
        }

    def run_job(self, job_name, job, matrix=None):
        """Runs one job of a workflow; returns True when it succeeded."""
        workspace = self.tmp / f"{job_name}-{len(self.log)}" / "workspace"
        workspace.mkdir(parents=True)
        temp = workspace.parent / "temp"
        temp.mkdir()
        ctx = {"github": self.github(job_name), "matrix": matrix or {}, "runner": {"temp": str(temp)}, "failed": False, "env": {}}
        ctx["github"]["workspace"] = str(workspace)
        if not condition(job.get("if"), ctx):
            self.log.append((job_name, "skipped"))
            return True
        ok = self.steps(job["steps"], ctx, workspace, temp, action_path=None, inputs={})
        self.log.append((job_name, "success" if ok else "failure"))
        return ok

    def steps(self, steps, ctx, workspace, temp, action_path, inputs):
        outer = dict(ctx, inputs=inputs, steps={})
        for step in steps:
            if not condition(step.get("if"), outer):
                continue
            outputs, ok = self.step(step, outer, workspace, temp, action_path)
            if step.get("id"):
                outer["steps"][step["id"]] = {"outputs": outputs, "outcome": "success" if ok else "failure"}
            if not ok and not step.get("continue-on-error"):
                outer["failed"] = ctx["failed"] = True
        self.outputs = outer["steps"]
        return not outer["failed"]

    def step(self, step, ctx, workspace, temp, action_path):
        env = {k: text(v, ctx) for k, v in (step.get("env") or {}).items()}
        if "run" in step:
            if step.get("name") == "Install specdiff":
                return {"path": self.specdiff}, True  # emulated: the binary under test (docstring)
            return self.shell(step["run"], env, ctx, workspace, temp, action_path)
        uses, given = step["uses"], {k: text(v, ctx) for k, v in (step.get("with") or {}).items()}
        name = uses.split("@")[0]
        local = {"./": ROOT, "OWNER/specdiff": ROOT, "./comment": ROOT / "comment", "OWNER/specdiff/comment": ROOT / "comment"}
        if name in local:
            return self.composite(local[name], given, ctx, workspace, temp)
        emulated = {
            "actions/checkout": self.checkout, "actions/setup-python": self.setup_python,
            "actions/upload-artifact": self.upload, "actions/download-artifact": self.download,
            "actions/github-script": self.github_script,
        }
        if name not in emulated:
            raise RunFailed(f"{uses}: not emulated by the local runner")
        return emulated[name](given, env, ctx, workspace)

    def composite(self, path, given, ctx, workspace, temp):
        action = yaml.safe_load((path / "action.yml").read_text())
        inner_ctx = dict(ctx, failed=False)
        inner_ctx["github"] = dict(ctx["github"], action_path=str(path))
        inputs = {}
        for name, spec in (action.get("inputs") or {}).items():
            if name in given:
                inputs[name] = given[name]
            elif spec.get("required"):
                raise RunFailed(f"{path}/action.yml: required input {name} not given")
            else:
                inputs[name] = text(spec.get("default", ""), dict(inner_ctx, inputs={}, steps={}))
        unknown = set(given) - set(inputs)
        if unknown:
            raise RunFailed(f"{path}/action.yml: unexpected inputs {sorted(unknown)}")
        ok = self.steps(action["runs"]["steps"], inner_ctx, workspace, temp, path, inputs)
        outs = {k: text(v.get("value", ""), dict(inner_ctx, inputs=inputs, steps=self.outputs)) for k, v in (action.get("outputs") or {}).items()}
        return outs, ok

    def shell(self, script, env, ctx, workspace, temp, action_path):
        files = {k: temp / f"{k.lower()}-{os.urandom(4).hex()}" for k in ("GITHUB_OUTPUT", "GITHUB_ENV", "GITHUB_PATH")}
        for f in files.values():
            f.write_text("")
        summary = temp / "step-summary.md"
        full = dict(os.environ, **self.extra_env, **ctx["env"])
        full.update(
            GITHUB_WORKSPACE=str(workspace), RUNNER_TEMP=str(temp), GITHUB_EVENT_NAME=self.event_name,
            GITHUB_REPOSITORY=self.repo, GITHUB_RUN_ID=str(self.run_id), GITHUB_JOB=ctx["github"]["job"],
            GITHUB_SERVER_URL="https://github.example", GITHUB_ACTIONS="true", CI="true",
            GITHUB_STEP_SUMMARY=str(summary), **{k: str(v) for k, v in files.items()},
        )
        if action_path:
            full["GITHUB_ACTION_PATH"] = str(action_path)
        full.update(env)
        full["PATH"] = os.pathsep.join(ctx.get("path", []) + [full["PATH"]])
        run = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], cwd=workspace, env=full, capture_output=True, text=True)
        self.transcript(script.strip().splitlines()[0], run)
        ctx["env"].update(read_env_file(files["GITHUB_ENV"]))
        ctx.setdefault("path", [])[:0] = files["GITHUB_PATH"].read_text().split()
        return read_env_file(files["GITHUB_OUTPUT"]), run.returncode == 0

    def transcript(self, what, run):
        self.log.append((what, run.returncode, run.stdout[-4000:], run.stderr[-4000:]))

    # ---- emulated actions ----

    def checkout(self, given, env, ctx, workspace):
        dest = workspace / given.get("path", ".")
        ref = given.get("ref") or ctx["github"]["event"].get("pull_request", {}).get("head", {}).get("sha") or "HEAD"
        if dest.exists() and any(dest.iterdir()):
            shutil.rmtree(dest)
        if given.get("fetch-depth", "1") == "0":
            cmds = [["git", "clone", "-q", "--no-checkout", str(self.remote), str(dest)], ["git", "-C", str(dest), "fetch", "-q", "origin", ref]]
        else:
            cmds = [["git", "init", "-q", str(dest)], ["git", "-C", str(dest), "fetch", "-q", "--depth", "1", f"file://{self.remote}", ref]]
        cmds.append(["git", "-C", str(dest), "checkout", "-q", "--detach", "FETCH_HEAD"])
        for cmd in cmds:
            run = subprocess.run(cmd, capture_output=True, text=True)
            self.transcript(" ".join(cmd), run)
            if run.returncode != 0:
                return {}, False
        return {}, True

    def setup_python(self, given, env, ctx, workspace):
        python = self.pythons.get(given.get("python-version", ""))
        return ({"python-path": python}, True) if python else ({}, False)

    def upload(self, given, env, ctx, workspace):
        dest = self.store / given["name"]
        if dest.exists():
            self.log.append(("upload-artifact", f"conflict: an artifact named {given['name']} exists"))
            return {}, False
        files = [workspace / p.strip() for p in given["path"].splitlines() if p.strip()]
        files = [f for f in files if f.is_file()]
        if not files:
            return {}, True  # if-no-files-found: warn
        dest.mkdir(parents=True)
        for f in files:
            shutil.copy(f, dest / f.name)  # the files share their folder: GitHub keeps only the name
        return {}, True

    def download(self, given, env, ctx, workspace):
        dest = pathlib.Path(given.get("path") or workspace)
        if given.get("name"):
            if not (self.store / given["name"]).is_dir():
                return {}, False
            shutil.copytree(self.store / given["name"], dest, dirs_exist_ok=True)
            return {}, True
        pattern = re.compile(re.escape(given.get("pattern", "*")).replace(r"\*", ".*"))
        for artifact in sorted(self.store.iterdir()) if self.store.is_dir() else []:
            if pattern.fullmatch(artifact.name):
                shutil.copytree(artifact, dest / artifact.name, dirs_exist_ok=True)
        return {}, True

    def github_script(self, given, env, ctx, workspace):
        shim = self.tmp / "github-script.js"
        shim.write_text(GITHUB_SCRIPT)
        full = dict(os.environ, **env, API_URL=self.api_url, API_TOKEN=given.get("github-token", ""),
                    GITHUB_REPOSITORY=self.repo, EVENT=json.dumps(ctx["github"]["event"]), SCRIPT=given["script"])
        run = subprocess.run(["node", str(shim)], cwd=workspace, env=full, capture_output=True, text=True)
        self.transcript("actions/github-script", run)
        return {}, run.returncode == 0


# actions/github-script's `github`, `context` and `core`, only as far as post-comment.js uses them.
GITHUB_SCRIPT = r"""
const api = async (method, url, body) => {
  const r = await fetch(process.env.API_URL + url, { method, body: body && JSON.stringify(body),
    headers: { authorization: `token ${process.env.API_TOKEN}`, 'content-type': 'application/json' } });
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
  return { data: await r.json() };
};
const [owner, repo] = process.env.GITHUB_REPOSITORY.split('/');
const rest = {
  pulls: { get: (a) => api('GET', `/repos/${a.owner}/${a.repo}/pulls/${a.pull_number}`) },
  issues: {
    listComments: (a) => api('GET', `/repos/${a.owner}/${a.repo}/issues/${a.issue_number}/comments?per_page=${a.per_page}`),
    createComment: (a) => api('POST', `/repos/${a.owner}/${a.repo}/issues/${a.issue_number}/comments`, { body: a.body }),
    updateComment: (a) => api('PATCH', `/repos/${a.owner}/${a.repo}/issues/comments/${a.comment_id}`, { body: a.body }),
  },
};
const github = { rest, paginate: async (fn, a) => (await fn(a)).data };
const context = { repo: { owner, repo }, payload: JSON.parse(process.env.EVENT) };
const core = { info: (m) => console.log(m), warning: (m) => console.log(`::warning::${m}`),
  setFailed: (m) => { console.log(`::error::${m}`); process.exitCode = 1; } };
const body = new Function('require', 'github', 'context', 'core', `return (async () => {${process.env.SCRIPT}})();`);
body(require, github, context, core).catch((e) => { console.error(e.stack); process.exitCode = 1; });
"""


def recipe():
    """The two workflows of docs/ci.md, exactly as a user copies them."""
    doc = (ROOT / "docs/ci.md").read_text()
    blocks = re.findall(r"^`\.github/workflows/([\w.-]+\.yml)`.*?\n```yaml\n(.*?)```", doc, re.S | re.M)
    return {name: yaml.safe_load(body) for name, body in blocks}
