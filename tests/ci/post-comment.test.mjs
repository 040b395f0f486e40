// Unit tests of scripts/ci/post-comment.js (node --test tests/ci/). With SPECDIFF_ARTIFACT_DIR
// (set by crates/cli/tests/ci_action.rs) they also read the artifact that the action's own
// script made from real dumps.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import test from 'node:test';

const require = createRequire(import.meta.url);
const poster = require('../../scripts/ci/post-comment.js');
const { LIMIT } = poster;
const MARKER = poster.marker('bench-py3.12');

test('pull-request numbers are digits only, keys are short names', () => {
  assert.equal(poster.parsePrNumber('42\n'), 42);
  for (const bad of ['', '0', '-1', '4 2', '42; rm -rf /', '1e3', '12345678901', '$(id)']) {
    assert.throws(() => poster.parsePrNumber(bad), /pr-number: not a pull-request number/, bad);
  }
  assert.equal(poster.parseKey('bench-py3.12\n'), 'bench-py3.12');
  for (const bad of ['', 'a b', 'x-->', 'k'.repeat(101), '../x']) {
    assert.throws(() => poster.parseKey(bad), /key: not a job key/, bad);
  }
});

test('the body starts with the marker once and stays under the limit', () => {
  assert.equal(poster.commentBody('## specdiff', 'bench-py3.12'), `${MARKER}\n## specdiff`);
  assert.equal(poster.commentBody(`${MARKER}\n## x`, 'bench-py3.12'), `${MARKER}\n## x`);
  const long = poster.commentBody('é'.repeat(LIMIT * 2), 'bench-py3.12');
  assert.ok([...long].length <= LIMIT && long.startsWith(MARKER) && long.endsWith("comment limit\n"));
});

test('a cut never leaves a <details> open', () => {
  const section = '<details><summary>f</summary>\n\n' + 'line of a table\n'.repeat(400) + '</details>\n';
  const body = poster.commentBody(section.repeat(20), 'k');
  const opened = body.match(/<details>/g).length;
  assert.ok([...body].length <= LIMIT);
  assert.equal(body.match(/<\/details>/g).length, opened);
});

test('the marked comment of the key is edited, whoever posted it', () => {
  const comments = [
    { id: 1, user: { login: 'someone' }, body: `${poster.marker('other')}\nfake` },
    { id: 2, user: { login: 'github-actions[bot]' }, body: 'another bot comment' },
    { id: 3, user: { login: 'my-app[bot]' }, body: `${MARKER}\n## specdiff` },
    { id: 4, user: null, body: null },
  ];
  assert.equal(poster.findMarked(comments, 'bench-py3.12').id, 3);
  assert.equal(poster.findMarked(comments, 'other').id, 1);
  assert.equal(poster.findMarked(comments.slice(0, 2), 'bench-py3.12'), null);
  assert.equal(poster.findMarked([{ id: 5, body: `${poster.marker('bench-py3.12.1')}\nx` }], 'bench-py3.12'), null);
});

function artifact(files, parent) {
  const dir = fs.mkdtempSync(path.join(parent ?? os.tmpdir(), 'specdiff-artifact-'));
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

test('a bad artifact is refused', () => {
  assert.throws(() => poster.readArtifact(artifact({ key: 'k', 'comment.md': 'x' })), /pr-number: missing/);
  assert.throws(() => poster.readArtifact(artifact({ 'pr-number': '7', 'comment.md': 'x' })), /key: missing/);
  assert.throws(() => poster.readArtifact(artifact({ key: 'k', 'pr-number': '7', 'comment.md': 'x'.repeat(5 * LIMIT) })), /comment.md: \d+ bytes/);
  const dir = artifact({ key: 'k', 'pr-number': '7' });
  fs.symlinkSync('/etc/passwd', path.join(dir, 'comment.md'));
  assert.throws(() => poster.readArtifact(dir), /comment.md: missing from the artifact \(or not a plain file\)/);
});

/** A stand-in for the API client, recording the calls (the API itself cannot run here). */
function client(headSha, comments) {
  const calls = [];
  const rest = {
    pulls: { get: async (a) => (calls.push(['get', a]), { data: { head: { sha: headSha } } }) },
    issues: {
      listComments: 'listComments',
      updateComment: async (a) => calls.push(['update', a]),
      createComment: async (a) => calls.push(['create', a]),
    },
  };
  return { calls, github: { rest, paginate: async (what, a) => (calls.push([what, a]), comments) } };
}
const run = (conclusion, prs = []) => ({
  repo: { owner: 'o', repo: 'r' },
  payload: { workflow_run: { head_sha: 'abc', conclusion, html_url: 'https://x/runs/5', pull_requests: prs } },
});
const context = run('success');
function recorder() {
  const failed = [];
  return { failed, core: { info() {}, warning() {}, setFailed: (m) => failed.push(m) } };
}

test('updates the marked comment, else creates one, and skips a stale run', async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'specdiff-download-'));
  artifact({ key: 'bench-py3.12', 'pr-number': '7\n', 'comment.md': '## specdiff: no change' }, parent);
  const { core } = recorder();
  const mine = [{ id: 9, user: { login: 'my-app[bot]' }, body: `${MARKER}\nold` }];
  let c = client('abc', mine);
  assert.deepEqual(await poster.run({ github: c.github, context, core, dir: parent }), ['updated']);
  assert.deepEqual(c.calls.at(-1), ['update', { owner: 'o', repo: 'r', comment_id: 9, body: `${MARKER}\n## specdiff: no change` }]);
  c = client('abc', []);
  assert.deepEqual(await poster.run({ github: c.github, context, core, dir: parent }), ['created']);
  assert.equal(c.calls.at(-1)[1].issue_number, 7);
  c = client('def', mine);
  assert.deepEqual(await poster.run({ github: c.github, context, core, dir: parent }), ['skipped']);
  assert.equal(c.calls.length, 1);
});

test('a matrix: one comment per key', async () => {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'specdiff-download-'));
  for (const key of ['bench-py3.12', 'bench-py3.13']) {
    const dir = path.join(parent, `specdiff-comment-${key}`); // as download-artifact names them
    fs.mkdirSync(dir);
    for (const [name, text] of Object.entries({ key, 'pr-number': '7', 'comment.md': `## ${key}` })) fs.writeFileSync(path.join(dir, name), text);
  }
  const c = client('abc', [{ id: 9, body: `${MARKER}\nold` }]);
  assert.deepEqual(await poster.run({ github: c.github, context, core: recorder().core, dir: parent }), ['updated', 'created']);
  assert.equal(c.calls.at(-1)[1].body, `${poster.marker('bench-py3.13')}\n## bench-py3.13`);
});

test('a run without an artifact says so on the pull request and fails', async () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'specdiff-download-'));
  const { failed, core } = recorder();
  const c = client('abc', []);
  assert.deepEqual(await poster.run({ github: c.github, context: run('failure', [{ number: 7 }]), core, dir: empty }), ['failed']);
  assert.equal(failed.length, 1);
  const [what, args] = c.calls.at(-1);
  assert.equal(what, 'create');
  assert.ok(args.body.startsWith(`${poster.marker('run')}\n## specdiff: ⚠️ no result for head abc`), args.body);
  assert.ok(args.body.includes('https://x/runs/5'));
});

test('the artifact made from real dumps', { skip: !process.env.SPECDIFF_ARTIFACT_DIR && 'SPECDIFF_ARTIFACT_DIR not set (crates/cli/tests/ci_action.rs sets it)' }, () => {
  const { number, key, body } = poster.readArtifact(process.env.SPECDIFF_ARTIFACT_DIR);
  assert.ok(number > 0);
  assert.ok(body.startsWith(`${poster.marker(key)}\n<sub>job `), body.slice(0, 80));
  assert.ok(body.includes('dot_sum') && [...body].length <= LIMIT);
});
